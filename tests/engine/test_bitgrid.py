"""The breadth-first search over a grid's tiles as bits: the levels of the tile-by-tile search."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sheets_gm.engine.bitgrid import BitSearch
from sheets_gm.engine.grid import Coord, Grid, Neighbourhood


@given(st.integers(1, 7), st.integers(1, 6), st.sets(st.tuples(st.integers(0, 6), st.integers(0, 5)), max_size=20),
       st.integers(0, 6), st.integers(0, 5), st.sampled_from(list(Neighbourhood)))
def test_the_levels_are_the_tile_by_tile_distances_in_reading_order(
    width: int, height: int, wall_cells: set[tuple[int, int]], col: int, row: int, mode: Neighbourhood
) -> None:
    """For any walls, start (a wall too) and step, every tile ``Grid.distances_from`` reaches is in the level of its
    distance, each level in reading order, and no other tile: no step leaves the board or wraps to the next row."""
    grid = Grid(width, height)
    walls = {Coord(c, r) for c, r in wall_cells}
    start = Coord(col % width, row % height)
    dist = grid.distances_from(start, mode, lambda c: c not in walls)
    levels = BitSearch(grid, mode, lambda c: c not in walls).levels(start)
    assert levels[0] == [start]
    assert [(c, d) for d, level in enumerate(levels) for c in level] == sorted(
        dist.items(), key=lambda item: (item[1], item[0].row, item[0].col))


def test_a_step_off_a_row_end_does_not_reach_the_next_row() -> None:
    """A step off the right end of a row lands on no tile (not on the next row's first), nor one off the left end
    on the row before's last."""
    grid = Grid(3, 3)
    levels = BitSearch(grid, Neighbourhood.ROOK, lambda c: True).levels(Coord(2, 0))
    assert [[c.label for c in level] for level in levels] == [["C1"], ["B1", "C2"], ["A1", "B2", "C3"],
                                                              ["A2", "B3"], ["A3"]]
    one_row = BitSearch(Grid(4, 1), Neighbourhood.KING, lambda c: True).levels(Coord(3, 0))
    assert [[c.label for c in level] for level in one_row] == [["D1"], ["C1"], ["B1"], ["A1"]]
