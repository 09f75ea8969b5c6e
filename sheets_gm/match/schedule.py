"""The deadline schedule: at which local times (and on which weekdays) a turn's orders close."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sheets_gm.sync.deadline import ScheduleRule, stamp_deadline

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class ScheduleError(ValueError):
    """A deadline schedule that cannot be used: bad time, weekday or time zone."""


@dataclass(frozen=True, slots=True)
class DeadlineSchedule:
    """Orders close at each of ``times`` on each of ``days`` (0 = Monday), in ``zone``.

    An empty schedule means no deadline: a window resolves when every seat it waits for is ready or
    when the GM forces it."""

    times: tuple[time, ...] = ()
    days: tuple[int, ...] = tuple(range(7))
    zone: str = "UTC"

    @classmethod
    def parse(cls, times: Sequence[str], days: Sequence[str] = (), zone: str = "UTC",
              *, where: str = "[deadlines]") -> DeadlineSchedule:
        """A schedule from ``["20:00"]``-style times, ``["mon", "thu"]``-style days and an IANA zone."""
        parsed_times: list[time] = []
        for text in times:
            try:
                hour, minute = (int(part) for part in str(text).strip().split(":"))
                parsed_times.append(time(hour, minute))
            except ValueError:
                raise ScheduleError(f"{where} times: {text!r} is not a time of day; write it as HH:MM, "
                                    "e.g. \"20:00\"") from None
        parsed_days: list[int] = []
        for text in days:
            key = str(text).strip().lower()[:3]
            if key not in WEEKDAYS:
                raise ScheduleError(f"{where} days: {text!r} is not a weekday; use {', '.join(WEEKDAYS)}")
            parsed_days.append(WEEKDAYS.index(key))
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ScheduleError(f"{where} timezone: {zone!r} is not a time zone; use an IANA name such as "
                                "\"Europe/Paris\" or \"UTC\"") from None
        return cls(tuple(sorted(set(parsed_times))), tuple(sorted(set(parsed_days))) or tuple(range(7)), zone)

    @property
    def empty(self) -> bool:
        """True when turns have no deadline."""
        return not self.times

    def next_after(self, now: datetime) -> datetime | None:
        """The first deadline strictly after ``now`` (None when the schedule is empty)."""
        if self.empty:
            return None
        zone = ZoneInfo(self.zone)
        local = (now if now.tzinfo else now.replace(tzinfo=UTC)).astimezone(zone)
        for offset in range(8):
            day = local.date() + timedelta(days=offset)
            if day.weekday() not in self.days:
                continue
            for at in self.times:
                moment = datetime.combine(day, at, tzinfo=zone)
                if moment > local:
                    return moment
        raise AssertionError("a non-empty weekly schedule always has a deadline within 8 days")

    def next_deadline(self, now: datetime) -> str:
        """The next deadline as the engine record keeps it ('' when there is none): ISO text with
        its UTC offset and the zone, ``2026-11-23T20:00+01:00[Europe/Paris]``."""
        moment = self.next_after(now)
        return "" if moment is None else stamp_deadline(moment, self.zone)

    def remembered(self) -> str:
        """The schedule as a match's record remembers the one it applied: ``none`` without deadlines, else its
        words (``describe``), which name every time, day and the zone, so two schedules that differ read apart.

        >>> DeadlineSchedule().remembered(), DeadlineSchedule.parse(["20:00"], ["thu", "mon"], "UTC").remembered()
        ('none', 'every Mon, Thu at 20:00 (UTC)')
        """
        return "none" if self.empty else self.describe()

    def rule(self) -> ScheduleRule:
        """The schedule as a poll applies it to a running match (``sync.life.deadline_change``)."""
        return ScheduleRule(self.remembered(), self.describe(), self.next_deadline)

    def describe(self) -> str:
        """The schedule in words, for the settings tab and ``status``."""
        if self.empty:
            return "no deadline: a turn resolves when everyone who plays it is ready, or when the GM resolves it"
        times = ", ".join(t.strftime("%H:%M") for t in self.times)
        days = "every day" if len(self.days) == 7 else "every " + ", ".join(WEEKDAYS[d].title() for d in self.days)
        return f"{days} at {times} ({self.zone})"
