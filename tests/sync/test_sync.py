"""GvG on the one sync, in in-memory spreadsheets: a resolved turn is not resolved again, a crash at any call of a
resolution is completed with the same result, two syncs resolve once, the deadline a resolution sets (or the GM)
resolves without ready teams, a player's row left from an earlier turn is archived and never applied, an edited
header of a team's orders stops the sync with nothing written, anything typed into a player's cells gets a reason
and is never written back as a formula, and orders typed while a resolution was cut are kept.

What every game shares (feedback, Ready, deadlines, stale rows, drift) is also tested with the small race game in
``test_generic_sync.py``; the sheet conformance test plays a GvG match through the cells against the engine, and
``test_sync_google.py`` counts the calls and bytes of every poll of a whole GvG match."""

from __future__ import annotations

import copy
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.registry import create_ruleset, get_ruleset
from sheets_gm.sheets.backend import LayoutDriftError
from sheets_gm.sheets.layout import CellValue, cell_at
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.lock import match_lock
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import InjectedFault, MemoryBackend
from tests.matchfiles import NOW, SEED, TEAMS, bots, order_cell, roster, sync
from tests.quick import soak_but

GVG = get_ruleset("gvg")
ROLES = ("board", "engine", *TEAMS)


def four_sheets(backends: dict[str, MemoryBackend]) -> MatchSheets:
    """Board, engine and each team's orders in separate spreadsheets (team privacy)."""
    return MatchSheets(TEAMS, backends["board"], backends["engine"], (backends["red"], backends["blue"]), None)


def new(size: int = 5, **kw: Any) -> tuple[MatchSheets, dict[str, MemoryBackend]]:
    backends = {role: MemoryBackend(role) for role in ROLES}
    sheets = four_sheets(backends)
    create_match(sheets, create_ruleset("gvg", GvgSettings(**kw)), roster(size), seed=SEED)
    for b in backends.values():
        b.calls.clear()
    return sheets, backends


def test_a_second_sync_of_a_resolved_turn_does_nothing() -> None:
    sheets, backends = new()
    type_bot_orders(sheets, GVG, bots(1))
    assert sync(sheets).resolved
    before = [copy.deepcopy(b.tabs) for b in backends.values()]
    report = sync(sheets)
    assert not report.resolved and report.window_key == "2" and report.write_calls == 0
    assert [b.tabs for b in backends.values()] == before


def test_a_crash_at_any_call_of_a_resolution_is_completed_by_the_next_sync_with_the_same_result() -> None:
    sheets, backends = new()
    for seed in range(3):  # a few turns in, so the state is not trivial
        type_bot_orders(sheets, GVG, bots(seed))
        assert sync(sheets).resolved
    type_bot_orders(sheets, GVG, bots(9))
    for b in backends.values():
        b.calls.clear()
    reference = copy.deepcopy(backends)
    assert sync(four_sheets(reference)).resolved
    calls = {role: list(b.calls) for role, b in reference.items()}
    assert all(c.count("write") == 1 for c in calls.values()), calls  # each spreadsheet: one write
    tried = 0
    for role, made in calls.items():
        for number in range(1, len(made) + 1):  # every call of every spreadsheet, reads and the write
            trial = copy.deepcopy(backends)
            trial[role].fail_on_call = number
            trial_sheets = four_sheets(trial)
            with pytest.raises(InjectedFault):
                sync(trial_sheets)
            trial[role].fail_on_call = None
            report = sync(trial_sheets)
            assert report.resolved, f"fault at call {number} ({made[number - 1]}) of {role}: not completed"
            assert report.window_key == "4"  # the window it completed
            for name, got in trial.items():
                assert got.tabs == reference[name].tabs, f"fault at call {number} of {role}: {name} differs"
            tried += 1
    assert tried >= 8


def test_two_syncs_at_once_resolve_the_turn_exactly_once(tmp_path: Path) -> None:
    sheets, _ = new()
    type_bot_orders(sheets, GVG, bots(1))
    reports: list[WindowReport] = []

    def one() -> None:
        with match_lock(tmp_path / "match.lock"):
            reports.append(sync(sheets))

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.resolved for r in reports) == [False, True]
    assert read_match(sheets, GVG).record.resolved == 1


