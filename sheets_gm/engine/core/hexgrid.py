"""Hex boards in Wesnoth's layout, for the Wesnoth and Win or Die rulesets.

Columns of flat-topped hexes; every even column (B, D, F…, counting from 1) sits half a hex
lower than its odd neighbours. Hexes are named like spreadsheet cells, column letters then
row number, ``A1`` top-left, so a board tab can draw a hex as a cell (two rows tall, even
columns one row lower). The neighbours of a hex in column c, row r are (c, r−1), (c, r+1)
and, on each side, rows r−1 and r when c is odd (1-based), rows r and r+1 when c is even;
they are always listed in the order N, NE, SE, S, SW, NW, which breaks ties between routes.

>>> board = HexGrid(6, 4)
>>> [h.label for h in board.neighbours(board.parse("B2"))]
['B1', 'C2', 'C3', 'B3', 'A3', 'A2']
>>> board.distance(board.parse("A1"), board.parse("D3"))
4
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sheets_gm.engine.core.grid import Coord, CoordError, column_label

#: Neighbour steps (column, row) for columns 0, 2, 4… (1-based odd: A, C, E…) and for the others,
#: in the order N, NE, SE, S, SW, NW.
_STEPS_EVEN_INDEX = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_STEPS_ODD_INDEX = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")


#: A hex is named and stored like a square tile: 0-based column and row, ``label`` ``A1``.
Hex = Coord


def cube(h: Hex) -> tuple[int, int, int]:
    """Cube coordinates of a hex (x + y + z = 0), in which the distance is the largest difference."""
    x = h.col
    z = h.row - (h.col - (h.col & 1)) // 2
    return x, -x - z, z


def _from_cube(x: int, z: int) -> Hex:
    return Hex(x, z + (x - (x & 1)) // 2)


def _round_cube(x: float, y: float, z: float) -> tuple[int, int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz


@dataclass(frozen=True, slots=True)
class HexGrid:
    """A board of ``width`` columns and ``height`` rows of hexes."""

    width: int
    height: int

    def contains(self, h: Hex) -> bool:
        """Whether the hex is on the board."""
        return 0 <= h.col < self.width and 0 <= h.row < self.height

    def cells(self) -> Iterator[Hex]:
        """Every hex in reading order: row by row, then column."""
        for row in range(self.height):
            for col in range(self.width):
                yield Hex(col, row)

    def parse(self, text: str) -> Hex:
        """A hex of this board from its name, or CoordError naming the text and the board's extent."""
        h = Coord.parse(text)
        if not self.contains(h):
            last = Hex(self.width - 1, self.height - 1).label
            raise CoordError(f"{text!r} is off the board: columns A–{column_label(self.width - 1)}, rows "
                             f"1–{self.height} (A1 to {last})")
        return h

    def neighbours(self, h: Hex) -> list[Hex]:
        """The adjacent hexes on the board, in the order N, NE, SE, S, SW, NW."""
        steps = _STEPS_ODD_INDEX if h.col & 1 else _STEPS_EVEN_INDEX
        out = []
        for dc, dr in steps:
            n = Hex(h.col + dc, h.row + dr)
            if self.contains(n):
                out.append(n)
        return out

    def distance(self, a: Hex, b: Hex) -> int:
        """Steps between two hexes on an open board."""
        ax, ay, az = cube(a)
        bx, by, bz = cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def cheapest(self, start: Hex, cost: Callable[[Hex], float | None]) -> dict[Hex, tuple[float, Hex | None]]:
        """Dijkstra from ``start``: each reachable hex's cost and the hex before it on its cheapest route.

        ``cost(h)`` is what entering ``h`` costs (None: it cannot be entered). Equal costs keep the
        route found first, exploring neighbours in the order N, NE, SE, S, SW, NW."""
        best: dict[Hex, tuple[float, Hex | None]] = {start: (0.0, None)}
        queue: list[tuple[float, int, Hex]] = [(0.0, 0, start)]
        order = 0
        while queue:
            spent, _, here = heapq.heappop(queue)
            if spent > best[here][0]:
                continue
            for n in self.neighbours(here):
                step = cost(n)
                if step is None:
                    continue
                total = spent + step
                if n not in best or total < best[n][0]:
                    best[n] = (total, here)
                    order += 1
                    heapq.heappush(queue, (total, order, n))
        return best

    def route(self, start: Hex, goal: Hex, cost: Callable[[Hex], float | None]) -> list[Hex] | None:
        """The cheapest route from ``start`` to ``goal`` (the hexes entered, goal included), or None."""
        best = self.cheapest(start, cost)
        if goal not in best:
            return None
        path = []
        here: Hex | None = goal
        while here is not None and here != start:
            path.append(here)
            here = best[here][1]
        return list(reversed(path))

    def line(self, a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
        """The hexes the straight line between two hex centres passes through, in order, each as the
        pair of hexes found just to either side of the line: the same hex twice inside a hex, two
        different hexes where the line runs exactly along their common edge."""
        n = self.distance(a, b)
        ax, ay, az = cube(a)
        bx, by, bz = cube(b)
        out = []
        for i in range(n + 1):
            t = i / n if n else 0.0
            x, y, z = ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t
            plus = _round_cube(x + 1e-6, y + 2e-6, z - 3e-6)
            minus = _round_cube(x - 1e-6, y - 2e-6, z + 3e-6)
            out.append((_from_cube(plus[0], plus[2]), _from_cube(minus[0], minus[2])))
        return out

    def sees(self, a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
        """Whether the line between the centres of ``a`` and ``b`` is clear (Win or Die's rule): it is
        blocked by a hex it passes through, other than its two ends, where ``blocks`` is true; a line
        running exactly along an edge is blocked only if the hexes on both sides block.

        >>> board = HexGrid(5, 5)
        >>> wall = {board.parse("C3")}
        >>> board.sees(board.parse("C1"), board.parse("C5"), wall.__contains__)
        False
        >>> board.sees(board.parse("A1"), board.parse("E1"), wall.__contains__)
        True
        """
        for left, right in self.line(a, b):
            if a in (left, right) or b in (left, right):
                continue
            if left == right and blocks(left):
                return False
            if left != right and blocks(left) and blocks(right):
                return False
        return True
