"""The GM applies abilities' effects through logged adjustments; each is checked against the state."""

from __future__ import annotations

from typing import Any

import pytest

from sheets_gm.rulesets.winordie.enums import ActionKind, Phase
from sheets_gm.rulesets.winordie.gm import OPTIONS, GmEventError, events_from_options
from sheets_gm.rulesets.winordie.orders import Action, WodOrders
from sheets_gm.rulesets.winordie.rules import public_name
from tests.rulesets.winordie.helpers import canonical, deployed, rules

SEATS = ("Ann", "Bo")


def test_every_option_the_issue_names_is_offered() -> None:
    flags = {o.flag for o in OPTIONS}
    assert {"damage", "heal", "move", "reveal", "morale", "fatigue", "crystals"} <= flags


def test_options_become_adjustments_and_travel_as_json() -> None:
    r = rules()
    events = events_from_options(SEATS, {"damage": ["Ann-2=3"], "morale": ["Bo=-2"], "reveal": ["Bo token 1"],
                                              "done": ["1"]}, "Fire Volley")
    assert [(e.kind.value, e.target, e.value, e.relative) for e in events] == [
        ("damage", "Ann-2", "3", False), ("reveal", "Bo token 1", "", False), ("morale", "Bo", "-2", True),
        ("done", "1", "", False)]
    assert all(r.gm_event_codec.from_json(r.gm_event_codec.to_json(e)) == e for e in events)


