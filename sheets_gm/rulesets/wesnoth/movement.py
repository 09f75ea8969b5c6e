"""Routes: the cheapest way through the waypoints to the destination, zones of control and village stops.

A unit passes its own and allied units, never enters an enemy's hex, and stops at once on
entering a village its team does not own or a hex next to an enemy of level 1 or more (the
hex it starts on does not count). The route taken is the cheapest one that reaches the
destination with no such stop before it; if every route has one, the cheapest route, walked
to its first stop. Ties between equal routes: Wesnoth's step-by-step N, NE, SE, S, SW, NW."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Reversible
from dataclasses import dataclass

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.engine.vocab import plural
from sheets_gm.engine.words import counted
from sheets_gm.rulesets.wesnoth.routes import SHUT, STOP_VILLAGE, STOP_ZOC, STOPS, CostTable
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import Player, Unit, WesnothState, teams_by_name


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
    """What a moving unit meets: who stands where, each hex's mark by number (bits of ``routes``' ``SHUT``,
    ``STOP_ZOC`` and ``STOP_VILLAGE``: the hexes its enemies hold are shut; those next to enemies of level 1+ and
    the villages its team does not own stop it), and what entering each hex costs it (terrain only)."""

    occupant: dict[Hex, Unit]
    marks: bytes
    terrain_cost: CostTable
    numbers: Mapping[Hex, int]

    def hostile(self, h: Hex) -> bool:
        """Whether an enemy stands on ``h``."""
        return bool(self.marks[self.numbers[h]] & SHUT)

    def stop_reason(self, h: Hex) -> str:
        """Why entering ``h`` stops the unit ("" if it does not)."""
        mark = self.marks[self.numbers[h]]
        if mark & STOP_VILLAGE:
            return f"the village on {h.label}"
        if mark & STOP_ZOC:
            return f"an enemy's zone of control on {h.label}"
        return ""


def surroundings(rules: WesnothRules, state: WesnothState, mover: Unit) -> Surroundings:
    """The board as ``mover`` meets it."""
    return surroundings_among(rules, state.units, state.players, state.villages, mover)


def surroundings_among(rules: WesnothRules, units: Collection[Unit], players: Iterable[Player],
                       villages: Reversible[tuple[Hex, str]], mover: Unit) -> Surroundings:
    """The board as ``mover`` meets it among these units, players and owned villages (a state's, or those of a
    turn being resolved, which need not be made a state first)."""
    routes = rules.board.routes
    number = routes.numbers
    teams = teams_by_name(players)
    team = teams.get(mover.owner, 0)
    # the marks as one whole number, a byte per hex (``BoardRoutes.village_bits``)
    marks = routes.village_bits
    stop_bit = routes.village_bit
    for h, owner in dict(reversed(villages)).items():  # each village by its first owner listed (``village_owner``)
        if teams.get(owner, 0) == team and (bit := stop_bit.get(h)):
            marks ^= bit  # set on every village, and each is listed once here: cleared
    types, enemy = rules.tables.units, routes.enemy_bits
    for u in units:
        if teams.get(u.owner, 0) != team:
            at = number[u.at]
            marks |= enemy[at] if types[u.type].level >= 1 else SHUT << 8 * at
    occupant = {u.at: u for u in units}
    return Surroundings(occupant, marks.to_bytes(len(number), "little"), rules.move_costs(mover), number)


def _route(rules: WesnothRules, start: Hex, stops: list[Hex], around: Surroundings, mask: int, free: Hex | None = None,
           budget: int | None = None) -> tuple[list[Hex], int] | None:
    """The cheapest route through ``stops`` in order, entering no hex whose mark has a bit of ``mask`` but ``free``
    (each leg within ``budget``, if given), and its cost."""
    routes = rules.board.routes
    path: list[Hex] = []
    total = 0
    here = start
    entry = around.terrain_cost.by_hex
    for goal in stops:
        leg = routes.path(here, goal, around.terrain_cost, around.marks, mask, free, budget)
        if leg is None:
            return None
        total += sum(entry[h] or 0 for h in leg)
        path += leg
        here = goal
    return path, total


def plan_move(rules: WesnothRules, state: WesnothState, mover: Unit, dest: Hex, via: tuple[Hex, ...] = ()
              ) -> MovePlan:
    """The move of ``mover`` to ``dest`` through ``via``; MoveRefused saying why it cannot be made."""
    return plan_move_among(rules, state.units, state.players, state.villages, mover, dest, via)


def plan_move_among(rules: WesnothRules, units: Collection[Unit], players: Iterable[Player],
                    villages: Reversible[tuple[Hex, str]], mover: Unit, dest: Hex, via: tuple[Hex, ...] = ()
                    ) -> MovePlan:
    """``plan_move`` among these units, players and owned villages (``surroundings_among``)."""
    board = rules.board
    utype = rules.utype(mover)
    name = f"{mover.id} ({mover.type})"
    if dest == mover.at:
        raise MoveRefused(f"{name} is already on {dest.label}; give another hex, or leave the move empty")
    for h in (*via, dest):
        if utype.move_cost(board.terrain(h)) is None:
            raise MoveRefused(f"{name} cannot enter {h.label} ({board.terrain(h).value}); choose a hex it can "
                              f"enter")
    around = surroundings_among(rules, units, players, villages, mover)
    there = around.occupant.get(dest)
    if there is not None:
        whose = "an enemy" if around.hostile(dest) else "a friendly"
        raise MoveRefused(f"{dest.label} is held by {whose} unit ({there.id}); a unit cannot end its move on an "
                          f"occupied hex")
    goals = [*via, dest]
    # a route within the unit's moves has every leg within them too: the searches stay inside its reach
    free = _route(rules, mover.at, goals, around, SHUT | STOPS, dest, utype.moves)
    if free is not None and free[1] <= utype.moves:
        return MovePlan(tuple(free[0]), int(free[1]))
    any_route = _route(rules, mover.at, goals, around, SHUT, budget=utype.moves)
    if any_route is None or any_route[1] > utype.moves:
        any_route = _route(rules, mover.at, goals, around, SHUT)  # for the message: how far it really is
    if any_route is None:
        raise MoveRefused(f"no route takes {name} to {dest.label}" + (" through the waypoints" if via else "")
                          + ": impassable terrain or enemy units are in the way")
    path, total = any_route
    if total > utype.moves:
        nearest = _nearest_reachable(rules, around, mover, dest)
        hint = (f" (the nearest hex it can reach is {nearest.label}, "
                f"{counted(board.grid.distance(nearest, dest), 'hex', 'hexes')} from {dest.label})" if nearest else "")
        raise MoveRefused(f"{dest.label} costs {plural(int(total), 'move')} by the cheapest route; {name} has "
                          f"{utype.moves}: choose a nearer hex{hint}")
    for i, h in enumerate(path):
        reason = around.stop_reason(h)
        if reason and h != dest:
            walked = path[:i + 1]
            while walked and walked[-1] in around.occupant and around.occupant[walked[-1]].id != mover.id:
                walked.pop()  # a friendly unit holds the stop: the last free hex before it
            if walked != path[:i + 1]:
                holder = around.occupant[h].id
                ends = f"it ends on {walked[-1].label}, the free hex before" if walked else "it stays where it is"
                reason += f", where its own {holder} stands ({ends})"
            spent = sum(utype.move_cost(board.terrain(x)) or 0 for x in walked)
            return MovePlan(tuple(walked), spent, reason)
    return MovePlan(tuple(path), int(total))


def _nearest_reachable(rules: WesnothRules, around: Surroundings, mover: Unit, dest: Hex) -> Hex | None:
    """The hex nearest ``dest`` (in hexes) that ``mover`` can end a move on this turn, the cheapest of the nearest
    (then the first in reading order), or None where it can go nowhere."""
    grid = rules.board.grid
    reach = rules.board.routes.reach(mover.at, around.terrain_cost, around.marks, rules.utype(mover).moves,
                                     taken=around.occupant)
    ends = [h for h in reach if h != mover.at]
    if not ends:
        return None
    return min(ends, key=lambda h: (grid.distance(h, dest), reach[h], h.row, h.col))


def reachable(rules: WesnothRules, state: WesnothState, mover: Unit) -> dict[Hex, int]:
    """Every hex ``mover`` can end a stop-free move on this turn, with its cost (the bots' map)."""
    around = surroundings(rules, state, mover)
    return rules.board.routes.reach(mover.at, around.terrain_cost, around.marks, rules.utype(mover).moves,
                                    taken=around.occupant)
