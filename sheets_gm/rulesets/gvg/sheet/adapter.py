"""GvG's sheets on the generic sync: what ``templates/gvg/layout.yaml`` cannot say.

A team's orders tab holds a row per player of the team (destination, action, teleport; the move
roll shown) and the captain's row (command skills, then Ready). Cells are read leniently by
``sheet.inputs`` (``f7`` is F7, an empty action is ``act``); a cell that cannot be read is named in
the row's feedback and left out of the order, the rest of the row still counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.combat import Side
from sheets_gm.rulesets.gvg.enums import Skill, Status
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.rules import GvgRules, move_roll
from sheets_gm.rulesets.gvg.sheet.draw import (
    TILE_WIDTH,
    GvgLook,
    coin_fill,
    legend,
    map_fills,
    map_grid,
    players_rows,
    status_line,
    team_panel,
)
from sheets_gm.rulesets.gvg.sheet.read import parse_captain_cells, parse_order_cells
from sheets_gm.rulesets.gvg.state import GvgState
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.sheets.spec import SEAT_ROWS

SKILL_COLUMNS = tuple(f"skill{i}" for i in range(1, 8))
TILE_HEIGHT = 56  # pixels: the three lines of text a tile shows (draw.TILE_LINES)


@dataclass(frozen=True)
class GvgSheet(kit.SheetAdapter[GvgState, TurnOrders]):
    """The GvG sheet adapter."""

    rules: GvgRules

    @property
    def spec(self) -> kit.SheetSpec:
        """``templates/gvg/layout.yaml``."""
        return sheet_spec("gvg")

    @property
    def look(self) -> GvgLook:
        """The board's signs and colours."""
        return GvgLook.of(self.spec)

    def rows(self, state: GvgState, seat: str, table: kit.InputTable) -> list[str]:
        """The team itself (the captain's row), or every player of the team in roster order (a knocked-down
        player keeps its row: the feedback says it cannot act)."""
        if table.rows == SEAT_ROWS:
            return [seat]
        team = state.team_index(seat) if seat in state.teams else -1
        return [p.name for p in state.players if p.team == team]

    def idle_row_reason(self, state: GvgState, seat: str, table: kit.InputTable, subject: str) -> str:
        """A knocked-down player's row: she takes no orders this turn, and stands again the next."""
        if table.rows == SEAT_ROWS or state.finished:
            return ""
        player = next((p for p in state.players if p.name == subject), None)
        if player is None or player.status is not Status.KNOCKED_DOWN:
            return ""
        return (f"{subject} is knocked down until turn {state.turn + 1}: no orders for {subject} in turn "
                f"{state.turn} (a row typed here is refused).")

    def shown(self, state: GvgState, seat: str, table: kit.InputTable, subject: str,
              dice: kit.TurnDice) -> Mapping[str, kit.CellValue]:
        """A player's move roll for the open turn; on the captain's row, the other team's rolls (public, as the
        rolls are known to both teams before they order)."""
        if table.rows == SEAT_ROWS:
            team = state.team_index(seat) if seat in state.teams else -1
            rolls = [(p.name, move_roll(state, dice, p)) for p in state.players if p.team != team]
            return {"rolls": " · ".join(f"{name} {roll}" for name, roll in rolls if roll != "")}
        try:
            return {"roll": move_roll(state, dice, state.player(subject))}
        except KeyError:
            return {}

    def read_orders(self, state: GvgState, window: kit.Window, seat: str,
                    rows: Mapping[str, Sequence[kit.TypedRow]]) -> kit.SeatInput[TurnOrders]:
        """The team's player orders and its captain's skills; unreadable cells become problems by row."""
        players: dict[str, PlayerOrder] = {}
        problems: dict[str, list[str]] = {}
        for row in rows.get("players", []):
            parsed = parse_order_cells(row.values.get("destination"), row.values.get("action"),
                                       row.values.get("teleport"))
            if parsed.problems:
                problems[row.subject] = list(parsed.problems)
            if parsed.order is not None:
                players[row.subject] = parsed.order
        ready = False
        skills: tuple[Skill, ...] = ()
        for row in rows.get("captain", []):
            captain = parse_captain_cells([row.values.get(k) for k in SKILL_COLUMNS], row.values.get("ready"))
            if captain.problems:
                problems[row.subject] = list(captain.problems)
            skills, ready = captain.skills, captain.ready
        slot = state.team_index(seat) if seat in state.teams else 0
        pair = (skills, ()) if slot == 0 else ((), skills)
        return kit.SeatInput(TurnOrders(players=players, skills=pair), problems, ready=ready)

    def typed_cells(self, state: GvgState, window: kit.Window, seat: str,
                    orders: TurnOrders) -> Mapping[str, Mapping[str, Mapping[str, kit.CellValue]]]:
        """What a team types for its part of ``orders``: a row per player with an order, its captain's skills."""
        slot = state.team_index(seat)
        mine = {p.name for p in state.players if p.team == slot}
        rows: dict[str, Mapping[str, kit.CellValue]] = {}
        for name, order in orders.players.items():
            if name in mine:
                rows[name] = {"destination": order.move.label if order.move else "",
                              "action": order.action.value,
                              "teleport": order.teleport.label if order.teleport else ""}
        skills = orders.skills[slot]
        out: dict[str, Mapping[str, Mapping[str, kit.CellValue]]] = {"players": rows}
        if skills:
            out["captain"] = {seat: {k: s.display for k, s in zip(SKILL_COLUMNS, skills, strict=False)}}
        return out

    def drawings(self, state: GvgState) -> Sequence[kit.BoardDrawing]:
        """The board, the one public tab."""
        return (self.board(state),)

    def board(self, state: GvgState) -> kit.BoardDrawing:
        """The map from A1, a blank row, then every player (the move rolls are in the orders tabs: drawing
        them here would need the match's dice)."""
        look = self.look
        grid = self.rules.board.grid
        values = map_grid(look, self.rules, state)
        listing = players_rows(state)
        values += [[], *listing]
        top = grid.height + 2  # the players' header row (1-based)
        fills = [*map_fills(look, self.rules, state.teams),
                 kit.Fill(kit.cells(0, top, len(listing[0]) - 1, top), self.spec.colours.header, bold=True)]
        return kit.BoardDrawing(values, tuple(fills), dict.fromkeys(range(grid.width), TILE_WIDTH),
                                dict.fromkeys(range(grid.height), TILE_HEIGHT), legend(look, state.teams),
                                conditional_fills=(coin_fill(look, self.rules),),
                                print_headings=True,  # its tiles are cells: the letters and numbers name them
                                print_fewest=True)

    def status(self, state: GvgState, window: kit.Window | None, outcome: kit.Outcome | None) -> str:
        """Turn, coins and ballista charges per team, the boss; or the result."""
        return status_line(self.look, state, self.rules.settings.max_turns)

    def event_seats(self, event: kit.Event, states: Sequence[Any]) -> frozenset[str]:
        """The teams a battle or a structure's hit concerns: both sides of a battle (its data names the winner
        alone; the loser's players are in its sides), and the owner of a structure hit or destroyed (its data
        names the structure's id, ``bulwark@E4``). Every GvG event is public: this only chooses the Views."""
        teams: set[str] = set()
        for state in states:
            if not isinstance(state, GvgState):
                continue
            for side in event.data.get("sides", ()):
                if isinstance(side, Side):
                    teams.add(state.teams[side.team])
            key = event.data.get("structure")
            teams.update(state.teams[s.team] for s in state.structures.values() if key is not None and s.key == key)
        return frozenset(teams)

    def panel(self, state: GvgState, seat: str) -> kit.Grid:
        """A team's coins, command skills (cost, when each can be activated) and players (``draw.team_panel``).
        Nothing here is secret (a team's orders stay in its own orders tab): it is what
        the team plans from, gathered on its first screen. The GM's: each team's coins and charges, and every player."""
        if seat in state.teams:
            return team_panel(self.rules, state, state.team_index(seat))
        teams: kit.Grid = [["Team", name, "Coins", state.coins[i], "Ballista charges", state.ballista[i]]
                           for i, name in enumerate(state.teams)]
        return [*teams, [], *players_rows(state)]
