"""Hex boards in Wesnoth's layout, for the Wesnoth and Win or Die rulesets.

Columns of flat-topped hexes; every even column (B, D, F…, counting from 1) sits half a hex
lower than its odd neighbours. Hexes are named like spreadsheet cells, column letters then
row number, ``A1`` top-left, so a board tab can draw a hex as a cell (two rows tall, even
columns one row lower). The neighbours of a hex in column c, row r are (c, r−1), (c, r+1)
and, on each side, rows r−1 and r when c is odd (1-based), rows r and r+1 when c is even;
they are always listed in the order N, NE, SE, S, SW, NW, which breaks ties between routes
(``topology.path_to``).

>>> board = HexGrid(6, 4)
>>> [board.label(h) for h in board.neighbours(board.parse("B2"))]
['B1', 'C2', 'C3', 'B3', 'A3', 'A2']
>>> board.distance(board.parse("A1"), board.parse("D3"))
4

**Line of sight** (Win or Die's rule) is exact geometry, with no sampling. With hexes of
side 1, the centre of (column c, row r), both from 0, is at x = 1.5·c, y = √3·(r + c mod 2 / 2),
y downwards. Stretching x by 2 and y by 2/√3 maps the centre to (3c, 2r + c mod 2) and the six
corners to the centre ± (2, 0) and ± (1, ±1): whole numbers. A stretch keeps straight lines
straight, insides inside and a line along an edge along it, so the test "does the segment
between two centres pass through the inside of this hex, or run along this edge" is done on
whole numbers and fractions, exactly: no tolerance is needed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from sheets_gm.engine.grid import Coord, CoordError, column_label

#: Neighbour steps (column, row) for columns 0, 2, 4… (1-based odd: A, C, E…) and for the others,
#: in the order N, NE, SE, S, SW, NW.
_STEPS_EVEN_INDEX = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_STEPS_ODD_INDEX = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")

#: The corners of a hex around its centre, in the stretched frame (see the module notes), going round.
_CORNERS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


#: A hex is named and stored like a square tile: 0-based column and row, ``label`` ``A1``.
Hex = Coord


def cube(h: Hex) -> tuple[int, int, int]:
    """Cube coordinates of a hex (x + y + z = 0), in which the distance is the largest difference."""
    x = h.col
    z = h.row - (h.col - (h.col & 1)) // 2
    return x, -x - z, z


def _centre(h: Hex) -> tuple[int, int]:
    """The hex's centre in the stretched frame."""
    return 3 * h.col, 2 * h.row + (h.col & 1)


