"""Win or Die orders: the acting player's actions (one per row, in order), each player's standing
reactions, deployments and surrenders; with their JSON codecs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sheets_gm.rulesets.winordie.enums import ActionKind, Enhancement, Side, Trigger


@dataclass(frozen=True, slots=True)
class Action:
    """One row of the acting player's actions.

    ``target`` is what the kind needs: a hex (move), a target (attack: a unit id, a face-down token's
    name or a hex), a card (call), an ability name (ability) or a tactic (council)."""

    kind: ActionKind
    unit: str = ""  # empty for a War Council
    target: str = ""
    side: Side | None = None  # call: left or right of the caller
    id: str = ""  # call: the new unit's id (default <player>-C<n>)
    enhancements: tuple[Enhancement, ...] = ()  # call, advanced mode
    aim: str = ""  # ability: what it is aimed at, for the GM (free text)

    def to_json(self) -> dict[str, Any]:
        """The action as JSON-ready data (empty fields left out)."""
        out: dict[str, Any] = {"kind": self.kind.value, "unit": self.unit, "target": self.target}
        if self.side is not None:
            out["side"] = self.side.value
        if self.id:
            out["id"] = self.id
        if self.enhancements:
            out["enhancements"] = [e.value for e in self.enhancements]
        if self.aim:
            out["aim"] = self.aim
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        """Rebuild an action saved by ``to_json``."""
        side = data.get("side")
        return cls(ActionKind(data["kind"]), str(data.get("unit", "")), str(data.get("target", "")),
                   Side(side) if side else None, str(data.get("id", "")),
                   tuple(Enhancement(e) for e in data.get("enhancements", ())), str(data.get("aim", "")))

    def describe(self) -> str:
        """The row in words, for messages: ``A1 attack B7``."""
        if self.kind is ActionKind.COUNCIL:
            return f"council {self.target}"
        return f"{self.unit} {self.kind.value} {self.target}".strip()


@dataclass(frozen=True, slots=True)
class Reaction:
    """A standing reaction: before an enemy action matching ``when``, ``unit`` uses ``ability``."""

    unit: str
    ability: str
    when: Trigger = Trigger.ATTACKED
    within: int = 1  # for ``near``: the acting enemy unit within this many hexes of ``unit``

    def to_json(self) -> dict[str, Any]:
        """The reaction as JSON-ready data."""
        return {"unit": self.unit, "ability": self.ability, "when": self.when.value, "within": self.within}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reaction:
        """Rebuild a reaction saved by ``to_json``."""
        return cls(str(data["unit"]), str(data["ability"]), Trigger(data.get("when", "attacked")),
                   int(data.get("within", 1)))


@dataclass(frozen=True, slots=True)
class Placement:
    """A unit deployed on a hex (the deployment window)."""

    unit: str
    at: str

    def to_json(self) -> dict[str, Any]:
        """The placement as JSON-ready data."""
        return {"unit": self.unit, "at": self.at}


@dataclass(frozen=True, slots=True)
class WodOrders:
    """One window's orders: the acting player's actions and whether her turn ends after them, every
    player's standing reactions and deployment, and who surrenders."""

    actions: tuple[Action, ...] = ()
    end_turn: bool = True
    reactions: Mapping[str, tuple[Reaction, ...]] = field(default_factory=dict)
    deploy: Mapping[str, tuple[Placement, ...]] = field(default_factory=dict)
    surrender: tuple[str, ...] = ()


def orders_to_json(orders: WodOrders) -> dict[str, Any]:
    """Orders as JSON-ready data (history rows, replays)."""
    return {
        "actions": [a.to_json() for a in orders.actions], "end_turn": orders.end_turn,
        "reactions": {s: [r.to_json() for r in rs] for s, rs in sorted(orders.reactions.items())},
        "deploy": {s: [p.to_json() for p in ps] for s, ps in sorted(orders.deploy.items())},
        "surrender": list(orders.surrender),
    }


def orders_from_json(data: Mapping[str, Any]) -> WodOrders:
    """Rebuild orders saved by ``orders_to_json``."""
    return WodOrders(
        actions=tuple(Action.from_json(a) for a in data.get("actions", ())),
        end_turn=bool(data.get("end_turn", True)),
        reactions={str(s): tuple(Reaction.from_json(r) for r in rs) for s, rs in data.get("reactions", {}).items()},
        deploy={str(s): tuple(Placement(str(p["unit"]), str(p["at"])) for p in ps)
                for s, ps in data.get("deploy", {}).items()},
        surrender=tuple(str(s) for s in data.get("surrender", ())),
    )


def merge_orders(parts: Mapping[str, WodOrders]) -> WodOrders:
    """One window's orders from each seat's part: the actions of the parts that have any (the acting
    player's), each seat's reactions and deployment, every surrender; the turn ends unless a part
    with actions says it does not."""
    actions: list[Action] = []
    end = True
    reactions: dict[str, tuple[Reaction, ...]] = {}
    deploy: dict[str, tuple[Placement, ...]] = {}
    surrender: list[str] = []
    for part in parts.values():
        actions += part.actions
        end = end and part.end_turn
        reactions.update(part.reactions)
        deploy.update(part.deploy)
        surrender += [s for s in part.surrender if s not in surrender]
    return WodOrders(tuple(actions), end, reactions, deploy, tuple(surrender))
