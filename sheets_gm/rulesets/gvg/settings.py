"""The GvG house rules: every reading of the rulings a GM may want otherwise, with its default."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sheets_gm.engine.grid import Neighbourhood
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.enums import Skill


class OwnTreePickup(StrEnum):
    """What happens when a team picks up its own dropped tree."""

    RETURN = "return"
    FORBID = "forbid"


class TurnLimitRule(StrEnum):
    """How a match that reaches the turn limit with no capture is decided."""

    FARTHEST_TREE = "farthest_tree"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class GvgSettings:
    """The settings of one GvG match. Defaults follow the rulebook and rulings/gvg.md."""

    max_turns: int = kit.setting(60, "The last turn; after it the turn-limit rule decides.", minimum=1, maximum=999)
    movement: Neighbourhood = kit.setting(
        Neighbourhood.KING, "One step: 'king' (8 neighbours, diagonals count) or 'rook' (4)."
    )
    halftime_turn: int = kit.setting(30, "Turn at whose start every jungle coin respawns (0: never).", minimum=0)
    boss_spawn_turns: tuple[int, ...] = kit.setting((15, 45), "Turns at whose start a boss appears if none is alive.")
    boss_hp: int = kit.setting(3, "Boss hit points.", minimum=1, maximum=99)
    boss_reward: int = kit.setting(2, "Coins for the team that lands the boss's final blow.", minimum=0)
    bulwark_hp: int = kit.setting(3, "Bulwark hit points.", minimum=1, maximum=99)
    fish_hp: int = kit.setting(6, "Fish hit points.", minimum=1, maximum=99)
    fish_tiers: tuple[int, ...] = kit.setting(
        (2, 0, -2),
        "Fish defence bonus with 1, 2, 3… bulwarks of its team destroyed (the last repeats).",
    )
    dps_bonus: int = kit.setting(2, "DPS bonus on open-tile PvP and when attacking bulwarks or fish.", minimum=0)
    tank_bonus: int = kit.setting(2, "Tank bonus when defending a bulwark, fish or the tree.", minimum=0)
    buff_bonus: int = kit.setting(2, "A buffing healer's bonus to each allied roll within 1 square.", minimum=0)
    tree_bonus: int = kit.setting(2, "Bonus to the carrier's side in any battle on the carrier's tile.", minimum=0)
    skill_damage_bonus: int = kit.setting(4, "Bulwark Damage / Fish Damage bonus to the attack total.", minimum=0)
    player_speed_bonus: int = kit.setting(3, "Player Speed bonus to every movement roll.", minimum=0)
    carrier_steps: int = kit.setting(2, "Steps a tree carrier moves (no roll).", minimum=0, maximum=99)
    carrier_contested_steps: int = kit.setting(
        1, "Carrier steps when an active enemy shares its tile at the start of movement.", minimum=0
    )
    skill_cooldown: int = kit.setting(3, "Turns a command skill rests after its activation turn.", minimum=0)
    skill_duration: int = kit.setting(1, "Turns a command skill lasts, its activation turn included.", minimum=1)
    cost_player_speed: int = kit.setting(1, "Coins for Player Speed.", minimum=0)
    cost_healing_reduction: int = kit.setting(1, "Coins for Healing Reduction.", minimum=0)
    cost_bulwark_damage: int = kit.setting(1, "Coins for Bulwark Damage.", minimum=0)
    cost_fish_damage: int = kit.setting(1, "Coins for Fish Damage.", minimum=0)
    cost_city_protection: int = kit.setting(2, "Coins for City Protection.", minimum=0)
    cost_tree_speed: int = kit.setting(2, "Coins for Tree Speed.", minimum=0)
    cost_ballista: int = kit.setting(1, "Coins for Ballista Charges.", minimum=0)
    ballista_charges: int = kit.setting(2, "Charges one Ballista purchase adds (they never expire).", minimum=1)
    healing_reduction_blocks_revive: bool = kit.setting(
        False, "Whether the enemy's Healing Reduction also stops revives (the rulebook names only bonuses)."
    )
    own_tree_pickup: OwnTreePickup = kit.setting(
        OwnTreePickup.RETURN, "A team picking up its own dropped tree: 'return' it to its fish, or 'forbid'."
    )
    turn_limit_rule: TurnLimitRule = kit.setting(
        TurnLimitRule.FARTHEST_TREE,
        "At the turn limit with no capture: 'farthest_tree' (farthest captured tree wins) or 'draw'.",
    )
    duel_reward: int = kit.setting(2, "Coins for the archery-duel winner's team.", minimum=0)

    def cost(self, skill: Skill) -> int:
        """The coin cost of a command skill."""
        value: int = getattr(self, f"cost_{skill.value}")
        return value

    def fish_tier(self, destroyed_bulwarks: int) -> int:
        """The fish's defence bonus given how many of its team's bulwarks are destroyed."""
        if destroyed_bulwarks <= 0 or not self.fish_tiers:
            return 0
        return self.fish_tiers[min(destroyed_bulwarks, len(self.fish_tiers)) - 1]
