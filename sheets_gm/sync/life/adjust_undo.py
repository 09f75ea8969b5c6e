"""Changing a match on the generic sync between two resolutions: GM events (``adjust``) and ``undo``.

Like a resolution, one write per spreadsheet, the engine last (the commit): every seat's tables
and View tab, the board and the log are drawn again from the new state; rows typed for the
window that is open afterwards stay as typed.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sheets_gm.engine.dice import deal_prefix
from sheets_gm.engine.events import Event, kind_words
from sheets_gm.engine.gm_events import BY_GM, apply_gm, gm_event_from_json, gm_event_problem, gm_event_to_json
from sheets_gm.engine.ruleset import Window
from sheets_gm.engine.words import counted
from sheets_gm.rulesets.registry import AnyRuleset
from sheets_gm.sheets.adapter import CONFIG_STAND_IN
from sheets_gm.sheets.layout import Grid
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sheets.tables import InputTab, TypedRow
from sheets_gm.sync.bot_seats import NO_BOT, BotSeatError, checked_bots, play_bots, whole_bot_seats
from sheets_gm.sync.journal import journaled_change
from sheets_gm.sync.life.grow import OwnersSource, grow_tables
from sheets_gm.sync.life.own_lines import SyncEvent, with_own_lines
from sheets_gm.sync.life.reopen import ended_resolution, reseed_event, reseeded
from sheets_gm.sync.life.replay import entry_dice
from sheets_gm.sync.life.seed_check import check_seed
from sheets_gm.sync.life.settle import settle_cut_command
from sheets_gm.sync.life.undone_views import UNDONE, undone_listing, with_undone
from sheets_gm.sync.match_record import (
    MatchRecord,
    compact_json,
    engine_write,
    history_range,
    joined_cells,
    kept_keys,
)
from sheets_gm.sync.match_tabs import LOG_FIRST_ROW, MatchTabs
from sheets_gm.sync.poll_facts import PollFacts
from sheets_gm.sync.read import MatchRead, current_mark, read_match, restamped
from sheets_gm.sync.rows.archive_lines import ArchiveLine, archive_lines_writes, capital
from sheets_gm.sync.rows.fate_words import (
    adjust_cause,
    handed_cause,
    shown_typed_over_line,
    undo_adjustment_cause,
    undo_cause,
)
from sheets_gm.sync.rows.fates import (
    SeatSettled,
    aside_notice,
    given_back,
    given_back_aside,
    given_back_line,
    given_back_notice,
    handed_back,
    handed_line,
    kept_refusals,
    settle_change,
    taken_over,
    undo_lines,
)
from sheets_gm.sync.rows.opened import answer_settled, check_opened
from sheets_gm.sync.rows.pending_row import pending_writes
from sheets_gm.sync.rows.strays import stray_layout
from sheets_gm.sync.rows.undo_rows import UndoneSeat, undone_seat
from sheets_gm.sync.save_race import again_if_saved
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend
from sheets_gm.sync.shown_cells import archived_details, shown_typed_over
from sheets_gm.sync.writes import (
    board_writes,
    public_log_writes,
    seat_tables_writes,
    status_line,
    views_writes,
)


class BetweenWindowsError(ValueError):
    """A GM operation that cannot be done now; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class DealtDie:
    """A die of the window an undo reopened: its key, the deal it is rolled in, and the HMAC message anyone can
    recompute it from once the seed is revealed. ``kept``: public before the orders (its value shown on the
    sheets, ``value``), so it keeps its deal; otherwise revealed by the undone resolution and dealt afresh."""

    key: str
    deal: int
    message: str
    kept: bool
    value: int | None = None  # a kept roll's value (it was public); a die dealt afresh is not shown


@dataclass(frozen=True, slots=True)
class BetweenReport:
    """What an adjustment or an undo did."""

    events: list[Event]
    state: Any
    write_calls: int
    restored: int = 0  # undo: rows put back
    set_aside: int = 0  # undo: rows typed since, set aside in the seats' archives
    over: str = ""  # adjust: how the match ended if this adjustment ended it ('' while it goes on)
    open_now: str = ""  # adjust: the label of the window open after it ('' when none is)
    dice: tuple[DealtDie, ...] = ()  # undo: the reopened window's dice, kept or dealt afresh
    fresh_prefix: str = ""  # undo: how the message of every die dealt afresh starts ("2.1/")
    # undo: the resolution it took back, as its notices name it: the match's record then (its seed's hash and deal),
    # the window it had resolved, its number and the window's label (``notify.announce.remember_undo`` drops its news
    # not sent yet, and keeps the window for the next poll's notices)
    undone: tuple[str, int, str, int, str] | None = None
    # undo: the rows set aside, by seat, and the label of the window they were typed for (the mailroom tells each
    # mail's sender which of her mailed lines they hold: ``running.mailroom.aside``)
    aside: tuple[str, Mapping[str, Sequence[TypedRow]]] = ("", {})
    facts: PollFacts | None = None  # the match as the change leaves it, for the page its command builds
    committed: str = ""  # undo of the match's end: the hash of the fresh seed it committed (``reopen``)


def _settle_first(sheets: MatchSheets, ruleset_class: type[AnyRuleset], command: str) -> None:
    """A repair or an export cut short, settled before the GM's change (``life/settle``): she is told, and the
    command she typed waits for her to type it again (BetweenWindowsError), as for a change cut short."""
    said = settle_cut_command(sheets, ruleset_class)
    if said:
        raise BetweenWindowsError(f"{said}. Your {command} was not done: run it again if you still want it")


