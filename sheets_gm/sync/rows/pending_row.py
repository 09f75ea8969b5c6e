"""A seat's pending row on its hidden Copies tab, whatever the rows a resolution read come to.

The row is B2:D2: the window key, the rows the last resolution read (JSON, packed past a cell: ``packed_cell``) and
the Archive's line count. A side's Forum tab full of mail (a 576-army war: 300 mails, each a heading and its lines,
worded as its players wrote them) reads rows that pack to more than a cell holds: the value then runs down column
C (C2 starts with ``⧉N⧉``, C3… hold the rest: ``spread_cells``), below the row, where nothing else is written
(column A holds the Archive's copies; B and D stay empty under the row). Every reader takes the block as the one
row it stands for (``pending_line``), every writer writes a row through ``pending_writes``: the rest of the sync
sees one row with one long cell, as the journal and the engine's history keep it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import CellValue, Grid, a1, cells
from sheets_gm.sync.match_record import VALUE_CELLS, spread_cells, spread_text
from sheets_gm.sync.match_tabs import COPIES_COLS, COPIES_DATA_COL, COPIES_PENDING_ROW, MatchTabs
from sheets_gm.sync.sheets import WriteBatch

_VALUE_COL = COPIES_DATA_COL + 1  # C: the rows read


def pending_block_range(copies_tab: str) -> str:
    """What a reader reads of the pending row of the Copies tab ``copies_tab``: the row (B:D) and the cells of
    column C its value may run down (``VALUE_CELLS`` in all)."""
    return a1(copies_tab, cells(COPIES_DATA_COL, COPIES_PENDING_ROW, COPIES_COLS - 1,
                                COPIES_PENDING_ROW + VALUE_CELLS - 1))


def pending_line(grid: Grid) -> Grid:
    """The block read as ``grid`` (``pending_block_range``) as the one row it stands for: window key, the rows read
    in one cell (still packed, as ``packed_cell`` made them), the count; no row when the block is empty.

    >>> pending_line([["1", "⧉3⧉ab", 7], [None, "cd"], [None, "e"], [None, "stale"]])
    [['1', 'abcde', 7]]
    >>> pending_line([["1", "plain", 2]]), pending_line([])
    ([['1', 'plain', 2]], [])
    """
    if not grid:
        return []
    line = list(grid[0])
    if len(line) > 1:
        line[1] = spread_text([line[1], *((r[1] if len(r) > 1 else None) for r in grid[1:])], 0)
    return [line]


def pending_writes(batch: WriteBatch, backend: SheetBackend, tabs: MatchTabs, seat: str,
                   row: Sequence[CellValue]) -> None:
    """Queue ``row`` (window key, the rows read as one text, the count) as ``seat``'s pending row, the rows read
    running down column C past a cell (ValueTooLongError when even packed they outgrow ``VALUE_CELLS`` cells)."""
    line = list(row)
    value = line[1] if len(line) > 1 else None
    parts = spread_cells(value, f"rows {seat} typed that a resolution read") if isinstance(value, str) else [value]
    if len(line) > 1:
        line[1] = parts[0]
    batch.put(backend, a1(tabs.copies(seat), cells(COPIES_DATA_COL, COPIES_PENDING_ROW,
                                                   COPIES_DATA_COL + len(line) - 1, COPIES_PENDING_ROW)), [line])
    if len(parts) > 1:
        batch.put(backend, a1(tabs.copies(seat), cells(_VALUE_COL, COPIES_PENDING_ROW + 1, _VALUE_COL,
                                                       COPIES_PENDING_ROW + len(parts) - 1)),
                  [[part] for part in parts[1:]])


def pending_in_tab(grid: Grid) -> list[CellValue]:
    """The pending row of a whole Copies tab read as ``grid`` (from A1: a renamed copy), as ``pending_line`` gives
    it: window key, rows read, count ([] when the tab has no such row)."""
    first = COPIES_PENDING_ROW - 1
    block = [list(row[COPIES_DATA_COL:COPIES_COLS]) for row in grid[first:first + VALUE_CELLS]]
    found = pending_line(block)
    return found[0] if found else []
