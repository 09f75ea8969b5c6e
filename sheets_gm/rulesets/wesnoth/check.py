"""Checking a Wesnoth player's rows: the verdicts resolving them in order gives, on a copy of the state.

Each row is checked on the board as the rows before it leave it (a unit moved away frees a hex, a
recruit spends gold), so the check is the resolution itself, keeping only its verdicts.
"""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import Verdict
from sheets_gm.rulesets.wesnoth.orders import TurnOrders
from sheets_gm.rulesets.wesnoth.resolve import resolve_turn
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import WesnothState

#: A move the check accepts is one that will be made: said so before anything moved (the resolution says what did).
_WILL = (("moved to ", "will move to "), ("stopped on ", "will stop on "))


def will_happen(message: str) -> str:
    """A move's verdict said before the move is made.

    >>> will_happen("moved to P19 (4 moves)")
    'will move to P19 (4 moves)'
    >>> will_happen("Thief costs 4 gold; Ann has 3")
    'Thief costs 4 gold; Ann has 3'
    """
    for done, will in _WILL:
        if message.startswith(done):
            return will + message[len(done):]
    return message


def check_orders(rules: WesnothRules, state: WesnothState, orders: TurnOrders, dice: TurnDice) -> list[Verdict]:
    """A verdict per part of every row (``state`` unchanged), a move accepted said as one that will be made."""
    return [replace(v, message=will_happen(v.message)) if v.part == "move" and v.accepted else v
            for v in resolve_turn(rules, state, orders, dice).verdicts]
