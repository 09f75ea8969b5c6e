"""The board's route tables find what the core's route finding finds, in the same order: the same hexes and
costs from ``cheapest_paths`` (insertion order included, which the bots' ties depend on), the same route from
``path_to`` (ties N, NE, SE, S, SW, NW), and a unit's reach as the search-then-stop-hexes rule defines it."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.engine.topology import cheapest_paths, path_to
from sheets_gm.rulesets.registry import default_board_text
from sheets_gm.rulesets.wesnoth.board import Cell, WesnothBoard
from sheets_gm.rulesets.wesnoth.routes import NOWHERE, SHUT, STOP_ZOC, STOPS
from sheets_gm.rulesets.wesnoth.tables import default_tables
from sheets_gm.rulesets.wesnoth.terrain import Feature, Terrain
from tests.quick import soak_but

TABLES = default_tables()
MOVE_COSTS = sorted({tuple(sorted(u.move_costs.items())) for u in TABLES.units.values()})
TERRAINS = [Terrain.PLAIN, Terrain.FOREST, Terrain.HARSH, Terrain.MOUNTAIN, Terrain.WATER, Terrain.IMPASSABLE]


@st.composite
def boards(draw: st.DrawFn) -> WesnothBoard:
    """A small board of random terrain with a keep for player 1 (what a board needs to be one)."""
    width, height = draw(st.integers(2, 9)), draw(st.integers(2, 9))
    terrains = draw(st.lists(st.sampled_from(TERRAINS), min_size=width * height, max_size=width * height))
    rows = [tuple(Cell(terrains[r * width + c]) for c in range(width)) for r in range(height)]
    rows[0] = (Cell(Terrain.CITY, Feature.KEEP, 1), *rows[0][1:])
    return WesnothBoard._checked(rows, "test")


def marks_of(board: WesnothBoard, shut: Iterable[Hex] = (), stops: Iterable[Hex] = ()) -> bytes:
    """A moving unit's marks with ``SHUT`` on ``shut`` and a stop on the other hexes of ``stops``."""
    mark = bytearray(len(board.routes.hexes))
    for h in stops:
        mark[board.routes.numbers[h]] = STOP_ZOC
    for h in shut:
        mark[board.routes.numbers[h]] = SHUT
    return bytes(mark)


def hexes_of(board: WesnothBoard) -> st.SearchStrategy[Hex]:
    return st.sampled_from(list(board.grid.cells()))


