"""Creating a GvG match in its spreadsheets: layouts applied, then the starting state written."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from sheets_gm.engine.core.dice import TurnDice, seed_hash
from sheets_gm.engine.core.settings import settings_rows
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
from sheets_gm.rulesets.gvg.sheet.layout import archive_tab, engine_tab, orders_tab, public_tabs
from sheets_gm.rulesets.gvg.sheet.positions import GvgPositions, team_pair
from sheets_gm.rulesets.gvg.sheet.render import status_line
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate, default_template
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import Grid, TabLayout, WorkbookLayout, a1
from sheets_gm.sync.poll import board_writes, team_turn_writes
from sheets_gm.sync.record import EngineRecord
from sheets_gm.sync.sheets import MatchSheets, WriteBatch


def new_seed() -> bytes:
    """A fresh secret match seed (32 random bytes)."""
    return secrets.token_bytes(32)


def create_match(
    sheets: MatchSheets,
    roster: Sequence[RosterEntry],
    *,
    settings: GvgSettings,
    map_text: str,
    seed: bytes,
    emails: Mapping[str, str] | None = None,
    deadline: str = "",
    schedule_text: str = "",
    title: str = "sheets-gm GvG match",
    template: SheetTemplate | None = None,
) -> EngineRecord:
    """Lay out every spreadsheet of the match and write turn 1; returns the engine record.

    ``deadline`` is turn 1's deadline (ISO text, '' for none); ``schedule_text`` the deadline
    schedule in words, shown in the settings tab.

    Raises MapError, RosterError for bad input before anything is written."""
    tpl = template or default_template()
    board = GvgMap.from_text(map_text, where="map")
    rules = GvgRules(board, settings)
    teams = team_pair(sheets.seats)
    state = new_match(board, teams, roster, settings)
    rosters = tuple(tuple(p.name for p in state.players if p.team == t) for t in (0, 1))
    pos = GvgPositions.build(tpl, teams, (rosters[0], rosters[1]), board.grid.width, board.grid.height)
    record = EngineRecord(ruleset="gvg", state=state, seed=seed, seed_hash=seed_hash(seed), settings=settings,
                          map_text=map_text, log_rows=0, deadline=deadline, teams=teams)

    apply_match_layouts(sheets, pos, rules, len(state.players), emails or {}, title)
    batch = WriteBatch()
    drawn_writes(batch, sheets, pos, rules, record, schedule_text)
    batch.run(sheets.write_order())
    return record


def apply_match_layouts(sheets: MatchSheets, pos: GvgPositions, rules: GvgRules, players: int,
                        emails: Mapping[str, str], title: str) -> None:
    """Lay out every tab of the match in its spreadsheet: one layout call per spreadsheet.

    Values outside the layouts' fixed cells are kept, so this also rebuilds a drifted layout
    around a match in play (``repair``)."""
    tabs: list[tuple[SheetBackend, TabLayout]] = []
    tabs += [(sheets.board, t) for t in public_tabs(pos, rules.board, players)]
    for i, team in enumerate(pos.teams):
        tabs.append((sheets.orders[i], orders_tab(pos, team, emails)))
        tabs.append((sheets.orders[i], archive_tab(pos, team, rules.settings)))
    tabs.append((sheets.engine, engine_tab(pos, rules.settings)))
    for backend in sheets.write_order():
        mine = tuple(t for b, t in tabs if b is backend)
        backend.apply_layout(WorkbookLayout(title, mine))


def drawn_writes(batch: WriteBatch, sheets: MatchSheets, pos: GvgPositions, rules: GvgRules, record: EngineRecord,
                 schedule_text: str) -> None:
    """Everything sheets-gm draws for the record's current turn: the orders tabs' turn, rolls and
    feedback (Ready unticked), the board, the players and settings tabs, the engine record."""
    state = record.state
    dice = TurnDice(record.seed, state.turn)
    status = status_line(pos.template, state, rules.settings.max_turns, record.deadline)
    for i, team in enumerate(pos.teams):
        team_turn_writes(batch, sheets.orders[i], team, pos.captain, state, dice, status)
    board_writes(batch, sheets.board, pos, rules, state, dice, status)
    rows: Grid = [list(r) for r in settings_rows(rules.settings, schedule_text)]
    batch.put(sheets.board, a1(pos.template.tabs.settings, f"A2:D{1 + len(rows)}"), rows)
    batch.put(sheets.engine, pos.engine_value_range(), record.values())
