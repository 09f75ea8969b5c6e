"""Grid geometry: coordinate parsing, column letters, neighbourhoods, path distances."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheets_gm.engine.grid import (
    Coord,
    CoordError,
    Grid,
    Neighbourhood,
    column_index,
    column_label,
    sorted_reading_order,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("F7", Coord(5, 6)),
        ("f7", Coord(5, 6)),
        (" F7 ", Coord(5, 6)),
        ("F 7", Coord(5, 6)),
        ("F07", Coord(5, 6)),
        ("\tf 007\n", Coord(5, 6)),
        ("A1", Coord(0, 0)),
        ("Z1", Coord(25, 0)),
        ("AA10", Coord(26, 9)),
        ("ab10", Coord(27, 9)),
    ],
)
def test_coord_parse_accepts_lenient_spellings(text: str, expected: Coord) -> None:
    assert Coord.parse(text) == expected


@pytest.mark.parametrize("text", ["F7", "f7", " F7 ", "F 7", "F07"])
def test_coord_parse_lenient_spellings_all_print_as_canonical_label(text: str) -> None:
    assert Coord.parse(text).label == "F7"
    assert str(Coord.parse(text)) == "F7"


@pytest.mark.parametrize(
    "text",
    ["", "   ", "7F", "F0", "F00", "F", "7", "é3", "F-1", "F7.5", "F7G", "AAAA1", "F 7 8"],
)
def test_coord_parse_rejects_non_tiles_with_a_message(text: str) -> None:
    with pytest.raises(CoordError) as info:
        Coord.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "F7" in message  # the message shows what a tile looks like


def test_coord_parse_rejects_a_huge_string_quickly() -> None:
    text = "F" * 50_000
    start = time.perf_counter()
    with pytest.raises(CoordError) as info:
        Coord.parse(text)
    assert time.perf_counter() - start < 5.0  # quadratic would take minutes; a loaded machine, a second
    assert "F7" in str(info.value)


def test_coord_parse_rejects_a_huge_whitespace_string_quickly() -> None:
    text = " " * 25_000 + "F" + " " * 25_000
    start = time.perf_counter()
    with pytest.raises(CoordError):
        Coord.parse(text)
    assert time.perf_counter() - start < 5.0  # quadratic would take minutes; a loaded machine, a second


def test_coord_error_is_a_value_error() -> None:
    assert issubclass(CoordError, ValueError)


@pytest.mark.parametrize(
    ("col", "letters"),
    [(0, "A"), (1, "B"), (25, "Z"), (26, "AA"), (27, "AB"), (51, "AZ"), (52, "BA"), (701, "ZZ"),
     (702, "AAA")],
)
def test_column_label_known_values(col: int, letters: str) -> None:
    assert column_label(col) == letters
    assert column_index(letters) == col
    assert column_index(letters.lower()) == col


@given(st.integers(min_value=0, max_value=18_277))  # A .. ZZZ
def test_column_label_and_index_round_trip(col: int) -> None:
    letters = column_label(col)
    assert letters.isalpha() and letters.isupper()
    assert 1 <= len(letters) <= 3
    assert column_index(letters) == col


@given(st.integers(min_value=0, max_value=18_277), st.integers(min_value=0, max_value=99_998))
def test_coord_label_and_parse_round_trip(col: int, row: int) -> None:
    c = Coord(col, row)
    assert Coord.parse(c.label) == c
    assert Coord.parse(c.label.lower()) == c


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=3))
def test_column_index_and_label_round_trip(letters: str) -> None:
    assert column_label(column_index(letters)) == letters


# -- neighbourhoods ----------------------------------------------------------------------------

GRID = Grid(5, 4)  # A1..E4


def _labels(tiles: list[Coord]) -> set[str]:
    return {c.label for c in tiles}


@pytest.mark.parametrize(
    ("tile", "king", "rook"),
    [
        ("A1", {"B1", "A2", "B2"}, {"B1", "A2"}),
        ("E1", {"D1", "D2", "E2"}, {"D1", "E2"}),
        ("A4", {"A3", "B3", "B4"}, {"A3", "B4"}),
        ("E4", {"D3", "E3", "D4"}, {"E3", "D4"}),
        ("C1", {"B1", "D1", "B2", "C2", "D2"}, {"B1", "D1", "C2"}),
        ("A2", {"A1", "B1", "B2", "A3", "B3"}, {"A1", "B2", "A3"}),
        ("E3", {"D2", "E2", "D3", "D4", "E4"}, {"E2", "D3", "E4"}),
        ("C4", {"B3", "C3", "D3", "B4", "D4"}, {"C3", "B4", "D4"}),
        ("C2", {"B1", "C1", "D1", "B2", "D2", "B3", "C3", "D3"}, {"C1", "B2", "D2", "C3"}),
    ],
)
def test_neighbours_king_and_rook_at_corners_edges_and_middle(
    tile: str, king: set[str], rook: set[str]
) -> None:
    c = Coord.parse(tile)
    king_tiles = GRID.neighbours(c, Neighbourhood.KING)
    rook_tiles = GRID.neighbours(c, Neighbourhood.ROOK)
    assert _labels(king_tiles) == king
    assert _labels(rook_tiles) == rook
    assert len(king_tiles) == len(king)  # no duplicates
    assert len(rook_tiles) == len(rook)
    assert c not in king_tiles and c not in rook_tiles
    assert set(rook_tiles) <= set(king_tiles)


def test_within_one_includes_the_tile_itself() -> None:
    c = Coord.parse("A1")
    assert _labels(GRID.within_one(c, Neighbourhood.KING)) == {"A1", "B1", "A2", "B2"}
    assert _labels(GRID.within_one(c, Neighbourhood.ROOK)) == {"A1", "B1", "A2"}


def test_single_tile_grid_has_no_neighbours() -> None:
    g = Grid(1, 1)
    assert g.neighbours(Coord(0, 0), Neighbourhood.KING) == []
    assert g.neighbours(Coord(0, 0), Neighbourhood.ROOK) == []


def test_grid_contains_tiles_and_last() -> None:
    assert GRID.contains(Coord(0, 0)) and GRID.contains(Coord(4, 3))
    assert not GRID.contains(Coord(5, 0)) and not GRID.contains(Coord(0, 4))
    assert not GRID.contains(Coord(-1, 0)) and not GRID.contains(Coord(0, -1))
    assert GRID.last.label == "E4"
    tiles = list(GRID.tiles())
    assert len(tiles) == 20
    assert tiles == sorted_reading_order(reversed(tiles))
    assert tiles[0].label == "A1" and tiles[1].label == "B1" and tiles[5].label == "A2"


# -- distances ---------------------------------------------------------------------------------

def test_distances_from_on_an_open_grid() -> None:
    start = Coord.parse("A1")
    king = GRID.distances_from(start, Neighbourhood.KING, lambda c: True)
    rook = GRID.distances_from(start, Neighbourhood.ROOK, lambda c: True)
    assert len(king) == len(rook) == 20
    for c in GRID.tiles():
        assert king[c] == max(c.col, c.row)  # Chebyshev
        assert rook[c] == c.col + c.row  # Manhattan


def test_distances_from_goes_around_walls() -> None:
    # A1 B1 C1 D1 E1
    # .  #  .  .  .
    # .  #  .  #  .
    # .  .  .  #  .      (# = wall)
    walls = {Coord.parse(t) for t in ("B2", "B3", "D3", "D4")}
    start = Coord.parse("A3")
    king = GRID.distances_from(start, Neighbourhood.KING, lambda c: c not in walls)
    rook = GRID.distances_from(start, Neighbourhood.ROOK, lambda c: c not in walls)
    assert not walls & set(king) and not walls & set(rook)
    assert king[Coord.parse("C3")] == 2  # A3 -> B4 -> C3
    assert rook[Coord.parse("C3")] == 4  # A3 -> A4 -> B4 -> C4 -> C3
    assert king[Coord.parse("E4")] == 5  # A3 B4 C3 D2 E3 E4: round the D3/D4 wall
    assert rook[Coord.parse("E4")] == 9  # A3 A4 B4 C4 C3 C2 D2 E2 E3 E4
    assert king[start] == 0 and rook[start] == 0


def test_distances_from_omits_unreachable_tiles_but_keeps_an_impassable_start() -> None:
    # C column is a full wall: nothing right of it is reachable.
    walls = {Coord(2, r) for r in range(4)}
    start = Coord.parse("C2")  # the start is itself a wall
    dist = GRID.distances_from(start, Neighbourhood.KING, lambda c: c not in walls)
    assert dist[start] == 0
    assert Coord.parse("B2") in dist and Coord.parse("D2") in dist  # both sides from the wall
    dist_left = GRID.distances_from(Coord.parse("A1"), Neighbourhood.KING, lambda c: c not in walls)
    assert all(c.col < 2 for c in dist_left)
    assert len(dist_left) == 8


def test_distances_from_rook_cannot_slip_between_diagonal_walls() -> None:
    g = Grid(2, 2)
    walls = {Coord.parse("B1"), Coord.parse("A2")}
    king = g.distances_from(Coord.parse("A1"), Neighbourhood.KING, lambda c: c not in walls)
    rook = g.distances_from(Coord.parse("A1"), Neighbourhood.ROOK, lambda c: c not in walls)
    assert king == {Coord.parse("A1"): 0, Coord.parse("B2"): 1}
    assert rook == {Coord.parse("A1"): 0}
