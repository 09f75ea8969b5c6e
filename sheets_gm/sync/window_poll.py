"""One sync poll of a match of any ruleset: answer every row, and resolve the open window when due.

The window is due when every seat that acts in it has ticked its Ready box, when a stepwise
window's Go box asks for the ticked rows now, when its deadline has passed, or when the GM
forces it. Reads: one call per spreadsheet. An idle poll writes only the feedback that
changed (and sets aside rows typed for another window). A resolution writes one batch per
spreadsheet in this order: the seats' (archive the consumed rows in the pending row, redraw
every table for the next window), the judge's, the board's (board, status, public log), then
the engine's last: its record is the commit. A resolution cut before the commit is completed
by the next poll from the pending rows, keeping whatever was typed for the next window since.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sheets_gm.engine.core.dice import TurnDice
from sheets_gm.engine.core.ruleset import Verdict, Window
from sheets_gm.engine.registry import AnyRuleset
from sheets_gm.sheets.adapter import AnySheetAdapter, SeatInput
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import a1
from sheets_gm.sheets.spec import SEAT_ROWS, ColumnKind, InputTable
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.archive_lines import archive_lines_writes, lines_cell, read_line, stale_line
from sheets_gm.sync.deadline import deadline_moment, describe_deadline
from sheets_gm.sync.match_record import compact_json, engine_write, history_write
from sheets_gm.sync.sheets import MatchSheets, WriteBatch
from sheets_gm.sync.window_grow import OwnersSource, grow_tables
from sheets_gm.sync.window_read import MatchRead, SeatRead, read_match, seat_backend
from sheets_gm.sync.window_strays import stray_feedback_writes, stray_overlays, stray_rejections
from sheets_gm.sync.window_writes import (
    board_writes,
    idle_feedback,
    kept_sentence,
    public_log_writes,
    ready_sentence,
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
    finished: bool = False
    result: str = ""  # the status line after the poll
    state: Any = None
    force_refused: str = ""
    window_key: str = ""  # the key of the window the poll found open (what resolve --force --window names)
    deadline: str = ""  # when the open window closes after this poll ('' for no deadline)
    settings: Any = None  # the house rules the match was created with and keeps
    untyped: dict[str, list[str]] = field(default_factory=dict)  # acting seat -> its rows with nothing typed yet
    tables_grown: list[str] = field(default_factory=list)  # the seats whose input tab the resolution laid out larger
    short_tables: list[str] = field(default_factory=list)  # tables with fewer rows than the state gives them


def _deadline_passed(deadline: str, now: datetime) -> bool:
    moment = deadline_moment(deadline)
    return moment is not None and now >= moment


def row_feedback(row: TypedRow, seat: str, window: Window, table: InputTable, problems: Mapping[str, Any],
                 verdicts: list[Verdict], ready: bool, note: str = "") -> str:
    """The feedback sentence of one typed row: why a resolution left it unused (``note``), its unreadable cells,
    then the engine's verdicts (and for a seat row, its Ready box); with none of them, that it is kept."""
    parts = [note] if note else []
    parts += [f"✘ {p}" for p in problems.get(row.subject, [])]
    parts += [("✔ " if v.accepted else "✘ ") + v.message for v in verdicts]
    if table.of_kind(ColumnKind.READY):
        parts.append(ready_sentence(window, seat, table, ready))
    if not parts:
        parts.append(kept_sentence(window))
    return " · ".join(parts)


def unused_sentence(window: Window, why: str) -> str:
    """The feedback of a row a resolution read but did not carry out, kept for the window still open."""
    return f"Not resolved, kept for {window.label}: {why}."


@dataclass
class _Answer:
    """One poll's reading of the open window: each acting seat's input, merged orders and verdicts."""

    inputs: dict[str, SeatInput[Any]]
    orders: Any
    verdicts: list[Verdict]


def _answer(read: MatchRead, window: Window, dice: TurnDice) -> _Answer:
    ruleset = read.record.ruleset
    state = read.record.state
    inputs: dict[str, SeatInput[Any]] = {}
    for seat in window.seats:
        seat_read = read.seats.get(seat)
        rows = seat_read.for_window(window) if seat_read is not None else {}
        inputs[seat] = read.adapter.read_orders(state, window, seat, rows)
    orders = ruleset.merge_orders({s: i.orders for s, i in inputs.items()})
    return _Answer(inputs, orders, ruleset.check(state, orders, dice))


