"""A configured match's polls as the commands run them: cron's and ``sync --watch``'s behind the gate, a GM's
``resolve``, and the notices after each. The commands only print what these return.

One poll behind the gate (:func:`poll_behind_gate`): build the match's gate (``poll_gate.run.gate_for``: Drive's
for a Google match, the workbooks' fingerprints else), let it decide whether the poll reads at all (it stays
idle only as ``running.idle_poll`` allows), run the poll under the match lock (``running.run.sync_once``), keep what
it said for the next idle poll (``running.poll_words.said_of``), and queue and send its notices
(``notify.announce``; an idle poll sends only the letters waiting for a retry). A player's workbook left open stops
every poll until it is closed: that is said once a turn (:class:`LeftOpen`). It is above ``init`` and ``upkeep``: a
poll first completes an init or a repair cut short (``init.settle``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sheets_gm.init.settle import complete_cut_commands
from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.notify.announce import after_poll, send_due
from sheets_gm.notify.due import Due
from sheets_gm.notify.outbox import due
from sheets_gm.poll_gate.run import IdlePoll as IdlePoll  # where the commands find it
from sheets_gm.poll_gate.run import gate_for, gated_poll
from sheets_gm.poll_gate.state import PollState
from sheets_gm.running.connect import open_match_sheets, tidy_local_workbooks
from sheets_gm.running.idle_poll import idle_local_sync, may_stay_idle
from sheets_gm.running.mailroom.door import poll_with_mail
from sheets_gm.running.poll_words import said_of
from sheets_gm.running.run import complete_cut_change, gm_change, require_sheets, sync_once
from sheets_gm.sheets.backend import SheetError, WorkbookOpenError
from sheets_gm.sheets.marks import FileMark
from sheets_gm.sheets.private_files import write_private
from sheets_gm.sync.lock import match_lock
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.sheets import MatchSheets

if TYPE_CHECKING:
    import gspread

    from sheets_gm.sheets.google.drive import DriveChangeLog

Clock = Callable[[], datetime]


@dataclass(frozen=True)
class FullPoll:
    """A poll that read: its report, what queueing and sending its notices did ('' when nothing moved), and the
    warnings that every poll repeats until the GM mends them ('' when none; ``resolve`` gives none)."""

    report: WindowReport
    notices: str = ""
    warning: str = ""


@dataclass(frozen=True)
class LeftOpen:
    """A poll that stopped at a workbook left open in an office program: nothing was synced. ``first`` when this
    is the first time this turn the polls stop at it with this message (cron says it then, and only then)."""

    message: str
    first: bool
    notices: str = ""  # what the notices did: a due window waiting for the file is told once (``after_poll``)


def poll_behind_gate(config: MatchConfig, config_mark: FileMark | None, sheets: MatchSheets, *, quiet: bool,
                     clock: Clock, drive_log: DriveChangeLog | None = None,
                     lock_wait: float = 30.0) -> FullPoll | IdlePoll | LeftOpen:
    """One poll of the match behind its gate, then its notices (see the module notes). ``config_mark``: the config
    file as it was before it was loaded; ``quiet``: cron's ``--quiet``, which stays idle with nothing to say
    again. ``drive_log`` and ``lock_wait`` are ``serve``'s (``host``): the change log its account's watcher
    answers from, and no wait for a lock another command holds (``SyncBusyError``); cron and ``sync --watch``
    leave both as they are. Errors other than a workbook left open are raised (Google unavailable included)."""
    read_at = clock()
    notices: list[Due] = []

    def may_idle(state: PollState) -> bool:
        notices.append(due(config.path, read_at))
        return may_stay_idle(state, notices[0], quiet=quiet, config_path=config.path)

    try:
        # The gate decides under the match lock: a poll that waited for a GM's command (resolve --force, undo) is
        # never served the spreadsheets as kept before that command wrote them, nor the state it forgot.
        with match_lock(config.lock_path, wait_seconds=lock_wait):
            completed = complete_cut_change(config, sheets)  # before the gate: its kept reads predate the change
            gate = gate_for(config.path, config_mark, sheets, read_at, clock,
                            google=config.backend is BackendKind.GOOGLE, log=drive_log)
            gated = gated_poll(gate, lambda s: sync_once(config, s, now=read_at, lock=False), may_idle=may_idle,
                               said=lambda report: said_of(config, report))
    except WorkbookOpenError as exc:  # a due window that waits for the file: its notices say so, once
        told = after_poll(config, sheets, exc.report, clock) if isinstance(exc.report, WindowReport) else ""
        return LeftOpen(str(exc), _first_this_turn(config, exc), told)
    if isinstance(gated, IdlePoll):
        return replace(gated, notices=send_waiting(config, clock) if notices[0].letters else "")
    _open_workbook_memory(config).unlink(missing_ok=True)
    report, said = gated
    report.completed = report.completed or completed
    return FullPoll(report, after_poll(config, sheets, report, clock), said.warning)


@dataclass(frozen=True)
class Looked:
    """One poll of a configured match as cron's ``sync`` and ``serve``'s look both take it (``poll_config``): what
    was put right before it (a command cut short completed, a local workbook tidied), and the poll behind the gate."""

    notes: tuple[str, ...]
    gated: FullPoll | IdlePoll | LeftOpen


def poll_config(config: MatchConfig, config_mark: FileMark | None, clock: Clock, *, quiet: bool,
                client: gspread.Client | None = None, drive_log: DriveChangeLog | None = None,
                lock_wait: float = 30.0) -> Looked:
    """The one path from a config read to its poll, for cron and ``serve`` alike: a command cut short completed, the
    match's spreadsheets opened (``client``: ``serve``'s signed-in Google client; None: signed in here), what a
    local workbook must not hold put right, then ``poll_behind_gate`` (``drive_log`` and ``lock_wait`` as there). A
    local match its last poll left idle, with no letter waiting for a retry, stays so first, reading nothing (as cron's
    idle poll decides before anything loads: ``running.idle_poll``). The judge's mailbox, where the match has one, is
    read first and its new mail filed around the poll (``running.mailroom``); an idle mailbox leaves the poll idle."""
    require_sheets(config.ruleset, str(config.path))
    looked, said = poll_with_mail(config, clock, lambda: _poll_config(config, config_mark, clock, quiet=quiet,
                                                                      client=client, drive_log=drive_log,
                                                                      lock_wait=lock_wait), client=client)
    return replace(looked, notes=(*looked.notes, *said)) if said else looked


def _poll_config(config: MatchConfig, config_mark: FileMark | None, clock: Clock, *, quiet: bool,
                 client: gspread.Client | None, drive_log: DriveChangeLog | None, lock_wait: float) -> Looked:
    """``poll_config``'s poll, its judge's mailbox aside."""
    idle = _stays_idle(config, clock, quiet=quiet, lock_wait=lock_wait)
    if idle is not None:
        return Looked((), idle)
    settled = complete_cut_commands(config, lock_wait=lock_wait)
    try:
        sheets = open_match_sheets(config, client=client)
        tidied: list[str] = []
        if config.backend is BackendKind.LOCAL:  # (the workbooks' library imported by a local match's poll alone)
            from sheets_gm.poll_gate.local_reads import hand_kept_reads

            hand_kept_reads(config.path, sheets)  # the workbooks nobody saved since the last poll: not loaded
            tidied = tidy_local_workbooks(sheets)
        notes = (*filter(None, [settled]), *tidied)
        return Looked(notes, poll_behind_gate(config, config_mark, sheets, quiet=quiet, clock=clock,
                                              drive_log=drive_log, lock_wait=lock_wait))
    except SheetError as exc:  # what the settle did is said first (an init cut short, rolled back: no file left)
        if not settled:
            raise
        raise SheetError(f"{settled}. {exc}") from exc


def _stays_idle(config: MatchConfig, clock: Clock, *, quiet: bool, lock_wait: float) -> IdlePoll | None:
    """The idle poll of a local match that may stay idle with no letter waiting, else None: the poll goes on. Asked
    under the match lock, a Google match's too: one another command holds is waited for ``lock_wait`` seconds, then
    ``SyncBusyError``, before anything is read or opened."""
    with match_lock(config.lock_path, wait_seconds=lock_wait):
        idle = None if config.backend is BackendKind.GOOGLE else idle_local_sync(config.path, clock(), quiet=quiet)
    return IdlePoll(idle.state) if idle is not None and not idle.letters_waiting else None


def send_waiting(config: MatchConfig, clock: Clock) -> str:
    """An idle poll with letters waiting for a retry (``running.idle_poll`` says so before anything loads): send
    them, reading no spreadsheet; a line for the GM ('' when nothing moved)."""
    return send_due(config, clock)


def resolve_now(config: MatchConfig, sheets: MatchSheets, *, force: bool, window: str | None,
                clock: Clock, step: int | None = None) -> FullPoll:
    """A GM's poll that resolves the open window if it is due (with ``force``, the window ``window`` at its step
    ``step`` anyway: see ``sync.poll``), then the notices of the resolution (a refused force, another window or step
    open, resolves nothing and writes nothing: none). A GM's change (``running.run.gm_change``): on Google the
    gate's record is kept as a poll's (what each write answered with, and Drive's version of it right after), so the
    next idle poll passes its writes over and reads nothing; on local workbooks it goes, when the poll wrote."""
    with gm_change(config, sheets):
        report = sync_once(config, sheets, now=clock(), force=force, window=window, step=step, lock=False)
    return FullPoll(report, after_poll(config, sheets, report, clock) if report.resolved else "")


def _open_workbook_memory(config: MatchConfig) -> Path:
    """Where a sync remembers which open-workbook message it last gave (beside the match's lock file)."""
    return config.lock_path.with_name("open-workbook.json")


def _first_this_turn(config: MatchConfig, exc: WorkbookOpenError) -> bool:
    """Whether the polls stop at this open workbook for the first time this turn (then it is remembered): the
    window is the one the poll that met it had open (``exc.window``)."""
    memory = _open_workbook_memory(config)
    said = {"turn": exc.window or None, "message": str(exc)}
    try:
        if json.loads(memory.read_text(encoding="utf-8")) == said:
            return False
    except (OSError, ValueError):
        pass
    with contextlib.suppress(OSError):
        write_private(memory, json.dumps(said))
    return True
