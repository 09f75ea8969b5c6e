"""Checking a Wesnoth player's rows: the verdicts resolving them in order gives, on a copy of the state.

Each row is checked on the board as the rows before it leave it (a unit moved away frees a hex, a
recruit spends gold), so the check is the resolution itself, keeping only its verdicts.
"""

from __future__ import annotations

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import Verdict
from sheets_gm.rulesets.wesnoth.orders import TurnOrders
from sheets_gm.rulesets.wesnoth.resolve import resolve_turn
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import WesnothState


def check_orders(rules: WesnothRules, state: WesnothState, orders: TurnOrders, dice: TurnDice) -> list[Verdict]:
    """A verdict per part of every row (``state`` unchanged)."""
    return resolve_turn(rules, state, orders, dice).verdicts
