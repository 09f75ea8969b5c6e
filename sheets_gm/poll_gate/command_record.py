"""A GM's command on a Google match (resolve, adjust, undo, repair, a mail filed by the judge's door), recorded as
a poll records its own writes, so that the next idle poll passes them over and reads no spreadsheet (issue 95).

The last poll's record (``poll_gate.state``, ``poll_gate.kept_reads``) holds each spreadsheet as that poll read it
and Drive's version its read covers. While the command runs, each spreadsheet is watched (:class:`CommandWatch`,
the backend's ``WriteWatch``): once the command has read there (the match, as a poll reads it), each of its writes
also answers with those ranges as they stand after it (the same request), and Drive's version of the file is
asked right after, as a poll asks it of its own writes. A spreadsheet whose last write so answered, Drive naming
us as its last modifier, is kept as that answer; one the command wrote otherwise (a layout, a write before it read
there, a save just after ours) is read again, Drive's version of it asked first. Then the poll is rehearsed on
the match as it now stands (what the command wrote as just described, the others as the last poll kept them):
what it says is what the next idle poll repeats, and a spreadsheet it would write (a save to answer, an undo's
orders put back, a resolution now due) is read again by the next poll, which does it.

A spreadsheet someone else saved during or after the command is never passed over: one the command did not write
keeps its old version, so Drive lists the save past it; one it wrote is kept at a version that covers no save the
kept answer or read does not hold, so a later save is listed past it. Without a usable record (none yet, the config
changed) the record is forgotten as before, and the next poll reads every spreadsheet.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path

from sheets_gm.poll_gate.drive import (
    DriveCheck,
    after_google_poll,
    match_keys,
    version_after_write,
    versions_before,
)
from sheets_gm.poll_gate.drive_due import usable_state
from sheets_gm.poll_gate.kept_reads import KeptRead, KeptSheets, kept_path, load_kept
from sheets_gm.poll_gate.state import Said, forget_state, state_path
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.drive import DriveChangeLog
from sheets_gm.sheets.layout import Grid
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.sheets import MatchSheets

#: Why the record of a GM's command reads the spreadsheets it wrote.
COMMAND_READS = "the GM's command wrote them"


class CommandWatch:
    """One spreadsheet's reads and writes while a GM's command runs (a ``WriteWatch`` of its backend): once the
    command has read there, each of its writes also answers with what its fullest read there asked (the match as a
    poll reads it: the most ranges in one read), in the same request, and Drive's version of the file is asked right
    after (``ask``: None when someone else's save came after ours, or Drive did not answer). The last such answer is
    the spreadsheet's kept read from then on, with no read after the command; a layout, or a write that answered
    with nothing, leaves none (read again)."""

    def __init__(self, ask: Callable[[], int | None]) -> None:
        self.ask = ask
        self.ranges: tuple[str, ...] = ()  # the command's fullest read here
        self.snapshot: KeptRead | None = None
        self.version: int | None = None

    def also_read_back(self) -> Sequence[str]:
        """The ranges of the command's fullest read here (none before it read)."""
        return self.ranges

    def read(self, ranges: Sequence[str]) -> None:
        """The command read ``ranges`` here."""
        if len(ranges) >= len(self.ranges):
            self.ranges = tuple(ranges)

    def written(self, grids: list[Grid] | None) -> None:
        """A write of the command: what :meth:`also_read_back` holds after it (None: unknown)."""
        if grids is None or not self.ranges:
            self.snapshot, self.version = None, None
            return
        self.snapshot, self.version = KeptRead(self.ranges, tuple(grids)), self.ask()

    def answer(self) -> tuple[KeptRead, int] | None:
        """The spreadsheet as the command's last write left it, and Drive's version right after (None: read it)."""
        return None if self.snapshot is None or self.version is None else (self.snapshot, self.version)


def watch_writes(config_path: Path, sheets: MatchSheets, log: DriveChangeLog) -> dict[str, CommandWatch]:
    """Watch each Google spreadsheet of ``sheets`` while a GM's command runs (:class:`CommandWatch`), by key; none
    without a usable record of the last poll (the command's record is then forgotten anyway)."""
    if usable_state(config_path)[0] is None:
        return {}
    ask = version_after_write(log)
    watches = {}
    for backend in sheets.write_order():
        if isinstance(backend, GoogleSheetBackend):
            watch = watches[backend.key] = CommandWatch(partial(ask, backend.key))
            backend.watch = watch
    return watches


def unwatch(sheets: MatchSheets) -> None:
    """The command is over: its spreadsheets watched no more."""
    for backend in sheets.write_order():
        if isinstance(backend, GoogleSheetBackend):
            backend.watch = None


def record_command(config_path: Path, sheets: MatchSheets, written: Collection[str], log: DriveChangeLog,
                   clock: Callable[[], datetime], *,
                   rehearse: Callable[[MatchSheets], WindowReport], said: Callable[[WindowReport], Said],
                   watches: Mapping[str, CommandWatch] | None = None) -> bool:
    """Keep the record of the Google match configured by ``config_path`` after a GM's command wrote the
    spreadsheets ``written`` (keys), as a poll of the match would leave it (see the module notes): ``rehearse``
    runs the poll (it writes nothing here: its writes are only noted), ``said`` says what its report repeats;
    ``watches``: what the command's writes answered with (:func:`watch_writes`), taken for a read of those.
    The config file must be as the last poll found it (else the record is forgotten). Returns whether the record
    was kept (False: it was forgotten, and the next poll reads every spreadsheet). Errors of the sheets are raised
    (the caller forgets)."""
    state, _ = usable_state(config_path)
    if state is None:
        forget_state(state_path(config_path))
        return False
    keys = match_keys(sheets)
    answered = {key: answer for key in written if key in (watches or {})
                for answer in [(watches or {})[key].answer()] if answer is not None}
    fresh = (set(written) - set(answered) | set(state.written)) & keys  # and what the last poll left to read back
    read_at = clock()
    versions, unseen = versions_before(log, fresh)
    versions.update({key: version for key, (_, version) in answered.items() if key not in fresh})
    check = DriveCheck(True, COMMAND_READS, state.drive_token, state, frozenset(fresh), state.checked_at, versions,
                       (frozenset(state.unseen) & keys) | unseen)
    kept = KeptSheets(sheets, load_kept(kept_path(config_path)), fresh, clock)
    for key, (snapshot, _) in answered.items():
        if key not in fresh:
            kept.taken(key, snapshot)
    kept.rehearse(True)
    report = rehearse(kept.sheets)
    again = kept.wrote()
    kept.rehearse(False)
    words = said(report)
    forget_state(state_path(config_path))  # replaced below, or gone if it cannot be written
    after_google_poll(config_path, state.config, check, report, read_at, words.summary, words.warning, kept,
                      read_back=again)
    return True
