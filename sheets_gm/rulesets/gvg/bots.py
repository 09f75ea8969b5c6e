"""Bots that give one team's orders from any state: a random one and one that plays to win.

They drive the benchmark now, and the demo and simulations later. Every order a bot gives
is one that ``check_orders`` accepts: destinations come from the engine's own path
distances and movement reach, skills from its cooldowns and costs. A bot reads the turn's
published movement rolls with ``TurnDice.peek`` so it records no roll.

Each bot owns a ``random.Random`` seeded at construction: given the bots' seeds and the
match seed, a match replays exactly. The generator advances with every call, so replaying a
match needs fresh bots (or bots built with the same seeds).

>>> from sheets_gm.rulesets.gvg.board import GvgMap
>>> from sheets_gm.rulesets.gvg.settings import GvgSettings
>>> from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
>>> board = GvgMap.from_text("base1 stair1 . bulwark2 fish2 stair2 base2")
>>> rules = GvgRules(board, GvgSettings(max_turns=30))
>>> roster = [RosterEntry("Ann", "red", "dps"), RosterEntry("Bo", "blue", "tank")]
>>> state = new_match(board, ("red", "blue"), roster, rules.settings)
>>> result = play_match(rules, state, (ObjectiveBot(1), RandomBot(2)), b"seed")
>>> result.state.finished
True
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, TypeVar

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.grid import Coord, Neighbourhood, sorted_reading_order
from sheets_gm.engine.ruleset import Resolution
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.enums import Action, Role, Skill, Status, StructureKind, Terrain
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.resolve import resolve_turn
from sheets_gm.rulesets.gvg.rules import (
    GvgRules,
    carried_tree,
    movement_reach,
    next_available_turn,
    skill_active,
)
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.state import GvgState, Player, Structure

_T = TypeVar("_T")
_FAR = 1 << 30  # farther than any path

# Python 3.11 reads a member such as ``Status.ACTIVE`` off its class through EnumType's
# ``__getattr__`` hook, about 0.1 µs each; the per-player code below reads these constants.
_ACT = Action.ACT
_ACTIVE = Status.ACTIVE
_HEALER = Role.HEALER
_TANK = Role.TANK


_ORDERS: dict[tuple[Coord | None, Action], PlayerOrder] = {}


def _order(move: Coord | None, action: Action) -> PlayerOrder:
    """The order (move, action): orders are immutable, so equal ones are shared, not rebuilt."""
    found = _ORDERS.get((move, action))
    if found is None:
        found = _ORDERS[(move, action)] = PlayerOrder(move=move, action=action)
    return found


def _pick(rng: random.Random, items: Sequence[_T]) -> _T:
    """A uniformly random item (``rng.random`` is much cheaper than ``randrange``)."""
    return items[int(rng.random() * len(items))] if len(items) > 1 else items[0]


@dataclass(frozen=True, slots=True)
class TeamOrders:
    """One team's orders for a turn: its players' orders by name and its captain's skills."""

    players: dict[str, PlayerOrder] = field(default_factory=dict)
    skills: tuple[Skill, ...] = ()


def merge_orders(first: TeamOrders, second: TeamOrders) -> TurnOrders:
    """The turn's orders from team slot 1's (``first``) and team slot 2's (``second``) orders."""
    players = dict(first.players)
    players.update(second.players)
    return TurnOrders(players=players, skills=(first.skills, second.skills))


class Bot(Protocol):
    """Something that gives a team's orders for the turn about to be resolved."""

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: TurnDice) -> TeamOrders:
        """The orders of team ``team`` (0 or 1) for ``state.turn``; ``dice`` are that turn's dice."""
        ...


class MatchResult(NamedTuple):
    """How a bot match ended: the last state, how many log events and resolved turns it took."""

    state: GvgState
    events: int
    turns: int


