"""Keyed dice: range, order independence, dependence on seed/turn/key, uniformity, pins."""

from __future__ import annotations

import doctest
import hashlib
import importlib
import re
from collections import Counter
from typing import Any, cast

import pytest

from sheets_gm.engine import dice as dice_module
from sheets_gm.engine import grid as grid_module
from sheets_gm.engine.dice import PinnedDieError, TurnDice, keyed_d6, seed_hash

SEED = b"test seed"
KEYS = [f"combat/p{i}" for i in range(40)] + ["move/Ann", "defense/D2", "boss/red", "spawn/boss"]


def test_keyed_d6_is_a_face_of_the_die() -> None:
    faces = {keyed_d6(SEED, turn, key) for turn in range(1, 30) for key in KEYS}
    assert faces == {1, 2, 3, 4, 5, 6}


def test_keyed_d6_is_deterministic() -> None:
    assert [keyed_d6(SEED, 7, k) for k in KEYS] == [keyed_d6(SEED, 7, k) for k in KEYS]


def test_turn_dice_values_do_not_depend_on_call_order() -> None:
    forward = TurnDice(SEED, 12)
    backward = TurnDice(SEED, 12)
    first = {k: forward.d6(k) for k in KEYS}
    second = {k: backward.d6(k) for k in reversed(KEYS)}
    assert first == second
    assert forward.rolled == backward.rolled == first
    assert all(keyed_d6(SEED, 12, k) == v for k, v in first.items())


def test_turn_dice_repeated_key_gives_the_same_roll() -> None:
    d = TurnDice(SEED, 3)
    assert d.d6("combat/Ann") == d.d6("combat/Ann")
    assert list(d.rolled) == ["combat/Ann"]


def test_peek_matches_d6_and_does_not_record() -> None:
    d = TurnDice(SEED, 3, pins={"move/Bo": 2})
    assert d.peek("move/Ann") == keyed_d6(SEED, 3, "move/Ann")
    assert d.peek("move/Bo") == 2
    assert d.rolled == {}
    assert d.d6("move/Ann") == d.peek("move/Ann")


def _rolls(seed: bytes, turn: int, keys: list[str]) -> list[int]:
    return [keyed_d6(seed, turn, k) for k in keys]


def test_keyed_d6_depends_on_the_seed() -> None:
    assert _rolls(b"seed A", 5, KEYS) != _rolls(b"seed B", 5, KEYS)


def test_keyed_d6_depends_on_the_turn() -> None:
    assert _rolls(SEED, 5, KEYS) != _rolls(SEED, 6, KEYS)


def test_keyed_d6_depends_on_the_key() -> None:
    by_key = [keyed_d6(SEED, 5, f"combat/p{i}") for i in range(40)]
    assert len(set(by_key)) > 1


def test_keyed_d6_is_roughly_uniform() -> None:
    n = 60_000
    counts = Counter(keyed_d6(SEED, 1, f"k{i}") for i in range(n))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    expected = n / 6
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    # 5 degrees of freedom: P(chi2 > 30) is about 1e-5. A biased die (e.g. 256 % 6) fails by far.
    assert chi2 < 30, (chi2, counts)


def test_pins_override_and_are_recorded() -> None:
    natural = keyed_d6(SEED, 4, "combat/Ann")
    pinned_value = 1 if natural != 1 else 6
    d = TurnDice(SEED, 4, pins={"combat/Ann": pinned_value})
    assert d.d6("combat/Ann") == pinned_value
    assert d.rolled["combat/Ann"] == pinned_value
    assert d.d6("combat/Bo") == keyed_d6(SEED, 4, "combat/Bo")
    assert d.rolled == {"combat/Ann": pinned_value, "combat/Bo": keyed_d6(SEED, 4, "combat/Bo")}


def test_unused_pins_are_not_recorded_as_rolled() -> None:
    d = TurnDice(SEED, 4, pins={"combat/Ann": 3})
    assert d.rolled == {}


