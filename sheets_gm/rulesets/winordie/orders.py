"""Win or Die orders: the acting player's actions (one per row, in order), each player's standing
reactions, deployments and surrenders; with their JSON codecs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sheets_gm.rulesets.winordie.enums import ActionKind, Enhancement, Side, Trigger


def numbered(actions: Sequence[Action]) -> list[tuple[int, Action]]:
    """Each action with the number of the sheet row it was typed in (its place in the list unless it says).

    >>> [n for n, _ in numbered([Action(ActionKind.MOVE, "A1", "C4"), Action(ActionKind.MOVE, "A2", "C5", row=3)])]
    [1, 3]
    """
    return [(a.row or n, a) for n, a in enumerate(actions, start=1)]


def action_row(n: int) -> str:
    """The n-th action (from 1) of the acting player's list as her sheet's row and the engine's feedback name
    it: ``Row 3``."""
    return f"Row {n}"


def reaction_row(n: int) -> str:
    """The n-th standing reaction row (from 1) as her sheet's row and the engine's verdicts name it: ``Reaction 2``."""
    return f"Reaction {n}"


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
    # The sheet's row it was typed in (``Row 3``) where that is not its place in the list (an empty row above
    # it); 0: its place. Messages and the rows a resolution keeps name the row the player sees.
    row: int = 0

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
        if self.row:
            out["row"] = self.row
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        """Rebuild an action saved by ``to_json``."""
        side = data.get("side")
        return cls(ActionKind(data["kind"]), str(data.get("unit", "")), str(data.get("target", "")),
                   Side(side) if side else None, str(data.get("id", "")),
                   tuple(Enhancement(e) for e in data.get("enhancements", ())), str(data.get("aim", "")),
                   int(data.get("row", 0)))

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
    row: int = 0  # the reaction row it was typed in (0: its place in the list), so its verdicts reach that row

    def trigger_words(self) -> str:
        """When it fires, in a player's words: ``before an enemy attack on Ann-7``."""
        if self.when is Trigger.ATTACKED:
            return f"before an enemy attack on {self.unit}"
        if self.when is Trigger.NEAR:
            return f"before an enemy action by a unit within {self.within} of {self.unit}"
        return "before any enemy action"

    def to_json(self) -> dict[str, Any]:
        """The reaction as JSON-ready data."""
        out: dict[str, Any] = {"unit": self.unit, "ability": self.ability, "when": self.when.value,
                               "within": self.within}
        if self.row:
            out["row"] = self.row
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reaction:
        """Rebuild a reaction saved by ``to_json``."""
        return cls(str(data["unit"]), str(data["ability"]), Trigger(data.get("when", "attacked")),
                   int(data.get("within", 1)), int(data.get("row", 0)))


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
    """One window's orders, by the seat that wrote them: actions (only the acting player's resolve),
    the seats that hold their turn open after their rows (step mode: more rows to come), standing
    reactions, deployments, and who surrenders."""

    actions: Mapping[str, tuple[Action, ...]] = field(default_factory=dict)
    hold: tuple[str, ...] = ()
    reactions: Mapping[str, tuple[Reaction, ...]] = field(default_factory=dict)
    deploy: Mapping[str, tuple[Placement, ...]] = field(default_factory=dict)
    surrender: tuple[str, ...] = ()


def orders_to_json(orders: WodOrders) -> dict[str, Any]:
    """Orders as JSON-ready data (history rows, replays)."""
    return {
        "actions": {s: [a.to_json() for a in rows] for s, rows in sorted(orders.actions.items())},
        "hold": list(orders.hold),
        "reactions": {s: [r.to_json() for r in rs] for s, rs in sorted(orders.reactions.items())},
        "deploy": {s: [p.to_json() for p in ps] for s, ps in sorted(orders.deploy.items())},
        "surrender": list(orders.surrender),
    }


def orders_from_json(data: Mapping[str, Any]) -> WodOrders:
    """Rebuild orders saved by ``orders_to_json``."""
    return WodOrders(
        actions={str(s): tuple(Action.from_json(a) for a in rows) for s, rows in data.get("actions", {}).items()},
        hold=tuple(str(s) for s in data.get("hold", ())),
        reactions={str(s): tuple(Reaction.from_json(r) for r in rs) for s, rs in data.get("reactions", {}).items()},
        deploy={str(s): tuple(Placement(str(p["unit"]), str(p["at"])) for p in ps)
                for s, ps in data.get("deploy", {}).items()},
        surrender=tuple(str(s) for s in data.get("surrender", ())),
    )


def merge_orders(parts: Mapping[str, WodOrders]) -> WodOrders:
    """One window's orders from each seat's part (keyed by the seat that wrote it): what a part says
    for its own seat is kept, whatever it says for another seat is dropped."""
    actions: dict[str, tuple[Action, ...]] = {}
    hold: list[str] = []
    reactions: dict[str, tuple[Reaction, ...]] = {}
    deploy: dict[str, tuple[Placement, ...]] = {}
    surrender: list[str] = []
    for seat, part in parts.items():
        if seat in part.actions:
            actions[seat] = part.actions[seat]
        if seat in part.reactions:
            reactions[seat] = part.reactions[seat]
        if seat in part.deploy:
            deploy[seat] = part.deploy[seat]
        hold += [seat] if seat in part.hold else []
        surrender += [seat] if seat in part.surrender else []
    return WodOrders(actions, tuple(hold), reactions, deploy, tuple(surrender))