def play_match(
    rules: GvgRules,
    state: GvgState,
    bots: Sequence[Bot],
    seed: bytes,
    max_turns: int | None = None,
    on_turn: Callable[[TurnOrders, Resolution[GvgState]], None] | None = None,
) -> MatchResult:
    """Play ``state`` on with ``bots[0]`` for team slot 1 and ``bots[1]`` for slot 2.

    Stops when the match is finished, or after ``max_turns`` resolved turns if given.
    ``on_turn`` sees every turn's orders and resolution (to check verdicts, keep the log).
    """
    first, second = bots
    turns = events = 0
    while not state.finished and (max_turns is None or turns < max_turns):
        dice = TurnDice(seed, state.turn)
        orders = merge_orders(first.orders(rules, state, 0, dice), second.orders(rules, state, 1, dice))
        resolution = resolve_turn(rules, state, orders, dice)
        if on_turn is not None:
            on_turn(orders, resolution)
        state = resolution.state
        turns += 1
        events += len(resolution.events)
    return MatchResult(state, events, turns)


# -- geometry shared by the bots -------------------------------------------------------------


class _Geometry:
    """Caches for one map and neighbourhood: distances, "within 1 square", home, best steps."""

    _MAX_STEPS_CACHED = 400_000  # entries of the best-step cache before it is emptied

    def __init__(self, board: GvgMap, mode: Neighbourhood) -> None:
        self.board = board
        self.mode = mode
        self._dist: tuple[dict[Coord, dict[Coord, int]], dict[Coord, dict[Coord, int]]] = ({}, {})
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
        if found is None:
            found = self._dist[team][start] = self.board.distances(team, self.mode, start)
        return found

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
        return candidates[0] if rng is None else _pick(rng, candidates)

    def _best(self, team: int, start: Coord, k: int, goal: dict[Coord, int], d0: int) -> list[Coord]:
        """The tiles ``k`` steps from ``start`` on a shortest path to the goal."""
        within = self.board.within(team, self.mode, start, k)
        want = d0 - k  # no tile nearer than k steps is that close to the goal
        candidates = [t for t in within if goal.get(t) == want]
        if candidates:
            return candidates
        best = d0  # the goal's own tile cannot be entered: the nearest tiles we can enter
        candidates = [start]
        for t in within:
            d = goal.get(t, _FAR)
            if d < best:
                best, candidates = d, [t]
            elif d == best:
                candidates.append(t)
        return candidates


class _Captain:
    """The skills a captain buys this turn, checked as ``check_skills`` will check them."""

    __slots__ = ("coins", "costs", "rules", "shops", "skills", "state", "team")

    def __init__(
        self, rules: GvgRules, state: GvgState, team: int, costs: dict[Skill, int], shops: bool = True
    ) -> None:
        self.rules = rules
        self.state = state
        self.team = team
        self.costs = costs  # settings.cost of every skill
        self.shops = shops  # False: a captain who never buys a skill
        self.coins = state.coins[team]
        self.skills: list[Skill] = []

    def can_buy(self, skill: Skill, keep: int = 0) -> bool:
        """Whether ``skill`` is off cooldown and affordable, keeping ``keep`` coins in hand."""
        return (
            self.shops
            and self.costs[skill] + keep <= self.coins
            and skill not in self.skills
            and next_available_turn(self.state, self.rules.settings, self.team, skill) <= self.state.turn
        )

    def buy(self, skill: Skill, keep: int = 0) -> bool:
        """Buy ``skill`` if ``can_buy``; whether it was bought."""
        if not self.can_buy(skill, keep):
            return False
        self.coins -= self.costs[skill]
        self.skills.append(skill)
        return True

    def on(self, skill: Skill) -> bool:
        """Whether ``skill`` is in effect this turn (bought now, or still running)."""
        return skill in self.skills or skill_active(self.state, self.rules.settings, self.team, skill, self.state.turn)


def _reach(rules: GvgRules, state: GvgState, player: Player, dice: TurnDice, speed: bool, tree_speed: bool) -> int:
    """The steps ``player`` may take this turn, reading its published roll without recording it."""
    if carried_tree(state, player.name) is not None:
        return movement_reach(rules, state, player, dice, speed, tree_speed).steps  # no die for a carrier
    roll = dice.peek(f"move/{player.name}")
    return roll + rules.settings.player_speed_bonus if speed else roll


