"""Resolving one GvG turn: a pure function from (state, orders, dice) to (new state, log).

Order of a turn (rulings/gvg.md): command skills → scheduled events (halftime, boss) →
movement (simultaneous) → action phase (every tile at once) → knock-down bookkeeping →
win check. The input state is never changed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from functools import partial
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.grid import Coord
from sheets_gm.engine.ruleset import Resolution
from sheets_gm.engine.words import counted
from sheets_gm.rulesets.gvg.battle import Contribution, Side, decide
from sheets_gm.rulesets.gvg.check import CheckedOrders, check_orders, verdicts_of
from sheets_gm.rulesets.gvg.enums import Action, EventKind, Outcome, Role, Skill, Status, StructureKind
from sheets_gm.rulesets.gvg.orders import TurnOrders
from sheets_gm.rulesets.gvg.rules import GvgRules, Reach, carried_tree
from sheets_gm.rulesets.gvg.settings import OwnTreePickup, TurnLimitRule
from sheets_gm.rulesets.gvg.state import Boss, GvgState, Player, Structure

# Python 3.11 reads a member such as ``Status.ACTIVE`` off its class through EnumType's
# ``__getattr__`` hook, about 0.1 µs each; the per-player loops below read these constants.
_ACT = Action.ACT
_BUFF = Action.BUFF
_REVIVE = Action.REVIVE
_PICKUP = Action.PICKUP
_NO_ROLL = frozenset({Action.BUFF, Action.REVIVE})  # actions taken instead of rolling
_ACTIVE = Status.ACTIVE
_KNOCKED_DOWN = Status.KNOCKED_DOWN
_BULWARK = StructureKind.BULWARK
_FISH = StructureKind.FISH
_DPS = Role.DPS
_TANK = Role.TANK
_HEALER = Role.HEALER
_ATTACKERS_WIN = Outcome.ATTACKERS_WIN
_MOVED = EventKind.MOVED


class MatchOverError(ValueError):
    """A turn was asked of a match that has already ended."""


def resolve_turn(rules: GvgRules, state: GvgState, orders: TurnOrders, dice: TurnDice) -> Resolution[GvgState]:
    """Resolve ``state.turn`` with ``orders`` (checked first; refused orders are logged, not used): the new state,
    the log, and a verdict per order part (``Resolution.verdicts``); the dice keep every die rolled."""
    if state.finished:
        raise MatchOverError(f"the match ended on turn {state.turn}; there is no turn to resolve")
    if dice.turn != state.turn:
        raise ValueError(f"dice are for turn {dice.turn} but the state is at turn {state.turn}")
    checked = check_orders(rules, state, orders, dice)
    work = _Turn(rules, state.copy(), checked, dice)
    work.run()
    return Resolution(work.state, work.events, verdicts=verdicts_of(state, checked))


def decide_turn_limit(rules: GvgRules, state: GvgState) -> int | None:
    """The winner under the turn-limit rule: the team whose captured tree stands farthest from its fish."""
    if rules.settings.turn_limit_rule is TurnLimitRule.DRAW:
        return None
    reach = [tree_distance(rules, state, team) for team in (0, 1)]
    if reach[0] == reach[1]:
        return None
    return 0 if reach[0] > reach[1] else 1


def tree_distance(rules: GvgRules, state: GvgState, team: int) -> int:
    """Path steps from the enemy's fish tile to where the enemy tree stands (what ``team`` captured)."""
    enemy = 1 - team
    tree = state.trees[enemy]
    fish = rules.board.fish[enemy]
    if tree is None or fish is None:
        return 0
    return rules.board.distances(team, rules.settings.movement, fish).get(tree.at, 0)


def _moved_text(name: str, start: Coord, to: Coord, reach: Reach | None) -> str:
    """The sentence of a move, with the die, every bonus by name and the total that allowed it; the log
    renders it when read (``partial`` keeps each move's values)."""
    why = "" if reach is None else f" ({reach.in_the_log(name)})"
    return f"{name} moves from {start.label} to {to.label}{why}."


