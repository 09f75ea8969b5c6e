"""Writes guarded by what a poll read: a cell a player saved after our read is never written over.

A poll reads a seat's input tab, resolves, and writes the tab back seconds later (on Google) or a moment
later (a local workbook). A player may save in between. A write given ``guard`` ranges (what the poll read
there, :class:`ReadGuard`) keeps her save:

- a local workbook (and the test's memory spreadsheet) compares the guarded ranges of the file about to be
  replaced, under the lock, with what was read: if a cell changed, nothing is written there and
  :class:`~sheets_gm.sheets.backend.SavedMeanwhileError` names the cells, so the sync reads again and answers
  what she saved;
- Google has no conditional write: the write leaves out every guarded cell it would not change
  (:func:`changed_only`), so what she typed in such a cell stays, and clears a typed cell only if it still holds
  what was read (a find-and-replace of that very value); what the write answers with (its ``read_back``) then
  shows what she saved, and the next poll reads that spreadsheet (``poll_gate/kept_reads.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from sheets_gm.engine.grid import column_index
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import CellValue, Grid, ReadGuard, cell_at, quote_tab, split_a1

_CELLS = re.compile(r"^\$?([A-Za-z]{0,3})\$?(\d*)(?::\$?([A-Za-z]{0,3})\$?(\d*))?$")

Cell = tuple[str, int, int]  # the folded tab name, the 0-based row and column


def origin(a1_range: str) -> Cell:
    """The folded tab name and the 0-based first row and column of a full A1 range.

    >>> origin("'Orders red'!B3:L")
    ('orders red', 2, 1)
    """
    tab, row0, col0, _rows, _cols = extent(a1_range)
    return tab, row0, col0


def extent(a1_range: str) -> tuple[str, int, int, int | None, int | None]:
    """The folded tab name, the 0-based first row and column, and the last row and column (None: open-ended)
    of a full A1 range.

    >>> extent("'Orders red'!B3:L")
    ('orders red', 2, 1, None, 11)
    """
    tab, cells = split_a1(a1_range)
    m = _CELLS.match(cells.strip())
    c1, r1, c2, r2 = m.groups() if m else ("", "", None, None)
    if c2 is None and r2 is None:  # one cell
        c2, r2 = c1, r1
    return (tab.casefold(), int(r1) - 1 if r1 else 0, column_index(c1) if c1 else 0,
            int(r2) - 1 if r2 else None, column_index(c2) if c2 else None)


def same_value(a: CellValue, b: CellValue) -> bool:
    """Whether two cell values read alike: empty, ``""`` and an unticked box are one; 3 and 3.0 are one.

    >>> same_value(None, False), same_value(3, 3.0), same_value("H7", "H8")
    (True, True, False)
    """
    a, b = (None if v in (None, "", False) else v for v in (a, b))
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool) \
            and not isinstance(b, bool):
        return float(a) == float(b)
    return a == b


def grid_cells(a1_range: str, grid: Grid) -> dict[Cell, CellValue]:
    """Every cell of ``grid`` read from ``a1_range``, by position (empty ones included where the grid has them)."""
    tab, row0, col0 = origin(a1_range)
    return {(tab, row0 + i, col0 + j): v for i, row in enumerate(grid) for j, v in enumerate(row)}


class GridCells(Mapping[Cell, CellValue]):
    """The cells of several grids read (``(a1_range, grid)`` pairs), by position as :func:`grid_cells` gives them
    (a later range wins where two overlap), looked up in the grids: not copied out cell by cell, so 10,000 rows
    pasted under a table cost nothing to a look at a few cells of it."""

    def __init__(self, ranges: Iterable[tuple[str, Grid]]) -> None:
        self._grids = [(origin(a1_range), grid) for a1_range, grid in ranges][::-1]

    def __getitem__(self, cell: Cell) -> CellValue:
        tab, row, col = cell
        for (grid_tab, row0, col0), grid in self._grids:
            i, j = row - row0, col - col0
            if grid_tab == tab and 0 <= i < len(grid) and 0 <= j < len(grid[i]):
                return grid[i][j]
        raise KeyError(cell)

    def _all(self) -> dict[Cell, CellValue]:
        out: dict[Cell, CellValue] = {}
        for (tab, row0, col0), grid in reversed(self._grids):
            out.update(((tab, row0 + i, col0 + j), v) for i, row in enumerate(grid) for j, v in enumerate(row))
        return out

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def written_cells(writes: Iterable[RangeWrite]) -> dict[Cell, CellValue]:
    """Every cell ``writes`` set (a ``None`` leaves its cell alone: not set), by position; a later write wins."""
    out: dict[Cell, CellValue] = {}
    for w in writes:
        tab, row0, col0 = origin(w.range)
        out.update({(tab, row0 + i, col0 + j): v for i, row in enumerate(w.values) for j, v in enumerate(row)
                    if v is not None})
    return out


def _bounds(guard: ReadGuard, now: Grid) -> Iterator[tuple[int, int, CellValue, CellValue]]:
    """(row, column, then, now) of every cell either grid holds, 0-based inside the range, but for the rows that
    are equal in both (their cells all read alike)."""
    for i in range(max(len(guard.grid), len(now))):
        was, is_ = (guard.grid[i] if i < len(guard.grid) else []), (now[i] if i < len(now) else [])
        if was == is_:  # equal values read alike: a row unchanged is passed over whole
            continue
        for j in range(max(len(was), len(is_))):
            yield i, j, (was[j] if j < len(was) else ""), (is_[j] if j < len(is_) else "")


def changed_since(guard: ReadGuard, now: Grid) -> list[Cell]:
    """The cells of ``guard``'s range whose value differs in ``now`` (the range as it stands) from what was read."""
    tab, row0, col0 = origin(guard.range)
    return [(tab, row0 + i, col0 + j) for i, j, was, is_ in _bounds(guard, now) if not same_value(was, is_)]


