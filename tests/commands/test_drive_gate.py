"""Google idle polls gated by Drive: an idle poll asks Drive's change log once and makes no Sheets request;
a player's edit, a due deadline, our own write, the safety net, a missing state or a Drive fault read all."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sheets_gm.match.config import load_config
from sheets_gm.match.connect import open_match_sheets
from sheets_gm.sync.deadline import stamp_deadline
from sheets_gm.sync.poll_state import load_state, state_path
from tests.commands.test_commands_google import ACCOUNT, KEYS, ROSTER, run
from tests.fakes.google_api import (
    CHANGES,
    READ,
    START_TOKEN,
    WRITE,
    FaultKind,
    GoogleApiFake,
    signed_in_fake,
    write_service_account_key,
)
from tests.matchfiles import type_orders

START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


class Clock:
    """One clock for the sync and for Drive; ``tick`` is a minute of cron."""

    def __init__(self, fake: GoogleApiFake, monkeypatch: pytest.MonkeyPatch) -> None:
        self.fake = fake
        self.now = START
        fake.now = START
        monkeypatch.setattr("sheets_gm.commands.polls._now", lambda: self.now)
        monkeypatch.setattr("sheets_gm.commands.sync.datetime", _Frozen(self))

    def tick(self, minutes: float = 1) -> None:
        self.now += timedelta(minutes=minutes)
        self.fake.now = self.now


class _Frozen:
    """``datetime`` as ``commands.sync`` uses it (``now``), on the test's clock."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    def now(self, tz: object = None) -> datetime:
        return self.clock.now


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    with signed_in_fake(monkeypatch, {key: f"gate test · {role}" for role, key in KEYS.items()}) as f:
        yield f


@pytest.fixture
def clock(fake: GoogleApiFake, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(fake, monkeypatch)


@pytest.fixture
def started(fake: GoogleApiFake, tmp_path: Path, clock: Clock, capsys: pytest.CaptureFixture[str]) -> Iterator[Path]:
    """A match on four spreadsheets created, then polled twice (the first poll has no state; the second sees
    init's writes)."""
    write_service_account_key(tmp_path / "sa.json", ACCOUNT)
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    match_toml = tmp_path / "match.toml"
    match_toml.write_text(
        'ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
        f'[sheets]\nbackend = "google"\nboard = "{KEYS["board"]}"\nengine = "{KEYS["engine"]}"\n'
        f'orders = {{ red = "{KEYS["red"]}", blue = "{KEYS["blue"]}" }}\n'
        '[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    assert run(capsys, "init", "gvg", "-c", match_toml, "--no-share")[0] == 0
    for _ in range(2):
        clock.tick()
        assert run(capsys, "sync", "-c", match_toml, "--quiet")[0] == 0
    yield match_toml


def poll(fake: GoogleApiFake, clock: Clock, capsys: pytest.CaptureFixture[str], config: Path,
         *more: str) -> tuple[int, int, str]:
    """One cron poll a minute after the last: (Sheets reads, Drive change-log requests, what it printed)."""
    clock.tick()
    fake.reset_counters()
    code, out, err = run(capsys, "sync", "-c", config, *more)
    assert code == 0, err
    return fake.calls(READ), fake.calls(CHANGES) + fake.calls(START_TOKEN), out


def test_an_idle_poll_makes_no_sheets_request_and_one_drive_request(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(3):
        reads, drive, out = poll(fake, clock, capsys, started)
        assert (reads, drive, fake.calls(WRITE)) == (0, 1, 0)
        assert out == "Turn 1: waiting for red, blue.\n"


def test_a_players_edit_is_read_and_our_answer_is_read_back_once_then_idle(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    type_orders(open_match_sheets(load_config(started)), ready=False)  # players type in red's and blue's
    reads, drive, out = poll(fake, clock, capsys, started)
    assert (reads, drive) == (4, 1) and "feedback cells updated" in out
    reads, _, _ = poll(fake, clock, capsys, started)
    assert reads == 4  # after a write of ours, every spreadsheet once
    reads, drive, _ = poll(fake, clock, capsys, started)
    assert (reads, drive) == (0, 1)  # our own write is not taken for a player's


def test_an_edit_drive_lists_late_is_still_read(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake.drive_lag = timedelta(minutes=3)
    type_orders(open_match_sheets(load_config(started)), ready=False)  # Drive lists it 3 minutes later
    assert poll(fake, clock, capsys, started)[0] == 0  # Drive does not know yet
    assert poll(fake, clock, capsys, started)[0] == 0
    reads, _, out = poll(fake, clock, capsys, started)
    assert reads == 4 and "feedback cells updated" in out  # listed now, dated before the last poll: read


def test_a_due_deadline_reads_and_resolves_without_any_edit(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = state_path(started)
    saved = json.loads(path.read_text(encoding="utf-8"))
    saved["deadline"] = stamp_deadline(clock.now + timedelta(seconds=30), "UTC")
    path.write_text(json.dumps(saved), encoding="utf-8")
    reads, _, _ = poll(fake, clock, capsys, started)
    assert reads == 4  # the deadline the state keeps has passed: read everything (the engine decides)


def test_the_safety_net_reads_everything_every_30_minutes(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reads = [poll(fake, clock, capsys, started)[0] for _ in range(31)]
    assert reads.count(4) == 1 and reads.count(0) == 30


@pytest.mark.parametrize("kind", [FaultKind.UNAVAILABLE, FaultKind.RATE_LIMIT_JSON, FaultKind.CONNECTION_RESET])
def test_a_drive_fault_reads_everything_and_loses_no_input(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],
        kind: FaultKind) -> None:
    type_orders(open_match_sheets(load_config(started)), ready=False)
    fake.inject(kind, endpoint=CHANGES)
    reads, drive, out = poll(fake, clock, capsys, started)
    assert (reads, drive) == (4, 1) and "feedback cells updated" in out


def test_a_fault_of_the_start_token_reads_everything_until_drive_answers(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state_path(started).unlink()  # a second machine carries the match on: no state
    fake.inject(FaultKind.INTERNAL, endpoint=START_TOKEN)
    assert poll(fake, clock, capsys, started)[:2] == (4, 1)
    assert load_state(state_path(started)) is None  # no token to keep
    assert poll(fake, clock, capsys, started)[:2] == (4, 1)  # asks for a token again
    assert poll(fake, clock, capsys, started)[:2] == (0, 1)


def test_a_changed_config_reads_everything(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    started.write_text(started.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert poll(fake, clock, capsys, started)[0] == 4


class _ThreePolls:
    """A stand-in for ``threading.Event`` in ``sync --watch``: three polls, no real waiting, the clock on a
    minute each wait."""

    clock: Clock | None = None

    def __init__(self) -> None:
        self.waits = 0

    def is_set(self) -> bool:
        return self.waits >= 3

    def set(self) -> None:
        self.waits = 3

    def wait(self, timeout: float | None = None) -> bool:
        self.waits += 1
        assert _ThreePolls.clock is not None
        _ThreePolls.clock.tick()
        return self.is_set()


def test_watch_polls_are_gated_by_drive_as_crons_are(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _ThreePolls.clock = clock
    monkeypatch.setattr("sheets_gm.commands.polls.threading.Event", _ThreePolls)
    fake.reset_counters()
    code, out, err = run(capsys, "sync", "-c", started, "--watch")
    assert code == 0, err
    assert fake.calls(READ) == 0 and fake.calls(WRITE) == 0  # nothing changed: Drive alone was asked
    assert fake.calls(CHANGES) + fake.calls(START_TOKEN) == 3
    assert out.count("(Drive: no spreadsheet changed, nothing read.)") == 3
