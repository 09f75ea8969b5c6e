"""The random bot: legal orders drawn at random, for tests and for a weak opponent."""

from __future__ import annotations

import random

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.bots.base import _FAR, Bot, TeamOrders, new_order, pick
from sheets_gm.rulesets.gvg.bots.captain import Captain
from sheets_gm.rulesets.gvg.bots.geometry import RulesCache, reach
from sheets_gm.rulesets.gvg.enums import Action, Role, Skill, Status
from sheets_gm.rulesets.gvg.orders import PlayerOrder
from sheets_gm.rulesets.gvg.rules import (
    GvgRules,
)
from sheets_gm.rulesets.gvg.state import GvgState


class RandomBot(Bot):
    """Random but legal orders: any reachable tile, any action, now and then a skill or a teleport."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)
        self._cache = RulesCache()

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: kit.TurnDice) -> TeamOrders:
        """Random orders for every active player of ``team``."""
        rng = self.rng
        s = rules.settings
        captain = Captain(rules, state, team, self._cache.costs(s))
        if rng.random() < 0.25:
            options = [k for k in Skill if captain.can_buy(k)]
            if options:
                captain.buy(pick(rng, options))
        speed = captain.on(Skill.PLAYER_SPEED)
        tree_speed = captain.on(Skill.TREE_SPEED)
        charges = state.ballista[team] + (s.ballista_charges if Skill.BALLISTA in captain.skills else 0)
        board, mode = rules.board, s.movement
        players: dict[str, PlayerOrder] = {}
        for p in state.players:
            if p.team != team or p.status is not Status.ACTIVE:
                continue
            r = rng.random()
            if p.role is Role.HEALER and r < 0.5:
                action = Action.BUFF if r < 0.3 else Action.REVIVE
            else:
                action = Action.PICKUP if r > 0.85 else Action.ACT
            if charges > 0 and board.base_owner(p.at) == team and rng.random() < 0.5:
                charges -= 1
                anywhere = board.within(team, mode, p.at, _FAR)
                players[p.name] = PlayerOrder(action=action, teleport=pick(rng, anywhere))
                continue
            tile = pick(rng, board.within(team, mode, p.at, reach(rules, state, p, dice, speed, tree_speed)))
            players[p.name] = new_order(None if tile == p.at else tile, action)
        return TeamOrders(players, tuple(captain.skills))
