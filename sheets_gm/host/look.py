"""One look at a configured match, as ``serve`` takes it (``host/visit.py``): cron's one path from a config to its
poll (``host.polls.poll_config``), and what came of it in plain words.

It is cron's poll (a local match its last poll left idle stays so, reading nothing, as cron's idle poll decides),
with the host's signed-in client, the change log its account's watcher handed over and no wait for the match lock:
a look reads nothing while another command holds the match (``SyncBusyError``, raised: the host tries again at the
next interval). With ``letters_only`` it sends only the letters waiting for a retry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from sheets_gm.host.polls import IdlePoll, LeftOpen, Looked, poll_config, send_waiting
from sheets_gm.match.config import MatchConfig
from sheets_gm.running.poll_words import report_line
from sheets_gm.sheets.marks import FileMark
from sheets_gm.sync.lock import match_lock

if TYPE_CHECKING:
    import gspread

    from sheets_gm.sheets.google.drive import DriveChangeLog

Clock = Callable[[], datetime]


class Seen(StrEnum):
    """How a look that ran ended (the host adds its own: held, unavailable, failed)."""

    IDLE = "idle"  # nothing to read (the gate found nothing changed, or a local match its last poll left idle)
    READ = "read"  # a poll that read (feedback written or not)
    RESOLVED = "resolved"  # a window was resolved
    LETTERS = "letters"  # only the letters waiting for a retry were sent
    OPEN = "open"  # a player's workbook is open in an office program: nothing synced


@dataclass(frozen=True)
class Look:
    """What one look did, in plain data: how it ended, its line, the warnings every poll repeats (after what was
    put right first), what its notices did, the open window's deadline and whether the match is over."""

    seen: Seen
    line: str = ""
    warning: str = ""
    notices: str = ""
    deadline: str = ""
    finished: bool = False


def look_at(config: MatchConfig, config_mark: FileMark | None, clock: Clock, *, letters_only: bool = False,
            client: gspread.Client | None = None, drive_log: DriveChangeLog | None = None) -> Look:
    """One look at the match (see the module notes): ``config_mark`` is the config file as it was before it was
    read, ``client`` the host's signed-in Google client, ``drive_log`` the change log its account's watcher
    answers from (None: Drive is asked). Errors are raised, ``SyncBusyError`` when another command holds the match."""
    if letters_only:
        with match_lock(config.lock_path, wait_seconds=0):  # held: ``SyncBusyError``, tried at the next interval
            pass
        return Look(Seen.LETTERS, notices=send_waiting(config, clock))
    return _said(poll_config(config, config_mark, clock, quiet=True, client=client, drive_log=drive_log,
                             lock_wait=0))


def _said(looked: Looked) -> Look:
    """What cron's path returned, as a look says it."""
    gated = looked.gated

    def warned(warning: str) -> str:  # what was put right first (a command cut short completed, a workbook tidied)
        return " ".join(filter(None, [*looked.notes, warning]))

    if isinstance(gated, LeftOpen):
        return Look(Seen.OPEN, gated.message, warned(""), gated.notices)
    if isinstance(gated, IdlePoll):
        state = gated.state
        return Look(Seen.IDLE, state.summary, warned(state.warning), gated.notices, state.deadline, state.finished)
    report = gated.report
    return Look(Seen.RESOLVED if report.resolved else Seen.READ, report_line(report), warned(gated.warning),
                gated.notices, report.deadline, report.finished)
