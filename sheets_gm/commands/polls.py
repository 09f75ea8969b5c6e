"""What ``sheets-gm sync``, ``resolve`` and ``status`` do (their command line is ``commands/sync.py``): poll the
match, resolve a turn, say where it stands."""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import signal
import threading
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from types import FrameType

from sheets_gm.commands import base
from sheets_gm.commands.base import UsageError, UserError
from sheets_gm.commands.matchargs import gm_change, load, open_match, user_errors
from sheets_gm.engine.settings import SettingError
from sheets_gm.engine.words import counted, describe_wait
from sheets_gm.match.bot_drift import bot_drift, bots_fix
from sheets_gm.match.config import BackendKind, MatchConfig, settings_drift
from sheets_gm.match.notify.announce import after_poll, outbox_lines, send_due
from sheets_gm.match.notify.outbox import Due, due
from sheets_gm.match.run import sync_once
from sheets_gm.match.watch import seconds_until, watch
from sheets_gm.sheets.backend import SheetError, WorkbookOpenError
from sheets_gm.sheets.marks import FileMark, file_mark
from sheets_gm.sheets.private_files import write_private
from sheets_gm.sync.deadline import describe_deadline
from sheets_gm.sync.gate.run import IdlePoll, QuietFailure, gate_for, gated_poll
from sheets_gm.sync.gate.state import PollState, Said
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.sheets import MatchSheets


def _now() -> datetime:
    return base.clock()


def window_summary(report: WindowReport) -> str:
    """One line saying what a poll of a match on the generic sync did."""
    if report.resolved:
        grown = (f" More rows were laid out for {', '.join(report.tables_grown)}'s tables." if report.tables_grown
                 else "")
        return f"{report.window[:1].upper()}{report.window[1:]} resolved ({report.reason}).{grown} {report.result}"
    if report.finished:
        return f"Nothing to do: {report.result}"
    waiting = (f"waiting for {', '.join(report.waiting_for)}" if report.waiting_for else "every seat is ready")
    fed = f"; {counted(report.feedback_written, 'feedback cell')} updated" if report.feedback_written else ""
    return f"{report.window[:1].upper()}{report.window[1:]}: {waiting}{fed}."


def describe_report(report: WindowReport) -> str:
    """One line saying what a poll did, for the terminal and cron's mail (and which workbooks a player saved while
    the sync was writing them: read again, nothing written over)."""
    said = [window_summary(report)]
    raced = list(dict.fromkeys(report.saved_meanwhile))
    if raced:
        said.append(f"Saved while the sync was writing it, so read again and nothing written over: {', '.join(raced)}.")
    if report.older_copies:
        said.append(older_copies_line(report))
    if report.drawn_again:
        said.append(f"Drawn again, typed over by hand: {', '.join(report.drawn_again)}.")
    return " ".join(said)


def older_copies_line(report: WindowReport, *, done: bool = True) -> str:
    """The warning that a seat's file was saved over the sync's write from an older copy, and what the sync did
    (``done``) or will do with it."""
    what = ("drawn again for the open window, its Archive and View given back" if done else
            "the next sync draws it again for the open window and gives its Archive and View back")
    return (f"Warning: the file of {', '.join(report.older_copies)} was saved from a copy older than the sync's last "
            f"write (open in an office program while the sync wrote it): {what}; "
            + "; ".join(report.older_copy_fates) + f". {'This' if done else 'That'} sync resolves nothing; the "
            "Archive tab says what was not read again and why.")


def rejected_lines(report: WindowReport) -> list[str]:
    """The rows the poll refused or could not read, each with why (what ``sync`` and ``status`` list)."""
    if not report.rejected:
        return []
    return [f"Rejected ({len(report.rejected)}):", *(f"  {who}: {why}" for who, why in report.rejected)]


def settings_warning(config: MatchConfig, report: WindowReport) -> str:
    """A warning when ``[settings]`` no longer says what the match plays with ('' when it does)."""
    if report.settings is None:
        return ""
    try:
        changed = settings_drift(config, report.settings)
    except SettingError as exc:
        return f"Warning: {exc}; the match keeps the house rules it was created with."
    if not changed:
        return ""
    return (f"Warning: {'; '.join(changed)}. House rules are fixed when a match is created: this match keeps its "
            f"own, and the change in {config.path} is ignored. Make [settings] say what the match uses (the "
            "Settings tab shows them), or create a new match to play with the new rules.")


