"""The unit and faction tables (``templates/wesnoth/units.csv``, ``factions.csv``) read into pawns.

The tables are the project's own data, made from Wesnoth's WML by ``importer.py`` and
editable by a GM; every bad cell is an error naming the file, the line and what is accepted.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from pathlib import Path

from sheets_gm.rulesets.wesnoth.terrain import BOARD_TERRAINS, UNREACHABLE, Terrain, d6_defence

TEMPLATE_DIR = Path(__file__).resolve().parents[3] / "templates" / "wesnoth"
DAMAGE_TYPES = ("blade", "pierce", "impact", "fire", "cold", "arcane")
#: The rulebook's order of the factions, which decides a unit's alignment under ``alignment: faction``.
RULEBOOK_ORDER = ("Loyalists", "Drakes", "Knalgan Alliance", "Rebels", "Northerners", "Undead")


class TableError(ValueError):
    """A unit or faction table that does not read: the message names the file, the line and what is accepted."""


class Kind(StrEnum):
    """An attack's kind, which the counter-attack must match."""

    MELEE = "melee"
    RANGED = "ranged"
    MAGICAL = "magical"


class Alignment(StrEnum):
    """When a unit's damage grows: lawful by day, chaotic by night, neutral never."""

    LAWFUL = "lawful"
    NEUTRAL = "neutral"
    CHAOTIC = "chaotic"
    LIMINAL = "liminal"  # Wesnoth's fourth (dusk and dawn); under alignment: unit, treated as neutral


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack as the pawn shows it: name, kind, damage type, damage per swing and swings."""

    name: str
    range: str  # Wesnoth's range: melee or ranged
    damage_type: str
    damage: int
    swings: int
    magical: bool
    #: Melee, ranged or magical (a magical attack is its own kind); what a counter-attack must match.
    kind: Kind = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind.MAGICAL if self.magical else Kind(self.range))

    @property
    def label(self) -> str:
        """``spear 7-3 melee pierce``: what the pawn prints."""
        return f"{self.name} {self.damage}-{self.swings} {self.kind.value} {self.damage_type}"


@dataclass(frozen=True, slots=True)
class UnitType:
    """A pawn: a unit type's numbers for the board game."""

    name: str
    level: int
    alignment: Alignment  # Wesnoth's own
    cost: int  # Wesnoth's gold cost (the board game's recruit costs are flat; shown for reference)
    hitpoints: int
    moves: int
    factions: tuple[str, ...]
    advances_to: tuple[str, ...]
    attacks: tuple[Attack, ...]
    move_costs: dict[Terrain, int]  # 99: cannot enter
    chance_to_be_hit: dict[Terrain, int]  # Wesnoth's percent
    resistance: dict[str, int]  # percent of damage taken, per damage type

    def defence(self, terrain: Terrain) -> int:
        """The d6 score an attacker needs to hit this unit on ``terrain``."""
        return d6_defence(self.chance_to_be_hit.get(terrain, 100))

    def move_cost(self, terrain: Terrain) -> int | None:
        """Moves to enter ``terrain``, or None where the unit cannot go."""
        cost = self.move_costs.get(terrain, UNREACHABLE)
        return None if cost >= UNREACHABLE else cost

    def attack_named(self, text: str) -> Attack | None:
        """The attack a player names: ``bow``, ``bow/fire`` (name and damage type) or ``bow/ranged``."""
        name, _, qualifier = text.strip().lower().partition("/")
        found = [a for a in self.attacks if a.name.lower() == name and
                 (not qualifier or qualifier in (a.damage_type, a.range, a.kind.value))]
        return found[0] if len(found) == 1 else None

    def attack_names(self) -> list[str]:
        """How each attack can be named, with its damage type where two share a name."""
        out = []
        for a in self.attacks:
            twins = [b for b in self.attacks if b.name == a.name]
            out.append(a.name if len(twins) == 1 else f"{a.name}/{a.damage_type}")
        return out


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction: its rulebook alignment, its possible leaders and its recruits."""

    name: str
    alignment: Alignment
    leaders: tuple[str, ...]
    recruits: tuple[str, ...]


@dataclass(frozen=True)
class UnitTables:
    """Every unit type and faction, by name."""

    units: dict[str, UnitType]
    factions: dict[str, Faction]
    _mercenaries: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, compare=False, repr=False)

    def unit(self, name: str) -> UnitType | None:
        """The type called ``name`` (case and spaces forgiven), or None."""
        found = self.units.get(name)
        if found is None:
            found = self._folded().get(" ".join(name.lower().split()))
        return found

    def faction(self, name: str) -> Faction | None:
        """The faction called ``name`` (case forgiven), or None."""
        return next((f for f in self.factions.values() if f.name.lower() == name.strip().lower()), None)

    def _folded(self) -> dict[str, UnitType]:
        return {k.lower(): v for k, v in self.units.items()}

    def board_alignment(self, unit: UnitType, by_faction: bool) -> Alignment:
        """The alignment a unit fights with: its first faction's in the rulebook's order (``by_faction``),
        or its own (Wesnoth's liminal counting as neutral)."""
        if not by_faction:
            return Alignment.NEUTRAL if unit.alignment is Alignment.LIMINAL else unit.alignment
        for name in RULEBOOK_ORDER:
            if name in unit.factions and name in self.factions:
                return self.factions[name].alignment
        for name in unit.factions:
            if name in self.factions:
                return self.factions[name].alignment
        return Alignment.NEUTRAL

    def mercenaries(self, faction: str) -> tuple[str, ...]:
        """The recruits of every other faction (level 0 or 1), in table order, without this faction's own."""
        found = self._mercenaries.get(faction)
        if found is None:
            found = self._mercenaries[faction] = self._hired_by(faction)
        return found

    def _hired_by(self, faction: str) -> tuple[str, ...]:
        own = set(self.factions[faction].recruits) if faction in self.factions else set()
        out: list[str] = []
        for f in self.factions.values():
            for r in f.recruits:
                if r not in own and r not in out and self.units[r].level <= 1:
                    out.append(r)
        return tuple(out)


def _rows(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TableError(f"{path}: cannot be read ({exc.strerror})") from None
    reader = csv.DictReader(text.splitlines())
    missing = [c for c in columns if c not in (reader.fieldnames or [])]
    if missing:
        raise TableError(f"{path} line 1: the header lacks {', '.join(missing)}; the columns are {', '.join(columns)}")
    return [(i, row) for i, row in enumerate(reader, 2) if any((v or "").strip() for v in row.values())]


def _number(path: Path, line: int, row: dict[str, str], column: str, low: int = 0) -> int:
    text = (row.get(column) or "").strip()
    try:
        value = int(text)
    except ValueError:
        raise TableError(f"{path} line {line}, {column}: {text!r} is not a whole number") from None
    if value < low:
        raise TableError(f"{path} line {line}, {column}: {value} is below {low}")
    return value


def _list(text: str | None) -> tuple[str, ...]:
    return tuple(v.strip() for v in (text or "").split(",") if v.strip())


def parse_attack(text: str, where: str) -> Attack:
    """``spear:melee:pierce:7x3`` (``:magical`` at the end for a magical attack)."""
    parts = [p.strip() for p in text.split(":")]
    form = "name:melee|ranged:damage type:DAMAGExSWINGS[:magical], like spear:melee:pierce:7x3"
    if len(parts) not in (4, 5) or (len(parts) == 5 and parts[4] != "magical"):
        raise TableError(f"{where}: attack {text!r}; write {form}")
    name, rng, dtype, numbers = parts[:4]
    damage, x, swings = numbers.partition("x")
    if rng not in ("melee", "ranged") or dtype not in DAMAGE_TYPES or not x or not damage.isdecimal() \
            or not swings.isdecimal() or not name:
        raise TableError(f"{where}: attack {text!r}; write {form} (damage types: {', '.join(DAMAGE_TYPES)})")
    return Attack(name, rng, dtype, int(damage), int(swings), len(parts) == 5)


UNIT_COLUMNS = ("type", "level", "alignment", "hitpoints", "moves", "factions", "advances_to", "attacks",
                *(f"move_{t}" for t in BOARD_TERRAINS), *(f"hit_{t}" for t in BOARD_TERRAINS),
                *(f"res_{d}" for d in DAMAGE_TYPES))


def load_tables(folder: Path = TEMPLATE_DIR) -> UnitTables:
    """The unit and faction tables of ``folder``; TableError naming the file and line of a bad cell."""
    upath, fpath = folder / "units.csv", folder / "factions.csv"
    units: dict[str, UnitType] = {}
    for line, row in _rows(upath, UNIT_COLUMNS):
        name = (row.get("type") or "").strip()
        if not name:
            raise TableError(f"{upath} line {line}: the type is empty")
        if name in units:
            raise TableError(f"{upath} line {line}: {name} is listed twice")
        try:
            alignment = Alignment((row.get("alignment") or "").strip())
        except ValueError:
            raise TableError(f"{upath} line {line}, alignment: {row.get('alignment')!r}; use "
                             f"{', '.join(a.value for a in Alignment)}") from None
        attacks = tuple(parse_attack(a, f"{upath} line {line}") for a in (row.get("attacks") or "").split(";")
                        if a.strip())
        units[name] = UnitType(
            name=name, level=_number(upath, line, row, "level"), alignment=alignment,
            cost=_number(upath, line, row, "cost") if (row.get("cost") or "").strip() else 0,
            hitpoints=_number(upath, line, row, "hitpoints", 1), moves=_number(upath, line, row, "moves"),
            factions=_list(row.get("factions")), advances_to=_list(row.get("advances_to")), attacks=attacks,
            move_costs={Terrain(t): _number(upath, line, row, f"move_{t}", 1) for t in BOARD_TERRAINS},
            chance_to_be_hit={Terrain(t): _number(upath, line, row, f"hit_{t}") for t in BOARD_TERRAINS},
            resistance={d: _number(upath, line, row, f"res_{d}") for d in DAMAGE_TYPES},
        )
    for name, unit in units.items():
        for target in unit.advances_to:
            if target not in units:
                raise TableError(f"{upath}: {name} advances to {target!r}, which is not a type of the table")
    factions: dict[str, Faction] = {}
    for line, row in _rows(fpath, ("faction", "alignment", "leaders", "recruits")):
        name = (row.get("faction") or "").strip()
        try:
            alignment = Alignment((row.get("alignment") or "").strip())
        except ValueError:
            raise TableError(f"{fpath} line {line}, alignment: {row.get('alignment')!r}; use lawful, neutral or "
                             "chaotic") from None
        leaders, recruits = _list(row.get("leaders")), _list(row.get("recruits"))
        for unit_name in (*leaders, *recruits):
            if unit_name not in units:
                raise TableError(f"{fpath} line {line}: {name} names {unit_name!r}, which is not a type of "
                                 f"{upath.name}")
        if not leaders or not recruits:
            raise TableError(f"{fpath} line {line}: {name} needs at least one leader and one recruit")
        factions[name] = Faction(name, alignment, leaders, recruits)
    if not factions:
        raise TableError(f"{fpath}: no factions")
    return UnitTables(units, factions)


@cache
def default_tables() -> UnitTables:
    """The shipped tables (read once)."""
    return load_tables()


@cache
def tables_at(folder: str) -> UnitTables:
    """The tables of ``folder`` (the ``units`` setting; empty: the shipped ones), read once per process."""
    return load_tables(Path(folder)) if folder else default_tables()
