"""The GM's change of the deadline schedule, poll by poll, for every game with a sheet (memory spreadsheets): a
record of an earlier version takes the config's schedule as its own without a word; a changed schedule moves the
open window's deadline, logs a line ``verify -c`` leaves alone, announces the window again, and survives an undo
and a replay; a resolution in the same poll logs the change before its own lines."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from sheets_gm.match.notify_settings import NoticeKind
from sheets_gm.match.schedule import DeadlineSchedule
from sheets_gm.notify.notices import NoticeRules, PollSeen, poll_notices
from sheets_gm.sheets.layout import Grid
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.deadline import ScheduleRule
from sheets_gm.sync.life.adjust_undo import undo_window
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import read_match
from tests.conformance.test_input_lifecycle import NOW, Table, _games, new_table
from tests.conformance.test_verify_untouched import _verify
from tests.quick import soak_but

EVENING = DeadlineSchedule.parse(["20:00"], [], "UTC").rule()
NOON = DeadlineSchedule.parse(["12:30"], ["sun", "mon"], "Europe/Paris").rule()
NONE = DeadlineSchedule().rule()


def _poll(table: Table, rule: ScheduleRule, minutes: int = 0, force: bool = False) -> WindowReport:
    return poll(table.sheets, table.cls, now=NOW + timedelta(minutes=minutes), schedule=rule, force=force)


def _log(table: Table) -> Grid:
    read = read_match(table.sheets, table.cls)
    (grid,) = table.sheets.board.read([read.tabs.log_range(0, read.record.log_rows)])
    return grid


def test_a_record_of_an_earlier_version_takes_the_config_s_schedule_without_a_word() -> None:
    table = new_table("gvg")
    before = read_match(table.sheets, table.cls).record
    assert (before.schedule, before.deadline) == ("", "")
    report = _poll(table, EVENING)
    after = read_match(table.sheets, table.cls).record
    assert (after.schedule, after.deadline, after.log_rows) == ("every day at 20:00 (UTC)", "", before.log_rows)
    assert report.schedule_change == "" and not report.resolved  # nothing to tell: its deadline is unchanged
    assert _poll(table, EVENING).write_calls == 0  # taken once: the next poll writes nothing


@pytest.mark.parametrize("name", soak_but(_games(), "gvg", "wesnoth"))
def test_a_changed_schedule_moves_the_open_window_s_deadline_and_verify_passes(name: str) -> None:
    table = new_table(name)
    _poll(table, EVENING)  # taken as the match's own
    report = _poll(table, NOON, minutes=5)
    record = read_match(table.sheets, table.cls).record
    assert record.deadline == "2026-11-23T12:30+01:00[Europe/Paris]"  # NOW is Sunday 13:00 in Paris: Monday's
    assert (report.deadline, record.schedule) == (record.deadline, NOON.remembered)
    window = record.ruleset.window(record.state)
    assert window is not None
    assert _log(table)[-1][1:3] == ["deadlines", "Deadlines changed by the GM: " + (
        "results" if window.seats == ("judge",) else "orders")
        + " now close Mon 23 Nov, 12:30 (Europe/Paris) (the schedule: every Mon, Sun at 12:30 (Europe/Paris))."]
    assert _verify(table) == []
    for _ in range(3):  # played on, the change and the lines after it replay
        if read_match(table.sheets, table.cls).record.ruleset.window(
                read_match(table.sheets, table.cls).record.state) is None:
            break
        type_bot_orders(table.sheets, table.cls, table.bots)
        _poll(table, NOON, minutes=10, force=True)
    _poll(table, NONE, minutes=15)
    assert read_match(table.sheets, table.cls).record.deadline == ""
    assert _verify(table) == []


def test_a_change_and_a_resolution_in_one_poll_log_the_change_first_and_an_undo_keeps_it() -> None:
    table = new_table("gvg")
    _poll(table, EVENING)
    type_bot_orders(table.sheets, table.cls, table.bots)  # every seat ready: the poll resolves
    start = read_match(table.sheets, table.cls).record.log_rows
    report = _poll(table, NOON, minutes=5)
    assert report.resolved
    record = read_match(table.sheets, table.cls).record
    assert record.deadline == "2026-11-23T12:30+01:00[Europe/Paris]"  # the next window's, from the new schedule
    assert _log(table)[start][1] == "deadlines"
    undo_window(table.sheets, table.cls, "the test takes it back")
    assert read_match(table.sheets, table.cls).record.schedule == NOON.remembered
    assert [row[1] for row in _log(table)].count("deadlines") == 1
    assert _verify(table) == []


def test_the_open_window_is_announced_again_with_its_new_deadline() -> None:
    table = new_table("gvg")
    rules = NoticeRules(kinds=frozenset(NoticeKind), title="Test")
    first = _poll(table, EVENING)
    assert first.facts is not None
    seen = PollSeen(first.window_key, first.deadline, (), {}, False)
    keys = {n.key for n in poll_notices(first.facts, seen, rules, NOW)}
    changed = _poll(table, NOON, minutes=5)
    assert changed.facts is not None and changed.facts.deadline_changed
    seen = PollSeen(changed.window_key, changed.deadline, (), {}, False)
    notices = [n for n in poll_notices(changed.facts, seen, rules, NOW) if n.kind is NoticeKind.OPENED]
    assert notices and not {n.key for n in notices} & keys
    assert all(n.body.startswith("The GM changed the deadlines.") for n in notices)
    assert all("Orders close Mon 23 Nov, 12:30 (Europe/Paris)." in n.body for n in notices)
    again = _poll(table, NOON, minutes=6)  # the next poll builds the first notice's key again: sent once
    assert again.facts is not None and not again.facts.deadline_changed
    seen = PollSeen(again.window_key, again.deadline, (), {}, False)
    assert {n.key for n in poll_notices(again.facts, seen, rules, NOW) if n.kind is NoticeKind.OPENED} <= keys


def test_an_undo_after_a_change_keeps_its_line_and_verify_still_checks_it() -> None:
    """Issue 52, item 6: a change of [deadlines] after a resolution, then an undo of that resolution: the undo's line
    does not count the change's line among what no longer holds, and ``verify -c`` still checks its words."""
    table = new_table("gvg")
    _poll(table, EVENING)
    type_bot_orders(table.sheets, table.cls, table.bots)
    assert _poll(table, EVENING, minutes=1).resolved
    assert not _poll(table, NOON, minutes=5).resolved  # the change, logged after the resolution's lines
    row = [r[1] for r in _log(table)].index("deadlines")
    undo_window(table.sheets, table.cls, "the test takes it back")
    log = _log(table)
    undo = str(log[-1][2])
    named = undo.partition("Log rows ")[2].partition(")")[0]
    runs = [range(int(a), int(b) + 1) for a, b in re.findall(r"(\d+) to (\d+)", named)]
    assert runs and all(row + 2 not in r for r in runs)  # every row the resolution logged, the change's left out
    assert log[row][1] == "deadlines" and _verify(table) == []
    board = table.sheets.board
    board.type("Log", f"C{row + 2}", str(log[row][2]).replace("12:30", "08:00"))  # type: ignore[attr-defined]
    assert any("deadlines" in p or "Deadlines changed" in p for p in _verify(table))
