"""The Wesnoth sheet adapter: the generic sync's questions answered for this game.

Layout: ``templates/wesnoth/layout.yaml``. Reading rows and typing orders: ``sheet.read``. The
public tabs (the hex board, the Units tab): ``sheet.draw``. Here: which rows each table holds,
what sheets-gm shows in them, the status line and each player's View panel. The game hides
nothing but the orders not yet resolved, so every tab is drawn from the state itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.rulesets.wesnoth.movement import reachable
from sheets_gm.rulesets.wesnoth.orders import TurnOrders, recruit_row
from sheets_gm.rulesets.wesnoth.settings import ResolveMode
from sheets_gm.rulesets.wesnoth.sheet.draw import BoardDrawer
from sheets_gm.rulesets.wesnoth.sheet.read import (
    RECRUIT,
    RECRUIT_ROWS,
    SEAT,
    STANDING_ROWS,
    STANDING_SUFFIX,
    UNITS,
    read_seat,
    standing_row,
    typed_cells,
)
from sheets_gm.rulesets.wesnoth.state import DAY, NIGHT, Unit, WesnothState
from sheets_gm.sheets.spec import ColumnKind

if TYPE_CHECKING:
    from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset


#: The View's unit table: the header of its wide column, and how the second line of a unit's cell there starts.
UNIT_TEXT_HEADER = "Attacks, then where it can move now (a stop-free move)"
REACH_PREFIX = "can move to: "


#: Characters a line of the View's wide column C (600 px) holds at the sheet's font, with room to spare.
WIDE_CHARS = 78


def wide_lines(text: str, separator: str = ", ", width: int = WIDE_CHARS) -> list[str]:
    """``text`` as the lines of column C it takes, broken after a ``separator``, never inside an item.

    >>> wide_lines("A1–3, B2, C4–9", width=9)
    ['A1–3, B2,', 'C4–9']
    """
    lines: list[str] = []
    line = ""
    for item in text.split(separator):
        joined = f"{line}{separator}{item}" if line else item
        if line and len(joined) > width:
            lines.append(line + separator.rstrip())
            line = item
        else:
            line = joined
    return [*lines, line]


def _labelled(label: str, short: str, long: str) -> kit.Grid:
    """A panel line: a label, a short value, a long text in column C over the rows it needs."""
    first, *rest = wide_lines(long)
    more: kit.Grid = [["", "", line] for line in rest]
    return [[label, short, first], *more]


def hex_runs(hexes: Sequence[Hex]) -> str:
    """Hexes column by column, each run of rows written once: ``K6, L1–7, M1–3, M5``."""
    runs: list[str] = []
    for col in sorted({h.col for h in hexes}):
        rows = sorted(h.row for h in hexes if h.col == col)
        start = prev = rows[0]
        for row in [*rows[1:], None]:
            if row is not None and row == prev + 1:
                prev = row
                continue
            first, last = Hex(col, start).label, Hex(col, prev).label
            runs.append(first if start == prev else f"{first}–{last.lstrip('ABCDEFGHIJKLMNOPQRSTUVWXYZ')}")
            if row is not None:
                start = prev = row
    return ", ".join(runs)


BATCH_TITLES = {
    UNITS: "Your units · a row per unit that acts this turn: every row resolves together when you tick End turn "
           "(or at the deadline), in the Order column's order",
    SEAT: "End turn resolves every row you have written and passes the turn",
}


def batch_spec(spec: kit.SheetSpec) -> kit.SheetSpec:
    """The layout of a match that resolves a turn in one batch: no Go column (it would do nothing) and the titles
    of the units and seat tables without step mode's words."""
    inputs = tuple(table.model_copy(update={
        "title": BATCH_TITLES.get(table.rows, table.title),
        "columns": tuple(c for c in table.columns if c.kind is not ColumnKind.TICK)})
        for table in spec.inputs)
    return spec.model_copy(update={"inputs": inputs})


