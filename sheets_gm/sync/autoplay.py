"""Bots that type their orders into the sheets, as players and captains would (for the demo and tests)."""

from __future__ import annotations

from collections.abc import Sequence

from sheets_gm.engine.core.dice import TurnDice
from sheets_gm.rulesets.gvg.bots import Bot, TeamOrders
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate, default_template
from sheets_gm.rulesets.gvg.state import PlayerOrder
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sync.sheets import MatchSheets, WriteBatch
from sheets_gm.sync.snapshot import read_snapshot


def order_cells(order: PlayerOrder) -> list[CellValue]:
    """What a player types for ``order``: destination, action, teleport."""
    return [order.move.label if order.move else "", order.action.value,
            order.teleport.label if order.teleport else ""]


def type_bot_orders(sheets: MatchSheets, bots: Sequence[Bot], *, ready: bool = True,
                    template: SheetTemplate | None = None) -> list[TeamOrders]:
    """Read the match once, let each team's bot decide, and type its orders into the team's cells.

    Returns the orders typed. One read per spreadsheet and one write per team spreadsheet."""
    tpl = template or default_template()
    snap = read_snapshot(sheets, tpl)
    record = snap.record
    state = record.state
    rules = record.rules()
    dice = TurnDice(record.seed, state.turn)
    cols = snap.positions.captain
    typed: list[TeamOrders] = []
    batch = WriteBatch()
    for i, team in enumerate(snap.positions.teams):
        orders = bots[i].orders(rules, state, i, dice)
        typed.append(orders)
        backend = sheets.orders[i]
        for index, name in enumerate(team.players):
            order = orders.players.get(name)
            if order is not None:
                row = team.player_row(index)
                batch.put(backend, team.order_cells(row), [order_cells(order)])
        skills: list[CellValue] = [s.display for s in orders.skills[: len(cols.skills)]]
        skills += [""] * (len(cols.skills) - len(skills))
        batch.put(backend, cols.inputs_range(team), [[*skills, ready]])
    batch.run(sheets.write_order())
    return typed
