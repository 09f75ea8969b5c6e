"""What the objective bot asks of a player in a turn: a target, its distances and best steps, the action there."""

from __future__ import annotations

from dataclasses import dataclass, field

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.enums import Action
from sheets_gm.rulesets.gvg.orders import PlayerOrder

Paths = dict[tuple[Coord, int], list[Coord]]  # toward one target: (start, steps) → the best tiles to step to
Moves = dict[tuple[Coord, int], list[tuple[Coord, PlayerOrder]]]  # the same, each tile with a player's order there


@dataclass(frozen=True, slots=True)
class Job:
    """What one player is asked to do this turn: go toward ``target`` and act there.

    A job depends on the board alone, not on the turn: the geometry keeps each one it made (``Geometry.job``).
    """

    target: Coord
    goal: dict[Coord, int]  # every tile's distance to the target
    paths: Paths  # the geometry's best steps toward the target (``Geometry.paths``)
    action: Action = Action.ACT  # the action once on the target tile (ACT on the way)
    detour: bool = False  # may pick up a jungle coin on the way
    teleport: bool = True  # may ride the ballista from base to the target
    moves: Moves = field(default_factory=dict, compare=False)  # ``paths`` with the orders (``Geometry.moves``)