def _check_not_interrupted(read: MatchRead, command: str) -> None:
    """BetweenWindowsError when the read found a command cut short: a resolution (the next sync completes it), or a
    change the read just completed (the GM is told, and the command she typed waits for her to type it again)."""
    if read.completed:
        raise BetweenWindowsError(f"{read.completed}. Your {command} was not done: run it again if you still want it")
    cut = [seat for seat, s in read.seats.items() if s.pending is not None]
    if cut:
        raise BetweenWindowsError(f"the last resolution was interrupted ({', '.join(cut)}'s orders are archived but "
                                  f"not saved); run `sheets-gm sync -c {CONFIG_STAND_IN}` to complete it first — "
                                  "nothing was written")


def _redraw(sheets: MatchSheets, read: MatchRead, record: MatchRecord, events: Sequence[Event], batch: WriteBatch,
            kept_rows: dict[str, list[TypedRow]], cause: str, notes: bool = False,
            owners: OwnersSource | None = None,
            told: Mapping[str, Mapping[str, Mapping[str, str]]] | None = None,
            lines: Mapping[str, Sequence[ArchiveLine]] | None = None, pending_cleared: bool = False) -> MatchRecord:
    """Queue the whole match drawn at ``record``'s state, ``events`` logged; returns the record with its
    log counters moved on (the caller queues its engine values last). What becomes of each seat's ``kept_rows`` is
    ``fates.settle_change``'s: kept in their cells, or set aside to the Archive (an entry naming ``cause``, "the
    GM adjusted the match (why)", and a line of her View), never dropped. With ``notes``, the rows the last
    resolution kept unused still say why, and a row the last poll refused its refusal; ``told`` (by seat, table and
    subject) is what a kept row says; ``lines``: the Archive entries the caller's change writes first, by seat;
    ``pending_cleared``: the Archive's pending row, which names the undone resolution, replaced by the mark of
    the match as the undo leaves it (an undo)."""
    ruleset = record.ruleset
    state = record.state
    window = ruleset.window(state)
    before = ruleset.window(read.record.state) or window  # open before the change (a GM changes a match in play)
    assert before is not None, "a change the GM makes leaves a window open, or had one open"
    outcome = ruleset.outcome(state)
    status = status_line(read.adapter, record)
    dice = record.dice()
    tabs = grow_tables(sheets, read.tabs, ruleset, read.adapter, state, owners)  # a unit added: its row
    read.guard(batch, sheets)  # a cell a player saves after the command's read is never written over
    for seat in tabs.grown(read.tabs):  # laid out again: its rows are no longer where they were read
        batch.unguard(seat_backend(sheets, read.tabs, seat))
    events = list(events)
    # An undo's promise holds in a window only bots act in: their rows put back unticked, they do not type and tick
    # again at once (the next poll would resolve the window anew); the GM moves it on (resolve --force, adjust --bot)
    bots_wait = pending_cleared and window is not None and set(window.awaited) <= whole_bot_seats(record)
    all_settled = _settle_seats(read, record, tabs, kept_rows, notes, told, bots_play=not bots_wait)
    shown = archived_details(shown_typed_over(read))  # shown cells typed over: kept, the rows drawn again whole
    for seat, seat_read in read.seats.items():
        backend = seat_backend(sheets, read.tabs, seat)
        settled = all_settled[seat]
        changed = settled.change_lines(seat_read.tab, window or before, cause)
        if changed:
            count = len(settled.set_aside) + len(settled.gone)
            events.append(Event((window or before).logged_turn, SyncEvent.ASIDE,
                                aside_notice(count, cause, read.tabs.archive(seat)),
                                {"rows": count}, audience=frozenset({seat})))
        strays = stray_layout(read.adapter, state, seat, seat_read.tab, tabs.orders(seat), seat_read.strays)
        written = [*(lines or {}).get(seat, ()), *changed, *strays.aside_line(seat_read.tab, window or before),
                   *([shown_typed_over_line(capital(before.label), shown[seat])] if shown.get(seat) else [])]
        count = archive_lines_writes(batch, backend, read.tabs, seat, seat_read.archive_lines, written)
        # the file drawn for the record as the change leaves it (its stamp: ``sync.history``)
        refused = _refusals_put_back(settled.kept, (told or {}).get(seat, {}), seat_read.tab, window, seat)
        mark = (["", current_mark(record.resolved, record.deal, record.stamp(), refused, window.key if window else "")]
                if pending_cleared else restamped(seat_read.pending_cells, record, f"rows {seat} typed")[:2])
        pending_writes(batch, backend, read.tabs, seat, [*mark, count])
        seat_tables_writes(batch, backend, tabs.orders(seat), read.adapter, state, window, seat, dice, status,
                           outcome.text if outcome else "", settled.kept, settled.shown, strays.queue(batch, backend))
    seat_logs = views_writes(batch, sheets, read.tabs, read.adapter, state, status, record.seat_logs, events,
                             read.record.state)
    board_writes(batch, sheets.board, read.tabs, read.adapter, state, status, record.deadline, record.stamp())
    public = public_log_writes(batch, sheets.board, read.tabs, record.log_rows, events, read.adapter)
    record = with_own_lines(record, record.log_rows, events, read.adapter)  # for verify -c to check their words
    return replace(record, log_rows=record.log_rows + public, seat_logs=seat_logs)


def _refusals_put_back(kept: Mapping[str, Mapping[str, TypedRow]], told: Mapping[str, Mapping[str, str]],
                       tab: InputTab, window: Window | None, seat: str) -> list[dict[str, Any]]:
    """The notes an undo keeps in the seat's pending row (``current_mark``): each row it put back in a table the
    window it reopened does not read from her, with the refusals it says (``told``), so that the polls after it say
    them too until a window reads the row (a row keeps its reason until its text changes, issue 75)."""
    out: list[dict[str, Any]] = []
    for table, rows in kept.items():
        if window is not None and seat in window.seats and tab.table(table).spec.open_in(window.phase):
            continue  # read by the window reopened: the next poll answers it anew
        said = kept_refusals([replace(row, subject=subject, feedback=told.get(table, {}).get(subject, ""))
                              for subject, row in rows.items()]).get(table, {})
        out += [{"table": table, "subject": subject, "values": dict(rows[subject].values), "note": note}
                for subject, note in said.items()]
    return out


