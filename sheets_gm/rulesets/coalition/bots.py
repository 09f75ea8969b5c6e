"""Bots for both sides, and the automatic stand-in judge (simulate, demo, and where the GM names it: practice).

A side bot raids weak armies with its bottom-ranked armies, engages enemies it outnumbers,
holds enemy structures it stands in (to destroy them) and features, and otherwise marches
toward the nearest enemy structure or feature it does not control, through a portal when the
plane has none left. Each order is checked as a player's would be, and a refused one is
dropped (the army holds), so a bot never gives a refused order.

The stand-in judge is no judge: it decides each battle by a roll weighted by the sides'
units (+10% for a colour bonus), takes fixed shares of the slots as losses, and tries a
kill now and then; every result it enters says so in the log.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import OrderWord, Phase, Side, StructureKind, enemy_of
from sheets_gm.rulesets.coalition.orders import ArmyIndex, Move, read_order
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import Army, ArmyOrder, BattleResult, CoalitionOrders, CoalitionState

WINNER_SHARE = 10  # percent of each slot the stand-in judge takes from the winners
LOSER_SHARE = 25  # ... and from the losers


@dataclass(frozen=True, slots=True)
class CoalitionBot:
    """Plays a side's orders window, or the judge's results window with the stand-in judge."""

    board: Board
    settings: CoalitionSettings
    seed: str
    aggression: float = 0.8  # the chance of taking a raid or an engagement it may take

    def orders(self, state: CoalitionState, seat: str, dice: kit.TurnDice) -> CoalitionOrders:
        """The seat's part of the open window."""
        if seat == kit.JUDGE:
            if state.phase is not Phase.RESULTS:
                return CoalitionOrders()
            return CoalitionOrders(results=stand_in_results(self.settings, state, dice))
        if state.phase is not Phase.ORDERS or seat not in (Side.COALITION.value, Side.PHYREXIA.value):
            return CoalitionOrders()
        return CoalitionOrders(orders={seat: side_orders(self.board, self.settings, state, Side(seat),
                                                         random.Random(f"{self.seed}/{state.turn}"),
                                                         self.aggression)})


def _reach(board: Board, start: str, steps: int) -> dict[str, int]:
    """Places within ``steps`` orthogonal steps, with their distance (the plane's own)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] == steps:
            continue
        for n in board.neighbours(here):
            if n not in seen:
                seen[n] = seen[here] + 1
                queue.append(n)
    return seen


def side_orders(board: Board, settings: CoalitionSettings, state: CoalitionState, side: Side, rng: random.Random,
                aggression: float) -> dict[str, ArmyOrder]:
    """One side's orders for the turn (every one accepted by ``read_order``)."""
    index = ArmyIndex(state)
    in_battle = index.fighting
    battles = set(index.battles)
    where: dict[str, Army] = {a.at: a for a in state.armies}
    enemy = enemy_of(side)
    goals_by_plane: dict[str, list[str]] = {}
    for s in board.structures:
        if s.name in state.destroyed:
            continue
        hostile = s.owner() is enemy
        open_feature = s.kind is StructureKind.FEATURE and state.control.get(s.name) != side.value
        if hostile or open_feature:
            goals_by_plane.setdefault(s.at.split(" ")[0], []).append(s.at)
    claimed: set[str] = set(battles)
    targeted: set[str] = set()
    raids = 0
    out: dict[str, ArmyOrder] = {}
    mine = sorted((a for a in state.armies if a.side is side and a.name not in in_battle), key=lambda a: a.name)
    for army in mine:
        plane = army.at.split(" ")[0]
        here = board.structure_at.get(army.at)
        if here is not None and here.name not in state.destroyed and (here.owner() is enemy or (
                here.kind is StructureKind.FEATURE and rng.random() < 0.7)):
            claimed.add(army.at)
            continue
        reach = _reach(board, army.at, settings.max_steps)
        order: ArmyOrder | None = None
        foes = [where[p] for p in reach if p in where and where[p].side is not side and where[p].name not in in_battle
                and where[p].name not in targeted and p not in claimed]
        if foes and rng.random() < aggression:
            if army.rank <= 2 and army.highest >= settings.raid_min_squad and raids < settings.max_raids_per_side:
                weak = [f for f in foes if f.total < settings.raid_target_max and f.at not in board.structure_at]
                if weak:
                    prey = min(weak, key=lambda f: (f.total, f.name))
                    order = ArmyOrder(to=board.short(prey.at), word=OrderWord.RAID.value, target=prey.name)
                    raids += 1
            if order is None:
                beatable = [f for f in foes if army.total * 5 >= f.total * 4]
                if beatable:
                    prey = min(beatable, key=lambda f: (reach[f.at], f.total, f.name))
                    order = ArmyOrder(to=board.short(prey.at), word=OrderWord.ENGAGE.value, target=prey.name)
        if order is None:
            goals = goals_by_plane.get(plane) or [s.at for s in board.structures if s.kind is StructureKind.PORTAL
                                                  and s.at.startswith(plane + " ")]
            if goals:
                free = [p for p in reach if p not in where and p not in claimed]
                if free:
                    aims = tuple(goals)
                    best = min(free, key=lambda p: (board.goal_gap(p, aims), reach[p], board.order[p]))
                    if best != army.at:
                        order = ArmyOrder(to=board.short(best))
        if order is None:
            claimed.add(army.at)
            continue
        read = read_order(board, settings, state, index, side.value, army.name, order)
        if isinstance(read, Move):
            out[army.name] = order
            claimed.add(read.end)
            if read.target:
                targeted.add(read.target)
        else:
            claimed.add(army.at)
    return out


def stand_in_results(settings: CoalitionSettings, state: CoalitionState, dice: kit.TurnDice) -> dict[str, BattleResult]:
    """A result for every open battle, by a roll weighted by units and colour bonus (``standin/<square>``)."""
    armies = state.by_name()
    out: dict[str, BattleResult] = {}
    for b in state.battles:
        if not b.announced:
            continue  # made by a bump: fought next turn
        fighting = [armies[n] for n in b.armies if n in armies]
        sides = sorted({a.side for a in fighting}, key=lambda s: s.value)
        if len(sides) < 2:
            continue
        weights = [sum(a.total * (11 if a.colour_bonus else 10) for a in fighting if a.side is s) + 1 for s in sides]
        roll = dice.roll(f"standin/{b.at}", 1000)
        mark = roll * sum(weights) / 1000
        winner = sides[-1]
        for s, w in zip(sides, weights, strict=True):
            if mark <= w:
                winner = s
                break
            mark -= w
        losses = {a.name: tuple(u * (WINNER_SHARE if a.side is winner else LOSER_SHARE) // 100 for u in a.units)
                  for a in fighting}
        killer = next(a for a in fighting if a.side is winner)
        kill = ""
        left = killer.highest - losses[killer.name][3]
        if left >= settings.kill_squad and (b.type.value == "raid" or dice.d6(f"standin-kill/{b.at}") <= 2):
            kill = "roll"
        out[b.at] = BattleResult(winner=winner.value, losses=losses, kill=kill, stand_in=True)
    return out
