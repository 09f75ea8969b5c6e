"""One turn's thinking of the objective bot: who is where, what each player is doing, and the orders so far."""

from __future__ import annotations

import random

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.bots.base import _ACTIVE, _FAR, _HEALER, _ORDERS, new_order
from sheets_gm.rulesets.gvg.bots.captain import Captain
from sheets_gm.rulesets.gvg.bots.geometry import Geometry
from sheets_gm.rulesets.gvg.bots.job import Job
from sheets_gm.rulesets.gvg.enums import Action
from sheets_gm.rulesets.gvg.orders import PlayerOrder
from sheets_gm.rulesets.gvg.state import Player, Structure


class ObjectivePlan:
    """One turn's thinking of an ObjectiveBot (private)."""

    __slots__ = ("board", "captain", "dests", "dice", "down", "enemy", "foe_tiles", "foes", "g",
                 "healers", "jobs", "mine", "others", "players", "reserve", "rng", "rules", "s", "state", "team",
                 "teleported")

    def __init__(self, rng: random.Random, g: Geometry, captain: Captain, dice: kit.TurnDice) -> None:
        self.rng = rng
        self.g = g
        self.captain = captain
        self.rules = rules = captain.rules
        self.board = rules.board
        self.s = rules.settings
        self.state = state = captain.state
        self.team = team = captain.team
        self.enemy = 1 - team
        self.dice = dice
        self.mine: list[Player] = []
        self.down: list[Player] = []
        self.foes: list[Player] = []  # the enemy's active players
        self.foe_tiles: list[Coord] = []  # where each of them stands
        self.healers: list[Player] = []  # the team's active healers
        self.others: list[Player] = []  # and its other active players
        mine, down, foes, foe_tiles, healers, others = (self.mine, self.down, self.foes, self.foe_tiles, self.healers,
                                                        self.others)
        for p in state.players:
            if p.status is _ACTIVE:
                if p.team == team:
                    mine.append(p)
                    (healers if p.role is _HEALER else others).append(p)
                else:
                    foes.append(p)
                    foe_tiles.append(p.at)
            elif p.team == team:
                down.append(p)
        self.jobs: dict[str, Job] = {}
        self.players: dict[str, PlayerOrder] = {}
        self.dests: dict[str, Coord] = {}  # where each player of the team will stand
        self.teleported: set[str] = set()
        self.reserve = 0  # coins kept back for Tree Speed when the enemy tree is almost ours

    def order(self, p: Player, dest: Coord, action: Action) -> None:
        """Send ``p`` to ``dest`` with ``action`` (no move when it is where it stands)."""
        move = None if dest == p.at else dest
        shared = _ORDERS.get((move, action))  # ``new_order``'s memory read first: a call saved per player
        self.players[p.name] = shared if shared is not None else new_order(move, action)
        self.dests[p.name] = dest

    def own_standing(self) -> list[Structure]:
        """The team's structures still standing: its bulwarks, then its fish."""
        structures = self.state.structures
        out = [structures[t] for t in self.board.bulwarks[self.team] if not structures[t].destroyed]
        fish = self.board.fish[self.team]
        if fish is not None and not structures[fish].destroyed:
            out.append(structures[fish])
        return out

    def fish_unlocked(self) -> bool:
        """Whether the enemy fish can be attacked (one of its team's bulwarks is down)."""
        bulwarks = self.board.bulwarks[self.enemy]
        return not bulwarks or any(self.state.structures[t].destroyed for t in bulwarks)

    def far(self, p: Player, steps: int) -> bool:
        """Whether ``p`` has a job more than ``steps`` steps away."""
        job = self.jobs.get(p.name)
        return job is not None and job.goal.get(p.at, _FAR) > steps

    def give(self, players: list[Player], target: Coord, action: Action, detour: bool, teleport: bool) -> None:
        """Give each of ``players`` the job (target, action, detour, teleport)."""
        job = self.g.job(self.team, target, action, detour, teleport)
        jobs = self.jobs
        for p in players:
            jobs[p.name] = job