def bots_warning(config: MatchConfig, report: WindowReport) -> str:
    """A warning when ``[bots]`` no longer says who the match's bots play, with the ``adjust`` that applies the
    edit ('' when it does: ``match/bot_drift.py`` says why a poll never applies it itself)."""
    if report.facts is None:
        return ""
    said, changes = bot_drift(config, report.facts.record.bots)
    if not said:
        return ""
    return (f"Warning: {'; '.join(said)}. [bots] is read when the match is created: this sync did not apply the "
            f"edit; {bots_fix(config, changes)}.")


def tables_warning(config: MatchConfig, report: WindowReport) -> str:
    """A warning naming each table with fewer rows than the match gives it ('' when every row has its own)."""
    if not report.short_tables:
        return ""
    return (f"Warning: {'; '.join(report.short_tables)}. Run sheets-gm repair -c {config.path}: it lays the tabs out "
            "with a row for each and keeps what was typed (the next resolution would too, too late for this window).")


def notify_warning(config: MatchConfig) -> str:
    """A warning while ``[notify]`` has bad options: the match is polled, but no notice is sent ('' otherwise)."""
    if not config.notify_problems:
        return ""
    return ("Warning: notices are off until [notify] is mended (the polls go on; what the notices would say is "
            "not kept): " + " · ".join(config.notify_problems))


def _open_workbook_memory(config: MatchConfig) -> Path:
    """Where a sync remembers which open-workbook message it last gave (beside the match's lock file)."""
    return config.lock_path.with_name("open-workbook.json")


def poll_match(config: MatchConfig, sheets: MatchSheets, *, dry_run: bool = False, force: bool = False,
               window: str | None = None) -> WindowReport:
    """One poll of the match; with ``force``, resolve the open window if it is ``window``."""
    return sync_once(config, sheets, now=_now(), force=force, dry_run=dry_run, window=window)


def _open_key(report: WindowReport) -> str:
    """The open window, as ``resolve --force --window`` names it."""
    return report.window_key


def _report_open_workbook(config: MatchConfig, sheets: MatchSheets, exc: WorkbookOpenError) -> bool:
    """Whether to print the open-workbook message now: once per turn and message, not on every poll."""
    memory = _open_workbook_memory(config)
    try:
        turn: str | None = _open_key(poll_match(config, sheets, dry_run=True))
    except SheetError:
        turn = None
    said = {"turn": turn, "message": str(exc)}
    try:
        if json.loads(memory.read_text(encoding="utf-8")) == said:
            return False
    except (OSError, ValueError):
        pass
    with contextlib.suppress(OSError):
        write_private(memory, json.dumps(said))
    return True


def _watch_line(config: MatchConfig, report: WindowReport | IdlePoll, wait: float) -> str:
    """What ``sync --watch`` prints after a poll: the settings warning if any, the summary, the next poll."""
    if isinstance(report, IdlePoll):
        warnings = [report.state.warning] if report.state.warning else []
        said = f"{report.state.summary or 'Nothing changed.'} (Drive: no spreadsheet changed, nothing read.)"
    else:
        warnings = [w for w in (settings_warning(config, report), bots_warning(config, report),
                                tables_warning(config, report), notify_warning(config)) if w]
        said = " ".join(p for p in (describe_report(report), report.drive) if p)
    return "".join(f"{w}\n" for w in warnings) + f"{said} Next poll in {describe_wait(wait)}."


def _watch_step(config: MatchConfig, sheets: MatchSheets) -> WindowReport | IdlePoll:
    """One poll of ``sync --watch``: gated by Drive for a Google match, as cron's polls are (an idle one reads
    no spreadsheet), a full poll otherwise."""
    gated = _gated_poll(config, file_mark(config.path), sheets, quiet=False)
    if isinstance(gated, IdlePoll):
        if gated.notices:
            print(gated.notices, flush=True)
        return gated
    report, _, notices = gated
    if notices:
        print(notices, flush=True)
    return report


