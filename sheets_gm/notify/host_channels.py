"""One backoff per channel and server across every match on the host.

A mail server or a webhook that fails is the same server for every match that sends through it: were each
match to try it on its own, a host of a thousand matches would knock on a provider that is down a thousand
times a minute. So a channel that fails is written down here, in one file for the whole host, keyed by its
server (``mail smtp.example.org:587 gm@example.org``; a webhook by a hash of its URL, which is a secret), with
how many times in a row it failed and until when it rests: 1, 2, 4 … minutes (``retry_wait``), at most two
hours, or a server's own Retry-After. Every match's sending asks first (``held``): a channel at rest is not
tried, its letters wait until then. The first sending that gets through clears it.

A mail account's daily sending budget is kept here too (``take_budget``): the recipients each match sent to through
it, by the hour, over the last 24 hours, so that every match of the host spends from one budget, as the provider
counts it.

The same waits hold under ``serve`` (which looks at a match every few seconds) as under cron (every minute):
they are minutes, whatever the pace of the polls.

The file is ``$XDG_STATE_HOME/sheets-gm/channels.json`` (by default ``~/.local/state/sheets-gm/``), changed
under a lock held a moment. Only the standard library: the outbox's sender loads it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sheets_gm.notify.redact import redact

#: The longest rest of a failing channel.
LONGEST_WAIT = timedelta(hours=2)


def retry_wait(failures: int) -> timedelta:
    """How long a channel (or an address refused for now) rests after its ``failures``-th failure in a row: 1, 2,
    4 … minutes, at most ``LONGEST_WAIT``.

    >>> [int(retry_wait(n).total_seconds() // 60) for n in (1, 2, 3, 9)]
    [1, 2, 4, 120]
    """
    return min(timedelta(minutes=2 ** min(max(failures - 1, 0), 12)), LONGEST_WAIT)


def mail_key(host: str, port: int, user: str) -> str:
    """The record's name of a mail server and login."""
    return f"mail {host}:{port} {user}".strip()


def chat_key(url: str) -> str:
    """The record's name of a webhook: a hash of its URL (the URL itself is a secret, never written here)."""
    return "chat " + hashlib.sha256(url.encode()).hexdigest()[:24]


def host_state_path() -> Path:
    """The host's record of failing channels (see the module notes)."""
    base = os.environ.get("XDG_STATE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".local" / "state") / "sheets-gm" / "channels.json"


@dataclass(frozen=True)
class Rest:
    """A channel at rest: until when, after how many failures in a row, and the last failure's words."""

    until: datetime
    failures: int
    error: str


class HostChannels:
    """The host's record of failing channels (see the module notes): ``held``, ``failed``, ``worked``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or host_state_path()

    @contextlib.contextmanager
    def _held(self) -> Iterator[dict[str, dict[str, str]]]:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path.with_name("channels.lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            record = self._read()
            before = json.dumps(record, sort_keys=True)
            yield record
            if json.dumps(record, sort_keys=True) != before:
                tmp = self.path.with_name(f".channels.{os.getpid()}.tmp")
                out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(out, "w", encoding="utf-8") as f:
                    json.dump(record, f, ensure_ascii=False, indent=0, sort_keys=True)
                os.replace(tmp, self.path)
        finally:
            os.close(fd)

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # no record (or a damaged one): every channel is tried, and records itself again
        return {str(k): {str(a): str(b) for a, b in v.items()} for k, v in raw.items() if isinstance(v, dict)} \
            if isinstance(raw, dict) else {}

    def held(self, key: str, now: datetime) -> Rest | None:
        """The rest of channel ``key`` if it rests at ``now`` (then it is not tried), else None."""
        entry = self._read().get(key)
        rest = _rest(entry) if entry else None
        return rest if rest is not None and now < rest.until else None

    def failed(self, key: str, now: datetime, error: str, retry_at: datetime | None = None) -> Rest:
        """Channel ``key`` failed at ``now``: it rests the next wait of ``retry_wait``, or until the server's
        ``retry_at`` when it named one (a 429's Retry-After, believed to the second). A failure while it rests
        already is another match's try of the same moment (cron starts the matches of a minute together, each
        having found the channel free): the rest set holds, and the failures in a row do not grow with the
        number of matches on the host."""
        failures = 1
        try:
            with self._held() as record:
                before = _rest(record.get(key, {}))
                if before is not None and now < before.until and retry_at is None:
                    return before
                failures = (before.failures if before is not None else 0) + 1
                until = retry_at if retry_at is not None else now + retry_wait(failures)
                record[key] = {"until": until.isoformat(timespec="seconds"), "failures": str(failures),
                               "error": redact(error)}
        except OSError:  # a record that cannot be written (a read-only home): this match rests alone
            until = retry_at if retry_at is not None else now + retry_wait(failures)
        return Rest(until, failures, redact(error))

    def first_to_say(self, key: str, kind: str) -> bool:
        """Whether this match is the first on the host to say that channel ``key`` fails (``kind``: the failure's
        words without their figures) or works again (``works``) since it last changed: one outage is said once to
        the GM, however many of her matches send through it (cron mails each match's lines apart). True when the
        record cannot be written."""
        try:
            with self._held() as record:
                said = f"said {key}"
                if record.get(said, {}).get("kind") == kind:
                    return False
                record[said] = {"kind": kind}
        except OSError:
            pass
        return True

    def worked(self, key: str) -> None:
        """Channel ``key`` took a letter: it rests no more."""
        if key in self._read():
            with contextlib.suppress(OSError), self._held() as record:
                record.pop(key, None)


@dataclass(frozen=True)
class Budget:
    """What a mail account may still send: ``granted`` recipients now (taken from the day's budget), and when more
    frees (None when nothing was held back)."""

    granted: int
    frees_at: datetime | None = None


def take_budget(channels: HostChannels, key: str, now: datetime, wanted: int, limit: int) -> Budget:
    """Take up to ``wanted`` recipients from the account ``key``'s budget of ``limit`` a day (the last 24 hours, by
    the hour, an hour counted until a whole day after its end: never sooner than the provider frees it); what is
    taken counts at once, so two matches sending together never both spend the last places. A
    record that cannot be written grants everything (the provider's own refusal then says it).

    >>> import tempfile
    >>> host = HostChannels(Path(tempfile.mkdtemp()) / "channels.json")
    >>> noon = datetime.fromisoformat("2026-11-28T12:30:00+00:00")
    >>> take_budget(host, "mail a", noon, 300, 450).granted, take_budget(host, "mail a", noon, 300, 450)
    (300, Budget(granted=150, frees_at=datetime.datetime(2026, 11, 29, 13, 0, tzinfo=datetime.timezone.utc)))
    >>> take_budget(host, "mail a", noon + timedelta(hours=25), 300, 450).granted
    300
    """
    try:
        with channels._held() as record:
            hours = {h: int(n) for h, n in record.get(f"spent {key}", {}).items() if _within_day(h, now)}
            granted = max(0, min(wanted, limit - sum(hours.values())))
            hour = now.astimezone(UTC).strftime("%Y-%m-%dT%H")
            if granted:
                hours[hour] = hours.get(hour, 0) + granted
            record[f"spent {key}"] = {h: str(n) for h, n in hours.items()}
    except OSError:
        return Budget(wanted)
    if granted == wanted:
        return Budget(granted)
    first = min(hours, default=hour)
    return Budget(granted, datetime.fromisoformat(first + ":00:00+00:00") + _COUNTED)


#: How long an hour's sending counts against the budget, from the hour's start: a day after the hour ends.
_COUNTED = timedelta(hours=25)


def _within_day(hour: str, now: datetime) -> bool:
    try:
        return now - datetime.fromisoformat(hour + ":00:00+00:00") < _COUNTED
    except ValueError:
        return False


def _rest(entry: dict[str, str]) -> Rest | None:
    try:
        return Rest(datetime.fromisoformat(entry["until"]), int(entry["failures"]), entry.get("error", ""))
    except (KeyError, ValueError, TypeError):
        return None
