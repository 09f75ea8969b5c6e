"""What ``init`` checks of a local match's files before it touches any: every workbook the config names is an
``.xlsx`` file inside the config's folder (unless the GM allows others by name), every one that exists is a
readable workbook, none holds a match (plain ``init``), and ``--overwrite`` moves aside only workbooks of this
match: of its layout, and of the match this config's engine holds (each file's stamp carries its match's id), or of
no match, so that a second config naming a running match's workbooks never stops it. A refusal names the file (and
the other match, with its config when one in the folder holds it) and what to do, and nothing has been created or
moved when it comes."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from sheets_gm.engine.words import counted
from sheets_gm.match.config import BackendKind, ConfigError, MatchConfig, load_config
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.sheets.backend import SheetAccessError, SheetBackend, SheetError
from sheets_gm.sheets.layout import a1
from sheets_gm.sync.journal import init_under_way, journal_path
from sheets_gm.sync.match_record import (
    FileStamp,
    MatchRecord,
    MatchRecordError,
    engine_read_range,
    joined_cells,
    parse_match_record,
)
from sheets_gm.sync.match_tabs import ABOUT_TAB
from sheets_gm.sync.rows.pending_row import pending_block_range, pending_line


class InitTargetError(SheetAccessError):
    """A file the config names that ``init`` must not create, move or replace; nothing was touched."""


def outside_folder(config: MatchConfig, files: Mapping[Path, str]) -> list[Path]:
    """The workbooks of ``files`` that are not inside the config's folder once ``..`` and symbolic links are
    followed (an absolute path elsewhere, ``../other/x.xlsx``, a link to a file elsewhere)."""
    home = config.folder.resolve()
    return [path for path in files if not path.resolve().is_relative_to(home)]


def match_tab_names(config: MatchConfig) -> set[str]:
    """Every tab name the match's layout may give a workbook of it (for its game and its seats)."""
    tabs = sheet_spec(config.ruleset).tabs
    names = {tabs.board, tabs.log, tabs.settings, tabs.engine, tabs.judge, tabs.gm, tabs.roster, ABOUT_TAB,
             *tabs.retired}
    for seat in config.seats:
        names |= {tabs.orders.format(seat=seat), tabs.archive.format(seat=seat), tabs.view.format(seat=seat),
                  tabs.copies.format(seat=seat)}
    return names


def _tabs(path: Path) -> list[str]:
    """The tabs of the workbook ``path``; InitTargetError when it is no readable .xlsx workbook."""
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    if not path.is_file():
        raise InitTargetError(f"{path} exists but is not a file; init never replaces it: name another workbook in "
                              "[sheets]")
    try:
        return LocalWorkbookBackend(path).tab_names()
    except SheetError as exc:
        raise InitTargetError(f"{path} exists and is not a workbook init can use ({exc}); init never moves or "
                              "replaces such a file: name another workbook in [sheets], or move it yourself") from None


def check_local_targets(config: MatchConfig, files: Mapping[Path, str], *, overwrite: bool,
                        anywhere: bool = False) -> list[Path]:
    """Check every workbook of ``files`` (each local workbook of the match) before init creates or moves any;
    the ones that exist. InitTargetError for a name that is not ``.xlsx``, a workbook outside the config's folder
    (unless ``anywhere``: the GM's ``--allow-outside-folder``), a file that exists and is no readable workbook,
    and, with ``overwrite``, a workbook none of whose tabs is one this match lays out (it is not this match's)."""
    for path in files:
        if path.suffix.lower() != ".xlsx":
            raise InitTargetError(f"{config.path}: [sheets] names {path}, which is not an .xlsx workbook: local "
                                  "matches are .xlsx files; nothing was created or moved")
    outside = outside_folder(config, files)
    if outside and not anywhere:
        raise InitTargetError(f"{config.path}: [sheets] names {', '.join(map(str, outside))}, outside the config's "
                              f"folder {config.folder}; nothing was created or moved. Keep the match's workbooks in "
                              "that folder (or below it), or pass --allow-outside-folder if you mean it")
    known = match_tab_names(config)
    existing: list[Path] = []
    for path in files:
        if not path.exists() and not path.is_symlink():
            continue
        tabs = _tabs(path)
        if overwrite and not known & set(tabs):
            raise InitTargetError(f"{path} is not a workbook of this match (its tabs: {', '.join(tabs) or 'none'}): "
                                  "init --overwrite moves aside only the match's own workbooks, so nothing was "
                                  "created or moved. Name another file in [sheets], or move it yourself")
        existing.append(path)
    return existing


