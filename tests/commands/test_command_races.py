"""Two commands racing for a match resolve a window once (issue 52, item 7), on local workbooks and on Google.

Cron's poll behind its gate (``host.polls.poll_behind_gate``) decides, from the workbooks' fingerprints or from
Drive's change log and the spreadsheets it kept from its last read, whether and what to read. A GM's command that
holds the match lock meanwhile (``resolve --force --window``, another sync, an undo) writes the match; the poll
that waited for the lock must then decide from the match as that command left it, never from what it kept before.
Each test lets the other command run whole at the moment the poll asks for the lock (as if it held it first),
then the poll goes on; the match must have resolved the window once.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import sheets_gm.host.polls as polls
import sheets_gm.running.run as run
from sheets_gm.host.polls import poll_behind_gate, resolve_now
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import create_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.marks import file_mark
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError, undo_window
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.lock import match_lock
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.google_api import GoogleApiFake, fake_client, signed_in_fake, write_service_account_key
from tests.made import made_on_fake
from tests.matchfiles import GVG, SEED, TEAMS, local_match, record_of, roster, type_orders

NOON = datetime(2026, 11, 22, 12, tzinfo=UTC)
SA_EMAIL = "race-bot@sheets-gm-test.iam.gserviceaccount.com"
KEYS = {role: f"1{role.capitalize()}Key_command_races".ljust(44, "0") for role in ("board", "engine", "red", "blue")}

Other = Callable[[Any, MatchSheets], object]
OTHERS: dict[str, Other] = {
    "resolve --force --window": lambda config, sheets: resolve_now(config, open_match_sheets(config), force=True,
                                                                   window="1", clock=lambda: NOON),
    "sync": lambda config, sheets: poll_behind_gate(config, file_mark(config.path), open_match_sheets(config),
                                                    quiet=False, clock=lambda: NOON),
    "undo --window": lambda config, sheets: _undo(config),
}


def _undo(config: Any) -> None:
    with contextlib.suppress(BetweenWindowsError), run.gm_change(config):  # typed for the window resolved before
        undo_window(open_match_sheets(config), GVG, "late", window_key="0")


@contextlib.contextmanager
def racing(other: Callable[[], object]) -> Iterator[None]:
    """The next time a poll asks for the match lock, ``other`` runs whole first (it held the lock)."""
    real = match_lock
    waiting = [True]

    @contextlib.contextmanager
    def lock(path: Path, **kwargs: Any) -> Iterator[None]:
        if waiting[0]:
            waiting[0] = False
            other()
        with real(path, **kwargs):
            yield

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(polls, "match_lock", lock)
        patch.setattr(run, "match_lock", lock)
        yield


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    with signed_in_fake(monkeypatch, {}) as f:
        yield f


def google_config(fake: GoogleApiFake, folder: Path) -> Path:
    """A GvG match on the Google fake and its config in ``folder``: made once a test process and copied, the fake's
    state with it (``tests.made``)."""
    def make(into: Path) -> None:
        for role, sheet_key in KEYS.items():
            fake.create_spreadsheet(sheet_key, f"Race test · {role}", ("Sheet1",))
        backend = {role: GoogleSheetBackend(fake_client(), key, title=role) for role, key in KEYS.items()}
        sheets = MatchSheets(TEAMS, backend["board"], backend["engine"], (backend["red"], backend["blue"]))
        create_match(sheets, create_ruleset("gvg"), roster(), seed=SEED)
        write_service_account_key(into / "key.json", SA_EMAIL)
        (into / "match.toml").write_text(
            'ruleset = "gvg"\nteams = ["red", "blue"]\n'
            f'[sheets]\nbackend = "google"\nboard = "{KEYS["board"]}"\nengine = "{KEYS["engine"]}"\n'
            f'orders = {{ red = "{KEYS["red"]}", blue = "{KEYS["blue"]}" }}\n'
            '[google]\nservice_account = "key.json"\n', encoding="utf-8")

    made_on_fake(fake, folder, "command races: a match on Google", make)
    return folder / "match.toml"


def check_race(config_path: Path, other: str) -> None:
    config = load_config(config_path)
    sheets = open_match_sheets(config)

    def cron() -> object:
        return poll_behind_gate(config, file_mark(config.path), open_match_sheets(config), quiet=False,
                                clock=lambda: NOON)

    cron()  # the gate keeps what this poll read: the next one may answer from it
    type_orders(sheets)  # every seat ready: window 1 is due
    with racing(lambda: OTHERS[other](config, sheets)):
        cron()
    assert record_of(open_match_sheets(config)).resolved == 1
    for _ in range(2):  # and the polls after it, from what that poll kept
        cron()
        assert record_of(open_match_sheets(config)).resolved == 1


@pytest.mark.parametrize("other", sorted(OTHERS))
def test_a_poll_that_waited_for_another_command_resolves_the_window_once_local(tmp_path: Path, other: str) -> None:
    config, _ = local_match(tmp_path, private=True)
    check_race(config, other)


@pytest.mark.parametrize("other", sorted(OTHERS))
def test_a_poll_that_waited_for_another_command_resolves_the_window_once_google(
        fake: GoogleApiFake, tmp_path: Path, other: str) -> None:
    check_race(google_config(fake, tmp_path), other)


@pytest.mark.parametrize("google", [False, True])
def test_cron_completes_an_undo_killed_before_its_commit(fake: GoogleApiFake, tmp_path: Path, google: bool) -> None:
    """An undo killed (nothing after it ran: the gate's record of the last poll is still there, its kept reads from
    before the undo) is completed by cron's next poll, before its gate decides, and the poll says so."""
    from tests.fakes.memory import InjectedFault
    from tests.sync.test_cut_commands import Cut

    config_path = google_config(fake, tmp_path) if google else local_match(tmp_path, private=True)[0]
    config = load_config(config_path)

    def cron() -> Any:
        return poll_behind_gate(config, file_mark(config.path), open_match_sheets(config), quiet=False,
                                clock=lambda: NOON)

    cron()
    type_orders(open_match_sheets(config))
    assert cron().report.resolved  # turn 1; the gate keeps what this poll read
    cron()
    sheets = open_match_sheets(config)
    with Cut({"board": sheets.board}, "board"), pytest.raises(InjectedFault):
        undo_window(sheets, GVG, "wrong orders")  # killed: no gm_change to forget the gate's record
    report = cron().report
    assert "the undo of turn 1 was cut short before its last write" in report.completed
    assert record_of(open_match_sheets(config)).resolved == 0


