"""The one bounded store of a workbook's parts (``sheets/kept_parts.py``): at most so many parts, or so many bytes,
the oldest dropped first."""

from __future__ import annotations

import threading

from sheets_gm.sheets.kept_parts import kept


def _kept_in_time(parts: dict[str, bytes], key: str, part: bytes, most: int, **weights: object) -> None:
    """``kept(parts, key, part, most, **weights)``, failing the test where it does not return at once."""
    done = threading.Thread(target=kept, args=(parts, key, part, most), kwargs=weights, daemon=True)
    done.start()
    done.join(timeout=10)
    assert not done.is_alive(), "kept() never returned"


def test_a_store_keeps_the_newest_parts_within_its_count_and_its_bytes() -> None:
    """A store bounded by its count keeps the newest ``most``; one bounded by its bytes keeps the newest parts that
    weigh at most ``most_weight`` together, dropping as many of the oldest as a heavy part needs. The first fails
    with the oldest part not dropped (the store never gets under its count)."""
    counted: dict[str, bytes] = {}
    for at in range(6):
        _kept_in_time(counted, f"part {at}", b"x", 3)
    assert list(counted) == ["part 3", "part 4", "part 5"]
    weighed: dict[str, bytes] = {}
    for at in range(5):
        _kept_in_time(weighed, f"part {at}", b"x" * 10, 100, weigh=lambda _, p: len(p), most_weight=30)
    _kept_in_time(weighed, "heavy", b"x" * 25, 100, weigh=lambda _, p: len(p), most_weight=30)
    assert list(weighed) == ["heavy"]
    _kept_in_time(weighed, "too heavy", b"x" * 31, 100, weigh=lambda _, p: len(p), most_weight=30)
    assert list(weighed) == ["heavy"]
