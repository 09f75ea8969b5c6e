"""The gate of a match on local workbooks: each workbook's fingerprint, kept so that the next idle poll can skip
its reads (``poll_gate.idle`` decides from them before anything loads).

Before a full poll the state file is removed (a poll that fails half-way leaves none: the next
one reads everything); after it succeeds, each local workbook's fingerprint is kept: the one the
local backend gives for its own save when the poll wrote the workbook (our write is not a
player's), else the one taken before the poll read it (a save by a player after that moment
shows as a change, and the next poll reads it). With it, what the poll read of each workbook it did not write
(``poll_gate.local_reads``): the next poll loads only the workbooks saved since.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from sheets_gm.poll_gate.local_reads import forget_reads, keep_reads
from sheets_gm.poll_gate.state import PollState, Said, forget_state, iso, save_state, state_path
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.marks import FileMark, file_mark, with_identity
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.sheets import MatchSheets


class LocalGate:
    """The gate of one poll of a local match (the ``Gate`` of ``poll_gate.run``): it never stays idle here (an idle
    local poll ends in ``poll_gate.idle``, before any workbook is opened), and keeps the workbooks' fingerprints."""

    def __init__(self, config_path: Path, config_mark: FileMark | None, sheets: MatchSheets,
                 read_at: datetime) -> None:
        self.config_path = config_path
        self.config_mark = config_mark  # the config file as it was before it was loaded
        self.sheets = sheets
        self.read_at = read_at
        self.before: dict[str, FileMark | None] = {}

    def idle_state(self) -> PollState | None:
        """None: the poll reads (see the class notes)."""
        return None

    def keep_idle(self) -> None:
        """Nothing to keep: this gate is never idle."""

    def forget(self) -> None:
        """Forget the last poll's state and fingerprint every workbook as it is before this poll reads it."""
        forget_state(state_path(self.config_path))
        forget_reads(self.config_path)  # (the workbooks were handed them already: ``host.polls``)
        self.before = {str(b.path.resolve()): file_mark(b.path) for b in self._workbooks()}

    def poll(self, run: Callable[[MatchSheets], WindowReport]) -> WindowReport:
        """The full poll."""
        return run(self.sheets)

    def keep(self, report: WindowReport, said: Said) -> None:
        """Keep what this poll saw (see the module notes); no state when a fingerprint is missing, or when a bot
        typed in a workbook or a file was drawn again over an older copy (the next poll reads them: its reads, each
        of the version it saw, are kept all the same)."""
        keep_reads(self.config_path, self.sheets)
        if report.bots_typed or report.older_copies:
            return
        files: dict[str, FileMark] = {}
        for backend in self._workbooks():
            where = str(backend.path.resolve())
            mark = with_identity(backend.path, backend.own_save) if backend.own_save else self.before.get(where)
            if mark is None:
                return
            files[where] = mark
        if self.config_mark is None or not files:
            return
        save_state(state_path(self.config_path), PollState(
            config=self.config_mark, deadline=report.deadline, finished=report.finished, summary=said.summary,
            warning=said.warning, files=files, full_read_at=iso(self.read_at),
            folder=str(self.config_path.parent.resolve())))

    def _workbooks(self) -> list[LocalWorkbookBackend]:
        return [b for b in self.sheets.write_order() if isinstance(b, LocalWorkbookBackend)]
