"""One watcher per Google account: one change-log request an interval serves every match whose spreadsheets that
account holds.

Under cron each Google match asks Drive's change log once a poll from a page token of its own. Under ``serve`` the
:class:`AccountWatcher` of an account asks it once an interval for all of them (and, every
``poll_gate.drive.SAFETY_NET``, Drive's file index once for all of them), and keeps, for each match, the changes to its
spreadsheets since that match's last poll. A match is polled when the log named one of its spreadsheets (or its
gate would read anyway: ``quiet``); what the watcher kept for it is taken as the poll starts (a :class:`Handover`,
plain data, which crosses to the poll's own process) and its gate is handed a :class:`SharedChangeLog`, which
answers the gate's questions from it instead of asking Drive: ``since`` and ``modified_since`` give the changes to
the match's spreadsheets since its last poll, and the token is the watcher's. The gate itself is unchanged: it
compares Drive's versions with those its kept reads cover, passes our own writes over, and reads what changed.

The watcher's token outlives the host (``drive_tokens``): the host keeps, for each account, the latest token after
which every change the log listed has been answered (:meth:`AccountWatcher.kept_token`: each match's oldest
unanswered change numbered by the question that listed it), and a watcher started again from it asks the log from
there at its first question: the matches whose spreadsheets changed while no host ran are named at once, first,
however many pages (up to ``MAX_PAGES``) those changes fill. Drive's file index since each match's last reads
(``hints``) is asked too, for what came before that token (a match cron polled last). A kept token Drive refuses
(too old) is dropped for a new one, and said.

A match's first poll in a host is answered by Drive itself, from the page token its last poll (cron's, say) kept:
the watcher knows only what changed since it started. So is every poll of a match until one began after its watcher
held a token (what changed between reaches the match so). The token the shared log gives is a valid token of the
same account, so cron or ``sync --watch`` can carry the match on from it.
"""

from __future__ import annotations

import json
import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from sheets_gm.host.quiet import CHANGED, DUE, LastRead
from sheets_gm.match.config import ConfigError, MatchConfig, Spreadsheets, load_config
from sheets_gm.poll_gate.drive_due import CLOCK_MARGIN, SAFETY_NET
from sheets_gm.running.google_sign_in import google_client, service_account_client
from sheets_gm.sheets.backend import SheetAccessError, SheetError, http_status

if TYPE_CHECKING:
    import gspread

    from sheets_gm.sheets.google.drive import DriveChangeLog

#: The most pages of the change log one question follows; past that, every match of the account reads in full.
MAX_PAGES = 10

#: What Drive answers a page token it no longer takes (a token kept too long, or not its own).
REFUSED_TOKEN = (400, 404, 410)

#: The kept token is at most this many questions behind the watcher's (an hour at 7.5 s): a match that keeps
#: failing does not hold it back until the log since it fills more than ``MAX_PAGES`` (every match of the account
#: then read in full at the next start); such a match's save is told by Drive's file index at that start instead.
KEPT_BEHIND = 480

#: The matches a question to Drive found changed, each with how soon its poll starts (``quiet``'s ranks).
Touched = dict[Path, int]


#: The e-mail of each service-account key file read, with the file's size and time then: a host reads each of its
#: accounts' key files once, not once a match (10,000 matches share a hundred).
_EMAILS: dict[Path, tuple[tuple[int, int], str | None]] = {}


def _email(key_file: Path) -> str | None:
    try:
        st = os.stat(key_file)
    except OSError:
        return None
    stamp = (st.st_size, st.st_mtime_ns)
    known = _EMAILS.get(key_file)
    if known is not None and known[0] == stamp:
        return known[1]
    try:
        email = json.loads(key_file.read_text(encoding="utf-8")).get("client_email")
    except (OSError, ValueError, AttributeError):
        email = None
    _EMAILS[key_file] = stamp, email if isinstance(email, str) and email else None
    return _EMAILS[key_file][1]


def account_of(config: MatchConfig | Spreadsheets) -> str:
    """The Google account a match's spreadsheets are opened with, as the host names it: the service account's
    e-mail (two key files of one account are one account), else the OAuth sign-in's file."""
    if config.service_account is not None:
        email = _email(config.service_account)
        return f"service account {email}" if email else str(config.service_account)
    return f"OAuth sign-in {config.oauth_token.resolve()}"


