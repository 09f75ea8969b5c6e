"""Drawn cells a player typed over, drawn again at the next poll (``docs/sync.md``, "What a poll checks").

A poll reads every seat's orders tab whole, the board tab whole and the Log's header row, in its one read per
spreadsheet. What the sync drew there for the open window and someone typed over is put back by the next poll,
not only at the next resolution:

- an orders tab's shown cells (GvG's Move roll, a unit's Hex or HP): the keyed die and the state are what the
  engine reads, never the cell; a row whose shown cell held something else says so in its feedback, once,
  naming what was typed there and what was put back, and what was typed there is kept in the seat's Archive;
- the board tab's cells (map, units, title, status, legend): each drawn range holding a cell that differs from
  the drawing is written again whole (its notes with it);
- the Log's header row, typed over in place (at least one of its cells still as drawn): written again. A row with
  none of its cells in place (a row inserted or deleted above the lines) stops the sync instead
  (``read._check_written_tabs``): writing the header there could write over a line of the Log.

The board tab and the Log's header are drawn again in a match that is over too (its board shows the result), and
``verify -c`` names every drawn cell of the board's spreadsheet typed over (``typed_over_words``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.guard import grid_cells, origin, written_cells
from sheets_gm.sheets.layout import CellValue, Grid, cell_at, split_a1
from sheets_gm.sheets.looks import TabSeen, seen_grid
from sheets_gm.sheets.tables import text_of
from sheets_gm.sync.journal import journal_under_way
from sheets_gm.sync.match_tabs import LOG_FIRST_ROW
from sheets_gm.sync.read import MatchRead
from sheets_gm.sync.rows.fate_words import drawn_cell_words, drawn_cells_note
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend
from sheets_gm.sync.shown_cells import alike, archived_details, shown_typed_over
from sheets_gm.sync.writes import board_tab_writes, board_writes, status_line

RowKey = tuple[str, str, int]  # seat, table, tab row (1-based): where a row's feedback goes


@dataclass
class DrawnAgain:
    """What the poll drew again: each typed row's sentence about its shown cells typed over, and which tabs."""

    notes: dict[RowKey, str] = field(default_factory=dict)
    where: list[str] = field(default_factory=list)  # "Orders red (Move roll)", "Board", "Log (header)"
    typed: dict[str, list[str]] = field(default_factory=dict)  # by seat, each shown cell typed in: kept in its Archive


def drawn_again_writes(sheets: MatchSheets, read: MatchRead, batch: WriteBatch) -> DrawnAgain:
    """Queue every drawn cell typed over (see the module) drawn again; what was done."""
    out = DrawnAgain()
    _shown_cells(sheets, read, batch, out)
    out.where += board_drawn_again(sheets, read, batch)
    return out


def board_drawn_again(sheets: MatchSheets, read: MatchRead, batch: WriteBatch) -> list[str]:
    """Queue the board tab's cells and the Log's header typed over drawn again (a match in play, or over: its board
    still shows the result); the tabs, as ``DrawnAgain.where`` names them. A board that shows what the record's own
    settings draw is drawn with the config's live ones (``MatchRead.drawn_before``: the Coalition's strategies_to
    set mid-match), and not named: nobody typed over it."""
    where: list[str] = []
    typed_over = _board_typed_over(sheets, read)
    as_drawn = typed_over and read.drawn_before is not None and not _board_typed_over(sheets, read.drawn_before)
    for write, _wrong in typed_over:
        batch.put(sheets.board, write.range, write.values, write.notes)
        if read.tabs.spec.tabs.board not in where and not as_drawn:
            where.append(read.tabs.spec.tabs.board)
    if read.log_header_typed_over:
        batch.put(sheets.board, read.tabs.log_header_range(), [list(read.tabs.spec.headers.log)])
        where.append(f"{read.tabs.spec.tabs.log} (header)")
    return where


