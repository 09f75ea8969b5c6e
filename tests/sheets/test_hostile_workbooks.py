"""Workbooks that would hurt the sync if loaded as they stand (issue 52, items 9 and 11): a zip bomb is refused
from its central directory before anything is inflated; an external link is dropped (see the sync's tests)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils import get_column_letter
from openpyxl.xml.constants import SHEET_MAIN_NS

from sheets_gm.sheets import xlsx
from sheets_gm.sheets.backend import RangeWrite, SheetAccessError
from sheets_gm.sheets.kept_parts import KeptParts
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


def refusals_before_loading(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The messages a read and a write of the workbook ``path`` are refused with, openpyxl made to fail the test if
    the workbook is handed to it."""

    def load(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"{path} was handed to openpyxl")

    monkeypatch.setattr(openpyxl, "load_workbook", load)
    said: list[str] = []
    for write in (False, True):
        backend = LocalWorkbookBackend(path)
        with pytest.raises(SheetAccessError) as caught:
            backend.write([RangeWrite("A1", [["x"]])]) if write else backend.read(["A1"])
        said.append(str(caught.value))
    return said


def test_a_zip_bomb_is_refused_before_anything_is_inflated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = bomb(tmp_path / "red.xlsx", xlsx.MAX_UNPACKED_BYTES + 1)
    assert path.stat().st_size < 1_000_000
    before = path.read_bytes()
    for message in refusals_before_loading(path, monkeypatch):
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


def junk_tab_workbook(path: Path, cells: int, position: int = 1) -> Path:
    """A workbook whose tab 'Junk' (second, or at ``position``) holds ``cells`` cells of one short word, ten a row (a
    paste gone wrong: a small file that unpacks to megabytes of XML). Saved by openpyxl with the tab empty, then the
    tab's XML written with its cells and its span (openpyxl took over a second to make and save them)."""
    book = openpyxl.Workbook()
    book.active.title = "Orders"
    book.active["A1"] = "Team"
    book.create_sheet("Junk", position)
    book.save(path)
    rows = [[f"{get_column_letter(c)}{r}" for c in range(1, min(10, cells - 10 * (r - 1)) + 1)]
            for r in range(1, (cells + 9) // 10 + 1)]
    sheet_data = "".join(f'<row r="{r}">' + "".join(f'<c r="{at}" t="inlineStr"><is><t>x</t></is></c>' for at in row)
                         + "</row>" for r, row in enumerate(rows, start=1))
    span = f"A1:{get_column_letter(max(map(len, rows)))}{len(rows)}"
    junk = (f'<worksheet xmlns="{SHEET_MAIN_NS}"><dimension ref="{span}"/><sheetData>{sheet_data}</sheetData>'
            "</worksheet>")
    with zipfile.ZipFile(path) as saved:
        parts = {info.filename: saved.read(info) for info in saved.infolist()}
    parts[f"xl/worksheets/sheet{position + 1}.xml"] = junk.encode()  # openpyxl numbers the tabs in their order
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            out.writestr(name, data)
    return path


@pytest.mark.parametrize("position", [0, 1])
def test_a_tab_of_more_cells_than_a_match_can_use_is_refused_before_it_is_loaded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, position: int) -> None:
    """Issues 66 and 79: a workbook under the unpacked-size limit whose tabs hold more cells than a match can use is
    refused at once, wherever the tab is, naming the tab and its size (its span, the cells in it, what it unpacks
    to), and nothing is saved back to it."""
    path = junk_tab_workbook(tmp_path / "orders-red.xlsx", xlsx.MAX_CELLS + 10, position)
    assert len(path.read_bytes()) < xlsx.MAX_UNPACKED_BYTES
    before = path.read_bytes()
    with zipfile.ZipFile(path) as archive:
        unpacked = max(part.file_size for part in archive.infolist())
    for message in refusals_before_loading(path, monkeypatch):
        assert (f"more than {xlsx.MAX_CELLS:,} cells (tab 'Junk' alone spans A1:J15001 (up to 150,010 cells), "
                f"{unpacked / 1e6:,.1f} MB unpacked)") in message, message
        assert "Nothing was saved back" in message
    assert path.read_bytes() == before


def test_a_tab_without_its_span_is_sized_by_the_cells_counted() -> None:
    """A worksheet that does not say its span (no ``<dimension>``: not every program writes one) is sized by the
    cells counted before the count stopped."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("xl/worksheets/sheet1.xml", "<worksheet><sheetData/></worksheet>")
    with zipfile.ZipFile(buffer) as archive:
        said = xlsx._tab_size(archive, archive.getinfo("xl/worksheets/sheet1.xml"), 150_001)
    assert said == "at least 150,001 cells, 0.0 MB unpacked"


@pytest.mark.parametrize("prefix", ["", "x:"])
def test_cells_are_counted_across_chunks_and_namespace_prefixes(prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The streaming count finds every cell element, one cut by a chunk's end included, with or without a prefix;
    a ``<col>`` or ``<cols>`` element is no cell."""
    monkeypatch.setattr(xlsx, "_CHUNK", 7)
    body = (f"<{prefix}cols><{prefix}col min='1'/></{prefix}cols>"
            + "".join(f'<{prefix}c r="A{i}"><{prefix}v>1</{prefix}v></{prefix}c>' for i in range(1, 41))
            + f'<{prefix}c r="B1"/>').encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("xl/worksheets/sheet1.xml", body)
    with zipfile.ZipFile(buffer) as archive:
        assert xlsx._count_cells(archive, archive.getinfo("xl/worksheets/sheet1.xml"), 10_000) == 41


def laughs(path: Path, part: str) -> Path:
    """A real workbook whose ``part`` declares nested entities that would expand to gigabytes ("billion laughs")
    and uses the largest in a cell."""
    buffer = io.BytesIO()
    book = openpyxl.Workbook()
    book.active["A1"] = "x"
    book.save(buffer)
    entities = '<!ENTITY a0 "lol">' + "".join(f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10))
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == part:
                data = f"<!DOCTYPE worksheet [{entities}]>".encode() + data.replace(b"<t>x</t>", b"<t>&a9;</t>")
            out.writestr(item, data)
    return path


