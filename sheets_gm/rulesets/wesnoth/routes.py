"""A board's tables for route finding, made once per board: each hex's neighbours, each way of moving's
entry cost per hex, and (for the bots' sense of direction) the cost from every hex to a goal.

Moves are searched hundreds of thousands of times a simulated match; reading these tables instead of
asking the grid and the unit type hex by hex is what keeps a search cheap. The tables only depend on
the board and a unit type's move costs, both fixed for a match, so they never go stale. The searches
here visit hexes in the same order as ``engine.topology.cheapest_paths`` and ``path_to`` (same
queue order, same tie-breaks), so what they find, and in which order, is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Protocol

from sheets_gm.engine.hexgrid import Hex, HexGrid
from sheets_gm.rulesets.wesnoth.terrain import UNREACHABLE, Terrain


class RouteBoard(Protocol):
    """What the route tables read of a board (``WesnothBoard`` is one): its grid, villages and terrain."""

    @property
    def grid(self) -> HexGrid:
        """The board's hexes."""

    @property
    def village_set(self) -> frozenset[Hex]:
        """The hexes holding a village."""

    def terrain(self, h: Hex) -> Terrain:
        """The terrain of a hex."""

#: The distance of a hex no route reaches.
NOWHERE = 1e9

#: What a hex is to a moving unit, as bits of its mark (one byte per hex number, made by movement's
#: ``surroundings``): entering it stops the unit
#: (next to an enemy of level 1 or more; a village its team does not own), or it is shut (an enemy stands on it).
STOP_ZOC = 1
STOP_VILLAGE = 2
SHUT = 4
STOPS = STOP_ZOC | STOP_VILLAGE

#: A mark as the reach search reads it: 1 a stop, 2 shut (shut wins), ``UNSEEN`` free and not reached yet; a hex it
#: reaches holds its cost + ``REACHED`` instead, so one list says both, and one comparison (is the cost found now
#: less?) passes over a stop, a shut hex and a hex reached as cheaply before.
REACHED = 3
UNSEEN = 255
_STOP_OR_SHUT = bytes(UNSEEN if m == 0 else 1 if m < SHUT else 2 for m in range(256))


def costs_key(move_costs: Mapping[Terrain, int]) -> tuple[int, ...]:
    """A way of moving as a hashable key: the move cost of every terrain, in the terrains' order."""
    return tuple(move_costs.get(t, UNREACHABLE) for t in Terrain)


@dataclass(frozen=True, eq=False)
class CostTable:
    """What entering each hex costs one way of moving (None: it cannot enter it), by hex and by the hex's
    number on its board, and each hex's ``links``: the neighbours it can enter and what each costs, by
    number in the grid's order (what the searches read)."""

    by_hex: Mapping[Hex, int | None]
    by_number: Sequence[int | None]
    links: Sequence[tuple[tuple[int, int], ...]]

    def __getitem__(self, h: Hex) -> int | None:
        return self.by_hex[h]