def run_sync(args: argparse.Namespace) -> int:
    """One poll (for cron), or ``--watch``: poll until the match ends or Ctrl-C."""
    config_mark = file_mark(args.config)  # before it is read: a change meanwhile shows at the next poll
    config = load(args)
    sheets = open_match(config)
    if not args.watch:
        return _sync_once(args, config, config_mark, sheets)
    interval = args.interval or config.interval
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        print("Stopping after this poll (press Ctrl-C again to stop at once).", flush=True)
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with user_errors():
            last = watch(
                lambda: _watch_step(config, sheets), stop,
                interval=interval, max_interval=max(config.max_interval, interval),
                on_report=lambda r, wait: print(_watch_line(config, r, wait), flush=True),
                on_unavailable=lambda e, wait: print(f"Google is unavailable ({e}); trying again in "
                                                     f"{describe_wait(wait)}.", flush=True),
            )
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("Stopped." if last is None or not last.finished else "The match is over; watch ends.")
    return 0


def _sync_once(args: argparse.Namespace, config: MatchConfig, config_mark: FileMark | None,
               sheets: MatchSheets) -> int:
    """One poll for cron: a Google match asks Drive first and reads nothing when nothing changed
    (``sync.gate.drive``); either kind keeps what the poll saw for the next one's gate."""
    try:
        gated = _gated_poll(config, config_mark, sheets, quiet=args.quiet)
    except QuietFailure:
        return 1
    if isinstance(gated, IdlePoll):
        if gated.state.warning:
            print(gated.state.warning)
        if not args.quiet:
            print("\n".join(line for line in (gated.state.summary, gated.notices) if line))
        return 0
    report, warning, notices = gated
    if warning:
        print(warning)
    if not (args.quiet and not report.resolved):
        print("\n".join([describe_report(report), *([] if args.quiet else [*rejected_lines(report),
                                                                          *([report.drive] if report.drive else []),
                                                                          *([notices] if notices else [])])]))
    return 0


def send_waiting_notices(args: argparse.Namespace) -> None:
    """An idle poll with notices waiting for a retry: send them (no spreadsheet is read) and say so."""
    line = send_due(load(args), _now)
    if line and not args.quiet:
        print(line)


def _gated_poll(config: MatchConfig, config_mark: FileMark | None, sheets: MatchSheets,
                quiet: bool) -> tuple[WindowReport, str, str] | IdlePoll:
    """A poll behind the match's gate (``sync.gate.run``): for Google, idle when Drive says nothing changed and
    the last poll's line can be said again (or ``quiet``) and no reminder fell due; else the poll, and what the
    next poll's gate needs is kept. Then the poll's notices are queued and sent (``notify.announce.after_poll``;
    an idle poll sends only the letters waiting for a retry). Returns the poll's report, its warning and what the
    notices did, or the idle poll."""
    read_at = _now()
    notices: list[Due] = []

    def may_idle(state: PollState) -> bool:
        notices.append(due(config.path, read_at))
        return bool(quiet or state.summary) and not notices[0].reminder

    gate = gate_for(config.path, config_mark, sheets, read_at, _now, google=config.backend is BackendKind.GOOGLE)
    with user_errors():
        try:
            gated = gated_poll(gate, lambda s: sync_once(config, s, now=read_at), may_idle=may_idle,
                               said=lambda report: _said(config, report))
        except WorkbookOpenError as exc:
            raise _open_workbook_failure(config, sheets, exc, quiet) from None
    if isinstance(gated, IdlePoll):
        return replace(gated, notices=send_due(config, _now) if notices[0].letters else "")
    _open_workbook_memory(config).unlink(missing_ok=True)
    report, said = gated
    return report, said.warning, after_poll(config, sheets, report, _now)


def _said(config: MatchConfig, report: WindowReport) -> Said:
    """What a poll says that an idle poll after it repeats: never a resolution, nor feedback written now; and the
    warnings every poll repeats."""
    warning = "\n".join(w for w in (settings_warning(config, report), bots_warning(config, report),
                                    tables_warning(config, report), notify_warning(config)) if w)
    summary = "\n".join([describe_report(replace(report, feedback_written=0, resolved=False, drawn_again=[])),
                         *rejected_lines(report)])
    if report.resolved and not report.finished:  # the next window's line needs a read
        summary = ""
    return Said(summary, warning)


def _open_workbook_failure(config: MatchConfig, sheets: MatchSheets, exc: WorkbookOpenError,
                           quiet: bool) -> Exception:
    """A player left the workbook open: every cron poll fails until it is closed. Say it once a turn to cron
    (quiet); a GM who runs sync by hand is told every time what it did: nothing."""
    if _report_open_workbook(config, sheets, exc):
        return UserError(f"{exc} (said once this turn; the next polls keep trying quietly)")
    if quiet:
        return QuietFailure()
    return UserError(f"nothing synced: {exc} (cron's quiet polls said it once this turn and keep trying; "
                     "close the workbook, or wait for it to be closed)")


