"""A turn's deadline as the engine record keeps it, and as people read it.

The record keeps the moment as ISO 8601 text with its UTC offset and, in brackets, the
match's time zone (the RFC 9557 form): ``2026-11-23T20:00+01:00[Europe/Paris]``. The offset
fixes the moment; the zone is for people, who read ``Mon 23 Nov, 20:00 (Europe/Paris)``.

>>> describe_deadline("2026-11-23T20:00+01:00[Europe/Paris]")
'Mon 23 Nov, 20:00 (Europe/Paris)'
>>> describe_deadline("2026-11-23T19:00+00:00")
'Mon 23 Nov, 19:00 (UTC)'
>>> describe_deadline("2026-11-23T20:00+05:30")
'Mon 23 Nov, 20:00 (UTC+05:30)'

The hour the clocks go back comes twice: each is told by its offset.

>>> describe_deadline("2026-10-25T02:30+02:00[Europe/Paris]")
'Sun 25 Oct, 02:30 (Europe/Paris, the first 02:30: UTC+02:00)'
>>> describe_deadline("2026-10-25T02:30+01:00[Europe/Paris]")
'Sun 25 Oct, 02:30 (Europe/Paris, the second 02:30: UTC+01:00)'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def stamp_deadline(moment: datetime, zone: str) -> str:
    """The record's text for ``moment`` (aware, in ``zone``)."""
    return f"{moment.isoformat(timespec='minutes')}[{zone}]"


def _split(deadline: str) -> tuple[str, str]:
    iso, _, rest = deadline.strip().partition("[")
    return iso, rest.rstrip("]")


def deadline_moment(deadline: str) -> datetime | None:
    """The moment a deadline names (UTC when it has no offset); None for '' or unreadable text."""
    if not deadline:
        return None
    try:
        moment = datetime.fromisoformat(_split(deadline)[0])
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def describe_deadline(deadline: str) -> str:
    """The deadline as people read it, in the match's time zone: ``Mon 23 Nov, 20:00 (Europe/Paris)``.

    Text that is not a deadline is returned as it is (it was typed by hand into the engine tab)."""
    moment = deadline_moment(deadline)
    if moment is None:
        return deadline
    zone = _split(deadline)[1]
    if not zone:
        zone = _offset(moment)
    elif _twice(moment, zone):  # the hour the clocks go back: which of the two
        zone = f"{zone}, the {('first', 'second')[_twice(moment, zone) - 1]} {moment:%H:%M}: {_offset(moment)}"
    return f"{moment.strftime('%a')} {moment.day} {moment.strftime('%b')}, {moment.strftime('%H:%M')} ({zone})"


def _offset(moment: datetime) -> str:
    """``moment``'s offset from UTC in words: ``UTC``, ``UTC+05:30``."""
    offset = moment.utcoffset()
    if not offset:
        return "UTC"
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _twice(moment: datetime, zone: str) -> int:
    """Which of the two moments its wall time names in ``zone`` ``moment`` is (1 or 2), when that hour comes twice
    (the clocks go back); 0 when it comes once, or the zone is unknown."""
    try:
        local = moment.astimezone(ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError):
        return 0
    if local.replace(fold=0).utcoffset() == local.replace(fold=1).utcoffset():
        return 0
    return 2 if local.fold else 1


@dataclass(frozen=True, slots=True)
class ScheduleRule:
    """The match config's deadline schedule as a poll applies it: as a record remembers it (``remembered``: its
    words, or ``none``), in words for the Settings tab, and its next deadline after a moment ('' for none)."""

    remembered: str
    words: str
    next_deadline: Callable[[datetime], str]
