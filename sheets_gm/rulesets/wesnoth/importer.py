"""Wesnoth's unit data converted into the project's own tables, ``units.csv`` and ``factions.csv``.

``sheets-gm wesnoth import-units`` runs it (see ``commands.py``) on Wesnoth's data folder (the
game's ``data/`` parent, laid out as in its repository), for any of its eras, or on an era's
or add-on's folder read on top of the game's data.

It reads the macro files, the ``[movetype]`` definitions of ``data/core/units.cfg``, every
unit file under ``data/core/units/``, then every ``.cfg`` file of the add-on (its own macros,
movetypes, units, factions and eras), then takes the era's factions (an ``[era]`` includes them
as files or macros) and keeps their recruits and leaders and what they advance to, up to
level 3. Each unit becomes one row with what its board-game pawn shows: level, hit points,
moves, attacks (kind, damage type, damage and swings), and per board terrain the move cost and
Wesnoth's chance to be hit (the d6 score is worked out from it when the table is read), and
resistances.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sheets_gm.rulesets.wesnoth.terrain import BOARD_TERRAINS, WESNOTH_KEY
from sheets_gm.rulesets.wesnoth.wml import Macro, Node, Preprocessor, WmlError, parse

MACRO_FILES = (
    "data/core/macros/movetypes.cfg",
    "data/core/macros/special-notes.cfg",
    "data/core/macros/weapon_specials.cfg",
    "data/core/macros/abilities.cfg",
    "data/core/macros/amla.cfg",
    "data/core/macros/traits.cfg",
    "data/core/macros/multiplayer.cfg",
)
UNITS_CFG = "data/core/units.cfg"
UNIT_FOLDER = "data/core/units"
#: Where the game's eras are defined, and the one a match of the rulebook plays.
ERAS_CFG = "data/multiplayer/eras.cfg"
DEFAULT_ERA = "era_default"
#: The rulebook's alignment per faction; a faction it does not name is neutral.
RULEBOOK_ALIGNMENT = {"Loyalists": "lawful", "Drakes": "lawful", "Knalgan Alliance": "neutral",
                      "Rebels": "neutral", "Northerners": "chaotic", "Undead": "chaotic"}
MAX_LEVEL = 3
DAMAGE_TYPES = ("blade", "pierce", "impact", "fire", "cold", "arcane")
UNREACHABLE = 99  # the game's move cost where a movetype omits a terrain
DEFAULT_HIT = 100  # the game's chance to be hit where a movetype omits a terrain

UNIT_COLUMNS = ("type", "level", "alignment", "cost", "hitpoints", "moves", "factions", "advances_to", "attacks",
                *(f"move_{t}" for t in BOARD_TERRAINS), *(f"hit_{t}" for t in BOARD_TERRAINS),
                *(f"res_{d}" for d in DAMAGE_TYPES))
FACTION_COLUMNS = ("faction", "alignment", "leaders", "recruits")


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The two tables as CSV text, with what a GM is told: the factions, the macros the units called that were
    not read, and the files the era includes that are not there."""

    units_csv: str
    factions_csv: str
    unit_count: int
    factions: tuple[str, ...]
    unknown_macros: tuple[str, ...]
    missing_includes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Side:
    """A faction as an era lists it (a ``[multiplayer_side]``): its name, leaders and recruits, and where it is."""

    name: str
    leaders: tuple[str, ...]
    recruits: tuple[str, ...]
    where: str


def _int(value: str | None, where: str, what: str) -> int:
    if value is None:
        raise WmlError(f"{where}: no {what}; the importer needs it as a whole number")
    try:
        return int(str(value).strip())
    except ValueError:
        raise WmlError(f"{where}: {what} is {value!r}, not a whole number") from None


def _names(value: str | None) -> list[str]:
    return [v.strip() for v in (value or "").split(",") if v.strip() and v.strip() != "null"]


