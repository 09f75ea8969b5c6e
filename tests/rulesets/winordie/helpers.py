"""Shared set-ups for the Win or Die unit tests: the default rules, a deployed match, bot play."""

from __future__ import annotations

from typing import Any

from sheets_gm.engine.events import Event
from sheets_gm.rulesets.registry import bots_of, create_ruleset
from sheets_gm.rulesets.winordie.engine import WodRuleset
from sheets_gm.rulesets.winordie.orders import WodOrders
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.state import WodState

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