def _settle_seats(read: MatchRead, record: MatchRecord, tabs: MatchTabs, kept_rows: Mapping[str, Sequence[TypedRow]],
                  notes: bool, told: Mapping[str, Mapping[str, Mapping[str, str]]] | None,
                  bots_play: bool = True) -> dict[str, SeatSettled]:
    """What the change does with each seat's ``kept_rows`` (``fates.settle_change``, then the rows its bots type), the
    match at ``record``'s state. With ``notes`` (an adjustment or a seat handed over, not an undo, whose rows put back
    say already what the window reopened makes of them), each row kept for the window open after the change says at
    once what that window makes of it, as the next poll writes it (``opened.check_opened``): read, refused because …,
    or kept for her next turn; ``told`` (a seat handed back) still says why its boxes were unticked. Without
    ``bots_play`` (an undo of a window only bots act in) the bots type nothing: their rows put back stay unticked."""
    ruleset = record.ruleset
    state = record.state
    window = ruleset.window(state)
    out: dict[str, SeatSettled] = {}
    for seat, seat_read in read.seats.items():
        said = kept_refusals(kept_rows.get(seat, [])) if notes else {}  # what the last check refused, until the next
        for row in kept_rows.get(seat, []) if notes else []:
            if seat_read.note(row):
                said.setdefault(row.table, {})[row.subject] = seat_read.note(row)
        for table, by_subject in (told or {}).get(seat, {}).items():
            said.setdefault(table, {}).update(by_subject)
        out[seat] = settle_change(read.adapter, state, seat_read, window, kept_rows.get(seat, []), said)
        if bots_play:
            play_bots(out[seat], record, read.adapter, window, seat, tabs.orders(seat), [])  # a row typed over: aside
    if notes and window is not None:
        seat_tabs = {seat: seat_read.tab for seat, seat_read in read.seats.items()}
        opened = check_opened(ruleset, read.adapter, state, window, record.dice(), seat_tabs,
                              {seat: settled.kept for seat, settled in out.items()}, read.tabs.spec)
        for seat, settled in out.items():
            seat_read = read.seats[seat]
            noted = {(t, s): seat_read.note(row) for t, rows in settled.kept.items() for s, row in rows.items()}
            answer_settled(opened, read.adapter, seat, seat_read.tab, settled, notes=noted,
                           told=(told or {}).get(seat, {}))
    return out


def _match_in_play(sheets: MatchSheets, ruleset_class: type[AnyRuleset], command: str) -> MatchRead:
    """The match read for a GM change, its seed checked: refused (BetweenWindowsError) while a resolution is cut
    short or once it is over."""
    _settle_first(sheets, ruleset_class, command)
    read = read_match(sheets, ruleset_class)
    check_seed(read.record, f"{sheets.engine.name} tab {read.tabs.spec.tabs.engine!r}")
    _check_not_interrupted(read, command)
    if read.record.ruleset.window(read.record.state) is None:
        raise BetweenWindowsError("the match is over; undo its last window first to change it")
    return read


def adjust_match(sheets: MatchSheets, ruleset_class: type[AnyRuleset],
                        gm_events: Sequence[Any], owners: OwnersSource | None = None) -> BetweenReport:
    """Apply GM events in order, all or none; log them and write the match. They are kept in the engine
    record until the next resolution files them in its history row, so a replay applies them again. A player's
    save that races the write is kept: the adjustment is made again from a fresh read (``save_race``)."""
    if not gm_events:
        raise BetweenWindowsError("nothing to change: give one of the corrections this game accepts")
    return again_if_saved(lambda: _adjusted(sheets, ruleset_class, gm_events, owners), "the adjustment")


def _adjusted(sheets: MatchSheets, ruleset_class: type[AnyRuleset], gm_events: Sequence[Any],
              owners: OwnersSource | None) -> BetweenReport:
    """One attempt of ``adjust_match``: read, apply, write (SavedMeanwhileError: a save raced the write)."""
    read = _match_in_play(sheets, ruleset_class, "adjustment")
    record = read.record
    ruleset = record.ruleset
    state, log = applied_gm_events(ruleset, record.state, gm_events)
    batch = WriteBatch()
    rows = {seat: list(s.rows) for seat, s in read.seats.items()}
    reasons = gm_reasons(gm_events)
    cause = adjust_cause(reasons)
    new = _redraw(sheets, read, replace(with_gm_events(record, gm_events), state=state).moved_on(
        f"adjustment: {cause}"), log, batch, rows, cause, notes=True, owners=owners)
    new = with_change(new, record.log_rows, len(gm_events), reasons)
    batch.put(sheets.engine, *engine_write(read.tabs.spec.tabs.engine, new))
    outcome = ruleset.outcome(state)
    window = ruleset.window(state)
    over = (outcome.text or "the match is over") if outcome is not None else ("the game is over" if window is None
                                                                              else "")
    calls = journaled_change(batch, sheets.write_order(), sheets.journal,
                             f"the GM's adjustment ({reasons or 'no reason given'})", record, new)
    return BetweenReport(log, state, calls, over=over, open_now=window.label if window is not None else "",
                         facts=PollFacts(new, read.tabs, read.adapter))


#: The pending GM events' key for the adjustments they hold, one ``[first Log row index, end Log row index, events,
#: reasons]`` each, in order: what ``undo`` takes back, the last first, while no resolution files them.
_CHANGES = "changes"


