"""The engine class of GvG: the core's ``Ruleset`` (set-up, windows, check, resolve, views, GM
corrections). The ``GAME`` record in ``game.py`` names it with the game's other parts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.check import check_orders, verdicts_of
from sheets_gm.rulesets.gvg.gm import apply_gm_event, concede
from sheets_gm.rulesets.gvg.orders import TurnOrders, orders_from_json, orders_to_json
from sheets_gm.rulesets.gvg.resolve import resolve_turn
from sheets_gm.rulesets.gvg.rules import GvgRules, move_roll
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, RosterError, new_match, standard_roster
from sheets_gm.rulesets.gvg.state import GmEvent, GvgState, gm_event_from_json, gm_event_to_json


class GvgRuleset(kit.Ruleset[GvgState, TurnOrders, GmEvent]):
    """WWM GvG: two teams of five, simultaneous turns, capture the enemy tree."""

    traits: ClassVar[kit.RulesetTraits] = kit.RulesetTraits(
        name="gvg",
        title="WWM GvG guild board game",
        turn_structure=kit.TurnStructure.SIMULTANEOUS,
        seat_kind=kit.SeatKind.TEAM,
        information=kit.Information.PRIVATE_ORDERS,
        board_kind=kit.BoardKind.SQUARE,
        judge=False,
        min_seats=2,
        max_seats=2,
        max_windows=GvgSettings().max_turns,
        settings_type=GvgSettings,
        default_board="map.txt",
    )

    def __init__(self, rules: GvgRules) -> None:
        self.rules = rules
        self._windows: dict[tuple[int, tuple[str, str]], kit.Window] = {}  # simulations ask every turn
        self._sample: kit.Roster | None = None
        self._sample_start: GvgState | None = None  # the sample roster's state before turn 1 (simulations)

    @classmethod
    def read_board(cls, text: str) -> GvgMap:
        """The map of its text (the reach it finds is kept); MapError names the bad line."""
        return GvgMap.from_text(text)

    @classmethod
    def from_board(cls, settings: Any, board: GvgMap) -> GvgRuleset:
        """The rules of a match on ``board``."""
        return cls(GvgRules(board, settings))

    @property
    def settings(self) -> GvgSettings:
        """The match's house rules."""
        return self.rules.settings

    @property
    def board_text(self) -> str:
        """The map as text."""
        return self.rules.board.to_text()

    # -- set-up ----------------------------------------------------------------------------
    def sample_roster(self) -> kit.Roster:
        """Red against blue, five a side: two DPS, two Tanks and a Healer, named red1… and blue1…; each team's
        first player its captain (the roster's ``captain`` column)."""
        if self._sample is None:
            teams = ("red", "blue")
            entries = standard_roster(teams)
            firsts = {next(e.name for e in entries if e.team == team) for team in teams}
            self._sample = kit.Roster(teams, tuple(kit.Member(e.name, e.team, {"role": e.role,
                                                                      "captain": "yes" if e.name in firsts else ""})
                                                   for e in entries))
        return self._sample

    def new_match(self, roster: kit.Roster, seed: bytes) -> GvgState:
        """Every member on a base tile of its team (``fields['role']`` is dps, tank or healer); a roster
        without players is refused (ValueError), so that ``init`` asks for one."""
        if not roster.members:
            raise RosterError("a GvG match needs its players: a roster line per player with name, team and role "
                              "(dps, tank or healer)")
        if roster is self._sample and self._sample_start is not None:  # a simulation's every match: a copy
            return self._sample_start.copy()
        entries = [RosterEntry(m.name, m.seat, m.fields.get("role", "")) for m in roster.members]
        # A roster's members come from the rows under its header: the first is on line 2.
        state = new_match(self.rules.board, roster.seats, entries, self.rules.settings, first_line=2)
        if roster is self._sample:
            self._sample_start = state.copy()
        return state

    # -- codecs ------------------------------------------------------------------------------
    orders_codec = kit.Codec(orders_to_json, orders_from_json)
    gm_event_codec = kit.Codec(gm_event_to_json, gm_event_from_json)

    # -- play --------------------------------------------------------------------------------
    def seats(self, state: GvgState) -> tuple[str, ...]:
        """The two teams, slot 1 first."""
        return state.teams

    def window(self, state: GvgState) -> kit.Window | None:
        """One window a turn: both teams submit at once."""
        if state.finished:
            return None
        key = (state.turn, state.teams)
        found = self._windows.get(key)
        if found is None:
            found = self._windows[key] = kit.Window(key=str(state.turn), label=f"turn {state.turn}", phase="orders",
                                                    seats=state.teams, turn=state.turn)
        return found

    def dice(self, seed: bytes, state: GvgState, pins: Mapping[str, Any] | None = None) -> kit.TurnDice:
        """The dice of the turn about to be resolved."""
        return kit.TurnDice(seed, state.turn, pins)


    def rolls_shown(self, state: GvgState, dice: kit.TurnDice) -> dict[str, int]:
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
        return TurnOrders(players, (first, second))  # positional: keywords cost a dictionary, every turn

    def check(self, state: GvgState, orders: TurnOrders, dice: kit.TurnDice) -> list[kit.Verdict]:
        """A verdict per order part; a player's seat is its team, a team's skills are the team's own."""
        return verdicts_of(state, check_orders(self.rules, state, orders, dice))

    def resolve(self, state: GvgState, orders: TurnOrders, dice: kit.TurnDice) -> kit.Resolution[GvgState]:
        return resolve_turn(self.rules, state, orders, dice)

    def outcome(self, state: GvgState) -> kit.Outcome | None:
        if not state.finished:
            return None
        if state.winner is None:
            return kit.Outcome((), f"a draw on turn {state.turn}")
        team = state.teams[state.winner]
        return kit.Outcome((team,), f"{team} wins ({state.conceded} conceded)" if state.conceded else f"{team} wins")



    # -- the GM ------------------------------------------------------------------------------
    def apply_gm_event(self, state: GvgState, event: GmEvent) -> kit.Resolution[GvgState]:
        new, events = apply_gm_event(self.rules, state, event)
        return kit.Resolution(new, events)

    def concede(self, state: GvgState, seat: str, reason: str) -> kit.Resolution[GvgState]:
        """A team concedes: the other team wins the match."""
        new, events = concede(state, seat, reason)
        return kit.Resolution(new, events)
