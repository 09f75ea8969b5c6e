"""The time left before a deadline, in the minutes a reader can count on (issue 75): whole minutes rounded down and,
under a minute, "less than a minute", the same in a reminder as it is sent and in ``status``' open window line. It
said "closes in 1 min" with 104 to 113 s left, and "59 s" with 59."""

from __future__ import annotations

import datetime as dt

import pytest

from sheets_gm.commands.polls import open_window_line
from sheets_gm.engine.words import describe_left
from sheets_gm.notify.outbox import EMAIL, Letter
from sheets_gm.notify.send import as_sent

DEADLINE = dt.datetime(2026, 11, 22, 19, tzinfo=dt.UTC)
#: Seconds left, and the words a reader can count on.
LEFT = [(59, "less than a minute"), (60, "1 min"), (104, "1 min"), (113, "1 min"), (119, "1 min"), (120, "2 min")]


@pytest.mark.parametrize(("seconds", "words"), LEFT)
def test_every_reader_is_told_the_minutes_she_can_count_on(seconds: int, words: str) -> None:
    """``describe_left``, a reminder queued nine minutes ahead and sent ``seconds`` before the deadline, and the
    open window line of ``status`` all say ``words`` and no other count."""
    now = DEADLINE - dt.timedelta(seconds=seconds)
    assert describe_left(seconds) == words
    queued = Letter("k", EMAIL, "Ann", "Turn 3 closes in 9 min", "Turn 3 closes in 9 min: Sun 22 Nov, 19:00.", "",
                    until=DEADLINE.isoformat(), left="9 min")
    sent = as_sent(queued, now)
    assert sent.subject == f"Turn 3 closes in {words}", sent.subject
    assert sent.body.startswith(f"Turn 3 closes in {words}:"), sent.body
    line = open_window_line("turn 3", "3", 1, DEADLINE.isoformat(), now)
    assert line.endswith(f"(in {words})"), line
