"""Google polls gated by Drive: an idle poll asks Drive once (its change log, or every 30 minutes its file index)
and makes no Sheets request; a player's edit reads her spreadsheet, our own write is read back once; a resolution,
a due deadline, the 6-hour read, a missing state or kept read and a Drive fault read every spreadsheet."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.poll_gate.kept_reads import kept_path
from sheets_gm.poll_gate.state import load_state, state_path
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sync.deadline import stamp_deadline
from tests.commands.test_commands_google import ACCOUNT, KEYS, ROSTER, run
from tests.fakes.google_api import (
    BATCH_UPDATE,
    CHANGES,
    FILES,
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
        monkeypatch.setattr("sheets_gm.commands.base.clock", lambda: self.now)

    def tick(self, minutes: float = 1) -> None:
        self.now += timedelta(minutes=minutes)
        self.fake.now = self.now


SPREADSHEETS = {key: f"gate test · {role}" for role, key in KEYS.items()}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    with signed_in_fake(monkeypatch, SPREADSHEETS) as f:
        yield f


@pytest.fixture
def clock(fake: GoogleApiFake, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(fake, monkeypatch)


@pytest.fixture(scope="module")
def made_started(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The ``started`` match made once a module (``init`` and two polls make the same match from the same files at
    the same moments): the fake's state after it and the GM's folder, for each test to copy."""
    with module_fake(tmp_path_factory, SPREADSHEETS) as (fake, clock):
        folder = tmp_path_factory.mktemp("started")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            start_match(folder, clock, None)
        return fake.snapshot(), folder


@contextlib.contextmanager
def module_fake(tmp_path_factory: pytest.TempPathFactory,
                spreadsheets: dict[str, str]) -> Iterator[tuple[GoogleApiFake, Clock]]:
    """The fake holding ``spreadsheets``, signed in, and a clock at ``START``, for a module fixture that makes a
    match once: in host folders of its own (as tests/conftest.py's ``_host_folders``: none of the machine's)."""
    patch = pytest.MonkeyPatch()
    host = tmp_path_factory.mktemp("host")
    patch.setenv("XDG_CONFIG_HOME", str(host / "config"))
    patch.setenv("XDG_STATE_HOME", str(host / "state"))
    try:
        with signed_in_fake(patch, spreadsheets) as fake:
            yield fake, Clock(fake, patch)
    finally:
        patch.undo()


@pytest.fixture
def started(fake: GoogleApiFake, tmp_path: Path, clock: Clock, made_started: tuple[dict[str, Any], Path]) -> Path:
    """A match on four spreadsheets created, then polled twice (the first poll has no state; the second sees
    init's writes): a copy of ``made_started``, the fake and the clock where it left them."""
    state, folder = made_started
    fake.restore(state)
    clock.tick(2)  # the two polls' minutes
    assert fake.now == clock.now
    shutil.copytree(folder, tmp_path, dirs_exist_ok=True)
    return tmp_path / "match.toml"


def start_match(tmp_path: Path, clock: Clock, capsys: pytest.CaptureFixture[str] | None, extra: str = "") -> Path:
    """The ``started`` match, its config ending with ``extra`` (a table of its own: ``[bots]``…); without
    ``capsys``, the commands' output is left where it goes."""
    write_service_account_key(tmp_path / "sa.json", ACCOUNT)
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    match_toml = tmp_path / "match.toml"
    match_toml.write_text(
        'ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
        f'[sheets]\nbackend = "google"\nboard = "{KEYS["board"]}"\nengine = "{KEYS["engine"]}"\n'
        f'orders = {{ red = "{KEYS["red"]}", blue = "{KEYS["blue"]}" }}\n'
        '[google]\nservice_account = "sa.json"\n' + extra, encoding="utf-8")
    def command(*argv: str | Path) -> int:
        return run(capsys, *argv)[0] if capsys is not None else main([str(a) for a in argv])

    assert command("init", "gvg", "-c", match_toml, "--no-share") == 0
    for _ in range(2):
        clock.tick()
        assert command("sync", "-c", match_toml, "--quiet") == 0
    return match_toml


def poll(fake: GoogleApiFake, clock: Clock, capsys: pytest.CaptureFixture[str], config: Path,
         *more: str) -> tuple[int, int, str]:
    """One cron poll a minute after the last: (Sheets reads, Drive change-log requests, what it printed)."""
    clock.tick()
    fake.reset_counters()
    code, out, err = run(capsys, "sync", "-c", config, *more)
    assert code == 0, err
    return fake.calls(READ), fake.calls(CHANGES) + fake.calls(START_TOKEN), out


def ann_row(fake: GoogleApiFake) -> list[Any]:
    """Ann's row of red's orders, as the fake holds it."""
    return next(r for r in fake.values(KEYS["red"], "Orders red") if r and r[0] == "Ann")


