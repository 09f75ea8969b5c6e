"""Whether a hosted match needs a poll now, decided from the files its last poll kept: no spreadsheet is read.

A local match: the local gate's fingerprints of its config and workbooks (``running.idle_poll``, cron's own idle
decision), a due deadline or reminder. A Google match: its account's watcher named one of its spreadsheets, or
its gate would read whatever Drive says (``poll_gate.drive_due.due_without_changes``: a due deadline, the 6-hour
read, our last writes to read back…; not Drive's file index, which its account's watcher asks for all its
matches), or a reminder or letters wait. Both: letters waiting for a retry are sent.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sheets_gm.notify.outbox import Outbox, due
from sheets_gm.poll_gate.drive_due import due_without_changes
from sheets_gm.poll_gate.idle import deadline_due, kept_here
from sheets_gm.poll_gate.state import load_state, state_path
from sheets_gm.running.idle_poll import IdleSync, idle_local_sync
from sheets_gm.running.mail_check import mail_waiting
from sheets_gm.sheets.marks import unchanged

#: How soon a match's poll starts among those due (lower first): one a player or Drive says changed ...
CHANGED = 0
#: ... one due (a deadline, a reminder, a retry, a read the gate makes whatever Drive says) ...
DUE = 1
#: ... and the rest: a cold start's first polls, as the workers allow.
LATER = 2


@dataclass(frozen=True, slots=True)
class Need:
    """What a match needs now: a poll (``why`` says why; ``rank`` how soon among those due), only the letters
    waiting for a retry sent, or nothing; ``idle``: what its last poll (cron's, or before a restart) left, when the
    host's first look finds a local match idle."""

    poll: bool = False
    letters: bool = False
    why: str = ""
    rank: int = CHANGED
    idle: IdleSync | None = None


def local_need(config_path: Path, now: datetime) -> Need:
    """What the local match configured by ``config_path`` needs (cron's idle decision, ``--quiet``)."""
    idle = idle_local_sync(config_path, now, quiet=True)
    if idle is None:
        return Need(poll=True, why="a file changed, a deadline or reminder fell due, or no poll was kept")
    return Need(letters=idle.letters_waiting, why="letters wait for a retry" if idle.letters_waiting else "",
                idle=idle)


def notices_moment(config_path: Path) -> datetime | None:
    """The next moment the match's notices need a look (its open window's reminder, a letter's retry), read from
    its outbox (None: none waits). A match looked at seldom (``file_events``) is looked at then."""
    box = Outbox.of(config_path)
    if not box.folder.is_dir():
        return None
    moments = [m for m in (box.reminder(), *(letter.waits_until() for letter in box.waiting())) if m is not None]
    return min(moments, default=None)


def kept_files(config_path: Path) -> tuple[Path, ...]:
    """The config and the workbooks of a local match, as its last poll kept their fingerprints (its config alone
    when it kept none): what a file event must cover for the match to be looked at seldom."""
    state = load_state(state_path(config_path))
    return (config_path, *(Path(p) for p in (state.files if state is not None else {})))


def drive_quiet(config_path: Path) -> bool:
    """Whether a Google match's look may wait for its account's watcher (or its due moments): every spreadsheet of
    it shown in Drive. One Drive does not show is read about once a minute (``poll_gate.drive_due.reads_anyway``): its
    match is looked at every interval."""
    state = load_state(state_path(config_path))
    return state is not None and not state.unseen


def first_need(config_path: Path, now: datetime) -> Need:
    """What a match the host has not polled yet needs, from its last poll's record alone (no config parsed): a local
    match left idle stays so (``idle``); one whose files changed since, or whose deadline is due, is polled first;
    the others (a Google match, whose first poll in the host asks Drive itself; a match never polled) as the
    workers allow. A cold start on thousands of matches answers a save without waiting for all of them; so does a
    first start on folders copied or restored elsewhere, whose records name the folder they were written in: each
    match's own files are compared with its record's (``kept_here``: a ``stat`` each, a hash where a time moved)."""
    idle = idle_local_sync(config_path, now, quiet=True)
    if idle is not None:
        return Need(letters=idle.letters_waiting, why="letters wait for a retry" if idle.letters_waiting else "",
                    idle=idle)
    state = load_state(state_path(config_path))
    if state is None:
        return Need(poll=True, why="never polled", rank=LATER)
    if deadline_due(state, now):
        return Need(poll=True, why="its deadline is due", rank=DUE)
    changed = not unchanged(config_path, state.config) or any(
        not unchanged(path, mark) for path, mark in kept_here(state, config_path).items())
    return Need(poll=True, why="a file changed" if changed else "not polled yet in this host",
                rank=CHANGED if changed else LATER)


@dataclass(frozen=True, slots=True)
class LastRead:
    """What a Google match's last poll read: when it began to read the oldest of its spreadsheets, and Drive's
    version of each that its kept reads cover (a later version is an edit no poll has answered yet)."""

    moment: datetime
    versions: dict[str, int]


def last_read(config_path: Path) -> LastRead | None:
    """What the last poll of a Google match read, from its record (None: no record, or one without reads)."""
    state = load_state(state_path(config_path))
    moments: list[datetime] = []
    for text in (state.read_at.values() if state is not None else ()):
        with contextlib.suppress(ValueError):
            moments.append(datetime.fromisoformat(text))
    if state is None or not moments or not state.versions:
        return None
    return LastRead(min(moments), dict(state.versions))


def watched_need(config_path: Path, keys: frozenset[str], changed: bool, now: datetime) -> Need:
    """What a Google match not polled yet in this host needs once its account's watcher holds it (``changed``: Drive's
    file index, or its change log, named a spreadsheet of it since its last poll's reads): a changed one is polled
    first; an unchanged one is judged from its record as an idle poll would judge it (a due deadline, the 6-hour
    read, our writes to read back, a reminder: ``google_need``) and otherwise stays idle, its record's line and
    deadline kept (``idle``). A host restarted on thousands of Google matches asks Drive once per account, not
    once per match."""
    need = google_need(config_path, keys, changed, now, watched=True)
    if need.poll or need.letters:
        return need
    state = load_state(state_path(config_path))
    if state is None:
        return Need(poll=True, why="never polled", rank=LATER)
    return Need(idle=IdleSync(state, False))


def google_need(config_path: Path, keys: frozenset[str], changed: bool, now: datetime, *,
                watched: bool, rank: int = CHANGED) -> Need:
    """What the Google match configured by ``config_path`` (its spreadsheets ``keys``) needs; ``changed``: its
    account's watcher named one of its spreadsheets since its last poll (``rank``: how soon it goes, ``DUE`` when
    the change was our own write); ``watched``: an account's watcher holds it, and asks Drive's file index for it
    (without one, the match's own safety-net moment makes it due, as cron's poll)."""
    if changed:
        return Need(poll=True, why="Drive's change log named a spreadsheet of the match", rank=rank)
    why = due_without_changes(config_path, set(keys), now, own_index=not watched)
    if why:
        return Need(poll=True, why=why, rank=DUE)
    notices = due(config_path, now)
    if notices.reminder or notices.letters:
        return Need(poll=True, why="a reminder fell due" if notices.reminder else "letters wait for a retry",
                    rank=DUE)
    if mail_waiting(config_path):  # asked last, of a match with a [mailbox] only: one STATUS
        return Need(poll=True, why="mail waits in the judge's mailbox")
    return Need()
