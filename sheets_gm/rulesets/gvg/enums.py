"""The vocabulary of GvG shared by the engine, the log, the sheets and the tests."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    """A player's role for the match."""

    DPS = "dps"
    TANK = "tank"
    HEALER = "healer"

    @property
    def display(self) -> str:
        """How the role is written for people."""
        return {"dps": "DPS", "tank": "Tank", "healer": "Healer"}[self.value]


class Action(StrEnum):
    """What a player does in the action phase."""

    ACT = "act"
    BUFF = "buff"
    REVIVE = "revive"
    PICKUP = "pickup"


class Skill(StrEnum):
    """A team captain's command skill."""

    PLAYER_SPEED = "player_speed"
    HEALING_REDUCTION = "healing_reduction"
    BULWARK_DAMAGE = "bulwark_damage"
    FISH_DAMAGE = "fish_damage"
    CITY_PROTECTION = "city_protection"
    TREE_SPEED = "tree_speed"
    BALLISTA = "ballista"

    @property
    def display(self) -> str:
        """How the skill is written for people, e.g. ``Bulwark Damage``."""
        if self is Skill.BALLISTA:
            return "Ballista Charges"
        return self.value.replace("_", " ").title()


class Status(StrEnum):
    """Whether a player is in play."""

    ACTIVE = "active"
    KNOCKED_DOWN = "knocked_down"


class Terrain(StrEnum):
    """What a tile of the map is, before its team slot."""

    OPEN = "."
    WALL = "wall"
    COIN = "coin"
    BOSS = "boss"
    BASE = "base"
    STAIR = "stair"
    BULWARK = "bulwark"
    FISH = "fish"


class StructureKind(StrEnum):
    """A structure with hit points."""

    BULWARK = "bulwark"
    FISH = "fish"


class Outcome(StrEnum):
    """How a battle on a tile ended."""

    ATTACKERS_WIN = "attackers_win"
    DEFENDERS_WIN = "defenders_win"
    STALEMATE = "stalemate"


class EventKind(StrEnum):
    """The kinds of event in the GvG log."""

    SKILL_ACTIVATED = "skill_activated"
    ORDER_REJECTED = "order_rejected"
    HALFTIME = "halftime"
    BOSS_SPAWNED = "boss_spawned"
    MOVED = "moved"
    STAYED = "stayed"
    TELEPORTED = "teleported"
    BATTLE = "battle"
    STRUCTURE_DAMAGED = "structure_damaged"
    STRUCTURE_DESTROYED = "structure_destroyed"
    KNOCKED_DOWN = "knocked_down"
    REVIVED = "revived"
    RESPAWNED = "respawned"
    COIN_TAKEN = "coin_taken"
    BOSS_HIT = "boss_hit"
    BOSS_KILLED = "boss_killed"
    TREE_PICKED_UP = "tree_picked_up"
    TREE_DROPPED = "tree_dropped"
    TREE_RETURNED = "tree_returned"
    PICKUP_FAILED = "pickup_failed"
    ARCHERY_DUEL = "archery_duel"
    GM_ADJUSTMENT = "gm_adjustment"
    UNDO = "undo"  # the GM took back the last resolved turn (written by the sync, never by a resolution)
    MATCH_WON = "match_won"
    MATCH_DRAWN = "match_drawn"


class Verdict(StrEnum):
    """The checker's answer for one order, shared by the sheet feedback and the tests."""

    ACCEPTED = "accepted"
    NO_ORDER = "no_order"
    KNOCKED_DOWN = "knocked_down"
    OFF_BOARD = "off_board"
    IMPASSABLE = "impassable"
    TOO_FAR = "too_far"
    UNREACHABLE = "unreachable"
    NOT_A_HEALER = "not_a_healer"
    NOT_ON_BASE = "not_on_base"
    NO_CHARGE = "no_charge"
    ON_COOLDOWN = "on_cooldown"
    NOT_ENOUGH_COINS = "not_enough_coins"
    UNKNOWN_PLAYER = "unknown_player"
    MATCH_OVER = "match_over"