@dataclass(frozen=True)
class WesnothSheet(kit.SheetAdapter[WesnothState, TurnOrders]):
    """The Wesnoth board game's sheet: a row per unit with its Go box, the leader's recruits, standing
    advancement choices and End turn; the hex board and the Units tab."""

    ruleset: WesnothRuleset

    @cached_property
    def spec(self) -> kit.SheetSpec:
        """``templates/wesnoth/layout.yaml``; under ``resolve = "batch"`` without the Go column and with titles that
        speak of End turn alone (``batch_spec``)."""
        spec = sheet_spec("wesnoth")
        return batch_spec(spec) if self.ruleset.settings.resolve is ResolveMode.BATCH else spec

    @cached_property
    def drawer(self) -> BoardDrawer:
        """The match's board and Units tab drawer."""
        return BoardDrawer(self.ruleset.rules, self.spec)

    def _table(self, name: str) -> kit.InputTable:
        return next(t for t in self.spec.inputs if t.name == name)

    # -- rows -----------------------------------------------------------------------------------
    def rows(self, state: WesnothState, seat: str, table: kit.InputTable) -> list[str]:
        """Her units (the order and standing tables), her leader's recruit rows while she has a leader, or
        her seat."""
        if table.rows == SEAT:
            return [seat]
        mine = [u for u in state.units if u.owner == seat]
        if table.rows == UNITS:
            return [u.id for u in mine]
        if table.rows == STANDING_ROWS:
            return [standing_row(u.id) for u in mine]
        if table.rows == RECRUIT_ROWS and any(u.leader for u in mine):
            return [recruit_row(n) for n in range(1, self._recruit_rows(state, seat) + 1)]
        return []

    def _recruit_rows(self, state: WesnothState, seat: str) -> int:
        """Her recruit rows: as many as her castle has hexes (she recruits no more in one step), the layout's
        ``min_rows`` at least."""
        player = state.player(seat)
        castle = len(self.ruleset.rules.board.castle_of(player.slot)) if player is not None else 0
        return max(self._table(RECRUIT).min_rows, castle)

    def shown(self, state: WesnothState, seat: str, table: kit.InputTable, subject: str,
              dice: kit.TurnDice) -> Mapping[str, kit.CellValue]:
        """A unit's type, hex, hit points and moves; what it may advance to; the seat's gold and villages."""
        rules = self.ruleset.rules
        if table.rows == SEAT:
            player = state.player(seat)
            villages = sum(1 for _, owner in state.villages if owner == seat)
            return {"gold": f"{player.gold} gold · {villages} village{'s' if villages != 1 else ''}"
                    if player else ""}
        uid = subject.removesuffix(STANDING_SUFFIX) if table.rows == STANDING_ROWS else subject
        unit = state.unit(uid)
        if unit is None:
            return {}
        utype = rules.utype(unit)
        if table.rows == STANDING_ROWS:
            cost = rules.advance_cost(utype.level)
            options = f"{' or '.join(utype.advances_to)} ({cost} gold)" if utype.advances_to else "— (it does not)"
            return {"options": options}
        return {"type": utype.name, "at": unit.at.label, "hp": f"{utype.hitpoints - unit.wounds}/{utype.hitpoints}",
                "moves": self._moves(state, unit)}

    def _moves(self, state: WesnothState, unit: Unit) -> str:
        if unit.fresh:
            return "next turn"
        if unit.id in state.acted:
            return "acted"
        return str(self.ruleset.rules.utype(unit).moves)

    # -- orders ---------------------------------------------------------------------------------
    def read_orders(self, state: WesnothState, window: kit.Window, seat: str,
                    rows: Mapping[str, Sequence[kit.TypedRow]]) -> kit.SeatInput[TurnOrders]:
        """Her rows for her turn (``sheet.read``)."""
        return read_seat(self.ruleset.rules, state, window, seat, rows)

    def placed_verdicts(self, verdicts: Sequence[kit.Verdict],
                        seat_input: kit.SeatInput[TurnOrders] | None) -> list[kit.Verdict]:
        """The check's verdicts, and a copy of each recruit's under its recruit row (a recruit's verdict is its
        leader's: the n-th is the n-th recruit's, as ``engine.refused_rows`` reads them; one refusal for them all,
        every recruit row's)."""
        out = list(verdicts)
        if seat_input is None:
            return out
        for order in seat_input.orders.rows:
            entries = len(order.recruit)
            said = [v for v in verdicts if v.subject == order.unit and v.part == "recruit"]
            if not entries or not said:
                continue
            if len(said) < entries and not any(v.accepted for v in said):
                said = said[:1] * entries
            out += [replace(v, subject=recruit_row(n)) for n, v in enumerate(said[:entries], start=1)]
        return out

    def typed_cells(self, state: WesnothState, window: kit.Window, seat: str,
                    orders: TurnOrders) -> Mapping[str, Mapping[str, Mapping[str, kit.CellValue]]]:
        """What she would type for ``orders`` (``sheet.read.typed_cells``)."""
        return typed_cells(window, seat, orders, self._recruit_rows(state, seat))

    # -- the public tabs ------------------------------------------------------------------------
    def drawings(self, state: WesnothState) -> Sequence[kit.BoardDrawing]:
        """The hex board (the layout's board tab), then the Units tab."""
        return (self.drawer.board(state), self.drawer.units_tab(state))

    def board_tab_before(self, state: WesnothState, deadline: str) -> Sequence[kit.BoardDrawing]:
        """The hex board alone (the layout's board tab): not the Units tab."""
        return (self.drawer.board(state),)

    def status(self, state: WesnothState, window: kit.Window | None, outcome: kit.Outcome | None) -> str:
        """Round, time of day, whose turn it is (and who is next), and each player's gold and villages."""
        villages: dict[str, int] = {}
        for _, owner in state.villages:
            villages[owner] = villages.get(owner, 0) + 1
        scores = " | ".join(f"{p.name}: out" if p.out else
                            f"{p.name}: {p.gold} gold, {villages.get(p.name, 0)} village"
                            f"{'s' if villages.get(p.name, 0) != 1 else ''}" for p in state.players)
        if outcome is not None or window is None:
            return f"Match over: {outcome.text if outcome else 'no winner'} · {scores}"
        tod = state.time_of_day
        part = " (day)" if tod in DAY else " (night)" if tod in NIGHT else ""
        acting = state.acting_player.name
        later = [p.name for p in state.players[state.acting + 1:] + state.players[:state.acting]
                 if not p.out and p.name != acting]
        nxt = f", {later[0]} next" if later else ""
        return f"Round {state.round} · {tod}{part} · {acting}'s turn{nxt} · {scores}"

    def panel(self, state: WesnothState, seat: str) -> kit.Grid:
        """A player's units with their numbers, her gold, villages and what she may recruit; the GM's: every
        player's."""
        if seat == kit.GM:
            out: kit.Grid = [["Player", "Team", "Faction", "Gold", "Villages", "Units", "Leader"]]
            for p in state.players:
                units = [u for u in state.units if u.owner == p.name]
                leader = next((f"{u.id} on {u.at.label}" for u in units if u.leader), "dead")
                villages = sum(1 for _, o in state.villages if o == p.name)
                out.append([p.name, state.team_label(p.team), p.faction, p.gold, villages, len(units),
                            "out" if p.out else leader])
            return out
        return self._own_panel(state, seat)

    def _own_panel(self, state: WesnothState, seat: str) -> kit.Grid:
        rules = self.ruleset.rules
        settings = rules.settings
        player = state.player(seat)
        if player is None:
            return []
        faction = rules.tables.factions.get(player.faction)
        own = ", ".join(faction.recruits) if faction else ""
        keep = rules.board.keeps.get(player.slot)
        taken = {u.at for u in state.units}
        free = [h.label for h in rules.board.castle_of(player.slot) if h not in taken]
        villages = [h.label for h, o in state.villages if o == seat]
        # A label, a short value, then the long texts in column C, the View's wide one, laid out over as many rows
        # as they need (``wide_lines``): the table reads alike on screen, in LibreOffice and on paper.
        out: kit.Grid = [["Your gold", f"{player.gold} gold", f"{state.team_label(player.team)} · {player.faction}"]]
        out += _labelled("Villages", str(len(villages)), ", ".join(villages) or "none yet")
        out += _labelled("Recruits", f"{settings.faction_cost} gold each", own)
        out += _labelled("Mercenaries", f"{settings.mercenary_cost} gold each",
                         ", ".join(rules.tables.mercenaries(player.faction)))
        out += _labelled("Castle", f"keep {keep.label if keep else '—'}",
                         f"free castle hexes: {', '.join(free) or 'none'}")
        # What each unit advances to is in the orders tab's standing choices.
        out += [[], ["Your unit", "Type", UNIT_TEXT_HEADER, "Hex", "HP", "Moves", "Hit on here"]]
        for u in state.units:
            if u.owner != seat:
                continue
            utype = rules.utype(u)
            attacks = wide_lines("; ".join(a.label for a in utype.attacks), "; ")
            reach = wide_lines(REACH_PREFIX + self._reach(state, u))
            out.append([u.id + (" (leader)" if u.leader else ""), utype.name, attacks[0], u.at.label,
                        f"{utype.hitpoints - u.wounds}/{utype.hitpoints}", self._moves(state, u),
                        f"{rules.defence(u)}+"])
            out += [["", "", line] for line in [*attacks[1:], *reach]]
        return out

    def _reach(self, state: WesnothState, unit: Unit) -> str:
        """The hexes ``unit`` could end a move on now, column by column (what ``plan_move`` would accept without
        a zone of control or a village stopping it on the way), or why it cannot move."""
        if unit.fresh or unit.id in state.acted:
            return "— (" + self._moves(state, unit) + ")"
        hexes = [h for h in reachable(self.ruleset.rules, state, unit) if h != unit.at]
        return hex_runs(hexes) or "none: it is hemmed in"
