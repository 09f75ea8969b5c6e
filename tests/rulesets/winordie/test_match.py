"""Whole matches: windows (deployments, then alternating turns), best of three in advanced mode, step mode."""

from __future__ import annotations

from sheets_gm.engine.ruleset import Roster
from sheets_gm.rulesets.registry import bots_of
from sheets_gm.rulesets.winordie.enums import ActionKind, Mode, Phase, ResolveMode
from sheets_gm.rulesets.winordie.orders import Action, WodOrders
from sheets_gm.rulesets.winordie.settings import WodSettings
from tests.rulesets.winordie.helpers import deployed, play, rules


def test_windows_deploy_first_player_first_then_alternate() -> None:
    r = rules()
    state = r.new_match(r.sample_roster(), b"w")
    first = state.first
    played = play(r, b"w")
    windows = [r.window(before) for before, _events, _after in played]
    assert [w.phase for w in windows[:3] if w] == ["deploy", "deploy", "actions"]
    assert [w.seats for w in windows[:2] if w] == [(first,), (state.other(first),)]
    turns = [w for w in windows if w and w.phase == "actions"]
    # a turn a reaction or a passive stopped opens again for its rows left: one window per key
    turns = list({w.key: w for w in turns}.values())
    assert turns[0].seats == (first, state.other(first)) and turns[1].seats == (state.other(first), first)
    assert turns[0].stepwise


def test_the_first_player_is_rolled_again_while_equal() -> None:
    r = rules()
    firsts = {r.new_match(r.sample_roster(), f"s{i}".encode()).first for i in range(20)}
    assert firsts == {"Ann", "Bo"}


def test_advanced_mode_plays_best_of_three() -> None:
    settings = WodSettings(mode=Mode.ADVANCED)
    r = rules(settings)
    for seed in (b"bo3-a", b"bo3-b"):
        played = play(r, seed)
        last = played[-1][2]
        assert last.phase is Phase.OVER
        assert 2 <= len(last.games) <= 3
        assert last.legions[last.winner or ""].wins == 2
        keys = [w.key for before, _e, _a in played if (w := r.window(before))]
        opened = [k for i, k in enumerate(keys) if i == 0 or keys[i - 1] != k]  # a reaction reopens a window
        assert len(opened) == len(set(opened))  # every window of every game has its own key
        outcome = r.outcome(last)
        assert outcome is not None and "2-" in outcome.text


def test_a_stopped_row_waits_and_the_turn_does_not_end() -> None:
    r = rules(WodSettings(resolve=ResolveMode.BATCH))
    state = deployed(r, b"react").copy()
    seat = state.acting
    other = state.other(seat)
    guard = next(u for u in state.units if u.owner == other and u.card == "War Drummer")  # before any action…
    ability = next(a.name for a in state.card_of(guard).abilities if a.type.value == "reaction")
    from sheets_gm.rulesets.winordie.enums import Trigger
    from sheets_gm.rulesets.winordie.orders import Reaction

    mover = next(u for u in state.units if u.owner == seat)
    assert mover.at is not None
    taken = {u.at for u in state.units}
    guard.at = next(h for h in r.rules.board.neighbours(mover.at)  # …next to it: its card says so
                    if h not in taken and not r.rules.board.terrain[h].obstacle)
    orders = WodOrders(actions={seat: (Action(ActionKind.ABILITY, mover.id, "nothing"),
                                       Action(ActionKind.MOVE, mover.id, "E4"))},
                       reactions={other: (Reaction(guard.id, ability, Trigger.ANY),)})
    verdicts = r.check(state, orders, r.dice(b"x", state))
    mine = [v for v in verdicts if v.seat == seat]
    assert not mine[0].accepted and mine[1].accepted and mine[1].message.startswith("Row 2: waiting")
    after = r.resolve(state, orders, r.dice(b"x", state)).state
    assert after.turn == state.turn and after.started
    assert after.legions[other].tokens == state.legions[other].tokens - 1
    assert not after.unit(guard.id).hidden  # type: ignore[union-attr]
    assert [p.name for p in after.pending] == [ability]
    assert r.window(after) == r.window(state)


def test_a_surrender_ends_the_game() -> None:
    r = rules()
    state = deployed(r)
    after = r.resolve(state, WodOrders(surrender=(state.acting,)), r.dice(b"x", state)).state
    assert after.winner == state.other(state.acting) and r.window(after) is None


def test_a_roster_of_three_players_is_refused() -> None:
    r = rules()
    try:
        r.new_match(Roster(("Ann", "Bo", "Cy"), r.sample_roster().members), b"s")
    except ValueError as exc:
        assert "two players" in str(exc)
    else:
        raise AssertionError("a roster of three was accepted")


