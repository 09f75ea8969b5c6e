"""The structured event log: what happened in a turn, as data and as plain sentences.

Every event has a kind (an enum of its ruleset, shared with the tests), the turn, a
sentence a player understands, and data: every roll with its key, every bonus by name,
every total and result. The sentence and the JSON are built only when asked for, so a
simulation of thousands of matches does not pay for text nobody reads.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from sheets_gm.engine.core.grid import Coord


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
    """One line of the match log; ``text`` may be given as a function that renders it on demand."""

    __slots__ = ("_text", "data", "kind", "turn")

    def __init__(
        self, turn: int, kind: Enum, text: str | Callable[[], str], data: dict[str, Any] | None = None
    ) -> None:
        self.turn = turn
        self.kind = kind
        self._text = text
        self.data: dict[str, Any] = data if data is not None else {}

    @property
    def text(self) -> str:
        """The sentence a player reads."""
        if not isinstance(self._text, str):
            self._text = self._text()
        return self._text

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data."""
        return {"turn": self.turn, "kind": self.kind.value, "text": self.text, "data": json_ready(self.data)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.turn, self.kind, self.text))

    def __repr__(self) -> str:
        return f"Event(turn={self.turn}, kind={self.kind.value}, text={self.text!r})"


def render_log(events: list[Event]) -> str:
    """The events as sentences, one per line, each with its turn."""
    return "\n".join(f"Turn {e.turn}: {e.text}" for e in events)
