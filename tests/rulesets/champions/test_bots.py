"""The bots: legal orders every window (the conformance test plays whole matches), and each plays its strategy."""

from __future__ import annotations

from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.enums import CLASSES, Phase
from sheets_gm.rulesets.champions.figures import equipment_style
from sheets_gm.rulesets.champions.orders import Orders
from sheets_gm.rulesets.champions.state import Player
from sheets_gm.rulesets.registry import bots_of
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
