"""A new match: spawns on different tiles (the GM's or drawn), the grid for the player count, the first pools."""

from __future__ import annotations

import pytest

from sheets_gm.engine.ruleset import Member, Roster
from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.state import FULL_HEALTH


def test_sixteen_players_spawn_on_sixteen_tiles_with_full_pools(rules: ChampionsRuleset) -> None:
    state = rules.new_match(rules.sample_roster(), b"setup")
    assert state.size == 4 and state.round == 1
    tiles = [p.at for p in state.players]
    assert len(set(tiles)) == 16
    assert all(p.health == FULL_HEALTH and not p.bag for p in state.players)
    assert sorted(state.pools) == sorted(f"{c}{r}" for c in "ABCD" for r in range(1, 5))
    assert all(len(pool) == rules.settings.pool_size for pool in state.pools.values())
    assert rules.new_match(rules.sample_roster(), b"other").players != state.players


def test_the_centre_is_richer_than_the_corners_on_average(rules: ChampionsRuleset) -> None:
    table = rules.rules.table
    centre = corner = 0.0
    for n in range(30):
        pools = rules.new_match(rules.sample_roster(), f"pools {n}".encode()).pools
        centre += sum(table.value(i) for t in ("B2", "C2", "B3", "C3") for i in pools[t])
        corner += sum(table.value(i) for t in ("A1", "D1", "A4", "D4") for i in pools[t])
    assert centre > corner * 1.15


def test_the_gms_spawns_are_kept_and_the_rest_drawn(rules: ChampionsRuleset) -> None:
    seats = ("Ann", "Bo", "Cy", "Di", "Ed")
    roster = Roster(seats, (Member("Ann", "Ann", {"spawn": "c3"}), Member("Bo", "Bo", {"spawn": "A1"})))
    state = rules.new_match(roster, b"spawns")
    assert state.size == 3  # five players start on 3x3
    assert [p.at.label for p in state.players[:2] if p.at] == ["C3", "A1"]
    assert len({p.at for p in state.players}) == 5


def test_two_players_start_on_2x2(rules: ChampionsRuleset) -> None:
    assert rules.new_match(Roster(("Ann", "Bo")), b"two").size == 2


@pytest.mark.parametrize(("roster", "expected"), [
    (Roster(("Ann",)), "Champions takes 2 to 16 players"),
    (Roster(("Ann", "Ann")), "the player 'Ann' is listed twice"),
    (Roster(("Ann", "Bo"), (Member("Ann", "Ann", {"spawn": "Z9"}),)), "roster line 2: spawn of Ann: 'Z9' is off"),
    (Roster(("Ann", "Bo"), (Member("Ann", "Ann", {"spawn": "A1"}), Member("Bo", "Bo", {"spawn": "a1"}))),
     "roster line 3: Bo spawns on A1, where another player spawns"),
])
def test_a_bad_roster_names_the_line(rules: ChampionsRuleset, roster: Roster, expected: str) -> None:
    with pytest.raises(ValueError) as caught:
        rules.new_match(roster, b"bad")
    assert expected in str(caught.value)


def test_windows_alternate_and_name_the_round(rules: ChampionsRuleset) -> None:
    state = rules.new_match(rules.sample_roster(), b"windows")
    first = rules.window(state)
    assert first is not None and (first.key, first.label, first.turn) == ("1/move", "round 1 · move and loot", 1)
    after = rules.resolve(state, rules.no_orders(), rules.dice(b"windows", state)).state
    second = rules.window(after)
    assert second is not None and (second.key, second.label, second.turn) == ("1/fight", "round 1 · equip and fight", 2)
    assert second.phase == "equip_fight" and len(second.seats) == 16
