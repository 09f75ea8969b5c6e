"""A unit that rests: healed for resting, and nothing else done this turn."""

from __future__ import annotations

from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.resolve.work import TurnWork
from sheets_gm.rulesets.wesnoth.state import Unit
from sheets_gm.rulesets.wesnoth.terrain import Feature


def rest(work: TurnWork, unit: Unit) -> None:
    """Roll ``rest/<unit>`` and remove wounds (more in a village). With a check's blind dice the roll is not made:
    the verdict says what each roll would heal, and the unit keeps its wounds."""
    village = work.rules.board.cell(unit.at).feature is Feature.VILLAGE
    if work.dice.blind:
        work.acted.append(unit.id)
        heals = ("it has no wound to remove" if not unit.wounds else "1 wound removed on a 5 or 6" if not village
                 else "1 wound removed" if unit.wounds == 1 else "1 wound removed, 2 on a 6")
        work.verdict(unit, unit.id, "rest", True, f"will rest{' in a village' if village else ''}: {heals}; the "
                     "die is rolled as the turn resolves")
        return
    roll = work.dice.d6(f"rest/{unit.id}")
    healed = (2 if roll == 6 else 1) if village else (1 if roll >= 5 else 0)
    healed = min(healed, unit.wounds)
    work.units[unit.id] = unit.with_wounds(unit.wounds - healed)
    work.acted.append(unit.id)
    work.verdict(unit, unit.id, "rest", True, f"rested: rolled {roll}, {healed} wound{'s' if healed != 1 else ''}"
                 " removed")
    work.event(EventKind.RESTED, f"{unit.id} ({unit.type}) rests{' in a village' if village else ''}: "
               f"rest/{unit.id}={roll}, {healed} wound{'s' if healed != 1 else ''} removed "
               f"({unit.wounds - healed} left)", unit=unit.id, roll=roll, healed=healed)