def logged_changes(pending: Mapping[str, Any]) -> list[tuple[int, int]] | None:
    """Each adjustment ``pending`` (a record's pending GM events) holds, in order: the index of the Log row its lines
    start at and its count of events; None when an earlier version of sheets-gm recorded them without their rows."""
    changes = pending.get(_CHANGES)
    events = pending.get("events") or []
    if not isinstance(changes, list) or not all(isinstance(c, list) and len(c) == 4 and isinstance(c[0], int)
                                                and isinstance(c[2], int) for c in changes):
        return None
    found = [(int(c[0]), int(c[2])) for c in changes]
    return found if sum(count for _, count in found) == len(events) else None


def applied_gm_events(ruleset: AnyRuleset, state: Any, gm_events: Sequence[Any]) -> tuple[Any, list[Event]]:
    """``gm_events`` applied to ``state`` in order, all or none (BetweenWindowsError naming the first that cannot
    be): the state after them and what they log."""
    log: list[Event] = []
    for event in gm_events:
        if problem := gm_event_problem(ruleset, state, event):
            raise BetweenWindowsError(f"{problem} — nothing was written")
        try:
            result = apply_gm(ruleset, state, event)
        except ValueError as exc:
            raise BetweenWindowsError(f"{exc} — nothing was written") from None
        state, log = result.state, log + result.events
    return state, log


def gm_reasons(gm_events: Sequence[Any]) -> str:
    """The reasons ``gm_events`` give (every game's GM event carries the GM's reason, written to the Log with it),
    each once, joined."""
    return "; ".join(dict.fromkeys(w for e in gm_events if (w := str(getattr(e, "reason", "") or "").strip())))


def with_gm_events(record: MatchRecord, gm_events: Sequence[Any]) -> MatchRecord:
    """``record`` keeping ``gm_events`` among its pending GM events (applied to its state, which the first of them
    keeps as the state before them), for the next resolution to file in its history row."""
    ruleset = record.ruleset
    pending = record.gm_events or {"state_before": ruleset.state_codec.to_json(record.state), "events": []}
    return replace(record, gm_events={
        **pending, "events": [*pending["events"], *(gm_event_to_json(ruleset, e) for e in gm_events)]})


def with_change(record: MatchRecord, log_from: int, count: int, reasons: str) -> MatchRecord:
    """``record`` keeping, in its pending GM events, the adjustment just applied: the Log rows it wrote (from index
    ``log_from`` to the record's count), its ``count`` events (the last of the list) and its ``reasons``."""
    pending = record.gm_events or {}
    change = [log_from, record.log_rows, count, reasons]
    return replace(record, gm_events={**pending, _CHANGES: [*pending.get(_CHANGES, []), change]})


@dataclass(frozen=True, slots=True)
class _PendingChange:
    """The last adjustment the pending GM events hold: its events' count, the Log rows it wrote (``log_from`` to
    ``log_end``, indexes; both 0 when an earlier version of sheets-gm recorded it without them) and its reasons."""

    count: int
    log_from: int
    log_end: int
    reasons: str


def _last_change(pending: Mapping[str, Any]) -> _PendingChange:
    """The last adjustment of ``pending`` (``_CHANGES``); pending events recorded without that list (by an earlier
    version) are taken back together, as one."""
    events = pending.get("events") or []
    changes = pending.get(_CHANGES)
    last = changes[-1] if isinstance(changes, list) and changes else None
    if isinstance(last, list) and len(last) == 4 and all(isinstance(v, int) for v in last[:3]) \
            and 0 < last[2] <= len(events):
        return _PendingChange(last[2], last[0], last[1], str(last[3]))
    reasons = "; ".join(dict.fromkeys(str(e.get("reason", "")).strip() for e in events
                                      if isinstance(e, Mapping) and str(e.get("reason", "")).strip()))
    return _PendingChange(len(events), 0, 0, reasons)


def _undo_adjustment(sheets: MatchSheets, read: MatchRead, reason: str, owners: OwnersSource | None,
                     ended: bool = False) -> BetweenReport:
    """Take back the last adjustment no resolution has filed yet (made before the first window resolved, or one that
    ended the match, ``ended``): the state before it (the pending events' first state, the earlier adjustments
    applied again), logged as an undo whose line names the Log rows it no longer holds; the rows typed stay where
    they stand, the files drawn again. A match it ended deals from a fresh seed, committed now (``reopen``)."""
    record = read.record
    ruleset = record.ruleset
    pending = dict(record.gm_events or {})
    events = list(pending.get("events") or [])
    change = _last_change(pending)
    kept = events[:len(events) - change.count]
    try:
        state = ruleset.state_codec.from_json(pending["state_before"])
        for data in kept:
            state = apply_gm(ruleset, state, gm_event_from_json(ruleset, data)).state
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise BetweenWindowsError(f"the GM events kept in tab {read.tabs.spec.tabs.engine!r} cannot be applied again "
                                  f"({exc}); nothing was written") from None
    reopened = ruleset.window(state)
    if reopened is None:
        raise BetweenWindowsError("the state before the last adjustment has no window open; the engine tab was "
                                  "edited — nothing was written")
    changes = pending.get(_CHANGES)
    pending = {**pending, "events": kept, _CHANGES: changes[:-1] if isinstance(changes, list) else []}
    undone = change.reasons or "no reason given"
    text = (f"GM undoes the adjustment ({undone}): {reason}. The match is back to before it, at {reopened.label}; "
            "the rows typed stay as they stand")
    runs = _ranges(change.log_from, change.log_end, set()) if 0 <= change.log_from < change.log_end else []
    if runs:  # what the verify of the Log leaves out
        text += f"; what it logged (Log rows {' and '.join(f'{a} to {b}' for a, b in runs)}) no longer holds"
    undo = Event(reopened.logged_turn, SyncEvent.UNDO, text + ".",
                 {"adjustment": undone, "reason": reason, BY_GM: True})
    batch = WriteBatch()
    # The rows stamped for what the adjustment left open (its end: no window) were typed for the window it had
    # closed or moved on: they are that window's again, not set aside as written for another.
    closed = ruleset.window(record.state)
    closed_key = closed.key if closed is not None else ""
    rows = {seat: [replace(r, window=reopened.key) if r.typed and r.window == closed_key else r for r in s.rows]
            for seat, s in read.seats.items()}
    back = replace(record, state=state, gm_events=pending)
    if ended:  # the notices of the window it reopens are news again (their keys name the deal)
        back = reseeded(replace(back, deal=record.deal + 1), reason,
                        {"adjustment": undone, "resolution": record.resolved})
    back = back.moved_on(f"undo of the adjustment: {undone}")
    logged = [*_reseed_events(record, back, reopened, reason), undo]
    new = _redraw(sheets, read, back, logged, batch, rows, undo_adjustment_cause(undone, reason), notes=True,
                  owners=owners)
    batch.put(sheets.engine, *engine_write(read.tabs.spec.tabs.engine, new))
    calls = journaled_change(batch, sheets.write_order(), sheets.journal, f"the undo of the adjustment ({undone})",
                             record, new)
    return BetweenReport(logged, state, calls, open_now=reopened.label, facts=PollFacts(new, read.tabs, read.adapter),
                         committed=_committed(record, back),
                         undone=(record.seed_hash, record.deal, reopened.key, record.resolved + 1, reopened.label)
                         if ended else None)


