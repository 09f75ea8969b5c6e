"""Bad input everywhere a user types: rosters, orders, GM events, scenario files, the CLI.

Each refusal must say what is wrong and where (the roster line, the tile, the player, the file
line), and nothing a user can type may change the state it was checked against.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.check import CheckedOrders, OrderCheck, check_orders
from sheets_gm.rulesets.gvg.enums import Action, EventKind, Role, Skill, Status, Verdict
from sheets_gm.rulesets.gvg.gm import GmEventError, apply_gm_event
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.resolve import MatchOverError, resolve_turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, RosterError, new_match
from sheets_gm.rulesets.gvg.state import Adjustment, ArcheryDuel, GmEvent, GvgState
from sheets_gm.rulesets.parts.fields import ScenarioError
from sheets_gm.scenario.runner import run_file
from sheets_gm.yamlio import YamlError
from tests.paths import GVG_MAP

MAP_PATH = GVG_MAP
SEED = b"bad input tests"
TEAMS = ("red", "blue")
ROSTER = [
    RosterEntry("Ann", "red", "dps"),  # G1
    RosterEntry("Cy", "red", "healer"),  # H1
    RosterEntry("Dee", "red", "tank"),  # I1
    RosterEntry("Bo", "blue", "tank"),  # G23
    RosterEntry("Eve", "blue", "healer"),  # H23
]


def T(label: str) -> Coord:
    return Coord.parse(label)


@pytest.fixture(scope="module")
def rules() -> GvgRules:
    board = GvgMap.from_text(MAP_PATH.read_text(encoding="utf-8"), where=str(MAP_PATH))
    return GvgRules(board, GvgSettings())


@pytest.fixture
def state(rules: GvgRules) -> GvgState:
    """Turn 5: Ann (red DPS) has walked out to G4; the others are on their bases; red has 1 coin."""
    s = new_match(rules.board, TEAMS, ROSTER, rules.settings)
    s.turn = 5
    s.player("Ann").at = T("G4")
    s.coins = [1, 3]
    return s


def dice(turn: int = 5, **rolls: int) -> TurnDice:
    return TurnDice(SEED, turn, pins={f"move/{name}": value for name, value in rolls.items()})


def only(checked: CheckedOrders, subject: str, part: str) -> OrderCheck:
    found = [c for c in checked.for_subject(subject) if c.part == part]
    assert len(found) == 1, checked.checks
    return found[0]


# -- roster ------------------------------------------------------------------------------------

def _roster_error(rules: GvgRules, roster: list[RosterEntry]) -> str:
    with pytest.raises(RosterError) as info:
        new_match(rules.board, TEAMS, roster, rules.settings)
    return str(info.value)


@pytest.mark.parametrize("second", ["Ann", "ann", "ANN", " Ann "])
def test_roster_duplicate_player_is_refused_case_insensitively(rules: GvgRules, second: str) -> None:
    message = _roster_error(rules, [ROSTER[0], RosterEntry("Bo", "blue", "tank"), RosterEntry(second, "blue", "dps")])
    assert "roster line 3" in message
    assert "line 1" in message  # where the first one is
    assert "twice" in message


@pytest.mark.parametrize("name", ["", "   ", "\t"])
def test_roster_empty_name_is_refused(rules: GvgRules, name: str) -> None:
    message = _roster_error(rules, [ROSTER[0], RosterEntry(name, "blue", "tank")])
    assert "roster line 2" in message
    assert "no name" in message


def test_roster_unknown_team_is_refused(rules: GvgRules) -> None:
    message = _roster_error(rules, [ROSTER[0], RosterEntry("Bo", "green", "tank")])
    assert "roster line 2" in message
    assert "'green'" in message
    assert "red" in message and "blue" in message


def test_roster_unknown_role_is_refused(rules: GvgRules) -> None:
    message = _roster_error(rules, [ROSTER[0], ROSTER[3], RosterEntry("Cy", "red", "mage")])
    assert "roster line 3" in message
    assert "'mage'" in message
    assert "dps" in message and "tank" in message and "healer" in message


def test_roster_team_and_role_are_case_insensitive(rules: GvgRules) -> None:
    s = new_match(rules.board, TEAMS, [RosterEntry("Ann", " RED ", "DPS"), RosterEntry("Bo", "Blue", "Tank")],
                  rules.settings)
    assert [(p.name, p.team, p.role) for p in s.players] == [("Ann", 0, Role.DPS), ("Bo", 1, Role.TANK)]


@pytest.mark.parametrize("teams", [("red",), ("red", "Red"), ("red", " "), ("a", "b", "c")])
def test_bad_team_names_are_refused(rules: GvgRules, teams: tuple[str, ...]) -> None:
    with pytest.raises(RosterError):
        new_match(rules.board, teams, [], rules.settings)


def test_roster_players_start_on_their_base(rules: GvgRules) -> None:
    s = new_match(rules.board, TEAMS, ROSTER, rules.settings)
    assert [p.at.label for p in s.players] == ["G1", "H1", "I1", "G23", "H23"]
    assert all(rules.board.base_owner(p.at) == p.team for p in s.players)


# -- order checks: each bad order alone ---------------------------------------------------------

def test_move_to_a_wall_is_impassable(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(players={"Ann": PlayerOrder(move=T("E9"))})
    check = only(check_orders(rules, state, orders, dice(Ann=6)), "Ann", "move")
    assert check.verdict is Verdict.IMPASSABLE
    assert "E9" in check.message and "wall" in check.message


def test_move_to_the_enemy_base_is_impassable(rules: GvgRules, state: GvgState) -> None:
    state.player("Ann").at = T("H20")
    orders = TurnOrders(players={"Ann": PlayerOrder(move=T("H23"))})
    check = only(check_orders(rules, state, orders, dice(Ann=6)), "Ann", "move")
    assert check.verdict is Verdict.IMPASSABLE
    assert "H23" in check.message and "blue's base" in check.message


def test_move_to_own_base_is_allowed(rules: GvgRules, state: GvgState) -> None:
    state.player("Ann").at = T("H2")
    orders = TurnOrders(players={"Ann": PlayerOrder(move=T("H1"))})
    check = only(check_orders(rules, state, orders, dice(Ann=1)), "Ann", "move")
    assert check.verdict is Verdict.ACCEPTED


@pytest.mark.parametrize("tile", [Coord(15, 3), Coord(6, 23), Coord(40, 90)])
def test_move_off_the_board_is_refused(rules: GvgRules, state: GvgState, tile: Coord) -> None:
    orders = TurnOrders(players={"Ann": PlayerOrder(move=tile)})
    check = only(check_orders(rules, state, orders, dice(Ann=6)), "Ann", "move")
    assert check.verdict is Verdict.OFF_BOARD
    assert tile.label in check.message
    assert "A1 to O23" in check.message


def test_move_too_far_names_the_distance_and_the_roll(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(players={"Ann": PlayerOrder(move=T("G9"))})
    checked = check_orders(rules, state, orders, dice(Ann=3))
    check = only(checked, "Ann", "move")
    assert check.verdict is Verdict.TOO_FAR
    assert check.message == "G9 is 5 steps away; your roll is 3"
    assert checked.accepted.players["Ann"].move is None


def test_move_exactly_the_roll_is_accepted(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(players={"Ann": PlayerOrder(move=T("G9"))})
    checked = check_orders(rules, state, orders, dice(Ann=5))
    assert only(checked, "Ann", "move").verdict is Verdict.ACCEPTED
    assert checked.accepted.players["Ann"].move == T("G9")


def test_move_too_far_under_player_speed_names_the_bonus(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(players={"Ann": PlayerOrder(move=T("G12"))}, skills=((Skill.PLAYER_SPEED,), ()))
    check = only(check_orders(rules, state, orders, dice(Ann=3)), "Ann", "move")
    assert check.verdict is Verdict.TOO_FAR
    assert check.message == "G12 is 8 steps away; your roll is 3 + 3 (Player Speed)"


def test_order_for_an_unknown_player(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(players={"Zed": PlayerOrder(move=T("G2")), "ann": PlayerOrder(move=T("G5"))})
    checked = check_orders(rules, state, orders, dice())
    for who in ("Zed", "ann"):
        check = only(checked, who, "player")
        assert check.verdict is Verdict.UNKNOWN_PLAYER
        assert repr(who) in check.message
    assert set(checked.accepted.players) == set()


def test_buff_by_a_non_healer_stands_as_the_rules_fallback_and_the_player_acts(rules: GvgRules,
                                                                                state: GvgState) -> None:
    """Issue 78, item 7: "✘ only healers can buff; Dan … will act normally" held the team's Ready although the
    rulebook gives the fallback: the order stands (✔), saying she acts normally."""
    orders = TurnOrders(players={"Ann": PlayerOrder(action=Action.BUFF), "Dee": PlayerOrder(action=Action.REVIVE)})
    checked = check_orders(rules, state, orders, dice())
    for who, role in (("Ann", "DPS"), ("Dee", "Tank")):
        check = only(checked, who, "action")
        assert check.verdict is Verdict.NOT_A_HEALER and check.accepted
        assert who in check.message and role in check.message and "acts normally" in check.message
        assert checked.accepted.players[who].action is Action.ACT


def test_an_activated_skill_reads_true_before_and_after_its_turn_resolves(rules: GvgRules, state: GvgState) -> None:
    """Issue 78, item 7: "✔ Carried out in turn 3: Player Speed will be activated" said past and future at once;
    the skill's answer is worded for both."""
    checked = check_orders(rules, state, TurnOrders(skills=((Skill.PLAYER_SPEED,), ())), dice())
    check = only(checked, state.teams[0], f"skill {Skill.PLAYER_SPEED.display}")
    assert check.accepted and " will " not in f" {check.message} ", check.message