class _Turn:
    """The working copy of one turn's resolution (private: only ``resolve_turn`` drives it)."""

    def __init__(self, rules: GvgRules, state: GvgState, checked: CheckedOrders, dice: TurnDice) -> None:
        self.rules = rules
        self.s = rules.settings
        self.board = rules.board
        self.state = state
        self.checked = checked
        self.dice = dice
        self.turn = state.turn
        self.events: list[Event] = []
        self.orders = checked.accepted.players
        self.active: list[set[Skill]] = [set(), set()]
        self.knocked: set[str] = set()
        self.revived: set[str] = set()

    # -- helpers -----------------------------------------------------------------------------
    def log(self, kind: EventKind, text: str | Callable[[], str], /, **data: Any) -> None:
        self.events.append(Event(self.turn, kind, text, data))

    def team(self, index: int) -> str:
        return self.state.teams[index]

    def structure_words(self, structure: Structure) -> str:
        """A structure as the log names it: ``red's bulwark on E4`` (its id, ``bulwark@E4``, is in the data)."""
        return f"{self.team(structure.team)}'s {structure.kind.value} on {structure.at.label}"

    def action(self, p: Player) -> Action:
        order = self.orders.get(p.name)
        return order.action if order else _ACT

    def rolls(self, p: Player) -> bool:
        """Whether ``p`` rolls in the action phase (not buffing/reviving, not teleported)."""
        return p.name not in self.checked.teleports and self.action(p) not in _NO_ROLL

    def can_act(self, p: Player) -> bool:
        return p.name not in self.checked.teleports

    # -- phases ------------------------------------------------------------------------------
    def run(self) -> None:
        for check in self.checked.rejected:
            self.log(EventKind.ORDER_REJECTED, f"{check.subject}: {check.part} refused — {check.message}.",
                     subject=check.subject, part=check.part, verdict=check.verdict.value)
        self.command_phase()
        self.scheduled_events()
        self.movement_phase()
        if self.carrier_home():
            return
        self.action_phase()
        self.bookkeeping()
        self.turn_limit()
        if not self.state.finished:
            self.state.turn += 1

    def command_phase(self) -> None:
        st = self.state
        for team, skills in enumerate(self.checked.accepted.skills):
            for skill in skills:
                cost = self.s.cost(skill)
                st.coins[team] -= cost
                st.cooldowns[team][skill] = self.turn
                extra = ""
                if skill is Skill.BALLISTA:
                    st.ballista[team] += self.s.ballista_charges
                    extra = f"; {counted(st.ballista[team], 'ballista charge')}"
                self.log(EventKind.SKILL_ACTIVATED,
                         f"{self.team(team)} activates {skill.display} for {counted(cost, 'coin')}; "
                         f"{st.coins[team]} left{extra}.",
                         team=self.team(team), skill=skill.value, cost=cost, coins_left=st.coins[team])
        duration = self.s.skill_duration
        for team in (0, 1):
            self.active[team] = {k for k, last in st.cooldowns[team].items() if last <= self.turn < last + duration}

    def scheduled_events(self) -> None:
        st = self.state
        if self.s.halftime_turn and self.turn == self.s.halftime_turn:
            st.jungle = set(self.board.coin_tiles)
            self.log(EventKind.HALFTIME, f"Halftime: the jungle's {counted(len(st.jungle), 'coin')} respawn.",
                     coins=len(st.jungle))
        if self.turn in self.s.boss_spawn_turns and st.boss is None and self.board.boss_tiles:
            tiles = self.board.boss_tiles
            roll = None
            if len(tiles) == 1:
                tile = tiles[0]
            else:
                roll = self.dice.d6("spawn/boss")
                tile = tiles[0] if roll <= 3 else tiles[-1]
            st.boss = Boss(tile, self.s.boss_hp)
            how = "" if roll is None else f" (rolled {roll} [spawn/boss])"
            self.log(EventKind.BOSS_SPAWNED, f"A boss with {self.s.boss_hp} HP appears on {tile.label}{how}.",
                     at=tile.label, hp=self.s.boss_hp, roll=roll)

    def movement_phase(self) -> None:
        st = self.state
        reaches = self.checked.reaches
        for p in st.players:
            order = self.orders.get(p.name)
            if order is None or p.status is not _ACTIVE:
                continue
            if order.teleport is not None:
                st.ballista[p.team] -= 1
                self.log(EventKind.TELEPORTED,
                         f"{p.name} rides the ballista from {p.at.label} to {order.teleport.label} "
                         f"({counted(st.ballista[p.team], 'charge')} left).",
                         player=p.name, start=p.at.label, to=order.teleport.label)
                p.at = order.teleport
            elif order.move is not None and order.move != p.at:
                reach = reaches.get(p.name)
                self.log(_MOVED, partial(_moved_text, p.name, p.at, order.move, reach),
                         player=p.name, start=p.at, to=order.move, reach=reach)
                p.at = order.move
        for tree in st.trees:
            if tree is not None and tree.carrier is not None:
                tree.at = st.player(tree.carrier).at

    def carrier_home(self) -> bool:
        """A carrier that ends movement on its own base wins at once."""
        st = self.state
        home: list[int] = []
        for tree in st.trees:
            if tree is None or tree.carrier is None:
                continue
            carrier = st.player(tree.carrier)
            if self.board.base_owner(carrier.at) == carrier.team:
                home.append(carrier.team)
                self.log(EventKind.TREE_RETURNED,
                         f"{carrier.name} carries {self.team(tree.team)}'s tree into "
                         f"{self.team(carrier.team)}'s base on {carrier.at.label}.",
                         player=carrier.name, tree=self.team(tree.team), at=carrier.at.label)
        if not home:
            return False
        self.finish(home[0] if len(set(home)) == 1 else None, "captured the enemy tree")
        return True

    def finish(self, winner: int | None, how: str) -> None:
        st = self.state
        st.finished = True
        st.winner = winner
        if winner is None:
            self.log(EventKind.MATCH_DRAWN, f"The match is a draw ({how}).", how=how)
        else:
            self.log(EventKind.MATCH_WON, f"{self.team(winner)} wins the match: {how}.",
                     winner=self.team(winner), how=how)

    # -- action phase ------------------------------------------------------------------------
    def action_phase(self) -> None:
        st = self.state
        mode = self.s.movement
        present: dict[Coord, list[Player]] = defaultdict(list)
        self.buff_reach: list[list[frozenset[Coord]]] = [[], []]
        for p in st.players:
            if p.status is _ACTIVE:
                present[p.at].append(p)
                if p.role is _HEALER and self.action(p) is _BUFF and self.can_act(p):  # accepted: healers only
                    self.buff_reach[p.team].append(self.board.reach_of(p.at, mode))
        self.destroyed_bulwarks = [0, 0]
        for structure in st.structures.values():
            if structure.kind is _BULWARK and structure.destroyed:
                self.destroyed_bulwarks[structure.team] += 1
        for tile in sorted(present, key=lambda c: (c.row, c.col)):
            self.resolve_tile(tile, present[tile])
        self.revives()

    def buffs(self, p: Player) -> list[tuple[str, int]]:
        reaches = self.buff_reach[p.team]
        if not reaches:
            return []
        count = sum(1 for reach in reaches if p.at in reach)
        if not count:
            return []
        if Skill.HEALING_REDUCTION in self.active[1 - p.team]:
            return [("buff cancelled by Healing Reduction", 0)]
        return [("healer buff", self.s.buff_bonus)] * count

    def contribution(self, p: Player, bonuses: list[tuple[str, int]]) -> Contribution:
        if not self.rolls(p):
            return Contribution(p, None, None)
        key = f"combat/{p.name}"
        return Contribution(p, self.dice.d6(key), key, bonuses + self.buffs(p))

    def carrier_teams_on(self, people: list[Player]) -> frozenset[int]:
        """The teams with a carrier among ``people`` (both, when two carriers share the tile)."""
        return frozenset(p.team for p in people if carried_tree(self.state, p.name) is not None)

    def resolve_tile(self, tile: Coord, people: list[Player]) -> None:
        structure = self.state.structures.get(tile)
        st = self.state
        team = people[0].team
        if ((structure is None or structure.team == team or structure.destroyed)
                and tile not in st.jungle and (st.boss is None or st.boss.at != tile)
                and all(p.team == team and self.action(p) is not _PICKUP for p in people)):
            return  # one team alone, nothing to attack, take or pick up: nothing can happen
        winner: int | None = None
        contested = len({p.team for p in people}) == 2
        if structure is not None and not structure.destroyed:
            reason = self.structure_closed(structure)
            if reason is None:
                self.structure_battle(structure, people)
                self.pickups(tile, people)  # a tree may lie on a standing structure's tile
                return
            if contested:
                where = f"at {self.team(structure.team)}'s {structure.kind.value} ({reason})"
                winner = self.open_battle(tile, people, where)
        elif contested:
            winner = self.open_battle(tile, people, "")
        if tile in self.state.jungle:
            self.jungle(tile, people, contested, winner)
        if self.state.boss is not None and self.state.boss.at == tile:
            self.boss_fight(tile, people)
        self.pickups(tile, people)

    def structure_closed(self, structure: Structure) -> str | None:
        """Why a standing structure cannot be attacked this turn, or None if it can."""
        x = structure.team
        if Skill.CITY_PROTECTION in self.active[x]:
            return f"{self.team(x)}'s City Protection"
        if (structure.kind is _FISH and self.board.bulwarks[x]
                and self.destroyed_bulwarks[x] == 0):
            return "the fish is locked until one of its team's bulwarks falls"
        return None

    def knock(self, p: Player, tile: Coord, why: str) -> None:
        if p.name in self.knocked:
            return
        self.knocked.add(p.name)
        self.log(EventKind.KNOCKED_DOWN, f"{p.name} is knocked down on {tile.label} ({why}).",
                 player=p.name, at=tile.label)
        tree = carried_tree(self.state, p.name)
        if tree is not None:
            tree.carrier = None
            tree.at = p.at
            self.log(EventKind.TREE_DROPPED, f"{p.name} drops {self.team(tree.team)}'s tree on {tile.label}.",
                     player=p.name, tree=self.team(tree.team), at=tile.label)

    def carrier_bonus(self, side: Side, carrier_teams: frozenset[int]) -> None:
        if side.team in carrier_teams:
            side.flat.append(("tree", self.s.tree_bonus))

    def tank_bonus(self, p: Player, defending: bool) -> list[tuple[str, int]]:
        return [("Tank", self.s.tank_bonus)] if defending and p.role is _TANK else []

    def structure_battle(self, structure: Structure, people: list[Player]) -> None:
        s, x = self.s, structure.team
        tile = structure.at
        attackers = [p for p in people if p.team != x]
        defenders = [p for p in people if p.team == x]
        if not any(self.rolls(p) for p in attackers):
            return
        y = 1 - x
        name, where = structure.kind.value, self.structure_words(structure)  # "bulwark", "red's bulwark on E4"
        carriers = self.carrier_teams_on(people)
        dps = [("DPS", s.dps_bonus)]
        attack = Side(y, f"{self.team(y)} attacking")
        for p in attackers:
            bonus = (dps if p.role is _DPS else []) + self.tank_bonus(p, y in carriers)
            attack.contributions.append(self.contribution(p, bonus))
        skill = Skill.BULWARK_DAMAGE if structure.kind is _BULWARK else Skill.FISH_DAMAGE
        if skill in self.active[y]:
            attack.flat.append((skill.display, s.skill_damage_bonus))
        self.carrier_bonus(attack, carriers)
        defence = Side(x, f"{self.team(x)}'s {name}")
        key = f"defense/{tile.label}"
        defence.flat.append((f"{name} die {key}", self.dice.d6(key)))
        if structure.kind is _FISH:
            tier = s.fish_tier(self.destroyed_bulwarks[x])
            if tier:
                defence.flat.append((f"fish tier, {counted(self.destroyed_bulwarks[x], 'bulwark')} down", tier))
        for p in defenders:
            defence.contributions.append(self.contribution(p, self.tank_bonus(p, True)))
        self.carrier_bonus(defence, carriers)
        # An attack with a carrier (and none among the defenders) wins ties; otherwise defenders do,
        # and an empty structure falls on a tie.
        carrier_attack = y in carriers and x not in carriers
        tie = Outcome.DEFENDERS_WIN if defenders and not carrier_attack else _ATTACKERS_WIN
        outcome = decide(attack, defence, tie)
        kind = "PvP" if defenders else "PvE"
        verdict = "the attack succeeds" if outcome is _ATTACKERS_WIN else f"the {name} holds"
        self.log(EventKind.BATTLE,
                 lambda: f"Battle for {where} ({kind}): {attack.describe()}; {defence.describe()}. "
                         f"{attack.total} vs {defence.total}: {verdict}.",
                 tile=tile.label, kind=name, structure=structure.key, pvp=bool(defenders),
                 sides=[attack, defence], outcome=outcome.value,
                 winner=self.team(y if outcome is _ATTACKERS_WIN else x))
        if outcome is _ATTACKERS_WIN:
            structure.hp -= 1
            self.log(EventKind.STRUCTURE_DAMAGED,
                     f"{self.team(x)}'s {name} on {tile.label} loses 1 HP ({structure.hp} left).",
                     structure=structure.key, hp=structure.hp)
            if structure.destroyed:
                self.log(EventKind.STRUCTURE_DESTROYED,
                         f"{self.team(x)}'s {name} on {tile.label} is destroyed.",
                         structure=structure.key)
                for p in defenders:
                    self.knock(p, tile, f"{where} fell")
            elif x in carriers:
                # The carrier's side lost the battle: the carrier falls even though the structure stands.
                for p in defenders:
                    if carried_tree(self.state, p.name) is not None:
                        self.knock(p, tile, "the tree's defence lost")
        else:
            for p in attackers:
                self.knock(p, tile, f"{where} held")

    def open_battle(self, tile: Coord, people: list[Player], where: str) -> int | None:
        """Fight between the two teams on a tile; returns the winning team, None on a stalemate."""
        if not any(self.rolls(p) for p in people):
            return None
        carriers = self.carrier_teams_on(people)
        sides = [Side(team, self.team(team)) for team in (0, 1)]
        for p in people:
            bonus = [("DPS", self.s.dps_bonus)] if p.role is _DPS else []
            bonus += self.tank_bonus(p, p.team in carriers)
            sides[p.team].contributions.append(self.contribution(p, bonus))
        for side in sides:
            self.carrier_bonus(side, carriers)
        # No carrier, or one on each side: a tie favours nobody; else it goes to the carrier's side.
        one_carrier = _ATTACKERS_WIN if 0 in carriers else Outcome.DEFENDERS_WIN
        tie = Outcome.STALEMATE if len(carriers) != 1 else one_carrier
        outcome = decide(sides[0], sides[1], tie)
        winner = {_ATTACKERS_WIN: 0, Outcome.DEFENDERS_WIN: 1}.get(outcome)
        place = f"{tile.label} {where}".strip()
        result = "stalemate, nobody falls" if winner is None else f"{self.team(winner)} wins"
        self.log(EventKind.BATTLE,
                 lambda: f"Battle on {place}: {sides[0].describe()}; {sides[1].describe()}. "
                         f"{sides[0].total} vs {sides[1].total}: {result}.",
                 tile=tile.label, kind="open", pvp=True, sides=sides,
                 outcome=outcome.value, winner=None if winner is None else self.team(winner))
        if winner is not None:
            for p in people:
                if p.team != winner:
                    self.knock(p, tile, f"lost the battle on {tile.label}")
        return winner

    def jungle(self, tile: Coord, people: list[Player], contested: bool, winner: int | None) -> None:
        taker: int | None = None
        if not contested:
            if any(self.can_act(p) for p in people):
                taker = people[0].team
        elif winner is not None:
            taker = winner
        if taker is None:
            return
        self.state.jungle.discard(tile)
        self.state.coins[taker] += 1
        self.log(EventKind.COIN_TAKEN,
                 f"{self.team(taker)} takes the jungle coin on {tile.label} "
                 f"({counted(self.state.coins[taker], 'coin')}).",
                 team=self.team(taker), at=tile.label, coins=self.state.coins[taker])

    def boss_fight(self, tile: Coord, people: list[Player]) -> None:
        boss = self.state.boss
        assert boss is not None
        attempts: list[tuple[int, int, int]] = []  # (team, total, boss roll)
        for team in (0, 1):
            side = Side(team, self.team(team))
            for p in people:
                if p.team == team:
                    side.contributions.append(self.contribution(p, []))
            if not any(c.roll is not None for c in side.contributions):
                continue
            key = f"boss/{self.team(team)}"
            boss_roll = self.dice.d6(key)
            hit = side.total >= boss_roll
            self.log(EventKind.BATTLE,
                     f"{self.team(team)} against the boss on {tile.label}: {side.describe()} vs the boss's "
                     f"{boss_roll} [{key}]: {'hit' if hit else 'miss'}.",
                     tile=tile.label, kind="boss", pvp=False, sides=[side],
                     boss_roll=boss_roll, key=key, outcome="hit" if hit else "miss")
            if hit:
                attempts.append((team, side.total, boss_roll))
        if len(attempts) == 2 and attempts[0][1] == attempts[1][1]:
            tie_roll = self.dice.d6("final-blow")
            first = 0 if tie_roll <= 3 else 1
            attempts.sort(key=lambda a: a[0] != first)
            self.log(EventKind.BATTLE, f"Equal totals against the boss: the final-blow die rolls {tie_roll} "
                     f"[final-blow] (1-3: {self.team(0)} strikes first, 4-6: {self.team(1)}).",
                     tile=tile.label, kind="boss-tie", roll=tie_roll, key="final-blow", first=self.team(first))
        else:
            attempts.sort(key=lambda a: -a[1])
        for team, _total, _roll in attempts:
            if boss.hp <= 0:
                break
            boss.hp -= 1
            self.log(EventKind.BOSS_HIT, f"{self.team(team)} hits the boss ({boss.hp} HP left).",
                     team=self.team(team), hp=boss.hp)
            if boss.hp == 0:
                self.state.coins[team] += self.s.boss_reward
                self.log(EventKind.BOSS_KILLED,
                         f"{self.team(team)} lands the final blow on the boss and gains "
                         f"{counted(self.s.boss_reward, 'coin')}.",
                         team=self.team(team), reward=self.s.boss_reward)
                self.state.boss = None

    def pickups(self, tile: Coord, people: list[Player]) -> None:
        st = self.state
        pickers = [p for p in people
                   if self.action(p) is _PICKUP and p.name not in self.knocked and self.can_act(p)
                   and carried_tree(st, p.name) is None]
        if not pickers:
            return
        lying = [t for t in st.trees if t is not None and t.carrier is None and t.at == tile
                 and self.tree_available(t.team, tile)]
        for tree in lying:
            fish = self.board.fish[tree.team]
            for p in pickers:
                if p.team != tree.team:
                    tree.carrier = p.name
                    pickers.remove(p)
                    self.log(EventKind.TREE_PICKED_UP,
                             f"{p.name} picks up {self.team(tree.team)}'s tree on {tile.label}.",
                             player=p.name, tree=self.team(tree.team), at=tile.label)
                    break
                if self.s.own_tree_pickup is OwnTreePickup.RETURN and fish is not None:
                    pickers.remove(p)
                    if tree.at != fish:
                        tree.at = fish
                        self.log(EventKind.TREE_RETURNED,
                                 f"{p.name} returns {self.team(tree.team)}'s own tree to its fish on {fish.label}.",
                                 player=p.name, tree=self.team(tree.team), at=fish.label)
                    break
        for p in pickers:
            if not any(t is not None and t.carrier == p.name for t in st.trees):
                self.log(EventKind.PICKUP_FAILED, f"{p.name} finds no tree to pick up on {tile.label}.",
                         player=p.name, at=tile.label)

    def tree_available(self, owner: int, tile: Coord) -> bool:
        """A tree on its fish tile can be taken only once that fish is destroyed."""
        fish = self.state.structures.get(tile)
        return not (fish is not None and fish.kind is StructureKind.FISH and fish.team == owner
                    and not fish.destroyed)

    def revives(self) -> None:
        st = self.state
        mode = self.s.movement
        for healer in st.players:
            if (healer.role is not _HEALER or healer.status is not _ACTIVE  # accepted revives: healers only
                    or self.action(healer) is not _REVIVE or not self.can_act(healer)):
                continue
            if self.s.healing_reduction_blocks_revive and Skill.HEALING_REDUCTION in self.active[1 - healer.team]:
                self.log(EventKind.REVIVED, f"{healer.name}'s revive is blocked by Healing Reduction.",
                         healer=healer.name, revived=[])
                continue
            reach = self.board.reach_of(healer.at, mode)
            raised = [p.name for p in st.players
                      if p.team == healer.team and p.status is _KNOCKED_DOWN and p.at in reach
                      and p.name not in self.revived]
            self.revived.update(raised)
            if raised:
                self.log(EventKind.REVIVED, f"{healer.name} revives {', '.join(raised)}.",
                         healer=healer.name, revived=raised)

    # -- end of turn -------------------------------------------------------------------------
    def bookkeeping(self) -> None:
        for p in self.state.players:
            if p.name in self.knocked:
                p.status = _KNOCKED_DOWN
                p.down_turn = self.turn
            elif p.status is _KNOCKED_DOWN:
                p.status = _ACTIVE
                p.down_turn = None
                if p.name not in self.revived:
                    home = self.board.respawn_tile(p.team)
                    if home is not None:
                        p.at = home
                    self.log(EventKind.RESPAWNED, f"{p.name} respawns at base on {p.at.label}.",
                             player=p.name, at=p.at.label)

    def turn_limit(self) -> None:
        if self.state.finished or self.turn < self.s.max_turns:
            return
        st = self.state
        winner = decide_turn_limit(self.rules, st)
        reach = [tree_distance(self.rules, st, t) for t in (0, 1)]
        how = (f"turn {self.turn} reached; captured trees stand {reach[0]} ({self.team(0)}) and "
               f"{reach[1]} ({self.team(1)}) steps from their fish")
        self.finish(winner, how)
