"""The bots: only legal orders from any state, matches that end, a bot that plays to win, replays."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.grid import Coord, Neighbourhood
from sheets_gm.engine.ruleset import Resolution
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots.base import Bot, MatchResult, TeamOrders, merge_orders, play_match
from sheets_gm.rulesets.gvg.bots.geometry import Geometry
from sheets_gm.rulesets.gvg.bots.objective import ObjectiveBot
from sheets_gm.rulesets.gvg.bots.random_bot import RandomBot
from sheets_gm.rulesets.gvg.check import check_orders
from sheets_gm.rulesets.gvg.enums import Action, EventKind, Skill, Status
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
from sheets_gm.rulesets.gvg.state import Boss, GvgState, Player
from tests.paths import GVG_MAP
from tests.quick import soak_but

BOARD = GvgMap.from_text(GVG_MAP.read_text())
TEAMS = ("red", "blue")
ROLES = ("dps", "dps", "tank", "tank", "healer")
ROSTER = [RosterEntry(f"{team}{i}", team, role) for team in TEAMS for i, role in enumerate(ROLES)]
KINDS: dict[str, Callable[[int | str], Bot]] = {"objective": ObjectiveBot, "random": RandomBot}
ENTERABLE = tuple(
    tuple(c for c in BOARD.grid.tiles() if BOARD.enterable(team, c)) for team in (0, 1)
)


def start(settings_: GvgSettings | None = None) -> tuple[GvgRules, GvgState]:
    rules = GvgRules(BOARD, settings_ or GvgSettings())
    return rules, new_match(BOARD, TEAMS, ROSTER, rules.settings)


def assert_legal(rules: GvgRules, state: GvgState, team: int, orders: TeamOrders) -> None:
    """A team's orders are for its own active players, every one of them, and name no skill twice."""
    for name in orders.players:
        player = state.player(name)
        assert player.team == team, f"{name} is not on team {team}"
        assert player.status is Status.ACTIVE, f"{name} is knocked down but was given an order"
    active = {p.name for p in state.players if p.team == team and p.status is Status.ACTIVE}
    assert set(orders.players) == active, f"no order for {active - set(orders.players)}"
    assert len(set(orders.skills)) == len(orders.skills), orders.skills


