"""The GM's change of the deadline schedule in a running match: the open window takes the new schedule's deadline.

The match config's ``[deadlines]`` is the match's schedule from the next poll on. The record remembers the schedule
its open window's deadline was taken from (``MatchRecord.schedule``); when the config's says otherwise, the poll
gives the open window the new schedule's next deadline (none when the schedule was taken away: the window then
resolves when every seat it waits for is ready, or when the GM resolves it) before it judges whether the window is
due. The new deadline shows where the old one did: the status lines (board, every input tab, every View), the
board's drawings, the Settings tab's ``deadlines`` row, and a line of the public Log ("Deadlines changed by the
GM: …"); the engine record keeps it, with the schedule it came from, so a config left as it is costs nothing.

The new deadline is never in the past: ``next_deadline`` gives the schedule's first moment strictly after the poll.
A deadline of the old schedule that passed before the poll that reads the new one is replaced, not honoured (the
GM's schedule is the one she edited); a GM who wants the window closed now resolves it (``resolve --force``).

A deadline is no part of the replayed state (the history rows keep none, and ``verify`` replays orders, dice and
GM events only); the Log line is of the sync's own kind (``SyncEvent.DEADLINES``), kept with its row in the record
(``own_lines``) so that ``verify -c`` checks its words, as it does an undo's line. A record written before
the schedule was kept ('') takes the config's as the one it applied, its open window's deadline unchanged: what
it was computed from is not known.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sheets_gm.engine.events import Event
from sheets_gm.engine.ruleset import GM
from sheets_gm.engine.settings import deadlines_row, settings_table
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.layout import CellValue, a1
from sheets_gm.sync.deadline import ScheduleRule, describe_deadline
from sheets_gm.sync.life.own_lines import SyncEvent, with_own_lines
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend
from sheets_gm.sync.writes import board_writes, closing_word, public_log_writes, status_line

#: The schedule a record remembers when the match has no deadlines (``DeadlineSchedule.remembered``).
NO_SCHEDULE = "none"


@dataclass(frozen=True, slots=True)
class DeadlineChange:
    """A schedule the poll applies: the record with the open window's new deadline and the schedule it came from,
    the record as it was (what the sheets show until the poll writes), the Log line (None when a record of an
    earlier version only takes the schedule as its own), and the schedule in words for the Settings tab."""

    record: MatchRecord
    before_record: MatchRecord
    event: Event | None
    words: str

    @property
    def before(self) -> str:
        """The open window's deadline before the change ('' for none)."""
        return self.before_record.deadline


def schedule_change(record: MatchRecord, rule: ScheduleRule | None, now: datetime) -> DeadlineChange | None:
    """The change ``rule`` (the config's schedule) makes to ``record`` at ``now``; None when there is none (the
    record applied this very schedule, no rule was given, or the match is over)."""
    window = record.ruleset.window(record.state)
    if rule is None or window is None or record.schedule == rule.remembered:
        return None
    if not record.schedule:  # written before the schedule was kept: its deadline's schedule is not known
        return DeadlineChange(replace(record, schedule=rule.remembered), record, None, rule.words)
    deadline = rule.next_deadline(now)
    label = window.label
    if deadline:
        said = f"{closing_word(window)} now close {describe_deadline(deadline)} (the schedule: {rule.words})"
    else:
        said = (f"no deadline now: {label} resolves when every seat it waits for is ready, or when the GM "
                "resolves it")
    text = f"Deadlines changed by the GM: {said}."
    event = Event(window.logged_turn, SyncEvent.DEADLINES, text,
                  {"deadline": deadline, "before": record.deadline, "schedule": rule.remembered})
    return DeadlineChange(replace(record, deadline=deadline, schedule=rule.remembered), record, event, rule.words)


def change_sentence(change: DeadlineChange, *, done: bool = True) -> str:
    """What the GM is told of a change a poll made, or (not ``done``: ``status``, ``doctor``) will make; nothing
    when a record of an earlier version only takes the config's schedule as its own (its deadline unchanged)."""
    if change.event is None:
        return ""
    if done:
        return change.event.text
    window = change.record.ruleset.window(change.record.state)
    assert window is not None  # schedule_change makes no change once the match is over
    shown = describe_deadline(change.before) if change.before else "no deadline"
    if not change.record.deadline:
        return (f"The config's [deadlines] were taken away: the next sync drops the deadline, and {window.label} "
                f"then resolves when every seat it waits for is ready; the sheets say {shown} until then.")
    return (f"The config's [deadlines] changed ({change.words}): the next sync applies them, and "
            f"{closing_word(window)} then close {describe_deadline(change.record.deadline)}; the sheets say {shown} "
            "until then.")


def settings_row_writes(batch: WriteBatch, sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord,
                        words: str) -> None:
    """The Settings tab's ``deadlines`` row (its last: one row per setting above it) written with ``words``."""
    row = 2 + len(settings_table(type(record.ruleset.settings)))
    batch.put(sheets.board, a1(tabs.spec.tabs.settings, f"A{row}:D{row}"), [list[CellValue](deadlines_row(words))])


def change_writes(batch: WriteBatch, sheets: MatchSheets, tabs: MatchTabs, adapter: AnySheetAdapter,
                  change: DeadlineChange, *, resolving: bool) -> MatchRecord:
    """Queue what a poll writes for ``change``: the Settings row and the Log line, and, when the poll resolves
    nothing (``resolving`` false: a resolution draws them itself), every status line and the board's drawings.
    Returns the record with its Log counter moved on (a resolution's lines start after the change's); the caller
    queues the engine's write, last."""
    record = change.record
    settings_row_writes(batch, sheets, tabs, record, change.words)
    if change.event is None:
        return record
    logged = public_log_writes(batch, sheets.board, tabs, record.log_rows, [change.event], adapter)
    record = with_own_lines(record, record.log_rows, [change.event], adapter)  # for verify -c to check its words
    record = replace(record, log_rows=record.log_rows + logged)
    if resolving:
        return record
    status = status_line(adapter, record)
    for seat in tabs.input_seats():
        batch.put(seat_backend(sheets, tabs, seat), tabs.orders(seat).status_cell(), [[status]])
    for seat in tabs.view_seats():
        backend = sheets.engine if seat == GM else seat_backend(sheets, tabs, seat)
        batch.put(backend, tabs.view_status_range(seat), [[tabs.view_title(seat)], [status]])
    board_writes(batch, sheets.board, tabs, adapter, record.state, status, record.deadline, record.stamp())
    return record
