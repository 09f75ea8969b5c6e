"""One Google account's Drive slow or hung under ``serve`` (issue 95, item 4), on the fake with the host's clock moved
by the test (nothing sleeps): a change log answered late costs a save in that account its delay once, not once for
its watcher and again for the match's poll; a Drive that does not answer at all (Sheets still answering) leaves its
account's saves answered from Sheets alone within a bound, said in the host's log and its status; the other
accounts' saves are never held up by it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests

from sheets_gm.host.accounts import AccountWatcher, account_of, config_keys
from sheets_gm.host.quiet import last_read
from sheets_gm.host.scheduler import DRIVE_DEADLINE, SHEETS_ALONE_EVERY, Host
from sheets_gm.host.status import status_lines
from sheets_gm.match.config import load_config
from sheets_gm.running.google_sign_in import google_client
from tests.commands.test_commands_google import run
from tests.fakes.google_api import READ, GoogleApiFake
from tests.host.hosting import Clock, hosted, new_host
from tests.host.test_restart_google import _player_saves
from tests.host.test_serve_google import account, by_account, fake, league_on_fake  # noqa: F401 (the fixture)

#: How late the club's change log answers (the host's clock moves this much while it is asked).
LATE = 30.0
#: How long a hung Drive holds a request before the client gives up (its read timeout).
HUNG = 60.0
INTERVAL = 10.0


def slowed(fake: GoogleApiFake, clock: Clock, late: Callable[[str, str], float], *, fails: bool = False) -> None:  # noqa: F811
    """Every request to the fake held ``late(caller, url)`` seconds of the host's clock before it is answered (a
    late Drive: its answer says what Drive holds when it answers); with ``fails``, then not answered at all (the
    Google client's read timeout)."""
    handle = fake._handle

    def held(request: Any) -> Any:
        seconds = late(fake._caller(request.headers.get("Authorization", "")), request.url or "")
        if seconds:
            clock.tick(seconds)
            if fails:
                return requests.exceptions.ReadTimeout(f"{request.url}: read timed out")
        return handle(request)

    fake._handle = held  # type: ignore[method-assign]


def served_idle(fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
                monkeypatch: pytest.MonkeyPatch, **options: Any) -> tuple[Clock, Path, dict[str, Path], Host,
                                                                          list[str]]:
    """The league polled by cron before (each match's own record and Drive token), then a host started on it and
    served until every account's watcher compared the matches' reads with Drive's file index: idle, no poll of its
    own yet (as a host restarted on matches it or cron polled before)."""
    clock, league, configs = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    for config in configs.values():
        for _ in range(2):  # its first poll, then our answers read back
            assert run(capsys, "sync", "-c", config, "--quiet")[0] == 0
    lines: list[str] = []
    host = new_host(league, clock, lines, interval=INTERVAL, **options)
    for _ in range(4):
        host.step()
        clock.tick(INTERVAL)
    return clock, league, configs, host, lines


def answered_after(host: Host, clock: Clock, league: Path, name: str, limit: float = 300) -> float:
    """Seconds of the host's clock from now until the match ``name``'s save is answered (its feedback written)."""
    began, match = clock(), hosted(host, league, name)
    while (clock() - began).total_seconds() < limit:
        host.step()
        if match.read_at is not None and match.read_at >= began and "feedback cells updated" in match.line:
            return (clock() - began).total_seconds()
        clock.tick(1)
    return float("inf")


def test_a_late_change_log_costs_a_save_its_delay_once(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, league, configs, host, _ = served_idle(fake, tmp_path, capsys, monkeypatch)
    club = account("club")
    slowed(fake, clock, lambda caller, url: LATE if caller == club and "/drive/v3/changes?" in url else 0.0)
    _player_saves(configs["one"], tmp_path)
    took = answered_after(host, clock, league, "one")
    # its account's next question (within the interval), answered LATE seconds on, then the poll: no second wait
    assert took <= INTERVAL + LATE + 2, took


def test_a_hung_drive_leaves_its_accounts_saves_answered_from_sheets_alone(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    club, hung, held = account("club"), [False], list[Callable[[], None]]()

    def background(task: Callable[[], None], name: str) -> None:  # the club's question never answered
        held.append(task) if hung[0] and "club-bot" in name else task()

    clock, league, configs, host, lines = served_idle(fake, tmp_path, capsys, monkeypatch, background=background)
    # Any Drive request of the club's (a poll's own) hangs for the client's read timeout, then fails.
    slowed(fake, clock, lambda caller, url: HUNG if hung[0] and caller == club and "/drive/v3/" in url else 0.0,
           fails=True)
    hung[0] = True
    host.step()
    assert len(held) == 1
    for name in ("one", "three"):  # a save in each account
        _player_saves(configs[name], tmp_path)
    assert answered_after(host, clock, league, "three") <= INTERVAL + 1  # the guild's: as ever
    assert answered_after(host, clock, league, "one") <= DRIVE_DEADLINE + 2  # the club's: from Sheets, at the bound
    said = [line for line in lines if "Drive has not answered" in line]
    assert len(said) == 1 and "are read from Sheets alone" in said[0], lines
    shown = "\n".join(status_lines(host.status(clock()), clock()))
    assert "its matches read from Sheets alone since" in shown, shown
    clock.tick(5)
    _player_saves(configs["two"], tmp_path)  # another save while Drive stays hung: within the spacing
    assert answered_after(host, clock, league, "two") <= SHEETS_ALONE_EVERY.total_seconds() + 2
    fake.reset_counters()
    for _ in range(100):  # what it costs meanwhile: each club match read about once every SHEETS_ALONE_EVERY
        host.step()
        clock.tick(1)
    reads = by_account(fake, READ).get(club, 0)
    assert 0 < reads <= 2 * 4 * 3, reads
    hung[0] = False
    held.pop()()  # Drive answers at last
    for _ in range(3):
        host.step()
        clock.tick(INTERVAL)
    assert any("Drive answers again" in line for line in lines)
    assert "Sheets alone" not in "\n".join(status_lines(host.status(clock()), clock()))


def test_a_match_attached_after_a_log_answer_its_index_predates_asks_drive_itself(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The property behind the first test: a match's polls are answered by its watcher from the first only when the
    # watcher knows every change since its last reads. Two's save is listed by a log answer given before two was
    # attached (nobody owned it then), after the file index the watcher keeps: its first poll asks Drive itself.
    clock, _, configs = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    for name in ("one", "two"):
        for _ in range(2):
            assert run(capsys, "sync", "-c", configs[name], "--quiet")[0] == 0
    config = load_config(configs["one"])
    watcher = AccountWatcher(account_of(config), clock())
    watcher.add_sign_in(account_of(config), lambda: google_client(config))
    one, two = (configs[name].resolve() for name in ("one", "two"))
    watcher.attach(one, config_keys(config), since=last_read(one))
    watcher.ask(clock())  # its token, then the index for one's reads (kept for the matches attached later)
    assert watcher.hand_over(one) is not None  # one: answered by the watcher from its first poll
    clock.tick(10)
    _player_saves(configs["two"], tmp_path)
    clock.tick(10)
    watcher.ask(clock())  # the log lists two's save: no match of the watcher's owns it yet
    watcher.attach(two, config_keys(load_config(configs["two"])), since=last_read(two))
    clock.tick(10)
    watcher.ask(clock())  # two's reads compared with the index kept, which predates its save
    handed = watcher.hand_over(two)
    assert handed is None or handed.changes, handed  # its poll asks Drive itself (or is told of the save)
