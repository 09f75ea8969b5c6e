"""A leader's recruit rows: who may be recruited, on which castle hex, for how much gold."""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.orders import UnitOrder
from sheets_gm.rulesets.wesnoth.resolve.work import TurnWork
from sheets_gm.rulesets.wesnoth.state import Unit


def recruit(work: TurnWork, leader: Unit, row: UnitOrder) -> None:
    """Recruit the row's entries in order while gold and castle hexes last, each refused alone if it cannot be."""
    rules = work.rules
    settings = rules.settings
    if not leader.leader:
        work.verdict(leader, leader.id, "recruit", False, "only the leader recruits")
        return
    _, player = work.player(leader.owner)
    keep = rules.board.keeps.get(player.slot)
    if settings.leader_on_keep and leader.at != keep:
        where = keep.label if keep else "her keep"
        work.verdict(leader, leader.id, "recruit", False, f"the leader recruits from its keep ({where}); it is on "
                                                          f"{leader.at.label}")
        return
    faction = rules.tables.factions.get(player.faction)
    own = faction.recruits if faction else ()
    mercenaries = rules.tables.mercenaries(player.faction)
    castle = rules.board.castle_of(player.slot)
    recruited = 0
    for entry in row.recruit:
        utype = rules.tables.unit(entry.type)
        if utype is None or (utype.name not in own and utype.name not in mercenaries):
            work.verdict(leader, leader.id, "recruit", False,
                         f"{entry.type!r} is not a recruit: {player.faction} recruits {', '.join(own)} for "
                         f"{settings.faction_cost} gold; mercenaries (any other faction's recruits) cost "
                         f"{settings.mercenary_cost}")
            continue
        cost = settings.faction_cost if utype.name in own else settings.mercenary_cost
        _, player = work.player(leader.owner)
        if player.gold < cost:
            work.verdict(leader, leader.id, "recruit", False, f"{utype.name} costs {cost} gold; {player.name} has "
                                                              f"{player.gold}")
            continue
        taken = {u.at for u in work.units.values()}
        if entry.at:
            try:
                spot: Hex | None = work.hex(entry.at)
            except kit.CoordError as exc:
                work.verdict(leader, leader.id, "recruit", False, f"{utype.name}: {exc}")
                continue
            if spot not in castle or spot in taken:
                free = [h.label for h in castle if h not in taken]
                work.verdict(leader, leader.id, "recruit", False,
                             f"{utype.name}: {entry.at} is not a free hex of {player.name}'s castle; free: "
                             f"{', '.join(free) or 'none'}")
                continue
        else:
            spot = next((h for h in castle if h not in taken), None)
            if spot is None:
                work.verdict(leader, leader.id, "recruit", False, f"{utype.name}: no free castle hex left")
                continue
        number = player.recruits + 1
        uid = entry.id.strip() or f"{player.name}-R{number}"
        if uid in work.units or any(uid == p.name for p in work.players):
            work.verdict(leader, leader.id, "recruit", False, f"{utype.name}: the id {uid!r} is taken; give "
                                                              "another, or none")
            continue
        i, _ = work.player(leader.owner)
        work.players[i] = replace(player, gold=player.gold - cost, recruits=number)
        work.units[uid] = Unit(uid, utype.name, player.name, spot, fresh=True)
        recruited += 1
        work.verdict(leader, leader.id, "recruit", True, f"recruited {uid} ({utype.name}) on {spot.label} for "
                                                         f"{cost} gold")
        work.event(EventKind.RECRUITED, f"{player.name} recruits {uid} ({utype.name}) on {spot.label} for {cost} "
                   f"gold ({player.gold - cost} left)", player=player.name, unit=uid, type=utype.name,
                   at=spot.label, cost=cost, mercenary=utype.name not in own)
    if recruited:
        work.acted.append(leader.id)
