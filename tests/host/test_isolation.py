"""What no match, account or hang holds back: a poll that hangs is stopped at its deadline and its match tried
again while the others resolve; a poll's process that crashes or hangs ends as a failure of that poll alone; one
Google account whose Drive hangs holds up its own matches only; SIGTERM does not wait on a hung poll; systemd's
watchdog hears the host. The host's clock moves when the test says; nothing sleeps."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from sheets_gm.host.outcome import Done, Outcome
from sheets_gm.host.processes import PollDied, PollProcesses
from sheets_gm.host.scheduler import FIRST_RETRY
from sheets_gm.host.systemd import Watchdog
from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.lock import match_lock
from tests.fakes.google_api import GoogleApiFake
from tests.host import poll_children as children
from tests.host.hosting import Clock, hosted, new_host
from tests.host.test_serve_google import fake, league_on_fake  # noqa: F401 (the fixture)
from tests.matchfiles import NOW, local_config, local_match, state_of, type_orders

T = TypeVar("T")


class HangingPool(Executor):
    """A pool that runs each poll at once, but never finishes those of the matches named in ``hang`` until
    killed (:meth:`kill`, as ``PollProcesses`` kills a process)."""

    def __init__(self, hang: set[str]) -> None:
        self.hang = hang
        self.killed: list[Future[Any]] = []
        self.shut = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        if args and isinstance(args[0], Path) and args[0].parent.name in self.hang:
            future.set_running_or_notify_cancel()
            return future  # hangs
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future

    def kill(self, future: Future[Any]) -> bool:
        if future.done():
            return False
        self.killed.append(future)
        future.set_exception(PollDied("the poll overran its deadline and was stopped"))
        return True

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True


def test_a_hung_poll_is_stopped_at_its_deadline_and_retried_while_the_others_resolve(tmp_path: Path) -> None:
    league = tmp_path / "league"
    sheets = {name: local_match(league / name)[1] for name in ("hung", "fine")}
    for name in sheets:
        type_orders(sheets[name])
    pool = HangingPool({"hung"})
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10, workers=2, poll_deadline=60, pool=pool)
    host.step()
    assert state_of(sheets["fine"]).turn == 2 and hosted(host, league, "hung").running
    type_orders(sheets["fine"])
    for _ in range(5):  # the hung poll holds one worker; the other serves the rest
        clock.tick(10)
        host.step()
    assert state_of(sheets["fine"]).turn == 3 and not pool.killed
    clock.tick(10)
    host.step()  # 60 s: stopped, said, and tried again later
    match = hosted(host, league, "hung")
    assert len(pool.killed) == 1 and not match.running and match.failures == 1
    assert any("hung/match.toml: its poll overran its deadline (60 s) and was stopped" in line for line in lines)
    assert match.retry_at == clock() + FIRST_RETRY
    pool.hang.clear()  # whatever hung it is gone
    clock.tick(FIRST_RETRY.total_seconds())
    host.step()
    assert state_of(sheets["hung"]).turn == 2 and match.failures == 0


def test_sigterm_does_not_wait_on_a_hung_poll(tmp_path: Path) -> None:
    league = tmp_path / "league"
    type_orders(local_match(league / "hung")[1])
    pool = HangingPool({"hung"})
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, pool=pool, stop_grace=0)
    host.step()
    host.close()  # what SIGTERM ends in: the grace is over at once here
    assert len(pool.killed) == 1 and pool.shut
    assert lines[-1] == "Stopped; 1 poll cut short (completed by the next start, from its journal)."


@pytest.fixture(scope="module")
def processes() -> Iterator[PollProcesses]:
    pool = PollProcesses()
    yield pool
    pool.shutdown(wait=True)


def test_a_polls_process_that_crashes_or_hangs_fails_that_poll_alone(processes: PollProcesses) -> None:
    assert processes.submit(children.answers, 21).result(timeout=60) == 42
    with pytest.raises(PollDied, match="exited with code 3 before it answered"):
        processes.submit(children.exits, 3).result(timeout=60)
    with pytest.raises(PollDied, match="killed by signal 9 before it answered"):
        processes.submit(children.dies).result(timeout=60)
    with pytest.raises(RuntimeError, match="ValueError: rules in a bad mood"):
        processes.submit(children.raises).result(timeout=60)
    import multiprocessing

    # an event handed to the process as it starts, not a manager's (one more process, and a server to ask)
    ready = multiprocessing.get_context("forkserver").Event()
    hung = processes.submit(children.hangs, ready)
    assert ready.wait(timeout=60) and not hung.done()
    assert processes.kill(hung)
    with pytest.raises(PollDied, match="overran its deadline"):
        hung.result(timeout=60)
    assert processes.submit(children.answers, 1).result(timeout=60) == 2  # the pool goes on
    assert processes.running() == []


def test_a_poll_starts_beside_the_caller_and_one_stopped_before_it_started_never_runs(
        processes: PollProcesses, tmp_path: Path) -> None:
    """A restart's first polls are handed over while the server still imports the host (held here by its lock):
    ``submit`` returns at once (the host's loop and the watchdog go on), a poll killed at its deadline before its
    process could start never runs, and the others run once the server answers."""
    with processes._starts:  # the server busy: no process can start yet
        first = processes.submit(children.answers, 5)
        stopped = processes.submit(children.writes, str(tmp_path / "ran"))
        assert not first.done() and not stopped.done()
        assert processes.kill(stopped)
    assert first.result(timeout=60) == 10
    with pytest.raises(PollDied, match="overran its deadline"):
        stopped.result(timeout=60)
    assert not processes.kill(stopped) and processes.running() == [] and not (tmp_path / "ran").exists()


def test_one_hung_account_holds_up_its_own_matches_only(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, league, configs = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    held: list[Callable[[], None]] = []
    hung = {"club": False}

    def background(task: Callable[[], None], name: str) -> None:
        if hung["club"] and "club-bot" in name:
            held.append(task)  # Drive never answers the club's question
        else:
            task()

    lines: list[str] = []
    host = new_host(league, clock, lines, interval=10, background=background)
    for _ in range(4):  # the first polls, ours read back, then idle
        host.step()
        clock.tick(10)
    hung["club"] = True
    host.step()
    assert len(held) == 1
    for name in ("one", "three"):  # a save on each account
        type_orders(open_match_sheets(load_config(configs[name])), ready=False)
    clock.tick(10)
    host.step()
    assert "feedback cells updated" in hosted(host, league, "three").line  # the guild's: answered at once
    assert "feedback cells updated" not in hosted(host, league, "one").line  # the club's waits for its Drive ...
    for _ in range(2):
        clock.tick(10)
        host.step()
    club = next(a for a in host.status(clock()).accounts if "club" in a.name)
    assert "Drive has not answered for 30 s" in club.error and club.sheets_alone
    assert "feedback cells updated" in hosted(host, league, "one").line  # ... until its deadline: from Sheets alone
    assert sum("Drive has not answered" in line for line in lines) == 1  # said once
    hung["club"] = False
    held.pop()()  # Drive answers at last
    clock.tick(10)
    host.step()
    host.step()
    club = next(a for a in host.status(clock()).accounts if "club" in a.name)
    assert not club.sheets_alone and any("Drive answers again" in line for line in lines)


def test_the_watchdog_speaks_sd_notify_over_the_socket(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        where = tmp_path / "notify"
        systemd.bind(str(where))
        dog = Watchdog(str(where))
        assert dog.notify("READY=1") and systemd.recv(100) == b"READY=1"
        assert dog.ping(100.0) and systemd.recv(100) == b"WATCHDOG=1"
        assert not dog.ping(101.0)  # not at every pass
        assert dog.ping(106.0) and systemd.recv(100) == b"WATCHDOG=1"
    assert not Watchdog("").ping() and not Watchdog(str(tmp_path / "gone")).notify("READY=1")


def test_no_match_lock_outlives_the_host_that_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Property: once ``close`` returns, no poll of the host holds its match's lock, whatever its pool. A pool of
    threads cannot stop a poll (a benchmark runs the host so): it is waited on, as said; without that, the poll
    ran on past the host, its lock held, and the next command on the match (cron's sync) found it busy."""
    league = tmp_path / "league"
    (league / "slow").mkdir(parents=True)
    local_config(league / "slow")  # its poll is the test's own: no workbook needed
    ends = threading.Event()  # the slow poll ends some time after the grace: here, once the host waits for it

    class Threads(ThreadPoolExecutor):
        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            if wait:
                ends.set()
            super().shutdown(wait, cancel_futures=cancel_futures)

    def slow_poll(path: Path, *args: Any, **kwargs: Any) -> Outcome:
        with match_lock(load_config(path).lock_path, wait_seconds=0):
            ends.wait(timeout=60)  # (a safety limit, never reached)
        return Outcome(Done.IDLE)

    monkeypatch.setattr("sheets_gm.host.scheduler.VISIT", slow_poll)
    lines: list[str] = []
    host = new_host(league, Clock(NOW), lines, pool=Threads(1), stop_grace=0)
    host.step()
    assert hosted(host, league, "slow").running
    host.close()
    try:
        with match_lock(load_config(league / "slow" / "match.toml").lock_path, wait_seconds=0):
            pass  # free: the poll ended before the host did
    finally:
        ends.set()
    assert lines[-2:] == ["1 poll cannot be stopped in this pool: waiting for it to end (each holds its match's "
                          "lock until then).", "Stopped."]
