"""A1 ranges of a local workbook as boxes of cells, and finding a tab by name."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from openpyxl.cell.cell import Cell, MergedCell
from openpyxl.utils import column_index_from_string, get_column_letter

from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.layout import TabLayout

MAX_ROWS = 1_048_576
MAX_COLS = 16_384
_ENDPOINT = re.compile(r"^\$?([A-Za-z]{0,3})\$?([0-9]{0,7})$")


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle of cells, 1-based and inclusive; ``None`` ends run to the sheet's edge."""

    min_row: int
    min_col: int
    max_row: int | None
    max_col: int | None

    @property
    def single(self) -> bool:
        """True for a box of one cell."""
        return self.min_row == self.max_row and self.min_col == self.max_col

    def clamp(self, rows: int, cols: int) -> tuple[int, int, int, int]:
        """The box cut to a grid of ``rows`` x ``cols``: (min_row, min_col, max_row, max_col)."""
        max_row = rows if self.max_row is None else min(self.max_row, rows)
        max_col = cols if self.max_col is None else min(self.max_col, cols)
        return self.min_row, self.min_col, max_row, max_col

    def contains(self, row: int, col: int) -> bool:
        """True if the cell at ``row``, ``col`` (1-based) lies in the box."""
        return (
            self.min_row <= row
            and (self.max_row is None or row <= self.max_row)
            and self.min_col <= col
            and (self.max_col is None or col <= self.max_col)
        )


WHOLE_TAB = Box(1, 1, None, None)
"""Every cell of a tab."""


def _endpoint(text: str) -> tuple[int | None, int | None]:
    match = _ENDPOINT.match(text.strip())
    if match is None or not (match.group(1) or match.group(2)):
        raise ValueError(text)
    col = column_index_from_string(match.group(1).upper()) if match.group(1) else None
    row = int(match.group(2)) if match.group(2) else None
    if (col is not None and not 1 <= col <= MAX_COLS) or (row is not None and not 1 <= row <= MAX_ROWS):
        raise ValueError(text)
    return col, row


@functools.lru_cache(maxsize=4096)
def parse_cells(cells: str) -> Box:
    """The box of the cell part of an A1 range: ``""`` (whole tab), ``B2``, ``A1:C3``,
    ``A:C``, ``2:5``, ``A2:E`` (open-ended down). Each text parsed once (a box is never changed): a match's layouts
    and writes name the same ranges match after match, a layout each of its fills twice."""
    if cells.strip() == "":
        return WHOLE_TAB
    first, colon, last = cells.partition(":")
    col1, row1 = _endpoint(first)
    if not colon:
        if col1 is None or row1 is None:
            raise ValueError(cells)
        return Box(row1, col1, row1, col1)
    col2, row2 = _endpoint(last)
    min_col, max_col = col1 or 1, col2
    min_row, max_row = row1 or 1, row2
    if max_col is not None and max_col < min_col:
        min_col, max_col = max_col, min_col
    if max_row is not None and max_row < min_row:
        min_row, max_row = max_row, min_row
    return Box(min_row, min_col, max_row, max_col)


def worksheet_named(wb: Any, tab: str) -> Any:
    """The tab named ``tab`` (an exact match first, else the one match ignoring case), or ``None``."""
    if tab in wb.sheetnames:
        return wb[tab]
    folded = [n for n in wb.sheetnames if n.casefold() == tab.casefold()]
    if len(folded) == 1:
        return wb[folded[0]]
    return None


def is_empty_sheet(ws: Any) -> bool:
    """True if no cell of ``ws`` holds anything."""
    return all(cell.value in (None, "") for row in ws.iter_rows() for cell in row)


def tab_box(tab: TabLayout, cells: str, what: str) -> Box:
    """The box of a range of a layout tab, checked against the tab's size."""
    try:
        box = parse_cells(cells)
    except ValueError as e:
        raise SheetError(f"tab {tab.name!r}: {what} range {cells!r} is not an A1 range") from e
    if box.min_row > tab.rows or box.min_col > tab.cols or (box.max_row or 0) > tab.rows or (
        box.max_col or 0
    ) > tab.cols:
        raise SheetError(f"tab {tab.name!r}: {what} range {cells!r} is outside its {tab.rows} x {tab.cols} cells")
    return box


def layout_cells(ws: Any, tab: TabLayout, box: Box) -> Iterator[Any]:
    """Each cell of ``box`` within the layout tab's size (made where the tab holds none, as ``ws.cell`` makes it,
    without its checks: a box is within the sheet), merged cells left out."""
    min_row, min_col, max_row, max_col = box.clamp(tab.rows, tab.cols)
    cells = ws._cells
    columns = range(min_col, max_col + 1)
    for row in range(min_row, max_row + 1):
        for col in columns:
            cell = cells.get((row, col))
            if cell is None:
                cell = cells[(row, col)] = Cell(ws, row=row, column=col)
                if row > ws._current_row:
                    ws._current_row = row
            elif isinstance(cell, MergedCell):
                continue
            yield cell


def cell_at(ws: Any, row: int, col: int) -> Any:
    """``ws.cell(row, col)`` (1-based; made when the tab holds none there), looked up first without its checks."""
    cell = ws._cells.get((row, col))
    return ws.cell(row=row, column=col) if cell is None else cell


def box_ref(box: Box, tab: TabLayout) -> str:
    """The box within the layout tab's size as an A1 range without its tab (``B2:D9``)."""
    min_row, min_col, max_row, max_col = box.clamp(tab.rows, tab.cols)
    return f"{get_column_letter(min_col)}{min_row}:{get_column_letter(max_col)}{max_row}"
