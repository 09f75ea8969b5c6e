"""Champions' sheet adapter: rows read as the engine's orders, bots' orders typed back exactly, and what
each tab shows (the board no health, a player's View only her own bag and her tile-mates' health)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.engine.events import Event
from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.champions.enums import EventKind
from sheets_gm.rulesets.champions.orders import PlayerOrders
from sheets_gm.rulesets.champions.sheet.adapter import ChampionsSheet
from sheets_gm.rulesets.champions.views import bag_line, health_line
from sheets_gm.rulesets.registry import bots_of, create_ruleset, sheet_of, sheet_spec
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.writes import view_log_lines

SEED = b"champions-sheet"


def _rows(cells: Any, window_key: str, phase: str) -> dict[str, list[TypedRow]]:
    out: dict[str, list[TypedRow]] = {}
    for table in sheet_spec("champions").inputs:
        if table.open_in(phase):
            out[table.name] = [TypedRow(table.name, subject, 0, window_key, values, "")
                               for subject, values in cells.get(table.name, {}).items()]
    return out


def test_the_bots_orders_typed_into_the_rows_read_back_the_same_for_six_windows() -> None:
    rules = create_ruleset("champions")
    sheet = sheet_of(rules)
    assert isinstance(sheet, ChampionsSheet)
    state = rules.new_match(rules.sample_roster(), SEED)
    bots = {s: bots_of(rules)["affinity"].make(f"t/{s}") for s in rules.sample_roster().seats}
    for _ in range(6):
        window = rules.window(state)
        assert window is not None
        dice = rules.dice(SEED, state)
        parts = {}
        for seat in window.seats:
            orders = bots[seat].orders(state, seat, dice)
            typed = sheet.typed_cells(state, window, seat, orders)
            back = sheet.read_orders(state, window, seat, _rows(typed, window.key, window.phase))
            assert back.orders.players.get(seat, PlayerOrders()) == orders.players.get(seat, PlayerOrders()), seat
            parts[seat] = orders
        state = rules.resolve(state, rules.merge_orders(parts), dice).state


def test_none_takes_everything_off_and_ready_comes_from_the_seat_rows() -> None:
    rules = create_ruleset("champions")
    sheet = sheet_of(rules)
    assert isinstance(sheet, ChampionsSheet)
    state = rules.new_match(rules.sample_roster(), SEED)
    window = rules.window(state)
    assert window is not None
    read = sheet.read_orders(state, window, "Ann", {"move_loot": [
        TypedRow("move_loot", "Ann", 5, window.key, {"move": "B2", "loot1": "any", "loot2": "", "ready": True}, "")]})
    assert read.ready and read.orders.players["Ann"] == PlayerOrders(move="B2", loot=("any",))
    fight = sheet.read_orders(state, window, "Ann", {
        "equip": [TypedRow("equip", "Ann.mage", 9, window.key, {"item1": "None"}, "")],
        "fight": [TypedRow("fight", "Ann", 20, window.key, {"battle1": "mage, healer", "ready": False}, "")]})
    assert not fight.ready
    assert fight.orders.players["Ann"] == PlayerOrders(equip=(("mage", ()),), field=(("mage", "healer"),))


def test_the_board_shows_no_health_and_a_view_no_one_elses_bag() -> None:
    rules = create_ruleset("champions")
    sheet = sheet_of(rules)
    assert isinstance(sheet, ChampionsSheet)
    state = rules.new_match(rules.sample_roster(), SEED)
    board = "\n".join(str(v) for row in sheet.board(state).values for v in row)
    assert all(p.name in board for p in state.players) and "100" not in board
    ann = state.player("Ann")
    assert ann is not None
    bo_view = "\n".join(str(v) for row in sheet.panel(state, "Bo") for v in row)
    assert bag_line(ann) not in bo_view
    mates = {q.name for q in state.on_tile(ann.at)} if ann.at else set()
    assert (health_line(ann) in bo_view) == ("Bo" in mates)
    assert health_line(ann) in "\n".join(str(v) for row in sheet.panel(state, "Ann") for v in row)


def test_every_tile_is_shaded_apart_and_names_and_row_numbers_sit_at_the_top_of_their_cells() -> None:
    rules = create_ruleset("champions")
    sheet = sheet_of(rules)
    assert isinstance(sheet, ChampionsSheet)
    state = rules.new_match(rules.sample_roster(), SEED)
    drawing = sheet.board(state)
    size = state.size
    assert any(f.range == f"B2:{chr(ord('A') + size)}{size + 1}" and f.wrap for f in drawing.fills)
    assert any(f.range == f"A2:A{size + 1}" and f.wrap and not f.border for f in drawing.fills)
    shades = {f.prefix: f.colour for f in drawing.conditional_fills}
    assert len(shades) == size ** 2 and shades["A1"] != shades["B1"] and shades["A1"] == shades["B2"]


@pytest.mark.parametrize(("size", "crowd"), [(4, 16), (3, 9), (3, 5), (2, 4)])
def test_every_player_on_a_crowded_tile_is_readable(size: int, crowd: int) -> None:
    """Issue 54: a tile of five or more players hid names (five lines a tile). Every name is in the cell, and the
    tile rows, sized for the whole roster on one tile, hold every line the cell wraps to at the tile's width."""
    from sheets_gm.rulesets.champions.sheet.adapter import TILE_LINE_PIXELS, TILE_PIXELS
    from sheets_gm.sheets.printed_sizes import lines_needed

    rules = create_ruleset("champions")
    sheet = sheet_of(rules)
    assert isinstance(sheet, ChampionsSheet)
    state = rules.new_match(rules.sample_roster(), SEED)
    b2 = Coord(1, 1)
    crowded = [replace(p, at=b2) if i < crowd else replace(p, at=None, out_round=1)
               for i, p in enumerate(state.players)]
    state = replace(state, players=tuple(crowded), size=size)
    drawing = sheet.board(state)
    cell = str(drawing.values[2][2])
    assert cell.split("\n")[0] == "B2"
    shown = [n.strip() for line in cell.split("\n")[1:] for n in line.split(",")]
    assert shown == [p.name for p in state.players[:crowd]]
    height = set(drawing.row_heights.values())
    assert len(height) == 1 and height.pop() >= TILE_LINE_PIXELS * lines_needed(cell, TILE_PIXELS)