def poll(sheets: MatchSheets, ruleset_class: type[AnyRuleset], *, now: datetime, force: bool = False,
         window_key: str | None = None, next_deadline: DeadlineRule | None = None,
         dry_run: bool = False, owners: OwnersSource | None = None) -> WindowReport:
    """Read the match once, answer every row, resolve the open window if due, write back.

    ``force`` resolves the open window even if it is not due; with ``window_key``, only if the
    open window is that one (the GM must not force a window another sync opened meanwhile).
    ``owners``: who may type where, read only when a resolution must grow a table (``window_grow``)."""
    read = read_match(sheets, ruleset_class)
    record = read.record
    ruleset = record.ruleset
    window = ruleset.window(record.state)
    report = WindowReport(window="" if window is None else window.label, state=record.state,
                          result=status_line(read.adapter, record), window_key="" if window is None else window.key,
                          deadline=record.deadline, settings=ruleset.settings)
    if force and window_key is not None and (window is None or window_key != window.key):
        force = False
        report.force_refused = (f"window {window_key!r} is not the open one: "
                                + (f"{window.key!r} ({window.label}) is" if window else "the match is over")
                                + "; nothing was forced")
    if window is None:
        report.finished = True
        return report
    dice = record.dice()
    answer = _answer(read, window, dice)
    report.rejected = [(f"{seat} · {subject}", p) for seat, i in answer.inputs.items()
                       for subject, problems in i.problems.items() for p in problems]
    report.rejected += [(f"{v.seat} · {v.subject}", v.message) for v in answer.verdicts if not v.accepted]
    report.rejected += [r for seat, s in read.seats.items() for r in stray_rejections(seat, s.strays)]
    report.waiting_for = [s for s in window.awaited if not (s in answer.inputs and answer.inputs[s].ready)]
    report.untyped = _untyped_rows(read, window)
    report.short_tables = read.tabs.short(read.adapter, record.state)  # a match laid out before tables grew
    pending = any(s.pending is not None for s in read.seats.values())
    if pending:
        report.reason = "completing a resolution that was interrupted"
    elif force:
        report.reason = "forced by the GM"
    elif not report.waiting_for:
        report.reason = "every seat is ready" if len(window.awaited) > 1 else f"{window.awaited[0]} is ready"
    elif window.stepwise and any(i.go for i in answer.inputs.values()):
        report.reason = "a Go box is ticked"
    elif _deadline_passed(record.deadline, now):
        report.reason = f"the deadline {describe_deadline(record.deadline)} has passed"
    if dry_run:
        return report
    batch = WriteBatch()
    if not report.reason:
        _feedback_writes(sheets, read, window, answer, batch, report)
        report.write_calls = batch.run(sheets.write_order())
        return report
    _resolve(sheets, read, window, dice, answer, now, next_deadline, batch, report, owners)
    report.write_calls = batch.run(sheets.write_order())
    return report


def _untick_unused(seat_read: SeatRead, kept: dict[str, dict[str, TypedRow]],
                   unused: frozenset[str]) -> dict[str, dict[str, TypedRow]]:
    """``kept`` with the tick boxes (Go) of the rows a stepwise resolution did not use cleared: left ticked, the
    next poll would resolve the same refused row again instead of waiting for its player."""
    out: dict[str, dict[str, TypedRow]] = {}
    for table, rows in kept.items():
        ticks = [c.key for c in seat_read.tab.table(table).spec.of_kind(ColumnKind.TICK)]
        out[table] = {subject: (replace(row, values={**row.values, **dict.fromkeys(ticks, False)})
                                if subject in unused and ticks else row)
                      for subject, row in rows.items()}
    return out


def _untyped_rows(read: MatchRead, window: Window) -> dict[str, list[str]]:
    """Per seat acting in ``window``, the subjects of its rows (units, players, armies; not its seat row, nor a
    standing table's) with nothing typed for the window: whose orders the GM may want to chase."""
    out: dict[str, list[str]] = {}
    for seat in window.seats:
        seat_read = read.seats.get(seat)
        if seat_read is None:
            continue
        open_tables = {p.spec.name for p in seat_read.tab.tables
                       if p.spec.open_in(window.phase) and p.spec.rows != SEAT_ROWS and not p.spec.standing}
        typed = {r.subject for r in seat_read.rows if r.typed and r.window == window.key}
        missing = [r.subject for r in seat_read.rows
                   if r.table in open_tables and r.subject and r.subject not in typed]
        if missing:
            out[seat] = list(dict.fromkeys(missing))
    return out


