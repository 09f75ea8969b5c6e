"""One order row: whose unit it is, then its recruit, move and attack, rest or conquest; and a standing
advancement choice."""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.rulesets.wesnoth.orders import UnitOrder
from sheets_gm.rulesets.wesnoth.resolve.moves import move_and_attack
from sheets_gm.rulesets.wesnoth.resolve.recruits import recruit
from sheets_gm.rulesets.wesnoth.resolve.rest import rest
from sheets_gm.rulesets.wesnoth.resolve.upkeep import conquest
from sheets_gm.rulesets.wesnoth.resolve.work import TRUE_WORDS, TurnWork


def resolve_row(work: TurnWork, row: UnitOrder) -> None:
    """One order row."""
    acting = work.players[work.acting].name
    unit = work.units.get(row.unit)
    if work.finished:
        work.verdict(unit, row.unit, "order", False, "skipped: the game is over")
        return
    if unit is None:
        mine = ", ".join(u.id for u in work.units.values() if u.owner == acting) or "none"
        work.verdict(None, row.unit, "unit", False, f"there is no unit {row.unit!r} (dead or never recruited); "
                                                   f"{acting}'s units are {mine}")
        return
    if unit.owner != acting:
        work.verdict(unit, row.unit, "unit", False, f"{unit.id} is {unit.owner}'s unit; it is {acting}'s turn")
        return
    if unit.fresh:
        work.verdict(unit, unit.id, "order", False, f"{unit.id} was recruited this turn and acts from next turn")
        return
    if unit.id in work.acted:
        work.verdict(unit, unit.id, "order", False, f"{unit.id} has already acted this turn (one action a unit)")
        return
    wanted = (("move or attack", bool(row.move or row.attack or row.weapon)), ("rest", row.rest),
              ("recruit", bool(row.recruit)), ("conquest", row.conquest))
    actions = [name for name, given in wanted if given]
    if len(actions) != 1:
        message = ("no action: give a move and/or an attack, rest, recruit or conquest" if not actions else
                   f"one action a unit, got {' and '.join(actions)}: keep one")
        work.verdict(unit, unit.id, "order", False, message)
        return
    if row.rest:
        rest(work, unit)
    elif row.recruit:
        recruit(work, unit, row)
    elif row.conquest:
        conquest(work, unit)
    else:
        move_and_attack(work, unit, row)


def standing_choice(work: TurnWork, uid: str, choice: str) -> None:
    """Set what a unit of the acting player becomes if it kills in a counter-attack ("" for nothing)."""
    acting = work.players[work.acting].name
    unit = work.units.get(uid)
    if unit is None or unit.owner != acting:
        work.verdict(unit, uid, "advance choice", False, f"{acting} has no unit {uid!r}")
        return
    text = choice.strip()
    targets = work.rules.utype(unit).advances_to
    if text.lower() in TRUE_WORDS:
        text = "true"
    elif text:
        text = next((a for a in targets if a.lower() == text.lower()), "")
        if not text:
            work.verdict(unit, uid, "advance choice", False, f"{unit.type} advances to "
                         f"{' or '.join(targets) or 'nothing'}, not {choice!r}")
            return
    if text != unit.advance:
        work.units[uid] = replace(unit, advance=text)