def run_resolve(args: argparse.Namespace) -> int:
    """Resolve the open window now if it is due (or anyway with --force --window KEY); say why not otherwise.

    A force always names its window: cron may resolve the window the GM looked at a moment before
    she types the command, and forcing the next one, with nobody's orders in, would cost every
    player a turn. ``--turn N`` names window ``N`` (a game whose windows are its turns)."""
    config = load(args)
    sheets = open_match(config)
    if args.window is not None and args.turn is not None and args.window != str(args.turn):
        raise UsageError(f"--window {args.window} and --turn {args.turn} name two windows: give one "
                         "(--turn N is the same as --window N)")
    named = args.window if args.window is not None else (None if args.turn is None else str(args.turn))
    if args.force and named is None:
        with user_errors():
            seen = poll_match(config, sheets, dry_run=True)
        if seen.finished:
            raise UserError(f"the match is over ({seen.result}); nothing to resolve")
        key = _open_key(seen)
        raise UserError(f"--force needs the window you mean, so that it never forces a window that another sync "
                        f"opened meanwhile: window {key} ({seen.window}) is open now; to resolve it anyway run "
                        f"sheets-gm resolve -c {args.config} --force --window {key}")
    with user_errors(), gm_change(config, lock=False):  # poll_match takes the lock; the gate's record goes after
        report = poll_match(config, sheets, force=args.force, window=named)
    if report.force_refused:
        raise UserError(f"{report.force_refused}. Look at the match again "
                        f"(sheets-gm status -c {shlex.quote(str(args.config))}) before forcing")
    if report.finished and not report.resolved:
        raise UserError(f"the match is over ({report.result}); nothing to resolve")
    if not report.resolved:
        missing = ", ".join(report.waiting_for) or "nobody"
        key = _open_key(report)
        raise UserError(f"window {key} ({report.window}) is not due: not every seat is ready and the deadline has "
                        f"not passed (not ready: {missing}). To resolve it anyway: "
                        f"sheets-gm resolve -c {args.config} --force --window {key}")
    notices = after_poll(config, sheets, report, _now)
    print("\n".join(line for line in (describe_report(report), notices) if line))
    return 0


def _deadline_phrase(deadline: str, now: datetime, what: str, who: str) -> str:
    """How the open orders close: ``until Mon 23 Nov, 20:00 (in 2 h 05 min)``, past, or no deadline."""
    until = seconds_until(deadline, now)
    if until is None:
        return f" (no deadline: {what} resolves when {who} is ready)"
    when = describe_deadline(deadline)
    return (f" until {when} (in {describe_wait(until)})" if until > 0 else
            f"; the deadline {when} has passed: the next sync resolves {what}")


def window_status_lines(report: WindowReport, now: datetime) -> list[str]:
    """What ``status`` prints for a match on the generic sync: window, deadline, who is not ready, rejections."""
    if report.finished:
        return [report.result]
    lines = [f"{report.window[:1].upper()}{report.window[1:]} (window {report.window_key}) · orders open"
             + _deadline_phrase(report.deadline, now, "it", "every seat")]
    lines.append(report.result)
    lines.append(f"Not ready: {', '.join(report.waiting_for)}" if report.waiting_for else "Every seat is ready.")
    if report.untyped:
        lines.append("Nothing typed yet in: " + "; ".join(f"{seat}: {', '.join(rows)}"
                                                          for seat, rows in report.untyped.items()))
    lines += rejected_lines(report)
    if report.older_copies:
        lines.append(older_copies_line(report, done=False))
    lines.append(f"Due now: {report.reason}." if report.reason else "Not due yet.")
    return lines


def run_status(args: argparse.Namespace) -> int:
    """Print where the match stands; reads only, writes nothing."""
    config = load(args)
    sheets = open_match(config)
    with user_errors():
        report = poll_match(config, sheets, dry_run=True)
    lines = window_status_lines(report, _now())
    warning = tables_warning(config, report)
    print("\n".join([*lines, *([warning] if warning else []), *outbox_lines(config, _now())]))
    return 0
