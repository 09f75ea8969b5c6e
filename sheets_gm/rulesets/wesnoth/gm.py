"""The GM's logged corrections for a Wesnoth match: set a player's gold, a unit's wounds, a village's owner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sheets_gm.engine.events import Event
from sheets_gm.engine.grid import CoordError
from sheets_gm.engine.ruleset import GmOption
from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import WesnothState

GM_OPTIONS = (
    GmOption("gold", "PLAYER=N", "set a player's gold"),
    GmOption("wounds", "UNIT=N", "set a unit's wounds (its hit points or more kills it, with no kill gold)"),
    GmOption("village", "HEX=PLAYER", "set a village's owner (PLAYER 'none' for nobody)"),
)


class GmEventError(ValueError):
    """A GM event that does not fit the state: the message names what is wrong."""


@dataclass(frozen=True, slots=True)
class Adjustment:
    """One correction: ``what`` is gold, wounds or village; ``key`` the player, unit or hex; ``value``."""

    what: str
    key: str
    value: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "key": self.key, "value": self.value, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Adjustment:
        return cls(str(data["what"]), str(data["key"]), str(data["value"]), str(data.get("reason", "")))


def events_from_options(values: Mapping[str, Sequence[str]], reason: str) -> list[Adjustment]:
    """Adjustments from ``adjust``'s options; ValueError naming the option and its form."""
    if not reason.strip():
        raise ValueError('--reason is required, e.g. --reason "gold miscounted"; it is written to the log')
    out = []
    for option in GM_OPTIONS:
        for text in values.get(option.flag, ()):
            key, sep, value = text.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise ValueError(f"--{option.flag} {text!r}: write {option.metavar}")
            if option.flag in ("gold", "wounds") and not value.strip().lstrip("-").isdigit():
                raise ValueError(f"--{option.flag} {text!r}: the value is a whole number")
            out.append(Adjustment(option.flag, key.strip(), value.strip(), reason))
    if not out:
        raise ValueError("nothing to change: give --gold PLAYER=N, --wounds UNIT=N or --village HEX=PLAYER")
    return out


def apply_gm_event(rules: WesnothRules, state: WesnothState, event: Adjustment) -> tuple[WesnothState, list[Event]]:
    """The state with the correction made, and its log line; GmEventError if it does not fit."""
    note = f" ({event.reason})" if event.reason else ""
    if event.what == "gold":
        player = state.player(event.key)
        if player is None:
            raise GmEventError(f"no player {event.key!r}; the players are {', '.join(p.name for p in state.players)}")
        players = tuple(replace(p, gold=int(event.value)) if p.name == event.key else p for p in state.players)
        return state.evolve(players=players), [Event(state.round, EventKind.GM, f"GM sets {event.key}'s gold to "
                                                     f"{event.value}{note}")]
    if event.what == "wounds":
        unit = state.unit(event.key)
        if unit is None:
            raise GmEventError(f"no unit {event.key!r}")
        wounds = max(0, int(event.value))
        if wounds >= rules.utype(unit).hitpoints:
            units = tuple(u for u in state.units if u.id != unit.id)
            return state.evolve(units=units), [Event(state.round, EventKind.GM, f"GM removes {unit.id}{note}")]
        units = tuple(replace(u, wounds=wounds) if u.id == unit.id else u for u in state.units)
        return state.evolve(units=units), [Event(state.round, EventKind.GM, f"GM sets {unit.id}'s wounds to "
                                                 f"{wounds}{note}")]
    if event.what == "village":
        try:
            h = rules.board.grid.parse(event.key)
        except CoordError as exc:
            raise GmEventError(str(exc)) from None
        if h not in rules.board.villages:
            raise GmEventError(f"{h.label} is not a village")
        owner = None if event.value.lower() == "none" else event.value
        if owner is not None and state.player(owner) is None:
            raise GmEventError(f"no player {owner!r}")
        villages = dict(state.villages)
        villages.pop(h, None)
        if owner is not None:
            villages[h] = owner
        ordered = tuple(sorted(villages.items(), key=lambda kv: (kv[0].row, kv[0].col)))
        return state.evolve(villages=ordered), [Event(state.round, EventKind.GM, f"GM gives the village on {h.label} "
                                                      f"to {owner or 'nobody'}{note}")]
    raise GmEventError(f"unknown correction {event.what!r}; use gold, wounds or village")