def typed_over_words(sheets: MatchSheets, read: MatchRead, seen: Sequence[TabSeen] | None = None) -> list[str]:
    """A sentence per cell the sync draws in the board's spreadsheet (the board tab, the other drawn tabs: Wesnoth's
    Units, a Coalition plane; the Log's header row) that holds something else (``verify -c``): its cell, what it
    says and what the sync draws. The board tab is in ``read``; the rest costs one more read, or none when ``seen``
    holds the spreadsheet as read. While a resolution cut short is under way, a cell holding what it wrote there
    (its record's writes) is its drawing, not typed over: the next poll completes it."""
    board = read.tabs.spec.tabs.board
    cut = _cut_drawing(sheets, read)
    out = [_typed_over_words(board, cell, was, value)
           for _write, wrong in _board_typed_over(sheets, read, cut) for cell, (was, value) in wrong.items()]
    others = [w for w in _drawing(sheets, read) if origin(w.range)[0] != _board_tab(read)]
    ranges = [*(w.range for w in others), read.tabs.log_header_range()]
    found_all = [seen_grid(seen, r) for r in ranges] if seen is not None else sheets.board.read(ranges)
    for write, grid in zip(others, found_all, strict=False):  # the other drawn tabs: Wesnoth's Units, a plane
        found_cells = grid_cells(write.range, grid)
        out += [_typed_over_words(split_a1(write.range)[0], cell_at(cell[2], cell[1] + 1), found_cells.get(cell, ""), v)
                for cell, v in written_cells([write]).items()
                if not _drawn_here(found_cells.get(cell, ""), v, cut.get(cell))]
    log = read.tabs.spec.tabs.log
    found = found_all[-1]
    row = list(found[0]) if found else []
    for c, header in enumerate(read.tabs.spec.headers.log):
        was = row[c] if c < len(row) else ""
        if not alike(was, header):
            out.append(_typed_over_words(log, cell_at(c, 1), was, header))
    return out


def _typed_over_words(tab: str, cell: str, was: CellValue, drawn: CellValue) -> str:
    return f"tab {tab!r} cell {cell} says {text_of(was)!r} but the sync draws {text_of(drawn)!r}"


def _shown_cells(sheets: MatchSheets, read: MatchRead, batch: WriteBatch, out: DrawnAgain) -> None:
    """An orders tab's shown cells typed over, put back; the row's feedback says what was typed there, and what was
    typed (not a cell cleared) is kept in the seat's Archive: the row's answer is written over at the next poll."""
    found = shown_typed_over(read)
    wrong: dict[RowKey, list[str]] = {}
    for f in found:
        batch.put(seat_backend(sheets, read.tabs, f.seat), f.cell, [[f.drawn]])
        wrong.setdefault((f.seat, f.table, f.row), []).append(drawn_cell_words(f.header, f.typed, text_of(f.drawn)))
        if f.where not in out.where:
            out.where.append(f.where)
    out.notes.update({key: drawn_cells_note(words) for key, words in wrong.items()})
    out.typed.update(archived_details(found))


def _drawing(sheets: MatchSheets, read: MatchRead, *, board_tab: bool = False) -> list[RangeWrite]:
    """What a resolution draws in the board spreadsheet's drawn tabs (the board tab, and Wesnoth's Units or a
    Coalition plane), for the match as ``read`` found it; ``board_tab``: in the board tab, and the other tabs
    only where the adapter draws them with it (``writes.board_tab_writes``)."""
    drawing = WriteBatch()
    record = read.record
    draw = board_tab_writes if board_tab else board_writes
    draw(drawing, sheets.board, read.tabs, read.adapter, record.state, status_line(read.adapter, record),
         record.deadline)
    return [write for backend, write in drawing.writes if backend is sheets.board]


def _board_tab(read: MatchRead) -> str:
    """The board tab's name as ``origin`` folds it."""
    return origin(read.board[0])[0] if read.board is not None else ""


def _cut_drawing(sheets: MatchSheets, read: MatchRead) -> dict[tuple[str, int, int], CellValue]:
    """What a resolution cut short (``MatchRead.cut_under_way``) wrote or writes in the board's spreadsheet, by
    cell as ``written_cells`` keys them, from its record; empty when none is under way."""
    if not read.cut_under_way:
        return {}
    journal = journal_under_way(sheets.journal, read.record)
    if journal is None or journal.change is None:
        return {}
    return written_cells([w for name, w in journal.change.writes if name == sheets.board.name])


