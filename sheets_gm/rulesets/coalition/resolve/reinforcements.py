"""The end of movement: creatures transferred between two armies that held, and the mercenaries' own moves."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.enums import (
    BattleType,
    EventKind,
    OrderWord,
    ResultCode,
    Side,
)
from sheets_gm.rulesets.coalition.orders import Move
from sheets_gm.rulesets.coalition.resolve.work import MoveWork
from sheets_gm.rulesets.coalition.state import (
    SLOT_CAPACITY,
    CoalitionState,
)


def resolve_transfers(t: MoveWork, moves: Mapping[str, Move], turn: int) -> None:
    """Transfers at the end of movement: both armies held and are out of battle; no slot overfilled."""
    fighting = {n for b in t.battles.values() for n in b.armies}
    for name in sorted(moves):
        m = moves[name]
        if m.word is not OrderWord.TRANSFER or m.target is None or m.units is None:
            continue
        partner = m.target
        if t.code.get(partner) not in (ResultCode.HELD, ResultCode.BOUNCED) or t.at[partner] != t.armies[partner].at:
            t.code[name], t.note[name] = ResultCode.BOUNCED, f"{partner} moved"
            continue
        if name in fighting or partner in fighting:
            t.code[name], t.note[name] = ResultCode.BOUNCED, "a battle stopped the transfer"
            continue
        giver, taker = t.armies[name], t.armies[partner]
        after = tuple(b + s for b, s in zip(taker.units, m.units, strict=True))
        over = [i + 1 for i, (v, cap) in enumerate(zip(after, SLOT_CAPACITY, strict=True)) if v > cap]
        if over or any(s > g for s, g in zip(m.units, giver.units, strict=True)):
            t.code[name] = ResultCode.BOUNCED
            t.note[name] = f"slot {over[0]} of {partner} would hold more than {SLOT_CAPACITY[over[0] - 1]}" if over \
                else "not enough units left to send"
            continue
        left = tuple(g - s for g, s in zip(giver.units, m.units, strict=True))
        t.armies[name] = replace(giver, units=(left[0], left[1], left[2], left[3]))
        t.armies[partner] = replace(taker, units=(after[0], after[1], after[2], after[3]))
        t.events.append(kit.Event(turn, EventKind.TRANSFER,
                                  f"{name} transfers {'/'.join(map(str, m.units))} to {partner}",
                                  {"army": name, "to": partner, "units": list(m.units)}))


def resolve_mercenaries(t: MoveWork, state: CoalitionState, turn: int) -> None:
    """Mercenaries move after the players: one whose structure a player's army holds engages it if it can reach."""
    board = t.board
    fighting = {n for b in t.battles.values() for n in b.armies}
    holders: dict[str, str] = {}
    for name, place in t.at.items():
        if t.armies[name].side is not Side.MERCENARY and name not in fighting:
            holders.setdefault(place, name)
    for name in sorted(n for n, a in t.armies.items() if a.side is Side.MERCENARY):
        army = t.armies[name]
        struct = board.by_name.get((army.guards or "").lower())
        if name in fighting or struct is None or struct.name in state.destroyed:
            continue
        holder = holders.get(struct.at)
        if holder is None or struct.at in t.battles:
            continue
        steps = board.distance(t.at[name], struct.at)
        if steps is None or steps > t.settings.max_steps:
            continue
        t.at[name] = struct.at
        t.code[name] = ResultCode.MOVED
        t.battle(BattleType.ATTACKS, struct.at, [name, holder])
        t.events.append(kit.Event(turn, EventKind.MERCENARY, f"Mercenary {name} engages {holder} at {struct.name}",
                                  {"army": name, "target": holder, "at": struct.at}))