class BoardRoutes:
    """The route-finding tables of one board (``WesnothBoard.routes``): filled as they are asked for.

    Inside, hexes are numbered in reading order so that a search reads lists, not dictionaries."""

    def __init__(self, board: RouteBoard) -> None:
        self.board = board
        grid = board.grid
        #: Every hex in reading order (its number is its place here).
        self.hexes: tuple[Hex, ...] = tuple(grid.cells())
        #: Each hex's number.
        self.numbers: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        #: Each hex's neighbours in the grid's order (N, NE, SE, S, SW, NW).
        self.adjacency: dict[Hex, tuple[Hex, ...]] = {h: tuple(grid.neighbours(h)) for h in self.hexes}
        #: Each hex's neighbours by number, in the grid's order.
        self.steps: list[tuple[int, ...]] = [tuple(self.numbers[n] for n in self.adjacency[h]) for h in self.hexes]
        #: ``STOP_VILLAGE`` on every village, by number: the marks of a team that owns none.
        self.village_stops = bytes(STOP_VILLAGE if h in board.village_set else 0 for h in self.hexes)
        # The same marks as one whole number, hex i in its bits 8i to 8i + 7 (``bytes`` of it, little-endian, are
        # the marks): a team's marks are then a few whole-number operations per unit, not one per hex they touch.
        #: ``village_stops`` as a number; each village's bit in it, by hex; and per hex number, what an enemy of
        #: level 1+ on it adds (it is shut, its neighbours are stops).
        self.village_bits = int.from_bytes(self.village_stops, "little")
        self.village_bit = {h: STOP_VILLAGE << 8 * self.numbers[h] for h in board.village_set}
        self.enemy_bits = [SHUT << 8 * i | sum(STOP_ZOC << 8 * n for n in near) for i, near in enumerate(self.steps)]
        self._costs: dict[tuple[int, ...], CostTable] = {}
        self._fields: dict[tuple[CostTable, Hex], list[int | float]] = {}
        #: The costs found by the last few ``reach`` searches, by hex number (cost + ``REACHED``, at most the budget
        #: + ``REACHED``; anything else: not reached), for ``path``.
        self._reached: dict[tuple[Hex, CostTable, bytes, int], list[int]] = {}
        self._paths: dict[tuple[Hex, Hex, CostTable, bytes, int, Hex | None, int | None], tuple[Hex, ...] | None] = {}

    def costs(self, move_costs: Mapping[Terrain, int]) -> CostTable:
        """What entering each hex costs a unit with ``move_costs`` (None: it cannot enter it)."""
        key = costs_key(move_costs)
        found = self._costs.get(key)
        if found is None:
            by_terrain = {t: (None if c >= UNREACHABLE else c) for t, c in zip(Terrain, key, strict=True)}
            by_number = [by_terrain[self.board.terrain(h)] for h in self.hexes]
            links = [tuple((n, step) for n in near if (step := by_number[n]) is not None) for near in self.steps]
            found = self._costs[key] = CostTable(dict(zip(self.hexes, by_number, strict=True)), by_number, links)
        return found

    def distances(self, costs: CostTable, goal: Hex) -> Sequence[int | float]:
        """The cost of the cheapest route out from ``goal`` to every hex, by hex number (1e9 where none reaches it;
        terrain only; cost is paid on entry, so this is the walk back to the goal, which is close enough for a
        bot's sense of direction)."""
        key = (costs, goal)
        found = self._fields.get(key)
        if found is None:
            if len(self._fields) >= 2000:  # goals that move (the enemy leaders) would grow it without end
                self._fields.clear()
            best, _ = self._search(self.numbers[goal], costs, (), None)
            found = self._fields[key] = [NOWHERE if c < 0 else c for c in best]
        return found

    def nearest(self, costs: CostTable, goals: Sequence[Hex], hexes: Iterable[Hex]) -> dict[Hex, int | float]:
        """The cost from each of ``hexes`` to the nearest of ``goals`` by their ``distances`` (1e9 where none
        reaches it)."""
        hexes = list(hexes)
        if not goals:
            return dict.fromkeys(hexes, NOWHERE)
        if len(hexes) < 2:  # itemgetter of one index gives the value, not a tuple of it
            return {h: min(self.distances(costs, goal)[self.numbers[h]] for goal in goals) for h in hexes}
        pick = itemgetter(*map(self.numbers.__getitem__, hexes))
        columns = [pick(self.distances(costs, goal)) for goal in goals]
        # each hex's nearest goal, in C: one call of min per hex over its cost from every goal
        return dict(zip(hexes, columns[0] if len(columns) == 1 else map(min, *columns), strict=True))

    def search(self, start: Hex, costs: CostTable, blocked: Collection[Hex] = (), budget: int | None = None
               ) -> dict[Hex, int]:
        """Every hex reachable from ``start`` and its cheapest cost, entering no hex of ``blocked`` and
        spending at most ``budget``: ``topology.cheapest_paths`` over these tables, hexes in its order."""
        number = self.numbers
        best, order = self._search(number[start], costs, {number[h] for h in blocked}, budget)
        hexes = self.hexes
        return {hexes[i]: best[i] for i in order}

    def reach(self, start: Hex, costs: CostTable, marks: bytes, budget: int, taken: Collection[Hex] = ()
              ) -> dict[Hex, int]:
        """Where a unit can end a move within ``budget``: every hex ``search`` reaches without entering a hex
        ``marks`` shuts or stops on, then each stop hex (not shut) entered from one of them, with its cost; in
        that order, each stop hex where it is first entered, from the first reached hex next to it (stop hexes
        can be entered but not left; the start is no stop). Hexes of ``taken`` other than ``start`` are left out
        at the end (a unit passes its friends but cannot end its move on one)."""
        number, links = self.numbers, costs.links
        # costs are counted from REACHED on, as ``best`` holds them, and so are the buckets (the first few unused)
        limit = budget + REACHED
        # each hex's number here: 1 a stop (entered, never left), 2 shut, ``unseen`` free; once reached, its cost + 3
        best, unseen = self._unreached(marks, limit)
        first = number[start]
        best[first] = REACHED  # a unit starting on a stop hex is already there for nothing
        order = [first]
        edge: list[int] = []  # reached hexes next to a stop, in the order they were searched from
        buckets: list[list[int]] = [[] for _ in range(limit + 1)]
        buckets[REACHED].append(first)
        for settled in range(REACHED, limit):  # a hex reached for the whole budget enters nothing more
            for here in buckets[settled]:
                if best[here] != settled:
                    continue  # reached more cheaply since it was queued
                near_stop = False
                for n, step in links[here]:
                    total = settled + step
                    known = best[n]
                    if total >= known:  # reached as cheaply before, or a stop or a shut hex (less than any cost)
                        if known == 1 and total <= limit:
                            near_stop = True
                        continue
                    if total > limit:
                        continue
                    if known == unseen:
                        order.append(n)
                    best[n] = total
                    buckets[total].append(n)
                if near_stop:
                    edge.append(here)
        hexes = self.hexes
        out = {hexes[i]: best[i] - REACHED for i in order}
        if edge:
            entered: dict[int, int] = {}
            searched = set(edge)
            for here in order:  # the stop hexes in the order the searched hexes were first reached
                if here in searched:
                    spent = best[here] - REACHED
                    for n, step in links[here]:
                        if best[n] == 1 and spent + step <= budget:
                            was = entered.get(n)
                            if was is None or spent + step < was:
                                entered[n] = spent + step
            for i, c in entered.items():
                out[hexes[i]] = c
                best[i] = c + REACHED
        if len(self._reached) >= 64:
            del self._reached[next(iter(self._reached))]
        self._reached[(start, costs, marks, budget)] = best
        if taken:
            for h in taken:
                if h != start:
                    out.pop(h, None)
        return out

    @staticmethod
    def _unreached(marks: bytes, limit: int) -> tuple[list[int], int]:
        """Each hex's number before a ``reach`` search within ``limit`` (its budget + ``REACHED``): 1 a stop, 2 shut,
        else a number above every cost it may find (``UNSEEN``, or ``limit`` + 1 for a budget of 252 or more);
        and that number."""
        best = list(marks.translate(_STOP_OR_SHUT))
        if limit < UNSEEN:
            return best, UNSEEN
        return [limit + 1 if m == UNSEEN else m for m in best], limit + 1

    def _search(self, first: int, costs: CostTable, shut: Collection[int], budget: int | None
                ) -> tuple[list[int], list[int]]:
        """``search`` by hex numbers over a cost table's ``links``, entering no hex of ``shut``: each hex's cost by
        number (-1: not reached) and the hexes reached, in the order first reached.
        Entry costs are whole numbers, so the queue is a list of buckets, one per cost, each first in first
        out: the hexes come out in the order of cheapest_paths' heap (cost, then order pushed)."""
        links = costs.links
        best = [-1] * len(self.hexes)
        best[first] = 0
        order = [first]
        buckets: list[list[int]] = [[first]] + [[] for _ in range(budget or 0)]
        limit = budget if budget is not None else 1 << 62
        spent = 0
        while spent < len(buckets) and spent < limit:  # a hex reached for the whole budget enters nothing more
            for here in buckets[spent]:
                if best[here] < spent:
                    continue  # reached more cheaply since it was queued
                for n, step in links[here]:
                    total = spent + step
                    if total > limit or n in shut:
                        continue
                    known = best[n]
                    if known < 0:
                        order.append(n)
                    elif total >= known:
                        continue
                    best[n] = total
                    if total >= len(buckets):
                        buckets.extend([] for _ in range(total + 1 - len(buckets)))
                    buckets[total].append(n)
            spent += 1
        return best, order

    def path(self, start: Hex, goal: Hex, costs: CostTable, marks: bytes, mask: int = SHUT, free: Hex | None = None,
             budget: int | None = None) -> list[Hex] | None:
        """The cheapest route from ``start`` to ``goal`` entering no hex whose mark has a bit of ``mask`` (but
        ``free``, which it may enter whatever its mark), as ``_path``; kept for the last few thousand asked: a
        bot tries a row on the engine before the turn is resolved, so such a move is searched twice. A move
        that stops on no hex before its goal, from a start whose ``reach`` was searched lately on the same
        marks and budget, is read from that search (``_path_within``) instead of searched again."""
        key = (start, goal, costs, marks, mask, free, budget)
        if key not in self._paths:
            if len(self._paths) >= 4096:
                self._paths.clear()
            reached = self._reached.get((start, costs, marks, budget)) if mask == SHUT | STOPS and budget else None
            last = marks[self.numbers[goal]]  # a reach ends on a stop hex, never on a shut one
            if reached is not None and budget and (not last or (goal == free and not last & SHUT)):
                route = self._path_within(start, goal, costs, marks, reached, budget)
            else:
                route = self._path(start, goal, costs, marks, mask, free, budget)
            self._paths[key] = None if route is None else tuple(route)
        found = self._paths[key]
        return None if found is None else list(found)

    def _path_within(self, start: Hex, goal: Hex, costs: CostTable, marks: bytes, reached: list[int], budget: int
                     ) -> list[Hex] | None:
        """``_path`` read from a ``reach`` search from ``start`` within ``budget`` (``reached``: each hex's cost +
        ``REACHED``) on the same marks, every marked hex shut but ``goal``, and the same budget: the same route.

        The hexes on a cheapest route are those found back from the goal over tight steps (a step into ``v`` is
        tight when the cost of the hex before it plus entering ``v`` is the cost of ``v``) from hexes a move may
        leave (unmarked, or the start). Walking from the start, the first neighbour (N, NE, SE, S, SW, NW) on
        such a route and one tight step on is the neighbour ``_path`` takes: the one whose cost on to the goal
        is the rest of the route's."""
        number, steps, cost = self.numbers, self.steps, costs.by_number
        origin, target = number[start], number[goal]
        if not REACHED <= reached[target] <= budget + REACHED:
            return None
        on_route = {target}
        todo = [target]
        while todo:
            v = todo.pop()
            if v == origin:
                continue
            before = reached[v] - (cost[v] or 0)
            for u in steps[v]:
                if reached[u] == before and u not in on_route and (u == origin or not marks[u]):
                    on_route.add(u)
                    todo.append(u)

        def tight_step_on_route(here: int) -> int | None:
            spent = reached[here]
            for n in steps[here]:
                if n in on_route and (step := cost[n]) is not None and reached[n] == spent + step:
                    return n
            return None

        return self._walk(origin, target, tight_step_on_route)

    def _path(self, start: Hex, goal: Hex, costs: CostTable, marks: bytes, mask: int, free: Hex | None,
              budget: int | None) -> list[Hex] | None:
        """The cheapest route from ``start`` to ``goal`` entering no shut hex (see ``path``): the hexes entered,
        goal included, or None if none reaches it (with ``budget``: none costing at most it).
        ``topology.path_to`` over these tables: the same search back from the goal, stopped once ``start`` is
        settled, and the same tie-break between equal routes (the earlier neighbour, N, NE, SE, S, SW, NW)."""
        steps, cost = self.steps, costs.by_number
        number = self.numbers
        exempt = -1 if free is None else number[free]
        origin, target = number[start], number[goal]
        to_goal = [-1] * len(steps)  # each hex's cheapest cost on to the goal so far (-1: not reached)
        to_goal[target] = 0
        buckets: list[list[int]] = [[target]]
        limit = budget if budget is not None else 1 << 62
        spent = 0
        settled = False
        while not settled and spent < len(buckets):
            for here in buckets[spent]:
                if to_goal[here] < spent:
                    continue
                if here == origin:
                    settled = True
                    break
                step = cost[here]
                if step is None or (marks[here] & mask and here != exempt):
                    continue
                total = spent + step
                if total > limit:
                    continue
                for n in steps[here]:
                    known = to_goal[n]
                    if known < 0 or total < known:
                        to_goal[n] = total
                        while len(buckets) <= total:
                            buckets.append([])
                        buckets[total].append(n)
            spent += 1
        if to_goal[origin] < 0:
            return None

        def step_one_cheaper(here: int) -> int | None:
            left = to_goal[here]
            for n in steps[here]:
                rest = to_goal[n]
                if rest < 0 or rest >= left or (marks[n] & mask and n != exempt):
                    continue
                step = cost[n]
                if step is not None and step + rest == left:
                    return n
            return None

        return self._walk(origin, target, step_one_cheaper)

    def _walk(self, origin: int, target: int, next_hex: Callable[[int], int | None]) -> list[Hex]:
        """The hexes entered walking from ``origin`` to ``target`` (numbers), each step to the neighbour
        ``next_hex`` picks (the first of the grid's order on a cheapest route), the target last."""
        hexes = self.hexes
        route: list[Hex] = []
        here = origin
        while here != target:
            found = next_hex(here)
            if found is None:  # cannot happen: a hex on a cheapest route has a cheapest step on along it
                raise AssertionError(f"no cheapest step from {hexes[here].label} towards {hexes[target].label}")
            here = found
            route.append(hexes[here])
        return route
