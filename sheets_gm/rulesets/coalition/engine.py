"""The engine class of the Coalition–Phyrexia war game: the core's ``Ruleset`` (set-up, windows, check, resolve,
views, GM corrections). The ``GAME`` record in ``game.py`` names it with the game's other parts.

A turn has two windows: **orders** (the seats ``coalition`` and ``phyrexia`` write their
armies' orders; at the deadline the engine adjudicates movement and announces the battles)
and **results** (the seat ``judge`` enters each battle's result; the engine applies them and
runs the end of the turn). A turn without an open battle has no results window.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, ClassVar

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board, load_board
from sheets_gm.rulesets.coalition.check import check_orders
from sheets_gm.rulesets.coalition.enums import Phase, Side, enemy_of
from sheets_gm.rulesets.coalition.gm import ORDER_SEATS, apply_gm_event, concede
from sheets_gm.rulesets.coalition.resolve import resolve_turn
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.setup import (
    SEATS,
    new_match,
    roster_from_yaml,
)
from sheets_gm.rulesets.coalition.state import Adjustment, CoalitionOrders, CoalitionState


class CoalitionRuleset(kit.Ruleset[CoalitionState, CoalitionOrders, Adjustment]):
    """The Coalition–Phyrexia war game: two sides' movement orders, a judge's battle results."""

    traits: ClassVar[kit.RulesetTraits] = kit.RulesetTraits(
        name="coalition",
        title="Coalition–Phyrexia war game",
        turn_structure=kit.TurnStructure.SIMULTANEOUS,
        seat_kind=kit.SeatKind.SIDE,
        information=kit.Information.PRIVATE_ORDERS,
        board_kind=kit.BoardKind.PLANES,
        judge=True,
        min_seats=2,
        max_seats=2,
        max_windows=2 * CoalitionSettings().max_turns,
        settings_type=CoalitionSettings,
        default_board="map.yaml",
        roster_groups=(Side.MERCENARY.value,),
    )
    _settings: CoalitionSettings

    def __init__(self, board: Board, settings: CoalitionSettings) -> None:
        self.board = board
        self._settings = settings
        self._sample: kit.Roster | None = None

    @classmethod
    def read_board(cls, text: str) -> Board:
        """The board of a map's YAML (the routes and rings it finds are kept); ValueError naming the bad line."""
        return load_board(text, "map")

    @classmethod
    def from_board(cls, settings: Any, board: Board) -> CoalitionRuleset:
        """The rules of a match on ``board``."""
        return cls(board, settings)

    @property
    def settings(self) -> CoalitionSettings:
        """The match's house rules."""
        return self._settings

    @property
    def board_text(self) -> str:
        """The map as its YAML text."""
        return self.board.to_text()

    # -- set-up ----------------------------------------------------------------------------
    def sample_roster(self) -> kit.Roster:
        """The armies of ``templates/coalition/armies.yaml``: both sides and three mercenary bands."""
        if self._sample is None:
            from sheets_gm.rulesets.registry import TEMPLATES
            path = TEMPLATES / "coalition" / "armies.yaml"
            self._sample = roster_from_yaml(path.read_text(encoding="utf-8"), str(path))
        return self._sample

    def new_match(self, roster: kit.Roster, seed: bytes) -> CoalitionState:
        """Every army where the roster places it; ValueError naming the roster row of a bad army. A roster of
        seats alone (``init`` without a roster file) places the sample armies of ``templates/coalition/armies.yaml``."""
        if not roster.members:
            roster = kit.Roster(roster.seats, self.sample_roster().members)
        return new_match(self.board, roster, seed)

    # -- codecs ------------------------------------------------------------------------------

    # -- play --------------------------------------------------------------------------------
    def seats(self, state: CoalitionState) -> tuple[str, ...]:
        """The Coalition and Phyrexia (the judge, who enters results, is no seat: see ``traits.judge``)."""
        return SEATS

    def seats_out(self, state: CoalitionState, named: Collection[str] = ()) -> frozenset[str]:
        """The armies of ``named`` no longer in the state (destroyed in a battle, mercenaries disbanded); after a
        concession, the side that conceded and its armies too: their bots play no more."""
        armies = {a.name for a in state.armies}
        gone = {name for name in named if name not in armies and name not in SEATS and name != kit.JUDGE}
        if state.ending != "concession" or state.winner is None:
            return frozenset(gone)
        out = enemy_of(Side(state.winner))
        return frozenset(gone | ({out.value, *(a.name for a in state.armies if a.side is out)} if out else set()))

    def window(self, state: CoalitionState) -> kit.Window | None:
        """Orders (both sides) or results (the judge); None once the round is over. The results window's deadline is
        the players' (their strategies close), then the judge's part is open until she ticks Results in, or her own
        deadline (``judge_hours``): ruling "The players' deadline, then the judge"."""
        if state.phase is Phase.ORDERS:
            return self._orders(state.turn)
        if state.phase is Phase.RESULTS:
            fighting = tuple(dict.fromkeys(a for b in state.battles if b.announced for a in b.armies))
            return kit.Window(f"{state.turn}/results", f"turn {state.turn} · battle results", "results", (kit.JUDGE,),
                              state.turn, sealed="strategies", judge_hours=self._settings.judge_hours,
                              early=self._orders(state.turn + 1), early_out=fighting)
        return None

    @staticmethod
    def _orders(turn: int) -> kit.Window:
        """Turn ``turn``'s orders window (both sides' movement)."""
        return kit.Window(str(turn), f"turn {turn} · orders", "orders", ORDER_SEATS, turn)

    def dice(self, seed: bytes, state: CoalitionState, pins: Mapping[str, Any] | None = None) -> kit.TurnDice:
        """The turn's keyed dice and draws (d6 or the weather table's die, d100, draws among names and squares)."""
        return kit.TurnDice(seed, state.turn, pins, die_sides=None)


    def merge_orders(self, parts: Mapping[str, CoalitionOrders]) -> CoalitionOrders:
        """Each side's orders from its own part; the judge's results from the judge's part."""
        orders = {seat: part.orders[seat] for seat, part in parts.items() if seat in part.orders}
        judge = parts.get(kit.JUDGE)
        return CoalitionOrders(orders, dict(judge.results) if judge is not None else {})

    def check(self, state: CoalitionState, orders: CoalitionOrders, dice: kit.TurnDice) -> list[kit.Verdict]:
        """A verdict per army order, or per battle result in the results window."""
        return check_orders(self.board, self._settings, state, orders)

    def resolve(self, state: CoalitionState, orders: CoalitionOrders,
                dice: kit.TurnDice) -> kit.Resolution[CoalitionState]:
        """Adjudicate movement (orders window), or apply the judge's results and end the turn (results window)."""
        return resolve_turn(self.board, self._settings, state, orders, dice)

    def outcome(self, state: CoalitionState) -> kit.Outcome | None:
        if not state.finished:
            return None
        how = {"structures": "by destroying the enemy's structures", "kills": "by killing the enemy's top ranks",
               "vp": "on victory points", "turn_limit": f"on victory points at turn {state.turn}",
               "concession": "by the other side's concession"}.get(
            state.ending or "", "")
        if state.winner in (None, "draw"):
            return kit.Outcome((), f"a draw {how}".strip())
        return kit.Outcome((state.winner or "",), f"{Side(state.winner or 'coalition').display} wins {how}")



    # -- the GM ------------------------------------------------------------------------------
    def apply_gm_event(self, state: CoalitionState, event: Adjustment) -> kit.Resolution[CoalitionState]:
        """The correction applied, logged with its reason; ValueError naming what does not fit."""
        return apply_gm_event(self.board, self._settings, state, event)

    def concede(self, state: CoalitionState, seat: str, reason: str) -> kit.Resolution[CoalitionState]:
        """A side concedes: the round ends now, the other side the winner."""
        return concede(state, seat, reason)
