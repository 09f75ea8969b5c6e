"""Named-square planes, for the Coalition–Phyrexia ruleset.

A plane is a grid of W columns and H rows whose squares are named column number then row
letter (``3A``: column 3, row A), the way the forum game wrote them. Steps are orthogonal,
listed in the order N, E, S, W; on a wrapping plane (Mirrodin) a step may cross any edge to
the opposite one (left and right, top and bottom), and distances count the shorter way
round. Each plane is its own ``topology.Topology``; the ruleset says which plane a square is
on (``Mirrodin 3A``) and links planes through portals.

>>> mirrodin = Plane("Mirrodin", 18, 8, wrap=True)
>>> mirrodin.parse("1a").label, mirrodin.distance(mirrodin.parse("1A"), mirrodin.parse("18A"))
('1A', 1)
>>> [s.label for s in mirrodin.neighbours(mirrodin.parse("1A"))]
['1H', '2A', '1B', '18A']
>>> Plane("Dominaria", 24, 9).distance(Plane("Dominaria", 24, 9).parse("1A"), Plane("Dominaria", 24, 9).parse("24A"))
23
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from sheets_gm.engine.grid import Coord, CoordError

_SQUARE = re.compile(r"^\s*0*([1-9][0-9]{0,2})\s*([A-Za-z])\s*$")
#: Orthogonal steps (column, row) in the order N, E, S, W.
_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


@dataclass(frozen=True, slots=True)
class Square:
    """A square of a plane: 0-based column and row; ``label`` ``3A``."""

    col: int
    row: int

    @property
    def label(self) -> str:
        """Column number (from 1) then row letter."""
        return f"{self.col + 1}{chr(ord('A') + self.row)}"

    def coord(self) -> Coord:
        """The same position as a spreadsheet cell (for drawing the plane on a tab)."""
        return Coord(self.col, self.row)


@dataclass(frozen=True, slots=True)
class Plane:
    """A plane of ``width`` columns and ``height`` rows (at most 26), wrapping or not."""

    name: str
    width: int
    height: int
    wrap: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.height <= 26 or self.width < 1:
            raise ValueError(f"plane {self.name}: {self.width} x {self.height} squares; rows run A to Z")

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows."""
        return self.width, self.height

    def label(self, s: Square) -> str:
        """The square's name, such as ``3A`` (without the plane's)."""
        return s.label

    def contains(self, s: Square) -> bool:
        """Whether the square is on the plane."""
        return 0 <= s.col < self.width and 0 <= s.row < self.height

    def cells(self) -> Iterator[Square]:
        """Every square in reading order: row A first, then by column."""
        for row in range(self.height):
            for col in range(self.width):
                yield Square(col, row)

    def parse(self, text: str) -> Square:
        """A square from ``3A`` (case and spaces do not matter); CoordError naming the text and the plane."""
        match = _SQUARE.match(str(text))
        last = f"{self.width}{chr(ord('A') + self.height - 1)}"
        if match is None:
            raise CoordError(f"{text!r} is not a square of {self.name}: write the column number then the row "
                             f"letter, like 3A (1A to {last})")
        square = Square(int(match.group(1)) - 1, ord(match.group(2).upper()) - ord("A"))
        if not self.contains(square):
            raise CoordError(f"{text!r} is off {self.name}: columns 1–{self.width}, rows "
                             f"A–{chr(ord('A') + self.height - 1)} (1A to {last})")
        return square

    def neighbours(self, s: Square) -> list[Square]:
        """The squares one orthogonal step away, in the order N, E, S, W (across the edges when wrapping)."""
        out = []
        for dc, dr in _STEPS:
            col, row = s.col + dc, s.row + dr
            if self.wrap:
                col, row = col % self.width, row % self.height
            n = Square(col, row)
            if self.contains(n) and n != s and n not in out:
                out.append(n)
        return out

    def distance(self, a: Square, b: Square) -> int:
        """Orthogonal steps between two squares (the shorter way round on a wrapping plane)."""
        dc, dr = abs(a.col - b.col), abs(a.row - b.row)
        if self.wrap:
            dc, dr = min(dc, self.width - dc), min(dr, self.height - dr)
        return dc + dr
