"""Where a bumped army goes (a battle's loser, an army through a portal): the bump rule, written once.

A random free square of the eight around (keyed draw), else a square among them held by an
enemy army (into its square: an *intercepts* battle next turn), else, when every one holds
allies or battles, the next ring out (the squares two king steps away), and so on.
"""

from __future__ import annotations

from collections.abc import Mapping

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import Side


def place_around(board: Board, dice: kit.TurnDice, key: str, side: Side, centre: str,
                 occupants: Mapping[str, list[tuple[str, Side]]], battles: set[str]) -> tuple[str, str | None]:
    """The place the army of ``side`` is bumped to around ``centre`` and the enemy army it lands on (or None).

    ``occupants``: the armies (name, side) on each place now; ``battles``: the places holding a battle.
    The draw ``key`` is among the free squares of the first ring that has one (reading order), else
    among the enemy-held ones of that ring. With no square anywhere, the army stays on ``centre``."""
    for radius in range(1, board.max_radius + 1):
        ring = board.ring(centre, radius)
        if not ring:
            break
        free = [p for p in ring if not occupants.get(p) and p not in battles]
        if free:
            return (free[0] if len(free) == 1 and key not in dice.pins else dice.pick(key, free)), None
        enemy = [p for p in ring if p not in battles and occupants.get(p)
                 and all(s is not side for _, s in occupants[p])]
        if enemy:
            chosen = enemy[0] if len(enemy) == 1 and key not in dice.pins else dice.pick(key, enemy)
            return chosen, occupants[chosen][0][0]
    return centre, None