def require_signed_in(config: MatchConfig) -> None:
    """SheetAccessError when the match is played on the GM's own account and she never signed in on this machine:
    a service cannot open a browser (``sheets-gm doctor`` signs her in once)."""
    if config.service_account is None and not config.oauth_token.exists():
        raise SheetAccessError(f"{config.path}: the GM's Google account is not signed in on this machine "
                               f"({config.oauth_token} is missing): run sheets-gm doctor -c {config.path.name} "
                               "once in a terminal to sign in, and serve polls the match from then on")


def config_keys(config: MatchConfig | Spreadsheets) -> frozenset[str]:
    """The keys of a Google match's spreadsheets, as its config names them."""
    return frozenset(k for k in (config.board, config.engine, *config.orders, config.judge) if k)


@dataclass(frozen=True, slots=True)
class Listed:
    """One spreadsheet as Drive last listed it for the watcher: when its latest change was, who made it (and
    whether it was us), its modification time and Drive's version."""

    time: str
    modified_by: str = ""
    modified_at: str = ""
    by_me: bool = False
    version: int | None = None


@dataclass
class _Kept:
    """What a watcher keeps for one match: its spreadsheets, the changes to them since its last poll, whether
    the watcher's knowledge of them is complete, and whether its next poll is its first in this host."""

    keys: frozenset[str]
    changes: dict[str, Listed] = field(default_factory=dict)
    complete: bool = True
    first: bool = True
    covered: bool = False  # a poll that asked Drive itself was handed out after the watcher's token was taken
    since: LastRead | None = None  # a match not polled yet in this host: what its last poll read (its record),
    # compared once with Drive's file index (``AccountWatcher.hints``)
    told: bool | None = None  # what that index said: a spreadsheet of it edited since (None: not asked, or it
    # could not tell: more than a page)
    owed: int | None = None  # the question whose answer listed its oldest change kept here (None: none kept)
    in_poll: int | None = None  # the same of the changes handed to its poll, until a poll of it succeeds


