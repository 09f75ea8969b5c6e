"""The GM changes ``[deadlines]`` in a running match: the next sync gives the open window the new schedule's deadline
(or drops it), writes it where the players and the GM read it, and an unchanged config after that polls idle.

Local workbooks here (GvG, end to end through the commands), the Google fake in test_live_deadlines_google.py; the
clock is the tests' own
(``sheets_gm.commands.base.clock``): nothing waits for a deadline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.engine.settings import settings_table
from sheets_gm.poll_gate.idle import idle_local_poll
from sheets_gm.rulesets.gvg.settings import GvgSettings
from tests.commands.test_commands import FEEDBACK, config, record, roster, row_of, run, type_orders
from tests.made import made_into

#: A Monday noon: the match starts here and the tests move the clock on by hand.
START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
SCHEDULE = '\n[deadlines]\ntimes = ["12:30"]\ntimezone = "UTC"\n'
SAID = "Mon 23 Nov, 12:30 (UTC)"


class Clock:
    """The sync's clock, moved by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = START
        monkeypatch.setattr("sheets_gm.commands.base.clock", lambda: self.now)

    def tick(self, minutes: float = 1) -> None:
        self.now += timedelta(minutes=minutes)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


@pytest.fixture
def match(tmp_path: Path, clock: Clock, capsys: pytest.CaptureFixture[str]) -> Iterator[Path]:
    """A GvG match on local workbooks created without deadlines, polled once a minute after ``START``: made once a
    test process (on the test's clock) and copied for each test (``tests.made``), the clock then where it left it."""
    ticked: list[bool] = []

    def make(folder: Path) -> None:
        path = config(folder, 'roster = "roster.csv"')
        roster(folder)
        assert run(capsys, "init", "gvg", "-c", path)[0] == 0
        assert record(path).schedule == "none"
        clock.tick()
        ticked.append(True)
        assert run(capsys, "sync", "-c", path)[0] == 0

    made_into(tmp_path, "live_deadlines/match", make)
    if not ticked:  # a copy of the match made by an earlier test: its clock moved as this one's would have
        clock.tick()
    yield tmp_path / "match.toml"


def _sync(path: Path, clock: Clock, capsys: pytest.CaptureFixture[str]) -> str:
    clock.tick()
    code, out, err = run(capsys, "sync", "-c", path)
    assert code == 0, err
    return out


def _cell(path: Path, tab: str, first: str, column: int) -> str:
    sheet = openpyxl.load_workbook(path)[tab]
    return str(sheet.cell(row_of(sheet, first), column).value or "")


def _status(path: Path, tab: str) -> str:
    """The tab's status line: the cell that starts "Turn " and says where the match stands."""
    cells = [str(c) for row in openpyxl.load_workbook(path)[tab].iter_rows(values_only=True) for c in row if c]
    return next(c for c in cells if c.startswith("Turn ") and " of 60 · " in c)


def _log(folder: Path) -> list[tuple[str, str, str]]:
    sheet = openpyxl.load_workbook(folder / "match.xlsx")["Log"]
    return [(str(r[0]), str(r[1]), str(r[2])) for r in sheet.iter_rows(min_row=2, values_only=True) if r[2]]


def _settings_row(folder: Path) -> list[str]:
    row = 2 + len(settings_table(GvgSettings))
    sheet = openpyxl.load_workbook(folder / "match.xlsx")["Settings"]
    return [str(sheet.cell(row, c).value) for c in range(1, 5)]


def _type_bad_rows(path: Path) -> None:
    """Every row typed by the bots, no Ready ticked (the seats' orders half done when the deadline comes); then red's
    Ann sent off the board (refused) and Ben's row left with an unreadable destination alone."""
    type_orders(path, ready=False)
    workbook = path.parent / "red.xlsx"
    book = openpyxl.load_workbook(workbook)
    sheet = book["Orders red"]
    sheet.cell(row_of(sheet, "Ann"), 4).value = "Z99"
    sheet.cell(row_of(sheet, "Ben"), 4).value = "banana"
    sheet.cell(row_of(sheet, "Ben"), 5).value = None  # nothing else in his row reads
    book.save(workbook)


