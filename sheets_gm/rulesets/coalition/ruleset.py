"""The Coalition–Phyrexia war game as the rest of sheets-gm sees it: the core's ``Ruleset`` interface.

A turn has two windows: **orders** (the seats ``coalition`` and ``phyrexia`` write their
armies' orders; at the deadline the engine adjudicates movement and announces the battles)
and **results** (the seat ``judge`` enters each battle's result; the engine applies them and
runs the end of the turn). A turn without an open battle has no results window.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from sheets_gm.engine.codecs import Codec
from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.ruleset import (
    JUDGE,
    BoardKind,
    BotKind,
    GmOption,
    Information,
    Outcome,
    Resolution,
    Roster,
    RulesetTraits,
    SeatKind,
    TurnStructure,
    Verdict,
    Window,
    split_option,
)
from sheets_gm.rulesets.coalition.adjudicate import adjudicate
from sheets_gm.rulesets.coalition.board import Board, PlaceError, load_board
from sheets_gm.rulesets.coalition.bots import CoalitionBot
from sheets_gm.rulesets.coalition.checks import check_orders
from sheets_gm.rulesets.coalition.enums import EventKind, Phase, Side, StructureKind
from sheets_gm.rulesets.coalition.figures import CoalitionTally, simulation_spec
from sheets_gm.rulesets.coalition.results import resolve_results
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.setup import (
    SEATS,
    army_problems,
    new_match,
    parse_creatures,
    roster_from_yaml,
    slots_of,
)
from sheets_gm.rulesets.coalition.sheet import CoalitionSheet
from sheets_gm.rulesets.coalition.state import SLOT_CAPACITY, Adjustment, CoalitionOrders, CoalitionState
from sheets_gm.simulate.figures import SimulationSpec

ORDER_SEATS = (Side.COALITION.value, Side.PHYREXIA.value)


class CoalitionRuleset:
    """The Coalition–Phyrexia war game: two sides' movement orders, a judge's battle results."""

    traits: ClassVar[RulesetTraits] = RulesetTraits(
        name="coalition",
        title="Coalition–Phyrexia war game",
        turn_structure=TurnStructure.SIMULTANEOUS,
        seat_kind=SeatKind.SIDE,
        information=Information.PRIVATE_ORDERS,
        board_kind=BoardKind.PLANES,
        judge=True,
        min_seats=2,
        max_seats=2,
        max_windows=2 * CoalitionSettings().max_turns,
        settings_type=CoalitionSettings,
        default_board="map.yaml",
        roster_groups=(Side.MERCENARY.value,),
    )

    def __init__(self, board: Board, settings: CoalitionSettings) -> None:
        self.board = board
        self._settings = settings
        self._sample: Roster | None = None

    @classmethod
    def create(cls, settings: Any, board: str) -> CoalitionRuleset:
        """The rules of a match on ``board`` (the map's YAML); ValueError naming the bad line."""
        return cls(load_board(board, "map"), settings)

    @property
    def settings(self) -> CoalitionSettings:
        """The match's house rules."""
        return self._settings

    @property
    def board_text(self) -> str:
        """The map as its YAML text."""
        return self.board.to_text()

    # -- set-up ----------------------------------------------------------------------------
    def sample_roster(self) -> Roster:
        """The armies of ``templates/coalition/armies.yaml``: both sides and three mercenary bands."""
        if self._sample is None:
            from sheets_gm.engine.registry import TEMPLATES
            path = TEMPLATES / "coalition" / "armies.yaml"
            self._sample = roster_from_yaml(path.read_text(encoding="utf-8"), str(path))
        return self._sample

    def opening_events(self, state: CoalitionState, seed: bytes) -> list[Event]:
        """Nothing is drawn at set-up that the Log should show."""
        return []

    def new_match(self, roster: Roster, seed: bytes) -> CoalitionState:
        """Every army where the roster places it; ValueError naming the roster row of a bad army. A roster of
        seats alone (``init`` without a roster file) places the sample armies of ``templates/coalition/armies.yaml``."""
        if not roster.members:
            roster = Roster(roster.seats, self.sample_roster().members)
        return new_match(self.board, roster, seed)

    # -- codecs ------------------------------------------------------------------------------
    state_codec = Codec.of(CoalitionState)
    orders_codec = Codec.of(CoalitionOrders)
    gm_event_codec = Codec.of(Adjustment)

    # -- play --------------------------------------------------------------------------------
    def seats(self, state: CoalitionState) -> tuple[str, ...]:
        """The Coalition and Phyrexia (the judge, who enters results, is no seat: see ``traits.judge``)."""
        return SEATS

    def window(self, state: CoalitionState) -> Window | None:
        """Orders (both sides) or results (the judge); None once the round is over."""
        if state.phase is Phase.ORDERS:
            return Window(str(state.turn), f"turn {state.turn} · orders", "orders", ORDER_SEATS, state.turn)
        if state.phase is Phase.RESULTS:
            return Window(f"{state.turn}/results", f"turn {state.turn} · battle results", "results", (JUDGE,),
                          state.turn)
        return None

    def dice(self, seed: bytes, state: CoalitionState, pins: Mapping[str, Any] | None = None) -> TurnDice:
        """The turn's keyed dice and draws (d6 or the weather table's die, d100, draws among names and squares)."""
        return TurnDice(seed, state.turn, pins, die_sides=None)

    def no_orders(self) -> CoalitionOrders:
        return CoalitionOrders()

    def merge_orders(self, parts: Mapping[str, CoalitionOrders]) -> CoalitionOrders:
        """Each side's orders from its own part; the judge's results from the judge's part."""
        orders = {seat: part.orders[seat] for seat, part in parts.items() if seat in part.orders}
        judge = parts.get(JUDGE)
        return CoalitionOrders(orders, dict(judge.results) if judge is not None else {})

    def check(self, state: CoalitionState, orders: CoalitionOrders, dice: TurnDice) -> list[Verdict]:
        """A verdict per army order, or per battle result in the results window."""
        return check_orders(self.board, self._settings, state, orders)

    def resolve(self, state: CoalitionState, orders: CoalitionOrders, dice: TurnDice) -> Resolution[CoalitionState]:
        """Adjudicate movement (orders window), or apply the judge's results and end the turn (results window)."""
        if state.phase is Phase.ORDERS:
            new, events = adjudicate(self.board, self._settings, state, orders, dice)
            return Resolution(new, events)
        if state.phase is Phase.RESULTS:
            return self._results(state, orders, dice)
        return Resolution(replace(state), [])

    def _results(self, state: CoalitionState, orders: CoalitionOrders, dice: TurnDice) -> Resolution[CoalitionState]:
        new, events, refused = resolve_results(self.board, self._settings, state, orders.results, dice)
        notes = [Event(state.turn, EventKind.RESULT, f"refused: {why}", {"refused": why}, audience=frozenset({JUDGE}))
                 for why in refused]
        return Resolution(new, notes + events)

    def outcome(self, state: CoalitionState) -> Outcome | None:
        if not state.finished:
            return None
        how = {"structures": "by destroying the enemy's structures", "kills": "by killing the enemy's top ranks",
               "vp": "on victory points", "turn_limit": f"on victory points at turn {state.turn}"}.get(
            state.ending or "", "")
        if state.winner in (None, "draw"):
            return Outcome((), f"a draw {how}".strip())
        return Outcome((state.winner or "",), f"{Side(state.winner or 'coalition').display} wins {how}")

    def view(self, state: CoalitionState, seat: str | None) -> dict[str, Any]:
        """The whole state: the board is public; only orders are private, and they never enter the state."""
        return state.to_json()

    def secrets(self, state: CoalitionState, seat: str) -> list[str]:
        """None: a side's secrets are its orders, shown only in its own orders sheet."""
        return []

    # -- the GM ------------------------------------------------------------------------------
    @classmethod
    def gm_options(cls) -> tuple[GmOption, ...]:
        return (
            GmOption("vp", "SIDE=N", "set a side's victory points"),
            GmOption("position", "ARMY=PLACE", "move an army (a place such as 'Dominaria 3A')"),
            GmOption("units", "ARMY=N1/N2/N3/N4", "set an army's units per slot"),
            GmOption("change", "ARMY=CREATURES", "the judge's army change, applied once the army has counted "
                                                 "change_turns where it heals: '5000 Elves (green 2/2); ...'"),
        )

    @classmethod
    def gm_events_from_options(cls, seats: Sequence[str], values: Mapping[str, Sequence[str]],
                               reason: str) -> list[Adjustment]:
        """Victory points, positions and units, each with ``reason``."""
        if not any(values.get(k) for k in ("vp", "position", "units", "change")):
            raise ValueError("nothing to change: give --vp SIDE=N, --position ARMY=PLACE, --units ARMY=N1/N2/N3/N4 "
                             "or --change ARMY=CREATURES")
        if not reason.strip():
            raise ValueError('--reason is required, e.g. --reason "judge ruling on the raid"; it is written to the log')
        events: list[Adjustment] = []
        for value in values.get("vp", ()):
            side, points = split_option("--vp", value, "SIDE=N", "coalition=120")
            if side.lower() not in ORDER_SEATS or not points.lstrip("-").isdigit():
                raise ValueError(f"--vp {value!r}: the side is coalition or phyrexia, the points a whole number")
            events.append(Adjustment(reason, vp=(side.lower(), int(points))))
        for value in values.get("position", ()):
            army, place = split_option("--position", value, "ARMY=PLACE", "Frank=Dominaria 3A")
            events.append(Adjustment(reason, position=(army, place)))
        for value in values.get("units", ()):
            army, units = split_option("--units", value, "ARMY=N1/N2/N3/N4", "Frank=5000/2500/1500/1000")
            parts = units.split("/")
            if len(parts) != 4 or not all(p.strip().isdigit() for p in parts):
                raise ValueError(f"--units {value!r}: four whole numbers separated by /, like 5000/2500/1500/1000")
            n = [int(p) for p in parts]
            events.append(Adjustment(reason, units=(army, (n[0], n[1], n[2], n[3]))))
        for value in values.get("change", ()):
            events.append(Adjustment(reason, change=split_option("--change", value, "ARMY=CREATURES",
                                                                 "Frank=5000 Elves (green 1/1)")))
        return events

    def apply_gm_event(self, state: CoalitionState, event: Adjustment) -> Resolution[CoalitionState]:
        """The correction applied, logged with its reason; ValueError naming what does not fit."""
        new = state
        texts = []
        if event.vp is not None:
            new = new.with_(vp={**new.vp, event.vp[0]: event.vp[1]})
            texts.append(f"{event.vp[0]} victory points set to {event.vp[1]}")
        for change in (event.position, event.units):
            if change is None:
                continue
            army = new.army(change[0])
            if army is None:
                raise ValueError(f"there is no army {change[0]!r}")
            if change is event.position:
                try:
                    place = self.board.parse(str(change[1]))
                except PlaceError as exc:
                    raise ValueError(f"--position {change[0]}: {exc}") from None
                updated = replace(army, at=place)
                texts.append(f"{army.name} moved to {place}")
            else:
                units = event.units[1] if event.units else army.units
                if any(not 0 <= u <= cap for u, cap in zip(units, SLOT_CAPACITY, strict=True)):
                    raise ValueError(f"--units {army.name}: slots hold 0 to 5000, 2500, 1500 and 1000")
                updated = replace(army, units=units)
                texts.append(f"{army.name}'s units set to {'/'.join(map(str, units))}")
            new = new.with_(armies=tuple(updated if a.name == army.name else a for a in new.armies))
        if event.change is not None:
            new, said = self._change(new, *event.change)
            texts.append(said)
        text = f"GM adjustment ({event.reason}): " + "; ".join(texts)
        return Resolution(new, [Event(state.turn, EventKind.ADJUSTED, text, event.to_json())])

    def _change(self, state: CoalitionState, name: str, creatures_text: str) -> tuple[CoalitionState, str]:
        """An army change recorded: checked against the army table and the destroyed bases' colours."""
        army = state.army(name)
        if army is None:
            raise ValueError(f"--change: there is no army {name!r}")
        creatures = tuple(parse_creatures(creatures_text))
        if not creatures:
            raise ValueError(f"--change {name}: list the new creatures, like 5000 Elves (green 2/2); 2500 ...")
        lost = frozenset(s.colour for s in self.board.structures
                         if s.kind is StructureKind.BASE and s.name in state.destroyed and s.colour is not None)
        problems = army_problems(replace(army, creatures=creatures, units=slots_of(army.rank, creatures)), lost)
        if problems:
            raise ValueError(f"--change {name}: " + "; ".join(problems))
        return (state.with_(changes={**state.changes, army.name: creatures}),
                f"{army.name}'s army change recorded (after {self._settings.change_turns} turns where it heals)")

    # -- the sheet ---------------------------------------------------------------------------
    def sheet(self) -> CoalitionSheet:
        """The sheet adapter: armies' orders rows per side, the judge's result rows, the map of three planes."""
        return CoalitionSheet(self.board)

    # -- tests -------------------------------------------------------------------------------
    @classmethod
    def scenario_codec(cls) -> Any:
        """The Coalition's scenario files."""
        from sheets_gm.rulesets.coalition.scenario import CoalitionScenarioCodec
        return CoalitionScenarioCodec()

    # -- bots --------------------------------------------------------------------------------
    def bots(self) -> Mapping[str, BotKind]:
        """``commander`` (raids, engages what it outnumbers, marches on structures) and ``cautious``; the
        judge's seat is played by the stand-in judge whatever the kind."""
        board, settings = self.board, self._settings
        kinds = (
            BotKind("commander", "raids weak armies, engages what it outnumbers, marches on enemy structures "
                                 "and features; the judge's seat gets the automatic stand-in judge",
                    lambda seed: CoalitionBot(board, settings, seed)),
            BotKind("cautious", "marches on structures and features, fights only one time in five",
                    lambda seed: CoalitionBot(board, settings, seed, aggression=0.2)),
        )
        return {kind.name: kind for kind in kinds}

    def simulation(self) -> SimulationSpec:
        """Battles, kills, raids, structures and victory points per side; how the round ended."""
        return simulation_spec(self._settings.max_turns)

    def tally(self, start: CoalitionState) -> CoalitionTally:
        """Counts one match's events per side."""
        return CoalitionTally(start)