def test_the_deadline_set_at_a_resolution_or_the_gm_resolves_without_ready_teams() -> None:
    sheets, _ = new()
    assert not sync(sheets).resolved
    deadline = (NOW + timedelta(hours=1)).isoformat()
    forced = poll(sheets, GVG, now=NOW, force=True, next_deadline=lambda _now: deadline)
    assert forced.resolved and forced.reason == "forced by the GM" and forced.deadline == deadline
    early = sync(sheets)
    assert not early.resolved and early.window_key == "2" and early.waiting_for == ["red", "blue"]
    late = sync(sheets, now=NOW + timedelta(hours=2))
    assert late.resolved and late.window_key == "2" and "deadline" in late.reason


def test_a_players_row_left_from_an_earlier_turn_is_archived_and_never_applied() -> None:
    sheets, backends = new()
    assert sync(sheets, force=True).resolved  # turn 1, with no orders
    type_bot_orders(sheets, GVG, bots(5), ready=False)
    read = read_match(sheets, GVG)
    red0 = {key: order_cell(read, "red", "players", "red0", key)
            for key in ("window", "destination", "action", "teleport", "feedback")}
    typed = {key: backends["red"].value("Orders red", red0[key]) for key in ("window", "destination")}
    assert typed["window"] == "2" and typed["destination"], typed  # the bot gave red0 somewhere to go
    without = copy.deepcopy(backends)  # the same match where red0 typed nothing
    for key in ("destination", "action", "teleport"):
        without["red"].type("Orders red", red0[key], "")
    backends["red"].type("Orders red", red0["window"], "1")  # the row claims turn 1 (a restored or pasted copy)
    report = sync(sheets)
    assert not report.resolved
    assert backends["red"].value("Orders red", red0["destination"]) == ""
    assert "written for 1" in str(backends["red"].value("Orders red", red0["feedback"]))
    assert f"red0 — Destination: {typed['destination']}" in str(backends["red"].value("Archive red", "B3"))
    assert sync(sheets, force=True).resolved and sync(four_sheets(without), force=True).resolved
    codec = create_ruleset("gvg").state_codec
    assert codec.to_json(read_match(sheets, GVG).record.state) == \
        codec.to_json(read_match(four_sheets(without), GVG).record.state)


@pytest.mark.parametrize(("table", "key", "header"), [("players", "destination", "Destination"),
                                                      ("players", "player", "Player"),
                                                      ("captain", "ready", "Ready")])
def test_an_edited_header_of_a_teams_orders_stops_the_sync_naming_tab_and_cell_and_writes_nothing(
        table: str, key: str, header: str) -> None:
    sheets, backends = new(2)
    placed = read_match(sheets, GVG).tabs.orders("red").table(table)
    where = cell_at(placed.col(key), placed.header_row)
    backends["red"].type("Orders red", where, "Where to")
    for b in backends.values():
        b.calls.clear()
    with pytest.raises(LayoutDriftError, match=rf"tab 'Orders red' cell {where} should say '{header}' but says "
                                               r"'Where to'.*sheets-gm repair.*nothing was written"):
        sync(sheets, force=True)
    assert {role: b.calls for role, b in backends.items()} == {role: ["read"] for role in ROLES}


cell_values = st.one_of(
    st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=60), st.sampled_from(["=1+1", "=HYPERLINK(\"http://x\",\"y\")", "+A1", "@foo", "-2",
                                           "2026-11-22", "🍁🐠", " f 7 ", "G 4", "buff", "Revive", "pick up",
                                           "x" * 50_000, "Bulwark Damage", "TRUE"]),
)
TYPED = (("players", "red0", "destination"), ("players", "red0", "action"), ("players", "red0", "teleport"),
         ("players", "red1", "destination"), ("players", "red1", "action"), ("players", "red1", "teleport"),
         *(("captain", "red", f"skill{i}") for i in range(1, 8)), ("captain", "red", "ready"))


