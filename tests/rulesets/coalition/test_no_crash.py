"""Whatever a player types into an orders row, checking and adjudicating it never crashes: it is refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.rulesets.coalition.engine import CoalitionRuleset
from sheets_gm.rulesets.coalition.state import ArmyOrder, BattleResult, CoalitionOrders
from tests.quick import soak_but
from tests.rulesets.coalition.helpers import MAP, SETTINGS, army, dice, state

RULES = CoalitionRuleset.create(SETTINGS, MAP)
START = state(army("Ann", "coalition", "2C", rank=2), army("Cy", "coalition", "3C", rank=2),
              army("Bo", "phyrexia", "4C", rank=1, units=(100, 0, 0, 600)))
WORDS = st.sampled_from(["", "engage", "replace", "intercept", "raid", "support", "transfer", "garrison", "heal",
                         "none", "charge", "ENGAGE "])
SQUARES = st.one_of(st.sampled_from(["", "2C", "3C", "4C", "2D", "9Z", "Dominaria 3D", "Mirrodin 1A", "x", "0A"]),
                    st.text(max_size=6))
NAMES = st.sampled_from(["Ann", "Bo", "Cy", "", "ann ", "Zed"])
ORDERS = st.builds(ArmyOrder, start=SQUARES, via=st.lists(SQUARES, max_size=4).map(tuple), to=SQUARES, word=WORDS,
                   target=NAMES, units=st.lists(st.one_of(st.integers(-5, 6000), st.text(max_size=2)),
                                                max_size=5).map(tuple),
                   bump=SQUARES, line=st.one_of(st.just(""), st.text(max_size=40),
                                                st.sampled_from(["Ann: 2C > 2D - engage", "Ann: ; > - ", "Ann:"])))


@pytest.mark.parametrize("examples", soak_but([150, 20], 20))
def test_any_orders_are_checked_and_adjudicated_without_crashing(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(st.dictionaries(st.sampled_from(["coalition", "phyrexia", "judge"]),
                           st.dictionaries(NAMES, ORDERS, max_size=3), max_size=3))
    def walk(orders: dict[str, dict[str, ArmyOrder]]) -> None:
        typed = CoalitionOrders(orders)
        verdicts = RULES.check(START, typed, dice())
        assert all(v.message for v in verdicts)
        RULES.resolve(START, typed, dice())
        RULES.orders_codec.from_json(RULES.orders_codec.to_json(typed))

    walk()


@pytest.mark.parametrize("examples", soak_but([100, 30], 30))
def test_any_judges_result_is_checked_and_applied_without_crashing(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(winner=st.sampled_from(["", "Ann", "Bo", "coalition", "x"]),
           kill=st.sampled_from(["", "roll", "killed", "?"]),
           losses=st.dictionaries(NAMES, st.lists(st.one_of(st.integers(-1, 9000), st.text(max_size=1)), max_size=5)
                                  .map(tuple), max_size=2),
           vp=st.one_of(st.none(), st.integers(-3, 9), st.text(max_size=1)), siege=st.booleans(),
           stratless=st.sampled_from(["", "coalition", "phyrexia", "nobody"]))
    def walk(winner: str, kill: str, losses: dict[str, tuple[int, ...]], vp: int | None, siege: bool,
             stratless: str) -> None:
        _judges_result_applies(BattleResult(winner=winner, losses=losses, vp=vp, siege=siege, kill=kill,
                                            stratless=stratless))

    walk()


def _judges_result_applies(result: BattleResult) -> None:
    """The judge's ``result`` for a battle (and for a square with none) is checked, with a verdict, and applied."""
    after = RULES.resolve(START, CoalitionOrders({"coalition": {"Ann": ArmyOrder(via=("3C",), to="4C", word="raid",
                                                                                  target="Bo")}}), dice()).state
    typed = CoalitionOrders(results={"Dominaria 4C": result, "nowhere": result})
    assert RULES.check(after, typed, dice())
    RULES.resolve(after, typed, dice())
