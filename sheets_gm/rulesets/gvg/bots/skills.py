"""The objective bot's captain: movement and damage skills bought when they pay, and ballista teleports."""

from __future__ import annotations

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.bots.base import _FAR, pick
from sheets_gm.rulesets.gvg.bots.plan import ObjectivePlan
from sheets_gm.rulesets.gvg.enums import Skill, StructureKind
from sheets_gm.rulesets.gvg.orders import PlayerOrder

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_BALLISTA = Skill.BALLISTA
_BULWARK = StructureKind.BULWARK
_BULWARK_DAMAGE = Skill.BULWARK_DAMAGE
_FISH = StructureKind.FISH
_FISH_DAMAGE = Skill.FISH_DAMAGE
_PLAYER_SPEED = Skill.PLAYER_SPEED


def buy_movement_skills(plan: ObjectivePlan) -> None:
    """Ballista for players waiting on base; Player Speed now and then when all are far."""
    costs = plan.captain.costs
    if plan.captain.coins < min(costs[_BALLISTA], costs[_PLAYER_SPEED]):
        return
    waiting = sum(1 for p in plan.mine if plan.board.base_owner(p.at) == plan.team and plan.far(p, 7))
    if waiting and plan.state.ballista[plan.team] < waiting:
        plan.captain.buy(_BALLISTA, keep=plan.reserve)
    if (plan.jobs and plan.captain.coins >= 2
            and all(plan.far(p, 6) for p in plan.mine if p.name in plan.jobs) and plan.rng.random() < 0.4):
        plan.captain.buy(_PLAYER_SPEED, keep=max(1, plan.reserve))


def buy_damage_skills(plan: ObjectivePlan) -> None:
    """Bulwark / Fish Damage when rolling players attack one this turn and the attack may fail.

    It may fail when fewer than three attack, or enemies are close enough to defend;
    otherwise the coins are kept (for Tree Speed, City Protection, Ballista).
    """
    costs = plan.captain.costs
    if plan.captain.coins < min(costs[_BULWARK_DAMAGE], costs[_FISH_DAMAGE]):
        return
    structures = plan.state.structures
    attackers: dict[Coord, int] = {}
    for name, dest in plan.dests.items():
        structure = structures.get(dest)
        if (structure is not None and structure.team != plan.team and not structure.destroyed
                and name not in plan.teleported):
            attackers[dest] = attackers.get(dest, 0) + 1
    for tile, count in attackers.items():
        structure = structures[tile]
        if structure.kind is _FISH and not plan.fish_unlocked():
            continue
        if count >= 3:
            dist = plan.g.dist(plan.enemy, tile)
            if all(dist.get(f.at, _FAR) > 6 for f in plan.foes):
                continue
        skill = _BULWARK_DAMAGE if structure.kind is _BULWARK else _FISH_DAMAGE
        plan.captain.buy(skill, keep=plan.reserve)


def plan_teleports(plan: ObjectivePlan) -> None:
    """Players waiting on base ride the ballista to a free tile next to their target."""
    team, board = plan.team, plan.board
    charges = plan.state.ballista[team] + (
        plan.s.ballista_charges if _BALLISTA in plan.captain.skills else 0
    )
    if charges <= 0:
        return
    occupied = set(plan.foe_tiles)
    structures = plan.state.structures
    for p in plan.mine:
        job = plan.jobs.get(p.name)
        if job is None or not job.teleport or board.base_owner(p.at) != team or not plan.far(p, 7):
            continue
        reachable = plan.g.dist(team, p.at)
        spots = [t for t in plan.g.near(job.target)
                 if t != job.target and t in reachable and t not in occupied
                 and (t not in structures or structures[t].destroyed)]
        if not spots:
            continue
        spot = pick(plan.rng, spots)
        plan.teleported.add(p.name)
        plan.players[p.name] = PlayerOrder(teleport=spot)
        plan.dests[p.name] = spot
        charges -= 1
        if charges <= 0:
            return
