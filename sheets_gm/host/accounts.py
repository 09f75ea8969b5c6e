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
held a token (what changed between reaches the match so), unless the watcher compared the match's last reads with
Drive's file index asked after its token (``hints``): then what changed since those reads is known to the watcher,
and the match's polls are answered by it from the first (a late change log is waited for once, not again in the
poll). The token the shared log gives is a valid token of the
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

from sheets_gm.host.access_kept import Access, still_valid
from sheets_gm.host.quiet import CHANGED, DUE, LastRead
from sheets_gm.match.config import MatchConfig, Spreadsheets
from sheets_gm.poll_gate.drive_due import CLOCK_MARGIN, SAFETY_NET
from sheets_gm.sheets.backend import SheetAccessError, SheetError, http_status

if TYPE_CHECKING:
    import gspread

    from sheets_gm.sheets.google.drive import DriveChangeLog, DriveFiles

#: The most pages of the change log one question follows; past that, every match of the account reads in full.
MAX_PAGES = 10

#: What Drive answers a page token it no longer takes (a token kept too long, or not its own).
REFUSED_TOKEN = (400, 404, 410)

#: The kept token is at most this many questions behind the watcher's (an hour at 7.5 s): a match that keeps
#: failing does not hold it back until the log since it fills more than ``MAX_PAGES`` (every match of the account
#: then read in full at the next start); such a match's save is told by Drive's file index at that start instead.
KEPT_BEHIND = 480

#: A GM's sign-in file Drive's ``about`` did not name is asked again this much later (watched as an account of its
#: own meanwhile), the wait doubling at each failure up to ``IDENTIFY_AGAIN`` (a burst at a first start, a
#: thousand files asked together, passes within a minute; Drive down, every 10 minutes).
IDENTIFY_FIRST = timedelta(seconds=30)
IDENTIFY_AGAIN = timedelta(minutes=10)

#: At a restart, Drive's file index (what changed before the kept token, for matches whose last reads are older)
#: is asked at the account's first question this long after its log answered from the kept token: the saves the log
#: named are polled meanwhile, and the index's question, and its answer's cost, is kept off their path (at 10,000
#: matches the first search of the folders ends in about as long).
INDEX_AFTER_KEPT = timedelta(seconds=20)

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
    sign_in: str = ""  # the sign-in its config names (``account_of``), which its poll checks its handover against
    attached: int = 0  # the change-log questions answered when it was attached (what came before, it missed)


