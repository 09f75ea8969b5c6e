"""Keyed dice of any size and keyed draws: what every ruleset after GvG rolls and draws with."""

from __future__ import annotations

from collections import Counter

import pytest

from sheets_gm.engine.core.dice import PinnedDieError, TurnDice, keyed_d6


def test_a_d6_through_roll_is_bit_identical_to_the_published_d6() -> None:
    dice = TurnDice(b"seed", 7, die_sides=None)
    for i in range(2000):
        key = f"k/{i}"
        assert dice.roll(key, 6) == keyed_d6(b"seed", 7, key)


@pytest.mark.parametrize("sides", [2, 4, 5, 8, 10, 12, 20, 100, 257, 1000])
def test_every_face_comes_up_about_equally(sides: int) -> None:
    dice = TurnDice(b"uniform", 1, die_sides=None)
    n = 300 * sides if sides <= 100 else 60 * sides
    counts = Counter(dice.roll(f"r/{i}", sides) for i in range(n))
    assert set(counts) == set(range(1, sides + 1))
    expected = n / sides
    assert all(abs(c - expected) < 6 * expected ** 0.5 for c in counts.values())


def test_rolls_depend_on_seed_turn_and_key_only() -> None:
    a = TurnDice(b"s", 3, die_sides=None)
    assert [a.roll(f"x/{i}", 20) for i in range(50)] == [TurnDice(b"s", 3).roll(f"x/{i}", 20) for i in range(50)]
    assert [a.roll(f"x/{i}", 20) for i in range(50)] != [TurnDice(b"s", 4).roll(f"x/{i}", 20) for i in range(50)]
    assert a.rolled["x/0"] == a.roll("x/0", 20)


def test_pins_are_checked_against_the_die_they_fix() -> None:
    dice = TurnDice(b"s", 1, {"heal/Ann": 17, "base/Bo/1/1": 11}, die_sides=None)
    assert dice.roll("heal/Ann", 20) == 17
    with pytest.raises(PinnedDieError, match="'base/Bo/1/1' is 11; a d10 shows 1 to 10"):
        dice.roll("base/Bo/1/1", 10)
    with pytest.raises(PinnedDieError, match="a die shows 1 to 6"):
        TurnDice(b"s", 1, {"combat/Ann": 7})  # GvG checks its d6 pins at once
    with pytest.raises(ValueError, match="2 to 10,000 sides"):
        dice.roll("x", 1)


def test_a_draw_is_a_keyed_order_that_ignores_how_the_candidates_are_listed() -> None:
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    first = TurnDice(b"s", 2).draw("pair/C3", names)
    assert sorted(first) == sorted(names)
    assert TurnDice(b"s", 2).draw("pair/C3", list(reversed(names))) == first
    orders = {tuple(TurnDice(b"s", t).draw("pair/C3", names)) for t in range(1, 30)}
    assert len(orders) > 10
    dice = TurnDice(b"s", 2)
    assert dice.pick("spawn/Ann", ["A1", "B2"]) in ("A1", "B2") and dice.drawn["spawn/Ann"]


def test_a_pinned_draw_puts_its_names_first_then_the_canonical_order() -> None:
    dice = TurnDice(b"s", 2, {"pair/C3": ["Di", "Bo"]})
    assert dice.draw("pair/C3", ["Ann", "Bo", "Cy", "Di"]) == ["Di", "Bo", "Ann", "Cy"]
    with pytest.raises(PinnedDieError, match="Zed is not one of the candidates Ann, Bo"):
        TurnDice(b"s", 2, {"p": ["Zed"]}).draw("p", ["Ann", "Bo"])
    with pytest.raises(PinnedDieError, match="pin it as a list"):
        TurnDice(b"s", 2, {"p": 3}, die_sides=None).draw("p", ["Ann", "Bo"])
