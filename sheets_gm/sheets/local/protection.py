"""A layout's protections mapped onto an .xlsx: "sheet protection on" plus a "locked" flag per cell.

An .xlsx file has no users, so a layout's :class:`~sheets_gm.sheets.layout.Protection` entries map to it like
this, for each tab:

* no protection with ``editors=()`` (GM-only) on the tab: sheet protection off,
  everything editable (as in Google, where unprotected cells are open to editors);
* otherwise sheet protection on (no password: it guards against slips, not people),
  and within the tab's ``rows`` x ``cols`` a cell is

  1. **locked** if a GM-only protection with a range covers it;
  2. else **unlocked** if the layout marks it as player input: a dropdown, a
     checkbox, or a protection naming editors or marked ``player_input`` (a seat's own input range,
     with or without an e-mail);
  3. else **locked** if the whole tab has a GM-only protection (``range=None``);
  4. else **unlocked**.

Sharing and per-player editors have no local meaning: give each team its own workbook file for privacy.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from openpyxl.cell.cell import MergedCell
from openpyxl.styles import Protection as CellProtection
from openpyxl.styles.cell_style import StyleArray

from sheets_gm.sheets.layout import TabLayout
from sheets_gm.sheets.local.boxes import WHOLE_TAB, Box, layout_cells, tab_box


def apply_protection(ws: Any, tab: TabLayout, inputs: list[Box]) -> None:
    """Sheet protection and per-cell locks for one tab (the mapping is in the notes above)."""
    gm_ranges: list[Box] = []
    gm_whole_tab = False
    for p in tab.protections:
        if p.editors or p.player_input:
            inputs.append(WHOLE_TAB if p.range is None else tab_box(tab, p.range, "protection"))
        elif p.range is None:
            gm_whole_tab = True
        else:
            gm_ranges.append(tab_box(tab, p.range, "protection"))
    ws.protection.sheet = bool(gm_ranges) or gm_whole_tab
    if not ws.protection.sheet:
        return
    # openpyxl's style ids found once a tab, not once a cell (``cell.protection`` looked the cell's up and made a
    # proxy of it; setting it hashed the whole Protection to find its id)
    kept = ws.parent._protections
    ids: dict[bool, int] = {}  # locked or not -> its protection's id
    locks: dict[int, bool] = {}  # a protection's id -> whether it locks
    row_locks = _RowLocks(gm_ranges, inputs, gm_whole_tab)
    for cell in _protection_candidates(ws, tab, inputs, gm_whole_tab):
        lock = row_locks.lock(cell.row, cell.column)
        style = cell._style
        if style is None:  # a cell made but never styled: as openpyxl's descriptor does first
            style = cell._style = StyleArray()
        if style.protectionId not in locks:
            locks[style.protectionId] = bool(kept[style.protectionId].locked)
        if locks[style.protectionId] != lock:
            if lock not in ids:
                ids[lock] = kept.add(CellProtection(locked=lock, hidden=False))
            style.protectionId = ids[lock]


class _RowLocks:
    """Whether a cell is locked (the mapping in the notes above), worked out once for each column of each set of
    boxes that cross a row, not by testing every box for every cell: the rows of a table are crossed by the same
    boxes, and a seat's orders tab is tens of thousands of cells."""

    def __init__(self, gm_ranges: list[Box], inputs: list[Box], gm_whole_tab: bool) -> None:
        self.gm_ranges, self.inputs, self.gm_whole_tab = gm_ranges, inputs, gm_whole_tab
        self._row = 0
        self._crossing: tuple[list[Box], list[Box]] = ([], [])  # the GM's boxes and the inputs crossing that row
        self._columns: dict[int, bool] = {}  # that row's columns -> locked, as found so far
        self._by_boxes: dict[tuple[tuple[int, ...], tuple[int, ...]], dict[int, bool]] = {}

    def lock(self, row: int, col: int) -> bool:
        """Whether the cell at ``row``, ``col`` (1-based) is locked."""
        if row != self._row:
            gm, inputs = _crossing(self.gm_ranges, row), _crossing(self.inputs, row)
            self._row, self._columns = row, self._by_boxes.setdefault((gm, inputs), {})
            self._crossing = ([self.gm_ranges[i] for i in gm], [self.inputs[i] for i in inputs])
        lock = self._columns.get(col)
        if lock is None:
            gm_boxes, input_boxes = self._crossing
            if any(b.contains(row, col) for b in gm_boxes):
                lock = True
            elif any(b.contains(row, col) for b in input_boxes):
                lock = False
            else:
                lock = self.gm_whole_tab
            self._columns[col] = lock
        return lock


def _crossing(boxes: list[Box], row: int) -> tuple[int, ...]:
    """The indexes of the ``boxes`` that cross ``row``."""
    return tuple(i for i, b in enumerate(boxes) if b.min_row <= row and (b.max_row is None or row <= b.max_row))


def _protection_candidates(ws: Any, tab: TabLayout, inputs: list[Box], gm_whole_tab: bool) -> Iterator[Any]:
    """The cells whose lock may need setting. A cell is locked unless told otherwise, so in a tab locked
    whole only the cells that exist and the input cells can differ: a 20,000-row log is not made of
    60,000 styled empty cells that every later save writes again."""
    if not gm_whole_tab:
        yield from layout_cells(ws, tab, WHOLE_TAB)
        return
    seen: set[tuple[int, int]] = set()
    for cell in list(ws._cells.values()):
        if not isinstance(cell, MergedCell):
            seen.add((cell.row, cell.column))
            yield cell
    for box in inputs:
        for cell in layout_cells(ws, tab, box):
            if (cell.row, cell.column) not in seen:
                yield cell
