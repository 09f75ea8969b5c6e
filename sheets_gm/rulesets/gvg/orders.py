"""A GvG turn's orders as plain data: each player's destination (or ballista teleport) and action, and each
team's command skills; and their JSON for the history rows and replays."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.enums import Action, Skill


@dataclass(frozen=True, slots=True)
class PlayerOrder:
    """A player's order for one turn: a destination (or a ballista teleport) and an action."""

    move: Coord | None = None
    action: Action = Action.ACT
    teleport: Coord | None = None


@dataclass(frozen=True, slots=True)
class TurnOrders:
    """Every order for one turn: players by name, and each team's command skills."""

    players: Mapping[str, PlayerOrder] = field(default_factory=dict)
    skills: tuple[tuple[Skill, ...], tuple[Skill, ...]] = ((), ())


def orders_to_json(orders: TurnOrders) -> dict[str, Any]:
    """A turn's orders as JSON-ready data (for history rows and replays)."""
    return {
        "players": {
            name: {"move": o.move.label if o.move else None, "action": o.action.value,
                   "teleport": o.teleport.label if o.teleport else None}
            for name, o in orders.players.items()
        },
        "skills": [[s.value for s in team] for team in orders.skills],
    }


def orders_from_json(data: Mapping[str, Any]) -> TurnOrders:
    """Rebuild orders saved by ``orders_to_json``."""
    players = {
        name: PlayerOrder(
            move=Coord.parse(o["move"]) if o.get("move") else None,
            action=Action(o.get("action", "act")),
            teleport=Coord.parse(o["teleport"]) if o.get("teleport") else None,
        )
        for name, o in data.get("players", {}).items()
    }
    skills = [tuple(Skill(s) for s in team) for team in data.get("skills", [[], []])]
    return TurnOrders(players=players, skills=(skills[0], skills[1]))