def _feedback_writes(sheets: MatchSheets, read: MatchRead, window: Window, answer: _Answer, batch: WriteBatch,
                     report: WindowReport) -> None:
    """Feedback cells whose text changed; rows typed for another window set aside and cleared."""
    outcome_text = ""
    for seat, seat_read in read.seats.items():
        backend = seat_backend(sheets, read.tabs, seat)
        seat_input = answer.inputs.get(seat)
        preview = read.tabs.spec.preview  # else the verdicts wait for the resolution (hidden things, dice)
        verdicts = [v for v in answer.verdicts if v.seat == seat] if preview else []
        subjects = {r.subject for r in seat_read.rows}
        stale = seat_read.stale(window.key)
        for row in seat_read.rows:
            placed = seat_read.tab.table(row.table)
            spec = placed.spec
            if row in stale:
                copy = f"a copy is in tab {read.tabs.archive(seat)!r}"
                text = (f"✘ This was written for {row.window or 'a window that is not open'}; {window.label} is "
                        f"being played: write it again ({copy})." if seat in window.seats and
                        spec.open_in(window.phase) else
                        f"✘ Nothing is written here now ({window.label} is for {', '.join(window.seats)}): "
                        f"it was set aside ({copy}).")
            elif seat_input is not None and spec.open_in(window.phase) and (
                    row.typed or spec.rows == SEAT_ROWS or _has_verdict(row, verdicts)):
                mine = [v for v in verdicts if v.subject == row.subject]
                if spec.rows == SEAT_ROWS:  # the seat row also says what no other row does
                    mine += [v for v in verdicts if v.subject not in subjects]
                text = row_feedback(row, seat, window, spec, seat_input.problems, mine, seat_input.ready,
                                    seat_read.note(row))
            else:
                text = idle_feedback(window, seat, spec, outcome_text)
            if text != row.feedback:
                index = row.row - placed.first_row
                batch.put(backend, a1(seat_read.tab.name, placed.cell(index, spec.of_kind(ColumnKind.FEEDBACK)[0].key)),
                          [[text]])
                report.feedback_written += 1
        if stale:
            _set_aside(batch, backend, read, seat, window, stale)
        report.feedback_written += stray_feedback_writes(batch, backend, seat_read.tab, seat_read.strays)


def _has_verdict(row: TypedRow, verdicts: list[Verdict]) -> bool:
    return any(v.subject == row.subject for v in verdicts)


def _set_aside(batch: WriteBatch, backend: SheetBackend, read: MatchRead, seat: str, window: Window,
               stale: list[TypedRow]) -> None:
    """Rows typed for another window: a line of the seat's archive says so and keeps them, then they are cleared."""
    tabs = read.tabs
    tab = read.seats[seat].tab
    count = archive_lines_writes(batch, backend, tabs, seat, read.seats[seat].archive_lines,
                                 [stale_line(tab, window, stale)])
    batch.put(backend, lines_cell(tabs, seat), [[count]])
    for row in stale:
        placed = tab.table(row.table)
        for c in placed.spec.columns:
            if c.kind.typed:
                empty: bool | str = False if c.kind in (ColumnKind.TICK, ColumnKind.READY) else ""
                batch.put(backend, a1(tab.name, placed.cell(row.row - placed.first_row, c.key)), [[empty]])


