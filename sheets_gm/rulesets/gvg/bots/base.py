"""What every GvG bot shares: a team's orders, the bot protocol, and a match played out between two bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, TypeVar

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.enums import Action, Role, Skill, Status
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.resolve import resolve_turn
from sheets_gm.rulesets.gvg.rules import (
    GvgRules,
)
from sheets_gm.rulesets.gvg.state import GvgState

_T = TypeVar("_T")
_FAR = 1 << 30  # farther than any path
# Python 3.11 reads a member such as ``Status.ACTIVE`` off its class through EnumType's
# ``__getattr__`` hook, about 0.1 µs each; the per-player code below reads these constants.
_ACT = Action.ACT
_ACTIVE = Status.ACTIVE
_HEALER = Role.HEALER
_TANK = Role.TANK
_ORDERS: dict[tuple[Coord | None, Action], PlayerOrder] = {}


def new_order(move: Coord | None, action: Action) -> PlayerOrder:
    """The order (move, action): orders are immutable, so equal ones are shared, not rebuilt."""
    found = _ORDERS.get((move, action))
    if found is None:
        found = _ORDERS[(move, action)] = PlayerOrder(move=move, action=action)
    return found


def pick(rng: random.Random, items: Sequence[_T]) -> _T:
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

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: kit.TurnDice) -> TeamOrders:
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
    on_turn: Callable[[TurnOrders, kit.Resolution[GvgState]], None] | None = None,
) -> MatchResult:
    """Play ``state`` on with ``bots[0]`` for team slot 1 and ``bots[1]`` for slot 2.

    Stops when the match is finished, or after ``max_turns`` resolved turns if given.
    ``on_turn`` sees every turn's orders and resolution (to check verdicts, keep the log).
    """
    first, second = bots
    turns = events = 0
    while not state.finished and (max_turns is None or turns < max_turns):
        dice = kit.TurnDice(seed, state.turn)
        orders = merge_orders(first.orders(rules, state, 0, dice), second.orders(rules, state, 1, dice))
        resolution = resolve_turn(rules, state, orders, dice)
        if on_turn is not None:
            on_turn(orders, resolution)
        state = resolution.state
        turns += 1
        events += len(resolution.events)
    return MatchResult(state, events, turns)
