"""Noughts and crosses as a sheets-gm game: the whole game in one module, to show what a game is.

Two players take turns to mark a free square of a 3×3 grid (A1 to C3); three of a mark in a row, a column or a
diagonal win. A turn with no move passes; the ninth ends the game. The GM may correct a square (``adjust --mark``),
and scenario files play it as data (``scenarios/``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sheets_gm.engine import ruleset as rs
from sheets_gm.engine.codecs import Codec
from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.settings import setting
from sheets_gm.rulesets import registry
from sheets_gm.rulesets.game import Game, GmPart, Simulation
from sheets_gm.rulesets.parts.fields import Fields
from sheets_gm.rulesets.parts.figures import FigureKind, FigureSpec, MatchSummary, SimulationSpec
from sheets_gm.rulesets.parts.scenario import Entry, Play, Scenario
from sheets_gm.sheets.adapter import BoardDrawing, SeatInput, SheetAdapter
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sheets.spec import InputTable, SheetSpec
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.yamlio import LinedDict

SQUARES = tuple(f"{col}{row}" for row in "123" for col in "ABC")
LINES = [SQUARES[i:i + 3] for i in (0, 3, 6)] + [SQUARES[i::3] for i in range(3)] + [SQUARES[::4], SQUARES[2:7:2]]


Kind = Enum("Kind", "MARK PASS END GM")  # what a log line tells


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


class ToyRuleset(rs.Ruleset[ToyState, ToyOrders, dict[str, Any]]):
    """The engine half: pure functions of the state, the orders and the dice (which this game never rolls)."""

    traits: ClassVar[rs.RulesetTraits] = rs.RulesetTraits(
        name="tictactoe", title="Noughts and crosses (test game)", turn_structure=rs.TurnStructure.SEQUENTIAL,
        seat_kind=rs.SeatKind.PLAYER, information=rs.Information.PERFECT, board_kind=rs.BoardKind.SQUARE, judge=False,
        min_seats=2, max_seats=2, max_windows=9, settings_type=ToySettings, default_board="board.txt")
    state_codec = Codec.plain(ToyState)
    orders_codec = Codec.plain(ToyOrders)
    gm_event_codec: Codec[dict[str, Any]] = Codec(dict, dict)  # a GM event is JSON already

    def __init__(self, settings: ToySettings, board: str = "3") -> None:
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

    def sample_roster(self) -> rs.Roster:
        """Ann and Bo."""
        return rs.Roster(("Ann", "Bo"), (rs.Member("Ann", "Ann"), rs.Member("Bo", "Bo")))

    def new_match(self, roster: rs.Roster, seed: bytes) -> ToyState:
        """An empty grid; the roster's first player marks first unless the settings say the second."""
        first, second = roster.seats
        return ToyState((first, second) if self.settings.first == 1 else (second, first), dict.fromkeys(SQUARES, ""))

    def seats(self, state: ToyState) -> tuple[str, ...]:
        """The two players, the first to mark first."""
        return state.players

    def window(self, state: ToyState) -> rs.Window | None:
        """One window a turn, for the player whose turn it is."""
        seat, turn = state.acting(), state.turn
        return None if state.over else rs.Window(str(turn), f"turn {turn} · {seat}", "move", (seat,), turn)

    def dice(self, seed: bytes, state: ToyState, pins: Mapping[str, Any] | None = None) -> TurnDice:
        """The turn's dice (never rolled)."""
        return TurnDice(seed, state.turn, pins)

    def merge_orders(self, parts: Mapping[str, ToyOrders]) -> ToyOrders:
        """Each player's square."""
        return ToyOrders({seat: sq for part in parts.values() for seat, sq in part.square.items()})

    def check(self, state: ToyState, orders: ToyOrders, dice: TurnDice) -> list[rs.Verdict]:
        """A free square of the grid is accepted from the player whose turn it is."""
        out = []
        for seat, square in orders.square.items():
            why = ("it is not your turn" if seat != state.acting() else
                   f"there is no square {square!r}: write A1 to C3" if square not in SQUARES else
                   f"{square} is taken" if state.marks[square] else "")
            out.append(rs.Verdict(seat, seat, "square", not why, why or f"{seat} marks {square}"))
        return out

    def resolve(self, state: ToyState, orders: ToyOrders, dice: TurnDice) -> rs.Resolution[ToyState]:
        """The acting player's square marked (or her turn passed); three in a row win, the ninth turn ends it."""
        seat, square = state.acting(), orders.square.get(state.acting(), "")
        if all(v.accepted for v in self.check(state, orders, dice) if v.seat == seat) and square:
            marks = {**state.marks, square: "XO"[(state.turn - 1) % 2]}
            events = [Event(state.turn, Kind.MARK, f"{seat} marks {square}.")]
        else:
            marks, events = dict(state.marks), [Event(state.turn, Kind.PASS, f"{seat} passes.")]
        return _ended(replace(state, marks=marks), events, state.turn == 9, next_turn=True)

    def apply_gm_event(self, state: ToyState, event: dict[str, Any]) -> rs.Resolution[ToyState]:
        """A square's mark set by the GM (``adjust --mark B2=none``); a line it makes wins for that mark's player."""
        if state.over:
            raise ValueError("the game is over: undo its last turn to play on")
        text = f"The GM sets {event['square']} to {event['mark'] or 'free'} ({event['reason']})."
        marks = {**state.marks, event["square"]: event["mark"]}
        return _ended(replace(state, marks=marks), [Event(state.turn, Kind.GM, text)], False, next_turn=False)

    def outcome(self, state: ToyState) -> rs.Outcome | None:
        """The winner, or a draw, once the game is over."""
        winners = (state.winner,) if state.winner else ()
        return rs.Outcome(winners, f"{state.winner} wins" if state.winner else "a draw") if state.over else None


