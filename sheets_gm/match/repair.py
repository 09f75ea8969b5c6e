"""Repairing a match whose layout was edited: the layout rebuilt around the saved state, typed orders kept.

A match exists as long as its engine record does (the engine tab's key cells): ``init``
refuses to touch it then, and ``repair`` is the way back from a moved header, a renamed or
deleted tab or a cleared cell. It

1. reads the engine record, and nothing else is trusted;
2. keeps a copy of every local workbook (``<name>.before-repair-<time>.xlsx``);
3. finds every order, skill and Ready typed for the match, leniently: by header names where
   columns moved, by player name where rows moved, in a renamed copy of a tab when the tab
   itself is gone;
4. lays every tab out again (headers, formats, dropdowns, protections), redraws what
   sheets-gm draws (board, players, settings, rolls, feedback), and writes the typed cells
   back where the sync reads them.

The seed, the state, the history, the log rows and the archive are never rewritten, so the
published seed hash still checks and ``verify`` still replays every turn.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.match.connect import open_match_sheets
from sheets_gm.match.roster import read_roster_csv, roster_emails
from sheets_gm.rulesets.gvg.sheet.positions import CaptainColumns, GvgPositions, TeamSheet, team_pair
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate, default_template
from sheets_gm.sheets.backend import SheetBackend, SheetError
from sheets_gm.sheets.layout import CellValue, Grid, a1, quote_tab
from sheets_gm.sync.create import apply_match_layouts, drawn_writes
from sheets_gm.sync.record import EngineRecord, RecordError, parse_record
from sheets_gm.sync.sheets import MatchSheets, WriteBatch


class NoMatchError(SheetError):
    """There is no readable engine record: nothing to repair (init creates a match)."""


@dataclass(frozen=True, slots=True)
class TypedRow:
    """What one player had typed: the turn stamp and the destination, action and teleport cells."""

    for_turn: CellValue
    cells: tuple[CellValue, CellValue, CellValue]


@dataclass(frozen=True, slots=True)
class TypedCaptain:
    """What a captain had typed: the turn stamp, the skill cells and the Ready box."""

    for_turn: CellValue
    skills: tuple[CellValue, ...]
    ready: CellValue


@dataclass
class TeamSalvage:
    """A team's typed orders as found, and where they were found."""

    players: dict[str, TypedRow] = field(default_factory=dict)
    captain: TypedCaptain | None = None
    found_in: str | None = None  # the tab they came from (None: no orders tab was found)


@dataclass
class RepairReport:
    """What ``repair`` did."""

    turn: int
    seed_hash: str
    backups: list[Path] = field(default_factory=list)
    orders_kept: int = 0
    captains_kept: int = 0
    notes: list[str] = field(default_factory=list)


def _text(value: CellValue) -> str:
    return "" if value is None else str(value).strip()


def _typed(value: CellValue) -> bool:
    return value not in (None, "", False)


def read_engine_record(sheets: MatchSheets, template: SheetTemplate | None = None) -> EngineRecord | None:
    """The engine record when the engine tab holds one; None when there is no engine tab or it is empty.

    Only the engine tab is read, so a drifted board or orders tab never hides a match.
    RecordError when the engine tab holds something that is not a readable record."""
    tpl = template or default_template()
    if tpl.tabs.engine not in sheets.engine.tab_names():
        return None  # asked of the tab list: Google answers a read of a missing tab with an error
    probe = GvgPositions.build(tpl, team_pair(sheets.seats), ((), ()), 0, 0)
    (grid,) = sheets.engine.read([probe.engine_read_range()])
    if not any(_typed(v) for row in grid for v in row):
        return None
    return parse_record(grid[1:], f"{sheets.engine.name} tab {tpl.tabs.engine!r}")


def _column(header: Sequence[CellValue], name: str, default: int) -> int:
    wanted = name.casefold()
    for i, value in enumerate(header):
        if _text(value).casefold() == wanted:
            return i
    return default


def _cell(grid: Grid, row: int, col: int) -> CellValue:
    return grid[row][col] if row < len(grid) and col < len(grid[row]) else None


