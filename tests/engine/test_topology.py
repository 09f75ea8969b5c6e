"""Every kind of board behind the Topology interface, held to the same rules; the shared route finding."""

from __future__ import annotations

import math
from collections import deque
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.engine.grid import Coord, CoordError, Grid, Neighbourhood, SquareBoard
from sheets_gm.engine.hexgrid import HexGrid
from sheets_gm.engine.planes import Plane
from sheets_gm.engine.topology import Topology, cheapest_paths, cheapest_routes, path_to
from tests.quick import soak_but

BOARDS: dict[str, Topology[Any]] = {
    "square king": SquareBoard(Grid(6, 5), Neighbourhood.KING),
    "square rook": SquareBoard(Grid(6, 5), Neighbourhood.ROOK),
    "hex": HexGrid(7, 5),
    "plane": Plane("Dominaria", 6, 5),
    "wrapping plane": Plane("Mirrodin", 6, 5, wrap=True),
}


def _bfs(board: Topology[Any], start: Any) -> dict[Any, int]:
    steps = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for n in board.neighbours(here):
            if n not in steps:
                steps[n] = steps[here] + 1
                queue.append(n)
    return steps


@pytest.mark.parametrize("name", list(BOARDS))
def test_every_board_names_its_positions_and_steps_consistently(name: str) -> None:
    board = BOARDS[name]
    cells = list(board.cells())
    width, height = board.size
    assert len(set(cells)) == len(cells) == width * height and all(board.contains(c) for c in cells)
    assert [(c.row, c.col) for c in cells] == sorted((c.row, c.col) for c in cells)  # reading order
    for a in cells:
        assert board.parse(board.label(a)) == a  # every position reads back from its name
        assert board.parse(f" {board.label(a).lower()} ") == a
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
        steps = _bfs(board, start)
        assert len(steps) == len(cells)
        assert all(board.distance(start, p) == d for p, d in steps.items())


def test_the_square_board_says_what_it_accepts() -> None:
    board = SquareBoard(Grid(16, 12), Neighbourhood.KING)
    with pytest.raises(CoordError, match=r"^'Z99' is off the board: columns A–P, rows 1–12 \(A1 to P12\)$"):
        board.parse("Z99")
    with pytest.raises(CoordError, match="'3A' is not a tile; write a column letter and a row number, like F7"):
        board.parse("3A")


@st.composite
def boards(draw: st.DrawFn) -> Topology[Any]:
    """A board of any kind and of any size up to 9 × 9 (a plane may wrap)."""
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    kind = draw(st.sampled_from(["king", "rook", "hex", "plane", "wrap"]))
    if kind in ("king", "rook"):
        return SquareBoard(Grid(width, height), Neighbourhood(kind))
    if kind == "hex":
        return HexGrid(width, height)
    return Plane("P", width, height, wrap=kind == "wrap")


def _cell(data: st.DataObject, board: Topology[Any]) -> Any:
    return data.draw(st.sampled_from(list(board.cells())))


