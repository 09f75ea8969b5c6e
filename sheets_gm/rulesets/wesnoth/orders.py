"""A player's orders for her turn: a row per unit (move, attack, rest, recruit or conquest) and End turn.

Orders hold what the player wrote, as text (hexes, unit ids, types, attack names): the engine
checks each against the board as the row resolves, so a typo is a refused row with a message,
never an error."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def recruit_row(n: int) -> str:
    """The subject of the n-th recruit row (from 1), as the sheet names it and a refusal names it: ``Recruit 2``."""
    return f"Recruit {n}"


@dataclass(frozen=True, slots=True)
class RecruitEntry:
    """One unit to recruit: its type, optionally the castle hex and the id to give it."""

    type: str
    at: str = ""
    id: str = ""

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in (("type", self.type), ("at", self.at), ("id", self.id)) if v}


@dataclass(frozen=True, slots=True)
class UnitOrder:
    """One order row: the unit and what it does.

    ``move`` (a hex) with optional ``via`` waypoints, and/or ``attack`` (a unit id) with ``weapon``
    (an attack's name, or ``name/type``; empty: the best one), ``reroll_below`` (reroll the whole
    attack if it scores fewer hits; 0: never) and ``advance`` ("true" or a class, if it deals the
    final blow); or ``rest``; or ``conquest``; or ``recruit`` (the leader)."""

    unit: str
    move: str = ""
    via: tuple[str, ...] = ()
    attack: str = ""
    weapon: str = ""
    reroll_below: int = 0
    advance: str = ""
    rest: bool = False
    conquest: bool = False
    recruit: tuple[RecruitEntry, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit}
        if self.move:
            out["move"] = self.move
        if self.via:
            out["via"] = list(self.via)
        if self.attack:
            out["attack"] = self.attack
        if self.weapon:
            out["weapon"] = self.weapon
        if self.reroll_below:
            out["reroll_below"] = self.reroll_below
        if self.advance:
            out["advance"] = self.advance
        if self.rest:
            out["rest"] = True
        if self.conquest:
            out["conquest"] = True
        if self.recruit:
            out["recruit"] = [r.to_json() for r in self.recruit]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UnitOrder:
        return cls(
            unit=str(data["unit"]), move=str(data.get("move", "")), via=tuple(str(v) for v in data.get("via", ())),
            attack=str(data.get("attack", "")), weapon=str(data.get("weapon", "")),
            reroll_below=int(data.get("reroll_below", 0)), advance=str(data.get("advance", "")),
            rest=bool(data.get("rest", False)), conquest=bool(data.get("conquest", False)),
            recruit=tuple(RecruitEntry(str(r["type"]), str(r.get("at", "")), str(r.get("id", "")))
                          for r in data.get("recruit", ())),
        )


@dataclass(frozen=True, slots=True)
class TurnOrders:
    """The acting player's rows, in resolution order, and whether her turn ends with them.

    With ``end_turn`` false (a step of the ``step`` mode) the rows resolve and the turn stays hers."""

    player: str = ""
    rows: tuple[UnitOrder, ...] = ()
    end_turn: bool = True
    #: her standing advancement choices (unit id, "" | "true" | a class), from her units tab: what a unit
    #: of hers becomes when it deals a final blow in a counter-attack during another player's turn
    advance_choices: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "rows": [r.to_json() for r in self.rows],
                               "end_turn": self.end_turn}
        if self.advance_choices:
            out["advance_choices"] = [list(pair) for pair in self.advance_choices]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TurnOrders:
        return cls(str(data.get("player", "")), tuple(UnitOrder.from_json(r) for r in data.get("rows", ())),
                   bool(data.get("end_turn", True)),
                   tuple((str(u), str(c)) for u, c in data.get("advance_choices", ())))