_GEOMETRIES: weakref.WeakKeyDictionary[GvgMap, dict[Neighbourhood, _Geometry]] = weakref.WeakKeyDictionary()


class _RulesCache:
    """What a bot keeps about the rules it last played: the map's geometry, the skill costs.

    The geometry of a map and neighbourhood is shared by every bot of the process: the map
    never changes, so its caches fill once (the engine caches its path distances the same way).
    """

    __slots__ = ("_costs", "_geometry", "_settings")

    def __init__(self) -> None:
        self._geometry: _Geometry | None = None
        self._settings: GvgSettings | None = None
        self._costs: dict[Skill, int] = {}

    def costs(self, settings: GvgSettings) -> dict[Skill, int]:
        """The cost of every skill under ``settings``."""
        if settings is not self._settings:
            self._costs = {skill: settings.cost(skill) for skill in Skill}
            self._settings = settings
        return self._costs

    def get(self, rules: GvgRules) -> _Geometry:
        geometry = self._geometry
        mode = rules.settings.movement
        if geometry is None or geometry.board is not rules.board or geometry.mode is not mode:
            per_map = _GEOMETRIES.setdefault(rules.board, {})
            geometry = per_map.get(mode)
            if geometry is None:
                geometry = per_map[mode] = _Geometry(rules.board, mode)
            self._geometry = geometry
        return geometry


# -- the random bot --------------------------------------------------------------------------


