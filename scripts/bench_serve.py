"""``sheets-gm serve`` against today's cron, in one run: N local matches of mixed games and N on the fake Google
spread over ten accounts, on this machine. Prints its figures; exits 0 (the goals are printed beside them).

Set-up: one local match of each of four games (GvG, Wesnoth, Coalition, Champions) is made with ``init`` and
copied N/4 times; one GvG match is made on the fake Google with ``init``, and its four spreadsheets are copied
N times on the fake, their configs spread over ten service accounts. The fake runs in this process (behind a
lock: the host's workers call it from their threads), so its own work counts in the host's CPU.

The host is the real one (``host.Host``) on a real clock, a real thread pool and the interval given.
Figures, each beside today's cron (one ``sheets-gm sync --quiet`` process a match a minute):

- idle CPU of the whole host over ``--idle`` seconds, as a share of one core; cron's: the CPU of an idle local
  ``sync`` process (measured, a sample) times the local matches, plus, for each Google match, that of a process
  that imports Google's client (measured) and makes the idle gated poll (measured here, in process);
- the answer to a save (a player types orders, not Ready): seconds from the end of the save's write to the end of
  the first poll handed to a worker after the write began (a poll begun before the save did not read it), median
  and 95th percentile over ``--saves`` saves at random moments, half local and half Google (with
  ``--idle-local``, also the host's part: until that poll was handed to a worker);
  cron's: the wait for the next minute (uniform, so its 95th percentile is 57 s) plus a poll that reads
  (measured);
- Drive requests a minute per account while idle (every Drive endpoint, counted on the fake per account);
  cron's: one change-log request per match a minute (measured on one account's matches, in process);
- memory an idle match costs the host: its resident memory after it took the matches in, less before, by match;
- windows resolved a minute when every seat of every match is Ready: every match's orders typed, a fresh host
  started, the time until each has resolved; cron's: ``--cron-sample`` local ``sync`` processes started at
  once (as cron starts them at the minute), the time until all are done.

    .venv/bin/python scripts/bench_serve.py [--matches N] [--accounts 10] [--interval 10] [--idle 60]
                                            [--saves 20] [--workers 4] [--cron-sample 8] [--ready-sample M]
                                            [--seed S]
    .venv/bin/python scripts/bench_serve.py --idle-local N [--idle 120] [--saves 20] [--never-polled]
    .venv/bin/python scripts/bench_serve.py --idle-google N --accounts 100 [--idle 60] [--saves 20] [--late 30]

``--idle-local N``: a host on N local matches of all five games (Win or Die a practice match) polled before instead
(its first look, idle CPU and memory, saves);
``--never-polled`` then starts a host on the same matches with their records removed and times a save typed in the
last one as it starts (a cold start: changed matches first).

``--idle-google N``: a host restarted on N GvG matches on the fake polled before, over ``--accounts`` (one made
with ``init`` and polled by cron's ``sync`` until idle, the others its clones: their spreadsheets share its tabs
copy-on-write, their records are copies of its own, each record's last look at Drive's file index at a random
moment of the last 30 minutes): the restart's first look (one file-index question per account, no read a match)
and a save typed as it starts, idle CPU with the fake's part apart (the CPU spent inside its handlers), Drive
requests a minute per account, Sheets requests while idle, memory, saves at random moments; cron beside it. Then
the isolation run: one account's Drive change log ``--late`` seconds late and another account's Drive hung (each of
its requests held for the Google client's read timeout, then failed), the other accounts' saves beside the saves of
the same accounts without them (median, 95th percentile, the 20 % goal), with what shows whether the two held the
others up: the gaps between each other account's change-log questions, and the polls' own runs. A Google save's
answer is mostly its wait for its account's next question: each save of both samples is typed at a share of its
account's spacing before that question drawn at random, the same shares in both, so that the two differ by the host
alone.

``--serve-google N``: the real ``sheets-gm serve`` process on N GvG matches polled before, pointed at the fake Google
served over HTTP on 127.0.0.1 (``tests/fakes/google_http.py``): its idle CPU, Drive's questions a minute an account,
saves, a restart with saves waiting (``--rounds`` of them with each count of ``--busy`` processes spun beside, the
load they make given ``--settle`` seconds to rise, as ``--restart-local``'s). ``--isolation``: its saves in the
accounts but the first two, then as many with the first's change log ``--late`` seconds late and the second's Drive
hung, held by the server on the request's own thread. ``--oauth match|gm``: the matches played on ``--accounts``
GMs' own sign-ins (``drive.file``, spreadsheets made by sheets-gm), each saved in the match's folder (as ``doctor``
saves it) or one a GM (``oauth_token``); the idle figures are taken once Drive's ``about`` was asked of every file.

    .venv/bin/python scripts/bench_serve.py --serve-google N --accounts 100 [--idle 60] [--saves 20]
                                            [--isolation [--late 30]] [--oauth match|gm] [--busy 0,8 [--load 8]
                                            [--settle 180]] [--rounds 2] [--vs COMMIT] [--linger 20] [--trace]

``--first-start N``: the real ``serve`` on N local matches another host polled, moved to a folder of their own
before each start (``--plain-copy``: copied there by ``cp -r``), the first, middle and last in folder order saved
meanwhile, no status file: each save's answer from the spawn, in turn with ``--vs``'s serve, medians.

    .venv/bin/python scripts/bench_serve.py --first-start 10000 --vs main --rounds 3 --restart-limit 60

A restart's load is the one asked for: with ``--load L`` the 1-minute figure is awaited (as many processes again
spinning until it gets there; ``--busy 1,5 --load 2,8``: one target a count), and each restart prints the load
while its saves wait; with ``--vs`` the two trees
restart in turn, which goes first alternating round by round; ``--trace`` prints each restart's timeline.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import faulthandler
import gc
import importlib
import io
import itertools
import json
import math
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # for tests.fakes: the fake Google lives with the tests

import requests  # noqa: E402
from bench_typed import compiled  # noqa: E402  (each tree's modules compiled once, as an installed package's are)

import sheets_gm.sheets.google.signin as signin  # noqa: E402
from sheets_gm.cli import main as cli  # noqa: E402
from sheets_gm.engine.ruleset import JUDGE  # noqa: E402
from sheets_gm.host.file_events import FileEvents  # noqa: E402
from sheets_gm.host.polls import poll_behind_gate  # noqa: E402
from sheets_gm.host.scheduler import Host, Stop  # noqa: E402
from sheets_gm.match.config import BackendKind, MatchConfig, load_config  # noqa: E402
from sheets_gm.poll_gate.drive_due import SAFETY_NET  # noqa: E402
from sheets_gm.poll_gate.state import iso, load_state, save_state, state_path  # noqa: E402
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset  # noqa: E402
from sheets_gm.running.connect import open_match_sheets  # noqa: E402
from sheets_gm.sheets.google.signin import DEFAULT_TIMEOUT, SIGN_IN_SCOPES  # noqa: E402
from sheets_gm.sheets.marks import file_mark  # noqa: E402
from sheets_gm.sync.autoplay import type_bot_orders  # noqa: E402
from tests.fakes.google_api import (  # noqa: E402
    ABOUT,
    CHANGES,
    READ,
    START_TOKEN,
    TOKEN,
    TOKEN_URL,
    FakeSpreadsheet,
    GoogleApiFake,
    copied,
    settle_auth,
    write_service_account_key,
)

GAMES = ("gvg", "wesnoth", "coalition", "champions")
#: ``--idle-local``'s games: the four, and Win or Die as ``init winordie --practice`` makes it (its plain ``init``
#: wants a roster typed first; a practice match is a private match of the fewest seats against the game's bot).
IDLE_GAMES = (*GAMES, "winordie")
ROSTER = "name,team,role\nAnn,red,dps\nBen,red,tank\nCat,blue,dps\nDan,blue,healer\n"
GVG_CONFIG = ('ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n[sheets]\nbackend = "local"\n'
              'board = "board.xlsx"\nengine = "gm/engine.xlsx"\norders = { red = "orders-red.xlsx", '
              'blue = "orders-blue.xlsx" }\n')
ROLES = ("board", "engine", "red", "blue")


def now() -> datetime:
    return datetime.now(UTC)


def program() -> list[str]:
    """How cron starts a sync: the installed ``sheets-gm`` beside this Python, else ``python -m sheets_gm.cli``."""
    installed = Path(sys.executable).with_name("sheets-gm")
    return [str(installed)] if installed.exists() else [sys.executable, "-m", "sheets_gm.cli"]


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def kept_size(roots: list[Any]) -> int:
    """Bytes of the objects reachable from ``roots`` (not modules, classes or functions: what every match shares)."""
    seen: set[int] = set()
    stack, total = list(roots), 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType, types.MethodType)):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


# -- the matches ---------------------------------------------------------------------------------------------


def local_templates(root: Path, games: Sequence[str] = GAMES) -> list[Path]:
    """One local match per game, made with init (GvG from a roster, Win or Die as a practice match, the others
    from their starter configs)."""
    made = []
    for game in games:
        folder = root / f"template-{game}"
        folder.mkdir(parents=True)
        if game == "gvg":
            (folder / "roster.csv").write_text(ROSTER, encoding="utf-8")
            (folder / "match.toml").write_text(GVG_CONFIG, encoding="utf-8")
        practice = ["--practice"] if game == "winordie" else []
        subprocess.run([*program(), "init", game, *practice, "-c", "match.toml"], check=True, capture_output=True,
                       cwd=folder)
        made.append(folder)
    return made


def local_matches(root: Path, count: int) -> list[Path]:
    """``count`` local matches, the four games in turn, copied from their templates (the poll state left out)."""
    templates = local_templates(root / "templates")
    configs = []
    for i in range(count):
        folder = root / "local" / f"m{i:04d}"
        shutil.copytree(templates[i % len(templates)], folder, ignore=shutil.ignore_patterns(".sheets-gm"))
        configs.append(folder / "match.toml")
    return configs


def key(match: int, role: str) -> str:
    return f"1{role}_{match:04d}_bench_serve_".ljust(44, "0")


def google_config(keys: dict[str, str], key_file: Path) -> str:
    """A Google GvG match's config: its spreadsheets ``keys`` by role, opened with the service account ``key_file``."""
    return ('ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
            f'[sheets]\nbackend = "google"\nboard = "{keys["board"]}"\nengine = "{keys["engine"]}"\n'
            f'orders = {{ red = "{keys["red"]}", blue = "{keys["blue"]}" }}\n'
            f'[google]\nservice_account = "{key_file}"\n')


def google_matches(fake: GoogleApiFake, root: Path, count: int, accounts: int) -> list[Path]:
    """``count`` GvG matches on the fake, over ``accounts`` service accounts: one made with init, the others
    its copies (each of its spreadsheets copied on the fake under a key of its own)."""
    keys_of = [{role: key(i, role) for role in ROLES} for i in range(count)]
    for role in ROLES:
        fake.create_spreadsheet(keys_of[0][role], f"bench · {role}")
    PLAYER[:] = [write_service_account_key(root / "player.json", PLAYER_EMAIL)]
    key_files = []
    for a in range(accounts):
        key_files.append(write_service_account_key(root / f"account{a}.json",
                                                   f"bench{a}@sheets-gm-test.iam.gserviceaccount.com"))
    configs: list[Path] = []
    for i in range(count):
        folder = root / "google" / f"g{i:04d}"
        folder.mkdir(parents=True)
        (folder / "roster.csv").write_text(ROSTER, encoding="utf-8")
        k = keys_of[i]
        config = folder / "match.toml"
        config.write_text(google_config(k, key_files[i % accounts]), encoding="utf-8")
        if i == 0:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as said:
                if cli(["init", "gvg", "-c", str(config), "--no-share"]) != 0:
                    raise SystemExit(f"init on the fake failed: {said.getvalue()}")
        else:
            for role in ROLES:
                clone = copied(fake.spreadsheets[keys_of[0][role]])  # the fake's own copy shares unchanged cells
                clone.key = k[role]
                fake.spreadsheets[k[role]] = clone
            ids = configs[0].parent / ".sheets-gm" / "match.sheet-ids.json"
            if ids.exists():
                (folder / ".sheets-gm").mkdir(mode=0o700)
                text = ids.read_text(encoding="utf-8")
                for role in ROLES:
                    text = text.replace(keys_of[0][role], k[role])
                (folder / ".sheets-gm" / "match.sheet-ids.json").write_text(text, encoding="utf-8")
        configs.append(config)
    return configs


def held_for(fake: GoogleApiFake, caller: str, url: str) -> tuple[float, bool]:
    """How long a request of ``caller`` to ``url`` is held before it is answered, and whether it fails then: the late
    account's change log ``late_by`` seconds late; every Drive request of the hung account held until the client's
    read timeout, then failed (the isolation run; no hold otherwise)."""
    if "/drive/v3/" not in url:
        return 0.0, False
    if caller == fake.hung_account:  # type: ignore[attr-defined]
        return DEFAULT_TIMEOUT[1], True
    if caller == fake.late_account and "/drive/v3/changes" in url:  # type: ignore[attr-defined]
        return fake.late_by, False  # type: ignore[attr-defined]
    return 0.0, False


def locked_fake(hold_here: bool = True) -> GoogleApiFake:
    """The fake, its requests answered one at a time (the host's workers call it from their threads), every
    service-account sign-in settled (no thread of google-auth's own). ``hold_here``: the isolation run's holds
    (``held_for``) made on the caller's thread, outside the lock; served over HTTP, the server makes them
    (``http_hold``)."""
    fake = GoogleApiFake()
    lock = threading.Lock()
    dispatch = fake._dispatch

    def one_at_a_time(request: Any) -> Any:
        if "/drive/v3/" in request.url:
            caller = fake._caller(request.headers.get("Authorization", ""))
            if "/drive/v3/changes" in request.url:
                fake.questions.append((caller, time.monotonic()))  # type: ignore[attr-defined]
            seconds, fails = held_for(fake, caller, request.url) if hold_here else (0.0, False)
            time.sleep(seconds)
            if fails:  # the hung account's Drive: held until the client's read timeout, then failed
                raise requests.exceptions.ReadTimeout(f"{request.url}: read timed out")
        with lock:
            began, at = time.thread_time(), time.monotonic()
            try:
                return dispatch(request)
            finally:
                spent = time.thread_time() - began
                fake.handler_cpu += spent  # type: ignore[attr-defined]
                if fake.traced is not None:  # type: ignore[attr-defined]
                    fake.traced.append((at, request_kind(request.url), spent))  # type: ignore[attr-defined]

    fake.late_account, fake.late_by = "", 0.0  # type: ignore[attr-defined]
    fake.hung_account = ""  # type: ignore[attr-defined]
    fake.questions = []  # type: ignore[attr-defined]  # each change-log question: the account, when (monotonic)
    fake.handler_cpu = 0.0  # type: ignore[attr-defined]  # CPU seconds spent inside the fake's handlers: Google's
    fake.traced = None  # type: ignore[attr-defined]  # with --trace, during a restart: each request's moment,
    # kind and handler CPU

    fake._dispatch = one_at_a_time  # type: ignore[method-assign]
    original = signin.open_service_account
    signin.open_service_account = lambda path, *scopes: settle_auth(original(path, *scopes))
    fake.start()
    return fake


