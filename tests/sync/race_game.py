"""A tiny game for testing the generic sync, as OpenSpiel tests its core on tiny games.

"race": each seat has runners on a track of N squares. Every turn, all seats at once choose
each runner's pace: ``run`` rolls a d6 and costs a point of stamina (with none left, the runner
moves 1), ``walk`` moves 2 and gives a point back. Stamina is private to the runner's seat (its
view, its private log); positions are public. The first runner at the end wins for its seat; a
tie shares the win. Registered only by the tests that use it (``registered_race``).

Why a second test game: the toy game (``tests/toygame``) is the example to copy and shows one seat marking
one square in turn, with nothing hidden and no dice. The sync's tests need what it cannot show: several seats
in one simultaneous window with a row per runner, rolled dice, private state (a seat's view, secrets and log
lines with an ``audience``, a GM event only its seat reads), a window that does not wait for every seat
(``first_decides``), rows a resolution leaves unused and typed (``whistle``), and a second public tab.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sheets_gm.engine.codecs import Codec
from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.ruleset import (
    GM,
    BoardKind,
    BotKind,
    GmOption,
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
from sheets_gm.rulesets.game_record import Game, GmPart, Simulation
from sheets_gm.rulesets.parts.figures import FigureKind, FigureSpec, MatchSummary, SimulationSpec
from sheets_gm.rulesets.registry import AnyRuleset, sheet_spec
from sheets_gm.sheets.adapter import BoardDrawing, SeatInput, SheetAdapter
from sheets_gm.sheets.layout import CellValue, Fill, Grid
from sheets_gm.sheets.spec import InputTable, SheetSpec
from sheets_gm.sheets.tables import TypedRow

TEMPLATE = Path(__file__).resolve().parent / "race_template"
STAMINA = 2
STANDINGS_TAB = "Standings"


class RaceEvent(Enum):
    """What the race log says."""

    MOVE = "move"
    TIRED = "tired"
    FINISH = "finish"


@dataclass(frozen=True)
class RaceSettings:
    """The race's house rules."""

    max_turns: int = setting(20, "Turns before the race stops (the runner furthest ahead wins)", minimum=1)
    first_decides: bool = setting(False, "Only the first seat's Ready is awaited (a window that does not wait for all)")
    whistle: bool = setting(False, "A whistle stops each turn's first resolution after the first runner ordered (by "
                                   "name): the other paces are unused and the turn stays open (Win or Die's reactions)")


@dataclass(frozen=True)
class RaceState:
    """Where every runner is, whose it is, and its stamina."""

    turn: int
    owner: Mapping[str, str]  # runner → seat
    at: Mapping[str, int]
    stamina: Mapping[str, int]
    seats: tuple[str, ...]
    winners: tuple[str, ...] | None = None
    whistled: bool = False  # the whistle has blown this turn


@dataclass(frozen=True)
class RaceOrders:
    """A pace per runner (``run`` or ``walk``)."""

    pace: Mapping[str, str] = field(default_factory=dict)


