"""One conformance test for every kind of board behind the Topology interface."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from sheets_gm.engine.core.grid import CoordError, Grid, Neighbourhood
from sheets_gm.engine.core.hexgrid import HexGrid
from sheets_gm.engine.core.planes import Plane
from sheets_gm.engine.core.topology import SquareBoard, Topology

BOARDS: dict[str, Topology[Any]] = {
    "square king": SquareBoard(Grid(6, 5), Neighbourhood.KING),
    "square rook": SquareBoard(Grid(6, 5), Neighbourhood.ROOK),
    "hex": HexGrid(7, 5),
    "plane": Plane("Dominaria", 6, 5),
    "wrapping plane": Plane("Mirrodin", 6, 5, wrap=True),
}


@pytest.mark.parametrize("name", list(BOARDS))
def test_every_board_names_its_positions_and_steps_consistently(name: str) -> None:
    board = BOARDS[name]
    cells = list(board.cells())
    assert len(set(cells)) == len(cells) and all(board.contains(c) for c in cells)
    for a in cells:
        assert board.parse(a.label) == a  # every position reads back from its name
        for b in cells:
            assert board.distance(a, b) == board.distance(b, a)
            assert (b in board.neighbours(a)) == (board.distance(a, b) == 1)
    with pytest.raises(CoordError, match="off"):
        board.parse("99Z" if isinstance(board, Plane) else "Z99")


@pytest.mark.parametrize("name", list(BOARDS))
def test_the_distance_is_the_breadth_first_step_count(name: str) -> None:
    board = BOARDS[name]
    cells = list(board.cells())
    for start in cells:
        steps = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for n in board.neighbours(here):
                if n not in steps:
                    steps[n] = steps[here] + 1
                    queue.append(n)
        assert len(steps) == len(cells)
        assert all(board.distance(start, p) == d for p, d in steps.items())
