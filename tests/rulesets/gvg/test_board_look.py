"""GvG's board as players read it: the boss's spawn tiles signed and in the legend, a jungle coin's yellow gone
once the coin is taken, and the board printed with its column letters and row numbers (a tile is its cell)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from sheets_gm.rulesets.gvg.engine import GvgRuleset
from sheets_gm.rulesets.gvg.enums import Terrain
from sheets_gm.rulesets.gvg.sheet.adapter import GvgSheet
from sheets_gm.rulesets.registry import create_ruleset
from sheets_gm.sheets.layout import cells
from tests.matchfiles import local_match


def test_a_boss_spawn_tile_has_a_sign_and_a_legend_line_and_a_taken_coin_is_no_longer_yellow() -> None:
    rules = create_ruleset("gvg")
    assert isinstance(rules, GvgRuleset)
    sheet = GvgSheet(rules.rules)
    state = rules.new_match(rules.sample_roster(), b"look")
    board = rules.rules.board
    lairs = [t for t, (terrain, _) in board.terrain.items() if terrain is Terrain.BOSS]
    coins = sorted(state.jungle, key=lambda t: (t.row, t.col))
    assert lairs and coins
    drawing = sheet.board(state)
    for lair in lairs:
        assert drawing.values[lair.row][lair.col] == "⚑ boss spawn"
    legend = " ".join(str(line[0]) for line in drawing.legend)
    assert "⚑ boss spawn: a tile where the boss may appear" in legend and "yellow until it is taken" in legend
    # No fixed yellow: the coin's colour is a conditional fill that follows the coin's sign.
    coin_colour = sheet.look.colour("coin")
    assert all(f.colour != coin_colour for f in drawing.fills)
    (follow,) = drawing.conditional_fills
    assert (follow.prefix, follow.colour) == ("● coin", coin_colour)
    assert follow.range == cells(0, 1, board.grid.width - 1, board.grid.height)
    taken = coins[0]
    assert str(drawing.values[taken.row][taken.col]).startswith(follow.prefix)
    state.jungle.discard(taken)
    after = sheet.board(state)
    assert not str(after.values[taken.row][taken.col]).startswith(follow.prefix)


def test_the_board_prints_with_its_headings_and_the_orders_tab_without(tmp_path: Path) -> None:
    local_match(tmp_path)
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    assert book["Board"].print_options.headings is True
    assert not book["Orders red"].print_options.headings
