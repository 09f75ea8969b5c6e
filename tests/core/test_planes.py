"""Named-square planes (the Coalition game's): names, wrapping steps and distances."""

from __future__ import annotations

import pytest

from sheets_gm.engine.core.grid import CoordError
from sheets_gm.engine.core.planes import Plane, Square

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
