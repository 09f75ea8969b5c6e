"""The sync on in-memory spreadsheets: whole matches through cells, calls, crashes, drift, fuzz."""

from __future__ import annotations

import copy
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots import Bot, ObjectiveBot, RandomBot, play_match
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
from sheets_gm.rulesets.gvg.sheet.template import default_map_text
from sheets_gm.sheets.backend import LayoutDriftError
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.create import create_match
from sheets_gm.sync.lock import match_lock
from sheets_gm.sync.poll import PollReport, poll
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.sync.snapshot import read_snapshot
from tests.fakes.memory import InjectedFault, MemoryBackend

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
ROLES = ("dps", "dps", "tank", "tank", "healer")
TEAMS = ("red", "blue")
SEED = b"sync-test-seed"


def roster(size: int) -> list[RosterEntry]:
    return [RosterEntry(f"{team}{i}", team, ROLES[i % len(ROLES)]) for team in TEAMS for i in range(size)]


def four_sheets() -> tuple[MatchSheets, list[MemoryBackend]]:
    """Board, engine and each team's orders in separate spreadsheets (team privacy)."""
    board, engine, red, blue = (MemoryBackend(n) for n in ("board", "engine", "red", "blue"))
    return MatchSheets(TEAMS, board, engine, (red, blue)), [board, engine, red, blue]


def new(size: int = 5, **kw: Any) -> tuple[MatchSheets, list[MemoryBackend]]:
    sheets, backends = four_sheets()
    create_match(sheets, roster(size), settings=GvgSettings(**kw), map_text=default_map_text(), seed=SEED)
    for b in backends:
        b.calls.clear()
    return sheets, backends


def engine_state(sheets: MatchSheets) -> dict[str, Any]:
    return read_snapshot(sheets, _template()).record.state.to_json()


def _template() -> Any:
    from sheets_gm.rulesets.gvg.sheet.template import default_template
    return default_template()


def test_a_whole_match_through_the_cells_equals_the_same_match_played_on_the_engine() -> None:
    sheets, _ = new()
    bots: list[Bot] = [ObjectiveBot(1), RandomBot(2)]
    turns = 0
    while True:
        type_bot_orders(sheets, bots)
        report = poll(sheets, now=NOW)
        assert report.resolved, report
        turns += 1
        if report.finished:
            break
    board = GvgMap.from_text(default_map_text())
    rules = GvgRules(board, GvgSettings())
    direct = play_match(rules, new_match(board, TEAMS, roster(5), rules.settings), [ObjectiveBot(1), RandomBot(2)],
                        SEED)
    assert engine_state(sheets) == direct.state.to_json()
    assert turns == direct.turns


@pytest.mark.parametrize("size", [1, 5])
def test_poll_costs_one_read_per_spreadsheet_and_a_resolution_one_write_each(size: int) -> None:
    sheets, backends = new(size)
    for turn in range(1, 8):
        report = poll(sheets, now=NOW)
        assert not report.resolved
        assert [b.calls for b in backends] == [["read"]] * 4, f"idle poll on turn {turn}"
        for b in backends:
            b.calls.clear()
        type_bot_orders(sheets, [ObjectiveBot(3), ObjectiveBot(4)])
        for b in backends:
            b.calls.clear()
        report = poll(sheets, now=NOW)
        assert report.resolved
        assert [b.calls for b in backends] == [["read", "write"]] * 4, f"resolution of turn {turn}"
        for b in backends:
            b.calls.clear()


def test_bytes_read_per_poll_do_not_grow_with_the_turn() -> None:
    sheets, backends = new()
    bots = [ObjectiveBot(5), ObjectiveBot(6)]
    sizes = []
    for _turn in range(40):
        for b in backends:
            b.read_bytes = 0
        if poll(sheets, now=NOW).finished:
            break
        sizes.append(sum(b.read_bytes for b in backends))
        type_bot_orders(sheets, bots)
        poll(sheets, now=NOW)
    assert len(sizes) > 10
    assert max(sizes) <= sizes[0] * 1.25, sizes


def test_a_second_sync_of_a_resolved_turn_does_nothing() -> None:
    sheets, backends = new()
    type_bot_orders(sheets, [ObjectiveBot(1), ObjectiveBot(2)])
    assert poll(sheets, now=NOW).resolved
    before = [copy.deepcopy(b.tabs) for b in backends]
    report = poll(sheets, now=NOW)
    assert not report.resolved and report.turn == 2 and report.write_calls == 0
    assert [b.tabs for b in backends] == before