def _ended(state: ToyState, events: list[Event], last: bool, next_turn: bool) -> rs.Resolution[ToyState]:
    """The state after a mark: three of one mark in a row win for its player; else the last turn draws."""
    line = next((m for a, b, c in LINES if (m := state.marks[a]) and m == state.marks[b] == state.marks[c]), "")
    winner = state.players["XO".index(line)] if line else None
    over = bool(line) or last
    events += [Event(state.turn, Kind.END, f"{winner} wins." if winner else "A draw.")] if over else []
    return rs.Resolution(replace(state, turn=state.turn + (next_turn and not over), over=over, winner=winner), events)


OPTIONS = (rs.GmOption("mark", "SQUARE=MARK", "set a square's mark: X, O or none (free)"),)


def events_from_options(seats: Sequence[str], values: Mapping[str, Sequence[str]], reason: str) -> list[dict[str, Any]]:
    """``--mark B2=none`` as GM events; ValueError naming the option and what it accepts."""
    out = []
    for text in values.get("mark", ()):
        square, _, mark = (part.strip() for part in text.upper().partition("="))
        if square not in SQUARES or mark not in ("X", "O", "NONE"):
            raise ValueError(f"--mark {text!r}: write a square A1 to C3, '=' and X, O or none, e.g. B2=none")
        out.append({"square": square, "mark": mark.replace("NONE", ""), "reason": reason})
    return out


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

    def read_orders(self, state: ToyState, window: rs.Window, seat: str,
                    rows: Mapping[str, Sequence[TypedRow]]) -> SeatInput[ToyOrders]:
        """Her square, in capitals, and her Ready box."""
        row = next(iter(rows.get("move", [])), None)
        square = row.text("square").strip().upper() if row is not None else ""
        ready = row is not None and row.ticked("ready")
        return SeatInput(ToyOrders({seat: square} if square else {}), {}, frozenset({seat}), ready=ready)

    def typed_cells(self, state: ToyState, window: rs.Window, seat: str,
                    orders: ToyOrders) -> Mapping[str, Mapping[str, Mapping[str, CellValue]]]:
        """What a player types for ``orders``: her square."""
        return {"move": {seat: {"square": orders.square[seat], "ready": True}}} if seat in orders.square else {}

    def drawings(self, state: ToyState) -> Sequence[BoardDrawing]:
        """The grid, with the columns' letters and the rows' numbers."""
        grid: Grid = [["", "A", "B", "C"]]
        grid += [[row, *(state.marks[f"{c}{row}"] for c in "ABC")] for row in "123"]
        return (BoardDrawing(grid, (), {i: 40 for i in range(4)}),)

    def status(self, state: ToyState, window: rs.Window | None, outcome: rs.Outcome | None) -> str:
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

    def window(self, resolution: rs.Resolution[Any]) -> None:
        """Nothing to count while it is played."""

    def finish(self, state: ToyState) -> MatchSummary:
        """Three in a row or a draw; 1 for the winner."""
        return MatchSummary("line" if state.winner else "draw",
                            tuple((float(p == state.winner),) for p in self.start.players))


