"""Codecs: how a ruleset's states, orders and GM events travel as JSON (engine tab, history, replays).

A ruleset declares one ``Codec`` per kind of data as a class attribute, instead of writing a
pair of methods that only delegate:

- ``Codec.of(Kind)`` for a type that converts itself (``Kind.to_json(value)`` and
  ``Kind.from_json(data)``, a classmethod or a staticmethod);
- ``Codec(to_json, from_json)`` for a pair of module functions.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Score:
...     team: str
...     points: int
...     def to_json(self) -> dict[str, Any]:
...         return {"team": self.team, "points": self.points}
...     @classmethod
...     def from_json(cls, data: Mapping[str, Any]) -> Score:
...         return cls(str(data["team"]), int(data["points"]))
>>> SCORES = Codec.of(Score)
>>> SCORES.to_json(Score("red", 3))
{'team': 'red', 'points': 3}
>>> SCORES.from_json({"team": "red", "points": 3})
Score(team='red', points=3)
>>> SCORES.from_json(SCORES.to_json(Score("blue", 0))) == Score("blue", 0)
True

A plain dataclass of JSON-ready fields (texts, numbers, tuples and mappings of them) needs neither:
``Codec.plain(Kind)`` converts it field by field, checking each value's type on the way back:

>>> @dataclass(frozen=True)
... class Tally:
...     marks: tuple[str, ...]
...     turn: int = 1
>>> TALLIES = Codec.plain(Tally)
>>> TALLIES.to_json(Tally(("X", "O")))
{'marks': ['X', 'O'], 'turn': 1}
>>> TALLIES.from_json({"marks": ["X", "O"], "turn": 2})
Tally(marks=('X', 'O'), turn=2)

A pair of functions makes a codec the same way:

>>> PAIRS = Codec(lambda pair: {"pair": list(pair)}, lambda data: tuple(data["pair"]))
>>> PAIRS.to_json(("a", "b"))
{'pair': ['a', 'b']}
>>> PAIRS.from_json({"pair": ["a", "b"]})
('a', 'b')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, Self, TypeVar

T = TypeVar("T")


class JsonConvertible(Protocol):
    """A type that converts itself: ``value.to_json()`` and ``Type.from_json(data)``."""

    def to_json(self) -> dict[str, Any]:
        """The value as JSON-ready data."""
        ...

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """A value from what ``to_json`` gave (KeyError, ValueError or TypeError if malformed)."""
        ...


_C = TypeVar("_C", bound=JsonConvertible)


@dataclass(frozen=True, slots=True)
class Codec(Generic[T]):
    """A pair of conversions of one kind of value to JSON-ready data and back.

    ``from_json(to_json(value)) == value`` for every value the ruleset makes; ``from_json`` raises
    KeyError, ValueError or TypeError on data it did not write."""

    to_json: Callable[[T], dict[str, Any]]
    from_json: Callable[[Mapping[str, Any]], T]

    @staticmethod
    def of(kind: type[_C]) -> Codec[_C]:
        """The codec of a type that converts itself (its ``to_json`` method and ``from_json``)."""
        return Codec(kind.to_json, kind.from_json)

    @staticmethod
    def plain(kind: type[T]) -> Codec[T]:
        """The codec of a plain dataclass, field by field (pydantic checks the types coming back: a malformed
        document raises ValueError, which pydantic's ValidationError is)."""
        from pydantic import TypeAdapter  # loaded by the games that use it alone

        adapter = TypeAdapter(kind)
        return Codec(lambda value: dict(adapter.dump_python(value, mode="json")), adapter.validate_python)

    @staticmethod
    def made_for(kind: Any) -> Codec[Any] | None:
        """The codec a ruleset gets for ``kind`` (a type argument of ``Ruleset[State, Orders, GmEvent]``) when it
        declares none: its own conversions (``to_json``/``from_json``), a JSON mapping as it is (``dict[str, Any]``),
        or a plain dataclass field by field; None for any other type, which must declare its codec."""
        origin = getattr(kind, "__origin__", kind)
        if hasattr(kind, "to_json") and hasattr(kind, "from_json"):
            return Codec(kind.to_json, kind.from_json)
        if origin is dict:
            return Codec(dict, dict)
        if isinstance(kind, type) and hasattr(kind, "__dataclass_fields__"):
            return Codec.plain(kind)
        return None
