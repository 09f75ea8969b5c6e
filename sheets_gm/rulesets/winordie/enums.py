"""The vocabulary of Win or Die shared by the engine, the log, the scenario files and the tests."""

from __future__ import annotations

from enum import StrEnum


class Terrain(StrEnum):
    """What a hex of the map is (a baseline hex is a plain marked for one player)."""

    PLAIN = "."
    MINE = "mine"
    FOREST = "forest"
    MOUNTAIN = "mountain"
    HIGHLAND = "highland"

    @property
    def obstacle(self) -> bool:
        """Whether no unit may enter or stand on it (flying units may cross it)."""
        return self is Terrain.MOUNTAIN

    @property
    def blindage(self) -> bool:
        """Whether it blocks a line of sight that passes through it."""
        return self is Terrain.MOUNTAIN or self is Terrain.FOREST


class UnitType(StrEnum):
    """A card's unit type."""

    LEADER = "leader"
    HERO = "hero"
    FIGHTER = "fighter"
    ARCHER = "archer"
    VANGUARD = "vanguard"
    TRICKSTER = "trickster"


class AbilityType(StrEnum):
    """When an ability is used."""

    ACTION = "action"  # in her turn, once per turn per unit and name
    PASSIVE = "passive"  # always on while the unit is exposed: the GM applies it
    REACTION = "reaction"  # in the opponent's turn, once per turn per unit and name
    ULTIMATE = "ultimate"  # in her turn, once per game per unit


class Enhancement(StrEnum):
    """The six enhancements of the advanced mode, 1 crystal each."""

    TOUGHNESS = "toughness"  # Tough 1: one less damage from each attack or counter-attack
    MORALE = "morale"  # the unit gives 3 more morale
    ATTACK = "attack"  # +2 power
    COUNTER_ATTACK = "counter_attack"  # +4 counter-power
    HEALTH = "health"  # +2 health
    MOVEMENT = "movement"  # +2 speed

    @property
    def display(self) -> str:
        """The name people write: ``Counter-attack``."""
        return self.value.replace("_", "-").capitalize()


class Mode(StrEnum):
    """Basic (line-ups from the table, one game) or advanced (own legions, enhancements, council, ZOC)."""

    BASIC = "basic"
    ADVANCED = "advanced"


class ResolveMode(StrEnum):
    """When the acting player's rows resolve."""

    STEP = "step"  # each ticked row at the next sync
    BATCH = "batch"  # the whole list when she is ready


class Phase(StrEnum):
    """What the open window is for."""

    DEPLOY = "deploy"
    ACTIONS = "actions"
    OVER = "over"


class ActionKind(StrEnum):
    """What a command token makes a unit do."""

    MOVE = "move"
    ATTACK = "attack"
    CALL = "call"
    ABILITY = "ability"
    COUNCIL = "council"


class Side(StrEnum):
    """Where a called unit is placed, next to its caller in the same row."""

    LEFT = "left"
    RIGHT = "right"


class Trigger(StrEnum):
    """When a standing reaction fires, before an enemy action."""

    ATTACKED = "attacked"  # before an enemy attack on this unit
    NEAR = "near"  # before any enemy action by a unit within ``within`` hexes of this unit
    ANY = "any"  # before any enemy action


class Ending(StrEnum):
    """How a game ended."""

    MORALE = "morale"  # a legion's morale fell to its fatigue or below: glorious victory
    FATIGUE = "fatigue"  # a legion's fatigue reached the limit: battle triumph
    SURRENDER = "surrender"


class GmKind(StrEnum):
    """The logged adjustments a GM applies for abilities' and tactics' effects."""

    DAMAGE = "damage"
    HEAL = "heal"
    MOVE = "move"
    REVEAL = "reveal"
    MORALE = "morale"
    FATIGUE = "fatigue"
    CRYSTALS = "crystals"
    DONE = "done"  # a pending ability effect is settled
    CANCEL = "cancel"  # the action a reaction stopped does nothing when its row resolves
    DICE = "dice"  # the attack a reaction stopped rolls more or fewer dice
    SOFTEN = "soften"  # the attack a reaction stopped deals less damage
    COUNTER_FIRST = "counter-first"  # the attack a reaction stopped meets its target's counter-attack first (Brace)


class PassiveCue(StrEnum):
    """Before which of its unit's own actions a passive ability is put before the GM (``abilities.csv``'s
    ``before``): its effect may change that action, so the action waits for the GM as a reaction's does."""

    ATTACK = "attack"  # before each attack of the unit (the first of a turn)
    DAMAGED_ATTACK = "attack_damaged"  # before its attack while it has damage (Frenzy)
    MOVED_ATTACK = "attack_moved"  # before its attack after a move this turn (Charge)


class EventKind(StrEnum):
    """The kinds of log event."""

    FIRST_PLAYER = "first_player"
    DEPLOYED = "deployed"
    TURN_STARTED = "turn_started"
    MINE_INCOME = "mine_income"
    MOVED = "moved"
    REVEALED = "revealed"
    ATTACK = "attack"
    COUNTER = "counter"
    DIED = "died"
    CALLED = "called"
    ABILITY = "ability"
    REACTION = "reaction"
    PASSIVE = "passive"  # a passive ability a pending action may trigger, put before the GM with the action
    COUNCIL = "council"
    TURN_ENDED = "turn_ended"
    GAME_WON = "game_won"
    MATCH_WON = "match_won"
    NEW_GAME = "new_game"
    SURRENDER = "surrender"
    REFUSED = "refused"
    GM_ADJUSTMENT = "gm_adjustment"
