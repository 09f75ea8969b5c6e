"""A GM's command on a Google match (adjust, undo, repair, a mail filed by the judge's door), recorded as a poll
records its own writes, so that the next idle poll passes them over and reads no spreadsheet (issue 95).

The last poll's record (``poll_gate.state``, ``poll_gate.kept_reads``) holds each spreadsheet as that poll read it
and Drive's version its read covers. A command writes some of them: each of those is then read again, Drive's
version of it asked first (what it covers: the command's write, and anything saved before the read), and the
poll is rehearsed on the match as it now stands (the spreadsheets the command wrote as just read, the others as
the last poll kept them): what it says is what the next idle poll repeats, and a spreadsheet it would write
(a resolution now due, feedback to give, a bot to type) is read again by the next poll, which does it.

A spreadsheet someone else saved during or after the command is never passed over: one the command did not
write keeps its old version, so Drive lists the save past it; one it wrote was read after the version was asked,
so a save after that read is listed past it too. Without a usable record (none yet, the config changed) the
record is forgotten as before, and the next poll reads every spreadsheet.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime
from pathlib import Path

from sheets_gm.poll_gate.drive import DriveCheck, after_google_poll, match_keys, versions_before
from sheets_gm.poll_gate.drive_due import usable_state
from sheets_gm.poll_gate.kept_reads import KeptSheets, kept_path, load_kept
from sheets_gm.poll_gate.state import Said, forget_state, state_path
from sheets_gm.sheets.google.drive import DriveChangeLog
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.sheets import MatchSheets

#: Why the record of a GM's command reads the spreadsheets it wrote.
COMMAND_READS = "the GM's command wrote them"


def record_command(config_path: Path, sheets: MatchSheets, written: Collection[str], log: DriveChangeLog,
                   clock: Callable[[], datetime], *,
                   rehearse: Callable[[MatchSheets], WindowReport], said: Callable[[WindowReport], Said]) -> bool:
    """Keep the record of the Google match configured by ``config_path`` after a GM's command wrote the
    spreadsheets ``written`` (keys), as a poll of the match would leave it (see the module notes): ``rehearse``
    runs the poll (it writes nothing here: its writes are only noted), ``said`` says what its report repeats.
    The config file must be as the last poll found it (else the record is forgotten). Returns whether the record
    was kept (False: it was forgotten, and the next poll reads every spreadsheet). Errors of the sheets are raised
    (the caller forgets)."""
    state, _ = usable_state(config_path)
    if state is None:
        forget_state(state_path(config_path))
        return False
    keys = match_keys(sheets)
    fresh = (set(written) | set(state.written)) & keys  # and what the last poll left to read back
    read_at = clock()
    versions, unseen = versions_before(log, fresh)
    check = DriveCheck(True, COMMAND_READS, state.drive_token, state, frozenset(fresh), state.checked_at, versions,
                       (frozenset(state.unseen) & keys) | unseen)
    kept = KeptSheets(sheets, load_kept(kept_path(config_path)), fresh, clock)
    kept.rehearse(True)
    report = rehearse(kept.sheets)
    again = kept.wrote()
    kept.rehearse(False)
    words = said(report)
    forget_state(state_path(config_path))  # replaced below, or gone if it cannot be written
    after_google_poll(config_path, state.config, check, report, read_at, words.summary, words.warning, kept,
                      read_back=again)
    return True