def resolve_one_turn(sheets: MatchSheets) -> PollReport:
    type_bot_orders(sheets, [ObjectiveBot(7), RandomBot(8)])
    return poll(sheets, now=NOW)


def test_a_crash_at_any_call_of_a_resolution_is_completed_by_the_next_sync_with_the_same_result() -> None:
    sheets, backends = new()
    for _ in range(3):  # a few turns in, so the state is not trivial
        resolve_one_turn(sheets)
    type_bot_orders(sheets, [ObjectiveBot(9), RandomBot(10)])
    reference = copy.deepcopy(backends)
    ref_sheets = MatchSheets(TEAMS, reference[0], reference[1], (reference[2], reference[3]))
    assert poll(ref_sheets, now=NOW).resolved
    positions = [(i, k) for i in range(4) for k in (1, 2)]  # each spreadsheet: its read, its write
    for index, call in positions:
        trial = copy.deepcopy(backends)
        for b in trial:
            b.calls.clear()
        trial[index].fail_on_call = call
        trial_sheets = MatchSheets(TEAMS, trial[0], trial[1], (trial[2], trial[3]))
        with pytest.raises(InjectedFault):
            poll(trial_sheets, now=NOW)
        trial[index].fail_on_call = None
        report = poll(trial_sheets, now=NOW)
        assert report.resolved, f"fault at call {call} of {trial[index].name}: the turn was not completed"
        assert report.turn == 4
        for got, want in zip(trial, reference, strict=True):
            assert got.tabs == want.tabs, f"fault at call {call} of {got.name}: {got.name} differs"


def test_a_drifted_header_stops_the_sync_naming_the_tab_and_cell_and_writes_nothing() -> None:
    sheets, backends = new()
    red = backends[2]
    red.type("Orders red", "D4", "Where to")
    with pytest.raises(LayoutDriftError, match=r"'Orders red' cell D4 should say 'Destination'"):
        poll(sheets, now=NOW, force=True)
    assert all(b.calls == ["read"] for b in backends)
    for b in backends:
        b.calls.clear()
    backends[0].type("Players", "B1", "Teem")
    with pytest.raises(LayoutDriftError, match=r"'Players' cell B1"):
        poll(sheets, now=NOW, force=True)
    assert all(b.calls == ["read"] for b in backends)


def test_the_deadline_or_the_gm_resolves_without_ready_captains() -> None:
    sheets, _ = new()
    assert not poll(sheets, now=NOW).resolved
    report = poll(sheets, now=NOW, force=True)
    assert report.resolved and report.reason == "forced by the GM"
    deadline = (NOW + timedelta(hours=1)).isoformat()
    poll(sheets, now=NOW, force=True, next_deadline=lambda _now: deadline)
    assert not poll(sheets, now=NOW).resolved
    report = poll(sheets, now=NOW + timedelta(hours=2))
    assert report.resolved and "deadline" in report.reason


def test_an_order_left_from_an_earlier_turn_is_archived_and_never_applied() -> None:
    sheets, backends = new()
    red = backends[2]
    poll(sheets, now=NOW, force=True)  # turn 1 resolved with no orders
    red.type("Orders red", "B5", 1)  # the row claims turn 1 (as after an undo or a restored copy)
    red.type("Orders red", "D5", "G3")
    report = poll(sheets, now=NOW)
    assert not report.resolved
    assert red.value("Orders red", "D5") == ""
    assert "written for turn 1" in str(red.value("Orders red", "K5"))
    assert "G3" in str(red.value("Archive red", "C6"))
    poll(sheets, now=NOW, force=True)
    assert read_snapshot(sheets, _template()).record.state.player("red0").at.label != "G3"


def test_two_syncs_at_once_resolve_the_turn_exactly_once(tmp_path: Any) -> None:
    sheets, _ = new()
    type_bot_orders(sheets, [ObjectiveBot(1), ObjectiveBot(2)])
    reports: list[PollReport] = []

    def sync() -> None:
        with match_lock(tmp_path / "match.lock"):
            reports.append(poll(sheets, now=NOW))

    threads = [threading.Thread(target=sync) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.resolved for r in reports) == [False, True]
    assert read_snapshot(sheets, _template()).record.turn == 2


