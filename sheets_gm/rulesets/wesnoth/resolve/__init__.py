"""Resolving a player's order rows one after the other, then the end of her turn and of the round.

Each row is checked against the board as it is when the row resolves: a row that has become
impossible (its target died, its hex filled) is skipped with the reason and changes nothing.
Every verdict names the unit and the part of its order, with what would be accepted.

One module per part of a turn: a row (``rows``), its ``moves``, ``fights``, ``recruits`` and ``rest``, and
the end of the turn, the round and the match (``upkeep``); the turn being resolved is a ``work.TurnWork``
passed to each. A bot that writes a turn resolves each row as it keeps it; what it hands over
(``ResolvedAhead``) spares resolving the same turn twice."""

from __future__ import annotations

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.orders import TurnOrders
from sheets_gm.rulesets.wesnoth.resolve.rows import resolve_row, standing_choice
from sheets_gm.rulesets.wesnoth.resolve.upkeep import end_turn
from sheets_gm.rulesets.wesnoth.resolve.work import TurnWork
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import WesnothState


def resolve_turn(rules: WesnothRules, state: WesnothState, orders: TurnOrders, dice: kit.TurnDice
                 ) -> kit.Resolution[WesnothState]:
    """The rows resolved in order (and the turn ended if ``orders.end_turn``): the new state, the events
    and a verdict per part of every row (``Resolution.verdicts``)."""
    work = TurnWork(rules, state, dice)
    _run(work, orders)
    return work.resolution()


def _run(work: TurnWork, orders: TurnOrders) -> None:
    """Record her standing advancement choices, resolve the rows in order, then end the turn if the orders
    say so."""
    for uid, choice in orders.advance_choices:
        standing_choice(work, uid, choice)
    for row in orders.rows:
        resolve_row(work, row)
    if orders.end_turn and not work.finished:
        end_turn(work)


class ResolvedAhead:
    """The resolution of the last turn a bot wrote by resolving each row as it kept it, then ending the turn, as
    ``resolve_turn`` does: a caller that resolves those very orders takes it from here instead of resolving the
    turn again. Only the very state and dice objects the bot was given count (orders are compared by value), so
    a turn read back from a sheet or a store, or dealt new dice, is always resolved afresh."""

    def __init__(self) -> None:
        self._kept: tuple[WesnothState, TurnOrders, kit.TurnDice, kit.Resolution[WesnothState]] | None = None

    def keep(self, state: WesnothState, orders: TurnOrders, dice: kit.TurnDice, resolution: kit.Resolution[WesnothState]
             ) -> None:
        """Hand over the resolution of ``orders`` on ``state`` with ``dice`` (the last one kept is replaced)."""
        self._kept = (state, orders, dice, resolution)

    def take(self, state: WesnothState, orders: TurnOrders, dice: kit.TurnDice) -> kit.Resolution[WesnothState] | None:
        """The resolution kept for exactly these, once; else None."""
        kept = self._kept
        if kept is None or kept[0] is not state or kept[2] is not dice or kept[1] != orders:
            return None
        self._kept = None
        return kept[3]
