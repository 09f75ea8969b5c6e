"""``row_fit.fit_rows`` finds a row's cells by looking each place up (a few rows of a long tab) or in one pass over
the tab's cells (a whole tab laid out): both ways size the rows and unwrap stray wraps alike."""

from __future__ import annotations

from typing import Any

import openpyxl
from openpyxl.styles import Alignment

from sheets_gm.sheets.row_fit import fit_rows

LONG = "a sentence long enough to wrap over several lines of a narrow column " * 3


def _tab() -> Any:
    """A tab 30 columns wide, most of its rows holding a wrapped answer in column B and a stray wrap in column H."""
    ws = openpyxl.Workbook().active
    ws.column_dimensions["B"].width = 20
    for row in range(1, 41):
        ws.cell(row=row, column=2, value=LONG[: row * 5]).alignment = Alignment(wrap_text=True)
        if row % 3 == 0:
            ws.cell(row=row, column=8, value="stray").alignment = Alignment(wrap_text=True)
        if row % 7 == 0:
            ws.cell(row=row, column=5, value="its own\nlines\nthree")
    ws.cell(row=1, column=30, value="edge")
    return ws


def _fitted(rows_at_once: int) -> list[tuple[float | None, bool | None]]:
    ws = _tab()
    rows = list(range(1, 41))
    for start in range(0, len(rows), rows_at_once):
        fit_rows(ws, rows[start:start + rows_at_once], {5}, [(1, 2, None, 2)])
    return [(ws.row_dimensions[r].height, stray.alignment.wrap_text if (stray := ws._cells.get((r, 8))) else None)
            for r in rows]


def test_a_row_at_a_time_and_the_whole_tab_at_once_fit_the_same_heights_and_wraps() -> None:
    one_by_one, at_once = _fitted(1), _fitted(40)  # 30 places a row: looked up one by one, found in one pass
    assert one_by_one == at_once
    assert at_once[4][0] is None and at_once[39][0] is not None and at_once[39][0] > 12.8  # row 5 fixed, 40 grown
    assert at_once[6][0] == 3 * 12.8  # its own three lines
    assert at_once[2][1] is None  # the stray wrap in column H (outside the wrapped box) put back
