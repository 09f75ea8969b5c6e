"""The objective bot's fights: structures protected, defenders assigned, attacks on the enemy's structures and tree."""

from __future__ import annotations

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.bots.base import _FAR, _TANK
from sheets_gm.rulesets.gvg.bots.plan import ObjectivePlan
from sheets_gm.rulesets.gvg.enums import Action, Skill, StructureKind
from sheets_gm.rulesets.gvg.rules import (
    movement_reach,
    skill_active,
)
from sheets_gm.rulesets.gvg.state import Player, Structure

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_ACT = Action.ACT
_BULWARK = StructureKind.BULWARK
_CITY_PROTECTION = Skill.CITY_PROTECTION
_FISH = StructureKind.FISH
_PICKUP = Action.PICKUP
_TREE_SPEED = Skill.TREE_SPEED


def protect_structures(plan: ObjectivePlan) -> None:
    """City Protection when a bulwark near its end or the unlocked fish has enemies on or near it."""
    if not plan.foes or not plan.captain.can_buy(_CITY_PROTECTION):
        return
    standing = plan.own_standing()
    bulwarks = plan.board.bulwarks[plan.team]
    fish_locked = bool(bulwarks) and all(not plan.state.structures[t].destroyed for t in bulwarks)
    for structure in standing:
        if structure.kind is _BULWARK and structure.hp > 2:
            continue
        if structure.kind is _FISH and fish_locked:
            continue
        dist = plan.g.dist(plan.enemy, structure.at)
        close = 0
        for f in plan.foes:
            d = dist.get(f.at, _FAR)
            close += 2 if d == 0 else d <= 3
        if close >= 2:
            plan.captain.buy(_CITY_PROTECTION)
            return


def assign_defenders(plan: ObjectivePlan, free: list[Player], tile: Coord, action: Action, count: int,
                     tanks_first: bool) -> int:
    """Give the job (tile, action) to the ``count`` nearest free players (the first of equals); how many got it."""
    dist = plan.g.dist(plan.team, tile)
    costs = [dist.get(p.at, _FAR) - (2 if tanks_first and p.role is _TANK else 0) for p in free]
    chosen: list[Player] = []
    for _ in range(min(count, len(free))):  # a stable sort's first ``count``, without the sort (``count`` is 1 or 2)
        i = costs.index(min(costs))
        del costs[i]
        chosen.append(free.pop(i))
    plan.give(chosen, tile, action, False, False)
    return len(chosen)


def plan_defence(plan: ObjectivePlan, free: list[Player], foe_carrier: Player | None, carrier: Player | None) -> None:
    """Up to two defenders (everyone when the enemy carrier is about to score first)."""
    st, team, enemy = plan.state, plan.team, plan.enemy
    budget = 2
    if foe_carrier is not None and free:
        tree_speed = skill_active(st, plan.s, enemy, _TREE_SPEED, st.turn)
        steps = movement_reach(plan.rules, st, foe_carrier, plan.dice, False, tree_speed).steps
        ahead = plan.g.advance(enemy, foe_carrier.at, steps, None, None)
        if not plan.board.enterable(team, ahead):
            ahead = foe_carrier.at
        foe_home = plan.g.home[enemy].get(foe_carrier.at, _FAR)
        own_home = plan.g.home[team].get(carrier.at, _FAR) if carrier is not None else _FAR
        count = len(free) if foe_home <= 6 and foe_home <= own_home else 2
        budget -= assign_defenders(plan, free, ahead, _ACT, count, False)
    own_tree = st.trees[team]
    if (budget > 0 and free and own_tree is not None and own_tree.carrier is None
            and own_tree.at != plan.board.fish[team]):
        budget -= assign_defenders(plan, free, own_tree.at, _PICKUP, 1, False)
    if budget <= 0 or not free:
        return
    if plan.g.structure_set[team].isdisjoint(plan.foe_tiles):  # most turns: no enemy on a structure of ours
        return
    for tile in plan.g.structures[team]:
        attackers = plan.foe_tiles.count(tile)
        if attackers and not st.structures[tile].destroyed:
            budget -= assign_defenders(plan, free, tile, _ACT, min(budget, attackers), True)
            if budget <= 0 or not free:
                return


def plan_attacks(plan: ObjectivePlan, free: list[Player], carrier_dest: Coord | None) -> None:
    """Everyone left goes for the objective of the moment."""
    if not free:
        return
    st, enemy, board = plan.state, plan.enemy, plan.board
    their_tree = st.trees[enemy]
    fish_tile = board.fish[enemy]
    fish = st.structures.get(fish_tile) if fish_tile is not None else None
    action, detour = _ACT, True
    target: Coord | None = None
    if carrier_dest is not None:
        target, detour = carrier_dest, False
    elif their_tree is not None and their_tree.carrier is None and (
        fish is None or fish.destroyed or their_tree.at != fish_tile
    ):
        target, action, detour = their_tree.at, _PICKUP, False
    elif fish is not None and not fish.destroyed and plan.fish_unlocked():
        target = fish.at
    else:
        bulwarks = [st.structures[t] for t in board.bulwarks[enemy] if not st.structures[t].destroyed]
        if bulwarks:
            target = focus_target(plan, bulwarks, free).at
    teleport = True
    if target is None:  # nothing of the enemy's to take (a map without its tree): guard our own
        target, detour, teleport = board.fish[plan.team], False, False
    if target is None:
        for p in free:
            plan.order(p, p.at, _ACT)
        free.clear()
        return
    plan.give(free, target, action, detour, teleport)
    free.clear()


def focus_target(plan: ObjectivePlan, bulwarks: list[Structure], attackers: list[Player]) -> Structure:
    """The bulwark the whole team attacks: near the attackers (99 steps at most each), weakest first."""
    best = bulwarks[0]
    best_score = _FAR
    tiles = [p.at for p in attackers]
    for b in bulwarks:
        dist = plan.g.dist(plan.team, b.at)
        score = 4 * b.hp * len(tiles)
        for at in tiles:
            d = dist.get(at, 99)
            score += d if d < 99 else 99  # ``min`` without the call
        if score < best_score:
            best, best_score = b, score
    return best