def _hex_at(x: int, y: int) -> Hex:
    """The hex whose centre is (x, y) in the stretched frame."""
    col = x // 3
    return Hex(col, (y - (col & 1)) // 2)


@lru_cache(maxsize=1 << 16)
def _neighbours(width: int, height: int, col: int, row: int) -> tuple[Hex, ...]:
    """The neighbours of a hex on a board of that size, in the order N, NE, SE, S, SW, NW (route finding
    asks for them hundreds of thousands of times a match: they are made once)."""
    steps = _STEPS_ODD_INDEX if col & 1 else _STEPS_EVEN_INDEX
    return tuple(Hex(col + dc, row + dr) for dc, dr in steps
                 if 0 <= col + dc < width and 0 <= row + dr < height)


@dataclass(frozen=True, slots=True)
class SightLine:
    """What the straight line between two hex centres passes: ``through``, the hexes whose inside it
    crosses, in order from the first hex to the last (both included); ``edges``, the pairs of
    hexes (both on the board) along whose common edge it runs, in order too."""

    through: tuple[Hex, ...]
    edges: tuple[tuple[Hex, Hex], ...]


@dataclass(frozen=True, slots=True)
class HexGrid:
    """A board of ``width`` columns and ``height`` rows of hexes."""

    width: int
    height: int

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows."""
        return self.width, self.height

    def contains(self, h: Hex) -> bool:
        """Whether the hex is on the board."""
        return 0 <= h.col < self.width and 0 <= h.row < self.height

    def cells(self) -> Iterator[Hex]:
        """Every hex in reading order: row by row, then column."""
        for row in range(self.height):
            for col in range(self.width):
                yield Hex(col, row)

    def label(self, h: Hex) -> str:
        """The hex's name, such as ``C3``."""
        return h.label

    def parse(self, text: str) -> Hex:
        """A hex of this board from its name (``C3``, ``c 3``), or CoordError naming the text and the board."""
        last = Hex(self.width - 1, self.height - 1).label
        try:
            h = Coord.parse(text)
        except CoordError:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise CoordError(f"{shown!r} is not a hex: write its column letter then its row number, like C3 "
                             f"(A1 to {last})") from None
        if not self.contains(h):
            raise CoordError(f"{text!r} is off the board: columns A–{column_label(self.width - 1)}, rows "
                             f"1–{self.height} (A1 to {last})")
        return h

    def neighbours(self, h: Hex) -> list[Hex]:
        """The adjacent hexes on the board, in the order N, NE, SE, S, SW, NW."""
        return list(_neighbours(self.width, self.height, h.col, h.row))

    def distance(self, a: Hex, b: Hex) -> int:
        """Steps between two hexes on an open board."""
        ax, ay, az = cube(a)
        bx, by, bz = cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def sight_line(self, a: Hex, b: Hex) -> SightLine:
        """The hexes the straight line between the centres of ``a`` and ``b`` passes through, and the
        edges it runs along (see the module notes for the geometry).

        >>> board = HexGrid(5, 5)
        >>> [h.label for h in board.sight_line(board.parse("C1"), board.parse("C4")).through]
        ['C1', 'C2', 'C3', 'C4']
        >>> [(p.label, q.label) for p, q in board.sight_line(board.parse("A2"), board.parse("C2")).edges]
        [('B1', 'B2')]
        """
        (x0, y0), (x1, y1) = _centre(a), _centre(b)
        dx, dy = x1 - x0, y1 - y0
        crossed: list[tuple[Fraction, Hex]] = []
        runs: dict[frozenset[Hex], tuple[Fraction, Hex, Hex]] = {}
        # Only columns between the two ends can be crossed (a hex reaches 2 either side of its
        # centre's x = 3·column), and only rows whose hexes reach the line's y range.
        for col in range(min(a.col, b.col), max(a.col, b.col) + 1):
            lowest, highest = min(y0, y1) - 1, max(y0, y1) + 1
            for row in range((lowest - (col & 1)) // 2, (highest - (col & 1)) // 2 + 1):
                h = Hex(col, row)
                cx, cy = _centre(h)
                # Each side of the hexagon, as the line through two corners, is a linear function
                # of the position t along the segment (0 at a's centre, 1 at b's), positive inside.
                lo, hi = Fraction(0), Fraction(1)
                along: int | None = None  # the side the segment lies on, if any
                for i, (px, py) in enumerate(_CORNERS):
                    qx, qy = _CORNERS[(i + 1) % 6]
                    ex, ey = qx - px, qy - py
                    at0 = ex * (y0 - cy - py) - ey * (x0 - cx - px)
                    slope = ex * dy - ey * dx
                    if slope == 0:  # parallel to this side: outside all along, on its line, or inside
                        if at0 < 0:
                            lo, hi = Fraction(1), Fraction(0)
                        elif at0 == 0:
                            along = i
                    elif slope > 0:
                        lo = max(lo, Fraction(-at0, slope))
                    else:
                        hi = min(hi, Fraction(-at0, slope))
                if lo >= hi:
                    continue
                if along is None:
                    crossed.append((lo, h))
                    continue
                # The segment runs along one side for the length [lo, hi]: the hex across that side
                # (its centre mirrored through the side's middle) is the other side of the edge.
                px, py = _CORNERS[along]
                qx, qy = _CORNERS[(along + 1) % 6]
                other = _hex_at(cx + px + qx, cy + py + qy)
                if self.contains(h) and self.contains(other):
                    pair = (h, other) if (h.row, h.col) < (other.row, other.col) else (other, h)
                    runs[frozenset(pair)] = (lo, *pair)
        ordered_runs = sorted(runs.values(), key=lambda run: run[0])
        return SightLine(tuple(h for _, h in sorted(crossed, key=lambda c: c[0])),
                         tuple((p, q) for _, p, q in ordered_runs))

    def sees(self, a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
        """Whether the line between the centres of ``a`` and ``b`` is clear (Win or Die's rule): it is
        blocked by a hex whose inside it passes through, other than its two ends, where ``blocks`` is
        true; a line running exactly along an edge is blocked only if the hexes on both sides block.
        Touching a hex at a corner does not pass through it; hexes off the board never block.

        >>> board = HexGrid(5, 5)
        >>> wall = {board.parse("C3")}
        >>> board.sees(board.parse("C1"), board.parse("C5"), wall.__contains__)
        False
        >>> board.sees(board.parse("A1"), board.parse("E1"), wall.__contains__)
        True
        """
        line = self.sight_line(a, b)
        if any(h != a and h != b and blocks(h) for h in line.through):
            return False
        return not any(blocks(p) and blocks(q) for p, q in line.edges)