def test_a_deadline_added_mid_window_resolves_it_when_it_passes_each_row_keeping_its_fate(
        match: Path, clock: Clock, capsys: pytest.CaptureFixture[str]) -> None:
    folder = match.parent
    _type_bad_rows(match)
    cat = _cell(folder / "blue.xlsx", "Orders blue", "Cat", 4)
    assert cat  # blue's rows typed, Ready not ticked
    out = _sync(match, clock, capsys)
    assert "Rejected (2):" in out and "Deadlines changed" not in out
    with match.open("a", encoding="utf-8") as f:
        f.write(SCHEDULE)
    code, out, _ = run(capsys, "status", "-c", match)  # before the sync: what the next one will do
    assert code == 0 and f"Turn 1 is open (window 1, step 1) until {SAID}" in out
    assert f"the next sync applies them, and orders then close {SAID}; the sheets say no deadline until then" in out
    assert record(match).deadline == ""  # status writes nothing
    out = _sync(match, clock, capsys)
    assert f"Deadlines changed by the GM: orders now close {SAID} (the schedule: every day at 12:30 (UTC))." in out
    kept = record(match)
    assert (kept.deadline, kept.schedule) == ("2026-11-23T12:30+00:00[UTC]", "every day at 12:30 (UTC)")
    assert kept.state.turn == 1
    for workbook, tab in (("match.xlsx", "Board"), ("red.xlsx", "Orders red"), ("blue.xlsx", "Orders blue"),
                          ("red.xlsx", "View red"), ("gm/engine.xlsx", "GM")):
        assert f"orders close {SAID}" in _status(folder / workbook, tab), (workbook, tab)
    assert _settings_row(folder)[:2] == ["deadlines", "every day at 12:30 (UTC)"]
    assert _log(folder)[-1] == ("1", "deadlines", f"Deadlines changed by the GM: orders now close {SAID} (the "
                                                  "schedule: every day at 12:30 (UTC)).")
    code, out, _ = run(capsys, "status", "-c", match)
    assert out.splitlines()[0].startswith(f"Turn 1 is open (window 1, step 1) until {SAID} (in 2")
    assert "The config's [deadlines]" not in out
    code, out, _ = run(capsys, "doctor", "-c", match)
    assert f"turn 1 closes at {SAID}" in out
    clock.tick(30)  # 12:33: past the new deadline
    out = _sync(match, clock, capsys)
    assert out.startswith(f"Turn 1 resolved (the deadline {SAID} has passed). Turn 2 of 60"), out
    after = record(match)
    assert after.state.turn == 2 and after.deadline == "2026-11-24T12:30+00:00[UTC]"
    red = folder / "red.xlsx"
    # refused and unreadable: kept as typed, with why; turn 2 reads them at once, and says it as the next poll would
    assert _cell(red, "Orders red", "Ann", 4) == "Z99"
    assert _cell(red, "Orders red", "Ann", FEEDBACK).startswith("✘ Z99 is off the board")
    assert _cell(red, "Orders red", "Ben", 4) == "banana"
    assert _cell(red, "Orders red", "Ben", FEEDBACK).startswith("✘ destination 'banana' is not a tile")
    archive = "\n".join(str(c) for row in openpyxl.load_workbook(red)["Archive red"].iter_rows(values_only=True)
                        for c in row if c)
    assert "Ann — Destination: Z99, Action: act — not carried out (Z99 is off the board" in archive  # turn 1: not done
    assert _cell(folder / "blue.xlsx", "Orders blue", "Cat", 4) == ""  # carried out: drawn empty for turn 2
    archive = "\n".join(str(c) for row in openpyxl.load_workbook(folder / "blue.xlsx")["Archive blue"]
                        .iter_rows(values_only=True) for c in row if c)
    assert cat in archive
    code, out, _ = run(capsys, "verify", "-c", match)
    assert code == 0 and out.startswith("OK: 1 window and ") and "are the match's own" in out