class AccountWatcher:
    """The watcher of one Google account (see the module notes). ``ask`` runs on a thread of the account's own,
    the rest on the host's: what they share is behind a lock. It asks with any of the sign-ins its matches name
    (``add_sign_in``): one whose refresh Google refuses gives way to the next. ``identify``: a GM's sign-in file
    whose account Drive has not named yet: its first question is Drive's ``about`` (``identity``), and the host
    then moves its matches to that account's watcher (``Accounts.identified``); until Drive answers, it watches them
    as an account of its own, and asks ``about`` again every ``IDENTIFY_AGAIN``."""

    def __init__(self, name: str, started: datetime, kept: str = "", *, identify: bool = False) -> None:
        self.name = name
        self._sign_ins: dict[str, Callable[[], gspread.Client]] = {}  # each sign-in's client maker, in order
        self._signed_in = ""  # the sign-in the log is signed in with
        self._log: DriveChangeLog | None = None  # signed in at the first question, on the account's own thread
        self._client: gspread.Client | None = None  # the client the log asks with
        self.identify_at: datetime | None = started if identify else None  # when Drive's ``about`` is asked next
        self.identity: tuple[str, str] | None = None  # what it answered: the account's id and e-mail
        self._unidentified = 0  # the ``about`` questions Drive did not answer in a row
        self.token = kept  # the page token asked from next ('' until the first question takes one)
        self._kept = bool(kept)  # a token kept by the host's last run, not asked from yet
        self._asked = 0  # the change-log questions answered (question n's answer: the changes up to ``_tokens[n]``)
        self._tokens: dict[int, str] = {0: kept} if kept else {}  # the tokens since the oldest change unanswered
        self._claiming = False  # the question from the kept token is under way: changes no match owns yet are kept
        self._unclaimed: dict[str, tuple[Listed, int]] = {}  # those changes, for the matches the search finds later
        self.said: queue.SimpleQueue[str] = queue.SimpleQueue()  # what the host says once (a kept token refused)
        self.indexed_at = started  # Drive's file index is asked from here (less the clock margin) on
        self._hints_from: datetime | None = None  # the index for them is asked from then on (``INDEX_AFTER_KEPT``)
        self._index_seen: tuple[datetime, DriveFiles, int] | None = None  # the index asked for the matches
        # attached before their first poll (``hints``): from when, its answer, and the log questions answered then
        self.asked_at: datetime | None = None
        self.busy_until: datetime | None = None  # asked sooner until then: a player saved (the host's ``BUSY_FOR``)
        self.lead = timedelta(0)  # its next question comes this much sooner, once (the host spreads its accounts)
        self.requests = 0  # Drive requests the watcher made (its change log, start tokens, file index)
        self.error = ""  # why Drive did not answer the last question ('' when it did)
        self.down_since: datetime | None = None  # Drive has not answered since then (a question failing, or hung)
        self.sheets_alone: datetime | None = None  # since then its matches are read from Sheets alone (the host's
        # ``DRIVE_DEADLINE`` passed without an answer): their polls ask Drive nothing (``Handover.drive_down``)
        self.said_error = ""  # the error the host last said (it says each once)
        self.access: Access | None = None  # the access token the log signs in with at first (the host's last
        # run's, while within its hour: ``access_kept``), then the one its client holds
        self._matches: dict[Path, _Kept] = {}
        self._owners: dict[str, set[Path]] = {}
        self._lock = threading.Lock()
        self._token_lock = threading.Lock()

    def add_sign_in(self, sign_in: str, make_client: Callable[[], gspread.Client]) -> None:
        """A sign-in of the account (a service account's key file, a GM's sign-in file) the watcher may ask with."""
        with self._lock:
            self._sign_ins.setdefault(sign_in, make_client)

    def drop_sign_in(self, sign_in: str) -> None:
        """A sign-in no longer of this account (its file now holds another's): never asked with again."""
        with self._lock:
            self._sign_ins.pop(sign_in, None)
            if sign_in == self._signed_in:
                self._log, self._signed_in = None, ""

    @property
    def sign_ins(self) -> list[str]:
        """The sign-ins the watcher may ask with, the one in use first."""
        with self._lock:
            return sorted(self._sign_ins, key=lambda s: s != self._signed_in)

    @property
    def log(self) -> DriveChangeLog:
        """The account's change log (signed in the first time it is asked: never on the host's own thread)."""
        if self._log is None:
            from sheets_gm.sheets.google.drive import DriveChangeLog  # the Google stack: on this thread, not the loop's
            from sheets_gm.sheets.google.signin import lend_access

            with self._lock:
                sign_in, make = next(iter(self._sign_ins.items()), ("", None))
            if make is None:
                raise SheetAccessError(f"{self.name}: no sign-in of this account is left to ask Drive with")
            client = make()
            lend_access(client, self.access)  # the last run's token, within its hour: no refresh at the start
            self._log, self._signed_in, self._client = DriveChangeLog(client), sign_in, client
        return self._log

    def access_now(self) -> Access | None:
        """The access token the account's log holds while it is valid (else the one lent it, while valid): kept for
        the next start and handed to the account's polls."""
        from sheets_gm.sheets.google.signin import access_held

        client = self._client if self._log is not None else None
        held = access_held(client) if client is not None else None
        if held is not None:
            self.access = held
        return self.access if still_valid(self.access) else None

    def _give_way(self, exc: SheetError) -> bool:
        """After Google refused the sign-in in use (``sign_in_refused``): the next sign-in of the account is used,
        this one put last (True), unless it is the only one (False: the error stands)."""
        from sheets_gm.sheets.google.drive import sign_in_refused  # (on the account's thread, as the log)

        with self._lock:
            if not sign_in_refused(exc) or len(self._sign_ins) < 2 or not self._signed_in:
                return False
            refused = self._signed_in
            self._sign_ins[refused] = self._sign_ins.pop(refused)
            self._log, self._signed_in, self.access = None, "", None  # its token too: the next refreshes its own
        self.said.put(f"Google refused the sign-in {refused} ({exc}); the account's change log is asked with "
                      f"{self.sign_ins[0]} instead.")
        return True

    def attach(self, path: Path, keys: frozenset[str], since: LastRead | None = None, sign_in: str = "") -> None:
        """Watch the match configured by ``path`` (its spreadsheets ``keys``); again with other keys: its config
        named others. ``since``: a match attached before its first poll in this host (a cold start), what its last
        poll read: a save since then, which no change log of this host saw, is asked of Drive's file index at the
        next question (:meth:`hints`), and puts the match first."""
        with self._lock:
            kept = self._matches.get(path)
            if kept is not None and kept.keys == keys:
                kept.sign_in = sign_in or kept.sign_in
                return
            self._forget(path)
            self._matches[path] = kept = _Kept(keys, since=since, sign_in=sign_in, attached=self._asked)
            for key in keys:
                self._owners.setdefault(key, set()).add(path)
                if key in self._unclaimed:  # listed from the kept token before the search found this match
                    entry, question = self._unclaimed.pop(key)
                    kept.changes[key] = entry
                    kept.owed = min(question, kept.owed if kept.owed is not None else question)

    def take_sign_in(self, sign_in: str) -> dict[Path, _Kept]:
        """The matches attached with the sign-in ``sign_in``, taken from this watcher (``adopt`` them elsewhere)."""
        with self._lock:
            paths = [path for path, kept in self._matches.items() if kept.sign_in == sign_in]
            out = {path: self._matches[path] for path in paths}
            for path in paths:
                self._forget(path)
            return out

    def adopt(self, matches: dict[Path, _Kept]) -> None:
        """Watch ``matches`` taken from another watcher of theirs (``take_sign_in``): what it kept for them stays
        (their spreadsheets, the changes not polled yet, their last reads to compare with Drive's file index); each
        one's next poll asks Drive itself, from the token its last poll kept: nothing falls between the two watchers
        (a match whose sign-in file now holds another account's: Drive refuses that token, and the poll reads in
        full, as cron's would)."""
        with self._lock:
            for path, kept in matches.items():
                self._forget(path)
                kept.first, kept.covered, kept.owed, kept.in_poll = True, False, None, None
                self._matches[path] = kept
                for key in kept.keys:
                    self._owners.setdefault(key, set()).add(path)
                    if key in self._unclaimed:
                        kept.changes[key] = self._unclaimed.pop(key)[0]

    def unclaimed(self) -> set[str]:
        """The spreadsheets the log, asked from the kept token, named before the host found their matches."""
        with self._lock:
            return set(self._unclaimed)

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

    def paths(self) -> list[Path]:
        """The configs of the matches this watcher serves."""
        with self._lock:
            return list(self._matches)

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
        if self._identify(now):
            return {}
        for _ in range(len(self._sign_ins) + 1):  # each sign-in of the account once, at most
            try:
                touched = self._question(now)
            except SheetError as exc:
                if self._give_way(exc):
                    continue
                self.error = str(exc)
                return {}
            self.error = ""
            return touched
        return {}

    def _question(self, now: datetime) -> Touched:
        touched: Touched = {}
        if not self.token:
            self._start()
        elif self._kept:
            since_kept = self._changes_since_kept()
            if since_kept is not None:  # the saves made while no host ran, named: Drive's file index (what came
                self._hints_from = now + INDEX_AFTER_KEPT  # before the token) waits, off their path at a restart
                return since_kept
        else:
            touched = self._index(now) if now - self.indexed_at >= SAFETY_NET else self._changes()
        if self._hints_from is None or now >= self._hints_from:
            touched.update(dict.fromkeys(self.hints(), CHANGED))
        return touched

    def _identify(self, now: datetime) -> bool:
        """A GM's sign-in not named yet: Drive's ``about`` asked who it is (True: it answered, ``identity``, and the
        host moves its matches to that account's watcher). Drive not answering is said, the sign-in watched as an
        account of its own meanwhile, and asked again ``IDENTIFY_AGAIN`` later."""
        if self.identify_at is None or now < self.identify_at:
            return False
        try:
            self.requests += 1
            self.identity = self.log.user()
        except SheetError as exc:
            wait = min(IDENTIFY_FIRST * 2 ** self._unidentified, IDENTIFY_AGAIN)
            self._unidentified += 1
            self.identify_at = now + wait
            if self._unidentified == 1 or wait == IDENTIFY_AGAIN:
                self.said.put(f"Drive did not say which Google account this sign-in is ({exc}); its matches are "
                              f"watched as an account of their own meanwhile, and Drive asked again in "
                              f"{int(wait.total_seconds())} s.")
            return False
        self.identify_at = None
        return True

    def hints(self) -> set[Path]:
        """The matches attached before their first poll (``attach``'s ``since``) one of whose spreadsheets Drive
        lists at a later version than their last poll's reads cover, edited while no host watched: one question to
        Drive's file index for all of them (from the oldest such read). Each such match's changes since its reads
        are kept for its poll, and, when the index was asked after the token of every log answer since the match
        was attached, its polls are answered by the watcher from the first (``hand_over``: Drive's change log is
        not asked again in the poll); otherwise its first poll asks Drive itself. An index longer than a page
        hints nothing (those matches wait their turn, and their first polls ask Drive, as before)."""
        with self._lock:
            waiting = {path: kept.since for path, kept in self._matches.items() if kept.since is not None}
        if not waiting:
            return set()
        oldest = min(read.moment for read in waiting.values()) - CLOCK_MARGIN
        files, asked = self._indexed(oldest)
        touched: set[Path] = set()
        with self._lock:
            for key, version in files.versions.items() if files.complete else ():
                for path in self._owners.get(key, ()):
                    if path in waiting and version > waiting[path].versions.get(key, -1):
                        touched.add(path)
                        self._matches[path].changes.setdefault(key, Listed(
                            files.modified.get(key, ""), "", files.modified.get(key, ""), key in files.by_me,
                            version))
            for path in waiting:
                if (kept := self._matches.get(path)) is not None:
                    kept.since, kept.told = None, (path in touched) if files.complete else None
                    # Its reads compared with an index asked after the token of every log answer it was attached
                    # for: what changed since them is known here (the index's entries, then the log's), so its
                    # polls are answered by the watcher from the first (a poll asking Drive's change log itself
                    # again would cost a late log's delay twice).
                    kept.first = kept.first and not (files.complete and asked >= kept.attached)
        return touched

    def _indexed(self, oldest: datetime) -> tuple[DriveFiles, int]:
        """Drive's file index from ``oldest`` on, asked once at a start, and the change-log questions answered when
        it was asked (its token was taken before: what changed after, the log names): the answer is kept for the
        matches the search attaches later whose last reads are no older, until the safety net's index
        (``SAFETY_NET``); asked again from an older read."""
        seen = self._index_seen
        if seen is None or seen[0] > oldest:
            self.requests += 1
            seen = self._index_seen = oldest, self.log.modified_since(oldest), self._asked
        return seen[1], seen[2]

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

    def _changes_since_kept(self) -> Touched | None:
        """The first question from the token the host's last run kept: what changed while no host ran. A token
        Drive refuses (kept too long) is dropped for a new one, and said (None): Drive's file index (``hints``)
        tells what changed since each match's last reads."""
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
            return None
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
        self._index_seen = None  # the safety net's moment: a match attached from now on asks the index afresh
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
            if kept is not None and self.sheets_alone is not None:  # Drive does not answer: its poll reads every
                kept.changes, kept.complete = {}, True  # spreadsheet from Sheets alone, asking Drive nothing
                return Handover(kept.sign_in or self.name, {}, True, self.token,
                                drive_down=self.error or "Drive does not answer")
            if kept is None or kept.first or not self.token:
                if kept is not None:
                    kept.changes, kept.complete = {}, True
                    kept.covered = bool(self.token)
                    kept.since = None  # its poll reads what the file index would have said changed since
                return None
            out = Handover(kept.sign_in or self.name, dict(kept.changes), kept.complete, self.token)
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
    they are complete, and the watcher's page token; or, while its account's Drive does not answer
    (``drive_down``), that Drive is asked nothing: every spreadsheet is read from Sheets. Plain data: it crosses to
    the poll's own process."""

    account: str
    changes: dict[str, Listed]
    complete: bool
    token: str
    drive_down: str = ""  # why Drive is asked nothing in this poll ('' when it is): it reads from Sheets alone
