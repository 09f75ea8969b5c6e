"""Items and the loot table: what a GM edits in ``templates/champions/loot.yaml``.

An item has a name, a type, a tier and its dice (one die ``1dS``, optionally ``+k``); a
defensive item also has its weight. The loot table lists the items and, per tile class,
the weights of the four tiers a tile's pool is dealt with. Every error names the file and
the line and says what is accepted.

>>> Dice.parse("1d8+2")
Dice(sides=8, bonus=2)
>>> str(Dice(10, 0))
'1d10'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sheets_gm.engine.vocab import VocabularyError, choices, parse_choice
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.enums import ItemType, Tier, TileClass, Weight
from sheets_gm.yamlio import YamlError, load_yaml_text

_DICE_RE = re.compile(r"^\s*1\s*d\s*(\d{1,3})\s*(?:\+\s*(\d{1,3}))?\s*$", re.IGNORECASE)


class LootTableError(ValueError):
    """A loot table that does not read: the message names the file, the line and what is accepted."""


@dataclass(frozen=True, slots=True)
class Dice:
    """One die of ``sides`` faces plus ``bonus``: ``1d8`` or ``1d8+2``."""

    sides: int
    bonus: int = 0

    @classmethod
    def parse(cls, text: str) -> Dice:
        """``1d8`` or ``1d8+2``; ValueError saying what is accepted."""
        match = _DICE_RE.match(str(text))
        if not match or not 2 <= int(match.group(1)) <= 100:
            raise ValueError(f"dice {text!r}: write one die of 2 to 100 faces and an optional bonus, like 1d8 or "
                             "1d8+2")
        return cls(int(match.group(1)), int(match.group(2) or 0))

    def __str__(self) -> str:
        return f"1d{self.sides}" + (f"+{self.bonus}" if self.bonus else "")


@dataclass(frozen=True, slots=True)
class Item:
    """One item of the loot table."""

    name: str
    type: ItemType
    tier: Tier
    dice: Dice
    weight: Weight | None = None  # defensive items only

    def describe(self) -> str:
        """``Chainmail (defensive, medium, uncommon, 1d10)``."""
        kind = f"{self.type.value}, {self.weight.value}" if self.weight else self.type.value
        return f"{self.name} ({kind}, {self.tier.value}, {self.dice})"


#: The default tier weights per tile class (percent), used where a loot file gives none.
DEFAULT_TIER_WEIGHTS: dict[TileClass, dict[Tier, int]] = {
    TileClass.CORNER: {Tier.COMMON: 60, Tier.UNCOMMON: 30, Tier.RARE: 9, Tier.LEGENDARY: 1},
    TileClass.EDGE: {Tier.COMMON: 45, Tier.UNCOMMON: 35, Tier.RARE: 15, Tier.LEGENDARY: 5},
    TileClass.CENTRE: {Tier.COMMON: 25, Tier.UNCOMMON: 35, Tier.RARE: 28, Tier.LEGENDARY: 12},
}


@dataclass(frozen=True)
class LootTable:
    """The items of a match by name, and the tier weights of each tile class."""

    items: Mapping[str, Item]
    tier_weights: Mapping[TileClass, Mapping[Tier, int]]

    def get(self, name: str) -> Item | None:
        """The item called ``name`` (exactly), or None."""
        return self.items.get(name)

    def find(self, text: str) -> Item | None:
        """The item a player named, whatever the case and surrounding spaces (``iron sword``), or as her bag's
        list describes it (``2× Chainmail (defensive, medium, uncommon, 1d10)``), or None."""
        found = self.items.get(text) or self._by_folded.get(text.strip().casefold())
        if found is not None or not text.rstrip().endswith(")") or " (" not in text:
            return found
        name = text[:text.rindex(" (")].strip()
        count, times, rest = name.partition("× ")
        return self.find(rest) if times and count.isdecimal() else self._by_folded.get(name.casefold())

    @cached_property
    def _by_folded(self) -> dict[str, Item]:
        return {name.casefold(): item for name, item in self.items.items()}

    def names_of_tier(self, tier: Tier) -> list[str]:
        """The items of ``tier``, in name order (a draw's canonical order; do not modify)."""
        return self._by_tier[tier]

    @cached_property
    def _by_tier(self) -> dict[Tier, list[str]]:
        return {tier: sorted(n for n, item in self.items.items() if item.tier is tier) for tier in Tier}

    def value(self, name: str) -> float:
        """How good an item is on average (its die's mean plus its bonus), for bots and ties."""
        item = self.items.get(name)
        return 0.0 if item is None else (item.dice.sides + 1) / 2 + item.dice.bonus

    def to_text(self) -> str:
        """The table as YAML text that ``loot_table_from_text`` reads back."""
        lines = ["tier_weights:"]
        for tile_class, weights in self.tier_weights.items():
            inner = ", ".join(f"{tier.value}: {w}" for tier, w in weights.items())
            lines.append(f"  {tile_class.value}: {{{inner}}}")
        lines.append("items:")
        for item in self.items.values():
            weight = f", weight: {item.weight.value}" if item.weight else ""
            lines.append(f"  - {{name: {_quote(item.name)}, type: {item.type.value}, tier: {item.tier.value}, "
                         f"dice: {item.dice}{weight}}}")
        return "\n".join(lines) + "\n"


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def loot_table_from_text(text: str, where: str = "loot.yaml") -> LootTable:
    """Read a loot file (``tier_weights:`` and ``items:``); LootTableError names the line."""
    try:
        doc = load_yaml_text(text, where)
    except YamlError as exc:
        raise LootTableError(str(exc)) from None
    if not isinstance(doc, kit.LinedDict):
        raise LootTableError(f"{where}: a loot file is a mapping with tier_weights: and items:")
    for key in doc:
        if key not in ("tier_weights", "items"):
            raise LootTableError(f"{where}:{doc.line_of(key)}: unknown key {key!r}; known keys: tier_weights, items")
    weights = _tier_weights(doc.get("tier_weights"), doc.line_of("tier_weights"), where)
    raw = doc.get("items")
    if not isinstance(raw, list) or not raw:
        raise LootTableError(f"{where}:{doc.line_of('items')}: items must be a list of at least one item, like "
                             "- {name: Iron Sword, type: physical, tier: common, dice: 1d8}")
    return LootTable(items_from_entries(raw, where, doc.line_of("items")), weights)


def items_from_entries(raw: Sequence[Any], where: str, line: int) -> dict[str, Item]:
    """Items from a list of mappings (a loot file's or a scenario's ``items:``); LootTableError names the line."""
    items: dict[str, Item] = {}
    folded: dict[str, str] = {}  # players type names in any case, so two names may not differ by case alone
    for entry in raw:
        at = entry.line if isinstance(entry, kit.LinedDict) else line
        item = _item(entry, f"{where}:{at}")
        first = folded.setdefault(item.name.casefold(), item.name)
        if item.name in items or first != item.name:
            listed = "" if first == item.name else f" (as {first!r}: names are read whatever their case)"
            raise LootTableError(f"{where}:{at}: item {item.name!r} is listed twice{listed}; give each item its "
                                 "own name")
        items[item.name] = item
    return items


_ITEM_KEYS = ("name", "type", "tier", "dice", "weight")


def _item(entry: Any, where: str) -> Item:
    if not isinstance(entry, Mapping):
        raise LootTableError(f"{where}: an item is a mapping like {{name: Iron Sword, type: physical, tier: common, "
                             "dice: 1d8}")
    for key in entry:
        if key not in _ITEM_KEYS:
            raise LootTableError(f"{where}: unknown item key {key!r}; known keys: {', '.join(_ITEM_KEYS)}")
    name = str(entry.get("name") or "").strip()
    if not name:
        raise LootTableError(f"{where}: an item needs a name")
    try:
        kind = parse_choice(ItemType, entry.get("type"), f"item type of {name}")
        tier = parse_choice(Tier, entry.get("tier"), f"tier of {name}")
        dice = Dice.parse(str(entry.get("dice", "")))
        weight = None
        if kind is ItemType.DEFENSIVE:
            if entry.get("weight") is None:
                raise ValueError(f"{name} is defensive: give its weight, {choices(Weight)}")
            weight = parse_choice(Weight, entry.get("weight"), f"weight of {name}")
        elif entry.get("weight") is not None:
            raise ValueError(f"{name} is {kind.value}: only defensive items have a weight")
    except (VocabularyError, ValueError) as exc:
        raise LootTableError(f"{where}: {exc}") from None
    return Item(name, kind, tier, dice, weight)


def _tier_weights(raw: Any, line: int, where: str) -> dict[TileClass, dict[Tier, int]]:
    if raw is None:
        return {k: dict(v) for k, v in DEFAULT_TIER_WEIGHTS.items()}
    if not isinstance(raw, kit.LinedDict):
        raise LootTableError(f"{where}:{line}: tier_weights maps each tile class ({choices(TileClass)}) to the "
                             f"weights of the tiers, like corner: {{common: 60, uncommon: 30, rare: 9, legendary: 1}}")
    out: dict[TileClass, dict[Tier, int]] = {}
    for key, value in raw.items():
        at = raw.line_of(key)
        try:
            tile_class = parse_choice(TileClass, key, "tile class")
        except VocabularyError as exc:
            raise LootTableError(f"{where}:{at}: {exc}") from None
        if not isinstance(value, Mapping):
            raise LootTableError(f"{where}:{at}: the weights of {key} are a mapping like {{common: 60, rare: 9}}")
        weights: dict[Tier, int] = {}
        for tier_name, weight in value.items():
            try:
                tier = parse_choice(Tier, tier_name, "tier")
            except VocabularyError as exc:
                raise LootTableError(f"{where}:{at}: {exc}") from None
            if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
                raise LootTableError(f"{where}:{at}: the weight of {tier_name} on {key} tiles is {weight!r}; "
                                     "use a whole number, 0 or more")
            weights[tier] = weight
        if not sum(weights.values()):
            raise LootTableError(f"{where}:{at}: the weights of {key} tiles add up to 0; give at least one tier a "
                                 "weight above 0")
        out[tile_class] = weights
    for tile_class in TileClass:
        if tile_class not in out:
            raise LootTableError(f"{where}:{line}: tier_weights has no {tile_class.value}; give weights for "
                                 f"{choices(TileClass)}")
    return out
