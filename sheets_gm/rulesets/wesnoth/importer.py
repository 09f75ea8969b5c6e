"""Wesnoth's unit data converted into the project's own tables, ``units.csv`` and ``factions.csv``.

Run it on a Wesnoth data folder (the game's ``data/`` parent, laid out as in its repository)
to refresh the shipped tables or to make tables for another era or add-on::

    python -m sheets_gm.rulesets.wesnoth.importer units WML_DIR [OUT_DIR]
    python -m sheets_gm.rulesets.wesnoth.importer maps MAP_FILE... [--out DIR]
    python scripts/wesnoth_import.py …  (the same)

It reads the macro files, the ``[movetype]`` definitions of ``data/core/units.cfg``, every
unit file under ``data/core/units/`` and the faction files of the era, then keeps the
factions' recruits and leaders and what they advance to, up to level 3. Each unit becomes
one row with what its board-game pawn shows: level, hit points, moves, attacks (kind,
damage type, damage and swings), and per board terrain the move cost and Wesnoth's chance
to be hit (the d6 score is worked out from it when the table is read), and resistances.
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sheets_gm.rulesets.wesnoth.board import MapError, WesnothBoard
from sheets_gm.rulesets.wesnoth.tables import TEMPLATE_DIR
from sheets_gm.rulesets.wesnoth.terrain import BOARD_TERRAINS, WESNOTH_KEY
from sheets_gm.rulesets.wesnoth.wml import Node, Preprocessor, WmlError, parse

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
#: The Default era's factions and their files, in the order the era lists them.
DEFAULT_ERA = (
    ("Loyalists", "data/multiplayer/factions/loyalists-default.cfg"),
    ("Rebels", "data/multiplayer/factions/rebels-default.cfg"),
    ("Northerners", "data/multiplayer/factions/northerners-default.cfg"),
    ("Undead", "data/multiplayer/factions/undead-default.cfg"),
    ("Knalgan Alliance", "data/multiplayer/factions/knalgans-default.cfg"),
    ("Drakes", "data/multiplayer/factions/drakes-default.cfg"),
)
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
    """The two tables as CSV text, and the macros the units called that were not read (for the report)."""

    units_csv: str
    factions_csv: str
    unit_count: int
    unknown_macros: tuple[str, ...]


def _int(value: str | None, where: str, what: str) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise WmlError(f"{where}: {what} is {value!r}, not a whole number") from None


def _names(value: str | None) -> list[str]:
    return [v.strip() for v in (value or "").split(",") if v.strip() and v.strip() != "null"]


class WmlData:
    """Macros, movetypes and unit types read from a Wesnoth data folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
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
            tree = parse(self.pre.expand_file(path.read_text(encoding="utf-8"), rel), rel)
            for ut in tree.all("unit_type"):
                self.unit_types[ut.attrs.get("id", "")] = (rel, ut)

    def _read(self, rel: str) -> str:
        path = self.root / rel
        try:
            return path.read_text(encoding="utf-8")
        except OSError as exc:
            raise WmlError(f"{path}: cannot be read ({exc.strerror}); the importer needs {rel} under the "
                           f"folder given") from None

    def faction(self, rel: str) -> tuple[list[str], list[str]]:
        """The leaders and recruits of a faction file."""
        side = parse(self.pre.expand_file(self._read(rel), rel), rel).first("multiplayer_side")
        if side is None:
            raise WmlError(f"{rel}: no [multiplayer_side] tag")
        return _names(side.attrs.get("leader")), _names(side.attrs.get("recruit"))

    def row(self, uid: str, factions: list[str], known: set[str]) -> dict[str, str]:
        """The table row of one unit type."""
        rel, ut = self.unit_types[uid]
        where = f"{rel}:{ut.line}"
        mt_name = ut.attrs.get("movement_type", "")
        movetype = self.movetypes.get(mt_name)
        if movetype is None:
            raise WmlError(f"{where}: unknown movement_type {mt_name!r}")
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


def convert(root: Path, era: Sequence[tuple[str, str]] = DEFAULT_ERA) -> ImportResult:
    """The unit and faction tables of ``era`` from the Wesnoth data under ``root``; WmlError naming the file
    and line of anything that does not parse or is missing."""
    data = WmlData(root)
    factions: list[tuple[str, list[str], list[str]]] = []
    membership: dict[str, list[str]] = {}
    for name, rel in era:
        leaders, recruits = data.faction(rel)
        factions.append((name, leaders, recruits))
        todo = [*recruits, *leaders]
        while todo:
            uid = todo.pop(0)
            if uid not in data.unit_types:
                raise WmlError(f"{rel}: faction {name} names the unit {uid!r}, which no file under "
                               f"{UNIT_FOLDER} defines")
            owners = membership.setdefault(uid, [])
            if name in owners:
                continue
            owners.append(name)
            ut = data.unit_types[uid][1]
            if _int(ut.attrs.get("level"), f"{data.unit_types[uid][0]}:{ut.line}", "level") < MAX_LEVEL:
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
    for name, leaders, recruits in factions:
        fwriter.writerow([name, RULEBOOK_ALIGNMENT.get(name, "neutral"), ", ".join(leaders), ", ".join(recruits)])
    return ImportResult(units.getvalue(), table.getvalue(), len(membership), tuple(sorted(data.pre.unknown)))


def convert_maps(paths: Sequence[Path], out: Path) -> list[Path]:
    """Each Wesnoth ``.map`` file converted to the project's token grid as ``out/<name>.txt``; MapError naming the
    file and line of a code the code table does not know."""
    written = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise MapError(f"{path}: cannot be read ({exc.strerror})") from None
        board = WesnothBoard.from_wesnoth_map(text, str(path))
        target = out / f"{path.stem}.txt"
        target.write_text(board.to_text(), encoding="utf-8")
        written.append(target)
    return written


USAGE = """usage:
  python -m sheets_gm.rulesets.wesnoth.importer units WML_DIR [OUT_DIR]
      units.csv and factions.csv from Wesnoth's data (WML_DIR holds data/core/units, data/core/macros and
      data/multiplayer/factions); OUT_DIR defaults to templates/wesnoth
  python -m sheets_gm.rulesets.wesnoth.importer maps MAP_FILE... [--out DIR]
      each Wesnoth .map file as a board (DIR defaults to templates/wesnoth/maps)"""


def main(argv: Sequence[str] | None = None) -> int:
    """The converter's command line (see ``USAGE``); 0 on success, 1 on bad data, 2 on bad usage."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    mode, rest = args[0], args[1:]
    try:
        if mode == "units" and 1 <= len(rest) <= 2:
            out = Path(rest[1]) if len(rest) > 1 else TEMPLATE_DIR
            result = convert(Path(rest[0]))
            out.mkdir(parents=True, exist_ok=True)
            (out / "units.csv").write_text(result.units_csv, encoding="utf-8")
            (out / "factions.csv").write_text(result.factions_csv, encoding="utf-8")
            print(f"wrote {result.unit_count} units to {out / 'units.csv'} and the factions to "
                  f"{out / 'factions.csv'}")
            return 0
        if mode == "maps" and rest:
            out = TEMPLATE_DIR / "maps"
            if "--out" in rest:
                at = rest.index("--out")
                if at + 1 >= len(rest):
                    print("--out needs a folder", file=sys.stderr)
                    return 2
                out = Path(rest[at + 1])
                rest = rest[:at] + rest[at + 2:]
            out.mkdir(parents=True, exist_ok=True)
            for target in convert_maps([Path(r) for r in rest], out):
                print(f"wrote {target}")
            return 0
    except (WmlError, MapError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