class AccountWatcher:
    """The watcher of one Google account (see the module notes). ``ask`` runs on a thread of the account's own,
    the rest on the host's: what they share is behind a lock."""

    def __init__(self, name: str, make_client: Callable[[], gspread.Client], started: datetime,
                 kept: str = "") -> None:
        self.name = name
        self._make_client = make_client
        self._log: DriveChangeLog | None = None  # signed in at the first question, on the account's own thread
        self.token = kept  # the page token asked from next ('' until the first question takes one)
        self._kept = bool(kept)  # a token kept by the host's last run, not asked from yet
        self._asked = 0  # the change-log questions answered (question n's answer: the changes up to ``_tokens[n]``)
        self._tokens: dict[int, str] = {0: kept} if kept else {}  # the tokens since the oldest change unanswered
        self._claiming = False  # the question from the kept token is under way: changes no match owns yet are kept
        self._unclaimed: dict[str, tuple[Listed, int]] = {}  # those changes, for the matches the search finds later
        self.said: queue.SimpleQueue[str] = queue.SimpleQueue()  # what the host says once (a kept token refused)
        self.indexed_at = started  # Drive's file index is asked from here (less the clock margin) on
        self.asked_at: datetime | None = None
        self.busy_until: datetime | None = None  # asked sooner until then: a player saved (the host's ``BUSY_FOR``)
        self.lead = timedelta(0)  # its next question comes this much sooner, once (the host spreads its accounts)
        self.requests = 0  # Drive requests the watcher made (its change log, start tokens, file index)
        self.error = ""  # why Drive did not answer the last question ('' when it did)
        self.said_error = ""  # the error the host last said (it says each once)
        self._matches: dict[Path, _Kept] = {}
        self._owners: dict[str, set[Path]] = {}
        self._lock = threading.Lock()
        self._token_lock = threading.Lock()

    @property
    def log(self) -> DriveChangeLog:
        """The account's change log (signed in the first time it is asked: never on the host's own thread)."""
        if self._log is None:
            from sheets_gm.sheets.google.drive import DriveChangeLog  # the Google stack: on this thread, not the loop's

            self._log = DriveChangeLog(self._make_client())
        return self._log

    def attach(self, path: Path, keys: frozenset[str], since: LastRead | None = None) -> None:
        """Watch the match configured by ``path`` (its spreadsheets ``keys``); again with other keys: its config
        named others. ``since``: a match attached before its first poll in this host (a cold start), what its last
        poll read: a save since then, which no change log of this host saw, is asked of Drive's file index at the
        next question (:meth:`hints`), and puts the match first."""
        with self._lock:
            kept = self._matches.get(path)
            if kept is not None and kept.keys == keys:
                return
            self._forget(path)
            self._matches[path] = kept = _Kept(keys, since=since)
            for key in keys:
                self._owners.setdefault(key, set()).add(path)
                if key in self._unclaimed:  # listed from the kept token before the search found this match
                    entry, question = self._unclaimed.pop(key)
                    kept.changes[key] = entry
                    kept.owed = min(question, kept.owed if kept.owed is not None else question)

    def forget_unclaimed(self) -> None:
        """The first search ended: the changes listed from the kept token that no match claimed are let go."""
        with self._lock:
            self._unclaimed.clear()

    def detach(self, path: Path) -> None:
        """Stop watching a match (its config is gone, or names another account)."""
        with self._lock:
            self._forget(path)

    def _forget(self, path: Path) -> None:
        kept = self._matches.pop(path, None)
        for key in kept.keys if kept is not None else ():
            self._owners.get(key, set()).discard(path)

    @property
    def matches(self) -> int:
        """How many matches this watcher serves."""
        return len(self._matches)

    def changed(self, path: Path) -> bool:
        """Whether the log named a spreadsheet of the match since its last poll (or lost track of them)."""
        with self._lock:
            kept = self._matches.get(path)
            return kept is not None and (bool(kept.changes) or not kept.complete)

    def change_rank(self, path: Path) -> int:
        """How soon the match's poll starts for what the log named (``ask``): ``CHANGED`` for someone else's change
        (or a log the watcher lost track of), ``DUE`` for our own writes alone."""
        with self._lock:
            kept = self._matches.get(path)
            return CHANGED if kept is None else _rank(kept)

    def unanchored(self, path: Path) -> bool:
        """Whether the match's poll must ask Drive itself once more, from its own last token, now that the
        watcher holds one: what changed between its first poll in this host and the watcher's token reaches it so
        (not urgent: a gap of moments, polled as the workers allow)."""
        with self._lock:
            kept = self._matches.get(path)
            return kept is not None and kept.first and bool(self.token)

    def ask(self, now: datetime) -> Touched:
        """One question to Drive for every match of the account: its change log since the watcher's token (the
        first time, the token to start from), or every ``SAFETY_NET`` its file index. Returns the matches one of
        whose spreadsheets changed, each with how soon its poll starts (``quiet.CHANGED`` when someone else made a
        change, ``quiet.DUE`` when every change was our own write, read back behind the players' saves). Drive not
        answering is kept in ``error``; the question is asked again at the next interval, from the same token:
        nothing is lost."""
        self.asked_at = now
        touched: Touched = {}
        try:
            if not self.token:
                self._start()
            elif self._kept:
                touched = self._changes_since_kept()
            else:
                touched = self._index(now) if now - self.indexed_at >= SAFETY_NET else self._changes()
            touched.update(dict.fromkeys(self.hints(), CHANGED))
        except SheetError as exc:
            self.error = str(exc)
            return {}
        self.error = ""
        return touched

    def hints(self) -> set[Path]:
        """The matches attached before their first poll (``attach``'s ``since``) one of whose spreadsheets Drive
        lists at a later version than their last poll's reads cover, edited while no host watched: one question to
        Drive's file index for all of them (from the oldest such read). Only an order of need: such a poll asks
        Drive itself (``hand_over``), nothing rests on the answer; an index longer than a page hints nothing
        (those matches wait their turn, as before)."""
        with self._lock:
            waiting = {path: kept.since for path, kept in self._matches.items() if kept.since is not None}
        if not waiting:
            return set()
        self.requests += 1
        files = self.log.modified_since(min(read.moment for read in waiting.values()) - CLOCK_MARGIN)
        touched: set[Path] = set()
        with self._lock:
            for key, version in files.versions.items() if files.complete else ():
                touched.update(path for path in self._owners.get(key, ())
                               if path in waiting and version > waiting[path].versions.get(key, -1))
            for path in waiting:
                if (kept := self._matches.get(path)) is not None:
                    kept.since, kept.told = None, (path in touched) if files.complete else None
        return touched

    def index_told(self, path: Path) -> bool | None:
        """For a match attached before its first poll in this host (``attach``'s ``since``): whether Drive's file
        index lists a spreadsheet of it edited since its last poll's reads; None while the index was not asked, or
        when it could not tell (``pending`` says which)."""
        with self._lock:
            kept = self._matches.get(path)
            return None if kept is None else kept.told

    def pending(self, path: Path) -> bool:
        """Whether the match waits for the account's next question to compare its last reads with Drive's file
        index (``hints``)."""
        with self._lock:
            kept = self._matches.get(path)
            return kept is not None and kept.since is not None

    def _changes_since_kept(self) -> Touched:
        """The first question from the token the host's last run kept: what changed while no host ran. A token
        Drive refuses (kept too long) is dropped for a new one, and said: Drive's file index (``hints``) tells
        what changed since each match's last reads."""
        self._claiming = True
        try:
            touched = self._changes()
        except SheetError as exc:
            if http_status(exc.__cause__ or exc) not in REFUSED_TOKEN:
                raise  # Drive did not answer: asked again from the same token
            with self._lock:
                self.token, self._tokens, self._kept = "", {}, False
            self.said.put(f"Drive refused the change log's page token kept from the last run ({exc}); the "
                             "log is asked from now on, and Drive's file index tells what changed meanwhile.")
            self._start()
            return {}
        finally:
            self._claiming = False
        self._kept = False
        return touched

    def _changes(self) -> Touched:
        token, listed, complete = self.token, {}, False
        for _ in range(MAX_PAGES):
            self.requests += 1
            page = self.log.since(token)
            for key, time in page.changed.items():
                listed[key] = Listed(time, page.modified_by.get(key, ""), page.modified_at.get(key, ""),
                                     key in page.by_me, page.versions.get(key))
            token = page.token
            if page.complete:
                complete = True
                break
        with self._lock:
            self.token = token
            self._asked += 1
            self._tokens[self._asked] = token
        return self._deliver(listed, complete, self._asked)

    def _index(self, now: datetime) -> Touched:
        self.requests += 1
        files = self.log.modified_since(self.indexed_at - CLOCK_MARGIN)
        self.indexed_at = now
        listed = {key: Listed(time, "", time, key in files.by_me, files.versions.get(key))
                  for key, time in files.modified.items()}
        with self._lock:  # what the index lists may come before any token held: owed from the oldest
            oldest = min(self._tokens, default=0)
        return self._deliver(listed, files.complete, oldest)

    def _deliver(self, listed: dict[str, Listed], complete: bool, question: int) -> Touched:
        """Keep the changes ``listed`` (by the answer to ``question``) for the matches they concern."""
        touched: Touched = {}
        with self._lock:
            for key, entry in listed.items():
                if self._claiming and not self._owners.get(key):  # a match the search has not found yet, perhaps
                    self._unclaimed[key] = entry, question
                for path in self._owners.get(key, ()):
                    kept = self._matches[path]
                    if entry.time >= kept.changes.get(key, entry).time:  # RFC 3339 in UTC sorts as text
                        kept.changes[key] = entry
                    kept.owed = question if kept.owed is None else kept.owed
                    touched[path] = _rank(kept)
            if not complete:
                for path, kept in self._matches.items():
                    kept.complete = False
                    kept.owed = question if kept.owed is None else kept.owed
                    touched[path] = CHANGED
        return touched

    def kept_token(self) -> str:
        """The token the host keeps for its next start: the latest after which every change the log listed has
        been answered (a poll of its match succeeded), or the match has left, at most ``KEPT_BEHIND`` questions
        back ('' before the first question)."""
        with self._lock:
            owed = [n for kept in self._matches.values() for n in (kept.owed, kept.in_poll) if n is not None]
            owed += [question for _, question in self._unclaimed.values()]
            if not self._tokens:
                return ""
            safe = max(min(owed) - 1 if owed else self._asked, self._asked - KEPT_BEHIND)
            for old in [n for n in self._tokens if n < safe]:
                del self._tokens[old]
            return self._tokens.get(safe) or self._tokens[min(self._tokens)]

    def _start(self) -> None:
        """Take the token the watcher asks from, once (a worker and the host's thread may both want it)."""
        with self._token_lock:
            if not self.token:
                self.requests += 1
                token = self.log.start_token()
                with self._lock:
                    self.token = token
                    self._tokens[self._asked] = token

    def hand_over(self, path: Path) -> Handover | None:
        """What the match's next poll is answered from, taken as it is handed to a worker: the changes the log
        named for its spreadsheets since its last poll, and the watcher's token (:class:`SharedChangeLog` answers
        from them); None while its poll must ask Drive itself: its first in this host (or while the watcher has
        no token). Such a poll is handed over only once the watcher holds a token, taken before that poll asks
        Drive: what changes after it reaches the match through the watcher, nothing falls between."""
        with self._lock:
            kept = self._matches.get(path)
            if kept is not None:  # its changes go to this poll: owed until a poll of it succeeds
                kept.in_poll = min((n for n in (kept.in_poll, kept.owed) if n is not None), default=None)
                kept.owed = None
            if kept is None or kept.first or not self.token:
                if kept is not None:
                    kept.changes, kept.complete = {}, True
                    kept.covered = bool(self.token)
                return None
            out = Handover(self.name, dict(kept.changes), kept.complete, self.token)
            kept.changes, kept.complete = {}, True
            return out

    def polled(self, path: Path) -> None:
        """The match's poll succeeded: once a poll that asked Drive itself began after the watcher's token was
        taken, its next polls are answered by the watcher."""
        with self._lock:
            kept = self._matches.get(path)
            if kept is not None:
                kept.in_poll = None
            if kept is not None and kept.covered:
                kept.first = False


