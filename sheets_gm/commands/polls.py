"""What ``sheets-gm sync``, ``resolve`` and ``status`` print (their command line is ``commands/sync.py``): the
host's poll path polls, resolves and sends the notices (``host.polls``); this module turns what it returns into lines
and exit codes, and says where the match stands."""

from __future__ import annotations

import argparse
import shlex
import signal
import sys
import threading
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import FrameType

from sheets_gm.commands import base
from sheets_gm.commands.base import UsageError, UserError
from sheets_gm.commands.matchargs import load, open_match, user_errors
from sheets_gm.engine.words import counted, describe_left, describe_wait, label_verb
from sheets_gm.host.polls import (
    FullPoll,
    IdlePoll,
    LeftOpen,
    poll_behind_gate,
    poll_config,
    resolve_now,
    send_waiting,
)
from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.notify.announce import outbox_lines, quiet_alarms
from sheets_gm.running.mailroom.status import mail_status_lines
from sheets_gm.running.poll_words import (
    describe_report,
    older_copies_line,
    poll_warnings,
    rejected_lines,
    report_line,
    tables_warning,
)
from sheets_gm.running.run import sync_once
from sheets_gm.running.watch import seconds_until, watch
from sheets_gm.sheets.backend import WorkbookOpenError
from sheets_gm.sheets.marks import FileMark, file_mark
from sheets_gm.sync.deadline import describe_deadline
from sheets_gm.sync.poll import WindowReport, held_open
from sheets_gm.sync.sheets import MatchSheets


def _now() -> datetime:
    return base.clock()


def poll_match(config: MatchConfig, sheets: MatchSheets, *, dry_run: bool = False) -> WindowReport:
    """One poll of the match (``dry_run``: read it, write nothing)."""
    return sync_once(config, sheets, now=_now(), dry_run=dry_run)


def _watch_line(config: MatchConfig, report: WindowReport | IdlePoll, wait: float) -> str:
    """What ``sync --watch`` prints after a poll: the settings warning if any, the summary, the next poll."""
    if isinstance(report, IdlePoll):
        warnings = [report.state.warning] if report.state.warning else []
        said = f"{report.state.summary or 'Nothing changed.'} (Drive: no spreadsheet changed, nothing read.)"
    else:
        warnings = poll_warnings(config, report)
        said = report_line(report)
    return "".join(f"{w}\n" for w in warnings) + f"{said} Next poll in {describe_wait(wait)}."


def _watch_step(config: MatchConfig, sheets: MatchSheets) -> WindowReport | IdlePoll:
    """One poll of ``sync --watch``, behind the match's gate as cron's polls are (an idle Google one reads no
    spreadsheet); prints what its notices did. Its errors reach the loop as raised: Google unavailable makes it
    wait and poll again (``running.watch``), any other ends it as a user error."""
    gated = poll_behind_gate(config, file_mark(config.path), sheets, quiet=False, clock=_now)
    if isinstance(gated, LeftOpen):
        raise _left_open(gated)
    if gated.notices:
        print(gated.notices, flush=True)
    return gated if isinstance(gated, IdlePoll) else gated.report


def _left_open(left: LeftOpen) -> UserError:
    """A player left the workbook open: every poll stops until it is closed. What cron is told the first time
    this turn (its later quiet polls exit 1 and print nothing), and a GM who runs sync by hand every time."""
    told = f"\n{left.notices}" if left.notices else ""  # the table told that the due window waits (once)
    if left.first:
        return UserError(f"{left.message} (said once this turn; the next polls keep trying quietly){told}")
    return UserError(f"nothing synced: {left.message} (cron's quiet polls said it once this turn and keep trying; "
                     f"close the workbook, or wait for it to be closed){told}")


class _HeldConfig:
    """The config a ``sync --watch`` polls with, read again when its file changed (a GM's new ``[deadlines]`` or
    live setting applies at the next poll, as under cron). One that no longer reads is said once, and the watch
    goes on with the config as it was last read. The spreadsheets stay those opened at the start."""

    def __init__(self, args: argparse.Namespace, config: MatchConfig, mark: FileMark | None) -> None:
        self.args, self.config, self.mark = args, config, mark

    def current(self) -> MatchConfig:
        """The config as its file says now (or as last read, when the file no longer reads)."""
        mark = file_mark(self.args.config)
        if mark == self.mark:
            return self.config
        self.mark = mark
        try:
            self.config = load(self.args)
        except UserError as exc:
            print(f"The config was changed but does not read: {exc}; the watch goes on with it as it was last "
                  "read.", flush=True)
        return self.config


