"""Noughts and crosses as a sheets-gm game: the whole game in one module, to show what a game is.

Two players take turns to mark a free square of a 3×3 grid (A1 to C3); three of a mark in a row,
a column or a diagonal win. A turn with no move passes, and the ninth turn ends the game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sheets_gm.engine.codecs import Codec
from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.ruleset import (
    BoardKind,
    BotKind,
    Information,
    Member,
    Outcome,
    Resolution,
    Roster,
    Ruleset,
    RulesetTraits,
    SeatKind,
    TurnStructure,
    Verdict,
    Window,
)
from sheets_gm.engine.settings import setting
from sheets_gm.rulesets import registry
from sheets_gm.rulesets.game import Game, Simulation
from sheets_gm.rulesets.parts.figures import FigureKind, FigureSpec, MatchSummary, SimulationSpec
from sheets_gm.sheets.adapter import BoardDrawing, SeatInput, SheetAdapter
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sheets.spec import InputTable, SheetSpec
from sheets_gm.sheets.tables import TypedRow

SQUARES = tuple(f"{col}{row}" for row in "123" for col in "ABC")
LINES = [SQUARES[i:i + 3] for i in (0, 3, 6)] + [SQUARES[i::3] for i in range(3)] + [SQUARES[::4], SQUARES[2:7:2]]


class Kind(Enum):
    """What the log says."""

    MARK = "mark"
    PASS = "pass"
    END = "end"


@dataclass(frozen=True)
class ToySettings:
    """The house rules: just one."""

    first: int = setting(1, "Which player marks first: 1 or 2 (the roster's order)", minimum=1, maximum=2)


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


class ToyRuleset(Ruleset[ToyState, ToyOrders, dict[str, Any]]):
    """The engine half: pure functions of the state, the orders and the dice (which this game never rolls)."""

    traits: ClassVar[RulesetTraits] = RulesetTraits(
        name="tictactoe", title="Noughts and crosses (test game)", turn_structure=TurnStructure.SEQUENTIAL,
        seat_kind=SeatKind.PLAYER, information=Information.PERFECT, board_kind=BoardKind.SQUARE, judge=False,
        min_seats=2, max_seats=2, max_windows=9, settings_type=ToySettings, default_board="board.txt")
    state_codec = Codec.plain(ToyState)
    orders_codec = Codec.plain(ToyOrders)
    gm_event_codec: Codec[dict[str, Any]] = Codec(dict, dict)

    def __init__(self, settings: ToySettings, board: str) -> None:
        if board.strip() != "3":
            raise ValueError(f"line 1: the board is the size of the grid, 3, not {board.strip()!r}")
        self._settings, self._board = settings, board

    @classmethod
    def create(cls, settings: Any, board: str) -> ToyRuleset:
        """The game with these settings; the board file says the grid's size (3)."""
        return cls(settings, board)

    @property
    def settings(self) -> ToySettings:
        """The house rules."""
        return self._settings

    @property
    def board_text(self) -> str:
        """The board file's text."""
        return self._board

    def sample_roster(self) -> Roster:
        """Ann and Bo."""
        return Roster(("Ann", "Bo"), (Member("Ann", "Ann"), Member("Bo", "Bo")))

    def new_match(self, roster: Roster, seed: bytes) -> ToyState:
        """An empty grid; the roster's first player marks first unless the settings say the second."""
        first, second = roster.seats
        players = (first, second) if self.settings.first == 1 else (second, first)
        return ToyState(players, dict.fromkeys(SQUARES, ""))

    def seats(self, state: ToyState) -> tuple[str, ...]:
        """The two players, the first to mark first."""
        return state.players

    def window(self, state: ToyState) -> Window | None:
        """One window a turn, for the player whose turn it is."""
        if state.over:
            return None
        return Window(str(state.turn), f"turn {state.turn} · {state.acting()}", "move", (state.acting(),), state.turn)

    def dice(self, seed: bytes, state: ToyState, pins: Mapping[str, Any] | None = None) -> TurnDice:
        """The turn's dice (never rolled)."""
        return TurnDice(seed, state.turn, pins)

    def merge_orders(self, parts: Mapping[str, ToyOrders]) -> ToyOrders:
        """Each player's square."""
        return ToyOrders({seat: sq for part in parts.values() for seat, sq in part.square.items()})

    def check(self, state: ToyState, orders: ToyOrders, dice: TurnDice) -> list[Verdict]:
        """A free square of the grid is accepted from the player whose turn it is."""
        out = []
        for seat, square in orders.square.items():
            why = ("it is not your turn" if seat != state.acting() else
                   f"there is no square {square!r}: write A1 to C3" if square not in SQUARES else
                   f"{square} is taken" if state.marks[square] else "")
            out.append(Verdict(seat, seat, "square", not why, why or f"{seat} marks {square}"))
        return out

    def resolve(self, state: ToyState, orders: ToyOrders, dice: TurnDice) -> Resolution[ToyState]:
        """The acting player's square marked (or her turn passed); three in a row win, the ninth turn ends it."""
        seat = state.acting()
        square = orders.square.get(seat, "")
        if all(v.accepted for v in self.check(state, orders, dice) if v.seat == seat) and square:
            marks = {**state.marks, square: "XO"[(state.turn - 1) % 2]}
            events = [Event(state.turn, Kind.MARK, f"{seat} marks {square}.")]
        else:
            marks, events = dict(state.marks), [Event(state.turn, Kind.PASS, f"{seat} passes.")]
        won = any(marks[a] and marks[a] == marks[b] == marks[c] for a, b, c in LINES)
        over = won or state.turn == 9
        if over:
            events.append(Event(state.turn, Kind.END, f"{seat} wins." if won else "A draw."))
        return Resolution(replace(state, marks=marks, turn=state.turn + (not over), over=over,
                                  winner=seat if won else None), events)

    def outcome(self, state: ToyState) -> Outcome | None:
        """The winner, or a draw, once the game is over."""
        if not state.over:
            return None
        return Outcome((state.winner,), f"{state.winner} wins") if state.winner else Outcome((), "a draw")


