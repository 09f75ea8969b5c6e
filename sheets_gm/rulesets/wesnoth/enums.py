"""The kinds of event in a Wesnoth log."""

from __future__ import annotations

from enum import StrEnum


class EventKind(StrEnum):
    """What a log line reports."""

    MOVED = "moved"
    VILLAGE = "village"
    ATTACK = "attack"
    KILLED = "killed"
    ADVANCED = "advanced"
    RESTED = "rested"
    RECRUITED = "recruited"
    CONQUERED = "conquered"
    REFUSED = "refused"
    TURN_ENDED = "turn_ended"
    ROUND = "round"
    INCOME = "income"
    GAME_OVER = "game_over"
    GM = "gm"
