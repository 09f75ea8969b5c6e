"""The host: every match under the folders, looked at when something may have changed, polled by a bounded
number of workers, each poll in a process of its own (``processes``) stopped at its deadline.

Each pass (:meth:`Host.step`) runs on the host's own thread and reads no spreadsheet itself:

1. every ``rescan`` seconds, the folders are searched again (``discovery``), :data:`WALK_A_PASS` folders a pass
   (the loop turns between two slices: a save is answered and the watchdog fed while 10,000 folders are listed): a
   new config joins, a removed one leaves once the search ends (by default every ``DEFAULT_RESCAN``, or with the
   file events of every folder served every ``SEARCH_WITH_EVENTS``: a new match is found by its files' events, a
   removed one leaves at its next look). At a start, a match with a file newer than its last poll's record (a
   save typed while no host ran) is looked at as the search finds it, before the first looks of the others, which
   wait for the search's end (said in one line); polls that only a first look needs wait for it too, the workers
   kept for the saves and deadlines found;
2. what the workers finished is taken in (:class:`~sheets_gm.host.outcome.Outcome`): a resolution and a
   new warning are said (the log: systemd's journal), the status kept; a poll past its deadline is stopped;
3. the file events (``file_events``), the judges' mailboxes' news (``mail_watch``: IMAP IDLE) and each Google
   account's answer from Drive (asked on a thread of the account's own once its interval is up: ``accounts``; a
   few accounts at once, the named accounts before the GMs' sign-in files still to name: ``drive_turns``) make
   the matches they name due now, first;
4. each match that is due is looked at (``quiet``: its files' stamps, its gate's record, its notices; for one not
   polled yet in this host, its record alone), and the polls it needs are started by rank (changed, due, the
   rest) as the workers allow (``visit``); an idle match is looked at again an interval later, or, when file
   events or its account's watcher cover it, at its deadline or notices' moment, at the latest ``QUIET_LOOK``.

A pass touches only what it must, whatever the number of matches: the matches an event or Drive named (first),
those whose moment came (a heap of moments), those waiting for a worker (looked at once, then left waiting in
rank order, not looked at again each pass) and those being polled. A file event in a match whose poll is under
way (a save the poll may have read before it was written) has the match looked at again, first, as the poll
ends.

A match that fails (its config or a workbook does not read, its rules raise, Google stays unavailable, its poll
overran its deadline or its process died) is said once, and tried again after a wait that doubles each time
(:data:`FIRST_RETRY` up to :data:`LAST_RETRY`), at once when its config file changes (the GM mended it); every
other match goes on. A match another command holds is skipped until the next interval. :meth:`Host.close`
(SIGTERM) lets the polls under way finish (a resolution completes) for :data:`STOP_GRACE` at most, stops those
still running and starts no other; one cut half-way is completed by the next poll, from its journal, as after a
crash.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import os
import queue
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, wait
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol, TypeVar

from sheets_gm.engine.words import counted
from sheets_gm.host.access_kept import access_path, read_access, write_access
from sheets_gm.host.account_set import Accounts
from sheets_gm.host.accounts import AccountWatcher, Touched, account_of, config_keys
from sheets_gm.host.defaults import (
    DEFAULT_INTERVAL,
    DEFAULT_POLL_DEADLINE,
    DEFAULT_RESCAN,
    DEFAULT_WORKERS,
    SEARCH_WITH_EVENTS,
)
from sheets_gm.host.discovery import FolderWalk, Found, looks_like_match, ruleset_named
from sheets_gm.host.drive_tokens import (
    Where,
    read_sign_ins,
    read_tokens,
    read_where,
    sign_ins_path,
    text_digest,
    tokens_path,
    where_digest,
    where_path,
    where_text,
    write_sign_ins,
    write_tokens,
    write_where,
)
from sheets_gm.host.drive_turns import DriveTurns
from sheets_gm.host.file_events import QUIET_LOOK, FileEvents
from sheets_gm.host.mail_watch import MailWatch
from sheets_gm.host.outcome import VISIT, Done, Outcome
from sheets_gm.host.quiet import (
    CHANGED,
    DUE,
    LATER,
    LastRead,
    Need,
    drive_quiet,
    first_need,
    google_need,
    kept_files,
    last_read,
    local_need,
    notices_moment,
    watched_need,
)
from sheets_gm.host.seen import Seen, asks_mail, idle_until, look_files, seen_before
from sheets_gm.host.status import (
    AccountStatus,
    HostStatus,
    MatchStatus,
    last_games,
    last_local,
    write_matches,
    write_status,
)
from sheets_gm.host.sweep import Sweep
from sheets_gm.match.config import BackendKind, ConfigError, MatchConfig, Spreadsheets, read_spreadsheets
from sheets_gm.poll_gate.drive_due import UNSEEN_READ_EVERY
from sheets_gm.sync.deadline import deadline_moment

Clock = Callable[[], datetime]
Say = Callable[[str], None]
T = TypeVar("T")

#: An account's watcher asks Drive's change log this share of the interval apart (7.5 s at the default 10 s: 8
#: requests a minute). A player's save waits for her account's next question, a moment spread evenly over that
#: spacing: 95 % of saves within 0.95 of it. At the whole interval (6 a minute) the 95th percentile was 9.5 s before
#: Drive's answer and the poll, at the 10 s goal; at 7.5 s it is 7.1 s, a margin of 2 s for Drive's answer and the
#: poll. The cost is Drive requests (Drive's quota is 12,000 a minute per user, or 325,000 quota units since May
#: 2026: 8 a minute is nothing to it) and a request's CPU on the host (see docs/hosting.md).
ASK_SHARE = 0.75
#: After Drive's change log named a player's save in an account, the account is asked this share of the interval
#: apart (5 s at the default 10 s: 12 requests a minute, not 8) for ``BUSY_FOR``: a player typing her orders saves
#: again, her match's other players come to type theirs, and their saves are answered sooner. An account none of
#: whose players saved keeps ``ASK_SHARE``.
BUSY_SHARE = 0.5
BUSY_FOR = timedelta(minutes=2)
#: Folders a slice of a search of the folders lists (``discovery.FolderWalk``): a few tens of milliseconds of CPU on
#: an idle machine. The search runs beside the loop, on a thread, a slice at a time, never holding up a save's
#: answer or the watchdog, whatever the number of folders and however slow one is (the whole search of 10,000 took
#: 3 s at a load of 3 and 30 s at 15, the loop stopped meanwhile, when the loop took it).
WALK_A_PASS = 200
#: The whole search of the folders comes every ``SEARCH_WITH_EVENTS`` (``DEFAULT_RESCAN`` without file events
#: covering every folder: the only way a new match is found then), or as seldom as keeps its CPU within this share of
#: a core (the last search's, measured): at 10,000 matches on a machine at a load of 20 a search cost 10-20 CPU s, every
#: minute a third of a core.
SEARCH_SHARE = 0.005
#: A slice of the search that takes this long is said (once), with the folder it waits on.
SEARCH_STALL = timedelta(seconds=60)
#: Seconds an account's question to Drive may take before the host says so (its matches wait for it; the other
#: accounts' go on: each asks on a thread of its own, and one past this holds no place among ``DRIVE_ASKERS``).
DRIVE_DEADLINE = 30.0
#: While an account's Drive has not answered for ``DRIVE_DEADLINE`` (a question under way or failing that long), its
#: matches are read from Sheets alone: every spreadsheet, at once, then each match about this often (as cron's poll a
#: minute read it; the spreadsheets Drive does not show a sign-in are read so too), asking Drive nothing. A save
#: there is answered within ``DRIVE_DEADLINE`` and this, not whenever Drive comes back.
SHEETS_ALONE_EVERY = UNSEEN_READ_EVERY
#: Seconds the polls under way may take to finish once the host is told to stop; those still running are killed
#: (a resolution cut short is completed by the next poll, from its journal).
STOP_GRACE = 60.0
#: At most this many matches are looked at in one pass by their moments (those an event or Drive named come on top,
#: first): a cold start's first looks (2 ms of CPU each at 10,000 Google matches: a config read), or the idle looks
#: of thousands of matches falling due together, end a pass within a fraction of a second of CPU, so Drive's
#: answers, the file events (a save) and the watchdog are heard between passes, not after thousands of looks.
LOOKS_A_PASS = 500
#: While the first search goes on (a start: only the saves and deadlines it finds are polled then), a local match's
#: poll may start on up to this many times the workers: the saves typed while the host was down are drained first,
#: and on a machine shared with other work, more processes get more of its cores (at a load of 7 on 2 cores, the
#: twenty saves of the restart benchmark were answered within 9.5 s at the 95th percentile with 8 polls at once, 12.1 s
#: with 4). A Google match's poll goes past the workers only when no poll of its account is under way (its quota:
#: no account has more polls at once than the workers): the twenty Google saves of the restart benchmark waited
#: for four workers, about 1.2 s a poll, the last answered 11.6 s after the start at a load of 2-3.
CATCH_UP = 2
#: At a start, the first search waits (at most this long after the start) while the saves the last run's Drive
#: tokens name are being found and answered: until every account joined from the kept places (``_join_known``) has
#: had its first answer, and the matches those answers named for a player's save are polled, and no other poll
#: starts meanwhile (our own writes the logs name again, read back after; when every one of those accounts is named:
#: a GM's sign-in file Drive must name first is searched for as before). The search of 10,000 folders is a core's
#: worth of work for 15 s and more; taken beside those first polls, it shares the machine with them (the twenty saves
#: of the Google restart benchmark answered in 9-12 s at a load of 2-5, bounded by the polls). A local save waiting
#: is found by the search: it waits that long at most.
SAVES_FIRST = timedelta(seconds=10)
#: The status file is rewritten at least this often while nothing changes (``serve --status`` shows its age).
STATUS_EVERY = timedelta(minutes=1)
#: The file of every match (``status``) is rewritten this often, or once ``STATUS_CHANGED`` matches changed since:
#: 2.3 MB at 10,000 matches, 330 MB a day of writes, not 15–22 GB (the small status file names those that changed).
STATUS_ALL_EVERY = timedelta(minutes=10)
STATUS_CHANGED = 1000
#: The first wait before a failed match is tried again; it doubles at each failure, up to :data:`LAST_RETRY`.
FIRST_RETRY = timedelta(seconds=30)
LAST_RETRY = timedelta(hours=1)


class Background(Protocol):
    """How the host runs an account's question to Drive off its own thread (a thread each; tests run it inline or
    hold it, as a hung account)."""

    def __call__(self, task: Callable[[], None], name: str) -> None:
        """Run ``task`` in the background."""
        ...


def in_thread(task: Callable[[], None], name: str) -> None:
    """Run ``task`` on a daemon thread of its own (it never holds the host up when the process stops)."""
    threading.Thread(target=task, name=name, daemon=True).start()


class Waiter(Protocol):
    """What the host waits on between passes: :class:`Stop` (set on SIGTERM) or a fake clock's in tests."""

    def is_set(self) -> bool:
        """True once the host should stop."""
        ...

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds, until set or woken; True if set."""
        ...

    def wake(self) -> None:
        """End the wait now (or the next one)."""
        ...


class Stop:
    """What the host's loop waits on between passes (``run``): set once it should stop (SIGTERM), as a
    ``threading.Event``; woken (``wake``) when a poll ends or Drive names a changed file, so that the next pass runs
    at once, not at its next tick (up to a second later, twice in a save's answer: Drive's answer, then its poll)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._set = False
        self._woken = False

    def set(self) -> None:
        """Stop: the host's loop ends after its pass."""
        with self._changed:
            self._set = True
            self._changed.notify_all()

    def is_set(self) -> bool:
        """True once the host should stop."""
        return self._set

    def wake(self) -> None:
        """End the loop's wait now (or its next one, if it is not waiting)."""
        with self._changed:
            self._woken = True
            self._changed.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds, until set or woken; True if set."""
        with self._changed:
            self._changed.wait_for(lambda: self._set or self._woken, timeout)
            self._woken = False
            return self._set


def phase(name: str) -> float:
    """A share of the interval in [0, 1) drawn from an account's name (the same at every start): where in the
    interval its questions to Drive fall.

    >>> phase("service account a@b"), phase("service account a@b") == phase("service account a@b")
    (0.777, True)
    """
    return zlib.crc32(name.encode("utf-8")) % 1000 / 1000


def retry_wait(failures: int) -> timedelta:
    """How long a match that failed ``failures`` times in a row waits before it is tried again."""
    wait: timedelta = FIRST_RETRY * (2 ** max(failures - 1, 0))
    return min(wait, LAST_RETRY)


def drained(waiting: queue.SimpleQueue[T]) -> Iterator[T]:
    """What ``waiting`` holds now, taken one by one (what a thread puts meanwhile may come too)."""
    while True:
        try:
            yield waiting.get_nowait()
        except queue.Empty:
            return


def shown_name(path: Path, folders: Sequence[Path]) -> str:
    """``path`` (a config, resolved) from the first of ``folders`` (served folders, or configs) that holds it,
    with at least the folder it is in.

    >>> shown_name(Path("/srv/m/club/friday/match.toml"), [Path("/srv/m")])
    'club/friday/match.toml'
    >>> shown_name(Path("/srv/m/friday/match.toml"), [Path("/srv/m/friday")])
    'friday/match.toml'
    """
    for folder in folders:
        where = folder.resolve()
        base = where.parent if path == where else where
        try:
            relative = path.relative_to(base)
        except ValueError:
            continue
        return str(Path(base.name) / relative if len(relative.parts) < 2 else relative)
    return str(path)


class Unread:
    """A config's spreadsheets not read yet (``Host._join`` reads them)."""