class RandomBot(Bot):
    """Random but legal orders: any reachable tile, any action, now and then a skill or a teleport."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)
        self._cache = _RulesCache()

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: TurnDice) -> TeamOrders:
        """Random orders for every active player of ``team``."""
        rng = self.rng
        s = rules.settings
        captain = _Captain(rules, state, team, self._cache.costs(s))
        if rng.random() < 0.25:
            options = [k for k in Skill if captain.can_buy(k)]
            if options:
                captain.buy(_pick(rng, options))
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
                players[p.name] = PlayerOrder(action=action, teleport=_pick(rng, anywhere))
                continue
            tile = _pick(rng, board.within(team, mode, p.at, _reach(rules, state, p, dice, speed, tree_speed)))
            players[p.name] = _order(None if tile == p.at else tile, action)
        return TeamOrders(players, tuple(captain.skills))


# -- the objective bot -----------------------------------------------------------------------


@dataclass(slots=True)
class _Job:
    """What one player is asked to do this turn: go toward ``target`` and act there."""

    target: Coord
    goal: dict[Coord, int]  # every tile's distance to the target
    action: Action = Action.ACT  # the action once on the target tile (ACT on the way)
    detour: bool = False  # may pick up a jungle coin on the way
    teleport: bool = True  # may ride the ballista from base to the target


class ObjectiveBot(Bot):
    """Plays for the tree: bulwarks, then the fish, then the tree home; defends and buys skills.

    Every turn, from the state alone (plus its random tie-breaks):

    - a carrier heads home by the shortest path (with Tree Speed when the captain can pay),
      escorted by the rest of the team, who aim for the carrier's next tile;
    - up to two players defend: they chase an enemy carrying the team's tree (everyone
      when it would score before the team's own carrier), pick up the team's dropped tree,
      or stand on an own structure an enemy stands on (tanks first);
    - the others attack: the enemy tree when it can be picked up, else the enemy fish once
      unlocked, else one enemy bulwark (nearest and weakest), all on the same one; a jungle
      coin on the way when it costs at most one step;
    - healers revive knocked-down allies who would otherwise respawn five or more steps
      back, else stand next to the tile most allies go to (off a battle tile) and buff;
    - the captain buys Tree Speed for a carrier (and keeps its price in hand when the enemy
      tree is about to be picked up), City Protection when an own structure near its end is
      threatened, Ballista for players waiting on base far from their target (who then
      teleport next to it), Bulwark or Fish Damage for an attack that may fail (fewer than
      three attackers, or enemies within reach of the structure), and Player Speed now and
      then when everyone is far from its target.

    Destinations: among the tiles within reach, those nearest the target by path (the
    engine's distances for the team), ties broken by the bot's generator.

    With ``buys_skills=False`` the captain never buys a command skill (the coins pile up):
    the same play otherwise, to measure what the skills are worth.
    """

    def __init__(self, seed: int | str = 0, *, buys_skills: bool = True) -> None:
        self.rng = random.Random(seed)
        self.buys_skills = buys_skills
        self._cache = _RulesCache()

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: TurnDice) -> TeamOrders:
        """Orders for every active player of ``team``, and the captain's skills."""
        cache = self._cache
        captain = _Captain(rules, state, team, cache.costs(rules.settings), self.buys_skills)
        return _ObjectivePlan(self.rng, cache.get(rules), captain, dice).run()


class _ObjectivePlan:
    """One turn's thinking of an ObjectiveBot (private)."""

    __slots__ = ("board", "captain", "dests", "dice", "down", "enemy", "foes", "foes_at", "g", "gaps", "jobs", "mine",
                 "players", "reserve", "rng", "rules", "s", "state", "team", "teleported")

    def __init__(self, rng: random.Random, g: _Geometry, captain: _Captain, dice: TurnDice) -> None:
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
        self.foes: list[Player] = []
        self.foes_at: dict[Coord, int] = {}  # how many active enemies stand on each tile
        for p in state.players:
            if p.team == team:
                (self.mine if p.status is _ACTIVE else self.down).append(p)
            elif p.status is _ACTIVE:
                self.foes.append(p)
                self.foes_at[p.at] = self.foes_at.get(p.at, 0) + 1
        self.jobs: dict[str, _Job] = {}
        self.gaps: dict[str, int] = {}  # each player's distance to its job's target
        self.players: dict[str, PlayerOrder] = {}
        self.dests: dict[str, Coord] = {}  # where each player of the team will stand
        self.teleported: set[str] = set()
        self.reserve = 0  # coins kept back for Tree Speed when the enemy tree is almost ours

    def run(self) -> TeamOrders:
        if not self.mine:
            return TeamOrders()
        st, team, enemy = self.state, self.team, self.enemy
        their_tree, own_tree = st.trees[enemy], st.trees[team]
        carrier: Player | None = None
        if their_tree is not None and their_tree.carrier is not None:
            carrier = next((p for p in self.mine if p.name == their_tree.carrier), None)
        foe_carrier: Player | None = None
        if own_tree is not None and own_tree.carrier is not None:
            foe_carrier = next((p for p in self.foes if p.name == own_tree.carrier), None)

        if carrier is not None and self.g.home[team].get(carrier.at, 0) > self.s.carrier_steps:
            self.captain.buy(Skill.TREE_SPEED)
        elif their_tree is not None and their_tree.carrier is None:
            fish_tile = self.board.fish[enemy]
            fish = st.structures.get(fish_tile) if fish_tile is not None else None
            if fish is None or fish.hp <= 2 or their_tree.at != fish_tile:
                self.reserve = self.captain.costs[Skill.TREE_SPEED]
        self.protect()
        healers = [p for p in self.mine if p.role is _HEALER and p is not carrier]
        free = [p for p in self.mine if p.role is not _HEALER and p is not carrier]
        carrier_dest: Coord | None = None
        if carrier is not None:
            steps = _reach(self.rules, st, carrier, self.dice, False, self.captain.on(Skill.TREE_SPEED))
            carrier_dest = self.g.advance(team, carrier.at, steps, None, self.rng)
            self.order(carrier, carrier_dest, Action.ACT)
        self.defend(free, foe_carrier, carrier)
        self.attack(free, carrier_dest)
        self.buy_movement_skills()
        self.teleports()
        self.move()
        self.heal(healers, carrier_dest)
        self.buy_damage_skills()
        return TeamOrders(self.players, tuple(self.captain.skills))

    def order(self, p: Player, dest: Coord, action: Action) -> None:
        self.players[p.name] = _order(None if dest == p.at else dest, action)
        self.dests[p.name] = dest

    # -- skills ----------------------------------------------------------------------------
    def protect(self) -> None:
        """City Protection when a bulwark near its end or the unlocked fish has enemies on or near it."""
        if not self.foes or not self.captain.can_buy(Skill.CITY_PROTECTION):
            return
        standing = self.own_standing()
        bulwarks = self.board.bulwarks[self.team]
        fish_locked = bool(bulwarks) and all(not self.state.structures[t].destroyed for t in bulwarks)
        for structure in standing:
            if structure.kind is StructureKind.BULWARK and structure.hp > 2:
                continue
            if structure.kind is StructureKind.FISH and fish_locked:
                continue
            dist = self.g.dist(self.enemy, structure.at)
            close = 0
            for f in self.foes:
                d = dist.get(f.at, _FAR)
                close += 2 if d == 0 else d <= 3
            if close >= 2:
                self.captain.buy(Skill.CITY_PROTECTION)
                return

    def buy_movement_skills(self) -> None:
        """Ballista for players waiting on base; Player Speed now and then when all are far."""
        costs = self.captain.costs
        if self.captain.coins < min(costs[Skill.BALLISTA], costs[Skill.PLAYER_SPEED]):
            return
        waiting = sum(1 for p in self.mine if self.board.base_owner(p.at) == self.team and self.far(p, 7))
        if waiting and self.state.ballista[self.team] < waiting:
            self.captain.buy(Skill.BALLISTA, keep=self.reserve)
        if (self.jobs and self.captain.coins >= 2
                and all(self.far(p, 6) for p in self.mine if p.name in self.jobs) and self.rng.random() < 0.4):
            self.captain.buy(Skill.PLAYER_SPEED, keep=max(1, self.reserve))

    def buy_damage_skills(self) -> None:
        """Bulwark / Fish Damage when rolling players attack one this turn and the attack may fail.

        It may fail when fewer than three attack, or enemies are close enough to defend;
        otherwise the coins are kept (for Tree Speed, City Protection, Ballista).
        """
        costs = self.captain.costs
        if self.captain.coins < min(costs[Skill.BULWARK_DAMAGE], costs[Skill.FISH_DAMAGE]):
            return
        structures = self.state.structures
        attackers: dict[Coord, int] = {}
        for name, dest in self.dests.items():
            structure = structures.get(dest)
            if (structure is not None and structure.team != self.team and not structure.destroyed
                    and name not in self.teleported):
                attackers[dest] = attackers.get(dest, 0) + 1
        for tile, count in attackers.items():
            structure = structures[tile]
            if structure.kind is StructureKind.FISH and not self.fish_unlocked():
                continue
            if count >= 3:
                dist = self.g.dist(self.enemy, tile)
                if all(dist.get(f.at, _FAR) > 6 for f in self.foes):
                    continue
            skill = Skill.BULWARK_DAMAGE if structure.kind is StructureKind.BULWARK else Skill.FISH_DAMAGE
            self.captain.buy(skill, keep=self.reserve)

    # -- jobs ------------------------------------------------------------------------------
    def own_standing(self) -> list[Structure]:
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
        return self.gaps.get(p.name, 0) > steps

    def give(self, p: Player, job: _Job) -> None:
        self.jobs[p.name] = job
        self.gaps[p.name] = job.goal.get(p.at, _FAR)

    def assign(self, free: list[Player], tile: Coord, action: Action, count: int, tanks_first: bool) -> int:
        """Give the job (tile, action) to the ``count`` nearest free players; how many got it."""
        dist = self.g.dist(self.team, tile)

        def cost(p: Player) -> int:
            return dist.get(p.at, _FAR) - (2 if tanks_first and p.role is _TANK else 0)

        chosen = sorted(free, key=cost)[:count]
        job = _Job(tile, dist, action, teleport=False)
        for p in chosen:
            self.give(p, job)
        # By name: list.remove would compare players with the dataclass __eq__, field by field.
        taken = {p.name for p in chosen}
        free[:] = [p for p in free if p.name not in taken]
        return len(chosen)

    def defend(self, free: list[Player], foe_carrier: Player | None, carrier: Player | None) -> None:
        """Up to two defenders (everyone when the enemy carrier is about to score first)."""
        st, team, enemy = self.state, self.team, self.enemy
        budget = 2
        if foe_carrier is not None and free:
            tree_speed = skill_active(st, self.s, enemy, Skill.TREE_SPEED, st.turn)
            steps = movement_reach(self.rules, st, foe_carrier, self.dice, False, tree_speed).steps
            ahead = self.g.advance(enemy, foe_carrier.at, steps, None, None)
            if not self.board.enterable(team, ahead):
                ahead = foe_carrier.at
            foe_home = self.g.home[enemy].get(foe_carrier.at, _FAR)
            own_home = self.g.home[team].get(carrier.at, _FAR) if carrier is not None else _FAR
            count = len(free) if foe_home <= 6 and foe_home <= own_home else 2
            budget -= self.assign(free, ahead, Action.ACT, count, False)
        own_tree = st.trees[team]
        if (budget > 0 and free and own_tree is not None and own_tree.carrier is None
                and own_tree.at != self.board.fish[team]):
            budget -= self.assign(free, own_tree.at, Action.PICKUP, 1, False)
        if budget <= 0 or not free:
            return
        for tile in self.g.structures[team]:
            attackers = self.foes_at.get(tile, 0)
            if attackers and not st.structures[tile].destroyed:
                budget -= self.assign(free, tile, Action.ACT, min(budget, attackers), True)
                if budget <= 0 or not free:
                    return

    def attack(self, free: list[Player], carrier_dest: Coord | None) -> None:
        """Everyone left goes for the objective of the moment."""
        if not free:
            return
        st, enemy, board = self.state, self.enemy, self.board
        their_tree = st.trees[enemy]
        fish_tile = board.fish[enemy]
        fish = st.structures.get(fish_tile) if fish_tile is not None else None
        action, detour = Action.ACT, True
        target: Coord | None = None
        if carrier_dest is not None:
            target, detour = carrier_dest, False
        elif their_tree is not None and their_tree.carrier is None and (
            fish is None or fish.destroyed or their_tree.at != fish_tile
        ):
            target, action, detour = their_tree.at, Action.PICKUP, False
        elif fish is not None and not fish.destroyed and self.fish_unlocked():
            target = fish.at
        else:
            bulwarks = [st.structures[t] for t in board.bulwarks[enemy] if not st.structures[t].destroyed]
            if bulwarks:
                target = self.focus(bulwarks, free).at
        teleport = True
        if target is None:  # nothing of the enemy's to take (a map without its tree): guard our own
            target, detour, teleport = board.fish[self.team], False, False
        if target is None:
            for p in free:
                self.order(p, p.at, Action.ACT)
            free.clear()
            return
        job = _Job(target, self.g.dist(self.team, target), action, detour, teleport)
        for p in free:
            self.give(p, job)
        free.clear()

    def focus(self, bulwarks: list[Structure], attackers: list[Player]) -> Structure:
        """The bulwark the whole team attacks: near the attackers, weakest first."""
        best = bulwarks[0]
        best_score = _FAR
        for b in bulwarks:
            dist = self.g.dist(self.team, b.at)
            score = 4 * b.hp * len(attackers)
            for p in attackers:
                score += min(dist.get(p.at, 99), 99)
            if score < best_score:
                best, best_score = b, score
        return best

    # -- movement --------------------------------------------------------------------------
    def teleports(self) -> None:
        """Players waiting on base ride the ballista to a free tile next to their target."""
        team, board = self.team, self.board
        charges = self.state.ballista[team] + (
            self.s.ballista_charges if Skill.BALLISTA in self.captain.skills else 0
        )
        if charges <= 0:
            return
        occupied = self.foes_at
        structures = self.state.structures
        for p in self.mine:
            job = self.jobs.get(p.name)
            if job is None or not job.teleport or board.base_owner(p.at) != team or not self.far(p, 7):
                continue
            reachable = self.g.dist(team, p.at)
            spots = [t for t in self.g.near(job.target)
                     if t != job.target and t in reachable and t not in occupied
                     and (t not in structures or structures[t].destroyed)]
            if not spots:
                continue
            spot = _pick(self.rng, spots)
            self.teleported.add(p.name)
            self.players[p.name] = PlayerOrder(teleport=spot)
            self.dests[p.name] = spot
            charges -= 1
            if charges <= 0:
                return

    def move(self) -> None:
        """Every player with a job walks toward its target (a jungle coin on the way if cheap)."""
        team, g, rng = self.team, self.g, self.rng
        bonus = self.s.player_speed_bonus if self.captain.on(Skill.PLAYER_SPEED) else 0
        least = 1 + bonus  # the smallest reach a roll gives
        jungle = self.state.jungle
        peek = self.dice.peek
        claimed: set[Coord] = set()
        for p in self.mine:
            job = self.jobs.get(p.name)
            if job is None or p.name in self.players:
                continue
            goal = job.goal
            d0 = self.gaps[p.name]
            if d0 >= _FAR:
                dest = p.at
            elif d0 <= least:  # every roll reaches the target: no need to read the die
                dest = g.advance(team, p.at, d0, job.target, rng, goal)
            else:  # never a carrier: its published roll (+ Player Speed) is its reach
                steps = peek("move/" + p.name) + bonus
                dest = g.advance(team, p.at, steps, job.target, rng, goal)
                if job.detour and jungle and d0 > steps:
                    limit = d0 - steps + 1
                    for coin in g.coins_within(team, p.at, steps):
                        if coin in jungle and coin not in claimed and goal.get(coin, _FAR) <= limit:
                            dest = coin
                            claimed.add(coin)
                            break
            self.order(p, dest, job.action if dest == job.target else _ACT)

    def heal(self, healers: list[Player], carrier_dest: Coord | None) -> None:
        """Revive allies who would otherwise respawn far back; else buff next to the rally tile."""
        if not healers:
            return
        team, g = self.team, self.g
        bonus = self.s.player_speed_bonus if self.captain.on(Skill.PLAYER_SPEED) else 0
        weights: dict[Coord, int] = {}
        for name, d in self.dests.items():
            if name not in self.teleported:
                weights[d] = weights.get(d, 0) + 1
        rally = carrier_dest
        if rally is None and weights:
            rally = max(weights, key=weights.__getitem__)
        revive: dict[Coord, int] = {}
        home = g.home[team]
        for p in self.down:
            if home.get(p.at, 0) >= 5:
                for t in g.near(p.at):
                    revive[t] = revive.get(t, 0) + 1
        for h in healers:
            steps = self.dice.peek("move/" + h.name) + bonus  # never a carrier (it is handled first)
            if revive:
                spot = self.best_spot(revive, g.dist(team, h.at), steps)
                if spot is not None:
                    self.order(h, spot, Action.REVIVE)
                    continue
            if rally is None:
                self.order(h, h.at, Action.ACT)
                continue
            spots = g.beside(team, rally, h.at, steps)
            if spots:  # next to (or on) the rally tile, where allies will stand
                dest, buffs = _pick(self.rng, spots), True
            else:
                dest = g.advance(team, h.at, steps, rally, self.rng)
                buffs = any(t in weights for t in g.near(dest))
            self.order(h, dest, Action.BUFF if buffs else Action.ACT)

    def best_spot(self, scores: dict[Coord, int], here: dict[Coord, int], steps: int) -> Coord | None:
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
        return _pick(self.rng, best)
