"""Keeping what a full poll saw, so that the next idle poll can skip its reads (``sync.poll_gate``).

Before a full poll the state file is removed (a poll that fails half-way leaves none: the next
one reads everything); after it succeeds, each local workbook's fingerprint is kept: the one the
local backend gives for its own save when the poll wrote the workbook (our write is not a
player's), else the one taken before the poll read it (a save by a player after that moment
shows as a change, and the next poll reads it).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.marks import FileMark, file_mark
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.poll_state import PollState, forget_state, iso, save_state, state_path
from sheets_gm.sync.sheets import MatchSheets


def _workbooks(sheets: MatchSheets) -> list[LocalWorkbookBackend]:
    return [b for b in sheets.write_order() if isinstance(b, LocalWorkbookBackend)]


def before_local_poll(config_path: Path, sheets: MatchSheets) -> dict[str, FileMark | None]:
    """Forget the last poll's state and fingerprint every local workbook as it is before this poll reads it."""
    forget_state(state_path(config_path))
    return {str(b.path.resolve()): file_mark(b.path) for b in _workbooks(sheets)}


def after_local_poll(config_path: Path, config_mark: FileMark | None, sheets: MatchSheets,
                     before: dict[str, FileMark | None], report: WindowReport, summary: str, warning: str,
                     read_at: datetime) -> None:
    """Keep what this poll saw (see the module notes); nothing when a fingerprint is missing (the next poll reads).

    ``config_mark`` is the config file as it was before it was loaded; ``summary`` what the poll printed
    ('' when the next idle poll must not repeat it), ``warning`` what every poll repeats."""
    files: dict[str, FileMark] = {}
    for backend in _workbooks(sheets):
        where = str(backend.path.resolve())
        mark = backend.own_save or before.get(where)
        if mark is None:
            return
        files[where] = mark
    if config_mark is None or not files:
        return
    save_state(state_path(config_path), PollState(config=config_mark, deadline=report.deadline,
                                                  finished=report.finished, summary=summary, warning=warning,
                                                  files=files, full_read_at=iso(read_at)))
