"""One interface for every board: square grids (GvG, Champions), hex grids (Wesnoth, Win or
Die) and named-square planes (Coalition–Phyrexia).

A ruleset's board is a ``Topology`` of its own positions: it says which positions exist (in
reading order), reads and names them for people, and knows the steps between them. Routes
with terrain costs and line of sight are the hex grid's (``hexgrid.HexGrid.cheapest``,
``sees``); a square board's distances around walls are GvG's ``grid.Grid.distances_from``.

>>> from sheets_gm.engine.core.grid import Neighbourhood
>>> board = SquareBoard(Grid(4, 3), Neighbourhood.KING)
>>> [c.label for c in board.neighbours(board.parse("B2"))]
['A1', 'B1', 'C1', 'A2', 'C2', 'A3', 'B3', 'C3']
>>> board.distance(board.parse("A1"), board.parse("D3"))
3
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

from sheets_gm.engine.core.grid import Coord, CoordError, Grid, Neighbourhood, column_label

P = TypeVar("P")


class Topology(Protocol[P]):
    """A board's positions and the steps between them."""

    def contains(self, p: P) -> bool:
        """Whether ``p`` is on the board."""
        ...

    def cells(self) -> Iterator[P]:
        """Every position, in reading order."""
        ...

    def parse(self, text: str) -> P:
        """A position from its name, leniently (case, spaces); CoordError naming the text and the board."""
        ...

    def neighbours(self, p: P) -> list[P]:
        """The positions one step away, in the board's fixed order."""
        ...

    def distance(self, a: P, b: P) -> int:
        """Steps between two positions on an open board."""
        ...


@dataclass(frozen=True, slots=True)
class SquareBoard:
    """A square grid with its step: like a chess king (8 neighbours) or a rook (4)."""

    grid: Grid
    mode: Neighbourhood

    def contains(self, c: Coord) -> bool:
        """Whether the tile is on the board."""
        return self.grid.contains(c)

    def cells(self) -> Iterator[Coord]:
        """Every tile in reading order."""
        return self.grid.tiles()

    def parse(self, text: str) -> Coord:
        """A tile such as ``F7``; CoordError names the text, or the board's extent when it is off it."""
        tile = Coord.parse(text)
        if not self.contains(tile):
            raise CoordError(f"{text!r} is off the board: columns A–{column_label(self.grid.width - 1)}, rows "
                             f"1–{self.grid.height} (A1 to {self.grid.last.label})")
        return tile

    def neighbours(self, c: Coord) -> list[Coord]:
        """The tiles one step away, in reading order."""
        return self.grid.neighbours(c, self.mode)

    def distance(self, a: Coord, b: Coord) -> int:
        """Steps on an open board: the larger difference (king) or their sum (rook)."""
        dc, dr = abs(a.col - b.col), abs(a.row - b.row)
        return max(dc, dr) if self.mode is Neighbourhood.KING else dc + dr