def run_sync(args: argparse.Namespace) -> int:
    """One poll (for cron), or ``--watch``: poll until the match ends or Ctrl-C."""
    config_mark = file_mark(args.config)  # before it is read: a change meanwhile shows at the next poll
    config = load(args)
    if not args.watch:
        return _sync_once(args, config, config_mark)
    sheets = open_match(config)
    interval = args.interval or config.interval
    stop = threading.Event()
    held = _HeldConfig(args, config, config_mark)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        print("Stopping after this poll (press Ctrl-C again to stop at once).", flush=True)
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with user_errors():
            last = watch(
                lambda: _watch_step(held.current(), sheets), stop,
                interval=interval, max_interval=_watch_ceiling(config, interval),
                on_report=lambda r, wait: print(_watch_line(config, r, wait), flush=True),
                on_unavailable=lambda e, wait: print(f"Google is unavailable ({e}); trying again in "
                                                     f"{describe_wait(wait)}.", flush=True),
            )
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("Stopped." if last is None or not last.finished else "The match is over; watch ends.")
    return 0


def _watch_ceiling(config: MatchConfig, interval: float) -> float:
    """The longest wait of ``sync --watch``: ``[sync] max_interval`` for Google, whose polls cost requests; none
    beyond ``interval`` on local workbooks, whose idle poll only compares the files' stamps (a learner who saved
    sees her turn resolved within the minute the README promises)."""
    if config.backend is not BackendKind.GOOGLE:
        return interval
    return max(config.max_interval, interval)


def _sync_once(args: argparse.Namespace, config: MatchConfig, config_mark: FileMark | None) -> int:
    """One poll for cron, behind the match's gate (``host.polls``): print what it says, as ``--quiet`` allows."""
    with user_errors():
        looked = poll_config(config, config_mark, _now, quiet=args.quiet)  # serve's look takes the same path
    for note in looked.notes:
        print(f"sheets-gm: note: {note}", file=sys.stderr)
    gated = looked.gated
    if isinstance(gated, LeftOpen):
        if args.quiet and not gated.first:
            return 1  # said once this turn already
        raise _left_open(gated)
    if isinstance(gated, IdlePoll):
        if gated.state.warning:
            print(gated.state.warning)
        if not args.quiet:
            print("\n".join(line for line in (gated.state.summary, gated.notices) if line))
        _say_alarms(config, args.quiet)
        return 0
    _print_full_poll(gated, quiet=args.quiet)
    _say_alarms(config, args.quiet)
    return 0


def _say_alarms(config: MatchConfig, quiet: bool) -> None:
    """With ``--quiet``, once: a channel of the notices that fails and why, or that works again."""
    if quiet:
        for line in quiet_alarms(config):
            print(line)


def _print_full_poll(done: FullPoll, *, quiet: bool) -> None:
    """What cron's poll that read prints: its warnings, and its line (with ``quiet``, only at a resolution); and
    unless ``quiet``, the rows refused, what Drive let it skip and what its notices did."""
    report = done.report
    if done.warning:
        print(done.warning)
    if report.told_once:
        print(report.told_once)
    if quiet and not report.resolved:
        return
    more = [] if quiet else [*rejected_lines(report), *([report.drive] if report.drive else []),
                             *([done.notices] if done.notices else [])]
    print("\n".join([describe_report(report), *more]))


def send_waiting_notices(args: argparse.Namespace) -> None:
    """Cron's idle poll with notices waiting for a retry: send them (no spreadsheet is read) and say so."""
    config = load(args)
    line = send_waiting(config, _now)
    if line and not args.quiet:
        print(line)
    _say_alarms(config, args.quiet)


