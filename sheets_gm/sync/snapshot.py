"""One poll's reading of a GvG match: the engine record, every order row, checked against the layout."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sheets_gm.engine.core.grid import column_label
from sheets_gm.rulesets.gvg.sheet.inputs import parse_captain_cells, parse_order_cells, parse_turn
from sheets_gm.rulesets.gvg.sheet.positions import (
    ORDER_COLUMNS,
    TURN_COLUMN,
    CaptainColumns,
    GvgPositions,
    TeamSheet,
    team_pair,
)
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate
from sheets_gm.rulesets.gvg.state import PlayerOrder, TurnOrders
from sheets_gm.sheets.backend import LayoutDriftError, SheetError
from sheets_gm.sheets.layout import CellValue, Grid, split_a1
from sheets_gm.sync.record import EngineRecord, parse_record
from sheets_gm.sync.sheets import MatchSheets, ReadBatch


def cell(grid: Grid, row: int, col: int) -> CellValue:
    """The value at 1-based ``row`` and 0-based ``col`` of a grid read from A1 (None past the data)."""
    if row - 1 < len(grid) and col < len(grid[row - 1]):
        return grid[row - 1][col]
    return None


def _text(value: CellValue) -> str:
    return "" if value is None else str(value).strip()


#: Characters of a player's input cell kept (after stripping spaces) when it is longer. No order
#: is that long, and the consumed orders are archived as JSON in ONE cell that must stay within
#: a cell's limit (32,767 in .xlsx, 50,000 in Google) to be read back after an interrupted write.
MAX_INPUT_CHARS = 64


def player_input(value: CellValue) -> CellValue:
    """A player-typed cell as the sync uses and archives it: over-long text is cut."""
    if isinstance(value, str) and len(value) > MAX_INPUT_CHARS:
        return value.strip()[:MAX_INPUT_CHARS]
    return value


def expect_row(grid: Grid, row: int, expected: list[str], tab: str, first_col: int = 0) -> None:
    """Check header texts in ``row`` of a tab read from A1; raise naming the first cell that drifted."""
    for i, want in enumerate(expected):
        got = _text(cell(grid, row, first_col + i))
        if got != want:
            where = f"{column_label(first_col + i)}{row}"
            raise LayoutDriftError(
                f"the layout has changed: tab {tab!r} cell {where} should say {want!r} but says {got!r}; "
                "put it back, or run sheets-gm repair -c MATCH.toml, which rebuilds the layout and keeps the "
                "match and every typed order — nothing was written"
            )


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """What one order row held this poll."""

    name: str
    row: int
    for_turn: int | None
    cells: list[CellValue]  # destination, action, teleport as typed
    feedback: str
    typed: bool


@dataclass(frozen=True, slots=True)
class CaptainRow:
    """What the captain's row held this poll."""

    row: int
    for_turn: int | None
    skills: list[CellValue]
    ready: CellValue
    feedback: str


@dataclass
class TeamInput:
    """A team's orders this poll: current rows, stale rows, and orders already consumed (pending)."""

    sheet: TeamSheet
    players: list[PlayerRow]
    captain: CaptainRow
    pending: dict[str, Any] | None  # the consumed raw cells of the current turn, after an interrupted write
    problems: dict[str, list[str]] = field(default_factory=dict)  # per player name, or "captain"

    def raw(self, turn: int) -> dict[str, Any]:
        """The current turn's raw cells, as archived: from the pending area, or from the rows."""
        if self.pending is not None:
            return self.pending
        return {
            "turn": turn,
            "players": {p.name: p.cells for p in self.players if p.typed and p.for_turn in (turn, None)},
            "captain": {"skills": self.captain.skills, "ready": self.captain.ready}
            if self.captain.for_turn in (turn, None) else {"skills": [], "ready": False},
        }

    def stale(self, turn: int) -> list[PlayerRow]:
        """Rows holding an order written for another turn."""
        return [p for p in self.players if p.typed and p.for_turn not in (turn, None)]


@dataclass
class Snapshot:
    """Everything one poll read, parsed."""

    record: EngineRecord
    positions: GvgPositions
    teams: tuple[TeamInput, TeamInput]
    orders_grids: tuple[Grid, Grid]

    def orders(self) -> TurnOrders:
        """The turn's orders as typed (parsed leniently); the engine checks them afterwards."""
        players: dict[str, PlayerOrder] = {}
        skills: list[tuple[Any, ...]] = [(), ()]
        turn = self.record.turn
        for i, team in enumerate(self.teams):
            team.problems = {}  # read afresh: calling this twice must not repeat a reason
            raw = team.raw(turn)
            for name, (dest, action, tele) in raw["players"].items():
                parsed = parse_order_cells(dest, action, tele)
                team.problems.setdefault(name, []).extend(parsed.problems)
                if parsed.order is not None:
                    players[name] = parsed.order
            captain = parse_captain_cells(list(raw["captain"]["skills"]), raw["captain"]["ready"])
            team.problems.setdefault("captain", []).extend(captain.problems)
            skills[i] = captain.skills
        return TurnOrders(players=players, skills=(skills[0], skills[1]))

    def ready(self) -> list[bool]:
        """Whether each team's captain has ticked ready for this turn."""
        out = []
        for team in self.teams:
            raw = team.raw(self.record.turn)
            out.append(parse_captain_cells(list(raw["captain"]["skills"]), raw["captain"]["ready"]).ready)
        return out


