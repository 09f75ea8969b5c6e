"""Text struck through in a cell (``sheets.struck``), read by both backends where a read asks for it, and kept through
every copy of a read: a write's read back, a poll's kept reads (Google's and a local workbook's), a row's JSON (a
resolution's record). The property: where a read of a range is kept or copied, its struck spans are too; a copy that
lost them would have a later poll read a struck Forum line as an order."""

from __future__ import annotations

import json
from pathlib import Path

from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.styles import Font

from sheets_gm.poll_gate.kept_reads import KeptRead, kept_path, load_kept, save_kept
from sheets_gm.poll_gate.local_reads import hand_kept_reads, keep_reads
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.layout import Grid
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.struck import spans_of, struck
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sheets.xlsx import openpyxl
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.google_api import GoogleApiFake, fake_client

RANGE = "Forum!A1:B3"
KEY = "1StruckReadsTest_abcdefghijklmnopqrstuvwxyz"


def _spans(grid: Grid) -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    return [(str(v), spans_of(v)) for row in grid for v in row if spans_of(v)]


def test_a_local_workbook_reads_a_struck_cell_and_struck_words_and_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "forum.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Forum"
    ws["A1"] = "Frank: 3A > 3B"
    ws["A1"].font = Font(strike=True)
    ws["A2"] = CellRichText([TextBlock(InlineFont(), "Ann: 5C > "), TextBlock(InlineFont(strike=True), "5D"),
                             TextBlock(InlineFont(), " 6D")])
    ws["A3"] = "Bo: 6C > 6D"
    wb.save(path)
    want = [("Frank: 3A > 3B", ((0, 14),)), ("Ann: 5C > 5D 6D", ((10, 12),))]
    backend = LocalWorkbookBackend(path)
    (grid,) = backend.read([RANGE], struck=[RANGE])
    assert _spans(grid) == want
    (after,) = backend.write([RangeWrite("Forum!B3", [["answered"]])], read_back=[RANGE])
    assert _spans(after) == want  # the write's read back, as the range was read
    assert _spans(LocalWorkbookBackend(path).read([RANGE], struck=[RANGE])[0]) == want  # and the file it saved
    config = tmp_path / "match.toml"
    keep_reads(config, MatchSheets(("Ann",), backend, backend, (backend,)))
    again = LocalWorkbookBackend(path)
    hand_kept_reads(config, MatchSheets(("Ann",), again, again, (again,)))
    assert again.kept is not None and _spans(again.read([RANGE], struck=[RANGE])[0]) == want  # from the kept read


def test_google_reads_a_struck_cell_and_struck_words_and_keeps_them(tmp_path: Path) -> None:
    with GoogleApiFake() as fake:
        fake.create_spreadsheet(KEY, "forum", {"Forum": (5, 5)})
        fake.set_values(KEY, "Forum!A1:A3", [["Frank: 3A > 3B"], ["🐸 Ann: 5C > 5D 6D"], ["Bo: 6C > 6D"]])
        fake.set_format(KEY, "Forum!A1", {"textFormat": {"strikethrough": True}})
        fake.strike_words(KEY, "Forum!A2", [(12, 14)])
        backend = GoogleSheetBackend(fake_client(), KEY)
        want = [("Frank: 3A > 3B", ((0, 14),)), ("🐸 Ann: 5C > 5D 6D", ((12, 14),))]
        (grid,) = backend.read([RANGE], struck=[RANGE])
        assert _spans(grid) == want
        assert backend.read([RANGE]) == [grid] and _spans(backend.read([RANGE])[0]) == []  # asked plain: plain
        (after,) = backend.write([RangeWrite("Forum!B3", [["answered"]])], read_back=[RANGE])
        assert _spans(after) == want
        path = kept_path(tmp_path / "match.toml")
        save_kept(path, {KEY: KeptRead((RANGE,), (grid,))})
        assert _spans(load_kept(path)[KEY].grids[0]) == want
        fake.set_values(KEY, "Forum!A2", [["Ann: 5C > 5D"]])  # a new value: Google erases its runs
        assert _spans(backend.read([RANGE], struck=[RANGE])[0]) == want[:1]
        assert not fake.violations, fake.violations


def test_a_rows_copy_keeps_its_struck_words() -> None:
    row = TypedRow("post", "coalition line 1", 5, "1", {"line": struck("Frank: 3A > 3B", [(0, 5)]), "n": 2}, "")
    back = TypedRow.from_json(json.loads(json.dumps(row.to_json())))  # as a record keeps it
    assert spans_of(back.values["line"]) == ((0, 5),) and back.values == row.values
