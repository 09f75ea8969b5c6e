"""``sheets-gm sync``, ``resolve`` and ``status``: poll the match, resolve a turn, say where it stands."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import threading
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

from sheets_gm.commands.base import UserError, command
from sheets_gm.commands.matchargs import add_config_option, load, open_match, user_errors
from sheets_gm.engine.core.settings import SettingError
from sheets_gm.match.config import MatchConfig, settings_drift
from sheets_gm.match.watch import seconds_until, sync_once, watch
from sheets_gm.match.window_match import on_window_sync, window_sync_once
from sheets_gm.sheets.backend import SheetError, WorkbookOpenError
from sheets_gm.sync.deadline import describe_deadline
from sheets_gm.sync.poll import PollReport
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.sync.window_poll import WindowReport


def _now() -> datetime:
    return datetime.now(UTC)


def describe_wait(seconds: float) -> str:
    """A duration for people: ``2 h 05 min``, ``4 min``, ``30 s``."""
    seconds = max(0, int(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def summary(report: PollReport) -> str:
    """One line saying what a poll did, for the terminal and cron's mail."""
    if report.resolved:
        return f"Turn {report.turn} resolved ({report.reason}). {report.result}"
    if report.finished:
        return f"Nothing to do: {report.result}"
    waiting = f"waiting for {len(report.waiting_for)} order(s)" if report.waiting_for else "every order is in"
    ready = sum(report.ready)
    fed = f"; {report.feedback_written} feedback cell(s) updated" if report.feedback_written else ""
    return f"Turn {report.turn}: {waiting}, {ready} of {len(report.ready)} captains ready{fed}."


def window_summary(report: WindowReport) -> str:
    """One line saying what a poll of a match on the generic sync did."""
    if report.resolved:
        return f"{report.window[:1].upper()}{report.window[1:]} resolved ({report.reason}). {report.result}"
    if report.finished:
        return f"Nothing to do: {report.result}"
    waiting = (f"waiting for {', '.join(report.waiting_for)}" if report.waiting_for else "every seat is ready")
    fed = f"; {report.feedback_written} feedback cell(s) updated" if report.feedback_written else ""
    return f"{report.window[:1].upper()}{report.window[1:]}: {waiting}{fed}."


def describe_report(report: PollReport | WindowReport) -> str:
    """One line for either sync's report."""
    return window_summary(report) if isinstance(report, WindowReport) else summary(report)


def settings_warning(config: MatchConfig, report: PollReport | WindowReport) -> str:
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


def _open_workbook_memory(config: MatchConfig) -> Path:
    """Where a sync remembers which open-workbook message it last gave (beside the match's lock file)."""
    return config.lock_path.with_name("open-workbook.json")


def poll_match(config: MatchConfig, sheets: MatchSheets, *, dry_run: bool = False, force: bool = False,
               turn: int | None = None, window: str | None = None) -> PollReport | WindowReport:
    """One poll through the sync the match's ruleset runs on (``turn`` for GvG, ``window`` otherwise)."""
    if on_window_sync(config.ruleset):
        if turn is not None and window is None:
            window = str(turn)
        return window_sync_once(config, sheets, now=_now(), force=force, dry_run=dry_run, window=window)
    return sync_once(config, sheets, now=_now(), force=force, dry_run=dry_run, turn=turn)


def _open_key(report: PollReport | WindowReport) -> str:
    """The open turn or window, as ``resolve --force`` names it."""
    return report.window_key if isinstance(report, WindowReport) else str(report.turn)


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
        memory.parent.mkdir(parents=True, exist_ok=True)
        memory.write_text(json.dumps(said), encoding="utf-8")
    return True


def _watch_line(config: MatchConfig, report: PollReport | WindowReport, wait: float) -> str:
    """What ``sync --watch`` prints after a poll: the settings warning if any, the summary, the next poll."""
    warning = settings_warning(config, report)
    return (f"{warning}\n" if warning else "") + f"{describe_report(report)} Next poll in {describe_wait(wait)}."


