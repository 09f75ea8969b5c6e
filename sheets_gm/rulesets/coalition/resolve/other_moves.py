"""All other moves at once: bounces off armies that stay, joint engagements, partial moves, vs battles and portals."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.enums import (
    BattleType,
    EventKind,
    OrderWord,
    ResultCode,
    Side,
    StructureKind,
)
from sheets_gm.rulesets.coalition.orders import Move
from sheets_gm.rulesets.coalition.placement import place_around
from sheets_gm.rulesets.coalition.resolve.work import (
    MoveWork,
    closest_army,
    entered_first,
    occupants_by_square,
    passes_portal,
)
from sheets_gm.rulesets.coalition.state import (
    TOP_RANKS,
    Battle,
)

_Plan = tuple[str | None, list[str], list[str]]  # a square's holder (None: empty), its engagers, its supporters


@dataclass(slots=True)
class _Moving:
    """The other moves while they are settled: who moves, who stood where before, who ends where, who bounced and
    who moves only partway."""

    movers: dict[str, Move]
    occupants: dict[str, list[str]]  # who stands where before the moves
    into: dict[str, list[str]]  # who ends in each square
    partial: set[str]
    bounced: set[str] = field(default_factory=set)
    moving: set[str] = field(init=False)  # every army with a move, bounced or not

    def __post_init__(self) -> None:
        self.moving = set(self.movers)


def resolve_other_moves(t: MoveWork, movers: dict[str, Move], turn: int) -> None:
    """All other moves at once: who is stopped by an army that stays, joint engagements, partial moves,
    vs battles, portals."""
    occupants: dict[str, list[str]] = defaultdict(list)
    for name, place in t.at.items():
        occupants[place].append(name)
    into: dict[str, list[str]] = defaultdict(list)
    for name, m in movers.items():
        into[m.end].append(name)
    # an intercept forms no joint engagement: a supporter of an army that intercepts moves partially
    interceptors = {t.battles[p].armies[0] for p in t.new_battles if t.battles[p].type is BattleType.INTERCEPTS}
    partial = {n for n, m in movers.items() if m.word is OrderWord.SUPPORT and m.target in interceptors}
    mv = _Moving(movers, occupants, into, partial)
    going = _bounces(t, mv)
    for name in partial:
        t.note[name] = f"{going[name].target} intercepts: an intercept makes no joint engagement"
    passers = sorted(n for n, m in going.items() if passes_portal(t.board, m) and n not in partial)
    arrivals: dict[str, list[str]] = defaultdict(list)
    for name, m in going.items():
        if name not in passers and name not in partial:
            arrivals[m.end].append(name)
    for name in going:
        t.at[name] = going[name].end  # provisional; partial moves are placed at the end
    plans, granted = _joint_plans(t, mv, going, arrivals)
    for place, (holder, engagers, supporters) in plans.items():
        if holder is None:
            _into_empty_square(t, mv, going, place, sorted(arrivals[place]))
        else:
            _onto_held_square(t, mv, going, place, holder, engagers, supporters, granted)
    for name in going:
        t.code[name] = ResultCode.MOVED
    _place_partial_moves(t, mv, going)
    _pass_portals(t, going, passers, turn)


def _blocked(t: MoveWork, mv: _Moving, m: Move) -> str | None:
    """Why ``m`` cannot end where it goes (an army stays there, a battle holds it, its portal is closed), or None."""
    board = t.board
    if m.army in mv.partial:
        return None
    if m.end in t.battles:
        return f"{board.short(m.end)} holds a battle"
    if passes_portal(board, m):
        struct = board.structure_at[m.end]
        if m.end in t.battles or (struct.to or "") in t.battles:
            return "the portal is closed by its garrison's battle"
        return None
    moving = mv.moving
    stayers = [o for o in mv.occupants.get(m.end, ()) if o != m.army and (o not in moving or o in mv.bounced)]
    if not stayers:
        return None
    if m.target in stayers and m.word in (OrderWord.ENGAGE, OrderWord.SUPPORT):
        return None
    o = stayers[0]
    if t.armies[o].side is m.side:
        return f"{o} stays in {board.short(m.end)}"
    return f"{o} holds {board.short(m.end)} (no engage)"


def _settle(t: MoveWork, mv: _Moving, work: list[str]) -> None:
    """Bounce every move blocked by an army that stays; a bounce re-examines the moves into its square."""
    while work:
        name = work.pop()
        if name in mv.bounced:
            continue
        why = _blocked(t, mv, mv.movers[name])
        if why is not None:
            mv.bounced.add(name)
            t.note[name] = why
            work.extend(mv.into.get(mv.movers[name].start, ()))


def _bounces(t: MoveWork, mv: _Moving) -> dict[str, Move]:
    """The moves that go ahead: every move blocked by an army that stays is bounced, and a supporter does not move
    when the ally it supports moves."""
    _settle(t, mv, sorted(mv.movers))
    again: list[str] = []
    moving = mv.moving
    for name, m in mv.movers.items():
        if m.word is OrderWord.SUPPORT and name not in mv.bounced and m.target in moving \
                and m.target not in mv.bounced:
            mv.bounced.add(name)
            t.note[name] = f"{m.target} moves away"
            again.extend(mv.into.get(m.start, ()))
    _settle(t, mv, again)
    for name in mv.bounced:
        t.code[name] = ResultCode.BOUNCED
    return {n: m for n, m in mv.movers.items() if n not in mv.bounced}


def _joint_plans(t: MoveWork, mv: _Moving, going: Mapping[str, Move], arrivals: Mapping[str, list[str]]
                 ) -> tuple[dict[str, _Plan], dict[Side, str]]:
    """Each square moved into, with its holder, engagers and supporters; and per side the one square where its
    joint engagement is granted this turn (drawn when the side has several candidates)."""
    board = t.board
    plans: dict[str, _Plan] = {}
    joint_candidates: dict[Side, list[str]] = defaultdict(list)
    for place in sorted(arrivals, key=board.order.__getitem__):
        names = sorted(arrivals[place])
        holders = [o for o in mv.occupants.get(place, ()) if o not in going]
        holder = holders[0] if holders else None
        if holder is None:
            plans[place] = (None, [], [])
            continue
        engagers = [n for n in names if going[n].word is OrderWord.ENGAGE]
        supporters = [n for n in names if going[n].word is OrderWord.SUPPORT]
        plans[place] = (holder, engagers, supporters)
        in_structure = board.structure_at.get(place) is not None
        if len(engagers) >= 2 and not in_structure and not any(t.armies[n].rank in TOP_RANKS for n in engagers):
            joint_candidates[t.armies[engagers[0]].side].append(place)
        if engagers and supporters and not in_structure:
            joint_candidates[t.armies[holder].side].append(place)
    granted: dict[Side, str] = {}
    for side, places in joint_candidates.items():
        key = f"joint/{side.value}"
        granted[side] = places[0] if len(places) == 1 and key not in t.dice.pins else t.dice.pick(key, places)
    return plans, granted


def _into_empty_square(t: MoveWork, mv: _Moving, going: Mapping[str, Move], place: str, names: list[str]) -> None:
    """Armies moving into a square nobody holds: the closest of each side enters (the others move partway), and
    armies of both sides entering make a vs battle."""
    by_side: dict[Side, list[str]] = defaultdict(list)
    for n in names:
        by_side[t.armies[n].side].append(n)
    entering: list[str] = []
    for group in by_side.values():
        first = closest_army(t, going, place, group)
        entering.append(first)
        for n in group:
            if n != first:
                mv.partial.add(n)
                t.note[n] = entered_first(t, going, place, first, n)
    if len(entering) >= 2:
        t.battle(BattleType.VS, place, sorted(entering))


def _onto_held_square(t: MoveWork, mv: _Moving, going: Mapping[str, Move], place: str, holder: str,
                      engagers: list[str], supporters: list[str], granted: Mapping[Side, str]) -> None:
    """Armies moving onto a held square: without an engager the supporters move partway; else an attacks battle,
    joint where the side's joint engagement is granted, within the cap on armies in a joint engagement."""
    if not engagers:
        for n in supporters:
            mv.partial.add(n)
            t.note[n] = f"{holder} is not attacked"
        return
    attack_side = t.armies[engagers[0]].side
    defend_side = t.armies[holder].side
    attackers = engagers
    if len(engagers) >= 2 and granted.get(attack_side) != place:
        first = closest_army(t, going, place, engagers)
        for n in engagers:
            if n != first:
                mv.partial.add(n)
                t.note[n] = _no_joint_note(t, place, engagers, attack_side, granted)
        attackers = [first]
    defenders = [holder]
    if supporters:
        if granted.get(defend_side) == place:
            defenders += supporters
        else:
            for n in supporters:
                mv.partial.add(n)
                t.note[n] = _elsewhere(t, defend_side, granted) if defend_side in granted \
                    else "no joint engagement in a structure"
    cap = t.settings.joint_max_armies
    if len(attackers) + len(defenders) > cap:
        # the defender and its supporters are in first (leaving one place for an attacker); the attackers
        # kept are drawn among the attackers to fill the places left
        left_out = defenders[cap - 1:]
        defenders = defenders[:cap - 1]
        room = cap - len(defenders)
        drawn = len(attackers) > room
        kept = t.dice.draw(f"jointcap/{place}", sorted(attackers))[:room] if drawn else attackers
        for n in left_out:
            mv.partial.add(n)
            t.note[n] = f"at most {cap} armies in a joint engagement"
        for n in attackers:
            if n not in kept:
                mv.partial.add(n)
                t.note[n] = (f"at most {cap} armies in a joint engagement: {' and '.join(kept)} drawn to attack "
                             f"(jointcap/{place})")
        attackers = [n for n in attackers if n in kept]
    bumps = tuple((n, going[n].bump or "") for n in attackers if going[n].bump)
    t.battle(BattleType.ATTACKS, place, attackers + defenders, bumps, leading=len(attackers))


