"""Named-square planes (the Coalition game's): names, wrapping steps and distances."""

from __future__ import annotations

import pytest

from sheets_gm.engine.grid import CoordError
from sheets_gm.engine.planes import Plane, Square

DOMINARIA = Plane("Dominaria", 24, 9)
MIRRODIN = Plane("Mirrodin", 18, 8, wrap=True)


def test_squares_are_named_column_number_then_row_letter() -> None:
    assert DOMINARIA.parse("3A") == Square(2, 0) and DOMINARIA.parse(" 12 c ").label == "12C"
    with pytest.raises(CoordError, match="not a square of Dominaria: write the column number then the row letter"):
        DOMINARIA.parse("A3")
    with pytest.raises(CoordError, match=r"'25A' is off Dominaria: columns 1–24, rows A–I"):
        DOMINARIA.parse("25A")


def test_only_mirrodin_wraps() -> None:
    assert [s.label for s in DOMINARIA.neighbours(DOMINARIA.parse("1A"))] == ["2A", "1B"]
    assert MIRRODIN.distance(MIRRODIN.parse("1A"), MIRRODIN.parse("18H")) == 2
    assert DOMINARIA.distance(DOMINARIA.parse("1A"), DOMINARIA.parse("24I")) == 23 + 8


def test_mirrodin_wraps_both_ways_and_counts_the_shorter_way_round() -> None:
    assert [s.label for s in MIRRODIN.neighbours(MIRRODIN.parse("18H"))] == ["18G", "1H", "18A", "17H"]
    assert MIRRODIN.distance(MIRRODIN.parse("2A"), MIRRODIN.parse("17A")) == 3
    assert MIRRODIN.distance(MIRRODIN.parse("3A"), MIRRODIN.parse("3E")) == 4  # A to E either way
    assert MIRRODIN.size == (18, 8) and MIRRODIN.label(MIRRODIN.parse(" 7 h ")) == "7H"


def test_a_plane_two_squares_wide_lists_its_one_neighbour_across_once() -> None:
    narrow = Plane("Narrow", 2, 1, wrap=True)
    assert [s.label for s in narrow.neighbours(narrow.parse("1A"))] == ["2A"]
    with pytest.raises(ValueError, match="plane Tall: 3 x 27 squares; rows run A to Z"):
        Plane("Tall", 3, 27)
