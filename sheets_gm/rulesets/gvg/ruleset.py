"""The GvG ruleset as the rest of sheets-gm sees it: the core's ``Ruleset`` interface over the GvG engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sheets_gm.engine.codecs import Codec
from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.grid import Coord, CoordError
from sheets_gm.engine.ruleset import (
    BoardKind,
    BotKind,
    GmOption,
    Information,
    Member,
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
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots import Bot as GvgBot
from sheets_gm.rulesets.gvg.bots import ObjectiveBot, RandomBot
from sheets_gm.rulesets.gvg.checks import check_orders
from sheets_gm.rulesets.gvg.figures import GvgTally, simulation_spec
from sheets_gm.rulesets.gvg.gm import apply_gm_event
from sheets_gm.rulesets.gvg.legacy import GvgLegacy
from sheets_gm.rulesets.gvg.resolve import resolve_turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.scenario import GvgScenarioCodec
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, RosterError, new_match, standard_roster
from sheets_gm.rulesets.gvg.sheet.adapter import GvgSheet
from sheets_gm.rulesets.gvg.state import (
    Adjustment,
    ArcheryDuel,
    GmEvent,
    GvgState,
    TurnOrders,
    gm_event_from_json,
    gm_event_to_json,
    orders_from_json,
    orders_to_json,
)
from sheets_gm.simulate.figures import SimulationSpec


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


class GvgRuleset:
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
    #: Matches in play and replays of the old GvG layout, read in today's terms (``engine.legacy``).
    legacy: ClassVar[GvgLegacy] = GvgLegacy()

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

    def opening_events(self, state: GvgState, seed: bytes) -> list[Event]:
        """Nothing is drawn at set-up that the Log should show."""
        return []

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

    def no_orders(self) -> TurnOrders:
        return TurnOrders()

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
        checked = check_orders(self.rules, state, orders, dice)
        team_of = {p.name: state.teams[p.team] for p in state.players}
        return [Verdict(team_of.get(c.subject, c.subject), c.subject, c.part, c.accepted, c.message)
                for c in checked.checks]

    def resolve(self, state: GvgState, orders: TurnOrders, dice: TurnDice) -> Resolution[GvgState]:
        res = resolve_turn(self.rules, state, orders, dice)
        return Resolution(res.state, res.events)

    def outcome(self, state: GvgState) -> Outcome | None:
        if not state.finished:
            return None
        if state.winner is None:
            return Outcome((), f"a draw on turn {state.turn}")
        team = state.teams[state.winner]
        return Outcome((team,), f"{team} wins")

    def view(self, state: GvgState, seat: str | None) -> dict[str, Any]:
        """Everything: GvG hides orders until they resolve, never the board."""
        return state.to_json()

    def secrets(self, state: GvgState, seat: str) -> list[str]:
        """None: a team's only secret is its orders, which never enter the state."""
        return []

    # -- the GM ------------------------------------------------------------------------------
    @classmethod
    def gm_options(cls) -> tuple[GmOption, ...]:
        return (
            GmOption("coins", "TEAM=N", "set a team's coins"),
            GmOption("hp", "TILE=N", "set the HP of the bulwark, fish or boss on a tile (0 destroys it, no reward)"),
            GmOption("position", "PLAYER=TILE", "move a player (a carrier takes the tree along)"),
            GmOption("duel", "TEAM=W-L", "the archery duel's winner and score (best of 5: 3-0, 3-1 or 3-2)"),
        )

    @classmethod
    def gm_events_from_options(cls, seats: Sequence[str], values: Mapping[str, Sequence[str]],
                               reason: str) -> list[GmEvent]:
        """Coins, HP and positions (each needs ``reason``), then archery duels, in that order."""
        corrections = [*values.get("coins", ()), *values.get("hp", ()), *values.get("position", ())]
        if not corrections and not values.get("duel"):
            raise ValueError("nothing to change: give --coins TEAM=N, --hp TILE=N, --position PLAYER=TILE "
                             "or --duel TEAM=W-L")
        if corrections and not reason.strip():
            raise ValueError('--reason is required with --coins, --hp and --position, e.g. --reason "duel paid '
                             'twice"; it is written to the log')
        teams = (seats[0], seats[1])
        events: list[GmEvent] = []
        for value in values.get("coins", ()):
            team, count = split_option("--coins", value, "TEAM=COINS", "red=5")
            events.append(Adjustment(reason, coins=(_team("--coins", team, teams),
                                                    _number("--coins", count, "coins"))))
        for value in values.get("hp", ()):
            tile, hp = split_option("--hp", value, "TILE=HP", "G7=3")
            events.append(Adjustment(reason, hp=(_tile("--hp", tile), _number("--hp", hp, "HP"))))
        for value in values.get("position", ()):
            name, tile = split_option("--position", value, "PLAYER=TILE", "Ann=H12")
            events.append(Adjustment(reason, position=(name, _tile("--position", tile))))
        for value in values.get("duel", ()):
            team, score = split_option("--duel", value, "TEAM=W-L (the winner and the score)", "red=3-1")
            won, dash, lost = score.partition("-")
            if not dash:
                raise ValueError(f"--duel {value!r}: the score is the winner's points, a dash and the loser's, "
                                 "like 3-1")
            events.append(ArcheryDuel(_team("--duel", team, teams), _number("--duel", won, "points"),
                                      _number("--duel", lost, "points")))
        return events

    def apply_gm_event(self, state: GvgState, event: GmEvent) -> Resolution[GvgState]:
        new, events = apply_gm_event(self.rules, state, event)
        return Resolution(new, events)

    # -- the sheet ---------------------------------------------------------------------------
    def sheet(self) -> GvgSheet:
        """GvG's sheets: a team's orders tab (a row per player, the captain's row) and the board."""
        return GvgSheet(self.rules)

    # -- tests -------------------------------------------------------------------------------
    @classmethod
    def scenario_codec(cls) -> GvgScenarioCodec:
        """GvG's scenario files."""
        return GvgScenarioCodec()

    # -- bots --------------------------------------------------------------------------------
    def bots(self) -> Mapping[str, BotKind]:
        """``objective`` (plays for the trees, buys skills), ``random`` and ``noskills``."""
        rules = self.rules
        kinds = (
            BotKind("objective", "plays for the tree and buys command skills",
                    lambda seed: _SeatBot(rules, ObjectiveBot(seed))),
            BotKind("random", "random but legal orders", lambda seed: _SeatBot(rules, RandomBot(seed))),
            BotKind("noskills", "the objective bot with a captain who never buys a command skill",
                    lambda seed: _SeatBot(rules, ObjectiveBot(seed, buys_skills=False))),
        )
        return {kind.name: kind for kind in kinds}

    def simulation(self) -> SimulationSpec:
        """Coins, skills, knock-downs and captures per team; captures or the turn limit end a match."""
        return simulation_spec(self.rules.settings.max_turns)

    def tally(self, start: GvgState) -> GvgTally:
        """Counts one match's events per team."""
        return GvgTally(start)



def _team(option: str, name: str, teams: tuple[str, str]) -> int:
    for i, team in enumerate(teams):
        if team.lower() == name.lower():
            return i
    raise ValueError(f"{option}: there is no team {name!r}; the teams are {teams[0]} and {teams[1]}")


def _number(option: str, text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{option}: {what} {text!r} is not a whole number") from None


def _tile(option: str, text: str) -> Coord:
    try:
        return Coord.parse(text)
    except CoordError as exc:
        raise ValueError(f"{option}: {exc}") from None