def _header_row(grid: Grid, must_have: str) -> int | None:
    wanted = must_have.casefold()
    for r, row in enumerate(grid):
        if any(_text(v).casefold() == wanted for v in row):
            return r
    return None


def salvage_team(grid: Grid, team: TeamSheet, template: SheetTemplate) -> TeamSalvage:
    """The orders typed in one team's orders tab, wherever its columns and rows went."""
    h = template.headers
    out = TeamSalvage()
    top = _header_row(grid, "Destination")
    header = grid[top] if top is not None else list(h.orders)
    cols = {name: _column(header, name, default) for default, name in enumerate(h.orders)}
    names = {p.casefold(): p for p in team.players}
    start = (top + 1) if top is not None else 0
    for r in range(start, len(grid)):
        for c in (cols[h.orders[0]], 0):
            name = names.get(_text(_cell(grid, r, c)).casefold())
            if name is not None and name not in out.players:
                cells = tuple(_cell(grid, r, cols[k]) for k in h.orders[3:6])
                if any(_typed(v) for v in cells):
                    out.players[name] = TypedRow(_cell(grid, r, cols[h.orders[1]]), (cells[0], cells[1], cells[2]))
                break
    cap_top = _header_row(grid, "Ready")
    if cap_top is not None:
        cap_header = grid[cap_top]
        skills = [i for i, v in enumerate(cap_header) if _text(v).casefold() == "skill"]
        ready = _column(cap_header, "Ready", -1)
        turn_col = _column(cap_header, h.captain[1], 1)
        row = cap_top + 1
        typed = tuple(_cell(grid, row, c) for c in skills)
        ready_value = _cell(grid, row, ready) if ready >= 0 else None
        if any(_typed(v) for v in typed) or _typed(ready_value):
            out.captain = TypedCaptain(_cell(grid, row, turn_col), typed, ready_value)
    return out


def _find_orders(backend: SheetBackend, team: TeamSheet, template: SheetTemplate,
                 known_tabs: set[str]) -> tuple[TeamSalvage, list[str]]:
    """The team's typed orders: from its orders tab, or from a renamed copy of it when it is gone."""
    names = backend.tab_names()
    notes: list[str] = []
    if team.orders_tab in names:
        (grid,) = backend.read([quote_tab(team.orders_tab)])  # the whole tab: its rows may have moved
        found = salvage_team(grid, team, template)
        found.found_in = team.orders_tab
        return found, notes
    others = [n for n in names if n not in known_tabs]
    if others:
        grids = backend.read([quote_tab(n) for n in others])
        wanted = {p.casefold() for p in team.players}
        for name, grid in zip(others, grids, strict=True):
            cells = {_text(v).casefold() for row in grid for v in row}
            if len(wanted & cells) * 2 >= len(wanted):
                found = salvage_team(grid, team, template)
                found.found_in = name
                notes.append(f"tab {team.orders_tab!r} was missing; its orders were found in tab {name!r} "
                             f"of {backend.name}, which is kept as it is (delete it when you like)")
                return found, notes
    notes.append(f"tab {team.orders_tab!r} of {backend.name} was missing and no copy of it was found: it is laid "
                 f"out again, empty; the players of {team.team} type their orders again")
    return TeamSalvage(), notes


def backup_workbooks(config: MatchConfig, stamp: str) -> list[Path]:
    """A copy of every local workbook of the match, beside it (none for Google)."""
    if config.backend is not BackendKind.LOCAL:
        return []
    backups: list[Path] = []
    seen: set[Path] = set()
    for where in (config.board, config.engine, *config.orders, *([config.judge] if config.judge else [])):
        path = config.local_path(where)
        if path in seen or not path.exists():
            continue
        seen.add(path)
        backup = path.with_name(f"{path.stem}.before-repair-{stamp}{path.suffix}")
        shutil.copy2(path, backup)
        backups.append(backup)
    return backups