class ToyScenarioCodec:
    """Scenario files: ``players`` (the roster's order), ``turns`` from an empty grid, ``expect``."""

    keys = ("name", "ruleset", "settings", "players", "turns", "expect")  # no ``given``: nine turns reach any grid

    def load(self, doc: LinedDict, f: Fields, settings: Any) -> Scenario[ToyState, ToyOrders]:
        """A new game of the two players, a window per turn, and ``expect`` to compare."""
        line, turns = doc.line_of("players"), f.sequence(doc.get("turns"), doc.line_of("turns"), "turns")
        players = tuple(f.text(p, line, "a player") for p in f.sequence(doc.get("players"), line, "players"))
        if len(players) != 2:
            raise f.fail(line, f"players: name the two, in the roster's order, e.g. [Ann, Bo]; {len(players)} named")
        want = f.mapping(doc.get("expect"), doc.line_of("expect"), "expect",
                         ("marks", "winner", "refused", "log_contains"))
        rules = ToyRuleset(settings)
        return Scenario(rules, rules.new_match(rs.Roster(players), b""),
                        [_turn(f, t, doc.line_of("turns"), i) for i, t in enumerate(turns)],
                        lambda final, verdicts: _compare(f, want, final, verdicts))


def _turn(f: Fields, item: Any, line: int, i: int) -> Entry[ToyState, ToyOrders]:
    """A turn: whose it must be, her square (none: she passes), and GM events before it (``adjust --mark``'s)."""
    t = f.mapping(item, line, f"turn {i + 1}", ("player", "square", "gm"))
    seat, square = f.text(t.get("player"), t.line, "player"), str(t.get("square") or "").strip().upper()
    try:
        gm = events_from_options((), {"mark": [str(m) for m in f.sequence(t.get("gm"), t.line, "gm")]}, "scenario")
    except ValueError as exc:
        raise f.fail(t.line_of("gm"), str(exc)) from None
    return Entry.of(t.line, f"turn {i + 1}", [Play(ToyOrders({seat: square} if square else {}))], gm, seat)


def _compare(f: Fields, e: LinedDict, state: ToyState, verdicts: Sequence[rs.Verdict]) -> list[str]:
    """Each difference from ``expect``: marks (null: free), the winner (a player, draw or null), who was refused."""
    marks = f.mapping(e.get("marks"), e.line_of("marks"), "expect.marks")
    if bad := [sq for sq in marks if sq not in SQUARES]:
        raise f.fail(marks.line_of(bad[0]), f"expect.marks: {bad[0]!r} is no square of the grid; write A1 to C3")
    got = {"marks": {sq: state.marks[sq] or None for sq in marks}, "winner": state.winner or (
        "draw" if state.over else None), "refused": sorted(v.seat for v in verdicts if not v.accepted)}
    return [f"{key}: expected {e[key]}, got {got[key]}" for key in got if key in e and e[key] != got[key]]


GAME = Game(
    rules=ToyRuleset,
    sheet=ToySheet,
    scenario=ToyScenarioCodec,
    gm=GmPart(OPTIONS, events_from_options, '--mark B2=none --reason "Bo typed into the wrong square"'),
    simulation=Simulation(
        bots=lambda r: {"random": rs.BotKind("random", "a free square at random",
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
