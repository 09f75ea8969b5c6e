"""A unit's move along its cheapest route (stopped by zones of control), the village it lands on, then its attack."""

from __future__ import annotations

from sheets_gm.engine.vocab import plural
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.movement import MoveRefused, plan_move_among
from sheets_gm.rulesets.wesnoth.orders import UnitOrder
from sheets_gm.rulesets.wesnoth.resolve.fights import attack
from sheets_gm.rulesets.wesnoth.resolve.work import TurnWork
from sheets_gm.rulesets.wesnoth.state import Unit
from sheets_gm.rulesets.wesnoth.terrain import Feature


def move_and_attack(work: TurnWork, unit: Unit, row: UnitOrder) -> None:
    """A move (with its stops and village), then the attack after it, if any."""
    if row.weapon and not row.attack:
        work.verdict(unit, unit.id, "weapon", False, "a weapon without a target: name the unit to attack")
        return
    if row.move:
        try:
            dest = work.hex(row.move)
            via = tuple(work.hex(v) for v in row.via)
        except kit.CoordError as exc:
            work.verdict(unit, unit.id, "move", False, str(exc))
            return
        try:
            plan = plan_move_among(work.rules, work.units.values(), work.players, work.villages.items(), unit, dest,
                                   via)
        except MoveRefused as exc:
            work.verdict(unit, unit.id, "move", False, str(exc))
            if row.attack:
                work.verdict(unit, unit.id, "attack", False, "not made: the move before it was refused")
            return
        work.acted.append(unit.id)
        start = unit.at.label  # the log names the hex it left: the path alone starts one step away
        unit = work.units[unit.id] = unit.moved_to(plan.end or unit.at)
        route = " ".join(h.label for h in plan.path)
        if plan.stopped:
            message = f"stopped on {unit.at.label} by {plan.stopped} ({plural(plan.cost, 'move')})"
            work.event(EventKind.MOVED, f"{unit.id} ({unit.type}) moves from {start}: {route or 'nowhere'} "
                       f"({plural(plan.cost, 'move')}) and stops: {plan.stopped}", unit=unit.id,
                       path=[h.label for h in plan.path], stopped=plan.stopped)
        else:
            message = f"moved to {unit.at.label} ({plural(plan.cost, 'move')})"
            work.event(EventKind.MOVED,
                       f"{unit.id} ({unit.type}) moves from {start}: {route} ({plural(plan.cost, 'move')})",
                       unit=unit.id, path=[h.label for h in plan.path])
        work.verdict(unit, unit.id, "move", True, message)
        land(work, unit)
        stopped = plan.stopped
    else:
        stopped = ""
    if row.attack:
        attack(work, unit, row, stopped)


def land(work: TurnWork, unit: Unit) -> None:
    """A unit ending a move on a village its team does not own takes it and 1 gold."""
    if work.rules.board.cell(unit.at).feature is not Feature.VILLAGE:
        return
    owner = work.villages.get(unit.at)
    if owner is not None and work.team(owner) == work.team(unit.owner):
        return
    work.villages[unit.at] = unit.owner
    gold = work.gold(unit.owner, work.rules.settings.village_gold)
    work.event(EventKind.VILLAGE, f"{unit.owner} takes the village on {unit.at.label}"
               + (f" from {owner}" if owner else "") + f" and {work.rules.settings.village_gold} gold "
               f"({gold} gold)", player=unit.owner, at=unit.at.label, previous=owner)