def hand_seats(sheets: MatchSheets, ruleset_class: type[AnyRuleset], wanted: Mapping[str, str], reason: str,
               owners: OwnersSource | None = None) -> BetweenReport:
    """Hand seats (or a team's or side's members) to one of the game's bots, or back to a person (``none``), all or
    none; logged in the public Log with ``reason``. A bot whose seat acts in the open window types its rows in the
    same write; a seat handed back keeps what its bot typed, for its player to change, but for the rows her pasted post
    gives (``fates.given_back``: set aside to her Archive, so that the post's lines are read). ``undo`` takes it back
    with the resolution it follows, like any adjustment."""
    if not reason.strip():
        raise BetweenWindowsError("handing a seat to a bot needs a reason; it is written to the log")
    if not wanted:
        raise BetweenWindowsError("name a seat and a bot: --bot Bo=skirmisher (or Bo=none)")
    return again_if_saved(lambda: _handed_over(sheets, ruleset_class, wanted, reason, owners), "the hand-over")


def _handed_over(sheets: MatchSheets, ruleset_class: type[AnyRuleset], wanted: Mapping[str, str], reason: str,
                 owners: OwnersSource | None) -> BetweenReport:
    """One attempt of ``hand_seats``: read, hand over, write (SavedMeanwhileError: a save raced the write)."""
    read = _match_in_play(sheets, ruleset_class, "hand-over")
    record = read.record
    ruleset = record.ruleset
    window = ruleset.window(record.state)
    assert window is not None  # _match_in_play refuses a match that is over
    try:
        bots = checked_bots(ruleset, read.adapter, read.tabs, record.state, wanted, record.bots)
    except BotSeatError as exc:
        raise BetweenWindowsError(f"{exc} — nothing was written") from None
    log = [Event(window.logged_turn, SyncEvent.BOT, _handed(name, bots.get(name, NO_BOT), reason.strip()),
                 {"name": name, "bot": bots.get(name, NO_BOT), "reason": reason.strip(), BY_GM: True})
           for name in wanted]
    batch = WriteBatch()
    rows: dict[str, list[TypedRow]] = {}
    lines: dict[str, list[ArchiveLine]] = {}
    told: dict[str, dict[str, dict[str, str]]] = {}
    for seat, seat_read in read.seats.items():
        # What a person typed in rows a bot takes over goes to the seat's archive: the bot types its own.
        taken = taken_over(seat_read, {n: k for n, k in bots.items() if record.bots.get(n) != k})
        whole = seat in record.bots and seat not in bots
        returned = given_back(seat_read.tab, seat_read.rows, None if whole else set(record.bots) - set(bots))
        rows[seat] = [r for r in seat_read.rows if r not in taken and r not in returned]
        if whole:  # handed back: the bot's rows kept wait for her, unticked (those set aside said so)
            aside = given_back_aside(len(returned), read.tabs.archive(seat)) if returned else ""
            rows[seat], told[seat] = handed_back(seat_read.tab, rows[seat], reason.strip(), aside)
        if taken:
            kind = bots.get(seat) or bots.get(taken[0].subject, "")
            lines[seat] = [handed_line(seat_read.tab, window, kind, reason.strip(), taken)]
        if returned:  # her post gives the orders, not the bot's rows: they go to her Archive, said in her View
            lines.setdefault(seat, []).append(given_back_line(seat_read.tab, window, reason.strip(), returned))
            log.append(Event(window.logged_turn, SyncEvent.ASIDE, given_back_notice(
                len(returned), reason.strip(), read.tabs.archive(seat)), {"rows": len(returned)},
                audience=frozenset({seat})))
    new = _redraw(sheets, read, replace(record, bots=bots).moved_on(f"bots: {compact_json(bots)}"), log, batch, rows,
                  handed_cause(reason.strip()), notes=True, owners=owners, told=told, lines=lines)
    batch.put(sheets.engine, *engine_write(read.tabs.spec.tabs.engine, new))
    what = f"handing {', '.join(wanted)} to {'a bot' if len(wanted) == 1 else 'bots'} or back ({reason.strip()})"
    calls = journaled_change(batch, sheets.write_order(), sheets.journal, what, record, new)
    return BetweenReport(log, record.state, calls, open_now=window.label, facts=PollFacts(new, read.tabs, read.adapter))


def _handed(name: str, kind: str, reason: str) -> str:
    """The log's sentence: ``GM hands Bo to the skirmisher bot: no opponent this week.``"""
    if kind == NO_BOT:
        return f"GM hands {name} back to a person: {reason}."
    return f"GM hands {name} to the {kind} bot: {reason}."