@dataclass
class RandomMarker:
    """A bot: a free square drawn at random."""

    rng: random.Random

    def orders(self, state: ToyState, seat: str, dice: TurnDice) -> ToyOrders:
        """Its square, when it is its turn."""
        free = [s for s in SQUARES if not state.marks[s]]
        return ToyOrders({seat: self.rng.choice(free)} if seat == state.acting() and free else {})


@dataclass(frozen=True)
class ToySheet(SheetAdapter[ToyState, ToyOrders]):
    """The sheet half: a row per player to type a square in, and the grid drawn on the board."""

    rules: ToyRuleset

    @property
    def spec(self) -> SheetSpec:
        """``template/sheet.yaml``."""
        return registry.sheet_spec("tictactoe")

    def rows(self, state: ToyState, seat: str, table: InputTable) -> list[str]:
        """Her own row."""
        return [seat]

    def shown(self, state: ToyState, seat: str, table: InputTable, subject: str,
              dice: TurnDice) -> Mapping[str, CellValue]:
        """Nothing but what she types."""
        return {}

    def read_orders(self, state: ToyState, window: Window, seat: str,
                    rows: Mapping[str, Sequence[TypedRow]]) -> SeatInput[ToyOrders]:
        """Her square, in capitals, and her Ready box."""
        row = next(iter(rows.get("move", [])), None)
        square = row.text("square").strip().upper() if row is not None else ""
        ready = row is not None and row.ticked("ready")
        return SeatInput(ToyOrders({seat: square} if square else {}), {}, frozenset({seat}), ready=ready)

    def typed_cells(self, state: ToyState, window: Window, seat: str,
                    orders: ToyOrders) -> Mapping[str, Mapping[str, Mapping[str, CellValue]]]:
        """What a player types for ``orders``: her square."""
        return {"move": {seat: {"square": orders.square[seat], "ready": True}}} if seat in orders.square else {}

    def drawings(self, state: ToyState) -> Sequence[BoardDrawing]:
        """The grid, with the columns' letters and the rows' numbers."""
        grid: Grid = [["", "A", "B", "C"]]
        grid += [[row, *(state.marks[f"{c}{row}"] for c in "ABC")] for row in "123"]
        return (BoardDrawing(grid, (), {i: 40 for i in range(4)}),)

    def status(self, state: ToyState, window: Window | None, outcome: Outcome | None) -> str:
        """Whose turn it is, or how the game ended."""
        return f"Over: {outcome.text}." if outcome else f"Turn {state.turn}: {state.acting()} to mark."

    def panel(self, state: ToyState, seat: str) -> Grid:
        """Her mark."""
        return [["Your mark", "XO"[state.players.index(seat)] if seat in state.players else ""]]


@dataclass
class ToyTally:
    """What ``simulate`` counts of one game: how it ended, and who won."""

    rules: ToyRuleset
    start: ToyState

    def window(self, resolution: Resolution[Any]) -> None:
        """Nothing to count while it is played."""

    def finish(self, state: ToyState) -> MatchSummary:
        """Three in a row or a draw; 1 for the winner."""
        return MatchSummary("line" if state.winner else "draw",
                            tuple((float(p == state.winner),) for p in self.start.players))


GAME = Game(
    rules=ToyRuleset,
    sheet=ToySheet,
    simulation=Simulation(
        bots=lambda r: {"random": BotKind("random", "a free square at random",
                                          lambda seed: RandomMarker(random.Random(seed)))},
        spec=lambda r: SimulationSpec("turns", (("line", "three in a row"), ("draw", "a full grid")),
                                      (FigureSpec("won", "won", FigureKind.SHARE),)),
        tally=ToyTally),
)


@contextmanager
def toy_registered() -> Iterator[None]:
    """The game registered under ``tictactoe`` for the time of a ``with``: only the tests know it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.GAMES, "tictactoe", "tests.toygame.game:GAME")
        patch.setitem(registry.TEMPLATE_FOLDERS, "tictactoe", Path(__file__).parent / "template")
        yield
