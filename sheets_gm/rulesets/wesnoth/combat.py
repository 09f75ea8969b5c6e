"""Attack and counter-attack: hits on a d6 by terrain defence (magical 3+), damage with time of day
and resistance, the expected damage that picks weapons."""

from __future__ import annotations

from functools import cache
from math import comb

from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import Unit
from sheets_gm.rulesets.wesnoth.tables import Attack

MAGICAL_SCORE = 3


def hit_score(rules: WesnothRules, attack: Attack, target: Unit) -> int:
    """The d6 score a swing of ``attack`` needs against ``target`` on its hex."""
    return MAGICAL_SCORE if attack.magical else rules.defence(target)


def damage(rules: WesnothRules, attacker: Unit, attack: Attack, target: Unit, hits: int, time_of_day: str) -> int:
    """The wounds ``hits`` hits deal (at most one a swing): hits × damage, ± the attacker's level by time of day,
    × the target's resistance percent rounded half up, at least 1; 0 without a hit.

    The rounding is on whole numbers: (base × percent + 50) // 100."""
    if hits <= 0:
        return 0
    return damages(rules, attacker, attack, target, time_of_day)[hits]


def damages(rules: WesnothRules, attacker: Unit, attack: Attack, target: Unit, time_of_day: str) -> tuple[int, ...]:
    """The wounds 0, 1, 2… hits deal, up to every swing hitting (``damage`` of each)."""
    return _damages(attack.damage, attack.swings, rules.time_bonus(attacker, time_of_day),
                    rules.utype(target).resistance.get(attack.damage_type, 100))


@cache
def _damages(each: int, swings: int, bonus: int, percent: int) -> tuple[int, ...]:
    return (0, *[max(1, ((hits * each + bonus) * percent + 50) // 100) for hits in range(1, swings + 1)])


@cache
def _hit_chances(swings: int, score: int) -> tuple[float, ...]:
    p = (7 - score) / 6
    return tuple(comb(swings, k) * p ** k * (1 - p) ** (swings - k) for k in range(swings + 1))


def expected_damage(rules: WesnothRules, attacker: Unit, attack: Attack, target: Unit, time_of_day: str) -> float:
    """Σ over k of P(k hits) × the damage k hits would deal."""
    return _expected_damage(attack.damage, attack.swings, rules.time_bonus(attacker, time_of_day),
                            rules.utype(target).resistance.get(attack.damage_type, 100),
                            hit_score(rules, attack, target))


@cache
def _expected_damage(each: int, swings: int, bonus: int, percent: int, score: int) -> float:
    chances = _hit_chances(swings, score)
    wounds = _damages(each, swings, bonus, percent)
    return sum(chances[k] * wounds[k] for k in range(1, len(chances)))


def best_attack(rules: WesnothRules, attacker: Unit, target: Unit, time_of_day: str,
                kind: str | None = None) -> Attack | None:
    """The attacker's attack (of ``kind``, if given) with the highest expected damage against ``target``;
    ties go to the one listed first; None if it has none."""
    best: Attack | None = None
    best_value = -1.0
    for attack in rules.utype(attacker).attacks:
        if kind is not None and attack.kind != kind:
            continue
        value = expected_damage(rules, attacker, attack, target, time_of_day)
        if value > best_value + 1e-12:
            best, best_value = attack, value
    return best
