"""The ``--watch`` loop: poll, back off while nothing changes, wake up for the deadline."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from sheets_gm.sheets.backend import SheetUnavailableError
from sheets_gm.sync.deadline import deadline_moment


class Polled(Protocol):
    """What the watch loop needs of a poll's report."""

    @property
    def resolved(self) -> bool: ...
    @property
    def feedback_written(self) -> int: ...
    @property
    def deadline(self) -> str: ...
    @property
    def finished(self) -> bool: ...


R = TypeVar("R", bound=Polled)


class Waiter(Protocol):
    """What the loop waits on: ``threading.Event`` (set by Ctrl-C) or a fake in tests."""

    def is_set(self) -> bool:
        """True once the loop should stop."""
        ...

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds or until set; True if set."""
        ...


def seconds_until(deadline: str, now: datetime) -> float | None:
    """Seconds from ``now`` to an ISO deadline (None when there is none or it cannot be read)."""
    moment = deadline_moment(deadline)
    return None if moment is None else (moment - now).total_seconds()


def next_delay(report: Polled, delay: float, *, interval: float, max_interval: float, now: datetime) -> float:
    """How long to wait before the next poll.

    Back to ``interval`` when the poll changed something (a resolution, a feedback cell);
    otherwise twice the last wait, up to ``max_interval``; never past the turn's deadline."""
    changed = report.resolved or report.feedback_written > 0
    wait = interval if changed else min(delay * 2, max_interval)
    until = seconds_until(report.deadline, now)
    if until is not None and until >= 0:
        wait = min(wait, max(until + 1.0, interval))
    return wait


def watch(step: Callable[[], R], stop: Waiter, *, interval: float, max_interval: float,
          clock: Callable[[], datetime] = lambda: datetime.now(UTC),
          on_report: Callable[[R, float], None] = lambda report, wait: None,
          on_unavailable: Callable[[SheetUnavailableError, float], None] = lambda error, wait: None,
          ) -> R | None:
    """Poll until the match is over or ``stop`` is set; returns the last report.

    The first poll is at once and the next one ``interval`` later, as after any change: the back-off starts from
    there. Google being unavailable (after the retries of one poll) does not end the loop: it
    waits, backing off, and tries again. Any other error ends it (the GM must act)."""
    delay = interval / 2  # the first idle poll doubles it to ``interval``: the watch just started, as after a change
    last: R | None = None
    while not stop.is_set():
        try:
            last = step()
        except SheetUnavailableError as exc:
            delay = min(delay * 2, max_interval)
            on_unavailable(exc, delay)
            stop.wait(delay)
            continue
        if last.finished:
            on_report(last, 0.0)
            break
        delay = next_delay(last, delay, interval=interval, max_interval=max_interval, now=clock())
        on_report(last, delay)
        stop.wait(delay)
    return last
