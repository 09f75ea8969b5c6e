"""sync --watch: back-off while nothing changes, never past the deadline, outages ridden out, clean stop."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest

from sheets_gm.running.watch import next_delay, watch
from sheets_gm.sheets.backend import SheetAccessError, SheetUnavailableError
from sheets_gm.sync.poll import WindowReport

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


class FakeStop:
    """A stop flag whose waits are recorded instead of slept; set after ``polls`` polls or by the test."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.flag = False

    def is_set(self) -> bool:
        return self.flag

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(float(timeout or 0))
        return self.flag


def scripted(reports: list[WindowReport | Exception], stop: FakeStop) -> Callable[[], WindowReport]:
    items: Iterator[WindowReport | Exception] = iter(reports)

    def step() -> WindowReport:
        item = next(items, None)
        if item is None:
            stop.flag = True  # what Ctrl-C does: the loop ends after this poll
            return WindowReport(window="turn 9")
        if isinstance(item, Exception):
            raise item
        return item

    return step


def idle(deadline: str = "") -> WindowReport:
    return WindowReport(window="turn 3", deadline=deadline)


def test_idle_polls_back_off_doubling_up_to_the_maximum_and_a_change_resets_it() -> None:
    stop = FakeStop()
    changed = WindowReport(window="turn 3", feedback_written=2)
    resolved = WindowReport(window="turn 3", resolved=True)
    reports: list[WindowReport | Exception] = [idle(), idle(), idle(), idle(), idle(), changed, idle(), resolved]
    last = watch(scripted(reports, stop), stop, interval=10, max_interval=60, clock=lambda: NOW)
    # Issue 54: the first wait is the interval (the README's "polls every minute"), not twice it
    assert stop.waits == [10, 20, 40, 60, 60, 10, 20, 10, 20]
    assert last is not None and last.window == "turn 9"


def test_the_wait_never_runs_past_the_turns_deadline() -> None:
    deadline = (NOW + timedelta(seconds=25)).isoformat()
    assert next_delay(idle(deadline), 40, interval=10, max_interval=600, now=NOW) == 26
    # ...but never below the interval, and a passed or unreadable deadline does not shorten it.
    soon = (NOW + timedelta(seconds=2)).isoformat()
    assert next_delay(idle(soon), 40, interval=10, max_interval=600, now=NOW) == 10
    assert next_delay(idle((NOW - timedelta(hours=1)).isoformat()), 40, interval=10, max_interval=600, now=NOW) == 80
    assert next_delay(idle("not a date"), 40, interval=10, max_interval=600, now=NOW) == 80


def test_the_loop_ends_when_the_match_is_over_without_waiting() -> None:
    stop = FakeStop()
    seen: list[tuple[str, float]] = []
    over = WindowReport(window="turn 31", resolved=True, finished=True)
    last = watch(scripted([idle(), over], stop), stop, interval=5, max_interval=50,
                 clock=lambda: NOW, on_report=lambda r, wait: seen.append((r.window, wait)))
    assert last is over
    assert seen == [("turn 3", 5), ("turn 31", 0.0)]
    assert stop.waits == [5]


def test_google_outages_are_waited_out_with_back_off_and_the_loop_carries_on() -> None:
    stop = FakeStop()
    errors: list[float] = []
    outage = SheetUnavailableError("Google answered 503 five times")
    watch(scripted([outage, outage, idle()], stop), stop, interval=10, max_interval=30, clock=lambda: NOW,
          on_unavailable=lambda e, wait: errors.append(wait))
    assert errors == [10, 20]
    assert stop.waits[:3] == [10, 20, 30]


def test_an_error_the_gm_must_fix_ends_the_loop() -> None:
    stop = FakeStop()
    with pytest.raises(SheetAccessError):
        watch(scripted([idle(), SheetAccessError("not shared with gm-bot@example")], stop), stop,
              interval=10, max_interval=30, clock=lambda: NOW)


def test_a_stop_before_the_first_poll_polls_nothing() -> None:
    stop = FakeStop()
    stop.flag = True
    assert watch(scripted([idle()], stop), stop, interval=1, max_interval=1) is None
    assert stop.waits == []
