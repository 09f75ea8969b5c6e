"""The Wesnoth game's own tools: ``sheets-gm wesnoth import-units`` and ``sheets-gm wesnoth import-map``.

A GM runs them on other eras, add-ons and maps; a match then points at what they wrote
(``[settings] units = "FOLDER"`` and ``map = "FILE"`` in its ``match.toml``). Only the
command line is declared here, as data of the game's record (``GAME.commands``) that the
command layer mounts; the converters are imported when a tool runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sheets_gm.rulesets import kit


def _import_units(args: argparse.Namespace) -> int:
    from sheets_gm.rulesets.wesnoth.import_tools import ImportToolError, import_units

    try:
        report = import_units(args.path, core=args.core, era=args.era, out=args.out, force=args.force)
    except ImportToolError as exc:
        raise kit.GameCommandError(str(exc)) from None
    print(report)
    return 0


def _import_map(args: argparse.Namespace) -> int:
    from sheets_gm.rulesets.wesnoth.import_tools import ImportToolError, import_map

    try:
        report = import_map(args.file, out=args.out, codes=args.codes, force=args.force)
    except ImportToolError as exc:
        raise kit.GameCommandError(str(exc)) from None
    print(report)
    return 0


def _units_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", type=Path, metavar="PATH", help="Wesnoth's data folder, or an era's or add-on's folder")
    p.add_argument("--core", type=Path, metavar="WESNOTH_DIR",
                   help="Wesnoth's data folder, for an add-on (default: PATH itself)")
    p.add_argument("--era", metavar="ERA_ID", help="the [era] whose factions to keep, by its id")
    p.add_argument("--out", type=Path, metavar="FOLDER",
                   help="where to write units.csv and factions.csv (default: wesnoth-<era or folder name>)")
    p.add_argument("--force", action="store_true", help="replace tables already in the output folder")


def _map_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, metavar="FILE.map")
    p.add_argument("--out", type=Path, metavar="FILE", help="the board file to write (default: FILE.txt here)")
    p.add_argument("--codes", type=Path, metavar="CSV",
                   help="a code table of your own (code,becomes,note), e.g. a copy of the shipped one with an "
                        "add-on's codes added")
    p.add_argument("--force", action="store_true", help="replace the board file if it exists")


COMMANDS = (
    kit.GameCommand(
        "import-units", "unit and faction tables from Wesnoth's WML (an era or an add-on)",
        "Convert Wesnoth unit files into the tables a match plays with (units.csv and factions.csv in one\n"
        "folder). PATH is Wesnoth's data folder (the one holding data/core/units) or an add-on's folder;\n"
        "for an add-on, --core names Wesnoth's data folder (its movetypes, macros and core units).\n"
        "The factions are the era's: --era names it by id (era_default, era_heroes, or an add-on's);\n"
        "without it, the Default era for Wesnoth's data, and every [multiplayer_side] of an add-on.\n"
        "Nothing is written when a file does not parse or a unit lacks a field; an existing table is\n"
        "replaced only with --force. Use the folder in a match: [settings] units = \"FOLDER\".",
        "sheets-gm wesnoth import-units ~/wesnoth --era era_default --out default-era",
        _units_arguments, _import_units),
    kit.GameCommand(
        "import-map", "a Wesnoth .map file as a board",
        "Convert a Wesnoth .map file into the project's board (a token grid, one row of hexes a line),\n"
        "each terrain code through the code table (templates/wesnoth/terrain_codes.csv, or --codes).\n"
        "Nothing is written when a code is unknown or the map has fewer than two player starts; an\n"
        "existing file is replaced only with --force. Use it in a match: map = \"FILE\" in match.toml.",
        "sheets-gm wesnoth import-map 2p_Caves_of_the_Basilisk.map --out basilisk.txt",
        _map_arguments, _import_map),
)
