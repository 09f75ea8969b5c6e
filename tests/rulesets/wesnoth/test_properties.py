"""Properties of any Wesnoth match: bad orders never crash, and the board stays consistent."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.rulesets.registry import bots_of, default_board_text
from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset
from sheets_gm.rulesets.wesnoth.orders import RecruitEntry, TurnOrders, UnitOrder
from sheets_gm.rulesets.wesnoth.settings import WesnothSettings
from sheets_gm.rulesets.wesnoth.state import WesnothState
from tests.quick import soak_but

RULES = WesnothRuleset.create(WesnothSettings(), default_board_text("wesnoth"))

words = st.sampled_from(["", "A1", "N5", "n 6", "Z99", "AA1", "??", "Ann-L", "Bo-L", "Ann-R1", "spear", "bow/fire",
                         "Spearman", "Skeleton", "Orcish Grunt", "Lich", "true", "yes", "0", "-3", " "])
rows = st.builds(UnitOrder, unit=words, move=words, via=st.lists(words, max_size=2).map(tuple), attack=words,
                 weapon=words, reroll_below=st.integers(-2, 5), advance=words, rest=st.booleans(),
                 conquest=st.booleans(),
                 recruit=st.lists(st.builds(RecruitEntry, type=words, at=words, id=words), max_size=3).map(tuple))


def consistent(state: WesnothState) -> None:
    hexes = [u.at for u in state.units]
    assert len(hexes) == len(set(hexes)), "two units on one hex"
    for u in state.units:
        assert 0 <= u.wounds < RULES.rules.utype(u).hitpoints
        assert RULES.rules.board.grid.contains(u.at)
        assert RULES.rules.utype(u).move_cost(RULES.rules.board.terrain(u.at)) is not None
    assert all(p.gold >= 0 for p in state.players)
    assert len({u.id for u in state.units}) == len(state.units)


@pytest.mark.parametrize("examples", soak_but([150, 20], 20))
def test_any_orders_resolve_without_error_and_leave_a_consistent_board(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(st.lists(rows, max_size=6), st.booleans())
    def walk(orders: list[UnitOrder], end: bool) -> None:
        state = RULES.new_match(RULES.sample_roster(), b"fuzz")
        turn = TurnOrders("Ann", tuple(orders), end)
        verdicts = RULES.check(state, turn, RULES.dice(b"fuzz", state))
        assert all(v.message for v in verdicts)
        after = RULES.resolve(state, turn, RULES.dice(b"fuzz", state)).state
        consistent(after)

    walk()


def test_bot_matches_keep_the_board_consistent() -> None:
    for seed in (b"p1", b"p2"):
        state = RULES.new_match(RULES.sample_roster(), seed)
        bots = {s: bots_of(RULES)["random" if i else "skirmisher"].make(s) for i, s in enumerate(RULES.seats(state))}
        while (window := RULES.window(state)) is not None:
            orders = RULES.merge_orders({s: bots[s].orders(state, s, RULES.dice(seed, state)) for s in window.seats})
            state = RULES.resolve(state, orders, RULES.dice(seed, state)).state
            consistent(state)
        assert RULES.outcome(state) is not None
