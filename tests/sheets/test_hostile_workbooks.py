"""Workbooks that would hurt the sync if loaded as they stand (issue 52, items 9 and 11): a zip bomb is refused
from its central directory before anything is inflated; an external link is dropped (see the sync's tests)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.sheets import xlsx
from sheets_gm.sheets.backend import RangeWrite, SheetAccessError
from sheets_gm.sheets.local.backend import LocalWorkbookBackend


def bomb(path: Path, inflated: int) -> Path:
    """A real workbook whose first sheet is padded to ``inflated`` bytes of XML (a run of spaces, which deflates to
    almost nothing), written a megabyte at a time."""
    buffer = io.BytesIO()
    openpyxl.Workbook().save(buffer)
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item)
            if item.filename != "xl/worksheets/sheet1.xml":
                out.writestr(item, data)
                continue
            head, tail = data.split(b"<sheetData", 1)
            with out.open(item.filename, "w", force_zip64=True) as sheet:
                sheet.write(head)
                left = inflated - len(data)
                while left > 0:
                    sheet.write(b" " * min(left, 1 << 20))
                    left -= 1 << 20
                sheet.write(b"<sheetData" + tail)
    return path


def test_a_zip_bomb_is_refused_before_anything_is_inflated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = bomb(tmp_path / "red.xlsx", xlsx.MAX_UNPACKED_BYTES + 1)
    assert path.stat().st_size < 1_000_000
    before = path.read_bytes()

    def load(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the bomb was handed to openpyxl")

    monkeypatch.setattr(openpyxl, "load_workbook", load)
    for write in (False, True):
        backend = LocalWorkbookBackend(path)
        with pytest.raises(SheetAccessError) as caught:
            backend.write([RangeWrite("A1", [["x"]])]) if write else backend.read(["A1"])
        message = str(caught.value)
        assert message.startswith(f"{path} is not read: it would unpack to ")
        assert f"past the {xlsx.MAX_UNPACKED_BYTES:,} bytes a workbook may unpack to" in message
    assert path.read_bytes() == before


def test_a_workbook_under_the_limit_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = bomb(tmp_path / "board.xlsx", 300_000)
    assert LocalWorkbookBackend(path).read(["A1"]) == [[]]
    monkeypatch.setattr(xlsx, "MAX_UNPACKED_BYTES", 200_000)  # the same file, the limit lowered: refused
    with pytest.raises(SheetAccessError, match="past the 200,000 bytes"):
        LocalWorkbookBackend(path).read(["A1"])


def test_a_workbook_of_too_many_parts_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "parts.xlsx"
    openpyxl.Workbook().save(path)
    with zipfile.ZipFile(path, "a") as out:
        for i in range(30):
            out.writestr(f"junk/{i}.xml", "")
    monkeypatch.setattr(xlsx, "MAX_PARTS", 20)
    with pytest.raises(SheetAccessError, match=r"parts\.xlsx is not read: it holds 3\d parts \(a workbook holds at "
                                               r"most 20\)"):
        LocalWorkbookBackend(path).read(["A1"])