@pytest.mark.parametrize("examples", soak_but([40, 15], 15))
def test_anything_typed_into_player_cells_gets_a_reason_and_is_never_written_back_as_a_formula(examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(cell_values, min_size=len(TYPED), max_size=len(TYPED)))
    def walk(
        values: list[CellValue],
    ) -> None:
        sheets, backends = new(2)
        red = backends["red"]
        read = read_match(sheets, GVG)
        cells = [order_cell(read, "red", table, subject, key) for table, subject, key in TYPED]
        for where, value in zip(cells, values, strict=True):
            red.type("Orders red", where, value)
        report = sync(sheets)
        assert not report.resolved  # a typed Ready does not resolve alone: blue is not ready
        for subject in ("red0", "red1", "red"):
            table = "captain" if subject == "red" else "players"
            feedback = red.value("Orders red", order_cell(read, "red", table, subject, "feedback"))
            assert isinstance(feedback, str) and feedback.strip(), (subject, feedback)
        written = [v for b in backends.values() for tab in b.tabs.values() for v in tab.values()]
        typed = set(map(repr, values))
        for value in written:
            if isinstance(value, str) and value.startswith("=") and repr(value) not in typed:
                raise AssertionError(f"a formula was written: {value[:60]}")
        for where, value in zip(cells, values, strict=True):
            assert red.value("Orders red", where) == value, "a player's cell was overwritten before resolution"
        assert sync(sheets, force=True).resolved

    walk()


def test_reading_the_orders_twice_gives_the_same_reasons_once() -> None:
    sheets, backends = new(1)
    read = read_match(sheets, GVG)
    backends["red"].type("Orders red", order_cell(read, "red", "players", "red0", "destination"), "Z99!")
    report = sync(sheets)
    again = sync(sheets)
    assert report.rejected == again.rejected
    assert [why for who, why in report.rejected if who == "red · red0"] == [
        "destination 'Z99!' is not a tile; write a column letter and a row number, like F7"]
    assert again.feedback_written == 0  # nothing changed: nothing written


def test_a_poll_reports_the_state_the_engine_tab_now_holds() -> None:
    sheets, _ = new(1)
    report = sync(sheets, force=True)
    assert report.state is not None
    codec = create_ruleset("gvg").state_codec
    assert codec.to_json(report.state) == codec.to_json(read_match(sheets, GVG).record.state)


def test_orders_typed_after_an_interrupted_resolution_are_kept_by_the_recovering_sync() -> None:
    """The teams' files were written (turn 2 opened in their tabs), the engine commit was not: players
    type turn 2's orders and tick Ready; the sync that completes turn 1 must keep every one of them."""
    sheets, backends = new()
    engine, red, blue = backends["engine"], backends["red"], backends["blue"]
    type_bot_orders(sheets, GVG, bots(3))
    engine.calls.clear()
    engine.fail_on_call = engine_write_call(sheets, backends)
    with pytest.raises(InjectedFault):
        sync(sheets)
    engine.fail_on_call = None
    read = read_match(sheets, GVG)
    assert red.value("Orders red", order_cell(read, "red", "players", "red0", "window")) == "2"
    red.type("Orders red", order_cell(read, "red", "players", "red0", "destination"), "H9")
    red.type("Orders red", order_cell(read, "red", "players", "red0", "action"), "act")
    blue.type("Orders blue", order_cell(read, "blue", "players", "blue1", "destination"), "C3")
    red.type("Orders red", order_cell(read, "red", "captain", "red", "ready"), True)
    report = sync(sheets)
    assert report.resolved and report.reason == "completing a resolution that was interrupted"
    assert report.window_key == "1"  # the window it completed
    after = read_match(sheets, GVG)
    assert after.record.resolved == 1
    typed = {r.subject: r for seat in after.seats.values() for r in seat.rows if r.typed}
    assert typed["red0"].text("destination") == "H9" and typed["red0"].text("action") == "act"
    assert typed["blue1"].text("destination") == "C3"
    assert typed["red"].ticked("ready") and "blue" not in typed  # blue's captain typed nothing
    idle = sync(sheets)  # the orders are turn 2's: kept, not set aside as stale, and red stays ready
    # red waits too while a row of hers is refused (Ready means ready)
    assert not idle.resolved and idle.window_key == "2" and "blue" in idle.waiting_for
    assert (red.value("Orders red", order_cell(read, "red", "players", "red0", "destination")),
            blue.value("Orders blue", order_cell(read, "blue", "players", "blue1", "destination"))) == ("H9", "C3")


def engine_write_call(sheets: MatchSheets, backends: dict[str, MemoryBackend]) -> int:
    """The number of the engine spreadsheet's write among its calls in a resolution (its commit)."""
    trial = copy.deepcopy(backends)
    for b in trial.values():
        b.calls.clear()
    assert sync(four_sheets(trial)).resolved
    return trial["engine"].calls.index("write") + 1
