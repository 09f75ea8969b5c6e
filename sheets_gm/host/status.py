"""The host's status file, and what ``sheets-gm serve --status`` prints of it.

Two files (JSON, readable by their owner alone), so that 10,000 matches do not cost a rewrite of every one of them
every few seconds (2.3 MB each time, 15–22 GB of writes a day):

- ``serve-status.json``, small, rewritten a second after something changed and at least every minute: the host's
  process, when it started and last wrote, each account's watcher (its last question to Drive, its requests, what
  Drive last refused), the count of matches by state, and the matches whose record changed since the list below
  was written (a poll ended, a failure, a new match), the failing ones and those being polled; the matches that
  left since;
- ``serve-matches.json``: every match (its game and where it lives, when the host last looked at it and last read
  it, its line, its next deadline, what failed and when it is tried again), rewritten every ten minutes, when a
  thousand matches changed since, and when the host stops.

``serve --status`` reads both from another process (the host need not answer anything): the list, with the
small file's matches over it. It prints the host, its accounts, the count by state and what fails; every match
when there are few, else those asked for (one match by a part of its path, the failing ones, all of them).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from sheets_gm.engine.words import counted
from sheets_gm.sheets.private_files import private_folder, write_private
from sheets_gm.sync.deadline import describe_deadline

#: The status file's name, in the ``.sheets-gm`` folder of the first folder ``serve`` is given.
STATUS_NAME = "serve-status.json"


@dataclass
class MatchStatus:
    """One match as the host last saw it (see the module notes); times ISO, '' when never."""

    config: str
    game: str = ""
    where: str = ""  # "local", or the Google account
    state: str = "new"  # new, idle, read, resolved, letters, held, open, unavailable, failed, over
    looked_at: str = ""
    read_at: str = ""
    line: str = ""
    deadline: str = ""
    error: str = ""
    failures: int = 0
    retry_at: str = ""


@dataclass
class AccountStatus:
    """One account's watcher: its last question to Drive, its requests so far, the matches it serves."""

    name: str
    asked_at: str = ""
    requests: int = 0
    matches: int = 0
    error: str = ""
    sheets_alone: str = ""  # since when its matches are read from Sheets alone (its Drive does not answer)


@dataclass
class HostStatus:
    """The whole host (see the module notes)."""

    pid: int
    folders: list[str]
    started: str
    written: str
    interval: float
    workers: int
    running: bool = True
    matches: list[MatchStatus] = field(default_factory=list)
    accounts: list[AccountStatus] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # matches by state ({}: count ``matches``)
    left: list[str] = field(default_factory=list)  # matches no longer hosted since the list of every match
    games: list[str] = field(default_factory=list)  # the games its matches play (the next start's polls' server
    # imports theirs alone)
    local: bool = True  # whether a match it hosts is local (the next start's polls' server imports the local
    # workbooks' library only then)


#: The file of every match, beside the status file.
MATCHES_NAME = "serve-matches.json"
#: ``serve --status`` prints every match when there are at most this many (else: the count by state, what fails).
SHOWN_ALL = 50


def status_path(folders: list[Path]) -> Path:
    """Where the host of ``folders`` keeps its status file: the first folder's ``.sheets-gm`` (a config named
    itself: its folder's)."""
    first = folders[0].resolve()
    return (first if first.is_dir() else first.parent) / ".sheets-gm" / STATUS_NAME


def write_status(path: Path, status: HostStatus) -> None:
    """Write the status file atomically (a reader sees the old one or the new one). Its records hold plain values
    (text, numbers) alone: each is taken as it is (``dataclasses.asdict`` copied every value) and written by the
    JSON encoder's C path (an ``indent`` takes the Python one): at 10,000 matches a write costs 0.05 CPU seconds,
    not 0.34 (measured), once a minute at least."""
    private_folder(path.parent)
    plain = {**vars(status), "matches": [vars(m) for m in status.matches],
             "accounts": [vars(a) for a in status.accounts]}
    write_private(path, json.dumps(plain, sort_keys=True))


def matches_path(path: Path) -> Path:
    """The file of every match beside the status file ``path``."""
    return path.with_name(MATCHES_NAME if path.name == STATUS_NAME else path.stem + "-matches.json")


def write_matches(path: Path, matches: list[MatchStatus]) -> None:
    """Write the file of every match beside the status file ``path`` (atomically, as ``write_status``)."""
    private_folder(path.parent)
    write_private(matches_path(path), json.dumps([vars(m) for m in matches], sort_keys=True))


