"""Orders as players type them, and the actions of a battle set.

Orders keep the words as typed (a tile, ``stay``, a loot word, class and item names, action
texts), so nothing a player writes can fail to load: ``checks`` reads them, gives a verdict
per part naming the row and what would be accepted, and hands the resolution only the
accepted parts, already typed.

>>> Action.parse("attack mage rogue").text
'attack mage rogue healer gladiator'
>>> Action.parse("Heal partner").text
'heal partner'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sheets_gm.engine.vocab import VocabularyError, choices, parse_choice
from sheets_gm.rulesets.champions.enums import ActionKind, ChampClass, HealTarget

#: The default preference of an attack, and the order missing classes follow in.
DEFAULT_PREFS: tuple[ChampClass, ...] = (ChampClass.HEALER, ChampClass.MAGE, ChampClass.ROGUE, ChampClass.GLADIATOR)
SET_LENGTH = 4


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a set: an attack with its full preference list, a heal with its target, support, evade."""

    kind: ActionKind
    prefs: tuple[ChampClass, ...] = ()  # attacks: every class, the preferred first
    target: HealTarget | None = None  # heals

    @classmethod
    def parse(cls, text: str) -> Action:
        """``attack mage rogue``, ``attack``, ``heal partner``, ``heal``, ``support``, ``evade``; a
        VocabularyError names the word and what is accepted."""
        return _parse_action(str(text))

    @classmethod
    def _parse(cls, text: str) -> Action:
        words = cell_words(str(text).replace("[", " ").replace("]", " "))
        if not words:
            raise VocabularyError(f"an empty action; use {choices(ActionKind)}")
        kind = parse_choice(ActionKind, words[0], "action")
        rest = words[1:]
        if kind is ActionKind.ATTACK:
            prefs: list[ChampClass] = []
            for word in rest:
                c = parse_choice(ChampClass, word, "class in the attack's preference list")
                if c in prefs:
                    raise VocabularyError(f"{c.value} is listed twice in the attack's preference list")
                prefs.append(c)
            return cls(kind, tuple(prefs) + tuple(c for c in DEFAULT_PREFS if c not in prefs))
        if kind is ActionKind.HEAL:
            if len(rest) > 1:
                raise VocabularyError(f"heal takes one word after it, self or partner; got {' '.join(rest)!r}")
            target = parse_choice(HealTarget, rest[0], "heal target") if rest else None
            return cls(kind, target=target)
        if rest:
            raise VocabularyError(f"{kind.value} takes no words after it; got {' '.join(rest)!r}")
        return cls(kind)

    @property
    def text(self) -> str:
        """The action as a player writes it (``parse`` reads it back)."""
        if self.kind is ActionKind.ATTACK:
            return " ".join(["attack", *(c.value for c in self.prefs)])
        if self.kind is ActionKind.HEAL and self.target is not None:
            return f"heal {self.target.value}"
        return self.kind.value


def cell_words(text: str) -> list[str]:
    """The words of a cell, split at spaces and commas; a formula (``=SUM(1,2)``) is one word, so that an
    answer quotes it whole, as typed.

    >>> cell_words("mage, rogue"), cell_words(" =SUM(1, 2) ")
    (['mage', 'rogue'], ['=SUM(1, 2)'])
    """
    stripped = text.strip()
    if stripped.startswith("="):
        return [stripped]
    return stripped.replace(",", " ").split()


@lru_cache(maxsize=1024)
def _parse_action(text: str) -> Action:
    """``Action.parse``, remembered: sets repeat the same few texts every round (errors are not cached)."""
    return Action._parse(text)


def parse_class(text: str) -> ChampClass:
    """A champion class as typed (``Gladiator``, `` mage ``); VocabularyError naming the word otherwise."""
    found = _CLASS_WORDS.get(str(text).strip().lower())
    return found if found is not None else parse_choice(ChampClass, text, "champion")


_CLASS_WORDS = {c.value: c for c in ChampClass}


@dataclass(frozen=True, slots=True)
class PlayerOrders:
    """One player's orders for a window, as typed. Window 1: ``move`` and ``loot``; window 2: ``equip``
    (a champion's whole equipment per row), ``field`` (one pair, or two for two battles) and ``sets``."""

    move: str = ""  # a tile, "stay", or "" (stay)
    loot: tuple[str, ...] = ()  # physical | magical | defensive | support | any
    equip: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (class, item names)
    field: tuple[tuple[str, ...], ...] = ()  # classes per battle
    sets: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (class, action texts)

    def is_empty(self) -> bool:
        """Whether nothing was typed."""
        return not (self.move or self.loot or self.equip or self.field or self.sets)

    def to_json(self) -> dict[str, Any]:
        """The orders as JSON-ready data (empty parts left out)."""
        out: dict[str, Any] = {}
        if self.move:
            out["move"] = self.move
        if self.loot:
            out["loot"] = list(self.loot)
        if self.equip:
            out["equip"] = [[c, list(items)] for c, items in self.equip]
        if self.field:
            out["field"] = [list(pair) for pair in self.field]
        if self.sets:
            out["sets"] = [[c, list(actions)] for c, actions in self.sets]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerOrders:
        """The orders from ``to_json``'s data."""
        return cls(str(data.get("move", "")), tuple(str(w) for w in data.get("loot", ())),
                   tuple((str(c), tuple(str(i) for i in items)) for c, items in data.get("equip", ())),
                   tuple(tuple(str(c) for c in pair) for pair in data.get("field", ())),
                   tuple((str(c), tuple(str(a) for a in actions)) for c, actions in data.get("sets", ())))


@dataclass(frozen=True, slots=True)
class Orders:
    """One window's orders of every player who wrote some, by name."""

    players: Mapping[str, PlayerOrders] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The orders as JSON-ready data."""
        return {"players": {name: o.to_json() for name, o in self.players.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Orders:
        """The orders from ``to_json``'s data."""
        return cls({str(name): PlayerOrders.from_json(o) for name, o in data.get("players", {}).items()})
