"""The engine class of Win or Die: the core's ``Ruleset`` (set-up, windows, check, resolve, views, GM
corrections). The ``GAME`` record in ``game.py`` names it with the game's other parts."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, ClassVar

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.board import WodMap
from sheets_gm.rulesets.winordie.cards import shipped_tables
from sheets_gm.rulesets.winordie.check import check_orders
from sheets_gm.rulesets.winordie.enums import Ending, Phase, ResolveMode
from sheets_gm.rulesets.winordie.gm import Adjustment, apply_gm_event, concede, reason_problem
from sheets_gm.rulesets.winordie.orders import WodOrders, merge_orders, orders_from_json, orders_to_json
from sheets_gm.rulesets.winordie.resolve import resolve_turn
from sheets_gm.rulesets.winordie.rules import WodRules
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.setup import new_match, roll_first
from sheets_gm.rulesets.winordie.stand_in import stand_in_events
from sheets_gm.rulesets.winordie.state import WodState
from sheets_gm.rulesets.winordie.views import seat_state, secrets_of, unseen_twin, view_of

#: The most windows of one game with the default settings: two deployments, then at most 15 turns (the
#: first player's fatigue reaches 8 at the end of her 8th turn), each reopened at most 7 times by reactions.
GAME_WINDOWS = 2 + 15 * 8


class WodRuleset(kit.Ruleset[WodState, WodOrders, Adjustment]):
    """Win or Die: two players, hidden units on a hex board, command tokens and reactions."""

    traits: ClassVar[kit.RulesetTraits] = kit.RulesetTraits(
        name="winordie",
        title="Win or Die",
        turn_structure=kit.TurnStructure.ALTERNATING,
        seat_kind=kit.SeatKind.PLAYER,
        information=kit.Information.HIDDEN_STATE,
        board_kind=kit.BoardKind.HEX,
        judge=False,
        min_seats=2,
        max_seats=2,
        max_windows=GAME_WINDOWS * WodSettings().best_of,
        settings_type=WodSettings,
        default_board="map-basic.txt",
    )

    def __init__(self, rules: WodRules) -> None:
        self.rules = rules
        self._sample: kit.Roster | None = None

    @classmethod
    def read_board(cls, text: str) -> WodMap:
        """The map of its text."""
        return WodMap.from_text(text)

    @classmethod
    def from_board(cls, settings: Any, board: WodMap) -> WodRuleset:
        """The rules of a match on ``board`` with the shipped cards tables."""
        return cls(WodRules(board, settings, shipped_tables()))

    @property
    def settings(self) -> WodSettings:
        """The match's house rules."""
        return self.rules.settings

    @property
    def board_text(self) -> str:
        """The map as text."""
        return self.rules.board.to_text()

    # -- set-up ----------------------------------------------------------------------------
    def sample_roster(self) -> kit.Roster:
        """Ann with the line-up Ironclad Defense against Bo with Firepower Suppression (the first game's)."""
        if self._sample is None:
            self._sample = kit.Roster(("Ann", "Bo"), (kit.Member("Ann", "Ann", {"lineup": "Ironclad Defense"}),
                                                      kit.Member("Bo", "Bo", {"lineup": "Firepower Suppression"})))
        return self._sample

    def new_match(self, roster: kit.Roster, seed: bytes) -> WodState:
        """Legions and barracks from the roster, the first player by dice; deployment comes next."""
        return new_match(self.rules, roster, seed)

    def opening_events(self, state: WodState, seed: bytes) -> list[kit.Event]:
        """The first-player roll of ``new_match`` ("Ann rolls 2, Bo rolls 5: Bo plays first."), rolled
        again from the same seed, so the Log, the GM tab and the export start with why she goes first."""
        events: list[kit.Event] = []
        roll_first(state, kit.TurnDice(seed, 0), events)
        return events

    # -- codecs ------------------------------------------------------------------------------
    orders_codec = kit.Codec(orders_to_json, orders_from_json)

    # -- play --------------------------------------------------------------------------------
    def seats(self, state: WodState) -> tuple[str, ...]:
        """The two players, in roster order."""
        return state.seats

    def window(self, state: WodState) -> kit.Window | None:
        """A deployment window per player (the first player first), then one per player-turn: the acting
        player writes her actions, the other her standing reactions (the turn waits for the acting player only)."""
        if state.finished:
            return None
        prefix = "" if state.game == 1 else f"g{state.game}/"
        game = "" if state.game == 1 else f"game {state.game} · "
        seat = state.acting
        if state.phase is Phase.DEPLOY:
            return kit.Window(key=f"{prefix}deploy/{seat}", label=f"{game}deployment · {seat}", phase="deploy",
                              seats=(seat,), turn=state.dice_turn())
        return kit.Window(key=f"{prefix}{state.turn}", label=f"{game}turn {state.turn} · {seat}", phase="actions",
                          seats=(seat, state.other(seat)), turn=state.dice_turn(),
                          stepwise=self.settings.resolve is ResolveMode.STEP, waits_for=(seat,))

    def dice(self, seed: bytes, state: WodState, pins: Mapping[str, Any] | None = None) -> kit.TurnDice:
        """The d6 of the open window (keyed by game and turn)."""
        return kit.TurnDice(seed, state.dice_turn(), pins)


    def merge_orders(self, parts: Mapping[str, WodOrders]) -> WodOrders:
        return merge_orders(parts)

    def check(self, state: WodState, orders: WodOrders, dice: kit.TurnDice) -> list[kit.Verdict]:
        """A verdict per row, reaction and placement, as resolving them in order would give."""
        return check_orders(self.rules, state, orders, dice)

    def resolve(self, state: WodState, orders: WodOrders, dice: kit.TurnDice) -> kit.Resolution[WodState]:
        """The window resolved; the acting player's rows refused or stopped by a reaction are ``unused`` (they wait on
        her sheet while her turn stays open)."""
        return resolve_turn(self.rules, state, orders, dice)

    def outcome(self, state: WodState) -> kit.Outcome | None:
        if not state.finished or state.winner is None:
            return None
        how = {Ending.MORALE: "glorious victory", Ending.FATIGUE: "battle triumph",
               Ending.SURRENDER: "surrender"}[state.games[-1][1]]
        loser = state.other(state.winner)
        score = f" {state.legions[state.winner].wins}-{state.legions[loser].wins}" if len(state.games) > 1 else ""
        return kit.Outcome((state.winner,), f"{state.winner} wins{score} ({how})")

    def view(self, state: WodState, seat: str | None) -> dict[str, Any]:
        """The public board (``None``) or a player's sheet: never the other player's hidden units. Between
        two turns it shows the acting player's start of turn done (her tokens recovered, mine income),
        as she plays from it."""
        return view_of(self.rules, state, seat)

    def seat_state(self, state: WodState, seat: str) -> WodState:
        """Everything of hers; each of the other player's face-down tokens as a stand-in unit, its card unknown."""
        return seat_state(state, seat)

    def unseen_twin(self, state: WodState, seat: str, rng: Random) -> WodState:
        """The other player's face-down units dealt afresh to her tokens, her roster and barrack reordered."""
        return unseen_twin(state, seat, rng)

    def secrets(self, state: WodState, seat: str) -> list[str]:
        """Which unit each of the player's face-down tokens is."""
        return secrets_of(state, seat)

    # -- the GM ------------------------------------------------------------------------------
    def gm_event_problem(self, state: WodState, event: Adjustment) -> str:
        return reason_problem(state, event)

    def apply_gm_event(self, state: WodState, event: Adjustment) -> kit.Resolution[WodState]:
        new, events = apply_gm_event(self.rules, state, event)
        return kit.Resolution(new, events)

    def stand_in_gm_events(self, state: WodState) -> list[Adjustment]:
        """The stand-in GM's adjustments (``stand_in.stand_in_events``) when the ``stand_in_gm`` setting is on."""
        return stand_in_events(self.rules, state, reason_problem) if self.settings.stand_in_gm else []

    def concede(self, state: WodState, seat: str, reason: str) -> kit.Resolution[WodState]:
        """A player concedes, as her Surrender cell does: she loses the game."""
        new, events = concede(self.rules, state, seat, reason)
        return kit.Resolution(new, events)
