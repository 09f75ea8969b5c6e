"""Bad orders and bad results are refused with a message naming the row and what would be accepted;
nothing changes."""

from __future__ import annotations

import json

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.rulesets.coalition.check import check_orders
from sheets_gm.rulesets.coalition.engine import CoalitionRuleset
from sheets_gm.rulesets.coalition.enums import BattleType, Phase
from sheets_gm.rulesets.coalition.forum import movement_results
from sheets_gm.rulesets.coalition.resolve.moves import resolve_orders
from sheets_gm.rulesets.coalition.state import ArmyOrder, Battle, BattleResult, CoalitionOrders
from tests.rulesets.coalition.helpers import MAP, SETTINGS, army, board, dice, state

ANN = army("Ann", "coalition", "2C", rank=2, factions=())
BO = army("Bo", "phyrexia", "4C", rank=3)


def refusal(seat: str, name: str, order: ArmyOrder) -> str:
    s = state(ANN, BO)
    verdicts = check_orders(board(), SETTINGS, s, CoalitionOrders({seat: {name: order}}))
    assert len(verdicts) == 1 and not verdicts[0].accepted, verdicts
    return verdicts[0].message


def test_an_army_not_on_the_side_is_named_with_the_sides_armies() -> None:
    message = refusal("coalition", "Bo", ArmyOrder(to="4D"))
    assert "Bo is an army of Phyrexia, the other side: coalition orders its own armies (Ann)" in message
    assert "not read, and the Movement Results do not print it" in message


def test_a_line_for_the_other_sides_army_neither_voids_its_order_nor_shows_in_the_public_post() -> None:
    s = state(ANN, BO)
    orders = CoalitionOrders({"coalition": {"Bo": ArmyOrder(line="Bo: Dominaria; 4C > 5C")},
                              "phyrexia": {"Bo": ArmyOrder(to="4D")}})
    verdicts = check_orders(board(), SETTINGS, s, orders)
    assert {(v.seat, v.subject, v.accepted) for v in verdicts} == {("coalition", "Bo", False), ("phyrexia", "Bo", True)}
    after, events = resolve_orders(board(), SETTINGS, s, orders, dice())
    post = movement_results(after)
    assert "Bo: Dominaria; 4C > 4D [moved -> Dominaria 4D]" in post and "5C" not in post
    assert "Coalition" not in post.split("\n")[2:] and not any("refused" in e.text for e in events)


def test_an_unknown_army_is_refused() -> None:
    assert "there is no army 'Zed'" in refusal("coalition", "Zed", ArmyOrder(to="2D"))


def test_a_square_off_the_plane() -> None:
    message = refusal("coalition", "Ann", ArmyOrder(to="9C"))
    assert "'9C' is off Dominaria" in message and "1A to 8F" in message


def test_a_diagonal_step_and_a_gap() -> None:
    assert "2C > 3D is a diagonal step" in refusal("coalition", "Ann", ArmyOrder(via=("3D",), to="3E"))
    assert "2C > 4C is a gap of 2 squares" in refusal("coalition", "Ann", ArmyOrder(via=("4C",), to="4D"))


def test_a_start_that_is_not_where_the_army_stands() -> None:
    assert "Ann is at 2C, not 3C" in refusal("coalition", "Ann", ArmyOrder(start="3C", to="3D"))


def test_engage_names_the_army_in_the_end_square() -> None:
    message = refusal("coalition", "Ann", ArmyOrder(to="3C", word="engage", target="Bo"))
    assert "Bo is at 4C, not 3C" in message


def test_an_order_word_that_does_not_exist() -> None:
    assert "the order 'charge' is not one of engage" in refusal("coalition", "Ann", ArmyOrder(to="3C", word="charge"))


def test_a_forum_line_naming_another_army_than_its_row() -> None:
    assert "the line names 'Cy', not 'Ann'" in refusal("coalition", "Ann", ArmyOrder(line="Cy: 2C > 3C"))


def test_an_accepted_order_says_what_it_will_do() -> None:
    s = state(ANN, BO)
    (verdict,) = check_orders(board(), SETTINGS, s, CoalitionOrders({"coalition": {"Ann": ArmyOrder(
        via=("3C",), to="4C", word="engage", target="Bo")}}))
    assert verdict.accepted and verdict.message == "Ann moves 2C > 3C > 4C and engages Bo"


BATTLE = Battle(BattleType.ATTACKS, "Dominaria 4C", ("Ann", "Bo"), "Fog")


def judge(result: BattleResult, where: str = "Dominaria 4C") -> tuple[str, bool]:
    s = state(army("Ann", "coalition", "4C", rank=2), army("Bo", "phyrexia", "4C", rank=3,
                                                           units=(100, 2500, 1500, 300)),
              army("Cy", "coalition", "1A"), battles=(BATTLE,), phase=Phase.RESULTS)
    (verdict,) = check_orders(board(), SETTINGS, s, CoalitionOrders(results={where: result}))
    return verdict.message, verdict.accepted


def test_a_result_naming_an_army_not_in_the_battle() -> None:
    message, ok = judge(BattleResult(winner="Ann", losses={"Cy": (1, 0, 0, 0)}))
    assert not ok and "Cy is not in this battle; its armies are Ann, Bo" in message


def test_losses_larger_than_the_slot() -> None:
    message, ok = judge(BattleResult(winner="Ann", losses={"Bo": (200, 0, 0, 0)}))
    assert not ok and "Bo loses 200 in slot 1; it has 100 there" in message


def test_a_kill_needs_500_in_the_highest_slot_after_losses() -> None:
    message, ok = judge(BattleResult(winner="Bo", kill="killed"))
    assert not ok and "Bo would have 300 units in its highest slot" in message and "needs 500" in message


def test_a_result_for_a_square_without_battle() -> None:
    message, ok = judge(BattleResult(winner="Ann"), where="Dominaria 1A")
    assert not ok and "no open battle there" in message and "Dominaria 4C" in message


def test_a_winner_not_in_the_battle_and_a_siege_with_a_winner() -> None:
    assert "the winner 'Cy' is not in this battle" in judge(BattleResult(winner="Cy"))[0]
    assert "a siege has no winner" in judge(BattleResult(winner="Ann", siege=True))[0]


def test_a_refused_result_changes_nothing_and_the_battle_stays_open() -> None:
    rules = CoalitionRuleset.create(SETTINGS, MAP)
    s = state(army("Ann", "coalition", "4C", rank=2), army("Bo", "phyrexia", "4C", rank=3),
              battles=(BATTLE,), phase=Phase.RESULTS)
    bad = CoalitionOrders(results={"Dominaria 4C": BattleResult(winner="Ann", losses={"Bo": (9000, 0, 0, 0)})})
    res = rules.resolve(s, bad, dice())
    assert res.state.battle_at("Dominaria 4C") == BATTLE
    assert res.state.by_name()["Bo"].units == s.by_name()["Bo"].units
    refused = [e for e in res.events if e.text.startswith("refused")]
    assert refused and refused[0].audience == frozenset({JUDGE})
    assert json.dumps(rules.state_codec.to_json(s))  # the input state is untouched and still serialisable