def run_sync(args: argparse.Namespace) -> int:
    """One poll (for cron), or ``--watch``: poll until the match ends or Ctrl-C."""
    config = load(args)
    sheets = open_match(config)
    if not args.watch:
        with user_errors():
            try:
                report = poll_match(config, sheets)
            except WorkbookOpenError as exc:
                # A player left the workbook open: every cron poll fails until it is closed. Say it once a turn.
                if _report_open_workbook(config, sheets, exc):
                    raise UserError(f"{exc} (said once this turn; the next polls keep trying quietly)") from None
                return 1
        _open_workbook_memory(config).unlink(missing_ok=True)
        warning = settings_warning(config, report)
        if warning:
            print(warning)
        if not (args.quiet and not report.resolved):
            print(describe_report(report))
        return 0
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
                lambda: poll_match(config, sheets), stop,
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


def run_resolve(args: argparse.Namespace) -> int:
    """Resolve the turn now if it is due (or anyway with --force --turn N); say why not otherwise.

    A force always names its turn (or window): cron may resolve the turn the GM looked at a moment
    before she types the command, and forcing the next one, with nobody's orders in, would cost
    every player a turn."""
    config = load(args)
    sheets = open_match(config)
    named = args.window if args.window is not None else (None if args.turn is None else str(args.turn))
    what = "window" if on_window_sync(config.ruleset) else "turn"
    option = "--window" if what == "window" else "--turn"
    if args.window is not None and what == "turn":
        raise UserError(f"a {config.ruleset} match names its turns: use --turn N, not --window")
    if args.force and named is None:
        with user_errors():
            seen = poll_match(config, sheets, dry_run=True)
        if seen.finished:
            raise UserError(f"the match is over ({seen.result}); nothing to resolve")
        key = _open_key(seen)
        raise UserError(f"--force needs the {what} you mean, so that it never forces a {what} that another sync "
                        f"opened meanwhile: {what} {key} is open now; to resolve it anyway run "
                        f"sheets-gm resolve -c {args.config} --force {option} {key}")
    with user_errors():
        report = poll_match(config, sheets, force=args.force, turn=args.turn, window=args.window)
    if report.force_refused:
        raise UserError(f"{report.force_refused}. Look at the match again (sheets-gm status) before forcing")
    if report.finished and not report.resolved:
        raise UserError(f"the match is over ({report.result}); nothing to resolve")
    if not report.resolved:
        missing = ", ".join(report.waiting_for) or "nobody"
        key = _open_key(report)
        who = "every seat" if what == "window" else "every captain"
        waiting = "not ready" if what == "window" else "no order yet from"
        raise UserError(f"{what} {key} is not due: not {who} is ready and the deadline has not "
                        f"passed ({waiting}: {missing}). To resolve it anyway: "
                        f"sheets-gm resolve -c {args.config} --force {option} {key}")
    print(describe_report(report))
    return 0


def _deadline_phrase(deadline: str, now: datetime, what: str, who: str) -> str:
    """How the open orders close: ``until Mon 23 Nov, 20:00 (in 2 h 05 min)``, past, or no deadline."""
    until = seconds_until(deadline, now)
    if until is None:
        return f" (no deadline: {what} resolves when {who} is ready)"
    when = describe_deadline(deadline)
    return (f" until {when} (in {describe_wait(until)})" if until > 0 else
            f"; the deadline {when} has passed: the next sync resolves {what}")