class RaceRuleset(Ruleset[RaceState, RaceOrders, dict[str, Any]]):
    """The race as a ``Ruleset``."""

    traits: ClassVar[RulesetTraits] = RulesetTraits(
        name="race", title="Race (test game)", turn_structure=TurnStructure.SIMULTANEOUS, seat_kind=SeatKind.PLAYER,
        information=Information.PRIVATE_ORDERS, board_kind=BoardKind.SQUARE, judge=False, min_seats=2, max_seats=4,
        max_windows=20, settings_type=RaceSettings, default_board="track.txt")

    _settings: RaceSettings

    def __init__(self, settings: RaceSettings, board: str) -> None:
        found = re.fullmatch(r"\s*track\s+(\d+)\s*", board)
        if found is None:
            raise ValueError(f"line 1: write 'track N', not {board.strip()!r}")
        super().__init__(settings, board)  # the defaults keep both: ``create``, ``settings``, ``board_text``
        self.length = int(found.group(1))

    def sample_roster(self) -> Roster:
        """Two players with two runners each."""
        return Roster(("Ann", "Bo"), tuple(Member(f"{s}-{i}", s) for s in ("Ann", "Bo") for i in (1, 2)))

    def opening_events(self, state: RaceState, seed: bytes) -> list[Event]:
        """Nothing is drawn at set-up that the Log should show."""
        return []

    def new_match(self, roster: Roster, seed: bytes) -> RaceState:
        """Every runner on square 0 with full stamina; a seat the roster gives no runner runs one, "<seat>-1"."""
        owner = {m.name: m.seat for m in roster.members}
        owner |= {f"{seat}-1": seat for seat in roster.seats if not roster.of(seat)}
        return RaceState(1, owner, dict.fromkeys(owner, 0), dict.fromkeys(owner, STAMINA), roster.seats)

    state_codec = Codec.plain(RaceState)
    orders_codec = Codec.plain(RaceOrders)
    gm_event_codec: Codec[dict[str, Any]] = Codec(dict, dict)  # a GM event is JSON already

    def seats(self, state: RaceState) -> tuple[str, ...]:
        """The seats in roster order."""
        return state.seats

    def window(self, state: RaceState) -> Window | None:
        """One window a turn for every seat."""
        if state.winners is not None:
            return None
        waits = state.seats[:1] if self.settings.first_decides else None
        return Window(str(state.turn), f"turn {state.turn}", "race", state.seats, state.turn, waits_for=waits)

    def dice(self, seed: bytes, state: RaceState, pins: Mapping[str, Any] | None = None) -> TurnDice:
        """The turn's dice."""
        return TurnDice(seed, state.turn, pins, die_sides=None)

    def no_orders(self) -> RaceOrders:
        """Nobody ordered anything."""
        return RaceOrders()

    def merge_orders(self, parts: Mapping[str, RaceOrders]) -> RaceOrders:
        """Every seat's paces together."""
        return RaceOrders({r: p for part in parts.values() for r, p in part.pace.items()})

    def check(self, state: RaceState, orders: RaceOrders, dice: TurnDice) -> list[Verdict]:
        """A verdict per runner ordered."""
        out = []
        for runner, pace in orders.pace.items():
            seat = state.owner.get(runner, "?")
            if runner not in state.owner:
                out.append(Verdict(seat, runner, "pace", False, f"{runner} is not a runner"))
            elif pace == "run" and state.stamina[runner] == 0:
                out.append(Verdict(seat, runner, "pace", True, f"{runner} is tired: running moves 1"))
            else:
                out.append(Verdict(seat, runner, "pace", True, f"{runner} will {pace}"))
        return out

    def resolve(self, state: RaceState, orders: RaceOrders, dice: TurnDice) -> Resolution[RaceState]:
        """Every runner moves; a runner without orders walks. With the whistle, a turn's first resolution moves
        only the first runner ordered; the other paces are unused and the turn stays open."""
        at, stamina = dict(state.at), dict(state.stamina)
        events: list[Event] = []
        ordered = sorted(r for r in orders.pace if r in state.owner)
        if self.settings.whistle and not state.whistled and ordered:
            self._run(state, ordered[0], orders.pace[ordered[0]], at, stamina, dice, events)
            unused: dict[str, dict[str, str]] = {}
            for runner in ordered[1:]:
                unused.setdefault(state.owner[runner], {})[runner] = f"the whistle blew after {ordered[0]} moved"
            return Resolution(replace(state, at=at, stamina=stamina, whistled=True), events, unused)
        for runner in sorted(state.owner):
            self._run(state, runner, orders.pace.get(runner, "walk"), at, stamina, dice, events)
        best = max(at.values())
        winners = None
        if best >= self.length or state.turn >= self.settings.max_turns:
            winners = tuple(dict.fromkeys(state.owner[r] for r in sorted(at) if at[r] == best))
            events.append(Event(state.turn, RaceEvent.FINISH, f"{' and '.join(winners)} win the race."))
        return Resolution(replace(state, turn=state.turn + 1, at=at, stamina=stamina, winners=winners,
                                  whistled=False), events)

    def _run(self, state: RaceState, runner: str, pace: str, at: dict[str, int], stamina: dict[str, int],
             dice: TurnDice, events: list[Event]) -> None:
        """One runner moves at its pace."""
        if pace == "run":
            step = dice.roll(f"run/{runner}", 6) if stamina[runner] else 1
            stamina[runner] = max(0, stamina[runner] - 1)
        else:
            step = 2
            stamina[runner] = min(STAMINA, stamina[runner] + 1)
        at[runner] = min(self.length, at[runner] + step)
        events.append(Event(state.turn, RaceEvent.MOVE, f"{runner} moves to {at[runner]}."))
        if stamina[runner] == 0:
            events.append(Event(state.turn, RaceEvent.TIRED, f"{runner} has no stamina left.",
                                audience=frozenset({state.owner[runner]})))

    def outcome(self, state: RaceState) -> Outcome | None:
        """The winners once the race is over."""
        if state.winners is None:
            return None
        return Outcome(state.winners, f"{' and '.join(state.winners)} won")

    def view(self, state: RaceState, seat: str | None) -> dict[str, Any]:
        """Positions for all; stamina only of the seat's own runners."""
        return {"at": dict(state.at),
                "stamina": {r: s for r, s in state.stamina.items() if seat is not None and state.owner[r] == seat}}

    def seat_state(self, state: RaceState, seat: str) -> RaceState:
        """The race as ``seat`` knows it: the stamina of her own runners only."""
        return replace(state, stamina={r: s for r, s in state.stamina.items() if state.owner[r] == seat})

    def secrets(self, state: RaceState, seat: str) -> list[str]:
        """A seat's stamina is its own."""
        return [_stamina_text(r, s) for r, s in state.stamina.items() if state.owner[r] == seat]

    def apply_gm_event(self, state: RaceState, event: dict[str, Any]) -> Resolution[RaceState]:
        """A runner's stamina set by the GM."""
        if event["runner"] not in state.owner:
            raise ValueError(f"no runner {event['runner']!r}; the runners are {', '.join(sorted(state.owner))}")
        stamina = {**state.stamina, event["runner"]: event["stamina"]}
        text = f"The GM sets {event['runner']}'s stamina to {event['stamina']} ({event['reason']})."
        seat = state.owner[event["runner"]]
        return Resolution(replace(state, stamina=stamina),
                          [Event(state.turn, RaceEvent.TIRED, text, audience=frozenset({seat}))])

