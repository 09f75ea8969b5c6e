"""Square-grid geometry in spreadsheet coordinates (column letters, row number, A1 top-left).

The guild game plays on a ``Grid`` directly (its engine asks for neighbours and breadth-first distances
around walls, cached for speed); ``SquareBoard`` is the same grid with its step behind the
``topology.Topology`` interface, for Champions and any ruleset that wants the shared route
finding. Hex boards (``hexgrid``) name their hexes with the same ``Coord``.

>>> Coord.parse("C2")
Coord(col=2, row=1)
>>> Coord(27, 9).label
'AB10'
>>> Coord.parse(" f 7 ").label
'F7'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

_COORD_RE = re.compile(r"^\s*([A-Za-z]{1,3})\s*0*([1-9][0-9]{0,4})\s*$")


class CoordError(ValueError):
    """A text that is not a spreadsheet coordinate such as ``F7``."""


def column_label(col: int) -> str:
    """Spreadsheet letters of a 0-based column: 0 → A, 25 → Z, 26 → AA."""
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """0-based column of spreadsheet letters: A → 0, AA → 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


class Coord(NamedTuple):
    """A tile: 0-based column and row. Printed and parsed as ``F7``."""

    col: int
    row: int

    @property
    def label(self) -> str:
        """The spreadsheet name of the tile, e.g. ``F7``."""
        found = _LABELS.get(self)
        if found is None:
            found = _LABELS[self] = f"{column_label(self.col)}{self.row + 1}"
        return found

    def __str__(self) -> str:
        return self.label

    @classmethod
    def parse(cls, text: str) -> Coord:
        """Read ``F7``, ``f7``, `` F 7 `` or ``F07``; raise CoordError naming the text otherwise."""
        match = _COORD_RE.match(text)
        if not match:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise CoordError(f"{shown!r} is not a tile; write a column letter and a row number, like F7")
        return cls(column_index(match.group(1)), int(match.group(2)) - 1)


_LABELS: dict[Coord, str] = {}  # labels are asked for on every log line: compute each once


class Neighbourhood(StrEnum):
    """How one step moves: like a chess king (8 neighbours) or a rook (4)."""

    KING = "king"
    ROOK = "rook"


_KING_STEPS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_ROOK_STEPS = ((0, -1), (-1, 0), (1, 0), (0, 1))


class Grid:
    """A rectangular board of ``width`` × ``height`` tiles."""

    __slots__ = ("_neighbours", "height", "width")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._neighbours: dict[tuple[Coord, Neighbourhood], list[Coord]] = {}

    def contains(self, c: Coord) -> bool:
        """Whether the tile lies on the board."""
        return 0 <= c.col < self.width and 0 <= c.row < self.height

    def tiles(self) -> Iterator[Coord]:
        """Every tile in reading order: row by row, left to right."""
        for row in range(self.height):
            for col in range(self.width):
                yield Coord(col, row)

    @property
    def last(self) -> Coord:
        """The bottom-right tile."""
        return Coord(self.width - 1, self.height - 1)

    def neighbours(self, c: Coord, mode: Neighbourhood) -> list[Coord]:
        """The on-board tiles one step from ``c`` (cached: the board never changes; do not modify)."""
        found = self._neighbours.get((c, mode))
        if found is None:
            steps = _KING_STEPS if mode is Neighbourhood.KING else _ROOK_STEPS
            found = []
            for dc, dr in steps:
                n = Coord(c.col + dc, c.row + dr)
                if 0 <= n.col < self.width and 0 <= n.row < self.height:
                    found.append(n)
            self._neighbours[(c, mode)] = found
        return found

    def within_one(self, c: Coord, mode: Neighbourhood) -> list[Coord]:
        """The tile itself and its neighbours ("within 1 square")."""
        return [c, *self.neighbours(c, mode)]

    def distances_from(self, start: Coord, mode: Neighbourhood, passable: Callable[[Coord], bool]) -> dict[Coord, int]:
        """Shortest path lengths in steps from ``start`` to every reachable passable tile, nearest first.

        The start itself is always included (distance 0), passable or not. A board searched from many starts has
        ``bitgrid.BitSearch``, the same distances found a level at a time.
        """
        dist = {start: 0}
        frontier = [start]  # the tiles d steps away, in the order they were reached: breadth first, a level at a time
        d = 0
        while frontier:
            d += 1
            after: list[Coord] = []
            for here in frontier:
                for n in self.neighbours(here, mode):
                    if n not in dist and passable(n):
                        dist[n] = d
                        after.append(n)
            frontier = after
        return dist


def sorted_reading_order(tiles: Iterable[Coord]) -> list[Coord]:
    """Tiles sorted row by row, left to right (the order a sheet is read)."""
    return sorted(tiles, key=lambda c: (c.row, c.col))


@dataclass(frozen=True, slots=True)
class SquareBoard:
    """A square grid with its step, behind the ``Topology`` interface: like a chess king (8 neighbours) or a
    rook (4).

    >>> board = SquareBoard(Grid(4, 3), Neighbourhood.KING)
    >>> [board.label(c) for c in board.neighbours(board.parse("b2"))]
    ['A1', 'B1', 'C1', 'A2', 'C2', 'A3', 'B3', 'C3']
    >>> board.distance(board.parse("A1"), board.parse("D3"))
    3
    """

    grid: Grid
    mode: Neighbourhood

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows."""
        return self.grid.width, self.grid.height

    def contains(self, c: Coord) -> bool:
        """Whether the tile is on the board."""
        return self.grid.contains(c)

    def cells(self) -> Iterator[Coord]:
        """Every tile in reading order."""
        return self.grid.tiles()

    def label(self, c: Coord) -> str:
        """The tile's name, such as ``F7``."""
        return c.label

    def parse(self, text: str) -> Coord:
        """A tile such as ``F7``; CoordError names the text, or the board's extent when it is off it."""
        try:
            tile = Coord.parse(text)
        except CoordError as exc:  # the example tile on this board (F7 is off a small one)
            example = "F7" if self.contains(Coord(5, 6)) else self.grid.last.label
            raise CoordError(str(exc).removesuffix("F7") + example) from None
        if not self.contains(tile):
            raise CoordError(f"{text!r} is off the board: columns A–{column_label(self.grid.width - 1)}, rows "
                             f"1–{self.grid.height} (A1 to {self.grid.last.label})")
        return tile

    def neighbours(self, c: Coord) -> list[Coord]:
        """The tiles one step away, in reading order (king: NW, N, NE, W, E, SW, S, SE; rook: N, W, E, S)."""
        return self.grid.neighbours(c, self.mode)

    def distance(self, a: Coord, b: Coord) -> int:
        """Steps on an open board: the larger difference (king) or their sum (rook)."""
        dc, dr = abs(a.col - b.col), abs(a.row - b.row)
        return max(dc, dr) if self.mode is Neighbourhood.KING else dc + dr
