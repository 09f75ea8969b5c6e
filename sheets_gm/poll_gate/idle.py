"""Whether a poll of a match needs to read at all, from what the last full poll saw (``poll_gate.state``).

A poll reads when a workbook (or, for Google, a spreadsheet) may have changed since the last
full poll, when the open window's deadline is due, or when there is no usable state; otherwise
it parses nothing and writes nothing. Standard library only: cron's idle sync of a local match
decides here before any game, sheet or config code loads.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sheets_gm.poll_gate.state import PollState, load_state, state_path
from sheets_gm.sheets.marks import unchanged
from sheets_gm.sync.deadline import deadline_moment


def deadline_due(state: PollState, now: datetime) -> bool:
    """Whether the open window's deadline (as the last poll saw it) has passed: the poll must resolve."""
    moment = deadline_moment(state.deadline)
    return not state.finished and moment is not None and now >= moment


#: Minutes after which a local poll reads everything whatever the state says (a new version of sheets-gm, a change
#: no fingerprint caught); a Google poll asks Drive's file index instead (``poll_gate.drive``).
SAFETY_NET_MINUTES = 30
#: Hours after which a Google poll reads every spreadsheet whatever Drive says (``poll_gate.drive``, ``doctor.quota``).
FULL_READ_HOURS = 6


def safety_net_due(state: PollState, now: datetime) -> bool:
    """Whether the last full read is :data:`SAFETY_NET_MINUTES` old or more (or its time is unknown)."""
    try:
        last = datetime.fromisoformat(state.full_read_at)
    except ValueError:
        return True
    return (now - last).total_seconds() >= SAFETY_NET_MINUTES * 60


def idle_local_poll(config_path: Path, now: datetime) -> PollState | None:
    """The state of the last poll of the local match configured by ``config_path`` when this poll has nothing
    to do (the config and every workbook as that poll left them, no deadline due, the last full read less than
    :data:`SAFETY_NET_MINUTES` old), else None: read."""
    state = load_state(state_path(config_path))
    if state is None or not state.files or not unchanged(config_path, state.config):
        return None
    if state.folder != str(config_path.parent.resolve()):  # a copy of the match: its files are not those kept
        return None
    kept = config_path.parent / ".sheets-gm"
    if any((kept / f"{config_path.stem}.{name}").exists() for name in ("journal.json", "journal.command.json")):
        return None  # a command cut short (``sync/journal.py``, ``command_journal.py``): the poll settles it
    if deadline_due(state, now) or safety_net_due(state, now):
        return None
    if not all(unchanged(Path(where), mark) for where, mark in state.files.items()):
        return None
    return state
