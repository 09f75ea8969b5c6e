"""A match's deadline schedule as a poll applies it, apart from ``sync.deadline`` (which cron's idle poll imports:
a dataclass there brought ``dataclasses`` and ``inspect`` into every idle poll)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ScheduleRule:
    """The match config's deadline schedule as a poll applies it: as a record remembers it (``remembered``: its
    words, or ``none``), in words for the Settings tab, and its next deadline after a moment ('' for none)."""

    remembered: str
    words: str
    next_deadline: Callable[[datetime], str]
