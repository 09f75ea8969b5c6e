"""Bots: legal rows on every shipped map, and the sensible play the issue asks for."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets.registry import bots_of, create_ruleset
from sheets_gm.rulesets.wesnoth.bots import SkirmisherBot
from sheets_gm.rulesets.wesnoth.game import WesnothRuleset
from sheets_gm.rulesets.wesnoth.orders import UnitOrder
from sheets_gm.rulesets.wesnoth.state import Player, Unit, WesnothState
from tests.paths import WESNOTH_TEMPLATES

MAPS = sorted((WESNOTH_TEMPLATES / "maps").glob("*.txt"))


def _rules(board: str | None = None) -> WesnothRuleset:
    made = create_ruleset("wesnoth", board=board)
    assert isinstance(made, WesnothRuleset)
    return made


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
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


def test_a_final_blow_buys_the_advancement_when_the_gold_allows() -> None:
    near_death = [Unit("S1", "Spearman", "Ann", Hex.parse("D2")),
                  Unit("Z1", "Skeleton", "Bo", Hex.parse("E2"), wounds=33)]
    assert _rows(_state(near_death, gold=20))["S1"].advance == "true"
    assert _rows(_state(near_death, gold=5))["S1"].advance == ""
