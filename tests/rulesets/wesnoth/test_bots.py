"""Bots: legal rows on every shipped map, and the sensible play the issue asks for."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.hexgrid import Hex
from sheets_gm.engine.ruleset import Resolution
from sheets_gm.rulesets.registry import bots_of, create_ruleset
from sheets_gm.rulesets.wesnoth import engine as wesnoth_engine
from sheets_gm.rulesets.wesnoth.bots import SkirmisherBot, _TurnBeingWritten
from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset, refused_rows
from sheets_gm.rulesets.wesnoth.orders import UnitOrder
from sheets_gm.rulesets.wesnoth.resolve import resolve_turn
from sheets_gm.rulesets.wesnoth.state import Player, Unit, WesnothState
from tests.paths import WESNOTH_TEMPLATES
from tests.quick import soak_but

MAPS = sorted((WESNOTH_TEMPLATES / "maps").glob("*.txt"))
#: The maps each walk of every map plays in the quick run (the bots' code is the same on every map; the soak run plays
#: them all): a 2-player and a 4-player map each, not the costliest (4p_King_of_the_Hill, a second or two a walk).
QUICK_ROWS_MAPS = tuple(p for p in MAPS if p.stem in ("2p_Hamlets", "4p_Hamlets"))
QUICK_AHEAD_MAPS = tuple(p for p in MAPS if p.stem in ("2p_The_Freelands", "4p_Hamlets"))


def _rules(board: str | None = None) -> WesnothRuleset:
    made = create_ruleset("wesnoth", board=board)
    assert isinstance(made, WesnothRuleset)
    return made


@pytest.mark.parametrize("path", soak_but(MAPS, *QUICK_ROWS_MAPS), ids=lambda p: p.stem)
def test_bots_give_accepted_rows_on_every_map(path: Path) -> None:
    r = _rules(path.read_text(encoding="utf-8"))
    seed = b"bots"
    state = r.new_match(r.sample_roster(), seed)
    makers = bots_of(r)
    bots = {seat: makers["skirmisher" if i % 2 == 0 else "random"].make(seat) for i, seat in enumerate(r.seats(state))}
    for _ in range(4 * len(bots)):
        window = r.window(state)
        if window is None:
            break
        orders = r.merge_orders({s: bots[s].orders(state, s, r.dice(seed, state)) for s in window.seats})
        assert [v for v in r.check(state, orders, r.dice(seed, state)) if not v.accepted] == []
        state = r.resolve(state, orders, r.dice(seed, state)).state


BOARD = """\
.       .       .       .       .       .       .       .
.       .       village .       .       .       .       .
castle1 .       .       .       .       .       .       castle2
keep1   castle1 .       .       .       .       castle2 keep2
"""


def _state(units: list[Unit], gold: int = 15) -> WesnothState:
    players = (Player("Ann", 1, "Loyalists", 1, gold), Player("Bo", 2, "Undead", 2, gold))
    leaders = [Unit("Ann-L", "Lieutenant", "Ann", Hex.parse("A4"), leader=True),
               Unit("Bo-L", "Dark Sorcerer", "Bo", Hex.parse("H4"), leader=True)]
    return WesnothState(round=1, turn=1, acting=0, players=players, units=tuple(leaders + units))


def _rows(state: WesnothState) -> dict[str, UnitOrder]:
    r = _rules(BOARD)
    orders = SkirmisherBot(r.rules, "t").orders(state, "Ann", TurnDice(b"t", state.turn))
    return {row.unit: row for row in orders.rows}


def test_the_leader_recruits_while_gold_and_castle_last() -> None:
    rows = _rows(_state([]))
    leader = rows["Ann-L"]
    assert len(leader.recruit) == 2


def test_a_unit_takes_a_village_in_reach() -> None:
    rows = _rows(_state([Unit("S1", "Spearman", "Ann", Hex.parse("A1"))]))
    assert rows["S1"].move == "C2"


def test_a_badly_wounded_unit_retreats_to_a_village() -> None:
    state = _state([Unit("S1", "Spearman", "Ann", Hex.parse("D3"), wounds=30),
                    Unit("Z1", "Skeleton", "Bo", Hex.parse("E3"))])
    assert _rows(state)["S1"].move == "C2"


def test_a_good_exchange_is_taken_and_a_bad_one_is_not() -> None:
    weak = _state([Unit("S1", "Heavy Infantryman", "Ann", Hex.parse("D2")),
                   Unit("Z1", "Skeleton", "Bo", Hex.parse("E2"), wounds=25)])
    assert _rows(weak)["S1"].attack == "Z1"
    # a spear does 40% to a Skeleton, whose axe answers in full: expected 5.7 dealt against 14 taken
    strong = _state([Unit("S1", "Spearman", "Ann", Hex.parse("D1")),
                     Unit("Z1", "Skeleton", "Bo", Hex.parse("F2"))], gold=0)
    row = _rows(strong).get("S1")
    assert row is None or row.attack != "Z1"


def test_a_final_blow_buys_the_advancement_whenever_the_gold_in_hand_pays_for_it() -> None:
    """An advancement (a level up, every wound healed, for 4 gold a level) is worth more than the recruit the
    bot used to keep its gold for: it buys one with the gold it has and the kill's gold (a level-1 Skeleton's
    1), 4 for the level-1 Spearman; 0.01 advancements a match left ``advance_min_cost`` unjudgeable."""
    near_death = [Unit("S1", "Spearman", "Ann", Hex.parse("D2")),
                  Unit("Z1", "Skeleton", "Bo", Hex.parse("E2"), wounds=33)]
    assert _rows(_state(near_death, gold=3))["S1"].advance == "true"
    assert _rows(_state(near_death, gold=2))["S1"].advance == ""


def test_a_level_0_unit_advances_for_nothing_unless_the_least_cost_says_otherwise() -> None:
    from sheets_gm.rulesets.wesnoth.settings import WesnothSettings

    r = _rules(BOARD)
    bot = SkirmisherBot(r.rules, "t")
    corpse = r.rules.tables.units["Walking Corpse"]
    assert corpse.level == 0 and corpse.advances_to
    assert bot.advance_word(corpse, 0) == "true"
    dear = replace(r.rules, settings=replace(WesnothSettings(), advance_min_cost=4))
    assert SkirmisherBot(dear, "t").advance_word(corpse, 3) == ""


def test_the_bot_sets_a_free_advancement_for_a_counter_kill_and_no_paid_one() -> None:
    """A level-0 unit's advancement costs nothing: it is taken whenever a counter-attack kills; a paid one would
    find the gold spent on recruits in the enemy's turn."""
    state = _state([Unit("S1", "Spearman", "Ann", Hex.parse("A1")),
                    Unit("W1", "Walking Corpse", "Ann", Hex.parse("B1")),
                    Unit("Z1", "Skeleton", "Bo", Hex.parse("F3"))])
    r = _rules(BOARD)
    orders = SkirmisherBot(r.rules, "t").orders(state, "Ann", TurnDice(b"t", state.turn))
    assert dict(orders.advance_choices) == {"W1": "true"}
    after = resolve_turn(r.rules, state, orders, TurnDice(b"t", state.turn)).state
    assert next(u for u in after.units if u.id == "W1").advance == "true"


