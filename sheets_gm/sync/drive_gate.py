"""The Google poll gate: ask Drive once whether any of the match's spreadsheets changed, and read them only then.

Sheets allows a user 60 read requests a minute; Drive's quota is thousands of times larger. An
idle poll therefore asks Drive's change log (one ``changes.list`` from the page token the last
poll saved) and makes no Sheets request when none of the match's spreadsheets changed since the
last full read. Every spreadsheet is read when one of them changed, when the open window's
deadline is due, after a poll of ours wrote (our write is then read back once, and not taken for a
player's change again), at least every :data:`SAFETY_NET` against Drive's lag, when the config
changed, and whenever there is no state (a second machine carrying the match on) or Drive does not
answer: a fault there costs a full read, never a player's input.

Why the change log rather than ``files.list ... modifiedTime > T``: Drive's query language cannot
name files by id (only by name or folder, which players and GMs rename and move), and a search by
``modifiedTime`` misses an edit that Drive lists late with an earlier ``modifiedTime``; the change
log lists every edit once it is indexed, however late, after the saved token.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.google import DriveChangeLog, GoogleSheetBackend
from sheets_gm.sheets.marks import FileMark, unchanged
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.poll_gate import SAFETY_NET_MINUTES, deadline_due
from sheets_gm.sync.poll_state import PollState, forget_state, iso, load_state, save_state, state_path
from sheets_gm.sync.sheets import MatchSheets

#: Every spreadsheet is read at least this often, whatever Drive says (Drive's listing can lag).
SAFETY_NET = timedelta(minutes=SAFETY_NET_MINUTES)
#: A change Drive dates this much before the last full read started is still read again: the two clocks
#: (this machine's and Google's) may differ by a few seconds.
CLOCK_MARGIN = timedelta(seconds=10)


@dataclass(frozen=True, slots=True)
class DriveGate:
    """What the gate decided: read everything (``reason`` says why) or not; ``token``: Drive's page token to keep."""

    read: bool
    reason: str
    token: str
    state: PollState | None = None


def _keys(sheets: MatchSheets) -> set[str]:
    return {b.key for b in sheets.write_order() if isinstance(b, GoogleSheetBackend)}


def drive_log(sheets: MatchSheets) -> DriveChangeLog | None:
    """The change log of the account the match's spreadsheets are opened with (None: not a Google match)."""
    backend = sheets.engine
    return DriveChangeLog(backend.client) if isinstance(backend, GoogleSheetBackend) else None


def _start_token(log: DriveChangeLog) -> str:
    try:
        return log.start_token()
    except SheetError:
        return ""  # the next poll has no token either: it reads everything and asks again


def check_drive(config_path: Path, config_mark: FileMark | None, sheets: MatchSheets,
                log: DriveChangeLog, now: datetime) -> DriveGate:
    """Whether this poll of the Google match must read its spreadsheets (see the module notes)."""
    path = config_path
    state = load_state(state_path(path))
    if state is None or not state.drive_token:
        return DriveGate(True, "no record of the last poll", _start_token(log))
    if config_mark is None or not unchanged(path, state.config):
        return DriveGate(True, "the config changed", _start_token(log))
    try:
        changes = log.since(state.drive_token)
    except SheetError:
        return DriveGate(True, "Drive did not answer", state.drive_token)
    mine = _keys(sheets)
    read_until = datetime.fromisoformat(state.full_read_at) - CLOCK_MARGIN if state.full_read_at else None
    changed = [key for key, when in changes.changed.items()
               if key in mine and (read_until is None or datetime.fromisoformat(when) > read_until)]
    reason = ("a spreadsheet changed" if changed else
              "the last poll wrote" if state.wrote else
              "the deadline is due" if deadline_due(state, now) else
              "the safety net" if read_until is None or now - read_until - CLOCK_MARGIN >= SAFETY_NET else
              "more changes than one page of Drive's log" if not changes.complete else "")
    return DriveGate(bool(reason), reason, changes.token if changes.complete else state.drive_token, state)


def before_google_poll(config_path: Path) -> None:
    """A full poll starts: forget the state (a poll that fails half-way leaves none)."""
    forget_state(state_path(config_path))


def after_idle(config_path: Path, gate: DriveGate) -> None:
    """An idle poll: keep the state, from Drive's new page token on."""
    if gate.state is not None:
        save_state(state_path(config_path), replace(gate.state, drive_token=gate.token))


def after_google_poll(config_path: Path, config_mark: FileMark | None, gate: DriveGate, report: WindowReport,
                      read_at: datetime, summary: str, warning: str) -> None:
    """A full poll succeeded: keep when it read, Drive's token from before the read, and whether it wrote."""
    if config_mark is None or not gate.token:
        return
    save_state(state_path(config_path), PollState(
        config=config_mark, deadline=report.deadline, finished=report.finished, summary=summary, warning=warning,
        full_read_at=iso(read_at), drive_token=gate.token, wrote=report.write_calls > 0))