def _text(path: Path) -> str:
    """A WML file's text; WmlError naming it when it cannot be read as UTF-8 text (the encoding WML files use)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise WmlError(f"{path}: cannot be read as UTF-8 text ({exc})") from None


def _walk(node: Node, tag: str) -> Iterator[Node]:
    """Every tag named ``tag`` at any depth below ``node`` (not inside one of its own kind), in order."""
    for child in node.children:
        if child.tag == tag:
            yield child
        else:
            yield from _walk(child, tag)


class WmlData:
    """Macros, movetypes, unit types, factions and eras read from Wesnoth's data folder and an add-on's."""

    def __init__(self, root: Path, addon: Path | None = None) -> None:
        self.root = root
        self.addon = addon
        self.pre = Preprocessor()
        for rel in MACRO_FILES:
            self.pre.define_from(self._read(rel), rel)
        units = parse(self.pre.expand_file(self._read(UNITS_CFG), UNITS_CFG), UNITS_CFG).first("units")
        if units is None:
            raise WmlError(f"{UNITS_CFG}: no [units] tag")
        self.movetypes = {mt.attrs.get("name", ""): mt for mt in units.all("movetype")}
        self.unit_types: dict[str, tuple[str, Node]] = {}
        folder = root / UNIT_FOLDER
        if not folder.is_dir():
            raise WmlError(f"{folder}: no such folder; give the folder that holds data/core/units")
        for path in sorted(folder.rglob("*.cfg")):
            rel = path.relative_to(root).as_posix()
            tree = parse(self.pre.expand_file(_text(path), rel), rel)
            for ut in tree.all("unit_type"):
                self.unit_types[ut.attrs.get("id", "")] = (rel, ut)
        #: Each era's id → the file that defines it, that file's text and the era's line (expanded again, with
        #: inclusions, when the era is chosen).
        self.eras: dict[str, tuple[str, str, int]] = {}
        self.addon_sides: list[Side] = []
        self.pre.macros["MULTIPLAYER"] = Macro("MULTIPLAYER", (), {}, "")  # eras and add-ons are read as in a game
        eras = root / ERAS_CFG
        if eras.is_file():
            self._scan(self._read(ERAS_CFG), ERAS_CFG)
        if addon is not None:
            self._read_addon(addon)

    def _read(self, rel: str) -> str:
        path = self.root / rel
        try:
            return path.read_text(encoding="utf-8")
        except OSError as exc:
            raise WmlError(f"{path}: cannot be read ({exc.strerror}); the importer needs {rel} under the "
                           f"folder given") from None

    def _read_addon(self, addon: Path) -> None:
        """Every ``.cfg`` file of the add-on: its macros first (any file may use them), then its tags."""
        files = sorted(addon.rglob("*.cfg"))
        if not files:
            raise WmlError(f"{addon}: no .cfg file in it or below; give the folder of a Wesnoth era or add-on")
        texts = []
        for path in files:
            text = _text(path)
            self.pre.define_from(text, str(path))
            texts.append((str(path), text))
        before = (len(self.unit_types), len(self.eras))
        for where, text in texts:
            self._scan(text, where)
        if (len(self.unit_types), len(self.eras)) == before and not self.addon_sides:
            raise WmlError(f"{addon}: no [unit_type], [multiplayer_side] or [era] in its {len(files)} .cfg files; "
                           "give the folder of a Wesnoth era or add-on (its units, factions or eras)")

    def _scan(self, text: str, where: str) -> None:
        """Learn the movetypes, unit types, factions and eras of one file (its inclusions are not followed:
        every file is read on its own)."""
        tree = parse(self.pre.expand_file(text, where), where)
        for mt in _walk(tree, "movetype"):
            self.movetypes[mt.attrs.get("name", "")] = mt
        for ut in _walk(tree, "unit_type"):
            self.unit_types[ut.attrs.get("id", "")] = (where, ut)
        for era in _walk(tree, "era"):
            self.eras.setdefault(era.attrs.get("id", ""), (where, text, era.line))
        if where != ERAS_CFG:
            known = {s.name for s in self.addon_sides}
            self.addon_sides += [s for s in _sides(tree, where) if s.name not in known]

    def era_sides(self, era_id: str) -> tuple[list[Side], tuple[str, ...]]:
        """The factions of the era ``era_id`` and the inclusions of its file that are not there."""
        found = self.eras.get(era_id)
        if found is None:
            places = " and ".join(str(p) for p in (self.root / ERAS_CFG, self.addon) if p is not None)
            raise WmlError(f"no [era] with id={era_id} in {places}; the eras there: "
                           f"{', '.join(sorted(self.eras)) or 'none'}")
        where, text, line = found
        self.pre.includes = self._included
        self.pre.missing_includes.clear()
        try:
            tree = parse(self.pre.expand_file(_only_era(text, line), where), where)
        finally:
            self.pre.includes = None
        era = next(e for e in _walk(tree, "era") if e.attrs.get("id", "") == era_id)
        sides = _sides(era, where)
        if not sides:
            raise WmlError(f"{where}:{era.line}: the era {era_id} has no faction (a [multiplayer_side] with "
                           "recruit=) that the importer could read"
                           + (f"; these files it includes are not there: {', '.join(sorted(self.pre.missing_includes))}"
                              if self.pre.missing_includes else ""))
        return sides, tuple(sorted(self.pre.missing_includes))

    def _included(self, name: str, where: str) -> list[tuple[str, str]] | None:
        """The files of the inclusion ``{name}``: ``~add-ons/NAME/…`` beside the add-on, ``./…`` beside the
        including file, anything else under the game's ``data/``; a folder is its ``_main.cfg`` or every
        ``.cfg`` file in it."""
        if name.startswith("~add-ons/"):
            bases = [self.addon.parent / name.removeprefix("~add-ons/")] if self.addon is not None else []
        elif name.startswith("~"):
            bases = []
        elif name.startswith("./"):
            here = Path(where).parent / name.removeprefix("./")
            bases = [here, self.root / here]
        else:
            bases = [self.root / "data" / name]
        target = next((b for b in bases if b.exists()), None)
        if target is None:
            return None
        if target.is_dir():
            main = target / "_main.cfg"
            files = [main] if main.is_file() else sorted(target.rglob("*.cfg"))
        else:
            files = [target]
        out = []
        for path in files:
            try:
                out.append((path.read_text(encoding="utf-8"), self._shown(path)))
            except (OSError, UnicodeDecodeError) as exc:
                raise WmlError(f"{where}: {{{name}}} includes {path}, which cannot be read ({exc})") from None
        return out

    def _shown(self, path: Path) -> str:
        """How an error names a file: relative to the game's folder for its files, as found for others."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def row(self, uid: str, factions: list[str], known: set[str]) -> dict[str, str]:
        """The table row of one unit type."""
        rel, ut = self.unit_types[uid]
        where = f"{rel}:{ut.line}: [unit_type] {uid}"
        mt_name = ut.attrs.get("movement_type")
        movetype = self.movetypes.get(mt_name or "")
        if movetype is None:
            said = "no movement_type" if mt_name is None else f"unknown movement_type {mt_name!r}"
            raise WmlError(f"{where}: {said}; the movetypes read: {', '.join(sorted(self.movetypes))}")
        tables: dict[str, dict[str, str]] = {}
        for tag in ("movement_costs", "defense", "resistance"):
            merged: dict[str, str] = {}
            for source in (movetype, ut):
                for node in source.all(tag):
                    merged.update(node.attrs)
            tables[tag] = merged
        row = {
            "type": uid,
            "level": str(_int(ut.attrs.get("level"), where, "level")),
            "alignment": ut.attrs.get("alignment", "neutral"),
            "cost": str(_int(ut.attrs.get("cost"), where, "cost")),
            "hitpoints": str(_int(ut.attrs.get("hitpoints"), where, "hitpoints")),
            "moves": str(_int(ut.attrs.get("movement"), where, "movement")),
            "factions": ", ".join(factions),
            "advances_to": ", ".join(a for a in _names(ut.attrs.get("advances_to")) if a in known),
            "attacks": "; ".join(self._attack(a, where) for a in ut.all("attack")),
        }
        for terrain in BOARD_TERRAINS:
            key = WESNOTH_KEY[terrain]
            cost = tables["movement_costs"].get(key)
            hit = tables["defense"].get(key)
            row[f"move_{terrain}"] = str(UNREACHABLE if cost is None else _int(cost, where, f"move cost {key}"))
            row[f"hit_{terrain}"] = str(DEFAULT_HIT if hit is None else abs(_int(hit, where, f"defense {key}")))
        for damage in DAMAGE_TYPES:
            value = tables["resistance"].get(damage)
            row[f"res_{damage}"] = str(100 if value is None else _int(value, where, f"resistance {damage}"))
        return row

    @staticmethod
    def _attack(node: Node, where: str) -> str:
        name = node.attrs.get("name", "")
        specials = [s.attrs.get("id", "") for group in node.all("specials") for s in group.children]
        parts = [name, node.attrs.get("range", ""), node.attrs.get("type", ""),
                 f"{_int(node.attrs.get('damage'), where, name + ' damage')}x"
                 f"{_int(node.attrs.get('number'), where, name + ' swings')}"]
        if "magical" in specials:
            parts.append("magical")
        return ":".join(parts)