def run_resolve(args: argparse.Namespace) -> int:
    """Resolve the open window now if it is due (or anyway with --force --window KEY); say why not otherwise.

    A force always names its window: cron may resolve the window the GM looked at a moment before
    she types the command, and forcing the next one, with nobody's orders in, would cost every
    player a turn. ``--turn N`` names window ``N`` (a game whose windows are its turns)."""
    config = load(args)
    sheets = open_match(config)
    from sheets_gm.init.create_sheets import hand_made_note

    note = hand_made_note(config)  # (said once for the match, as init and the first poll that finds them say it)
    if note:
        print(f"Note: {note}")
    if args.window is not None and args.turn is not None and args.window != str(args.turn):
        raise UsageError(f"--window {args.window} and --turn {args.turn} name two windows: give one "
                         "(--turn N is the same as --window N)")
    named = args.window if args.window is not None else (None if args.turn is None else str(args.turn))
    if args.step is not None and (named is None or not args.force):
        raise UsageError("--step names a step of the window you force: give it with --force --window KEY "
                         "(status shows both)")
    if args.force and named is None:
        with user_errors():
            seen = poll_match(config, sheets, dry_run=True)
        if seen.finished:
            raise UserError(f"the match is over ({seen.result}); nothing to resolve")
        raise UserError(f"--force needs the window you mean, so that it never forces a window that another sync "
                        f"opened meanwhile: window {seen.window_key}, step {seen.step} ({seen.window}) is open now; "
                        f"to resolve it anyway run {_force_command(args, seen)}")
    with user_errors():
        done = resolve_now(config, sheets, force=args.force, window=named, clock=_now, step=args.step)
    report = done.report
    if report.force_refused:
        raise UserError(f"{report.force_refused}. Look at the match again "
                        f"(sheets-gm status -c {shlex.quote(str(args.config))}) before forcing")
    if report.finished and not report.resolved:
        raise UserError(f"the match is over ({report.result}); nothing to resolve")
    if not report.resolved:
        missing = ", ".join(report.waiting_for) or "nobody"
        raise UserError(f"window {report.window_key} ({report.window}) is not due: not every seat is ready and the "
                        f"deadline has not passed (not ready: {missing}). To resolve it anyway: "
                        f"{_force_command(args, report)}")
    print("\n".join(line for line in (describe_report(report), done.notices) if line))
    return 0


def _force_command(args: argparse.Namespace, report: WindowReport) -> str:
    """The command that forces the window ``report`` found open, at the step it found (what status shows)."""
    return f"sheets-gm resolve -c {args.config} --force --window {report.window_key} --step {report.step}"


def open_window_line(label: str, key: str, step: int, deadline: str, now: datetime, *, waits: bool = False,
                     judge: bool = False, sealed: str = "") -> str:
    """``status``'s first line: the open window in its label's words with the verb it takes (``label_verb``, as
    doctor and the notices say it), its key and step, and how its orders close (``waits``: a due window that a
    resolution would not change, which the next sync leaves as it is; ``judge``: the judge's part of her window is
    open, with no deadline of her own, ``sync.judge_part``; ``sealed``: what the players send her until the deadline,
    before it).

    >>> now = datetime.fromisoformat("2026-11-22T18:00+00:00")
    >>> open_window_line("turn 1 · orders", "1", 1, "2026-11-22T20:00+00:00", now)
    'Turn 1 · orders are open (window 1, step 1) until Sun 22 Nov, 20:00 (UTC) (in 2 h 00 min)'
    >>> open_window_line("turn 3", "3", 2, "", now)
    'Turn 3 is open (window 3, step 2); no deadline: it resolves when every seat is ready'
    >>> open_window_line("turn 1 · battle results", "1/results", 2, "2026-11-22T20:00+00:00", now,
    ...                  sealed="strategies")  # doctest: +NORMALIZE_WHITESPACE
    'Turn 1 · battle results are open (window 1/results, step 2); strategies close Sun 22 Nov, 20:00 (UTC)
     (in 2 h 00 min), then the judge judges'
    """
    head = label_verb(label, "is", "are")
    head = f"{head[:1].upper()}{head[1:]} open (window {key}, step {step})"
    until = seconds_until(deadline, now)
    if until is None and judge:  # the judge's part of her window, with no deadline of her own (``sync.judge_part``)
        return f"{head} for the judge; no judge's deadline: it resolves when the judge marks it done"
    if until is None:
        return f"{head}; no deadline: it resolves when every seat is ready"
    when = describe_deadline(deadline)
    if sealed and until > 0:
        return f"{head}; {sealed} close {when} (in {describe_left(until)}), then the judge judges"
    return (f"{head} until {when} (in {describe_left(until)})" if until > 0 else
            f"{head}; the deadline {when} has passed: " + ("nothing to resolve, it waits (below)" if waits else
                                                             "the next sync resolves it"))