def status_lines(report: PollReport, now: datetime) -> list[str]:
    """What ``status`` prints: turn, phase, deadline, captains, who has not submitted, what was rejected."""
    state = report.state
    assert state is not None
    if report.finished:
        return [report.result or f"The match is over on turn {state.turn}."]
    lines = [f"Turn {report.turn} of {report.max_turns} · orders open"
             + _deadline_phrase(report.deadline, now, "the turn", "every captain")]
    for i, team in enumerate(state.teams):
        ready = "ready ✔" if report.ready[i] else "not ready"
        lines.append(f"{team}: {state.coins[i]} coins · captain {ready}")
    if report.waiting_for:
        names = ", ".join(f"{n} ({state.teams[state.player(n).team]})" for n in report.waiting_for)
        lines.append(f"No order yet from {len(report.waiting_for)}: {names}")
    else:
        lines.append("Every active player has an order in.")
    if report.rejected:
        lines.append(f"Rejected ({len(report.rejected)}):")
        lines += [f"  {who}: {why}" for who, why in report.rejected]
    lines.append(f"Due now: {report.reason}." if report.reason else "Not due yet.")
    return lines


def window_status_lines(report: WindowReport, now: datetime) -> list[str]:
    """What ``status`` prints for a match on the generic sync: window, deadline, who is not ready, rejections."""
    if report.finished:
        return [report.result]
    lines = [f"{report.window[:1].upper()}{report.window[1:]} (window {report.window_key}) · orders open"
             + _deadline_phrase(report.deadline, now, "it", "every seat")]
    lines.append(report.result)
    lines.append(f"Not ready: {', '.join(report.waiting_for)}" if report.waiting_for else "Every seat is ready.")
    if report.rejected:
        lines.append(f"Rejected ({len(report.rejected)}):")
        lines += [f"  {who}: {why}" for who, why in report.rejected]
    lines.append(f"Due now: {report.reason}." if report.reason else "Not due yet.")
    return lines


def run_status(args: argparse.Namespace) -> int:
    """Print where the match stands; reads only, writes nothing."""
    config = load(args)
    sheets = open_match(config)
    with user_errors():
        report = poll_match(config, sheets, dry_run=True)
    lines = window_status_lines(report, _now()) if isinstance(report, WindowReport) else status_lines(report, _now())
    print("\n".join(lines))
    return 0


def register(sub: Any) -> None:
    """Add ``sync``, ``resolve`` and ``status`` to the command line."""
    p = command(sub, "sync", run_sync, "poll the match once (for cron), or keep polling with --watch",
                "Read every order cell, answer each player in their feedback cell, and resolve the turn "
                "when every captain is ready or the deadline has passed. With --watch, poll again and again, "
                "backing off while nothing changes, until the match ends or Ctrl-C.",
                "sheets-gm sync -c match.toml --quiet   (cron: the line init and doctor print)")
    add_config_option(p)
    p.add_argument("--watch", action="store_true", help="keep polling until the match ends or Ctrl-C")
    p.add_argument("--interval", type=_positive, metavar="S", help="seconds between polls (default: [sync] interval)")
    p.add_argument("--quiet", action="store_true", help="print only when a turn is resolved (cron mails less)")
    p = command(sub, "resolve", run_resolve,
                "resolve the turn now (--force --turn N: even if not every captain is ready)",
                "Poll the match and resolve the current turn if it is due; with --force --turn N, resolve turn N "
                "anyway with the orders in the cells now (missing orders: those players stay where they are). "
                "The turn is checked under the sync lock: if another sync resolved it meanwhile, nothing is "
                "forced.",
                "sheets-gm resolve -c match.toml --force --turn 7")
    add_config_option(p)
    p.add_argument("--force", action="store_true", help="resolve even if captains are not ready (needs --turn)")
    p.add_argument("--turn", type=int, metavar="N", help="the turn to force: it must be the open turn")
    p.add_argument("--window", metavar="KEY",
                   help="for a game on windows (status names the key, e.g. 3/equip): the window to force")
    p = command(sub, "status", run_status, "turn, deadline, who has not submitted, what was rejected and why",
                "Read the match and say where it stands; writes nothing.",
                "sheets-gm status -c match.toml")
    add_config_option(p)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the interval must be more than 0 seconds")
    return value
