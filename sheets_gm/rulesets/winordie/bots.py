"""Bots that play legal Win or Die turns: deploy, advance on the enemy, attack with good odds, call
allies from the baseline and keep command tokens and standing reactions for the opponent's turn.

A bot plans its rows one by one on a copy of the state with the turn's own keyed dice, so every
row it writes is accepted when resolved (a reaction of the opponent may still make rows wait).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from sheets_gm.engine.hexgrid import Hex, cube
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.enums import AbilityType, ActionKind, Enhancement, Phase, Side, Trigger
from sheets_gm.rulesets.winordie.movement import reachable
from sheets_gm.rulesets.winordie.orders import Action, Placement, Reaction, WodOrders
from sheets_gm.rulesets.winordie.resolve.actions import try_action
from sheets_gm.rulesets.winordie.resolve.upkeep import start_of_turn
from sheets_gm.rulesets.winordie.rules import WodRules
from sheets_gm.rulesets.winordie.state import Unit, WodState

MAX_ROWS = 30  # a safety net: a turn never has more rows than tokens anyway


@dataclass(frozen=True, slots=True)
class Style:
    """How a bot plays: the tokens it keeps for reactions, how good an attack must look, randomness."""

    keep: int  # command tokens kept for the opponent's turn (when it has reaction abilities)
    odds: float  # attack when expected damage dealt ≥ odds × expected damage taken
    random: bool = False  # random legal rows instead of planned ones
    react_near: bool = False  # also react before enemy actions next to its units


STYLES = {
    "advance": Style(keep=1, odds=0.7),
    "cautious": Style(keep=2, odds=1.3, react_near=True),
    "random": Style(keep=0, odds=0.0, random=True),
}
HELP = {
    "advance": "deploys forward, advances on the nearest enemy, attacks with fair odds, keeps a token for reactions",
    "cautious": "attacks only with good odds, keeps two tokens and reacts before enemy actions next to it",
    "random": "random legal rows (moves, attacks, calls, abilities)",
}


def _p(hit: int) -> float:
    return max(0.0, min(1.0, (7 - hit) / 6))


class WodBot:
    """One player's bot."""

    def __init__(self, rules: WodRules, seed: str, style: Style) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.style = style

    def orders(self, state: WodState, seat: str, dice: kit.TurnDice) -> WodOrders:
        """Its deployment, its rows for its turn, or its standing reactions in the opponent's."""
        if state.phase is Phase.DEPLOY:
            return WodOrders(deploy={seat: self._deploy(state, seat)}) if state.acting == seat else WodOrders()
        if state.phase is not Phase.ACTIONS:
            return WodOrders()
        if state.acting != seat:
            return WodOrders(reactions={seat: self._reactions(state, seat)})
        return WodOrders(actions={seat: self._actions(state, seat, dice)})

    # -- deployment and reactions ----------------------------------------------------------
    def _deploy(self, state: WodState, seat: str) -> tuple[Placement, ...]:
        board = self.rules.board
        taken = {u.at for u in state.units if u.at is not None}
        hexes = [h for h in board.deploy_hexes(state.legions[seat].slot) if h not in taken]
        centre = Hex(board.grid.width // 2, board.grid.height // 2)
        if self.style.random:
            self.rng.shuffle(hexes)
        else:
            hexes.sort(key=lambda h: (board.distance(h, centre), h.row, h.col))
        units = [u for u in state.units if u.owner == seat and u.at is None]
        return tuple(Placement(u.id, h.label) for u, h in zip(units, hexes, strict=False))

    def _reactions(self, state: WodState, seat: str) -> tuple[Reaction, ...]:
        out = []
        for u in state.units:
            if u.owner != seat or u.at is None:
                continue
            for a in state.card_of(u).abilities:
                if a.type is AbilityType.REACTION:
                    out.append(Reaction(u.id, a.name, Trigger.ATTACKED))
                    if self.style.react_near:
                        out.append(Reaction(u.id, a.name, Trigger.NEAR, 1))
        return tuple(out)

    # -- the turn --------------------------------------------------------------------------
    def _actions(self, state: WodState, seat: str, dice: kit.TurnDice) -> tuple[Action, ...]:
        scratch = state.copy()
        scratch_events: list[kit.Event] = []
        if not scratch.started:
            start_of_turn(self.rules, scratch, scratch_events)
        reacts = any(a.type is AbilityType.REACTION for u in scratch.units if u.owner == seat
                     for a in scratch.card_of(u).abilities)
        keep = self.style.keep if reacts else 0
        rows: list[Action] = []
        called = False
        gaps: dict[frozenset[Hex], dict[Hex, int]] = {}
        while len(rows) < MAX_ROWS and scratch.phase is Phase.ACTIONS and scratch.acting == seat:
            legion = scratch.legions[seat]
            if legion.tokens <= keep:
                break
            candidates = (self._random(scratch, seat) if self.style.random
                          else self._plan(scratch, seat, called, gaps))
            chosen = None
            for action in candidates:
                if try_action(self.rules, scratch, action, dice, scratch_events) is None:
                    chosen = action
                    break
            if chosen is None:
                break
            called = called or chosen.kind is ActionKind.CALL
            rows.append(chosen)
        return tuple(rows)

    def _mine(self, state: WodState, seat: str) -> list[Unit]:
        limit = self.rules.settings.unit_tokens
        return [u for u in state.units if u.owner == seat and u.at is not None and u.tokens < limit]

    def _plan(self, state: WodState, seat: str, called: bool,
              gaps: dict[frozenset[Hex], dict[Hex, int]]) -> Iterator[Action]:
        """The rows worth trying now, best first: a good attack, a call, an advance, an ability (``gaps``: the
        turn's steps from a hex to the nearest enemy, per set of enemy hexes). Each kind is worked out only
        once the rows before it were all refused (a refused row leaves the state as it was): most rows are
        the first attack, and the advances cost the most."""
        board = self.rules.board
        enemies = [u for u in state.units if u.owner != seat and u.at is not None]
        mine = self._mine(state, seat)
        if not enemies or not mine:
            return
        attacks: list[tuple[float, Action]] = []
        for u in mine:
            assert u.at is not None
            card = state.card_of(u)
            for e in enemies:
                assert e.at is not None
                if board.targeting_problem(u.at, e.at, card.range) is not None:
                    continue
                dealt = state.power(u) * _p(card.hit) - (1 if e.has(Enhancement.TOUGHNESS) else 0)
                left = state.health(e) - e.damage
                taken = 0.0
                if board.distance(u.at, e.at) == 1 and dealt < left:
                    taken = state.counter_power(e) * _p(state.card_of(e).counter_hit)
                score = dealt + (2.0 if dealt >= left else 0.0) - taken
                if dealt >= self.style.odds * taken:
                    attacks.append((score, Action(ActionKind.ATTACK, u.id, e.at.label)))
        yield from (a for _, a in sorted(attacks, key=lambda x: -x[0]))
        if not called:
            yield from self._calls(state, seat)
        yield from self._advances(state, mine, enemies, gaps)
        yield from self._abilities(state, mine, enemies)

    def _abilities(self, state: WodState, mine: list[Unit], enemies: list[Unit]) -> list[Action]:
        """Action abilities of units with an enemy within their range + 2 (the GM applies them)."""
        board = self.rules.board
        out = []
        for u in mine:
            assert u.at is not None
            card = state.card_of(u)
            near = [e for e in enemies if e.at is not None and board.distance(u.at, e.at) <= card.range + 2]
            for a in card.abilities:
                if near and a.type is AbilityType.ACTION and a.name not in u.used:
                    assert near[0].at is not None
                    out.append(Action(ActionKind.ABILITY, u.id, a.name, aim=near[0].at.label))
        return out

    def _calls(self, state: WodState, seat: str) -> list[Action]:
        legion = state.legions[seat]
        affordable = sorted({c for c in legion.barrack if state.cards[c].cost <= legion.crystals},
                            key=lambda c: (state.cards[c].cost, c))
        if not affordable or legion.morale + state.cards[affordable[0]].cost > self.rules.settings.morale_cap:
            return []
        return [Action(ActionKind.CALL, u.id, affordable[0], side)
                for u in self._mine(state, seat) if u.at is not None and self.rules.board.bases.get(u.at) == legion.slot
                for side in (Side.LEFT, Side.RIGHT)]

    def _advances(self, state: WodState, mine: list[Unit], enemies: list[Unit],
                  gaps: dict[frozenset[Hex], dict[Hex, int]]) -> list[Action]:
        board = self.rules.board
        targets = [cube(e.at) for e in enemies if e.at is not None]
        # Steps to the nearest enemy, per hex: the units' reaches overlap, and the enemies stay put during
        # the turn's rows (but for a kill), so the table lasts while the set of enemy hexes does.
        nearest = gaps.setdefault(frozenset(e.at for e in enemies if e.at is not None), {})

        def gap(h: Hex) -> int:
            found = nearest.get(h)
            if found is None:
                x, y, z = cube(h)
                found = nearest[h] = min(max(abs(x - tx), abs(y - ty), abs(z - tz)) for tx, ty, tz in targets)
            return found

        out: list[tuple[int, int, Action]] = []
        for u in mine:
            assert u.at is not None
            if u.moves >= 2:
                continue
            reach = state.card_of(u).range
            now = gap(u.at)
            if now <= reach:
                continue
            best: tuple[int, int, Hex] | None = None
            for h, steps in reachable(board, self.rules.settings, state, u).items():
                d = gap(h)
                key = (max(d, reach), -steps, h)
                if d < now and (best is None or key[:2] < best[:2]):
                    best = key
            if best is not None:
                out.append((best[0], best[1], Action(ActionKind.MOVE, u.id, best[2].label)))
        out.sort(key=lambda x: (x[0], x[1]))
        return [a for _, _, a in out]

    def _random(self, state: WodState, seat: str) -> list[Action]:
        board = self.rules.board
        out: list[Action] = []
        for u in self._mine(state, seat):
            assert u.at is not None
            card = state.card_of(u)
            for e in state.units:
                if e.owner != seat and e.at is not None and board.targeting_problem(u.at, e.at, card.range) is None:
                    out.append(Action(ActionKind.ATTACK, u.id, e.at.label))
            hexes = sorted(reachable(board, self.rules.settings, state, u), key=lambda h: (h.row, h.col))
            if hexes:
                out.append(Action(ActionKind.MOVE, u.id, self.rng.choice(hexes).label))
            for a in card.abilities:
                if a.type in (AbilityType.ACTION, AbilityType.ULTIMATE):
                    out.append(Action(ActionKind.ABILITY, u.id, a.name))
        out += self._calls(state, seat)
        self.rng.shuffle(out)
        return out


def bot_kinds(rules: WodRules) -> Mapping[str, kit.BotKind]:
    """The kinds of bot, the default first."""
    def maker(style: Style) -> Callable[[str], WodBot]:
        return lambda seed: WodBot(rules, seed, style)

    return {name: kit.BotKind(name, HELP[name], maker(style)) for name, style in STYLES.items()}