def _same(a: Resolution[WesnothState], b: Resolution[WesnothState]) -> None:
    assert a.state == b.state
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert a.verdicts == b.verdicts
    assert a.unused == b.unused


@pytest.mark.parametrize("path", soak_but(MAPS, *QUICK_AHEAD_MAPS), ids=lambda p: p.stem)
def test_a_turn_a_bot_wrote_is_resolved_as_the_engine_resolves_it(path: Path, monkeypatch: pytest.MonkeyPatch
                                                                   ) -> None:
    def resolved_again(*_: object) -> None:
        raise AssertionError("the ruleset resolved a turn its bot had already resolved")

    # the ruleset may only take the bot's resolution; the reference below is the engine's own resolve_turn
    monkeypatch.setattr(wesnoth_engine, "resolve_turn", resolved_again)
    r = _rules(path.read_text(encoding="utf-8"))
    makers = bots_of(r)
    for match in range(2):
        seed = f"ahead/{match}".encode()
        state = r.new_match(r.sample_roster(), seed)
        bots = {seat: makers["skirmisher" if (i + match) % 2 == 0 else "random"].make(f"{match}/{seat}")
                for i, seat in enumerate(r.seats(state))}
        rolled_by_bots = 0
        for _ in range(60):
            window = r.window(state)
            if window is None:
                break
            dice = r.dice(seed, state)
            orders = r.merge_orders({s: bots[s].orders(state, s, dice) for s in window.seats})
            rolled_by_bots += len(dice.rolled)
            fresh_dice = r.dice(seed, state)
            afresh = replace(resolve_turn(r.rules, state, orders, fresh_dice), unused={})
            taken = r.resolve(state, orders, dice)  # the bot's own resolution, handed over
            _same(taken, replace(afresh, unused=refused_rows(orders, afresh.verdicts)))
            assert dice.rolled == fresh_dice.rolled  # no roll of a row tried and dropped is left on the dice
            assert r.ahead.take(state, orders, dice) is None  # handed over once
            state = taken.state
        assert rolled_by_bots > 0


def test_a_resolution_kept_ahead_serves_only_the_very_state_and_dice_the_bot_had() -> None:
    r = _rules()
    seed = b"ahead"
    state = r.new_match(r.sample_roster(), seed)
    bot = bots_of(r)["skirmisher"].make("x")
    seat = state.acting_player.name
    dice = r.dice(seed, state)
    orders = bot.orders(state, seat, dice)
    twin = replace(state)  # equal, but not the state the bot was given (one read back from a store)
    assert twin == state and twin is not state
    assert r.ahead.take(twin, orders, dice) is None
    assert r.ahead.take(state, orders, r.dice(seed, state)) is None
    assert r.ahead.take(state, replace(orders, rows=orders.rows[:-1]), dice) is None
    assert r.ahead.take(state, orders, dice) is not None


def test_a_row_the_engine_refuses_in_part_is_taken_back_whole_with_its_dice() -> None:
    r = _rules(BOARD)
    state = _state([Unit("S1", "Spearman", "Ann", Hex.parse("D2")),
                    Unit("Z1", "Skeleton", "Bo", Hex.parse("E2"), wounds=33)], gold=0)
    dice = TurnDice(b"t", state.turn, {f"swing/S1/{n}": 6 for n in (1, 2, 3)})
    turn = _TurnBeingWritten(r.rules, state, dice)
    # the blow kills, then the advancement is refused (no gold): the row is not kept, nor are its dice
    assert not turn._keep(UnitOrder("S1", attack="Z1", advance="true"))
    assert (dice.rolled, turn.rows, turn.work.events, turn.current) == ({}, [], [], state)
    assert turn.play(UnitOrder("S1", attack="Z1", advance="true"))  # kept without the advancement
    assert turn.rows == [UnitOrder("S1", attack="Z1")]
    assert turn.current.unit("Z1") is None and "swing/S1/1" in dice.rolled