def repair_match(config: MatchConfig, *, now: datetime, sheets: MatchSheets | None = None) -> RepairReport:
    """Rebuild the match's layout around its engine record, keeping every typed order (module notes)."""
    tpl = default_template()
    sheets = sheets or open_match_sheets(config)
    try:
        record = read_engine_record(sheets, tpl)
    except RecordError as exc:
        raise NoMatchError(f"{exc}. repair needs the engine record: restore the engine tab from a backup "
                           "(a local match keeps .before-… copies) or from the export") from None
    if record is None:
        raise NoMatchError(f"{sheets.engine.name} holds no match (no engine tab): there is nothing to repair; "
                           f"create the match with sheets-gm init {config.ruleset} -c {config.path}")
    if record.teams != team_pair(sheets.seats):
        raise NoMatchError(f"the match config names teams {sheets.seats} but the engine tab holds {record.teams}: "
                           f"fix teams in {config.path}")
    report = RepairReport(record.turn, record.seed_hash)
    if config.backend is BackendKind.LOCAL:
        report.backups = backup_workbooks(config, now.strftime("%Y%m%d-%H%M%S"))
    state = record.state
    rosters = tuple(tuple(p.name for p in state.players if p.team == t) for t in (0, 1))
    rules = record.rules()
    pos = GvgPositions.build(tpl, team_pair(sheets.seats), (rosters[0], rosters[1]), rules.board.grid.width,
                             rules.board.grid.height)
    layout_tabs = {tpl.tabs.board, tpl.tabs.players, tpl.tabs.log, tpl.tabs.settings, tpl.tabs.engine,
                   tpl.tabs.roster, *(t.orders_tab for t in pos.teams), *(t.archive_tab for t in pos.teams)}
    salvaged: list[TeamSalvage] = []
    for i, team in enumerate(pos.teams):
        found, notes = _find_orders(sheets.orders[i], team, tpl, layout_tabs)
        salvaged.append(found)
        report.notes += notes
    kept_tabs = [(sheets.board, tpl.tabs.log), *((sheets.orders[i], t.archive_tab) for i, t in enumerate(pos.teams))]
    for backend, name in kept_tabs:
        if name not in backend.tab_names():
            report.notes.append(f"tab {name!r} of {backend.name} was missing: it is laid out again, but its old rows "
                                "are gone (the engine tab's history still replays every turn: sheets-gm verify)")
    emails = roster_emails(read_roster_csv(config.roster, config.teams)) if config.roster else {}
    apply_match_layouts(sheets, pos, rules, len(state.players), emails, config.title)
    batch = WriteBatch()
    drawn_writes(batch, sheets, pos, rules, record, config.schedule.describe())
    batch.run(sheets.write_order())
    typed = WriteBatch()
    cols = CaptainColumns.from_header(tpl.headers.captain)
    for i, (team, found) in enumerate(zip(pos.teams, salvaged, strict=True)):
        backend = sheets.orders[i]
        for index, name in enumerate(team.players):
            row = found.players.get(name)
            if row is None:
                continue
            r = team.player_row(index)
            typed.put(backend, a1(team.orders_tab, f"B{r}"), [[row.for_turn if _typed(row.for_turn) else ""]])
            typed.put(backend, a1(team.orders_tab, f"D{r}:F{r}"), [["" if v is None else v for v in row.cells]])
            report.orders_kept += 1
        if found.captain is not None:
            cap = team.captain_row
            skills = list(found.captain.skills)[:len(cols.skills)]
            skills += [""] * (len(cols.skills) - len(skills))
            typed.put(backend, a1(team.orders_tab, f"B{cap}"), [[found.captain.for_turn or ""]])
            typed.put(backend, a1(team.orders_tab, cols.label(cols.skills[0], cap) + ":" +
                                  cols.label(cols.skills[-1], cap)), [["" if v is None else v for v in skills]])
            typed.put(backend, a1(team.orders_tab, cols.label(cols.ready, cap)),
                      [[found.captain.ready if found.captain.ready is not None else False]])
            report.captains_kept += 1
    typed.run(sheets.write_order())
    return report
