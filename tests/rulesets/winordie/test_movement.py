"""Routes: the backward search that stops at the mover's hex finds the routes a search of the whole board does."""

from __future__ import annotations

import random
from collections import deque

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets.winordie.board import WodMap
from sheets_gm.rulesets.winordie.movement import Step, shortest_route
from tests.rulesets.winordie.helpers import rules


def whole_board_route(board: WodMap, start: Hex, goal: Hex, step: Step) -> list[Hex] | None:
    """The route as the search over the whole board found it (the reference)."""
    best = {goal: 0}
    queue = deque([goal])
    while queue:
        here = queue.popleft()
        for prev in board.neighbours(here):
            if prev not in best and step(prev, here):
                best[prev] = best[here] + 1
                queue.append(prev)
    if start not in best:
        return None
    route: list[Hex] = []
    while start != goal:
        start = next(n for n in board.neighbours(start) if best.get(n) == best[start] - 1 and step(start, n))
        route.append(start)
    return route


def test_routes_match_a_search_of_the_whole_board() -> None:
    board = rules().rules.board
    cells = list(board.cells())
    rng = random.Random(22)
    for _ in range(300):
        blocked = set(rng.sample(cells, rng.randint(0, len(cells) // 3))) | board.obstacles
        stop = set(rng.sample(cells, 8))
        start, goal = rng.sample(cells, 2)

        def step(a: Hex, b: Hex, blocked: set[Hex] = blocked, stop: set[Hex] = stop, start: Hex = start) -> bool:
            # a hex to avoid, a highland climb barred, and a stop that depends on where the step starts
            return b not in blocked and not (b in board.highlands and a not in board.highlands) and (
                a == start or a not in stop)

        assert shortest_route(board, start, goal, step) == whole_board_route(board, start, goal, step)
        assert shortest_route(board, start, start, step) == []
