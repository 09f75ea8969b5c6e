"""Small rule facts derived from the state: which skills are on, who carries what, reach."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.words import counted
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.enums import Skill, Status
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.state import GvgState, Player, Tree


@dataclass(frozen=True, slots=True)
class GvgRules:
    """The fixed part of a match: its map and its settings."""

    board: GvgMap
    settings: GvgSettings


def skill_active(state: GvgState, settings: GvgSettings, team: int, skill: Skill, turn: int) -> bool:
    """Whether ``team``'s ``skill`` is in effect during ``turn`` (activated within its duration)."""
    last = state.cooldowns[team].get(skill)
    return last is not None and last <= turn < last + settings.skill_duration


def next_available_turn(state: GvgState, settings: GvgSettings, team: int, skill: Skill) -> int:
    """The first turn in which ``team`` may activate ``skill`` again."""
    last = state.cooldowns[team].get(skill)
    return 1 if last is None else last + settings.skill_duration + settings.skill_cooldown


def carried_tree(state: GvgState, name: str) -> Tree | None:
    """The tree ``name`` carries, if any."""
    for tree in state.trees:
        if tree is not None and tree.carrier == name:
            return tree
    return None


def enemy_on_tile(state: GvgState, player: Player) -> bool:
    """Whether an active player of the other team stands on ``player``'s tile."""
    active = Status.ACTIVE  # read once: an enum member read off its class is slow on Python 3.11
    at, team = player.at, player.team  # read once, not once a player
    return any(p.at == at and p.team != team and p.status is active for p in state.players)


class Reach(NamedTuple):
    """How far a player may move this turn; ``explanation`` says why, for a refused move."""

    steps: int
    roll: int | None  # None for a carrier, who does not roll
    speed_bonus: int = 0
    contested: bool = False
    tree_speed: bool = False

    @property
    def explanation(self) -> str:
        """``your roll is 3 + 3 (Player Speed)``, or the carrier's pace and why."""
        if self.roll is None:
            why = "you carry the tree" + (" with an enemy on your tile" if self.contested else "")
            if self.tree_speed:
                why += ", doubled by Tree Speed"
            return f"{why}: {counted(self.steps, 'step')}"
        if self.speed_bonus:
            return f"your roll is {self.roll} + {self.speed_bonus} (Player Speed)"
        return f"your roll is {self.roll}"

    def in_the_log(self, message: str) -> str:
        """How far a move could go, as the log says it: the die with its whole message (``TurnDice.message``),
        every bonus by name and the total (``rolled 2 [5/move/Ann] + 3 (Player Speed) = 5``), or the carrier's
        pace and why."""
        if self.roll is None:
            pace = "carrying the tree" + (" with an enemy on the tile" if self.contested else "")
            if self.tree_speed:
                return f"{pace}: {self.steps // 2} × 2 (Tree Speed) = {counted(self.steps, 'step')}"
            return f"{pace}: {counted(self.steps, 'step')}"
        rolled = f"rolled {self.roll} [{message}]"
        return f"{rolled} + {self.speed_bonus} (Player Speed) = {self.steps}" if self.speed_bonus else rolled

    def to_json(self) -> dict[str, Any]:
        """The reach as event data: the roll (None for a carrier), every bonus by name, the steps allowed."""
        bonuses = [{"name": "Player Speed", "value": self.speed_bonus}] if self.speed_bonus else []
        return {"roll": self.roll, "bonuses": bonuses, "steps": self.steps, "carrier": self.roll is None,
                "contested": self.contested, "tree_speed": self.tree_speed}


def movement_reach(
    rules: GvgRules, state: GvgState, player: Player, dice: kit.TurnDice, speed: bool, tree_speed: bool
) -> Reach:
    """The steps ``player`` may take this turn: its published roll (+ Player Speed) or the carrier's pace."""
    s = rules.settings
    if carried_tree(state, player.name) is not None:
        contested = enemy_on_tile(state, player)
        steps = s.carrier_contested_steps if contested else s.carrier_steps
        return Reach(steps * 2 if tree_speed else steps, None, contested=contested, tree_speed=tree_speed)
    return rolled_reach(dice.d6(f"move/{player.name}"), s.player_speed_bonus if speed else 0)


def move_roll(state: GvgState, dice: kit.TurnDice, p: Player) -> int | str:
    """A player's published movement roll for ``state.turn`` ('' if it does not roll, ``carrier`` if it
    carries a tree and moves at the carrier's pace)."""
    if state.finished or p.status is not Status.ACTIVE:
        return ""
    if carried_tree(state, p.name) is not None:
        return "carrier"
    return dice.peek(f"move/{p.name}")


@lru_cache(maxsize=256)
def rolled_reach(roll: int, speed_bonus: int) -> Reach:
    """The reach of a movement roll plus a Player Speed bonus (a player who carries no tree): shared, as a Reach
    never changes."""
    return Reach(roll + speed_bonus, roll, speed_bonus)


def tile_name(rules: GvgRules, state: GvgState, tile: Coord) -> str:
    """How a tile is named to a player: ``G9, blue's base``."""
    terrain = rules.board.describe(tile)
    for team in (0, 1):
        terrain = terrain.replace(f"team {team + 1}'s", f"{state.teams[team]}'s")
    return f"{tile.label} ({terrain})"
