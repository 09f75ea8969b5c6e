"""Bots for the Wesnoth board game: they write one row at a time and see each row's result before the
next, as a player does in ``step`` mode, and never send a row the engine would refuse.

- ``skirmisher`` (the default): the leader recruits while gold and castle hexes last; a badly
  wounded unit retreats to a village (or rests); a unit attacks where the expected exchange is
  good for it (damage and kill chances dealt against those taken in the counter); the others
  take villages their team does not own, then march on the nearest enemy.
- ``random``: random but legal rows.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.combat import _hit_chances, best_attack, damages, hit_score
from sheets_gm.rulesets.wesnoth.movement import reachable
from sheets_gm.rulesets.wesnoth.orders import RecruitEntry, TurnOrders, UnitOrder
from sheets_gm.rulesets.wesnoth.resolve import ResolvedAhead
from sheets_gm.rulesets.wesnoth.resolve.rows import resolve_row, standing_choice
from sheets_gm.rulesets.wesnoth.resolve.upkeep import end_turn
from sheets_gm.rulesets.wesnoth.resolve.work import TurnWork
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import Unit, WesnothState, teams_by_name
from sheets_gm.rulesets.wesnoth.tables import Attack, UnitType
from sheets_gm.rulesets.wesnoth.terrain import Feature, Terrain


@dataclass(frozen=True, slots=True)
class Exchange:
    """What an attack is expected to bring: damage each way and the chances of a kill each way."""

    dealt: float
    taken: float
    kill: float
    die: float


def exchange(rules: WesnothRules, attacker: Unit, weapon: Attack, defender: Unit, tod: str) -> Exchange:
    """The expected result of ``attacker`` striking ``defender`` with ``weapon`` and the counter after it."""
    hp_def = rules.utype(defender).hitpoints - defender.wounds
    hp_att = rules.utype(attacker).hitpoints - attacker.wounds
    chances = _hit_chances(weapon.swings, hit_score(rules, weapon, defender))
    counter = best_attack(rules, defender, attacker, tod, weapon.kind.value)
    if counter is not None:
        back = _hit_chances(counter.swings, hit_score(rules, counter, attacker))
        back_damage = damages(rules, defender, counter, attacker, tod)
        counter_mean = sum(p * d for p, d in zip(back, back_damage, strict=True))
        counter_kill = sum(p for p, d in zip(back, back_damage, strict=True) if d >= hp_att)
    else:
        counter_mean = counter_kill = 0.0
    dealt = taken = kill = die = 0.0
    for p, wounds in zip(chances, damages(rules, attacker, weapon, defender, tod), strict=True):
        dealt += p * min(wounds, hp_def)
        if wounds >= hp_def:
            kill += p
        else:
            taken += p * min(counter_mean, hp_att)
            die += p * counter_kill
    return Exchange(dealt, taken, kill, die)


#: How often a recruiting bot hires a mercenary worth its price, when it can pay for one.
MERCENARY_SHARE = 0.3


@cache
def _worth(level: int) -> float:
    return 8.0 * (1 + level)


class _TurnBeingWritten:
    """A turn's rows so far, each resolved on the engine as it is tried, and kept only if the engine accepts all
    of it: the rows, their resolution so far (``work``) and the state it leaves (``current``)."""

    def __init__(self, rules: WesnothRules, state: WesnothState, dice: kit.TurnDice,
                 choices: tuple[tuple[str, str], ...] = ()) -> None:
        self.rules = rules
        self.work = TurnWork(rules, state, dice)
        #: her standing advancement choices, recorded first as ``resolve_turn`` records them
        self.choices = choices
        for uid, choice in choices:
            standing_choice(self.work, uid, choice)
        self.current = self.work.state() if choices else state
        self.rows: list[UnitOrder] = []
        #: Rows tried so far that could have changed another unit (a move within the unit's reach cannot: ``play``).
        self.tried = 0

    def play(self, row: UnitOrder | None, in_reach: bool = False) -> bool:
        """Keep ``row`` if the engine accepts all of it (else without its advance and reroll); whether kept.

        ``in_reach``: the bot vouches that a row that only moves goes to a hex of the unit's reach other than its
        own (``reachable``). The engine always accepts such a move, and all it does is take the unit there and
        take the village: no other unit changes, so it is not counted in ``tried``."""
        if row is None:
            return False
        if not (in_reach and row.move and not (row.via or row.attack or row.weapon or row.rest or row.recruit
                                               or row.conquest)):
            self.tried += 1
        if self._keep(row):
            return True
        return bool(row.advance or row.reroll_below) and self._keep(
            UnitOrder(row.unit, row.move, row.via, row.attack, row.weapon))

    def _keep(self, row: UnitOrder) -> bool:
        """Resolve ``row`` on a copy of the turn so far; keep the copy if every part of the row was accepted, else
        take back its dice."""
        trial = self.work.copy()
        mark = trial.dice.record_mark()  # the turn's one set of dice, shared by every copy
        before = len(trial.verdicts)
        resolve_row(trial, row)
        said = trial.verdicts[before:]
        if not said or not all(v.accepted for v in said):
            trial.dice.take_back(mark)
            return False
        self.work = trial
        self.rows.append(row)
        self.current = trial.state()
        return True

    def ended(self) -> kit.Resolution[WesnothState]:
        """The turn's resolution once the rows are written: the rows' and then the end of the turn's, as
        ``resolve_turn`` gives for these rows and End turn."""
        if not self.work.finished:
            end_turn(self.work)
        return self.work.resolution()


class _RowBot:
    """A bot that writes its seat's turn row by row (``write``), then ends it."""

    def __init__(self, rules: WesnothRules, seed: str, ahead: ResolvedAhead | None = None) -> None:
        self.rules = rules
        self.seed = seed
        #: Where the bot hands over each turn it wrote, resolved (the ruleset's: see ``ResolvedAhead``).
        self.ahead = ahead

    def orders(self, state: WesnothState, seat: str, dice: kit.TurnDice) -> TurnOrders:
        """The seat's rows for its turn, then End turn (nothing when it is not the seat's turn). Every row was
        resolved on the engine as the bot wrote it: the turn's resolution is handed to ``ahead``."""
        if state.finished or state.acting_player.name != seat:
            return TurnOrders(seat, (), True)
        turn = _TurnBeingWritten(self.rules, state, dice, self.standing_choices(state, seat))
        self.write(turn, seat, random.Random(f"{self.seed}/{state.turn}"))
        orders = TurnOrders(seat, tuple(turn.rows), True, turn.choices)
        if self.ahead is not None:
            self.ahead.keep(state, orders, dice, turn.ended())
        return orders

    def standing_choices(self, state: WesnothState, seat: str) -> tuple[tuple[str, str], ...]:
        """Her units whose advancement costs nothing (level 0, unless ``advance_min_cost`` says otherwise) and do
        not say so yet, each to take its first advancement if it kills in a counter-attack. A paid one is not
        asked for: a counter-kill comes in the enemy's turn, when the gold the bot had has gone to recruits."""
        rules = self.rules
        return tuple((u.id, "true") for u in state.units
                     if u.owner == seat and u.advance != "true" and (utype := rules.utype(u)).advances_to
                     and rules.advance_cost(utype.level) == 0)

    def write(self, turn: _TurnBeingWritten, seat: str, rng: random.Random) -> None:
        """Play the seat's rows on ``turn``."""
        raise NotImplementedError