def test_pins_are_copied_from_the_callers_mapping() -> None:
    pins = {"combat/Ann": 3}
    d = TurnDice(SEED, 4, pins=pins)
    pins["combat/Ann"] = 5
    assert d.d6("combat/Ann") == 3


@pytest.mark.parametrize("bad", [0, 7, -1, "3", True, False, 3.0, None])
def test_bad_pins_raise_pinned_die_error(bad: object) -> None:
    with pytest.raises(PinnedDieError) as info:
        TurnDice(SEED, 1, pins=cast(Any, {"combat/Ann": bad}))
    message = str(info.value)
    assert "combat/Ann" in message
    assert "1 to 6" in message


def test_pinned_die_error_is_a_value_error() -> None:
    assert issubclass(PinnedDieError, ValueError)


@pytest.mark.parametrize("good", [1, 2, 3, 4, 5, 6])
def test_every_face_can_be_pinned(good: int) -> None:
    assert TurnDice(SEED, 1, pins={"k": good}).d6("k") == good


def test_seed_hash_is_sha256_hex() -> None:
    h = seed_hash(SEED)
    assert h == hashlib.sha256(SEED).hexdigest()
    assert re.fullmatch(r"[0-9a-f]{64}", h)
    assert seed_hash(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_module_doctests_pass() -> None:
    for module in (grid_module, dice_module):
        result = doctest.testmod(module, verbose=False, report=False)
        assert result.attempted > 0, module.__name__
        assert result.failed == 0, module.__name__


def test_turn_dice_give_exactly_the_published_formula() -> None:
    from sheets_gm.engine.dice import TurnDice, keyed_d6

    for seed in (b"a", b"seed" * 8, bytes(range(32))):
        for turn in (1, 17, 60):
            dice = TurnDice(seed, turn)
            for i in range(300):
                key = f"combat/player{i}"
                assert dice.peek(key) == keyed_d6(seed, turn, key)


def test_a_later_deal_gives_other_dice_and_deal_zero_is_the_plain_formula() -> None:
    """Issue 20, finding 10: after an undo the window is dealt afresh; a match never undone keeps its dice."""
    first = TurnDice(SEED, 4)
    assert first.dealt(0).d6("combat/Ann") == first.d6("combat/Ann") == keyed_d6(SEED, 4, "combat/Ann")
    keys = [f"combat/p{i}" for i in range(20)]
    deals = [[TurnDice(SEED, 4).dealt(n).d6(k) for k in keys] for n in range(3)]
    assert deals[0] != deals[1] != deals[2] != deals[0]
    assert deals[1] == [keyed_d6(SEED, 4, k, deal=1) for k in keys]
    assert TurnDice(SEED, 4, deal=1).draw("pair", ["a", "b", "c", "d", "e"]) == \
        TurnDice(SEED, 4).dealt(1).draw("pair", ["a", "b", "c", "d", "e"])
    assert TurnDice(SEED, 4, {"combat/Ann": 6}).dealt(2).d6("combat/Ann") == 6  # pins hold in every deal
    with pytest.raises(ValueError, match="a deal number is a whole number from 0"):
        TurnDice(SEED, 4, deal=-1)


def test_the_dice_use_pythons_own_sha256_and_give_the_formula_with_either(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice hash with CPython's own SHA-256 where the interpreter has it (cheaper a roll than OpenSSL's), and with
    hashlib's where it has not: the same rolls either way."""
    own = dice_module._python_sha256()
    assert own is not hashlib.sha256
    assert type(own(b"")).__module__ in ("_sha2", "_sha256")

    def no_module(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(importlib, "import_module", no_module)
    assert dice_module._python_sha256() is hashlib.sha256
    monkeypatch.setattr(dice_module, "_SHA256", hashlib.sha256)
    dice_module._hmac_pads.cache_clear()
    try:
        rolls = [TurnDice(SEED, 9).peek(key) for key in KEYS]
    finally:
        dice_module._hmac_pads.cache_clear()
    assert rolls == [keyed_d6(SEED, 9, key) for key in KEYS]
