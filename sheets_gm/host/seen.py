"""What the host's last look at an idle local match depended on, by the files' identity on disk: the next look costs
a ``stat`` a file where nothing was touched, not the record's parse and the outbox's reads.

A look at a local match (``quiet.local_need``: cron's idle decision) reads its record, checks its config and
workbooks, the journals and the outbox beside them, and asks the clock (a deadline, the safety moment, a reminder).
Where none of those files was touched since (the same inode, size, modification and change time: what no program sets
back) and none of those moments came, the decision is the one taken: the match stays idle. At 10,000 matches looked
at every few minutes, that is a hundredth of the CPU of the looks themselves.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sheets_gm.notify.due import outbox_path, reminder_at
from sheets_gm.poll_gate.idle import safety_moment
from sheets_gm.poll_gate.state import PollState, load_state, state_path
from sheets_gm.sync.deadline import deadline_moment


def identity(files: Sequence[str]) -> int:
    """One number for what ``files`` are on disk now (each one's inode, size, modification and change time; a
    missing one counts as missing): another number, something touched one of them. (A hash of those figures: two
    states of the files that differ give one number once in 2**61.)"""
    seen: list[tuple[int, int, int, int] | None] = []
    for path in files:
        try:
            st = os.stat(path)
        except OSError:
            seen.append(None)
            continue
        seen.append((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return hash(tuple(seen))


def look_files(config_path: Path, workbooks: Sequence[str]) -> tuple[str, ...]:
    """The files a look at the local match configured by ``config_path`` reads or checks: its config and
    ``workbooks``, its record and the folder that holds it (a command's journal appears there), its outbox, the
    outbox's letters and its reminder."""
    outbox = outbox_path(config_path)
    record = state_path(config_path)
    return (str(config_path), *workbooks, str(record), str(record.parent), str(outbox), str(outbox / "letters"),
            str(outbox / "reminder.json"))


def asks_mail(config_path: Path) -> bool:
    """Whether a look at the match may ask a judge's mailbox (its config has a ``[mailbox]`` table, or cannot be
    read): such a look is made whole every time (``running.mail_check``)."""
    try:
        data = config_path.read_bytes()
        return b"mailbox" in data and bool(tomllib.loads(data.decode("utf-8")).get("mailbox"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return True


def kept_workbooks(config_path: Path) -> tuple[str, ...]:
    """The workbooks the match's record keeps (none without a record)."""
    state = load_state(state_path(config_path))
    return tuple(state.files) if state is not None else ()


def seen_before(config_path: Path) -> tuple[tuple[str, ...], int, int, int]:
    """The files a look at the match is about to depend on (from its record: ``look_files``), their identity, how
    many are its own (config and workbooks) and those's identity, taken before the look."""
    workbooks = kept_workbooks(config_path)
    files = look_files(config_path, workbooks)
    own = 1 + len(workbooks)
    return files, identity(files), own, identity(files[:own])


@dataclass(frozen=True, slots=True)
class Seen:
    """An idle look's files and their identity taken before it (``identity``), the moment its decision may change
    with the clock alone (None: none comes), and its notices' next moment (``quiet.notices_moment``)."""

    files: tuple[str, ...]
    number: int
    until: datetime | None
    notices: datetime | None
    own: int  # how many of ``files`` come first that a player or the GM writes: the config and workbooks
    own_number: int  # their identity alone: what a look without file events compares (``sweep``)

    def holds(self, now: datetime) -> bool:
        """Whether the look's decision holds now: no moment came (its notices' too: a letter's retry once its channel's
        rest ends), no file was touched (one ``stat`` each)."""
        return all(m is None or now < m for m in (self.until, self.notices)) and identity(self.files) == self.number


def idle_until(config_path: Path, state: PollState, now: datetime) -> datetime | None:
    """The first moment after ``now`` an idle look's decision may change by the clock alone: the open window's
    deadline, the safety moment (once past, the look trusted only untouched files: ``poll_gate.idle``), the
    reminder (None: none comes)."""
    deadline = None if state.finished else deadline_moment(state.deadline)
    safety = safety_moment(state)
    reminder = reminder_at(outbox_path(config_path) / "reminder.json")
    return min((m for m in (deadline, safety, reminder) if m is not None and m > now), default=None)