def _drawn_here(found: CellValue, drawn: CellValue, cut: CellValue | None) -> bool:
    """Whether a drawn cell holds its drawing: the record's state's, or the cut resolution's (``cut``)."""
    return found == drawn or alike(found, drawn) or (cut is not None and alike(found, cut))  # equal: alike at once


def _board_typed_over(sheets: MatchSheets, read: MatchRead,
                      cut: dict[tuple[str, int, int], CellValue] | None = None,
                      ) -> list[tuple[RangeWrite, dict[str, tuple[CellValue, CellValue]]]]:
    """Each drawn range of the board tab holding a cell that differs from the drawing (or from ``cut``'s, a
    resolution cut short's, where it writes), with those cells (by A1 name: what the tab holds, what the sync
    draws)."""
    if read.board is None:
        return []
    board_range, grid = read.board
    board_tab, row0, col0 = origin(board_range)
    out = []
    for write in _drawing(sheets, read, board_tab=True):
        tab, top, left = origin(write.range)
        if tab != board_tab:
            continue  # another drawn tab (Wesnoth's Units, a Coalition plane): not read by a poll
        wrong = _row_typed_over(grid, (tab, top - row0, left - col0), (row0, col0), write.values, cut or {})
        if wrong:
            out.append((write, wrong))
    return out


def _row_typed_over(grid: Grid, at: tuple[str, int, int], origin0: tuple[int, int], drawn: Grid,
                    cut: dict[tuple[str, int, int], CellValue]) -> dict[str, tuple[CellValue, CellValue]]:
    """The cells of ``drawn`` (a drawn range's values, ``at``: its tab and its first row and column in ``grid``, the
    board as read from row and column ``origin0``) that hold something else, by A1 name: what ``grid`` holds there,
    what the sync draws. A row read as drawn is passed over whole (its cells all equal: each holds its drawing)."""
    tab, top, left = at
    row0, col0 = origin0
    wrong: dict[str, tuple[CellValue, CellValue]] = {}
    for i, values in enumerate(drawn):
        r = top + i
        found = grid[r] if 0 <= r < len(grid) else []
        if left >= 0 and found[left:left + len(values)] == values:
            continue
        for j, value in enumerate(values):
            c = left + j
            if value is None:
                continue  # a None leaves its cell alone: not drawn
            was = found[c] if 0 <= c < len(found) else ""
            if not _drawn_here(was, value, cut.get((tab, row0 + r, col0 + c))):
                wrong[cell_at(col0 + c, row0 + r + 1)] = (was, value)
    return wrong


def log_lines_cleared(sheets: MatchSheets, read: MatchRead, batch: WriteBatch, now: datetime, *,
                      dry_run: bool = False) -> list[str]:
    """Queue each line typed below the match's last Log line (``MatchRead.log_typed_below``) cleared, a note on its
    sentence cell saying what it said and that the sync cleared it (players read the Log as the match's own: a
    line there that no event of the match wrote, 'blue surrenders', is not left for them to read); what the GM is
    told, a sentence per line (``dry_run``: what the next sync does). A cell saved after the poll's read is never
    cleared (the write is guarded)."""
    tab = read.tabs.spec.tabs.log
    last = (f"below the match's last line (row {LOG_FIRST_ROW + read.record.log_rows - 1})" if read.record.log_rows
            else "in a Log where the match logged nothing yet")
    said: list[str] = []
    for i, line in read.log_typed_below:
        where = read.tabs.log_range(i, 1)
        text = " | ".join(t for t in map(text_of, line) if t)
        batch.guard(sheets.board, where, [list(line)])
        batch.put(sheets.board, where, [["", "", ""]],
                  [[None, None, f"Cleared by sheets-gm on {now:%Y-%m-%d %H:%M} UTC: this row said {text!r}, "
                                f"{last}; no event of the match wrote it. The GM was told."]])
        done = "the next sync clears it" if dry_run else "so the sync cleared it"
        said.append(f"tab {tab!r} row {LOG_FIRST_ROW + i} said {text!r}, {last}: no event of the match says it, "
                    f"{done} (a note on the cell keeps what it said)")
    return said
