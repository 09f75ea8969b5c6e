"""GvG's sheet adapter: rows read as the engine's orders (leniently, every unreadable cell named), the bots'
orders typed back exactly, the move rolls shown before the turn, and the board drawn with tile = cell."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.ruleset import Roster
from sheets_gm.rulesets.gvg.engine import GvgRuleset
from sheets_gm.rulesets.gvg.enums import Action, Skill
from sheets_gm.rulesets.gvg.sheet.adapter import GvgSheet
from sheets_gm.rulesets.gvg.state import GvgState
from sheets_gm.rulesets.registry import bots_of, create_ruleset, sheet_spec
from sheets_gm.sheets.tables import TypedRow

SEED = b"gvg-sheet"


def _rules() -> tuple[GvgRuleset, GvgSheet, GvgState]:
    rules = create_ruleset("gvg")
    assert isinstance(rules, GvgRuleset)
    sheet = GvgSheet(rules.rules)
    return rules, sheet, rules.new_match(rules.sample_roster(), SEED)


def _rows(cells: Mapping[str, Mapping[str, Mapping[str, Any]]], key: str) -> dict[str, list[TypedRow]]:
    return {table.name: [TypedRow(table.name, subject, 0, key, values, "")
                         for subject, values in cells.get(table.name, {}).items()]
            for table in sheet_spec("gvg").inputs}


def test_the_bots_orders_typed_into_the_rows_read_back_the_same_for_twenty_turns() -> None:
    rules, sheet, state = _rules()
    bots = {"red": bots_of(rules)["objective"].make("t/red"), "blue": bots_of(rules)["random"].make("t/blue")}
    skills_seen = 0
    for _ in range(20):
        window = rules.window(state)
        assert window is not None
        dice = rules.dice(SEED, state)
        parts = {}
        for seat in window.seats:
            orders = bots[seat].orders(state, seat, dice)
            read = sheet.read_orders(state, window, seat, _rows(sheet.typed_cells(state, window, seat, orders),
                                                                window.key))
            assert read.problems == {}
            assert read.orders == orders
            skills_seen += len(orders.skills[state.team_index(seat)])
            parts[seat] = read.orders
        state = rules.resolve(state, rules.merge_orders(parts), dice).state
    assert skills_seen > 0  # the captain's row was exercised too


def test_cells_are_read_leniently_and_each_bad_cell_is_named_with_what_is_accepted() -> None:
    rules, sheet, state = _rules()
    window = rules.window(state)
    assert window is not None
    cells = {"players": {"red1": {"destination": " g 9 ", "action": "Pick up"},
                         "red2": {"destination": "Z99 please", "action": "dance", "teleport": ""}},
             "captain": {"red": {"skill1": "bulwark_damage", "skill2": "Fireball", "ready": "yes"}}}
    read = sheet.read_orders(state, window, "red", _rows(cells, window.key))
    assert read.orders.players["red1"].move == Coord.parse("G9")
    assert read.orders.players["red1"].action is Action.PICKUP
    assert read.orders.skills == ((Skill.BULWARK_DAMAGE,), ())
    assert read.ready
    assert any("'Z99 please' is not a tile; write a column letter and a row number, like F7" in p
               for p in read.problems["red2"])
    assert any("action 'dance' is not one of act, buff, revive, pickup" in p for p in read.problems["red2"])
    assert any("skill 'Fireball' is unknown; choose one of Player Speed" in p for p in read.problems["red"])


def test_each_team_lists_its_own_players_and_sees_the_rolls_before_it_orders() -> None:
    rules, sheet, state = _rules()
    players, captain = sheet_spec("gvg").inputs
    assert sheet.rows(state, "red", players) == ["red1", "red2", "red3", "red4", "red5"]
    assert sheet.rows(state, "blue", captain) == ["blue"]
    dice = rules.dice(SEED, state)
    roll = sheet.shown(state, "red", players, "red1", dice)["roll"]
    assert roll == dice.peek("move/red1") and 1 <= int(str(roll)) <= 6
    others = str(sheet.shown(state, "red", captain, "red", dice)["rolls"])
    assert others.startswith(f"blue1 {dice.peek('move/blue1')} · ") and "red1" not in others


def test_the_board_puts_tile_g9_in_cell_g9_and_lists_the_players_below_the_map() -> None:
    rules, sheet, state = _rules()
    (drawing,) = sheet.drawings(state)
    assert drawing.tab == ""
    height = rules.rules.board.grid.height
    red1 = state.player("red1")
    assert "red1▼" in str(drawing.values[red1.at.row][red1.at.col])
    assert drawing.values[height] == [] and drawing.values[height + 1][:3] == ["Player", "Team", "Role"]
    assert ["red1", "red", "DPS", red1.at.label, "active", ""] == drawing.values[height + 2]
    assert "tile G9 is cell G9" in str(drawing.legend[0][0])
    assert sheet.status(state, rules.window(state), None).startswith("Turn 1 of 60 · orders open · red: 0 coins")


def test_a_match_without_players_is_refused_so_that_init_asks_for_the_roster() -> None:
    rules, _sheet, _state = _rules()
    with pytest.raises(ValueError, match="a GvG match needs its players: a roster line per player with name, team"):
        rules.new_match(Roster(("red", "blue")), SEED)


def test_a_player_of_the_other_team_or_one_typed_twice_in_the_team_table_is_answered_in_its_row(
        tmp_path: Path) -> None:
    """Issue 20, findings 5 and 9 in GvG's default layout (one workbook): a row naming a player of the other team
    says where that team's orders go, one player in two typed rows names both rows, and neither is read."""
    from sheets_gm.sync.match_tabs import MatchTabs
    from sheets_gm.sync.poll import poll
    from tests.matchfiles import GVG, NOW, local_match

    _config, sheets = local_match(tmp_path)
    placed = MatchTabs(sheet_spec("gvg"), ("red", "blue"), False).orders("red").table("players")
    red = sheets.of("red")
    tab = "Orders red"
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    for cell, value in {placed.cell(3, "player"): "blue0", placed.cell(3, "destination"): "G9",
                        placed.cell(0, "destination"): "G8", placed.cell(4, "player"): "red0",
                        placed.cell(4, "destination"): "G7"}.items():
        book[tab][cell] = value
    book.save(tmp_path / "match.xlsx")
    report = poll(sheets, GVG, now=NOW)
    (said,) = red.read([f"'{tab}'!{placed.column_cells('feedback')}"])
    assert said[3][0] == ("✘ blue0 is blue's: blue's orders go in blue's own tab, Orders blue; nothing in this row "
                          "is read.")
    twice = (f"✘ red0 has 2 typed rows in this table (rows {placed.first_row} and {placed.first_row + 4}): none is "
             "read until one is left; clear the others.")
    assert said[0][0] == twice and said[4][0] == twice
    assert {who for who, _ in report.rejected} >= {f"red · blue0 (row {placed.first_row + 3})",
                                                   f"red · red0 (row {placed.first_row})"}
