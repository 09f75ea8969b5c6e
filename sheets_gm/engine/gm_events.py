"""The GM events every game shares: a seat's concession (``sheets-gm adjust --concede SEAT --reason …``).

A game's own corrections are its own type, read from ``adjust``'s options by its ``gm`` part and applied by its
``Ruleset.apply_gm_event``. A concession is the same in every game: the GM records that a seat gives up, and the
game ends the match as its rules end it (``Ruleset.concede``). So that every writer, replay and check treats both
alike, they go through the functions here: ``apply_gm`` applies either, ``gm_event_to_json`` and
``gm_event_from_json`` store either (a concession as ``{"concession": SEAT, "reason": …}``, which no game's own
codec writes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sheets_gm.engine.events import Event
from sheets_gm.engine.ruleset import GmOption, Resolution, Ruleset

#: ``adjust --concede SEAT``, which every game with GM events accepts.
CONCEDE = GmOption("concede", "SEAT", "the seat concedes: the match ends as the game's rules end it (logged with "
                                      "--reason; undo takes it back while the match plays on, not once it has "
                                      "ended it)", repeatable=False)


@dataclass(frozen=True, slots=True)
class Concession:
    """A seat gives up, as the GM records it, with why (written to the Log)."""

    seat: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        """The concession as JSON-ready data."""
        return {"concession": self.seat, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Concession:
        """Rebuild a concession saved by ``to_json`` (KeyError if malformed)."""
        return cls(str(data["concession"]), str(data.get("reason", "")))


def concession_of(seats: Sequence[str], values: Sequence[str], reason: str) -> Concession:
    """The concession ``adjust --concede`` asks for; ValueError naming what is wrong and what is accepted.

    >>> concession_of(("red", "blue"), ["Blue"], "left the league")
    Concession(seat='blue', reason='left the league')
    >>> concession_of(("red", "blue"), ["green"], "x")
    Traceback (most recent call last):
    ...
    ValueError: --concede 'green': there is no seat 'green'; the seats are red and blue
    """
    if len(values) != 1:
        raise ValueError("--concede is given once: one seat concedes in an adjust")
    if not reason.strip():
        raise ValueError('--reason is required with --concede, e.g. --reason "Bo conceded on the forum"; it is '
                         "written to the log")
    typed = values[0].strip()
    seat = next((s for s in seats if s.casefold() == typed.casefold()), None)
    if seat is None:
        raise ValueError(f"--concede {values[0]!r}: there is no seat {typed!r}; the seats are "
                         f"{', '.join(seats[:-1])} and {seats[-1]}" if len(seats) > 1 else
                         f"--concede {values[0]!r}: there is no seat {typed!r}")
    return Concession(seat, reason.strip())


#: The data key that marks an event as the GM's (an adjustment and what it led to, an undo, a seat handed to a bot):
#: every seat's View lists the GM's events it may read, as the board's Log does.
BY_GM = "by_gm"


def by_gm(event: Event) -> Event:
    """``event`` marked as the GM's (``BY_GM``)."""
    return Event(event.turn, event.kind, event.text, {**event.data, BY_GM: True}, event.audience)


def apply_gm(rules: Ruleset[Any, Any, Any], state: Any, event: Any) -> Resolution[Any]:
    """A GM event applied: a concession by ``rules.concede``, any other by ``rules.apply_gm_event``; every event
    it logs marked as the GM's (``by_gm``)."""
    done = rules.concede(state, event.seat, event.reason) if isinstance(event, Concession) else \
        rules.apply_gm_event(state, event)
    return replace(done, events=[by_gm(e) for e in done.events])


def gm_event_problem(rules: Ruleset[Any, Any, Any], state: Any, event: Any) -> str:
    """Why a new GM event may not be applied although it fits the rules ('' when it may): a concession names
    a seat, which every seat may read; a game's own event is its ``gm_event_problem``'s to judge."""
    return "" if isinstance(event, Concession) else rules.gm_event_problem(state, event)


def gm_event_to_json(rules: Ruleset[Any, Any, Any], event: Any) -> dict[str, Any]:
    """A GM event as stored in the engine record, the history and the replay."""
    return event.to_json() if isinstance(event, Concession) else dict(rules.gm_event_codec.to_json(event))


def gm_event_from_json(rules: Ruleset[Any, Any, Any], data: Mapping[str, Any]) -> Any:
    """A GM event as ``gm_event_to_json`` stored it (KeyError, ValueError or TypeError if malformed)."""
    return Concession.from_json(data) if "concession" in data else rules.gm_event_codec.from_json(data)
