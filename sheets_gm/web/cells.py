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


@lru_cache(maxsize=8192)
def _box(cells: str) -> tuple[int, int, int, int] | None:
    """``A1:C3`` (or ``B2``) as 0-based (first row, first column, last row, last column); None when it is not one.
    Once per range's text: a board names the same ranges in every window's drawing."""
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
        self._paint = self._painted(drawing) if colours else []  # row by row, each cell's last fill ('' for none)
        self._conditional = [(box, f.prefix, f.colour) for box, f in
                             ((b, f) for f in drawing.conditional_fills for b, _ in _boxed(iter([(f.range, "")])))]
        self._prefixes = tuple(prefix for _, prefix, _ in self._conditional)  # what a value must start with to match
        self._owners: dict[str, str] = {}
        self._matching: dict[str, list[tuple[tuple[int, int, int, int], str]]] = {}

    def _painted(self, drawing: BoardDrawing) -> list[list[str]]:
        """Each cell's last fill ('' for none), row by row, as far as the fills reach (rows past the values' second
        after the last are never asked)."""
        boxes = [(box, f.colour) for f in drawing.fills if (box := _box(f.range.rpartition("!")[2])) is not None]
        if not boxes:
            return []
        below, width = len(self.rows) + 1, max(c2 for (_, _, _, c2), _ in boxes) + 1
        paint = [[""] * width for _ in range(min(max(r2 for (_, _, r2, _), _ in boxes), below) + 1)]
        for (r1, c1, r2, c2), colour in boxes:
            if c1 == c2:  # a column's cells (most of a hex map's fills: a hex is two cells of one)
                for painted in paint[r1:min(r2, below) + 1]:
                    painted[c1] = colour
                continue
            span = [colour] * (c2 + 1 - c1)
            for painted in paint[r1:min(r2, below) + 1]:  # a row's span at once: a map is hundreds of fills
                painted[c1:c2 + 1] = span
        return paint

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
        if value.startswith(self._prefixes):  # most cells start with no conditional fill's prefix: their paint alone
            matching = self._matching.get(value)
            if matching is None:  # a map's cells hold a few values: the fills each one starts with, found once
                matching = self._matching[value] = [(box, colour) for box, prefix, colour in self._conditional
                                                    if value.startswith(prefix)]
            for (r1, c1, r2, c2), colour in matching:
                if r1 <= row <= r2 and c1 <= col <= c2:
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