def http_hold(fake: GoogleApiFake) -> Callable[[str, Any], bool]:
    """The server's hold of the isolation run (``held_for``), on the request's own thread: a hung account's
    request is held a second past the client's read timeout (the client gives up first), then closed unanswered."""
    def hold(caller: str, request: Any) -> bool:
        seconds, fails = held_for(fake, caller, request.url)
        time.sleep(seconds + (1.0 if fails else 0.0))
        return not fails
    return hold


#: A player's own Google account (``google_matches`` writes its key): a Google match's orders are typed in her
#: name, as a player types them, not the host's account's.
PLAYER: list[Path] = []
PLAYER_EMAIL = "player@sheets-gm-test.iam.gserviceaccount.com"


def type_orders(config_path: Path, *, ready: bool, seed: str) -> None:
    """The bots type the open window's orders of every seat (and tick Ready when ``ready``), as players would (a
    Google match's through the player's own account)."""
    config = load_config(config_path)
    if config.backend is BackendKind.GOOGLE and PLAYER:  # the GM's own sign-in's matches too
        config = dataclasses.replace(config, service_account=PLAYER[0])
    rules = create_ruleset(config.ruleset)
    makers = [bot.make for bot in bots_of(rules).values()]
    before = workbook_stamps(config)
    for make in makers[:1] if before is None else makers:  # a local match: the next bot when one typed what the
        bots = {seat: make(f"{seed}/{seat}") for seat in (*config.seats, JUDGE)}  # orders held already (Win or
        type_bot_orders(open_match_sheets(config), get_ruleset(config.ruleset), bots, ready=ready, over=True)
        if before is None or workbook_stamps(config) != before:  # Die's bots deploy as they did)
            return


def workbook_stamps(config: MatchConfig) -> dict[Path, int] | None:
    """A local match's workbooks, each with its modification time (None: a Google match)."""
    if config.backend is not BackendKind.LOCAL:
        return None
    return {path: path.stat().st_mtime_ns for path in config.path.parent.rglob("*.xlsx")}


# -- the host ------------------------------------------------------------------------------------------------


class Running:
    """A host on a thread of its own, on the real clock, the system's file events and a real pool (threads: the
    fake Google answers in this process; ``serve`` runs each poll in a process of its own)."""

    def __init__(self, folders: Sequence[Path], status: Path, interval: float, workers: int,
                 ask_share: float | None = None) -> None:
        self.lines: list[str] = []
        self.stop = Stop()
        self.events = FileEvents(folders)
        if not self.events.start():
            print(f"(no file events: {self.events.error})")
        self.host = Host(folders, ThreadPoolExecutor(workers), clock=now, say=self.lines.append, status_file=status,
                         interval=interval, workers=workers, events=self.events)
        if ask_share is not None:  # the accounts' questions to Drive at another share of the interval than serve's
            self.host.ask_share = ask_share
        self.began = time.monotonic()
        self.outcomes: dict[Path, list[tuple[float, str]]] = {}  # each match's polls: seconds since the start, how
        self.polls: dict[Path, list[tuple[datetime, datetime, str]]] = {}  # each ended; and when each was handed
        self.handed: dict[Path, datetime] = {}  # to a worker and ended, on the real clock (not the pass's moment)
        self.waits: list[float | None] = []  # each save's wait until its poll was handed to a worker
        self.saved: list[tuple[Path, float]] = []  # each save's match and the end of its write (monotonic)
        took, submit = self.host._took, self.host._submit  # (both called on the host's own thread)

        def noted(hosted: Any, outcome: Any, at: datetime) -> None:
            self.outcomes.setdefault(hosted.path, []).append((time.monotonic() - self.began, outcome.done.value))
            began = self.handed.pop(hosted.path, at)
            self.polls.setdefault(hosted.path, []).append((began, now(), outcome.done.value))
            took(hosted, outcome, at)

        def handed(hosted: Any, at: datetime) -> None:
            self.handed[hosted.path] = now()
            submit(hosted, at)

        self.host._took = noted  # type: ignore[method-assign,assignment]
        self.host._submit = handed  # type: ignore[method-assign,assignment]
        self.thread = threading.Thread(target=self.host.run, args=(self.stop,), daemon=True)
        self.thread.start()

    def resolved_at(self, config: Path) -> float | None:
        """Seconds from the host's start to the match's first resolution (None: none)."""
        return next((at for at, done in self.outcomes.get(config.resolve(), []) if done == "resolved"), None)

    def wait_until(self, done: Callable[[], bool], limit: float) -> float:
        """Seconds until ``done`` (checked every 0.1 s), at most ``limit``."""
        start = time.monotonic()
        while not done() and time.monotonic() - start < limit:
            time.sleep(0.1)
        return time.monotonic() - start

    def settled(self) -> bool:
        matches = list(self.host.matches.values())
        return bool(matches) and all(not h.running and h.looked_at is not None and h.done in ("read", "idle")
                                     for h in matches)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.events.stop()

    def answer_to(self, path: Path, began: datetime, saved: datetime) -> float | None:
        """Seconds from ``saved`` (a save's write ended; it began at ``began``) to the end of the first poll of the
        match ``path`` handed to a worker after the write began, that ended after it and read (None: none yet). A
        poll begun before the save, even one that ended after it, did not read it."""
        ends = [ended for handed, ended, done in list(self.polls.get(path, ()))
                if handed >= began and ended >= saved and done in ("read", "resolved")]
        return (min(ends) - saved).total_seconds() if ends else None

    def handed_after(self, path: Path, began: datetime, saved: datetime) -> float | None:
        """Seconds from ``saved`` to the moment the poll that answered it (``answer_to``) was handed to a worker:
        the host's own part of the answer (file event, look, queue), the rest being the poll's run."""
        polls = [(ended, handed) for handed, ended, done in list(self.polls.get(path, ()))
                 if handed >= began and ended >= saved and done in ("read", "resolved")]
        return max((min(polls)[1] - saved).total_seconds(), 0.0) if polls else None

    def save(self, config: Path, seed: str, limit: float = 120) -> float | None:
        """A save in ``config`` (the bots type orders, not Ready), and the seconds until its answer
        (``answer_to``; None: not within ``limit``)."""
        began = now()
        type_orders(config, ready=False, seed=seed)
        saved, path = now(), config.resolve()
        self.saved.append((config, time.monotonic()))
        self.wait_until(lambda: self.answer_to(path, began, saved) is not None, limit)
        self.waits.append(self.handed_after(path, began, saved))
        return self.answer_to(path, began, saved)


# -- cron, measured --------------------------------------------------------------------------------------------


def cron_idle_cpu(configs: Sequence[Path]) -> float:
    """CPU seconds of one idle local ``sync --quiet`` process (median over the sample; each polled once before)."""
    for config in configs:
        subprocess.run([*program(), "sync", "-c", str(config), "--quiet"], capture_output=True, cwd=config.parent)
    spent = []
    for config in configs:
        before = child_cpu()
        subprocess.run([*program(), "sync", "-c", str(config), "--quiet"], capture_output=True, cwd=config.parent)
        spent.append(child_cpu() - before)
    return statistics.median(spent)


def google_import_cpu() -> float:
    """CPU seconds of a process that imports Google's client (what cron's Google poll loads, beyond a local one)."""
    before = child_cpu()
    subprocess.run([sys.executable, "-c", "import gspread, google.auth, requests, sheets_gm.sheets.google.drive"],
                   check=True)
    return child_cpu() - before


def cron_google_poll(fake: GoogleApiFake, configs: Sequence[Path]) -> tuple[float, int]:
    """An idle Google poll as cron makes it, in process (each match its own change log): median CPU seconds, and
    the change-log requests the matches of one account make in one minute (one poll each)."""
    spent, asked = [], 0
    account = load_config(configs[0]).service_account
    for config_path in configs:
        config = load_config(config_path)
        sheets = open_match_sheets(config)
        mark = file_mark(config_path)
        poll_behind_gate(config, mark, sheets, quiet=True, clock=now)  # settles the state
        before, calls = time.process_time(), fake.calls(CHANGES)
        poll_behind_gate(config, mark, sheets, quiet=True, clock=now)
        spent.append(time.process_time() - before)
        if config.service_account == account:
            asked += fake.calls(CHANGES) - calls
    return statistics.median(spent), asked


