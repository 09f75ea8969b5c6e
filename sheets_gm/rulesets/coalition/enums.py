"""The vocabulary of the Coalition–Phyrexia war game, shared by the engine, the log, the sheets and the tests."""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    """Who an army fights for: the two seats, and the engine-moved mercenaries."""

    COALITION = "coalition"
    PHYREXIA = "phyrexia"
    MERCENARY = "mercenary"

    @property
    def display(self) -> str:
        """The side's name for people."""
        return self.value.capitalize()


#: The two sides players write orders for, in seat order.
PLAYER_SIDES: tuple[Side, Side] = (Side.COALITION, Side.PHYREXIA)


def enemy_of(side: Side) -> Side | None:
    """The other player side (None for a mercenary, whose enemies are everybody)."""
    if side is Side.COALITION:
        return Side.PHYREXIA
    if side is Side.PHYREXIA:
        return Side.COALITION
    return None


class Colour(StrEnum):
    """The five colours of magic, which are also the Coalition's factions."""

    WHITE = "white"
    BLUE = "blue"
    BLACK = "black"
    RED = "red"
    GREEN = "green"


class Terrain(StrEnum):
    """A square's terrain (one letter each in a map's ``rows``)."""

    PLAINS = "plains"
    ISLANDS = "islands"
    SWAMP = "swamp"
    MOUNTAINS = "mountains"
    FOREST = "forest"
    OCEAN = "ocean"

    @property
    def letter(self) -> str:
        """The letter of the terrain in a map's ``rows``."""
        return _TERRAIN_LETTERS[self]


_TERRAIN_LETTERS = {Terrain.PLAINS: "p", Terrain.ISLANDS: "i", Terrain.SWAMP: "s", Terrain.MOUNTAINS: "m",
                    Terrain.FOREST: "f", Terrain.OCEAN: "o"}
TERRAIN_BY_LETTER = {letter: terrain for terrain, letter in _TERRAIN_LETTERS.items()}


class StructureKind(StrEnum):
    """What stands on a square: at most one structure."""

    BASE = "base"  # a Coalition faction's base (with its colour)
    STRONGHOLD = "stronghold"  # a Phyrexian stronghold
    FEATURE = "feature"  # a terrain feature, neutral, controlled by occupation or proximity
    PORTAL = "portal"  # linked to a portal square on another plane


class OrderWord(StrEnum):
    """The order word of a movement order."""

    ENGAGE = "engage"
    REPLACE = "replace"
    INTERCEPT = "intercept"
    RAID = "raid"
    SUPPORT = "support"
    TRANSFER = "transfer"
    GARRISON = "garrison"
    HEAL = "heal"
    NONE = "none"


#: Order words that never move the army.
STAYING_WORDS = frozenset({OrderWord.INTERCEPT, OrderWord.TRANSFER, OrderWord.HEAL})
#: Order words that need a target army.
TARGETED_WORDS = frozenset({OrderWord.ENGAGE, OrderWord.REPLACE, OrderWord.RAID, OrderWord.SUPPORT,
                            OrderWord.TRANSFER})


class ResultCode(StrEnum):
    """The one result every order gets (the sheet's feedback, the log and the tests share it)."""

    MOVED = "moved"
    HELD = "held"
    BOUNCED = "bounced"
    INTERCEPTED = "intercepted"
    RAIDED = "raided"
    PARTIAL = "partial"
    VOID = "void"


class BattleType(StrEnum):
    """How a battle came about (the word of its announcement)."""

    VS = "vs"
    ATTACKS = "attacks"
    INTERCEPTS = "intercepts"
    RAID = "raid"
    SIEGE = "siege"

    @property
    def verb(self) -> str:
        """The word between the two army names in an announcement."""
        return {"vs": "vs.", "attacks": "attacks", "intercepts": "intercepts", "raid": "raids",
                "siege": "besieges"}[self.value]


class KillOutcome(StrEnum):
    """The judge's outcome of the winner's kill strategy."""

    KILLED = "killed"
    ESCAPED = "escaped"
    SQUAD_LOST = "squad_lost"
    ROLL = "roll"


class Phase(StrEnum):
    """Which window of the turn is open."""

    ORDERS = "orders"
    RESULTS = "results"
    OVER = "over"


class EventKind(StrEnum):
    """The kinds of event in the log."""

    ORDER = "order"  # one army's movement result, with its code
    ROUTE = "route"  # a route drawn among the shortest
    RAID = "raid"
    INTERCEPT = "intercept"
    PORTAL = "portal"
    TRANSFER = "transfer"
    MERCENARY = "mercenary"
    BATTLE = "battle"  # a battle announced, with its weather
    RESULT = "result"  # a judge's result applied
    KILL = "kill"
    SQUAD = "squad"
    BUMP = "bump"
    SIEGE = "siege"
    COUNTER = "counter"
    HEALED = "healed"
    CHANGED = "changed"
    DESTROYED = "destroyed"
    CONTROL = "control"
    DOMINATION = "domination"
    DISBANDED = "disbanded"
    VICTORY = "victory"
    ADJUSTED = "adjusted"
    DICE = "dice"  # every die rolled and every draw made by a resolution, with its key
