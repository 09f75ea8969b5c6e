"""Whether a hosted match needs a poll now, decided from the files its last poll kept: no spreadsheet is read.

A local match: the local gate's fingerprints of its config and workbooks (``match.idle_poll``, cron's own idle
decision), a due deadline or reminder. A Google match: its account's watcher named one of its spreadsheets, or
its gate would read whatever Drive says (``gate.drive.due_without_changes``: a due deadline, the 6-hour read, our
last writes to read back…), or a reminder or letters wait. Both: letters waiting for a retry are sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sheets_gm.match.idle_poll import idle_local_sync
from sheets_gm.notify.outbox import due
from sheets_gm.sync.gate.drive import due_without_changes


@dataclass(frozen=True, slots=True)
class Need:
    """What a match needs now: a poll (``why`` says why), only the letters waiting for a retry sent, or nothing."""

    poll: bool = False
    letters: bool = False
    why: str = ""


def local_need(config_path: Path, now: datetime) -> Need:
    """What the local match configured by ``config_path`` needs (cron's idle decision, ``--quiet``)."""
    idle = idle_local_sync(config_path, now, quiet=True)
    if idle is None:
        return Need(poll=True, why="a file changed, a deadline or reminder fell due, or no poll was kept")
    return Need(letters=idle.letters_waiting, why="letters wait for a retry" if idle.letters_waiting else "")


def google_need(config_path: Path, keys: frozenset[str], changed: bool, now: datetime) -> Need:
    """What the Google match configured by ``config_path`` (its spreadsheets ``keys``) needs; ``changed``: its
    account's watcher named one of its spreadsheets since its last poll."""
    if changed:
        return Need(poll=True, why="Drive's change log named a spreadsheet of the match")
    why = due_without_changes(config_path, set(keys), now)
    if why:
        return Need(poll=True, why=why)
    notices = due(config_path, now)
    if notices.reminder or notices.letters:
        return Need(poll=True, why="a reminder fell due" if notices.reminder else "letters wait for a retry")
    return Need()