class CheckedBot:
    """Wraps a bot: checks each of its team's orders, and that it records no die."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: TurnDice) -> TeamOrders:
        rolled = dict(dice.rolled)
        out = self.bot.orders(rules, state, team, dice)
        assert dice.rolled == rolled, "a bot recorded a roll; it must peek"
        assert_legal(rules, state, team, out)
        return out


def every_order_accepted(orders: TurnOrders, res: Resolution[GvgState]) -> None:
    refused = [v for v in res.verdicts if not v.accepted]
    assert not refused, [f"{v.subject} {v.part}: {v.message}" for v in refused]


def play(
    kinds: tuple[str, str], seed: int | str, rules: GvgRules, state: GvgState, *, checked: bool = True
) -> MatchResult:
    bots: list[Bot] = [KINDS[kinds[0]](f"{seed}/1"), KINDS[kinds[1]](f"{seed}/2")]
    if checked:
        bots = [CheckedBot(b) for b in bots]
    return play_match(rules, state, bots, f"{seed}".encode(), on_turn=every_order_accepted if checked else None)


# -- legal orders, whole matches ----------------------------------------------------------------

pairings = st.sampled_from([("objective", "objective"), ("objective", "random"),
                            ("random", "objective"), ("random", "random")])


@pytest.mark.parametrize("examples", soak_but([150, 20], 20))
def test_every_order_of_a_match_is_accepted_and_the_match_ends(examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        seed=st.integers(0, 10**9),
        kinds=pairings,
        movement=st.sampled_from(list(Neighbourhood)),
        coins=st.integers(0, 6),
        cheap=st.booleans(),
    )
    def walk(
        seed: int, kinds: tuple[str, str], movement: Neighbourhood, coins: int, cheap: bool
    ) -> None:
        # Cheap skills and starting coins make the captains buy (and the players teleport) often.
        costs = {f"cost_{k.value}": 0 for k in Skill} if cheap else {}
        rules, state = start(GvgSettings(movement=movement, **costs))  # type: ignore[arg-type]
        state.coins = [coins, coins]
        result = play(kinds, seed, rules, state)
        assert result.state.finished
        assert result.turns <= rules.settings.max_turns
        assert result.state.turn <= rules.settings.max_turns

    walk()


@st.composite
def any_state(draw: st.DrawFn) -> tuple[GvgRules, GvgState]:
    """A state as odd as the rules allow: players anywhere, HP, coins, cooldowns, trees, knock-downs."""
    movement = draw(st.sampled_from(list(Neighbourhood)))
    rules, state = start(GvgSettings(movement=movement, carrier_contested_steps=draw(st.integers(0, 1))))
    state.turn = draw(st.integers(1, rules.settings.max_turns))
    for p in state.players:
        p.at = draw(st.sampled_from(ENTERABLE[p.team]))
        if state.turn > 1 and draw(st.integers(0, 3)) == 0:
            p.status, p.down_turn = Status.KNOCKED_DOWN, state.turn - 1
    for s in state.structures.values():
        s.hp = draw(st.integers(0, s.max_hp))
    state.coins = [draw(st.integers(0, 7)), draw(st.integers(0, 7))]
    state.ballista = [draw(st.integers(0, 3)), draw(st.integers(0, 3))]
    for team in (0, 1):
        for skill in Skill:
            if draw(st.booleans()):
                state.cooldowns[team][skill] = draw(st.integers(max(1, state.turn - 5), state.turn))
    for tree in state.trees:
        assert tree is not None
        where = draw(st.sampled_from(["fish", "dropped", "carried"]))
        carriers = [p for p in state.players if p.team != tree.team and p.status is Status.ACTIVE
                    and all(t is None or t.carrier != p.name for t in state.trees)]
        if where == "dropped":
            tree.at = draw(st.sampled_from(ENTERABLE[1 - tree.team]))
        elif where == "carried" and carriers:
            carrier = draw(st.sampled_from(carriers))
            tree.carrier, tree.at = carrier.name, carrier.at
    state.jungle = {c for c in BOARD.coin_tiles if draw(st.booleans())}
    if draw(st.booleans()):
        state.boss = Boss(draw(st.sampled_from(BOARD.boss_tiles)), draw(st.integers(1, 3)))
    return rules, state


@pytest.mark.parametrize("examples", soak_but([200, 25], 25))
def test_bots_give_only_accepted_orders_from_any_state(examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(case=any_state(), kinds=pairings, seed=st.integers(0, 10**6), dice_seed=st.binary(min_size=1, max_size=8))
    def walk(
        case: tuple[GvgRules, GvgState], kinds: tuple[str, str], seed: int, dice_seed: bytes
    ) -> None:
        rules, state = case
        dice = TurnDice(dice_seed, state.turn)
        team_orders = []
        for team, kind in enumerate(kinds):
            team_orders.append(CheckedBot(KINDS[kind](seed)).orders(rules, state, team, dice))
        checked = check_orders(rules, state, merge_orders(team_orders[0], team_orders[1]), dice)
        assert not checked.rejected, [f"{c.subject} {c.part}: {c.message}" for c in checked.rejected]

    walk()


SMALL_MAPS = {
    "one row, one side without structures": "base1 stair1 . coin bulwark2 fish2 stair2 base2",
    "no bulwarks": """
        base1 stair1 .    .    .
        .     fish1  wall coin .
        .     .      boss .    .
        .     coin   wall fish2 .
        .     .      .    stair2 base2
    """,
    "walls and lanes": """
        wall  base1    wall  .     .
        .     stair1   .     coin  .
        .     bulwark1 wall  fish1 .
        boss  .        wall  .     boss
        .     bulwark2 wall  fish2 .
        .     stair2   .     coin  .
        wall  base2    wall  .     .
    """,
}


@pytest.mark.parametrize("text", SMALL_MAPS.values(), ids=SMALL_MAPS.keys())
@pytest.mark.parametrize("movement", list(Neighbourhood))
def test_bots_play_legal_whole_matches_on_small_maps(text: str, movement: Neighbourhood) -> None:
    board = GvgMap.from_text(text)
    rules = GvgRules(board, GvgSettings(movement=movement, max_turns=40, cost_tree_speed=0, cost_ballista=0))
    roster = [RosterEntry("Ann", "red", "dps"), RosterEntry("Hal", "red", "healer"),
              RosterEntry("Bo", "blue", "tank"), RosterEntry("Cy", "blue", "healer")]
    for i, kinds in enumerate([("objective", "objective"), ("objective", "random"), ("random", "objective")]):
        state = new_match(board, TEAMS, roster, rules.settings)
        state.coins = [3, 3]
        result = play(kinds, f"small{i}", rules, state)
        assert result.state.finished


# -- playing to win -----------------------------------------------------------------------------


def test_objective_bot_beats_random_bot_in_a_clear_majority() -> None:
    rules, state = start()
    wins = captures = 0
    for i in range(20):
        slot = i % 2  # the objective bot plays both sides
        kinds = ("objective", "random") if slot == 0 else ("random", "objective")
        result = play(kinds, f"duel{i}", rules, state, checked=False)
        if result.state.winner == slot:
            wins += 1
            captures += result.state.turn < rules.settings.max_turns
    assert wins >= 16, f"the objective bot won only {wins} of 20"
    assert captures >= wins // 2, "most wins should be tree captures, not the turn limit"


def test_objective_bots_use_the_whole_rulebook() -> None:
    """Over a few mirror matches: skills, teleports, revives, buffs, pickups and captures all happen."""
    rules, state = start()
    kinds_seen: set[Enum] = set()
    skills_seen: set[str] = set()
    actions_seen: set[Action] = set()

    def watch(orders: TurnOrders, res: Resolution[GvgState]) -> None:
        every_order_accepted(orders, res)
        actions_seen.update(o.action for o in orders.players.values())
        for event in res.events:
            kinds_seen.add(event.kind)
            if event.kind is EventKind.SKILL_ACTIVATED:
                skills_seen.add(event.data["skill"])

    for i in range(12):
        play_match(rules, state, [ObjectiveBot(f"m{i}a"), ObjectiveBot(f"m{i}b")], b"mirror%d" % i, on_turn=watch)
    assert {EventKind.TELEPORTED, EventKind.REVIVED, EventKind.TREE_PICKED_UP, EventKind.MATCH_WON,
            EventKind.STRUCTURE_DESTROYED, EventKind.COIN_TAKEN} <= kinds_seen
    assert {"bulwark_damage", "fish_damage", "city_protection", "ballista"} <= skills_seen
    assert {Action.BUFF, Action.REVIVE, Action.PICKUP} <= actions_seen


def test_an_objective_bot_that_never_buys_skills_keeps_its_coins_and_plays_legally() -> None:
    rules, state = start()
    state.coins = [5, 5]  # enough for Tree Speed, City Protection, Ballista from turn 1
    bought: list[str] = []

    def watch(orders: TurnOrders, res: Resolution[GvgState]) -> None:
        every_order_accepted(orders, res)
        bought.extend(e.data["team"] for e in res.events if e.kind is EventKind.SKILL_ACTIVATED)

    for i in range(3):
        bots = [CheckedBot(ObjectiveBot(f"n{i}a", buys_skills=False)), CheckedBot(ObjectiveBot(f"n{i}b"))]
        result = play_match(rules, state, bots, b"thrift%d" % i, on_turn=watch)
        assert result.state.finished
    assert "blue" in bought, "the shopping captain should buy now and then"
    assert "red" not in bought, "the captain that never buys skills bought one"


# -- determinism --------------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(seed=st.one_of(st.integers(0, 10**9), st.text(min_size=1, max_size=10)), kinds=pairings)
def test_the_same_seeds_give_the_same_match(seed: int | str, kinds: tuple[str, str]) -> None:
    rules, state = start()
    first = play(kinds, seed, rules, state, checked=False)
    second = play(kinds, seed, rules, state, checked=False)
    assert first.state.to_json() == second.state.to_json()
    assert (first.turns, first.events) == (second.turns, second.events)
    assert state.turn == 1 and not state.finished, "playing must not change the starting state"


def test_different_bot_seeds_vary_the_play() -> None:
    rules, state = start()
    ends = {repr(play(("random", "random"), f"s{i}", rules, state, checked=False).state.to_json())
            for i in range(3)}
    assert len(ends) == 3


# -- the small helpers --------------------------------------------------------------------------


def test_merge_orders_puts_each_team_in_its_slot() -> None:
    a = TeamOrders({"red0": PlayerOrder(move=Coord(1, 1))}, (Skill.PLAYER_SPEED,))
    b = TeamOrders({"blue0": PlayerOrder(action=Action.PICKUP)}, (Skill.BALLISTA, Skill.FISH_DAMAGE))
    merged = merge_orders(a, b)
    assert dict(merged.players) == {"red0": PlayerOrder(move=Coord(1, 1)), "blue0": PlayerOrder(action=Action.PICKUP)}
    assert merged.skills == ((Skill.PLAYER_SPEED,), (Skill.BALLISTA, Skill.FISH_DAMAGE))
    assert merge_orders(TeamOrders(), TeamOrders()) == TurnOrders()


def test_play_match_stops_after_max_turns_and_counts_what_it_did() -> None:
    rules, state = start()
    seen: list[Resolution[GvgState]] = []
    result = play_match(rules, state, [RandomBot(1), RandomBot(2)], b"seed", max_turns=5,
                        on_turn=lambda _o, res: seen.append(res))
    assert result.turns == 5 == len(seen)
    assert result.state.turn == 6 and not result.state.finished
    assert result.events == sum(len(r.events) for r in seen)
    state_out, events, turns = result  # a plain tuple too
    assert (state_out, events, turns) == (result.state, result.events, result.turns)


def test_knocked_down_players_get_no_order() -> None:
    rules, state = start()
    state.turn = 2
    for p in state.players[:3]:
        p.status, p.down_turn = Status.KNOCKED_DOWN, 1
    dice = TurnDice(b"kd", 2)
    for bot in (ObjectiveBot(3), RandomBot(3)):
        orders = bot.orders(rules, state, 0, dice)
        assert set(orders.players) == {"red3", "red4"}


def start_carrying() -> tuple[GvgRules, GvgState, Player]:
    """A new match where red0 stands on blue's fish carrying blue's tree."""
    rules, state = start()
    carrier = state.player("red0")
    carrier.at = BOARD.fish[1] or Coord(0, 0)
    tree = state.trees[1]
    assert tree is not None
    tree.carrier, tree.at = carrier.name, carrier.at
    return rules, state, carrier


def test_a_carrier_heads_home_and_the_team_escorts_it() -> None:
    rules, state, carrier = start_carrying()
    dice = TurnDice(b"carry", 1)
    orders = ObjectiveBot(7).orders(rules, state, 0, dice)
    home = BOARD.distances(0, rules.settings.movement, BOARD.bases[0][0])
    dest = orders.players["red0"].move
    assert dest is not None and home[dest] == home[carrier.at] - rules.settings.carrier_steps


def test_a_carrier_with_coins_buys_tree_speed_and_goes_twice_as_far() -> None:
    rules, state, carrier = start_carrying()
    state.coins = [2, 0]
    orders = ObjectiveBot(7).orders(rules, state, 0, TurnDice(b"carry", 1))
    assert orders.skills == (Skill.TREE_SPEED,)
    home = BOARD.distances(0, rules.settings.movement, BOARD.bases[0][0])
    dest = orders.players["red0"].move
    assert dest is not None and home[dest] == home[carrier.at] - 2 * rules.settings.carrier_steps


def test_players_waiting_on_base_ride_the_ballista_next_to_the_target() -> None:
    rules, state = start()
    state.ballista = [2, 0]
    orders = ObjectiveBot(1).orders(rules, state, 0, TurnDice(b"ballista", 1))
    spots = [o.teleport for o in orders.players.values() if o.teleport is not None]
    assert len(spots) == 2
    bulwarks = BOARD.bulwarks[1]
    for spot in spots:
        assert any(max(abs(spot.col - b.col), abs(spot.row - b.row)) == 1 for b in bulwarks), spot
    assert not check_orders(rules, state, merge_orders(orders, TeamOrders()), TurnDice(b"ballista", 1)).rejected


def test_a_healer_revives_an_ally_who_fell_far_from_base() -> None:
    rules, state = start()
    state.turn = 2
    healer, fallen = state.player("red4"), state.player("red0")
    healer.at, fallen.at = Coord.parse("H10"), Coord.parse("H11")
    fallen.status, fallen.down_turn = Status.KNOCKED_DOWN, 1
    orders = ObjectiveBot(2).orders(rules, state, 0, TurnDice(b"revive", 2))
    order = orders.players["red4"]
    assert order.action is Action.REVIVE
    spot = order.move or healer.at
    assert max(abs(spot.col - fallen.at.col), abs(spot.row - fallen.at.row)) <= 1


def test_a_tank_defends_a_bulwark_an_enemy_stands_on() -> None:
    rules, state = start()
    bulwark = BOARD.bulwarks[0][0]
    state.player("blue0").at = bulwark
    state.player("red2").at = Coord(bulwark.col, bulwark.row + 1)  # a tank, next to it
    state.player("red0").at = Coord(bulwark.col, bulwark.row + 2)  # a DPS, one step farther
    orders = ObjectiveBot(3).orders(rules, state, 0, TurnDice(b"defend", 1))
    assert orders.players["red2"].move == bulwark
    assert orders.players["red0"].move != bulwark, "one enemy: one defender; the DPS attacks"


def test_the_geometry_empties_its_best_step_tables_when_full_and_answers_the_same() -> None:
    """Best steps and each job's step orders are kept up to a bound, then emptied in place (a job keeps its table)."""
    rules, _ = start()
    full, fresh = Geometry(BOARD, rules.settings.movement), Geometry(BOARD, rules.settings.movement)
    full._MAX_STEPS_CACHED = 3
    target = BOARD.fish[1] or Coord(0, 0)
    job = full.job(0, target, Action.ACT, True, True)
    assert full.job(0, target, Action.ACT, True, True) is job  # made once
    starts = [c for c in ENTERABLE[0] if 2 < job.goal.get(c, 0) < 20][:6]
    for start_ in starts:
        for k in (1, 2):
            moves = full.moves(0, job, start_, k)
            assert [t for t, _ in moves] == fresh.best_steps(0, start_, k, target, fresh.dist(0, target))
            assert all(o.move == t and o.action is Action.ACT for t, o in moves)
            assert len(job.moves) + sum(len(p) for per in full._paths for p in per.values()) <= 3
