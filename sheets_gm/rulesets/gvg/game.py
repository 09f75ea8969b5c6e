"""The GvG ruleset as the rest of sheets-gm sees it: its engine class and ``GAME`` record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sheets_gm.engine.codecs import Codec
from sheets_gm.engine.dice import TurnDice
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
from sheets_gm.rulesets.game import Game, GmPart, Simulation
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots.base import Bot as GvgBot
from sheets_gm.rulesets.gvg.bots.objective import ObjectiveBot
from sheets_gm.rulesets.gvg.bots.random_bot import RandomBot
from sheets_gm.rulesets.gvg.check import check_orders, verdicts_of
from sheets_gm.rulesets.gvg.figures import GvgTally, simulation_spec
from sheets_gm.rulesets.gvg.gm import OPTIONS, apply_gm_event, events_from_options
from sheets_gm.rulesets.gvg.legacy import GvgLegacy
from sheets_gm.rulesets.gvg.orders import TurnOrders, orders_from_json, orders_to_json
from sheets_gm.rulesets.gvg.resolve import resolve_turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, RosterError, new_match, standard_roster
from sheets_gm.rulesets.gvg.sheet.adapter import GvgSheet
from sheets_gm.rulesets.gvg.sheet.draw import move_roll
from sheets_gm.rulesets.gvg.state import GmEvent, GvgState, gm_event_from_json, gm_event_to_json

if TYPE_CHECKING:  # the codec imports this module: the record builds it on demand
    from sheets_gm.rulesets.gvg.scenario import GvgScenarioCodec


@dataclass(frozen=True, slots=True)
class _SeatBot:
    """A GvG bot (which plays a team slot) seen as a core ``Bot`` (which plays a seat by name)."""

    rules: GvgRules
    bot: GvgBot

    def orders(self, state: GvgState, seat: str, dice: TurnDice) -> TurnOrders:
        team = state.team_index(seat)
        part = self.bot.orders(self.rules, state, team, dice)
        skills: tuple[Any, ...] = (part.skills, ()) if team == 0 else ((), part.skills)
        return TurnOrders(players=part.players, skills=skills)


class GvgRuleset(Ruleset[GvgState, TurnOrders, GmEvent]):
    """WWM GvG: two teams of five, simultaneous turns, capture the enemy tree."""

    traits: ClassVar[RulesetTraits] = RulesetTraits(
        name="gvg",
        title="WWM GvG guild board game",
        turn_structure=TurnStructure.SIMULTANEOUS,
        seat_kind=SeatKind.TEAM,
        information=Information.PRIVATE_ORDERS,
        board_kind=BoardKind.SQUARE,
        judge=False,
        min_seats=2,
        max_seats=2,
        max_windows=GvgSettings().max_turns,
        settings_type=GvgSettings,
        default_board="map.txt",
    )

    def __init__(self, rules: GvgRules) -> None:
        self.rules = rules
        self._windows: dict[tuple[int, tuple[str, str]], Window] = {}  # simulations ask every turn
        self._sample: Roster | None = None

    @classmethod
    def create(cls, settings: Any, board: str) -> GvgRuleset:
        """The rules of a match on ``board`` (the map as text); MapError names the bad line."""
        return cls(GvgRules(GvgMap.from_text(board), settings))

    @property
    def settings(self) -> GvgSettings:
        """The match's house rules."""
        return self.rules.settings

    @property
    def board_text(self) -> str:
        """The map as text."""
        return self.rules.board.to_text()

    # -- set-up ----------------------------------------------------------------------------
    def sample_roster(self) -> Roster:
        """Red against blue, five a side: two DPS, two Tanks and a Healer, named red1… and blue1…; each team's
        first player its captain (the roster's ``captain`` column)."""
        if self._sample is None:
            teams = ("red", "blue")
            entries = standard_roster(teams)
            firsts = {next(e.name for e in entries if e.team == team) for team in teams}
            self._sample = Roster(teams, tuple(Member(e.name, e.team, {"role": e.role,
                                                                      "captain": "yes" if e.name in firsts else ""})
                                               for e in entries))
        return self._sample

    def new_match(self, roster: Roster, seed: bytes) -> GvgState:
        """Every member on a base tile of its team (``fields['role']`` is dps, tank or healer); a roster
        without players is refused (ValueError), so that ``init`` asks for one."""
        if not roster.members:
            raise RosterError("a GvG match needs its players: a roster line per player with name, team and role "
                              "(dps, tank or healer)")
        entries = [RosterEntry(m.name, m.seat, m.fields.get("role", "")) for m in roster.members]
        # A roster's members come from the rows under its header: the first is on line 2.
        return new_match(self.rules.board, roster.seats, entries, self.rules.settings, first_line=2)

    # -- codecs ------------------------------------------------------------------------------
    state_codec = Codec.of(GvgState)
    orders_codec = Codec(orders_to_json, orders_from_json)
    gm_event_codec = Codec(gm_event_to_json, gm_event_from_json)

    # -- play --------------------------------------------------------------------------------
    def seats(self, state: GvgState) -> tuple[str, ...]:
        """The two teams, slot 1 first."""
        return state.teams

    def window(self, state: GvgState) -> Window | None:
        """One window a turn: both teams submit at once."""
        if state.finished:
            return None
        key = (state.turn, state.teams)
        found = self._windows.get(key)
        if found is None:
            found = self._windows[key] = Window(key=str(state.turn), label=f"turn {state.turn}", phase="orders",
                                                seats=state.teams, turn=state.turn)
        return found

    def dice(self, seed: bytes, state: GvgState, pins: Mapping[str, Any] | None = None) -> TurnDice:
        """The dice of the turn about to be resolved."""
        return TurnDice(seed, state.turn, pins)


    def rolls_shown(self, state: GvgState, dice: TurnDice) -> dict[str, int]:
        """Every player's movement roll, published on both teams' orders tabs before the turn resolves."""
        shown = {f"move/{p.name}": move_roll(state, dice, p) for p in state.players}
        return {key: roll for key, roll in shown.items() if isinstance(roll, int) and not isinstance(roll, bool)}

    def merge_orders(self, parts: Mapping[str, TurnOrders]) -> TurnOrders:
        """The players' orders of every part; each team's skills from its own slot."""
        players: dict[str, Any] = {}
        first: tuple[Any, ...] = ()
        second: tuple[Any, ...] = ()
        for part in parts.values():
            players.update(part.players)
            first = part.skills[0] or first
            second = part.skills[1] or second
        return TurnOrders(players=players, skills=(first, second))

    def check(self, state: GvgState, orders: TurnOrders, dice: TurnDice) -> list[Verdict]:
        """A verdict per order part; a player's seat is its team, a team's skills are the team's own."""
        return verdicts_of(state, check_orders(self.rules, state, orders, dice))

    def resolve(self, state: GvgState, orders: TurnOrders, dice: TurnDice) -> Resolution[GvgState]:
        return resolve_turn(self.rules, state, orders, dice)

    def outcome(self, state: GvgState) -> Outcome | None:
        if not state.finished:
            return None
        if state.winner is None:
            return Outcome((), f"a draw on turn {state.turn}")
        team = state.teams[state.winner]
        return Outcome((team,), f"{team} wins")



    # -- the GM ------------------------------------------------------------------------------
    def apply_gm_event(self, state: GvgState, event: GmEvent) -> Resolution[GvgState]:
        new, events = apply_gm_event(self.rules, state, event)
        return Resolution(new, events)

    # -- bots --------------------------------------------------------------------------------


