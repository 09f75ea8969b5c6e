"""A seat's input tab as ``repair`` reads it when its columns were moved: each table's columns put back where the
layout has them, found by their headers (a column inserted, two swapped), and what that leaves elsewhere.

What the tab held right of the layout's last column (our own columns pushed there by a column inserted before
them: a second Feedback column beside the new one after the repair) is cleared; a cell typed under no header of
ours (the inserted column's) is named, with its text, since the layout writes over it or no longer reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheets_gm.engine.words import counted
from sheets_gm.sheets.layout import CellValue, Grid, a1, cell_at
from sheets_gm.sheets.tables import InputTab, PlacedTable, text_of


@dataclass(frozen=True)
class FoundColumns:
    """The tab as read with every table's columns put in place (``grid``: from A1, as wide as the layout), the
    cells of ours left right of the layout (``extra``: A1 cells to clear) and the cells typed under no header of
    ours (``orphans``: cell and text)."""

    grid: Grid
    extra: list[str] = field(default_factory=list)
    orphans: list[tuple[str, str]] = field(default_factory=list)
    moved: bool = False  # whether any column was found elsewhere than the layout puts it

    def notes(self, where: str) -> list[str]:
        """What the repair report says of the tab in ``where``: the columns put back, each orphan cell's text."""
        out = []
        if self.moved:
            out.append(f"the columns of an orders tab in {where} had moved (a column inserted or swapped): each was "
                       "read by its header and is laid out again where it belongs"
                       + (f"; {counted(len(self.extra), 'cell')} of ours left right of the table "
                          f"{'was' if len(self.extra) == 1 else 'were'} cleared" if self.extra
                          else ""))
        for cell, text in self.orphans:
            out.append(f"cell {cell} in {where} held {text!r} in a column that is none of the table's (not read, and "
                       "the new layout writes there or leaves it aside): the seat's Archive keeps it, to type again "
                       "where it belongs if it was an order")
        return out


def _table_at(tab: InputTab, row: int) -> PlacedTable | None:
    """The table whose title, header or rows hold ``row``, or the one above a blank row (None above the first)."""
    above = None
    for placed in tab.tables:
        if placed.title_row <= row <= placed.last_row:
            return placed
        if placed.last_row < row:
            above = placed
    return above


def laid_out_columns(grid: Grid, tab: InputTab) -> FoundColumns:
    """``grid`` (the tab read whole, from A1) with each table's columns where ``tab`` lays them out."""
    width = tab.width
    found = {placed.spec.name: placed.found_columns(grid) for placed in tab.tables}
    moved = any(src != placed.col(key) for placed in tab.tables for key, src in found[placed.spec.name].items())
    ours = {c.header.casefold() for placed in tab.tables for c in placed.spec.columns}
    out: Grid = []
    extra: list[str] = []
    orphans: list[tuple[str, str]] = []
    for index, line in enumerate(grid):
        row = index + 1
        placed = _table_at(tab, row)
        if placed is None or not moved:
            out.append(list(line[:width]))
            continue
        where = found[placed.spec.name]
        sources = set(where.values())
        new: list[CellValue] = [None] * width
        for key, src in where.items():
            new[placed.col(key)] = line[src] if src < len(line) else None
        if row == placed.title_row:
            new[0] = line[0] if line else None
        out.append(new)
        header = grid[placed.header_row - 1] if placed.header_row - 1 < len(grid) else []
        in_table = placed.header_row <= row <= placed.last_row
        for col, value in enumerate(line):
            if not text_of(value) or value is False:
                continue
            name = text_of(header[col]).casefold() if col < len(header) else ""
            if col >= width and (col in sources or (in_table and name in ours)):
                extra.append(a1(tab.name, cell_at(col, row)))
            elif col not in sources and in_table and row > placed.header_row and name not in ours:
                back = _moved_back(col, where, placed)
                if back is not None and back < width and not text_of(new[back]):
                    new[back] = value  # typed beside the table (a cell past its last column): moved back with it
                else:
                    orphans.append((cell_at(col, row), text_of(value)))
    return FoundColumns(out, extra, orphans, moved)


def _moved_back(col: int, where: dict[str, int], placed: PlacedTable) -> int | None:
    """Where a cell typed beside a table's columns (in a column the table does not use) goes back to: shifted as the
    nearest table column on its left was, or else as the nearest on its right was (a column inserted between them
    moved only the right one); None when each lands on one of the table's columns (or no table column is left of
    it)."""
    ours = {placed.col(key) for key in where}
    left = [(src, placed.col(key)) for key, src in where.items() if src < col]
    right = [(src, placed.col(key)) for key, src in where.items() if src > col]
    if not left:
        return None
    shifts = [max(left)] + ([min(right)] if right else [])
    for src, dst in shifts:
        back = col - (src - dst)
        if back >= 0 and back not in ours:
            return back
    return None
