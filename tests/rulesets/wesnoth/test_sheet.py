"""The Wesnoth sheet: the bots' orders typed and read back exactly (both resolve modes), every unreadable cell
named and nothing changed, the hex board's offset, the Units tab read from the match's own tables, and step
and batch turns through the real sync."""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.engine.ruleset import Member, Roster, Window
from sheets_gm.engine.settings import parse_settings
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset, sheet_spec
from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset
from sheets_gm.rulesets.wesnoth.orders import RecruitEntry, TurnOrders, UnitOrder
from sheets_gm.rulesets.wesnoth.settings import WesnothSettings
from sheets_gm.rulesets.wesnoth.sheet.adapter import WesnothSheet
from sheets_gm.rulesets.wesnoth.sheet.draw import INFO_ROWS, MAP_TOP, UNITS_TAB, hex_rows, seat_colour
from sheets_gm.rulesets.wesnoth.sheet.read import SEAT, STANDING, UNITS, standing_row
from sheets_gm.rulesets.wesnoth.state import WesnothState
from sheets_gm.sheets.adapter import BoardDrawing, SeatInput
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.layout import CellValue, TabLayout, WorkbookLayout, cells
from sheets_gm.sheets.local.backend import create_workbook
from sheets_gm.sheets.retry import RetryPolicy
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import BATCH_UPDATE, GoogleApiFake, fake_client
from tests.fakes.memory import MemoryBackend
from tests.paths import WESNOTH_TEMPLATES

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
SEED = b"sheet-test"


def made(**settings: object) -> WesnothRuleset:
    r = create_ruleset("wesnoth", parse_settings(WesnothSettings, settings))
    assert isinstance(r, WesnothRuleset)
    return r


def sheet(r: WesnothRuleset) -> WesnothSheet:
    return WesnothSheet(r)


def start(r: WesnothRuleset) -> WesnothState:
    return r.new_match(r.sample_roster(), SEED)


def open_window(r: WesnothRuleset, state: WesnothState) -> Window:
    window = r.window(state)
    assert window is not None
    return window


def rows_of(typed: Mapping[str, Mapping[str, Mapping[str, CellValue]]], window: Window) -> dict[str, list[TypedRow]]:
    """Typed cells as the sync reads them (row numbers in the order given)."""
    return {table: [TypedRow(table, subject, n, window.key, dict(values), "")
                    for n, (subject, values) in enumerate(by_subject.items(), start=1)]
            for table, by_subject in typed.items()}


def read(r: WesnothRuleset, state: WesnothState, **tables: Mapping[str, Mapping[str, CellValue]]) -> SeatInput[Any]:
    window = open_window(r, state)
    return sheet(r).read_orders(state, window, window.seats[0], rows_of(tables, window))


def with_kept_choices(typed: Mapping[str, Mapping[str, Mapping[str, CellValue]]], state: WesnothState, seat: str
                      ) -> dict[str, Mapping[str, Mapping[str, CellValue]]]:
    """``typed`` with the standing choices typed at earlier turns, which stay in their rows (the bots restate
    only the choices that change)."""
    kept = {standing_row(u.id): {"advance": "yes" if u.advance == "true" else u.advance}
            for u in state.units if u.owner == seat and u.advance}
    return {**typed, STANDING: {**kept, **typed.get(STANDING, {})}}


def bot_turns(r: WesnothRuleset, turns: int, kind: str = "skirmisher") -> list[tuple[WesnothState, TurnOrders]]:
    """The bots' orders for the first player turns, each with the state it is written for."""
    bots = {seat: bots_of(r)[kind].make(seat) for seat in r.sample_roster().seats}
    state = start(r)
    out = []
    for _ in range(turns):
        window = r.window(state)
        if window is None:
            break
        dice = r.dice(SEED, state)
        orders = bots[window.seats[0]].orders(state, window.seats[0], dice)
        out.append((state, orders))
        state = r.resolve(state, orders, dice).state
    return out


# -- typing orders and reading them back ---------------------------------------------------------
@pytest.mark.parametrize(("mode", "kind"), [("step", "skirmisher"), ("batch", "skirmisher"), ("step", "random")])
def test_the_bots_orders_type_back_exactly_over_several_rounds(mode: str, kind: str) -> None:
    r = made(resolve=mode)
    turns = bot_turns(r, 16, kind)
    assert len(turns) == 16 and turns[-1][0].round >= 8
    kinds = set()
    for state, orders in turns:
        window = open_window(r, state)
        typed = sheet(r).typed_cells(state, window, window.seats[0], orders)
        typed = with_kept_choices(typed, state, window.seats[0])
        back = sheet(r).read_orders(state, window, window.seats[0], rows_of(typed, window))
        assert back.orders == orders and not back.problems, window.label
        assert not back.go
        kinds |= {("recruit" if o.recruit else "rest" if o.rest else "attack" if o.attack else "move")
                  for o in orders.rows}
    assert kinds == ({"recruit", "rest", "attack", "move"} if kind == "skirmisher" else {"recruit", "rest", "move"})


def test_a_step_types_its_go_boxes_and_reads_back_as_a_step_that_keeps_the_turn() -> None:
    r = made(resolve="step")
    for state, orders in bot_turns(r, 6):
        if len(orders.rows) < 2:
            continue
        window = open_window(r, state)
        step = TurnOrders(orders.player, orders.rows[:2], False)
        typed = with_kept_choices(sheet(r).typed_cells(state, window, window.seats[0], step), state,
                                  window.seats[0])
        assert all(cells["go"] is True for cells in typed[UNITS].values())
        back = sheet(r).read_orders(state, window, window.seats[0], rows_of(typed, window))
        assert back.orders == step and back.go
        assert back.consumed >= {o.unit for o in step.rows}


