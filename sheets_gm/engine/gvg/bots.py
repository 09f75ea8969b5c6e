"""Bots that give one team's orders from any state: a random one and one that plays to win.

They drive the benchmark now, and the demo and simulations later. Every order a bot gives
is one that ``check_orders`` accepts: destinations come from the engine's own path
distances and movement reach, skills from its cooldowns and costs. A bot reads the turn's
published movement rolls with ``TurnDice.peek`` so it records no roll.

Each bot owns a ``random.Random`` seeded at construction: given the bots' seeds and the
match seed, a match replays exactly. The generator advances with every call, so replaying a
match needs fresh bots (or bots built with the same seeds).

>>> from sheets_gm.engine.gvg.board import GvgMap
>>> from sheets_gm.engine.gvg.settings import GvgSettings
>>> from sheets_gm.engine.gvg.setup import RosterEntry, new_match
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
from typing import NamedTuple, Protocol

from sheets_gm.engine.core.dice import TurnDice
from sheets_gm.engine.core.grid import Coord, Neighbourhood
from sheets_gm.engine.gvg.board import GvgMap
from sheets_gm.engine.gvg.enums import Action, Role, Skill, Status, StructureKind
from sheets_gm.engine.gvg.resolve import Resolution, resolve_turn
from sheets_gm.engine.gvg.rules import (
    GvgRules,
    carried_tree,
    movement_reach,
    next_available_turn,
    skill_active,
)
from sheets_gm.engine.gvg.state import GvgState, Player, PlayerOrder, Structure, TurnOrders

_FAR = 1 << 30  # farther than any path


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
    on_turn: Callable[[TurnOrders, Resolution], None] | None = None,
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


class _Rings:
    """The tiles a team can reach from one start, sorted by path distance."""

    __slots__ = ("tiles", "upto")

    def __init__(self, distances: dict[Coord, int]) -> None:
        by_distance: list[list[Coord]] = []
        for tile, d in distances.items():
            while len(by_distance) <= d:
                by_distance.append([])
            by_distance[d].append(tile)
        self.tiles: list[Coord] = []
        self.upto: list[int] = []  # upto[d]: how many tiles lie at distance d or less
        for ring in by_distance:
            self.tiles.extend(ring)
            self.upto.append(len(self.tiles))

    def count(self, steps: int) -> int:
        """How many tiles lie within ``steps`` (they are ``tiles[:count]``)."""
        return self.upto[min(steps, len(self.upto) - 1)]

    def ring(self, d: int) -> list[Coord]:
        """The tiles exactly ``d`` steps away."""
        if d >= len(self.upto):
            return []
        return self.tiles[self.upto[d - 1] if d else 0:self.upto[d]]


class _Geometry:
    """Per-rules caches: rings of reachable tiles, "within 1 square", distance to home."""

    def __init__(self, board: GvgMap, mode: Neighbourhood) -> None:
        self.board = board
        self.mode = mode
        self._rings: dict[tuple[int, Coord], _Rings] = {}
        self._near: dict[Coord, list[Coord]] = {}
        self.home = (self._home(0), self._home(1))

    def _home(self, team: int) -> dict[Coord, int]:
        out: dict[Coord, int] = {}
        for base in self.board.bases[team]:
            for tile, d in self.board.distances(team, self.mode, base).items():
                if d < out.get(tile, _FAR):
                    out[tile] = d
        return out

    def dist(self, team: int, start: Coord) -> dict[Coord, int]:
        """Steps from ``start`` to every tile ``team`` can reach (the engine's cached BFS)."""
        return self.board.distances(team, self.mode, start)

    def rings(self, team: int, start: Coord) -> _Rings:
        """The tiles ``team`` can reach from ``start``, by distance."""
        key = (team, start)
        found = self._rings.get(key)
        if found is None:
            found = self._rings[key] = _Rings(self.dist(team, start))
        return found

    def near(self, tile: Coord) -> list[Coord]:
        """The tile and its neighbours: "within 1 square"."""
        found = self._near.get(tile)
        if found is None:
            found = self._near[tile] = self.board.grid.within_one(tile, self.mode)
        return found

    def advance(
        self, team: int, start: Coord, steps: int, goal: dict[Coord, int], rng: random.Random | None
    ) -> Coord:
        """A tile within ``steps`` of ``start`` that is as close as possible to the goal.

        ``goal`` gives each tile's distance to the goal (to a target tile, or to home). Ties
        are broken by ``rng`` (the first candidate without one).
        """
        d0 = goal.get(start)
        if d0 is None:
            return start
        k = min(steps, d0)
        want = d0 - k
        candidates = [t for t in self.rings(team, start).ring(k) if goal.get(t) == want]
        if not candidates:  # the goal's own tile cannot be entered: take the nearest tile we can
            rings = self.rings(team, start)
            best = d0
            candidates = [start]
            for t in rings.tiles[:rings.count(steps)]:
                d = goal.get(t, _FAR)
                if d < best:
                    best, candidates = d, [t]
                elif d == best:
                    candidates.append(t)
        if len(candidates) == 1 or rng is None:
            return candidates[0]
        return candidates[rng.randrange(len(candidates))]

    def toward(self, team: int, start: Coord, steps: int, target: Coord, rng: random.Random | None) -> Coord:
        """A tile within ``steps`` of ``start``, as close as possible to ``target``."""
        return self.advance(team, start, steps, self.dist(team, target), rng)


class _Captain:
    """The skills a captain buys this turn, checked as ``check_skills`` will check them."""

    __slots__ = ("coins", "rules", "skills", "state", "team")

    def __init__(self, rules: GvgRules, state: GvgState, team: int) -> None:
        self.rules = rules
        self.state = state
        self.team = team
        self.coins = state.coins[team]
        self.skills: list[Skill] = []

    def can_buy(self, skill: Skill, keep: int = 0) -> bool:
        """Whether ``skill`` is off cooldown and affordable, keeping ``keep`` coins in hand."""
        s = self.rules.settings
        return (
            skill not in self.skills
            and s.cost(skill) + keep <= self.coins
            and next_available_turn(self.state, s, self.team, skill) <= self.state.turn
        )

    def buy(self, skill: Skill, keep: int = 0) -> bool:
        """Buy ``skill`` if ``can_buy``; whether it was bought."""
        if not self.can_buy(skill, keep):
            return False
        self.coins -= self.rules.settings.cost(skill)
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


class _GeometryCache:
    """The geometry of a map and neighbourhood, shared by every bot of the process.

    The map never changes, so its rings and distances are worked out once per process (the
    engine caches its path distances on the map the same way).
    """

    __slots__ = ("_geometry",)

    def __init__(self) -> None:
        self._geometry: _Geometry | None = None

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


class RandomBot:
    """Random but legal orders: any reachable tile, any action, now and then a skill or a teleport."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)
        self._geometry = _GeometryCache()

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: TurnDice) -> TeamOrders:
        """Random orders for every active player of ``team``."""
        rng = self.rng
        g = self._geometry.get(rules)
        s = rules.settings
        captain = _Captain(rules, state, team)
        if rng.random() < 0.25:
            options = [k for k in Skill if captain.can_buy(k)]
            if options:
                captain.buy(options[rng.randrange(len(options))])
        speed = captain.on(Skill.PLAYER_SPEED)
        tree_speed = captain.on(Skill.TREE_SPEED)
        charges = state.ballista[team] + (s.ballista_charges if Skill.BALLISTA in captain.skills else 0)
        players: dict[str, PlayerOrder] = {}
        for p in state.players:
            if p.team != team or p.status is not Status.ACTIVE:
                continue
            r = rng.random()
            if p.role is Role.HEALER and r < 0.5:
                action = Action.BUFF if r < 0.3 else Action.REVIVE
            else:
                action = Action.PICKUP if r > 0.85 else Action.ACT
            rings = g.rings(team, p.at)
            if charges > 0 and rules.board.base_owner(p.at) == team and rng.random() < 0.5:
                charges -= 1
                players[p.name] = PlayerOrder(action=action, teleport=rings.tiles[rng.randrange(len(rings.tiles))])
                continue
            steps = _reach(rules, state, p, dice, speed, tree_speed)
            tile = rings.tiles[rng.randrange(rings.count(steps))]
            players[p.name] = PlayerOrder(move=None if tile == p.at else tile, action=action)
        return TeamOrders(players, tuple(captain.skills))


# -- the objective bot -----------------------------------------------------------------------


@dataclass(slots=True)
class _Job:
    """What one player is asked to do: go toward ``target`` (or follow ``goal``) and act."""

    target: Coord | None
    action: Action
    goal: dict[Coord, int] | None = None  # distances to the target (or home, for a carrier)
    detour: bool = False  # may pick up a jungle coin on the way
    teleport_ok: bool = True


class ObjectiveBot:
    """Plays for the tree: bulwarks, then the fish, then the tree home; defends and buys skills.

    Every turn, from the state alone (plus its random tie-breaks):

    - a carrier heads home by the shortest path (with Tree Speed when the captain can pay),
      escorted by the rest of the team;
    - up to two players defend: they chase an enemy carrying the team's tree, pick up the
      team's dropped tree, or stand on an own structure an enemy stands on (tanks first);
    - the others attack: the enemy tree when it can be picked up, else the enemy fish once
      unlocked, else one enemy bulwark, all on the same one; jungle coins on the way;
    - healers revive knocked-down allies within reach, else stand next to the most allies
      (off the battle tile) and buff;
    - the captain buys Bulwark or Fish Damage for an attack, City Protection when an own
      structure is threatened, Ballista for players waiting on base (who then teleport
      next to the target), Player Speed now and then when everyone is far from its target.
    """

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)
        self._geometry = _GeometryCache()

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: TurnDice) -> TeamOrders:
        """Orders for every active player of ``team``, and the captain's skills."""
        return _ObjectivePlan(self.rng, self._geometry.get(rules), rules, state, team, dice).run()


class _ObjectivePlan:
    """One turn's thinking of an ObjectiveBot (private)."""

    def __init__(
        self, rng: random.Random, g: _Geometry, rules: GvgRules, state: GvgState, team: int, dice: TurnDice
    ) -> None:
        self.rng = rng
        self.g = g
        self.rules = rules
        self.board = rules.board
        self.s = rules.settings
        self.state = state
        self.team = team
        self.enemy = 1 - team
        self.dice = dice
        self.captain = _Captain(rules, state, team)
        self.mine: list[Player] = []
        self.down: list[Player] = []
        self.foes: list[Player] = []
        for p in state.players:
            if p.team == team:
                (self.mine if p.status is Status.ACTIVE else self.down).append(p)
            elif p.status is Status.ACTIVE:
                self.foes.append(p)
        self.jobs: dict[str, _Job] = {}
        self.players: dict[str, PlayerOrder] = {}
        self.dests: dict[str, Coord] = {}
        self.teleported: set[str] = set()

    # -- the turn --------------------------------------------------------------------------
    def run(self) -> TeamOrders:
        if not self.mine:
            return TeamOrders()
        st, team, enemy = self.state, self.team, self.enemy
        their_tree = st.trees[enemy]
        own_tree = st.trees[team]
        carrier: Player | None = None
        if their_tree is not None and their_tree.carrier is not None:
            carrier = next((p for p in self.mine if p.name == their_tree.carrier), None)
        foe_carrier: Player | None = None
        if own_tree is not None and own_tree.carrier is not None:
            foe_carrier = next((p for p in self.foes if p.name == own_tree.carrier), None)

        if carrier is not None and self.g.home[team].get(carrier.at, 0) > self.s.carrier_steps:
            self.captain.buy(Skill.TREE_SPEED)
        self.protect()

        healers = [p for p in self.mine if p.role is Role.HEALER and p is not carrier]
        free = [p for p in self.mine if p.role is not Role.HEALER and p is not carrier]
        carrier_dest: Coord | None = None
        if carrier is not None:
            steps = _reach(self.rules, st, carrier, self.dice, False, self.captain.on(Skill.TREE_SPEED))
            carrier_dest = self.g.advance(team, carrier.at, steps, self.g.home[team], self.rng)
            self.players[carrier.name] = PlayerOrder(move=None if carrier_dest == carrier.at else carrier_dest)
            self.dests[carrier.name] = carrier_dest
        self.defend(free, foe_carrier, carrier)
        self.attack(free, carrier_dest)
        self.buy_movement_skills()
        self.teleports()
        self.move_assigned()
        self.heal(healers, carrier_dest)
        self.buy_damage_skills()
        return TeamOrders(self.players, tuple(self.captain.skills))

    # -- skills ----------------------------------------------------------------------------
    def protect(self) -> None:
        """City Protection when an own structure at risk has enemies on it or closing in."""
        if not self.foes or not self.captain.can_buy(Skill.CITY_PROTECTION):
            return
        for structure in self.own_standing():
            if structure.kind is StructureKind.BULWARK and structure.hp > 2:
                continue
            dist = self.g.dist(self.enemy, structure.at)
            close = sum(1 for f in self.foes if dist.get(f.at, _FAR) <= 3)
            on = any(f.at == structure.at for f in self.foes)
            if on or close >= 2:
                self.captain.buy(Skill.CITY_PROTECTION)
                return

    def buy_movement_skills(self) -> None:
        """Ballista for players waiting on base; Player Speed now and then when all are far."""
        team = self.team
        waiting = [p for p in self.mine if self.board.base_owner(p.at) == team and self.far_from_job(p, 7)]
        if waiting and self.state.ballista[team] < len(waiting):
            self.captain.buy(Skill.BALLISTA)
        jobs = [p for p in self.mine if p.name in self.jobs]
        if jobs and all(self.far_from_job(p, 6) for p in jobs) and self.rng.random() < 0.4:
            self.captain.buy(Skill.PLAYER_SPEED, keep=1)

    def buy_damage_skills(self) -> None:
        """Bulwark Damage / Fish Damage when a rolling player of the team attacks one this turn."""
        structures = self.state.structures
        for name, dest in self.dests.items():
            if name in self.teleported:
                continue
            structure = structures.get(dest)
            if structure is None or structure.team == self.team or structure.destroyed:
                continue
            if structure.kind is StructureKind.BULWARK:
                self.captain.buy(Skill.BULWARK_DAMAGE)
            elif self.fish_unlocked():
                self.captain.buy(Skill.FISH_DAMAGE)

    # -- jobs ------------------------------------------------------------------------------
    def own_standing(self) -> list[Structure]:
        structures = self.state.structures
        out = [structures[t] for t in self.board.bulwarks[self.team] if not structures[t].destroyed]
        fish = self.board.fish[self.team]
        if fish is not None and not structures[fish].destroyed:
            out.append(structures[fish])
        return out

    def fish_unlocked(self) -> bool:
        enemy = self.enemy
        bulwarks = self.board.bulwarks[enemy]
        return not bulwarks or any(self.state.structures[t].destroyed for t in bulwarks)

    def assign(self, free: list[Player], tile: Coord, action: Action, count: int, tanks_first: bool) -> None:
        """Give the job (tile, action) to the ``count`` nearest free players."""
        dist = self.g.dist(self.team, tile)
        def cost(p: Player) -> int:
            return dist.get(p.at, _FAR) - (2 if tanks_first and p.role is Role.TANK else 0)
        chosen = sorted(free, key=cost)[:count]
        for p in chosen:
            free.remove(p)
            self.jobs[p.name] = _Job(tile, action, dist, teleport_ok=False)

    def defend(self, free: list[Player], foe_carrier: Player | None, carrier: Player | None) -> None:
        """Up to two defenders (everyone when the enemy carrier is about to score)."""
        st, team, enemy = self.state, self.team, self.enemy
        budget = 2
        if foe_carrier is not None:
            tree_speed = skill_active(st, self.s, enemy, Skill.TREE_SPEED, st.turn)
            steps = movement_reach(self.rules, st, foe_carrier, self.dice, False, tree_speed).steps
            ahead = self.g.advance(enemy, foe_carrier.at, steps, self.g.home[enemy], None)
            if not self.board.enterable(team, ahead):
                ahead = foe_carrier.at
            foe_home = self.g.home[enemy].get(foe_carrier.at, _FAR)
            own_home = self.g.home[team].get(carrier.at, _FAR) if carrier is not None else _FAR
            count = len(free) if foe_home <= 6 and foe_home <= own_home else 2
            self.assign(free, ahead, Action.ACT, count, False)
            budget -= count
        own_tree = st.trees[team]
        if (budget > 0 and free and own_tree is not None and own_tree.carrier is None
                and own_tree.at != self.board.fish[team]):
            self.assign(free, own_tree.at, Action.PICKUP, 1, False)
            budget -= 1
        if budget <= 0 or not free:
            return
        for structure in self.own_standing():
            if budget <= 0 or not free:
                return
            attackers = sum(1 for f in self.foes if f.at == structure.at)
            if attackers:
                n = min(budget, 2 if attackers > 1 else 1)
                self.assign(free, structure.at, Action.ACT, n, True)
                budget -= n

    def attack(self, free: list[Player], carrier_dest: Coord | None) -> None:
        """Everyone left goes for the objective of the moment."""
        if not free:
            return
        st, enemy, board = self.state, self.enemy, self.board
        their_tree = st.trees[enemy]
        fish_tile = board.fish[enemy]
        fish = st.structures.get(fish_tile) if fish_tile is not None else None
        target: Coord | None = None
        action = Action.ACT
        detour = False
        if carrier_dest is not None:
            target = carrier_dest
        elif their_tree is not None and their_tree.carrier is None and (
            fish is None or fish.destroyed or their_tree.at != fish_tile
        ):
            target, action = their_tree.at, Action.PICKUP
        elif fish is not None and not fish.destroyed and self.fish_unlocked():
            target, action, detour = fish.at, Action.PICKUP, True
        else:
            bulwarks = [st.structures[t] for t in board.bulwarks[enemy] if not st.structures[t].destroyed]
            if bulwarks:
                target, detour = self.focus(bulwarks, free).at, True
        if target is None:
            return
        goal = self.g.dist(self.team, target)
        for p in free:
            self.jobs[p.name] = _Job(target, action, goal, detour)
        free.clear()

    def focus(self, bulwarks: list[Structure], attackers: list[Player]) -> Structure:
        """The bulwark the whole team attacks: near the attackers, weakest first."""
        best: Structure | None = None
        best_score = _FAR
        for b in bulwarks:
            dist = self.g.dist(self.team, b.at)
            score = sum(min(dist.get(p.at, 99), 99) for p in attackers) + 4 * b.hp * len(attackers)
            if score < best_score:
                best, best_score = b, score
        assert best is not None
        return best

    def far_from_job(self, p: Player, steps: int) -> bool:
        job = self.jobs.get(p.name)
        if job is None or job.goal is None:
            return False
        return job.goal.get(p.at, _FAR) > steps

    # -- movement --------------------------------------------------------------------------
    def teleports(self) -> None:
        """Players waiting on base ride the ballista to a free tile next to their target."""
        team, board = self.team, self.board
        charges = self.state.ballista[team] + (
            self.s.ballista_charges if Skill.BALLISTA in self.captain.skills else 0
        )
        if charges <= 0:
            return
        occupied = {f.at for f in self.foes}
        structures = self.state.structures
        for p in self.mine:
            if charges <= 0:
                return
            job = self.jobs.get(p.name)
            if (job is None or job.target is None or not job.teleport_ok or board.base_owner(p.at) != team
                    or not self.far_from_job(p, 7)):
                continue
            reachable = self.g.dist(team, p.at)
            spots = [t for t in self.g.near(job.target)
                     if t != job.target and t in reachable and t not in occupied
                     and (t not in structures or structures[t].destroyed)]
            if not spots:
                continue
            spot = spots[self.rng.randrange(len(spots))]
            charges -= 1
            self.teleported.add(p.name)
            self.players[p.name] = PlayerOrder(teleport=spot)
            self.dests[p.name] = spot

    def move_assigned(self) -> None:
        speed = self.captain.on(Skill.PLAYER_SPEED)
        bonus = self.s.player_speed_bonus if speed else 0
        claimed: set[Coord] = set()
        jungle = self.state.jungle
        for p in self.mine:
            job = self.jobs.get(p.name)
            if job is None or p.name in self.players or job.goal is None:
                continue
            goal = job.goal
            d0 = goal.get(p.at)
            if d0 is None:
                dest = p.at
            elif d0 <= 1 + bonus:  # every roll reaches the target: no need to read the die
                dest = self.g.advance(self.team, p.at, d0, goal, self.rng)
            else:
                steps = _reach(self.rules, self.state, p, self.dice, speed, False)
                dest = self.g.advance(self.team, p.at, steps, goal, self.rng)
                if job.detour and jungle and d0 > steps:
                    here = self.g.dist(self.team, p.at)
                    limit = d0 - steps + 1
                    for coin in jungle:
                        if coin not in claimed and here.get(coin, _FAR) <= steps and goal.get(coin, _FAR) <= limit:
                            dest = coin
                            claimed.add(coin)
                            break
            action = job.action
            self.players[p.name] = PlayerOrder(move=None if dest == p.at else dest, action=action)
            self.dests[p.name] = dest

    def heal(self, healers: list[Player], carrier_dest: Coord | None) -> None:
        """Revive allies who would otherwise respawn far back; else buff next to the most allies."""
        if not healers:
            return
        team, g = self.team, self.g
        speed = self.captain.on(Skill.PLAYER_SPEED)
        home = g.home[team]
        rollers = [d for name, d in self.dests.items() if name not in self.teleported]
        battle = {d for d in rollers if d in self.state.structures or any(f.at == d for f in self.foes)}
        revive: dict[Coord, int] = {}
        for p in self.down:
            if home.get(p.at, 0) >= 5:
                for t in g.near(p.at):
                    revive[t] = revive.get(t, 0) + 1
        buff: dict[Coord, int] = {}
        for d in rollers:
            for t in g.near(d):
                buff[t] = buff.get(t, 0) + 2 - (t in battle)
        for h in healers:
            steps = _reach(self.rules, self.state, h, self.dice, speed, False)
            here = g.dist(team, h.at)
            dest, action = self.best_spot(revive, here, steps), Action.REVIVE
            if dest is None:
                dest, action = self.best_spot(buff, here, steps), Action.BUFF
            if dest is None:
                job_target = carrier_dest
                if job_target is None and rollers:
                    job_target = rollers[0]
                if job_target is None:
                    their_tree = self.state.trees[self.enemy]
                    job_target = their_tree.at if their_tree is not None else None
                dest = h.at if job_target is None else g.toward(team, h.at, steps, job_target, self.rng)
                action = Action.ACT
            self.players[h.name] = PlayerOrder(move=None if dest == h.at else dest, action=action)

    def best_spot(self, scores: dict[Coord, int], here: dict[Coord, int], steps: int) -> Coord | None:
        """The reachable tile with the highest score (ties: the nearest, then at random)."""
        best: list[Coord] = []
        key = (0, 0)
        for tile, score in scores.items():
            d = here.get(tile)
            if d is None or d > steps or score <= 0:
                continue
            k = (score, -d)
            if k > key:
                key, best = k, [tile]
            elif k == key:
                best.append(tile)
        if not best:
            return None
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]
