"""Drawn cells a player typed over, drawn again at the next poll (``docs/sync.md``, "What a poll checks").

A poll reads every seat's orders tab whole, the board tab whole and the Log's header row, in its one read per
spreadsheet. What the sync drew there for the open window and someone typed over is put back by the next poll,
not only at the next resolution:

- an orders tab's shown cells (GvG's Move roll, a unit's Hex or HP): the keyed die and the state are what the
  engine reads, never the cell; a typed row whose shown cell held something else says so in its feedback, once,
  naming what was typed there and what was put back;
- the board tab's cells (map, units, title, status, legend): each drawn range holding a cell that differs from
  the drawing is written again whole (its notes with it);
- the Log's header row, typed over in place (at least one of its cells still as drawn): written again. A row with
  none of its cells in place (a row inserted or deleted above the lines) stops the sync instead
  (``read._check_written_tabs``): writing the header there could write over a line of the Log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheets_gm.sheets.guard import grid_cells, origin, same_value, written_cells
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sheets.tables import text_of
from sheets_gm.sync.read import MatchRead
from sheets_gm.sync.rows.fate_words import drawn_cell_words, drawn_cells_note
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend
from sheets_gm.sync.writes import board_writes, status_line

RowKey = tuple[str, str, int]  # seat, table, tab row (1-based): where a row's feedback goes


@dataclass
class DrawnAgain:
    """What the poll drew again: each typed row's sentence about its shown cells typed over, and which tabs."""

    notes: dict[RowKey, str] = field(default_factory=dict)
    where: list[str] = field(default_factory=list)  # "Orders red (Move roll)", "Board", "Log (header)"


def _alike(was: CellValue, drawn: CellValue) -> bool:
    """Whether a cell read holds what the sync draws there (3 and '3' alike: a spreadsheet may give either)."""
    return same_value(was, drawn) or text_of(was) == text_of(drawn)


def drawn_again_writes(sheets: MatchSheets, read: MatchRead, batch: WriteBatch) -> DrawnAgain:
    """Queue every drawn cell typed over (see the module) drawn again; what was done."""
    out = DrawnAgain()
    _shown_cells(sheets, read, batch, out)
    _board(sheets, read, batch, out)
    if read.log_header_typed_over:
        batch.put(sheets.board, read.tabs.log_header_range(), [list(read.tabs.spec.headers.log)])
        out.where.append(f"{read.tabs.spec.tabs.log} (header)")
    return out


def _shown_cells(sheets: MatchSheets, read: MatchRead, batch: WriteBatch, out: DrawnAgain) -> None:
    """An orders tab's shown cells typed over, put back; a typed row's feedback says what was typed there."""
    record = read.record
    dice = record.dice()
    for seat, ranges in read.typed.items():
        seat_read = read.seats.get(seat)
        if seat_read is None or seat_read.older_copy is not None:  # a copy is drawn again whole
            continue
        found = {cell: value for a1_range, grid in ranges for cell, value in grid_cells(a1_range, grid).items()}
        backend = seat_backend(sheets, read.tabs, seat)
        typed_rows = {(r.table, r.row) for r in seat_read.rows if r.typed}
        for placed in seat_read.tab.tables:
            spec = placed.spec
            shown_cols = spec.of_kind(ColumnKind.SHOWN)
            if not shown_cols:
                continue
            for index, subject in enumerate(read.adapter.rows(record.state, seat, spec)[:placed.rows]):
                drawn = read.adapter.shown(record.state, seat, spec, subject, dice)
                wrong: list[str] = []
                for c in shown_cols:
                    cell = placed.at(placed.cell(index, c.key))
                    was = found.get(origin(cell), "")
                    value = drawn.get(c.key, "")
                    if _alike(was, value):
                        continue
                    batch.put(backend, cell, [[value]])
                    wrong.append(drawn_cell_words(c.header, text_of(was), text_of(value)))
                    if f"{placed.tab} ({c.header})" not in out.where:
                        out.where.append(f"{placed.tab} ({c.header})")
                row = placed.first_row + index
                if wrong and (spec.name, row) in typed_rows:
                    out.notes[(seat, spec.name, row)] = drawn_cells_note(wrong)


def _board(sheets: MatchSheets, read: MatchRead, batch: WriteBatch, out: DrawnAgain) -> None:
    """Each range of the board tab whose cells differ from the drawing, written again whole."""
    if read.board is None:
        return
    board_range, grid = read.board
    found = grid_cells(board_range, grid)
    drawing = WriteBatch()
    record = read.record
    board_writes(drawing, sheets.board, read.tabs, read.adapter, record.state, status_line(read.adapter, record),
                 record.deadline)
    board_tab = origin(board_range)[0]
    for _backend, write in drawing.writes:
        cells = written_cells([write])
        if any(tab != board_tab for tab, _r, _c in cells):
            continue  # another drawn tab (Wesnoth's Units, a Coalition plane): not read by a poll
        if all(_alike(found.get(cell, ""), value) for cell, value in cells.items()):
            continue
        batch.put(sheets.board, write.range, write.values, write.notes)
        if read.tabs.spec.tabs.board not in out.where:
            out.where.append(read.tabs.spec.tabs.board)