def test_orders_typed_in_another_players_file_are_answered_there_and_listed_by_sync_and_status(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 20, finding 9: Ann's orders typed into Bo's file (in the blank row under his move row, or over one
    of his champions' rows) get an answer in their row and are in sync's and status's lists; nothing is lost."""
    from sheets_gm.cli import main

    config = tmp_path / "match.toml"
    assert main(["init", "champions", "-c", str(config), "--private"]) == 0
    book = tmp_path / "orders-Bo.xlsx"
    wb = openpyxl.load_workbook(book)
    tab = wb["Orders Bo"]
    for cell, value in {"A6": "Ann", "B6": "1/move", "C6": "B2", "G6": True, "A9": "Ann.rogue", "D9": "sword"}.items():
        tab[cell] = value
    wb.save(book)
    capsys.readouterr()
    assert main(["sync", "-c", str(config)]) == 0
    synced = capsys.readouterr().out
    assert main(["status", "-c", str(config)]) == 0
    status = capsys.readouterr().out
    tab = openpyxl.load_workbook(book)["Orders Bo"]
    gap = ("✘ Row 6 is between two tables: nothing typed in it is read. Ann's orders go in Ann's own file "
           "(orders-Ann.xlsx, tab Orders Ann), not in Bo's.")
    over = ("✘ Ann.rogue is Ann's: Ann's orders go in Ann's own file (orders-Ann.xlsx, tab Orders Ann); nothing in "
            "this row is read.")
    assert tab["H6"].value == gap and tab["H9"].value == over
    assert [tab[c].value for c in ("A6", "C6", "A9", "D9")] == ["Ann", "B2", "Ann.rogue", "sword"]
    for out in (synced, status):
        assert f"Bo · row 6: {gap[2:]}" in out and f"Bo · Ann.rogue (row 9): {over[2:]}" in out


def test_a_dead_champions_row_says_what_it_carries_so_it_can_be_stripped() -> None:
    rules = create_ruleset("champions")
    sheet = sheet_of(rules)
    assert isinstance(sheet, ChampionsSheet)
    state = rules.new_match(rules.sample_roster(), SEED)
    ann = state.player("Ann")
    assert ann is not None
    dead = replace(ann, health=(0, *ann.health[1:]), equipment=(("Iron Sword",), (), (), ()))
    state = state.with_players([dead if p.name == "Ann" else p for p in state.players])
    window = rules.window(state)
    assert window is not None
    table = next(t for t in sheet.spec.inputs if t.name == "equip")
    dice = rules.dice(SEED, state)
    assert sheet.shown(state, "Ann", table, "Ann.gladiator", dice) == {"health": "dead · carries Iron Sword"}
    assert sheet.shown(state, "Ann", table, "Ann.rogue", dice) == {"health": "85 · carries nothing"}


def test_a_battle_report_reads_over_rows_of_the_view_log_a_row_per_action() -> None:
    rules = create_ruleset("champions")
    sheet = sheet_of(rules)
    text = ("Battle on A1: Di (Rogue) vs Ann (Rogue)\nRound 1\nDi's Rogue attacks Ann's Rogue:\n"
            "  Attack [5, 7, 4] = 16\n  Critical Hit [16x2] = 32\n  → 32 damage to Ann's Rogue\n"
            "Ann's Rogue evades.\nHealth\n"
            "  Ann's Rogue: 85 − 32 = 53\n  Di's Rogue: 85 − 0 = 85")
    rows = view_log_lines([Event(2, EventKind.BATTLE, text, audience=frozenset({"Ann", "Di"}))], sheet)
    assert rows[0][:3] == ["round 1, fight", "battle", "Battle on A1: Di (Rogue) vs Ann (Rogue)"]
    assert rows[1][2:6] == ["Round 1 · Di's Rogue attacks Ann's Rogue:", "Attack [5, 7, 4] = 16",
                            "Critical Hit [16x2] = 32", "→ 32 damage to Ann's Rogue"]
    assert rows[2][2] == "Round 1 · Ann's Rogue evades." and rows[1][:2] == ["", ""]
    assert [r[2] for r in rows[3:]] == ["Health · Ann's Rogue: 85 − 32 = 53", "Health · Di's Rogue: 85 − 0 = 85"]
    assert len({len(r) for r in rows}) == 1
    other = view_log_lines([Event(2, EventKind.NO_BATTLE, "Nobody to fight on B2.")], sheet)
    assert other == [["round 1, fight", "no battle", "Nobody to fight on B2."]]


def test_an_attack_of_many_steps_goes_on_in_the_row_under_it_a_step_a_cell() -> None:
    rules = create_ruleset("champions")
    sheet = sheet_of(rules)
    steps = ["Attack [5, 7, 4] = 16", "+1d8 Item [5] = 21", "+1d8 Item [3] = 24", "+1d6 Support [4x1.25 = 5] = 29",
             "Opponent Defense 1d10 [4] = 25", "Strength Boost [25x1.25] = 31", "Critical Hit [31x2] = 62",
             "Evade [62/2] = 31", "→ 31 damage to Ann's Mage"]
    text = "Battle on A1: Di (Rogue) vs Ann (Mage)\nRound 1\nDi's Rogue attacks Ann's Mage:\n" + "".join(
        f"  {s}\n" for s in steps) + "Health\n  Ann's Mage: 85 − 31 = 54"
    rows = view_log_lines([Event(2, EventKind.BATTLE, text, audience=frozenset({"Ann", "Di"}))], sheet)
    assert rows[1][2:] == ["Round 1 · Di's Rogue attacks Ann's Mage:", *steps[:5]]
    assert rows[2][2:] == ["", *steps[5:], ""] and rows[2][:2] == ["", ""]
    assert not any(" · " in str(cell) for row in rows for cell in row[3:])
    assert rows[3][2] == "Health · Ann's Mage: 85 − 31 = 54"


def test_the_board_prints_its_own_tile_labels_not_the_sheets_column_letters() -> None:
    """Issue 64, item 10: the board labels its tiles itself (letters in row 1 from column B, numbers in column A), so
    the spreadsheet's own headings, printed beside them, named every column one off from its tile."""
    rules = create_ruleset("champions")
    sheet = sheet_of(rules)
    assert isinstance(sheet, ChampionsSheet)
    drawing = sheet.board(rules.new_match(rules.sample_roster(), SEED))
    assert drawing.values[0][1] == "A" and not drawing.print_headings