def _resolve(sheets: MatchSheets, read: MatchRead, window: Window, dice: TurnDice, answer: _Answer, now: datetime,
             next_deadline: DeadlineRule | None, batch: WriteBatch, report: WindowReport,
             owners: OwnersSource | None) -> None:
    record = read.record
    ruleset = record.ruleset
    adapter: AnySheetAdapter = read.adapter
    resolution = ruleset.resolve(record.state, answer.orders, dice)
    new_state = resolution.state
    new_window = ruleset.window(new_state)
    same_window = new_window is not None and new_window.key == window.key
    deadline = record.deadline if same_window else (next_deadline(now) if next_deadline and new_window else "")
    number = record.resolved + 1
    public = public_log_writes(batch, sheets.board, read.tabs, record.log_rows, resolution.events)
    new_record = replace(record, state=new_state, deadline=deadline, resolved=number, gm_events=None,
                         log_rows=record.log_rows + public)
    status = status_line(adapter, new_record)
    outcome = ruleset.outcome(new_state)
    next_dice = record.dice(new_state)
    tabs = grow_tables(sheets, read.tabs, ruleset, adapter, new_state, owners)  # laid out again if it needs more rows
    report.tables_grown = list(tabs.grown(read.tabs))
    for seat, seat_read in read.seats.items():
        backend = seat_backend(sheets, read.tabs, seat)
        seat_input = answer.inputs.get(seat)
        consumed_subjects = seat_input.consumed if seat_input is not None else frozenset()
        # Every row read is archived (a cut resolution is completed, and an undo puts rows back, from the
        # archive); the rows it did not use stay typed while its window stays open.
        consumed = [r.to_json() for rows in seat_read.for_window(window).values() for r in rows
                    if r.subject in consumed_subjects and (r.typed or seat_read.pending is not None)]
        unused = resolution.unused.get(seat, {}) if same_window else {}
        used = consumed_subjects - frozenset(unused)
        # Rows typed for the window that opens now stay as typed: the rows of a stepwise window that were not
        # consumed or not used, what players typed since when completing a cut resolution, and standing rows
        # not used.
        kept: dict[str, dict[str, TypedRow]] = {}
        notes: dict[str, dict[str, str]] = {}
        if new_window is not None:
            cleared = used if same_window and seat_read.pending is None else frozenset()
            kept = seat_read.carried(new_window.key, cleared, used)
            if window.stepwise:  # a row kept unused waits for its player to correct it and tick Go again
                kept = _untick_unused(seat_read, kept, frozenset(unused))
            for table, rows in kept.items():
                for subject, row in rows.items():
                    note = (seat_read.note(row) if seat_read.pending is not None else
                            unused_sentence(new_window, unused[row.subject]) if row.subject in unused else "")
                    if note:
                        notes.setdefault(table, {})[subject] = note
        held = [{"table": t, "subject": s, "values": dict(kept[t][s].values), "note": n}
                for t, by_subject in notes.items() for s, n in by_subject.items()]
        archived = compact_json({"resolution": number, "window": window.key, "rows": consumed,
                                 **({"kept": held} if held else {})})
        lines = []
        if seat_read.pending is None:  # else the cut resolution wrote this seat's lines, with its rows read
            read_rows = [TypedRow.from_json(r) for r in consumed]
            if read_rows:
                lines.append(read_line(seat_read.tab, window, read_rows, unused))
            stale = seat_read.stale(window.key)
            if stale:
                lines.append(stale_line(seat_read.tab, window, stale))
        count = archive_lines_writes(batch, backend, read.tabs, seat, seat_read.archive_lines, lines)
        batch.put(backend, read.tabs.archive_pending_range(seat), [[window.key, archived, count]])
        batch.put(backend, read.tabs.archive_history_range(seat, number), [[window.key, archived, ""]])
        overlays = stray_overlays(adapter, new_state, seat, tabs.orders(seat), seat_read.strays, batch, backend)
        stray_feedback_writes(batch, backend, seat_read.tab, seat_read.strays, blank_rows_only=True)
        seat_tables_writes(batch, backend, tabs.orders(seat), adapter, new_state, new_window, seat, next_dice, status,
                           outcome.text if outcome else "", kept, notes, overlays)
    new_record = replace(new_record, seat_logs=views_writes(batch, sheets, read.tabs, adapter, new_state, status,
                                                            record.seat_logs, resolution.events, record.state))
    board_writes(batch, sheets.board, read.tabs, adapter, new_state, status)
    history = {"resolution": number, "window": window.key, "orders": ruleset.orders_codec.to_json(answer.orders),
               "state_before": ruleset.state_codec.to_json(record.state), "log_from": record.log_rows,
               "events": len(resolution.events), "seat_logs_from": dict(record.seat_logs),
               "gm_events": record.gm_events, **({"deal": record.deal} if record.deal else {})}
    engine_tab = read.tabs.spec.tabs.engine
    batch.put(sheets.engine, *history_write(engine_tab, number, history))
    batch.put(sheets.engine, *engine_write(engine_tab, new_record))
    report.resolved = True
    report.deadline = deadline
    report.state = new_state
    report.finished = new_window is None
    report.result = status