def test_the_standing_choices_show_what_an_advancement_costs_with_its_least() -> None:
    for least in (0, 20):
        r = made(advance_min_cost=least)
        state = start(r)
        seat = open_window(r, state).seats[0]
        leader = next(u for u in state.units if u.owner == seat)
        cost = max(4 * r.rules.utype(leader).level, least)
        table = next(t for t in sheet(r).spec.inputs if t.name == STANDING)
        shown = sheet(r).shown(state, seat, table, standing_row(leader.id), r.dice(SEED, state))
        assert str(shown["options"]).endswith(f"({cost} gold)"), (least, shown)


def test_standing_choices_type_back_and_an_emptied_row_clears_a_choice() -> None:
    r = made()
    state = start(r)
    window = open_window(r, state)
    leader = next(u for u in state.units if u.owner == window.seats[0])
    orders = TurnOrders(window.seats[0], (), True, ((leader.id, "true"),))
    typed = sheet(r).typed_cells(state, window, window.seats[0], orders)
    assert typed == {STANDING: {standing_row(leader.id): {"advance": "yes"}}}
    assert sheet(r).read_orders(state, window, window.seats[0], rows_of(typed, window)).orders == orders
    chose = r.resolve(state, TurnOrders(window.seats[0], (), False, ((leader.id, "true"),)),
                      r.dice(SEED, state)).state
    assert chose.unit(leader.id).advance == "true"  # type: ignore[union-attr]
    assert read(r, chose).orders.advance_choices == ((leader.id, ""),)


# -- bad cells --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("cells", "column", "accepted"), [
    ({"action": "fly"}, "Action 'fly'", "move, attack, rest, recruit or conquest"),
    ({"action": "move", "to": "ZZ99"}, "Destination", "A1 to"),
    ({"action": "move", "to": "C3", "via": "C4 nowhere"}, "Waypoints", "column letter then its row number"),
    ({"action": "attack", "target": "Nobody-R9"}, "Target 'Nobody-R9'", "Bo-L"),
    ({"action": "attack", "target": "Bo-L", "weapon": "laser"}, "Weapon 'laser'", "has no such attack; write one of"),
    ({"action": "attack", "target": "Bo-L", "reroll": "many"}, "Reroll below 'many'", "a number of hits"),
    ({"action": "attack", "target": "Bo-L", "advance": "Dragon"}, "Advance 'Dragon'", "advances to"),
    ({"action": "attack", "to": "C3", "target": "Bo-L"}, "Destination", "choose move"),
    ({"action": "rest", "to": "C3"}, "rest takes no Destination", "choose move or attack"),
    ({"action": "move"}, "Destination is empty", "the hex to move to"),
    ({"order": 0, "action": "rest"}, "Order 0", "a whole number from 1"),
])
def test_a_bad_cell_is_named_with_what_is_accepted_and_gives_no_order(cells: dict[str, CellValue], column: str,
                                                                       accepted: str) -> None:
    r = made()
    state = start(r)
    leader = "Ann-L"
    got = read(r, state, units={leader: cells}, seat={"Ann": {"ready": True}})
    text = " ".join(got.problems[leader])
    assert column in text and accepted in text, text
    assert got.orders.rows == () and not got.ready  # End turn waits for the row to be mended
    assert "End turn waits for Ann-L" in got.problems["Ann"][0]


def test_a_recruit_of_an_unknown_type_or_a_taken_name_is_named_and_the_leader_waits_for_it() -> None:
    r = made()
    state = start(r)
    faction = state.player("Ann").faction  # type: ignore[union-attr]
    first = r.rules.tables.factions[faction].recruits[0]
    got = read(r, state, units={"Ann-L": {"action": "recruit"}},
               recruit={"Recruit 1": {"type": "Dragon Rider"}, "Recruit 2": {"type": first.lower(), "hex": "q9x"},
                        "Recruit 3": {"type": first, "name": "Bo"}, "Recruit 4": {"type": first}})
    assert "Type 'Dragon Rider' is not a unit type of this match" in got.problems["Recruit 1"][0]
    assert "Hex:" in got.problems["Recruit 2"][0]
    assert "Name 'Bo' is taken" in got.problems["Recruit 3"][0]
    assert "a recruit row below cannot be read" in got.problems["Ann-L"][0] and got.orders.rows == ()
    mended = read(r, state, units={"Ann-L": {"action": "recruit"}},
                  recruit={"Recruit 1": {"type": first.lower(), "hex": "q5"}, "Recruit 2": {"type": first}})
    assert mended.orders.rows == (UnitOrder("Ann-L", recruit=(RecruitEntry(first, "Q5"), RecruitEntry(first))),)
    assert not mended.problems


