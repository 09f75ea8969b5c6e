"""Properties (hypothesis): any typed orders, however wrong, never crash a window; a bot match keeps every
invariant of the rules from window to window."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.rulesets.champions.board import board
from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.enums import CLASSES, Phase
from sheets_gm.rulesets.champions.equipment import equip_problem
from sheets_gm.rulesets.champions.orders import Orders, PlayerOrders
from sheets_gm.rulesets.champions.state import MAX_HEALTH, ChampionsState, Player
from sheets_gm.rulesets.registry import bots_of
from tests.quick import soak_but
from tests.rulesets.champions.conftest import at, state_of

WORDS = st.sampled_from(["", "stay", "B2", "A1", "D4", "zz", "gladiator", "Rogue", "mage", "healer", "paladin",
                         "any", "physical", "defensive", "Iron Sword", "Plate Armour", "Chainmail", "attack",
                         "attack mage rogue", "heal", "heal partner", "support", "evade", "dance", "heal self x"])
ROWS = st.lists(st.tuples(WORDS, st.lists(WORDS, max_size=5).map(tuple)), max_size=5).map(tuple)
PART = st.builds(PlayerOrders, move=WORDS, loot=st.lists(WORDS, max_size=5).map(tuple), equip=ROWS,
                 field=st.lists(st.lists(WORDS, max_size=3).map(tuple), max_size=3).map(tuple), sets=ROWS)


def players() -> tuple[Player, ...]:
    return (Player("Ann", at("A1"), health=(100, 0, 30, 80), bag=("Iron Sword", "Plate Armour", "Chainmail"),
                   equipment=(("Steel Axe",), (), (), ())),
            Player("Bo", at("A1"), bag=("Banner",)), Player("Cy", at("A1")), Player("Di", at("B2")))


@pytest.mark.parametrize("examples", soak_but([60, 10], 10))  # the quick run 10 examples, the soak run 60
def test_any_typed_orders_resolve_without_crashing(rules: ChampionsRuleset, examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(parts=st.dictionaries(st.sampled_from(["Ann", "Bo", "Cy", "Di", "Zed"]), PART, max_size=5),
           fight=st.booleans())
    def walk(parts: dict[str, PlayerOrders], fight: bool) -> None:
        state = state_of(*players(), phase=Phase.FIGHT if fight else Phase.MOVE,
                         pools={"A1": ("Iron Sword", "Banner"), "B2": ("Chainmail",)})
        orders = Orders(parts)
        verdicts = rules.check(state, orders, rules.dice(b"fuzz", state))
        assert all(v.message for v in verdicts)
        after = rules.resolve(state, orders, rules.dice(b"fuzz", state)).state
        assert_invariants(rules, state, after)

    walk()


def held(p: Player) -> Counter[str]:
    return Counter([*p.bag, *(i for items in p.equipment for i in items)])


def assert_invariants(rules: ChampionsRuleset, before: ChampionsState, after: ChampionsState) -> None:
    table = rules.rules.table
    grid = board(after.size)
    for p in after.players:
        old = before.player(p.name)
        assert old is not None
        assert all(0 <= hp <= MAX_HEALTH[c] for c, hp in zip(CLASSES, p.health, strict=True))
        if not p.out:
            assert p.at is not None and grid.contains(p.at)
            assert any(hp > 0 for hp in p.health)
        for c in CLASSES:
            items = [i for n in p.items_of(c) if (i := table.get(n)) is not None]
            assert len(items) == len(p.items_of(c))
            assert equip_problem(c, items) is None, (p.name, c, items)
        if before.phase is Phase.FIGHT:  # equipping moves items, it never makes or loses one
            assert held(p) == held(old)
        else:
            gained = held(p) - held(old)
            assert not held(old) - held(p)
            assert sum(gained.values()) <= rules.settings.loot_actions
    if before.phase is Phase.MOVE:  # what the players gained is what left the pools
        taken = sum((held(p) for p in after.players), Counter()) - sum((held(p) for p in before.players), Counter())
        left = sum((Counter(v) for v in before.pools.values()), Counter()) - \
            sum((Counter(v) for v in after.pools.values()), Counter())
        assert taken == left


@pytest.mark.parametrize("examples", soak_but([8, 2], 2))  # a whole match an example: the quick run 2, the soak 8
def test_bot_matches_keep_the_invariants_and_end(rules: ChampionsRuleset, examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(seed=st.binary(min_size=1, max_size=8), bot=st.sampled_from(["affinity", "stack", "random", "seek"]))
    def walk(seed: bytes, bot: str) -> None:
        _bot_match_keeps_the_invariants(rules, seed, bot)

    walk()


def _bot_match_keeps_the_invariants(rules: ChampionsRuleset, seed: bytes, bot: str) -> None:
    """One bot match (every seat played by ``bot``, its dice seeded ``seed``): each window keeps the invariants, the
    board only shrinks, and the match ends with winners."""
    state = rules.new_match(rules.sample_roster(), seed)
    bots = {s: bots_of(rules)[bot].make(f"{seed.hex()}/{s}") for s in rules.seats(state)}
    alive = len(state.alive())
    for _ in range(rules.traits.max_windows):
        window = rules.window(state)
        if window is None:
            break
        dice = rules.dice(seed, state)
        orders = rules.merge_orders({s: bots[s].orders(state, s, dice) for s in window.seats})
        after = rules.resolve(state, orders, dice).state
        assert_invariants(rules, state, after)
        assert len(after.alive()) <= alive
        alive = len(after.alive())
        assert after.size in (4, 3, 2) and after.size <= state.size
        assert len({p.at for p in after.alive()}) <= after.size ** 2
        state = after
    assert rules.window(state) is None and state.winners