def describe_cells(cells: Sequence[Cell], tabs: Mapping[str, str] | None = None, limit: int = 6) -> str:
    """Cells for people: ``'Orders red'!D5, 'Orders red'!H5`` (the first ``limit``, then how many more);
    ``tabs`` gives a folded tab name its own spelling."""
    names = [f"{quote_tab((tabs or {}).get(t, t))}!{cell_at(c, r + 1)}" for t, r, c in sorted(cells)]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def changed_only(writes: Sequence[RangeWrite], guards: Sequence[ReadGuard]) -> list[RangeWrite]:
    """``writes`` without the guarded cells they would set to what was read there (each becomes ``None``: left
    alone), so a cell whose value a write does not change is not written at all."""
    read: dict[Cell, CellValue] = {}
    for g in guards:
        read.update(grid_cells(g.range, g.grid))
    covered = [extent(g.range) for g in guards]

    def guarded(cell: Cell) -> bool:
        return any(cell[0] == tab and row0 <= cell[1] <= (row9 if row9 is not None else cell[1])
                   and col0 <= cell[2] <= (col9 if col9 is not None else cell[2])
                   for tab, row0, col0, row9, col9 in covered)

    out: list[RangeWrite] = []
    for w in writes:
        tab, row0, col0 = origin(w.range)
        values = [[None if v is not None and guarded((tab, row0 + i, col0 + j))
                   and same_value(read.get((tab, row0 + i, col0 + j), ""), v) else v
                   for j, v in enumerate(row)] for i, row in enumerate(w.values)]
        if any(v is not None for row in values for v in row) or w.notes is not None:
            out.append(RangeWrite(w.range, values, w.notes))
    return out


@dataclass(frozen=True, slots=True)
class Clear:
    """A typed cell a write clears (``cell``, a full A1 name), only if it still holds ``text``, what was read there."""

    cell: str
    text: str


def clear_if_unchanged(writes: Sequence[RangeWrite], guards: Sequence[ReadGuard]) -> tuple[list[RangeWrite],
                                                                                              list[Clear]]:
    """``writes`` as a backend that cannot check before it writes (Google) makes them: the guarded cells they would
    not change left out (:func:`changed_only`), and each guarded cell that held text when read and that they clear
    taken out as a :class:`Clear`, made only if the cell still holds that text (a player's newer text stays)."""
    read: dict[Cell, CellValue] = {}
    for g in guards:
        read.update(grid_cells(g.range, g.grid))
    clears: list[Clear] = []
    out: list[RangeWrite] = []
    for w in changed_only(writes, guards):
        tab_name = split_a1(w.range)[0]
        tab, row0, col0 = origin(w.range)
        values: list[list[CellValue]] = []
        for i, row in enumerate(w.values):
            values.append([])
            for j, v in enumerate(row):
                was = read.get((tab, row0 + i, col0 + j))
                if v == "" and isinstance(was, str) and was.strip():
                    clears.append(Clear(f"{quote_tab(tab_name)}!{cell_at(col0 + j, row0 + i + 1)}", was))
                    v = None
                values[-1].append(v)
        if any(v is not None for row in values for v in row) or w.notes is not None:
            out.append(RangeWrite(w.range, values, w.notes))
    return out, clears