# --------------------------------------------------------------------------- two threads, the lock really held


class Interleaving:
    """Cron's poll and another command in two threads, their order at the match lock injected with events (no real
    sleep). The other command (the ``holder``) starts when the poll asks for the lock for the ``at``-th time (or
    once the poll is done, if it never asks that often), takes the lock, and writes only once the poll is blocked
    on it; the poll's wait (``match_lock``'s ``sleep``) returns once the holder let it go. ``at`` 1: before the
    poll's first lock; 2: between a gated poll's rehearsal and its real pass, where the gate that decided before the
    lock (issue 52, item 7) let a command in, the poll then resolving from what its rehearsal had read."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.asked = 0
        self.turn = threading.Event()  # the holder's turn to start
        self.holds = threading.Event()  # the holder has the lock
        self.blocked = threading.Event()  # the poll found it held and waits (or will never ask)
        self.released = threading.Event()  # the holder let it go
        self.first = True

    def lock(self, path: Path, **kwargs: Any) -> contextlib.AbstractContextManager[None]:
        """``match_lock`` for whichever thread asks."""
        name = threading.current_thread().name
        if name == "holder" and self.first:
            self.first = False
            return self._held(path, **kwargs)
        if name == "poll":
            self.asked += 1
            if self.asked == self.at:
                self.turn.set()
                assert self.holds.wait(20), "the other command never took the lock"
            return match_lock(path, **{**kwargs, "wait_seconds": 30.0}, sleep=self._wait)
        return match_lock(path, **kwargs)

    def poll_done(self) -> None:
        """The poll is over: a holder that has not started starts now, and waits for nothing."""
        self.blocked.set()
        self.turn.set()

    @contextlib.contextmanager
    def _held(self, path: Path, **kwargs: Any) -> Iterator[None]:
        try:
            with match_lock(path, **kwargs):
                self.holds.set()
                assert self.blocked.wait(20), "the poll never waited for the lock"
                yield
        finally:
            self.holds.set()
            self.released.set()

    def _wait(self, _seconds: float) -> None:
        self.blocked.set()
        assert self.released.wait(20), "the other command never let the lock go"


def check_threaded_race(config_path: Path, other: str, at: int, touch: Callable[[], None] = lambda: None) -> None:
    """``other`` cuts in at cron's ``at``-th request for the match lock (see ``Interleaving``), holding the lock
    while cron's poll waits for it: the window is resolved once, and the polls after it resolve nothing more.
    ``touch``: something done to the match's files before the race (no value changed)."""
    config = load_config(config_path)

    def cron() -> object:
        return poll_behind_gate(config, file_mark(config.path), open_match_sheets(config), quiet=False,
                                clock=lambda: NOON)

    cron()  # the gate keeps what this poll read
    type_orders(open_match_sheets(config))  # every seat ready: window 1 is due
    touch()
    steps = Interleaving(at)
    errors: list[BaseException] = []

    def holder() -> None:
        try:
            assert steps.turn.wait(20)
            OTHERS[other](config, open_match_sheets(config))
        except BaseException as exc:  # the main thread fails with it
            errors.append(exc)
            steps.holds.set()
            steps.released.set()

    def poll() -> None:
        try:
            cron()
        except BaseException as exc:  # the main thread fails with it
            errors.append(exc)
        finally:
            steps.poll_done()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(polls, "match_lock", steps.lock)
        patch.setattr(run, "match_lock", steps.lock)
        threads = [threading.Thread(target=holder, name="holder"), threading.Thread(target=poll, name="poll")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert not errors, errors
    assert record_of(open_match_sheets(config)).resolved == 1
    for _ in range(2):  # and the polls after it, from what that poll kept
        cron()
        assert record_of(open_match_sheets(config)).resolved == 1


# the quick run: each pair once on each backend (local workbooks have no rehearsal: the poll asks the lock once);
# the other position of the two under -m soak
QUICK = {"local": 1, "google": 2}


def _at(backend: str) -> list[Any]:
    return [pytest.param(at, marks=() if at == QUICK[backend] else pytest.mark.soak) for at in (1, 2)]


@pytest.mark.parametrize("at", _at("local"))
@pytest.mark.parametrize("other", sorted(OTHERS))
def test_two_commands_in_two_threads_resolve_a_window_once_local(tmp_path: Path, other: str, at: int) -> None:
    config, _ = local_match(tmp_path, private=True)
    check_threaded_race(config, other, at)


@pytest.mark.parametrize("at", _at("google"))
@pytest.mark.parametrize("other", sorted(OTHERS))
def test_two_commands_in_two_threads_resolve_a_window_once_google(fake: GoogleApiFake, tmp_path: Path,
                                                                  other: str, at: int) -> None:
    config = google_config(fake, tmp_path)
    # the GM widened a column of the engine's tab: Drive lists it changed, so the gated poll reads it live
    check_threaded_race(config, other, at, lambda: fake._edited(fake.spreadsheets[KEYS["engine"]], "gm@example.com"))