class SkirmisherBot(_RowBot):
    """Recruits, takes villages, attacks where the exchange is good, retreats to heal."""

    def write(self, turn: _TurnBeingWritten, seat: str, rng: random.Random) -> None:
        state = turn.current
        mine = [u for u in state.units if u.owner == seat and not u.fresh]
        leader = next((u for u in mine if u.leader), None)
        engaged = self._engaged(state)
        others = sorted((u for u in mine if not u.leader), key=lambda u: (-engaged(u), u.id))
        seen: tuple[int, _Around] | None = None

        def around() -> _Around:
            """The enemies as they are now: only a row resolved on the engine can have wounded or killed one."""
            nonlocal seen
            if seen is None or seen[0] != turn.tried:
                seen = (turn.tried, _Around.of(self.rules, turn.current, seat))
            return seen[1]

        for unit in others:
            live = turn.current.unit(unit.id)
            if live is not None and not turn.current.finished:
                turn.play(self.plan(turn.current, live, around(), rng), in_reach=True)
        if leader is not None and not turn.current.finished:
            live = turn.current.unit(leader.id)
            if live is not None and not turn.play(self.recruit(turn.current, live, rng)):
                turn.play(self.plan(turn.current, live, around(), rng, stay=True), in_reach=True)

    def _engaged(self, state: WesnothState) -> Callable[[Unit], int]:
        """How many enemies stand next to a unit."""
        teams = teams_by_name(state.players)
        occupant = {u.at: u for u in state.units}
        adjacency = self.rules.board.routes.adjacency

        def count(unit: Unit) -> int:
            side = teams.get(unit.owner, 0)
            return sum(1 for n in adjacency[unit.at] if (u := occupant.get(n)) is not None
                       and teams.get(u.owner, 0) != side)
        return count

    # -- recruiting ---------------------------------------------------------------------------
    def recruit(self, state: WesnothState, leader: Unit, rng: random.Random) -> UnitOrder | None:
        """As many of its faction's recruits (chosen at random) as gold and free castle hexes allow."""
        rules = self.rules
        player = state.player(leader.owner)
        if player is None:
            return None
        settings = rules.settings
        if settings.leader_on_keep and leader.at != rules.board.keeps.get(player.slot):
            return None
        faction = rules.tables.factions[player.faction]
        taken = {u.at for u in state.units}
        free = [h for h in rules.board.castle_of(player.slot) if h not in taken]
        gold = player.gold
        hired = self.worth_hiring(player.faction)
        entries: list[RecruitEntry] = []
        for _ in free:
            if hired and gold >= settings.mercenary_cost and rng.random() < MERCENARY_SHARE:
                entries.append(RecruitEntry(rng.choice(hired)))
                gold -= settings.mercenary_cost
                continue
            if gold < settings.faction_cost:
                break
            entries.append(RecruitEntry(rng.choice(faction.recruits)))
            gold -= settings.faction_cost
        return UnitOrder(leader.id, recruit=tuple(entries)) if entries else None

    def worth_hiring(self, faction_name: str) -> tuple[str, ...]:
        """The mercenaries worth their price to this faction: more of Wesnoth's gold value per board gold than its
        own recruits give on average (a mercenary costs more board gold than a recruit of the faction)."""
        rules = self.rules
        settings = rules.settings
        own = rules.tables.factions[faction_name].recruits
        if not own or settings.mercenary_cost <= 0:
            return ()
        own_value = sum(rules.tables.units[r].cost for r in own) / len(own) / max(1, settings.faction_cost)
        return tuple(m for m in rules.tables.mercenaries(faction_name)
                     if rules.tables.units[m].cost / settings.mercenary_cost > own_value)

    # -- one unit -----------------------------------------------------------------------------
    def plan(self, state: WesnothState, unit: Unit, around: _Around, rng: random.Random, stay: bool = False
             ) -> UnitOrder | None:
        """One unit's row: conquest from an enemy keep, retreat when badly hurt, a good attack, else advance
        (``stay``: the leader, which attacks only from where it stands and otherwise rests). The unit's reach is
        searched once, and only when the row depends on it."""
        rules = self.rules
        keep_owner = rules.keep_owner(state, unit.at)
        if keep_owner is not None and rules.enemies(state, keep_owner, unit.owner):
            return UnitOrder(unit.id, conquest=True)
        hurt = unit.wounds * 2 >= rules.utype(unit).hitpoints
        if hurt and unit.at not in around.near_enemy and rules.board.cell(unit.at).feature is Feature.VILLAGE:
            return UnitOrder(unit.id, rest=True)  # heals where it stands, out of reach of a blow
        hexes: Mapping[Hex, float] = {unit.at: 0.0} if stay else reachable(rules, state, unit)
        if hurt:
            return self.retreat(unit, hexes, around)
        attack = self.best_attack(state, unit, hexes, around)
        if attack is not None:
            return attack
        if stay:
            return UnitOrder(unit.id, rest=True) if unit.wounds else None
        return self.advance(state, unit, hexes, around, rng)

    def best_attack(self, state: WesnothState, unit: Unit, hexes: Mapping[Hex, float], around: _Around
                    ) -> UnitOrder | None:
        """The reachable hex and adjacent enemy with the best expected exchange, if it is good enough."""
        rules = self.rules
        board = rules.board
        front = around.near_enemy
        spots = [h for h in hexes if h in front]
        if not spots:
            return None
        tod = state.time_of_day
        by_hex = around.by_hex
        best: tuple[float, UnitOrder] | None = None
        utype = rules.utype(unit)
        gold = player.gold if (player := state.player(unit.owner)) is not None else 0
        kill_gold = rules.settings.kill_gold
        lost = _worth(utype.level) + (60 if unit.leader else 0)
        # the weapons and the exchange depend on where the unit strikes from only through its terrain
        exchanges: dict[tuple[str, Terrain], tuple[Attack, float] | None] = {}
        adjacency = board.routes.adjacency
        defences = rules.defences(unit)
        for h in spots:
            terrain = board.terrain(h)
            cover = 0.5 * defences[h]
            for n in adjacency[h]:
                target = by_hex.get(n)
                if target is None:
                    continue
                key = (target.id, terrain)
                if key not in exchanges:
                    placed = unit.moved_to(h)
                    weapon = best_attack(rules, placed, target, tod)
                    if weapon is None:
                        exchanges[key] = None
                    else:
                        x = exchange(rules, placed, weapon, target, tod)
                        worth = _worth(rules.utype(target).level) + (40 if target.leader else 0)
                        exchanges[key] = (weapon, x.dealt - 0.8 * x.taken + x.kill * worth - x.die * lost)
                found = exchanges[key]
                if found is None:
                    continue
                weapon, value = found
                score = value + cover
                if best is None or score > best[0]:
                    move = "" if h == unit.at else h.label
                    # the gold in hand when the blow lands: what she has and the kill's gold
                    paid = gold + kill_gold * rules.utype(target).level
                    best = (score, UnitOrder(unit.id, move=move, attack=target.id, weapon=self._name(unit, weapon),
                                             advance=self.advance_word(utype, paid)))
        if best is not None and best[0] > 2.5:
            return best[1]
        return None

    def advance_word(self, utype: UnitType, gold: int) -> str:
        """What a bot types in Advance for a unit of ``utype`` whose final blow finds ``gold`` in hand: ``true``
        (its first advancement) whenever it can pay. An advancement is worth its price by the rules: a level up
        and every wound healed for ``advance_cost`` gold a level (a level-0 unit's for nothing unless
        ``advance_min_cost`` says otherwise), where a new level-1 recruit costs about as much and comes on its
        keep, not on the front."""
        if not utype.advances_to or gold < self.rules.advance_cost(utype.level):
            return ""
        return "true"

    def _name(self, unit: Unit, weapon: Attack) -> str:
        twins = [a for a in self.rules.utype(unit).attacks if a.name == weapon.name]
        return weapon.name if len(twins) == 1 else f"{weapon.name}/{weapon.damage_type}"

    def retreat(self, unit: Unit, hexes: Mapping[Hex, float], around: _Around) -> UnitOrder | None:
        """Move to a village out of enemy reach; else rest where safe, or step away (a wounded unit that
        stands on a safe village rests there: ``plan``)."""
        rules = self.rules
        board = rules.board
        near_enemy = around.near_enemy
        villages = [h for h in hexes if h in board.village_set and h not in near_enemy and h != unit.at]
        if villages:
            target = min(villages, key=lambda h: (hexes[h], h.row, h.col))
            return UnitOrder(unit.id, move=target.label)
        if unit.at not in near_enemy:
            return UnitOrder(unit.id, rest=True)
        safe = [h for h in hexes if h not in near_enemy and h != unit.at]
        if safe:
            defences = rules.defences(unit)
            return UnitOrder(unit.id, move=min(safe, key=lambda h: (-defences[h], h.row, h.col)).label)
        return None

    def advance(self, state: WesnothState, unit: Unit, hexes: Mapping[Hex, float], around: _Around,
                rng: random.Random) -> UnitOrder | None:
        """Take a village the team does not own within reach; else close in on the nearest such village or enemy
        leader, preferring hexes of good defence."""
        rules = self.rules
        board = rules.board
        teams = around.teams
        team = around.side
        claimed = {h for h, o in state.villages if teams.get(o, 0) == team}
        wanted = [v for v in board.villages if v not in claimed]
        near_enemy = around.near_enemy
        open_villages = [h for h in hexes if h in board.village_set and h not in claimed and h != unit.at]
        if open_villages:
            target = min(open_villages, key=lambda h: (h in near_enemy, hexes[h], h.row, h.col))
            return UnitOrder(unit.id, move=target.label)
        enemies = around.enemies
        goals = wanted or [e.at for e in enemies if e.leader] or [e.at for e in enemies]
        if not goals:
            return None
        far = board.routes.nearest(rules.move_costs(unit), goals, [unit.at, *hexes])
        here = far[unit.at]
        options = [h for h in hexes if h != unit.at and far[h] < here]
        if not options:
            return None
        defences, noise = rules.defences(unit), rng.random
        best = min(options, key=lambda h: (far[h] - 0.3 * defences[h] + noise() * 0.01, h.row, h.col))
        return UnitOrder(unit.id, move=best.label)


