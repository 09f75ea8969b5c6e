"""Intercepts and mutual engages: an interceptor meets the army it names on its way; two armies engaging each
other fight where the first one stands."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

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
from sheets_gm.rulesets.coalition.resolve.work import MoveWork, passes_portal


def resolve_intercepts(t: MoveWork, movers: dict[str, Move], ordered: Mapping[str, str | None], turn: int) -> None:
    """Intercepts: an army holding with intercept (or a garrison on a portal) stops the first enemy whose
    route enters its square (the named one if it does; else drawn, ``intercept/<army>``)."""
    engaged = {m.target for m in movers.values() if m.word is OrderWord.ENGAGE}
    through: dict[str, list[str]] = defaultdict(list)  # place -> movers whose route passes it (end excluded)
    portal_passers: dict[str, list[str]] = defaultdict(list)  # portal place -> movers passing that portal
    for name, m in movers.items():
        for p in (m.route or ())[:-1]:
            through[p].append(name)
        if passes_portal(t.board, m):
            portal_passers[m.end].append(name)
            portal_passers[t.board.structure_at[m.end].to or ""].append(name)
    fighting = {n for b in t.battles.values() for n in b.armies}
    interceptors: list[tuple[str, str | None, bool]] = []  # (army, named target, garrison)
    for name in sorted(t.armies):
        army = t.armies[name]
        if name in movers or name in fighting or name in engaged or army.side is Side.MERCENARY:
            continue
        struct = t.board.structure_at.get(t.at[name])
        garrison = struct is not None and struct.kind is StructureKind.PORTAL
        if garrison or name in ordered:
            interceptors.append((name, ordered.get(name), garrison))
    caught: set[str] = set()
    for name, named, garrison in interceptors:
        side = t.armies[name].side
        place = t.at[name]
        pool = set(through.get(place, ())) if name in ordered else set()
        if garrison:
            pool |= set(portal_passers.get(place, ()))
        candidates = sorted(n for n in pool if n in movers and n not in caught and t.armies[n].side is not side)
        if not candidates:
            continue
        key = f"intercept/{name}"
        if named in candidates:
            victim = named
        elif len(candidates) == 1 and key not in t.dice.pins:
            victim = candidates[0]
        else:
            victim = t.dice.pick(key, candidates)
        caught.add(victim)
        del movers[victim]
        t.at[victim] = place
        t.code[victim] = ResultCode.INTERCEPTED
        t.note[victim] = f"intercepted by {name} at {t.board.short(place)}"
        t.battle(BattleType.INTERCEPTS, place, [name, victim])
        t.events.append(kit.Event(turn, EventKind.INTERCEPT, f"{name} intercepts {victim} at {place}",
                                  {"army": name, "target": victim, "at": place, "garrison": garrison}))


def resolve_mutual_engages(t: MoveWork, movers: dict[str, Move]) -> None:
    """Two armies engaging each other: the battle is in the square of the one drawn (``meet/<a>/<b>``),
    which holds; the other moves in."""
    for name in sorted(movers):
        m = movers.get(name)
        if m is None or m.word is not OrderWord.ENGAGE or m.target is None:
            continue
        other = movers.get(m.target)
        if other is None or other.word is not OrderWord.ENGAGE or other.target != name:
            continue
        a, b = sorted((name, m.target))
        stays = t.dice.pick(f"meet/{a}/{b}", [a, b])
        del movers[stays]
        t.code[stays] = ResultCode.HELD
        t.note[stays] = "mutual engage: the battle is in its square"
