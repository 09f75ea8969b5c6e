"""Ruling "Mail to the judge": a mail is read for the window open when the judge's mailbox received it, however late
the door reads it. The class, as a property: for every arrival in a match's timeline (windows closed early by the GM,
at a players' deadline then by the judge, two in one poll, one reopened by an undo and closed again), what the door's
record of window ends says of a mail read now agrees with the window open at its arrival: none when that window is
the open one, late when it arrived after that window's deadline, read for no later turn when before it."""

from __future__ import annotations

import datetime as dt

from sheets_gm.running.mailroom.window_ends import Ends, arrived_in_closed, deadline_passed, seen_open

T0 = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)


def at(minutes: int) -> dt.datetime:
    """The moment ``minutes`` after the match's start."""
    return T0 + dt.timedelta(minutes=minutes)


def last(window: str, minutes: int | None = None) -> dict[str, str]:
    """The engine's ``MatchRecord.last``: ``window`` closed at ``minutes`` (None: an undo's, with no moment)."""
    return {"window": window, "by": "sync", **({"at": at(minutes).isoformat()} if minutes is not None else {})}


#: Each window's span: its key, when it opened and closed, and its players' deadline once passed (None: closed
#: before it); then the window open now.
Span = tuple[str, int, int, int | None]


def expected(spans: list[Span], open_key: str, arrival: int) -> str:
    """What the ruling says of a mail that arrived at ``arrival`` and is read now: '' (read for the open window),
    'late' or 'adjudicated'."""
    for key, opened, closed, deadline in spans:
        if opened < arrival <= closed and key != open_key:
            return "late" if deadline is not None and arrival > deadline else "adjudicated"
    return ""


def told(ends: Ends, open_key: str, arrival: int) -> str:
    """What the door's record says of it, in the same words."""
    said = arrived_in_closed(ends, at(arrival), open_key)
    return "" if not said else "late" if "too late for it" in said else "adjudicated"


def walk(ends: Ends, spans: list[Span], open_key: str) -> None:
    """Every arrival from the start to past the last close is told as the ruling says."""
    end = max(closed for _k, _o, closed, _d in spans) + 10
    assert [told(ends, open_key, minute) for minute in range(end)] == \
        [expected(spans, open_key, minute) for minute in range(end)]


def test_each_arrival_is_read_for_the_window_open_then() -> None:
    ends: Ends = {}
    seen_open(ends, "1", "turn 1 · orders", {})  # the door reads a mail during turn 1's movement
    # the GM forces it closed at 10 (its deadline, 100, never came); the judge's window opens, her players' deadline
    # (20) passes, and the first poll past it keeps it
    seen_open(ends, "1/results", "turn 1 · battle results", last("1", 10))
    deadline_passed(ends, "1/results", at(20).isoformat(), "turn 1 · battle results")
    # the judge closes her window at 30, turn 2's movement (taken early) resolves in the same poll; the door, down
    # meanwhile, reads again at 40
    spans: list[Span] = [("1", -1, 10, None), ("1/results", 10, 30, 20), ("2", 30, 30, None)]
    seen_open(ends, "3", "turn 3 · orders", last("2", 30))
    walk(ends, spans, "3")
    # an undo reopens the judge's window: every mail since its first close counts for it again
    seen_open(ends, "1/results", "turn 1 · battle results", last("1"))
    walk(ends, [("1", -1, 10, None), ("1/results", 10, 60, 20)], "1/results")
    # she closes it again at 50, turn 2's movement with it; the door reads at 55
    seen_open(ends, "3", "turn 3 · orders", last("2", 50))
    walk(ends, [("1", -1, 10, None), ("1/results", 10, 50, 20), ("2", 50, 50, None)], "3")


def test_a_record_from_before_the_moment_of_closing_is_read() -> None:
    ends: Ends = {"1/results": [at(20).isoformat(), "turn 1 · battle results"]}
    assert told(ends, "2/results", 15) == "adjudicated"
    assert told(ends, "2/results", 25) == ""
    seen_open(ends, "2/results", "turn 2 · battle results", last("2", 30))
    assert told(ends, "2/results", 25) == "late"
