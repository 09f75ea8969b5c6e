"""Routes: the cheapest way through the waypoints to the destination, zones of control and village stops.

A unit passes its own and allied units, never enters an enemy's hex, and stops at once on
entering a village its team does not own or a hex next to an enemy of level 1 or more (the
hex it starts on does not count). The route taken is the cheapest one that reaches the
destination with no such stop before it; if every route has one, the cheapest route, walked
to its first stop. Ties between equal routes: Wesnoth's step-by-step N, NE, SE, S, SW, NW."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sheets_gm.engine.core.hexgrid import Hex
from sheets_gm.engine.core.topology import cheapest_paths, path_to
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import Unit, WesnothState


@dataclass(frozen=True, slots=True)
class MovePlan:
    """Where a move goes: the hexes entered (``path``, the unit ends on its last), the route's full cost,
    and why it ended before the destination (empty if it did not)."""

    path: tuple[Hex, ...]
    cost: int
    stopped: str = ""

    @property
    def end(self) -> Hex | None:
        """The hex the unit ends on (None: it did not move)."""
        return self.path[-1] if self.path else None


class MoveRefused(ValueError):
    """A move no route allows: the message says why and what would be accepted."""


@dataclass(frozen=True)
class Surroundings:
    """What a moving unit meets: who stands where, the hexes next to enemies of level 1+, and the villages
    that stop it."""

    occupant: dict[Hex, Unit]
    zoc: frozenset[Hex]
    stop_villages: frozenset[Hex]

    def stop_reason(self, h: Hex) -> str:
        """Why entering ``h`` stops the unit ("" if it does not)."""
        if h in self.stop_villages:
            return f"the village on {h.label}"
        if h in self.zoc:
            return f"an enemy's zone of control on {h.label}"
        return ""


def surroundings(rules: WesnothRules, state: WesnothState, mover: Unit) -> Surroundings:
    """The board as ``mover`` meets it."""
    board = rules.board
    occupant = {u.at: u for u in state.units}
    zoc: set[Hex] = set()
    for u in state.units:
        if rules.enemies(state, u.owner, mover.owner) and rules.utype(u).level >= 1:
            zoc.update(board.grid.neighbours(u.at))
    team = rules.team_of(state, mover.owner)
    stops = frozenset(h for h in board.villages if (owner := state.village_owner(h)) is None
                      or rules.team_of(state, owner) != team)
    return Surroundings(occupant, frozenset(zoc), stops)


def entry_cost(rules: WesnothRules, state: WesnothState, mover: Unit, around: Surroundings,
               stops_block: bool, goal: Hex | None = None) -> Callable[[Hex], float | None]:
    """What entering a hex costs ``mover``: its move cost on the hex's terrain; None for impassable
    terrain and enemy hexes, and (with ``stops_block``) for stop hexes other than ``goal``."""
    utype = rules.utype(mover)
    board = rules.board

    def cost(h: Hex) -> float | None:
        other = around.occupant.get(h)
        if other is not None and other.id != mover.id and rules.enemies(state, other.owner, mover.owner):
            return None
        if stops_block and h != goal and (h in around.zoc or h in around.stop_villages):
            return None
        return utype.move_cost(board.terrain(h))

    return cost


def _route(rules: WesnothRules, start: Hex, stops: list[Hex], cost: Callable[[Hex], float | None],
           budget: float | None = None) -> tuple[list[Hex], float] | None:
    """The cheapest route through ``stops`` in order (each leg within ``budget``, if given), and its cost."""
    path: list[Hex] = []
    total = 0.0
    here = start
    for goal in stops:
        leg = path_to(rules.board.grid, here, goal, cost, budget)
        if leg is None:
            return None
        total += sum(cost(h) or 0 for h in leg)
        path += leg
        here = goal
    return path, total


def plan_move(rules: WesnothRules, state: WesnothState, mover: Unit, dest: Hex, via: tuple[Hex, ...] = ()
              ) -> MovePlan:
    """The move of ``mover`` to ``dest`` through ``via``; MoveRefused saying why it cannot be made."""
    board = rules.board
    utype = rules.utype(mover)
    name = f"{mover.id} ({mover.type})"
    if dest == mover.at:
        raise MoveRefused(f"{name} is already on {dest.label}; give another hex, or leave the move empty")
    for h in (*via, dest):
        if utype.move_cost(board.terrain(h)) is None:
            raise MoveRefused(f"{name} cannot enter {h.label} ({board.terrain(h).value}); choose a hex it can "
                              f"enter")
    around = surroundings(rules, state, mover)
    there = around.occupant.get(dest)
    if there is not None:
        whose = "an enemy" if rules.enemies(state, there.owner, mover.owner) else "a friendly"
        raise MoveRefused(f"{dest.label} is held by {whose} unit ({there.id}); a unit cannot end its move on an "
                          f"occupied hex")
    goals = [*via, dest]
    # a route within the unit's moves has every leg within them too: the searches stay inside its reach
    free = _route(rules, mover.at, goals, entry_cost(rules, state, mover, around, True, dest), utype.moves)
    if free is not None and free[1] <= utype.moves:
        return MovePlan(tuple(free[0]), int(free[1]))
    anyhow = entry_cost(rules, state, mover, around, False)
    any_route = _route(rules, mover.at, goals, anyhow, utype.moves)
    if any_route is None or any_route[1] > utype.moves:
        any_route = _route(rules, mover.at, goals, anyhow)  # for the message: how far it really is
    if any_route is None:
        raise MoveRefused(f"no route takes {name} to {dest.label}" + (" through the waypoints" if via else "")
                          + ": impassable terrain or enemy units are in the way")
    path, total = any_route
    if total > utype.moves:
        raise MoveRefused(f"{dest.label} costs {int(total)} moves by the cheapest route; {name} has "
                          f"{utype.moves}: choose a nearer hex")
    for i, h in enumerate(path):
        reason = around.stop_reason(h)
        if reason and h != dest:
            walked = path[:i + 1]
            while walked and walked[-1] in around.occupant and around.occupant[walked[-1]].id != mover.id:
                walked.pop()  # a friendly unit holds the stop: the last free hex before it
            spent = sum(utype.move_cost(board.terrain(x)) or 0 for x in walked)
            return MovePlan(tuple(walked), spent, reason)
    return MovePlan(tuple(path), int(total))


def reachable(rules: WesnothRules, state: WesnothState, mover: Unit) -> dict[Hex, float]:
    """Every hex ``mover`` can end a stop-free move on this turn, with its cost (the bots' map)."""
    around = surroundings(rules, state, mover)
    utype = rules.utype(mover)

    def cost(h: Hex) -> float | None:
        other = around.occupant.get(h)
        if other is not None and rules.enemies(state, other.owner, mover.owner):
            return None
        return utype.move_cost(rules.board.terrain(h))

    # stop hexes can be entered but not left: search without them, then add each one next to a reached hex
    inner = cheapest_paths(rules.board.grid, mover.at,
                           lambda h: None if (h in around.zoc or h in around.stop_villages) else cost(h),
                           utype.moves)
    out = dict(inner)
    for h, spent in inner.items():
        for n in rules.board.grid.neighbours(h):
            if n in around.zoc or n in around.stop_villages:
                step = cost(n)
                if step is not None and spent + step <= utype.moves and spent + step < out.get(n, 1e9):
                    out[n] = spent + step
    return {h: c for h, c in out.items() if h == mover.at or h not in around.occupant}
