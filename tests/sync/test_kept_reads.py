"""A gated poll on kept reads: a spreadsheet Drive does not name answers from its last read, the poll is rehearsed,
and it writes for real only where it read live; a write it would make from a kept read makes it read live first."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sheets_gm.poll_gate.drive import DriveCheck, read_and_poll
from sheets_gm.poll_gate.kept_reads import KeptRead, KeptSheets, kept_path, load_kept, save_kept
from sheets_gm.sheets.backend import RangeWrite, SheetError
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.google_api import BATCH_UPDATE, FILE_GET, READ, WRITE, GoogleApiFake, fake_client

ORDERS, ENGINE = "1OrdersKeptReadsTest_abcdefghijklmnopqrst", "1EngineKeptReadsTest_abcdefghijklmnopqrst"
RANGE = "Tab!A1:C2"
NOON = datetime(2026, 11, 25, 12, tzinfo=UTC)


def CLOCK() -> datetime:
    """The poll's clock: noon."""
    return NOON


@pytest.fixture
def fake() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as f:
        for key in (ORDERS, ENGINE):
            f.create_spreadsheet(key, key[:8], {"Tab": (5, 5)})
        f.set_values(ORDERS, "Tab!A1", [["typed now"]])
        f.set_values(ENGINE, "Tab!A1", [["state 2"]])
        f.reset_counters()
        yield f
    assert not f.violations, f.violations


@pytest.fixture
def sheets(fake: GoogleApiFake) -> MatchSheets:
    orders, engine = (GoogleSheetBackend(fake_client(), key) for key in (ORDERS, ENGINE))
    return MatchSheets(("Ann",), orders, engine, (orders,))


def writes(fake: GoogleApiFake) -> int:
    """Sheets write requests of either kind (a write answered with a snapshot is a spreadsheets.batchUpdate)."""
    return fake.calls(WRITE) + fake.calls(BATCH_UPDATE)


def kept(tmp_path: Path) -> Path:
    """A config whose kept reads are a turn old: Ann's orders empty, the engine at state 1."""
    config = tmp_path / "match.toml"
    save_kept(kept_path(config), {ORDERS: KeptRead((RANGE,), ([["old"]],)),
                                  ENGINE: KeptRead((RANGE,), ([["state 1"]],))})
    return config


def polling(writes_to: Callable[[MatchSheets], list[tuple[str, str]]]) -> Callable[[MatchSheets], WindowReport]:
    """A stand-in poll: reads both spreadsheets, then writes to the ones ``writes_to`` names what the engine read."""

    def run(s: MatchSheets) -> WindowReport:
        engine = s.engine.read([RANGE])[0][0][0]
        s.orders[0].read([RANGE])
        for where, _ in writes_to(s):
            target = s.engine if where == "engine" else s.orders[0]
            target.write([RangeWrite("Tab!C1", [[f"answered from {engine}"]])])
        return WindowReport(window="w", state=None, result="")

    return run


def test_a_poll_that_writes_where_it_read_live_reads_nothing_else(
        fake: GoogleApiFake, sheets: MatchSheets, tmp_path: Path) -> None:
    gate = DriveCheck(True, "1 changed", "t", fresh=frozenset({ORDERS}))
    _, seen = read_and_poll(polling(lambda s: [("orders", "")]), sheets, gate, kept(tmp_path), CLOCK)
    assert fake.calls(READ) == 1 and writes(fake) == 1  # Ann's spreadsheet: read, answered; the engine kept
    assert fake.values(ORDERS, "Tab")[0][2] == "answered from state 1"
    assert seen.wrote() == [ORDERS] and not seen.all_read_live()


def test_a_poll_that_would_write_from_a_kept_read_reads_that_spreadsheet_live_first(
        fake: GoogleApiFake, sheets: MatchSheets, tmp_path: Path) -> None:
    gate = DriveCheck(True, "1 changed", "t", fresh=frozenset({ORDERS}))
    _, seen = read_and_poll(polling(lambda s: [("engine", "")]), sheets, gate, kept(tmp_path), CLOCK)
    assert fake.calls(READ) == 2 and writes(fake) == 1  # each read once, the engine live before its write
    assert fake.values(ENGINE, "Tab")[0] == ["state 2", "", "answered from state 2"]
    assert seen.all_read_live() and seen.wrote() == [ENGINE]