@pytest.mark.parametrize(("values", "reason", "message"), [
    ({}, "x", "nothing to change"),
    ({"damage": ["Ann-2=3"]}, " ", "--reason is required"),
    ({"damage": ["Ann-2"]}, "x", "--damage 'Ann-2': write UNIT=N, like A3=2"),
    ({"morale": ["Cy=3"]}, "x", "--morale: there is no player 'Cy'; the players are Ann and Bo"),
    ({"crystals": ["Ann=lots"]}, "x", "'lots' is not a whole number"),
    ({"done": ["first"]}, "x", "--done 'first': give the number of a pending effect"),
])
def test_bad_options_name_the_option(values: dict[str, list[str]], reason: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        events_from_options(SEATS, values, reason)


def test_damage_that_kills_lowers_morale_and_can_end_the_game() -> None:
    r = rules()
    state = deployed(r)
    victim = next(u for u in state.units if u.owner == "Bo" and state.card_of(u).morale > 0)
    legion = state.legions["Bo"]
    (damage,) = events_from_options(SEATS, {"damage": [f"{victim.id}=99"]}, "Blood Price")
    after = r.apply_gm_event(state, damage)
    assert after.state.unit(victim.id) is None
    assert after.state.legions["Bo"].morale == legion.morale - state.card_of(victim).morale
    assert state.unit(victim.id) is not None  # the input is not changed
    (fatigue,) = events_from_options(SEATS, {"fatigue": ["Bo=8"]}, "house rule")
    over = r.apply_gm_event(after.state, fatigue).state
    assert over.phase is Phase.OVER and over.winner == "Ann"
    assert "battle triumph" in (r.outcome(over) or pytest.fail()).text


def test_reveal_heal_move_and_done() -> None:
    r = rules()
    state = deployed(r)
    seat = state.acting
    archer = next(u for u in state.units if u.owner == seat and state.card_of(u).abilities
                  and state.card_of(u).abilities[0].type.value == "action")
    orders = WodOrders(actions={seat: (Action(ActionKind.ABILITY, archer.id,
                                              state.card_of(archer).abilities[0].name),)}, hold=(seat,))
    state = r.resolve(state, orders, r.dice(b"x", state)).state
    assert [p.source for p in state.pending] == [archer.id]
    token = next(u for u in state.units if u.owner != seat and u.hidden)
    events = events_from_options(SEATS, {"reveal": [token.token], "done": [str(state.pending[0].id)]}, "volley")
    for event in events:
        state = r.apply_gm_event(state, event).state
    assert not state.pending
    assert state.unit(token.id) is not None and not state.unit(token.id).hidden  # type: ignore[union-attr]
    free = next(h for h in r.rules.board.cells() if state.unit_at(h) is None and not r.rules.board.terrain[h].obstacle)
    (move,) = events_from_options(SEATS, {"move": [f"{token.id}={free.label}"]}, "Intercept")
    assert r.apply_gm_event(state, move).state.unit(token.id).at == free  # type: ignore[union-attr]


def test_adjustments_that_do_not_fit_are_refused_and_change_nothing() -> None:
    r = rules()
    state = deployed(r)
    before = canonical(r.state_codec.to_json(state))
    taken = next(u for u in state.units if u.owner == "Ann")
    other = next(u for u in state.units if u.owner == "Bo")
    bad = [({"damage": ["Ghost=1"]}, "there is no unit 'Ghost' on the board"),
           ({"move": [f"{other.id}={taken.at.label if taken.at else ''}"]}, "is occupied"),
           ({"done": ["42"]}, "there is no pending effect 42"),
           ({"crystals": ["Ann=-5"]}, "cannot go below 0")]
    for values, message in bad:
        (event,) = events_from_options(SEATS, values, "why")
        with pytest.raises(GmEventError, match=message):
            r.apply_gm_event(state, event)
    assert canonical(r.state_codec.to_json(state)) == before


@pytest.mark.parametrize("flag", ["cancel", "dice", "soften", "counter-first"])
def test_a_change_to_a_stopped_action_during_the_deployment_says_no_action_was_played(flag: str) -> None:
    """Before the first turn no reaction can have stopped anything: the refusal says so, not that the unit is not
    the acting player's (issue 38, item 11: it named Ann-1 as not Ann's, listing Ann-1 among her units)."""
    r = rules()
    state = r.new_match(r.sample_roster(), b"deployment")
    assert state.phase is Phase.DEPLOY
    (event,) = events_from_options(SEATS, {flag: ["Ann-1" if flag in ("cancel", "counter-first") else "Ann-1=1"]},
                                   "why")
    with pytest.raises(GmEventError) as refused:
        r.apply_gm_event(state, event)
    said = str(refused.value)
    assert "not a unit of" not in said, said
    assert f"the deployment is still open: no action has been played, so --{flag} has nothing to change" in said


def test_an_aim_naming_a_face_down_unit_by_its_id_is_refused_in_place() -> None:
    """Issue 51: the Aim goes to the Log both players read, word for word; naming one of her own face-down units
    by its id would tell the opponent which unit that token is. The row is refused and says what to write."""
    r = rules()
    state = deployed(r)
    seat = state.acting
    archer = next(u for u in state.units if u.owner == seat and state.card_of(u).abilities
                  and state.card_of(u).abilities[0].type.value == "action")
    hidden = next(u for u in state.units if u.owner == seat and u.hidden and u.token and u is not archer)
    ability = state.card_of(archer).abilities[0].name
    leaky = Action(ActionKind.ABILITY, archer.id, ability, aim=f"G2; my hidden {hidden.id} follows up")
    (verdict,) = r.check(state, WodOrders(actions={seat: (leaky,)}), r.dice(b"x", state))
    assert not verdict.accepted
    assert f"the Aim names {hidden.id}, a face-down unit" in verdict.message and repr(hidden.token) in verdict.message
    fine = Action(ActionKind.ABILITY, archer.id, ability, aim=f"G2; {hidden.token} follows up")
    assert all(v.accepted for v in r.check(state, WodOrders(actions={seat: (fine,)}), r.dice(b"x", state)))


def test_an_aim_guessing_an_opponents_face_down_unit_by_id_is_refused_without_placing_it() -> None:
    """The refusal goes to the player who typed the Aim: for her own unit it may say its token and hex, but for an
    opponent's face-down unit it must not, or typing 'Bo-3' would be answered with which token Bo-3 is and where
    (found playing: "name a unit as the board shows it ('Bo token 3' on D7)")."""
    r = rules()
    state = deployed(r)
    seat = state.acting
    archer = next(u for u in state.units if u.owner == seat and state.card_of(u).abilities
                  and state.card_of(u).abilities[0].type.value == "action")
    ability = state.card_of(archer).abilities[0].name
    for enemy in (u for u in state.units if u.owner != seat and u.hidden and u.token):
        guess = Action(ActionKind.ABILITY, archer.id, ability, aim=enemy.id)
        (verdict,) = r.check(state, WodOrders(actions={seat: (guess,)}), r.dice(b"x", state))
        assert not verdict.accepted
        assert f"the Aim names {enemy.id} by its id" in verdict.message
        assert enemy.token not in verdict.message and (enemy.at is None or enemy.at.label not in verdict.message)
        assert "face-down" not in verdict.message


def _stopped_attack(r: Any) -> tuple[Any, Any, Any, Any]:
    """A deployed match in its first turn where the opponent's Parry (on the GM's list) stopped an attack of the
    acting player's first unit on the opponent's first unit: (state, attacker, target, another enemy)."""
    from sheets_gm.rulesets.winordie.state import Pending

    state = deployed(r)
    state.phase, state.turn = Phase.ACTIONS, max(state.turn, 1)
    attacker = next(u for u in state.units if u.owner == state.acting)
    target, other = [u for u in state.units if u.owner != state.acting][:2]
    state.pending.append(Pending(state.next_pending, state.turn, target.owner, target.id, "Parry",
                                 "Before an enemy attack on me: that attack deals 1 less damage.",
                                 f"{public_name(state, attacker)} attack {public_name(state, target)}"))
    state.next_pending += 1
    return state, attacker, target, other


def test_damage_taken_off_a_stopped_attack_is_bound_to_the_target_it_named() -> None:
    """Issue 64, item 2: "Before an enemy attack on me: that attack deals 1 less damage" protects the Parry's
    unit. The GM's --soften records the target the stopped row named; when the row resumes against another
    target, the 1 less damage lapses with a line in the Log, and against the same target it applies."""
    from sheets_gm.rulesets.winordie.resolve.actions import bound_change

    r = rules()
    state, attacker, target, other = _stopped_attack(r)
    (soften,) = events_from_options(SEATS, {"soften": [f"{attacker.id}=1"]}, "Parry")
    state = r.apply_gm_event(state, soften).state
    change = state.changes[attacker.id]
    shown, elsewhere = public_name(state, target), public_name(state, other)  # as the rows name face-down units
    assert (change.less, change.against) == (1, shown)
    events: list[Any] = []
    same = bound_change(r.rules, state, Action(ActionKind.ATTACK, attacker.id, shown), change, events)
    assert same == change and not events
    moved = bound_change(r.rules, state, Action(ActionKind.ATTACK, attacker.id, elsewhere), change, events)
    assert moved is not None and moved.less == 0
    assert [e.text for e in events] == [f"The 1 less damage the GM gave {public_name(state, attacker)}'s attack on "
                                        f"{shown} lapses: the row now attacks {elsewhere}."]
    # a change saved before ``against`` existed (no target recorded) applies as it always did
    from sheets_gm.rulesets.winordie.state import ActionChange
    assert ActionChange.from_json({"cancel": False, "dice": 0, "less": 1, "reason": "x"}).against == ""