@pytest.mark.parametrize(("name", "said"), [
    ("Bo-R1", "the name sheets-gm gives"), ("ann-r2", "the name sheets-gm gives"),
    ("Bob\nthe Brave", "U+000A LINE FEED"), ("Bo\u202eR1", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("Bob the Brave, son of " + "x" * 400, "characters long"),
])
def test_a_recruit_name_that_could_pass_for_another_or_is_a_forum_post_is_refused_by_name(name: str, said: str) -> None:
    """A recruit's name becomes a unit id everyone reads on the board and types as a target. One that is another
    recruit's name-to-be (Bo-R1: Bo's first unnamed recruit would then be refused, 'the id is taken', for ever), that
    holds a line break or an invisible character, or that is a pasted paragraph, is refused with what is accepted."""
    r = made()
    state = start(r)
    faction = state.player("Ann").faction  # type: ignore[union-attr]
    first = r.rules.tables.factions[faction].recruits[0]
    got = read(r, state, units={"Ann-L": {"action": "recruit"}},
               recruit={"Recruit 1": {"type": first, "name": name}})
    assert got.orders.rows == () and said in got.problems["Recruit 1"][0], got.problems
    fine = read(r, state, units={"Ann-L": {"action": "recruit"}},
                recruit={"Recruit 1": {"type": first, "name": "Bob the Brave"}})
    assert not fine.problems and fine.orders.rows[0].recruit[0].id == "Bob the Brave"


def test_recruits_typed_under_a_leader_that_does_something_else_are_named() -> None:
    r = made()
    state = start(r)
    got = read(r, state, units={"Ann-L": {"action": "rest"}}, recruit={"Recruit 1": {"type": "Spearman"}})
    assert "Ann-L's row does not recruit" in got.problems["Recruit 1"][0]
    clash = read(r, state, units={"Ann-L": {"action": "recruit"}},
                 recruit={"Recruit 1": {"type": "Spearman", "name": "recruit 2"}})
    assert "is the name of a row of this tab" in clash.problems["Recruit 1"][0]


def test_bad_cells_through_the_sync_are_answered_in_their_row_and_change_nothing() -> None:
    r = made()
    roster = r.sample_roster()
    board, engine = MemoryBackend("board"), MemoryBackend("engine")
    seats = {s: MemoryBackend(s) for s in roster.seats}
    sheets = MatchSheets(roster.seats, board, engine, tuple(seats[s] for s in roster.seats))
    create_match(sheets, r, roster, seed=SEED)
    cls = get_ruleset("wesnoth")
    before = poll(sheets, cls, now=NOW)
    state_before = r.state_codec.to_json(before.state)
    tab = "Orders Ann"
    placed = read_match(sheets, cls).seats["Ann"].tab
    units, seat = placed.table(UNITS), placed.table(SEAT)
    seats["Ann"].type(tab, units.cell(0, "action"), "move")
    seats["Ann"].type(tab, units.cell(0, "to"), "ZZ99")
    seats["Ann"].type(tab, seat.cell(0, "ready"), True)
    report = poll(sheets, cls, now=NOW)
    assert not report.resolved and report.waiting_for == ["Ann"]
    assert any("Destination" in why and "A1 to" in why for _, why in report.rejected)
    feedback = str(seats["Ann"].value(tab, units.cell(0, "feedback")))
    assert "Destination" in feedback and "off the board" in feedback
    assert r.state_codec.to_json(report.state) == state_before
    assert str(seats["Ann"].value(tab, units.cell(0, "to"))) == "ZZ99"  # her typing is kept


# -- step and batch through the sync ----------------------------------------------------------------
class _StepBot:
    """Types a bot's first row as a step (Go ticked), keeping the turn."""

    def __init__(self, r: WesnothRuleset, seat: str) -> None:
        self.inner = bots_of(r)["skirmisher"].make(seat)

    def orders(self, state: WesnothState, seat: str, dice: Any) -> TurnOrders:
        whole = self.inner.orders(state, seat, dice)
        return TurnOrders(seat, whole.rows[:1], False)


def _match(r: WesnothRuleset) -> tuple[MatchSheets, type[Any]]:
    roster = r.sample_roster()
    sheets = MatchSheets(roster.seats, MemoryBackend("board"), MemoryBackend("engine"),
                         tuple(MemoryBackend(s) for s in roster.seats))
    create_match(sheets, r, roster, seed=SEED)
    return sheets, get_ruleset("wesnoth")


def test_in_step_mode_a_go_box_resolves_its_row_and_the_turn_stays_until_end_turn() -> None:
    r = made(resolve="step")
    sheets, cls = _match(r)
    first = open_window(r, start(r))
    typed = type_bot_orders(sheets, cls, {s: _StepBot(r, s) for s in r.sample_roster().seats}, ready=False)
    step = typed[first.seats[0]]
    assert len(step.rows) == 1
    report = poll(sheets, cls, now=NOW)
    assert report.resolved and report.reason == "a Go box is ticked" and report.window_key == first.key
    assert r.window(report.state).key == first.key  # type: ignore[union-attr]
    assert step.rows[0].unit in report.state.acted
    bots = {s: bots_of(r)["skirmisher"].make(s) for s in r.sample_roster().seats}
    type_bot_orders(sheets, cls, bots)
    report = poll(sheets, cls, now=NOW)
    assert report.resolved and r.window(report.state).key != first.key  # type: ignore[union-attr]


def test_in_step_mode_a_refused_row_stays_typed_with_why_and_its_go_unticked() -> None:
    """A step whose row is refused whole changes nothing: the row stays as typed, says why, and waits for its
    player to correct it and tick Go again (left ticked, every poll would resolve it again)."""
    r = made(resolve="step")
    sheets, cls = _match(r)
    tab = "Orders Ann"
    read = read_match(sheets, cls)
    units = read.seats["Ann"].tab.table(UNITS)
    index = read.adapter.rows(read.record.state, "Ann", units.spec).index("Ann-L")
    ann = sheets.of("Ann")
    assert isinstance(ann, MemoryBackend)
    ann.type(tab, units.cell(index, "action"), "move")
    ann.type(tab, units.cell(index, "to"), "A1")  # far beyond the leader's moves
    ann.type(tab, units.cell(index, "go"), True)
    state_before = r.state_codec.to_json(read.record.state)
    report = poll(sheets, cls, now=NOW)
    assert report.resolved and report.reason == "a Go box is ticked"
    assert r.state_codec.to_json(report.state)["units"] == state_before["units"]  # nobody moved
    assert (ann.value(tab, units.cell(index, "action")), ann.value(tab, units.cell(index, "to"))) == ("move", "A1")
    assert ann.value(tab, units.cell(index, "go")) is False
    feedback = str(ann.value(tab, units.cell(index, "feedback")))
    assert feedback.startswith("✘ Not resolved, kept for ") and "move: " in feedback, feedback
    again = poll(sheets, cls, now=NOW)
    assert not again.resolved and again.write_calls == 0  # the refused row is not resolved again and again
    assert str(ann.value(tab, units.cell(index, "feedback"))) == feedback  # and it still says why


def test_in_batch_mode_a_go_box_waits_for_end_turn() -> None:
    r = made(resolve="batch")
    state = start(r)
    got = read(r, state, units={"Ann-L": {"action": "rest", "go": True}})
    assert not got.go and got.orders.end_turn and got.orders.rows == (UnitOrder("Ann-L", rest=True),)
    sheets, cls = _match(r)
    type_bot_orders(sheets, cls, {s: _StepBot(r, s) for s in r.sample_roster().seats}, ready=False)
    assert not poll(sheets, cls, now=NOW).resolved


def _google_keys(pattern: str) -> dict[str, str]:
    """A 44-character spreadsheet key per role of a two-player match, from ``pattern`` (``{role}`` in it)."""
    return {role: pattern.format(role=role).ljust(44, "0")[:44] for role in ("board", "engine", "Ann", "Bo")}


def _google_match(fake: GoogleApiFake, keys: dict[str, str], r: WesnothRuleset) -> MatchSheets:
    """A match of ``r`` created on the Google fake, one spreadsheet per role (``keys``), retried on a fake clock."""
    clock = FakeClock()
    retry = RetryPolicy(deadline=60, time=clock.time, sleep=clock.sleep, random=lambda: 0.5)
    for role, key in keys.items():
        fake.create_spreadsheet(key, role, ("Sheet1",))
    client = fake_client()
    backend = {role: GoogleSheetBackend(client, key, retry=retry, title=role) for role, key in keys.items()}
    sheets = MatchSheets(("Ann", "Bo"), backend["board"], backend["engine"], (backend["Ann"], backend["Bo"]))
    create_match(sheets, r, r.sample_roster(), seed=SEED)
    return sheets


def test_a_batch_match_is_read_and_resolved_on_google() -> None:
    """A poll reads each orders tab as the file layout spans it (Go column included) before it knows the match is
    batch; Google refuses a read past a tab's edge, so every poll of a batch match stopped there. The batch tab is
    laid out as wide as that read, its spare column protected (found by the lifecycle runs once the memory fake
    refused such reads too)."""
    keys = _google_keys("1WesnothBatch_{role}_")
    r = made(resolve="batch")
    with GoogleApiFake() as fake:
        sheets = _google_match(fake, keys, r)
        cls = get_ruleset("wesnoth")
        type_bot_orders(sheets, cls, {s: _StepBot(r, s) for s in r.sample_roster().seats}, ready=True)
        assert poll(sheets, cls, now=NOW).resolved
        assert not fake.violations, fake.violations


def test_a_batch_match_has_no_go_column_and_no_step_mode_words() -> None:
    """Under resolve = "batch" a Go box would do nothing: the units table has none and no title speaks of step
    mode or Go; a step match keeps both."""
    sheets, _ = _match(made(resolve="batch"))
    ann = sheets.of("Ann")
    assert isinstance(ann, MemoryBackend)
    words = " ".join(str(v) for v in ann.tabs["Orders Ann"].values() if v not in (None, ""))
    assert "Go" not in words.split() and "Step mode" not in words and "step mode" not in words, words
    assert "End turn" in words
    step_sheets, _ = _match(made(resolve="step"))
    step_ann = step_sheets.of("Ann")
    assert isinstance(step_ann, MemoryBackend)
    step_words = " ".join(str(v) for v in step_ann.tabs["Orders Ann"].values() if v not in (None, ""))
    assert "Go" in step_words.split() and "Step mode" in step_words


# -- the public tabs --------------------------------------------------------------------------------
#: The sample roster's seats: each one's sign and seat colour in templates/wesnoth/layout.yaml.
OWNERS = {"Ann": ("●", "#F4CCCC"), "Bo": ("■", "#45B8AC")}  # seat 2's units teal, not its castle's pale blue


def _key(board: BoardDrawing) -> list[str]:
    """The key's entries beside the map (one a row, or several a row joined by ``; ``)."""
    return [entry for row in board.legend for entry in str(row[0]).split("; ")]


def test_the_board_draws_each_hex_two_cells_tall_with_even_columns_a_row_lower() -> None:
    r = made()
    state = start(r)
    board = sheet(r).drawings(state)[0]
    assert board.tab == ""
    assert hex_rows(Hex(0, 0)) == (MAP_TOP, MAP_TOP + 1) and hex_rows(Hex(1, 0)) == (MAP_TOP + 1, MAP_TOP + 2)
    assert str(board.values[MAP_TOP][0]).startswith("A1") and str(board.values[MAP_TOP + 1][1]).startswith("B1")
    assert board.values[MAP_TOP][1] == "" or not str(board.values[MAP_TOP][1]).startswith("B")
    for unit in state.units:
        top, bottom = hex_rows(unit.at)
        assert str(board.values[top][unit.at.col]).startswith(unit.at.label)
        cell = str(board.values[bottom][unit.at.col])
        hp = r.rules.utype(unit).hitpoints
        assert cell == f"{OWNERS[unit.owner][0]}♛\u2009{hp}"  # the leader's short mark and hit points left
        assert f"{unit.at.label} {OWNERS[unit.owner][0]} {unit.id} ♛ · {unit.type} · {hp}/{hp} HP" in _key(board)
    keep = r.rules.board.keeps[1]
    assert str(board.values[hex_rows(keep)[0]][keep.col]) == f"{keep.label} ♔"
    assert f"keeps and their castles: {keep.label} Ann's, " in " ".join(str(row[0]) for row in board.legend)
    assert len(board.values) == MAP_TOP + 2 * r.rules.board.grid.height + 1




def test_each_players_units_are_coloured_by_her_seat_over_the_map_and_only_units_match() -> None:
    r = made()
    state = start(r)
    board = sheet(r).drawings(state)[0]
    width = r.rules.board.grid.width
    over_map = cells(0, MAP_TOP + 1, width - 1, len(board.values))
    assert [(c.range, c.prefix, c.colour, c.bold) for c in board.conditional_fills] == [
        (over_map, sign, colour, False) for sign, colour in OWNERS.values()]  # bold is wider than a hex
    assert [p.name for p in state.players] == list(OWNERS)
    unit_cells = {(hex_rows(u.at)[1], u.at.col): u.owner for u in state.units}
    for row, line in enumerate(board.values[MAP_TOP:], start=MAP_TOP):
        for col, value in enumerate(line):
            owners = [o for o, (sign, _) in OWNERS.items() if str(value).startswith(sign)]
            assert owners == ([unit_cells[(row, col)]] if (row, col) in unit_cells else []), (row, col, value)
    assert any("Players: ● Ann" in str(line[0]) for line in board.legend)


def _owner_rules_of_a_local_match(path: Path) -> list[tuple[str, str]]:
    ws = openpyxl.load_workbook(path)["Board"]
    return [(str(cf.sqref), rule.text) for cf in ws.conditional_formatting for rule in cf.rules]


def test_a_local_board_holds_one_rule_per_owner_after_creation_and_after_repair(tmp_path: Path) -> None:
    r = made()
    path = tmp_path / "match.xlsx"
    backend = create_workbook(path, WorkbookLayout("t", (TabLayout("Board", rows=1, cols=1),)))
    sheets = MatchSheets.single(r.sample_roster().seats, backend)
    create_match(sheets, r, r.sample_roster(), seed=SEED)
    board = sheet(r).drawings(start(r))[0]
    expected = [(c.range, c.prefix) for c in board.conditional_fills]
    assert _owner_rules_of_a_local_match(path) == expected
    repair_match(sheets, get_ruleset("wesnoth"))
    repair_match(sheets, get_ruleset("wesnoth"))
    assert _owner_rules_of_a_local_match(path) == expected


def test_a_google_board_gets_its_owner_rules_in_its_one_layout_call_and_keeps_them_once_after_repair() -> None:
    keys = _google_keys("1{role}Key_sheetsgm_wesnoth_colours_")
    r = made()
    with GoogleApiFake() as fake:
        sheets = _google_match(fake, keys, r)
        to_board = [c.body for c in fake.log if c.endpoint == BATCH_UPDATE and keys["board"] in c.url]
        assert len(to_board) == 1  # the layout's one call: the rules ride in it
        added = [q["addConditionalFormatRule"] for q in to_board[0]["requests"] if "addConditionalFormatRule" in q]
        assert [(a["index"], a["rule"]["booleanRule"]["condition"]["values"][0]["userEnteredValue"]) for a in added] \
            == [(0, "●"), (1, "■")]
        tab = fake.spreadsheets[keys["board"]].sheet("Board")
        stored = [(rule["booleanRule"]["condition"]["values"][0]["userEnteredValue"], rule["ranges"][0]["sheetId"])
                  for rule in tab.conditional_formats]
        assert stored == [("●", tab.sheet_id), ("■", tab.sheet_id)]
        repair_match(sheets, get_ruleset("wesnoth"))
        assert [(rule["booleanRule"]["condition"]["values"][0]["userEnteredValue"], rule["ranges"][0]["sheetId"])
                for rule in fake.spreadsheets[keys["board"]].sheet("Board").conditional_formats] == stored
        assert not fake.spreadsheets[keys["board"]].sheet("Units").conditional_formats
        assert not fake.violations, fake.violations


def test_a_village_shows_its_owner_and_a_wounded_unit_its_wounds() -> None:
    r = made()
    state = start(r)
    village = r.rules.board.villages[0]
    unit = state.units[0]
    changed = state.evolve(villages=((village, "Bo"),),
                           units=(type(unit)(unit.id, unit.type, unit.owner, unit.at, wounds=5, leader=True),
                                  *state.units[1:]))
    board = sheet(r).drawings(changed)[0]
    assert str(board.values[hex_rows(village)[0]][village.col]).endswith("⌂■")  # Bo's sign
    hp = r.rules.utype(unit).hitpoints
    cell = str(board.values[hex_rows(unit.at)[1]][unit.at.col])
    assert cell.endswith(f"\u2009{hp - 5}")  # HP left in the hex; its total, its type and its id whole in the key
    assert f"{unit.at.label} ● {unit.id} ♛ · {unit.type} · {hp - 5}/{hp} HP" in _key(board)


def test_team_names_from_the_roster_are_the_names_players_see() -> None:
    r = made()
    state = start(r)
    named = state.evolve(team_names=((1, "north"), (2, "south")))
    assert named.team_label(1) == "north" and state.team_label(2) == "team 2"
    legend = " ".join(str(row[0]) for row in sheet(r).drawings(named)[0].legend)
    assert "(north, " in legend and "(south, " in legend
    assert WesnothState.from_json(named.to_json()).team_names == named.team_names
    assert "team_names" not in state.to_json()  # a numbered roster stores nothing new
    roster = r.sample_roster()
    members = tuple(Member(m.name, m.seat, {**m.fields, "team": ("north", "south")[i % 2]})
                    for i, m in enumerate(roster.members))
    fresh = r.new_match(Roster(roster.seats, members), b"teams")
    assert fresh.team_label(fresh.players[0].team) == "north" and fresh.team_label(fresh.players[1].team) == "south"


def test_the_units_of_seats_3_and_4_are_in_strong_colours() -> None:
    spec = sheet_spec("wesnoth")
    assert seat_colour(spec, 3) != spec.colours.extra["slot3"] and seat_colour(spec, 4) != spec.colours.extra["slot4"]
    assert seat_colour(spec, 1) == spec.colours.extra["slot1"]


def test_the_units_tab_reads_the_match_s_own_tables(tmp_path: Path) -> None:
    era = tmp_path / "my-era"
    era.mkdir()
    (era / "factions.csv").write_text((WESNOTH_TEMPLATES / "factions.csv").read_text(encoding="utf-8"),
                                      encoding="utf-8")
    with (WESNOTH_TEMPLATES / "units.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        if row["type"] == "Spearman":
            row["hitpoints"] = "77"
    with (era / "units.csv").open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    r = made(units=str(era))
    state = r.new_match(r.sample_roster(), SEED)
    units = next(d for d in sheet(r).drawings(state) if d.tab == UNITS_TAB)
    spearman = next(row for row in units.values if row[0] == "Spearman")
    assert spearman[2] == 77
    names = {row[0] for row in units.values}
    for p in state.players:
        faction = r.rules.tables.factions[p.faction]
        assert set(faction.recruits) <= names and set(faction.leaders) <= names
    assert all(len(row) == units.width for row in units.values)


def test_the_status_line_names_the_round_time_of_day_the_player_to_act_and_who_is_next() -> None:
    r = made()
    state = start(r)
    line = sheet(r).status(state, r.window(state), None)
    assert line.startswith("Round 1 · dawn · Ann's turn, Bo next · Ann: 15 gold, 0 villages | Bo: 15 gold")
    panel = sheet(r).panel(state, "Bo")
    assert panel[0][:2] == ["Your gold", "15 gold"] and any(row and row[0] == "Bo-L (leader)" for row in panel)


@pytest.mark.parametrize("mode", ["step", "batch"])
def test_a_bot_match_through_the_sync_is_the_engine_match_in_both_modes(mode: str) -> None:
    r = made(resolve=mode)
    sheets, cls = _match(r)
    bots = {s: bots_of(r)["skirmisher"].make(s) for s in r.sample_roster().seats}
    state = start(r)
    for _ in range(8):
        window = open_window(r, state)
        typed = type_bot_orders(sheets, cls, bots)
        report = poll(sheets, cls, now=NOW)
        assert report.resolved, window.label
        state = r.resolve(state, typed[window.seats[0]], r.dice(SEED, state)).state
        assert r.state_codec.to_json(report.state) == r.state_codec.to_json(state), window.label
    assert state.round == 5


def test_a_unit_of_another_seat_typed_in_your_tab_says_whose_it_is_and_moves_nothing() -> None:
    """Issue 20, finding 5: Bo's leader typed in a blank row of Ann's units (with the stamp of her window, or
    without) was answered "written for a window that is not open" and set aside; now it says whose unit it is, stays
    typed, and Bo's leader does not move when Ann's turn resolves."""
    r = made()
    sheets, cls = _match(r)
    tab = "Orders Ann"
    read = read_match(sheets, cls)
    units = read.seats["Ann"].tab.table(UNITS)
    free = len(read.adapter.rows(read.record.state, "Ann", units.spec))
    window = r.window(read.record.state)
    assert window is not None
    ann = sheets.of("Ann")
    assert isinstance(ann, MemoryBackend)
    for index, stamp in ((free, window.key), (free + 1, "")):
        ann.type(tab, units.cell(index, "unit"), "Bo-L")
        ann.type(tab, units.cell(index, "window"), stamp)
        ann.type(tab, units.cell(index, "action"), "move")
        ann.type(tab, units.cell(index, "to"), "N20")
    report = poll(sheets, cls, now=NOW)
    whose = "✘ Bo-L is Bo's: Bo's orders go in Bo's own file (Bo, tab Orders Bo); nothing in this row is read."
    twice = "✘ Bo-L has 2 typed rows in this table"
    for index in (free, free + 1):
        assert str(ann.value(tab, units.cell(index, "feedback"))) == whose
        assert ann.value(tab, units.cell(index, "to")) == "N20"
    assert not any(twice[2:] in why for _, why in report.rejected)  # another seat's unit, not a duplicate
    assert sum(who.startswith("Ann · Bo-L") for who, _ in report.rejected) == 2
    bo_at = {u.id: u.at for u in read.record.state.units}["Bo-L"]
    ann.type(tab, read.seats["Ann"].tab.table(SEAT).cell(0, "ready"), True)
    done = poll(sheets, cls, now=NOW)
    assert done.resolved and {u.id: u.at for u in done.state.units}["Bo-L"] == bo_at


# -- the log in players' words ------------------------------------------------------------------------
def test_the_log_says_wounds_and_hp_left_brackets_where_needed_one_move_and_the_round() -> None:
    """An attack says the wounds and the hit points left ("7 wounds, 29/36 HP"), a kill says so, time of day and
    resistance together are bracketed, a count of one is singular, and every event stands under its round."""
    r = made()
    state = start(r)
    bots = {seat: bots_of(r)["skirmisher"].make(seat) for seat in r.sample_roster().seats}
    texts: list[str] = []
    for _ in range(40):
        window = r.window(state)
        if window is None:
            break
        dice = r.dice(SEED, state)
        resolution = r.resolve(state, bots[window.seats[0]].orders(state, window.seats[0], dice), dice)
        turns = [e.turn for e in resolution.events]  # a turn that ends the round logs the next one's dawn under it
        assert turns[0] == state.round and set(turns) <= {state.round, state.round + 1}, turns
        texts += [e.text for e in resolution.events]
        state = resolution.state
    hits = [t for t in texts if " hit" in t and " = " in t]
    assert hits and not [t for t in texts if re.search(r"has \d+ of \d+", t)]
    assert all(re.search(r"\d+ wounds?, \d+/\d+ HP|is killed \(0/\d+ HP\)", t) for t in hits), hits[:3]
    assert not [t for t in texts if re.search(r"\b1 (moves|wounds)\b", t)]
    both = [t for t in texts if re.search(r"[+−] \d+ \(\w[\w ]*\)\) × \d+%", t)]
    assert all(not re.search(r"\d+ × \d+ [+−] \d+ \([\w ]+\) × ", t) for t in texts)  # never unbracketed
    assert both or not [t for t in texts if re.search(r"[+−] \d+ \(", t) and "%" in t]


def test_a_move_out_of_reach_names_the_reachable_hex_nearest_the_destination() -> None:
    """A refusal for a hex too far names the hex nearest it that the unit can end on (the farthest hex on the
    cheapest route could lie off the line: P4 to P9 said R8)."""
    from sheets_gm.rulesets.wesnoth.movement import MoveRefused, plan_move, reachable

    r = made()
    state = start(r)
    leader = next(u for u in state.units if u.owner == "Ann" and u.leader)
    grid = r.rules.board.grid
    enemy = next(u for u in state.units if u.owner != "Ann" and u.leader)
    far = next(h for h in grid.neighbours(enemy.at) if h not in {u.at for u in state.units}
               and r.rules.utype(leader).move_cost(r.rules.board.terrain(h)) is not None)
    with pytest.raises(MoveRefused) as refused:
        plan_move(r.rules, state, leader, far)
    found = re.search(r"the nearest hex it can reach is ([A-Z]+\d+), (\d+) hex(es)? from ", str(refused.value))
    assert found, str(refused.value)
    there = grid.parse(found.group(1))
    reach = reachable(r.rules, state, leader)
    assert there in reach
    assert int(found.group(2)) == grid.distance(there, far) == min(grid.distance(h, far) for h in reach
                                                                   if h != leader.at)
    assert plan_move(r.rules, state, leader, there).path


def test_the_view_lists_each_units_reachable_hexes() -> None:
    """Each unit's row in the player's View says where it can move now: the hexes reachable() gives."""
    from sheets_gm.rulesets.wesnoth.movement import reachable
    from sheets_gm.rulesets.wesnoth.sheet.adapter import REACH_PREFIX, UNIT_TEXT_HEADER

    r = made()
    state = start(r)
    panel = sheet(r).panel(state, "Ann")
    header = next(row for row in panel if row and row[0] == "Your unit")
    col = header.index(UNIT_TEXT_HEADER)
    assert col < 8  # the View tab shows 8 columns (sheets/spec.VIEW_COLS)
    leader = next(u for u in state.units if u.owner == "Ann" and u.leader)
    row = next(row for row in panel if row and str(row[0]).startswith(leader.id))
    at = panel.index(row)
    below = []
    for line in panel[at + 1:]:
        if not line or line[0]:
            break
        below.append(str(line[col]))
    text = " ".join([str(row[col]), *below])
    attacks, _, reach = text.partition(" " + REACH_PREFIX)
    assert attacks == "; ".join(a.label for a in r.rules.utype(leader).attacks)
    listed: set[str] = set()
    for run in reach.split(", "):
        first, _, last = run.partition("–")
        letters = first.rstrip("0123456789")
        low = int(first[len(letters):])
        listed |= {f"{letters}{n}" for n in range(low, int(last or low) + 1)}
    assert listed == {h.label for h in reachable(r.rules, state, leader) if h != leader.at}


def test_the_views_unit_table_keeps_its_long_texts_in_the_wide_column_over_rows() -> None:
    """The unit table was cut in LibreOffice: type and attacks in narrow columns, the hexes in the log's wide
    column C beside a narrow Hex, the reachable hexes one long line. Now the long texts are in column C, a long
    list over the rows under its first, and every cell is short enough for its column."""
    from sheets_gm.rulesets.registry import sheet_spec

    r = made()
    state = start(r)
    spec = sheet_spec("wesnoth")
    panel = sheet(r).panel(state, "Ann")
    widths = {0: 160, 2: 600, **spec.view_widths}
    for row in panel:
        for col, value in enumerate(row):
            # about 7 px a character at the sheet's font: a value wider than its column would be cut
            assert len(str(value)) * 7 <= widths.get(col, 100), (row, col, value)
    assert len(panel) <= spec.view_panel_rows


#: The widest line a hex holds, in points of 11-point DejaVu Sans (the font LibreOffice prints in where Calibri and
#: Carlito are missing, the widest of them): ``AA12 ⌂●`` (49.1) printed on one line, ``AA12 ⌂■`` (49.9) and
#: ``■R12 38`` (49.5) wrapped to a second line, cut by the hex's height (issue 64: a map at 8 pt on 4 pages).
HEX_POINTS = 49.0
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _four_seats(state: WesnothState) -> WesnothState:
    first = state.players[0]
    more = tuple(type(first)(name, 1 + i % 2, first.faction, 3 + i, 0) for i, name in enumerate(("Cy", "Di")))
    return state.evolve(players=(*state.players, *more))


def test_every_hex_cell_holds_one_line_in_the_widest_font() -> None:
    """Every text a hex's cell can show (each hex's name with its terrain sign, a village of each seat; a unit of
    each seat, ids R1 to R99 and a long one, every hit point count up to the most of a unit type) is one line no
    wider than ``HEX_POINTS`` in DejaVu Sans. Checked to fail with a space before the hit points (``■R12 38``) and
    with the owner's fill bold again (its width is measured). The default map has no village in column AA, so a
    space after ``AA12`` (``AA12 ⌂■``, 49.9) is seen only in LibreOffice's print."""
    font = pytest.importorskip("PIL.ImageFont")
    if not DEJAVU.exists():
        pytest.skip("DejaVu Sans is not installed")
    regular = font.truetype(str(DEJAVU), 110)
    bold = font.truetype(str(DEJAVU.with_name("DejaVuSans-Bold.ttf")), 110)
    r = made()
    state = _four_seats(start(r))
    board = sheet(r).drawings(state)[0]
    drawer = sheet(r).drawer
    villages = r.rules.board.villages
    texts = {str(v) for row in board.values[MAP_TOP:] for v in row if v}
    for owner in [p.name for p in state.players]:
        texts |= {drawer._hex_text(state.evolve(villages=tuple((v, owner) for v in villages)), v) for v in villages}
        most = max(t.hitpoints for t in r.rules.tables.units.values())
        for uid in [*(f"{owner}-R{n}" for n in range(1, 100)), f"{owner}-Grognak", "Wolfgang"]:
            unit = type(state.units[0])(uid, "Spearman", owner, Hex(0, 0))
            texts |= {drawer._unit_text(state, unit.with_wounds(w)) for w in (0, r.rules.utype(unit).hitpoints - most)}
    assert all("\n" not in t for t in texts)
    fonts = {c.prefix: bold if c.bold else regular for c in board.conditional_fills}
    wide = {t: round(fonts.get(t[:1], regular).getlength(t) / 10, 1) for t in texts}
    assert not {t: w for t, w in wide.items() if w > HEX_POINTS}, sorted(wide.items(), key=lambda x: -x[1])[:5]
    assert max(wide.values()) > HEX_POINTS - 4  # the walk reaches the widest texts


def test_the_key_names_every_unit_in_full_by_its_hex_and_clears_the_rows_of_units_gone() -> None:
    """The key beside the map: every unit on the board in full (hex, owner's sign, id, type, hit points of its
    total), hexes column by column; always as many rows (the map's less the info column's), so that a shorter key
    written over a longer one leaves no unit that is gone; a board of more units than the key has rows ends it with
    a row saying how many more (never a row past the tab's)."""
    r = made()
    state = start(r)
    one = sheet(r).drawings(state)[0]
    gone = sheet(r).drawings(state.evolve(units=state.units[:1]))[0]
    assert len(one.legend_rows) == len(gone.legend_rows) == len(one.values) - INFO_ROWS
    assert [len([e for e in _key(b) if e.endswith(" HP")]) for b in (one, gone)] == [2, 1]
    base = state.units[0]
    hexes = list(r.rules.board.grid.cells())[:40]
    crowd = state.evolve(units=tuple(type(base)(f"{base.owner}-R{i}", "Spearman", base.owner, h, wounds=i % 5)
                                     for i, h in enumerate(hexes, 1)))
    board = sheet(r).drawings(crowd)[0]
    entries = [e for e in _key(board) if e.endswith(" HP")]
    hp = r.rules.tables.units["Spearman"].hitpoints
    assert entries == [f"{u.at.label} ● {u.id} · Spearman · {hp - u.wounds}/{hp} HP"
                       for u in sorted(crowd.units, key=lambda u: (u.at.col, u.at.row))]
    assert len(board.legend_rows) == len(board.values) - INFO_ROWS
    many = crowd.evolve(units=tuple(replace(base, id=f"Ann-R{i}", at=h)
                                    for i, h in enumerate(r.rules.board.grid.cells())))
    crowded = sheet(r).drawings(many)[0]
    assert len(crowded.legend_rows) == len(crowded.values) - INFO_ROWS
    key = [e for e in _key(crowded) if e]
    shown = [e for e in key if e.endswith(" HP")]
    assert key[-1] == f"… and {len(many.units) - len(shown)} more: each in full in its owner's View"
