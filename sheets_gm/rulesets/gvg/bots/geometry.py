"""The board as the bots see it: path distances per team and movement mode, kept per board, and a
player's reach this turn."""

from __future__ import annotations

import random
import weakref

from sheets_gm.engine.grid import Coord, Neighbourhood, sorted_reading_order
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots.base import _ACT, _FAR, new_order
from sheets_gm.rulesets.gvg.bots.job import Job, Paths
from sheets_gm.rulesets.gvg.enums import Action, Skill, Terrain
from sheets_gm.rulesets.gvg.orders import PlayerOrder
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
        self._paths: tuple[dict[Coord | None, Paths], dict[Coord | None, Paths]] = ({}, {})
        self._cached = 0  # entries in every table of ``_paths`` and every job's ``moves``
        self._jobs: dict[tuple[int, Coord, Action, bool, bool], Job] = {}
        self._coins: dict[tuple[int, Coord, int], list[Coord]] = {}
        self._beside: dict[tuple[int, Coord, Coord, int], list[Coord]] = {}
        self._structure_tiles = frozenset(
            c for c, (terrain, _) in board.terrain.items() if terrain in (Terrain.BULWARK, Terrain.FISH)
        )
        self._coin_tiles = sorted_reading_order(board.coin_tiles)
        self.home = (self._home(0), self._home(1))
        self.structures = (self._structures(0), self._structures(1))  # each team's bulwarks, then its fish
        self.structure_set = (frozenset(self.structures[0]), frozenset(self.structures[1]))

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
        paths = self._paths[team].get(target)
        candidates = None if paths is None else paths.get((start, k))
        if candidates is None:
            candidates = self.best_steps(team, start, k, target, goal)
        if rng is None or len(candidates) == 1:
            return candidates[0]
        return candidates[int(rng.random() * len(candidates))]  # ``pick`` spelled out: asked ~8 times a turn

    def job(self, team: int, target: Coord, action: Action, detour: bool, teleport: bool) -> Job:
        """The job toward ``target`` for a player of ``team`` (made once: it depends on the board alone)."""
        key = (team, target, action, detour, teleport)
        found = self._jobs.get(key)
        if found is None:
            if len(self._jobs) >= self._MAX_STEPS_CACHED:
                self._jobs.clear()
            found = self._jobs[key] = Job(target, self.dist(team, target), self.paths(team, target), action, detour,
                                          teleport)
        return found

    def paths(self, team: int, target: Coord | None) -> Paths:
        """``best_steps``' cache toward ``target`` (None: home) for ``team``: (start, steps) → the best tiles.

        A caller moving several players toward one target reads it directly (``best_steps`` on a miss).
        """
        per_team = self._paths[team]
        found = per_team.get(target)
        if found is None:
            found = per_team[target] = {}
        return found

    def best_steps(self, team: int, start: Coord, k: int, target: Coord | None, goal: dict[Coord, int]) -> list[Coord]:
        """The tiles ``k`` steps from ``start`` on a shortest path toward ``target`` (``goal``: its distances, the
        start 1 to ``k`` steps away or more), else the nearest ones; cached in ``paths``."""
        self._make_room()
        found = self.paths(team, target)[(start, k)] = self._best(team, start, k, goal, goal[start])
        return found

    def moves(self, team: int, job: Job, start: Coord, k: int) -> list[tuple[Coord, PlayerOrder]]:
        """``best_steps`` toward the job's target (the start 1 to ``k`` steps away or more), each tile with the order
        of a player of ``team`` going there from ``start``: its action on the target, a plain act on the way; cached
        in the job's ``moves``."""
        best = job.paths.get((start, k))
        if best is None:
            best = self.best_steps(team, start, k, job.target, job.goal)
        self._make_room()
        found = job.moves[(start, k)] = [
            (t, new_order(None if t == start else t, job.action if t == job.target else _ACT)) for t in best
        ]
        return found

    def _make_room(self) -> None:
        """Count one more entry of the best-step tables; empty them all first when they hold too many."""
        if self._cached >= self._MAX_STEPS_CACHED:
            for per_team in self._paths:
                for paths in per_team.values():
                    paths.clear()  # emptied in place: a caller may hold a table
            for job in self._jobs.values():
                job.moves.clear()
            self._cached = 0
        self._cached += 1

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


def reach(rules: GvgRules, state: GvgState, player: Player, dice: kit.TurnDice, speed: bool, tree_speed: bool) -> int:
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

    __slots__ = ("_costs", "_geometry", "_of", "_rules", "_settings")

    def __init__(self) -> None:
        self._geometry: Geometry | None = None
        self._settings: GvgSettings | None = None
        self._costs: dict[Skill, int] = {}
        self._rules: GvgRules | None = None  # the rules ``of`` was last asked about, and its answer
        self._of: tuple[Geometry, dict[Skill, int]] | None = None

    def of(self, rules: GvgRules) -> tuple[Geometry, dict[Skill, int]]:
        """``get`` and ``costs`` at once, without a look at the board or settings when the rules are the last ones
        asked about (rules are frozen: the same rules, the same board and settings)."""
        found = self._of
        if found is None or rules is not self._rules:
            found = self._of = (self.get(rules), self.costs(rules.settings))
            self._rules = rules
        return found

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
