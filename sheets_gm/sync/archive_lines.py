"""The readable part of a seat's Archive tab: what became of the rows it typed, in sentences.

An entry is the window it concerns and a sentence ("Your orders for turn 4, set aside by the GM's
undo of turn 3; …:"), then a line per row it names ("    · 10F — Order: 10F > 10G"), and, in a
hidden column, those rows as JSON. Lines go one after the other from the count kept in the
archive's pending row (a hidden cell every poll reads anyway), in the same write as what they
record, and nothing ever writes over them: a row set aside stays readable for the whole match.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import CellValue, Grid, a1, cell_at, cells
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sheets.tables import InputTab, TypedRow, text_of, ticked
from sheets_gm.sync.match_record import compact_json
from sheets_gm.sync.match_tabs import (
    ARCHIVE_COLS,
    ARCHIVE_COPY_COL,
    ARCHIVE_DATA_COL,
    ARCHIVE_FIRST_HISTORY_ROW,
    ARCHIVE_LINES,
    ARCHIVE_PENDING_ROW,
    MatchTabs,
)
from sheets_gm.sync.sheets import WriteBatch


@dataclass(frozen=True, slots=True)
class ArchiveLine:
    """One entry: the window it concerns, a sentence, then one line per typed row it names (``details``), and
    those rows themselves (kept as JSON in the hidden column of the entry's first line)."""

    when: str
    text: str
    details: tuple[str, ...] = ()
    rows: tuple[TypedRow, ...] = ()

    def grid(self) -> list[list[CellValue]]:
        """The entry's lines as cells: window, sentence, hidden copy; then each detail indented."""
        copy = compact_json([r.to_json() for r in self.rows]) if self.rows else ""
        first: list[CellValue] = [self.when, self.text, copy]
        return [first, *(list[CellValue](["", f"    · {d}", ""]) for d in self.details)]


def capital(text: str) -> str:
    """``text`` with its first letter upper-case ("turn 4" → "Turn 4")."""
    return text[:1].upper() + text[1:]


def row_text(tab: InputTab, row: TypedRow) -> str:
    """A typed row in words: its subject, then each typed cell under its column's header
    ("10F — Order: 10F > 10G", "Ann — Ready ✔")."""
    try:
        columns = tab.table(row.table).spec.columns
    except KeyError:  # a table this layout no longer has: its cells by key
        parts = [f"{k}: {text_of(v)}" for k, v in row.values.items() if v not in (None, "", False)]
    else:
        parts = []
        for c in columns:
            value = row.values.get(c.key)
            if not c.kind.typed or value in (None, "", False):
                continue
            if c.kind in (ColumnKind.TICK, ColumnKind.READY):
                if ticked(value):
                    parts.append(f"{c.header} ✔")
            else:
                parts.append(f"{c.header}: {text_of(value)}")
    return f"{row.subject} — {', '.join(parts)}" if parts else row.subject


def rows_text(tab: InputTab, rows: Sequence[TypedRow]) -> str:
    """Typed rows in words, one after the other."""
    return "; ".join(row_text(tab, r) for r in rows)


def window_words(key: str, window: Window | None) -> str:
    """How a line names the window a row was typed for: the window's label when it is ``window``, else its key
    as the row's For cell showed it."""
    if window is not None and key == window.key:
        return window.label
    return f"window “{key}”" if key else "no window"


def lines_cell(tabs: MatchTabs, seat: str) -> str:
    """The hidden cell of the pending row counting the archive's readable lines."""
    return a1(tabs.archive(seat), cell_at(ARCHIVE_COLS - 1, ARCHIVE_PENDING_ROW))


def archive_lines_writes(batch: WriteBatch, backend: SheetBackend, tabs: MatchTabs, seat: str, first: int,
                         lines: Sequence[ArchiveLine]) -> int:
    """Queue ``lines`` from line ``first`` (0-based) of the seat's archive; returns the count after them (the
    caller writes it in the pending row's last cell, in the same batch)."""
    grid = [cells for line in lines for cells in line.grid()]
    if not grid:
        return first
    first = min(first, ARCHIVE_LINES - len(grid))  # the tab's last lines, past thousands: never past its edge
    batch.put(backend, tabs.archive_lines_range(seat, first, len(grid)), grid)
    return first + len(grid)


def _json_cell(value: CellValue) -> Any:
    """A cell of the earlier archive layout read as JSON (None if it is not)."""
    text = text_of(value)
    if not text.startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def moved_archive(grid: Grid, tab: InputTab) -> tuple[dict[int, list[CellValue]], list[ArchiveLine]] | None:
    """An archive of the earlier layout (``grid``, read from A1), moved to this one: the pending and history rows
    (window, orders read as JSON, in columns A:B) by 1-based row for the hidden columns, and the rows it had set
    aside (JSON in column C) as readable entries. None when it is already laid out this way."""
    data: dict[int, list[CellValue]] = {}
    lines: list[ArchiveLine] = []
    for number, row in enumerate(grid[1:], start=2):
        cells = [*row, "", "", ""][:3]
        read = _json_cell(cells[1])
        if isinstance(read, dict) and (number == ARCHIVE_PENDING_ROW or number >= ARCHIVE_FIRST_HISTORY_ROW):
            data[number] = [cells[0], text_of(cells[1])]
        stale = _json_cell(cells[2])
        if isinstance(stale, dict) and isinstance(stale.get("stale"), list):
            try:
                rows = tuple(TypedRow.from_json(r) for r in stale["stale"])
            except (KeyError, TypeError):
                continue
            lines.append(ArchiveLine("", "Set aside before this archive was laid out anew; no longer in your rows: "
                                         "type them again in the window they are for:",
                                     tuple(row_text(tab, r) for r in rows), rows))
    return (data, lines) if data or lines else None


def moved_archive_writes(batch: WriteBatch, backend: SheetBackend, tabs: MatchTabs, seat: str, grid: Grid) -> bool:
    """Queue the move of ``seat``'s archive from the earlier layout (``moved_archive``): the readable columns
    cleared, then its entries, the hidden pending and history rows and the line count; False if nothing to move."""
    moved = moved_archive(grid, tabs.orders(seat))
    if moved is None:
        return False
    data, lines = moved
    last = max(len(grid), 2)
    batch.put(backend, a1(tabs.archive(seat), cells(0, 2, ARCHIVE_COPY_COL, last)),
              [["", "", ""] for _ in range(last - 1)])
    count = archive_lines_writes(batch, backend, tabs, seat, 0, lines)
    for number, (window, read) in sorted(data.items()):
        batch.put(backend, a1(tabs.archive(seat), cells(ARCHIVE_DATA_COL, number, ARCHIVE_DATA_COL + 1, number)),
                  [[window, read]])
    batch.put(backend, lines_cell(tabs, seat), [[count]])
    return True
