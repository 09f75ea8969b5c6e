"""What a champion may carry: 2 items among physical, magical and support, 1 defensive; heavy armour only
on the Gladiator, no medium armour on the Healer."""

from __future__ import annotations

from collections.abc import Sequence

from sheets_gm.rulesets.champions.enums import HAND_TYPES, ChampClass, ItemType, Weight
from sheets_gm.rulesets.champions.items import Item

HAND_LIMIT = 2
DEFENSIVE_LIMIT = 1

#: The armour weights each class may wear.
WEARABLE: dict[ChampClass, tuple[Weight, ...]] = {
    ChampClass.GLADIATOR: (Weight.LIGHT, Weight.MEDIUM, Weight.HEAVY),
    ChampClass.ROGUE: (Weight.LIGHT, Weight.MEDIUM),
    ChampClass.MAGE: (Weight.LIGHT, Weight.MEDIUM),
    ChampClass.HEALER: (Weight.LIGHT,),
}

#: The item types each class has an affinity for (their effects × 1.25 by default).
AFFINITY: dict[ChampClass, frozenset[ItemType]] = {
    ChampClass.GLADIATOR: frozenset({ItemType.PHYSICAL}),
    ChampClass.ROGUE: frozenset({ItemType.PHYSICAL, ItemType.SUPPORT}),
    ChampClass.MAGE: frozenset({ItemType.MAGICAL}),
    ChampClass.HEALER: frozenset({ItemType.MAGICAL, ItemType.SUPPORT}),
}


def _names(items: Sequence[Item]) -> str:
    return ", ".join(i.name for i in items)


def equip_problem(cls: ChampClass, items: Sequence[Item]) -> str | None:
    """Why ``cls`` may not carry ``items`` together (a sentence naming the rule and what is accepted), or None."""
    hands = [i for i in items if i.type in HAND_TYPES]
    armour = [i for i in items if i.type is ItemType.DEFENSIVE]
    if len(items) > HAND_LIMIT + DEFENSIVE_LIMIT:
        return (f"the {cls.display} carries at most {HAND_LIMIT + DEFENSIVE_LIMIT} items ({HAND_LIMIT} among physical, "
                f"magical and support, and {DEFENSIVE_LIMIT} defensive); this lists {len(items)}: {_names(items)}")
    if len(hands) > HAND_LIMIT:
        return (f"the {cls.display} carries at most {HAND_LIMIT} items among physical, magical and support; this "
                f"lists {len(hands)}: {_names(hands)}")
    if len(armour) > DEFENSIVE_LIMIT:
        return f"the {cls.display} wears at most {DEFENSIVE_LIMIT} defensive item; this lists {len(armour)}: " \
               f"{_names(armour)}"
    for item in armour:
        allowed = WEARABLE[cls]
        if item.weight is not None and item.weight not in allowed:
            if item.weight is Weight.HEAVY:
                rule = "heavy armour goes only on the Gladiator"
            else:
                rule = f"the {cls.display} cannot wear {item.weight.value} armour"
            worn = " or ".join(w.value for w in allowed)
            return f"{item.name} is {item.weight.value} armour: {rule}; the {cls.display} may wear {worn} armour"
    return None