def _only_era(text: str, line: int) -> str:
    """The text of a file with every ``[era]`` but the one starting on ``line`` blanked out (line numbers kept),
    so that only that era's inclusions are read."""
    out = []
    other = False
    for number, row in enumerate(text.split("\n"), 1):
        tag = row.strip()
        if tag.startswith("[era]") and number != line:
            other = True
        out.append("" if other else row)
        if tag.startswith("[/era]"):
            other = False
    return "\n".join(out)


def _sides(node: Node, where: str) -> list[Side]:
    """The factions below ``node``: each ``[multiplayer_side]`` with recruits (not the Random side)."""
    out = []
    for side in _walk(node, "multiplayer_side"):
        recruits = tuple(_names(side.attrs.get("recruit")))
        if side.attrs.get("random_faction") == "yes" or not recruits:
            continue
        name = side.attrs.get("id") or side.attrs.get("name", "")
        leaders = tuple(_names(side.attrs.get("leader")))
        if not leaders:
            raise WmlError(f"{where}:{side.line}: faction {name} has no leader=; the importer needs the unit types "
                           "its leader may be, separated by commas")
        out.append(Side(name, leaders, recruits, f"{where}:{side.line}"))
    return out


def convert(root: Path, *, addon: Path | None = None, era: str | None = None) -> ImportResult:
    """The unit and faction tables of an era from the Wesnoth data under ``root`` and the add-on folder ``addon``
    (default: the Default era without an add-on, every faction of the add-on with one); WmlError naming the file
    and line of anything that does not parse or is missing."""
    data = WmlData(root, addon)
    missing: tuple[str, ...] = ()
    if era is not None or addon is None:
        sides, missing = data.era_sides(era or DEFAULT_ERA)
    else:
        sides = data.addon_sides
        if not sides:
            raise WmlError(f"{addon}: no faction (a [multiplayer_side] with recruit=) in its .cfg files, and a match "
                           f"needs factions; give --era with the id of an era that uses its units (the eras read: "
                           f"{', '.join(sorted(data.eras)) or 'none'})")
    membership: dict[str, list[str]] = {}
    for side in sides:
        todo = [*side.recruits, *side.leaders]
        while todo:
            uid = todo.pop(0)
            if uid not in data.unit_types:
                raise WmlError(f"{side.where}: faction {side.name} names the unit {uid!r}, which no [unit_type] "
                               f"read defines (those under {root / UNIT_FOLDER}"
                               + (f" and {addon})" if addon is not None else ")"))
            owners = membership.setdefault(uid, [])
            if side.name in owners:
                continue
            owners.append(side.name)
            where, ut = data.unit_types[uid]
            if _int(ut.attrs.get("level"), f"{where}:{ut.line}: [unit_type] {uid}", "level") < MAX_LEVEL:
                todo += [a for a in _names(ut.attrs.get("advances_to")) if a in data.unit_types]
    known = set(membership)
    units = io.StringIO()
    writer = csv.DictWriter(units, UNIT_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for uid in sorted(membership):
        writer.writerow(data.row(uid, membership[uid], known))
    table = io.StringIO()
    fwriter = csv.writer(table, lineterminator="\n")
    fwriter.writerow(FACTION_COLUMNS)
    for side in sides:
        fwriter.writerow([side.name, RULEBOOK_ALIGNMENT.get(side.name, "neutral"), ", ".join(side.leaders),
                          ", ".join(side.recruits)])
    return ImportResult(units.getvalue(), table.getvalue(), len(membership), tuple(s.name for s in sides),
                        tuple(sorted(data.pre.unknown)), missing)
