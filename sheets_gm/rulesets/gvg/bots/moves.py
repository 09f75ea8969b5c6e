"""The objective bot's moves: each player toward its job's target, and the healers' buffs and revives."""

from __future__ import annotations

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.bots.base import _ACT, _FAR, new_order, pick
from sheets_gm.rulesets.gvg.bots.plan import ObjectivePlan
from sheets_gm.rulesets.gvg.enums import Action, Skill
from sheets_gm.rulesets.gvg.state import Player

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_BUFF = Action.BUFF
_PLAYER_SPEED = Skill.PLAYER_SPEED
_REVIVE = Action.REVIVE


def plan_moves(plan: ObjectivePlan) -> None:
    """Every player with a job walks toward its target (a jungle coin on the way if cheap)."""
    team, g, rng, jobs = plan.team, plan.g, plan.rng, plan.jobs
    players, dests = plan.players, plan.dests
    bonus = plan.s.player_speed_bonus if plan.captain.on(_PLAYER_SPEED) else 0
    least = 1 + bonus  # the smallest reach a roll gives
    jungle = plan.state.jungle
    peek = plan.dice.peek
    claimed: set[Coord] = set()
    for p in plan.mine:
        name = p.name
        job = jobs.get(name)
        if job is None or name in players:
            continue
        at = p.at
        d0 = job.goal.get(at, _FAR)  # how far its target is
        if not d0 or d0 >= _FAR:  # on the target already, or no path to it
            dest, order = at, new_order(None, _ACT if d0 else job.action)
        else:  # never a carrier: its published roll (+ Player Speed) is its reach, unread when every roll will do
            steps = d0 if d0 <= least else peek("move/" + name) + bonus
            k = steps if steps < d0 else d0
            choices = job.moves.get((at, k))  # ``g.advance`` and ``plan.order`` in one look, without a call
            if choices is None:
                choices = g.moves(team, job, at, k)
            dest, order = pick(rng, choices)
            if job.detour and jungle and d0 > steps:
                limit = d0 - steps + 1
                for coin in g.coins_within(team, at, steps):
                    if coin in jungle and coin not in claimed and job.goal.get(coin, _FAR) <= limit:
                        dest, order = coin, new_order(None if coin == at else coin, _ACT)  # never the target
                        claimed.add(coin)
                        break
        players[name] = order
        dests[name] = dest


def plan_heals(plan: ObjectivePlan, healers: list[Player], carrier_dest: Coord | None) -> None:
    """Revive allies who would otherwise respawn far back; else buff next to the rally tile."""
    if not healers:
        return
    team, g = plan.team, plan.g
    bonus = plan.s.player_speed_bonus if plan.captain.on(_PLAYER_SPEED) else 0
    weights: dict[Coord, int] = {}  # how many of the team go to each tile (not by ballista)
    teleported = plan.teleported
    for name, d in plan.dests.items():
        if name not in teleported:
            weights[d] = weights.get(d, 0) + 1
    rally = carrier_dest
    if rally is None and weights:
        rally = max(weights, key=weights.__getitem__)
    revive: dict[Coord, int] = {}
    home = g.home[team]
    for p in plan.down:
        if home.get(p.at, 0) >= 5:
            for t in g.near(p.at):
                revive[t] = revive.get(t, 0) + 1
    for h in healers:
        steps = plan.dice.peek("move/" + h.name) + bonus  # never a carrier (it is handled first)
        if revive:
            spot = best_spot(plan, revive, g.dist(team, h.at), steps)
            if spot is not None:
                plan.order(h, spot, _REVIVE)
                continue
        if rally is None:
            plan.order(h, h.at, _ACT)
            continue
        spots = g.beside(team, rally, h.at, steps)
        if spots:  # next to (or on) the rally tile, where allies will stand
            dest, buffs = pick(plan.rng, spots), True
        else:
            dest = g.advance(team, h.at, steps, rally, plan.rng)
            buffs = not weights.keys().isdisjoint(g.near(dest))  # any(t in weights ...) without a generator
        plan.order(h, dest, _BUFF if buffs else _ACT)


def best_spot(plan: ObjectivePlan, scores: dict[Coord, int], here: dict[Coord, int], steps: int) -> Coord | None:
    """The reachable tile with the highest score (ties: the nearest, then at random)."""
    best: list[Coord] = []
    key = (0, 0)
    for tile, score in scores.items():
        d = here.get(tile, _FAR)
        if d > steps:
            continue
        k = (score, -d)
        if k > key:
            key, best = k, [tile]
        elif k == key:
            best.append(tile)
    if not best:
        return None
    return pick(plan.rng, best)
