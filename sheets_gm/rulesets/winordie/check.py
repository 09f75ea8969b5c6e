"""Checking Win or Die's orders: the verdicts resolving them in order gives, on a copy of the state.

A row's fate depends on what the rows before it did (a unit moved, a token spent, a reaction that
stops the rest), so the check is the resolution itself, run on a copy, keeping only its verdicts. It runs on
blind dice (``TurnDice.blinded``): the feedback written before the window resolves tells no roll. An attack is
announced, not fought (nobody is hurt or killed, and the rows after it are judged as if it changed nothing).
"""

from __future__ import annotations

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.orders import WodOrders
from sheets_gm.rulesets.winordie.resolve import play_window
from sheets_gm.rulesets.winordie.rules import WodRules
from sheets_gm.rulesets.winordie.state import WodState


def check_orders(rules: WodRules, state: WodState, orders: WodOrders, dice: kit.TurnDice) -> list[kit.Verdict]:
    """A verdict per row, reaction and placement, as resolving them in order would give (``state`` unchanged)."""
    return play_window(rules, state, orders, dice.blinded()).verdicts