def test_a_poll_with_nothing_to_write_runs_once_and_writes_nothing(
        fake: GoogleApiFake, sheets: MatchSheets, tmp_path: Path) -> None:
    runs: list[int] = []
    poll = polling(lambda s: [])

    def counted(s: MatchSheets) -> WindowReport:
        runs.append(1)
        return poll(s)

    read_and_poll(counted, sheets, DriveCheck(True, "read back", "t", fresh=frozenset({ORDERS})), kept(tmp_path),
                  CLOCK)
    assert (len(runs), fake.calls(READ), writes(fake)) == (1, 1, 0)


def test_a_full_gate_reads_everything_live_and_runs_once(
        fake: GoogleApiFake, sheets: MatchSheets, tmp_path: Path) -> None:
    _, seen = read_and_poll(polling(lambda s: [("engine", "")]), sheets, DriveCheck(True, "deadline", "t"),
                            kept(tmp_path), CLOCK)
    assert (fake.calls(READ), writes(fake)) == (2, 1) and seen.all_read_live()


def test_a_kept_read_of_other_ranges_is_not_used(fake: GoogleApiFake, sheets: MatchSheets) -> None:
    wrapped = KeptSheets(sheets, {ENGINE: KeptRead(("Tab!A1:A1",), ([["state 1"]],))}, live={ORDERS}, clock=CLOCK)
    assert wrapped.sheets.engine.read([RANGE]) == [[["state 2"]]]  # asked otherwise than kept: read live
    assert fake.calls(READ) == 1


def test_a_spreadsheet_answered_from_its_kept_read_refuses_a_write_and_writes_nothing(
        fake: GoogleApiFake, sheets: MatchSheets) -> None:
    wrapped = KeptSheets(sheets, {ENGINE: KeptRead((RANGE,), ([["state 1"]],))}, live={ORDERS}, clock=CLOCK)
    assert wrapped.sheets.engine.read([RANGE]) == [[["state 1"]]]
    with pytest.raises(SheetError, match="about to write from what an earlier poll read"):
        wrapped.sheets.engine.write([RangeWrite("Tab!C1", [["x"]])])
    assert writes(fake) == 0


@pytest.mark.parametrize("text", ["", "{", '{"version": 99, "reads": {}}', '{"version": 1, "reads": {"k": 3}}'])
def test_an_unreadable_copy_of_the_reads_is_none(tmp_path: Path, text: str) -> None:
    path = tmp_path / "reads.json"
    path.write_text(text, encoding="utf-8")
    assert load_kept(path) == {}


def test_a_write_answers_with_the_spreadsheet_and_that_is_kept_for_the_next_poll(
        fake: GoogleApiFake, sheets: MatchSheets, tmp_path: Path) -> None:
    gate = DriveCheck(True, "1 changed", "t", fresh=frozenset({ORDERS}))
    _, seen = read_and_poll(polling(lambda s: [("orders", "")]), sheets, gate, kept(tmp_path), CLOCK)
    assert seen.read_live()[ORDERS] == KeptRead((RANGE,), ([["typed now", "", "answered from state 1"]],))
    assert seen.snapshots() == {ORDERS: NOON} and seen.to_read_back() == []


def test_every_gated_poll_asks_drive_the_version_each_write_leaves(
        fake: GoogleApiFake, sheets: MatchSheets, tmp_path: Path) -> None:
    """The version is asked by whoever runs the gated poll (cron's sync, the bench): with no version to keep, the
    next poll would read back everything we wrote."""
    gate = DriveCheck(True, "1 changed", "t", fresh=frozenset({ORDERS}))
    _, seen = read_and_poll(polling(lambda s: [("orders", "")]), sheets, gate, kept(tmp_path), CLOCK)
    assert fake.calls(FILE_GET) == 1  # one Drive files.get, right after the one write
    assert seen.versions_after_write() == {ORDERS: fake.spreadsheets[ORDERS].version}


def test_typing_between_our_read_and_our_write_is_read_back(
        fake: GoogleApiFake, sheets: MatchSheets, tmp_path: Path) -> None:
    def typed_then(s: MatchSheets) -> list[tuple[str, str]]:
        fake.set_values(ORDERS, "Tab!B2", [["typed meanwhile"]])
        return [("orders", "")]

    gate = DriveCheck(True, "1 changed", "t", fresh=frozenset({ORDERS}))
    _, seen = read_and_poll(polling(typed_then), sheets, gate, kept(tmp_path), CLOCK)
    assert seen.read_live()[ORDERS].grids[0][1] == ["", "typed meanwhile"]  # kept, and the next poll reads it
    assert seen.to_read_back() == [ORDERS]
