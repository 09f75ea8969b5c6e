"""The bots: legal orders every window (the conformance test plays whole matches), and each plays its strategy."""

from __future__ import annotations

from sheets_gm.engine.dice import TurnDice
from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.enums import CLASSES, EventKind, Phase
from sheets_gm.rulesets.champions.figures import equipment_style
from sheets_gm.rulesets.champions.orders import Orders, PlayerOrders
from sheets_gm.rulesets.champions.state import ChampionsState, Player
from sheets_gm.rulesets.registry import bots_of, create_ruleset
from tests.rulesets.champions.conftest import at, state_of

BAG = ("Iron Sword", "Oak Staff", "Banner", "Plate Armour", "Leather Armour", "Spellbook")


def orders_of(rules: ChampionsRuleset, kind: str, player: Player, *others: Player) -> Orders:
    state = state_of(player, *others, phase=Phase.FIGHT)
    bot = bots_of(rules)[kind].make("test")
    orders: Orders = bot.orders(state, player.name, rules.dice(b"bots", state))
    assert all(v.accepted for v in rules.check(state, orders, rules.dice(b"bots", state))), kind
    return orders


def test_the_affinity_bot_equips_by_affinity(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("A1"), bag=BAG)
    orders = orders_of(rules, "affinity", ann)
    after = rules.resolve(state_of(ann, phase=Phase.FIGHT), orders, rules.dice(b"x", state_of(ann))).state
    equipped = after.players[0]
    assert equipment_style(rules.rules.table, equipped) == "affinity"
    assert "Plate Armour" in equipped.items_of(CLASSES[0])  # heavy armour on the Gladiator


def test_every_bot_fields_living_champions_and_legal_sets_against_a_tile_mate(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("A1"), health=(0, 40, 85, 80), bag=BAG)
    bo = Player("Bo", at("A1"))
    for kind in bots_of(rules):
        orders = orders_of(rules, kind, ann, bo)
        part = orders.players["Ann"]
        assert part.field and "gladiator" not in part.field[0]


def test_out_players_give_no_orders(rules: ChampionsRuleset) -> None:
    out = Player("Ann", None, health=(0, 0, 0, 0), out_round=1)
    state = state_of(out, Player("Bo", at("A1")))
    for kind in bots_of(rules):
        assert bots_of(rules)[kind].make("s").orders(state, "Ann", rules.dice(b"x", state)) == Orders()



class _Learner:
    """A person practising as the learner of issue 54 played: she stays on her tile and loots it (her orders
    otherwise the affinity bot's)."""

    def __init__(self, seed: str) -> None:
        self.inner = bots_of(create_ruleset("champions"))["affinity"].make(seed)

    def orders(self, state: ChampionsState, seat: str, dice: TurnDice) -> Orders:
        mine: Orders = self.inner.orders(state, seat, dice)
        if state.phase is Phase.MOVE and seat in mine.players:
            return Orders({seat: PlayerOrders(move="stay", loot=mine.players[seat].loot)})
        return mine


def _fight_rounds(bot: str, matches: int = 4, rounds: int = 15) -> tuple[int, int]:
    """(rounds with a battle, rounds played) of two-player practice matches of up to ``rounds`` rounds: Ann the
    learner, Bo played by ``bot``."""
    from sheets_gm.engine.ruleset import Roster

    rules = create_ruleset("champions")
    fought = played = 0
    for i in range(matches):
        seed = f"practice/{i}".encode()
        state = rules.new_match(Roster(("Ann", "Bo")), seed)
        players = {"Ann": _Learner(f"ann/{i}"), "Bo": bots_of(rules)[bot].make(f"bo/{i}")}
        for _ in range(2 * rounds):
            window = rules.window(state)
            if window is None:
                break
            dice = rules.dice(seed, state)
            res = rules.resolve(state, rules.merge_orders({s: players[s].orders(state, s, dice)
                                                          for s in window.seats}), dice)
            fought += any(e.kind is EventKind.BATTLE for e in res.events)
            played += state.phase is Phase.FIGHT
            state = res.state
    return fought, played


def test_the_practice_bot_comes_to_fight_the_learner() -> None:
    """Issue 54: against the default bot, which shuns a rival's tile, a learner who loots where she stands met no
    fight; practice seats ``seek``, which comes to her tile, so that she learns the fights too (the fingerprints'
    bot-vs-bot matches leave it out)."""
    from sheets_gm.commands.init import practice_files

    assert 'Bo = "seek"' in practice_files("champions")[0]
    assert bots_of(create_ruleset("champions"))["seek"].tutor
    assert _fight_rounds("affinity")[0] <= 2
    fought, played = _fight_rounds("seek")
    assert fought >= 0.8 * played, (fought, played)
