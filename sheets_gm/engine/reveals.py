"""What a kind of Log line a rule names a reveal makes public: the fields of the state or orders it may tell.

A game declares it in its engine class, a ``Reveal`` per kind (``Ruleset.reveals``)::

    reveals = (kit.Reveal(Kind.SOLD, after=("sales",)), kit.Reveal(Kind.END, before=("bidders.*.favourite",)))

Each field is a path into the JSON of the state before the window resolved (``before``), of the state after it
(``after``) or of the window's orders (``orders``), as their codecs write it: keys joined by dots, ``*`` for every
key of an object or item of a list (``players.*.loot``). A line of that kind may tell those fields and nothing else:
two matches that agree on them give the same text for the line, whatever else hidden differs between them (the
noninterference test across a resolution holds every game to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Reveal", "fields_at", "reveal_of"]


@dataclass(frozen=True)
class Reveal:
    """The fields the Log lines of ``kind`` make public (see the module): paths into the state before the
    resolution, the state after it and the window's orders, each as its codec writes it. None at all: a line whose
    text is the same in every match (it tells that it happened, nothing hidden)."""

    kind: Any
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    orders: tuple[str, ...] = ()

    def of(self, before: Any, after: Any, orders: Any) -> dict[str, list[tuple[str, Any]]]:
        """What it makes public of one resolution (each argument the JSON of its codec): by declared path, every
        field found there, named by its own path, with its value."""
        found: dict[str, list[tuple[str, Any]]] = {}
        for side, data, paths in (("before", before, self.before), ("after", after, self.after),
                                  ("orders", orders, self.orders)):
            for path in paths:
                found[f"{side}.{path}"] = fields_at(data, path)
        return found


def reveal_of(reveals: Sequence[Reveal], kind: Any) -> Reveal | None:
    """The reveal ``reveals`` declares for Log lines of ``kind`` (None: no reveal, its lines tell nothing hidden)."""
    return next((r for r in reveals if r.kind == kind), None)


def fields_at(data: Any, path: str) -> list[tuple[str, Any]]:
    """Every field of JSON ``data`` at ``path`` (keys joined by dots, ``*`` for every key or item), each with its
    own path. A path that leads nowhere gives none (a field a state does not have yet).

    >>> fields_at({"a": [{"b": 1}, {"b": 2}], "c": {"x": 3}}, "a.*.b")
    [('a.0.b', 1), ('a.1.b', 2)]
    >>> fields_at({"a": [{"b": 1}], "c": {"x": 3}}, "c.*"), fields_at({"a": []}, "a.0.b")
    ([('c.x', 3)], [])
    """
    places: list[tuple[str, Any]] = [("", data)]
    for key in path.split(".") if path else ():
        nxt: list[tuple[str, Any]] = []
        for at, value in places:
            if isinstance(value, dict):
                keys = sorted(value, key=str) if key == "*" else [key] if key in value else []
                nxt += [(f"{at}.{k}" if at else str(k), value[k]) for k in keys]
            elif isinstance(value, list):
                indexes = range(len(value)) if key == "*" else [int(key)] if key.isdecimal() and int(key) < len(
                    value) else []
                nxt += [(f"{at}.{i}" if at else str(i), value[i]) for i in indexes]
        places = nxt
    return places
