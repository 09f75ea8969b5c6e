"""The first difference between two JSON documents, named by its path, for people.

``verify`` compares a recorded state with the state it recomputes; a GM needs to know where
they part, not just that they do:

>>> first_difference({"players": [{"name": "Ann", "at": "C3"}], "coins": [1, 0]},
...                  {"players": [{"name": "Ann", "at": "C4"}], "coins": [1, 0]})
"players[Ann].at: recorded 'C3', recomputed 'C4'"
>>> first_difference({"movement": [{"army": "Jeff", "end": "3C"}]}, {"movement": [{"army": "Jeff", "end": "3D"}]})
"movement[Jeff].end: recorded '3C', recomputed '3D'"
>>> first_difference({"coins": [1, 0]}, {"coins": [1, 2]})
'coins[1]: recorded 0, recomputed 2'
>>> first_difference({"a": 1}, {"a": 1}) is None
True
"""

from __future__ import annotations

from typing import Any


def _label(item: Any, index: int) -> str:
    """A list item's name in a path: its ``name``, ``id``, ``army`` (a move report) or ``at`` (a battle's
    square) when it has one, else its index."""
    if isinstance(item, dict):
        for key in ("name", "id", "key", "army", "at"):
            if isinstance(item.get(key), str):
                return str(item[key])
    return str(index)


def first_difference(recorded: Any, recomputed: Any, path: str = "") -> str | None:
    """``path: recorded X, recomputed Y`` at the first place the two differ (None if equal)."""
    if recorded == recomputed:
        return None
    where = path or "(the whole document)"
    if isinstance(recorded, dict) and isinstance(recomputed, dict):
        for key in list(recorded) + [k for k in recomputed if k not in recorded]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in recomputed:
                return f"{sub}: recorded {recorded[key]!r}, recomputed nothing"
            if key not in recorded:
                return f"{sub}: recorded nothing, recomputed {recomputed[key]!r}"
            found = first_difference(recorded[key], recomputed[key], sub)
            if found is not None:
                return found
    if isinstance(recorded, list) and isinstance(recomputed, list):
        for i, (a, b) in enumerate(zip(recorded, recomputed, strict=False)):
            found = first_difference(a, b, f"{path}[{_label(a, i)}]")
            if found is not None:
                return found
        if len(recorded) != len(recomputed):
            return f"{where}: recorded {len(recorded)} items, recomputed {len(recomputed)}"
    return f"{where}: recorded {recorded!r}, recomputed {recomputed!r}"