def _json_row(grid: Grid, where: str) -> dict[str, Any]:
    row = grid[0] if grid else []
    try:
        data = json.loads(joined_cells(row, 1)) if len(row) > 1 else None
    except ValueError:  # not JSON, or a packed value damaged
        data = None
    if not isinstance(data, dict):
        raise BetweenWindowsError(f"{where} cannot be read; undo needs it (restore it from an export) — nothing "
                                  "was written")
    return data


def _history_entries(sheets: MatchSheets, engine_tab: str, number: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The history rows of resolution ``number`` (the one an undo takes back) and of the one before it (empty when
    there is none, or it cannot be read: the record's ``last`` then says nothing), in one read of the engine."""
    ranges = [history_range(engine_tab, number), *([history_range(engine_tab, number - 1)] if number > 1 else [])]
    grids = sheets.engine.read(ranges)
    entry = _json_row(grids[0], f"tab {engine_tab!r}, the history row of resolution {number}")
    try:
        before = _json_row(grids[1], "") if number > 1 else {}
    except BetweenWindowsError:
        before = {}
    return entry, before


def _archived_record(entry: Mapping[str, Any], seat: str, number: int, engine_tab: str) -> dict[str, Any]:
    """What resolution ``number`` archived of ``seat``'s rows, from the engine's history row ``entry``, which keeps it
    under ``archived``: the rows it read (``rows``) and those it kept in their cells (``stayed``, and ``kept``: why).
    BetweenWindowsError when it does not: a match whose history lacks them is moved over by ``repair``, from the
    hidden columns its Archive tabs had."""
    archived = entry.get("archived")
    cell = archived.get(seat) if isinstance(archived, Mapping) else None
    try:
        found = json.loads(joined_cells([cell], 0)) if isinstance(cell, str) else None
    except ValueError:
        found = None
    if not isinstance(found, dict) or not isinstance(found.get("rows"), list):
        raise BetweenWindowsError(f"tab {engine_tab!r}, the history row of resolution {number}, keeps no readable copy "
                                  f"of the rows {seat} typed (a match made by an earlier version of sheets-gm: run "
                                  f"sheets-gm repair -c {CONFIG_STAND_IN}, which moves its copies there from the "
                                  "Archive tabs) — nothing was written")
    return found


def _window_dice(read: MatchRead, state: Any, entry: Mapping[str, Any], deal: int, keep_shown: bool = True) -> tuple[
        dict[str, tuple[int, int]], tuple[DealtDie, ...]]:
    """The reopened window's dice once it is dealt afresh as ``deal``: the rolls its seats' sheets showed before
    anyone typed (drawn again with the dice the undone resolution rolled, ``peeked``) keep the deal they were shown
    with (key → deal and sides), unless not ``keep_shown`` (the match's end published their seed); every die the
    undone resolution rolled or drew besides is dealt afresh. Each as a ``DealtDie``, kept ones first."""
    record = read.record
    ruleset = record.ruleset
    shown = entry_dice(ruleset, record.seeds, state, entry)
    for seat, seat_read in read.seats.items():
        for placed in seat_read.tab.tables:
            if placed.spec.of_kind(ColumnKind.SHOWN):
                for subject in read.adapter.rows(state, seat, placed.spec):
                    read.adapter.shown(state, seat, placed.spec, subject, shown)
    window = ruleset.window(state)
    earlier = kept_keys(entry.get("kept_dice"), window.key if window is not None else "")
    keep = {key: earlier.get(key, (int(entry.get("deal", 0)), sides)) for key, sides in shown.peeked.items()
            if keep_shown}
    rolled = entry_dice(ruleset, record.seeds, state, entry)
    # What the undone resolution revealed: the same resolution again, its dice recorded (orders that no longer read:
    # the kept rolls are still right, and the others are dealt afresh all the same).
    with contextlib.suppress(KeyError, ValueError, TypeError):
        ruleset.resolve(state, ruleset.orders_codec.from_json(entry["orders"]), rolled)
    turn = shown.turn
    dice = [DealtDie(key, old, deal_prefix(turn, old) + key, True, shown.peek(key, sides))
            for key, (old, sides) in sorted(keep.items())]
    dice += [DealtDie(key, deal, deal_prefix(turn, deal) + key, False)
             for key in sorted({*rolled.rolled, *rolled.drawn} - set(keep))]
    return keep, tuple(dice)


#: By seat: the rows an undo puts back, the rows it sets aside, what each row put back says (by table and subject)
#: and the Archive's lines.
_RowsPutBack = tuple[dict[str, list[TypedRow]], dict[str, list[TypedRow]], dict[str, dict[str, dict[str, str]]],
                    dict[str, list[ArchiveLine]]]


def _rows_put_back(read: MatchRead, back: MatchRecord, entry: Mapping[str, Any], reopened: Window, reason: str,
                   was_open: Window | None) -> _RowsPutBack:
    """What an undo of the resolution ``entry`` records does to each seat's rows (``undo_rows.undone_seat``), the
    match taken back to ``back``: the rows it read and those it kept back where they stood (ticks cleared), the
    standing rows that still have a subject, and the rows typed since set aside. Each row put back says at once what
    the window reopened makes of it (``opened.check_opened``: held for her next turn, refused, the engine's
    verdicts), as the next poll would."""
    state = back.state
    number = read.record.resolved
    engine_tab = read.tabs.spec.tabs.engine
    restored: dict[str, list[TypedRow]] = {}
    set_aside: dict[str, list[TypedRow]] = {}
    told: dict[str, dict[str, dict[str, str]]] = {}  # what each row put back says, by seat, table and subject
    lines: dict[str, list[ArchiveLine]] = {}
    undone: dict[str, UndoneSeat] = {}
    for seat, seat_read in read.seats.items():
        found = _archived_record(entry, seat, number, engine_tab)
        consumed = [TypedRow.from_json(r) for r in found["rows"]]
        undone[seat] = undone_seat(read.adapter, state, seat_read, consumed, found, reopened, number)
        restored[seat] = undone[seat].restored
        if undone[seat].typed_since:
            set_aside[seat] = undone[seat].typed_since
    seat_tabs = {seat: seat_read.tab for seat, seat_read in read.seats.items()}
    put = {seat: {t: {r.subject: r for r in rows if r.table == t} for t in {r.table for r in rows}}
           for seat, rows in restored.items()}
    opened = check_opened(back.ruleset, read.adapter, state, reopened, back.dice(), seat_tabs, put, read.tabs.spec)
    for seat, seat_undone in undone.items():
        told[seat] = seat_undone.told_in(opened, read.adapter, seat, seat_tabs[seat])
        fates = seat_undone.fates(told[seat], reopened, seat, seat_tabs[seat])
        lines[seat] = undo_lines(seat_tabs[seat], reopened, reason, seat_undone.read, seat_undone.typed_since,
                                 was_open, seat_undone.stood, seat_undone.standing, fates)
    return restored, set_aside, told, lines


def _held_lines(record: MatchRecord) -> list[list[Any]]:
    """The sync's own Log lines since the last resolution that an undo of it keeps: a change of the match's
    deadlines (the undo keeps the schedule, so its line still holds), each with its Log row (``own_lines``)."""
    deadlines = kind_words(SyncEvent.DEADLINES.value)
    return [list(line) for line in (record.gm_events or {}).get("own", [])
            if isinstance(line, list) and len(line) == 4 and line[2] == deadlines]


def _ranges(first: int, end: int, held: set[int]) -> list[tuple[int, int]]:
    """The Log rows from index ``first`` to ``end`` (excluded), ``held`` left out, as runs of row numbers.

    >>> _ranges(5, 12, {7, 8}), _ranges(5, 7, {5, 6})
    ([(7, 8), (11, 13)], [])
    """
    runs: list[tuple[int, int]] = []
    for i in range(first, end):
        if i in held:
            continue
        row = LOG_FIRST_ROW + i
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def _kept_events(entry: Mapping[str, Any], record: MatchRecord, ruleset: AnyRuleset,
                 state: Any) -> dict[str, Any] | None:
    """The GM events pending once the resolution ``entry`` records is undone: those it had applied before it, the
    lines of the sync's own since that still hold (``_held_lines``), so that ``verify -c`` keeps checking them, and
    what an undo since kept of each View's lines of the window it took back (``undone_views.UNDONE``: those lines
    stay in the Log and the Views, and ``repair`` needs it as much after this undo)."""
    pending = entry.get("gm_events")
    held = _held_lines(record)
    since = [dict(item) for item in (record.gm_events or {}).get(UNDONE, []) if isinstance(item, dict)]
    if not held and not since:
        return pending if isinstance(pending, dict) else None
    base = dict(pending) if isinstance(pending, dict) else {"state_before": ruleset.state_codec.to_json(state),
                                                             "events": []}
    return {**base, **({"own": [*base.get("own", []), *held]} if held else {}),
            **({UNDONE: [*base.get(UNDONE, []), *since]} if since else {})}


def _undo_text(record: MatchRecord, entry: Mapping[str, Any], reopened: Window, reason: str,
               set_aside: Mapping[str, list[TypedRow]]) -> str:
    """The Log's line for an undo of the resolution ``entry`` records (without its closing full stop). The rows it
    names as no longer holding leave out the lines the undo keeps (``_held_lines``: a deadline change's)."""
    text = (f"GM undoes {reopened.label}: {reason}. The match is back to before it; "
            "its orders are back in their rows, Ready and Go unticked")
    if set_aside:
        text += (f"; what {', '.join(set_aside)} typed since was set aside: each seat's Archive tab lists its "
                 "rows, to type again")
    log_from = entry.get("log_from")
    runs = _ranges(log_from, record.log_rows, {int(line[0]) for line in _held_lines(record)}) \
        if isinstance(log_from, int) and 0 <= log_from < record.log_rows else []
    if runs:  # what the verify of the Log leaves out
        text += (f"; what it logged (Log rows {' and '.join(f'{a} to {b}' for a, b in runs)}) no longer holds")
    dropped = len((record.gm_events or {}).get("events", []))  # recorded since the undone resolution
    if dropped:
        text += (f"; {counted(dropped, 'GM event')} recorded after {reopened.label} "
                 f"{'was' if dropped == 1 else 'were'} dropped (the log keeps them: adjust again what still holds)")
    return text


def undo_window(sheets: MatchSheets, ruleset_class: type[AnyRuleset], reason: str,
                owners: OwnersSource | None = None, window_key: str | None = None) -> BetweenReport:
    """Take back the last resolution: the state before it, its typed rows back in their cells, logged; rows
    typed since are set aside in the archive. Before the first resolution, and in a match the GM's adjustment ended
    (a concession), it takes back the GM's last adjustment instead. A finished match is reopened with a fresh seed
    (``reopen``: its end published the one in force). ``window_key``: only if the last resolution resolved that
    window (the GM must not undo a window a poll resolved while she typed)."""
    if not reason.strip():
        raise BetweenWindowsError("an undo needs a reason; it is written to the log")
    return again_if_saved(lambda: _undone(sheets, ruleset_class, reason, owners, window_key), "the undo")


def _undone(sheets: MatchSheets, ruleset_class: type[AnyRuleset], reason: str, owners: OwnersSource | None,
            window_key: str | None) -> BetweenReport:
    """One attempt of ``undo_window``: read, take back, write (SavedMeanwhileError: a save raced the write)."""
    _settle_first(sheets, ruleset_class, "undo")
    read = read_match(sheets, ruleset_class)
    check_seed(read.record, f"{sheets.engine.name} tab {read.tabs.spec.tabs.engine!r}")
    _check_not_interrupted(read, "undo")
    record = read.record
    ended = record.ruleset.window(record.state) is None  # its end published the seed: a fresh one deals from now
    if (ended or record.resolved < 1) and (record.gm_events or {}).get("events"):  # the GM's adjustment last
        if window_key is not None:
            last = "no window of this match has been resolved yet" if record.resolved < 1 else \
                "the match was ended by the GM's adjustment, made after the last resolution"
            raise BetweenWindowsError(f"{last}, so window {window_key!r} cannot be undone — nothing was undone. To "
                                      "take back your last adjustment, run undo without --window")
        return _undo_adjustment(sheets, read, reason.strip(), owners, ended)
    if record.resolved < 1:
        raise BetweenWindowsError("nothing to undo: no window of this match has been resolved yet, and no "
                                  "adjustment of the GM's is left to take back")
    return _undo_resolution(sheets, read, reason.strip(), owners, window_key)


def _undo_resolution(sheets: MatchSheets, read: MatchRead, reason: str, owners: OwnersSource | None,
                     wanted: str | None) -> BetweenReport:
    """``undo_window`` of the last resolution (``wanted``: the window it must have resolved), dealt afresh; from a
    fresh seed, committed now, when it ended the match (``reopen``)."""
    record = read.record
    was_open = record.ruleset.window(record.state)
    number = record.resolved
    tabs = read.tabs
    engine_tab = tabs.spec.tabs.engine
    entry, before = _history_entries(sheets, engine_tab, number)
    ruleset = record.ruleset
    try:
        state = ruleset.state_codec.from_json(entry["state_before"])
        undone_key = str(entry["window"])
    except (KeyError, ValueError, TypeError) as exc:
        raise BetweenWindowsError(f"the history of resolution {number} cannot be read ({exc}); nothing was "
                                  "written") from None
    reopened = ruleset.window(state)
    if reopened is None or reopened.key != undone_key:
        raise BetweenWindowsError(f"the state before resolution {number} is not in window {undone_key!r}; the "
                                  "history was edited — nothing was written")
    if wanted is not None and wanted != undone_key:
        raise BetweenWindowsError(
            f"window {wanted!r} is not the last one resolved: {undone_key!r} ({reopened.label}) is (a sync resolved "
            f"it while you typed, or before); the match is {f'at {was_open.label}' if was_open else 'over'}"
            f" — nothing was undone. To take {reopened.label} back, run undo again with --window {undone_key}")
    batch = WriteBatch()
    # Dealt afresh: the undone window's dice are in the log, and a die's key does not name its target; but the rolls
    # its sheets showed before anyone typed keep their values (orders typed for them stay good, and a team with bad
    # rolls gains nothing by asking for an undo) — but after the match's end, whose seed they came from.
    bots = entry.get("bots") or {}  # the bots that played the undone window: a seat handed over since goes back
    keep, dealt = _window_dice(read, state, entry, record.deal + 1, keep_shown=was_open is not None)
    back = replace(record, state=state, resolved=number - 1, gm_events=_kept_events(entry, record, ruleset, state),
                   deal=record.deal + 1,
                   kept_dice={"window": undone_key, "keys": {k: list(v) for k, v in keep.items()}} if keep else {},
                   bots={str(k): str(v) for k, v in bots.items()} if isinstance(bots, dict) else {},
                   last={"window": str(before.get("window", ""))} if before else {})
    if was_open is None:
        back = reseeded(back, reason, ended_resolution(record, entry))
    back = with_undone(back.moved_on(f"undo of resolution {number} of deal {record.deal}"),
                       undone_listing(record, read.adapter, tabs, entry, state))  # for repair of a View
    restored, set_aside, told, lines = _rows_put_back(read, back, entry, reopened, reason, was_open)
    text = _undo_text(record, entry, reopened, reason, set_aside)
    data = {"resolution": number, "window": undone_key, "reason": reason, BY_GM: True}
    undo = [*_reseed_events(record, back, reopened, reason), Event(reopened.logged_turn, SyncEvent.UNDO, text + ".",
                                                                  data)]
    aside = [Event(reopened.logged_turn, SyncEvent.UNDO,
                   aside_notice(len(rows), undo_cause(reopened, reason), tabs.archive(seat)),
                   {"resolution": number, "rows": len(rows)}, audience=frozenset({seat}))
             for seat, rows in set_aside.items()]
    new = _redraw(sheets, read, back, [*undo, *aside], batch, restored, undo_cause(reopened, reason), owners=owners,
                  told=told, lines=lines, pending_cleared=True)
    batch.put(sheets.engine, *engine_write(engine_tab, new))
    calls = journaled_change(batch, sheets.write_order(), sheets.journal, f"the undo of {reopened.label}", record, new)
    return BetweenReport([*undo, *aside], state, calls, sum(len(r) for r in restored.values()),
                         sum(len(r) for r in set_aside.values()), dice=dealt,
                         fresh_prefix=deal_prefix(record.dice(state).turn, record.deal + 1),
                         undone=(record.seed_hash, record.deal, undone_key, number, reopened.label),
                         aside=((was_open or reopened).label, set_aside), facts=PollFacts(new, read.tabs, read.adapter),
                         committed=_committed(record, back))


def _committed(record: MatchRecord, back: MatchRecord) -> str:
    """The hash of the seed an undo of ``record`` drew (``back``: the record it leaves), '' when it drew none."""
    return back.dice_hash if len(back.reseeds) > len(record.reseeds) else ""


def _reseed_events(record: MatchRecord, back: MatchRecord, reopened: Window, reason: str) -> list[Event]:
    """The Log's line of a fresh seed an undo of ``record`` committed (``back``: the record it leaves), or none."""
    committed = _committed(record, back)
    return [reseed_event(reopened.logged_turn, reason, committed)] if committed else []
