"""``sheets-gm serve FOLDER…``: every match under the folders, from one long-running process (``host``);
``serve --status FOLDER…``: what that process says it is doing."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, nullcontext
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from sheets_gm.commands import base
from sheets_gm.commands.base import UsageError, UserError, command, seconds, whole_number
from sheets_gm.host.defaults import (
    DEFAULT_INTERVAL,
    DEFAULT_POLL_DEADLINE,
    DEFAULT_RESCAN,
    DEFAULT_WORKERS,
    SEARCH_WITH_EVENTS,
)
from sheets_gm.host.file_events import FileEvents
from sheets_gm.host.outcome import VISIT
from sheets_gm.host.processes import PollProcesses
from sheets_gm.host.status import (
    SHOWN_ALL,
    last_accounts,
    last_games,
    last_local,
    read_status,
    status_lines,
    status_path,
)
from sheets_gm.host.systemd import Watchdog
from sheets_gm.sync.lock import SyncBusyError, match_lock

if TYPE_CHECKING:
    from sheets_gm.host.scheduler import Stop



def _say(line: str) -> None:
    print(line, flush=True)


@contextmanager
def stop_on_signals(stop: Stop) -> Iterator[None]:
    """SIGTERM (``systemctl stop``) and Ctrl-C set ``stop``: the host lets the polls under way finish (a minute at
    most: a hung one is stopped) and stops. A second one stops at once (a resolution cut short is completed by the
    next start, from its journal)."""
    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        _say(f"{signal.Signals(signum).name}: stopping after the polls under way (again: stop at once).")
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


#: What a Google match's poll imports beyond a local one's: its change log as its account's watcher hands it over,
#: with Google's client (0.25 CPU s, a fifth of the server's imports), and its sign-in; then what a poll that reads
#: imports on its way (Drive's gate, the Sheets backend, and the ``netrc`` module ``requests`` reads at each
#: request): without them every Google poll that answered a save imported ten modules of its own, 0.07 of its
#: 0.17 CPU s.
GOOGLE_POLL_PATH = ("sheets_gm.host.shared_log", "sheets_gm.running.google_sign_in", "sheets_gm.poll_gate.drive",
                    "sheets_gm.sheets.google.backend", "netrc")


#: What a local match's poll imports beyond a Google one's: the workbooks' backend, with ``openpyxl``.
LOCAL_POLL_PATH = ("sheets_gm.sheets.local.backend",)


def poll_preload(google: bool = True, games: list[str] | None = None, local: bool = True) -> list[str]:
    """What the server the polls are forked from imports once (``host.processes``), beside the host's own imports:
    a poll's whole path and the rules of ``games`` (None: every game's), which each poll that reads a match would
    import again (0.1 CPU s a poll; 0.5 s once for the five games), with ``google`` a Google match's own
    (``GOOGLE_POLL_PATH``), with ``local`` the local workbooks' backend and its library (``openpyxl``: 0.2 CPU s, which
    a Google match's poll never imports), then what every poll would build again (``host.poll_server``, named: it
    builds as it is imported, in the server alone, for the games and backends imported before it)."""
    from sheets_gm.rulesets.registry import GAMES

    played = [GAMES[g] for g in sorted(set(games or GAMES)) if g in GAMES] or list(GAMES.values())
    return [VISIT.module, *(GOOGLE_POLL_PATH if google else ()), *(LOCAL_POLL_PATH if local or not google else ()),
            *(target.partition(":")[0] for target in played), "sheets_gm.host.poll_server"]


def serves_google(where: Path) -> bool:
    """Whether the polls' server of the host whose status file is ``where`` loads Google's client: unless its last
    run served no Google match (its status named no account). A restart of a host of local matches alone answers
    its first saves that much sooner; a Google match added since is polled all the same, its polls loading the
    client themselves until the next start."""
    accounts = last_accounts(where)
    return accounts is None or bool(accounts)


def watches_at_start(where: Path) -> bool:
    """Whether the host whose status file is ``where`` puts its file watches at its start: when its last run served
    no Google account (a host of local matches alone: its saves typed after the start are watched the sooner).
    Otherwise the host puts them when its first search ends (``Host``): 0.65 CPU s at 10,000 matches, which would
    delay the Google accounts' first questions and the saves their change logs name, answered first."""
    return last_accounts(where) == []


