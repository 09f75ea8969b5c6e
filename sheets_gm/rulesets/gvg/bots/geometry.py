"""The board as the bots see it: path distances per team and movement mode, kept per board, and a
player's reach this turn."""

from __future__ import annotations

import random
import weakref

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.grid import Coord, Neighbourhood, sorted_reading_order
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots.base import _FAR
from sheets_gm.rulesets.gvg.enums import Skill, Terrain
from sheets_gm.rulesets.gvg.rules import (
    GvgRules,
    carried_tree,
    movement_reach,
)
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.state import GvgState, Player

_GEOMETRIES: weakref.WeakKeyDictionary[GvgMap, dict[Neighbourhood, Geometry]] = weakref.WeakKeyDictionary()


class Geometry:
    """Caches for one map and neighbourhood: distances, "within 1 square", home, best steps."""

    _MAX_STEPS_CACHED = 400_000  # entries of the best-step cache before it is emptied

    def __init__(self, board: GvgMap, mode: Neighbourhood) -> None:
        self.board = board
        self.mode = mode
        self._dist = (board.distance_table(0, mode), board.distance_table(1, mode))  # the engine's own cache
        self._near: dict[Coord, list[Coord]] = {}
        self._steps: dict[tuple[int, Coord, int, Coord | None], list[Coord]] = {}
        self._coins: dict[tuple[int, Coord, int], list[Coord]] = {}
        self._beside: dict[tuple[int, Coord, Coord, int], list[Coord]] = {}
        self._structure_tiles = frozenset(
            c for c, (terrain, _) in board.terrain.items() if terrain in (Terrain.BULWARK, Terrain.FISH)
        )
        self._coin_tiles = sorted_reading_order(board.coin_tiles)
        self.home = (self._home(0), self._home(1))
        self.structures = (self._structures(0), self._structures(1))

    def _structures(self, team: int) -> tuple[Coord, ...]:
        fish = self.board.fish[team]
        return (*self.board.bulwarks[team], *(() if fish is None else (fish,)))

    def _home(self, team: int) -> dict[Coord, int]:
        out: dict[Coord, int] = {}
        for base in self.board.bases[team]:
            for tile, d in self.board.distances(team, self.mode, base).items():
                if d < out.get(tile, _FAR):
                    out[tile] = d
        return out

    def dist(self, team: int, start: Coord) -> dict[Coord, int]:
        """Steps from ``start`` to every tile ``team`` can reach (the engine's cached BFS)."""
        found = self._dist[team].get(start)
        return found if found is not None else self.board.distances(team, self.mode, start)

    def near(self, tile: Coord) -> list[Coord]:
        """The tile and its neighbours: "within 1 square"."""
        found = self._near.get(tile)
        if found is None:
            found = self._near[tile] = self.board.grid.within_one(tile, self.mode)
        return found

    def coins_within(self, team: int, start: Coord, steps: int) -> list[Coord]:
        """The map's jungle tiles within ``steps`` of ``start`` (taken or not), in reading order."""
        key = (team, start, steps)
        found = self._coins.get(key)
        if found is None:
            dist = self.dist(team, start)
            found = self._coins[key] = [c for c in self._coin_tiles if dist.get(c, _FAR) <= steps]
        return found

    def beside(self, team: int, rally: Coord, start: Coord, steps: int) -> list[Coord]:
        """Where to stand next to ``rally``: the nearest tiles around it within ``steps`` of ``start``.

        Else the rally tile itself if it can be reached and is no structure's tile; else nothing.
        """
        key = (team, rally, start, steps)
        found = self._beside.get(key)
        if found is None:
            if len(self._beside) >= self._MAX_STEPS_CACHED:
                self._beside.clear()
            here = self.dist(team, start)
            found, best_d = [], _FAR
            for t in self.near(rally):
                d = here.get(t, _FAR)
                if t == rally or d > steps or d > best_d:
                    continue
                if d < best_d:
                    found, best_d = [t], d
                else:
                    found.append(t)
            if not found and here.get(rally, _FAR) <= steps and rally not in self._structure_tiles:
                found = [rally]
            self._beside[key] = found
        return found

    def advance(
        self, team: int, start: Coord, steps: int, target: Coord | None, rng: random.Random | None,
        goal: dict[Coord, int] | None = None,
    ) -> Coord:
        """A tile within ``steps`` of ``start`` as close as possible to ``target`` (None: home).

        ``goal`` may give the distances to the target (``dist(team, target)``) if known. Ties
        are broken by ``rng`` (the first candidate without one).
        """
        if goal is None:
            goal = self.home[team] if target is None else self.dist(team, target)
        d0 = goal.get(start)
        if not d0:  # already there, or no path
            return start
        k = steps if steps < d0 else d0
        key = (team, start, k, target)
        candidates = self._steps.get(key)
        if candidates is None:
            if len(self._steps) >= self._MAX_STEPS_CACHED:
                self._steps.clear()
            candidates = self._steps[key] = self._best(team, start, k, goal, d0)
        if rng is None or len(candidates) == 1:
            return candidates[0]
        return candidates[int(rng.random() * len(candidates))]  # ``pick`` spelled out: asked ~8 times a turn

    def _best(self, team: int, start: Coord, k: int, goal: dict[Coord, int], d0: int) -> list[Coord]:
        """The tiles ``k`` steps from ``start`` on a shortest path to the goal."""
        want = d0 - k  # no tile nearer than k steps is that close to the goal: only the ring k steps out can be
        candidates = [t for t in self.board.ring(team, self.mode, start, k) if goal.get(t) == want]
        if candidates:
            return candidates
        within = self.board.within(team, self.mode, start, k)
        best = d0  # the goal's own tile cannot be entered: the nearest tiles we can enter
        candidates = [start]
        for t in within:
            d = goal.get(t, _FAR)
            if d < best:
                best, candidates = d, [t]
            elif d == best:
                candidates.append(t)
        return candidates


def reach(rules: GvgRules, state: GvgState, player: Player, dice: TurnDice, speed: bool, tree_speed: bool) -> int:
    """The steps ``player`` may take this turn, reading its published roll without recording it."""
    if carried_tree(state, player.name) is not None:
        return movement_reach(rules, state, player, dice, speed, tree_speed).steps  # no die for a carrier
    roll = dice.peek(f"move/{player.name}")
    return roll + rules.settings.player_speed_bonus if speed else roll


class RulesCache:
    """What a bot keeps about the rules it last played: the map's geometry, the skill costs.

    The geometry of a map and neighbourhood is shared by every bot of the process: the map
    never changes, so its caches fill once (the engine caches its path distances the same way).
    """

    __slots__ = ("_costs", "_geometry", "_settings")

    def __init__(self) -> None:
        self._geometry: Geometry | None = None
        self._settings: GvgSettings | None = None
        self._costs: dict[Skill, int] = {}

    def costs(self, settings: GvgSettings) -> dict[Skill, int]:
        """The cost of every skill under ``settings``."""
        if settings is not self._settings:
            self._costs = {skill: settings.cost(skill) for skill in Skill}
            self._settings = settings
        return self._costs

    def get(self, rules: GvgRules) -> Geometry:
        """The geometry of this match's board and movement mode (made again when either changes)."""
        geometry = self._geometry
        mode = rules.settings.movement
        if geometry is None or geometry.board is not rules.board or geometry.mode is not mode:
            per_map = _GEOMETRIES.setdefault(rules.board, {})
            geometry = per_map.get(mode)
            if geometry is None:
                geometry = per_map[mode] = Geometry(rules.board, mode)
            self._geometry = geometry
        return geometry