UNREAD = Unread()


def _read_sheets(found: Found) -> Spreadsheets | None:
    """The spreadsheets and account a config found names (None: it does not read; its poll says why)."""
    try:
        return read_spreadsheets(found.path)
    except ConfigError:  # its poll says what is wrong with it, and retries it
        return None


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


@dataclass
class Hosted:
    """One match the host runs: what it knows of it between polls."""

    path: Path
    shown: str  # the config as the status names it (relative to the folder it was found under)
    next_at: datetime
    config: MatchConfig | None = None
    account: str = ""
    keys: frozenset[str] = frozenset()
    running: bool = False
    done: str = "new"
    line: str = ""
    warning: str = ""
    deadline: str = ""
    finished: bool = False
    looked_at: datetime | None = None
    read_at: datetime | None = None
    error: str = ""
    failures: int = 0
    retry_at: datetime | None = None
    failed_stamp: tuple[int, int] | None = None  # the config file's size and time when it last failed
    started_at: datetime | None = None  # when its poll under way started
    future: Future[Outcome] | None = None  # its poll under way
    rank: int = 2  # how soon its poll starts among those due (``quiet.Need.rank``: lower first)
    said: set[str] = field(default_factory=set)  # the open-workbook messages already said
    letters_only: bool = False  # its next visit sends only the letters waiting for a retry
    quiet: bool | None = None  # looked at seldom (file events, or its account's watcher, cover it); None: unknown
    watched_in: tuple[Path, ...] = ()  # the folders whose file events concern it
    game: str = ""  # the game its config names, as read at discovery (its config, once polled, says it)
    stirred: bool = False  # a file event fell in its folders while its poll ran: looked at again once it ends
    seen: Seen | None = None  # what its last look, idle, depended on (a local match: ``seen``)

    @property
    def local(self) -> bool:
        return self.config.backend is BackendKind.LOCAL if self.config is not None else not self.account


def _start_order(hosted: Hosted) -> tuple[int, datetime]:
    """The order waiting polls start in: by rank, then by the moment each is due."""
    return hosted.rank, hosted.next_at


