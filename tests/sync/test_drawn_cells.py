"""A player who types over the sync's own cells of a row (issue 43, item 6): a 'For turn' stamp typed over makes
the row read as written for another window, so it is set aside with that reason in the Archive, and the row is
drawn again: its stamp and its move roll put back (they stayed as typed, neither corrected nor stopped)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from tests.matchfiles import local_match, record_of, sync, type_orders


def test_a_stamp_and_a_roll_typed_over_are_set_aside_and_drawn_again(tmp_path: Path) -> None:
    _config, sheets = local_match(tmp_path)
    type_orders(sheets, ready=False)
    path = tmp_path / "match.xlsx"
    book = openpyxl.load_workbook(path)
    ws = book["Orders red"]
    row = next(r for r in range(1, 20) if ws.cell(r, 1).value == "red0")
    stamp, roll = ws.cell(row, 2).value, ws.cell(row, 3).value
    destination = ws.cell(row, 4).value
    ws.cell(row, 2).value, ws.cell(row, 3).value = "7", 7 if roll != 7 else 6
    book.save(path)
    sync(sheets)
    ws = openpyxl.load_workbook(path)["Orders red"]
    assert str(ws.cell(row, 2).value) == str(stamp) and ws.cell(row, 3).value == roll  # drawn again
    assert ws.cell(row, 4).value in (None, "")
    assert "written for 7, not for turn 1: it was set aside" in str(ws.cell(row, 12).value)
    archive = " ".join(str(c) for r in openpyxl.load_workbook(path)["Archive red"].iter_rows(values_only=True)
                       for c in r if c)
    assert str(destination) in archive
    assert record_of(sheets).resolved == 0