def _stamina_text(runner: str, stamina: int) -> str:
    return f"{runner} stamina {stamina}"


class SteadyBot:
    """Runs every runner with stamina left; walks the others."""

    def orders(self, state: RaceState, seat: str, dice: TurnDice) -> RaceOrders:
        """This seat's paces."""
        return RaceOrders({r: "run" if state.stamina[r] else "walk" for r, s in state.owner.items() if s == seat})


@dataclass(frozen=True)
class RaceSheet(SheetAdapter[RaceState, RaceOrders]):
    """The race's sheet: runners' rows, the track drawn in one row."""

    rules: RaceRuleset

    @property
    def spec(self) -> SheetSpec:
        """The layout file of ``race_template``."""
        return sheet_spec("race")

    def rows(self, state: RaceState, seat: str, table: InputTable) -> list[str]:
        """A seat's runners, or the seat itself."""
        if table.rows == "seat":
            return [seat]
        return sorted(r for r, s in state.owner.items() if s == seat)

    def shown(self, state: RaceState, seat: str, table: InputTable, subject: str,
              dice: TurnDice) -> Mapping[str, CellValue]:
        """A runner's square."""
        return {"at": state.at.get(subject, "")}

    def read_orders(self, state: RaceState, window: Window, seat: str,
                    rows: Mapping[str, Sequence[TypedRow]]) -> SeatInput[RaceOrders]:
        """Paces from the runner rows; the Ready box from the seat row."""
        pace: dict[str, str] = {}
        problems: dict[str, list[str]] = {}
        for row in rows.get("runners", []):
            text = row.text("pace").lower()
            if not text:
                continue
            if text in ("run", "walk"):
                pace[row.subject] = text
            else:
                problems[row.subject] = [f"Pace {text!r} is not a pace: write run or walk"]
        ready = any(r.ticked("ready") for r in rows.get("seat", []))
        return SeatInput(RaceOrders(pace), problems, frozenset(pace) | {seat}, ready=ready)

    def typed_cells(self, state: RaceState, window: Window, seat: str,
                    orders: RaceOrders) -> Mapping[str, Mapping[str, Mapping[str, CellValue]]]:
        """Each runner's pace in its row."""
        return {"runners": {r: {"pace": p} for r, p in orders.pace.items() if state.owner.get(r) == seat}}

    def drawings(self, state: RaceState) -> Sequence[BoardDrawing]:
        """The track (the board tab) and a second public tab, the standings: a game may draw several."""
        return (self.board(state), self.standings(state))

    def standings(self, state: RaceState) -> BoardDrawing:
        """The runners, the one furthest on first."""
        order = sorted(state.at, key=lambda r: (-state.at[r], r))
        rows: Grid = [["Runner", "Square"]]
        rows += [[r, state.at[r]] for r in order]
        return BoardDrawing(rows, (Fill("A1:B1", "#D9D9D9", bold=True),), {0: 120}, tab=STANDINGS_TAB)

    def board(self, state: RaceState) -> BoardDrawing:
        """One cell per square; the runners on it, one per line."""
        cells: list[CellValue] = ["\n".join(r for r in sorted(state.at) if state.at[r] == i)
                                  for i in range(self.rules.length + 1)]
        return BoardDrawing([cells], (Fill("A1:A1", "#D9EAD3"),), legend=[["Runners by square, start at A"]])

    def status(self, state: RaceState, window: Window | None, outcome: Outcome | None) -> str:
        """The turn, or the winners."""
        return f"Race over: {outcome.text}." if outcome else f"Turn {state.turn}."

    def panel(self, state: RaceState, seat: str) -> Grid:
        """The seat's runners with their stamina (every runner's for the GM)."""
        header: list[CellValue] = ["Runner", "At", "Stamina"]
        return [header] + [[r, state.at[r], _stamina_text(r, state.stamina[r])] for r in sorted(state.owner)
                           if state.owner[r] == seat or seat == GM]


