"""An Archive tab of an earlier layout, moved once to this one: sentences on the tab, the copies off it.

Two earlier layouts kept the sync's copies on the tab a player reads:

- the first, JSON in A:C: the pending row (row 2) and one history row per resolution (row 4 + *n*) as window
  and rows read in A:B, and the rows set aside as ``{"stale": [...]}`` in C;
- the next, sentences in A:B and hidden columns: C, the rows each line names (JSON, in the line's row); D:F, the
  pending row (row 2: window, rows read, line count) and the history rows (row 4 + *n*: window, rows read).

``repair`` moves either: the copies to the hidden Copies tab (each in its line's row, the pending row in B2:D2),
each resolution's rows read to the engine's history row where it lacks them (``archived``: what ``undo`` reads),
and the rows the first layout had set aside into readable entries. Nothing is dropped: a copy the engine already
keeps is left as the engine has it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sheets_gm.sheets.backend import RangeWrite, SheetBackend, SheetError
from sheets_gm.sheets.layout import CellValue, Grid, a1, cells, quote_tab
from sheets_gm.sheets.tables import InputTab, TypedRow, text_of
from sheets_gm.sync.life.cut_copies import pending_back
from sheets_gm.sync.match_record import MatchRecord, history_range, history_write, joined_cells
from sheets_gm.sync.match_tabs import (
    ARCHIVE_FIRST_LINE_ROW,
    ARCHIVE_LINES,
    ARCHIVE_TEXT_COLS,
    COPIES_COLS,
    COPIES_PENDING_ROW,
    MatchTabs,
)
from sheets_gm.sync.read import current_mark
from sheets_gm.sync.rows.archive_lines import ArchiveLine, archive_lines_writes, lines_cell
from sheets_gm.sync.rows.fate_words import relaid_line
from sheets_gm.sync.rows.pending_row import pending_block_range, pending_in_tab, pending_writes
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend

#: The earlier layouts' rows and columns (see the module's docstring).
OLD_PENDING_ROW = 2
OLD_FIRST_HISTORY_ROW = 5
OLD_COPY_COL = 2  # C
OLD_DATA_COL = 3  # D:F
OLD_COLS = OLD_DATA_COL + 3


@dataclass
class ArchiveMove:
    """What an Archive of an earlier layout holds that this layout keeps elsewhere."""

    copies: dict[int, str] = field(default_factory=dict)  # 1-based row -> the JSON of the rows its line names
    pending: list[CellValue] = field(default_factory=list)  # window key, rows read (JSON), line count
    history: dict[int, str] = field(default_factory=dict)  # resolution -> the rows it read (JSON, as archived)
    lines: list[ArchiveLine] = field(default_factory=list)  # entries to write from line 0 (the first layout)
    first_layout: bool = False  # the readable columns hold JSON: cleared, then written as ``lines``


def _json_cell(value: CellValue) -> Any:
    """A cell of an earlier archive layout read as JSON (None if it is not)."""
    text = text_of(value)
    if not text.startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def _first_layout(grid: Grid, tab: InputTab) -> ArchiveMove | None:
    """The first layout (JSON in A:C), or None when the grid is not of it."""
    move = ArchiveMove(first_layout=True)
    for number, row in enumerate(grid[1:], start=2):
        a, b, c = [*row, "", "", ""][:3]
        read = _json_cell(b)
        if isinstance(read, dict):
            if number == OLD_PENDING_ROW:
                move.pending = [a, text_of(b)]
            elif number >= OLD_FIRST_HISTORY_ROW:
                move.history[number - OLD_FIRST_HISTORY_ROW + 1] = text_of(b)
        stale = _json_cell(c)
        if isinstance(stale, dict) and isinstance(stale.get("stale"), list):
            try:
                rows = tuple(TypedRow.from_json(r) for r in stale["stale"])
            except (KeyError, TypeError):
                continue
            move.lines.append(relaid_line(tab, rows))
    return move if move.pending or move.history or move.lines else None


def _hidden_columns(grid: Grid) -> ArchiveMove | None:
    """The next layout (sentences in A:B, the copies in hidden columns C:F), or None when C:F hold nothing."""
    move = ArchiveMove()
    for number, row in enumerate(grid[1:], start=2):
        copy, key, read, count = [*row[OLD_COPY_COL:], None, None, None, None][:4]
        if text_of(copy):
            move.copies[number] = text_of(copy)
        if number == OLD_PENDING_ROW and (text_of(key) or text_of(read) or text_of(count)):
            move.pending = [key if key is not None else "", text_of(read), count if count is not None else ""]
        elif number >= OLD_FIRST_HISTORY_ROW and text_of(read):
            move.history[number - OLD_FIRST_HISTORY_ROW + 1] = text_of(read)
    return move if move.copies or move.pending or move.history else None


def found_archive_move(grid: Grid, tab: InputTab) -> ArchiveMove | None:
    """What to move of an Archive read as ``grid`` (from A1, columns A:F), or None when it is laid out as now."""
    return _first_layout(grid, tab) or _hidden_columns(grid)


def archive_move_writes(batch: WriteBatch, backend: SheetBackend, tabs: MatchTabs, seat: str, grid: Grid,
                        move: ArchiveMove) -> None:
    """Queue the move of ``seat``'s Archive (``grid`` as read before the tab was laid out again): the first layout's
    readable columns cleared and its entries written; the copies and the pending row to the hidden Copies tab. The
    old columns C:F are emptied once this is written (``old_columns_cleared``)."""
    last = max(len(grid), ARCHIVE_FIRST_LINE_ROW)
    if move.first_layout:
        batch.put(backend, a1(tabs.archive(seat), cells(0, ARCHIVE_FIRST_LINE_ROW, ARCHIVE_TEXT_COLS - 1, last)),
                  [["", ""] for _ in range(last - 1)])
        count = archive_lines_writes(batch, backend, tabs, seat, 0, move.lines)
        pending_writes(batch, backend, tabs, seat, [*move.pending[:2], count] if move.pending else ["", "", count])
        return
    for number, copy in sorted(move.copies.items()):
        batch.put(backend, tabs.copies_lines_range(seat, number - ARCHIVE_FIRST_LINE_ROW, 1), [[copy]])
    if move.pending:
        pending_writes(batch, backend, tabs, seat, move.pending)
    else:  # no count kept: the lines the tab holds
        filled = [n for n, row in enumerate(grid[1:], start=2) if any(text_of(v) for v in row[:ARCHIVE_TEXT_COLS])]
        batch.put(backend, lines_cell(tabs, seat), [[max(filled, default=1) - 1]])


def old_columns_cleared(sheets: MatchSheets, tabs: MatchTabs, moves: Mapping[str, tuple[Grid, ArchiveMove]]) -> None:
    """Empty C:F of each Archive moved, once its copies are written in their new places (after ``repair``'s write):
    a local workbook keeps the cells past a layout's width; Google dropped them with the columns, and refuses the
    range, which then has nothing to empty."""
    for seat, (grid, _move) in moves.items():
        rows = max(len(grid), 1)
        with contextlib.suppress(SheetError):
            seat_backend(sheets, tabs, seat).write([RangeWrite(a1(tabs.archive(seat), cells(OLD_COPY_COL, 1,
                                                                                          OLD_COLS - 1, rows)),
                                                               [["", "", "", ""] for _ in range(rows)])])


def engine_archived(entry: Mapping[str, Any], seat: str) -> bool:
    """Whether an engine history row (its JSON) keeps the rows ``seat`` typed that it read."""
    archived = entry.get("archived")
    return isinstance(archived, Mapping) and isinstance(archived.get(seat), str)


def archive_moves_read(sheets: MatchSheets, tabs: MatchTabs) -> dict[str, tuple[Grid, ArchiveMove]]:
    """Each seat's Archive of an earlier layout, read before ``repair`` lays the tab out again (on Google the new,
    narrower layout drops the old columns): its grid and what to move, by seat."""
    found: dict[str, tuple[Grid, ArchiveMove]] = {}
    for seat in tabs.input_seats():
        backend = seat_backend(sheets, tabs, seat)
        names = backend.tab_names()
        if tabs.archive(seat) not in names:
            continue
        copies = tabs.copies(seat)
        if copies in names and any(text_of(v) for row in backend.read([pending_block_range(copies)])[0] for v in row):
            continue  # moved already (what a local workbook keeps past the Archive's two columns is left over)
        (grid,) = backend.read([quote_tab(tabs.archive(seat))])  # whole: the first layout's tab has 3 columns
        move = found_archive_move(grid, tabs.orders(seat))
        if move is not None:
            found[seat] = (grid, move)
    return found


def archive_moves_writes(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, batch: WriteBatch,
                         moves: Mapping[str, tuple[Grid, ArchiveMove]]) -> list[str]:
    """Queue every move ``archive_moves_read`` found (after the layout: the Copies tabs exist), and the rows each
    resolution read to its engine history row where it lacks them (one read of the engine's history rows); returns
    a note per Archive moved."""
    notes: list[str] = []
    history: dict[int, dict[str, str]] = {}
    for seat, (grid, move) in moves.items():
        backend = seat_backend(sheets, tabs, seat)
        archive_move_writes(batch, backend, tabs, seat, grid, move)
        for number, text in move.history.items():
            history.setdefault(number, {})[seat] = text
        notes.append(f"tab {tabs.archive(seat)!r} in {backend.name} was moved to the new archive layout: sentences "
                     f"only; the sync's copies are in the hidden tab {tabs.copies(seat)!r} and the engine's history")
    numbers = sorted(n for n in history if 1 <= n <= record.resolved)
    if not numbers:
        return notes
    engine_tab = tabs.spec.tabs.engine
    grids = sheets.engine.read([history_range(engine_tab, n) for n in numbers])
    for number, grid in zip(numbers, grids, strict=True):
        row = grid[0] if grid else []
        try:
            entry = json.loads(joined_cells(row, 1)) if len(row) > 1 else None
        except ValueError:
            entry = None
        if not isinstance(entry, dict):
            notes.append(f"the engine's history row of resolution {number} cannot be read: the rows it read stay "
                         "where they were")
            continue
        missing = {seat: text for seat, text in history[number].items() if not engine_archived(entry, seat)}
        if missing:
            archived = entry.get("archived")
            entry["archived"] = {**(archived if isinstance(archived, dict) else {}), **missing}
            batch.put(sheets.engine, *history_write(engine_tab, number, entry))
    return notes


def copies_laid_out_writes(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, batch: WriteBatch,
                           absent: set[str], renamed: Mapping[str, tuple[str, Grid]] | None = None) -> list[str]:
    """Each seat's Copies tab that ``repair`` laid out again (deleted or renamed by hand): its pending row written
    afresh, the mark of the last resolution and the count of the lines its Archive holds (so no new line goes over
    one); returns a note for each. The rows each resolution read are in the engine's history. A Copies tab renamed
    by hand (``renamed``: by seat, its name and grid) gives back the copies of the rows set aside, each in its
    Archive line's row, and that count; deleted, they are gone, and their sentences stay in the Archive."""
    notes: list[str] = []
    renamed = renamed or {}
    for seat in tabs.input_seats():
        if tabs.copies(seat) not in absent:
            continue
        backend = seat_backend(sheets, tabs, seat)
        count = 0
        archive: Grid | None = None
        if tabs.archive(seat) not in absent:
            (archive,) = backend.read([tabs.archive_lines_range(seat, 0, ARCHIVE_LINES)])
            filled = [i for i, row in enumerate(archive, start=1) if any(text_of(v) for v in row)]
            count = max(filled, default=0)
        pending: list[CellValue] = ["", current_mark(record.resolved, record.deal, record.stamp())]
        if seat in renamed:
            name, old = renamed[seat]
            count = max(count, _old_count(old))
            pending = _old_pending(old) or pending  # what the last resolution read, cut or not: its only copy
            lines = [[row[0] if row else ""] for row in old[ARCHIVE_FIRST_LINE_ROW - 1:]]
            while lines and not text_of(lines[-1][0]):
                lines.pop()
            if lines:
                batch.put(backend, tabs.copies_lines_range(seat, 0, len(lines)), lines)
            notes.append(f"tab {tabs.copies(seat)!r} (hidden) was missing in {backend.name}: laid out again, the "
                         f"copies of the rows its Archive names copied back from tab {name!r} (a renamed copy), "
                         "which may go once you have run a sync")
        else:
            notes.append(f"tab {tabs.copies(seat)!r} (hidden) was missing in {backend.name}: laid out again; the "
                         "rows each resolution read are in the engine's history, and what was set aside stays listed "
                         f"in {tabs.archive(seat)!r}")
        back = pending_back(sheets, tabs, record, batch, seat, archive, count, renamed.get(seat))
        notes += [back.note] if back.note else []
        # a cut resolution's rows (from the journal or the renamed tab), else the renamed tab's pending row, or the mark
        pending_writes(batch, backend, tabs, seat, back.row if back.note else [*pending, count])
    return notes


def _old_pending(grid: Grid) -> list[CellValue]:
    """The window key and rows read a renamed Copies tab's pending row holds (what the sync wrote there last: a
    resolution's rows and the notes of the rows it kept, or a resolution cut short, whose only copy it is); [] when
    it holds none."""
    cells_ = [*pending_in_tab(grid), "", ""][:2]
    return cells_ if text_of(cells_[0]) and text_of(cells_[1]) else []


def _old_count(grid: Grid) -> int:
    """The Archive's line count a Copies tab's pending row holds (0 when it holds none)."""
    row = grid[COPIES_PENDING_ROW - 1] if len(grid) >= COPIES_PENDING_ROW else []
    cell = row[COPIES_COLS - 1] if len(row) >= COPIES_COLS else ""
    with contextlib.suppress(ValueError):
        return max(0, int(text_of(cell) or 0))
    return 0
