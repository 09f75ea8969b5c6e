"""The GM's logged corrections for a Wesnoth match: set a player's gold, a unit's wounds, a village's owner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sheets_gm.engine.words import counted
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.resolve.upkeep import end_turn, leaders_end
from sheets_gm.rulesets.wesnoth.resolve.work import TurnWork
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import WesnothState

GM_OPTIONS = (
    kit.GmOption("gold", "PLAYER=N", "set a player's gold"),
    kit.GmOption("wounds", "UNIT=N", "set a unit's wounds (its hit points or more kills it, with no kill gold)"),
    kit.GmOption("village", "HEX=PLAYER", "set a village's owner (PLAYER 'none' for nobody)"),
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
            if option.flag in ("gold", "wounds") and not value.strip().lstrip("-").isdecimal():
                raise ValueError(f"--{option.flag} {text!r}: the value is a whole number")
            out.append(Adjustment(option.flag, key.strip(), value.strip(), reason))
    if not out:
        raise ValueError("nothing to change: give --gold PLAYER=N, --wounds UNIT=N or --village HEX=PLAYER")
    return out


def apply_gm_event(rules: WesnothRules, state: WesnothState, event: Adjustment) -> tuple[WesnothState, list[kit.Event]]:
    """The state with the correction made, and its log line; GmEventError if it does not fit."""
    note = f" ({event.reason})" if event.reason else ""
    if event.what == "gold":
        player = state.player(event.key)
        if player is None:
            raise GmEventError(f"no player {event.key!r}; the players are {', '.join(p.name for p in state.players)}")
        if int(event.value) < 0:
            raise GmEventError(f"--gold {event.key}={event.value}: gold is 0 or more (a player never owes gold)")
        players = tuple(replace(p, gold=int(event.value)) if p.name == event.key else p for p in state.players)
        return state.evolve(players=players), [kit.Event(state.round, EventKind.GM, f"GM sets {event.key}'s gold to "
                                                         f"{event.value}{note}")]
    if event.what == "wounds":
        unit = state.unit(event.key)
        if unit is None:
            raise GmEventError(f"no unit {event.key!r}")
        wounds = int(event.value)
        if wounds < 0:
            raise GmEventError(f"--wounds {event.key}={event.value}: wounds are 0 (unhurt) or more")
        if wounds >= rules.utype(unit).hitpoints:
            units = tuple(u for u in state.units if u.id != unit.id)
            removed = state.evolve(units=units)
            return game_end(removed, [kit.Event(state.round, EventKind.GM, f"GM removes {unit.id}{note}")])
        units = tuple(replace(u, wounds=wounds) if u.id == unit.id else u for u in state.units)
        return state.evolve(units=units), [kit.Event(state.round, EventKind.GM, f"GM sets {unit.id}'s wounds to "
                                                     f"{wounds}{note}")]
    if event.what == "village":
        try:
            h = rules.board.grid.parse(event.key)
        except kit.CoordError as exc:
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
        return state.evolve(villages=ordered), [kit.Event(state.round, EventKind.GM,
                                                          f"GM gives the village on {h.label} "
                                                          f"to {owner or 'nobody'}{note}")]
    raise GmEventError(f"unknown correction {event.what!r}; use gold, wounds or village")


def game_end(state: WesnothState, events: list[kit.Event]) -> tuple[WesnothState, list[kit.Event]]:
    """The state after a GM's change, ended if the living leaders now all belong to one team (the rules' one end
    check, ``leaders_end``, as a resolution applies it), with ``events`` and the game's last line."""
    if state.finished:
        return state, events
    teams = {p.team for p in state.players for u in state.units if u.leader and u.owner == p.name}
    ended = leaders_end(teams, state.team_and_players)
    if ended is None:
        return state, events
    winner, text = ended
    return (state.evolve(finished=True, winner=winner),
            [*events, kit.Event(state.round, EventKind.GAME_OVER, text, {"winner": winner})])


def concede(rules: WesnothRules, state: WesnothState, seat: str, reason: str) -> tuple[WesnothState, list[kit.Event]]:
    """``seat`` concedes: she leaves the game as a conquered player does, with her units, her villages unowned;
    the game ends if the living leaders then all belong to one team. Conceding in her own turn ends that turn."""
    if state.finished:
        raise GmEventError("the game is over already; nobody can concede")
    player = state.player(seat)
    if player is None or player.out:
        raise GmEventError(f"{seat} is out of the game already" if player is not None else f"no player {seat!r}")
    gone = [u.id for u in state.units if u.owner == seat]
    lost = [h for h, owner in state.villages if owner == seat]
    left = state.evolve(players=tuple(replace(p, out=True, conceded=True) if p.name == seat else p
                                      for p in state.players),
                        units=tuple(u for u in state.units if u.owner != seat),
                        villages=tuple((h, o) for h, o in state.villages if o != seat))
    events = [kit.Event(state.round, EventKind.GM, f"GM: {seat} concedes ({reason}) and leaves the game with "
                                               f"{counted(len(gone), 'unit')}; {counted(len(lost), 'village')} "
                                               "unowned", {"player": seat, "units": gone})]
    left, events = game_end(left, events)
    if left.finished or state.acting_player.name != seat:
        return left, events
    work = TurnWork(rules, left, kit.TurnDice(b"", left.turn))  # ending a turn rolls no die
    end_turn(work)
    done = work.state()
    return done, [*events, *work.events]
