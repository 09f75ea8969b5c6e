"""Properties of whole bot matches (hypothesis): invariants every turn, determinism, termination."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.grid import Neighbourhood
from sheets_gm.engine.ruleset import Resolution
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots.base import Bot, merge_orders, play_match
from sheets_gm.rulesets.gvg.bots.objective import ObjectiveBot
from sheets_gm.rulesets.gvg.bots.random_bot import RandomBot
from sheets_gm.rulesets.gvg.enums import EventKind, Status
from sheets_gm.rulesets.gvg.orders import TurnOrders
from sheets_gm.rulesets.gvg.resolve import resolve_turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
from sheets_gm.rulesets.gvg.state import GvgState
from tests.paths import GVG_MAP
from tests.quick import soak_but

BOARD = GvgMap.from_text(GVG_MAP.read_text())
ROLES = ("dps", "dps", "tank", "tank", "healer")
ROSTER = [RosterEntry(f"{team}{i}", team, ROLES[i]) for team in ("red", "blue") for i in range(5)]

matches = st.fixed_dictionaries({
    "seed": st.integers(0, 10**6),
    "bots": st.tuples(st.sampled_from(["objective", "random"]), st.sampled_from(["objective", "random"])),
    "movement": st.sampled_from([Neighbourhood.KING, Neighbourhood.ROOK]),
})


def make_bot(kind: str, seed: int) -> Bot:
    return ObjectiveBot(seed) if kind == "objective" else RandomBot(seed)


def start(movement: Neighbourhood = Neighbourhood.KING) -> tuple[GvgRules, GvgState]:
    rules = GvgRules(BOARD, GvgSettings(movement=movement))
    return rules, new_match(BOARD, ("red", "blue"), ROSTER, rules.settings)


def check_invariants(rules: GvgRules, before: GvgState, orders: TurnOrders, res: Resolution[GvgState],
                     rolls: dict[str, int]) -> None:
    after = res.state
    for s in after.structures.values():
        assert 0 <= s.hp <= s.max_hp, s
    if after.boss is not None:
        assert 0 < after.boss.hp <= rules.settings.boss_hp
    assert all(c >= 0 for c in after.coins), after.coins
    assert all(b >= 0 for b in after.ballista), after.ballista
    carriers = [t.carrier for t in after.trees if t is not None and t.carrier is not None]
    assert len(carriers) == len(set(carriers)), "a player carries two trees"
    for tree in after.trees:
        assert tree is not None
        if tree.carrier is not None:
            carrier = after.player(tree.carrier)
            assert carrier.at == tree.at, "a tree is in two places"
            assert carrier.team != tree.team
            assert carrier.status is Status.ACTIVE
    # Knocked-down players never act: no move, no roll, no pickup during the turn they skip.
    down = {p.name for p in before.players if p.status is Status.KNOCKED_DOWN}
    for name in down:
        assert f"combat/{name}" not in rolls and f"move/{name}" not in rolls, name
    acting = {EventKind.MOVED, EventKind.TELEPORTED, EventKind.TREE_PICKED_UP, EventKind.PICKUP_FAILED}
    for event in res.events:
        if event.kind in acting:
            assert event.data.get("player") not in down, event.text


@pytest.mark.parametrize("examples", soak_but([30, 5], 5))
def test_invariants_hold_every_turn_and_the_match_ends_by_the_turn_limit(examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(matches)
    def walk(case: dict[str, object]) -> None:
        seed = int(case["seed"])  # type: ignore[call-overload]
        kinds = case["bots"]
        assert isinstance(kinds, tuple)
        movement = case["movement"]
        assert isinstance(movement, Neighbourhood)
        rules, state = start(movement)
        bots = [make_bot(kinds[0], seed), make_bot(kinds[1], seed + 1)]
        previous = [state]

        def on_turn(orders: TurnOrders, res: Resolution[GvgState]) -> None:
            dice = TurnDice(str(seed).encode(), previous[0].turn)  # the match's dice of this turn: what they rolled
            resolve_turn(rules, previous[0], orders, dice)
            check_invariants(rules, previous[0], orders, res, dict(dice.rolled))
            previous[0] = res.state

        result = play_match(rules, state, bots, seed=str(seed).encode(), on_turn=on_turn)
        assert result.state.finished
        assert result.state.turn <= rules.settings.max_turns
        assert result.turns <= rules.settings.max_turns

    walk()


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_same_seed_and_orders_give_the_same_state_and_log(seed: int) -> None:
    rules, state = start()

    def run() -> tuple[dict[str, object], list[str]]:
        log: list[str] = []
        result = play_match(rules, state, [ObjectiveBot(seed), RandomBot(seed)], seed=b"s%d" % seed,
                            on_turn=lambda _o, res: log.extend(e.text for e in res.events))
        return result.state.to_json(), log

    first, second = run(), run()
    assert first == second
    assert state.turn == 1, "playing a match must not change the starting state"


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 6))
def test_pinning_a_key_the_turn_never_asks_for_changes_nothing(seed: int, value: int) -> None:
    rules, state = start()
    bots = [ObjectiveBot(seed), ObjectiveBot(seed + 1)]
    # Walk some turns in, so that battles, skills and knock-downs are possible.
    state = play_match(rules, state, bots, seed=b"pin", max_turns=seed % 25).state
    if state.finished:
        return
    dice = TurnDice(b"pin", state.turn)
    orders = merge_orders(bots[0].orders(rules, state, 0, dice), bots[1].orders(rules, state, 1, dice))
    plain_dice = TurnDice(b"pin", state.turn)
    plain = resolve_turn(rules, state, orders, plain_dice)
    unused = ["combat/Nobody", "defense/Z99", "boss/green", "spawn/boss", "final-blow"]
    unused += [f"combat/{p.name}" for p in state.players] + [f"defense/{s.at.label}" for s in state.structures.values()]
    pins = {key: value for key in unused if key not in plain_dice.rolled}
    pinned = resolve_turn(rules, state, orders, TurnDice(b"pin", state.turn, pins))
    assert pinned.state.to_json() == plain.state.to_json()
    assert [e.text for e in pinned.events] == [e.text for e in plain.events]


def test_every_move_sentence_names_its_own_player_and_tiles() -> None:
    rules, state = start()
    dice = TurnDice(b"moves", state.turn)
    orders = merge_orders(ObjectiveBot(1).orders(rules, state, 0, dice), ObjectiveBot(2).orders(rules, state, 1, dice))
    resolution = resolve_turn(rules, state, orders, dice)
    rolls = dice.rolled
    moved = [e for e in resolution.events if e.kind is EventKind.MOVED]
    assert len(moved) >= 5
    for event in moved:
        data = event.to_json()["data"]
        key = f"move/{data['player']}"
        assert data["reach"]["roll"] == rolls[key] and data["reach"]["bonuses"] == []
        assert event.text == (f"{data['player']} moves from {data['start']} to {data['to']} "
                              f"(rolled {rolls[key]} [{dice.message(key)}]).")
    assert len({e.text for e in moved}) == len(moved)


def test_the_sample_rosters_start_is_a_fresh_state_each_match() -> None:
    """The engine keeps the sample roster's starting state (a simulation starts every match from it) and gives a copy:
    a match played from one start leaves the next match's start as new."""
    from sheets_gm.rulesets.gvg.engine import GvgRuleset

    ruleset = GvgRuleset(GvgRules(BOARD, GvgSettings()))
    starts = [ruleset.new_match(ruleset.sample_roster(), f"match {i}".encode()) for i in range(3)]
    fresh = starts[0].to_json()
    for start in starts[:2]:  # the state made, then the state kept: each played on and changed by its caller
        played = play_match(ruleset.rules, start, (ObjectiveBot(1), ObjectiveBot(2)), b"seed", max_turns=1).state
        start.players[0].at, start.coins[0] = start.players[1].at, 99
        assert played.turn == 2
    assert starts[2].to_json() == fresh and ruleset.new_match(ruleset.sample_roster(), b"4").to_json() == fresh
