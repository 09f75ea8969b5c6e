"""The engine class of the Wesnoth board game: the core's ``Ruleset`` (set-up, windows, check, resolve, views, GM
corrections). The ``GAME`` record in ``game.py`` names it with the game's other parts."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from sheets_gm.engine.settings import SettingError
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.board import WesnothBoard
from sheets_gm.rulesets.wesnoth.check import check_orders
from sheets_gm.rulesets.wesnoth.gm import Adjustment, apply_gm_event, concede
from sheets_gm.rulesets.wesnoth.orders import TurnOrders, recruit_row
from sheets_gm.rulesets.wesnoth.resolve import ResolvedAhead, resolve_turn
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.settings import ResolveMode, WesnothSettings
from sheets_gm.rulesets.wesnoth.setup import Entry, RosterError, new_match, shared_with_enemies
from sheets_gm.rulesets.wesnoth.state import WesnothState
from sheets_gm.rulesets.wesnoth.tables import TableError, tables_at

#: A roster faction that the match's seed deals (simulations play every pairing this way).
RANDOM_FACTION = "random"
MAX_PLAYERS = 4


class WesnothRuleset(kit.Ruleset[WesnothState, TurnOrders, Adjustment]):
    """The Wesnoth board game: players in turn order on a hex map, recruit, take villages, kill the leaders."""

    traits: ClassVar[kit.RulesetTraits] = kit.RulesetTraits(
        name="wesnoth",
        title="Wesnoth board game",
        turn_structure=kit.TurnStructure.SEQUENTIAL,
        seat_kind=kit.SeatKind.PLAYER,
        information=kit.Information.PERFECT,
        board_kind=kit.BoardKind.HEX,
        judge=False,
        min_seats=2,
        max_seats=MAX_PLAYERS,
        max_windows=WesnothSettings().max_rounds * MAX_PLAYERS,
        settings_type=WesnothSettings,
        default_board="maps/2p_Hamlets.txt",
    )

    def __init__(self, rules: WesnothRules, board_text: str) -> None:
        self.rules = rules
        self._board_text = board_text
        #: The last turn a bot of this ruleset wrote, already resolved (``resolve`` takes it: no turn is resolved
        #: twice in a simulation).
        self.ahead = ResolvedAhead()

    @classmethod
    def read_board(cls, text: str) -> tuple[WesnothBoard, str]:
        """The board of a token grid or ``.map`` text (its route tables are kept with it) and its token grid;
        MapError names the board's line."""
        parsed = WesnothBoard.from_text(text)
        return parsed, parsed.to_text()

    @classmethod
    def from_board(cls, settings: Any, board: tuple[WesnothBoard, str]) -> WesnothRuleset:
        """The rules of a match on ``board`` with the unit tables the ``units`` setting names; SettingError names
        the table's file and line."""
        try:
            tables = tables_at(settings.units)
        except TableError as exc:
            raise SettingError(f"setting 'units': {exc}") from None
        parsed, text = board
        return cls(WesnothRules(parsed, settings, tables), text)

    @property
    def settings(self) -> WesnothSettings:
        """The match's house rules."""
        return self.rules.settings

    @property
    def board_text(self) -> str:
        """The board as its token grid."""
        return self._board_text

    # -- set-up ----------------------------------------------------------------------------
    def sample_roster(self) -> kit.Roster:
        """Ann (team 1) against Bo (team 2), then Cy and Di on a map with more keeps; factions dealt by the seed."""
        names = ("Ann", "Bo", "Cy", "Di")[:max(2, min(self.rules.board.players, MAX_PLAYERS))]
        members = tuple(kit.Member(n, n, {"team": str(i + 1), "faction": RANDOM_FACTION}) for i, n in enumerate(names))
        return kit.Roster(names, members)

    def new_match(self, roster: kit.Roster, seed: bytes) -> WesnothState:
        """Each seat one player (its first member's ``team``, ``faction`` and optional ``leader`` columns)."""
        entries = []
        draw = kit.TurnDice(seed, 0)
        factions = list(self.rules.tables.factions)
        for i, seat in enumerate(roster.seats, 1):
            members = roster.of(seat)
            fields = members[0].fields if members else {}
            faction = fields.get("faction", "").strip()
            if not faction or faction.lower() == RANDOM_FACTION:
                faction = draw.pick(f"faction/{seat}", factions)
            entries.append(Entry(seat, fields.get("team", "") or str(i), faction, fields.get("leader", "")))
        try:
            return new_match(self.rules, entries)
        except RosterError as exc:
            raise ValueError(str(exc)) from None

    def start_warnings(self, state: WesnothState) -> list[str]:
        """A map whose castles put enemies together (a 3-player match on 4p_Hamlets): which seat counts it suits."""
        return shared_with_enemies(self.rules, state)

    # -- codecs ------------------------------------------------------------------------------

    # -- play --------------------------------------------------------------------------------
    def seats(self, state: WesnothState) -> tuple[str, ...]:
        """The players in turn order."""
        return tuple(p.name for p in state.players)

    def seats_out(self, state: WesnothState, named: Collection[str] = ()) -> frozenset[str]:
        """The players conquered, or who conceded, while the others play on (a game of three or four); they stay in
        the state: ``named`` adds nothing."""
        return frozenset(p.name for p in state.players if p.out)

    def window(self, state: WesnothState) -> kit.Window | None:
        """The acting player's turn (stepwise under ``resolve: step``)."""
        if state.finished:
            return None
        player = state.acting_player.name
        return kit.Window(key=f"{state.turn}/{player}", label=f"round {state.round} · {state.time_of_day} · {player}",
                          phase="orders", seats=(player,), turn=state.turn,
                          stepwise=self.settings.resolve is ResolveMode.STEP, log_turn=state.round)

    def dice(self, seed: bytes, state: WesnothState, pins: Mapping[str, Any] | None = None) -> kit.TurnDice:
        """The d6 of the player turn about to be resolved."""
        return kit.TurnDice(seed, state.turn, pins)


    def merge_orders(self, parts: Mapping[str, TurnOrders]) -> TurnOrders:
        """The acting player's part (only she submits in her window)."""
        rows = tuple(r for part in parts.values() for r in part.rows)
        player = next((p.player for p in parts.values() if p.player), "")
        choices = tuple(c for part in parts.values() for c in part.advance_choices)
        return TurnOrders(player, rows, all(p.end_turn for p in parts.values()) if parts else True, choices)

    def check(self, state: WesnothState, orders: TurnOrders, dice: kit.TurnDice) -> list[kit.Verdict]:
        """A verdict per part of every row, each row checked on the board as the rows before it leave it."""
        return check_orders(self.rules, state, orders, dice)

    def resolve(self, state: WesnothState, orders: TurnOrders, dice: kit.TurnDice) -> kit.Resolution[WesnothState]:
        """The rows resolved in order. A unit's row that was refused whole, and a recruit row refused, are
        ``unused``: they stay typed, with why, for her to correct (in a step) or to see (at End turn)."""
        resolution = self.ahead.take(state, orders, dice)
        if resolution is None:
            resolution = resolve_turn(self.rules, state, orders, dice)
        return replace(resolution, unused=refused_rows(orders, resolution.verdicts))

    def outcome(self, state: WesnothState) -> kit.Outcome | None:
        if not state.finished:
            return None
        if state.winner is None:
            return kit.Outcome((), f"a draw in round {state.round}")
        winners = tuple(p.name for p in state.players if p.team == state.winner)
        conceded = [p.name for p in state.players if p.conceded and p.team != state.winner]
        how = f" ({' and '.join(conceded)} conceded)" if conceded else ""
        # "won by": a team's name may be a plural (wolves), and "team 2 wins" / "wolves win" cannot share a verb
        return kit.Outcome(winners, f"won by {state.team_label(state.winner)} ({', '.join(winners)}) in round "
                                f"{state.round}{how}")


    # -- the GM ------------------------------------------------------------------------------
    def apply_gm_event(self, state: WesnothState, event: Adjustment) -> kit.Resolution[WesnothState]:
        new, events = apply_gm_event(self.rules, state, event)
        return kit.Resolution(new, events)

    def concede(self, state: WesnothState, seat: str, reason: str) -> kit.Resolution[WesnothState]:
        """A player concedes: she leaves the game; it ends when the living leaders all belong to one team."""
        new, events = concede(self.rules, state, seat, reason)
        return kit.Resolution(new, events)