def read_snapshot(sheets: MatchSheets, template: SheetTemplate) -> Snapshot:
    """One batched read per spreadsheet, the layout checked, the orders parsed."""
    probe = GvgPositions.build(template, team_pair(sheets.seats), ((), ()), 0, 0)
    batch = ReadBatch()
    engine_range = probe.engine_read_range()
    batch.ask(sheets.engine, engine_range)
    for a1, _expected in probe.header_checks():
        batch.ask(sheets.board, a1)
    batch.ask(sheets.board, probe.board_title_row())
    width = probe.orders_width
    for i, team in enumerate(probe.teams):
        batch.ask(sheets.orders[i], team.orders_read_range(width))
        batch.ask(sheets.orders[i], team.pending_range())
    try:
        batch.run(sheets.write_order())
    except SheetError as exc:
        if type(exc) is not SheetError:
            raise  # access, availability: their message already says what to do
        # The match's ranges are fixed: a range that cannot be read means tabs are missing.
        raise SheetError(f"{exc}. If the match was never created, run sheets-gm init; if a tab was renamed or "
                         "deleted, run sheets-gm repair -c MATCH.toml, which rebuilds the layout and keeps the "
                         "match") from None

    engine_grid = batch.get(sheets.engine, engine_range)
    expect_row(engine_grid, 1, [template.headers.engine], template.tabs.engine)
    record = parse_record(engine_grid[1:], f"tab {template.tabs.engine!r}")
    if record.teams != team_pair(sheets.seats):
        raise LayoutDriftError(f"the match config names teams {sheets.seats} but the engine tab holds {record.teams}")
    for a1, expected in probe.header_checks():
        tab, _cells = split_a1(a1)
        expect_row(batch.get(sheets.board, a1), 1, expected, tab)
    title_row = batch.get(sheets.board, probe.board_title_row())
    if not any(_text(v) == template.headers.board for v in (title_row[0] if title_row else [])):
        raise LayoutDriftError(
            f"the layout has changed: tab {template.tabs.board!r} should say {template.headers.board!r} in row 1, "
            "right of the map, but does not; put it back, or run sheets-gm repair -c MATCH.toml, which rebuilds "
            "the layout and keeps the match and every typed order — nothing was written")

    state = record.state
    rosters = tuple(tuple(p.name for p in state.players if p.team == t) for t in (0, 1))
    rules = record.rules()
    positions = GvgPositions.build(template, team_pair(sheets.seats), (rosters[0], rosters[1]),
                                   rules.board.grid.width, rules.board.grid.height)
    inputs: list[TeamInput] = []
    grids: list[Grid] = []
    for i, team in enumerate(positions.teams):
        grid = batch.get(sheets.orders[i], probe.teams[i].orders_read_range(width))
        grids.append(grid)
        inputs.append(_team_input(team, grid, batch.get(sheets.orders[i], team.pending_range()), template, record))
    return Snapshot(record, positions, (inputs[0], inputs[1]), (grids[0], grids[1]))


def _team_input(team: TeamSheet, grid: Grid, pending_grid: Grid, template: SheetTemplate,
                record: EngineRecord) -> TeamInput:
    h = template.headers
    expect_row(grid, 1, [h.orders_title.format(team=team.team)], team.orders_tab)
    expect_row(grid, team.header_row, h.orders, team.orders_tab)
    players = []
    for i, name in enumerate(team.players):
        row = team.player_row(i)
        expect_row(grid, row, [name], team.orders_tab)
        inputs = [player_input(cell(grid, row, c)) for c in ORDER_COLUMNS]
        typed = parse_order_cells(*inputs).typed
        feedback = _text(cell(grid, row, team.feedback_col))
        players.append(PlayerRow(name, row, parse_turn(cell(grid, row, TURN_COLUMN)), inputs, feedback, typed))
    expect_row(grid, team.captain_header_row, h.captain, team.orders_tab)
    expect_row(grid, team.captain_row, [team.team], team.orders_tab)
    cap = team.captain_row
    cols = CaptainColumns.from_header(h.captain)
    captain = CaptainRow(cap, parse_turn(cell(grid, cap, TURN_COLUMN)),
                         [player_input(cell(grid, cap, c)) for c in cols.skills],
                         player_input(cell(grid, cap, cols.ready)), _text(cell(grid, cap, cols.feedback)))
    expect_row(pending_grid, 1, h.archive, team.archive_tab)
    pending = None
    if parse_turn(cell(pending_grid, 2, 0)) == record.turn and not record.state.finished:
        try:
            found = json.loads(_text(cell(pending_grid, 2, 1)))
            if isinstance(found, dict) and found.get("turn") == record.turn:
                pending = found
        except json.JSONDecodeError:
            raise LayoutDriftError(f"tab {team.archive_tab!r} cell B2 holds unreadable orders; "
                                   "restore it from the history row of the same turn") from None
    return TeamInput(team, players, captain, pending)
