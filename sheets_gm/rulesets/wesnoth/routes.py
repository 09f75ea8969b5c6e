"""A board's tables for route finding, made once per board: each hex's neighbours, each way of moving's
entry cost per hex, and (for the bots' sense of direction) the cost from every hex to a goal.

Moves are searched hundreds of thousands of times a simulated match; reading these tables instead of
asking the grid and the unit type hex by hex is what keeps a search cheap. The tables only depend on
the board and a unit type's move costs, both fixed for a match, so they never go stale. The searches
here visit hexes in the same order as ``engine.core.topology.cheapest_paths`` (same queue, same
tie-breaks), so what they find, and in which order, is the same.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from sheets_gm.engine.core.hexgrid import Hex
from sheets_gm.rulesets.wesnoth.terrain import UNREACHABLE, Terrain

if TYPE_CHECKING:
    from sheets_gm.rulesets.wesnoth.board import WesnothBoard

#: A hex's entry cost for one way of moving: None where the unit cannot go.
CostTable = Mapping[Hex, int | None]


def costs_key(move_costs: Mapping[Terrain, int]) -> tuple[int, ...]:
    """A way of moving as a hashable key: the move cost of every terrain, in the terrains' order."""
    return tuple(move_costs.get(t, UNREACHABLE) for t in Terrain)


class BoardRoutes:
    """The route-finding tables of one board (``WesnothBoard.routes``): filled as they are asked for."""

    def __init__(self, board: WesnothBoard) -> None:
        self.board = board
        grid = board.grid
        #: Each hex's neighbours in the grid's order (N, NE, SE, S, SW, NW).
        self.adjacency: dict[Hex, tuple[Hex, ...]] = {h: tuple(grid.neighbours(h)) for h in grid.cells()}
        self._costs: dict[tuple[int, ...], dict[Hex, int | None]] = {}
        self._fields: dict[tuple[tuple[int, ...], Hex], dict[Hex, int]] = {}

    def costs(self, move_costs: Mapping[Terrain, int]) -> CostTable:
        """What entering each hex costs a unit with ``move_costs`` (None: it cannot enter it)."""
        key = costs_key(move_costs)
        found = self._costs.get(key)
        if found is None:
            by_terrain = {t: (None if c >= UNREACHABLE else c) for t, c in zip(Terrain, key, strict=True)}
            found = self._costs[key] = {h: by_terrain[self.board.terrain(h)] for h in self.adjacency}
        return found

    def field(self, move_costs: Mapping[Terrain, int], goal: Hex) -> Mapping[Hex, int]:
        """The cost of the cheapest route out from ``goal`` to every hex it reaches (terrain only; cost is paid
        on entry, so this is the walk back to the goal, which is close enough for a bot's sense of direction)."""
        key = (costs_key(move_costs), goal)
        found = self._fields.get(key)
        if found is None:
            found = self._fields[key] = self.search(goal, self.costs(move_costs))
        return found

    def search(self, start: Hex, costs: CostTable, blocked: Collection[Hex] = (), budget: int | None = None
               ) -> dict[Hex, int]:
        """Every hex reachable from ``start`` and its cheapest cost, entering no hex of ``blocked`` and
        spending at most ``budget``: ``topology.cheapest_paths`` over these tables, hexes in its order."""
        adjacency = self.adjacency
        best: dict[Hex, int] = {start: 0}
        queue: list[tuple[int, int, Hex]] = [(0, 0, start)]
        pushed = 0
        limit = budget if budget is not None else 1 << 62
        pop, push = heapq.heappop, heapq.heappush
        while queue:
            spent, _, here = pop(queue)
            if spent > best[here]:
                continue
            for n in adjacency[here]:
                step = costs[n]
                if step is None or n in blocked:
                    continue
                total = spent + step
                if total <= limit:
                    known = best.get(n)
                    if known is None or total < known:
                        best[n] = total
                        pushed += 1
                        push(queue, (total, pushed, n))
        return best

    def path(self, start: Hex, goal: Hex, costs: CostTable, blocked: Collection[Hex] = (),
             budget: int | None = None) -> list[Hex] | None:
        """The cheapest route from ``start`` to ``goal`` entering no hex of ``blocked``: the hexes entered, goal
        included, or None if none reaches it (with ``budget``: none costing at most it).
        ``topology.path_to`` over these tables: the same search back from the goal, stopped once ``start`` is
        settled, and the same tie-break between equal routes (the earlier neighbour, N, NE, SE, S, SW, NW)."""
        adjacency = self.adjacency
        to_goal: dict[Hex, int] = {goal: 0}
        queue: list[tuple[int, int, Hex]] = [(0, 0, goal)]
        pushed = 0
        limit = budget if budget is not None else 1 << 62
        pop, push = heapq.heappop, heapq.heappush
        while queue:
            spent, _, here = pop(queue)
            if spent > to_goal[here]:
                continue
            if here == start:
                break
            step = costs[here]
            if step is None or here in blocked:
                continue
            total = spent + step
            if total > limit:
                continue
            for n in adjacency[here]:
                known = to_goal.get(n)
                if known is None or total < known:
                    to_goal[n] = total
                    pushed += 1
                    push(queue, (total, pushed, n))
        if start not in to_goal:
            return None
        route: list[Hex] = []
        here = start
        while here != goal:
            left = to_goal[here]
            for n in adjacency[here]:
                rest = to_goal.get(n)
                if rest is None or rest >= left or n in blocked:
                    continue
                step = costs[n]
                if step is not None and step + rest == left:
                    here = n
                    break
            else:  # cannot happen: a settled hex always has a neighbour one step cheaper
                raise AssertionError(f"no cheapest step from {here.label} towards {goal.label}")
            route.append(here)
        return route
