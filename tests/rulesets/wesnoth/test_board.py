"""Boards: the token grid, Wesnoth .map import through the code table, and the shipped maps."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.rulesets.registry import create_ruleset, default_board_text
from sheets_gm.rulesets.wesnoth.board import MapError, WesnothBoard, load_code_table
from sheets_gm.rulesets.wesnoth.terrain import Feature, Terrain
from tests.paths import WESNOTH_SHARED, WESNOTH_TEMPLATES

MAPS = sorted((WESNOTH_SHARED / "maps").glob("*.map"))


def test_nine_maps_are_shipped_and_the_default_is_for_two() -> None:
    shipped = sorted(p.stem for p in (WESNOTH_TEMPLATES / "maps").glob("*.txt"))
    assert shipped == [p.stem for p in MAPS] and len(shipped) == 9
    assert WesnothBoard.from_text(default_board_text("wesnoth")).players == 2


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_each_shipped_map_is_the_conversion_of_wesnoths(path: Path) -> None:
    board = WesnothBoard.from_wesnoth_map(path.read_text(encoding="utf-8"), path.name)
    assert (WESNOTH_TEMPLATES / "maps" / f"{path.stem}.txt").read_text(encoding="utf-8") == board.to_text()
    assert board.players == int(path.stem[0])
    for slot in board.keeps:
        assert board.castle_of(slot), f"player {slot} has no castle hex"
    assert board.villages


def test_the_border_is_dropped_and_codes_convert() -> None:
    text = ("Xu, Xu, Xu, Xu\n"
            "Xu, 1 Kh, Gs^Fp, Xu\n"
            "Xu, Ch, Gg^Vh, Xu\n"
            "Xu, Mm^Xm, Wwf, Xu\n"
            "Xu, 2 Kh, Ch, Xu\n"
            "Xu, Xu, Xu, Xu\n")
    board = WesnothBoard.from_wesnoth_map(text)
    assert board.grid.size == (2, 4)
    assert board.to_text().split() == ["keep1", "forest", "castle1", "village", "x", ".", "keep2", "castle2"]
    assert board.cell(board.grid.parse("B2")).feature is Feature.VILLAGE
    assert board.terrain(board.grid.parse("A3")) is Terrain.IMPASSABLE


def test_a_text_board_is_read_whichever_form_it_takes() -> None:
    rules = create_ruleset("wesnoth", board="Xu, Xu, Xu, Xu\nXu, 1 Kh, 2 Kh, Xu\nXu, Ch, Ch, Xu\nXu, Xu, Xu, Xu\n")
    assert rules.board_text.split() == ["keep1", "keep2", "castle1", "castle2"]


@pytest.mark.parametrize(("text", "message"), [
    ("keep1 forest\nkeep2 swamp\n", "line 2, hex 2: unknown token 'swamp'"),
    ("keep1 .\nkeep2\n", "row 2 has 1 hexes, the first row 2"),
    ("keep1 .\nkeep3 .\n", "none for player 2"),
    ("", "the board is empty"),
])
def test_bad_boards_name_the_line(text: str, message: str) -> None:
    with pytest.raises(MapError, match=message):
        WesnothBoard.from_text(text)


def test_an_unknown_wesnoth_code_names_line_and_column() -> None:
    with pytest.raises(MapError, match=r"line 2, column 3: no row of terrain_codes.csv matches the code 'Zz'"):
        WesnothBoard.from_wesnoth_map("Xu, Xu, Xu\nXu, 1 Kh, Zz\nXu, Xu, Xu\n")
    with pytest.raises(MapError, match="at least 3 rows"):
        WesnothBoard.from_wesnoth_map("Gg, Gg\n")


def test_a_start_off_any_keep_takes_the_nearest_keep() -> None:
    board = WesnothBoard.from_wesnoth_map("Xu, Xu, Xu, Xu, Xu\nXu, 1 Gg, Gg, Kh, Xu\nXu, 2 Kh, Gg, Gg, Xu\n"
                                          "Xu, Xu, Xu, Xu, Xu\n")
    assert board.keeps[1].label == "C1"


def test_the_code_table_is_data_checked_by_line(tmp_path: Path) -> None:
    assert ("Wwf", ".") in load_code_table()
    bad = tmp_path / "codes.csv"
    bad.write_text("code,becomes,note\nGg,meadow,x\n", encoding="utf-8")
    with pytest.raises(MapError, match=r"codes\.csv line 2: becomes is one of"):
        load_code_table(bad)


@pytest.mark.parametrize("path", sorted((WESNOTH_TEMPLATES / "maps").glob("*.txt")), ids=lambda p: p.stem)
def test_every_shipped_map_gives_every_seat_as_many_castle_hexes_for_each_seat_count(path: Path) -> None:
    """Issue 78, item 2: on 4p_Hamlets players 3 and 4 had 1 castle hex each and players 1 and 2 had 5 (the
    converter joined each castle hex shared by two keeps to the nearest; in Wesnoth allies share it), so a third
    player's second recruit in round 1 was refused. A castle shared by several keeps is dealt out evenly."""
    board = WesnothBoard.from_text(path.read_text(encoding="utf-8"))
    for seats in range(2, board.players + 1):
        counts = {slot: len(board.castle_of(slot)) for slot in range(1, seats + 1)}
        assert len(set(counts.values())) == 1, (path.stem, seats, counts)



def _on_hamlets(teams: list[int]) -> tuple[object, object]:
    """A match on 4p_Hamlets of a player per team given (Ann, Bo, Cy, Di): (the ruleset, the new state)."""
    from sheets_gm.engine.ruleset import Member, Roster

    names = ["Ann", "Bo", "Cy", "Di"][:len(teams)]
    rules = create_ruleset("wesnoth", board=(WESNOTH_TEMPLATES / "maps" / "4p_Hamlets.txt").read_text(
        encoding="utf-8"))
    roster = Roster(tuple(names), tuple(Member(n, n, {"team": str(t), "faction": "Loyalists"})
                                        for n, t in zip(names, teams, strict=True)))
    return rules, rules.new_match(roster, b"hamlets")


def test_seats_go_to_keeps_apart_unless_allies_and_init_says_which_counts_a_map_suits() -> None:
    """Issue 93, item 6: on 4p_Hamlets (its keeps share castles in pairs) seats 2 and 3 got one castle, interleaved:
    in a 3-player free-for-all Cy's recruit touched three of Bo's. Two pairs of allies share their castles with each
    other; two players sit apart; a match that puts enemies in one castle is told at init which counts the map
    suits."""
    rules, state = _on_hamlets([1, 2, 1, 2])
    groups = rules.rules.board.castle_groups  # type: ignore[attr-defined]
    assert sorted(map(sorted, groups)) == [[1, 4], [2, 3]]
    for group in groups:
        assert len({p.team for p in state.players if p.slot in group}) == 1, state.players  # type: ignore[attr-defined]
    assert rules.start_warnings(state) == []  # type: ignore[attr-defined]
    rules, state = _on_hamlets([1, 2, 3])
    (said,) = rules.start_warnings(state)  # type: ignore[attr-defined]
    assert said.startswith("the map suits 2 players in castles of their own, or up to 4 with the players of one "
                           "castle allies"), said
