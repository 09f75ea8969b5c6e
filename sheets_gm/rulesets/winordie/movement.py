"""Move actions: the route a unit takes, or why it cannot reach its destination.

Every hex costs 1. A unit never enters an obstacle (mountain) or another unit's hex; a flying
unit may cross both but must end on a free, open hex, and neither exerts nor suffers the zone
of control. A non-flying unit steps from a non-highland hex onto highland only in its second
or later move of the turn. In advanced mode, while a legion's morale is at least
``zoc_morale``, an enemy that enters a hex next to one of its units stops there.

The route is Wesnoth's: the shortest one that reaches the destination without a forced stop
if there is one within the unit's speed, else the shortest one, walked until its first stop.
Among routes of the same length the one taken turns first towards N, then NE, SE, S, SW, NW
(as ``engine.topology.path_to``). The search is a breadth-first one over steps rather than
``path_to``'s entry costs because the highland rule forbids a *step* (plain to highland), not
a hex.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets.winordie.board import WodMap
from sheets_gm.rulesets.winordie.enums import Mode
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.state import Unit, WodState

Step = Callable[[Hex, Hex], bool]


@dataclass(frozen=True, slots=True)
class Route:
    """Where a move ends: the hexes entered (the last is where it stops) and the stop's cause, if forced."""

    hexes: tuple[Hex, ...]
    stopped_by: str = ""  # "" when it reached its destination

    @property
    def end(self) -> Hex:
        """The hex the unit ends on."""
        return self.hexes[-1]


def _distances_to(board: WodMap, goal: Hex, step: Step, start: Hex) -> dict[Hex, int]:
    """Steps to ``goal`` from the hexes that can reach it (a breadth-first search backwards over allowed
    steps), up to ``start``: the search stops once ``start`` is found, when every hex nearer the goal than
    ``start`` has its final distance (all a route from ``start`` reads); the whole board if it is not."""
    best = {goal: 0}
    if start == goal:
        return best
    queue = deque([goal])
    while queue:
        here = queue.popleft()
        for prev in board.neighbours(here):
            if prev not in best and step(prev, here):
                best[prev] = best[here] + 1
                if prev == start:
                    return best
                queue.append(prev)
    return best


def shortest_route(board: WodMap, start: Hex, goal: Hex, step: Step) -> list[Hex] | None:
    """The shortest route from ``start`` to ``goal`` over allowed steps (hexes entered, goal last), ties to
    the earlier neighbour in the order N, NE, SE, S, SW, NW; None if there is none."""
    to_goal = _distances_to(board, goal, step, start)
    if start not in to_goal:
        return None
    route: list[Hex] = []
    here = start
    while here != goal:
        left = to_goal[here]
        here = next(n for n in board.neighbours(here) if to_goal.get(n) == left - 1 and step(here, n))
        route.append(here)
    return route


def zoc_hexes(board: WodMap, settings: WodSettings, state: WodState, mover: Unit) -> frozenset[Hex]:
    """The hexes where ``mover`` must stop: next to a non-flying enemy unit (hidden ones too) of a legion
    whose morale is at least ``zoc_morale``; none outside advanced mode or for a flying mover."""
    if settings.mode is not Mode.ADVANCED or state.card_of(mover).flying:
        return frozenset()
    enemy = state.other(mover.owner)
    if state.legions[enemy].morale < settings.zoc_morale:
        return frozenset()
    out: set[Hex] = set()
    for u in state.units:
        if u.owner == enemy and u.at is not None and not state.card_of(u).flying:
            out.update(board.neighbours(u.at))
    return frozenset(out)


def plan_move(board: WodMap, settings: WodSettings, state: WodState, unit: Unit, goal: Hex) -> Route | str:
    """The route ``unit`` takes to ``goal`` this move, or a sentence saying why it cannot go there."""
    assert unit.at is not None
    card = state.card_of(unit)
    flying = card.flying
    speed = state.speed(unit)
    if goal == unit.at:
        return f"{unit.id} is already on {goal.label}"
    if board.terrain[goal].obstacle:
        return f"{goal.label} is a mountain: no unit may stand there"
    holder = state.unit_at(goal)
    if holder is not None:
        return f"{goal.label} is occupied by another unit"
    occupied = {u.at for u in state.units if u.at is not None and u is not unit}
    first_move = unit.moves == 0

    blocked = occupied | board.obstacles
    highlands = board.highlands

    def step(a: Hex, b: Hex) -> bool:
        if flying:
            return True
        if b in blocked:
            return False
        return not (first_move and b in highlands and a not in highlands)

    zoc = zoc_hexes(board, settings, state, unit)
    if zoc:
        free = shortest_route(board, unit.at, goal, lambda a, b: step(a, b) and (a == unit.at or a not in zoc))
        if free is not None and len(free) <= speed:
            return Route(tuple(free))
    route = shortest_route(board, unit.at, goal, step)
    if route is None:
        why = " (it may step onto highland only in its second move of the turn)" if (
            not flying and first_move and board.highland(goal)) else ""
        return f"no open route from {unit.at.label} to {goal.label} for {unit.id}{why}"
    if len(route) > speed:
        return f"{goal.label} is {len(route)} hexes away by the shortest open route; {unit.id}'s speed is {speed}"
    for i, h in enumerate(route[:-1]):
        if h in zoc:
            return Route(tuple(route[: i + 1]), f"an enemy next to {h.label} (zone of control)")
    return Route(tuple(route))


def reachable(board: WodMap, settings: WodSettings, state: WodState, unit: Unit) -> dict[Hex, int]:
    """The hexes ``unit`` could end a move on (free, open) within its speed, with their distances (the zone
    of control may still stop it earlier; ``plan_move`` says where)."""
    assert unit.at is not None
    flying = state.card_of(unit).flying
    occupied = {u.at for u in state.units if u.at is not None and u is not unit}
    blocked = occupied | board.obstacles
    highlands = board.highlands
    first_move = unit.moves == 0
    speed = state.speed(unit)
    best = {unit.at: 0}
    queue = deque([unit.at])
    while queue:
        here = queue.popleft()
        if best[here] >= speed:
            continue
        for n in board.neighbours(here):
            if n in best:
                continue
            if not flying and (n in blocked or (first_move and n in highlands and here not in highlands)):
                continue
            best[n] = best[here] + 1
            queue.append(n)
    return {h: d for h, d in best.items() if h != unit.at and h not in blocked}
