"""Resolving a Coalition window, one module per phase of the seed's turn. The orders window's movement
(``moves``), in the rulings' order: ``raids``, ``intercepts`` and mutual engages, all ``other_moves`` at once,
``reinforcements`` (transfers, mercenaries), then the battles ``announce``d (``work`` holds what the phases
share); the judge's battle results (``judging``); then the end of the turn: healing, structures, points and the
end of the round (``upkeep``)."""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import EventKind, Phase
from sheets_gm.rulesets.coalition.resolve.judging import resolve_results
from sheets_gm.rulesets.coalition.resolve.moves import resolve_orders
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import CoalitionOrders, CoalitionState


def resolve_turn(board: Board, settings: CoalitionSettings, state: CoalitionState, orders: CoalitionOrders,
                 dice: kit.TurnDice) -> kit.Resolution[CoalitionState]:
    """The open window resolved: movement and the battles announced (orders window), or the judge's results and
    the end of the turn (results window); a result the judge must type again is said to the judge alone."""
    if state.phase is Phase.ORDERS:
        new, events = resolve_orders(board, settings, state, orders, dice)
        return kit.Resolution(new, events)
    if state.phase is Phase.RESULTS:
        new, events, refused = resolve_results(board, settings, state, orders.results, dice)
        notes = [kit.Event(state.turn, EventKind.RESULT, f"refused: {why}", {"refused": why},
                           audience=frozenset({kit.JUDGE})) for why in refused]
        return kit.Resolution(new, notes + events)
    return kit.Resolution(replace(state), [])
