"""Shared set-ups for the Win or Die unit tests: the default rules, a deployed match, bot play."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.events import Event
from sheets_gm.engine.hexgrid import Hex
from sheets_gm.engine.ruleset import Resolution
from sheets_gm.rulesets.registry import bots_of, create_ruleset
from sheets_gm.rulesets.winordie.cards import Ability
from sheets_gm.rulesets.winordie.engine import WodRuleset
from sheets_gm.rulesets.winordie.enums import ActionKind, PassiveCue
from sheets_gm.rulesets.winordie.orders import Action, WodOrders
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.state import Unit, WodState

SEED = b"winordie tests"


def rules(settings: WodSettings | None = None) -> WodRuleset:
    """The ruleset on its default map."""
    found = create_ruleset("winordie", settings)
    assert isinstance(found, WodRuleset)
    return found


def step(r: WodRuleset, state: WodState, bot: str = "advance", seed: bytes = SEED) -> tuple[WodState, list[Event],
                                                                                           WodOrders]:
    """One window played by bots: the new state, its events and the orders."""
    window = r.window(state)
    assert window is not None
    dice = r.dice(seed, state)
    orders = r.merge_orders({s: bots_of(r)[bot].make(f"{seed.hex()}/{s}").orders(state, s, dice) for s in window.seats})
    res = r.resolve(state, orders, r.dice(seed, state))
    return res.state, res.events, orders


def deployed(r: WodRuleset, seed: bytes = SEED) -> WodState:
    """A sample match after both deployments (before the first turn)."""
    state = r.new_match(r.sample_roster(), seed)
    for _ in range(2):
        state, _events, _orders = step(r, state, seed=seed)
    return state


def play(r: WodRuleset, seed: bytes = SEED, bot: str = "advance") -> list[tuple[WodState, list[Event], WodState]]:
    """A whole bot match: (state before, events, state after) per window."""
    state = r.new_match(r.sample_roster(), seed)
    out: list[tuple[WodState, list[Event], WodState]] = []
    while r.window(state) is not None and len(out) < r.traits.max_windows:
        after, events, _orders = step(r, state, bot, seed)
        out.append((state, events, after))
        state = after
    return out


def canonical(data: Any) -> str:
    """JSON text for substring checks."""
    import json

    return json.dumps(data, sort_keys=True)


@dataclass(frozen=True)
class PassiveAttack:
    """A deployed match in which the acting player's unit with a passive (Frenzy or Charge) moves next to an enemy
    (a Charge's 2 hexes) and attacks it, the passive's cue met: the state before, the rows typed, and what their
    resolution gave."""

    rules: WodRuleset
    state: WodState
    attacker: Unit
    passive: Ability
    rows: tuple[Action, Action]
    first: Resolution[WodState]


def passive_attack(settings: WodSettings | None = None, *, one_hex: bool = False) -> PassiveAttack:
    """The move and attack of a unit whose passive stops the attack for the GM (see ``PassiveAttack``); ``one_hex``:
    the move is one hex, a Charge's 2 or more not met."""
    r = rules(settings)
    state = deployed(r).copy()
    acting = state.acting
    board = r.rules.board
    attacker = next(u for u in state.units if u.owner == acting and u.at is not None
                    and any(a.before for a in state.card_of(u).abilities))
    passive = next(a for a in state.card_of(attacker).abilities if a.before)
    enemy = next(u for u in state.units if u.owner != acting and u.at is not None)
    taken = {u.at for u in state.units}
    assert attacker.at is not None
    start = attacker.at

    def free(h: Hex) -> bool:
        return h not in taken and board.terrain[h].value == "."

    step_to = next(h for h in board.neighbours(start) if free(h))
    if passive.before is PassiveCue.MOVED_ATTACK and not one_hex:  # a Charge: "After moving 2 or more hexes""
        step_to = next(h for one in board.neighbours(start) if free(one) for h in board.neighbours(one)
                       if free(h) and board.distance(start, h) == 2)
    enemy.at = next(h for h in board.neighbours(step_to) if h not in taken and h != attacker.at)
    enemy.hidden = attacker.hidden = False
    attacker.damage = 1 if passive.before is PassiveCue.DAMAGED_ATTACK else 0
    rows = (Action(ActionKind.MOVE, attacker.id, step_to.label), Action(ActionKind.ATTACK, attacker.id, enemy.id))
    first = r.resolve(state, WodOrders(actions={acting: rows}, hold=(acting,)), r.dice(SEED, state))
    return PassiveAttack(r, state, attacker, passive, rows, first)
