"""The shrinking square grid: 4×4, then 3×3, then 2×2; tile classes; where players land when it shrinks.

>>> [tile_class(4, Coord.parse(t)).value for t in ("A1", "B1", "B2", "D4")]
['corner', 'edge', 'centre', 'corner']
>>> shrink_axis(4, 3, 4), shrink_axis(4, 3, 2), shrink_axis(4, 3, 3)
(3, 2, 2)
"""

from __future__ import annotations

from functools import lru_cache

from sheets_gm.engine.grid import Coord, Grid, Neighbourhood, SquareBoard
from sheets_gm.rulesets.champions.enums import TileClass

#: The grid sizes, largest first, and the most living players each holds (the rulings' shrinking steps).
SIZES = (4, 3, 2)
CAPACITY = {4: 16, 3: 9, 2: 4}


@lru_cache(maxsize=8)
def board(size: int) -> SquareBoard:
    """The ``size``×``size`` grid with king steps (any of the 8 directions)."""
    return SquareBoard(Grid(size, size), Neighbourhood.KING)


def size_for(alive: int) -> int:
    """The grid for ``alive`` players: 4×4 above 9, 3×3 from 9 down to 5, 2×2 at 4 or fewer."""
    if alive <= CAPACITY[2]:
        return 2
    if alive <= CAPACITY[3]:
        return 3
    return 4


def tile_class(size: int, tile: Coord) -> TileClass:
    """Corner, edge or centre; on a 2×2 grid every tile is a corner."""
    last = size - 1
    on_col_edge = tile.col in (0, last)
    on_row_edge = tile.row in (0, last)
    if on_col_edge and on_row_edge:
        return TileClass.CORNER
    if on_col_edge or on_row_edge:
        return TileClass.EDGE
    return TileClass.CENTRE


def shrink_axis(old: int, new: int, position: int, roll: int = 1) -> int:
    """Where a 1-based position on one axis lands when the grid shrinks from ``old`` to ``new``.

    4→3 maps 1, 2, 3, 4 to 1, 2, 2, 3; 3→2 maps 1 to 1 and 3 to 2, and 2 to 1 (a d6 ``roll`` of
    1–3) or 2 (4–6). Anything else is a programming error."""
    if (old, new) == (4, 3):
        return (1, 2, 2, 3)[position - 1]
    if (old, new) == (3, 2):
        return 1 if position == 1 else 2 if position == 3 else (1 if roll <= 3 else 2)
    raise ValueError(f"the grid shrinks 4→3 or 3→2, not {old}→{new}")


def tiles(size: int) -> list[Coord]:
    """Every tile of the ``size``×``size`` grid, in reading order."""
    return list(board(size).cells())
