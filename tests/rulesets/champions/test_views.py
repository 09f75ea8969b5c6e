"""What each seat sees: her own sheet; her tile-mates' living champions and health; nothing of the others."""

from __future__ import annotations

import json

from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.state import BattleReport, Player
from sheets_gm.rulesets.registry import bots_of
from tests.rulesets.champions.conftest import at, state_of


def text(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


def test_a_player_sees_her_tile_mates_living_champions_and_health_only(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("A1"), health=(100, 0, 44, 80), bag=("Iron Sword",),
                 equipment=(("Steel Axe",), (), (), ()))
    bo = Player("Bo", at("A1"), health=(61, 85, 85, 80), bag=("Banner",))
    cy = Player("Cy", at("B2"), health=(7, 85, 85, 80), bag=("Chainmail",))
    state = state_of(ann, bo, cy)
    bo_view = rules.view(state, "Bo")
    [mate] = bo_view["tile_mates"]
    assert mate["name"] == "Ann"
    assert mate["living"] == {"gladiator": 100, "mage": 44, "healer": 80}  # her dead Rogue is left out
    shown = text(bo_view)
    assert "Iron Sword" not in shown and "Steel Axe" not in shown  # Ann's bag and equipment
    assert "Chainmail" not in shown and "Cy's living" not in shown  # Cy is not on Bo's tile
    assert "Banner" in shown  # her own bag


def test_secrets_hold_for_every_seat(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("A1"), bag=("Iron Sword",), equipment=(("Steel Axe",), (), (), ()))
    bo = Player("Bo", at("A1"), bag=("Banner",))
    cy = Player("Cy", at("B2"), health=(7, 85, 85, 80))
    state = state_of(ann, bo, cy)
    assert "Cy's living champions: Gladiator 7, Rogue 85, Mage 85, Healer 80" in rules.secrets(state, "Cy")
    assert not any("living champions" in s for s in rules.secrets(state, "Ann"))  # Bo may see Ann's health
    for owner in ("Ann", "Bo", "Cy"):
        for secret in rules.secrets(state, owner):
            assert secret in text(rules.view(state, owner))
            assert secret not in text(rules.view(state, None))
            for other in ("Ann", "Bo", "Cy"):
                if other != owner:
                    assert secret not in text(rules.view(state, other))


def test_the_public_board_shows_positions_and_who_is_out(rules: ChampionsRuleset) -> None:
    out = Player("Di", None, health=(0, 0, 0, 0), out_round=2)
    state = state_of(Player("Ann", at("A1")), Player("Bo", at("B2")), out)
    public = rules.view(state, None)
    assert public["positions"] == {"Ann": "A1", "Bo": "B2"}
    assert public["out"] == {"Di": 2}
    assert public["size"] == 2
    assert "health" not in text(public) and "bag" not in text(public)


def test_a_battle_report_reaches_only_its_players(rules: ChampionsRuleset) -> None:
    report = BattleReport("A1", ("Ann", "Bo"), "Battle on A1: Ann (Gladiator) vs Bo (Mage)")
    state = state_of(Player("Ann", at("A1")), Player("Bo", at("A1")), Player("Cy", at("B2"))).with_players(
        state_of(Player("Ann", at("A1")), Player("Bo", at("A1")), Player("Cy", at("B2"))).players,
        reports=(report,))
    assert rules.view(state, "Ann")["reports"] == [report.text]
    assert rules.view(state, "Cy")["reports"] == []
    assert "reports" not in rules.view(state, None)


def test_battle_events_are_for_the_players_of_the_battle(rules: ChampionsRuleset) -> None:
    state = rules.new_match(rules.sample_roster(), b"events")
    bots = {s: bots_of(rules)["affinity"].make(s) for s in rules.seats(state)}
    seen = 0
    while seen == 0 and (window := rules.window(state)) is not None:
        dice = rules.dice(b"events", state)
        orders = rules.merge_orders({s: bots[s].orders(state, s, dice) for s in window.seats})
        resolution = rules.resolve(state, orders, dice)
        for event in resolution.events:
            if event.kind.value == "battle":
                seen += 1
                assert event.audience == frozenset(event.data["players"])
            if event.kind.value in ("looted", "equipped"):
                assert event.audience == frozenset({event.data["player"]})
        state = resolution.state
    assert seen


def test_a_bag_lists_each_kind_of_item_once_with_a_count(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("A1"), bag=("Iron Sword", "Chainmail", "Iron Sword"))
    state = state_of(ann, Player("Bo", at("B2")))
    assert "Ann's bag: 2× Iron Sword, Chainmail" in rules.view(state, "Ann")["me"]["lines"]
    assert "Ann's bag: 2× Iron Sword, Chainmail" in rules.secrets(state, "Ann")
