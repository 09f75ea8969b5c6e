"""A drawing's cells as the page reads them: each cell's colour from the drawing's fills (later fills over earlier
ones, a conditional fill over both where the cell's value starts with its prefix), and its text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from sheets_gm.engine.grid import column_index
from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.sheets.layout import CellValue

_RANGE = re.compile(r"^\s*([A-Z]+)(\d+)\s*(?::\s*([A-Z]+)(\d+)\s*)?$")
WHITE = "#FFFFFF"


def _box(cells: str) -> tuple[int, int, int, int] | None:
    """``A1:C3`` (or ``B2``) as 0-based (first row, first column, last row, last column); None when it is not one."""
    found = _RANGE.match(cells.upper())
    if found is None:
        return None
    c1, r1 = _column(found.group(1)), int(found.group(2)) - 1
    c2, r2 = (_column(found.group(3)), int(found.group(4)) - 1) if found.group(3) else (c1, r1)
    return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)


@lru_cache(maxsize=1024)
def _column(letters: str) -> int:
    """``column_index``, once per column's letters: a map's hundreds of fills name a few dozen columns."""
    return column_index(letters)


def _boxed(ranges: Iterator[tuple[str, str]]) -> Iterator[tuple[tuple[int, int, int, int], str]]:
    for cells, colour in ranges:
        box = _box(cells.rpartition("!")[2])
        if box is not None:
            yield box, colour


def text(value: CellValue) -> str:
    """A cell's value as the page shows it ('' for an empty cell)."""
    return "" if value is None else str(value)


class Cells:
    """A drawing's values and colours, cell by cell (0-based row and column)."""

    def __init__(self, drawing: BoardDrawing, *, colours: bool = True) -> None:
        self.drawing = drawing
        self.rows = [[v if type(v) is str else text(v) for v in row] for row in drawing.values]
        self._paint: list[list[str]] = []  # row by row, each cell's last fill ('' for none)
        boxes: dict[str, tuple[int, int, int, int] | None] = {}  # a drawing names many ranges again: read each once
        for f in drawing.fills if colours else ():
            box = boxes[f.range] if f.range in boxes else boxes.setdefault(f.range, _box(f.range.rpartition("!")[2]))
            if box is not None:
                r1, c1, r2, c2 = box
                last = min(r2, len(self.rows) + 1)
                while len(self._paint) <= last:
                    self._paint.append([])
                for painted in self._paint[r1:last + 1]:  # a row's span at once: a map is hundreds of fills
                    if len(painted) <= c2:
                        painted.extend([""] * (c2 + 1 - len(painted)))
                    painted[c1:c2 + 1] = [f.colour] * (c2 + 1 - c1)
        self._conditional = [(box, f.prefix, f.colour) for box, f in
                             ((b, f) for f in drawing.conditional_fills for b, _ in _boxed(iter([(f.range, "")])))]
        self._owners: dict[str, str] = {}

    def value(self, row: int, col: int) -> str:
        """The cell's text ('' past the drawing)."""
        try:
            return self.rows[row][col] if row >= 0 and col >= 0 else ""
        except IndexError:
            return ""

    def note(self, row: int, col: int) -> str:
        """The cell's note ('' for none)."""
        return (self.drawing.notes or {}).get((row, col), "")

    def colour(self, row: int, col: int) -> str:
        """The cell's background: the last fill over it, unless its value starts with a conditional fill's prefix."""
        value = self.value(row, col)
        for (r1, c1, r2, c2), prefix, colour in self._conditional:
            if r1 <= row <= r2 and c1 <= col <= c2 and value.startswith(prefix):
                return colour
        try:
            return self._paint[row][col] or WHITE if row >= 0 and col >= 0 else WHITE
        except IndexError:
            return WHITE

    def owner_colour(self, value: str) -> str:
        """The colour a conditional fill gives a cell holding ``value`` ('' when none does: no owner's sign)."""
        found = self._owners.get(value)
        if found is None:  # a map's many empty cells and few owners' signs: each value's colour found once
            found = self._owners[value] = next((colour for _, prefix, colour in self._conditional
                                                if value.startswith(prefix)), "")
        return found