def ann_destination(fake: GoogleApiFake) -> str:
    """The cell of Ann's destination (column D of her row)."""
    row = next(i for i, r in enumerate(fake.values(KEYS["red"], "Orders red"), 1) if r and r[0] == "Ann")
    return f"'Orders red'!D{row}"


def writes(fake: GoogleApiFake) -> int:
    """Sheets write requests: values.batchUpdate, and spreadsheets.batchUpdate (a write answered with a snapshot)."""
    return fake.calls(WRITE) + fake.calls(BATCH_UPDATE)


def asked(fake: GoogleApiFake, *endpoints: str) -> list[str]:
    """The spreadsheets the requests to ``endpoints`` went to, in order."""
    return [m.group(1) for c in fake.log if c.endpoint in endpoints
            and (m := re.search(r"/spreadsheets/([^/:?]+)", c.url)) is not None]


def test_an_idle_poll_makes_no_sheets_request_and_one_drive_request(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(3):
        reads, drive, out = poll(fake, clock, capsys, started)
        assert (reads, drive, fake.calls(WRITE)) == (0, 1, 0)
        assert out == "Turn 1: waiting for red, blue.\n"


def test_the_players_edits_read_their_spreadsheets_only_and_our_answers_need_no_reading_back(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    type_orders(open_match_sheets(load_config(started)), ready=False)  # players type in red's and blue's
    reads, drive, out = poll(fake, clock, capsys, started)
    assert (reads, drive) == (2, 1) and "feedback cells updated" in out
    assert set(asked(fake, READ)) == {KEYS["red"], KEYS["blue"]}
    assert writes(fake) == 2 and fake.calls(WRITE) == 0  # the answers, each with the spreadsheet as it stands after
    for _ in range(3):
        reads, drive, _ = poll(fake, clock, capsys, started)
        assert (reads, drive, writes(fake)) == (0, 1, 0)  # Drive names us for our own write: its answer is kept


def test_one_players_save_reads_and_answers_her_spreadsheet_alone(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheets = open_match_sheets(load_config(started))
    type_orders(sheets, ready=False, seats=("red",))
    reads, _, out = poll(fake, clock, capsys, started)
    assert reads == 1 and "feedback cells updated" in out
    assert asked(fake, READ, BATCH_UPDATE) == [KEYS["red"], KEYS["red"]]
    assert ("(Drive: 1 of 4 spreadsheets changed (Drive's change log); read 1 of 4 spreadsheets, the others as last "
            "read.)") in out  # what the GM's quota paid
    assert poll(fake, clock, capsys, started)[0] == 0


def test_a_save_after_our_answer_is_read(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    type_orders(open_match_sheets(load_config(started)), ready=False, seats=("red",))
    poll(fake, clock, capsys, started)
    fake.set_values(KEYS["red"], ann_destination(fake), [["ZZ99"]])  # within the same minute as our answer
    reads, _, out = poll(fake, clock, capsys, started)
    assert reads == 1 and "ZZ99 is off the board" in out  # Drive names her as the last to modify it


def test_typing_between_our_read_and_our_write_is_answered_at_the_next_poll(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    type_orders(open_match_sheets(load_config(started)), ready=False, seats=("red",))
    real_write = GoogleSheetBackend.write

    def typed_first(self: GoogleSheetBackend, *args: Any, **kwargs: Any) -> Any:
        if self.key == KEYS["red"]:
            fake.set_values(KEYS["red"], ann_destination(fake), [["ZZ99"]])  # she saves as we resolve
        return real_write(self, *args, **kwargs)

    monkeypatch.setattr(GoogleSheetBackend, "write", typed_first)
    assert poll(fake, clock, capsys, started)[0] == 1
    monkeypatch.setattr(GoogleSheetBackend, "write", real_write)
    reads, _, out = poll(fake, clock, capsys, started)  # Drive names us last, but our answer showed her save
    assert reads == 1 and "ZZ99 is off the board" in out
    assert "ZZ99" in str(ann_row(fake)) and "✘" in str(ann_row(fake))  # her row is answered
    assert poll(fake, clock, capsys, started)[0] == 0


def test_a_poll_by_hand_after_a_resolution_reads_nothing_and_says_so(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    type_orders(open_match_sheets(load_config(started)), ready=True)
    assert "Turn 1 resolved" in poll(fake, clock, capsys, started)[2]
    reads, _, out = poll(fake, clock, capsys, started)  # by hand: the next turn's line needs the match, kept
    assert reads == 0 and "(Drive: no spreadsheet changed; read 0 of 4 spreadsheets, the others as last read.)" in out
    type_orders(open_match_sheets(load_config(started)), ready=False, seats=("red",))
    assert poll(fake, clock, capsys, started)[0] == 1  # red's alone: the others' kept reads are still there


def test_a_resolution_reads_and_writes_every_spreadsheet_once(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    type_orders(open_match_sheets(load_config(started)), ready=True)  # both teams tick Ready
    out = poll(fake, clock, capsys, started)[2]
    assert "Turn 1 resolved" in out, out
    assert "(Drive: 2 of 4 spreadsheets changed (Drive's change log); read all 4 spreadsheets.)" in out
    assert sorted(asked(fake, READ)) == sorted(KEYS.values())  # the two that changed, then the two kept: once each
    assert writes(fake) == 4
    assert poll(fake, clock, capsys, started)[0] == 0  # every write answered with its spreadsheet: nothing to read


def test_an_edit_drive_lists_late_is_still_read(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake.drive_lag = timedelta(minutes=3)
    type_orders(open_match_sheets(load_config(started)), ready=False)  # Drive lists it 3 minutes later
    assert poll(fake, clock, capsys, started)[0] == 0  # Drive does not know yet
    assert poll(fake, clock, capsys, started)[0] == 0
    reads, _, out = poll(fake, clock, capsys, started)
    assert reads == 2 and "feedback cells updated" in out  # listed now, dated before the last poll: read


def test_a_due_deadline_reads_and_resolves_without_any_edit(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = state_path(started)
    saved = json.loads(path.read_text(encoding="utf-8"))
    saved["deadline"] = stamp_deadline(clock.now + timedelta(seconds=30), "UTC")
    path.write_text(json.dumps(saved), encoding="utf-8")
    reads, _, _ = poll(fake, clock, capsys, started)
    assert reads == 4  # the deadline the state keeps has passed: read everything (the engine decides)


def test_every_30_minutes_drive_s_file_index_is_asked_instead_of_the_change_log(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    asked = []
    for _ in range(61):
        reads, drive, _ = poll(fake, clock, capsys, started)
        assert (reads, drive + fake.calls(FILES)) == (0, 1)  # one Drive request a poll, no Sheets read
        asked.append(fake.calls(FILES))
    assert sum(asked) == 2 and asked.index(1) < 31


def test_an_edit_the_change_log_never_lists_is_read_at_the_safety_net(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fake, "_changes",
                        lambda query, caller: {"changes": [], "newStartPageToken": query["pageToken"][0]})
    type_orders(open_match_sheets(load_config(started)), ready=False, seats=("blue",))
    reads = [poll(fake, clock, capsys, started)[0] for _ in range(31)]
    assert reads.count(1) == 1 and reads.count(0) == 30  # blue's, when Drive's file index was asked
    assert "✔" in str(fake.values(KEYS["blue"], "Orders blue"))  # her rows are answered


def test_every_spreadsheet_is_read_every_6_hours_whatever_drive_says(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reads = []
    for _ in range(6):
        clock.tick(59)
        reads.append(poll(fake, clock, capsys, started)[0])
    assert reads == [0, 0, 0, 0, 0, 4]


def test_a_missing_copy_of_the_last_reads_reads_everything(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept_path(started).unlink()
    type_orders(open_match_sheets(load_config(started)), ready=False, seats=("red",))
    assert poll(fake, clock, capsys, started)[0] == 4


def test_a_fault_of_the_file_index_reads_everything_and_loses_no_input(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clock.tick(30)
    type_orders(open_match_sheets(load_config(started)), ready=False, seats=("red",))
    fake.inject(FaultKind.UNAVAILABLE, endpoint=FILES)
    reads, _, out = poll(fake, clock, capsys, started)
    assert reads == 4 and fake.calls(FILES) == 1 and "feedback cells updated" in out


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


def test_a_watch_poll_that_finds_google_unavailable_waits_and_polls_again(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Google still unavailable when one poll gives up (here it asks to wait past the retries' deadline) does not
    end ``sync --watch``: it says so, waits, and the next poll reads what was typed."""
    _ThreePolls.clock = clock
    monkeypatch.setattr("sheets_gm.commands.polls.threading.Event", _ThreePolls)
    type_orders(open_match_sheets(load_config(started)), ready=False, seats=("red",))
    fake.inject(FaultKind.RATE_LIMIT_JSON, endpoint=READ, retry_after=600)
    code, out, err = run(capsys, "sync", "-c", started, "--watch")
    assert code == 0, err
    assert "Google is unavailable (" in out and "asked to wait 600 s" in out
    assert "feedback cells updated" in out


def test_the_poll_after_each_resolution_reads_nothing_though_the_log_grew_into_its_next_block(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The resolution of turn 4 takes the Log past its first 16 lines: the next poll asks the Log from line 16, the
    # end of the range our write answered with. Before that range was answered from what we wrote, that poll read
    # the board again (turns 4, 7, 10…: fails so with ``kept_answer`` reduced to the very ranges kept).
    for turn in range(1, 6):
        type_orders(open_match_sheets(load_config(started)), ready=True, seed=turn)
        assert f"Turn {turn} resolved" in poll(fake, clock, capsys, started)[2]
        reads, _, out = poll(fake, clock, capsys, started)
        assert reads == 0, (turn, out)
        assert "read 0 of 4 spreadsheets" in out
