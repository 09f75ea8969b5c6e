"""The GM's logged corrections, and the judge's army changes."""

from __future__ import annotations

import pytest

from sheets_gm.engine.gm_events import apply_gm, gm_event_from_json, gm_event_to_json
from sheets_gm.rulesets.coalition.engine import CoalitionRuleset
from sheets_gm.rulesets.coalition.enums import Colour
from sheets_gm.rulesets.coalition.forum import battle_results
from sheets_gm.rulesets.coalition.gm import events_from_options
from sheets_gm.rulesets.coalition.state import CoalitionOrders
from sheets_gm.rulesets.registry import get_game
from tests.rulesets.coalition.helpers import MAP, SETTINGS, army, dice, state

RULES = CoalitionRuleset.create(SETTINGS, MAP)
CHANGE = "5000 Soldiers (white 2/2); 2500 Knights (white 3/3); 1500 Angels (white 4/4); 1000 Golems (colourless 5/5)"


def test_corrections_are_applied_and_logged_with_their_reason() -> None:
    s = state(army("Ann", "coalition", "3C", rank=2), army("Bo", "phyrexia", "5E"))
    events = events_from_options(RULES.seats(s), {"vp": ["phyrexia=40"], "position": ["Ann=Dominaria 4C"],
                                                           "units": ["Bo=1/2/3/4"]}, "judge ruling")
    for event in events:
        assert RULES.gm_event_codec.from_json(RULES.gm_event_codec.to_json(event)) == event
        res = RULES.apply_gm_event(s, event)
        s = res.state
        assert "judge ruling" in res.events[0].text
    assert s.vp["phyrexia"] == 40 and s.by_name()["Ann"].at == "Dominaria 4C"
    assert s.by_name()["Bo"].units == (1, 2, 3, 4)


def test_an_army_whose_name_ends_in_s_owns_its_units_as_english_does() -> None:
    """Issue 93, item 9: "Zhalfirin Lancers's units set to …" in the Log."""
    s = state(army("Zhalfirin Lancers", "coalition", "3C", rank=2))
    (event,) = events_from_options(RULES.seats(s), {"units": ["Zhalfirin Lancers=1/2/3/4"]}, "judge ruling")
    assert RULES.apply_gm_event(s, event).events[0].text.endswith(": Zhalfirin Lancers' units set to 1/2/3/4")


@pytest.mark.parametrize(("values", "reason", "message"), [
    ({}, "x", "nothing to change"),
    ({"vp": ["phyrexia=40"]}, "", "--reason is required"),
    ({"vp": ["red=4"]}, "x", "the side is coalition or phyrexia"),
    ({"units": ["Bo=1/2/3"]}, "x", "four whole numbers"),
    ({"position": ["Bo"]}, "x", "write ARMY=PLACE"),
])
def test_bad_options_say_what_would_be_accepted(values: dict[str, list[str]], reason: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        events_from_options(("coalition", "phyrexia", "judge"), values, reason)


def test_an_army_change_applies_after_two_turns_where_the_army_heals() -> None:
    s = state(army("Ann", "coalition", "2B", rank=2, factions=(Colour.WHITE,), units=(10, 0, 0, 0)),
              army("Bo", "phyrexia", "8F"))
    (event,) = events_from_options(RULES.seats(s), {"change": [f"Ann={CHANGE}"]}, "player request")
    s = RULES.apply_gm_event(s, event).state
    assert "Ann" in s.changes
    s = RULES.resolve(s, CoalitionOrders(), dice()).state  # counts turn 1: no change yet
    assert s.by_name()["Ann"].units == (10, 0, 0, 0)
    s = RULES.resolve(s, CoalitionOrders(), dice()).state  # counts turn 2: the change applies
    ann = s.by_name()["Ann"]
    assert ann.units == (5000, 2500, 1500, 1000) and ann.creatures[0].name == "Soldiers" and not s.changes


def test_an_army_change_refuses_a_destroyed_bases_colour() -> None:
    s = state(army("Ann", "coalition", "3C", rank=2, factions=(Colour.WHITE,)),
              army("Bo", "phyrexia", "8F")).with_(destroyed=("Wrath",))
    (event,) = events_from_options(RULES.seats(s), {"change": [f"Ann={CHANGE}"]}, "player request")
    with pytest.raises(ValueError, match="Soldiers is white: that base is destroyed"):
        RULES.apply_gm_event(s, event)


def test_battle_results_say_each_turn_counted_in_a_structure() -> None:
    s = state(army("Ann", "coalition", "2B", rank=2, factions=(Colour.WHITE,), units=(10, 0, 0, 0)),
              army("Bo", "phyrexia", "8F"))
    s = RULES.resolve(s, CoalitionOrders(), dice()).state
    assert any(n.startswith("Ann counts turn 1 in ") for n in s.notes)
    assert "Ann counts turn 1 in " in battle_results(s)


def test_a_side_concedes_and_the_round_ends_logged_and_replayed() -> None:
    s = state(army("Ann", "coalition", "2B"), army("Bo", "phyrexia", "8F"))
    (event,) = get_game("coalition").gm_events(RULES.seats(s), {"concede": ["Phyrexia"]},
                                               "Bo's player concedes on the forum")
    done = apply_gm(RULES, s, event)
    assert done.state.winner == "coalition" and RULES.window(done.state) is None
    outcome = RULES.outcome(done.state)
    assert outcome is not None and "concession" in outcome.text
    assert [e.text for e in done.events][-1] == "Coalition wins the round (concession)"
    assert done.events[0].text == "GM adjustment (Bo's player concedes on the forum): Phyrexia concedes"
    assert gm_event_from_json(RULES, gm_event_to_json(RULES, event)) == event
    with pytest.raises(ValueError, match="the round is already over"):
        apply_gm(RULES, done.state, event)
    with pytest.raises(ValueError, match="there is no seat 'judge'; the seats are coalition and phyrexia"):
        get_game("coalition").gm_events(RULES.seats(s), {"concede": ["judge"]}, "x")


def test_a_concession_recorded_before_every_game_had_one_still_replays_the_same() -> None:
    """A match whose GM conceded with the Coalition's own adjustment (its JSON carries ``concede``) replays it
    as it was logged, by the one ending every concession takes."""
    s = state(army("Ann", "coalition", "2B"), army("Bo", "phyrexia", "8F"))
    old = {"reason": "Bo left", "vp": None, "position": None, "units": None, "change": None, "concede": "phyrexia"}
    done = apply_gm(RULES, s, gm_event_from_json(RULES, old))
    assert done.state.winner == "coalition"
    assert [e.text for e in done.events] == ["GM adjustment (Bo left): Phyrexia concedes",
                                             "Coalition wins the round (concession)"]


def test_victory_points_below_zero_are_refused() -> None:
    s = state(army("Ann", "coalition", "2B"), army("Bo", "phyrexia", "8F"))
    (event,) = events_from_options(RULES.seats(s), {"vp": ["coalition=-5"]}, "typo")
    with pytest.raises(ValueError, match="victory points are 0 or more"):
        RULES.apply_gm_event(s, event)
