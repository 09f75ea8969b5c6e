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