def refused_rows(orders: TurnOrders, verdicts: Sequence[kit.Verdict]) -> dict[str, dict[str, str]]:
    """Per seat, the rows of ``orders`` that were not carried out, with why: a unit's row whose every verdict is a
    refusal (a row that moved a unit before its attack was refused is done), and each recruit row refused (a
    recruit's verdicts are the leader's, one per recruit row in order, or one for them all).

    >>> from sheets_gm.rulesets.wesnoth.orders import RecruitEntry, UnitOrder
    >>> Verdict = kit.Verdict
    >>> orders = TurnOrders("Ann", (UnitOrder("Ann-R1"), UnitOrder("Ann-R2")), end_turn=False)
    >>> refused_rows(orders, [Verdict("Ann", "Ann-R1", "move", False, "I9 is 5 moves away; it has 4"),
    ...                       Verdict("Ann", "Ann-R2", "move", True, "moved to C3"),
    ...                       Verdict("Ann", "Ann-R2", "attack", False, "no target next to it")])
    {'Ann': {'Ann-R1': 'move: I9 is 5 moves away; it has 4'}}
    >>> recruits = TurnOrders("Ann", (UnitOrder("Ann-L", recruit=(RecruitEntry("Thief"), RecruitEntry("Thief"))),))
    >>> refused_rows(recruits, [Verdict("Ann", "Ann-L", "recruit", True, "recruited Ann-R1 (Thief) on B2 for 3 gold"),
    ...                         Verdict("Ann", "Ann-L", "recruit", False, "Thief costs 3 gold; Ann has 2")])
    {'Ann': {'Recruit 2': 'recruit: Thief costs 3 gold; Ann has 2'}}
    >>> acted = refused_rows(recruits, [Verdict("Ann", "Ann-L", "order", False, "Ann-L has already acted")])
    >>> sorted(acted["Ann"])  # the leader's action refused: its recruits were not made either
    ['Ann-L', 'Recruit 1', 'Recruit 2']
    """
    rows = {r.unit: r for r in orders.rows}
    found: dict[tuple[str, str], list[kit.Verdict]] = {}
    for v in verdicts:
        if v.subject in rows and v.part != "advance choice":
            found.setdefault((v.seat, v.subject), []).append(v)
    out: dict[str, dict[str, str]] = {}
    for (seat, subject), said in found.items():
        recruits = [v for v in said if v.part == "recruit"]
        entries = len(rows[subject].recruit)
        if recruits and all(not v.accepted for v in recruits) and len(recruits) < entries:
            recruits = recruits * entries  # one refusal for the whole row (not the leader, not on its keep)
        for n, v in enumerate(recruits if len(recruits) == entries else [], start=1):
            if not v.accepted:
                out.setdefault(seat, {})[recruit_row(n)] = f"{v.part}: {v.message}"
        if all(not v.accepted for v in said) and not recruits:
            out.setdefault(seat, {})[subject] = "; ".join(f"{v.part}: {v.message}" for v in said)
            for n in range(1, entries + 1):  # its recruits were not made either (the leader has already acted)
                out[seat].setdefault(recruit_row(n), out[seat][subject])
    return out
