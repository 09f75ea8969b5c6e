"""Keyed dice of any size and keyed draws: what every ruleset after GvG rolls and draws with.

The formula is the one the module docstring publishes; ``reference_roll`` and
``reference_order`` below rebuild it from ``hmac`` alone, so a change to the engine's dice
cannot pass unnoticed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.engine.dice import PinnedDieError, TurnDice, keyed_d6
from tests.quick import soak_but


def reference_roll(seed: bytes, turn: int, key: str, sides: int) -> int:
    """The published formula, written out from the docstring with nothing of the engine."""
    counter = 0
    message = f"{turn}/{key}"
    while True:
        stream = hmac.new(seed, message.encode(), hashlib.sha256).digest()
        width = 1 if sides <= 256 else 2
        limit = 256**width - 256**width % sides
        for i in range(0, 32, width):
            n = int.from_bytes(stream[i:i + width], "big")
            if n < limit:
                return n % sides + 1
        counter += 1
        message = f"{turn}/{key}#{counter}"


def reference_order(seed: bytes, turn: int, key: str, names: list[str]) -> list[str]:
    """The published draw: by HMAC(seed, "<turn>/<key>/<candidate>"), smallest first."""
    return sorted(names, key=lambda n: int.from_bytes(
        hmac.new(seed, f"{turn}/{key}/{n}".encode(), hashlib.sha256).digest(), "big"))


#: SHA-256 of 10,000 d6 values (below), computed with the dice of main before issue 10 changed dice.py
#: (commit e5abeb6~1): GvG's rolls, and so every replay, must never change.
GVG_D6_FINGERPRINT = "a8141e39db7ba144c96fc01de2f393140d6ca23aaa06427e9f154f9d826cd734"


def _d6_fingerprint(roll: Any) -> str:
    h = hashlib.sha256()
    for seed in (b"", b"a", b"gvg seed", bytes(range(100))):
        for turn in (0, 1, 2, 17, 60):
            for i in range(500):
                key = f"combat/p{i}" if i % 2 else f"move/Ann{i}"
                h.update(bytes([roll(seed, turn, key)]))
    return h.hexdigest()


def test_gvg_d6_rolls_are_bit_identical_to_those_before_dice_of_any_size() -> None:
    assert _d6_fingerprint(keyed_d6) == GVG_D6_FINGERPRINT
    for roll in (lambda d, k: d.d6(k), lambda d, k: d.peek(k), lambda d, k: d.roll(k, 6)):
        turns: dict[tuple[bytes, int], TurnDice] = {}  # one TurnDice per turn, as the engine has

        def through(seed: bytes, turn: int, key: str, roll: Any = roll, turns: Any = turns) -> int:
            return int(roll(turns.setdefault((seed, turn), TurnDice(seed, turn)), key))

        assert _d6_fingerprint(through) == GVG_D6_FINGERPRINT


@pytest.mark.parametrize("sides", [2, 3, 4, 5, 6, 8, 10, 12, 20, 100, 255, 256, 257, 1000, 6554, 10_000])
def test_every_die_follows_the_published_formula(sides: int) -> None:
    for turn in (1, 9):
        dice = TurnDice(b"formula", turn, die_sides=None)
        for i in range(300):
            key = f"d{sides}/{i}"
            assert dice.roll(key, sides) == reference_roll(b"formula", turn, key, sides)


def test_a_stream_too_high_everywhere_goes_on_with_the_counted_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # No real key is known whose 32 bytes all fail (for a d20 the odds are about 1e-60), so the
    # turn's HMAC is replaced by one whose first block fails; the next block is "<turn>/<key>#1".
    class HighFirst:
        def digest(self, key: str) -> bytes:
            return b"\xff" * 32 if "#" not in key else hmac.new(b"s", f"1/{key}".encode(), hashlib.sha256).digest()

    for sides in (20, 1000):
        dice = TurnDice(b"s", 1, die_sides=None)
        monkeypatch.setattr(dice, "_mac", HighFirst())
        assert dice.roll("k", sides) == reference_roll(b"s", 1, "k#1", sides)


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


def test_peek_shows_any_die_without_recording_it() -> None:
    dice = TurnDice(b"s", 2, {"heal/Ann": 15}, die_sides=None)
    assert dice.peek("base/Bo/1/1", 8) == reference_roll(b"s", 2, "base/Bo/1/1", 8)
    assert dice.peek("heal/Ann", 20) == 15
    assert dice.rolled == {}
    assert dice.roll("base/Bo/1/1", 8) == dice.peek("base/Bo/1/1", 8)
    with pytest.raises(PinnedDieError, match="'heal/Ann' is 15; a d12 shows 1 to 12"):
        dice.peek("heal/Ann", 12)


def test_pins_are_checked_against_the_die_they_fix() -> None:
    dice = TurnDice(b"s", 1, {"heal/Ann": 17, "base/Bo/1/1": 11, "combat/Cy": 9}, die_sides=None)
    assert dice.roll("heal/Ann", 20) == 17
    with pytest.raises(PinnedDieError, match="pinned die 'base/Bo/1/1' is 11; a d10 shows 1 to 10"):
        dice.roll("base/Bo/1/1", 10)
    with pytest.raises(PinnedDieError, match="pinned die 'combat/Cy' is 9; a d6 shows 1 to 6"):
        dice.d6("combat/Cy")
    with pytest.raises(PinnedDieError, match="pinned die 'combat/Cy' is 9; a d6 shows 1 to 6"):
        dice.peek("combat/Cy")
    with pytest.raises(PinnedDieError, match="pinned die 'combat/Ann' is 7; a d6 shows 1 to 6"):
        TurnDice(b"s", 1, {"combat/Ann": 7})  # GvG checks its d6 pins at once
    with pytest.raises(PinnedDieError, match="'x' is 'seven'; pin a die as a whole number or a draw as a list"):
        TurnDice(b"s", 1, cast(Any, {"x": "seven"}), die_sides=None)
    for sides in (1, 10_001):
        with pytest.raises(ValueError, match=f"2 to 10,000 sides, not {sides}"):
            dice.roll("x", sides)


def test_a_list_pin_is_not_a_die() -> None:
    # Before: a d6 whose key was pinned as a list rolled from the seed as if it were not pinned.
    dice = TurnDice(b"s", 1, {"combat/Ann": ["Bo"], "heal/Ann": ["Cy"]})
    with pytest.raises(PinnedDieError, match="pinned die 'combat/Ann' is a list \\(Bo\\), which pins a draw; "
                                             "'combat/Ann' is a d6: pin it as a whole number 1 to 6"):
        dice.d6("combat/Ann")
    with pytest.raises(PinnedDieError, match="'heal/Ann' is a d20"):
        dice.roll("heal/Ann", 20)


def test_one_key_is_one_die() -> None:
    # Before: rolling a key again with another die gave the first die's value (a 17 on a d6).
    dice = TurnDice(b"s", 1, {"k": 17}, die_sides=None)
    assert dice.roll("k", 20) == 17 and dice.roll("k", 20) == 17
    with pytest.raises(ValueError, match="'k' was rolled as a d20 this turn, not a d6"):
        dice.d6("k")
    with pytest.raises(ValueError, match="'k' was rolled as a d20 this turn, not a d8"):
        dice.roll("k", 8)
    dice.d6("j")
    with pytest.raises(ValueError, match="'j' was rolled as a d6 this turn, not a d4"):
        dice.roll("j", 4)


def test_a_draw_is_the_published_keyed_order_whatever_order_the_candidates_come_in() -> None:
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    first = TurnDice(b"s", 2).draw("pair/C3", names)
    assert first == reference_order(b"s", 2, "pair/C3", names)
    assert TurnDice(b"s", 2).draw("pair/C3", list(reversed(names))) == first
    orders = {tuple(TurnDice(b"s", t).draw("pair/C3", names)) for t in range(1, 30)}
    assert len(orders) > 10
    dice = TurnDice(b"s", 2)
    assert dice.pick("spawn/Ann", ["A1", "B2"]) == reference_order(b"s", 2, "spawn/Ann", ["A1", "B2"])[0]
    assert dice.drawn == {"spawn/Ann": reference_order(b"s", 2, "spawn/Ann", ["A1", "B2"])}
    assert dice.rolled == {}


def test_every_candidate_comes_first_about_as_often() -> None:
    names = ["A1", "B1", "C1", "D1"]
    counts = Counter(TurnDice(b"fair", 1).pick(f"spawn/p{i}", names) for i in range(4000))
    assert all(abs(counts[n] - 1000) < 6 * 1000 ** 0.5 for n in names), counts


def test_a_pinned_draw_puts_its_names_first_then_the_canonical_order() -> None:
    dice = TurnDice(b"s", 2, {"pair/C3": ["Di", "Bo"]})
    assert dice.draw("pair/C3", ["Ann", "Bo", "Cy", "Di"]) == ["Di", "Bo", "Ann", "Cy"]
    assert dice.drawn["pair/C3"] == ["Di", "Bo", "Ann", "Cy"]
    assert TurnDice(b"s", 2, {"route/Frank": ["3B 3C"]}).pick("route/Frank", ["2C 3C", "3B 3C"]) == "3B 3C"


def test_a_bad_draw_or_pinned_draw_is_named() -> None:
    with pytest.raises(PinnedDieError, match="pinned draw 'p': 'Zed' is not a candidate; the candidates are Ann, Bo"):
        TurnDice(b"s", 2, {"p": ["Zed"]}).draw("p", ["Ann", "Bo"])
    with pytest.raises(PinnedDieError, match="pinned draw 'p' names 'Ann' twice"):
        TurnDice(b"s", 2, {"p": ["Ann", "Ann"]}).draw("p", ["Ann", "Bo"])
    with pytest.raises(PinnedDieError, match="pinned draw 'p' is 3, which pins a die; 'p' is a draw among Ann, Bo"):
        TurnDice(b"s", 2, {"p": 3}).draw("p", ["Ann", "Bo"])
    with pytest.raises(ValueError, match="draw 'p': 'Bo' is listed twice among the candidates Ann, Bo, Bo"):
        TurnDice(b"s", 2).draw("p", ["Ann", "Bo", "Bo"])
    with pytest.raises(ValueError, match="nothing to pick from for 'p'"):
        TurnDice(b"s", 2).pick("p", [])


def test_unused_pins_are_those_neither_rolled_nor_drawn() -> None:
    dice = TurnDice(b"s", 1, {"a": 3, "b": ["X"], "c": 4, "d": ["Y"]})
    dice.d6("a")
    dice.draw("b", ["X", "Y"])
    assert dice.unused_pins() == ["c", "d"]


@pytest.mark.parametrize("examples", soak_but([200, 50], 50))
def test_any_roll_is_the_formula_and_a_face_of_its_die(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(st.binary(max_size=80), st.integers(0, 500), st.text(max_size=20), st.integers(2, 10_000))
    def walk(seed: bytes, turn: int, key: str, sides: int) -> None:
        value = TurnDice(seed, turn, die_sides=None).roll(key, sides)
        assert 1 <= value <= sides
        assert value == reference_roll(seed, turn, key, sides)

    walk()
