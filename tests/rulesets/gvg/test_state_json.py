"""GvgState.to_json / from_json: a saved state rebuilds exactly, at the start and mid-match."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.enums import Role, Skill, Status, StructureKind
from sheets_gm.rulesets.gvg.gm import apply_gm_event
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.resolve import resolve_turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
from sheets_gm.rulesets.gvg.state import Adjustment, Boss, GvgState, Tree
from tests.paths import GVG_MAP

MAP_PATH = GVG_MAP
SEED = b"state json tests"
ROSTER = [
    RosterEntry("Ann", "red", "dps"),
    RosterEntry("Cy", "red", "healer"),
    RosterEntry("Dee", "red", "tank"),
    RosterEntry("Bo", "blue", "tank"),
    RosterEntry("Eve", "blue", "healer"),
    RosterEntry("Fay", "blue", "dps"),
]


def T(label: str) -> Coord:
    return Coord.parse(label)


@pytest.fixture(scope="module")
def rules() -> GvgRules:
    return GvgRules(GvgMap.from_text(MAP_PATH.read_text(encoding="utf-8")), GvgSettings())


@pytest.fixture
def fresh(rules: GvgRules) -> GvgState:
    return new_match(rules.board, ("red", "blue"), ROSTER, rules.settings)


def round_trip(state: GvgState) -> GvgState:
    data = state.to_json()
    text = json.dumps(data)  # must be JSON-ready: no Coord, enum keys, sets or tuples that change
    again = GvgState.from_json(json.loads(text))
    assert again == state
    assert again.to_json() == data
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(data, sort_keys=True)
    return again


def _only_plain_json(value: Any) -> bool:
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list):
        return all(_only_plain_json(v) for v in value)
    if isinstance(value, dict):
        return all(type(k) is str and _only_plain_json(v) for k, v in value.items())
    return False


def test_fresh_match_round_trips(fresh: GvgState) -> None:
    again = round_trip(fresh)
    assert again.turn == 1
    assert len(again.players) == len(ROSTER)
    assert len(again.structures) == 8  # 3 bulwarks and a fish per team
    assert again.jungle == fresh.jungle and len(again.jungle) == 8


def test_fresh_match_json_is_plain_data(fresh: GvgState) -> None:
    data = fresh.to_json()
    assert _only_plain_json(data)
    assert data["players"][0] == {"name": "Ann", "team": 0, "role": "dps", "at": "G1", "status": "active",
                                  "down_turn": None}
    assert data["trees"] == [{"team": 0, "at": "H5", "carrier": None}, {"team": 1, "at": "H19", "carrier": None}]


def test_round_trip_rebuilds_typed_values(fresh: GvgState) -> None:
    again = GvgState.from_json(json.loads(json.dumps(fresh.to_json())))
    p = again.players[0]
    assert isinstance(p.at, Coord) and p.role is Role.DPS and p.status is Status.ACTIVE
    assert isinstance(again.teams, tuple)
    assert all(isinstance(k, Coord) and k == s.at for k, s in again.structures.items())
    assert {s.kind for s in again.structures.values()} == {StructureKind.BULWARK, StructureKind.FISH}


def test_round_trip_of_a_copy_is_independent(fresh: GvgState) -> None:
    again = round_trip(fresh)
    again.players[0].at = T("H2")
    again.coins[0] = 9
    again.jungle.clear()
    assert fresh.players[0].at == T("G1") and fresh.coins[0] == 0 and fresh.jungle


def test_round_trip_after_empty_turns(rules: GvgRules, fresh: GvgState) -> None:
    state = fresh
    for _ in range(3):
        state = resolve_turn(rules, state, TurnOrders(), TurnDice(SEED, state.turn)).state
        round_trip(state)
    assert state.turn == 4


def _move(state: GvgState, rules: GvgRules, targets: dict[str, str], **extra: Any) -> GvgState:
    pins = {f"move/{name}": 6 for name in targets}
    pins.update(extra.pop("pins", {}))
    orders = TurnOrders(players={name: PlayerOrder(move=T(tile)) for name, tile in targets.items()}, **extra)
    result = resolve_turn(rules, state, orders, TurnDice(SEED, state.turn, pins))
    assert all(v.accepted for v in result.verdicts), result.verdicts
    return result.state


def test_round_trip_after_moves_skills_fights_and_coins(rules: GvgRules, fresh: GvgState) -> None:
    state, _ = apply_gm_event(rules, fresh, Adjustment(reason="test money", coins=(0, 5)))
    # Turn 1: red buys Player Speed and Ballista, everyone walks out.
    state = _move(state, rules, {"Ann": "F6", "Cy": "H6", "Bo": "G18", "Fay": "C18"},
                  skills=((Skill.PLAYER_SPEED, Skill.BALLISTA), ()))
    round_trip(state)
    assert state.cooldowns[0] == {Skill.PLAYER_SPEED: 1, Skill.BALLISTA: 1}
    assert state.ballista == [2, 0]
    # Turn 2: Fay takes the jungle coin on C19; Ann and Bo meet on G12 (Ann wins: 6+2 vs 1).
    state = _move(state, rules, {"Ann": "G12", "Bo": "G12", "Fay": "C19"},
                  pins={"combat/Ann": 6, "combat/Bo": 1})
    again = round_trip(state)
    assert T("C19") not in again.jungle
    assert again.coins[1] == 1
    assert again.player("Bo").status is Status.KNOCKED_DOWN and again.player("Bo").down_turn == 2
    # Turn 3: Bo skips; Dee teleports by ballista; Ann attacks bulwark H17 and wins.
    orders = TurnOrders(players={"Ann": PlayerOrder(move=T("H17")), "Dee": PlayerOrder(teleport=T("I10"))})
    pins = {"move/Ann": 5, "combat/Ann": 6, "defense/H17": 1}
    state = resolve_turn(rules, state, orders, TurnDice(SEED, state.turn, pins)).state
    again = round_trip(state)
    assert again.structures[T("H17")].hp == 2
    assert again.player("Dee").at == T("I10") and again.ballista == [1, 0]
    # Turn 4: Bo respawns on blue's base.
    state = resolve_turn(rules, state, TurnOrders(), TurnDice(SEED, state.turn)).state
    again = round_trip(state)
    assert again.player("Bo").at == T("G23") and again.player("Bo").status is Status.ACTIVE
    assert again.turn == 5


def test_round_trip_with_boss_carrier_and_finished_match(fresh: GvgState) -> None:
    state = fresh.copy()
    state.turn = 16
    state.boss = Boss(T("C12"), 2)
    state.structures[T("H19")].hp = 0
    state.player("Ann").at = T("H19")
    state.trees[1] = Tree(1, T("H19"), "Ann")
    state.cooldowns = [{Skill.TREE_SPEED: 14, Skill.BALLISTA: 3}, {Skill.CITY_PROTECTION: 15}]
    state.jungle = set()
    round_trip(state)
    state.finished, state.winner = True, 0
    round_trip(state)
    state.winner = None  # a draw
    round_trip(state)


def test_round_trip_after_many_turns_with_a_boss(rules: GvgRules, fresh: GvgState) -> None:
    state = fresh
    for _ in range(15):
        state = resolve_turn(rules, state, TurnOrders(), TurnDice(SEED, state.turn)).state
    assert state.turn == 16 and state.boss is not None  # spawned at the start of turn 15
    again = round_trip(state)
    assert again.boss == state.boss


def test_resolving_a_rebuilt_state_gives_the_same_turn(rules: GvgRules, fresh: GvgState) -> None:
    orders = TurnOrders(players={"Ann": PlayerOrder(move=T("G3")), "Bo": PlayerOrder(move=T("G21"))})
    a = resolve_turn(rules, fresh, orders, TurnDice(SEED, 1)).state
    rebuilt = GvgState.from_json(json.loads(json.dumps(fresh.to_json())))
    b = resolve_turn(rules, rebuilt, orders, TurnDice(SEED, 1)).state
    assert a.to_json() == b.to_json()
