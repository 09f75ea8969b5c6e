"""Moving a match's engine out of a file players open, into the file the config now names as engine.

A match created when the engine could share the board's workbook (GvG's old one-workbook default)
keeps its seed there. The GM writes ``engine = "gm/engine.xlsx"`` under ``[sheets]`` and runs
``sheets-gm repair``: the engine's tabs (the engine record and history, the GM tab, the Roster tab,
and the judge's tabs when the judge has no file of its own) are copied value for value into the
new file, then deleted from the old one. Copy first, delete after: a move cut in the middle leaves
the match in both, and the next ``repair`` only deletes the old copy (the same seed hash in both).
"""

from __future__ import annotations

from dataclasses import dataclass

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.rulesets.registry import get_ruleset, sheet_spec
from sheets_gm.sheets.backend import RangeWrite, SheetBackend, SheetError
from sheets_gm.sheets.layout import Grid, TabLayout, WorkbookLayout, a1, quote_tab
from sheets_gm.sync.match_record import MatchRecordError, engine_read_range, parse_match_record
from sheets_gm.sync.match_tabs import ABOUT_TAB, MatchTabs
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.upkeep.backups import prepare_local, start_new_workbooks


class EngineMoveError(SheetError):
    """The engine cannot be moved as configured (two different matches, say); nothing was changed."""


@dataclass(frozen=True, slots=True)
class EngineMove:
    """What a move did: from which file to which, and the tabs moved."""

    source: str
    target: str
    tabs: tuple[str, ...]


def _seed_hash(backend: SheetBackend, tab: str) -> str | None:
    """The seed hash of the match whose engine tab ``tab`` is in ``backend``, or None when it holds none."""
    if tab not in backend.tab_names():
        return None
    (grid,) = backend.read([engine_read_range(tab)])
    if not any(v not in (None, "") for row in grid[1:] for v in row[1:2]):
        return None
    try:
        return parse_match_record(grid[1:], f"{backend.name} tab {tab!r}").seed_hash
    except MatchRecordError:
        return "(unreadable)"


def engine_tabs(config: MatchConfig) -> tuple[str, ...]:
    """The tabs that belong with the engine: the record, the GM tab, the Roster tab, and the judge's when the
    judge has no file of its own."""
    spec = sheet_spec(config.ruleset)
    traits = get_ruleset(config.ruleset).traits
    names = [spec.tabs.engine, spec.tabs.gm, spec.tabs.roster]
    if traits.judge and config.judge is None:
        tabs = MatchTabs(spec, config.seats, True)
        names += list(tabs.seat_tab_names(JUDGE))  # the Judge tab, its Archive, View and Copies
    return tuple(names)


def stray_engine(config: MatchConfig, sheets: MatchSheets) -> SheetBackend | None:
    """The other file of the match that holds its engine record, when the configured engine holds none
    (or holds the same match: a move that was cut before the old copy was deleted)."""
    tab = sheet_spec(config.ruleset).tabs.engine
    here = _seed_hash(sheets.engine, tab)
    for backend in sheets.write_order():
        if backend is sheets.engine:
            continue
        there = _seed_hash(backend, tab)
        if there is None:
            continue
        if here is not None and here != there:
            raise EngineMoveError(f"{backend.name} and {sheets.engine.name} both hold an engine tab, of two different "
                                  f"matches (seed hashes {there[:12]}… and {here[:12]}…): nothing was moved. Point "
                                  f"engine under [sheets] in {config.path} at the file of the match you mean")
        return backend
    return None


def create_engine_file(config: MatchConfig) -> bool:
    """For a local match whose configured engine file does not exist yet while its board does (the GM just
    moved ``engine`` in the config): create it, with an About tab, so the engine can move in. Whether it did."""
    engine = config.local_path(config.engine)
    if config.backend is not BackendKind.LOCAL or engine.exists() or not config.local_path(config.board).is_file():
        return False
    start_new_workbooks(prepare_local(config, False, "", {engine: ABOUT_TAB})[1], ())  # the file, made now
    return True


def move_engine(config: MatchConfig, sheets: MatchSheets) -> EngineMove | None:
    """Move the engine's tabs from the file that holds them into the configured engine file; None when the
    engine is already where the config says. Each tab is copied by value (the layout comes back with
    ``repair``); the old tabs are deleted once every copy is written."""
    source = stray_engine(config, sheets)
    if source is None:
        return None
    target = sheets.engine
    present = set(source.tab_names())
    names = tuple(n for n in engine_tabs(config) if n in present)
    engine_tab = sheet_spec(config.ruleset).tabs.engine
    if _seed_hash(target, engine_tab) is None:
        grids = dict(zip(names, source.read([quote_tab(n) for n in names]), strict=True))
        layouts = tuple(_plain_tab(name, grid, hidden=name == engine_tab) for name, grid in grids.items())
        target.apply_layout(WorkbookLayout(config.title, layouts))
        target.write([RangeWrite(a1(name, "A1"), grid) for name, grid in grids.items() if grid])
    source.apply_layout(WorkbookLayout(config.title, (), retired=names))
    return EngineMove(source.name, target.name, names)


def _plain_tab(name: str, grid: Grid, *, hidden: bool) -> TabLayout:
    """A tab large enough for ``grid`` (its headers, colours and protections come back with ``repair``)."""
    return TabLayout(name, rows=max(len(grid), 1), cols=max((len(r) for r in grid), default=1), hidden=hidden)
