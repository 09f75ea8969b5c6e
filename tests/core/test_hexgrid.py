"""Hex boards in Wesnoth's layout: neighbours, distances, routes and line of sight."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.engine.core.grid import CoordError
from sheets_gm.engine.core.hexgrid import Hex, HexGrid

BOARD = HexGrid(9, 7)
hexes = st.builds(Hex, st.integers(0, BOARD.width - 1), st.integers(0, BOARD.height - 1))


def test_neighbours_follow_the_rulings_layout_in_the_order_n_ne_se_s_sw_nw() -> None:
    # C is an odd column (1-based): its sides are rows r-1 and r; D is even: rows r and r+1.
    assert [h.label for h in BOARD.neighbours(BOARD.parse("C3"))] == ["C2", "D2", "D3", "C4", "B3", "B2"]
    assert [h.label for h in BOARD.neighbours(BOARD.parse("D3"))] == ["D2", "E3", "E4", "D4", "C4", "C3"]
    assert [h.label for h in BOARD.neighbours(BOARD.parse("A1"))] == ["B1", "A2"]


def test_a_hex_off_the_board_or_unreadable_is_named() -> None:
    with pytest.raises(CoordError, match=r"'Z99' is off the board: columns A–I, rows 1–7"):
        BOARD.parse("Z99")
    with pytest.raises(CoordError, match="not a tile"):
        BOARD.parse("4C")
    assert BOARD.parse(" c 3 ").label == "C3"


@settings(max_examples=150, deadline=None)
@given(hexes, hexes)
def test_neighbours_are_symmetric_and_at_distance_one(a: Hex, b: Hex) -> None:
    assert (b in BOARD.neighbours(a)) == (a in BOARD.neighbours(b)) == (BOARD.distance(a, b) == 1)
    assert BOARD.distance(a, b) == BOARD.distance(b, a)


def test_the_cheapest_route_pays_entry_costs_and_avoids_what_cannot_be_entered() -> None:
    water = {BOARD.parse(t) for t in ("C2", "C3", "C4")}
    rock = BOARD.parse("B3")

    def cost(h: Hex) -> float | None:
        return None if h == rock else 3.0 if h in water else 1.0

    route = BOARD.route(BOARD.parse("A3"), BOARD.parse("E3"), cost)
    assert route is not None and route[-1].label == "E3" and rock not in route
    total = sum(cost(h) or 0 for h in route)
    assert total == BOARD.cheapest(BOARD.parse("A3"), cost)[BOARD.parse("E3")][0]
    assert BOARD.route(BOARD.parse("A1"), rock, cost) is None


def test_line_of_sight() -> None:
    forest = {BOARD.parse(t) for t in ("C3",)}
    blocks = forest.__contains__
    assert not BOARD.sees(BOARD.parse("C1"), BOARD.parse("C5"), blocks)  # straight down the column through C3
    assert BOARD.sees(BOARD.parse("C2"), BOARD.parse("C3"), blocks)  # an end hex never blocks
    b3, d3 = BOARD.parse("B3"), BOARD.parse("D3")
    assert BOARD.sees(b3, d3, blocks) == BOARD.sees(d3, b3, blocks)


def test_a_line_along_an_edge_is_blocked_only_when_both_sides_block() -> None:
    a, b = BOARD.parse("A2"), BOARD.parse("C2")
    edges = [(left, right) for left, right in BOARD.line(a, b) if left != right]
    assert edges, "A2 to C2 runs along the edge between two hexes of column B"
    left, right = edges[0]
    assert BOARD.sees(a, b, {left}.__contains__)
    assert BOARD.sees(a, b, {right}.__contains__)
    assert not BOARD.sees(a, b, {left, right}.__contains__)


@settings(max_examples=150, deadline=None)
@given(hexes, hexes, st.sets(hexes, max_size=12))
def test_line_of_sight_is_symmetric_and_adjacent_hexes_always_see_each_other(a: Hex, b: Hex, walls: set[Hex]) -> None:
    assert BOARD.sees(a, b, walls.__contains__) == BOARD.sees(b, a, walls.__contains__)
    if BOARD.distance(a, b) <= 1:
        assert BOARD.sees(a, b, walls.__contains__)
