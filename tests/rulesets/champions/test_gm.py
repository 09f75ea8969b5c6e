"""The GM's logged corrections: a champion's health, a player's tile, an item in a bag."""

from __future__ import annotations

import pytest

from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.gm import GmEventError, events_from_options
from sheets_gm.rulesets.champions.state import Adjustment, Player
from tests.rulesets.champions.conftest import at, state_of


def test_options_become_adjustments_that_apply_and_round_trip(rules: ChampionsRuleset) -> None:
    events = events_from_options(("Ann", "Bo"), {"health": ["Ann.mage=40"], "move": ["Bo=A1"],
                                                          "give": ["Ann=Iron Sword"]}, "a typo")
    state = state_of(Player("Ann", at("A1")), Player("Bo", at("B2")))
    for event in events:
        assert rules.gm_event_codec.from_json(rules.gm_event_codec.to_json(event)) == event
        state = rules.apply_gm_event(state, event).state
    ann, bo = state.players
    assert ann.health == (100, 85, 40, 80) and ann.bag == ("Iron Sword",) and bo.at == at("A1")


@pytest.mark.parametrize(("values", "reason", "expected"), [
    ({}, "x", "nothing to change"),
    ({"health": ["Ann.mage=40"]}, "", "--reason is required"),
    ({"health": ["Ann=40"]}, "x", "name the champion as PLAYER.CLASS"),
    ({"health": ["Ann.mage=lots"]}, "x", "'lots' is not a whole number"),
    ({"give": ["Ann"]}, "x", "write PLAYER=ITEM"),
])
def test_bad_options_say_what_is_accepted(rules: ChampionsRuleset, values: dict[str, list[str]], reason: str,
                                          expected: str) -> None:
    with pytest.raises(ValueError) as caught:
        events_from_options(("Ann",), values, reason)
    assert expected in str(caught.value)


@pytest.mark.parametrize(("event", "expected"), [
    (Adjustment("x", health=("Zed", "mage", 3)), "there is no player 'Zed'"),
    (Adjustment("x", health=("Ann", "mage", 90)), "a Mage's health is 0 to 85; got 90"),
    (Adjustment("x", position=("Ann", "C3")), "'C3' is off the board"),
    (Adjustment("x", give=("Ann", "Excalibur")), "there is no item 'Excalibur' in the loot table"),
])
def test_events_that_do_not_fit_are_refused(rules: ChampionsRuleset, event: Adjustment, expected: str) -> None:
    state = state_of(Player("Ann", at("A1")), Player("Bo", at("B2")))
    with pytest.raises(GmEventError) as caught:
        rules.apply_gm_event(state, event)
    assert expected in str(caught.value)


def test_several_healths_are_one_change_a_player_out_only_if_all_four_end_at_0(rules: ChampionsRuleset) -> None:
    """Issue 54, item 5: Bo's last living champion set to 0 while a dead one is revived, in one adjust, leaves Bo
    in (never "Bo is out … nothing was written"). Checked to fail without the ordering in ``events_from_options``."""
    state = state_of(Player("Ann", at("A1")), Player("Bo", at("B2"), (0, 0, 10, 0)))
    events = events_from_options(("Ann", "Bo"), {"health": ["Bo.mage=0", "Bo.rogue=30"]}, "swapped by mistake")
    for event in events:
        state = rules.apply_gm_event(state, event).state
    bo = state.players[1]
    assert bo.health == (0, 30, 0, 0) and not bo.out
    with pytest.raises(ValueError, match=r"Bo\.mage is named twice"):
        events_from_options(("Ann", "Bo"), {"health": ["Bo.mage=0", "Bo.mage=3"]}, "x")


def test_a_player_who_concedes_is_out_and_the_last_standing_wins(rules: ChampionsRuleset) -> None:
    state = state_of(Player("Ann", at("A1")), Player("Bo", at("B2")), Player("Cy", at("A2")))
    done = rules.concede(state, "Cy", "left early")
    assert done.state.players[2].out and not done.state.finished
    assert done.events[0].text == "Cy concedes and is out: left early."
    done = rules.concede(done.state, "Bo", "bedtime")
    assert done.state.finished and done.state.winners == ("Ann",)
    with pytest.raises(GmEventError, match="the match is over already"):
        rules.concede(done.state, "Ann", "x")