def _place_partial_moves(t: MoveWork, mv: _Moving, going: Mapping[str, Move]) -> None:
    """Partial moves, after all other moves: the last free square of the army's own route, else its start."""
    taken = {p for n, p in t.at.items() if n not in mv.partial}
    for name in sorted(mv.partial):
        m = going[name]
        spot = m.start
        for p in reversed((m.route or ())[:-1]):
            struct = t.board.structure_at.get(p)
            if p not in taken and p not in t.battles and not (struct and struct.kind is StructureKind.PORTAL):
                spot = p
                break
        t.at[name] = spot
        taken.add(spot)
        t.code[name] = ResultCode.PARTIAL


def _pass_portals(t: MoveWork, going: Mapping[str, Move], passers: list[str], turn: int) -> None:
    """Armies through a portal, placed around the linked portal as a bumped army is (onto an enemy: an intercepts
    battle next turn)."""
    occupied = occupants_by_square(t, exclude=set(passers))
    for name in passers:
        struct = t.board.structure_at[going[name].end]
        spot, enemy = place_around(t.board, t.dice, f"portal/{name}", t.armies[name].side, struct.to or "",
                                   occupied, set(t.battles))
        t.at[name] = spot
        occupied[spot].append((name, t.armies[name].side))
        text = f"{name} passes the portal {struct.name} to {spot}"
        if enemy is not None:
            t.battles[spot] = Battle(BattleType.INTERCEPTS, spot, (enemy, name), announced=False)
            text += f", onto {enemy}: an intercepts battle next turn"
        t.events.append(kit.Event(turn, EventKind.PORTAL, text, {"army": name, "portal": struct.name, "at": spot}))


def _no_joint_note(t: MoveWork, place: str, engagers: list[str], side: Side, granted: Mapping[Side, str]) -> str:
    if t.board.structure_at.get(place) is not None:
        return "no joint engagement in a structure"
    if any(t.armies[n].rank in TOP_RANKS for n in engagers):
        return "armies of the top three ranks cannot make a joint engagement"
    return _elsewhere(t, side, granted) if side in granted else "no joint engagement"


def _elsewhere(t: MoveWork, side: Side, granted: Mapping[Side, str]) -> str:
    """Why the side's engagement is no joint one: its one joint engagement this turn is on another square, drawn
    among its candidates (``joint/<side>``) when it had several."""
    key = f"joint/{side.value}"
    how = f" (drawn, {key})" if key in t.dice.drawn else ""
    return f"the side's joint engagement this turn is at {granted[side]}{how}"