def test_a_deadline_removed_mid_window_is_dropped(match: Path, clock: Clock,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path, tmp_path = match, match.parent
    with path.open("a", encoding="utf-8") as f:
        f.write(SCHEDULE)
    _sync(path, clock, capsys)
    assert record(path).deadline == "2026-11-23T12:30+00:00[UTC]"
    path.write_text(path.read_text(encoding="utf-8").replace(SCHEDULE, "\n"), encoding="utf-8")
    code, out, _ = run(capsys, "status", "-c", path)
    assert "Turn 1 is open (window 1, step 1); no deadline: it resolves when every seat is ready" in out
    assert f"the next sync drops the deadline, and turn 1 then resolves when every seat it waits for is ready; the " \
           f"sheets say {SAID} until then" in out
    out = _sync(path, clock, capsys)
    assert ("Deadlines changed by the GM: no deadline now: turn 1 resolves when every seat it waits for is ready, "
            "or when the GM resolves it.") in out
    dropped = record(path)
    assert (dropped.deadline, dropped.schedule) == ("", "none")
    assert "close" not in _status(tmp_path / "red.xlsx", "Orders red")
    assert _settings_row(tmp_path)[1].startswith("no deadline")
    clock.tick(60)  # past the deadline the window had: nothing resolves
    out = _sync(path, clock, capsys)
    assert record(path).state.turn == 1 and "resolved" not in out
    code, out, _ = run(capsys, "verify", "-c", path)
    assert code == 0, out


def test_an_unchanged_config_polls_idle_after_the_change(match: Path, clock: Clock,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with match.open("a", encoding="utf-8") as f:
        f.write(SCHEDULE)
    assert idle_local_poll(match, clock.now) is None  # the config changed: the gate lets the poll through
    _sync(match, clock, capsys)
    engine = match.parent / "gm" / "engine.xlsx"
    written = engine.read_bytes()
    clock.tick()
    state = idle_local_poll(match, clock.now)
    assert state is not None and state.deadline == "2026-11-23T12:30+00:00[UTC]"
    out = _sync(match, clock, capsys)
    assert "Deadlines changed" not in out and engine.read_bytes() == written
    log = _log(match.parent)
    assert sum(kind == "deadlines" for _, kind, _ in log) == 1


def test_a_schedule_that_does_not_parse_is_refused_by_name_and_the_match_keeps_its_deadline(
        match: Path, clock: Clock, capsys: pytest.CaptureFixture[str]) -> None:
    good = match.read_text(encoding="utf-8")
    for bad, said in (('times = ["25:00"]', 'times: \'25:00\' is not a time of day; write it as HH:MM'),
                      ('times = "20:00"', 'write it as times = ["20:00"] (a list of HH:MM times)'),
                      ('times = ["20:00"]\ndays = ["funday"]', "'funday' is not a weekday; use mon, tue"),
                      ('times = ["20:00"]\ntimezone = "Mars/Olympus"', "is not a time zone; use an IANA name")):
        match.write_text(f"{good}\n[deadlines]\n{bad}\n", encoding="utf-8")
        clock.tick()
        code, _, err = run(capsys, "sync", "-c", match)
        assert code == 1 and "[deadlines]" in err and said in err, err
    match.write_text(good, encoding="utf-8")  # the match was left as it was
    left = record(match)
    assert (left.deadline, left.schedule) == ("", "none")


def test_sync_watch_reads_a_changed_config_before_its_next_poll(
        match: Path, clock: Clock, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import sheets_gm.commands.polls as polls

    good = match.read_text(encoding="utf-8")
    said: list[str] = []

    def fake_watch(step: Callable[[], object], stop: threading.Event, **_: object) -> object:
        """Three polls of the watch, the GM editing the config between them (no waiting)."""
        step()
        match.write_text(good + SCHEDULE, encoding="utf-8")
        clock.tick()
        report = step()
        said.append(str(getattr(report, "schedule_change", "")))
        match.write_text(good + '\n[deadlines]\ntimes = ["25:00"]\n', encoding="utf-8")
        clock.tick()
        return step()

    monkeypatch.setattr(polls, "watch", fake_watch)
    code, out, _ = run(capsys, "sync", "-c", match, "--watch")
    assert code == 0
    assert said == [f"Deadlines changed by the GM: orders now close {SAID} (the schedule: every day at 12:30 (UTC))."]
    assert "The config was changed but does not read: " in out and "'25:00' is not a time of day" in out
    match.write_text(good + SCHEDULE, encoding="utf-8")
    assert record(match).deadline == "2026-11-23T12:30+00:00[UTC]"  # the bad config changed nothing