def test_buff_by_a_healer_is_accepted(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(players={"Cy": PlayerOrder(action=Action.BUFF)})
    checked = check_orders(rules, state, orders, dice())
    assert only(checked, "Cy", "action").verdict is Verdict.ACCEPTED
    assert checked.accepted.players["Cy"].action is Action.BUFF


def test_teleport_not_from_base_is_refused(rules: GvgRules, state: GvgState) -> None:
    state.ballista = [2, 0]
    orders = TurnOrders(players={"Ann": PlayerOrder(teleport=T("H10"))})
    checked = check_orders(rules, state, orders, dice())
    check = only(checked, "Ann", "teleport")
    assert check.verdict is Verdict.NOT_ON_BASE
    assert "Ann" in check.message and "G4" in check.message
    assert checked.accepted.players["Ann"].teleport is None
    assert "Ann" not in checked.teleports


def test_teleport_with_no_charge_is_refused(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(players={"Cy": PlayerOrder(teleport=T("H10"))})
    checked = check_orders(rules, state, orders, dice())
    check = only(checked, "Cy", "teleport")
    assert check.verdict is Verdict.NO_CHARGE
    assert "red" in check.message and "charge" in check.message
    assert checked.accepted.players["Cy"].teleport is None


def test_refused_teleport_falls_back_to_the_move(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(players={"Cy": PlayerOrder(teleport=T("H10"), move=T("H2"))})
    checked = check_orders(rules, state, orders, dice(Cy=1))
    assert only(checked, "Cy", "teleport").verdict is Verdict.NO_CHARGE
    assert only(checked, "Cy", "move").verdict is Verdict.ACCEPTED
    assert checked.accepted.players["Cy"] == PlayerOrder(move=T("H2"))


def test_last_ballista_charge_goes_to_the_first_in_roster_order(rules: GvgRules, state: GvgState) -> None:
    state.ballista = [1, 0]
    orders = TurnOrders(players={"Dee": PlayerOrder(teleport=T("I10")), "Cy": PlayerOrder(teleport=T("H10"))})
    checked = check_orders(rules, state, orders, dice())
    assert only(checked, "Cy", "teleport").verdict is Verdict.ACCEPTED
    assert only(checked, "Dee", "teleport").verdict is Verdict.NO_CHARGE
    assert checked.teleports == frozenset({"Cy"})


@pytest.mark.parametrize(("tile", "verdict"), [("E9", Verdict.IMPASSABLE), ("H23", Verdict.IMPASSABLE)])
def test_teleport_to_a_tile_that_cannot_be_entered(
    rules: GvgRules, state: GvgState, tile: str, verdict: Verdict
) -> None:
    state.ballista = [2, 0]
    check = only(check_orders(rules, state, TurnOrders(players={"Cy": PlayerOrder(teleport=T(tile))}), dice()),
                 "Cy", "teleport")
    assert check.verdict is verdict
    assert tile in check.message


def test_skill_on_cooldown_names_the_turn_it_is_ready(rules: GvgRules, state: GvgState) -> None:
    state.cooldowns[0][Skill.PLAYER_SPEED] = 3  # activated on turn 3: ready again on turn 7
    orders = TurnOrders(skills=((Skill.PLAYER_SPEED,), ()))
    checked = check_orders(rules, state, orders, dice())
    check = only(checked, "red", "skill Player Speed")
    assert check.verdict is Verdict.ON_COOLDOWN
    assert check.message == "Player Speed is on cooldown until turn 7"
    assert checked.accepted.skills == ((), ())


def test_skill_is_ready_four_turns_after_activation(rules: GvgRules, state: GvgState) -> None:
    state.cooldowns[0][Skill.PLAYER_SPEED] = 1
    checked = check_orders(rules, state, TurnOrders(skills=((Skill.PLAYER_SPEED,), ())), dice())
    assert only(checked, "red", "skill Player Speed").verdict is Verdict.ACCEPTED


def test_unaffordable_skill_names_coins_and_cost(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(skills=((Skill.CITY_PROTECTION,), ()))
    checked = check_orders(rules, state, orders, dice())
    check = only(checked, "red", "skill City Protection")
    assert check.verdict is Verdict.NOT_ENOUGH_COINS
    assert check.message == "red has 1 coin; City Protection costs 2"
    assert checked.accepted.skills == ((), ())


def test_second_skill_refused_when_the_first_spent_the_coins(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(skills=((), (Skill.CITY_PROTECTION, Skill.TREE_SPEED, Skill.BALLISTA)))
    checked = check_orders(rules, state, orders, dice())  # blue has 3 coins
    assert only(checked, "blue", "skill City Protection").verdict is Verdict.ACCEPTED
    tree_speed = only(checked, "blue", "skill Tree Speed")
    assert tree_speed.verdict is Verdict.NOT_ENOUGH_COINS
    assert "1 coin" in tree_speed.message and "Tree Speed costs 2" in tree_speed.message
    assert only(checked, "blue", "skill Ballista Charges").verdict is Verdict.ACCEPTED
    assert checked.accepted.skills == ((), (Skill.CITY_PROTECTION, Skill.BALLISTA))


def test_orders_of_a_knocked_down_player_are_refused(rules: GvgRules, state: GvgState) -> None:
    dee = state.player("Dee")
    dee.status, dee.down_turn = Status.KNOCKED_DOWN, 4
    orders = TurnOrders(players={"Dee": PlayerOrder(move=T("I2"), action=Action.PICKUP)})
    checked = check_orders(rules, state, orders, dice(Dee=6))
    check = only(checked, "Dee", "order")
    assert check.verdict is Verdict.KNOCKED_DOWN
    assert "Dee" in check.message and "turn 5" in check.message
    assert "Dee" not in checked.accepted.players
    assert len(checked.for_subject("Dee")) == 1


# -- a whole turn of bad orders ---------------------------------------------------------------

def _bad_turn(state: GvgState) -> TurnOrders:
    state.player("Dee").status = Status.KNOCKED_DOWN
    state.player("Dee").down_turn = 4
    state.cooldowns[1][Skill.PLAYER_SPEED] = 4
    return TurnOrders(
        players={
            "Ann": PlayerOrder(move=T("G9"), action=Action.BUFF),  # too far (roll 3), not a healer
            "Cy": PlayerOrder(teleport=T("H10")),  # no charge
            "Dee": PlayerOrder(move=T("I2")),  # knocked down
            "Bo": PlayerOrder(move=T("E9")),  # a wall
            "Eve": PlayerOrder(move=T("H1")),  # the enemy base
            "Zed": PlayerOrder(move=T("A3")),  # nobody
        },
        skills=((Skill.CITY_PROTECTION,), (Skill.PLAYER_SPEED,)),  # 1 coin for 2; on cooldown
    )


def _bad_dice() -> TurnDice:
    return dice(Ann=3, Cy=6, Dee=6, Bo=6, Eve=6)


def test_every_bad_order_of_a_turn_gets_its_verdict(rules: GvgRules, state: GvgState) -> None:
    checked = check_orders(rules, state, _bad_turn(state), _bad_dice())
    verdicts = {(c.subject, c.part): c.verdict for c in checked.rejected}
    assert verdicts == {
        ("red", "skill City Protection"): Verdict.NOT_ENOUGH_COINS,
        ("blue", "skill Player Speed"): Verdict.ON_COOLDOWN,
        ("Zed", "player"): Verdict.UNKNOWN_PLAYER,
        ("Ann", "move"): Verdict.TOO_FAR,
        ("Ann", "action"): Verdict.NOT_A_HEALER,
        ("Cy", "teleport"): Verdict.NO_CHARGE,
        ("Dee", "order"): Verdict.KNOCKED_DOWN,
        ("Bo", "move"): Verdict.IMPASSABLE,
        ("Eve", "move"): Verdict.IMPASSABLE,
    }
    assert checked.accepted.skills == ((), ())
    assert all(o == PlayerOrder() for o in checked.accepted.players.values())
    assert set(checked.accepted.players) == {"Ann", "Cy", "Bo", "Eve"}


def test_check_orders_does_not_change_the_state(rules: GvgRules, state: GvgState) -> None:
    orders = _bad_turn(state)
    before = json.dumps(state.to_json(), sort_keys=True)
    check_orders(rules, state, orders, _bad_dice())
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_resolve_turn_with_bad_orders_does_not_change_the_input_state(rules: GvgRules, state: GvgState) -> None:
    orders = _bad_turn(state)
    before = json.dumps(state.to_json(), sort_keys=True)
    result = resolve_turn(rules, state, orders, _bad_dice())
    assert json.dumps(state.to_json(), sort_keys=True) == before
    assert result.state is not state
    assert result.state.turn == state.turn + 1


def test_resolve_turn_uses_only_the_accepted_orders(rules: GvgRules, state: GvgState) -> None:
    orders = _bad_turn(state)
    result = resolve_turn(rules, state, orders, _bad_dice())
    new = result.state
    for name in ("Ann", "Cy", "Bo", "Eve"):
        assert new.player(name).at == state.player(name).at, name
    assert new.coins == state.coins  # no skill was paid
    assert new.cooldowns == state.cooldowns
    assert new.ballista == state.ballista
    assert [p.name for p in new.players] == [p.name for p in state.players]  # no Zed
    rejected = [e for e in result.events if e.kind is EventKind.ORDER_REJECTED]
    fallbacks = [v for v in result.verdicts if v.accepted and "acts normally instead" in v.message]  # the rules'
    assert len(rejected) == len([v for v in result.verdicts if not v.accepted]) + len(fallbacks) == 9  # Log says
    assert not [e for e in result.events if e.kind in (EventKind.MOVED, EventKind.TELEPORTED,
                                                       EventKind.SKILL_ACTIVATED)]
    # Resolving only what was accepted gives the same state.
    again = resolve_turn(rules, state, check_orders(rules, state, orders, _bad_dice()).accepted, _bad_dice())
    assert again.state.to_json() == new.to_json()


def test_resolve_turn_with_mixed_orders_moves_only_the_legal_ones(rules: GvgRules, state: GvgState) -> None:
    orders = TurnOrders(players={"Ann": PlayerOrder(move=T("G7")), "Bo": PlayerOrder(move=T("E9")),
                                 "Cy": PlayerOrder(move=T("H2"))})
    before = state.to_json()
    result = resolve_turn(rules, state, orders, dice(Ann=3, Bo=6, Cy=1))
    assert state.to_json() == before
    assert result.state.player("Ann").at == T("G7")
    assert result.state.player("Cy").at == T("H2")
    assert result.state.player("Bo").at == T("G23")


def test_resolve_turn_refuses_dice_of_another_turn(rules: GvgRules, state: GvgState) -> None:
    with pytest.raises(ValueError, match="turn 4"):
        resolve_turn(rules, state, TurnOrders(), dice(turn=4))


def test_resolve_turn_refuses_a_finished_match(rules: GvgRules, state: GvgState) -> None:
    state.finished, state.winner = True, 0
    with pytest.raises(MatchOverError):
        resolve_turn(rules, state, TurnOrders(), dice())
    checked = check_orders(rules, state, TurnOrders(players={"Ann": PlayerOrder(move=T("G5"))},
                                                    skills=((Skill.BALLISTA,), ())), dice())
    assert {c.verdict for c in checked.checks} == {Verdict.MATCH_OVER}
    assert checked.accepted.players == {} and checked.accepted.skills == ((), ())


# -- GM events ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("winner_points", "loser_points"), [(3, 3), (4, 0), (2, 1), (3, -1), (0, 3), (5, 2)])
def test_impossible_duel_scores_are_refused(
    rules: GvgRules, state: GvgState, winner_points: int, loser_points: int
) -> None:
    before = state.to_json()
    with pytest.raises(GmEventError) as info:
        apply_gm_event(rules, state, ArcheryDuel(0, winner_points, loser_points))
    assert f"{winner_points}-{loser_points}" in str(info.value)
    assert state.to_json() == before


@pytest.mark.parametrize("winner", [-1, 2])
def test_duel_with_an_unknown_winner_is_refused(rules: GvgRules, state: GvgState, winner: int) -> None:
    before = state.to_json()
    with pytest.raises(GmEventError, match="red or blue"):
        apply_gm_event(rules, state, ArcheryDuel(winner, 3, 0))
    assert state.to_json() == before


@pytest.mark.parametrize("loser_points", [0, 1, 2])
def test_possible_duel_scores_award_the_winner(rules: GvgRules, state: GvgState, loser_points: int) -> None:
    new, events = apply_gm_event(rules, state, ArcheryDuel(1, 3, loser_points))
    assert new.coins == [1, 3 + rules.settings.duel_reward]
    assert state.coins == [1, 3]
    assert [e.kind for e in events] == [EventKind.ARCHERY_DUEL]


@pytest.mark.parametrize("reason", ["", "   ", "\n"])
def test_adjustment_without_reason_is_refused(rules: GvgRules, state: GvgState, reason: str) -> None:
    before = state.to_json()
    with pytest.raises(GmEventError, match="reason"):
        apply_gm_event(rules, state, Adjustment(reason=reason, coins=(0, 5)))
    assert state.to_json() == before


def test_adjustment_that_changes_nothing_is_refused(rules: GvgRules, state: GvgState) -> None:
    with pytest.raises(GmEventError):
        apply_gm_event(rules, state, Adjustment(reason="typo"))


@pytest.mark.parametrize("hp", [-1, 4, 99])
def test_adjustment_hp_out_of_range_is_refused(rules: GvgRules, state: GvgState, hp: int) -> None:
    before = state.to_json()
    with pytest.raises(GmEventError) as info:
        apply_gm_event(rules, state, Adjustment(reason="typo", hp=(T("C7"), hp)))
    message = str(info.value)
    assert "red's bulwark on C7" in message and "0 to 3" in message and str(hp) in message
    assert state.to_json() == before


def test_adjustment_fish_hp_range_is_its_own(rules: GvgRules, state: GvgState) -> None:
    new, _ = apply_gm_event(rules, state, Adjustment(reason="typo", hp=(T("H5"), 6)))
    assert new.structures[T("H5")].hp == 6
    with pytest.raises(GmEventError, match="red's fish on H5"):
        apply_gm_event(rules, state, Adjustment(reason="typo", hp=(T("H5"), 7)))


def test_adjustment_hp_of_a_tile_without_structure_is_refused(rules: GvgRules, state: GvgState) -> None:
    with pytest.raises(GmEventError, match="D7"):
        apply_gm_event(rules, state, Adjustment(reason="typo", hp=(T("D7"), 1)))


@pytest.mark.parametrize(("team", "value"), [(0, -1), (2, 3), (-1, 3)])
def test_adjustment_bad_coins_are_refused(rules: GvgRules, state: GvgState, team: int, value: int) -> None:
    before = state.to_json()
    with pytest.raises(GmEventError):
        apply_gm_event(rules, state, Adjustment(reason="typo", coins=(team, value)))
    assert state.to_json() == before


def test_adjustment_of_an_unknown_player_is_refused(rules: GvgRules, state: GvgState) -> None:
    before = state.to_json()
    with pytest.raises(GmEventError, match="'Zed'"):
        apply_gm_event(rules, state, Adjustment(reason="typo", position=("Zed", T("G5"))))
    assert state.to_json() == before


@pytest.mark.parametrize("tile", ["E9", "H23", "P1"])
def test_adjustment_position_onto_an_impossible_tile_is_refused(
    rules: GvgRules, state: GvgState, tile: str
) -> None:
    before = state.to_json()
    with pytest.raises(GmEventError) as info:
        apply_gm_event(rules, state, Adjustment(reason="typo", position=("Ann", T(tile))))
    assert "Ann" in str(info.value) and tile in str(info.value)
    assert state.to_json() == before


def test_adjustment_refused_half_way_leaves_the_input_state_unchanged(rules: GvgRules, state: GvgState) -> None:
    before = state.to_json()
    bad: GmEvent = Adjustment(reason="typo", coins=(0, 7), hp=(T("C7"), 1), position=("Zed", T("G5")))
    with pytest.raises(GmEventError):
        apply_gm_event(rules, state, bad)
    assert state.to_json() == before


def test_good_adjustment_is_logged_with_its_reason(rules: GvgRules, state: GvgState) -> None:
    before = state.to_json()
    new, events = apply_gm_event(rules, state, Adjustment(reason="sheet typo", coins=(0, 4), hp=(T("C7"), 2),
                                                          position=("Ann", T("G5"))))
    assert state.to_json() == before
    assert new.coins[0] == 4 and new.structures[T("C7")].hp == 2 and new.player("Ann").at == T("G5")
    assert len(events) == 3
    assert all(e.kind is EventKind.GM_ADJUSTMENT and "sheet typo" in e.text for e in events)


# -- scenario files ----------------------------------------------------------------------------

GOOD = """\
name: bad input
ruleset: gvg
teams: [red, blue]
map: |
  base1 stair1 .     .
  .     .      .     bulwark2
  .     .      fish2 base2
given:
  players:
    - {name: Ann, team: red, role: dps, at: A1}
    - {name: Bo, team: blue, role: tank, at: D2}
turns:
  - orders:
      Ann: {move: B1}
    dice:
      move/Ann: 1
expect:
  players:
    Ann: {at: B1}
"""


def _write(tmp_path: Path, text: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _replace_line(number: int, new: str, text: str = GOOD) -> str:
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


def _insert_after(number: int, new: str, text: str = GOOD) -> str:
    lines = text.splitlines()
    lines[number:number] = new.splitlines()
    return "\n".join(lines) + "\n"


def _says_line(message: str, path: Path, line: int) -> bool:
    return f"{path}:{line}:" in message or (str(path) in message and f"line {line}:" in message)


def test_the_good_scenario_passes(tmp_path: Path) -> None:
    outcome = run_file(_write(tmp_path, GOOD))
    assert outcome.passed, outcome.differences


BAD_FILES: list[tuple[str, str, int, list[str]]] = [
    ("unknown_top_key", _replace_line(12, "turn:"), 12, ["'turn'", "turns"]),
    ("unknown_given_key", _replace_line(9, "  player:"), 9, ["'player'", "players"]),
    ("unknown_player_key", _replace_line(11, "    - {name: Bo, team: blue, role: tank, at: D2, hp: 3}"), 11,
     ["'hp'"]),
    ("unknown_order_key", _replace_line(14, "      Ann: {move: B1, jump: C1}"), 14, ["'jump'", "move"]),
    ("unknown_turn_key", _replace_line(15, "    die:"), 15, ["'die'", "dice"]),
    ("unknown_expect_key", _replace_line(18, "  player:"), 18, ["'player'"]),
    ("pinned_die_7", _replace_line(16, "      move/Ann: 7"), 16, ["move/Ann", "7", "1 to 6"]),
    ("pinned_die_0", _replace_line(16, "      move/Ann: 0"), 16, ["move/Ann", "1 to 6"]),
    ("pinned_die_text", _replace_line(16, "      move/Ann: three"), 16, ["move/Ann"]),
    ("order_for_unknown_player", _replace_line(14, "      Zed: {move: B1}"), 14, ["'Zed'"]),
    ("move_off_the_map", _replace_line(14, "      Ann: {move: Z9}"), 14, ["Z9", "A1 to D3"]),
    ("move_not_a_tile", _replace_line(14, "      Ann: {move: 9Z}"), 14, ["'9Z'"]),
    ("player_off_the_map", _replace_line(10, "    - {name: Ann, team: red, role: dps, at: E1}"), 10,
     ["E1", "A1 to D3"]),
    ("player_on_enemy_base", _replace_line(10, "    - {name: Ann, team: red, role: dps, at: D3}"), 10, ["D3"]),
    ("unknown_role", _replace_line(10, "    - {name: Ann, team: red, role: mage, at: A1}"), 10, ["'mage'"]),
    ("unknown_team", _replace_line(11, "    - {name: Bo, team: green, role: tank, at: D2}"), 11, ["'green'"]),
    ("bad_map_token", _replace_line(6, "  .     dragon .     bulwark2"), 4, ["B2", "'dragon'"]),
    ("bad_setting", _insert_after(3, "settings: {movement: queen}"), 4, ["'movement'", "'queen'"]),
    ("invalid_yaml", _replace_line(11, "    - {name: Bo, team: blue: role}: x: y"), 11, ["not valid YAML"]),
    ("invalid_yaml_tab", _replace_line(13, "\t- orders:"), 13, ["not valid YAML"]),
    ("duplicate_key", _insert_after(16, "      move/Ann: 2"), 17, ["'move/Ann'", "twice", "line 16"]),
    ("duplicate_top_key", _insert_after(2, "ruleset: gvg"), 3, ["'ruleset'", "twice", "line 2"]),
    ("duplicate_in_flow", _replace_line(14, "      Ann: {move: B1, move: C1}"), 14, ["'move'", "twice"]),
    ("unknown_ruleset", _replace_line(2, "ruleset: chess"), 2, ["'chess'", "gvg"]),
]


@pytest.mark.parametrize(("text", "line", "words"), [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES])
def test_bad_scenario_file_names_file_and_line(tmp_path: Path, text: str, line: int, words: list[str]) -> None:
    path = _write(tmp_path, text)
    with pytest.raises((ScenarioError, YamlError)) as info:
        run_file(path)
    message = str(info.value)
    assert _says_line(message, path, line), message
    for word in words:
        assert word in message, message


@pytest.mark.parametrize(("text", "line"), [(b[1], b[2]) for b in BAD_FILES], ids=[b[0] for b in BAD_FILES])
def test_cli_reports_a_bad_scenario_file_as_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int
) -> None:
    path = _write(tmp_path, text)
    code = main(["scenario", str(path)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "ERROR" in out
    error_line = next(x for x in out.splitlines() if x.startswith("ERROR"))
    assert _says_line(error_line, path, line), error_line
    assert "Traceback" not in out + err
    assert "0 passed, 1 failed" in out


def test_cli_runs_good_and_bad_files_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, GOOD, "a_good.yaml")
    _write(tmp_path, _replace_line(16, "      move/Ann: 7"), "b_bad.yaml")
    code = main(["scenario", str(tmp_path)])
    out, _ = capsys.readouterr()
    assert code == 1
    assert "pass  bad input" in out
    assert "1 passed, 1 failed" in out


def test_cli_missing_path_is_a_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scenario", str(tmp_path / "nope.yaml")])
    _, err = capsys.readouterr()
    assert code == 1
    assert "nope.yaml" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "text",
    ["", "---\n", "- a\n- b\n", "just text\n", "\xff\xfe garbage"],
    ids=["empty", "null_document", "a_list", "a_string", "undecodable"],
)
def test_files_that_are_not_a_scenario_mapping(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    path = tmp_path / "odd.yaml"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises((ScenarioError, YamlError)) as info:
        run_file(path)
    assert str(path) in str(info.value)
    assert main(["scenario", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "ERROR" in out and "Traceback" not in out + err


def test_block_style_order_off_the_map_names_the_move_line(tmp_path: Path) -> None:
    text = _replace_line(14, "      Ann:\n        move: Z9")
    path = _write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        run_file(path)
    assert _says_line(str(info.value), path, 15), str(info.value)


def test_turn_entry_that_is_not_a_mapping_names_a_real_line(tmp_path: Path) -> None:
    path = _write(tmp_path, _insert_after(12, "  - 5"))
    with pytest.raises(ScenarioError) as info:
        run_file(path)
    assert f"{path}:0:" not in str(info.value)


def test_unterminated_quote_names_the_line_it_starts_on(tmp_path: Path) -> None:
    text = 'name: "bad input\nruleset: gvg\nteams: [red, blue]\n'
    path = _write(tmp_path, text)
    with pytest.raises(YamlError) as info:
        run_file(path)
    assert "line 1" in str(info.value), str(info.value)


GM_CRASHES = [
    ("two_teams_in_coins", "    gm: [{adjust: {reason: x, coins: {red: 1, blue: 2}}}]"),
    ("no_team_in_coins", "    gm: [{adjust: {reason: x, coins: {}}}]"),
    ("two_structures_in_hp", "    gm: [{adjust: {reason: x, hp: {bulwark@D2: 1, fish@C3: 2}}}]"),
    ("two_players_in_position", "    gm: [{adjust: {reason: x, position: {Ann: B1, Bo: C1}}}]"),
]


@pytest.mark.parametrize("gm_line", [g[1] for g in GM_CRASHES], ids=[g[0] for g in GM_CRASHES])
def test_gm_adjust_with_zero_or_several_entries_is_a_scenario_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gm_line: str
) -> None:
    path = _write(tmp_path, _insert_after(14, gm_line))
    with pytest.raises(ScenarioError) as info:
        run_file(path)
    assert _says_line(str(info.value), path, 15)
    assert main(["scenario", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "ERROR" in out and "Traceback" not in out + err


def test_scenario_with_two_teams_of_the_same_name_is_refused(tmp_path: Path) -> None:
    text = _replace_line(3, "teams: [red, Red]")
    text = _replace_line(11, "    - {name: Bo, team: Red, role: tank, at: D2}", text)
    path = _write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        run_file(path)
    assert _says_line(str(info.value), path, 3)


def test_scenario_error_and_yaml_error_are_value_errors() -> None:
    assert issubclass(ScenarioError, ValueError) and issubclass(YamlError, ValueError)


def test_orders_dataclasses_are_frozen() -> None:
    order = PlayerOrder(move=T("A1"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        order.move = T("B1")  # type: ignore[misc]


def test_the_views_skill_list_says_what_the_team_can_pay_for(rules: GvgRules, state: GvgState) -> None:
    """Issue 64: the View listed every command skill as "can be activated now" at 0 coins. A skill the team cannot
    pay for says how many coins it still needs; one it can pay for, that it can be activated now."""
    from sheets_gm.rulesets.gvg.sheet.draw import team_panel

    state.coins[0] = 0
    whens = {str(row[0]): row[2] for row in team_panel(rules, state, 0) if len(row) == 3}
    cost = rules.settings.cost(Skill.PLAYER_SPEED)
    assert whens[Skill.PLAYER_SPEED.display] == \
        f"off cooldown, but {state.teams[0]} needs {cost} coin{'s' * (cost != 1)} more"
    state.coins[0] = cost
    whens = {str(row[0]): row[2] for row in team_panel(rules, state, 0) if len(row) == 3}
    assert whens[Skill.PLAYER_SPEED.display] == "can be activated now"
