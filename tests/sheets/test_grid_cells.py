"""``GridCells`` looks cells up in the grids read as ``grid_cells`` copies them out: the same cells, a later range
winning where two overlap (issue 66: 10,000 junk rows are not copied into a dict to look at a few shown cells)."""

from __future__ import annotations

from sheets_gm.sheets.guard import GridCells, grid_cells
from sheets_gm.sheets.layout import Grid

RANGES: list[tuple[str, Grid]] = [
    ("'Orders red'!A1:C", [[1, 2, 3], [4, 5, 6], [8]]),
    ("'Orders red'!B2:D", [[9, None], [7]]),  # overlaps the first: wins where it has a cell
    ("'Forum red'!A3", [["x"]]),
]


def test_grid_cells_looked_up_are_the_cells_copied_out() -> None:
    """Every cell ``grid_cells`` gives (a later range's value where two overlap) and no other: this test fails if
    the first range wins, or if a row shorter than another is read past its end."""
    copied: dict[tuple[str, int, int], object] = {}
    for a1_range, grid in RANGES:
        copied.update(grid_cells(a1_range, grid))
    looked = GridCells(RANGES)
    assert dict(looked) == copied and len(looked) == len(copied)
    for cell in [*copied, ("orders red", 1, 3), ("orders red", 9, 0), ("forum red", 0, 0), ("judge", 0, 0)]:
        assert looked.get(cell, "-") == copied.get(cell, "-"), cell