def run_serve(args: argparse.Namespace) -> int:
    """Run every match under the folders until SIGTERM, or print the running host's status (``--status``)."""
    folders = [Path(f) for f in args.folders]
    missing = [str(f) for f in folders if not f.exists()]
    if missing:
        raise UsageError(f"no such folder: {', '.join(missing)} (serve takes the folders its match configs are "
                         "under, or the configs themselves)")
    if args.web:
        _web_address(args.web)  # a typo said before anything starts
    where = Path(args.status_file) if args.status_file else status_path(folders)
    if (args.match is not None or args.failing or args.all) and not args.status:
        raise UsageError("--match, --failing and --all choose what serve --status prints: give --status with them")
    if args.status:
        status = read_status(where)
        if status is None:
            raise UserError(f"no status of sheets-gm serve at {where}: is it running for these folders? (start it "
                            "with sheets-gm serve FOLDER…, or name its file with --status-file)")
        print("\n".join(status_lines(status, base.clock(), match=args.match or "", failing=args.failing,
                                      every=args.all)))
        return 0
    with ExitStack() as held:
        try:
            held.enter_context(match_lock(where.with_name(where.name + ".lock"), wait_seconds=0))
        except SyncBusyError:
            running = read_status(where)
            who = f" (process {running.pid})" if running is not None else ""
            raise UserError(f"sheets-gm serve is already running{who} with the status file {where}: one host "
                            "serves these folders (`sheets-gm serve --status` says what it does); stop it first "
                            "(systemctl stop, or SIGTERM), or give this one folders of its own") from None
        pool = PollProcesses(preload=poll_preload(google=serves_google(where), games=last_games(where),
                                                  local=last_local(where)))
        pool.start()  # its imports beside the host's own (a second core): the saves waiting are polled sooner;
        # the games the last run's matches played alone (a game new since: its polls import it, until a restart),
        # the local workbooks' library where it served a local match (a new one's polls import it, until a restart)
        return _serve(args, folders, where, pool)


def _web_address(address: str) -> tuple[str, int]:
    """The host and port ``--web`` names (a usage error saying what is accepted when it names none)."""
    from sheets_gm.web.server import AddressError, parse_address

    try:
        return parse_address(address)
    except AddressError as exc:
        raise UsageError(f"--web {address}: {exc}") from None


@contextmanager
def _pages_served(address: str, configs: Callable[[], Sequence[Path]],
                  settled: Callable[[], bool] = lambda: True) -> Iterator[None]:
    """The pages of the matches ``configs`` lists (the host's: those it serves; ``settled``: once it lists every
    match) served at ``address`` while the host runs (``web.server``); each match's address stays its own
    (``running.page.PageIndex``)."""
    from sheets_gm.running.page import PageIndex
    from sheets_gm.web.server import start_page_server

    try:
        server = start_page_server(_web_address(address), PageIndex(configs, settled=settled))
    except OSError as exc:
        raise UsageError(f"--web {address}: {exc}") from None
    host, port = server.server_address[:2]
    _say(f"The match pages: http://{host!s}:{port}/ (GET and HEAD only).")
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


