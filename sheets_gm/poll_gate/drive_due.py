"""What a Google match's poll must read whatever Drive says, decided from its last poll's record alone (no client,
no spreadsheet): the one decision of its gate (``poll_gate.drive``), which ``serve``'s host makes for every match
its account's watcher holds without importing the poll's path (a poll runs in a process of its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from sheets_gm.poll_gate.idle import FULL_READ_HOURS, SAFETY_NET_MINUTES, deadline_due
from sheets_gm.poll_gate.state import PollState, load_state, state_path
from sheets_gm.sheets.marks import unchanged

#: Drive's file index is asked at least this often, instead of the change log (see the module notes).
SAFETY_NET = timedelta(minutes=SAFETY_NET_MINUTES)
#: Every spreadsheet is read with Sheets at least this often, whatever Drive says.
FULL_READ = timedelta(hours=FULL_READ_HOURS)
#: Drive's file index is asked for the files modified since this much before the oldest last read: this machine's
#: clock dates the reads and may be off Google's (``doctor`` warns past a few seconds); what the margin lets in
#: twice, Drive's versions pass over.
CLOCK_MARGIN = timedelta(minutes=2)
#: A spreadsheet Drive does not show the signed-in account is read this long after its last read, whatever Drive
#: says: about once a minute, as cron's poll a minute always read it (less a margin for a timer's jitter).
UNSEEN_READ_EVERY = timedelta(seconds=50)


def moment_of(text: str) -> datetime | None:
    """The moment an ISO text of a record names (None when it names none)."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _everything(state: PollState, keys: set[str], now: datetime) -> str:
    """Why this poll reads every spreadsheet whatever Drive says ('' when it need not)."""
    full_read = moment_of(state.full_read_at)
    return ("the deadline is due" if deadline_due(state, now) else
            "a spreadsheet with no earlier read" if any(moment_of(state.read_at.get(k, "")) is None for k in keys) else
            f"the last read of every spreadsheet is {FULL_READ_HOURS} hours old"
            if full_read is None or now - full_read >= FULL_READ else "")


def usable_state(config_path: Path, *, config_known: bool = True) -> tuple[PollState | None, str]:
    """The last poll's record of the Google match configured by ``config_path``, or None and why it cannot be used
    (none, no page token of Drive's, or the config changed since: ``config_known`` False when the config's mark
    could not be taken): the poll then reads every spreadsheet and asks Drive for a new token."""
    state = load_state(state_path(config_path))
    if state is None or not state.drive_token:
        return None, "no record of the last poll"
    if not config_known or not unchanged(config_path, state.config):
        return None, "the config changed"
    return state, ""


@dataclass(frozen=True, slots=True)
class Anyway:
    """What a poll reads whatever Drive's change log says: every spreadsheet (``every``), or ``keys``; ``reason``
    says why ('' when nothing)."""

    reason: str = ""
    every: bool = False
    keys: frozenset[str] = frozenset()


def reads_anyway(state: PollState, keys: set[str], now: datetime) -> Anyway:
    """The one decision, cron's poll and ``serve`` alike, of what the Google match (its spreadsheets ``keys``, its
    last poll's record ``state``) reads whatever Drive lists: everything when its deadline is due, a spreadsheet
    was never read or the 6-hour full read is due; else what the last poll wrote and must read back, and the
    spreadsheets Drive does not show these credentials (no change of theirs is ever listed), each once
    :data:`UNSEEN_READ_EVERY` since its last read: as cron's poll a minute reads them, never at each of serve's
    looks (four such reads every 10 s would fill an account's Sheets quota with two matches)."""
    everything = _everything(state, keys, now)
    if everything:
        return Anyway(everything, every=True)
    written = set(state.written) & keys
    unseen = set(state.unseen) & keys
    due = {k for k in unseen if (read := moment_of(state.read_at.get(k, ""))) is None
           or now - read >= UNSEEN_READ_EVERY}
    if written:
        return Anyway("reading back what the last poll or GM command left to read", keys=frozenset(written | due))
    if due:
        return Anyway(f"{len(unseen)} of {len(keys)} spreadsheets are not shown to these credentials in Drive, so "
                      f"read about once a minute whatever Drive says", keys=frozenset(due))
    return Anyway()


def file_index_due(state: PollState, now: datetime) -> bool:
    """Whether the safety net's look at Drive's file index is due instead of the change log (``SAFETY_NET``)."""
    checked = moment_of(state.checked_at)
    return checked is None or now - checked >= SAFETY_NET


def due_without_changes(config_path: Path, keys: set[str], now: datetime, *, own_index: bool = True) -> str:
    """Why a poll of the Google match configured by ``config_path`` (its spreadsheets ``keys``) must run even when
    Drive lists no change to them ('' when it need not: it would stay idle): the record unusable
    (:func:`usable_state`), what it reads whatever Drive says (:func:`reads_anyway`, the decision
    :func:`check_drive` makes), or, with ``own_index``, the safety net's look at Drive's file index due.
    ``serve`` asks this of every match whose account's change log named none of its files, reading nothing; for a
    match its account's watcher holds, without ``own_index``: the watcher asks the file index once every
    ``SAFETY_NET`` for all of the account's matches, so an idle match is not polled every ``SAFETY_NET`` for it."""
    state, why = usable_state(config_path)
    if state is None:
        return why
    return reads_anyway(state, keys, now).reason or ("Drive's file index is due"
                                                     if own_index and file_index_due(state, now) else "")
