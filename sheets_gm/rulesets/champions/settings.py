"""The Champions house rules: every reading of the rulings a GM may want otherwise, with its default."""

from __future__ import annotations

from dataclasses import dataclass

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.enums import CriticalRule, EvadeRule, SupportRule


@dataclass(frozen=True, slots=True)
class ChampionsSettings:
    """The settings of one Champions match. Defaults follow the rulebook and rulings/champions.md."""

    loot_actions: int = kit.setting(3, "Looting actions a player may list each round.", minimum=0, maximum=12)
    pool_size: int = kit.setting(12, "Items dealt to a tile's loot pool when the tile appears.", minimum=0,
                                 maximum=64)
    critical: CriticalRule = kit.setting(
        CriticalRule.ANY_DIE,
        "A critical hit (double damage): 'any_die' when any base die shows its highest face, 'all_dice' when "
        "every one does.")
    max_rounds: int = kit.setting(30, "The last round; after it the player with the most total champion health wins.",
                                  minimum=1, maximum=500)
    support: SupportRule = kit.setting(
        SupportRule.DICE,
        "Support: 'dice' adds the supporter's support item dice (or the support die) to the partner's action of "
        "the same round; 'none' makes Support do nothing.")
    support_die: int = kit.setting(4, "The die a supporter without a support item adds (never multiplied).",
                                   minimum=2, maximum=100)
    evade: EvadeRule = kit.setting(
        EvadeRule.HALF,
        "Evade: 'half' halves each attack on the evader that round (rounded down), 'all' stops them, 'none' "
        "does nothing.")
    heal_die: int = kit.setting(20, "The die of a Heal, before the Healer's item dice.", minimum=2, maximum=100)
    strength_pct: int = kit.setting(25, "Percent added to the multiplier when the attacker is strong against the "
                                    "target.", minimum=0, maximum=200)
    weakness_pct: int = kit.setting(20, "Percent taken from the multiplier when the target is strong against the "
                                    "attacker.", minimum=0, maximum=100)
    affinity_pct: int = kit.setting(25, "Percent added when an item of the champion's affinity adds dice (attacks), "
                                    "and the item bonus of Heal and Support by an affine champion.", minimum=0,
                                    maximum=200)