def _rank(kept: _Kept) -> int:
    return CHANGED if not kept.complete or any(not e.by_me for e in kept.changes.values()) else DUE


@dataclass(frozen=True, slots=True)
class Handover:
    """What a hosted match's poll is answered from instead of Drive's change log (see
    :meth:`AccountWatcher.hand_over`): the account, the changes to its spreadsheets since its last poll, whether
    they are complete, and the watcher's page token. Plain data: it crosses to the poll's own process."""

    account: str
    changes: dict[str, Listed]
    complete: bool
    token: str


def _client_of(config: MatchConfig | Spreadsheets) -> gspread.Client:
    """A signed-in client of the account ``config`` names: a service account's from its key file; the GM's own
    sign-in's from her config read in full (the OAuth client's file, the folder its sign-in is kept in) when only
    its spreadsheets were read."""
    if config.service_account is not None:
        return service_account_client(config.service_account)
    if isinstance(config, Spreadsheets):
        try:
            config = load_config(config.path)
        except ConfigError as exc:
            raise SheetAccessError(str(exc)) from None
    return google_client(config)


class Accounts:
    """The host's Google accounts: a watcher each (signed in at its first question), made when the host finds the
    first match of the account. Used from the host's thread and the workers': behind a lock."""

    def __init__(self, kept: dict[str, str] | None = None) -> None:
        self._watchers: dict[str, AccountWatcher] = {}
        self._lock = threading.Lock()
        self._kept = dict(kept or {})  # each account's page token, as the host's last run kept it

    def watcher_for(self, config: MatchConfig | Spreadsheets, now: datetime) -> AccountWatcher:
        """The watcher of the account the match ``config`` is opened with (made now if new; it signs in at its
        first question, on its own thread: from a match's :class:`Spreadsheets` alone, its config is read in full
        then, once for the account)."""
        name = account_of(config)
        with self._lock:
            watcher = self._watchers.get(name)
            if watcher is None:
                watcher = self._watchers[name] = AccountWatcher(name, lambda: _client_of(config), now,
                                                                kept=self._kept.get(name, ""))
            return watcher

    def kept_tokens(self) -> dict[str, str]:
        """Each account's page token to keep for the next start (``AccountWatcher.kept_token``; an account no
        watcher asked yet keeps the one it had)."""
        with self._lock:
            watchers = list(self._watchers.values())
        for watcher in watchers:
            token = watcher.kept_token()
            if token:
                self._kept[watcher.name] = token
        return dict(self._kept)

    def named(self, name: str) -> AccountWatcher | None:
        """The watcher of the account ``name`` (None when the host found no match of it)."""
        with self._lock:
            return self._watchers.get(name)

    def all(self) -> list[AccountWatcher]:
        """Every watcher, by name."""
        with self._lock:
            return [self._watchers[n] for n in sorted(self._watchers)]

    def forget_unclaimed(self) -> None:
        """The first search ended: each watcher lets go of the changes no match claimed."""
        for watcher in self.all():
            watcher.forget_unclaimed()

    def drop_idle(self) -> None:
        """Forget the watchers that serve no match any more."""
        with self._lock:
            for name in [n for n, w in self._watchers.items() if not w.matches]:
                del self._watchers[name]

