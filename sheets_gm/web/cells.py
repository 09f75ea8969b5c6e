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


@lru_cache(maxsize=8192)
def _range_box(cells: str) -> tuple[int, int, int, int] | None:
    """``_box`` of a range that may name its tab (``Map!A1:C3``), once per range's text."""
    return _box(cells.rpartition("!")[2])


@lru_cache(maxsize=1024)
def _column(letters: str) -> int:
    """``column_index``, once per column's letters: a map's hundreds of fills name a few dozen columns."""
    return column_index(letters)


def _boxed(ranges: Iterator[tuple[str, str]]) -> Iterator[tuple[tuple[int, int, int, int], str]]:
    for cells, colour in ranges:
        box = _range_box(cells)
        if box is not None:
            yield box, colour


def text(value: CellValue) -> str:
    """A cell's value as the page shows it ('' for an empty cell)."""
    return "" if value is None else str(value)


def texts(drawing: BoardDrawing) -> list[list[str]]:
    """The drawing's values as the page shows them (``text`` of each, written out: a tab of unit types is thousands
    of cells), row by row."""
    return [[v if type(v) is str else "" if v is None else str(v) for v in row] for row in drawing.values]


class Cells:
    """A drawing's values and colours, cell by cell (0-based row and column)."""

    def __init__(self, drawing: BoardDrawing) -> None:
        self.drawing = drawing
        self.rows = texts(drawing)
        self._paint = self._painted(drawing)  # row by row, each cell's last fill (``WHITE`` for none)
        self._conditional = [(box, f.prefix, f.colour) for box, f in
                             ((b, f) for f in drawing.conditional_fills for b, _ in _boxed(iter([(f.range, "")])))]
        self._prefixes = tuple(prefix for _, prefix, _ in self._conditional)  # what a value must start with to match
        self._owners: dict[str, str] = {}
        self._matching: dict[str, list[tuple[tuple[int, int, int, int], str]]] = {}

    @property
    def prefixes(self) -> tuple[str, ...]:
        """What a cell's value must start with for a conditional fill to colour it (one a fill)."""
        return self._prefixes

    def _painted(self, drawing: BoardDrawing) -> list[list[str]]:
        """Each cell's last fill (``WHITE`` for none, as ``colour`` shows it: no cell read has to be looked at
        again), row by row, as far as the fills reach (rows past the values' second after the last are never
        asked)."""
        boxes = [(box, f.colour) for f in drawing.fills if (box := _range_box(f.range)) is not None]
        if not boxes:
            return []
        below, width = len(self.rows) + 1, max(c2 for (_, _, _, c2), _ in boxes) + 1
        paint = [[WHITE] * width for _ in range(min(max(r2 for (_, _, r2, _), _ in boxes), below) + 1)]
        for (r1, c1, r2, c2), colour in boxes:
            if r1 == r2 and c1 == c2:  # one cell (most of a square map's fills: its labels, its structures)
                if r1 <= below:
                    paint[r1][c1] = colour
                continue
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

    def row_paint(self, row: int, first: int, end: int) -> list[str]:
        """The colours the fills give row ``row``'s cells from column ``first`` to ``end`` (excluded; both 0 or
        more), no conditional fill's: the colours laid out with the tab, whatever its cells hold."""
        out = self._paint[row][first:end] if row < len(self._paint) else []
        if "" in out:  # a fill of no colour (the others are laid out as ``colour`` shows them)
            out = [colour or WHITE for colour in out]
        out += [WHITE] * (end - first - len(out))
        return out

    def block_paint(self, rows: range, first: int, end: int) -> list[str]:
        """``row_paint`` of each of ``rows`` (a map's), one after the other in one list."""
        out: list[str] = []
        for row in rows:
            out += self.row_paint(row, first, end)
        return out

    def row_colours(self, row: int, first: int, end: int, paint: list[str] | None = None) -> list[str]:
        """The colours of row ``row``'s cells from column ``first`` to ``end`` (excluded; both 0 or more), each as
        ``colour`` gives it: the row's paint at once (``paint``: ``row_paint`` of it, when the caller has it),
        ``colour`` asked only for a cell whose value starts with a conditional fill's prefix (a map's rows at once:
        a thousand calls of ``colour`` cost more than its cells)."""
        out = list(paint) if paint is not None else self.row_paint(row, first, end)
        if self._prefixes and row < len(self.rows):
            values, prefixes = self.rows[row], self._prefixes
            for col in [c for c in range(first, min(end, len(values))) if values[c].startswith(prefixes)]:
                out[col - first] = self.colour(row, col)
        return out

    def column_colours(self, col: int, first: int, step: int) -> list[str]:
        """The colours of column ``col``'s cells from row ``first`` on (0 or more), every ``step``-th row down to the
        drawing's last, each as ``colour`` gives it (as ``row_colours``)."""
        rows = range(first, len(self.rows), step)
        painted = self._paint[first:len(self.rows):step] if self._paint and 0 <= col < len(self._paint[0]) else []
        out = [line[col] or WHITE for line in painted]
        out += [WHITE] * (len(rows) - len(out))
        if self._prefixes:
            values = [line[col] if col < len(line) else "" for line in self.rows[first::step]]
            for k in [k for k, value in enumerate(values) if value.startswith(self._prefixes)]:
                out[k] = self.colour(rows[k], col)
        return out

    def owner_colour(self, value: str) -> str:
        """The colour a conditional fill gives a cell holding ``value`` ('' when none does: no owner's sign)."""
        found = self._owners.get(value)
        if found is None:  # a map's many empty cells and few owners' signs: each value's colour found once
            found = self._owners[value] = next((colour for _, prefix, colour in self._conditional
                                                if value.startswith(prefix)), "")
        return found
