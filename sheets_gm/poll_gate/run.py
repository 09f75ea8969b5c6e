"""One poll behind the gate, for either kind of match: decide (idle, or read), forget the last poll's state,
run the poll, keep what it saw for the next one.

The state is only ever a shortcut (``poll_gate.state``): it is forgotten before a poll that reads and kept after it
succeeds, so a poll that fails half-way leaves none and the next one reads everything. Two gates implement
:class:`Gate`: ``local.LocalGate`` (the workbooks' fingerprints) and ``drive.DriveGate`` (Drive's change
log, the kept reads); :func:`gate_for` picks the match's. The poll itself is handed in (the match layer's
``sync_once``), so the gate knows no config and no game; ``host.polls`` runs the gate for cron and
``sync --watch``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from sheets_gm.poll_gate.state import PollState, Said
from sheets_gm.sheets.marks import FileMark
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.sheets import MatchSheets

if TYPE_CHECKING:
    from sheets_gm.sheets.google.drive import DriveChangeLog


class Gate(Protocol):
    """What a gate does for one poll (see the module notes)."""

    def idle_state(self) -> PollState | None:
        """The last full poll's state when this poll need read nothing, else None (read)."""

    def keep_idle(self) -> None:
        """An idle poll: keep what the gate learnt on the way (Drive's new page token)."""

    def forget(self) -> None:
        """A poll that reads starts: forget the last poll's state."""

    def poll(self, run: Callable[[MatchSheets], WindowReport]) -> WindowReport:
        """Run the poll ``run`` on the match's sheets as this gate reads them."""

    def keep(self, report: WindowReport, said: Said) -> None:
        """The poll succeeded: keep what the next poll's gate needs."""


@dataclass(frozen=True)
class IdlePoll:
    """A poll the gate found idle: nothing read, nothing written; what the last full poll saw (its deadline,
    whether the match is over, the line it printed). ``sync --watch`` waits on it as on a report."""

    state: PollState
    resolved: bool = False
    feedback_written: int = 0
    notices: str = ""  # what sending the notices waiting for a retry did ('' when none was due)

    @property
    def deadline(self) -> str:
        """The open window's deadline, as the last full poll saw it."""
        return self.state.deadline

    @property
    def finished(self) -> bool:
        """Whether the match was over at the last full poll."""
        return self.state.finished


def gate_for(config_path: Path, config_mark: FileMark | None, sheets: MatchSheets, read_at: datetime,
             clock: Callable[[], datetime], *, google: bool, log: DriveChangeLog | None = None) -> Gate:
    """The gate of the match configured by ``config_path``: Drive's for a match on Google (``google``), else the
    workbooks'. ``config_mark`` is the config file as it was before it was loaded; ``read_at`` when this poll
    started; ``clock`` dates the answers of our writes; ``log``: the change log to ask (default: the one of the
    account the spreadsheets are opened with; ``serve`` hands in its account watcher's answer)."""
    if google:
        from sheets_gm.poll_gate.drive import DriveGate, drive_log  # Google's client loads for a Google match only

        log = log or drive_log(sheets)
        if log is not None:
            return DriveGate(config_path, config_mark, sheets, log, read_at, clock)
    from sheets_gm.poll_gate.local import LocalGate

    return LocalGate(config_path, config_mark, sheets, read_at)


def gated_poll(gate: Gate, run: Callable[[MatchSheets], WindowReport], *, may_idle: Callable[[PollState], bool],
               said: Callable[[WindowReport], Said]) -> tuple[WindowReport, Said] | IdlePoll:
    """One poll behind ``gate``: idle when the gate finds nothing to read and ``may_idle`` agrees (the caller's
    say: a line to repeat, no reminder due); else forget, run ``run``, and keep what ``said`` makes of its report
    (what the next idle poll repeats). Returns the report and what was said of it, or the idle poll."""
    state = gate.idle_state()
    if state is not None and may_idle(state):
        gate.keep_idle()
        return IdlePoll(state)
    gate.forget()
    report = gate.poll(run)
    words = said(report)
    gate.keep(report, words)
    return report, words
