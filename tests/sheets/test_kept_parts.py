"""The bounded stores of a workbook's parts (``sheets/kept_parts.py``): at most so many parts, or so many bytes, the
oldest (:func:`kept`) or the least recently used (:class:`KeptParts`) dropped first."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.sheets.kept_parts import KeptParts, kept
from tests.quick import soak_but


def _in_time(call: Callable[[], object]) -> None:
    """``call()``, failing the test where it does not return at once."""
    done = threading.Thread(target=call, daemon=True)
    done.start()
    done.join(timeout=10)
    assert not done.is_alive(), "the store never returned"


def test_a_dictionary_keeps_the_newest_parts_within_its_count() -> None:
    """A dictionary bounded by its count keeps the newest ``most``. Fails with the oldest part not dropped (the store
    never gets under its count)."""
    counted: dict[str, bytes] = {}
    for at in range(6):
        _in_time(functools.partial(kept, counted, f"part {at}", b"x", 3))
    assert list(counted) == ["part 3", "part 4", "part 5"]


def test_a_store_keeps_the_parts_used_last_within_its_count_and_its_bytes() -> None:
    """A store bounded by its bytes keeps the parts used last that weigh at most ``most_weight`` together, dropping
    as many of the least recently used as a heavy part needs; a part heavier than the bound alone is not kept."""
    store: KeptParts[str, bytes] = KeptParts()
    for at in range(5):
        _in_time(functools.partial(store.keep, f"part {at}", b"x", most=100, weight=10, most_weight=30))
    assert list(store) == ["part 2", "part 3", "part 4"]
    assert store.get("part 2") == b"x"  # used now: the last dropped
    _in_time(lambda: store.keep("part 5", b"x", most=100, weight=10, most_weight=30))
    assert list(store) == ["part 4", "part 2", "part 5"]
    _in_time(lambda: store.keep("heavy", b"x", most=100, weight=25, most_weight=30))
    assert list(store) == ["heavy"] and store.weight == 25
    _in_time(lambda: store.keep("too heavy", b"x", most=100, weight=31, most_weight=30))
    assert list(store) == ["heavy"] and store.get("too heavy") is None


#: A step on a store: ``("keep", key, weight)`` or ``("get", key, 0)``.
_STEPS = st.lists(st.tuples(st.sampled_from(["keep", "get"]), st.integers(0, 7), st.integers(0, 12)), max_size=40)


@pytest.mark.parametrize("examples", soak_but([300, 25], 25))
def test_a_store_stays_in_its_bounds_and_its_total_is_its_parts_weights(examples: int) -> None:
    """Whatever parts are kept and asked for, in whatever order: the store holds at most ``most`` parts weighing at
    most ``most_weight`` together, its running total is the sum of its parts' weights, and it holds what a plain
    list of the parts used last would (the one asked for or kept now last, the first dropped first). Fails with the
    total not taken down as a part goes (or a part kept again counted twice)."""

    @settings(max_examples=examples, deadline=None)
    @given(steps=_STEPS, most=st.integers(1, 5), most_weight=st.integers(0, 30))
    def walk(steps: list[tuple[str, int, int]], most: int, most_weight: int) -> None:
        store: KeptParts[int, str] = KeptParts()
        model: list[tuple[int, int]] = []  # (key, weight), the least recently used first
        for kind, key, weight in steps:
            known = [held for held in model if held[0] == key]
            if kind == "get":
                assert store.get(key) == (f"part {key}" if known else None)
                model = [held for held in model if held[0] != key] + known
            else:
                store.keep(key, f"part {key}", most=most, weight=weight, most_weight=most_weight)
                if weight <= most_weight:
                    model = [held for held in model if held[0] != key]
                    while model and (len(model) >= most or sum(w for _, w in model) + weight > most_weight):
                        model.pop(0)
                    model.append((key, weight))
            assert list(store.weights().items()) == model
            assert store.weight == sum(store.weights().values()) <= most_weight
            assert len(store) <= most

    walk()