def last_accounts(path: Path) -> list[str] | None:
    """The accounts the status file at ``path`` names (its host's last run), from that file alone (not the file of
    every match); None when there is none or it does not read."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return [str(a["name"]) for a in raw["accounts"]]
    except (OSError, ValueError, TypeError, KeyError):
        return None


def last_games(path: Path) -> list[str] | None:
    """The games the status file at ``path`` names (its host's last run's matches play them), from that file alone;
    None when there is none, it does not read, or it names none (a host that found no match yet)."""
    try:
        games = json.loads(path.read_text(encoding="utf-8"))["games"]
    except (OSError, ValueError, TypeError, KeyError):
        return None
    return [str(g) for g in games] if isinstance(games, list) and games else None


def last_local(path: Path) -> bool:
    """Whether the host of the status file at ``path`` served a local match in its last run, from that file alone;
    True when it does not say (no file, a file that does not read, or one written before it said)."""
    try:
        local = json.loads(path.read_text(encoding="utf-8"))["local"]
    except (OSError, ValueError, TypeError, KeyError):
        return True
    return local is not False


_Read = TypeVar("_Read", "MatchStatus", "AccountStatus", "HostStatus")


def _known(kind: type[_Read], raw: dict[str, Any]) -> _Read:
    """``kind`` made of ``raw``'s fields it has (a status written by a later version says more: the rest is read,
    not refused); TypeError when a field it needs is missing."""
    names = {f.name for f in fields(kind)}
    return kind(**{k: v for k, v in raw.items() if k in names})


def read_status(path: Path) -> HostStatus | None:
    """The status file at ``path`` with the file of every match under it (its matches over the list's, those that
    left taken out); None when there is none or it does not read."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        raw["matches"] = [_known(MatchStatus, m) for m in raw["matches"]]
        raw["accounts"] = [_known(AccountStatus, a) for a in raw["accounts"]]
        status = _known(HostStatus, raw)
    except (OSError, ValueError, TypeError, KeyError):
        return None
    try:
        listed = [_known(MatchStatus, m) for m in json.loads(matches_path(path).read_text(encoding="utf-8"))]
    except (OSError, ValueError, TypeError):
        listed = []
    left = set(status.left)
    merged = {m.config: m for m in listed if m.config not in left}
    merged.update((m.config, m) for m in status.matches)
    status.matches = [merged[name] for name in sorted(merged)]
    return status


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _when(text: str, now: datetime) -> str:
    """``12:04:05 (3 s ago)``; ``never`` for ''."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return "never"
    seconds = int((now - moment).total_seconds())
    ago = f"in {-seconds} s" if seconds < 0 else f"{seconds} s ago" if seconds < 120 else f"{seconds // 60} min ago"
    return f"{moment.strftime('%H:%M:%S')} ({ago})"


def _read(text: str, now: datetime) -> str:
    """When this host last read the match: a match it has not read yet was read by its last poll before (cron's, an
    earlier serve's), which it does not know: not "never"."""
    return f"read {_when(text, now)}" if text else "not read since serve started"


def status_lines(status: HostStatus, now: datetime, *, match: str = "", failing: bool = False,
                 every: bool = False) -> list[str]:
    """What ``serve --status`` prints: the host, its accounts, the count by state, a line per match (every one when
    there are few or ``every``; else those whose config's path holds ``match``, or none), and what failed (or only
    that, with ``failing``)."""
    running = status.running and _alive(status.pid)
    head = (f"sheets-gm serve (process {status.pid}) is running since {status.started}"
            if running else f"sheets-gm serve is not running (process {status.pid} stopped)")
    states: dict[str, int] = {}
    for one in status.matches:
        states[one.state] = states.get(one.state, 0) + 1
    counts = status.counts or states
    hosted = counted(sum(counts.values()), "match", "matches")
    lines = [f"{head}; status written {_when(status.written, now)}; {hosted} under "
             f"{', '.join(status.folders)}; a look every {status.interval:g} s, {status.workers} workers."]
    for account in status.accounts:
        held = counted(account.matches, "match", "matches")
        lines.append(f"Account {account.name}: {held}, Drive asked {_when(account.asked_at, now)}"
                     f", {account.requests} requests" + (f"; Drive did not answer: {account.error}"
                                                         if account.error else "")
                     + (f"; its matches read from Sheets alone since {_when(account.sheets_alone, now)}, until "
                        "Drive answers" if account.sheets_alone else ""))
    lines.append("By state: " + (", ".join(f"{n} {state}" for state, n in sorted(counts.items())) or "none yet"))
    many = len(status.matches) > SHOWN_ALL and not every
    shown = ([m for m in status.matches if match in m.config] if match
             else [] if failing or many else status.matches)
    if match and not shown:
        lines.append(f"No match's config path holds {match!r}.")
    elif many and not (match or failing):
        lines.append(f"({hosted}: --match TEXT shows those whose config's path holds TEXT, --failing what fails, "
                     "--all every one.)")
    return lines + [_match_line(m, now) for m in shown] + _failing_lines(status, now)


def _match_line(match: MatchStatus, now: datetime) -> str:
    """One match's line."""
    deadline = f"; deadline {describe_deadline(match.deadline)}" if match.deadline else ""
    said = f": {match.line}" if match.line and match.state != "failed" else ""
    return (f"{match.config} [{match.game or '?'}, {match.where or '?'}] {match.state}, looked "
            f"{_when(match.looked_at, now)}, {_read(match.read_at, now)}{deadline}{said}")


def _failing_lines(status: HostStatus, now: datetime) -> list[str]:
    """What failed, a line a match."""
    failing = [m for m in status.matches if m.error]
    if not failing:
        return []
    return [f"What failed ({len(failing)}):"] + [
        f"  {m.config}: {m.error} ({counted(m.failures, 'failure')} in a row; next try {_when(m.retry_at, now)})"
        if m.retry_at else f"  {m.config}: {m.error}" for m in failing]