class Host:
    """Every match under ``folders``, run side by side (see the module notes). ``executor``: the bounded pool
    (a ``ThreadPoolExecutor`` of ``workers``; tests hand one that runs each poll at once); ``say``: the log."""

    def __init__(self, folders: Sequence[Path], executor: Executor, *, clock: Clock, say: Say,
                 status_file: Path, interval: float = DEFAULT_INTERVAL, rescan: float | None = None,
                 workers: int = DEFAULT_WORKERS, poll_deadline: float = DEFAULT_POLL_DEADLINE,
                 background: Background = in_thread, stop_grace: float = STOP_GRACE,
                 events: FileEvents | None = None) -> None:
        self.folders = [Path(f) for f in folders]
        self.executor = executor
        self.clock = clock
        self.say = say
        self.status_file = status_file
        self.interval = timedelta(seconds=interval)
        self.ask_share = ASK_SHARE  # an account's questions to Drive, this share of the interval apart (a benchmark
        # may set another)
        self.rescan = None if rescan is None else timedelta(seconds=rescan)  # None: as the file events allow
        self.workers = workers
        self.poll_deadline = timedelta(seconds=poll_deadline)
        self.background = background
        self.stop_grace = stop_grace
        self.events = events  # the file events under the folders (None: every local match looked at every interval)
        self._by_folder: dict[Path, set[Path]] = {}  # a folder -> the local matches a file event there concerns
        self._search_cpu = 0.0  # CPU seconds the last whole search took (``_search_every``)
        self._sweep = Sweep(self.interval)  # the idle local matches the events do not cover, their files looked at
        self._above: set[Path] = set()  # every folder that holds a match's folder, down from the root
        self._games_before = last_games(status_file) or []  # the games the last run's matches played
        self._local_before = last_local(status_file)  # whether the last run served a local match
        self._tokens_file = tokens_path(status_file)
        kept, damaged = read_tokens(self._tokens_file)
        if damaged:
            say(f"The accounts' change-log tokens: {damaged}.")
        self._sign_ins_file = sign_ins_path(status_file)
        self._sign_ins_kept = read_sign_ins(self._sign_ins_file)  # what Drive named each GM's sign-in file
        self._access_file = access_path(status_file)
        self._access_kept = read_access(self._access_file)  # each account's access token, within its hour
        self.accounts = Accounts(kept, self._sign_ins_kept, self._access_kept)  # each account's change log asked
        # from where the last run left it, with the token it had
        self._tokens_kept, self._tokens_at = kept, clock()  # the tokens last written, and when
        self._where_file = where_path(status_file)
        self._where_found = read_where(self._where_file)  # where each account's matches were (the last run's:
        # used until the first search ends)
        self._where_kept = where_digest(self._where_file)  # a digest of the places last written (an unchanged
        # file is not written again)
        self._where_at = clock()  # when they were last compared with the matches hosted
        self.matches: dict[Path, Hosted] = {}
        self._listing = threading.Lock()  # ``matches`` joined or dropped, or listed for the page server's threads
        self._listed: tuple[Path, ...] | None = ()  # the configs hosted, sorted (None: to list again)
        self.started = clock()
        self.scanned_at: datetime | None = None  # when the last search of the folders began
        self.searched_at: datetime | None = None  # when the first search of the folders ended (None: under way)
        self._walk: FolderWalk | None = None  # the search of the folders under way, a slice at a time beside the loop
        self._slicing: datetime | None = None  # when the slice being taken was asked for (None: none is)
        self._said_stall = False  # a slice past ``SEARCH_STALL`` was said
        self._slices: queue.SimpleQueue[tuple[FolderWalk, list[tuple[Found, Spreadsheets | None]], bool | str]] = (
            queue.SimpleQueue())  # the slices taken, for the loop
        self._walked: set[Path] = set()  # the configs it found so far
        self._first_saved = 0  # the matches the first search found saved since their last record
        self._first_askers: set[str] = set()  # the accounts joined before the first search, until each answered
        self._named_first: set[Path] = set()  # the matches their first answers named, until each is polled
        self.status_at: datetime | None = None
        self.listed_at: datetime | None = None  # when the file of every match was last written
        self._touched: set[Path] = set()  # the matches whose record changed since (the status file names them)
        self._left: set[str] = set()  # the matches that left since (as the status names them)
        self.changed = True  # something to write in the status file
        self.polls = 0  # visits finished (a benchmark's count)
        self.resolutions = 0  # windows resolved
        self._done: queue.SimpleQueue[tuple[Path, Outcome]] = queue.SimpleQueue()
        self._answers: queue.SimpleQueue[tuple[AccountWatcher, Touched]] = queue.SimpleQueue()  # Drive's
        self._turns = DriveTurns(timedelta(seconds=DRIVE_DEADLINE))  # whose turn it is to ask Drive
        self._stop: Waiter = Stop()  # what ``run`` waits on: once set, no poll starts
        self.mail = MailWatch(lambda: self._stop.wake())  # the judges' mailboxes, each watched with IMAP IDLE
        # What a pass looks at, without a pass over every match: the moments matches fall due (a heap; an entry
        # whose match was planned again since is left behind and skipped), the matches an event or Drive named
        # (looked at first), those a look found needing a poll that wait for a worker (not looked at again), those
        # being polled, and those that failed (their config's stamp checked each pass).
        self._moments: list[tuple[datetime, int, Path]] = []
        self._order = itertools.count()
        self._urgent: dict[Path, None] = {}
        self._waiting: dict[Path, Hosted] = {}
        self._polling: set[Path] = set()
        self._failing: set[Path] = set()

    # -- the pass -------------------------------------------------------------------------------------------

    def step(self) -> float:
        """One pass (see the module notes); returns the seconds until something is due."""
        now = self.clock()
        self._search(now)
        self._take_outcomes(now)
        self._stop_overdue(now)
        self._take_events(now)
        self._take_swept(now)
        self._take_mail(now)
        self._ask_drive(now)
        self._check_failing(now)
        self._look_at(self._due(now, moments=self.searched_at is not None), now)  # the first search first
        self._ask_drive(now)  # an account first seen in this pass's looks asks now (a cold start's saves first) ...
        self._look_at(self._due(now, moments=False), now)  # ... and what it named is looked at in this pass
        self._start_polls(now)
        self._take_outcomes(now)  # those finished meanwhile (a pool that ran them at once: all of them)
        self._write_status(now)
        return self._until_next(now)

    def run(self, stop: Waiter, alive: Callable[[], object] = lambda: None) -> None:
        """Pass after pass until ``stop`` is set, then :meth:`close`. A pass ends at the latest a second later
        (a finished poll is taken in, a deadline fires at its second); ``alive`` is called after each pass (the
        systemd watchdog's ping: ``systemd``)."""
        self._stop = stop
        try:
            while not stop.is_set():
                wait = self.step()
                alive()
                stop.wait(min(max(wait, 0.0 if self._slice_due() else 0.05), 1.0))  # a search: its next slice
        finally:
            self.close()

    def close(self) -> None:
        """Stop: the polls under way may finish (a resolution completes) for up to ``stop_grace`` seconds, those
        still running then are stopped (their processes killed: a hung poll does not hold the stop); none starts;
        the status says so. No poll outlives the host, nor the match lock it holds: a pool that cannot stop a
        poll (threads, as a benchmark runs the host) is waited on, and the log says so."""
        under_way = [h.future for h in self.matches.values() if h.running and h.future is not None]
        self.say(f"Stopping: {counted(len(under_way), 'poll')} under way "
                 f"{'finish' if len(under_way) != 1 else 'finishes'} first (at most {self.stop_grace:g} s).")
        _, hung = wait(under_way, timeout=self.stop_grace)
        kill = getattr(self.executor, "kill", None)
        for future in hung:
            if callable(kill):
                kill(future)
        if hung and not callable(kill):
            self.say(f"{counted(len(hung), 'poll')} cannot be stopped in this pool: waiting for "
                     f"{'them' if len(hung) != 1 else 'it'} to end (each holds its match's lock until then).")
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.mail.stop()
        now = self.clock()
        self._take_outcomes(now)
        for hosted in self.matches.values():
            hosted.running = False
        self._polling.clear()
        self._write_status(now, running=False)
        self.say("Stopped." if not hung or not callable(kill) else f"Stopped; {counted(len(hung), 'poll')} cut short "
                 "(completed by the next start, from its journal).")

    # -- the matches ----------------------------------------------------------------------------------------

    def _scan(self, now: datetime) -> None:
        """Search the folders now, all of them, on this thread (the loop has a search taken a slice at a time
        beside it: ``_search``)."""
        walk = self._walk = FolderWalk(self.folders)
        self._walked, self.scanned_at = set(), now
        self._took_slice(walk, [(found, _read_sheets(found)) for found in walk.rest()], walk.done, now)

    def _search(self, now: datetime) -> None:
        """The search of the folders: begun every ``_search_every``, taken a slice at a time beside the loop
        (``background``: a thread; a folder that hangs, a network folder not answering, holds up the search alone,
        never a save's answer nor the watchdog, which the loop's own passes feed); each slice found is taken in.
        A slice that waits past ``SEARCH_STALL`` is said once, with the folder it waits on."""
        if self._walk is None and (self.scanned_at is None or now - self.scanned_at >= self._search_every()):
            if self.scanned_at is None:
                self._join_known(now)
            self._walk, self._walked, self.scanned_at = FolderWalk(self.folders), set(), now
        if self._slice_due():
            walk = self._walk
            assert walk is not None
            self._slicing, self._said_stall = now, False
            self.background(functools.partial(self._take_a_slice, walk), "sheets-gm-search")
        for walk, found, done in drained(self._slices):
            self._slicing = None
            if walk is self._walk:
                self._took_slice(walk, found, done, now)
        if self._slicing is not None and now - self._slicing >= SEARCH_STALL and not self._said_stall:
            self._said_stall = True
            walk = self._walk
            self.say(f"The search of the folders has waited {int((now - self._slicing).total_seconds())} s on "
                     f"{walk.at if walk is not None else '?'} (a network folder not answering?); the "
                     f"{counted(len(self.matches), 'match', 'matches')} found so far are served meanwhile.")

    def _join_known(self, now: datetime) -> None:
        """At a start, before the search: one match of each account the last run kept (``drive_tokens.Where``)
        joins, so that each account asks its change log from the kept token at once, whatever folder the search
        would find its first match in."""
        for keys in self._where_found.values():
            for config in dict.fromkeys(keys.values()):
                if self._join_kept(Path(config), now):
                    break
        joined = self.accounts.all()
        if all(watcher.identify_at is None for watcher in joined):  # (a sign-in file to name first: searched as
            self._first_askers = {watcher.name for watcher in joined}  # before, its account not known yet)

    def _join_kept(self, path: Path, now: datetime) -> bool:
        """The match of the config ``path``, as the last run kept it, joins now (before the search finds it) if it
        is still a match under the folders served; True when it is hosted."""
        if path in self.matches:
            return True
        served = self._served()
        if not any(f == path or f in path.parents for f in served) or not looks_like_match(path):
            return False
        self._join(path, now, Found(path), say=False)
        return True

    def _join_named(self, watcher: AccountWatcher, now: datetime) -> list[Path]:
        """While the first search goes on: the matches of the spreadsheets ``watcher``'s log named before the search
        found them (a save typed while no host ran, listed from the kept token) join now, where the last run kept
        them, and are looked at first (``_watch_early``), not when the search reaches their folders; those joined."""
        joined = []
        places = self._where_found.get(watcher.name, {})  # the account's, kept as text: a path made of each of
        # the 40,000 at the start cost 0.2 CPU s before its first question to Drive
        for key in watcher.unclaimed() if self.searched_at is None else ():
            known = places.get(key)
            if known is not None and self._join_kept(Path(known), now):
                joined.append(Path(known))
        return joined

    def _slice_due(self) -> bool:
        """Whether the next slice of the search under way is to be asked for (none is being taken, and the saves
        the kept tokens name do not come first: ``_saves_first``)."""
        return self._walk is not None and self._slicing is None and not self._saves_first()

    def _watched_rank(self, path: Path) -> int:
        """How soon the match's poll starts for what its account's log named (``AccountWatcher.change_rank``)."""
        watcher = self._watcher(self.matches[path])
        return watcher.change_rank(path) if watcher is not None else CHANGED

    def _saves_first(self) -> bool:
        """Whether the first search, and the polls of anything but a player's save, wait for the saves the last
        run's tokens name (``SAVES_FIRST``): an account joined before the search has not answered yet, or a match
        its answer named for someone else's change waits for its poll or is being polled."""
        if self.searched_at is not None or not (self._first_askers or self._named_first):
            return False
        if self.clock() - self.started >= SAVES_FIRST:
            self._first_askers, self._named_first = set(), set()
            return False
        self._named_first = {path for path in self._named_first
                             if path in self._waiting or path in self._polling or path in self._urgent}
        return bool(self._first_askers or self._named_first)

    def _take_a_slice(self, walk: FolderWalk) -> None:
        """The next ``WALK_A_PASS`` folders of ``walk`` listed, and the spreadsheets of each config found read
        (``read_spreadsheets``), off the loop's thread; handed to the loop, which is woken. A walk that raises is
        handed over as ended with what it found (said by the loop)."""
        found: list[tuple[Found, Spreadsheets | None]] = []
        done: bool | str = True
        began = time.thread_time()
        try:
            found = [(one, _read_sheets(one)) for one in walk.take(WALK_A_PASS)]
            done = walk.done
        except Exception as exc:  # a program error: the search ends here; the next one begins at its moment
            done = f"{type(exc).__name__}: {exc}"
        walk.cpu += time.thread_time() - began
        self._slices.put((walk, found, done))
        self._stop.wake()

    def _took_slice(self, walk: FolderWalk, slice_found: list[tuple[Found, Spreadsheets | None]],
                    done: bool | str, now: datetime) -> None:
        """A slice of the search taken in: a config found joins (one saved since its last record, or damaged, is
        looked at first); once the search ends, a match it did not find leaves. The first search's end is said in
        one line. ``done``: whether the search ended (or what broke it: said; no match leaves then)."""
        first = self.searched_at is None
        for found, sheets in slice_found:
            self._walked.add(found.path)
            if found.path not in self.matches:
                self._join(found.path, now, found, say=not first, sheets=sheets)
                self._first_saved += first and found.saved_since and not found.damaged
            elif found.saved_since:  # its folder changed after the walk passed it: a save, as a file event says
                self._hurry(self.matches[found.path], now, CHANGED)
        if not done:
            return
        self._walk, self._search_cpu = None, walk.cpu
        if self.events is not None:  # the file watches put once the first search ends, beside the loop: not while
            self.events.start_beside(self.say)  # the saves waiting at a start are answered (0.65 CPU s at 10,000)
        if isinstance(done, str):
            self.say(f"The search of the folders broke off ({done}); searched again in "
                     f"{int(self._search_every().total_seconds())} s.")
            self.searched_at = self.searched_at or now
            return
        for path in sorted(self.matches.keys() - self._walked):
            if not looks_like_match(path):  # (one an event brought after the search passed its folder stays)
                self._drop(path)
        self.accounts.drop_idle()
        if first:
            self.searched_at = now
            self._where_found = {}  # (the search found every match: the places are known now)
            self.accounts.forget_unclaimed()
            self._said_search(now, walk.folders)
        self._check_events(now, walk.listed)

    def _check_events(self, now: datetime, listed: dict[Path, int]) -> None:
        """After a search: when the file events no longer cover the folders (the system's watches ran out), say so
        once, and look at every local match every interval, as without events."""
        said = self.events.check(listed) if self.events is not None else ""
        if not said:
            return
        self.say(said)
        for hosted in self.matches.values():
            if hosted.quiet:
                self._forget_quiet(hosted)
                if not hosted.running and hosted.path not in self._waiting:
                    self._plan(hosted, min(hosted.next_at, now + self.interval))

    def _said_search(self, now: datetime, folders: int) -> None:
        """The first search's one line: the matches found, those saved since their last record, the damaged."""
        damaged = sorted(h.shown for h in self.matches.values() if h.error)
        named = ", ".join(damaged[:10]) + (f" and {len(damaged) - 10} more" if len(damaged) > 10 else "")
        took = (now - (self.scanned_at or now)).total_seconds()
        self.say(f"Found {counted(len(self.matches), 'match', 'matches')} under {', '.join(map(str, self.folders))} "
                 f"({counted(folders, 'folder')} searched in {took:.1f} s); {self._first_saved} with a file newer "
                 "than their last poll's record, looked at first"
                 + (f"; {counted(len(damaged), 'config')} damaged, each named as it is tried: {named}"
                    if damaged else "") + ".")

    def _join(self, path: Path, now: datetime, found: Found | None = None, *, say: bool = True,
              sheets: Spreadsheets | Unread | None = UNREAD) -> None:
        """Host the match of the config ``path`` (found now; ``found``: what the search saw of it); a Google match
        is watched by its account from now on (``_watch_early``). One saved since its last record is looked at
        first, a damaged one tried at once (its poll names what is wrong; the status names it until then)."""
        if isinstance(sheets, Unread):  # (the search reads them beside the loop)
            sheets = _read_sheets(Found(path))
        game = sheets.ruleset if sheets is not None else ruleset_named(path)
        with self._listing:
            self.matches[path] = hosted = Hosted(path, self._shown(path), now, game=game)
            self._listed = None
        self._touched.add(path)
        self._left.discard(hosted.shown)
        if sheets is not None:
            self._watch_early(hosted, sheets, now)
        self._plan(hosted, now)
        if found is not None and found.damaged:
            hosted.error = f"{found.damaged}; its poll says what is wrong"
            self._hurry(hosted, now, DUE)
        elif found is None or found.saved_since:
            self._hurry(hosted, now, LATER)  # its look comes first; the look says how soon its poll starts
        self._by_folder.setdefault(path.parent, set()).add(path)  # an event there: a save, even before its first
        # poll (a cold start's changed match goes first)
        for folder in path.parents:
            if folder in self._above:
                break
            self._above.add(folder)
        if say:
            self.say(f"{self._shown(path)}: found; polled from now on.")
        self.changed = True

    def _search_every(self) -> timedelta:
        """How often the whole folders are searched: ``rescan`` when given; else ``SEARCH_WITH_EVENTS`` with the
        file events of every folder served (``_search_where``), ``DEFAULT_RESCAN`` without, or as seldom as keeps
        the search within ``SEARCH_SHARE`` of a core."""
        if self.rescan is not None:
            return self.rescan
        events = self.events
        covered = (events is not None and events.started and bool(events.trusted)
                   and len(events.trusted) == len(events.folders))
        every = SEARCH_WITH_EVENTS if covered else timedelta(seconds=DEFAULT_RESCAN)
        return max(every, timedelta(seconds=self._search_cpu / SEARCH_SHARE))

    def _search_where(self, folder: Path, now: datetime) -> None:
        """A file event in a folder of no match: a new match's files, perhaps (its config written, or its folder
        copied in). That folder alone is searched, unless it holds matches further down (a folder made in a served
        folder: the events of its own files name it)."""
        if folder in self._above or not any(f == folder or f in folder.parents for f in self._served()):
            return
        for found in FolderWalk([folder]).take(WALK_A_PASS):  # a slice at most: the search finds the rest
            if found.path not in self.matches:
                self._join(found.path, now, found)
                self._hurry(self.matches[found.path], now, CHANGED)

    def _served(self) -> list[Path]:
        return [f.resolve() for f in self.folders]

    def hosted_configs(self) -> tuple[Path, ...]:
        """The configs of the matches hosted now, sorted: the same tuple until a match comes or goes (the page
        server's threads ask for it at every request, beside the loop)."""
        with self._listing:
            if self._listed is None:
                self._listed = tuple(sorted(self.matches))
            return self._listed

    def _drop(self, path: Path) -> None:
        """Host the match of ``path`` no longer: its config is gone (the GM removed or moved its folder)."""
        with self._listing:
            hosted = self.matches.pop(path)
            self._listed = None
        self._touched.discard(path)
        self._left.add(hosted.shown)
        self.mail.drop(path)
        self._urgent.pop(path, None)
        self._waiting.pop(path, None)
        self._failing.discard(path)
        self._forget_quiet(hosted)
        self._by_folder.get(path.parent, set()).discard(path)
        for watcher in self.accounts.all():
            watcher.detach(path)
        self.say(f"{hosted.shown}: its config is gone; no longer polled.")
        self.changed = True
        self.accounts.drop_idle()

    def _shown(self, path: Path) -> str:
        """The match as the log and the status name it: its config's path from the folder served, which names its
        own folder too (``club/friday/match.toml``; a config served by itself, or right in a folder served, with
        that folder's name: never a bare ``match.toml``)."""
        return shown_name(path, self.folders)

    def _ask_drive(self, now: datetime) -> None:
        """The accounts whose moment came ask Drive, each on a thread of its own, as many at once as
        ``drive_turns`` allows (the named accounts first): one slow or hung account holds up its own matches, never
        the host or the other accounts. A question past ``DRIVE_DEADLINE`` is said once."""
        self.accounts.check_sign_ins(now)
        self._take_answers(now)
        for watcher in self.accounts.take_new():
            self._turns.plan(watcher, now)
        for name, began in self._turns.overdue(now):
            late = self.accounts.named(name)
            if late is not None:
                late.error = f"Drive has not answered for {int((now - began).total_seconds())} s"
                late.down_since = late.down_since or began
                self._read_from_sheets(late, now)
                self.changed = True
        for watcher in self._turns.take(now, self.accounts.serves):
            # An account's second question comes a share of the interval after its first, the share its name
            # draws (``phase``): the accounts a host found together ask at moments spread over the interval, not
            # a hundred at once every interval (a burst that delays the answer naming a save).
            watcher.lead = (self.interval * self.ask_share * phase(watcher.name) if watcher.asked_at is None
                            else timedelta(0))
            self.background(self._asker(watcher, now), f"sheets-gm-drive {watcher.name}")
        self._take_answers(now)

    def _next_ask(self, watcher: AccountWatcher, now: datetime) -> datetime:
        """When an account that asked Drive before asks it again (``_asks_every`` after its last question, less its
        ``lead`` once)."""
        assert watcher.asked_at is not None
        return watcher.asked_at + self._asks_every(watcher, now) - watcher.lead

    def _asks_every(self, watcher: AccountWatcher, now: datetime) -> timedelta:
        """How long after its last question an account asks Drive again: ``ask_share`` of the interval, or
        ``BUSY_SHARE`` of it for ``BUSY_FOR`` after its change log named a player's save (the shorter of the two)."""
        busy = watcher.busy_until is not None and now < watcher.busy_until
        return self.interval * (min(BUSY_SHARE, self.ask_share) if busy else self.ask_share)

    def _asker(self, watcher: AccountWatcher, now: datetime) -> Callable[[], None]:
        def ask() -> None:
            touched: Touched = {}
            try:
                touched = watcher.ask(now)
            finally:
                self._answers.put((watcher, touched))
                if touched or self._turns.held:  # a save to answer, or an account waiting for the place: the loop
                    self._stop.wake()  # takes it now (an answer naming none, at its next pass)
        return ask

    def _take_answers(self, now: datetime) -> None:
        for asked, touched in drained(self._answers):
            name = asked.name
            self._turns.answered(name)
            joined = self._join_named(asked, now)
            if name in self._first_askers:  # its first answer: the saves it names are polled before the search
                self._first_askers.discard(name)
                self._named_first.update(path for path in [*touched, *joined] if path in self.matches
                                         and touched.get(path, self._watched_rank(path)) == CHANGED)
            watcher = self.accounts.named(name)
            if watcher is not None and watcher.identity is not None and watcher.name == name:
                self.accounts.identified(watcher, now)  # a GM's sign-in file: its matches go to its account's
            if watcher is not None and CHANGED in touched.values():  # a player's save (not our own writes alone)
                watcher.busy_until = now + BUSY_FOR
            for path, rank in touched.items():
                hosted = self.matches.get(path)
                if hosted is not None and not hosted.failures and not hosted.running:  # a poll under way: the
                    self._hurry(hosted, now, rank)  # watcher still names it when it ends (``_took``)
            for line in drained(watcher.said) if watcher is not None else ():
                self.say(f"Account {name}: {line}")
            if watcher is not None and watcher.error and watcher.error != watcher.said_error:
                self.say(f"Account {watcher.name}: Drive did not answer ({watcher.error}); asked again in "
                         f"{self._asks_every(watcher, now).total_seconds():g} s.")
            if watcher is not None:
                self._drive_answers(watcher, now)
            if watcher is not None and (touched or watcher.error != watcher.said_error):
                self.changed = True
            if watcher is not None:
                watcher.said_error = watcher.error
            if self.accounts.serves(asked):  # its next question (a GM's file Drive named: its account's asks)
                self._turns.plan(asked, self._next_ask(asked, now))

    def _drive_answers(self, watcher: AccountWatcher, now: datetime) -> None:
        """After an account's question ended: Drive answered (its matches, read from Sheets alone meanwhile, go back
        to its change log: said), or not (failing since ``down_since``: past ``DRIVE_DEADLINE``, its matches are
        read from Sheets alone)."""
        if not watcher.error:
            if watcher.sheets_alone is not None:
                self.say(f"Account {watcher.name}: Drive answers again; its matches are watched through its change "
                         "log again.")
                self.changed = True
            watcher.down_since = watcher.sheets_alone = None
            return
        watcher.down_since = watcher.down_since or watcher.asked_at or now
        if now - watcher.down_since >= timedelta(seconds=DRIVE_DEADLINE):
            self._read_from_sheets(watcher, now)

    def _read_from_sheets(self, watcher: AccountWatcher, now: datetime) -> None:
        """The account's Drive has not answered for ``DRIVE_DEADLINE``: its matches are read from Sheets alone from
        now on (every spreadsheet, each at once, then every ``SHEETS_ALONE_EVERY``; their polls ask Drive nothing),
        until it answers. Said once; the status says it while it lasts."""
        if watcher.sheets_alone is not None:
            return
        watcher.sheets_alone = now
        waited = int((now - (watcher.down_since or now)).total_seconds())
        paths = [path for path in watcher.paths() if path in self.matches]
        why = "" if watcher.error.startswith("Drive has not answered") else f" ({watcher.error})"
        self.say(f"Account {watcher.name}: Drive has not answered for {waited} s{why}; its "
                 f"{counted(len(paths), 'match', 'matches')} are read from Sheets alone, every spreadsheet, each "
                 f"about every {SHEETS_ALONE_EVERY.total_seconds():g} s, until it answers; the other accounts go on.")
        for path in paths:
            hosted = self.matches[path]
            if not hosted.running and not hosted.failures:
                self._hurry(hosted, now, DUE)

    def _take_events(self, now: datetime) -> None:
        """A file event in a local match's folder (or a folder of its own under it): look at it now and before
        the matches no event named (the look is the idle decision; for a match not polled yet in this host, a
        save no record could tell of); one whose poll is under way is looked at again as soon as it ends."""
        if self.events is None:
            return
        for folder in self.events.take():
            wheres = (folder, *folder.parents[:2])  # a workbook in a folder of the match's own (gm/…)
            if not any(where in self._by_folder for where in wheres):
                self._search_where(folder, now)
            for where in wheres:
                self._stir(list(self._by_folder.get(where, ())), now)

    def _take_swept(self, now: datetime) -> None:
        """The sweep's slice of this pass (``sweep``): a match whose own files were touched is looked at now, as a
        file event has it looked at."""
        self._stir(self._sweep.take(now), now)

    def _take_mail(self, now: datetime) -> None:
        """A judge's mailbox told of a new mail (``mail_watch``): its matches are looked at now, as a file event has
        them looked at; what the watches have to say is said."""
        woken, said = self.mail.take()
        for line in said:
            self.say(line)
        self._stir(woken, now)

    def _stir(self, paths: Iterable[Path], now: datetime) -> None:
        """Something told of a change in each of these matches: each is looked at now, first (one whose poll is
        under way, again as soon as it ends: the poll may have read its files before the change)."""
        for path in paths:
            hosted = self.matches.get(path)
            if hosted is None or hosted.failures:
                continue
            if hosted.running:
                hosted.stirred = True
            else:
                self._hurry(hosted, now, CHANGED)

    def _learn_quiet(self, hosted: Hosted) -> bool:
        """Whether the match may be looked at seldom: a local one whose files the events cover (noted by folder; learnt
        once after each poll) or, where they do not, whose last look found it idle (its own files then looked at by
        the sweep: ``sweep``), a Google one whose every spreadsheet Drive shows."""
        covered = self._covered(hosted)
        if not hosted.local or covered or hosted.seen is None:
            self._sweep.forget(hosted.path)
            return covered
        self._sweep.note(hosted.path, hosted.seen.files[:hosted.seen.own], hosted.seen.own_number)
        return True

    def _covered(self, hosted: Hosted) -> bool:
        """Whether the match may be looked at seldom by what tells of its changes: a local one whose files the events
        cover (noted by folder), a Google one whose every spreadsheet Drive shows. Learnt once after each poll (a
        local one again once the events are in place: they are put beside the first looks)."""
        if hosted.quiet is None:
            if hosted.local:
                files = kept_files(hosted.path)
                covered = self.events is not None and len(files) > 1 and self.events.covers(files)
                if not covered and self.events is not None and not self.events.started:
                    return False  # (not learnt: asked again at its next look)
                hosted.quiet = covered
                if hosted.quiet:
                    hosted.watched_in = tuple({file.parent for file in files} - {hosted.path.parent})
                    for folder in hosted.watched_in:
                        self._by_folder.setdefault(folder, set()).add(hosted.path)
            else:
                hosted.quiet = drive_quiet(hosted.path)
        return hosted.quiet

    def _stop_overdue(self, now: datetime) -> None:
        """A poll past its deadline is stopped (its process killed): its match is tried again later, as a failure."""
        kill = getattr(self.executor, "kill", None)
        for hosted in [self.matches[path] for path in self._polling]:
            if (hosted.running and hosted.future is not None and hosted.started_at is not None
                    and now - hosted.started_at >= self.poll_deadline and callable(kill) and kill(hosted.future)):
                self.say(f"{hosted.shown}: its poll overran its deadline ({self.poll_deadline.total_seconds():g} s) "
                         "and was stopped.")

    def _look(self, hosted: Hosted, now: datetime) -> bool:
        """Look at a match that is due: True when it needs a poll (or its letters sent), else look again later."""
        if now < hosted.next_at:
            return False
        if hosted.failures:
            need = Need(poll=True, why="trying again", rank=1)
        elif hosted.seen is not None and hosted.seen.holds(now):
            need = Need()  # nothing its last look depended on was touched (``seen``)
        elif self._sheets_alone_due(hosted, now):
            need = Need(poll=True, why="its account's Drive does not answer: read from Sheets alone", rank=DUE)
        elif hosted.config is None:
            need = self._noting_seen(hosted, now, functools.partial(self._first_need, hosted, now))
        elif hosted.local:
            need = self._noting_seen(hosted, now, functools.partial(local_need, hosted.path, now))
        else:
            watcher = self._watcher(hosted)
            changed = watcher is not None and watcher.changed(hosted.path)
            need = google_need(hosted.path, hosted.keys, changed, now, watched=watcher is not None,
                               rank=watcher.change_rank(hosted.path) if watcher is not None and changed else CHANGED)
            if not need.poll and watcher is not None and watcher.unanchored(hosted.path):
                need = Need(poll=True, why="its first poll in this host came before its account's watcher", rank=LATER)
        hosted.looked_at = now
        if need.poll or need.letters:
            hosted.letters_only, hosted.rank = not need.poll, min(hosted.rank, need.rank)
            return True
        self._plan(hosted, self._next_look(hosted, now, idle=True))
        return False

    def _sheets_alone_next(self, hosted: Hosted) -> datetime | None:
        """When a Google match whose account's Drive does not answer is read from Sheets alone next (None: its
        account's Drive answers): at once, then ``SHEETS_ALONE_EVERY`` after its last read."""
        watcher = self._watcher(hosted) if hosted.account else None
        if watcher is None or watcher.sheets_alone is None:
            return None
        read = hosted.read_at
        return watcher.sheets_alone if read is None or read < watcher.sheets_alone else read + SHEETS_ALONE_EVERY

    def _sheets_alone_due(self, hosted: Hosted, now: datetime) -> bool:
        """Whether the match is read from Sheets alone now (``_sheets_alone_next``)."""
        moment = self._sheets_alone_next(hosted)
        return moment is not None and moment <= now

    def _noting_seen(self, hosted: Hosted, now: datetime, look: Callable[[], Need]) -> Need:
        """A local match's ``look``; when it finds the match idle, what it depended on is noted (``seen``: the files'
        identity taken before it), so that the next look costs a ``stat`` a file where nothing was touched."""
        hosted.seen = None
        self._sweep.forget(hosted.path)
        if hosted.account:
            return look()  # a Google match's first look
        files, before, own, own_before = seen_before(hosted.path)
        need = look()
        state = need.idle.state if need.idle is not None else None
        if (state is None or need.poll or need.letters or look_files(hosted.path, tuple(state.files)) != files
                or asks_mail(hosted.path)):
            return need
        hosted.seen = Seen(files, before, idle_until(hosted.path, state, now), notices_moment(hosted.path), own,
                           own_before)
        return need

    def _first_need(self, hosted: Hosted, now: datetime) -> Need:
        """What a match not polled yet in this host needs (``quiet.first_need``). A Google match is watched by its
        account from then on (``_watch_early``); one its last poll read is judged, once its account's watcher
        compared those reads with Drive's file index, from that index and its record (``quiet.watched_need``):
        no poll of its own unless it changed or falls due."""
        need = self._watched_need(hosted, now) if hosted.account else first_need(hosted.path, now)
        if need.idle is not None:
            kept = need.idle.state
            hosted.line, hosted.warning = kept.summary, kept.warning
            hosted.deadline, hosted.finished, hosted.done = kept.deadline, kept.finished, "idle"
        return need

    def _watched_need(self, hosted: Hosted, now: datetime) -> Need:
        """A Google match watched before its first poll in this host: polled when Drive's file index could not
        tell whether it changed; otherwise judged as unchanged (``quiet.watched_need``) until the index, or the
        change log, names it (then its account's answer brings its look at once)."""
        watcher = self._watcher(hosted)
        told = None if watcher is None else watcher.index_told(hosted.path)
        if watcher is None or (told is None and not watcher.pending(hosted.path)):
            return Need(poll=True, why="not polled yet in this host", rank=LATER)
        return watched_need(hosted.path, hosted.keys, bool(told) or watcher.changed(hosted.path), now)

    def _watch_early(self, hosted: Hosted, sheets: Spreadsheets, now: datetime) -> None:
        """A Google match is watched by its account from the moment the host finds it, before its first look,
        from its config's spreadsheets and account alone (``read_spreadsheets``: no rules, no checks of every file,
        a fraction of ``load_config``): a save Drive's change log names then, or its file index since the match's
        last poll (``AccountWatcher``'s hints; for a match never polled, since the host found it), puts it first,
        ahead of a cold start's thousands of first looks, as a file event does a local match's."""
        if sheets.backend is not BackendKind.GOOGLE or (sheets.service_account is None
                                                         and not sheets.oauth_token.exists()):
            return  # a local match; or the GM never signed in here (its poll says so): no watcher to sign in
        hosted.account, hosted.keys = account_of(sheets), config_keys(sheets)
        since = last_read(hosted.path) or LastRead(now, {})
        watcher = self.accounts.watcher_for(sheets, now)
        watcher.attach(hosted.path, hosted.keys, since=since, sign_in=hosted.account)
        if watcher.changed(hosted.path):  # its account's log, asked from the kept token, listed a change of it
            self._hurry(hosted, now, watcher.change_rank(hosted.path))

    def _bound(self) -> int:
        """How many polls may run at once now: the workers, or ``CATCH_UP`` times them (local polls alone past the
        workers) while the first search goes on."""
        return self.workers * (CATCH_UP if self.searched_at is None else 1)

    def _start_polls(self, now: datetime) -> None:
        """Start the polls of the matches waiting for one as the workers allow: the changed matches first, then
        those due (a deadline, a retry), then the rest (a cold start's first polls); those left wait for a worker,
        not looked at again (an event or Drive naming one looks again, and may move it up)."""
        for hosted in self._startable():  # each started before the next is judged (its account's polls too)
            if self._stop.is_set():
                return  # stopping: no poll starts
            del self._waiting[hosted.path]
            self._submit(hosted, now)

    def _startable(self) -> Iterator[Hosted]:
        """The waiting matches whose polls may start now, in rank order, judged one at a time against the polls under
        way (``_start_polls`` starts each before it asks for the next; ``_until_next`` asks for one): none past the
        workers' bound, none of a first look while the first search goes on (the workers are kept for the saves and
        deadlines it finds), none past the workers unless it may catch up (``_may_catch_up``)."""
        free = self._bound() - len(self._polling)
        if not self._waiting or free <= 0:
            return
        if self.searched_at is not None:
            ranked = heapq.nsmallest(free, self._waiting.values(), key=_start_order)
        else:  # a start: every save and deadline (one may not catch up where the next may: ``_may_catch_up``); no
            # first look, which waits for the search's end (thousands of them, not sorted at each pass)
            ranked = sorted([h for h in self._waiting.values() if h.rank < LATER], key=_start_order)
        for hosted in ranked:
            if len(self._polling) >= self._bound():
                return
            if len(self._polling) >= self.workers and not self._may_catch_up(hosted):
                continue  # past the workers' bound (``CATCH_UP``)
            if hosted.rank > CHANGED and self._saves_first():
                return  # a place kept for a save the kept tokens name (our own writes read back after)
            yield hosted

    def _may_catch_up(self, hosted: Hosted) -> bool:
        """Whether the match's poll may start past the workers' bound while the first search goes on
        (``CATCH_UP``): a local match's; a Google match's when no poll of its account is under way (no account has
        more polls at once than the workers: its quota is spared as before)."""
        if hosted.local:
            return True
        watcher = self._watcher(hosted)
        return watcher is not None and all(self._watcher(self.matches[path]) is not watcher for path in self._polling)

    def _submit(self, hosted: Hosted, now: datetime) -> None:
        hosted.running, hosted.started_at, hosted.stirred = True, now, False
        path = hosted.path
        self._polling.add(path)
        watcher = self._watcher(hosted)
        handover = watcher.hand_over(path) if watcher is not None else None
        access = watcher.access_now() if watcher is not None else None  # no refresh in the poll

        def done(future: Future[Outcome]) -> None:
            if future.cancelled():
                return
            exc = future.exception()
            outcome = future.result() if exc is None else Outcome(Done.FAILED, f"{type(exc).__name__}: {exc}")
            self._done.put((path, outcome))
            self._stop.wake()

        hosted.future = self.executor.submit(VISIT, path, handover, self.clock, letters_only=hosted.letters_only,
                                             access=access)
        hosted.future.add_done_callback(done)

    def _next_look(self, hosted: Hosted, now: datetime, *, idle: bool = False) -> datetime:
        """An interval from now, or the deadline's second when it comes first; after an idle look at a match that
        may be looked at seldom (``_learn_quiet``), ``QUIET_LOOK`` from now, or its notices' moment when sooner."""
        later = now + self.interval
        if idle and self._learn_quiet(hosted):
            notices = hosted.seen.notices if hosted.seen is not None else notices_moment(hosted.path)
            later = max(later, min(now + QUIET_LOOK, notices if notices is not None else now + QUIET_LOOK))
        alone = self._sheets_alone_next(hosted)
        later = later if alone is None else max(now, min(later, alone))
        moment = None if hosted.finished else deadline_moment(hosted.deadline)
        return moment if moment is not None and now < moment < later else later

    def _take_outcomes(self, now: datetime) -> None:
        for path, outcome in drained(self._done):
            self.polls += 1
            hosted = self.matches.get(path)
            if hosted is not None:
                self._took(hosted, outcome, now)
                self.changed = True

    def _took(self, hosted: Hosted, outcome: Outcome, now: datetime) -> None:
        self._touched.add(hosted.path)
        hosted.running, hosted.future, hosted.started_at, hosted.rank, hosted.seen = False, None, None, 2, None
        self._polling.discard(hosted.path)
        self._forget_quiet(hosted)
        hosted.looked_at = now
        if outcome.config is not None:
            hosted.config = outcome.config
            self.mail.follow(hosted.path, outcome.config)
        if outcome.account or outcome.done not in (Done.FAILED, Done.HELD, Done.UNAVAILABLE):
            if hosted.account and outcome.account != hosted.account:  # its config names another account now
                old = self._watcher(hosted)
                if old is not None:
                    old.detach(hosted.path)
            hosted.account, hosted.keys = outcome.account, outcome.keys
            if outcome.account and outcome.config is not None:
                self.accounts.watcher_for(outcome.config, now).attach(hosted.path, outcome.keys,
                                                                      sign_in=outcome.account)
        if outcome.done in (Done.FAILED, Done.UNAVAILABLE):
            self._failed(hosted, outcome, now)
            return
        watcher = self._watcher(hosted)
        if watcher is not None and outcome.done not in (Done.HELD, Done.OPEN, Done.LETTERS):
            watcher.polled(hosted.path)
        if hosted.failures:
            self.say(f"{hosted.shown}: polled again after {counted(hosted.failures, 'failure')}.")
        hosted.failures, hosted.error, hosted.retry_at, hosted.failed_stamp = 0, "", None, None
        self._failing.discard(hosted.path)
        hosted.done = outcome.done.value
        if outcome.notices:
            self.say(f"{hosted.shown}: {outcome.notices}")
        if outcome.done is Done.HELD:
            hosted.line = outcome.line
            self._plan(hosted, now + self.interval)
            return
        if outcome.done is Done.OPEN:
            if outcome.line not in hosted.said:
                hosted.said.add(outcome.line)
                self.say(f"{hosted.shown}: nothing synced: {outcome.line}")
            hosted.line = outcome.line
            self._plan(hosted, now + self.interval)
            return
        hosted.said.clear()
        if outcome.done is not Done.LETTERS:
            hosted.line, hosted.deadline, hosted.finished = outcome.line, outcome.deadline, outcome.finished
        if outcome.done in (Done.READ, Done.RESOLVED):
            hosted.read_at = now
        if outcome.warning and outcome.warning != hosted.warning:
            self.say(f"{hosted.shown}: {outcome.warning}")
        hosted.warning = outcome.warning
        if outcome.done is Done.RESOLVED:
            self.resolutions += 1
            self.say(f"{hosted.shown}: {outcome.line}")
        saved_meanwhile = watcher is not None and watcher.changed(hosted.path)  # Drive listed it during the poll
        if saved_meanwhile or hosted.stirred:  # a save the poll may have missed: looked at now, first
            self._hurry(hosted, now, CHANGED)
        elif outcome.done is Done.RESOLVED:  # its next window may be due already
            self._hurry(hosted, now, LATER)
        else:
            self._plan(hosted, self._next_look(hosted, now))
        hosted.stirred = False

    # -- what a pass looks at ----------------------------------------------------------------------------------

    def _plan(self, hosted: Hosted, when: datetime) -> None:
        """Look at the match at ``when`` (no sooner, unless an event or Drive names it)."""
        hosted.next_at = when
        heapq.heappush(self._moments, (when, next(self._order), hosted.path))

    def _hurry(self, hosted: Hosted, now: datetime, rank: int) -> None:
        """Look at the match at the next pass, before the matches only their moment brings (``rank``: how soon its
        poll starts, if it needs one)."""
        hosted.next_at, hosted.rank = min(hosted.next_at, now), min(hosted.rank, rank)
        self._urgent[hosted.path] = None

    def _planned(self, entry: tuple[datetime, int, Path]) -> Hosted | None:
        """The match an entry of the moments stands for, unless it was planned again since, or is waiting for a
        worker or polled (then it is no longer looked at by its moment)."""
        when, _, path = entry
        hosted = self.matches.get(path)
        if hosted is None or hosted.next_at != when or hosted.running or path in self._waiting:
            return None
        return hosted

    def _soonest(self) -> datetime | None:
        """The next moment a match falls due (the entries left behind at the top are dropped)."""
        while self._moments and self._planned(self._moments[0]) is None:
            heapq.heappop(self._moments)
        return self._moments[0][0] if self._moments else None

    def _look_at(self, due: list[Hosted], now: datetime) -> None:
        """Look at each of ``due``: one that needs a poll waits for a worker, the others are planned again."""
        for hosted in due:
            if self._stop.is_set():
                return  # stopping: no poll starts
            if self._look(hosted, now):
                self._waiting[hosted.path] = hosted
            else:
                self._waiting.pop(hosted.path, None)

    def _due(self, now: datetime, *, moments: bool = True) -> list[Hosted]:
        """The matches to look at in this pass: those an event or Drive named, then those whose moment came, by
        moment unless ``moments`` is False (at most ``LOOKS_A_PASS`` of them: a pass ends within a fraction of a
        second, and the loop, Drive's answers and the watchdog turn). Never a pass over every match."""
        due = [h for path in self._urgent if (h := self.matches.get(path)) is not None and not h.running]
        self._urgent.clear()
        looks = 0
        while moments and looks < LOOKS_A_PASS and self._moments and self._moments[0][0] <= now:
            hosted = self._planned(heapq.heappop(self._moments))
            if hosted is not None:
                due.append(hosted)
                looks += 1
        return list({h.path: h for h in due}.values())

    def _check_failing(self, now: datetime) -> None:
        """A failed match whose config the GM changed is tried now."""
        for path in list(self._failing):
            hosted = self.matches.get(path)
            if hosted is not None and not hosted.running and _stamp(path) != hosted.failed_stamp:
                self._hurry(hosted, now, DUE)

    def _watcher(self, hosted: Hosted) -> AccountWatcher | None:
        """The watcher of a Google match's account (None: a local match, or no account read yet)."""
        if not hosted.account:
            return None
        return self.accounts.named(hosted.account)

    def _forget_quiet(self, hosted: Hosted) -> None:
        """After a poll, what covers the match is learnt again (its files may have changed)."""
        hosted.quiet = None
        self._sweep.forget(hosted.path)
        for folder in hosted.watched_in:
            self._by_folder.get(folder, set()).discard(hosted.path)
        hosted.watched_in = ()

    def _failed(self, hosted: Hosted, outcome: Outcome, now: datetime) -> None:
        if not hosted.path.exists():  # removed between two searches: gone, not a failure to retry
            self._drop(hosted.path)
            return
        hosted.failures += 1
        wait = retry_wait(hosted.failures)
        hosted.retry_at = now + wait
        self._plan(hosted, hosted.retry_at)
        hosted.failed_stamp = _stamp(hosted.path)
        self._failing.add(hosted.path)
        hosted.done = outcome.done.value
        if outcome.line != hosted.error:
            self.say(f"{hosted.shown}: {outcome.line} (failure {hosted.failures}; tried again in "
                     f"{int(wait.total_seconds())} s, or as soon as its config changes)")
            if outcome.trace:
                self.say(outcome.trace.rstrip())
        hosted.error = outcome.line

    def _until_next(self, now: datetime) -> float:
        if self._slice_due() or self._urgent or next(self._startable(), None) is not None:
            return 0.0  # (a match waiting that cannot start yet waits for a poll's end, which wakes the loop)
        moments = [] if self._soonest() is None else [self._moments[0][0]]
        asks = self._turns.soonest()
        moments += [] if asks is None else [asks]
        if self.scanned_at is not None:
            moments.append(self.scanned_at + self._search_every())
        return max(0.0, (min(moments, default=now + self.interval) - now).total_seconds())

    # -- the status -----------------------------------------------------------------------------------------

    def status(self, now: datetime, *, running: bool = True, every: bool = True) -> HostStatus:
        """The host as the status file says it: every match (``every``), or those whose record changed since the
        file of every match was written, those failing and those being polled (with the count by state and the
        matches that left since)."""
        counts: dict[str, int] = {}
        shown = []
        local = self.searched_at is None and self._local_before  # (until the first search ends: the last run's too)
        for hosted in self.matches.values():
            state = self._state(hosted)
            counts[state] = counts.get(state, 0) + 1
            local = local or hosted.local
            if every or hosted.error or hosted.running or hosted.path in self._touched:
                shown.append(hosted)
        accounts = [AccountStatus(w.name, _iso(w.asked_at), w.requests, w.matches, w.error, _iso(w.sheets_alone))
                    for w in sorted(self.accounts.all(), key=lambda w: w.name)]
        return HostStatus(os.getpid(), [str(f) for f in self.folders], _iso(self.started), _iso(now),
                          self.interval.total_seconds(), self.workers, running,
                          [self._match_status(h) for h in sorted(shown, key=lambda h: h.shown)], accounts,
                          counts, [] if every else sorted(self._left), self._games(), local)

    def _games(self) -> list[str]:
        """The games the matches hosted play; until the first search ends, with the last run's (its status
        file's): the polls' server of the next start imports these games alone (``commands.serve``)."""
        games = {h.config.ruleset if h.config else h.game for h in self.matches.values()}
        if self.searched_at is None:
            games.update(self._games_before)
        return sorted(games - {""})

    @staticmethod
    def _state(hosted: Hosted) -> str:
        return "over" if hosted.finished and not hosted.error else "polling" if hosted.running else hosted.done

    def _match_status(self, h: Hosted) -> MatchStatus:
        return MatchStatus(
            config=h.shown, game=h.config.ruleset if h.config else h.game,
            where="local" if h.local and (h.config is not None or h.done == "idle") else h.account,
            state=self._state(h), looked_at=_iso(h.looked_at), read_at=_iso(h.read_at), line=h.line,
            deadline=h.deadline, error=h.error, failures=h.failures, retry_at=_iso(h.retry_at))

    def _write_status(self, now: datetime, *, running: bool = True) -> None:
        """The status file: a second at the soonest after a change, else every ``STATUS_EVERY``; the file of every
        match every ``STATUS_ALL_EVERY``, once ``STATUS_CHANGED`` matches changed, and when the host stops (it names
        every match: 10,000 of them rewritten every 10 s cost 15–22 GB of writes a day)."""
        if running and self.status_at is not None:
            since = now - self.status_at
            if since < max(self.interval, STATUS_EVERY) and not (self.changed and since >= timedelta(seconds=1)):
                return
        self.status_at, self.changed = now, False
        every = (not running or self.listed_at is None or now - self.listed_at >= STATUS_ALL_EVERY
                 or len(self._touched) >= STATUS_CHANGED)
        try:
            if every:
                write_matches(self.status_file, self.status(now, running=running).matches)
                self.listed_at = now
                self._touched.clear()
                self._left.clear()
            write_status(self.status_file, self.status(now, running=running, every=False))
        except OSError as exc:
            self.say(f"The status file {self.status_file} cannot be written: {exc}")
        self._keep_tokens(now, stopping=not running)

    def _keep_where(self, now: datetime, *, stopping: bool) -> None:
        """Where each account's matches are (``drive_tokens.Where``), for the next start: once the first search
        ended (a partial search would forget the rest), at most every ``STATUS_EVERY``, and as the host stops;
        written when it changed."""
        if self.searched_at is None or (not stopping and now - self._where_at < STATUS_EVERY):
            return
        self._where_at = now
        where: Where = {}
        for hosted in self.matches.values():
            watcher = self._watcher(hosted) if hosted.keys else None
            if watcher is not None:
                where.setdefault(watcher.name, {}).update(dict.fromkeys(hosted.keys, str(hosted.path)))
        text = where_text(where)
        digest = text_digest(text)
        if digest != self._where_kept and self._write_kept(self._where_file, functools.partial(write_where, text=text),
                                                            "Where the accounts' matches are"):
            self._where_kept = digest

    def _keep_tokens(self, now: datetime, *, stopping: bool) -> None:
        """Each account's change-log token for the next start (``drive_tokens``), when one moved: at most every
        ``STATUS_EVERY`` (a token kept a minute old only names a few more changes at the next start), and as the
        host stops."""
        if not stopping and now - self._tokens_at < STATUS_EVERY:
            return
        self._keep_where(now, stopping=stopping)
        named = self.accounts.sign_ins_named()
        if named != self._sign_ins_kept and self._write_kept(
                self._sign_ins_file, functools.partial(write_sign_ins, named=named),
                "What Drive named the GMs' sign-in files"):
            self._sign_ins_kept = named
        access = self.accounts.kept_access()
        if access != self._access_kept and self._write_kept(
                self._access_file, functools.partial(write_access, access=access), "The accounts' access tokens"):
            self._access_kept = access
        tokens = self.accounts.kept_tokens()
        if tokens != self._tokens_kept and self._write_kept(
                self._tokens_file, functools.partial(write_tokens, tokens=tokens), "The accounts' change-log tokens"):
            self._tokens_kept, self._tokens_at = tokens, now

    def _write_kept(self, path: Path, write: Callable[[Path], None], what: str) -> bool:
        """Write ``path``, a file the next start reads (``write``): False when it cannot be, said (naming ``what`` it
        keeps and why: a full disk, the folder's rights)."""
        try:
            write(path)
        except OSError as exc:
            self.say(f"{what} cannot be kept in {path}: {exc}")
            return False
        return True


def _iso(moment: datetime | None) -> str:
    return "" if moment is None else moment.isoformat(timespec="seconds")
