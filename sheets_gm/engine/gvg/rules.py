"""Small rule facts derived from the state: which skills are on, who carries what, reach."""

from __future__ import annotations

from dataclasses import dataclass

from sheets_gm.engine.core.dice import TurnDice
from sheets_gm.engine.core.grid import Coord
from sheets_gm.engine.gvg.board import GvgMap
from sheets_gm.engine.gvg.enums import Skill, Status
from sheets_gm.engine.gvg.settings import GvgSettings
from sheets_gm.engine.gvg.state import GvgState, Player, Tree


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
    return any(
        p.team != player.team and p.status is Status.ACTIVE and p.at == player.at for p in state.players
    )


@dataclass(frozen=True, slots=True)
class Reach:
    """How far a player may move this turn, and why (for the feedback sentence)."""

    steps: int
    explanation: str


def movement_reach(
    rules: GvgRules, state: GvgState, player: Player, dice: TurnDice, speed: bool, tree_speed: bool
) -> Reach:
    """The steps ``player`` may take this turn: its published roll (+ Player Speed) or the carrier's pace."""
    s = rules.settings
    if carried_tree(state, player.name) is not None:
        contested = enemy_on_tile(state, player)
        steps = s.carrier_contested_steps if contested else s.carrier_steps
        why = "you carry the tree" + (" with an enemy on your tile" if contested else "")
        if tree_speed:
            steps *= 2
            why += ", doubled by Tree Speed"
        return Reach(steps, f"{why}: {steps} steps")
    roll = dice.d6(f"move/{player.name}")
    if speed:
        return Reach(roll + s.player_speed_bonus, f"your roll is {roll} + {s.player_speed_bonus} (Player Speed)")
    return Reach(roll, f"your roll is {roll}")


def tile_name(rules: GvgRules, state: GvgState, tile: Coord) -> str:
    """How a tile is named to a player: ``G9, blue's base``."""
    terrain = rules.board.describe(tile)
    for team in (0, 1):
        terrain = terrain.replace(f"team {team + 1}'s", f"{state.teams[team]}'s")
    return f"{tile.label} ({terrain})"
