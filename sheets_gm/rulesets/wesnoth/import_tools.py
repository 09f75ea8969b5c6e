"""What ``sheets-gm wesnoth import-units`` and ``import-map`` do: convert, check, then write, never over a file
unasked.

Every problem is an ``ImportToolError`` whose message names the file (and line) and what would be
accepted; nothing is written then. The tables are checked by reading them back as a match would
before they are written, so a folder the tool writes is one a match can use.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from sheets_gm.engine.words import counted
from sheets_gm.rulesets.wesnoth.board import CODE_TABLE, MapError, WesnothBoard
from sheets_gm.rulesets.wesnoth.importer import DEFAULT_ERA, UNITS_CFG, convert
from sheets_gm.rulesets.wesnoth.tables import TEMPLATE_DIR, TableError, load_tables
from sheets_gm.rulesets.wesnoth.wml import WmlError

TABLE_FILES = ("units.csv", "factions.csv")


class ImportToolError(ValueError):
    """An import that cannot be done: the message names the file and what would be accepted; nothing was written."""


def _game_folder(path: Path) -> Path | None:
    """The Wesnoth folder ``path`` is (it holds ``data/core/units.cfg``) or is the ``data`` folder of, else None."""
    if (path / UNITS_CFG).is_file():
        return path
    if path.name == "data" and (path.parent / UNITS_CFG).is_file():
        return path.parent
    return None


def _folders(path: Path, core: Path | None) -> tuple[Path, Path | None]:
    """Wesnoth's data folder and the add-on's (None when ``path`` is Wesnoth's own data)."""
    if not path.is_dir():
        raise ImportToolError(f"{path}: no such folder; give Wesnoth's data folder (the one holding "
                              f"{UNITS_CFG}) or the folder of an era or add-on")
    if core is None:
        game = _game_folder(path)
        if game is None:
            raise ImportToolError(f"{path} holds no {UNITS_CFG}: for an era or add-on, give --core with Wesnoth's data "
                                  f"folder too (its movetypes, macros and core units), e.g. --core ~/wesnoth")
        return game, None
    game = _game_folder(core)
    if game is None:
        raise ImportToolError(f"--core {core}: no {UNITS_CFG} there; give the folder holding Wesnoth's data/ "
                              "(data/core/units.cfg, data/core/macros, data/core/units)")
    return game, None if _game_folder(path) == game else path


def _refuse_to_replace(files: Sequence[Path], force: bool) -> None:
    """ImportToolError naming the first of ``files`` that exists, unless ``force``."""
    if force:
        return
    for target in files:
        if target.exists():
            shipped = " (the table the project ships)" if target.resolve().parent == TEMPLATE_DIR.resolve() else ""
            raise ImportToolError(f"{target} exists{shipped}; nothing was written. Give another --out, or --force to "
                                  "replace it")


def import_units(path: Path, *, core: Path | None = None, era: str | None = None, out: Path | None = None,
                 force: bool = False) -> str:
    """Convert the units of ``path`` (Wesnoth's data, or an add-on read on top of ``core``) for ``era`` into
    ``out/units.csv`` and ``out/factions.csv``; the report a GM reads. ImportToolError on bad input."""
    game, addon = _folders(path.expanduser(), core.expanduser() if core is not None else None)
    if out is None:
        out = Path(f"wesnoth-{era or (addon.resolve().name if addon is not None else DEFAULT_ERA)}")
    if out.exists() and not out.is_dir():
        raise ImportToolError(f"--out {out} is a file; give a folder (the tables are two files, "
                              f"{' and '.join(TABLE_FILES)})")
    targets = [out / name for name in TABLE_FILES]
    _refuse_to_replace(targets, force)
    try:
        result = convert(game, addon=addon, era=era)
    except WmlError as exc:
        raise ImportToolError(f"{exc}; nothing was written") from None
    texts = (result.units_csv, result.factions_csv)
    with tempfile.TemporaryDirectory() as scratch:
        for name, text in zip(TABLE_FILES, texts, strict=True):
            (Path(scratch) / name).write_text(text, encoding="utf-8")
        try:
            load_tables(Path(scratch))
        except TableError as exc:
            said = str(exc).replace(str(Path(scratch)), str(out))
            raise ImportToolError(f"the converted tables would not play: {said}; nothing was written") from None
    out.mkdir(parents=True, exist_ok=True)
    for target, text in zip(targets, texts, strict=True):
        target.write_text(text, encoding="utf-8")
    lines = [f"wrote {result.unit_count} units of {len(result.factions)} factions ({', '.join(result.factions)}) "
             f"to {targets[0]} and {targets[1]}"]
    if result.missing_includes:
        lines.append(f"note: the era includes files that are not there (their factions are left out): "
                     f"{', '.join(result.missing_includes)}")
    lines.append(f"use them in a match: units = \"{out}\" under [settings] in match.toml (relative to its folder)")
    return "\n".join(lines)


def import_map(file: Path, *, out: Path | None = None, codes: Path | None = None, force: bool = False) -> str:
    """Convert the Wesnoth ``.map`` ``file`` into a board file (``out``, default ``<name>.txt`` here) through the code
    table ``codes`` (default: the shipped one); the report a GM reads. ImportToolError on bad input."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ImportToolError(f"{file}: cannot be read as text ({exc}); give a Wesnoth .map file") from None
    table = codes if codes is not None else CODE_TABLE
    if not table.is_file():
        raise ImportToolError(f"--codes {table}: no such file; give a CSV with the columns code,becomes,note (a copy "
                              f"of {CODE_TABLE} with rows added)")
    try:
        board = WesnothBoard.from_wesnoth_map(text, str(file), table)
    except MapError as exc:
        raise ImportToolError(f"{exc}; nothing was written") from None
    if board.players < 2:
        raise ImportToolError(f"{file}: {counted(board.players, 'player start')} on the map, and a match needs at "
                              "least two (a keep hex with a player number before its code, such as '1 Kh'); "
                              "nothing was written")
    target = out if out is not None else Path(f"{file.stem}.txt")
    if target.is_dir():
        target = target / f"{file.stem}.txt"
    if target.resolve() == file.resolve():
        raise ImportToolError(f"--out {target} is the map itself; give another file for the board")
    _refuse_to_replace([target], force)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(board.to_text(), encoding="utf-8")
    return (f"wrote {target}: {board.grid.width}x{board.grid.height} hexes, {board.players} players, "
            f"{len(board.villages)} villages\n"
            f"use it in a match: map = \"{target}\" in match.toml (relative to its folder)")
