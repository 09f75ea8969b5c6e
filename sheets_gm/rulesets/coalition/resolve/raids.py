"""Raids, first in the rulings' order: a raider reaches its target's square before anything else moves."""

from __future__ import annotations

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.enums import (
    PLAYER_SIDES,
    BattleType,
    EventKind,
    OrderWord,
    ResultCode,
)
from sheets_gm.rulesets.coalition.orders import Move
from sheets_gm.rulesets.coalition.resolve.work import MoveWork


def resolve_raids(t: MoveWork, movers: dict[str, Move], turn: int) -> None:
    """Raids first: at most ``max_raids_per_side`` per side (drawn), never intercepted; the raided army's move
    is void."""
    working: list[Move] = []
    for side in PLAYER_SIDES:
        raids = sorted(n for n, m in movers.items() if m.word is OrderWord.RAID and m.side is side)
        cap = t.settings.max_raids_per_side
        key = f"raid/{side.value}"
        order = t.dice.draw(key, raids) if len(raids) > cap or key in t.dice.pins else raids
        working += [movers[n] for n in order[:cap]]
        for name in order[cap:]:
            t.code[name] = ResultCode.BOUNCED
            t.note[name] = f"raid not drawn: at most {cap} raids of a side work each turn"
            del movers[name]
    raided: set[str] = set()
    for raid in working:
        movers.pop(raid.army, None)
        if raid.army in raided:
            continue
        target = raid.target or ""
        if target in raided or t.at[target] in t.battles:
            t.code[raid.army] = ResultCode.BOUNCED
            t.note[raid.army] = f"{target} is already in a battle"
            continue
        place = t.at[target]
        t.at[raid.army] = place
        t.code[raid.army] = ResultCode.MOVED
        t.code[target] = ResultCode.RAIDED
        t.note[target] = f"raided by {raid.army}"
        raided |= {raid.army, target}
        movers.pop(target, None)
        t.battle(BattleType.RAID, place, [raid.army, target])
        t.events.append(kit.Event(turn, EventKind.RAID, f"{raid.army} raids {target} at {place}",
                                  {"raider": raid.army, "target": target, "at": place}))