@pytest.mark.parametrize("examples", soak_but([200, 25], 25))
def test_search_finds_what_cheapest_paths_finds_in_its_order(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(st.data())
    def walk(data: st.DataObject) -> None:
        board = data.draw(boards())
        move_costs = dict(data.draw(st.sampled_from(MOVE_COSTS)))
        start = data.draw(hexes_of(board))
        blocked = data.draw(st.frozensets(hexes_of(board), max_size=8))
        budget = data.draw(st.one_of(st.none(), st.integers(1, 12)))
        costs = board.routes.costs(move_costs)

        expected = cheapest_paths(board.grid, start, lambda h: None if h in blocked else costs[h], budget)
        found = board.routes.search(start, costs, blocked, budget)
        assert list(found.items()) == list(expected.items())

    walk()


@pytest.mark.parametrize("examples", soak_but([200, 25], 25))
def test_path_is_path_to_with_its_ties(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(st.data())
    def walk(data: st.DataObject) -> None:
        board = data.draw(boards())
        costs = board.routes.costs(dict(data.draw(st.sampled_from(MOVE_COSTS))))
        start, goal = data.draw(hexes_of(board)), data.draw(hexes_of(board))
        blocked = data.draw(st.frozensets(hexes_of(board), max_size=8))
        budget = data.draw(st.one_of(st.none(), st.integers(1, 12)))
        expected = path_to(board.grid, start, goal, lambda h: None if h in blocked else costs[h], budget)
        assert board.routes.path(start, goal, costs, marks_of(board, shut=blocked), budget=budget) == expected

    walk()


@pytest.mark.parametrize("examples", soak_but([200, 25], 25))
def test_reach_adds_each_stop_hex_after_the_hexes_it_is_entered_from(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(st.data())
    def walk(data: st.DataObject) -> None:
        board = data.draw(boards())
        costs = board.routes.costs(dict(data.draw(st.sampled_from(MOVE_COSTS))))
        start = data.draw(hexes_of(board))
        blocked = data.draw(st.frozensets(hexes_of(board), max_size=6))
        stops = data.draw(st.frozensets(hexes_of(board), max_size=10))
        budget = data.draw(st.one_of(st.integers(1, 10), st.integers(250, 256)))  # 252+: no byte holds its costs
        # the rule as the core's search states it: stop hexes can be entered but not left
        inner = cheapest_paths(board.grid, start, lambda h: None if h in blocked or h in stops else costs[h], budget)
        expected = dict(inner)
        for h, spent in inner.items():
            for n in board.grid.neighbours(h):
                step = costs[n]
                if n in stops and n not in blocked and step is not None and spent + step <= budget \
                        and spent + step < expected.get(n, 1e9):
                    expected[n] = spent + step
        found = board.routes.reach(start, costs, marks_of(board, blocked, stops), budget)
        assert list(found.items()) == list(expected.items())

    walk()


@pytest.mark.parametrize("examples", soak_but([300, 35], 35))
def test_a_route_read_from_a_reach_is_the_route_path_to_finds(examples: int) -> None:
    """A move whose start's reach was searched on the same marks is read from that search: the same route as the
    core's path_to, where every marked hex is shut but the goal (or, when the goal is not exempt, it too)."""
    @settings(max_examples=examples, deadline=None)
    @given(st.data())
    def walk(data: st.DataObject) -> None:
        board = data.draw(boards())
        routes = board.routes
        costs = routes.costs(dict(data.draw(st.sampled_from(MOVE_COSTS))))
        start, goal = data.draw(hexes_of(board)), data.draw(hexes_of(board))
        shut = data.draw(st.frozensets(hexes_of(board), max_size=6))
        stops = data.draw(st.frozensets(hexes_of(board), max_size=10))
        budget = data.draw(st.one_of(st.integers(1, 10), st.integers(250, 256)))  # 252+: no byte holds its costs
        free = data.draw(st.sampled_from([goal, None]))
        marks = marks_of(board, shut, stops)
        routes.reach(start, costs, marks, budget)
        closed = (shut | stops) - {free}
        expected = path_to(board.grid, start, goal, lambda h: None if h in closed else costs[h], budget)
        assert routes.path(start, goal, costs, marks, SHUT | STOPS, free, budget) == expected

    walk()


def test_the_tables_are_made_once_per_board_and_goal() -> None:
    board = WesnothBoard.from_text(default_board_text("wesnoth"))
    unit = TABLES.units["Spearman"]
    goal = board.villages[0]
    assert board.routes is board.routes
    assert board.routes.costs(unit.move_costs) is board.routes.costs(dict(unit.move_costs))
    costs = board.routes.costs(unit.move_costs)
    field = board.routes.distances(costs, goal)
    assert field is board.routes.distances(costs, goal)
    hexes = list(board.grid.cells())
    expected = cheapest_paths(board.grid, goal, lambda h: unit.move_cost(board.terrain(h)))
    assert {h: c for h, c in zip(hexes, field, strict=True) if c != NOWHERE} == expected
    other = board.routes.distances(costs, board.villages[1])
    nearest = board.routes.nearest(costs, (goal, board.villages[1]), hexes)
    assert list(nearest) == hexes
    assert all(nearest[h] == min(field[i], other[i]) for i, h in enumerate(hexes))
    again = board.routes.nearest(costs, (goal, board.villages[1]), hexes[:3])
    assert again == {h: nearest[h] for h in hexes[:3]}
    assert board.routes.nearest(costs, (goal,), hexes[:3]) == {h: field[i] for i, h in enumerate(hexes[:3])}
    assert board.routes.nearest(costs, (), hexes[:3]) == dict.fromkeys(hexes[:3], NOWHERE)
    assert board.routes.nearest(costs, (goal, board.villages[1]), hexes[5:6]) == {hexes[5]: nearest[hexes[5]]}
