"""The battle report's arithmetic: the rulebook's own example, line for line, and heals and supports."""

from __future__ import annotations

from sheets_gm.rulesets.champions.combat_report import (
    AttackRolls,
    Bonus,
    DieRoll,
    HealRolls,
    attack_damage,
    attack_lines,
    heal_lines,
    is_critical,
    round_half_up,
)
from sheets_gm.rulesets.champions.enums import EvadeRule
from sheets_gm.rulesets.champions.items import Dice

RULEBOOK_EXAMPLE = """Attack [4, 2, 1, 10] = 17
+1d8 Item [5] = 22
+1d8 Item [3] = 25
Opponent Defense 1d10 [9] = 16
Strength Boost [16x1.25] = 20"""


def test_the_rulebooks_example_attack_is_reproduced_line_for_line() -> None:
    # The rulebook's rolls as printed (its 10 is no face of a d5, so no critical is asked for here).
    rolls = AttackRolls(base=(4, 2, 1, 10), base_sides=5, items=(DieRoll(Dice(8), 5), DieRoll(Dice(8), 3)),
                        defence=DieRoll(Dice(10), 9), pct=125)
    lines, damage = attack_lines(rolls)
    assert "\n".join(lines) == RULEBOOK_EXAMPLE
    assert damage == 20 == attack_damage(rolls)


def test_a_critical_and_an_evade_follow_the_multiplier() -> None:
    rolls = AttackRolls(base=(10, 3), base_sides=10, pct=150, critical=True, evade=EvadeRule.HALF)
    lines, damage = attack_lines(rolls)
    assert lines == ["Attack [10, 3] = 13", "Strength Boost [13x1.5] = 20", "Critical Hit [20x2] = 40",
                     "Evade [40/2] = 20"]
    assert damage == 20


def test_a_defence_above_the_attack_leaves_zero_and_a_penalty_rounds() -> None:
    assert attack_lines(AttackRolls(base=(1, 1), base_sides=10, defence=DieRoll(Dice(10, 1), 8), pct=80)) == (
        ["Attack [1, 1] = 2", "Opponent Defense 1d10+1 [8+1] = 0", "Strength Penalty [0x0.8] = 0"], 0)


def test_item_bonuses_show_in_the_brackets() -> None:
    lines, damage = attack_lines(AttackRolls(base=(3, 3, 3), base_sides=8, items=(DieRoll(Dice(8, 2), 5),)))
    assert lines == ["Attack [3, 3, 3] = 9", "+1d8+2 Item [5+2] = 16"]
    assert damage == 16


def test_a_heal_shows_its_die_its_items_times_the_affinity_and_a_support() -> None:
    items = Bonus("Item", (DieRoll(Dice(6), 4), DieRoll(Dice(8), 6)), 125)
    support = Bonus("Support", (DieRoll(Dice(4), 3),))
    lines, amount = heal_lines(HealRolls(14, 20, items, support))
    assert lines == ["Heal 1d20 [14] = 14", "+1d6+1d8 Item [4+6 = 10x1.25 = 13] = 27", "+1d4 Support [3] = 30"]
    assert amount == 30


def test_rounding_is_half_up_and_exact() -> None:
    assert [round_half_up(n, 100) for n in (1250, 1249, 1040, 1050, 0)] == [13, 12, 10, 11, 0]


def test_critical_rules() -> None:
    assert is_critical((5, 1, 1, 1), 5, all_dice=False)
    assert not is_critical((5, 1, 1, 1), 5, all_dice=True)
    assert is_critical((10, 10), 10, all_dice=True)
