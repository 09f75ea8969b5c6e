"""One sync poll of a match of any ruleset: answer every row, and resolve the open window when due.

The window is due when every seat that acts in it has ticked its Ready box, when a stepwise
window's Go box asks for the ticked rows now, when its deadline has passed, or when the GM
forces it. Reads: one call per spreadsheet. An idle poll writes only the feedback that
changed (and sets aside rows typed for another window). A resolution writes one batch per
spreadsheet in this order: the seats' (archive the consumed rows in the pending row, redraw
every table for the next window), the judge's, the board's (board, status, public log), then
the engine's last: its record is the commit. A resolution cut before the commit is completed
by the next poll from the record kept before its first write (``sync/journal.py``), keeping
whatever was typed for the next window since.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.gm_events import gm_event_from_json, gm_event_to_json
from sheets_gm.engine.ruleset import Resolution, Verdict, Window
from sheets_gm.rulesets.registry import AnyRuleset
from sheets_gm.sheets.adapter import AnySheetAdapter, SeatInput
from sheets_gm.sheets.backend import (
    OpenedElsewhere,
    SavedMeanwhileError,
    SheetBackend,
    SheetError,
    WorkbookOpenError,
)
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sheets.spec import SEAT_ROWS, ColumnKind
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.bot_seats import play_bots
from sheets_gm.sync.deadline import deadline_moment, describe_deadline
from sheets_gm.sync.drawn_cells import DrawnAgain, board_drawn_again, drawn_again_writes, log_lines_cleared
from sheets_gm.sync.journal import (
    ChangeJournal,
    ResolutionRecord,
    dice_key,
    journaled_run,
    load_journal,
    recorded_rows,
)
from sheets_gm.sync.judge_part import closing_deadline, judge_due, judge_line, judging, sealed_words
from sheets_gm.sync.life.adjust_undo import (
    BetweenWindowsError,
    applied_gm_events,
    gm_reasons,
    with_change,
    with_gm_events,
)
from sheets_gm.sync.life.deadline_change import (
    DeadlineChange,
    change_sentence,
    change_writes,
    schedule_change,
)
from sheets_gm.sync.life.grow import OwnersSource, grow_tables
from sheets_gm.sync.life.seed_check import check_seed
from sheets_gm.sync.life.settle import settle_cut_command
from sheets_gm.sync.match_record import (
    MatchRecord,
    compact_json,
    engine_write,
    history_write,
    packed_cell,
)
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.older_copy import (
    History,
    OlderCopy,
    copy_fate,
    draw_copy_again,
    read_copies,
    restore_archives,
)
from sheets_gm.sync.poll_facts import PollFacts
from sheets_gm.sync.read import MatchRead, adapter_of, early_writes, read_match
from sheets_gm.sync.rows.archive_lines import archive_lines_writes, capital, lines_cell
from sheets_gm.sync.rows.fate_words import (
    FORCED,
    fitted_answer,
    idle_feedback,
    shown_typed_over_line,
    view_lines_wait_sentence,
)
from sheets_gm.sync.rows.fates import (
    GO_NOTHING,
    SeatSettled,
    ahead_refusals,
    early_ready_note,
    empty_row_answer,
    game_notes,
    in_table,
    kept_feedback,
    late_sentence,
    open_file_waits,
    over_feedback,
    routed,
    row_feedback,
    row_verdicts,
    set_aside_sentence,
    settle_seat,
    stale_line,
    told_verdicts,
)
from sheets_gm.sync.rows.opened import answer_settled, check_opened
from sheets_gm.sync.rows.pending_row import pending_writes
from sheets_gm.sync.rows.ready import ready_taken
from sheets_gm.sync.rows.seat_orders import seat_orders
from sheets_gm.sync.rows.seat_read import SeatRead
from sheets_gm.sync.rows.strays import (
    StrayLayout,
    names_typed_over,
    stray_feedback_writes,
    stray_layout,
    stray_rejections,
)
from sheets_gm.sync.rows.typed_cells import with_cell_notes
from sheets_gm.sync.save_race import SAVE_RACE_ATTEMPTS
from sheets_gm.sync.schedule_rule import ScheduleRule
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend
from sheets_gm.sync.shown_cells import archived_details, shown_typed_over
from sheets_gm.sync.writes import (
    acts,
    board_writes,
    public_log_writes,
    seat_tables_writes,
    status_line,
    views_writes,
)

DeadlineRule = Callable[[datetime], str]


@dataclass
class WindowReport:
    """What a poll did, for the command line and the tests."""

    window: str  # the label of the window the poll found open ('' once the match is over)
    resolved: bool = False
    reason: str = ""
    write_calls: int = 0
    feedback_written: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (row, why)
    waiting_for: list[str] = field(default_factory=list)  # acting seats not ready
    #: of those, the seats whose Ready is ticked (held by ✘ rows), each with its box's header (Ready, End turn)
    ready_held: dict[str, str] = field(default_factory=dict)
    finished: bool = False
    result: str = ""  # the status line after the poll
    state: Any = None
    force_refused: str = ""
    stuck: str = ""  # why the open window, due, is not resolved: it would change nothing (``_step_made``), or a
    # workbook is open in an office program (``held_stuck``)
    window_key: str = ""  # the key of the window the poll found open (what resolve --force --window names)
    step: int = 0  # the open window's step: the number of the resolution that closes it (resolve --force --step)
    deadline: str = ""  # when the open window closes after this poll ('' for no deadline; ``sync.judge_part``)
    judging: str = ""  # the players' part of the judge's window closed: her part is open, until when (``judge_part``)
    sealed: str = ""  # what the players send the judge until ``deadline`` (the players' part of her window is open)
    settings: Any = None  # the house rules the match was created with and keeps
    untyped: dict[str, list[str]] = field(default_factory=dict)  # acting seat -> its rows with nothing typed yet
    tables_grown: list[str] = field(default_factory=list)  # the seats whose input tab the resolution laid out larger
    short_tables: list[str] = field(default_factory=list)  # tables with fewer rows than the state gives them
    drive: str = ""  # Google, through the Drive gate: why the poll read and how many spreadsheets (poll_gate/drive.py)
    told_once: str = ""  # what the GM is told once, at the poll that first finds it (cron --quiet too)
    facts: PollFacts | None = None  # what the poll saw and resolved, for its notices and page (sync.poll_facts)
    bots_typed: list[str] = field(default_factory=list)  # the seats whose bots typed for the window it drew
    saved_meanwhile: list[str] = field(default_factory=list)  # spreadsheets saved between a read and our write
    older_copies: list[str] = field(default_factory=list)  # seats whose file was saved from a copy older than ours
    older_copy_fates: list[str] = field(default_factory=list)  # what the poll does with each such file, for the GM
    drawn_again: list[str] = field(default_factory=list)  # drawn cells typed over that the poll put back, by tab
    schedule_change: str = ""  # what the GM's change of [deadlines] did (a dry run: will do), for her
    completed: str = ""  # a GM's change cut short that the poll completed before anything else (``sync/journal.py``)
    log_lines_cleared: list[str] = field(default_factory=list)  # lines typed below the Log, cleared (for the GM)
    page: str = ""  # why the match page could not be written ('' when it was, or needs nothing: ``running.page``)
    # the judge's window closed, the next window (whose orders closed at her players' deadline) resolved in the same
    # poll: what became of it ('' for none: ``early_due``)
    then: str = ""


def _deadline_passed(deadline: str, now: datetime) -> bool:
    moment = deadline_moment(deadline)
    return moment is not None and now >= moment


@dataclass
class _Answer:
    """One poll's reading of the open window: each acting seat's input, merged orders and verdicts."""

    inputs: dict[str, SeatInput[Any]]
    orders: Any
    verdicts: list[Verdict]
    diced: bool = True  # whether the check rolled or drew a die (its verdicts may then tell one)
    waits: dict[str, list[str]] = field(default_factory=dict)  # a seat's Ready not taken: the refused rows it waits for


def _answer(read: MatchRead, window: Window, dice: TurnDice) -> _Answer:
    ruleset = read.record.ruleset
    state = read.record.state
    inputs: dict[str, SeatInput[Any]] = {}
    for seat in window.seats:
        seat_read = read.seats.get(seat)
        inputs[seat] = seat_orders(read.adapter, state, window, seat, None if seat_read is None else seat_read.tab,
                                   {} if seat_read is None else in_order(seat_read, window))
    orders = ruleset.merge_orders({s: i.orders for s, i in inputs.items()})
    fresh = not (dice.rolled or dice.drawn)  # a die peeked at is public: it tells nothing
    verdicts = ruleset.check(state, orders, dice)
    diced = not fresh or bool(dice.rolled or dice.drawn)
    # Ready means ready: not taken while a row of the seat's for this window says ✘ (sync/rows/ready.py)
    waits: dict[str, list[str]] = {}
    for seat, found in inputs.items():
        shown = read.adapter.placed_verdicts(
            told_verdicts(read.tabs.spec, diced, [v for v in verdicts if v.seat == seat]), found)
        inputs[seat], waits[seat] = ready_taken(read.seats.get(seat), found, shown)
    return _Answer(inputs, orders, verdicts, diced=diced, waits={s: w for s, w in waits.items() if w})


def _noted(read: MatchRead, window: Window, answer: _Answer) -> _Answer:
    """``answer`` with each seat's cells its ruleset reads without a word (``typed_cells``) among its problems, for
    the feedback of a poll that resolves nothing (a resolution writes what its state and orders make, as the
    completion of an interrupted one would; the next poll answers those cells again)."""
    inputs = dict(answer.inputs)
    for seat, found in answer.inputs.items():
        seat_read = read.seats.get(seat)
        if seat_read is None:
            continue
        rows = in_order(seat_read, window)
        tables = {name: seat_read.tab.table(name).spec for name in rows}
        noted = with_cell_notes({}, rows, tables)
        if noted:
            problems = {s: list(p) for s, p in found.problems.items()}
            for subject, notes in noted.items():
                problems[subject] = problems.get(subject, []) + [n for n in notes if n not in problems.get(subject, [])]
            inputs[seat] = replace(found, problems=problems)
    return replace(answer, inputs=inputs)


def _rejected(verdict: Verdict) -> tuple[str, str]:
    """A refusal for the rejected list: who and which row, and why; a message that starts by naming its row
    (Win or Die's "Row 3 (Ann-4 move D3): …") names it once ("Ann · Row 3 (Ann-4 move D3)": "…").

    >>> _rejected(Verdict("Ann", "Row 3", "move", False, "Row 3 (Ann-4 move D3): D3 is 3 hexes away"))
    ('Ann · Row 3 (Ann-4 move D3)', 'D3 is 3 hexes away')
    >>> _rejected(Verdict("Ann", "Ann.mage", "set", False, "action 2: only the Healer heals"))
    ('Ann · Ann.mage', 'action 2: only the Healer heals')
    """
    who = f"{verdict.seat} · {verdict.subject}"
    head, colon, why = verdict.message.partition(": ")
    if colon and head.startswith(verdict.subject) and head[len(verdict.subject):][:2] in ("", " ("):
        return f"{verdict.seat} · {head}", why
    return who, verdict.message


def _rejected_list(read: MatchRead, answer: _Answer, idle_answer: _Answer) -> list[tuple[str, str]]:
    """Every refusal of the poll: what the reading of each seat's rows refused (its cells' notes too), what the
    check refused that the reading did not (said once, as the row's cell says it: ``row_feedback``), the stray
    rows'."""
    read_said = {seat: i.problems for seat, i in idle_answer.inputs.items()}
    return [*((f"{seat} · {subject}", p) for seat, said in read_said.items() for subject, notes in said.items()
              for p in notes),
            *(_rejected(v) for v in answer.verdicts
              if not v.accepted and v.message not in read_said.get(v.seat, {}).get(v.subject, ())),
            *(r for seat, s in read.seats.items() for r in stray_rejections(seat, s.strays))]


def in_order(seat_read: SeatRead, window: Window) -> dict[str, list[TypedRow]]:
    """The rows typed for ``window``, by table; an ordered table's typed rows in the sheet's order under their own
    subjects (an emptied row above them is left out, so it stops nothing): a game names a row as the player sees
    it (Win or Die's Row 3 typed under an empty Row 2 is Row 3 in its answer, the Log and the rejected list)."""
    rows = seat_read.for_window(window)
    for placed in seat_read.tab.tables:
        name = placed.spec.name
        if placed.spec.ordered and name in rows:
            rows[name] = sorted((r for r in rows[name] if r.typed), key=lambda r: r.row)
    return rows


def _go_resolves(read: MatchRead, window: Window, answer: _Answer) -> str:
    """Why a seat's Go asks for a resolution now ('' when nothing does): a row of hers the resolution would use
    ("a Go box is ticked"), or what she typed in her seat row besides its tick boxes, named by its header
    ("Bo's Surrender cell is set")."""
    for seat, found in answer.inputs.items():
        seat_read = read.seats.get(seat)
        if not found.go or seat_read is None:
            continue
        for row in seat_read.rows:
            if row.subject not in found.consumed or not row.typed or row.window != window.key:
                continue
            spec = seat_read.tab.table(row.table).spec
            if spec.rows != SEAT_ROWS:
                return "a Go box is ticked"
            typed = [c.header for c in spec.columns if c.kind not in (ColumnKind.TICK, ColumnKind.READY)
                     and row.values.get(c.key) not in (None, "", False)]
            if typed:
                return f"{seat}'s {typed[0]} cell is set"
    return ""


def poll(sheets: MatchSheets, ruleset_class: type[AnyRuleset], *, now: datetime, force: bool = False,
         window_key: str | None = None, step: int | None = None, next_deadline: DeadlineRule | None = None,
         dry_run: bool = False, owners: OwnersSource | None = None,
         live: Mapping[str, Any] | None = None, schedule: ScheduleRule | None = None) -> WindowReport:
    """Read the match once, answer every row, resolve the open window if due, write back.

    ``force`` resolves the open window even if it is not due; with ``window_key``, only if the
    open window is that one (the GM must not force a window another sync opened meanwhile), at its step ``step`` (the
    number of the resolution that closes it, as ``status`` shows it; None: its first step, no resolution of the
    window made yet): a window that resolves in several steps under one key is never forced a step further.
    ``owners``: who may type where, read only when a resolution must grow a table (``grow``).
    ``live``: the match config's values of the settings that change no rule (``setting(live=True)``), taken
    over the record's: they are drawn from now on and stored with the record at the next resolution.
    ``schedule``: the match config's deadline schedule; one the record did not apply gives the open window its next
    deadline before the poll judges it due (``life.deadline_change``), and the next windows' deadlines.

    A spreadsheet saved between the read and the write is not written over (``sheets/guard.py``): the poll is
    made again from a fresh read, which answers what was saved (and completes a resolution whose first
    spreadsheets were written); ``WindowReport.saved_meanwhile`` says so."""
    raced: list[str] = []
    completed = settle_cut_command(sheets, ruleset_class, dry_run=dry_run)  # a repair or an export cut short
    due = ""  # why this poll began resolving, when a save raced its write: the poll made again completes it
    if next_deadline is None and schedule is not None:
        next_deadline = schedule.next_deadline
    earlier: WindowReport | None = None  # the judge's window this poll closed, when the next one is resolved too
    while True:
        try:
            report = _poll_once(sheets, ruleset_class, now=now, force=force, window_key=window_key, step=step,
                                next_deadline=next_deadline, dry_run=dry_run, owners=owners, live=live,
                                schedule=schedule)
        except SavedMeanwhileError as exc:
            completed = "; ".join(c for c in (completed, exc.completed) if c)
            due = due or exc.reason
            raced.append(exc.spreadsheet)
            if len(raced) >= SAVE_RACE_ATTEMPTS:
                raise SheetError(f"{exc}, {len(raced)} times in a row: the sync stopped there, and the next sync "
                                 "reads it again") from None
            continue
        report.saved_meanwhile = raced
        report.completed = "; ".join(c for c in (completed, report.completed) if c)
        if due and report.reason == COMPLETING:  # its own write, finished in this run: nothing was interrupted
            report.reason = due
        if earlier is None and early_due(report, now):  # its orders closed with the judge's players' deadline
            earlier, force, window_key, step, raced, due, completed = report, False, None, None, [], "", ""
            continue
        return report if earlier is None else _joined(earlier, report)


def early_due(report: WindowReport, now: datetime) -> bool:
    """Whether the poll that left ``report`` closed a judge's window whose next window took its orders early
    (``Window.early``), and opened that window with its deadline passed already (the same players' deadline): it is
    resolved at once, in the same poll."""
    facts = report.facts
    if not report.resolved or facts is None or facts.resolved is None or facts.resolved.early is None:
        return False
    opened = facts.record.ruleset.window(facts.record.state)
    return opened is not None and opened.key == facts.resolved.early.key and \
        _deadline_passed(facts.record.deadline, now)


def _joined(earlier: WindowReport, report: WindowReport) -> WindowReport:
    """One report of a poll that closed the judge's window ``earlier`` reports and then resolved the window whose
    orders it took early (``report``): what it closed and why, and where the match stands after both."""
    players = earlier.facts.record.deadline if earlier.facts is not None else ""
    why = f"sent by the players' deadline {describe_deadline(players)}" \
        if players and report.reason == _deadline_reason(players) else report.reason
    then = f"then {report.window} resolved ({why})" if report.resolved else \
        f"then {report.window} did not resolve{f' ({report.stuck})' if report.stuck else ''}"
    facts = replace(report.facts, earlier=earlier.facts) if report.facts is not None else earlier.facts
    return replace(earlier, then=then, state=report.state, result=report.result, deadline=report.deadline,
                   finished=report.finished, facts=facts, rejected=[*earlier.rejected, *report.rejected],
                   write_calls=earlier.write_calls + report.write_calls,
                   feedback_written=earlier.feedback_written + report.feedback_written,
                   tables_grown=list(dict.fromkeys([*earlier.tables_grown, *report.tables_grown])),
                   bots_typed=list(dict.fromkeys([*earlier.bots_typed, *report.bots_typed])),
                   saved_meanwhile=[*earlier.saved_meanwhile, *report.saved_meanwhile],
                   judging=report.judging, sealed=report.sealed, waiting_for=report.waiting_for,
                   untyped=report.untyped, stuck=report.stuck)


def _poll_once(sheets: MatchSheets, ruleset_class: type[AnyRuleset], *, now: datetime, force: bool,
               window_key: str | None, next_deadline: DeadlineRule | None, dry_run: bool,
               owners: OwnersSource | None, live: Mapping[str, Any] | None,
               schedule: ScheduleRule | None = None, step: int | None = None) -> WindowReport:
    """One attempt of ``poll``: read, answer, resolve if due, write (SavedMeanwhileError: a save raced the write)."""
    # a GM's change, or a resolution, cut short is completed first; a dry run (status) writes nothing: it says the
    # next sync will
    journal = load_journal(sheets.journal)  # a resolution's record, gone once the read completes it
    read = with_live_settings(read_match(sheets, ruleset_class, complete=not dry_run, replay=True), live or {})
    record = read.record
    check_seed(record, f"{sheets.engine.name} tab {read.tabs.spec.tabs.engine!r}")  # every roll drawn comes from it
    ruleset = record.ruleset
    window = ruleset.window(record.state)
    report = WindowReport(window="" if window is None else window.label, state=record.state,
                          result=status_line(read.adapter, record), window_key="" if window is None else window.key,
                          deadline=closing_deadline(window, record.deadline, now), settings=ruleset.settings,
                          step=record.resolved + 1,
                          facts=PollFacts(record, read.tabs, read.adapter), completed=read.completed)
    try:
        if read.replayed is not None:  # a resolution cut short, completed with the writes it had made: said as its
            # own, and what was typed since in the files it had written answered (nothing more resolved in this poll)
            return _replayed(read, read.replayed, journal, _poll_read(
                sheets, read, report, now=now, force=False, window_key=None, next_deadline=next_deadline,
                dry_run=dry_run, owners=owners, schedule=schedule, may_resolve=False))
        return _poll_read(sheets, read, report, now=now, force=force, window_key=window_key, step=step,
                          journal=journal, next_deadline=next_deadline, dry_run=dry_run, owners=owners,
                          schedule=schedule)
    except SavedMeanwhileError as exc:
        exc.completed = read.completed  # said once the poll made again went through
        exc.reason = report.reason  # why it was resolving (a resolution that waits for a file is '' by then)
        raise


#: Why a poll resolves when an earlier sync was cut before its commit (a seat's pending row names the resolution).
COMPLETING = "completing a resolution that was interrupted"


def _replayed(read: MatchRead, before: MatchRecord, journal: ResolutionRecord | None,
              report: WindowReport) -> WindowReport:
    """``report`` of a poll whose read completed a resolution cut short (``before``: the engine before it) with the
    writes its record ``journal`` kept: the window it resolved, and what it logged for the notices, recomputed from
    the record's orders, dice and GM events (the same pure resolution: the cells are already what it wrote)."""
    ruleset = read.record.ruleset
    window = ruleset.window(before.state)
    events: list[Event] = []
    if journal is not None and journal.orders is not None:
        resolved = ruleset.resolve(before.state, ruleset.orders_codec.from_json(journal.orders), before.dice())
        resolution, _gm, gm_log = _stand_in(ruleset, resolved, journal.gm_events)
        events = [*resolution.events, *gm_log]
    report.resolved = True
    report.reason = COMPLETING
    if window is not None:
        report.window, report.window_key, report.step = window.label, window.key, before.resolved + 1
    report.facts = PollFacts(read.record, read.tabs, read.adapter, window, before.state, events)
    report.finished = ruleset.window(read.record.state) is None
    return report


def _poll_read(sheets: MatchSheets, read: MatchRead, report: WindowReport, *, now: datetime, force: bool,
               window_key: str | None, next_deadline: DeadlineRule | None, dry_run: bool,
               owners: OwnersSource | None, schedule: ScheduleRule | None, step: int | None = None,
               journal: ResolutionRecord | None = None, may_resolve: bool = True) -> WindowReport:
    """``_poll_once`` from its read on: answer, resolve if due (and ``may_resolve``), write (``journal``: the record
    of a resolution a cut left, as kept before the read)."""
    record = read.record
    ruleset = record.ruleset
    window = ruleset.window(record.state)
    if force and window_key is not None:
        report.force_refused = _force_refused(read.record, window_key, step)
        if report.force_refused:  # a refusal changes nothing: no row answered, no window resolved, nothing written
            report.finished = window is None
            return report
    if window is None:
        return _over(sheets, read, report, now, dry_run)
    change = schedule_change(record, schedule, now)
    if change is not None:  # the GM's [deadlines] are the match's from this poll on: the window is judged by them
        read, record = _with_change(read, change, report, window, now, done=not dry_run)
    dice = record.dice()
    copies, history = read_copies(sheets, read, window)  # a file saved from an older copy: read as drawn again
    if copies:
        read = replace(read, seats={**read.seats, **{seat: c.drawn for seat, c in copies.items()}})
    recorded = journal if journal is not None and journal.under_way(record) and read.cut_under_way else None
    read = _as_recorded(read, recorded)
    answer = _answer(read, window, dice)
    idle_answer = _noted(read, window, answer)
    report.rejected = _rejected_list(read, answer, idle_answer)
    _waits_said(report, read, window, answer, now)
    pending = read.cut_under_way
    report.reason = _due_reason(read, window, answer, report.waiting_for, force=force, pending=pending,
                                now=now) if may_resolve else ""
    # due by its deadline alone, which stays passed: resolved only if it moves the match (Ready, Go and a force are
    # each spent by the resolution they ask for, and always make it)
    resolved = _step_made(record, window, answer, dice, report) \
        if report.reason == _deadline_reason(record.deadline) and not pending else None
    report.older_copies = list(copies)
    report.older_copy_fates = [copy_fate(read, seat, c) for seat, c in copies.items()]
    if report.older_copies and report.reason:  # her file is drawn again first: the next poll resolves
        report.reason = ""
    if dry_run:
        report.log_lines_cleared = log_lines_cleared(sheets, read, WriteBatch(), now, dry_run=True)
        return report
    batch = WriteBatch()
    read.guard(batch, sheets)  # a cell saved after our read is never written over
    report.log_lines_cleared = log_lines_cleared(sheets, read, batch, now)  # before a resolution's lines go there
    held = held_open(sheets) if report.reason and not pending else None
    if held is not None:  # a resolution writes every seat: it waits for the file, the others get their answers
        report.stuck = held_stuck(window.label, report.reason, held)
        report.reason = ""
    if not report.reason:
        # drawn cells typed over: put back now (compared with what the sheets show, the deadline before a change)
        drawn = drawn_again_writes(sheets, read if change is None else replace(read, record=change.before_record),
                                   batch)
        report.drawn_again = drawn.where
        read = _early_taken(sheets, read, window, now, batch)
        _feedback_writes(sheets, read, window, idle_answer, batch, report, copies, history, drawn,
                         held_open=held is not None)
        if change is not None and held is None:  # the record keeps the schedule with the deadline: engine last
            changed = change_writes(batch, sheets, read.tabs, read.adapter, change, resolving=False)
            batch.put(sheets.engine, *engine_write(read.tabs.spec.tabs.engine, changed))
        try:
            report.write_calls = batch.run(sheets.write_order(), past_open=True)
        except WorkbookOpenError as exc:  # a due window's report goes with it: its notices say why (``host.polls``)
            raise exc.in_window(window.key, report if held is not None else None) from exc
        if held is not None:
            raise held.in_window(window.key, report) from held
        return report
    if read.log_header_typed_over:  # the rest a resolution draws whole
        batch.put(sheets.board, read.tabs.log_header_range(), [list(read.tabs.spec.headers.log)])
    if change is not None:  # its Log line before the resolution's: an undo of the resolution leaves it
        read = replace(read, record=change_writes(batch, sheets, read.tabs, read.adapter, change, resolving=True))
    journal = _resolve(sheets, read, window, dice, answer, recorded, now, next_deadline, batch, report, owners,
                       resolved)
    report.write_calls = journaled_run(batch, sheets.write_order(), sheets.journal, journal)  # the record first
    return report


def _waits_said(report: WindowReport, read: MatchRead, window: Window, answer: _Answer, now: datetime) -> None:
    """What the open ``window`` waits for, into ``report``: the seats not Ready (and a Ready ticked that is not
    taken), rows typed that say nothing, the judge's part, what the players still send, tables laid out short."""
    record = read.record
    report.waiting_for = [s for s in window.awaited if not (s in answer.inputs and answer.inputs[s].ready)]
    report.ready_held = {s: box for s in report.waiting_for if s in read.seats
                         for box in [_ready_ticked(read.seats[s], window)] if box}
    report.untyped = _untyped_rows(read, window, answer)
    report.judging = judge_line(window, record.deadline, now, ready=not report.waiting_for)
    report.sealed = sealed_words(window) if record.deadline and not judging(window, record.deadline, now) else ""
    report.short_tables = read.tabs.short(read.adapter, record.state)  # a match laid out before tables grew


def _early_taken(sheets: MatchSheets, read: MatchRead, window: Window, now: datetime, batch: WriteBatch) -> MatchRead:
    """``read`` with the rows the players' deadline takes for the next window the open judge's window takes orders
    for (``Window.early``), kept in each of its seats' pending row by the first poll past that deadline
    (``read.with_early``): what that window reads when it opens, whatever is typed or changed later."""
    early = window.early
    if early is None or not judging(window, read.record.deadline, now):
        return read
    seats = dict(read.seats)
    for seat in early.seats:
        seat_read = seats.get(seat)
        if seat_read is None or seat_read.early is not None or seat_read.pending is not None:
            continue
        taken = seat_read.early_typed(window)
        early_writes(batch, sheets, read, seat, taken)
        seats[seat] = replace(seat_read, early=taken)
    return replace(read, seats=seats)


def _over(sheets: MatchSheets, read: MatchRead, report: WindowReport, now: datetime, dry_run: bool) -> WindowReport:
    """A poll of a finished match: a row typed after the last window is answered (kept as typed, nothing more is
    read), the result the board shows put back where it was typed over; nothing at all in a dry run."""
    report.finished = True
    if not dry_run:
        batch = WriteBatch()
        read.guard(batch, sheets)
        report.drawn_again = board_drawn_again(sheets, read, batch)  # the result it shows, typed over
        report.log_lines_cleared = log_lines_cleared(sheets, read, batch, now)
        report.feedback_written = _over_feedback_writes(sheets, read, batch)
        report.write_calls = batch.run(sheets.write_order(), past_open=True)
    return report


def _step_made(record: MatchRecord, window: Window, answer: _Answer, dice: TurnDice,
               report: WindowReport) -> Resolution[Any] | None:
    """The resolution of ``window`` that its passed deadline makes due, or None when it would make no step: it
    leaves the state as it is, the same window open (a deployment with no token typed, a step that waits for the
    GM), so that resolving it would say the same again at every poll, the deadline being passed still. Then the
    window waits for a row typed for it, or the GM's force: the report says why (``report.stuck``) and resolves
    nothing (``report.reason`` emptied)."""
    ruleset = record.ruleset
    resolved = ruleset.resolve(record.state, answer.orders, dice)
    codec = ruleset.state_codec
    if codec.to_json(resolved.state) != codec.to_json(record.state) or (record.gm_events or {}).get("events"):
        return resolved
    report.stuck = (f"{capital(window.label)} cannot go on as it stands: resolving it "
                    f"({report.reason}) would change nothing, and it would be resolved again at every poll. It waits "
                    "for a row typed for it, or for the GM (resolve --force, adjust, or undo)")
    report.reason = ""
    return None


def _force_refused(record: MatchRecord, key: str, step: int | None) -> str:
    """Why the GM's force of window ``key`` at its step ``step`` (None: the window's first step) closes something else
    than she named ('' when it closes that): another window is open, or another step of it. It says what resolved the
    step she named, as the record keeps it (``MatchRecord.last``: no second read of the engine), and names what is
    open now, as ``status`` shows it."""
    window = record.ruleset.window(record.state)
    now = f"{window.label} (window {window.key}, step {record.resolved + 1})" if window else "the match is over"
    last = record.last.get("window", "")
    if window is None or key != window.key:
        done = f" (resolved already: {_resolved_by(record, record.resolved)})" if last == key else ""
        return f"window {key!r}{done} is not the open one: open now is {now}; nothing was forced"
    if step is None and record.resolved and last == key:
        return (f"window {key!r} has resolved a step already ({_resolved_by(record, record.resolved)}): open now is "
                f"{now}. Name the step you mean as status shows it (--window {key} --step {record.resolved + 1}); "
                "nothing was forced")
    if step is not None and step != record.resolved + 1:
        done = (f"step {step} of window {key!r} is resolved already ({_resolved_by(record, step)})"
                if step <= record.resolved else f"step {step} of window {key!r} is not open")
        return f"{done}: open now is {now}; nothing was forced"
    return ""


def _resolved_by(record: MatchRecord, step: int) -> str:
    """What resolved the match's resolution ``step``, as far as the record tells (``MatchRecord.last``): the GM's
    force or a sync, for the last one; its number alone for an earlier one or a record that does not say."""
    by = record.last.get("by", "") if step == record.resolved else ""
    return f"resolution {step}, " + {"force": "by a resolve --force", "sync": "by a sync (every seat ready, a Go, "
                                     "or the deadline)"}[by] if by in ("force", "sync") else f"resolution {step}"


def _as_recorded(read: MatchRead, recorded: ResolutionRecord | None) -> MatchRead:
    """``read`` with the rows of every seat whose file the cut resolution ``recorded`` had written (her cells cleared,
    her pending row naming it) as it read them, standing tables included (the same read when None): those are
    completed with what it read, never with the pending row's rows carried out alone. A seat whose file it had not
    written yet (her save raced it) is read as she saved it, as if she had saved just before the resolution."""
    if recorded is None:
        return read
    return replace(read, seats={s: replace(r, recorded=recorded.seat_rows(s), kept=recorded.kept.get(s, ()))
                                if r.pending is not None else r for s, r in read.seats.items()})


def _forced(read: MatchRead, recorded: ResolutionRecord | None, reason: str) -> bool:
    """Whether the resolution about to run closes a window the GM forced (``resolve --force``): her force now, or,
    completing a cut one, what it kept before its first write: its record (``recorded``), else a seat's pending row
    its first try wrote (a record or row kept before there was such a field reads as not forced)."""
    if not read.cut_under_way:
        return reason == FORCED
    if recorded is not None:
        return recorded.forced
    return any(s.pending is not None and s.pending.get("forced") is True for s in read.seats.values())


def _due_reason(read: MatchRead, window: Window, answer: _Answer, waiting: list[str], *, force: bool, pending: bool,
                now: datetime) -> str:
    """Why the open window resolves now ('' when it does not): a resolution to complete, the GM's force, every
    seat ready, a Go box asking for its rows, or the deadline (the record's, a GM's change applied) passed."""
    deadline = read.record.deadline
    if pending:
        return COMPLETING
    if force:
        return FORCED
    if window.sealed and deadline:  # the players' deadline closes what they send; then the judge's part
        return judge_due(window, deadline, now, ready=not waiting)
    if not waiting:
        return "every seat is ready" if len(window.awaited) > 1 else f"{window.awaited[0]} is ready"
    if window.stepwise and any(i.go for i in answer.inputs.values()) and (why := _go_resolves(read, window, answer)):
        return why
    if _deadline_passed(deadline, now):
        return _deadline_reason(deadline)
    return ""


def _deadline_reason(deadline: str) -> str:
    """Why a window resolves when its ``deadline`` passed (the record's text)."""
    return f"the deadline {describe_deadline(deadline)} has passed"


def _with_change(read: MatchRead, change: DeadlineChange, report: WindowReport, window: Window, now: datetime,
                 done: bool) -> tuple[MatchRead, MatchRecord]:
    """``read`` with the record ``change`` makes, and ``report`` saying the deadline and status line it gives
    (``done``: the poll writes them; else a dry run, ``status``, tells what the next poll does, and judges the window
    as it will). Returns the read and its record."""
    record = change.record
    report.schedule_change = change_sentence(change, done=done)
    report.deadline = closing_deadline(window, record.deadline, now)
    report.result = status_line(read.adapter, record)
    if done:
        report.facts = PollFacts(record, read.tabs, read.adapter, deadline_changed=change.event is not None)
    return replace(read, record=record), record


#: How ``WindowReport.stuck`` ends for a due window a workbook open in an office program holds (``held_stuck``).
FILE_CLOSED = "it resolves at the first poll after the file is saved and closed"


def held_stuck(label: str, reason: str, held: WorkbookOpenError) -> str:
    """Why a due window (``reason``: why it is due) waits for a workbook open in an office program: the file's name
    alone (nothing of who holds it, nor of what it holds)."""
    name = Path(held.path).name if held.path else "a workbook of the match"
    return (f"{capital(label)} is due ({reason}), but {name} is open in an office program, and the sync cannot "
            f"write a workbook that is open: {FILE_CLOSED}")


def held_open(sheets: MatchSheets) -> WorkbookOpenError | None:
    """Why a resolution cannot write now: an office program holds one of the match's workbooks open (None if
    none does). ``status`` says it beside a window that is due."""
    for backend in sheets.write_order():
        if isinstance(backend, OpenedElsewhere):
            try:
                backend.refuse_if_open()
            except WorkbookOpenError as exc:
                return exc
    return None


def with_live_settings(read: MatchRead, live: Mapping[str, Any]) -> MatchRead:
    """``read`` with the record's ruleset taking ``live``'s values where they differ (the same read when none
    does): a new ruleset on the same board, and its sheet adapter."""
    settings = read.record.ruleset.settings
    changed = {k: v for k, v in live.items() if getattr(settings, k) != v}
    if not changed:
        return read
    ruleset = type(read.record.ruleset).create(dataclasses.replace(settings, **changed),
                                               read.record.ruleset.board_text)
    return replace(read, record=replace(read.record, ruleset=ruleset), adapter=adapter_of(ruleset), drawn_before=read)


def _ready_ticked(seat_read: SeatRead, window: Window) -> str:
    """The header of the seat's Ready box (Ready, End turn) when it is ticked for ``window`` (a seat row stamped for
    it, or typed ahead for it), else ''."""
    for row in seat_read.rows:
        spec = seat_read.tab.table(row.table).spec
        boxes = spec.of_kind(ColumnKind.READY)
        if spec.rows == SEAT_ROWS and boxes and row.window in (window.key, "") and row.ticked(boxes[0].key):
            return boxes[0].header
    return ""


def _untyped_rows(read: MatchRead, window: Window, answer: _Answer) -> dict[str, list[str]]:
    """Per seat the window waits for, the subjects of its rows (units, players, armies; not its seat row, nor a
    standing table's) with nothing typed for the window and no order read for them elsewhere (a Coalition army
    ordered by a post pasted in another row): whose orders the GM may want to chase. A seat that writes in the
    window without being awaited (Win or Die's player setting reactions in her opponent's turn) has nothing to
    chase: her action rows are for her own turn; nor does a seat that ticked Ready (its orders are in: the rows it
    left empty take the game's default, a bot's too)."""
    out: dict[str, list[str]] = {}
    for seat in window.awaited:
        seat_read = read.seats.get(seat)
        if seat_read is None or (seat in answer.inputs and answer.inputs[seat].ready):
            continue
        open_tables = {p.spec.name for p in seat_read.tab.tables if p.spec.open_in(window.phase)
                       and p.spec.rows != SEAT_ROWS and not p.spec.standing and not p.spec.optional}
        given = {s for said in answer.inputs[seat].read_as.values() for s in said} if seat in answer.inputs else set()
        typed = {r.subject for r in seat_read.rows if r.typed and r.window == window.key} | given
        # an ordered table is a list, not a row per subject: its empty rows are no orders awaited (a Wesnoth
        # recruit, a Win or Die action); it is chased whole, when nothing is typed in it and it is all she writes
        lists = {t for t in open_tables if seat_read.tab.table(t).spec.ordered}
        missing = [r.subject for r in seat_read.rows
                   if r.table in open_tables - lists and r.subject and r.subject not in typed
                   and not read.adapter.idle_row_reason(read.record.state, seat, seat_read.tab.table(r.table).spec,
                                           r.subject)]  # a player knocked down is not chased
        if lists == open_tables:
            missing += [f"{t} (no row typed)" for t in sorted(lists)
                        if not any(r.table == t and r.subject in typed for r in seat_read.rows)]
        if missing:
            out[seat] = list(dict.fromkeys(missing))
    return out


def _feedback_writes(sheets: MatchSheets, read: MatchRead, window: Window, answer: _Answer, batch: WriteBatch,
                     report: WindowReport, copies: Mapping[str, OlderCopy] | None = None,
                     history: History | None = None, drawn: DrawnAgain | None = None, *,
                     held_open: bool = False) -> None:
    """Feedback cells whose text changed (``held_open``: the window was due, but a workbook is open in an office
    program, which the seat rows of those who ticked Go or Ready say); rows stamped for another window set aside (a
    copy in the archive) and cleared. A row typed ahead, in a table its seat does not write in now, stays as typed
    and says so. A file saved from an older copy (``copies``, with the engine's ``history`` rows since) is drawn
    again whole first."""
    outcome_text = ""
    go_idle = window.stepwise and any(i.go for i in answer.inputs.values())
    copies = copies or {}
    restore_archives(sheets, read, batch, copies, history or {}, window)  # what a copy lost of its archive
    for seat, seat_read in read.seats.items():
        backend = seat_backend(sheets, read.tabs, seat)
        if seat in copies:
            lost = draw_copy_again(sheets, batch, backend, read, copies[seat], window, history or {})
            if lost:  # said, not claimed given back: an undo's lines are in no replay
                report.older_copy_fates.append(view_lines_wait_sentence(seat, lost))
        seat_input = answer.inputs.get(seat)
        # The verdicts a game shows before resolving; else only those its rules say hide nothing (``told_verdicts``):
        # the rest wait for the resolution (hidden things, dice).
        checked = read.adapter.placed_verdicts(
            told_verdicts(read.tabs.spec, answer.diced, [v for v in answer.verdicts if v.seat == seat]), seat_input)
        verdicts = routed(checked, seat, seat_input)
        subjects = {r.subject for r in seat_read.rows}
        stale = seat_read.stale(window)
        set_aside = {(r.table, r.row) for r in stale}
        held = {(r.table, r.row) for r in seat_read.held(window)}
        # not read by the next window, whole or in part (a pasted post's line for an army that fights)
        late = {(r.table, r.row): why for r, why in seat_read.late(window, read.adapter, read.record.state)}
        waits = seat_input.held if seat_input is not None else frozenset()  # held for her next turn: checked now
        ahead = ahead_refusals(read.adapter, read.record.state, window, seat, seat_read.tab,
                               [*seat_read.held(window), *(r for r in seat_read.rows if r.subject in waits)], waits)
        for row in seat_read.rows:
            placed = seat_read.tab.table(row.table)
            spec = placed.spec
            if (row.table, row.row) in set_aside:
                text = set_aside_sentence(row.window, window, read.tabs.archive(seat))
            elif (row.table, row.row) in late and late[(row.table, row.row)].left is None:
                text = late_sentence(window, late[(row.table, row.row)])
            elif (row.table, row.row) in held:
                out = read.adapter.idle_reason(read.record.state, seat)
                note = seat_read.note(row) or ahead.get((row.table, row.subject), "") or \
                    early_ready_note(window, seat, spec, row)
                text = kept_feedback(window, seat, spec, False, note, out)
            elif seat_input is not None and spec.open_in(window.phase) and (
                    row.typed or spec.rows == SEAT_ROWS or _has_verdict(read.adapter, row, verdicts)):
                mine = row_verdicts(read.adapter, read.record.state, seat, row, verdicts) if row.typed else \
                    [v for v in verdicts if v.subject == row.subject and in_table(read.adapter, v, row.table)]
                if spec.rows == SEAT_ROWS:  # the seat row also says what no other row does
                    mine += [v for v in verdicts if v.subject not in subjects]
                box = "Go" if seat_input.go else "Ready" if seat_input.ready else ""
                go = "" if spec.rows != SEAT_ROWS else open_file_waits(box) if held_open and box else \
                    GO_NOTHING if seat_input.go and go_idle else ""
                extra = " · ".join(p for p in (game_notes(seat_input, row.subject), go) if p)
                text = row_feedback(row, seat, window, spec, seat_input.problems, mine, seat_input.ready,
                                    seat_read.note(row) or ahead.get((row.table, row.subject), ""),
                                    row.subject in seat_input.held, extra,
                                    seat_input.held_why.get(row.subject, ""), answer.waits.get(seat, ()))
            else:
                state = read.record.state
                text = empty_row_answer(read.adapter, state, window, seat, spec, row.subject, seat_read.note(row),
                                        outcome_text, acts(window, seat, spec))
            part = late.get((row.table, row.row))
            if part is not None and part.left is not None:  # lines of a pasted post not read: said first
                text = f"{late_sentence(window, part)} · {text}" if text else late_sentence(window, part)
            said = drawn.notes.get((seat, row.table, row.row), "") if drawn else ""  # a shown cell typed over
            text = fitted_answer(f"{text} · {said}" if said and text else said or text)
            if text != row.feedback:
                index = row.row - placed.first_row
                batch.put(backend, placed.at(placed.cell(index, spec.of_kind(ColumnKind.FEEDBACK)[0].key)),
                          [[text]])
                report.feedback_written += 1
        _seat_rows_set_aside(batch, backend, read, seat, window, report, stale, copied=seat in copies, drawn=drawn)


def _over_feedback_writes(sheets: MatchSheets, read: MatchRead, batch: WriteBatch) -> int:
    """Once the match is over: the feedback of each row whose fate changed since the last window (typed since, or
    emptied: ``fates.over_feedback``); how many cells."""
    record = read.record
    outcome = record.ruleset.outcome(record.state)
    written = 0
    for seat, seat_read in read.seats.items():
        backend = seat_backend(sheets, read.tabs, seat)
        out = read.adapter.idle_reason(record.state, seat)
        for row in seat_read.rows:
            placed = seat_read.tab.table(row.table)
            idle = idle_feedback(None, seat, placed.spec, outcome.text if outcome else "", out)
            text = over_feedback(row, seat, placed.spec, idle, out)
            if text is not None and text != row.feedback:
                cell = placed.cell(row.row - placed.first_row, placed.spec.of_kind(ColumnKind.FEEDBACK)[0].key)
                batch.put(backend, placed.at(cell), [[text]])
                written += 1
    return written


def _seat_rows_set_aside(batch: WriteBatch, backend: SheetBackend, read: MatchRead, seat: str, window: Window,
                         report: WindowReport, stale: list[TypedRow], *, copied: bool,
                         drawn: DrawnAgain | None) -> None:
    """``_feedback_writes``' second half for one seat: the rows set aside (``stale``: stamped for another window; a
    name typed over; a shown cell typed over) written to its Archive, and its stray rows answered (``copied``: its
    file, saved from an older copy, is drawn again whole: none of that is kept)."""
    seat_read = read.seats[seat]
    # a name typed over in a row with nothing else typed is written back (the stray rows' mends): kept here
    named = StrayLayout(unplaced=tuple(s for s in seat_read.strays if s.over)) if not copied else None
    shown = drawn.typed.get(seat, []) if drawn else []
    aside = ([stale_line(seat_read.tab, window, stale)] if stale else []) + \
        (named.aside_line(seat_read.tab, window) if named is not None else []) + \
        ([shown_typed_over_line(capital(window.label), shown)] if shown else [])
    if named is not None and named.unplaced:
        report.drawn_again += [f"{tab} (a row's name: what was typed there kept in {read.tabs.archive(seat)!r})"
                               for tab in dict.fromkeys(s.tab for s in named.unplaced)]
    if aside:
        count = archive_lines_writes(batch, backend, read.tabs, seat, seat_read.archive_lines, aside)
        batch.put(backend, lines_cell(read.tabs, seat), [[count]])
    if stale:
        _set_aside(batch, backend, read, seat, window, stale)
    if not copied:  # drawn again: its stray rows were laid where the drawing leaves them free
        report.feedback_written += stray_feedback_writes(batch, backend, seat_read.tab, seat_read.strays)


def _has_verdict(adapter: AnySheetAdapter, row: TypedRow, verdicts: list[Verdict]) -> bool:
    return any(v.subject == row.subject and in_table(adapter, v, row.table) for v in verdicts)


def _set_aside(batch: WriteBatch, backend: SheetBackend, read: MatchRead, seat: str, window: Window,
               stale: list[TypedRow]) -> None:
    """Rows typed for another window (a line of the seat's archive says so and keeps them: ``stale_line``),
    cleared and drawn again as the open window draws them: the stamp, and what the row shows (a stamp or a move
    roll typed over by hand is put back)."""
    tab = read.seats[seat].tab
    state = read.record.state
    dice = read.record.dice()
    for row in stale:
        placed = tab.table(row.table)
        index = row.row - placed.first_row
        shown = read.adapter.shown(state, seat, placed.spec, row.subject, dice) \
            if placed.spec.of_kind(ColumnKind.SHOWN) else {}
        for c in placed.spec.columns:
            value: CellValue
            if c.kind.typed:
                value = False if c.kind in (ColumnKind.TICK, ColumnKind.READY) else ""
            elif c.kind is ColumnKind.WINDOW:
                value = placed.spec.stamp(window, seat)
            elif c.kind is ColumnKind.SHOWN:
                value = shown.get(c.key, "")
            else:
                continue
            batch.put(backend, placed.at(placed.cell(index, c.key)), [[value]])


def _settle_all(read: MatchRead, window: Window, answer: _Answer, resolution: Resolution[Any], new_record: MatchRecord,
                tabs: MatchTabs, report: WindowReport, next_dice: TurnDice) -> dict[str, tuple[SeatSettled,
                                                                                       dict[str, dict[str, TypedRow]]]]:
    """What the resolution does with every seat's rows (``fates.settle_seat``), with the rows its bots type for the
    window it opens, and those kept before them; when it opens a new window, every row kept for it says at once what
    that window makes of it (``opened.check_opened``), not what the window it closed said."""
    adapter: AnySheetAdapter = read.adapter
    ruleset = read.record.ruleset
    new_state = resolution.state
    new_window = ruleset.window(new_state)
    verdicts = list(resolution.verdicts) or answer.verdicts  # what the resolution said, if it says anything
    out: dict[str, tuple[SeatSettled, dict[str, dict[str, TypedRow]]]] = {}
    for seat, seat_read in read.seats.items():
        # Every row read is archived (a cut resolution is completed, and an undo puts rows back, from the
        # archive); the rows it did not carry out stay typed, with why (fates.settle_seat).
        engine_unused = dict(resolution.unused.get(seat, {}))
        settled = settle_seat(adapter, read.record.state, new_state, seat_read, window, new_window,
                              answer.inputs.get(seat), verdicts, engine_unused, bool(resolution.verdicts))
        before_bots = settled.kept
        play_bots(settled, new_record, adapter, new_window, seat, tabs.orders(seat), report.bots_typed)
        out[seat] = settled, before_bots
    if new_window is not None and new_window.key != window.key:
        seat_tabs = {s: r.tab for s, r in read.seats.items()}
        opened = check_opened(ruleset, adapter, new_state, new_window, next_dice, seat_tabs,
                              {s: settled.kept for s, (settled, _b) in out.items()}, read.tabs.spec)
        for seat, (settled, _before) in out.items():
            answer_settled(opened, adapter, seat, read.seats[seat].tab, settled)
    return out


def _stand_in(ruleset: AnyRuleset, resolution: Resolution[Any],
              recorded: Sequence[Mapping[str, Any]] | None) -> tuple[Resolution[Any], list[Any], list[Event]]:
    """The resolution with the GM events it applies after resolving: those its record names (``recorded``: a cut
    resolution completed), else the stand-in GM's (``Ruleset.stand_in_gm_events``: a practice match's), in the same
    write as the resolution (one transaction, never a second one a cut could lose). Returns the resolution with the
    state after them, the events and what they log; none when they cannot be applied (the GM's list keeps them)."""
    state = resolution.state
    if recorded is not None:
        gm = [gm_event_from_json(ruleset, e) for e in recorded]
    else:
        gm = ruleset.stand_in_gm_events(state) if ruleset.window(state) is not None else []
    if not gm:
        return resolution, [], []
    try:
        after, log = applied_gm_events(ruleset, state, gm)
    except BetweenWindowsError:
        return resolution, [], []
    return replace(resolution, state=after), gm, log


def _grown(sheets: MatchSheets, read: MatchRead, state: Any, batch: WriteBatch, report: WindowReport,
           owners: OwnersSource | None) -> MatchTabs:
    """The match's tabs for ``state``, a seat's input tab laid out again now if it needs more rows (its writes in
    ``batch`` then unguarded: its rows are no longer where they were read; ``report`` names it)."""
    tabs = grow_tables(sheets, read.tabs, read.record.ruleset, read.adapter, state, owners)
    report.tables_grown = list(tabs.grown(read.tabs))
    for seat in report.tables_grown:
        batch.unguard(seat_backend(sheets, read.tabs, seat))
    return tabs


def _with_stand_in(record: MatchRecord, gm: Sequence[Any], log_from: int, state: Any) -> MatchRecord:
    """``record`` (at the state the resolution left) at ``state``, the state after the GM events ``gm`` it applies,
    which it keeps as an adjustment's are (their Log lines from ``log_from``): for the next resolution's history
    row, and for undo to take back."""
    if gm:
        record = with_change(with_gm_events(record, gm), log_from, len(gm), gm_reasons(gm))
    return replace(record, state=state)


def _history(record: MatchRecord, window: Window, answer: _Answer, resolution: Resolution[Any],
             archived: Mapping[str, str], read_rows: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's history row of the resolution of ``window`` from ``record``: its orders, the rows it archived and
    read of each seat, the state it started from, its Log and View lines, the GM events filed with it, its deal and
    (once an undo reopened the match's end) the seed it was dealt from, by its place in ``MatchRecord.seeds``."""
    ruleset = record.ruleset
    return {"resolution": record.resolved + 1, "window": window.key,
            "orders": ruleset.orders_codec.to_json(answer.orders), "archived": dict(archived), "read": dict(read_rows),
            "state_before": ruleset.state_codec.to_json(record.state), "log_from": record.log_rows,
            "events": len(resolution.events), "seat_logs_from": dict(record.seat_logs),
            "gm_events": record.gm_events, **({"deal": record.deal} if record.deal else {}),
            **({"seed": len(record.reseeds)} if record.reseeds else {}),  # dealt from the seed drawn at an undo
            **({"kept_dice": dict(record.kept_dice)} if record.kept_for(record.state) else {}),
            **({"bots": dict(record.bots)} if record.bots else {})}


def _archived(new_record: MatchRecord, window: Window, new_window: Window | None, seat: str, settled: SeatSettled,
              stayed: list[dict[str, Any]], forced: bool) -> str:
    """What the resolution of ``window`` that leaves ``new_record`` keeps of ``seat``'s rows, in her pending row and
    its history row: the rows it read, those it kept for ``new_window`` (with their notes) and where they stood, what
    its Archive entry says of those not carried out whole, and whether the GM forced it (each rebuild of the entry
    reads it there); packed into one cell."""
    number = new_record.resolved
    return packed_cell(compact_json({"resolution": number, **({"deal": new_record.deal} if new_record.deal else {}),
                                     "window": window.key, "rows": [r.to_json() for r in settled.read],
                                     **({"kept": settled.notes, "for": new_window.key}
                                        if settled.notes and new_window else {}),
                                     "stayed": stayed,  # even empty: not a history from before it
                                     **settled.told(), **({"forced": True} if forced else {}),
                                     "gen": new_record.stamp().to_json()}),
                       f"rows {seat} typed that resolution {number} read")


def _deadline_after(deadline: str, window: Window, new_window: Window | None, now: datetime,
                    next_deadline: DeadlineRule | None) -> str:
    """The deadline of ``new_window``, open after ``window`` resolved (whose deadline was ``deadline``): the same
    when it is the same window (a step), or the window whose orders ``window`` took early (it closed at the judge's
    players' deadline, the same one); else the schedule's next ('' for none, or when the match is over)."""
    same_window = new_window is not None and new_window.key == window.key
    early = window.early is not None and new_window is not None and new_window.key == window.early.key
    if same_window or (early and deadline):
        return deadline
    return next_deadline(now) if next_deadline and new_window else ""


def _resolve(sheets: MatchSheets, read: MatchRead, window: Window, dice: TurnDice, answer: _Answer,
             recorded: ResolutionRecord | None, now: datetime, next_deadline: DeadlineRule | None,
             batch: WriteBatch, report: WindowReport, owners: OwnersSource | None,
             resolved: Resolution[Any] | None = None) -> ResolutionRecord:
    """Queue the resolution of ``window`` in ``batch`` (``recorded``: the record of a cut one it completes;
    ``resolved``: the engine's resolution, made already by ``_step_made``), with the GM events it applies after
    (``_stand_in``); returns its record, which is kept before the batch runs."""
    record = read.record
    ruleset = record.ruleset
    adapter: AnySheetAdapter = read.adapter
    if resolved is None:
        resolved = ruleset.resolve(record.state, answer.orders, dice)
    resolution, gm, gm_log = _stand_in(ruleset, resolved, recorded.gm_events if recorded is not None else None)
    forced = _forced(read, recorded, report.reason)  # kept in its record, pending rows and history row
    new_state = resolution.state
    new_window = ruleset.window(new_state)
    deadline = _deadline_after(record.deadline, window, new_window, now, next_deadline)
    number = record.resolved + 1
    public = public_log_writes(batch, sheets.board, read.tabs, record.log_rows, resolution.events, adapter)
    gm_public = public_log_writes(batch, sheets.board, read.tabs, record.log_rows + public, gm_log, adapter)
    new_record = _with_stand_in(replace(
        record, state=resolved.state, deadline=deadline, resolved=number, gm_events=None,
        log_rows=record.log_rows + public + gm_public,
        kept_dice=record.kept_dice if record.kept_for(new_state) else {},  # a step: same window
        last={"window": window.key, "by": "force" if forced else "sync", "at": now.isoformat()}
    ).moved_on(f"resolution {number} of deal {record.deal}"), gm, record.log_rows + public, new_state)
    events = [*resolution.events, *gm_log]
    status = status_line(adapter, new_record)
    outcome = ruleset.outcome(new_state)
    next_dice = record.dice(new_state)
    tabs = _grown(sheets, read, new_state, batch, report, owners)
    archived_by_seat: dict[str, str] = {}
    pending: dict[str, tuple[CellValue, ...]] = {}  # each seat's pending row, for the record
    all_settled = _settle_all(read, window, answer, resolution, new_record, tabs, report, next_dice)
    # shown cells typed over (a hex typed as the order): the tables are drawn again whole, their text kept first (a
    # cut resolution's: her tab may be drawn for the state after it)
    shown = archived_details(shown_typed_over(read, [(new_state, next_dice)] if read.cut_under_way else []))
    for seat, seat_read in read.seats.items():
        backend = seat_backend(sheets, read.tabs, seat)
        settled, before_bots = all_settled[seat]
        archived = _archived(new_record, window, new_window, seat, settled,
                             settled.stayed(seat_read, before_bots), forced)  # an undo puts `stayed` back
        # else the cut resolution wrote this seat's lines, with its rows read: only rows typed since are added
        lines = (settled.lines(seat_read.tab, window, forced) if seat_read.pending is None
                 else settled.completing_lines(seat_read.tab, window))
        over = names_typed_over(adapter, (record.state, new_state), seat, seat_read.tab, seat_read.rows) \
            if seat_read.pending is not None else ()  # else sort_rows told them apart
        strays = stray_layout(adapter, new_state, seat, seat_read.tab, tabs.orders(seat), seat_read.strays + over,
                              read_here=True)
        lines += strays.aside_line(seat_read.tab, window, new_window)  # typed in the closed one
        lines += [shown_typed_over_line(capital(window.label), shown[seat])] if shown.get(seat) else []
        count = archive_lines_writes(batch, backend, read.tabs, seat, seat_read.archive_lines, lines)
        pending[seat] = (window.key, archived, count)
        pending_writes(batch, backend, read.tabs, seat, pending[seat])
        # The engine's history row keeps it for good: undo puts the rows back from there, and a seat's file saved
        # from an older copy gets its Archive entry back from there.
        archived_by_seat[seat] = archived
        seat_tables_writes(batch, backend, tabs.orders(seat), adapter, new_state, new_window, seat, next_dice, status,
                           outcome.text if outcome else "", settled.kept, settled.shown, strays.queue(batch, backend))
    new_record = replace(new_record, seat_logs=views_writes(batch, sheets, read.tabs, adapter, new_state, status,
                                                            record.seat_logs, events, record.state))
    drawn = board_writes(batch, sheets.board, read.tabs, adapter, new_state, status, deadline, new_record.stamp())
    read_rows = {seat: recorded_rows(r for rows in in_order(seat_read, window).values() for r in rows if r.typed)
                 for seat, seat_read in read.seats.items()}  # every row read, standing ones too: what verify reads
    engine_tab = read.tabs.spec.tabs.engine
    batch.put(sheets.engine, *history_write(engine_tab, number, _history(record, window, answer, resolution,
                                                                         archived_by_seat, read_rows)))
    batch.put(sheets.engine, *engine_write(engine_tab, new_record))
    report.facts = PollFacts(new_record, tabs, adapter, window, record.state, events, filed=record.gm_events,
                             drawings=drawn)
    report.resolved, report.deadline, report.state, report.result = True, deadline, new_state, status
    report.judging = report.sealed = ""
    report.finished = new_window is None
    return ResolutionRecord(
        record.seed_hash, number, record.deal, window.key, pending, read_rows,
        {seat: tuple(seat_read.kept) for seat, seat_read in read.seats.items()},
        tuple(gm_event_to_json(ruleset, e) for e in gm), dice_key(dice), ruleset.orders_codec.to_json(answer.orders),
        ChangeJournal(record.seed_hash, f"resolution {number} ({window.label})", record.generation,
                      new_record.generation, ()), forced)

