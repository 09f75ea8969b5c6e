"""The structured event log: what happened in a turn, as data and as plain sentences.

Every event has a kind (an enum of its ruleset, shared with the tests), the turn, a
sentence a player understands, and JSON-ready data: every roll with its key, every bonus
by name, every total and result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the match log."""

    turn: int
    kind: Enum
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data."""
        return {"turn": self.turn, "kind": self.kind.value, "text": self.text, "data": self.data}


def render_log(events: list[Event]) -> str:
    """The events as numbered sentences, one per line, grouped by turn."""
    return "\n".join(f"Turn {e.turn}: {e.text}" for e in events)