def test_a_worksheet_of_entities_expanding_to_gigabytes_is_refused(tmp_path: Path) -> None:
    """A worksheet whose cell is an entity expanding to 10^9 times its text is refused at once, as a workbook that
    cannot be read (the XML parser refuses the expansion: sheets/xlsx.py parses worksheets with the standard
    library's parser only where expat does), and nothing is saved back to it."""
    path = laughs(tmp_path / "orders-red.xlsx", "xl/worksheets/sheet1.xml")
    before = path.read_bytes()
    for write in (False, True):
        with pytest.raises(SheetAccessError, match=r"is not a readable \.xlsx workbook"):
            backend = LocalWorkbookBackend(path)
            backend.write([RangeWrite("A2", [["y"]])]) if write else backend.read(["A1"])
    assert path.read_bytes() == before


def test_a_tab_counted_before_is_not_inflated_again_and_one_stored_otherwise_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cells of a tab stored as before (its compressed bytes, size and checksum) are not counted again: a second
    check of the same workbook inflates no tab, and a workbook with one tab changed inflates that tab alone; a tab
    past the bound is still refused the second time (only whole counts are kept). It fails with every tab counted
    at each check."""
    monkeypatch.setattr(xlsx, "_COUNTED", KeptParts())
    counting = xlsx._count_cells
    counted: list[str] = []

    def count(archive: zipfile.ZipFile, part: zipfile.ZipInfo, most: int) -> int:
        counted.append(part.filename)
        return counting(archive, part, most)

    monkeypatch.setattr(xlsx, "_count_cells", count)
    book = openpyxl.Workbook()
    book.active["A1"] = "x"
    book.create_sheet("Two")["B2"] = 2
    buffer = io.BytesIO()
    book.save(buffer)
    assert xlsx.unpacked_size_problem(buffer.getvalue()) == ""
    assert len(counted) == 2
    assert xlsx.unpacked_size_problem(buffer.getvalue()) == ""
    assert len(counted) == 2
    book["Two"]["C3"] = 3
    buffer = io.BytesIO()
    book.save(buffer)
    assert xlsx.unpacked_size_problem(buffer.getvalue()) == ""
    assert counted[2:] == ["xl/worksheets/sheet2.xml"]
    junk = junk_tab_workbook(tmp_path / "orders-red.xlsx", xlsx.MAX_CELLS + 10, 1).read_bytes()
    assert "more than" in xlsx.unpacked_size_problem(junk) and "more than" in xlsx.unpacked_size_problem(junk)
