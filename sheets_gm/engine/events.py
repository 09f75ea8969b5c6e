"""The structured event log: what happened in a turn, as data and as plain sentences.

Every event has a kind (an enum of its ruleset, shared with the tests), the turn, a
sentence a player understands, and data: every roll with its key, every bonus by name,
every total and result. The sentence and the JSON are built only when asked for, so a
simulation of thousands of matches does not pay for text nobody reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

from sheets_gm.engine.grid import Coord


def json_ready(value: Any) -> Any:
    """``value`` with every object that has ``to_json`` (a battle side) or ``label`` (a tile) as plain data."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, Coord):
        return value.label
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value


class Event:
    """One line of the match log; ``text`` may be given as a function that renders it on demand.

    ``audience``: the seats that may read it (Win or Die's hidden unit moving, a Champions
    fight seen only by the players on its tile, a Coalition side's private order results);
    None, the default, is public, and every event of the guild game is. An empty audience is for the GM
    alone. Only ``visible_to`` decides what a log shows."""

    __slots__ = ("_text", "audience", "data", "kind", "turn")

    def __init__(
        self, turn: int, kind: Enum, text: str | Callable[[], str], data: dict[str, Any] | None = None,
        audience: frozenset[str] | None = None,
    ) -> None:
        self.turn = turn
        self.kind = kind
        self._text = text
        self.data: dict[str, Any] = data if data is not None else {}
        if audience is not None:
            if isinstance(audience, str):  # "Bo" would let the seat "B" read it: a seat is matched whole
                raise TypeError(f"an event's audience is a set of seats, not the text {audience!r}")
            audience = frozenset(audience)
        self.audience = audience

    @property
    def text(self) -> str:
        """The sentence a player reads."""
        if not isinstance(self._text, str):
            self._text = self._text()
        return self._text

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data (``audience`` only for a private event)."""
        out = {"turn": self.turn, "kind": self.kind.value, "text": self.text, "data": json_ready(self.data)}
        if self.audience is not None:
            out["audience"] = sorted(self.audience)
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.turn, self.kind, self.text))

    def __repr__(self) -> str:
        return f"Event(turn={self.turn}, kind={self.kind.value}, text={self.text!r})"


def kind_words(kind: Enum | str) -> str:
    """An event's kind as the Log's Kind column shows it: its id in words (an enum member's text value, or its name
    when its value is not text: ``Enum("Kind", "MOVE END")``, as ``new-game`` writes it, numbers its members).

    >>> kind_words("order_rejected"), kind_words("undo"), kind_words(Enum("Kind", "TURN_ENDED GM").TURN_ENDED)
    ('order rejected', 'undo', 'turn ended')
    """
    value = kind if not isinstance(kind, Enum) else kind.value if isinstance(kind.value, str) else kind.name.lower()
    return str(value).replace("_", " ")


def visible_to(events: Iterable[Event], seat: str | None) -> list[Event]:
    """The events ``seat`` may read; ``seat=None`` is the public log (public events only).

    >>> from enum import Enum
    >>> class K(Enum):
    ...     MOVE = "move"
    >>> secret = Event(1, K.MOVE, "A hidden unit moves to C3.", audience=frozenset({"Bo"}))
    >>> log = [Event(1, K.MOVE, "Ann moves."), secret]
    >>> [e.text for e in visible_to(log, None)], [e.text for e in visible_to(log, "Bo")]
    (['Ann moves.'], ['Ann moves.', 'A hidden unit moves to C3.'])
    """
    return [e for e in events if e.audience is None or (seat is not None and seat in e.audience)]