@dataclass(frozen=True, slots=True)
class _Around:
    """What a seat's plans need to know of the others: each player's team, the seat's side, its enemies (also by
    hex) and the hexes next to them."""

    teams: dict[str, int]
    side: int
    enemies: list[Unit]
    by_hex: dict[Hex, Unit]
    near_enemy: set[Hex]

    @classmethod
    def of(cls, rules: WesnothRules, state: WesnothState, seat: str) -> _Around:
        """The others as ``seat`` sees them in ``state``."""
        teams = teams_by_name(state.players)
        side = teams.get(seat, 0)
        enemies = [u for u in state.units if teams.get(u.owner, 0) != side]
        adjacency = rules.board.routes.adjacency
        return cls(teams, side, enemies, {e.at: e for e in enemies}, {n for e in enemies for n in adjacency[e.at]})


class RandomBot(_RowBot):
    """Random but legal rows: each unit tries a random move, attack, rest or (the leader) recruit."""

    def write(self, turn: _TurnBeingWritten, seat: str, rng: random.Random) -> None:
        rules = self.rules
        for unit in [u for u in turn.current.units if u.owner == seat and not u.fresh]:
            current = turn.current
            live = current.unit(unit.id)
            if live is None or current.finished:
                continue
            options: list[UnitOrder] = [UnitOrder(unit.id, rest=True)]
            if live.leader:
                player = current.player(seat)
                faction = rules.tables.factions[player.faction] if player else None
                if faction:
                    options.append(UnitOrder(unit.id, recruit=(RecruitEntry(rng.choice(faction.recruits)),)))
            hexes = sorted(reachable(rules, current, live), key=lambda h: (h.row, h.col))
            for h in rng.sample(hexes, min(4, len(hexes))):
                if h != live.at:
                    options.append(UnitOrder(unit.id, move=h.label))
            for e in current.units:
                if e.at in rules.board.grid.neighbours(live.at) and rules.enemies(current, e.owner, seat):
                    options.append(UnitOrder(unit.id, attack=e.id))
            rng.shuffle(options)
            for row in options:
                if turn.play(row, in_reach=True):
                    break
