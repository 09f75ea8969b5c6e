"""A small game of hidden positions for the noninterference tests across a resolution: three scouts on a 4×4 grid,
each seeing only her own square. Every turn each names the square she goes to (her own or one next to it, diagonals
too); scouts who end a turn on one square meet there, which the rules reveal to them (the one kind of line the game
names a reveal). Six turns.

Each of its settings plants a mistake for the tests to find: ``publish_moves`` adds a public line for each move ("Ann
moves to B2.", written like the starter's own move lines), ``late`` keeps each turn's orders in the state, out of
every view and of the bots' state, to carry them out a turn late; ``random_start`` puts the scouts in their corners
with Python's random, ``fixed_window`` gives every turn's window one key.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, ClassVar

from sheets_gm.rulesets import kit

SQUARES = tuple(f"{col}{row}" for row in "1234" for col in "ABCD")
TURNS = 6
Kind = Enum("Kind", "MOVE MEET END")


def near(square: str) -> tuple[str, ...]:
    """``square`` and the squares next to it, diagonals too."""
    col, row = ord(square[0]), int(square[1])
    return tuple(s for s in SQUARES if abs(ord(s[0]) - col) <= 1 and abs(int(s[1]) - row) <= 1)


@dataclass(frozen=True)
class Settings:
    """No house rule of the game's own: the mistakes a test may plant, one at a time."""

    publish_moves: bool = False
    late: bool = False
    random_start: bool = False
    fixed_window: bool = False


@dataclass(frozen=True)
class State:
    """Each scout's square ('' where the seat whose state it is cannot know it), the turn, the orders kept
    (``late``)."""

    at: Mapping[str, str]
    turn: int = 1
    kept: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Orders:
    """The square each scout goes to."""

    to: Mapping[str, str] = field(default_factory=dict)


class Rules(kit.Ruleset[State, Orders, dict[str, Any]]):
    """The rules of scouts (see the module)."""

    traits: ClassVar[kit.RulesetTraits] = kit.RulesetTraits(
        name="scouts", title="Scouts (a test game of hidden positions)", turn_structure=kit.TurnStructure.SIMULTANEOUS,
        seat_kind=kit.SeatKind.PLAYER, information=kit.Information.HIDDEN_STATE, board_kind=kit.BoardKind.SQUARE,
        min_seats=3, max_seats=3, max_windows=TURNS, settings_type=Settings)
    reveals = (kit.Reveal(Kind.MEET, after=("at",)),)  # who met where: the squares after the moves

    def sample_roster(self) -> kit.Roster:
        """Ann, Bo and Cy."""
        return kit.Roster(("Ann", "Bo", "Cy"), tuple(kit.Member(n, n) for n in ("Ann", "Bo", "Cy")))

    def new_match(self, roster: kit.Roster, seed: bytes) -> State:
        """The scouts in three corners."""
        corners = random.sample(("A1", "D1", "D4"), 3) if self.settings.random_start else ("A1", "D1", "D4")
        return State(dict(zip(roster.seats, corners, strict=False)))

    def seats(self, state: State) -> tuple[str, ...]:
        """The scouts."""
        return tuple(state.at)

    def window(self, state: State) -> kit.Window | None:
        """One window a turn, every scout in it."""
        turn = state.turn
        key = "turn" if self.settings.fixed_window else str(turn)
        return None if turn > TURNS else kit.Window(key, f"turn {turn}", "move", self.seats(state), turn)

    def dice(self, seed: bytes, state: State, pins: Mapping[str, Any] | None = None) -> kit.TurnDice:
        """The turn's dice (never rolled)."""
        return kit.TurnDice(seed, state.turn, pins)

    def merge_orders(self, parts: Mapping[str, Orders]) -> Orders:
        """Each scout's square."""
        return Orders({seat: to for part in parts.values() for seat, to in part.to.items()})

    def check(self, state: State, orders: Orders, dice: kit.TurnDice) -> list[kit.Verdict]:
        """A square next to hers (or hers) is accepted from a scout."""
        return [kit.Verdict(seat, seat, "to", to in near(state.at[seat]),
                            f"{seat} goes to {to}" if to in near(state.at[seat]) else f"{to} is not next to you")
                for seat, to in orders.to.items() if seat in state.at]

    def resolve(self, state: State, orders: Orders, dice: kit.TurnDice) -> kit.Resolution[State]:
        """Each accepted move made (told to its scout alone); the scouts on one square meet."""
        carried = Orders(dict(state.kept)) if self.settings.late else orders
        at, events = dict(state.at), []
        for verdict in self.check(state, carried, dice):
            if verdict.accepted:
                seat = verdict.seat
                at[seat] = carried.to[seat]
                events.append(kit.Event(state.turn, Kind.MOVE, f"You go to {at[seat]}.", audience=frozenset({seat})))
                if self.settings.publish_moves:
                    events.append(kit.Event(state.turn, Kind.MOVE, f"{seat} moves to {at[seat]}."))
        for square in sorted(set(at.values())):
            met = [s for s in at if at[s] == square]
            if len(met) > 1:
                events.append(kit.Event(state.turn, Kind.MEET, f"{' and '.join(met)} meet on {square}.",
                                        audience=frozenset(met)))
        kept = dict(orders.to) if self.settings.late else {}
        return kit.Resolution(State(at, state.turn + 1, kept), events)

    def outcome(self, state: State) -> kit.Outcome | None:
        """Nobody wins: the game is over after its last turn."""
        return kit.Outcome((), "the scouts went home") if state.turn > TURNS else None

    def seat_state(self, state: State, seat: str) -> State:
        """Her own square alone, and none of the orders kept."""
        return State({s: sq if s == seat else "" for s, sq in state.at.items()}, state.turn)

    def unseen_twin(self, state: State, seat: str, rng: random.Random) -> State:
        """The other scouts put on squares drawn afresh."""
        return replace(state, at={s: sq if s == seat else rng.choice(SQUARES) for s, sq in state.at.items()})


@dataclass
class Walker:
    """A bot: a square next to its scout's (or hers) at random."""

    rng: random.Random

    def orders(self, state: State, seat: str, dice: kit.TurnDice) -> Orders:
        """Where its scout goes."""
        return Orders({seat: self.rng.choice(near(state.at[seat]))})


#: The game's one kind of bot.
BOTS = {"walker": kit.BotKind("walker", "a square next to hers at random", lambda seed: Walker(random.Random(seed)))}
