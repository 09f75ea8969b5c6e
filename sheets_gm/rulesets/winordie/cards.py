"""Unit cards, line-ups and War Council tactics: data a GM fills in, read with errors naming file and line.

The rulebook prints none of its cards, so they live in tables in ``templates/winordie/``:

- ``cards.csv``: one card a row (``set, name, region, faction, type, cost, speed, power,
  counter, health, hit, counter_hit, range, flying, limit``); the shipped rows are a made-up
  sample (their ``set`` is ``sample``), a few units per region;
- ``abilities.csv``: one ability a row (``card, type, name, text``, optionally ``before``), type action,
  passive, reaction or ultimate; a passive's ``before`` (``attack``, ``attack_damaged``, ``attack_moved``) names
  the own action its effect may change, which then waits for the GM as a reaction's target does;
- ``lineups.csv``: the recommended line-ups (``lineup, card, count``), leader included;
- ``tactics.csv``: the War Council's tactics (``name, text``).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from sheets_gm.engine.vocab import VocabularyError, parse_choice
from sheets_gm.rulesets.winordie.enums import AbilityType, Enhancement, PassiveCue, UnitType

TEMPLATE = Path(__file__).resolve().parent.parent.parent.parent / "templates" / "winordie"

CARD_COLUMNS = ("set", "name", "region", "faction", "type", "cost", "speed", "power", "counter", "health", "hit",
                "counter_hit", "range", "flying", "limit")
ABILITY_COLUMNS = ("card", "type", "name", "text", "before")
LINEUP_COLUMNS = ("lineup", "card", "count")
TACTIC_COLUMNS = ("name", "text")
_OPTIONAL = frozenset({"set", "flying", "limit", "range", "before"})


class CardTableError(ValueError):
    """A card, ability, line-up or tactic row that cannot be read, or a legion that breaks the rules."""


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card: its type, name and text (the GM applies its effect)."""

    type: AbilityType
    name: str
    text: str = ""
    before: PassiveCue | None = None  # a passive: the own action it may change, which then waits for the GM