@pytest.mark.parametrize("examples", soak_but([200, 50], 50))
def test_steps_and_distances_agree_on_any_board(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(st.data())
    def walk(data: st.DataObject) -> None:
        board = data.draw(boards())
        a, b = _cell(data, board), _cell(data, board)
        assert (b in board.neighbours(a)) == (a in board.neighbours(b))
        assert board.distance(a, b) == board.distance(b, a)
        assert (board.distance(a, b) == 1) == (b in board.neighbours(a))
        assert a not in board.neighbours(a) and len(set(board.neighbours(a))) == len(board.neighbours(a))
        assert _bfs(board, a)[b] == board.distance(a, b)

    walk()


def _route_cost(route: list[Any], cost: Any) -> float:
    return float(sum(cost(p) for p in route))


@st.composite
def costed_boards(draw: st.DrawFn) -> tuple[Topology[Any], Any, Any, dict[Any, float | None]]:
    """A board up to 5 × 5, two of its positions and an entry cost for each (None or inf: impassable)."""
    board = draw(boards().filter(lambda b: b.size[0] * b.size[1] <= 25))
    cells = list(board.cells())
    costs = {c: draw(st.sampled_from([1, 1, 1, 2, 3, 0.5, None, math.inf])) for c in cells}
    return board, draw(st.sampled_from(cells)), draw(st.sampled_from(cells)), costs


@pytest.mark.parametrize("examples", soak_but([200, 50], 50))
def test_path_to_takes_the_cheapest_route_and_the_earliest_neighbour_on_a_tie(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(costed_boards())
    def walk(
            case: tuple[Topology[Any], Any, Any, dict[Any, float | None]]) -> None:
        board, start, goal, costs = case
        paths = cheapest_paths(board, start, costs.__getitem__)
        route = path_to(board, start, goal, costs.__getitem__)
        if goal not in paths:
            assert route is None and cheapest_routes(board, start, goal, costs.__getitem__) == []
            return
        assert route is not None
        assert math.isclose(_route_cost(route, costs.__getitem__), paths[goal])
        here, left = start, paths[goal]
        for step in route:
            assert step in board.neighbours(here)
            earlier = board.neighbours(here)[:board.neighbours(here).index(step)]
            for n in earlier:  # no neighbour listed before the step taken starts a route as cheap
                c = costs[n]
                if c is None or c == math.inf:
                    continue
                rest = cheapest_paths(board, n, costs.__getitem__).get(goal)
                assert rest is None or c + rest > left + 1e-9
            left -= costs[step] or 0
            here = step
        every = cheapest_routes(board, start, goal, costs.__getitem__)
        assert route in every and len({tuple(r) for r in every}) == len(every)
        assert all(math.isclose(_route_cost(r, costs.__getitem__), paths[goal]) for r in every)
        place = {p: i for i, p in enumerate(board.cells())}
        assert every == sorted(every, key=lambda r: [place[p] for p in r])

    walk()


@pytest.mark.parametrize("examples", soak_but([100, 30], 30))
def test_a_budget_leaves_out_what_costs_more(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(costed_boards(), st.sampled_from([0, 1, 2.5, 4]))
    def walk(case: tuple[Topology[Any], Any, Any, dict[Any, float | None]], budget: float) -> None:
        board, start, _, costs = case
        everything = cheapest_paths(board, start, costs.__getitem__)
        assert cheapest_paths(board, start, costs.__getitem__, budget) == {
            p: c for p, c in everything.items() if c <= budget}

    walk()


def test_wesnoths_tie_break_compares_routes_step_by_step_in_the_order_n_ne_se_s_sw_nw() -> None:
    board = HexGrid(5, 5)

    def flat(h: Coord) -> float:
        return 1

    # A1 to B2: through B1 (south-east first, then south) or A2 (south, then south-east): SE comes first.
    assert [board.label(h) for h in path_to(board, board.parse("A1"), board.parse("B2"), flat) or []] == ["B1", "B2"]
    # Water in B1 makes the other route cheaper.
    water = board.parse("B1")
    assert [board.label(h) for h in path_to(board, board.parse("A1"), board.parse("B2"),
                                            lambda h: 3 if h == water else 1) or []] == ["A2", "B2"]
    assert path_to(board, board.parse("A1"), board.parse("A1"), flat) == []


def test_an_entry_cost_must_be_positive() -> None:
    board = SquareBoard(Grid(3, 3), Neighbourhood.ROOK)
    with pytest.raises(ValueError, match="entering B1 costs 0; an entry cost is positive, or None"):
        path_to(board, board.parse("A1"), board.parse("C3"), lambda c: 0 if c.label == "B1" else 1)


def test_the_coalitions_route_draw_lists_every_shortest_route_in_reading_order() -> None:
    mirrodin = Plane("Mirrodin", 18, 8, wrap=True)
    routes = cheapest_routes(mirrodin, mirrodin.parse("18A"), mirrodin.parse("2B"), lambda s: 1)
    assert [" ".join(map(mirrodin.label, r)) for r in routes] == ["1A 2A 2B", "1A 1B 2B", "18B 1B 2B"]
    with pytest.raises(ValueError, match="more than 2 cheapest routes from 18A to 2B"):
        cheapest_routes(mirrodin, mirrodin.parse("18A"), mirrodin.parse("2B"), lambda s: 1, limit=2)


def test_a_short_route_on_a_big_board_searches_only_around_it() -> None:
    # The Coalition draws a route of at most three steps for each army every turn: the search must not
    # cover the whole plane (it did, 13 ms a route on the default map), nor may stopping early change routes.
    plane = Plane("Dominaria", 200, 26)
    entered: list[object] = []

    def cost(square: object) -> int:
        entered.append(square)
        return 1

    routes = cheapest_routes(plane, plane.parse("100M"), plane.parse("101N"), cost)
    assert [" ".join(map(plane.label, r)) for r in routes] == ["101M 101N", "100N 101N"]
    assert len(entered) < 100
    small = Plane("Dominaria", 7, 7)
    for goal in ("1A", "7G", "4D", "2F"):
        a, b = small.parse("3C"), small.parse(goal)
        routes = cheapest_routes(small, a, b, lambda s: 1)
        dx, dy = abs(a.col - b.col), abs(a.row - b.row)
        assert len(routes) == math.comb(dx + dy, dx)  # every monotone staircase, none lost by stopping early
        assert all(len(r) == dx + dy and r[-1] == b for r in routes)


@pytest.mark.parametrize("examples", soak_but([200, 50], 50))
def test_path_to_within_a_budget_is_the_cheapest_route_if_it_fits(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(costed_boards(), st.sampled_from([0, 0.5, 1, 2, 3, 5]))
    def walk(
            case: tuple[Topology[Any], Any, Any, dict[Any, float | None]], budget: float) -> None:
        board, start, goal, costs = case
        unbounded = path_to(board, start, goal, costs.__getitem__)
        bounded = path_to(board, start, goal, costs.__getitem__, budget)
        if unbounded is not None and _route_cost(unbounded, costs.__getitem__) <= budget:
            assert bounded == unbounded
        else:
            assert bounded is None

    walk()