def match_in_words(record: MatchRecord) -> str:
    """A match as a GM knows it: ``a gvg match at turn 7 (6 windows resolved, seed hash 1a2b3c4d5e6f…)``."""
    window = record.ruleset.window(record.state)
    where = f"at {window.label}" if window is not None else "that is over"
    return (f"a {record.name} match {where} ({counted(record.resolved, 'window')} resolved, seed hash "
            f"{record.seed_hash[:12]}…)")


def match_files_in(backend: SheetBackend, config: MatchConfig) -> tuple[str, str]:
    """What of a match's files ``backend`` holds: the match's id (a stamp's, ``sync.history``; '' for a match made
    before stamps) and what it is (a seat's orders, the board); ('', '') when it holds none."""
    spec = sheet_spec(config.ruleset)
    copies = re.compile(re.escape(spec.tabs.copies).replace(re.escape("{seat}"), "(.+)") + "$")
    names = backend.tab_names()
    for name in names:
        found = copies.match(name)
        if found is None:
            continue
        (grid,) = backend.read([pending_block_range(name)])
        row = (pending_line(grid) or [[]])[0]
        text = str(row[1]) if len(row) > 1 and row[1] not in (None, "") else ""
        if not text:
            continue
        try:
            stamp = FileStamp.from_json(json.loads(joined_cells(row[:2], 1)).get("gen"))
        except (ValueError, AttributeError):
            stamp = None
        return (stamp.match if stamp is not None else ""), f"the orders of {found[1]}"
    if spec.tabs.board in names:
        (grid,) = backend.read([a1(spec.tabs.board, "1:1")])
        stamp = next((st for v in (grid[0] if grid else []) if (st := FileStamp.from_cell(v))), None)
        if stamp is not None:
            return stamp.match, "the board"
    return "", ""


def holds_record(backend: SheetBackend, tab: str) -> bool:
    """Whether ``backend`` has an engine tab ``tab`` with anything in its value column."""
    if tab not in backend.tab_names():
        return False
    (grid,) = backend.read([engine_read_range(tab)])
    return any(v not in (None, "") for row in grid[1:] for v in row[1:2])


def engine_record_in(backend: SheetBackend, config: MatchConfig) -> MatchRecord | None:
    """The match record ``backend``'s engine tab holds (None when it has none, or one that cannot be read)."""
    tab = sheet_spec(config.ruleset).tabs.engine
    if not holds_record(backend, tab):
        return None
    (grid,) = backend.read([engine_read_range(tab)])
    try:
        return parse_match_record(grid[1:], f"tab {tab!r}")
    except (MatchRecordError, ValueError):
        return None


def whose_match(config: MatchConfig, match_id: str) -> str:
    """The other config of the config's folder whose engine holds the match ``match_id``, in words
    (`` (the match of friday.toml, its engine gm/friday.xlsx)``; '' when none does)."""
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    for path in sorted(config.folder.glob("*.toml")):
        if path == config.path:
            continue
        try:
            other = load_config(path)
            engine = other.local_path(other.engine)
            if other.backend is not BackendKind.LOCAL or not engine.is_file():
                continue
            record = engine_record_in(LocalWorkbookBackend(engine), other)
        except (ConfigError, SheetError, ValueError, OSError):
            continue
        if record is not None and record.match_id == match_id:
            return f" (the match of {path.name}, its engine {other.engine})"
    return ""


def refuse_other_matches(config: MatchConfig, existing: list[Path]) -> None:
    """``init --overwrite``: InitTargetError, nothing created or moved, when a workbook it would move aside holds
    files of another match than the one this config's engine holds (its stamp's match id, ``sync.history``), or
    of any match when that engine holds none: a second config naming a running match's workbooks would stop that
    match. A file of no match, or of a match made before stamps while this engine holds one, is replaced."""
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    engine_path = config.local_path(config.engine)
    books = {path: LocalWorkbookBackend(path) for path in existing}
    ours = engine_record_in(books[engine_path], config) if engine_path in books else None
    cut = init_under_way(journal_path(config.path))  # this config's own init, cut short: its files are its own
    for path, book in books.items():
        record = engine_record_in(book, config) if path != engine_path else None
        match, what = (record.match_id, "the engine") if record is not None else match_files_in(book, config)
        if not what or (match and match == cut) or (ours is not None and match in ("", ours.match_id)):
            continue  # no match's, or this engine's (or, made before stamps, no telling whose)
        held = (f"holds match {ours.match_id}, {match_in_words(ours)}" if ours is not None
                else "holds no match (or does not exist yet)")
        other = f"match {match}{whose_match(config, match)}" if match else "a match"
        raise InitTargetError(
            f"{path} holds {what} of {other}, and this config's engine, {engine_path}, {held}: init --overwrite "
            "replaces only the files of the match its own engine holds, or files of no match, so nothing was "
            "created or moved. Another config names this workbook: give this config workbooks of its own under "
            "[sheets], or run init --overwrite with that match's own config to replace it")
