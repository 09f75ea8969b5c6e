"""Resolving a player's order rows one after the other, then the end of her turn and of the round.

Each row is checked against the board as it is when the row resolves: a row that has become
impossible (its target died, its hex filled) is skipped with the reason and changes nothing.
Every verdict names the unit and the part of its order, with what would be accepted."""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.grid import CoordError
from sheets_gm.engine.hexgrid import Hex
from sheets_gm.engine.ruleset import Resolution, Verdict
from sheets_gm.engine.vocab import plural
from sheets_gm.rulesets.wesnoth.combat import best_attack, damage, hit_score
from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.movement import MoveRefused, plan_move
from sheets_gm.rulesets.wesnoth.orders import TurnOrders, UnitOrder
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import Player, Unit, WesnothState, time_of_day
from sheets_gm.rulesets.wesnoth.tables import Attack
from sheets_gm.rulesets.wesnoth.terrain import Feature

TRUE_WORDS = ("true", "yes", "y", "x", "1")


class TurnResolver:
    """A working copy of the state while one call resolves rows (the input state is never changed)."""

    def __init__(self, rules: WesnothRules, state: WesnothState, dice: TurnDice) -> None:
        self.rules = rules
        self.start = state
        self.dice = dice
        self.units: dict[str, Unit] = {u.id: u for u in state.units}
        self.players: list[Player] = list(state.players)
        self.villages: dict[Hex, str] = dict(state.villages)
        self.acted: list[str] = list(state.acted)
        self.round = state.round
        self.turn = state.turn
        self.acting = state.acting
        self.tod_override = state.tod_override
        self.finished = state.finished
        self.winner = state.winner
        self.events: list[Event] = []
        self.verdicts: list[Verdict] = []

    # -- the working state --------------------------------------------------------------------
    @property
    def tod(self) -> str:
        """The time of day now."""
        return self.tod_override or time_of_day(self.round)

    def state(self) -> WesnothState:
        """The working copy as a state."""
        villages = tuple(sorted(self.villages.items(), key=lambda kv: (kv[0].row, kv[0].col)))
        return WesnothState(self.round, self.turn, self.acting, tuple(self.players), tuple(self.units.values()),
                            villages, tuple(self.acted), self.tod_override, self.finished, self.winner)

    def player(self, name: str) -> tuple[int, Player]:
        """The index and record of the player called ``name``."""
        for i, p in enumerate(self.players):
            if p.name == name:
                return i, p
        raise KeyError(name)

    def gold(self, name: str, change: int) -> int:
        """Add ``change`` to a player's gold; her gold after it."""
        i, p = self.player(name)
        self.players[i] = replace(p, gold=p.gold + change)
        return p.gold + change

    def team(self, name: str) -> int:
        """A player's team number."""
        return self.player(name)[1].team

    def event(self, kind: EventKind, text: str, **data: object) -> None:
        """Log an event of this turn, under its round (the Log's Turn column counts rounds, as the status line,
        the orders tab and export do)."""
        self.events.append(Event(self.round, kind, text, dict(data)))

    def verdict(self, unit: Unit | None, subject: str, part: str, accepted: bool, message: str) -> None:
        """Record a verdict for the unit's owner (the acting player for an unknown unit); a refusal is logged too."""
        seat = unit.owner if unit is not None else self.players[self.acting].name
        self.verdicts.append(Verdict(seat, subject, part, accepted, message))
        if not accepted:
            self.event(EventKind.REFUSED, f"{subject} {part}: {message}", unit=subject, part=part)

    def hex(self, text: str) -> Hex:
        """The hex a player wrote, or CoordError saying what is accepted."""
        return self.rules.board.grid.parse(text)

    # -- rows ---------------------------------------------------------------------------------
    def run(self, orders: TurnOrders) -> None:
        """Record her standing advancement choices, resolve the rows in order, then end the turn if the orders
        say so."""
        for uid, choice in orders.advance_choices:
            self.standing_choice(uid, choice)
        for row in orders.rows:
            self.row(row)
        if orders.end_turn and not self.finished:
            self.end_turn()

    def standing_choice(self, uid: str, choice: str) -> None:
        """Set what a unit of the acting player becomes if it kills in a counter-attack ("" for nothing)."""
        acting = self.players[self.acting].name
        unit = self.units.get(uid)
        if unit is None or unit.owner != acting:
            self.verdict(unit, uid, "advance choice", False, f"{acting} has no unit {uid!r}")
            return
        text = choice.strip()
        targets = self.rules.utype(unit).advances_to
        if text.lower() in TRUE_WORDS:
            text = "true"
        elif text:
            text = next((a for a in targets if a.lower() == text.lower()), "")
            if not text:
                self.verdict(unit, uid, "advance choice", False, f"{unit.type} advances to "
                             f"{' or '.join(targets) or 'nothing'}, not {choice!r}")
                return
        if text != unit.advance:
            self.units[uid] = replace(unit, advance=text)

    def row(self, row: UnitOrder) -> None:
        """One order row."""
        acting = self.players[self.acting].name
        unit = self.units.get(row.unit)
        if self.finished:
            self.verdict(unit, row.unit, "order", False, "skipped: the game is over")
            return
        if unit is None:
            mine = ", ".join(u.id for u in self.units.values() if u.owner == acting) or "none"
            self.verdict(None, row.unit, "unit", False, f"there is no unit {row.unit!r} (dead or never recruited); "
                                                       f"{acting}'s units are {mine}")
            return
        if unit.owner != acting:
            self.verdict(unit, row.unit, "unit", False, f"{unit.id} is {unit.owner}'s unit; it is {acting}'s turn")
            return
        if unit.fresh:
            self.verdict(unit, unit.id, "order", False, f"{unit.id} was recruited this turn and acts from next turn")
            return
        if unit.id in self.acted:
            self.verdict(unit, unit.id, "order", False, f"{unit.id} has already acted this turn (one action a unit)")
            return
        wanted = (("move or attack", bool(row.move or row.attack or row.weapon)), ("rest", row.rest),
                  ("recruit", bool(row.recruit)), ("conquest", row.conquest))
        actions = [name for name, given in wanted if given]
        if len(actions) != 1:
            message = ("no action: give a move and/or an attack, rest, recruit or conquest" if not actions else
                       f"one action a unit, got {' and '.join(actions)}: keep one")
            self.verdict(unit, unit.id, "order", False, message)
            return
        if row.rest:
            self.rest(unit)
        elif row.recruit:
            self.recruit(unit, row)
        elif row.conquest:
            self.conquest(unit)
        else:
            self.move_and_attack(unit, row)

    def move_and_attack(self, unit: Unit, row: UnitOrder) -> None:
        """A move (with its stops and village), then the attack after it, if any."""
        if row.weapon and not row.attack:
            self.verdict(unit, unit.id, "weapon", False, "a weapon without a target: name the unit to attack")
            return
        if row.move:
            try:
                dest = self.hex(row.move)
                via = tuple(self.hex(v) for v in row.via)
            except CoordError as exc:
                self.verdict(unit, unit.id, "move", False, str(exc))
                return
            try:
                plan = plan_move(self.rules, self.state(), unit, dest, via)
            except MoveRefused as exc:
                self.verdict(unit, unit.id, "move", False, str(exc))
                if row.attack:
                    self.verdict(unit, unit.id, "attack", False, "not made: the move before it was refused")
                return
            self.acted.append(unit.id)
            unit = self.units[unit.id] = replace(unit, at=plan.end or unit.at)
            route = " ".join(h.label for h in plan.path)
            if plan.stopped:
                message = f"stopped on {unit.at.label} by {plan.stopped} ({plural(plan.cost, 'move')})"
                self.event(EventKind.MOVED, f"{unit.id} ({unit.type}) moves {route or 'nowhere'} and stops: "
                           f"{plan.stopped}", unit=unit.id, path=[h.label for h in plan.path], stopped=plan.stopped)
            else:
                message = f"moved to {unit.at.label} ({plural(plan.cost, 'move')})"
                self.event(EventKind.MOVED, f"{unit.id} ({unit.type}) moves {route} ({plural(plan.cost, 'move')})",
                           unit=unit.id, path=[h.label for h in plan.path])
            self.verdict(unit, unit.id, "move", True, message)
            self.land(unit)
            stopped = plan.stopped
        else:
            stopped = ""
        if row.attack:
            self.attack(unit, row, stopped)

    def land(self, unit: Unit) -> None:
        """A unit ending a move on a village its team does not own takes it and 1 gold."""
        if self.rules.board.cell(unit.at).feature is not Feature.VILLAGE:
            return
        owner = self.villages.get(unit.at)
        if owner is not None and self.team(owner) == self.team(unit.owner):
            return
        self.villages[unit.at] = unit.owner
        gold = self.gold(unit.owner, self.rules.settings.village_gold)
        self.event(EventKind.VILLAGE, f"{unit.owner} takes the village on {unit.at.label}"
                   + (f" from {owner}" if owner else "") + f" and {self.rules.settings.village_gold} gold "
                   f"({gold} gold)", player=unit.owner, at=unit.at.label, previous=owner)

    # -- combat -------------------------------------------------------------------------------
    def attack(self, unit: Unit, row: UnitOrder, stopped: str = "") -> None:
        """Check the target and weapon of a row's attack, then fight the exchange. ``stopped``: why the move
        before it ended early, if it did (the attack is then made from the stop, if the target is next to it)."""
        rules = self.rules
        target = self.units.get(row.attack)
        if target is None:
            self.verdict(unit, unit.id, "attack", False, f"skipped: there is no unit {row.attack!r} (dead, or "
                                                         "never there)")
            return
        if not rules.enemies(self.state(), unit.owner, target.owner):
            self.verdict(unit, unit.id, "attack", False, f"{target.id} is a friendly unit; attack an enemy")
            return
        if target.at not in rules.board.grid.neighbours(unit.at):
            if stopped:
                self.verdict(unit, unit.id, "attack", False, f"not made: the move stopped early on {unit.at.label} "
                                                             f"({stopped}), and {target.id} on {target.at.label} is "
                                                             f"not next to it")
            else:
                self.verdict(unit, unit.id, "attack", False, f"{target.id} on {target.at.label} is not next to "
                                                             f"{unit.id} on {unit.at.label}; attack an adjacent enemy")
            return
        utype = rules.utype(unit)
        if row.weapon:
            weapon = utype.attack_named(row.weapon)
            if weapon is None:
                self.verdict(unit, unit.id, "weapon", False, f"{unit.type} has no attack {row.weapon!r}; its "
                                                             f"attacks are {', '.join(utype.attack_names())}")
                return
        else:
            found = best_attack(rules, unit, target, self.tod)
            if found is None:
                self.verdict(unit, unit.id, "attack", False, f"{unit.type} has no attack")
                return
            weapon = found
        if unit.id not in self.acted:
            self.acted.append(unit.id)
        self.verdict(unit, unit.id, "attack", True, f"attacks {target.id} with {weapon.name}")
        self.exchange(unit, weapon, target, row.reroll_below, row.advance)

    def swings(self, key: str, count: int, score: int) -> tuple[int, list[str]]:
        """Roll ``count`` keyed swings needing ``score``: the hits and each die as the log shows it."""
        rolls = []
        hits = 0
        for n in range(1, count + 1):
            value = self.dice.d6(f"{key}/{n}")
            hits += value >= score
            rolls.append(f"{key}/{n}={value} {'hit' if value >= score else 'miss'}")
        return hits, rolls

    def strike(self, striker: Unit, weapon: Attack, target: Unit, key: str, reroll_below: int = 0) -> tuple[int, int]:
        """One side's swings and their damage (a reroll for the attacker); the wounds and whether it killed."""
        rules = self.rules
        score = hit_score(rules, weapon, target)
        hits, rolls = self.swings(key, weapon.swings, score)
        text = [f"{striker.id} ({striker.type}) strikes {target.id} ({target.type}) with {weapon.label}, hitting on "
                f"{score}+: {', '.join(rolls)}"]
        if reroll_below and hits < reroll_below:
            _, owner = self.player(striker.owner)
            cost = rules.settings.reroll_cost
            if owner.gold >= cost:
                self.gold(owner.name, -cost)
                hits, rerolls = self.swings(f"re{key}", weapon.swings, score)
                text.append(f"{owner.name} pays {cost} gold to reroll: {', '.join(rerolls)}")
            else:
                text.append(f"no reroll: {owner.name} has {owner.gold} gold, a reroll costs {cost}")
        wounds = damage(rules, striker, weapon, target, hits, self.tod)
        after = target.wounds + wounds
        hp = rules.utype(target).hitpoints
        if hits:
            bonus = rules.time_bonus(striker, self.tod)
            percent = rules.utype(target).resistance.get(weapon.damage_type, 100)
            base = f"{hits} × {weapon.damage}" + (f" {'+' if bonus > 0 else '−'} {abs(bonus)} ({self.tod})"
                                                  if bonus else "")
            if percent != 100:  # brackets: the time of day counts before the resistance
                base = (f"({base})" if bonus else base) + f" × {percent}% {weapon.damage_type}"
            text.append(f"{hits} hit{'s' if hits > 1 else ''}: {base} = {plural(wounds, 'wound')}, "
                        + (f"{target.id} is killed (0/{hp} HP)" if after >= hp
                           else f"{target.id} has {plural(after, 'wound')}, {hp - after}/{hp} HP"))
        else:
            text.append("no hit")
        self.units[target.id] = replace(target, wounds=after)
        self.event(EventKind.ATTACK, "; ".join(text), striker=striker.id, target=target.id, weapon=weapon.name,
                   hits=hits, wounds=wounds, dice={k: v for k, v in self.dice.rolled.items() if k.startswith(
                       (f"{key}/", f"re{key}/"))})
        return wounds, after >= hp

    def exchange(self, attacker: Unit, weapon: Attack, defender: Unit, reroll_below: int, advance: str) -> None:
        """The attack, then the counter of the same kind if the defender lives."""
        _, killed = self.strike(attacker, weapon, defender, f"swing/{attacker.id}", reroll_below)
        if killed:
            self.kill(self.units[attacker.id], self.units[defender.id], advance)
            return
        counter = best_attack(self.rules, defender, attacker, self.tod, weapon.kind.value)
        if counter is None:
            self.event(EventKind.ATTACK, f"{defender.id} ({defender.type}) has no {weapon.kind.value} attack: no "
                       "counter", striker=defender.id, target=attacker.id, hits=0, wounds=0)
            return
        _, killed = self.strike(self.units[defender.id], counter, self.units[attacker.id],
                                f"counter/{defender.id}/{attacker.id}")
        if killed:
            self.kill(self.units[defender.id], self.units[attacker.id], self.units[defender.id].advance)

    def kill(self, killer: Unit, dead: Unit, advance: str) -> None:
        """Remove the dead unit, pay the kill gold, advance the killer if asked, and see if the game is over."""
        level = self.rules.utype(dead).level
        gold = self.rules.settings.kill_gold * level
        del self.units[dead.id]
        total = self.gold(killer.owner, gold)
        self.event(EventKind.KILLED, f"{dead.id} ({dead.type}, {dead.owner}) dies; {killer.owner} gains {gold} gold "
                   f"({total} gold)", unit=dead.id, owner=dead.owner, killer=killer.id, player=killer.owner,
                   gold=gold, leader=dead.leader)
        if advance.strip():
            self.advance(killer, advance)
        self.check_end()

    def advance(self, unit: Unit, choice: str) -> None:
        """Advance a unit that dealt a final blow to the class chosen, if its player can pay."""
        utype = self.rules.utype(unit)
        if not utype.advances_to:
            self.verdict(unit, unit.id, "advance", False, f"{unit.type} has no advancement")
            return
        if choice.strip().lower() in TRUE_WORDS:
            target = utype.advances_to[0]
        else:
            target = next((a for a in utype.advances_to if a.lower() == choice.strip().lower()), "")
            if not target:
                self.verdict(unit, unit.id, "advance", False, f"{unit.type} advances to "
                             f"{' or '.join(utype.advances_to)}, not {choice!r}")
                return
        cost = self.rules.advance_cost(utype.level)
        _, owner = self.player(unit.owner)
        if owner.gold < cost:
            self.verdict(unit, unit.id, "advance", False, f"advancing a level-{utype.level} unit costs {cost} gold; "
                                                         f"{owner.name} has {owner.gold}")
            return
        total = self.gold(owner.name, -cost)
        self.units[unit.id] = replace(unit, type=target, wounds=0)
        self.verdict(unit, unit.id, "advance", True, f"advanced to {target} for {cost} gold")
        self.event(EventKind.ADVANCED, f"{unit.id} advances from {unit.type} to {target} for {cost} gold "
                   f"({total} gold left)", unit=unit.id, type=target, cost=cost)

    # -- other actions --------------------------------------------------------------------------
    def rest(self, unit: Unit) -> None:
        """Roll ``rest/<unit>`` and remove wounds (more in a village)."""
        roll = self.dice.d6(f"rest/{unit.id}")
        village = self.rules.board.cell(unit.at).feature is Feature.VILLAGE
        healed = (2 if roll == 6 else 1) if village else (1 if roll >= 5 else 0)
        healed = min(healed, unit.wounds)
        self.units[unit.id] = replace(unit, wounds=unit.wounds - healed)
        self.acted.append(unit.id)
        self.verdict(unit, unit.id, "rest", True, f"rested: rolled {roll}, {healed} wound{'s' if healed != 1 else ''}"
                     " removed")
        self.event(EventKind.RESTED, f"{unit.id} ({unit.type}) rests{' in a village' if village else ''}: "
                   f"rest/{unit.id}={roll}, {healed} wound{'s' if healed != 1 else ''} removed "
                   f"({unit.wounds - healed} left)", unit=unit.id, roll=roll, healed=healed)

    def recruit(self, leader: Unit, row: UnitOrder) -> None:
        """Recruit the row's entries in order while gold and castle hexes last, each refused alone if it cannot be."""
        rules = self.rules
        settings = rules.settings
        if not leader.leader:
            self.verdict(leader, leader.id, "recruit", False, "only the leader recruits")
            return
        _, player = self.player(leader.owner)
        keep = rules.board.keeps.get(player.slot)
        if settings.leader_on_keep and leader.at != keep:
            where = keep.label if keep else "her keep"
            self.verdict(leader, leader.id, "recruit", False, f"the leader recruits from its keep ({where}); it is on "
                                                              f"{leader.at.label}")
            return
        faction = rules.tables.factions.get(player.faction)
        own = faction.recruits if faction else ()
        mercenaries = rules.tables.mercenaries(player.faction)
        castle = rules.board.castle_of(player.slot)
        recruited = 0
        for entry in row.recruit:
            utype = rules.tables.unit(entry.type)
            if utype is None or (utype.name not in own and utype.name not in mercenaries):
                self.verdict(leader, leader.id, "recruit", False,
                             f"{entry.type!r} is not a recruit: {player.faction} recruits {', '.join(own)} for "
                             f"{settings.faction_cost} gold; mercenaries (any other faction's recruits) cost "
                             f"{settings.mercenary_cost}")
                continue
            cost = settings.faction_cost if utype.name in own else settings.mercenary_cost
            _, player = self.player(leader.owner)
            if player.gold < cost:
                self.verdict(leader, leader.id, "recruit", False, f"{utype.name} costs {cost} gold; {player.name} has "
                                                                  f"{player.gold}")
                continue
            taken = {u.at for u in self.units.values()}
            if entry.at:
                try:
                    spot: Hex | None = self.hex(entry.at)
                except CoordError as exc:
                    self.verdict(leader, leader.id, "recruit", False, f"{utype.name}: {exc}")
                    continue
                if spot not in castle or spot in taken:
                    free = [h.label for h in castle if h not in taken]
                    self.verdict(leader, leader.id, "recruit", False,
                                 f"{utype.name}: {entry.at} is not a free hex of {player.name}'s castle; free: "
                                 f"{', '.join(free) or 'none'}")
                    continue
            else:
                spot = next((h for h in castle if h not in taken), None)
                if spot is None:
                    self.verdict(leader, leader.id, "recruit", False, f"{utype.name}: no free castle hex left")
                    continue
            number = player.recruits + 1
            uid = entry.id.strip() or f"{player.name}-R{number}"
            if uid in self.units or any(uid == p.name for p in self.players):
                self.verdict(leader, leader.id, "recruit", False, f"{utype.name}: the id {uid!r} is taken; give "
                                                                  "another, or none")
                continue
            i, _ = self.player(leader.owner)
            self.players[i] = replace(player, gold=player.gold - cost, recruits=number)
            self.units[uid] = Unit(uid, utype.name, player.name, spot, fresh=True)
            recruited += 1
            self.verdict(leader, leader.id, "recruit", True, f"recruited {uid} ({utype.name}) on {spot.label} for "
                                                             f"{cost} gold")
            self.event(EventKind.RECRUITED, f"{player.name} recruits {uid} ({utype.name}) on {spot.label} for {cost} "
                       f"gold ({player.gold - cost} left)", player=player.name, unit=uid, type=utype.name,
                       at=spot.label, cost=cost, mercenary=utype.name not in own)
        if recruited:
            self.acted.append(leader.id)

    def conquest(self, unit: Unit) -> None:
        """Remove the player whose keep the unit stands on, with her units and villages."""
        rules = self.rules
        owner = rules.keep_owner(self.state(), unit.at)
        if owner is None or self.team(owner) == self.team(unit.owner):
            self.verdict(unit, unit.id, "conquest", False, f"{unit.at.label} is not an enemy keep; conquest is made "
                                                           "from the keep of an enemy still in the game")
            return
        self.acted.append(unit.id)
        i, loser = self.player(owner)
        self.players[i] = replace(loser, out=True)
        gone = [u.id for u in self.units.values() if u.owner == owner]
        for uid in gone:
            del self.units[uid]
        lost = [h for h, o in self.villages.items() if o == owner]
        for h in lost:
            del self.villages[h]
        self.verdict(unit, unit.id, "conquest", True, f"conquered {owner}'s castle")
        self.event(EventKind.CONQUERED, f"{unit.id} conquers {owner}'s keep on {unit.at.label}: {owner} leaves the "
                   f"game with {len(gone)} unit{'s' if len(gone) != 1 else ''}; {len(lost)} village"
                   f"{'s' if len(lost) != 1 else ''} unowned", player=owner, by=unit.owner, units=gone)
        self.check_end()

    # -- the end of turns, rounds and the game --------------------------------------------------
    def check_end(self) -> None:
        """The game ends when the living leaders all belong to one team (a draw if none lives)."""
        if self.finished:
            return
        teams = {self.team(u.owner) for u in self.units.values() if u.leader}
        if len(teams) > 1:
            return
        self.finished = True
        self.winner = next(iter(teams)) if teams else None
        text = f"team {self.winner} wins" if teams else "no leader is left: a draw"
        self.event(EventKind.GAME_OVER, f"The game is over: {text}", winner=self.winner)

    def end_turn(self) -> None:
        """Pass the turn to the next player in roster order who is still in the game and has units."""
        acting = self.players[self.acting].name
        for uid, u in list(self.units.items()):
            if u.owner == acting and u.fresh:
                self.units[uid] = replace(u, fresh=False)
        self.acted = []
        self.event(EventKind.TURN_ENDED, f"{acting} ends her turn", player=acting)
        self.turn += 1
        count = len(self.players)
        for _ in range(count):
            self.acting += 1
            if self.acting >= count:
                self.acting = 0
                self.new_round()
                if self.finished:
                    return
            p = self.players[self.acting]
            if not p.out and any(u.owner == p.name for u in self.units.values()):
                return
        self.check_end()

    def new_round(self) -> None:
        """The next round: the round limit, the time of day, and the dawn and dusk income."""
        settings = self.rules.settings
        if self.round >= settings.max_rounds:
            self.finished = True
            self.winner = None
            self.event(EventKind.GAME_OVER, f"The game is over: round {self.round} was the last, a draw",
                       winner=None)
            return
        self.round += 1
        self.tod_override = ""
        tod = self.tod
        self.event(EventKind.ROUND, f"Round {self.round} begins: {tod}", round=self.round, time_of_day=tod)
        if tod not in ("dawn", "dusk"):
            return
        counts = {p.name: 0 for p in self.players if not p.out}
        for owner in self.villages.values():
            if owner in counts:
                counts[owner] += 1
        most = max(counts.values(), default=0)
        if most == 0:
            return
        for name, n in counts.items():
            if n == most:
                total = self.gold(name, settings.income_gold)
                self.event(EventKind.INCOME, f"{name} holds the most villages ({n}) at {tod}: "
                           f"{settings.income_gold} gold ({total} gold)", player=name, gold=settings.income_gold)


def resolve_turn(rules: WesnothRules, state: WesnothState, orders: TurnOrders, dice: TurnDice
                 ) -> Resolution[WesnothState]:
    """The rows resolved in order (and the turn ended if ``orders.end_turn``): the new state, the events
    and a verdict per part of every row (``Resolution.verdicts``)."""
    work = TurnResolver(rules, state, dice)
    work.run(orders)
    return Resolution(work.state(), work.events, verdicts=work.verdicts)
