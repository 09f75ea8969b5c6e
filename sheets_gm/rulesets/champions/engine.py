"""The engine class of Champions: the core's ``Ruleset`` (set-up, windows, check, resolve, views, GM
corrections). The ``GAME`` record in ``game.py`` names it with the game's other parts."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from random import Random
from typing import Any, ClassVar

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.check import check_orders
from sheets_gm.rulesets.champions.enums import EventKind, Phase
from sheets_gm.rulesets.champions.gm import apply_gm_event, concede
from sheets_gm.rulesets.champions.items import LootTable, loot_table_from_text
from sheets_gm.rulesets.champions.orders import Orders, PlayerOrders
from sheets_gm.rulesets.champions.resolve import resolve_turn, window_turn
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.settings import ChampionsSettings
from sheets_gm.rulesets.champions.setup import new_match, sample_roster
from sheets_gm.rulesets.champions.state import Adjustment, ChampionsState
from sheets_gm.rulesets.champions.views import seat_state, secrets_of, unseen_twin, view_of


class ChampionsRuleset(kit.Ruleset[ChampionsState, Orders, Adjustment]):
    """Champions: up to sixteen players loot a shrinking grid and fight 2v2 battles of four-action sets."""

    traits: ClassVar[kit.RulesetTraits] = kit.RulesetTraits(
        name="champions",
        title="Champions loot battle royale",
        turn_structure=kit.TurnStructure.SIMULTANEOUS,
        seat_kind=kit.SeatKind.PLAYER,
        information=kit.Information.HIDDEN_STATE,
        board_kind=kit.BoardKind.SQUARE,
        judge=False,
        min_seats=2,
        max_seats=16,
        max_windows=2 * ChampionsSettings().max_rounds,
        settings_type=ChampionsSettings,
        default_board="loot.yaml",
    )
    #: A looter's line names the tile's draw of who loots first (its candidates, so that it can be checked by hand):
    #: the rules so tell the looters of a tile who else loots there (where each went, and whether she loots).
    reveals = (kit.Reveal(EventKind.LOOTED, orders=("players.*.move", "players.*.loot")),)

    def __init__(self, rules: ChampionsRules) -> None:
        self.rules = rules

    @classmethod
    def read_board(cls, text: str) -> LootTable:
        """A match's "board": its loot file (items and tier weights per tile class); LootTableError names the bad
        line."""
        return loot_table_from_text(text)

    @classmethod
    def from_board(cls, settings: Any, board: LootTable) -> ChampionsRuleset:
        """The rules of a match with the loot table ``board``."""
        return cls(ChampionsRules(board, settings))

    @property
    def settings(self) -> ChampionsSettings:
        """The match's house rules."""
        return self.rules.settings

    @property
    def board_text(self) -> str:
        """The loot file as text."""
        return self.rules.table.to_text()

    # -- set-up ----------------------------------------------------------------------------
    def sample_roster(self) -> kit.Roster:
        """Sixteen players, Ann to Pia."""
        return sample_roster()

    def new_match(self, roster: kit.Roster, seed: bytes) -> ChampionsState:
        """Each seat a player on a tile of her own (the roster's ``spawn`` column, or drawn)."""
        return new_match(self.rules, roster, seed)

    # -- codecs ------------------------------------------------------------------------------

    # -- play --------------------------------------------------------------------------------
    def seats(self, state: ChampionsState) -> tuple[str, ...]:
        """Every player, in roster order."""
        return tuple(p.name for p in state.players)

    def seats_out(self, state: ChampionsState, named: Collection[str] = ()) -> frozenset[str]:
        """The players knocked out (they stay in the state: ``named`` adds nothing)."""
        return frozenset(p.name for p in state.players if p.out)

    def window(self, state: ChampionsState) -> kit.Window | None:
        """Two windows a round, for the players still in: move and loot, then equip and fight."""
        if state.finished:
            return None
        phase = state.phase
        key = f"{state.round}/{'move' if phase is Phase.MOVE else 'fight'}"
        return kit.Window(key=key, label=f"round {state.round} · {phase.display}", phase=phase.value,
                          seats=tuple(p.name for p in state.alive()), turn=window_turn(state))

    def dice(self, seed: bytes, state: ChampionsState, pins: Mapping[str, Any] | None = None) -> kit.TurnDice:
        """The dice of the open window: d4 to d20, every pin checked against the die that uses it."""
        return kit.TurnDice(seed, window_turn(state), pins, die_sides=None)


    def merge_orders(self, parts: Mapping[str, Orders]) -> Orders:
        """Every player's orders from every part."""
        players: dict[str, PlayerOrders] = {}
        for part in parts.values():
            players.update(part.players)
        return Orders(players)

    def check(self, state: ChampionsState, orders: Orders, dice: kit.TurnDice) -> list[kit.Verdict]:
        """A verdict per order part, naming the row and what would be accepted."""
        return check_orders(self.rules, state, orders).verdicts

    def resolve(self, state: ChampionsState, orders: Orders, dice: kit.TurnDice) -> kit.Resolution[ChampionsState]:
        return resolve_turn(self.rules, state, orders, dice)

    def outcome(self, state: ChampionsState) -> kit.Outcome | None:
        if not state.finished:
            return None
        winners = state.winners
        if len(winners) == 1:
            return kit.Outcome(winners, f"{winners[0]} wins in round {state.round}")
        return kit.Outcome(winners, f"{' and '.join(winners)} share the win in round {state.round}")

    def view(self, state: ChampionsState, seat: str | None) -> dict[str, Any]:
        """The public board (``None``), or a player's own sheet: hers, her tile-mates' living champions."""
        return view_of(self.rules, state, seat)

    def seat_state(self, state: ChampionsState, seat: str) -> ChampionsState:
        """Her own player whole, the others as her view shows them, no bag or pool she has not seen."""
        return seat_state(self.rules, state, seat)

    def unseen_twin(self, state: ChampionsState, seat: str, rng: Random) -> ChampionsState:
        """The other players' bags and equipment, and the health of those off her tile, swapped among them; the
        items of every pool and the battles she did not fight in another order."""
        return unseen_twin(state, seat, rng)

    def secrets(self, state: ChampionsState, seat: str) -> list[str]:
        """Her bag and equipment; her health while no one shares her tile."""
        return secrets_of(state, seat)

    # -- the GM ------------------------------------------------------------------------------
    def apply_gm_event(self, state: ChampionsState, event: Adjustment) -> kit.Resolution[ChampionsState]:
        return apply_gm_event(self.rules, state, event)

    def concede(self, state: ChampionsState, seat: str, reason: str) -> kit.Resolution[ChampionsState]:
        """A player concedes: she is out; the last player standing wins."""
        return concede(state, seat, reason)