def _serve(args: argparse.Namespace, folders: list[Path], where: Path, pool: PollProcesses) -> int:
    """Run the host until SIGTERM (its status file's lock held by the caller): each poll in a process of its own
    from ``pool`` (``host.processes``), systemd told that the host lives (``host.systemd``). The host's modules are
    imported here, once the pool's server imports its own beside them."""
    from sheets_gm.host.scheduler import CATCH_UP, Host, Stop

    stop = Stop()
    events = FileEvents(folders)  # its watches put on every folder beside the loop (see ``watches_at_start``)
    if watches_at_start(where):
        events.start_beside(_say)
    host = Host(folders, pool, clock=base.clock, say=_say, status_file=where, interval=args.interval,
                rescan=args.rescan, workers=args.workers, poll_deadline=args.poll_deadline, events=events)
    pages = _pages_served(args.web, host.hosted_configs, lambda: host.searched_at is not None) if args.web \
        else nullcontext()
    watchdog = Watchdog()
    try:
        with pages:
            _say(f"sheets-gm serve: matches under {', '.join(map(str, folders))}, a look every {args.interval:g} s, "
                 f"{args.workers} polls at once ({args.workers * CATCH_UP} until the folders are searched, one a "
                 f"Google account past {args.workers}: the saves typed meanwhile first), each in a process of its own "
                 f"stopped after {args.poll_deadline:g} s; status in {where} (sheets-gm serve --status).")
            watchdog.notify("READY=1")
            with stop_on_signals(stop):
                try:
                    host.run(stop, alive=watchdog.ping)
                except KeyboardInterrupt:
                    print("Stopped at once.", file=sys.stderr)
                    return 130
                finally:
                    watchdog.notify("STOPPING=1")
    finally:
        events.stop()
    return 0


def register(sub: object) -> None:
    """Add ``serve`` to the command line."""
    p = command(sub, "serve", run_serve, "run every match under the folders from one process (a service)",
                "Find every match config under the folders (again every minute: matches come and go) and run them "
                "all from this one process: a player's save is answered within the interval, a deadline fires at "
                "its second, one Drive request an interval serves every match of a Google account, and a match "
                "that fails is retried with growing waits while the others go on. Cron, sync, resolve, undo and "
                "the other commands still work on any match meanwhile (serve skips a match they hold). Stops "
                "cleanly on SIGTERM; scripts/sheets-gm-serve.service runs it under systemd.",
                "sheets-gm serve ~/matches      (and: sheets-gm serve --status ~/matches)")
    p.add_argument("folders", nargs="+", metavar="FOLDER", help="folders the match configs are under (or configs)")
    p.add_argument("--status", action="store_true", help="print what the running serve says it is doing, and exit: "
                   "the host, its accounts, the count of matches by state and what fails; every match when there are "
                   f"at most {SHOWN_ALL}")
    p.add_argument("--match", metavar="TEXT", help="with --status: the matches whose config's path holds TEXT")
    p.add_argument("--failing", action="store_true", help="with --status: what fails alone, no other match")
    p.add_argument("--all", action="store_true", help="with --status: every match, however many")
    p.add_argument("--interval", type=seconds("--interval", 1, 3600), default=DEFAULT_INTERVAL, metavar="S",
                   help=f"seconds between two looks at a match (default {DEFAULT_INTERVAL:g}); each Google "
                   "account's change log is asked every three quarters of it")
    p.add_argument("--workers", type=whole_number("--workers", 1, 64), default=DEFAULT_WORKERS, metavar="N",
                   help=f"matches polled side by side (default {DEFAULT_WORKERS}); at a start, until the folders "
                   "are searched, twice as many local matches, so the saves typed while it was down go first")
    p.add_argument("--poll-deadline", type=seconds("--poll-deadline", 10, 3600), default=DEFAULT_POLL_DEADLINE,
                   metavar="S", help="seconds a poll may take before it is stopped and its match tried again later "
                   f"(default {DEFAULT_POLL_DEADLINE:g})")
    p.add_argument("--rescan", type=seconds("--rescan", 1, 3600), default=None, metavar="S",
                   help=f"seconds between two searches of the folders for new matches (default {DEFAULT_RESCAN:g}; "
                        f"{SEARCH_WITH_EVENTS.total_seconds():g} when the system's file events cover every folder: "
                        "a new match is then found by its files' events)")
    p.add_argument("--web", metavar="ADDRESS",
                   help="also serve every match's page (its [sheets] web folder) at ADDRESS: 8080, or HOST:PORT "
                        "(0.0.0.0:8080 for other machines); an index of matches, then each match")
    p.add_argument("--status-file", metavar="PATH",
                   help="where the status is kept (default: .sheets-gm/serve-status.json in the first folder)")
