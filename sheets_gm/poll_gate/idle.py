"""Whether a poll of a match needs to read at all, from what the last full poll saw (``poll_gate.state``).

A poll reads when a workbook (or, for Google, a spreadsheet) may have changed since the last
full poll, when the open window's deadline is due, or when there is no usable state; otherwise
it parses nothing and writes nothing. Standard library only: cron's idle sync of a local match
decides here before any game, sheet or config code loads.
"""

from __future__ import annotations

import zlib
from datetime import datetime, timedelta
from pathlib import Path

from sheets_gm.poll_gate.state import PollState, load_state, state_path
from sheets_gm.sheets.marks import FileMark, unchanged, untouched
from sheets_gm.sync.deadline import deadline_moment


def deadline_due(state: PollState, now: datetime) -> bool:
    """Whether the open window's deadline (as the last poll saw it) has passed: the poll must resolve."""
    moment = deadline_moment(state.deadline)
    return not state.finished and moment is not None and now >= moment


#: Minutes between a local match's safety looks: past its safety moment (within this long of its last full read), a
#: workbook is trusted only while its whole identity on disk (size, modification and change time, inode: one
#: ``stat``, ``sheets.marks.untouched``) is the one its last full read kept; one that moved in any way (a change its
#: size and time hid: a file written again with its old time set back, another file moved in its place, a copy) is read
#: in full. A Google poll asks Drive's file index instead (``poll_gate.drive``).
SAFETY_NET_MINUTES = 30
#: Hours after which a Google poll reads every spreadsheet whatever Drive says (``poll_gate.drive``, ``doctor.quota``).
FULL_READ_HOURS = 6


def safety_moment(state: PollState) -> datetime | None:
    """When the safety look of a local match falls due (None: its last full read's time is unknown, due now): the
    first moment after that read at the match's own place in every :data:`SAFETY_NET_MINUTES` (drawn from the names of
    its folder and the one holding it, the same at every start and wherever the league is restored), so that 10,000
    matches read together (a restore, a first start) fall due spread over the period, not at once, and stay spread."""
    try:
        last = datetime.fromisoformat(state.full_read_at)
    except ValueError:
        return None
    period = SAFETY_NET_MINUTES * 60
    place = safety_place(state.folder, period)
    since = (last.timestamp() - place) % period
    return last + timedelta(seconds=period - since)


def safety_place(folder: str, period: int) -> int:
    """The second of every ``period`` at which the match in ``folder`` has its safety look: drawn from the names of
    its folder and the one holding it (not the whole path: a league restored elsewhere keeps its places).

    >>> safety_place("/srv/league/m1", 1800) == safety_place("/backup/league/m1/", 1800)
    True
    >>> safety_place("/srv/league/m1", 1800) == safety_place("/srv/league/m2", 1800)
    False
    """
    named = "/".join(folder.replace("\\", "/").rstrip("/").split("/")[-2:])
    return zlib.crc32(named.encode("utf-8")) % period


def safety_net_due(state: PollState, now: datetime) -> bool:
    """Whether the match's safety moment (:func:`safety_moment`) has come."""
    moment = safety_moment(state)
    return moment is None or now >= moment


def kept_here(state: PollState, config_path: Path) -> dict[Path, FileMark]:
    """The workbooks the record keeps, each at its place in the folder of ``config_path``: a record written for
    another folder (the match's folder copied, or restored from a backup elsewhere) names its files under that one,
    and their place under this one is meant (a workbook outside the record's folder: where it names)."""
    here = config_path.parent.resolve()
    there = Path(state.folder) if state.folder else here
    moved = {}
    for where, mark in state.files.items():
        path = Path(where)
        moved[here / path.relative_to(there) if there != here and path.is_relative_to(there) else path] = mark
    return moved


def idle_local_poll(config_path: Path, now: datetime) -> PollState | None:
    """The state of the last poll of the local match configured by ``config_path`` when this poll has nothing
    to do (the config and every workbook as that poll left them: past its safety moment, untouched; no deadline
    due), else None: read."""
    state = load_state(state_path(config_path))
    if state is None or not state.files or not unchanged(config_path, state.config):
        return None
    if state.folder != str(config_path.parent.resolve()):  # a copy of the match: its files are not those kept
        return None
    kept = config_path.parent / ".sheets-gm"
    if any((kept / f"{config_path.stem}.{name}").exists() for name in ("journal.json", "journal.command.json")):
        return None  # a command cut short (``sync/journal.py``, ``command_journal.py``): the poll settles it
    if deadline_due(state, now):
        return None
    same = untouched if safety_net_due(state, now) else unchanged
    if not (same(config_path, state.config) and all(same(Path(where), mark) for where, mark in state.files.items())):
        return None
    return state