#: The race as the core types it (the test game leaves out what only commands and simulations use).
#: The race's options of ``adjust``: one correction, a runner's stamina.
OPTIONS = (GmOption("stamina", "RUNNER=N", "set a runner's stamina (0 to 2)"),)


def events_from_options(seats: Sequence[str], values: Mapping[str, Sequence[str]], reason: str) -> list[dict[str, Any]]:
    """``--stamina Ann-1=2`` as events."""
    out = []
    for text in values.get("stamina", ()):
        runner, sep, number = text.partition("=")
        if not sep or not number.strip().isdigit() or int(number) > STAMINA:
            raise ValueError(f"--stamina {text!r}: write RUNNER=N with N from 0 to {STAMINA}, e.g. Ann-1=2")
        out.append({"runner": runner.strip(), "stamina": int(number), "reason": reason})
    return out


#: What a simulated race reports: how it ended and which seats won.
RACE_SPEC = SimulationSpec("turns", (("finish", "a runner crossed the line"), ("limit", "the turn limit")),
                           (FigureSpec("won", "won", FigureKind.SHARE),))


class RaceTally:
    """Reads one race: who won, and whether someone crossed the line or the turn limit ended it."""

    def __init__(self, rules: RaceRuleset, start: RaceState) -> None:
        self.length = rules.length
        self.seats = start.seats

    def window(self, resolution: Resolution[Any]) -> None:
        """Nothing to count while the race runs: the last state says it all."""

    def finish(self, state: RaceState) -> MatchSummary:
        """How the race ended, and 1 for each winning seat."""
        crossed = any(at >= self.length for at in state.at.values())
        winners = state.winners or ()
        return MatchSummary("finish" if crossed else "limit", tuple((float(s in winners),) for s in self.seats))


def race_bots(rules: RaceRuleset) -> Mapping[str, BotKind]:
    """One kind: run while there is stamina, else walk."""
    return {"steady": BotKind("steady", "runs while it has stamina, then walks", lambda seed: SteadyBot())}


#: The race as a game record: rules, a sheet, a bot and one GM option.
GAME = Game(rules=RaceRuleset, sheet=RaceSheet,
            simulation=Simulation(bots=race_bots, spec=lambda r: RACE_SPEC, tally=RaceTally),
            gm=GmPart(OPTIONS, events_from_options, '--stamina Ann-1=2 --reason "a slow start"'))

RACE: type[AnyRuleset] = RaceRuleset


def as_ruleset(rules: RaceRuleset) -> AnyRuleset:
    """A race as the core types a ruleset."""
    return rules


@pytest.fixture
def registered_race(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[RaceRuleset]]:
    """The race registered as a ruleset for one test."""
    monkeypatch.setitem(registry.GAMES, "race", "tests.sync.race_game:GAME")
    monkeypatch.setitem(registry.TEMPLATE_FOLDERS, "race", TEMPLATE)
    yield RaceRuleset