cell_values = st.one_of(
    st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=60), st.sampled_from(["=1+1", "=HYPERLINK(\"http://x\",\"y\")", "+A1", "@foo", "-2",
                                           "2026-11-22", "🍁🐠", " f 7 ", "G 4", "buff", "Revive", "pick up",
                                           "x" * 50_000, "Bulwark Damage", "TRUE"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cell_values, min_size=14, max_size=14))
def test_anything_typed_into_player_cells_gets_a_reason_and_is_never_written_back_as_a_formula(
    values: list[CellValue],
) -> None:
    sheets, backends = new(2)
    red = backends[2]
    cells = ["D5", "E5", "F5", "D6", "E6", "F6", "C9", "D9", "E9", "F9", "G9", "H9", "I9", "J9"]
    for cell, value in zip(cells, values, strict=True):
        red.type("Orders red", cell, value)
    report = poll(sheets, now=NOW)
    for row in (5, 6):
        feedback = red.value("Orders red", f"K{row}")
        assert isinstance(feedback, str) and feedback.strip()
    written = [v for b in backends for tab in b.tabs.values() for v in tab.values()]
    typed = set(map(repr, values))
    for value in written:
        if isinstance(value, str) and value.startswith("=") and repr(value) not in typed:
            raise AssertionError(f"a formula was written: {value[:60]}")
    for cell, value in zip(cells, values, strict=True):
        assert red.value("Orders red", cell) == value, "a player's cell was overwritten before resolution"
    forced = poll(sheets, now=NOW, force=True)
    assert forced.resolved
    assert report.turn == 1


def test_a_local_match_is_shared_by_the_gm_and_the_plan_says_so() -> None:
    from sheets_gm.sync.share import share_match, sharing_plan

    sheets, _ = new(1)
    lines = share_match(sharing_plan(sheets, {"red": ("r@example.com",), "blue": ("b@example.com",)}))
    assert lines and all(line.startswith("Share it yourself: ") for line in lines)


def test_reading_the_orders_twice_gives_the_same_reasons_once() -> None:
    sheets, backends = new(1)
    backends[2].type("Orders red", "D5", "Z99!")
    snap = read_snapshot(sheets, _template())
    first = snap.orders()
    problems = dict(snap.teams[0].problems)
    assert snap.orders() == first and snap.teams[0].problems == problems
    assert len(problems["red0"]) == 1


def test_a_poll_reports_the_state_the_engine_tab_now_holds() -> None:
    sheets, _ = new(1)
    report = poll(sheets, now=NOW, force=True)
    assert report.state is not None and report.state.to_json() == engine_state(sheets)


def test_orders_typed_after_an_interrupted_resolution_are_kept_by_the_recovering_sync() -> None:
    """The teams' files were written (turn 2 opened in their tabs), the engine commit was not: players
    type turn 2's orders and tick Ready; the sync that completes turn 1 must keep every one of them."""
    sheets, backends = new()
    _board, engine, red, blue = backends
    type_bot_orders(sheets, [ObjectiveBot(3), RandomBot(4)])
    engine.calls.clear()
    engine.fail_on_call = 2  # the poll's read passes, the commit fails
    with pytest.raises(InjectedFault):
        poll(sheets, now=NOW)
    engine.fail_on_call = None
    assert red.value("Orders red", "B5") == 2  # the rows already say turn 2
    red.type("Orders red", "D5", "H9")
    red.type("Orders red", "E5", "act")
    blue.type("Orders blue", "D6", "C3")
    cap = read_snapshot(sheets, _template()).teams[0].captain.row
    red.type("Orders red", f"J{cap}", True)
    report = poll(sheets, now=NOW)
    assert report.resolved and report.turn == 1 and report.reason == "completing a resolution that was interrupted"
    assert (red.value("Orders red", "D5"), red.value("Orders red", "E5")) == ("H9", "act")
    assert blue.value("Orders blue", "D6") == "C3"
    assert red.value("Orders red", f"J{cap}") is True
    snap = read_snapshot(sheets, _template())
    assert snap.record.turn == 2
    kept = {p.name: p.cells for team in snap.teams for p in team.players if p.typed}
    assert kept["red0"][:2] == ["H9", "act"] and kept["blue1"][0] == "C3"
    assert snap.ready() == [True, False]
    assert "stale" not in str(red.value("Archive red", "C6"))