def _not_ready(report: WindowReport, seat: str) -> str:
    """A seat the window waits for, and, when its Ready (Wesnoth's End turn) is ticked, why it is not taken: its rows
    refused."""
    box = report.ready_held.get(seat)
    if not box:
        return seat
    refused = sum(1 for row, _why in report.rejected if row.split(" · ", 1)[0] == seat)
    return (f"{seat} ({box} ticked, not taken while {counted(refused, 'row')} of {seat}'s "
            f"{'says' if refused == 1 else 'say'} ✘: listed below)"
            if refused else f"{seat} ({box} ticked, not taken while a row of {seat}'s says ✘)")


#: How many rows with nothing typed ``status`` names for a seat before it counts them instead (``--untyped``: all).
UNTYPED_NAMED = 8


def untyped_line(untyped: Mapping[str, Sequence[str]], every: bool = False) -> str:
    """``status``'s line of the rows nothing is typed in yet, by seat: each named where a seat has few, else counted
    with the first few named (a war of 643 armies would print thousands of names on one line); ``every``: all named.

    >>> print(untyped_line({"red": ["Ben"], "coalition": [f"Army {n}" for n in range(300)]}))
    ... # doctest: +NORMALIZE_WHITESPACE
    Nothing typed yet in: red: Ben; coalition: 300 rows (Army 0, Army 1, Army 2 and 297 more: status --untyped
    names them all)
    """
    def said(rows: Sequence[str]) -> str:
        if every or len(rows) <= UNTYPED_NAMED:
            return ", ".join(rows)
        return f"{len(rows)} rows ({', '.join(rows[:3])} and {len(rows) - 3} more: status --untyped names them all)"
    return "Nothing typed yet in: " + "; ".join(f"{seat}: {said(rows)}" for seat, rows in untyped.items())


def window_status_lines(report: WindowReport, now: datetime, held: str = "", every_untyped: bool = False) -> list[str]:
    """What ``status`` prints for a match on the generic sync: window, deadline, who is not ready, rejections;
    ``held``: the workbook open in an office program that a due window's resolution waits for ('' if none);
    ``every_untyped``: every row with nothing typed named, not counted (``status --untyped``)."""
    if report.finished:
        return [report.result]
    lines = [open_window_line(report.window, report.window_key, report.step, report.deadline, now,
                              waits=bool(report.stuck), judge=bool(report.judging) and not report.deadline,
                              sealed=report.sealed),
             *([report.judging + "."] if report.judging else []), *([report.stuck + "."] if report.stuck else []),
             report.result]
    if report.schedule_change:
        lines.append(report.schedule_change)
    lines.append(f"Not ready: {', '.join(_not_ready(report, seat) for seat in report.waiting_for)}"
                 if report.waiting_for else "Every seat is ready.")
    if report.untyped:
        lines.append(untyped_line(report.untyped, every_untyped))
    lines += rejected_lines(report)
    if report.older_copies:
        lines.append(older_copies_line(report, done=False))
    lines += [f"Not the match's: {line}." for line in report.log_lines_cleared]
    if report.reason or not report.stuck:  # a window that waits said why above (its deadline passed): one answer
        lines.append(f"Due now: {report.reason}." if report.reason else "Not due yet.")
    if report.reason and held:
        lines.append(f"The resolution waits until {held}")
    return lines


def _waits_for(held: WorkbookOpenError | None) -> str:
    """``orders-red.xlsx is closed: it is open in LibreOffice by Ann (lock file …) …`` ('' for None)."""
    if held is None:
        return ""
    if not held.path or not held.holder:
        return str(held)
    return f"{Path(held.path).name} is closed: it is open in {held.holder}"


def run_status(args: argparse.Namespace) -> int:
    """Print where the match stands; reads only, writes nothing."""
    config = load(args)
    sheets = open_match(config, writes=False)
    with user_errors():
        report = poll_match(config, sheets, dry_run=True)
    held = held_open(sheets) if report.reason else None  # a resolution writes every seat's file
    lines = window_status_lines(report, _now(), _waits_for(held), bool(getattr(args, "untyped", False)))
    warning = tables_warning(config, report)
    mail = mail_status_lines(config, sheets, _now())
    print("\n".join([*lines, *([warning] if warning else []), *mail, *outbox_lines(config, _now())]))
    return 0