def test_every_bot_deploys_and_plays_accepted_rows() -> None:
    r = rules(WodSettings(mode=Mode.ADVANCED))
    for bot in bots_of(r):
        for before, _events, _after in play(r, b"bots-" + bot.encode(), bot)[:12]:
            window = r.window(before)
            assert window is not None
            dice = r.dice(b"bots-" + bot.encode(), before)
            orders = r.merge_orders({s: bots_of(r)[bot].make(f"{s}").orders(before, s, dice) for s in window.seats})
            # the resolution's verdicts: a bot given the window's dice plans past a kill (a hex it frees), which the
            # check, on blind dice, judges as if the attack changed nothing
            assert all(v.accepted for v in r.resolve(before, orders, dice).verdicts), bot


def test_rows_written_by_the_player_who_is_not_acting_never_resolve() -> None:
    r = rules()
    state = deployed(r)
    other = state.other(state.acting)
    theirs = next(u for u in state.units if u.owner == other)
    parts = {other: WodOrders(actions={other: (Action(ActionKind.MOVE, theirs.id, "E4"),),
                                       state.acting: (Action(ActionKind.MOVE, theirs.id, "E4"),)})}
    orders = r.merge_orders(parts)
    assert state.acting not in orders.actions
    verdicts = r.check(state, orders, r.dice(b"x", state))
    assert [v.accepted for v in verdicts] == [False]
    assert verdicts[0].message == f"Row 1: it is {state.acting}'s turn; your rows resolve in your own turn"
    after = r.resolve(state, orders, r.dice(b"x", state)).state
    assert after.unit(theirs.id).at == theirs.at  # type: ignore[union-attr]


def test_views_show_the_acting_player_s_start_of_turn_done() -> None:
    r = rules()
    state = deployed(r)
    assert not state.started and state.legions[state.acting].tokens == 7
    for seat in (None, *state.seats):
        status = {p["name"]: p for p in r.view(state, seat)["players"]}
        assert status[state.acting]["tokens"] == 5  # the first player's first turn
        assert status[state.other(state.acting)]["tokens"] == 7


def test_states_and_orders_of_an_advanced_match_survive_json() -> None:
    import json

    r = rules(WodSettings(mode=Mode.ADVANCED))
    state = r.new_match(r.sample_roster(), b"json")
    seen_pending = False
    while (window := r.window(state)) is not None:
        dice = r.dice(b"json", state)
        orders = r.merge_orders({s: bots_of(r)["random"].make(s).orders(state, s, dice) for s in window.seats})
        as_json = r.orders_codec.to_json(orders)
        assert r.orders_codec.to_json(r.orders_codec.from_json(json.loads(json.dumps(as_json)))) == as_json
        state = r.resolve(state, orders, dice).state
        seen_pending = seen_pending or bool(state.pending)
        data = json.loads(json.dumps(r.state_codec.to_json(state)))
        assert r.state_codec.to_json(r.state_codec.from_json(data)) == data
    assert seen_pending and len(state.games) >= 2


def test_a_standing_reaction_whose_unit_falls_says_it_fires_no_more() -> None:
    """Issue 64 (command tokens shown wrong around the end): a standing reaction whose unit, at the most command
    tokens, died in the opponent's turn still said "stands …, but Bo-7 already carries 3 command tokens, the most: it
    can fire again once Bo's own turn recovers them", for good once that turn ended the match."""
    from sheets_gm.engine.dice import TurnDice
    from sheets_gm.rulesets.winordie.enums import Trigger
    from sheets_gm.rulesets.winordie.orders import Reaction

    r = rules()
    state = deployed(r, b"fallen").copy()
    seat, other = state.acting, state.other(state.acting)
    guard = next(u for u in state.units if u.owner == other and any(
        a.type.value == "reaction" for a in state.card_of(u).abilities))
    ability = next(a.name for a in state.card_of(guard).abilities if a.type.value == "reaction")
    attacker = next(u for u in state.units if u.owner == seat and state.card_of(u).range == 1)
    guard.tokens, guard.damage, guard.hidden = r.settings.unit_tokens, state.health(guard) - 1, False
    assert guard.at is not None
    taken = {u.at for u in state.units}
    attacker.at = next(h for h in r.rules.board.neighbours(guard.at) if h not in taken)
    orders = WodOrders(actions={seat: (Action(ActionKind.ATTACK, attacker.id, guard.id),)},
                       reactions={other: (Reaction(guard.id, ability, Trigger.ANY),)})
    dice = TurnDice(b"x", state.dice_turn(), {f"attack/{attacker.id}/1/{n}": 6 for n in range(1, 9)})
    res = r.resolve(state, orders, dice)
    assert res.state.unit(guard.id) is None
    (said,) = [v for v in res.verdicts if v.seat == other]
    assert said.message == (f"Reaction 1: stood until {guard.id} fell in {seat}'s turn: its {ability} fires no "
                            "more; clear the row"), said