def cron_resolutions(configs: Sequence[Path], seed: str) -> float:
    """Windows a minute cron resolves: the sample's orders typed Ready, a ``sync`` each started at once (as cron
    starts them at the minute); the sample over the seconds until all are done."""
    for config in configs:
        type_orders(config, ready=True, seed=seed)
    start = time.monotonic()
    runs = [subprocess.Popen([*program(), "sync", "-c", str(c), "--quiet"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, cwd=c.parent) for c in configs]
    for run in runs:
        run.wait()
    return len(configs) / (time.monotonic() - start) * 60


# -- the run --------------------------------------------------------------------------------------------------


def measure(args: argparse.Namespace, root: Path) -> None:
    """The default run: N local and N Google matches made, a host on them (its first look, idle, saves, one
    account's Drive late), a restart, every seat Ready before a fresh host; today's cron on the same matches; the
    figures printed side by side."""
    rng = random.Random(args.seed)
    local, fake, google = made_matches(args, root)
    running, first = first_host(args, root, local, google, fake)
    latencies = random_saves(running, local, google, rng, args)
    isolated = late_account_saves(running, fake, google, rng, args)
    running.close()
    restart = restarted(root, local, google, args)
    ready = ready_windows(root, [*local, *google], rng, args)
    failed = [line for line in running.lines + ready.lines if "failure 1;" in line]
    cron = cron_beside(fake, local, google, rng, args)
    fake.stop()
    print_figures(args, (len(local), len(google)), first, latencies, isolated, restart, ready, cron)
    if failed:
        print(f"- failures said by the host: {len(failed)}, e.g. {failed[0][:300]}")


def made_matches(args: argparse.Namespace, root: Path) -> tuple[list[Path], GoogleApiFake, list[Path]]:
    """``--matches`` local matches (the four games in turn) and as many GvG matches on the fake over
    ``--accounts``: the local configs, the fake (started), the Google configs."""
    t0 = time.monotonic()
    local = local_matches(root, args.matches)
    fake = locked_fake()
    google = google_matches(fake, root, args.matches, args.accounts)
    print(f"Made {len(local)} local matches ({', '.join(GAMES)} in turn) and {len(google)} GvG matches on the fake "
          f"over {args.accounts} accounts in {time.monotonic() - t0:.0f} s.")
    return local, fake, google


@dataclasses.dataclass
class FirstHost:
    """The first host's figures: a save in a match never polled (the last local one, the last Google one: seconds,
    None beyond 30 min), its resident memory before it and idle (KiB), the objects kept a match (bytes), its idle
    CPU (a share of one core), Drive requests a minute of each account and Sheets requests while idle."""

    never_polled: float | None
    google_cold: float | None
    rss_before: int
    rss_idle: int
    kept: float
    idle_cpu: float
    drive_rates: list[float]
    sheets_reads: int


def first_host(args: argparse.Namespace, root: Path, local: Sequence[Path], google: Sequence[Path],
               fake: GoogleApiFake) -> tuple[Running, FirstHost]:
    """A host started on every match (never polled): a save in the last local and the last Google match as it
    takes them in, its first look, then ``--idle`` seconds idle. The host is left running for the saves."""
    # The host takes every match in; then it idles. What every host loads once (each game's rules, both backends)
    # is loaded before the memory is first measured: what is left is what the matches cost.
    for game in GAMES:
        create_ruleset(game)
    importlib.import_module("sheets_gm.sheets.google.backend")
    importlib.import_module("sheets_gm.sheets.local.backend")
    rss_before = rss_kib()
    cpu_before = time.process_time()
    running = Running([root / "local", root / "google"], root / "serve-status.json", args.interval, args.workers)
    late_local = sorted(local)[-1]  # a save in the last match, as the host starts on matches never polled
    started = time.monotonic()
    never_polled = running.save(late_local, args.seed + "/cold", 30 * 60)
    # A save in the last Google match once its account's watcher holds a token (it took the matches in at their
    # first looks, before their first polls): the change log names it, and it jumps the backlog of first polls.
    late_google = sorted(google)[-1].resolve()
    running.wait_until(lambda: (h := running.host.matches.get(late_google)) is not None and bool(h.account) and (
        (w := running.host.accounts.named(h.account)) is not None and bool(w.token)), 30 * 60)
    google_cold = running.save(late_google, args.seed + "/cold", 30 * 60)
    took = running.wait_until(running.settled, 30 * 60) + time.monotonic() - started
    print(f"serve: first look at all {len(running.host.matches)} matches (each polled once) in {took:.0f} s, "
          f"{time.process_time() - cpu_before:.0f} s of CPU.")
    running.wait_until(lambda: False, 2 * args.interval)  # our first writes read back, the accounts' tokens taken
    running.wait_until(running.settled, 5 * 60)
    rss_idle = rss_kib()
    kept = kept_size(list(running.host.matches.values())) / len(running.host.matches)
    fake.reset_counters()
    cpu_before, wall_before = time.process_time(), time.monotonic()
    time.sleep(args.idle)
    idle_cpu = (time.process_time() - cpu_before) / (time.monotonic() - wall_before)
    minutes = (time.monotonic() - wall_before) / 60
    per_account: dict[str, int] = {}
    for call in fake.log:
        if call.endpoint.startswith("drive."):
            per_account[call.caller] = per_account.get(call.caller, 0) + 1
    drive_rates = [per_account.get(f"bench{a}@sheets-gm-test.iam.gserviceaccount.com", 0) / minutes
                   for a in range(args.accounts)]
    sheets_reads = sum(1 for call in fake.log if call.endpoint.startswith("sheets."))
    return running, FirstHost(never_polled, google_cold, rss_before, rss_idle, kept, idle_cpu, drive_rates,
                              sheets_reads)


def random_saves(running: Running, local: Sequence[Path], google: Sequence[Path], rng: random.Random,
                 args: argparse.Namespace) -> dict[str, list[float]]:
    """Saves at random moments, half local and half Google: the seconds until the host's poll answered each, by
    backend ("local", "google"; a save not answered within 120 s left out)."""
    latencies: dict[str, list[float]] = {"local": [], "google": []}
    sample = rng.sample(local, args.saves // 2) + rng.sample(google, args.saves - args.saves // 2)
    rng.shuffle(sample)
    for config in sample:
        time.sleep(rng.uniform(0, args.interval))  # a moment at random within the host's looks
        answer = running.save(config, args.seed)
        if answer is not None:
            latencies["local" if "local" in config.parts else "google"].append(answer)
    return latencies


def late_account_saves(running: Running, fake: GoogleApiFake, google: Sequence[Path], rng: random.Random,
                       args: argparse.Namespace) -> list[float]:
    """One account's Drive ``--late`` seconds late: the answers to saves at random moments in the other accounts'
    matches."""
    late = "bench0@sheets-gm-test.iam.gserviceaccount.com"
    fake.late_account, fake.late_by = late, args.late  # type: ignore[attr-defined]
    others = [c for c in google if "account0.json" not in c.read_text(encoding="utf-8")]
    isolated: list[float] = []
    for config in rng.sample(others, min(len(others), max(args.saves // 2, 2))):
        time.sleep(rng.uniform(0, args.interval))
        answer = running.save(config, args.seed + "/late")
        if answer is not None:
            isolated.append(answer)
    fake.late_account = ""  # type: ignore[attr-defined]
    return isolated


@dataclasses.dataclass
class Restart:
    """A restart on matches polled before: the answers to saves in the last local and Google matches typed as it
    started (seconds, -1 beyond 30 min), and the seconds until it had looked at every match."""

    cold: list[float]
    took: float


def restarted(root: Path, local: Sequence[Path], google: Sequence[Path], args: argparse.Namespace) -> Restart:
    """A restart (the matches polled before, by the first host): saves in the last local and Google matches at
    once."""
    restart = Running([root / "local", root / "google"], root / "serve-status-1.json", args.interval, args.workers)
    cold: list[float] = []
    for config in (sorted(local)[-2], sorted(google)[-1]):
        answer = restart.save(config, args.seed + "/restart", 30 * 60)
        cold.append(-1.0 if answer is None else answer)
    took = restart.wait_until(restart.settled, 30 * 60)
    restart.close()
    return Restart(cold, took)


@dataclasses.dataclass
class ReadyRun:
    """Every seat Ready before a fresh host: the matches made Ready, of how many, the windows resolved, the seconds
    from the host's start to the last, and what the host said."""

    ready: int
    everything: int
    windows: int
    resolved: float
    lines: list[str]


def ready_windows(root: Path, everything: Sequence[Path], rng: random.Random, args: argparse.Namespace) -> ReadyRun:
    """Every seat Ready (of every match, or of ``--ready-sample`` of them): a fresh host, every match due at once;
    the windows it resolved within ``--ready-limit`` (each Ready match it did not is said, with every thread's
    stack)."""
    ready = list(everything) if args.ready_sample is None else rng.sample(everything, min(args.ready_sample,
                                                                                          len(everything)))
    for config in ready:
        type_orders(config, ready=True, seed=args.seed)
    fresh = Running([root / "local", root / "google"], root / "serve-status-2.json", args.interval, args.workers)
    fresh.wait_until(lambda: all(fresh.resolved_at(c) is not None for c in ready), args.ready_limit)
    moments = [at for c in ready if (at := fresh.resolved_at(c)) is not None]
    windows, resolved = len(moments), max(moments, default=args.ready_limit)
    for config in ready:  # what became of a Ready match not resolved: never polled, its poll under way, or read
        h = fresh.host.matches.get(config.resolve())
        if h is not None and fresh.resolved_at(config) is None:
            polls = fresh.outcomes.get(h.path, [])
            print(f"(not resolved within {args.ready_limit:g} s: {h.shown}: "
                  f"{'a poll under way' if h.running else 'never polled' if not polls else 'polled'} "
                  f"{[f'{d} at {at:.0f} s' for at, d in polls]} {h.error or h.line})")
    if windows < len(ready):
        faulthandler.dump_traceback(all_threads=True)  # where the polls under way are
    fresh.close()
    return ReadyRun(len(ready), len(everything), windows, resolved, fresh.lines)


@dataclasses.dataclass
class Cron:
    """Today's cron on the same matches: CPU seconds of an idle local ``sync`` process, of importing Google's
    client, of an idle Google poll; its CPU (a share of one core), Drive requests a minute per account, the
    change-log requests of one account's matches in a minute and how many matches, windows resolved a minute by
    how many syncs started at once."""

    local_idle: float
    google_extra: float
    google_poll: float
    cpu: float
    drive: float
    asks: int
    google_matches: int
    windows: float
    syncs: int


def cron_beside(fake: GoogleApiFake, local: Sequence[Path], google: Sequence[Path], rng: random.Random,
                args: argparse.Namespace) -> Cron:
    """Today's cron, on the same matches (``--cron-sample`` local ones for its processes)."""
    cron_sample = rng.sample(local, min(args.cron_sample, len(local)))
    local_idle = cron_idle_cpu(cron_sample)
    google_extra = google_import_cpu()
    polled = google[: min(len(google), args.accounts * 2)]
    google_poll, cron_asks = cron_google_poll(fake, polled)
    cron_google_matches = len(polled[:: args.accounts])  # those of the first account (the configs take turns)
    cron_cpu = (len(local) * local_idle + len(google) * (local_idle + google_extra + google_poll)) / 60
    cron_drive = cron_asks / max(cron_google_matches, 1) * len(google) / args.accounts
    fresh_sample = rng.sample(local, min(args.cron_sample, len(local)))  # their next window, typed Ready
    cron_windows = cron_resolutions(fresh_sample, args.seed + "/cron")
    return Cron(local_idle, google_extra, google_poll, cron_cpu, cron_drive, cron_asks, cron_google_matches,
                cron_windows, len(fresh_sample))


def print_figures(args: argparse.Namespace, counts: tuple[int, int], first: FirstHost,
                  latencies: dict[str, list[float]], isolated: list[float], restart: Restart, ready: ReadyRun,
                  cron: Cron) -> None:
    """The default run's figures (``counts``: the local matches, the Google ones), serve beside today's cron."""
    local, google = counts
    idle_cpu, cold = first.idle_cpu, restart.cold
    every = [*latencies["local"], *latencies["google"]]
    print(f"\nFigures ({args.matches} local + {args.matches} Google matches, {args.accounts} accounts, interval "
          f"{args.interval:g} s, {args.workers} workers; serve beside today's cron):")
    print(f"- idle CPU of the host: {idle_cpu * 100:.1f} % of one core over {args.idle:g} s (goal < 5 %); cron: "
          f"{cron.cpu * 100:.0f} % ({cron.local_idle:.2f} s CPU an idle local sync process, +{cron.google_extra:.2f}"
          f" s to import Google's client, +{cron.google_poll * 1000:.0f} ms the Google poll; a process a match a "
          f"minute); ratio {cron.cpu / max(idle_cpu, 1e-9):.0f}x")
    if every:
        print(f"- a save answered in: median {statistics.median(every):.1f} s, 95th percentile "
              f"{percentile(every, 0.95):.1f} s over {len(every)} saves (local median "
              f"{statistics.median(latencies['local'] or [0]):.1f} s, Google median "
              f"{statistics.median(latencies['google'] or [0]):.1f} s; goal 15 s); cron: the next minute, 95th "
              f"percentile 57 s plus the poll")
    print(f"- CPU seconds over one idle minute: serve {idle_cpu * 60:.1f} s, cron {cron.cpu * 60:.0f} s")
    google_every = latencies["google"] or [0.0]
    print(f"- one account's Drive {args.late:g} s late: the other accounts' saves answered in median "
          f"{statistics.median(isolated or [0]):.1f} s, 95th percentile {percentile(isolated or [0], 0.95):.1f} s "
          f"over {len(isolated)} saves (Google saves without the delay: median {statistics.median(google_every):.1f}"
          f" s, 95th percentile {percentile(google_every, 0.95):.1f} s; goal within 20 %)")
    print(f"- cold start on {ready.everything} matches never polled: a save in the last local match answered in "
          f"{'more than 30 min' if first.never_polled is None else f'{first.never_polled:.1f} s'} (its file "
          f"event), one in the last Google match, typed once its account's watcher held a token, in "
          f"{'more than 30 min' if first.google_cold is None else f'{first.google_cold:.1f} s'} (the change log);"
          f" a restart on matches polled before: saves in the last "
          f"local and Google matches answered in {cold[0]:.1f} s and {cold[1]:.1f} s, every match looked at in "
          f"{restart.took:.0f} s (goal: a changed match within 30 s)")
    print(f"- Drive requests a minute per account while idle: median {statistics.median(first.drive_rates):.1f}, "
          f"most {max(first.drive_rates):.1f} ({google // args.accounts} matches an account; goal <= 10); Sheets "
          f"requests meanwhile: {first.sheets_reads}; cron: {cron.drive:.0f} a minute per account (one change-log "
          f"request a match a minute: {cron.asks} for {cron.google_matches} matches of one account, measured)")
    print(f"- memory an idle match costs the host: {first.kept / 1024:.1f} KiB of objects kept between polls; the "
          f"resident size grew {(first.rss_idle - first.rss_before) / (local + google):.0f} KiB a match "
          f"({first.rss_before / 1024:.0f} MiB before the host, {first.rss_idle / 1024:.0f} MiB after it took the "
          f"matches in and polled each once: the allocator keeps what those first polls used; the fake's copies of "
          f"the spreadsheets were made before); cron keeps none between minutes")
    print(f"- every seat Ready while no host ran ({ready.ready} of the {ready.everything} matches), then a restart: "
          f"{ready.windows} windows resolved, the last {ready.resolved:.0f} s after the host started, "
          f"{ready.windows / max(ready.resolved, 1e-9) * 60:.0f} a minute ({args.workers} workers); cron: "
          f"{cron.windows:.0f} a minute ({cron.syncs} local syncs started at once), at most one a match a minute")


def timed_saves(running: Running, sample: Sequence[Path], rng: random.Random,
                args: argparse.Namespace, phases: Sequence[float] = ()) -> list[float]:
    """A save (orders typed, not Ready) in each match of ``sample``, at a random moment within the host's looks
    (``phases``: for a Google match, each save that share of its account's spacing before the account's next
    question to Drive): the seconds until the poll that read after it (a save not answered within 120 s is left
    out and said)."""
    answered = []
    for i, config in enumerate(sample):
        time.sleep(before_question(running, config, phases[i]) if i < len(phases) else rng.uniform(0, args.interval))
        answer = running.save(config, args.seed + "/save", 120)
        if answer is None:
            print(f"(a save in {config.parent.name} was not answered within 120 s)")
        else:
            answered.append(answer)
    return answered


def match_account(config: Path, accounts: Sequence[str]) -> str:
    """The account of a Google match of the bench: match i (its folder ``g<i>``) is on the i-th modulo their count."""
    return accounts[int(config.parent.name[1:]) % len(accounts)]


def before_question(running: Running, config: Path, share: float) -> float:
    """Seconds to wait so that a save in the Google match ``config`` begins ``share`` of its account's spacing
    before the account's next question to Drive (a save's wait for that question is most of its answer: two runs of
    saves given the same shares differ by the host alone, not by where each save fell among the questions)."""
    host = running.host
    hosted = host.matches.get(config.resolve())
    watcher = host.accounts.named(hosted.account) if hosted is not None and hosted.account else None
    if watcher is None or watcher.asked_at is None:
        return share * host.interval.total_seconds()
    at = now()
    spacing = host._asks_every(watcher, at)
    moment = host._next_ask(watcher, at) - spacing * share
    while moment < at:
        moment += spacing
    return (moment - at).total_seconds()


def polled_copies(root: Path, count: int, source: Path | None = None, under: str = "idle",
                  linked: bool = False) -> list[Path]:
    """``count`` local matches copied from the five games' templates under ``root/under``, each template polled first
    (twice: its first poll's answers, then idle; by ``source``'s code, None: this tree's) and copied with its records,
    their paths moved to the copy, and the files' identity on disk where a record keeps it (inode, change time: those
    of the copy's own files, as its own poll leaves them): matches a host or cron polled before, as a host finds them
    when it starts. ``linked``: the workbooks and page files hard links to the template's (a third of the time to
    make 10,000; a save replaces a workbook by another file, so a copy's poll never writes the others'); the rest,
    the config, records and locks, each copy's own."""
    templates = local_templates(root / ("templates" if under == "idle" else f"templates-{under}"), IDLE_GAMES)
    sync = program() if source is None else [sys.executable, "-m", "sheets_gm.cli"]
    env = {**os.environ, "PYTHONPATH": str(source)} if source is not None else None
    for template in templates:
        for _ in range(2):
            subprocess.run([*sync, "sync", "-c", "match.toml", "--quiet"], capture_output=True, cwd=template, env=env)
    configs = []
    for i in range(count):
        template = templates[i % len(templates)]
        folder = root / under / f"i{i:05d}"
        shutil.copytree(template, folder, copy_function=linked_copy if linked else shutil.copy2)  # copy2: sizes
        # and times kept, so the records' fingerprints hold
        configs.append(folder / "match.toml")
    for i, config in enumerate(configs):  # (once every link is made: a link moves the change time of its file)
        template, folder = templates[i % len(templates)], config.parent
        for record in (folder / ".sheets-gm").glob("*.poll.json"):
            text = record.read_text(encoding="utf-8").replace(str(template.resolve()), str(folder.resolve()))
            record.write_text(own_identities(text, config), encoding="utf-8")
    return configs


def linked_copy(source: str, target: str) -> None:
    """``copytree``'s copy of one file for ``polled_copies(linked=True)``: a workbook or page file a hard link, any
    other file (a config, a record, a lock) a copy of its own."""
    if source.endswith((".xlsx", ".js", ".svg", ".html", ".css")):
        os.link(source, target)
    else:
        shutil.copy2(source, target)


def own_identities(record: str, config: Path) -> str:
    """A copied record (of the match ``config``) with each file's inode and change time those of the file it names
    now (a record that keeps none, an older version's, as it is)."""
    raw = json.loads(record)
    marks = [raw.get("config", {}), *raw.get("files", {}).values()]
    if not all("ino" in mark for mark in marks):
        return record
    for where, mark in [(str(config), raw["config"]), *raw["files"].items()]:
        st = os.stat(where)
        mark["ino"], mark["ctime_ns"] = st.st_ino, st.st_ctime_ns
    return json.dumps(raw, sort_keys=True)


def measure_idle(args: argparse.Namespace, root: Path) -> None:
    """``--idle-local N``: a host on N local matches polled before (the five games in turn), idle: its CPU and
    memory beside cron's, and a save in the last match as it starts."""
    t0 = time.monotonic()
    configs = polled_copies(root, args.idle_local)
    print(f"Made {len(configs)} local matches polled before ({', '.join(IDLE_GAMES)} in turn) in "
          f"{time.monotonic() - t0:.0f} s.")
    for game in IDLE_GAMES:
        create_ruleset(game)
    importlib.import_module("sheets_gm.sheets.local.backend")
    gc.collect()
    rss_before, cpu_before = rss_kib(), time.process_time()
    running = Running([root / "idle"], root / "serve-status.json", args.interval, args.workers)
    last = sorted(configs)[-1]
    started = time.monotonic()
    answered = running.save(last, args.seed + "/idle", 30 * 60)
    running.wait_until(lambda: all(h.looked_at is not None for h in running.host.matches.values())
                       and len(running.host.matches) == len(configs), 30 * 60)
    took, first_cpu = time.monotonic() - started, time.process_time() - cpu_before
    running.wait_until(lambda: False, 2 * args.interval)
    gc.collect()
    rss_idle = rss_kib()
    kept = kept_size(list(running.host.matches.values())) / len(configs)
    cpu_before, wall_before = time.process_time(), time.monotonic()
    time.sleep(args.idle)
    idle_cpu = (time.process_time() - cpu_before) / (time.monotonic() - wall_before)
    rng = random.Random(args.seed)
    saves = timed_saves(running, rng.sample(configs, min(args.saves, len(configs))), rng, args)
    running.close()
    never = cold_start(root, configs, args) if args.never_polled else None
    local_idle = cron_idle_cpu(configs[: args.cron_sample])
    cron_cpu = len(configs) * local_idle / 60
    print(f"\nFigures ({len(configs)} local matches polled before, interval {args.interval:g} s, file events; serve "
          f"beside today's cron):")
    print(f"- the host's first look at every match: {took:.0f} s, {first_cpu:.0f} s of CPU; a save in the last "
          f"match typed as it started answered in "
          f"{'more than 30 min' if answered is None else f'{answered:.1f} s'} (goal 30 s)")
    print(f"- idle CPU: {idle_cpu * 100:.2f} % of one core over {args.idle:g} s, {idle_cpu * 60:.2f} CPU seconds a "
          f"minute (goal < 5 %); cron: {cron_cpu * 100:.0f} %, {cron_cpu * 60:.0f} CPU seconds a minute "
          f"({local_idle:.2f} s an idle sync process, median of {args.cron_sample}, a process a match a minute)")
    if saves:
        waits = [w for w in running.waits[1:] if w is not None]  # the first is the save typed as it started
        print(f"- a save answered in: median {statistics.median(saves):.1f} s, 95th percentile "
              f"{percentile(saves, 0.95):.1f} s over {len(saves)} saves at random moments of the idle host (goal "
              f"10 s); of which the host's part, from the save to its poll handed to a worker: median "
              f"{statistics.median(waits or [0]):.2f} s, 95th percentile {percentile(waits or [0], 0.95):.2f} s "
              f"(the rest is the poll's run); cron: the next minute, 95th percentile 57 s plus the poll")
    print(f"- memory an idle match costs: {kept / 1024:.1f} KiB of objects kept (goal < 10 KiB); the resident size "
          f"grew {(rss_idle - rss_before) / len(configs):.1f} KiB a match ({rss_before / 1024:.0f} MiB before the "
          f"host, {rss_idle / 1024:.0f} MiB idle); cron keeps none between minutes")
    if never is not None:
        print_cold_start(never, f"{len(configs)} matches never polled (their records removed)", "the host's CPU")


def print_cold_start(never: tuple[float | None, int, int, float], matches: str, cpu_of: str) -> None:
    """The line of a cold start's figures (``cold_start``): the save's answer, the matches looked at and polled by
    then, the CPU seconds."""
    answer, looked, polled, cpu = never
    print(f"- a cold start on {matches}: a save in the last match typed as the host started answered in "
          f"{'more than 30 min' if answer is None else f'{answer:.1f} s'} (goal 30 s); by then {looked} matches "
          f"looked at, {polled} polled, {cpu:.0f} s of {cpu_of}")


def cold_start(root: Path, configs: Sequence[Path], args: argparse.Namespace,
               folder: str = "idle") -> tuple[float | None, int, int, float]:
    """``--never-polled``: every match's records removed (never polled), a host started on ``root/folder``, a save
    typed in the last match as it starts: the seconds until its answer, the matches looked at and polled by then,
    the CPU spent."""
    for config in configs:
        shutil.rmtree(config.parent / ".sheets-gm", ignore_errors=True)
    cpu_before = time.process_time()
    running = Running([root / folder], root / "serve-status-cold.json", args.interval, args.workers, args.ask_share)
    last = sorted(configs)[-1]
    answer = running.save(last, args.seed + "/never", 30 * 60)
    wait = running.waits[-1]
    print(f"(cold start: the save's poll was handed to a worker "
          f"{'never' if wait is None else f'{wait:.1f} s after the save'})")
    matches = list(running.host.matches.values())
    looked, polled = sum(h.looked_at is not None for h in matches), sum(map(len, running.polls.values()))
    cpu = time.process_time() - cpu_before
    running.close()
    return answer, looked, polled, cpu


# -- --restart-local: the real serve restarted on local matches polled before, saves waiting ----------------------


def source_of(commit: str, into: Path) -> Path:
    """The package as it was at ``commit`` (``git archive``), to run ``serve`` from beside this tree's."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "sheets_gm", "templates"], check=True,
                             capture_output=True).stdout  # (the package reads the games' templates beside it)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    compiled(into)
    return into


class OnThread:
    """A loop (``_loop``) run on a daemon thread of its own from ``_begin`` until ``_end``."""

    open = False

    def _begin(self) -> None:
        self.open = True
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        raise NotImplementedError

    def _end(self) -> None:
        self.open = False
        self.thread.join()


class Pings(OnThread):
    """systemd's side of the watchdog: a datagram socket ``serve`` is pointed at (``$NOTIFY_SOCKET``); each message
    kept with its moment (monotonic)."""

    def __init__(self, path: Path) -> None:
        import socket

        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.2)
        self.heard: list[tuple[float, str]] = []
        self._begin()

    def _loop(self) -> None:
        while self.open:
            with contextlib.suppress(OSError):
                self.heard.append((time.monotonic(), self.sock.recv(4096).decode()))

    def close(self) -> None:
        self._end()
        self.sock.close()

    def gaps(self) -> tuple[float | None, float]:
        """Seconds from READY=1 to the first WATCHDOG=1, and the longest gap between two (or READY and the first)."""
        moments = [at for at, text in self.heard if "WATCHDOG=1" in text]
        ready = next((at for at, text in self.heard if "READY=1" in text), None)
        if ready is None:
            return None, 0.0
        spaced = [b - a for a, b in itertools.pairwise([ready, *moments])]
        return (moments[0] - ready if moments else None), max(spaced, default=0.0)


def answered_since(config: Path, after_ns: int) -> bool:
    """Whether the match's record was written after ``after_ns`` (time.time_ns): a poll that read its save."""
    try:
        return state_path(config).stat().st_mtime_ns > after_ns
    except OSError:
        return False


def awaited_answers(began: dict[Path, int], started: float, limit: float) -> dict[Path, float]:
    """Each save's answer (its match's record written after the save ``began``, time.time_ns) in seconds from
    ``started`` (monotonic), as the answers come, until every one is answered or ``limit`` seconds passed."""
    answers: dict[Path, float] = {}
    while len(answers) < len(began) and time.monotonic() - started < limit:
        for config, at in began.items():
            if config not in answers and answered_since(config, at):
                answers[config] = time.monotonic() - started
        time.sleep(0.05)
    return answers


@dataclasses.dataclass
class RestartRun:
    """One restart of ``serve``: each save's answer in seconds from the start (None: not within the limit), the
    first watchdog ping and the longest gap between two, and when the log said the first search was done."""

    code: str
    answers: list[float | None]
    first_ping: float | None
    longest_gap: float
    searched: float | None
    ready: float | None  # READY=1, seconds after the start
    tail: str  # the log's last lines when a save went unanswered
    typed: float = 0.0  # seconds after the start when the last save made as it starts arrived (typed ahead, each
    # arriving ``--save-gap`` after the one before: no answer to it can come sooner)


def spawn_serve(source: Path | None, root: Path, tag: str, *options: str, under: str = "idle",
                watch_limit: int | None = None) -> tuple[subprocess.Popen[bytes], Pings, Path, float]:
    """``serve`` (from ``source``; None: this tree) spawned on ``root/under`` with ``options``, its watchdog heard on
    a socket of the benchmark's own: the process, its pings, its log and the moment of its spawn (monotonic).
    ``watch_limit``: in a user namespace of its own whose inotify watch limit is that (as in a container)."""
    pings = Pings(root / f"notify-{tag}.sock")
    env = {**os.environ, "NOTIFY_SOCKET": str(pings.path)}
    if source is not None:
        env["PYTHONPATH"] = str(source)
    log = root / f"serve-{tag}.log"
    started = time.monotonic()
    with log.open("wb") as out:
        within = [] if watch_limit is None else [
            "unshare", "--user", "--map-root-user", "sh", "-c",
            f'echo {watch_limit} > /proc/sys/user/max_inotify_watches && exec "$@"', "sh"]
        proc = subprocess.Popen([*within, sys.executable, "-m", "sheets_gm.cli", "serve", str(root / under),
                                 "--status-file", str(root / f"status-{tag}.json"), *options],
                                stdout=out, stderr=subprocess.STDOUT, env=env, cwd=root)  # (not this tree: -m
        # would import the package from the working folder before PYTHONPATH's)
    return proc, pings, log, started


@dataclasses.dataclass(frozen=True)
class TypedSave:
    """A save typed ahead: the workbooks of ``config``'s match the bots changed, as they wrote them."""

    config: Path
    files: dict[Path, bytes]

    def arrive(self) -> None:
        """The save arrives whole, as a player's office program or her folder's sync writes it: each workbook
        written beside itself and renamed over it (a new modification time, now)."""
        for path, data in self.files.items():
            staged = path.with_name(f".{path.name}.arriving")
            staged.write_bytes(data)
            os.replace(staged, path)


def typed_ahead(config: Path, seed: str) -> TypedSave:
    """The bots type the open window's orders of ``config``'s match as a player would, before the host starts: the
    workbooks they changed are kept aside and put back as they were (bytes and modification time, which is what
    tells a host a save is waiting), so that the save arrives later, as it starts, costing this machine no typing
    while the host is measured (a player types on her own machine; the host only sees the file arrive)."""
    files = [p for p in config.parent.rglob("*") if p.is_file()]
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in files}
    type_orders(config, ready=False, seed=seed)
    typed: dict[Path, bytes] = {}
    for path in config.parent.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        kept = before.get(path)
        if kept is None:
            raise RuntimeError(f"typing orders made a new file {path}: the bench cannot hold it back")
        if data != kept[0]:
            typed[path] = data
            path.write_bytes(kept[0])
            os.utime(path, ns=(kept[1], kept[1]))
    if not typed:
        raise RuntimeError(f"the bots typed nothing in {config.parent}")
    return TypedSave(config, typed)


def one_restart(code: str, source: Path | None, root: Path, before: Sequence[Path], during: Sequence[Path],
                args: argparse.Namespace, turn: int) -> RestartRun:
    """``serve`` (from ``source``; None: this tree) started on ``root/idle`` with ``before`` saved while it was down
    and ``during`` saved as it starts; stopped once each is answered, or after ``--restart-limit`` seconds."""
    for config in before:
        type_orders(config, ready=False, seed=f"{args.seed}/before/{turn}")
    saved_ns = {config: time.time_ns() for config in before}
    ahead = [typed_ahead(config, f"{args.seed}/during/{turn}") for config in during]
    proc, pings, log, started = spawn_serve(source, root, str(turn), "--workers", str(args.workers))
    answers: dict[Path, float] = {}

    def note_answers() -> None:
        for config, at in saved_ns.items():
            if config not in answers and answered_since(config, at):
                answers[config] = time.monotonic() - started

    for save in ahead:
        time.sleep(args.save_gap)
        note_answers()  # (a save made while it was down may be answered before the last one made as it starts)
        saved_ns[save.config] = time.time_ns()  # the write begins now: a poll after it began answers it
        save.arrive()
    typed = time.monotonic() - started
    searched = None
    while len(answers) < len(saved_ns) and time.monotonic() - started < args.restart_limit:
        note_answers()
        if searched is None and any(line.startswith("Found ") and " match" in line.split("under")[0]
                                    for line in log.read_text(encoding="utf-8", errors="replace").splitlines()):
            searched = time.monotonic() - started
        time.sleep(0.1)
    proc.send_signal(15)
    proc.wait(timeout=120)
    pings.close()
    first, gap = pings.gaps()
    ready = next((at - started for at, text in pings.heard if "READY=1" in text), None)
    tail = "" if len(answers) == len(saved_ns) else "\n".join(
        log.read_text(encoding="utf-8", errors="replace").splitlines()[-8:])
    return RestartRun(code, [answers.get(c) for c in saved_ns], first, gap, searched, ready, tail, typed)


def measure_restart(args: argparse.Namespace, root: Path) -> None:
    """``--restart-local N``: the real ``serve`` restarted on N local matches polled before, half the saves typed
    while it was down, half as it starts (typed ahead, arriving ``--save-gap`` apart): each answer from the start,
    this tree's serve beside ``--vs``'s, in turn."""
    t0 = time.monotonic()
    compiled(ROOT)  # (the baseline's are compiled as it is unpacked: neither serve compiles a module as it starts)
    configs = polled_copies(root, args.restart_local)
    print(f"Made {len(configs)} local matches polled before ({', '.join(IDLE_GAMES)} in turn) in "
          f"{time.monotonic() - t0:.0f} s; load {Path('/proc/loadavg').read_text().split()[:3]}.")
    base = source_of(args.vs, root / "base") if args.vs else None
    rng = random.Random(args.seed)
    runs: list[RestartRun] = []
    turns = itertools.count()
    for busy in [int(n) for n in args.busy.split(",")]:
        with busy_processes(busy):
            print(settled_load(busy, args), flush=True)
            runs += restart_rounds(args, root, configs, base, rng, turns)
    summary(runs)


@contextlib.contextmanager
def busy_processes(count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` processes that spin a core each (as ``stress --cpu``) while the block runs: the load asked for
    (the list is the block's: a process added to it is stopped with the others)."""
    spinning = [spin() for _ in range(count)]
    try:
        yield spinning
    finally:
        for proc in spinning:
            proc.kill()
            proc.wait()


def spin() -> subprocess.Popen[bytes]:
    """A process that spins a core until killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def load_figures() -> tuple[float, int]:
    """The 1-minute load average and the tasks runnable now (``/proc/loadavg``; the reader itself not counted)."""
    fields = Path("/proc/loadavg").read_text().split()
    return float(fields[0]), int(fields[3].split("/")[0]) - 1


def load_target(busy: int, args: argparse.Namespace) -> float | None:
    """The load ``--load`` asks for with ``busy`` processes beside: its value in the place ``busy`` has in
    ``--busy`` (one value: the same for every count; None: no target)."""
    if args.load is None:
        return None
    targets = [float(t) for t in str(args.load).split(",")]
    counts = [int(n) for n in args.busy.split(",")]
    return targets[counts.index(busy)] if len(targets) == len(counts) else targets[0]


def settled_load(busy: int, args: argparse.Namespace) -> str:
    """With ``busy`` processes spinning, wait until the 1-minute load average reaches its ``--load`` (the target;
    with none, ``--settle`` seconds): as many processes again spin meanwhile, so the average, which follows the
    runnable count over about a minute, gets there sooner, and stop once it does. At most ``--settle`` seconds
    when a target is given (said, when not reached). (The average lags: after a higher load it is met at once;
    each restart's line says the tasks runnable while its saves waited, the load they had.)"""
    if not busy:
        return f"With no busy process beside: load {load_figures()[0]:.2f}."
    started, target = time.monotonic(), load_target(busy, args)
    if target is None:
        time.sleep(args.settle)
        return f"With {busy} busy processes beside, after {args.settle:g} s: load {load_figures()[0]:.2f}."
    with busy_processes(busy):
        while load_figures()[0] < target and time.monotonic() - started < args.settle:
            time.sleep(0.5)
    load = load_figures()[0]
    return (f"With {busy} busy processes beside: load {load:.2f} after {time.monotonic() - started:.0f} s, "
            + ("the target reached" if load >= target else f"NOT the target {target:g} (--settle "
               f"{args.settle:g} s)") + ".")


class LoadWatch(OnThread):
    """The load while a restart runs, sampled every 0.1 s on a thread: the 1-minute average's lowest and highest,
    and the mean count of tasks runnable (what a process shares the cores with, now)."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, int]] = []
        self._begin()

    def _loop(self) -> None:
        while self.open:
            self.samples.append(load_figures())
            time.sleep(0.1)

    def close(self) -> str:
        """Stop, and say the load."""
        self._end()
        averages = [a for a, _ in self.samples] or [0.0]
        runnable = [r for _, r in self.samples] or [0]
        return (f"load {min(averages):.1f}-{max(averages):.1f} (1-minute), {statistics.mean(runnable):.1f} tasks "
                f"runnable on average")


def summary(runs: Sequence[RestartRun]) -> None:
    """The runs' 95th percentiles side by side: this tree's over the baseline's, restart by restart in turn."""
    base = [r for r in runs if r.code == "base"]
    this = [r for r in runs if r.code == "this"]
    for b, t in zip(base, this, strict=False):
        bp, tp = p95_of(b), p95_of(t)
        print(f"  pair: base p95 {bp:.1f} s, this p95 {tp:.1f} s, ratio this/base {tp / bp if bp else 0:.2f}; "
              f"first watchdog ping {b.first_ping} / {t.first_ping}", flush=True)


def p95_of(run: RestartRun) -> float:
    """A restart's 95th percentile over its saves (infinite when one went unanswered)."""
    done = [a for a in run.answers if a is not None]
    return percentile(done, 0.95) if len(done) == len(run.answers) else float("inf")


def restart_rounds(args: argparse.Namespace, root: Path, configs: Sequence[Path], base: Path | None,
                   rng: random.Random, turns: Iterator[int]) -> list[RestartRun]:
    """``--rounds`` restarts of this tree's serve (each after the baseline's, with ``--vs``), each printed."""
    runs: list[RestartRun] = []
    for _ in range(args.rounds * (2 if base else 1)):
        turn = next(turns)
        code, source = ("base", base) if base is not None and turn % 2 == 0 else ("this", None)
        sample = rng.sample(configs, args.saves)
        half = len(sample) // 2
        runs.append(one_restart(code, source, root, sample[:half], sample[half:], args, turn))
        run = runs[-1]
        done = [a for a in run.answers if a is not None]
        print(f"- {code}: {len(done)}/{len(run.answers)} saves answered; from the start: median "
              f"{statistics.median(done or [0]):.1f} s, 95th percentile "
              f"{percentile(done, 0.95) if len(done) == len(run.answers) else float('inf'):.1f} s, last "
              f"{max(done, default=0):.1f} s; first watchdog ping "
              f"{'never' if run.first_ping is None else f'{run.first_ping:.1f} s'} after READY, longest gap "
              f"{run.longest_gap:.1f} s; first search said done at "
              f"{'-' if run.searched is None else f'{run.searched:.1f} s'}; READY at "
              f"{'-' if run.ready is None else f'{run.ready:.1f} s'}; the saves made as it starts arrived by "
              f"{run.typed:.1f} s; load "
              f"{Path('/proc/loadavg').read_text().split()[0]}"
              f"\n  saved while it was down, answered at: {seconds(run.answers[:half])}"
              f"\n  saved as it starts (arriving {args.save_gap:g} s apart), answered at: {seconds(run.answers[half:])}"
              + (f"\n  the log's end:\n{run.tail}" if run.tail else ""), flush=True)
    return runs


def seconds(answers: Sequence[float | None]) -> str:
    """Each save's answer in seconds from the start, in the order they were saved ('-': none)."""
    return " ".join("-" if a is None else f"{a:.1f}" for a in answers)


def own_cpu(pid: int) -> float:
    """CPU seconds of the process ``pid`` itself (its children not counted: the polls' server is not the host)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick: int = __import__("os").sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick


def start_cpu(source: Path | None, root: Path, turn: int, limit: float) -> tuple[float, float, float, float]:
    """``serve`` (from ``source``; None: this tree) started on ``root/idle``, nothing typed: the host's own CPU
    seconds when it says READY=1 and when it says its first search done (within ``limit`` s), and those moments
    from the spawn."""
    proc, pings, log, started = spawn_serve(source, root, f"cpu-{turn}")
    ready: tuple[float, float] | None = None
    searched: tuple[float, float] | None = None
    while searched is None and time.monotonic() - started < limit:
        if ready is None and any("READY=1" in text for _, text in pings.heard):
            ready = (own_cpu(proc.pid), time.monotonic() - started)
        if any(line.startswith("Found ") for line in log.read_text(encoding="utf-8", errors="replace").splitlines()):
            searched = (own_cpu(proc.pid), time.monotonic() - started)
        time.sleep(0.02)
    proc.send_signal(15)
    proc.wait(timeout=120)
    pings.close()
    nan = (float("nan"), float("nan"))
    return (*(ready or nan), *(searched or nan))


def measure_start_cpu(args: argparse.Namespace, root: Path) -> None:
    """``--restart-local N --start-cpu``: the host's own CPU to READY and to its first search's end, nothing
    typed, this tree's ``serve`` in turn with ``--vs``'s, ``--rounds`` of each, medians."""
    compiled(ROOT)
    configs = polled_copies(root, args.restart_local)
    base = source_of(args.vs, root / "base") if args.vs else None
    print(f"Made {len(configs)} local matches polled before; load {Path('/proc/loadavg').read_text().split()[:3]}.")
    runs: dict[str, list[tuple[float, float, float, float]]] = {"base": [], "this": []}
    turns = itertools.count()
    for _ in range(args.rounds):
        for code, source in ((("base", base),) if base is not None else ()) + (("this", None),):
            runs[code].append(start_cpu(source, root, next(turns), args.restart_limit))
            cpu_ready, at_ready, cpu_search, at_search = runs[code][-1]
            print(f"- {code}: CPU {cpu_ready:.2f} s at READY ({at_ready:.1f} s from the spawn), {cpu_search:.2f} s "
                  f"at the first search's end ({at_search:.1f} s); load {Path('/proc/loadavg').read_text().split()[0]}",
                  flush=True)
    for code, done in runs.items():
        if done:
            print(f"  {code}: medians CPU {statistics.median(r[0] for r in done):.2f} s at READY, "
                  f"{statistics.median(r[2] for r in done):.2f} s at the first search's end", flush=True)


# -- --first-start: the real serve on folders no host served, the saves typed meanwhile waiting -------------------


def saved_elsewhere(root: Path, place: str, turn: int,
                    args: argparse.Namespace) -> tuple[str, list[Path], dict[Path, int]]:
    """The matches under ``root/place`` moved to a folder of their own for this start (as a backup restored
    elsewhere, or a new machine's: every record names the folder it was written in, the files' times kept; with
    ``--plain-copy``, copied there by ``cp -r``, every file's time the copy's), then
    the first, the middle and the last in the folder's order saved (the bots type the open window's orders): the new
    folder's name, those three configs, and when each save began (time.time_ns)."""
    moved = f"restored-{turn}"
    if args.plain_copy:  # copied as ``cp -r`` copies: every file's time the copy's, the old folder gone after
        subprocess.run(["cp", "-r", str(root / place), str(root / moved)], check=True)
        shutil.rmtree(root / place)
    else:
        (root / place).rename(root / moved)
    configs = sorted((root / moved).glob("*/match.toml"))
    saved = [configs[0], configs[len(configs) // 2], configs[-1]]
    began = {}
    for config in saved:
        began[config] = time.time_ns()
        type_orders(config, ready=False, seed=f"{args.seed}/first/{turn}")
    return moved, saved, began


def one_first_start(source: Path | None, root: Path, place: str, turn: int,
                    args: argparse.Namespace) -> tuple[str, list[float | None], str]:
    """``serve`` (from ``source``; None: this tree) started with no status file of its own on the matches of
    ``root/place`` moved for it (``saved_elsewhere``), three saves waiting: the folder it served, each save's answer
    from the spawn (None: not within ``--restart-limit`` s) and the load meanwhile."""
    moved, saved, began = saved_elsewhere(root, place, turn, args)
    watch = LoadWatch()
    proc, pings, _, started = spawn_serve(source, root, f"first-{turn}", "--workers", str(args.workers), under=moved)
    try:
        answers = awaited_answers(began, started, args.restart_limit)
    finally:
        proc.send_signal(15)
        proc.wait(timeout=180)
        pings.close()
    return moved, [answers.get(config) for config in saved], watch.close()


def measure_first_start(args: argparse.Namespace, root: Path) -> None:
    """``--first-start N``: the real ``serve`` started on N local matches polled before by another host, in another
    folder (``saved_elsewhere``), the first, middle and last in folder order saved while no host ran: each save's
    answer from the spawn, this tree's serve in turn with ``--vs``'s, ``--rounds`` of each, medians."""
    compiled(ROOT)
    t0 = time.monotonic()
    configs = polled_copies(root, args.first_start, linked=True)
    base = source_of(args.vs, root / "base") if args.vs else None
    print(f"Made {len(configs)} local matches polled before ({', '.join(IDLE_GAMES)} in turn) in "
          f"{time.monotonic() - t0:.0f} s; load {Path('/proc/loadavg').read_text().split()[:3]}.", flush=True)
    runs: dict[str, list[list[float | None]]] = {"base": [], "this": []}
    place = "idle"
    for turn in range(args.rounds * (2 if base is not None else 1)):
        code, source = ("base", base) if base is not None and turn % 2 == 0 else ("this", None)
        place, answers, load_was = one_first_start(source, root, place, turn, args)
        runs[code].append(answers)
        print(f"- {code}: the first, middle and last saves answered at {seconds(answers)} s from the spawn "
              f"(limit {args.restart_limit:g} s); {load_was}", flush=True)
    for code, done in runs.items():
        if done:
            medians = [statistics.median(math.inf if a is None else a for a in column)
                       for column in zip(*done, strict=True)]
            print(f"  {code}: medians of {len(done)} starts: first {medians[0]:.1f} s, middle {medians[1]:.1f} s, "
                  f"last {medians[2]:.1f} s (inf: not answered within the limit)", flush=True)


# -- --idle-hour: the real serve at rest on local matches polled before, its CPU over an hour ---------------------


def measure_idle_hour(args: argparse.Namespace, root: Path) -> None:
    """``--idle-hour N``: the real ``serve`` on N local matches polled before (the five games in turn), nothing typed,
    beside ``--vs``'s on a copy of its own, both at once (the same load): each one's CPU seconds (its own, its poll
    server's and the polls it ran: ``tree_cpu``) over ``--window`` seconds once its first search ended and
    ``--settle`` seconds passed (its first looks), said every ``--every`` seconds, and the matches read in full
    meanwhile (their records rewritten)."""
    compiled(ROOT)
    trees: list[tuple[str, Path | None]] = [("this", None)]
    if args.vs:
        trees.append(("base", source_of(args.vs, root / "base")))
    configs: dict[str, list[Path]] = {}
    under = {code: Path(args.made) if args.made and code == "this" else root / f"idle-{code}" for code, _ in trees}
    for code, source in trees:
        t0 = time.monotonic()
        configs[code] = (sorted(under[code].glob("*/match.toml")) if under[code].exists() else
                         polled_copies(root, args.idle_hour, source, f"idle-{code}", linked=True))
        print(f"{len(configs[code])} local matches polled before for {code} ({time.monotonic() - t0:.0f} s).",
              flush=True)
    served = {code: spawn_serve(source, under[code].parent, f"hour-{code}", "--workers", str(args.workers),
                                under=under[code].name, watch_limit=args.watch_limit) for code, source in trees}
    try:
        for code, (_, _, log, started) in served.items():
            while not any(line.startswith("Found ") for line in log.read_text(errors="replace").splitlines()):
                time.sleep(1)
            print(f"{code}: its first search ended {time.monotonic() - started:.0f} s after its start.", flush=True)
        time.sleep(args.settle)
        hour_window({code: proc.pid for code, (proc, *_) in served.items()}, configs, args)
    finally:
        for code, (proc, pings, log, _) in served.items():
            proc.send_signal(15)
            proc.wait(timeout=120)
            pings.close()
            said = [line for line in log.read_text(errors="replace").splitlines() if "events" in line]
            print(f"- {code}'s log on the file events: {' | '.join(said) or 'nothing (they cover every match)'}")


def hour_window(pids: dict[str, int], configs: dict[str, list[Path]], args: argparse.Namespace) -> None:
    """The measured window of ``--idle-hour``: CPU seconds of each serve (``pids``) from its start, said every
    ``--every`` seconds with the load, then the figures."""
    began, since_ns = time.monotonic(), time.time_ns()
    first = {code: tree_cpu(pid) for code, pid in pids.items()}
    loads = []
    while (elapsed := time.monotonic() - began) < args.window:
        time.sleep(min(args.every, args.window - elapsed))
        loads.append(float(Path("/proc/loadavg").read_text().split()[0]))
        print(f"  {time.monotonic() - began:5.0f} s: " + ", ".join(
            f"{code} {tree_cpu(pid) - first[code]:.1f} CPU s" for code, pid in pids.items())
            + f"; load {loads[-1]:.1f}", flush=True)
    wall = time.monotonic() - began
    events = "file events" if args.watch_limit is None else f"no file events (watch limit {args.watch_limit:,})"
    print(f"\nFigures ({len(next(iter(configs.values())))} local matches polled before, untouched, {events}; "
          f"{wall:.0f} s measured, load median {statistics.median(loads or [0.0]):.1f}):")
    for code, pid in pids.items():
        cpu = tree_cpu(pid) - first[code]
        read = sum(answered_since(config, since_ns) for config in configs[code])
        print(f"- {code}: {cpu:.1f} CPU s over {wall:.0f} s, {cpu / wall * 100:.2f} % of a core, "
              f"{cpu / wall * 3600:.0f} CPU s an hour (goal 72: 2 %); {read} matches read in full meanwhile")


# -- --serve-google: the real serve process on the fake Google served over HTTP ----------------------------------


def tree_cpu(pid: int) -> float:
    """CPU seconds of the process ``pid`` and its children (theirs that ended counted in their parent's), from
    ``/proc``: ``serve``, its fork server and the polls it reaped."""
    tick = __import__("os").sysconf("SC_CLK_TCK")
    total, pids = 0.0, [pid]
    with contextlib.suppress(OSError):
        pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for one in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15]) / tick
    return total


def measure_serve_google(args: argparse.Namespace, root: Path) -> None:
    """``--serve-google N``: the real ``sheets-gm serve`` process on N GvG matches polled before, on the fake Google
    served over HTTP on 127.0.0.1 (``tests.fakes.google_http``; its spreadsheets shared copy-on-write, over
    ``--accounts``): its start, its idle CPU (its own and its polls', the fake's apart: it runs here) over
    ``--idle`` seconds, and ``--saves`` saves typed one at a time at random moments, each timed to its poll's
    record; with ``--isolation``, those saves in the other accounts' matches, then as many again with one account's
    change log ``--late`` seconds late and another's Drive hung (``isolation_over_http``); then a restart."""
    from tests.fakes.google_http import GoogleOverHttp

    compiled(ROOT)  # (the baseline's are compiled as it is unpacked: neither serve compiles a module as it starts)
    rng = random.Random(args.seed)
    fake = locked_fake(hold_here=False)
    configs = polled_google(fake, root, args.serve_google, args.accounts, rng, args.oauth)
    server = GoogleOverHttp(fake, http_hold(fake)).start()
    log = root / "serve-google.log"
    print(f"Made {len(configs)} GvG matches polled before on the fake over {args.accounts} accounts; load "
          f"{Path('/proc/loadavg').read_text().split()[:3]}.", flush=True)
    started = time.monotonic()
    proc = serve_over(server, root, log, args)
    try:
        while "Found " not in log.read_text(encoding="utf-8") and time.monotonic() - started < 600:
            time.sleep(0.1)
        searched = time.monotonic() - started
        named = sign_ins_named(fake, args.interval, started)
        time.sleep(2 * args.interval)
        idle, drive = idle_over_http(proc.pid, fake, args)
        if args.isolation:
            answers = isolation_over_http(fake, configs, log, args)
        else:
            answers = [answer_over_http(config, f"{args.seed}/http/{n}", rng.random() * args.interval)
                       for n, config in enumerate(rng.sample(configs, args.saves))]
        proc.send_signal(15)
        proc.wait(timeout=180)
        restarts = []
        base = source_of(args.vs, root / "base") if args.vs else None
        codes = ((("base", base),) if base is not None else ()) + (("this", None),)
        counts = [int(n) for n in args.busy.split(",")]
        for turn, busy in enumerate(counts * args.rounds):
            with busy_processes(busy):
                print(settled_load(busy, args), flush=True)
                first = (turn // len(counts)) % 2  # which tree goes first alternates, round by round at each count
                for code, source in codes[::-1] if first else codes:
                    said = google_restart(server, fake, root, rng.sample(configs, args.saves), args, source)
                    restarts.append(f"{code}: {said} ({busy} busy processes beside)")
                    print(restarts[-1], flush=True)
    finally:
        proc.send_signal(15)
        proc.wait(timeout=180)
        server.stop()
    done = [a for a in answers if a is not None]
    print(f"- the real serve on {len(configs)} Google matches over {args.accounts} accounts, the fake over HTTP: "
          f"the search said done {searched:.1f} s after the spawn, the GMs' sign-in files named by {named:.1f} s; "
          f"idle CPU {idle * 100:.2f} % of one core over "
          f"{args.idle:g} s (serve, its fork server and its polls; the fake apart), "
          f"{drive:.1f} change-log requests a minute an account; a save answered in median "
          f"{statistics.median(done):.1f} s, 95th percentile {percentile(done, 0.95):.1f} s over "
          f"{len(done)} of {len(answers)} saves (from the end of its write to its poll's record); load "
          f"{Path('/proc/loadavg').read_text().split()[0]}", flush=True)
    print("\n".join(restarts), flush=True)  # (again, below the run's other figures)


def sign_ins_named(fake: GoogleApiFake, interval: float, started: float) -> float:
    """Seconds from the spawn (``started``, monotonic) until Drive's ``about`` was last asked, once a whole
    interval passed without one: a first start on GMs' sign-in files asks it once a file, and the idle figures are
    taken after (0 for service accounts)."""
    calls, last = fake.calls(ABOUT), time.monotonic()
    while time.monotonic() - last < interval and time.monotonic() - started < 900:
        time.sleep(0.5)
        if fake.calls(ABOUT) != calls:
            calls, last = fake.calls(ABOUT), time.monotonic()
    return last - started if calls else 0.0


def idle_over_http(pid: int, fake: GoogleApiFake, args: argparse.Namespace) -> tuple[float, float]:
    """``serve``'s idle CPU over ``--idle`` seconds (the process ``pid`` and its children, as a share of one core),
    and the change-log requests a minute an account meanwhile (the other requests said)."""
    fake.reset_counters()
    cpu, wall = tree_cpu(pid), time.monotonic()
    time.sleep(args.idle)
    idle = (tree_cpu(pid) - cpu) / (time.monotonic() - wall)
    minutes = (time.monotonic() - wall) / 60

    def rate(*endpoints: str, prefix: str = "") -> float:  # requests a minute an account
        calls = sum(fake.calls(e) for e in fake.stats if e in endpoints or (prefix and e.startswith(prefix)))
        return calls / (minutes * float(args.accounts))

    print(f"  while idle, a minute an account: {rate(CHANGES):.1f} change-log requests, "
          f"{rate(prefix='drive.'):.1f} Drive requests in all, {rate(prefix='sheets.'):.1f} Sheets requests "
          f"({rate(READ):.1f} reads), {rate(TOKEN):.2f} sign-ins at the token endpoint", flush=True)
    return idle, fake.calls(CHANGES) / minutes / args.accounts


def answer_over_http(config: Path, seed: str, wait: float) -> float | None:
    """A save typed in the match ``config`` after ``wait`` seconds: the seconds from the end of its write to its
    poll's record (None: none within 120 s)."""
    time.sleep(wait)
    at = time.time_ns()
    type_orders(config, ready=False, seed=seed)
    saved = time.monotonic()
    while not answered_since(config, at):
        if time.monotonic() - saved > 120:
            return None
        time.sleep(0.05)
    return time.monotonic() - saved


def question_ahead(fake: GoogleApiFake, account: str, share: float, interval: float) -> float:
    """Seconds to wait so that a save begins ``share`` of the account's spacing before its next change-log question
    (as ``before_question``, from the questions the fake saw: the host is another process)."""
    asked: list[float] = [at for caller, at in list(fake.questions)  # type: ignore[attr-defined]
                          if caller == account][-3:]
    if len(asked) < 2:
        return share * interval
    spacing = statistics.median(b - a for a, b in itertools.pairwise(asked))
    moment, at = asked[-1] + spacing * (1 - share), time.monotonic()
    while moment < at:
        moment += spacing
    return moment - at


def phased_over_http(fake: GoogleApiFake, sample: Sequence[Path], phases: Sequence[float], accounts: Sequence[str],
                     args: argparse.Namespace, seed: str) -> Stretch:
    """A save in each match of ``sample``, each ``phases[i]`` of its account's spacing before the account's next
    question; the stretch's answers, each less its wait for that question, and the other accounts' question gaps
    (the first two accounts, late and hung in the isolation run, left out)."""
    stretch = Stretch(time.monotonic(), now())
    typed: list[tuple[str, float, float]] = []
    for n, (config, share) in enumerate(zip(sample, phases, strict=False)):
        account = match_account(config, accounts)
        answer = answer_over_http(config, f"{seed}/{n}", question_ahead(fake, account, share, args.interval))
        if answer is None:
            print(f"(a save in {config.parent.name} was not answered within 120 s)", flush=True)
            continue
        stretch.saves.append(answer)
        typed.append((account, time.monotonic() - answer, answer))
    asked: dict[str, list[float]] = {}
    for caller, at in list(fake.questions):  # type: ignore[attr-defined]
        if at >= stretch.began and caller not in accounts[:2]:
            asked.setdefault(caller, []).append(at)
    for account, saved, answer in typed:
        question = min((q for q in asked.get(account, []) if q >= saved), default=None)
        if question is not None and question - saved <= answer:
            stretch.after.append(answer - (question - saved))
    stretch.gaps = [b - a for moments in asked.values() for a, b in itertools.pairwise(moments)]
    return stretch


def isolation_over_http(fake: GoogleApiFake, configs: Sequence[Path], log: Path,
                        args: argparse.Namespace) -> list[float | None]:
    """The isolation run on the real ``serve``: ``--saves`` saves in the matches of the accounts but the first two
    (the baseline), then as many in others with the first account's change log ``--late`` seconds late and the
    second's Drive hung (each request held the client's read timeout, then closed unanswered), from one interval
    before: the same shares of each account's spacing in both; what the host said of the two. Returns the
    baseline's answers."""
    accounts = [f"bench{a}@sheets-gm-test.iam.gserviceaccount.com" for a in range(args.accounts)]
    others = [c for c in configs if match_account(c, accounts) not in accounts[:2]]
    rng = random.Random(f"{args.seed}/isolation")
    phases = [rng.random() for _ in range(args.saves)]
    sample = rng.sample(others, 2 * args.saves)
    baseline = phased_over_http(fake, sample[:args.saves], phases, accounts, args, f"{args.seed}/baseline")
    fake.late_account, fake.late_by = accounts[0], args.late  # type: ignore[attr-defined]
    fake.hung_account = accounts[1]  # type: ignore[attr-defined]
    said_from = len(log.read_text(encoding="utf-8"))
    time.sleep(args.interval)  # every account asked once since: the late and hung ones too
    isolated = phased_over_http(fake, sample[args.saves:], phases, accounts, args, f"{args.seed}/isolated")
    time.sleep(max(0.0, DEFAULT_TIMEOUT[1] + 5 - (time.monotonic() - isolated.began)))  # the hung one said
    fake.late_account = fake.hung_account = ""  # type: ignore[attr-defined]
    isolated.said = list(dict.fromkeys(re.sub(r"\d+(\.\d+)? s\b", "N s", line.split(" (Drive did not answer")[0])
                                       for line in log.read_text(encoding="utf-8")[said_from:].splitlines()
                                       if line.startswith("Account ") and ("bench0@" in line or "bench1@" in line)))
    print_isolation(args, baseline, isolated)
    return list(baseline.saves)


def serve_over(server: Any, root: Path, log: Path, args: argparse.Namespace,
               source: Path | None = None) -> subprocess.Popen[bytes]:
    """The real ``sheets-gm serve`` (from ``source``; None: this tree) on ``root/google``, pointed at the fake over
    HTTP, its log in ``log``."""
    env = server.environment()
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(source)])
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "sheets_gm.cli", "serve", str(root / "google"),
                                 "--workers", str(args.workers), "--interval", f"{args.interval:g}", "--status-file",
                                 str(root / "status-google.json")], stdout=out, stderr=subprocess.STDOUT,
                                env=env, cwd=root)


def google_restart(server: Any, fake: GoogleApiFake, root: Path, saved: Sequence[Path],
                   args: argparse.Namespace, source: Path | None = None) -> str:
    """``serve`` stopped, ``saved`` typed while it is down (each in a match of its own), started again: each save
    timed from the spawn to its poll's record; whether the accounts asked their change logs from the tokens the
    stopped host kept (no start token asked)."""
    at = {}
    for n, config in enumerate(saved):
        at[config] = time.time_ns()
        type_orders(config, ready=False, seed=f"{args.seed}/down/{n}")
    fake.reset_counters()
    log = root / "serve-google-restart.log"
    log.write_bytes(b"")
    watch = LoadWatch()
    started = time.monotonic()
    proc = serve_over(server, root, log, args, source)
    trace = RestartTrace(proc.pid, log, fake, started) if args.trace else None
    try:
        answers = awaited_answers({config: at[config] for config in saved}, started, args.restart_limit)
        traced = trace.close(sorted(answers.values())) if trace is not None else ""
        time.sleep(args.linger)  # its own answers read back and its tokens kept past them: the next restart,
        # of either tree, finds what this one left as the one before found it
    finally:
        proc.send_signal(15)
        proc.wait(timeout=180)
    done = list(answers.values())
    return (f"- restarted with {len(saved)} saves typed while it was down: {len(done)}/{len(saved)} answered; from "
            f"the spawn median {statistics.median(done or [0]):.1f} s, 95th percentile "
            f"{percentile(done, 0.95) if len(done) == len(saved) else float('inf'):.1f} s; start tokens asked "
            f"{fake.calls(START_TOKEN)} (0: every account's log asked from its kept token); during the saves "
            f"{watch.close()}" + traced)


def request_kind(url: str) -> str:
    """What a request to the fake asks, in a word (the restart's trace)."""
    for part, kind in (("oauth2", "token"), ("/changes/startPageToken", "start token"), ("/changes", "changes"),
                       ("/about", "about"), (":batchUpdate", "batchUpdate"), ("/values:batchGet", "batchGet"),
                       ("/values", "values"), ("/drive/v3/files", "files"), ("sheets.googleapis", "sheets")):
        if part in url:
            return kind
    return url.split("?")[0][-40:]


class RestartTrace(OnThread):
    """One restart's timeline (``--trace``), sampled every 0.05 s on a thread: when each line of ``serve``'s log
    came, the CPU seconds of ``serve``'s own process, of its polls' server and the polls forked from it (each
    poll's process seen, from first to last sample), and of this process (the fake over HTTP: its handlers and
    its server's threads, and the benchmark's own checks); the fake's requests, each with its moment."""

    def __init__(self, pid: int, log: Path, fake: GoogleApiFake, started: float) -> None:
        self.pid, self.log, self.fake, self.started = pid, log, fake, started
        self.lines: list[tuple[float, str]] = []
        self.samples: list[tuple[float, float, float, float]] = []  # moment, serve's CPU, its children's, this one's
        self.polls: dict[int, list[float]] = {}  # a poll's pid: first seen, last seen, its CPU then
        self.bench_cpu = time.process_time()
        fake.traced = []  # type: ignore[attr-defined]
        self._begin()

    def _loop(self) -> None:
        read = 0
        while self.open:
            now = time.monotonic() - self.started
            with contextlib.suppress(OSError):
                text = self.log.read_bytes()[read:]
                read += len(text)
                self.lines += [(now, line) for line in text.decode(errors="replace").splitlines() if line]
            own, server = proc_cpu(self.pid), 0.0
            for child in proc_children(self.pid):
                server += proc_cpu(child)  # (its polls counted each, below, not as it reaps them)
                for poll in proc_children(child):
                    cpu = proc_cpu(poll)
                    seen = self.polls.setdefault(poll, [now, now, cpu])
                    seen[1:] = [now, cpu]
            polls = sum(seen[2] for seen in self.polls.values())
            self.samples.append((now, own, server + polls, time.process_time() - self.bench_cpu))
            time.sleep(0.05)

    def close(self, answered: Sequence[float]) -> str:
        """Stop, and the timeline (``answered``: each save's answer, seconds from the spawn)."""
        self._end()
        traced = self.fake.traced or []  # type: ignore[attr-defined]
        self.fake.traced = None  # type: ignore[attr-defined]
        requests_by = sorted((at - self.started, kind, cpu) for at, kind, cpu in traced)
        changes = [at for at, kind, _ in requests_by if kind == "changes"]
        reads = [at for at, kind, _ in requests_by if kind == "batchGet"]
        moments = {"the host's first line (its modules imported, the kept state read)": next(
            (at for at, line in self.lines if line.startswith("sheets-gm serve:")), None),
            "the first change-log question": changes[0] if changes else None,
            "the 50th change-log question": changes[49] if len(changes) >= 50 else None,
            "the 100th change-log question (about every account's first)": changes[99] if len(changes) >= 100 else None,
            "the first poll's process": min((p[0] for p in self.polls.values()), default=None),
            "the first Sheets read": reads[0] if reads else None,
            "the first save answered": answered[0] if answered else None,
            "the 10th save answered": answered[9] if len(answered) >= 10 else None,
            "the 19th save answered (the 95th percentile of 20)": answered[18] if len(answered) >= 19 else None,
            "the last save answered": answered[-1] if answered else None}
        out = ["\n  timeline from the spawn (CPU seconds by then: serve's own / its polls' server and polls / "
               "this process: the fake over HTTP and the benchmark)"]
        for what, at in moments.items():
            if at is None:
                out.append(f"    {what}: -")
                continue
            sample = next((s for s in self.samples if s[0] >= at), self.samples[-1] if self.samples else None)
            cpu = "" if sample is None else f"  ({sample[1]:.2f} / {sample[2]:.2f} / {sample[3]:.2f})"
            out.append(f"    {at:6.2f} s  {what}{cpu}")
        kinds: dict[str, list[float]] = {}
        for _, kind, cpu in requests_by:
            kinds.setdefault(kind, []).append(cpu)
        out.append("    the fake's requests (count, handler CPU s): " + ", ".join(
            f"{kind} {len(cpus)} ({sum(cpus):.2f})" for kind, cpus in sorted(kinds.items())))
        polls = sorted(self.polls.values())
        out.append(f"    polls forked: {len(polls)}; each poll's process (seen from, to, CPU s): " + ", ".join(
            f"{a:.1f}-{b:.1f} {c:.2f}" for a, b, c in polls[:30]))
        out.append("    the log's lines: " + " | ".join(f"{at:.1f} s {line[:100]}" for at, line in self.lines[:8]))
        return "\n".join(out)


def proc_cpu(pid: int) -> float:
    """CPU seconds of the process ``pid``, from ``/proc`` (0 once it is gone)."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return sum(int(f) for f in fields[11:13]) / tick


def proc_children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []


# -- --idle-google: a host restarted on Google matches polled before -------------------------------------------


def shared_clone(spreadsheet: FakeSpreadsheet, key: str) -> FakeSpreadsheet:
    """A copy of a spreadsheet on the fake under ``key`` that shares its tabs, copy-on-write: the fake's API writes
    never change a tab in place (a values write stages new tabs on copies of their cell maps, a batchUpdate a
    copy of the whole spreadsheet, then each puts the new tabs in the spreadsheet's list), so a clone owns only
    its list of tabs and its Drive fields. (The fake's own editing helpers, ``set_values`` and the like, edit a
    tab in place: never on a clone. The bench's players type through the API.)"""
    return dataclasses.replace(spreadsheet, key=key, properties=copied(spreadsheet.properties),
                               sheets=list(spreadsheet.sheets), permissions=copied(spreadsheet.permissions),
                               parents=list(spreadsheet.parents), app_properties=dict(spreadsheet.app_properties))


def polled_google(fake: GoogleApiFake, root: Path, count: int, accounts: int,
                  rng: random.Random, oauth: str = "") -> list[Path]:
    """``count`` GvG matches on the fake over ``accounts`` service accounts, polled before, as a host restarted
    on a running table finds them: one made with init and polled by cron's ``sync`` until idle, the others its
    clones (``shared_clone``), each with a copy of its records, their keys and config's fingerprint made its own.
    Each record's own last look at Drive's file index (``checked_at``) is put at a random moment of the last
    ``SAFETY_NET`` (the moments a long-running table's matches would show); its reads stay those of the
    template's poll, minutes old (no 6-hour read falls due while the bench runs). ``oauth``: the matches are then
    played on their GMs' own sign-ins (``accounts`` GMs; see ``oauth_config``)."""
    configs = google_matches(fake, root, 1, accounts)
    template = configs[0]
    for _ in range(3):  # the first poll reads in full and answers; the next reads our answers back; then idle
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as said:
            if cli(["sync", "-c", str(template), "--quiet"]) != 0:
                raise SystemExit(f"sync on the fake failed: {said.getvalue()}")
    records = {path.name: path.read_text(encoding="utf-8")
               for path in (template.parent / ".sheets-gm").glob("*.json")}
    now_at = now()
    if oauth:
        for role in ROLES:  # made by init --create: what her sign-in's drive.file scope shows in Drive
            fake.spreadsheets[key(0, role)].by_app = True
        template.write_text(oauth_config(fake, {role: key(0, role) for role in ROLES}, template, 0, oauth),
                            encoding="utf-8")
        state = load_state(state_path(template))
        assert state is not None
        state.config = file_mark(template)  # type: ignore[assignment]
        save_state(state_path(template), state)
    for i in range(1, count):
        folder = root / "google" / f"g{i:05d}"
        (folder / ".sheets-gm").mkdir(parents=True, mode=0o700)
        shutil.copy2(template.parent / "roster.csv", folder / "roster.csv")
        keys = {role: key(i, role) for role in ROLES}
        for role in ROLES:
            fake.spreadsheets[keys[role]] = shared_clone(fake.spreadsheets[key(0, role)], keys[role])
            fake.spreadsheets[keys[role]].readers = readers(i % accounts, oauth)
        config = folder / "match.toml"
        for name, text in records.items():
            for role in ROLES:
                text = text.replace(key(0, role), keys[role])
            (folder / ".sheets-gm" / name).write_text(text, encoding="utf-8")
        config.write_text(oauth_config(fake, keys, config, i % accounts, oauth) if oauth else
                          google_config(keys, root / f"account{i % accounts}.json"), encoding="utf-8")
        record = state_path(config)
        state = load_state(record)
        if state is None:
            raise SystemExit(f"the template's poll kept no record: {sorted(records)}")
        state.config = file_mark(config)  # type: ignore[assignment]  # a config of its own, as written
        state.checked_at = iso(now_at - SAFETY_NET * rng.random())
        save_state(record, state)
        configs.append(config)
    for role in ROLES:
        fake.spreadsheets[key(0, role)].readers = readers(0, oauth)
    return configs


def readers(account: int, oauth: str) -> frozenset[str]:
    """The accounts a match of ``account`` is shared with: its own (the service account, or with ``oauth`` its GM's
    sign-in) and the players' (``PLAYER``): another account's change log and file index do not list its files, as
    Google's do not (each account's first question at a restart lists its own matches' changes, not every one's)."""
    own = f"gm{account}@example.com" if oauth else f"bench{account}@sheets-gm-test.iam.gserviceaccount.com"
    return frozenset({own, PLAYER_EMAIL})


def oauth_config(fake: GoogleApiFake, keys: dict[str, str], config: Path, gm: int, oauth: str) -> str:
    """A Google GvG match's config played on the GM ``gm``'s own sign-in (the OAuth client beside the bench's
    root, one for every GM), its sign-in saved as ``oauth`` says: ``match``, in the match's own folder, as ``doctor``
    saves it for each match (a refresh token of its own); ``gm``, one file for every match of the GM (the config's
    ``oauth_token``). The fake knows each refresh token's GM."""
    root = config.parent.parent.parent
    client = root / "client_secret.json"
    if not client.exists():
        client.write_text(json.dumps({"installed": {"client_id": "cid", "client_secret": "secret",
                                                    "token_uri": TOKEN_URL}}), encoding="utf-8")
    token = config.parent / ".sheets-gm" / "oauth-token.json" if oauth == "match" else root / f"gm{gm}-token.json"
    refresh = f"refresh-gm{gm}-{config.parent.name}" if oauth == "match" else f"refresh-gm{gm}"
    fake.users[refresh] = f"gm{gm}@example.com"
    if not token.exists():
        token.parent.mkdir(mode=0o700, exist_ok=True)
        token.write_text(json.dumps({"refresh_token": refresh, "client_id": "cid", "client_secret": "secret",
                                     "token_uri": TOKEN_URL, "scopes": list(SIGN_IN_SCOPES)}), encoding="utf-8")
        token.chmod(0o600)
    text = google_config(keys, client).replace("service_account = ", "oauth_client = ")
    return text + (f'oauth_token = "{token}"\n' if oauth == "gm" else "")


def by_caller(fake: GoogleApiFake, prefix: str, callers: Sequence[str]) -> list[int]:
    """Requests to the fake's endpoints whose name starts with ``prefix``, by each of ``callers``."""
    counts = dict.fromkeys(callers, 0)
    for call in fake.log:
        if call.endpoint.startswith(prefix) and call.caller in counts:
            counts[call.caller] += 1
    return list(counts.values())


@dataclasses.dataclass
class Spent:
    """CPU seconds of the whole process, and of them the fake's (inside its handlers), over a stretch of wall time."""

    cpu: float
    fake: float
    wall: float

    @property
    def host(self) -> float:
        return self.cpu - self.fake

    def share(self, cpu: float) -> float:
        return cpu / max(self.wall, 1e-9)


def spent_since(fake: GoogleApiFake, cpu: float, fake_cpu: float, wall: float) -> Spent:
    return Spent(time.process_time() - cpu, fake.handler_cpu - fake_cpu,  # type: ignore[attr-defined]
                 time.monotonic() - wall)


def measured(fake: GoogleApiFake) -> tuple[float, float, float]:
    """Where a stretch begins, for ``spent_since``."""
    return time.process_time(), fake.handler_cpu, time.monotonic()  # type: ignore[attr-defined]


def measure_idle_google(args: argparse.Namespace, root: Path) -> None:
    """``--idle-google N``: a host restarted on N Google matches polled before (on the fake, over ``--accounts``):
    its first look, idle CPU (the fake's apart), Drive and Sheets requests, memory, saves; beside cron's."""
    rng = random.Random(args.seed)
    t0 = time.monotonic()
    fake = locked_fake()
    configs = polled_google(fake, root, args.idle_google, args.accounts, rng)
    accounts = [f"bench{a}@sheets-gm-test.iam.gserviceaccount.com" for a in range(args.accounts)]
    print(f"Made {len(configs)} GvG matches polled before on the fake over {args.accounts} accounts in "
          f"{time.monotonic() - t0:.0f} s (resident {rss_kib() / 1024:.0f} MiB).")
    importlib.import_module("sheets_gm.sheets.google.backend")
    gc.collect()
    rss_before = rss_kib()
    fake.reset_counters()
    start = measured(fake)
    running = Running([root / "google"], root / "serve-status.json", args.interval, args.workers, args.ask_share)
    last = sorted(configs)[-1]
    answered = running.save(last, args.seed + "/restart", 30 * 60)  # typed as the host starts
    running.wait_until(lambda: len(running.host.matches) == len(configs) and all(
        h.looked_at is not None for h in running.host.matches.values()) and not running.host._turns.asking and sum(
        by_caller(fake, "drive.files.list", accounts)) >= args.accounts, 30 * 60)
    first = spent_since(fake, *start)
    first_drive = by_caller(fake, "drive.", accounts)
    first_index = sum(by_caller(fake, "drive.files.list", accounts))
    first_reads = sum(by_caller(fake, "sheets.", accounts))
    first_polls = sum(map(len, running.polls.values()))
    running.wait_until(lambda: False, 2 * args.interval)
    gc.collect()
    rss_idle = rss_kib()
    hosted_kept = kept_size([running.host.matches, running.host._moments]) / len(configs)
    watchers_kept = kept_size([w._matches for w in running.host.accounts.all()]) / len(configs)
    fake.reset_counters()
    polls_before = sum(map(len, running.polls.values()))
    begin = measured(fake)
    time.sleep(args.idle)
    idle = spent_since(fake, *begin)
    idle_polls = sum(map(len, running.polls.values())) - polls_before
    drive_rates = [n / (idle.wall / 60) for n in by_caller(fake, "drive.", accounts)]
    sheets_reads = sum(by_caller(fake, "sheets.", accounts))
    def account_of(config: Path) -> str:
        return match_account(config, accounts)

    others = [c for i, c in enumerate(configs) if i % args.accounts not in (0, 1)]  # the late and hung accounts'
    baseline = Stretch(time.monotonic(), now())  # matches left out of both samples, baseline and isolated
    phases = [rng.random() for _ in range(args.saves)]  # the same moments among the questions in both samples
    saves = timed_saves(running, rng.sample(others, min(args.saves, len(others))), rng, args, phases)
    waits = [w for w in running.waits[1:] if w is not None]
    baseline.end(running, fake, saves, account_of, leave_out=accounts[:2])
    isolated = isolation(running, fake, others, account_of, accounts, args, phases) if args.accounts > 2 else None
    restart_wait = running.waits[0] if running.waits else None
    running.close()
    cron = cron_google(fake, root, configs, args)
    never = cold_start(root, configs, args, "google") if args.never_polled else None
    fake.stop()
    print(f"(restart: the save's poll was handed to a worker "
          f"{'never' if restart_wait is None else f'{restart_wait:.1f} s after the save'})")
    print_google(args, len(configs), answered, first, (first_drive, first_index, first_reads, first_polls),
                 idle, (idle_polls, drive_rates, sheets_reads), saves, waits,
                 (hosted_kept, watchers_kept, rss_before, rss_idle), cron)
    if isolated is not None:
        print_isolation(args, baseline, isolated)
    if never is not None:
        print_cold_start(never, f"{len(configs)} Google matches never polled (their .sheets-gm folders removed)",
                         "CPU (the fake's included)")


@dataclasses.dataclass
class Stretch:
    """A stretch of saves at random moments, for the isolation run: its saves' answers, and from the fake and the
    host's polls what shows whether another account held them up: the gaps between two change-log questions of
    each account (``fake.questions``; the late and hung accounts left out) and the polls' own runs."""

    began: float
    began_at: datetime
    saves: list[float] = dataclasses.field(default_factory=list)
    after: list[float] = dataclasses.field(default_factory=list)  # each save's answer less its wait for its
    # account's next question (the host's part and Drive's answer, the poll, without where the save fell)
    gaps: list[float] = dataclasses.field(default_factory=list)
    runs: list[float] = dataclasses.field(default_factory=list)
    said: list[str] = dataclasses.field(default_factory=list)  # what the host said of the accounts meanwhile

    def end(self, running: Running, fake: GoogleApiFake, saves: list[float], account: Callable[[Path], str],
            leave_out: Sequence[str] = ()) -> None:
        """The stretch ends now: its saves (``account``: the account of a match), gaps and polls' runs."""
        ended = time.monotonic()
        asked: dict[str, list[float]] = {}
        for caller, at in list(fake.questions):  # type: ignore[attr-defined]
            if self.began <= at <= ended and caller not in leave_out:
                asked.setdefault(caller, []).append(at)
        self.saves = saves
        typed = [(config, at) for config, at in running.saved if at >= self.began]
        for answer, (config, at) in zip(saves, typed, strict=False):
            question = min((q for q in asked.get(account(config), []) if q >= at), default=None)
            if question is not None and question - at <= answer:
                self.after.append(answer - (question - at))
        self.gaps = [b - a for moments in asked.values() for a, b in itertools.pairwise(moments)]
        self.runs = [(ended_at - handed).total_seconds() for polls in list(running.polls.values())
                     for handed, ended_at, _ in polls if handed >= self.began_at]


def isolation(running: Running, fake: GoogleApiFake, others: Sequence[Path], account: Callable[[Path], str],
              accounts: Sequence[str], args: argparse.Namespace, phases: Sequence[float]) -> Stretch:
    """One account's Drive change log ``--late`` seconds late (the first) and one account's Drive hung (the
    second: each of its requests held until the client's read timeout, then failed), from one interval before
    the saves: the other accounts' saves (``others``), as ``timed_saves`` times them."""
    fake.late_account, fake.late_by = accounts[0], args.late  # type: ignore[attr-defined]
    fake.hung_account = accounts[1]  # type: ignore[attr-defined]
    said = len(running.lines)
    isolated = Stretch(time.monotonic(), now())
    running.wait_until(lambda: False, args.interval)  # every account asked once since: the late and hung ones too
    rng = random.Random(f"{args.seed}/isolation")
    saves = timed_saves(running, rng.sample(list(others), min(args.saves, len(others))), rng, args, phases)
    isolated.end(running, fake, saves, account, leave_out=accounts[:2])
    isolated.said = list(dict.fromkeys(line.split(" (Drive did not answer: ")[0].split(";")[0]
                                       for line in running.lines[said:] if line.startswith("Account ")))
    fake.late_account = fake.hung_account = ""  # type: ignore[attr-defined]
    return isolated


def print_isolation(args: argparse.Namespace, baseline: Stretch, isolated: Stretch) -> None:
    """The isolation run's figures beside the baseline's of the same run."""
    def figures(values: list[float], digits: int = 1) -> str:
        return (f"median {statistics.median(values):.{digits}f} s, 95th percentile "
                f"{percentile(values, 0.95):.{digits}f} s" if values else "none")

    def ratio(share: float) -> str:
        base = baseline.saves and percentile(baseline.saves, share)
        return f"{(percentile(isolated.saves, share) / base - 1) * 100:+.0f} %" if base and isolated.saves else "?"

    print(f"- one account's Drive change log {args.late:g} s late and another's Drive hung (each request held "
          f"{DEFAULT_TIMEOUT[1]:g} s, the client's read timeout, then failed): the other accounts' saves answered in "
          f"{figures(isolated.saves)} over {len(isolated.saves)} saves; without them, in the same run: "
          f"{figures(baseline.saves)} over {len(baseline.saves)} saves; median {ratio(0.5)}, 95th percentile "
          f"{ratio(0.95)} (goal within 20 %)")
    print(f"  the same saves less each one's wait for its account's next question (Drive's answer, the host, the "
          f"poll): {figures(isolated.after, 2)} over {len(isolated.after)} (without: {figures(baseline.after, 2)} over "
          f"{len(baseline.after)})")
    print(f"  the other accounts' change-log questions: {len(isolated.gaps)} gaps, {figures(isolated.gaps)}, "
          f"longest {max(isolated.gaps, default=0):.1f} s (without: {figures(baseline.gaps)}, longest "
          f"{max(baseline.gaps, default=0):.1f} s); "
          + (f"the polls' runs: {figures(isolated.runs, 2)} (without: {figures(baseline.runs, 2)}); "
             if isolated.runs or baseline.runs else "")  # over HTTP the polls are serve's own: not seen here
          + f"the host said: {' | '.join(isolated.said) or 'nothing'}")


@dataclasses.dataclass
class CronGoogle:
    """Today's cron on the same Google matches, measured: the CPU of an idle ``sync`` process (a local match's:
    the fake cannot answer another process), the import of Google's client on top, the idle gated poll (in
    process), and the change-log requests of one match's poll."""

    process: float
    google_import: float
    poll: float
    asks: float  # change-log requests a poll a match

    def cpu(self, matches: int) -> float:
        """Cron's share of one core for ``matches`` idle Google matches (a process a match a minute)."""
        return matches * (self.process + self.google_import + self.poll) / 60


def cron_google(fake: GoogleApiFake, root: Path, configs: Sequence[Path], args: argparse.Namespace) -> CronGoogle:
    """Cron measured beside the host (``CronGoogle``), on a sample of the account first's matches."""
    folder = root / "cron-local"
    folder.mkdir()
    (folder / "roster.csv").write_text(ROSTER, encoding="utf-8")
    (folder / "match.toml").write_text(GVG_CONFIG, encoding="utf-8")
    subprocess.run([*program(), "init", "gvg", "-c", "match.toml"], check=True, capture_output=True, cwd=folder)
    process = cron_idle_cpu([folder / "match.toml"] * args.cron_sample)
    sample = list(configs[:: args.accounts][: max(args.cron_sample, 1)])
    poll, asked = cron_google_poll(fake, sample)
    return CronGoogle(process, google_import_cpu(), poll, asked / len(sample))


def print_google(args: argparse.Namespace, count: int, answered: float | None, first: Spent,
                 first_counts: tuple[list[int], int, int, int], idle: Spent,
                 idle_counts: tuple[int, list[float], int], saves: list[float], waits: list[float],
                 memory: tuple[float, float, int, int], cron: CronGoogle) -> None:
    """The figures of ``--idle-google``."""
    first_drive, first_index, first_reads, first_polls = first_counts
    idle_polls, drive_rates, sheets_reads = idle_counts
    hosted_kept, watchers_kept, rss_before, rss_idle = memory
    per_account = count / args.accounts
    cron_cpu = cron.cpu(count)
    print(f"\nFigures ({count} Google matches polled before, {args.accounts} accounts, interval {args.interval:g} s, "
          f"{args.workers} workers; serve beside today's cron; the fake answers in this process, its CPU counted "
          f"inside its handlers):")
    print(f"- a host restarted on them: every match looked at and each account's file index asked in "
          f"{first.wall:.0f} s, {first.cpu:.1f} s of CPU ({first.host:.1f} s the host's, {first.fake:.1f} s the "
          f"fake's); {first_polls} polls, Drive requests per account: median {statistics.median(first_drive):.0f},"
          f" most {max(first_drive)} ({first_index} file-index questions in all), {first_reads} Sheets requests; a "
          f"save in the last match typed as it started answered in "
          f"{'more than 30 min' if answered is None else f'{answered:.1f} s'} (goal 30 s)")
    print(f"- idle CPU over {idle.wall:.0f} s: {idle.share(idle.cpu) * 100:.2f} % of one core in all, of which the "
          f"fake's handlers {idle.share(idle.fake) * 100:.2f} %: the host's {idle.share(idle.host) * 100:.2f} %, "
          f"{idle.share(idle.host) * 60:.2f} CPU seconds a minute (goal < 5 %); {idle_polls} polls meanwhile; "
          f"cron: {cron_cpu * 100:.0f} %, {cron_cpu * 60:.0f} CPU seconds a minute ({cron.process:.2f} s an idle "
          f"sync process, +{cron.google_import:.2f} s to import Google's client, +{cron.poll * 1000:.0f} ms the "
          f"gated poll; a process a match a minute)")
    print(f"- Drive requests a minute per account while idle: median {statistics.median(drive_rates):.1f}, most "
          f"{max(drive_rates):.1f} ({per_account:.0f} matches an account; goal <= 10); Sheets requests of the "
          f"host's accounts meanwhile: {sheets_reads} (0 expected); cron: {cron.asks * per_account:.0f} a minute "
          f"per account ({cron.asks:.1f} change-log requests a poll, measured, a poll a match a minute)")
    if saves:
        print(f"- a save answered in: median {statistics.median(saves):.1f} s, 95th percentile "
              f"{percentile(saves, 0.95):.1f} s over {len(saves)} saves at random moments (goal 10 s); the host's "
              f"part, from the save to its poll handed to a worker: median {statistics.median(waits or [0]):.2f} s,"
              f" 95th percentile {percentile(waits or [0], 0.95):.2f} s; cron: the next minute, 95th percentile "
              f"57 s plus the poll")
    print(f"- memory an idle match costs: {hosted_kept / 1024:.2f} KiB of objects kept by the host's match table "
          f"and moments, {watchers_kept / 1024:.2f} KiB in its account's watcher (goal < 10 KiB together); the "
          f"resident size grew {(rss_idle - rss_before) / count:.1f} KiB a match ({rss_before / 1024:.0f} MiB "
          f"before the host, the fake's clones made; {rss_idle / 1024:.0f} MiB idle); cron keeps none")


def restart_options(parser: argparse.ArgumentParser) -> None:
    """The options of the restarts (``--restart-local``, ``--serve-google``)."""
    parser.add_argument("--restart-limit", type=float, default=300.0,
                        help="with --restart-local: seconds a restart's saves may take (default 300)")
    parser.add_argument("--save-gap", type=float, default=0.3,
                        help="with --restart-local: seconds between two saves arriving as the host starts, each "
                        "typed ahead and written whole (default 0.3: the last of ten 3 s after the start)")
    parser.add_argument("--busy", default="0", help="with --restart-local or --serve-google: busy processes spun "
                        "beside, one run of rounds (of restarts) for each count of a comma-separated list (default 0; "
                        "0,6 on 2 cores: load 2 and 8)")
    parser.add_argument("--settle", type=float, default=60.0,
                        help="with --busy: seconds the load average is given to rise before the restarts (with "
                        "--load: at most); with --idle-hour: after the first search, before the window (its first "
                        "looks)")
    parser.add_argument("--load", metavar="L[,L...]",
                        help="with --busy: wait until the 1-minute load average reaches L before the restarts (as "
                        "many processes again spin until it does), or --settle seconds; said either way; one L for "
                        "each count of --busy, or one for all")
    parser.add_argument("--linger", type=float, default=20.0,
                        help="with --serve-google: seconds a restarted serve runs on after its last save's answer "
                        "(default 20: its own answers read back before it stops, or the next restart reads them)")
    parser.add_argument("--trace", action="store_true",
                        help="with --serve-google: each restart's timeline (its log's lines, the fake's requests, "
                        "the CPU of serve, its polls and the fake by then)")


def idle_hour_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``--idle-hour``: the real serve at rest."""
    parser.add_argument("--idle-hour", type=int, metavar="N",
                        help="the real serve at rest on N local matches polled before: its CPU over --window s "
                             "(beside --vs's)")
    parser.add_argument("--window", type=float, default=3600.0, help="with --idle-hour: seconds measured (3600)")
    parser.add_argument("--made", metavar="FOLDER",
                        help="with --idle-hour: this tree's matches made before (an earlier run's idle-this)")
    parser.add_argument("--watch-limit", type=int, metavar="W",
                        help="with --idle-hour: each serve in a user namespace of its own whose inotify watch limit is "
                             "W (user.max_inotify_watches, as in a container): fewer than its folders, no file events")
    parser.add_argument("--every", type=float, default=300.0, help="with --idle-hour: seconds between reports (300)")


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=100, help="local matches, and Google matches (default 100)")
    parser.add_argument("--accounts", type=int, default=10, help="Google accounts (default 10)")
    parser.add_argument("--interval", type=float, default=10.0, help="the host's interval in seconds (default 10)")
    parser.add_argument("--idle", type=float, default=60.0, help="seconds of idle measured (default 60)")
    parser.add_argument("--saves", type=int, default=20, help="saves timed (default 20)")
    parser.add_argument("--workers", type=int, default=4, help="the host's workers (default 4)")
    parser.add_argument("--cron-sample", type=int, default=8, help="cron processes measured (default 8)")
    parser.add_argument("--ready-sample", type=int, metavar="M",
                        help="make M matches Ready for the windows a minute (default: every one)")
    parser.add_argument("--ready-limit", type=float, default=3600.0,
                        help="seconds the Ready matches may take to resolve before the bench names those left")
    parser.add_argument("--late", type=float, default=30.0,
                        help="seconds one account's Drive change log is delayed in the isolation run (default 30)")
    parser.add_argument("--ask-share", type=float, metavar="F",
                        help="with --idle-google: each account asks Drive F of the interval apart (default: serve's "
                        "own; 1 measures the host as it asked before, once an interval)")
    parser.add_argument("--idle-local", type=int, metavar="N",
                        help="instead: a host on N local matches polled before, idle (CPU, memory, a cold start)")
    parser.add_argument("--idle-google", type=int, metavar="N",
                        help="instead: a host restarted on N Google matches polled before, over --accounts")
    parser.add_argument("--never-polled", action="store_true",
                        help="with --idle-local or --idle-google: then a cold start on the same matches, their "
                        "records removed")
    parser.add_argument("--restart-local", type=int, metavar="N",
                        help="instead: the real serve restarted on N local matches polled before, --saves saves "
                        "waiting (half typed while it was down, half as it starts), each answer from the start")
    parser.add_argument("--serve-google", type=int, metavar="N",
                        help="instead: the real serve process on N Google matches polled before, on the fake served "
                        "over HTTP on 127.0.0.1: idle CPU, Drive requests, saves")
    parser.add_argument("--isolation", action="store_true",
                        help="with --serve-google: the saves in the accounts but the first two, then as many with the "
                        "first's change log --late s late and the second's Drive hung (the isolation run on the real "
                        "serve)")
    parser.add_argument("--oauth", choices=("match", "gm"), default="",
                        help="with --serve-google: the matches played on --accounts GMs' own sign-ins (drive.file), "
                        "each sign-in saved in its match's folder (match, as doctor saves it) or one a GM (gm)")
    parser.add_argument("--vs", metavar="COMMIT", help="with --restart-local or --serve-google: that commit's serve in "
                        "turn with this tree's for the restarts (the same run's baseline)")
    parser.add_argument("--rounds", type=int, help="with --restart-local: restarts of each (default 2); with "
                        "--serve-google: restarts at each --busy count (default 1)")
    parser.add_argument("--first-start", type=int, metavar="N",
                        help="instead: the real serve started on N local matches another host polled, in another "
                        "folder (as restored from a backup), the first, middle and last saved meanwhile: each answer "
                        "from the spawn (--vs, --rounds, --restart-limit)")
    parser.add_argument("--plain-copy", action="store_true",
                        help="with --first-start: the matches copied for each start by cp -r (the files' times not "
                        "kept), not moved")
    parser.add_argument("--start-cpu", action="store_true",
                        help="with --restart-local: instead of saves, the host's own CPU to READY and to its first "
                        "search's end (with --vs, in turn with that commit's; --rounds of each)")
    restart_options(parser)
    idle_hour_options(parser)
    parser.add_argument("--seed", default="bench", help="the random seed (default bench)")
    args = parser.parse_args(argv)
    args.rounds = args.rounds or (1 if args.serve_google else 2)
    if args.matches < max(4, args.accounts) or args.saves < 2:
        parser.error("--matches: at least 4 and at least one a Google account; --saves: at least 2")
    with tempfile.TemporaryDirectory() as tmp:
        if args.idle_hour:
            measure_idle_hour(args, Path(tmp))
        elif args.first_start:
            measure_first_start(args, Path(tmp))
        elif args.restart_local and args.start_cpu:
            measure_start_cpu(args, Path(tmp))
        elif args.restart_local:
            measure_restart(args, Path(tmp))
        elif args.serve_google:
            measure_serve_google(args, Path(tmp))
        elif args.idle_google:
            measure_idle_google(args, Path(tmp))
        elif args.idle_local:
            measure_idle(args, Path(tmp))
        else:
            measure(args, Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
