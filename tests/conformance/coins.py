"""A small game without a map, for the shared tests: three players and a pot of 12 coins. Every turn each names, in
secret, 0 to 3 coins she takes; the takes are then told publicly. When they come to more than the pot holds,
nobody takes any; else each takes hers. After four turns the most coins win. Its only secrets are the orders not
resolved yet.

Each of its settings plants one mistake, for the tests to find (``tests/conformance/test_toy_games.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, ClassVar

from sheets_gm.rulesets import kit

POT = 12
TURNS = 4
Kind = Enum("Kind", "TAKES END")


@dataclass(frozen=True)
class Settings:
    """No house rule of the game's own: the mistakes a test may plant, one at a time."""

    random_setup: bool = False  # who is told first drawn with Python's random
    fixed_window: bool = False  # every turn's window has the same key
    late: bool = False  # each turn's takes kept in the state, out of every view, and carried out a turn late


@dataclass(frozen=True)
class State:
    """Each player's coins (in the order the takes are told), the pot, the turn, the takes kept (``late``)."""

    coins: Mapping[str, int]
    pot: int = POT
    turn: int = 1
    kept: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Orders:
    """What each player takes this turn."""

    takes: Mapping[str, int] = field(default_factory=dict)


class Rules(kit.Ruleset[State, Orders, dict[str, Any]]):
    """The rules of the pot (see the module)."""

    traits: ClassVar[kit.RulesetTraits] = kit.RulesetTraits(
        name="coins", title="Coins (a test game without a map)", turn_structure=kit.TurnStructure.SIMULTANEOUS,
        seat_kind=kit.SeatKind.PLAYER, information=kit.Information.PRIVATE_ORDERS, board_kind=kit.BoardKind.SQUARE,
        min_seats=3, max_seats=3, max_windows=TURNS, settings_type=Settings)
    reveals = (kit.Reveal(Kind.TAKES, orders=("takes",)),)

    def sample_roster(self) -> kit.Roster:
        """Ann, Bo and Cy."""
        return kit.Roster(("Ann", "Bo", "Cy"), tuple(kit.Member(n, n) for n in ("Ann", "Bo", "Cy")))

    def new_match(self, roster: kit.Roster, seed: bytes) -> State:
        """No coins yet, the pot full."""
        seats = random.sample(roster.seats, len(roster.seats)) if self.settings.random_setup else roster.seats
        return State(dict.fromkeys(seats, 0))

    def seats(self, state: State) -> tuple[str, ...]:
        """The players."""
        return tuple(state.coins)

    def window(self, state: State) -> kit.Window | None:
        """One window a turn, every player in it."""
        if state.turn > TURNS:
            return None
        key = "turn" if self.settings.fixed_window else str(state.turn)
        return kit.Window(key, f"turn {state.turn}", "take", self.seats(state), state.turn)

    def dice(self, seed: bytes, state: State, pins: Mapping[str, Any] | None = None) -> kit.TurnDice:
        """The turn's dice (never rolled)."""
        return kit.TurnDice(seed, state.turn, pins)

    def merge_orders(self, parts: Mapping[str, Orders]) -> Orders:
        """Each player's take."""
        return Orders({seat: n for part in parts.values() for seat, n in part.takes.items()})

    def check(self, state: State, orders: Orders, dice: kit.TurnDice) -> list[kit.Verdict]:
        """A take of 0 to 3 is accepted from a player."""
        out = []
        for seat, n in orders.takes.items():
            ok = seat in state.coins and 0 <= n <= 3
            out.append(kit.Verdict(seat, seat, "take", ok, f"you take {n}" if ok else f"take 0 to 3, not {n}"))
        return out

    def resolve(self, state: State, orders: Orders, dice: kit.TurnDice) -> kit.Resolution[State]:
        """The takes told; each taken, unless they come to more than the pot holds."""
        carried = Orders(dict(state.kept)) if self.settings.late else orders
        takes = {v.seat: carried.takes[v.seat] for v in self.check(state, carried, dice) if v.accepted}
        told = ", ".join(f"{s} {takes.get(s, 0)}" for s in state.coins)
        greedy = sum(takes.values()) > state.pot
        events = [kit.Event(state.turn, Kind.TAKES, f"Takes: {told}{' (too many: nobody takes)' if greedy else ''}.")]
        coins = {s: c + (0 if greedy else takes.get(s, 0)) for s, c in state.coins.items()}
        after = replace(state, coins=coins, pot=state.pot - (0 if greedy else sum(takes.values())),
                        turn=state.turn + 1, kept=dict(orders.takes) if self.settings.late else {})
        return kit.Resolution(after, events)

    def outcome(self, state: State) -> kit.Outcome | None:
        """The most coins win after the last turn."""
        if state.turn <= TURNS:
            return None
        best = max(state.coins.values())
        winners = tuple(s for s, n in state.coins.items() if n == best)
        return kit.Outcome(winners, f"{' and '.join(winners)} won with {best}")

    def seat_state(self, state: State, seat: str) -> State:
        """Everything but the takes kept."""
        return replace(state, kept={})


@dataclass
class Taker:
    """A bot: 0 to 3 coins at random."""

    rng: random.Random

    def orders(self, state: State, seat: str, dice: kit.TurnDice) -> Orders:
        """Her take."""
        return Orders({seat: self.rng.randint(0, 3)})


#: The game's one kind of bot.
BOTS = {"taker": kit.BotKind("taker", "0 to 3 coins at random", lambda seed: Taker(random.Random(seed)))}