@dataclass(frozen=True, slots=True)
class Card:
    """A unit card. ``cost`` is also the morale it gives; a leader costs nothing and gives none."""

    name: str
    region: str
    faction: str
    type: UnitType
    cost: int
    speed: int
    power: int
    counter: int
    health: int
    hit: int
    counter_hit: int
    range: int = 1
    flying: bool = False
    limit: int = 1
    abilities: tuple[Ability, ...] = ()
    set: str = ""

    @property
    def leader(self) -> bool:
        """Whether the card is a leader (no cost, no morale)."""
        return self.type is UnitType.LEADER

    @property
    def morale(self) -> int:
        """The morale the unit gives its legion (its cost; 0 for a leader)."""
        return 0 if self.leader else self.cost

    def ability(self, name: str) -> Ability | None:
        """The ability called ``name`` (case-insensitive), or None."""
        wanted = name.strip().lower()
        return next((a for a in self.abilities if a.name.lower() == wanted), None)

    def to_json(self) -> dict[str, Any]:
        """The card as JSON-ready data (the state carries the cards of its match)."""
        return {"name": self.name, "region": self.region, "faction": self.faction, "type": self.type.value,
                "cost": self.cost, "speed": self.speed, "power": self.power, "counter": self.counter,
                "health": self.health, "hit": self.hit, "counter_hit": self.counter_hit, "range": self.range,
                "flying": self.flying, "limit": self.limit, "set": self.set,
                "abilities": [{"type": a.type.value, "name": a.name, "text": a.text} for a in self.abilities]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Card:
        """Rebuild a card saved by ``to_json``."""
        return cls(str(data["name"]), str(data["region"]), str(data["faction"]), UnitType(data["type"]),
                   int(data["cost"]), int(data["speed"]), int(data["power"]), int(data["counter"]),
                   int(data["health"]), int(data["hit"]), int(data["counter_hit"]), int(data["range"]),
                   bool(data["flying"]), int(data["limit"]),
                   tuple(Ability(AbilityType(a["type"]), str(a["name"]), str(a["text"]))
                         for a in data["abilities"]), str(data.get("set", "")))


@dataclass(frozen=True, slots=True)
class CardTables:
    """Everything the GM's tables hold: cards by name, line-ups by name, tactics by name."""

    cards: Mapping[str, Card]
    lineups: Mapping[str, tuple[tuple[str, int, int], ...]] = field(default_factory=dict)  # (card, count, line)
    tactics: Mapping[str, str] = field(default_factory=dict)

    def card(self, name: str) -> Card | None:
        """The card called ``name`` (case-insensitive), or None."""
        found = self.cards.get(name)
        if found is not None:
            return found
        wanted = name.strip().lower()
        return next((c for n, c in self.cards.items() if n.lower() == wanted), None)

    def with_cards(self, extra: Iterable[Card]) -> CardTables:
        """These tables with more cards (a card of the same name replaces the shipped one)."""
        cards = dict(self.cards)
        for card in extra:
            cards[card.name] = card
        return CardTables(cards, self.lineups, self.tactics)


# -- reading fields ------------------------------------------------------------------------
def whole(value: object, where: str, what: str, low: int = 0, high: int = 99) -> int:
    """A whole number ``low``–``high`` read from a table cell or a YAML value; CardTableError naming ``where``."""
    if isinstance(value, bool):
        raise CardTableError(f"{where}: {what} must be a whole number {low} to {high}, got {value!r}")
    try:
        number = value if isinstance(value, int) else int(str(value).strip())
    except ValueError:
        raise CardTableError(f"{where}: {what} must be a whole number {low} to {high}, got {value!r}") from None
    if not low <= number <= high:
        raise CardTableError(f"{where}: {what} is {number}; use {low} to {high}")
    return number


def yes_no(value: object, where: str, what: str) -> bool:
    """A yes/no cell (empty is no)."""
    if isinstance(value, bool):
        return value
    text = str(value or "").strip().lower()
    if text in ("", "no", "false", "0", "n"):
        return False
    if text in ("yes", "true", "1", "y", "x"):
        return True
    raise CardTableError(f"{where}: {what} is {value!r}; write yes or no")


def build_card(row: Mapping[str, object], where: str, abilities: tuple[Ability, ...] = ()) -> Card:
    """A card from a table row or a scenario entry (keys as ``CARD_COLUMNS``); CardTableError naming
    ``where`` and the missing or bad field."""
    for key in CARD_COLUMNS:
        if key not in _OPTIONAL and (row.get(key) is None or not str(row.get(key)).strip()):
            raise CardTableError(f"{where}: the card has no {key}; every card needs "
                                 f"{', '.join(k for k in CARD_COLUMNS if k not in _OPTIONAL)}")
    name = str(row["name"]).strip()
    try:
        kind = parse_choice(UnitType, row["type"], "unit type")
    except VocabularyError as exc:
        raise CardTableError(f"{where}: {name}: {exc}") from None
    label = f"{where}: {name}"
    cost = whole(row["cost"], label, "cost", 0, 99)
    return Card(
        name=name, region=str(row["region"]).strip(), faction=str(row["faction"]).strip(), type=kind,
        cost=0 if kind is UnitType.LEADER else cost,
        speed=whole(row["speed"], label, "speed", 0, 20), power=whole(row["power"], label, "power", 0, 30),
        counter=whole(row["counter"], label, "counter", 0, 30), health=whole(row["health"], label, "health", 1, 99),
        hit=whole(row["hit"], label, "hit", 1, 7), counter_hit=whole(row["counter_hit"], label, "counter_hit", 1, 7),
        range=whole(row.get("range") or 1, label, "range", 1, 20),
        flying=yes_no(row.get("flying"), label, "flying"),
        limit=whole(row.get("limit") or 1, label, "limit", 1, 20),
        abilities=abilities, set=str(row.get("set") or "").strip(),
    )


def build_ability(row: Mapping[str, object], where: str) -> Ability:
    """An ability from a table row or a scenario entry (``type``, ``name``, ``text``)."""
    name = str(row.get("name") or "").strip()
    if not name:
        raise CardTableError(f"{where}: the ability has no name")
    try:
        kind = parse_choice(AbilityType, row.get("type", ""), "ability type")
    except VocabularyError as exc:
        raise CardTableError(f"{where}: ability {name!r}: {exc}") from None
    cue_text = str(row.get("before") or "").strip()
    cue: PassiveCue | None = None
    if cue_text:
        try:
            cue = parse_choice(PassiveCue, cue_text, "before")
        except VocabularyError as exc:
            raise CardTableError(f"{where}: ability {name!r}: {exc}") from None
        if kind is not AbilityType.PASSIVE:
            raise CardTableError(f"{where}: ability {name!r}: only a passive ability has a 'before' (it is "
                                 f"{kind.value}); leave it empty")
    return Ability(kind, name, str(row.get("text") or "").strip(), cue)


def _rows(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV table with their line numbers; CardTableError for a missing or unknown column."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardTableError(f"{path}: cannot read the table ({exc})") from None
    reader = csv.DictReader(text.splitlines())
    header = [h.strip().lower() for h in reader.fieldnames or []]
    required = [c for c in columns if c not in _OPTIONAL]
    missing = [c for c in required if c not in header]
    unknown = [h for h in header if h and h not in columns]
    if missing or unknown:
        raise CardTableError(f"{path}:1: the header must name the columns {', '.join(columns)}"
                             + (f"; missing {', '.join(missing)}" if missing else "")
                             + (f"; unknown {', '.join(unknown)}" if unknown else ""))
    out = []
    for raw in reader:
        line = reader.line_num
        row = {str(k).strip().lower(): (v or "").strip() for k, v in raw.items() if k is not None}
        if not any(row.values()):
            continue
        if None in raw:
            raise CardTableError(f"{path}:{line}: the row has more cells than the header's {len(header)} columns")
        out.append((line, row))
    return out


def read_tables(folder: Path) -> CardTables:
    """The cards, abilities, line-ups and tactics of a template folder (see the module notes)."""
    abilities: dict[str, list[Ability]] = {}
    cards_path = folder / "cards.csv"
    for line, row in _rows(folder / "abilities.csv", ABILITY_COLUMNS):
        where = f"{folder / 'abilities.csv'}:{line}"
        owner = row.get("card", "")
        if not owner:
            raise CardTableError(f"{where}: the ability names no card")
        abilities.setdefault(owner.lower(), []).append(build_ability(row, where))
    cards: dict[str, Card] = {}
    for line, row in _rows(cards_path, CARD_COLUMNS):
        where = f"{cards_path}:{line}"
        card = build_card(row, where, tuple(abilities.pop(row.get("name", "").lower(), [])))
        if card.name in cards:
            raise CardTableError(f"{where}: the card {card.name!r} is listed twice")
        cards[card.name] = card
    if abilities:
        orphan = next(iter(abilities))
        raise CardTableError(f"{folder / 'abilities.csv'}: abilities for {orphan!r}, which is no card of "
                             f"{cards_path.name}")
    tables = CardTables(cards)
    lineups: dict[str, list[tuple[str, int, int]]] = {}
    lineup_path = folder / "lineups.csv"
    for line, row in _rows(lineup_path, LINEUP_COLUMNS):
        where = f"{lineup_path}:{line}"
        name = row.get("lineup", "")
        member = tables.card(row.get("card", ""))
        if not name or member is None:
            raise CardTableError(f"{where}: a row names a line-up and one of the cards of {cards_path.name}; "
                                 f"got line-up {name!r}, card {row.get('card')!r}")
        lineups.setdefault(name, []).append((member.name, whole(row.get("count") or 1, where, "count", 1, 20), line))
    tactics: dict[str, str] = {}
    tactic_path = folder / "tactics.csv"
    for line, row in _rows(tactic_path, TACTIC_COLUMNS):
        if not row.get("name"):
            raise CardTableError(f"{tactic_path}:{line}: the tactic has no name")
        tactics[row["name"]] = row.get("text", "")
    return CardTables(cards, {k: tuple(v) for k, v in lineups.items()}, tactics)


@lru_cache(maxsize=4)
def shipped_tables(folder: Path = TEMPLATE) -> CardTables:
    """The tables of the template folder, read once per process."""
    return read_tables(folder)


# -- legions -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Recruit:
    """One unit of a legion as set up: its id, card and enhancements, and where it was written."""

    id: str
    card: str
    enhancements: tuple[Enhancement, ...] = ()
    where: str = ""


def parse_enhancements(text: object, where: str) -> tuple[Enhancement, ...]:
    """Enhancements written as a list or as comma-separated words; CardTableError naming ``where``."""
    items = text if isinstance(text, list | tuple) else [p for p in str(text or "").split(",") if p.strip()]
    out = []
    for item in items:
        try:
            out.append(parse_choice(Enhancement, item, "enhancement"))
        except VocabularyError:
            names = ", ".join(e.display for e in Enhancement)
            raise CardTableError(f"{where}: unknown enhancement {item!r}; use {names}") from None
    return tuple(out)


def legion_cost(tables: CardTables, recruits: Iterable[Recruit], enhancement_cost: int) -> int:
    """Crystals a legion costs: its cards and its enhancements."""
    total = 0
    for r in recruits:
        card = tables.card(r.card)
        total += (card.cost if card else 0) + enhancement_cost * len(r.enhancements)
    return total


def legion_problem(tables: CardTables, recruits: list[Recruit], *, budget: int | None, min_units: int,
                   max_units: int, enhancement_cost: int, enhancement_limit: int) -> str | None:
    """What makes a legion illegal (None if nothing): unknown cards, mixed factions, no single leader,
    too few or many units, a card above its limit, twice the same enhancement on a unit, too many of one
    enhancement, or (with ``budget``) more crystals than the budget. The message names the row."""
    if not recruits:
        return "the legion has no units"
    factions: dict[str, str] = {}
    counts: dict[str, int] = {}
    kinds: dict[Enhancement, int] = {}
    leaders = []
    for r in recruits:
        card = tables.card(r.card)
        if card is None:
            return f"{r.where}: there is no card {r.card!r} in the cards table"
        factions.setdefault(card.faction, r.where)
        counts[card.name] = counts.get(card.name, 0) + 1
        if card.leader:
            leaders.append(r)
        if len(set(r.enhancements)) != len(r.enhancements):
            return f"{r.where}: {r.id} has the same enhancement twice; each of the six at most once per unit"
        for e in r.enhancements:
            kinds[e] = kinds.get(e, 0) + 1
    if len(factions) > 1:
        first, other = list(factions)[:2]
        return (f"{factions[other]}: {other} is outside the legion's faction {first}; a legion is of one faction "
                f"(its first unit's)")
    if budget is None:
        return None
    if len(leaders) != 1:
        return f"{recruits[0].where}: a legion has exactly one leader; this one has {len(leaders)}"
    others = len(recruits) - 1
    if not min_units <= others <= max_units:
        return (f"{recruits[-1].where}: a legion has {min_units} to {max_units} units besides its leader; "
                f"this one has {others}")
    for name, count in counts.items():
        card = tables.card(name)
        if card is not None and count > card.limit:
            where = next(r.where for r in recruits if r.card == name)
            return f"{where}: {count} × {name}, whose limit is {card.limit}"
    for e, count in kinds.items():
        if count > enhancement_limit:
            return f"{recruits[-1].where}: {count} {e.display} enhancements; at most {enhancement_limit} of a kind"
    cost = legion_cost(tables, recruits, enhancement_cost)
    if cost > budget:
        return f"{recruits[-1].where}: the legion costs {cost} crystals; the budget is {budget}"
    return None
