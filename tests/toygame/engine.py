"""Noughts and crosses' rules, the engine half: its setting, its state and orders, and the pure functions over them.

Two players take turns to mark a free square of a 3×3 grid (A1 to C3); three of a mark in a row, a column or a
diagonal win. A turn with no move passes; the ninth ends the game. It is ``sheets-gm new-game``'s starting game made
into noughts and crosses: the same modules (``engine.py``, ``sheet.py``, ``game.py``), the same parts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, ClassVar

from sheets_gm.rulesets import kit

SQUARES = tuple(f"{col}{row}" for row in "123" for col in "ABC")
LINES = [SQUARES[i:i + 3] for i in (0, 3, 6)] + [SQUARES[i::3] for i in range(3)] + [SQUARES[::4], SQUARES[2:7:2]]


Kind = Enum("Kind", "MARK PASS END GM")  # what a log line tells


@dataclass(frozen=True)
class ToySettings:
    """The house rules: just one."""

    first: int = kit.setting(1, "Which player marks first: 1 or 2 (the roster's order)", minimum=1, maximum=2)


@dataclass(frozen=True)
class ToyState:
    """The players (first to mark first), each square's mark ('' when free), the turn, the winner once over."""

    players: tuple[str, str]
    marks: Mapping[str, str]
    turn: int = 1
    over: bool = False
    winner: str | None = None

    def acting(self) -> str:
        """Whose turn it is."""
        return self.players[(self.turn - 1) % 2]


@dataclass(frozen=True)
class ToyOrders:
    """The square each player asked for (only the acting player's counts)."""

    square: Mapping[str, str] = field(default_factory=dict)


class ToyRuleset(kit.Ruleset[ToyState, ToyOrders, dict[str, Any]]):
    """The engine half: pure functions of the state, the orders and the dice (which this game never rolls)."""

    traits: ClassVar[kit.RulesetTraits] = kit.RulesetTraits(
        name="tictactoe", title="Noughts and crosses (test game)", turn_structure=kit.TurnStructure.SEQUENTIAL,
        seat_kind=kit.SeatKind.PLAYER, information=kit.Information.PERFECT, board_kind=kit.BoardKind.SQUARE,
        min_seats=2, max_seats=2, max_windows=9, settings_type=ToySettings)

    def sample_roster(self) -> kit.Roster:
        """Ann and Bo."""
        return kit.Roster(("Ann", "Bo"), (kit.Member("Ann", "Ann"), kit.Member("Bo", "Bo")))

    def new_match(self, roster: kit.Roster, seed: bytes) -> ToyState:
        """An empty grid; the roster's first player marks first unless the settings say the second."""
        first, second = roster.seats
        return ToyState((first, second) if self.settings.first == 1 else (second, first), dict.fromkeys(SQUARES, ""))

    def seats(self, state: ToyState) -> tuple[str, ...]:
        """The two players, the first to mark first."""
        return state.players

    def window(self, state: ToyState) -> kit.Window | None:
        """One window a turn, for the player whose turn it is."""
        seat, turn = state.acting(), state.turn
        return None if state.over else kit.Window(str(turn), f"turn {turn} · {seat}", "move", (seat,), turn)

    def dice(self, seed: bytes, state: ToyState, pins: Mapping[str, Any] | None = None) -> kit.TurnDice:
        """The turn's dice (never rolled)."""
        return kit.TurnDice(seed, state.turn, pins)

    def merge_orders(self, parts: Mapping[str, ToyOrders]) -> ToyOrders:
        """Each player's square."""
        return ToyOrders({seat: sq for part in parts.values() for seat, sq in part.square.items()})

    def check(self, state: ToyState, orders: ToyOrders, dice: kit.TurnDice) -> list[kit.Verdict]:
        """A free square of the grid is accepted from the player whose turn it is."""
        out = []
        for seat, square in orders.square.items():
            why = ("it is not your turn" if seat != state.acting() else
                   f"there is no square {square!r}: write A1 to C3" if square not in SQUARES else
                   f"{square} is taken" if state.marks[square] else "")
            out.append(kit.Verdict(seat, seat, "square", not why, why or f"{seat} marks {square}"))
        return out

    def resolve(self, state: ToyState, orders: ToyOrders, dice: kit.TurnDice) -> kit.Resolution[ToyState]:
        """The acting player's square marked (or her turn passed); three in a row win, the ninth turn ends it."""
        seat, square = state.acting(), orders.square.get(state.acting(), "")
        if all(v.accepted for v in self.check(state, orders, dice) if v.seat == seat) and square:
            marks = {**state.marks, square: "XO"[(state.turn - 1) % 2]}
            events = [kit.Event(state.turn, Kind.MARK, f"{seat} marks {square}.")]
        else:
            marks, events = dict(state.marks), [kit.Event(state.turn, Kind.PASS, f"{seat} passes.")]
        return _ended(replace(state, marks=marks), events, state.turn == 9, next_turn=True)

    def apply_gm_event(self, state: ToyState, event: dict[str, Any]) -> kit.Resolution[ToyState]:
        """A square's mark set by the GM (``adjust --mark B2=none``); a line it makes wins for that mark's player."""
        if state.over:
            raise ValueError("the game is over: undo its last turn to play on")
        text = f"The GM sets {event['square']} to {event['mark'] or 'free'} ({event['reason']})."
        marks = {**state.marks, event["square"]: event["mark"]}
        return _ended(replace(state, marks=marks), [kit.Event(state.turn, Kind.GM, text)], False, next_turn=False)

    def outcome(self, state: ToyState) -> kit.Outcome | None:
        """The winner, or a draw, once the game is over."""
        winners = (state.winner,) if state.winner else ()
        return kit.Outcome(winners, f"{state.winner} wins" if state.winner else "a draw") if state.over else None


def _ended(state: ToyState, events: list[kit.Event], last: bool, next_turn: bool) -> kit.Resolution[ToyState]:
    """The state after a mark: three of one mark in a row win for its player; else the last turn draws."""
    line = next((m for a, b, c in LINES if (m := state.marks[a]) and m == state.marks[b] == state.marks[c]), "")
    winner = state.players["XO".index(line)] if line else None
    over = bool(line) or last
    events += [kit.Event(state.turn, Kind.END, f"{winner} wins." if winner else "A draw.")] if over else []
    return kit.Resolution(replace(state, turn=state.turn + (next_turn and not over), over=over, winner=winner), events)


