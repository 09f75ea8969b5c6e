"""The vocabulary of Champions shared by the engine, the log, the sheets and the tests."""

from __future__ import annotations

from enum import StrEnum


class ChampClass(StrEnum):
    """A champion's class; the order of the members is the rulings' class order for ties."""

    GLADIATOR = "gladiator"
    ROGUE = "rogue"
    MAGE = "mage"
    HEALER = "healer"

    @property
    def display(self) -> str:
        """How the class is written for people: ``Gladiator``."""
        return self.value.title()


#: Every class in the rulings' order (Gladiator, Rogue, Mage, Healer): the index of a class in a health tuple.
CLASSES: tuple[ChampClass, ...] = tuple(ChampClass)
CLASS_INDEX: dict[ChampClass, int] = {c: i for i, c in enumerate(CLASSES)}


class ItemType(StrEnum):
    """What an item does: adds to attacks (physical, magical), to defence, or to support and heals."""

    PHYSICAL = "physical"
    MAGICAL = "magical"
    DEFENSIVE = "defensive"
    SUPPORT = "support"


#: The types that share a champion's two "hand" slots.
HAND_TYPES = (ItemType.PHYSICAL, ItemType.MAGICAL, ItemType.SUPPORT)


class Tier(StrEnum):
    """How rare an item is."""

    COMMON = "common"
    UNCOMMON = "uncommon"
    RARE = "rare"
    LEGENDARY = "legendary"


class Weight(StrEnum):
    """A defensive item's weight: heavy only on the Gladiator, no medium on the Healer."""

    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


class TileClass(StrEnum):
    """Where a tile lies on the grid, which sets the tier weights of its loot pool."""

    CORNER = "corner"
    EDGE = "edge"
    CENTRE = "centre"


class LootChoice(StrEnum):
    """What one looting action asks for: an item type, or any item."""

    PHYSICAL = "physical"
    MAGICAL = "magical"
    DEFENSIVE = "defensive"
    SUPPORT = "support"
    ANY = "any"


class Phase(StrEnum):
    """The two order windows of a round."""

    MOVE = "move_loot"
    FIGHT = "equip_fight"

    @property
    def display(self) -> str:
        """How the window is named for people."""
        return "move and loot" if self is Phase.MOVE else "equip and fight"


class ActionKind(StrEnum):
    """One action of a champion's set of four."""

    ATTACK = "attack"
    HEAL = "heal"
    SUPPORT = "support"
    EVADE = "evade"


class HealTarget(StrEnum):
    """Whom a Heal is for."""

    SELF = "self"
    PARTNER = "partner"


class CriticalRule(StrEnum):
    """When an attack is a critical hit."""

    ANY_DIE = "any_die"  # any base die shows its highest face
    ALL_DICE = "all_dice"  # every base die does


class SupportRule(StrEnum):
    """What a Support action does."""

    DICE = "dice"  # the partner's action adds the supporter's support item dice, or the support die
    NONE = "none"  # Support does nothing


class EvadeRule(StrEnum):
    """What an Evade action does to the attacks on the evading champion in that round."""

    HALF = "half"  # each deals half, rounded down
    ALL = "all"  # each deals nothing
    NONE = "none"  # Evade does nothing (not "off": YAML would read it as false)


class EventKind(StrEnum):
    """The kinds of log events."""

    SPAWNED = "spawned"
    MOVED = "moved"
    MOVE_REFUSED = "move_refused"
    LOOTED = "looted"
    LOOT_EMPTY = "loot_empty"
    EQUIPPED = "equipped"
    BATTLE = "battle"
    NO_BATTLE = "no_battle"
    CHAMPION_DIED = "champion_died"
    PLAYER_OUT = "player_out"
    SHRUNK = "shrunk"
    POOLS_DEALT = "pools_dealt"
    ROUND_LIMIT = "round_limit"
    WINNER = "winner"
    GM_ADJUSTMENT = "gm_adjustment"