def bot_kinds(ruleset: GvgRuleset) -> Mapping[str, BotKind]:
    """``objective`` (plays for the trees, buys skills), ``random`` and ``noskills``."""
    rules = ruleset.rules
    kinds = (
        BotKind("objective", "plays for the tree and buys command skills",
                lambda seed: _SeatBot(rules, ObjectiveBot(seed))),
        BotKind("random", "random but legal orders", lambda seed: _SeatBot(rules, RandomBot(seed))),
        BotKind("noskills", "the objective bot with a captain who never buys a command skill",
                lambda seed: _SeatBot(rules, ObjectiveBot(seed, buys_skills=False))),
    )
    return {kind.name: kind for kind in kinds}


def _scenario_codec() -> GvgScenarioCodec:
    from sheets_gm.rulesets.gvg.scenario import GvgScenarioCodec

    return GvgScenarioCodec()


GAME = Game(
    rules=GvgRuleset,
    sheet=lambda r: GvgSheet(r.rules),  # a team's orders tab (a row per player, the captain's row) and the board
    scenario=_scenario_codec,
    simulation=Simulation(bots=bot_kinds, spec=lambda r: simulation_spec(r.rules.settings.max_turns),
                          tally=lambda r, start: GvgTally(start)),
    gm=GmPart(OPTIONS, events_from_options,
              '--coins red=5 --reason "duel paid twice"'),
    legacy=GvgLegacy(),  # matches in play and replays of the old GvG layout, read in today's terms
)
