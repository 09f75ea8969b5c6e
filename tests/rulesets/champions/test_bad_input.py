"""Bad orders: each refused with a message naming the row and what would be accepted; nothing changes."""

from __future__ import annotations

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import Verdict
from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.enums import CLASSES, Phase
from sheets_gm.rulesets.champions.orders import Orders, PlayerOrders
from sheets_gm.rulesets.champions.state import ChampionsState, Player
from tests.rulesets.champions.conftest import at, state_of

SEED = b"bad input"


def refused(rules: ChampionsRuleset, state: ChampionsState, orders: PlayerOrders, name: str = "Ann") -> list[Verdict]:
    """The refused verdicts of ``orders`` for ``name``."""
    found = rules.check(state, Orders({name: orders}), rules.dice(SEED, state))
    return [v for v in found if not v.accepted]


def two_players(ann: Player | None = None, phase: Phase = Phase.FIGHT, size: int = 3) -> ChampionsState:
    fillers = [Player(n, at(t)) for n, t in (("Cy", "C3"), ("Di", "C1"), ("Ed", "A3"))] if size == 3 else []
    return state_of(ann or Player("Ann", at("B2")), Player("Bo", at("B2")), *fillers, size=size, phase=phase)


def test_a_move_of_two_tiles_names_the_tiles_she_may_move_to(rules: ChampionsRuleset) -> None:
    state = two_players(Player("Ann", at("A1")), phase=Phase.MOVE)
    [v] = refused(rules, state, PlayerOrders(move="C3"))
    assert (v.seat, v.subject, v.part) == ("Ann", "Ann", "move")
    assert "C3 is 2 tiles from A1" in v.message
    assert "move to a tile next to A1 (B1, A2, B2) or stay" in v.message
    after = rules.resolve(state, Orders({"Ann": PlayerOrders(move="C3")}), rules.dice(SEED, state)).state
    assert after.player("Ann").at == at("A1")  # type: ignore[union-attr]


def test_a_move_that_is_no_tile_or_off_the_grid(rules: ChampionsRuleset) -> None:
    state = two_players(Player("Ann", at("C3")), phase=Phase.MOVE)
    [v] = refused(rules, state, PlayerOrders(move="north"))
    assert "'north' is not a tile" in v.message and "or stay" in v.message
    [v] = refused(rules, state, PlayerOrders(move="D4"))
    assert "off the board" in v.message and "A1 to C3" in v.message


def test_a_fourth_looting_action_and_an_unknown_loot_word(rules: ChampionsRuleset) -> None:
    state = two_players(phase=Phase.MOVE)
    bad = refused(rules, state, PlayerOrders(loot=("any", "swords", "physical", "magical", "support")))
    assert [v.part for v in bad] == ["loot 2", "loot 5"]
    assert "unknown looting action 2 'swords'; use physical, magical, defensive, support or any" in bad[0].message
    assert "looting action 5 (support) is one too many: 3 looting actions a round" in bad[1].message


def test_the_log_numbers_a_looting_action_as_her_feedback_does(rules: ChampionsRuleset) -> None:
    """Issue 54: after a refused looting action 1, her feedback's "looting action 2" is the Log's action 2 too."""
    state = two_players(phase=Phase.MOVE)
    orders = PlayerOrders(loot=("swords", "any", "physical"))
    accepted = [v.message for v in rules.check(state, Orders({"Ann": orders}), rules.dice(SEED, state))
                if v.accepted and v.part.startswith("loot")]
    assert accepted == ["looting action 2: any", "looting action 3: physical"]
    events = rules.resolve(state, Orders({"Ann": orders}), rules.dice(SEED, state)).events
    logged = [e.text.split(" (")[0] for e in events if e.text.startswith("Ann's looting action")]
    assert logged == ["Ann's looting action 2", "Ann's looting action 3"]


def test_an_item_not_in_the_bag_names_the_champion_and_the_bag(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("B2"), bag=("Iron Sword",), equipment=(("Oak Staff",), (), (), ()))
    state = two_players(ann)
    [v] = refused(rules, state, PlayerOrders(equip=(("gladiator", ("War Hammer",)),)))
    assert (v.subject, v.part) == ("Ann.gladiator", "equip")
    assert v.message == ("War Hammer is not in Ann's bag nor on one of Ann's champions; the bag holds Iron Sword. "
                         "The Gladiator keeps Oak Staff")
    after = rules.resolve(state, Orders({"Ann": PlayerOrders(equip=(("gladiator", ("War Hammer",)),))}),
                          rules.dice(SEED, state)).state.player("Ann")
    assert after is not None and after.equipment == ann.equipment and after.bag == ann.bag


def test_an_item_moves_from_a_champion_whose_row_is_not_typed_in_one_row(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("B2"), bag=(), equipment=(("Oak Staff",), ("Iron Sword",), (), ()))
    state = two_players(ann)
    orders = PlayerOrders(equip=(("gladiator", ("iron sword",)),))
    verdicts = {v.subject: v for v in rules.check(state, Orders({"Ann": orders}), rules.dice(SEED, state))}
    assert verdicts["Ann.gladiator"].accepted and verdicts["Ann.gladiator"].message == (
        "the Gladiator carries Iron Sword")
    giver = next(v for s, v in verdicts.items() if s != "Ann.gladiator" and v.part == "equip")
    assert giver.accepted and "gives Iron Sword to the Gladiator" in giver.message
    after = rules.resolve(state, Orders({"Ann": orders}), rules.dice(SEED, state)).state.player("Ann")
    assert after is not None and after.equipment[0] == ("Iron Sword",) and after.equipment[1] == ()
    assert after.bag == ("Oak Staff",)


def test_an_item_kept_by_a_champion_re_equipped_in_the_same_order_says_where_it_is(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("B2"), bag=(), equipment=((), ("Iron Sword",), (), ()))
    state = two_players(ann)
    orders = PlayerOrders(equip=(("gladiator", ("Iron Sword",)), (CLASSES[1].value, ("Iron Sword",))))
    refusals = [v for v in rules.check(state, Orders({"Ann": orders}), rules.dice(SEED, state)) if not v.accepted]
    assert len(refusals) == 1 and "Iron Sword is on the" in refusals[0].message
    assert "take it off the" in refusals[0].message


def test_several_items_in_one_cell_are_told_to_go_one_per_cell(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("B2"), bag=("Iron Sword", "Oak Staff"))
    state = two_players(ann)
    [v] = refused(rules, state, PlayerOrders(equip=(("gladiator", ("iron sword, oak staff",)),)))
    assert "names 2 items in one cell: write one item per cell (iron sword in this one, oak staff in the next)" \
        in v.message


def test_equipping_a_dead_champion_says_it_may_only_be_stripped(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("B2"), health=(0, 85, 85, 80), bag=("Iron Sword",), equipment=(("Banner",), (), (), ()))
    state = two_players(ann)
    [v] = refused(rules, state, PlayerOrders(equip=(("gladiator", ("Banner", "Iron Sword")),)))
    assert (v.subject, v.part) == ("Ann.gladiator", "equip")
    assert v.message == ("Ann's Gladiator is dead: it cannot be equipped, only stripped (equip it with none, or with "
                         "fewer of its items, and give them to a living champion in the same order). The Gladiator "
                         "keeps Banner")
    assert refused(rules, state, PlayerOrders(equip=(("gladiator", ()), ("rogue", ("banner",))))) == []


def test_too_many_items_on_a_champion(rules: ChampionsRuleset) -> None:
    items = ("Iron Sword", "Steel Axe", "Chainmail", "Banner", "Oak Staff")
    state = two_players(Player("Ann", at("B2"), bag=items))
    [v] = refused(rules, state, PlayerOrders(equip=(("rogue", items),)))
    assert "the Rogue carries at most 3 items (2 among physical, magical and support, and 1 defensive); " \
           "this lists 5" in v.message
    [v] = refused(rules, state, PlayerOrders(equip=(("rogue", ("Iron Sword", "Steel Axe", "Banner")),)))
    assert "at most 2 items among physical, magical and support; this lists 3" in v.message


def test_heavy_armour_on_the_rogue_and_medium_on_the_healer(rules: ChampionsRuleset) -> None:
    state = two_players(Player("Ann", at("B2"), bag=("Plate Armour", "Chainmail")))
    [v] = refused(rules, state, PlayerOrders(equip=(("Rogue", ("Plate Armour",)),)))
    assert (v.subject, v.part) == ("Ann.rogue", "equip")
    assert "Plate Armour is heavy armour: heavy armour goes only on the Gladiator; the Rogue may wear light or " \
           "medium armour" in v.message
    [v] = refused(rules, state, PlayerOrders(equip=(("healer", ("Chainmail",)),)))
    assert "the Healer cannot wear medium armour; the Healer may wear light armour" in v.message


def test_an_unknown_champion_in_an_equip_row(rules: ChampionsRuleset) -> None:
    [v] = refused(rules, two_players(), PlayerOrders(equip=(("paladin", ()),)))
    assert "unknown champion 'paladin'; use gladiator, rogue, mage or healer" in v.message


def test_a_set_with_actions_missing_uses_what_was_typed_and_names_the_rest(rules: ChampionsRuleset) -> None:
    state = two_players()
    first_only = Orders({"Ann": PlayerOrders(sets=(("gladiator", ("evade",)),))})
    [v] = [v for v in rules.check(state, first_only, rules.dice(SEED, state)) if v.part == "set"]
    assert v.accepted and v.message == (
        "the Gladiator will evade; attack healer mage rogue gladiator ×3 (Actions 2, 3 and 4 not typed: the "
        "default, attack healer mage rogue gladiator)")
    gap = Orders({"Ann": PlayerOrders(sets=(("gladiator", ("evade", "", "evade")),))})
    [v] = [v for v in rules.check(state, gap, rules.dice(SEED, state)) if v.part == "set"]
    assert v.accepted and "(Actions 2 and 4 not typed" in v.message


def test_a_typo_in_a_set_is_named_before_the_set_is_complete(rules: ChampionsRuleset) -> None:
    [v] = refused(rules, two_players(), PlayerOrders(sets=(("gladiator", ("atack",)),)))
    assert (v.subject, v.part) == ("Ann.gladiator", "set")
    assert v.message.startswith("action 1: ") and "Actions 2, 3 and 4 not typed" in v.message


def test_a_set_of_five_actions_is_refused_for_the_default_set(rules: ChampionsRuleset) -> None:
    [v] = refused(rules, two_players(), PlayerOrders(sets=(("gladiator", ("evade",) * 5),)))
    assert "a set is 4 actions, one per battle round; the Gladiator's set lists 5" in v.message
    assert "default set is used: 4 × attack healer mage rogue gladiator" in v.message


def test_a_heal_by_a_mage_names_what_a_mage_may_do(rules: ChampionsRuleset) -> None:
    """Issue 93, item 5: a Heal by a non-Healer is replaced by the default, as the rules say, yet its row read ✘ and
    ✔ at once and held her Ready. It is one answer, carried out (accepted), naming the rule and the default."""
    state = two_players()
    orders = Orders({"Ann": PlayerOrders(sets=(("mage", ("heal", "attack", "evade", "support")),))})
    [v] = [v for v in rules.check(state, orders, rules.dice(SEED, state)) if v.part == "set"]
    assert v.accepted, v
    assert "action 1 (heal): only the Healer heals; a Mage may attack, support or evade" in v.message
    assert "so attack healer mage rogue gladiator, the default, is fought instead" in v.message
    assert v.message.startswith("the Mage will attack healer mage rogue gladiator ×2; evade; support: ")


def test_an_unknown_action_word(rules: ChampionsRuleset) -> None:
    [v] = refused(rules, two_players(), PlayerOrders(sets=(("rogue", ("stab", "attack", "evade", "support")),)))
    assert "action 1: unknown action 'stab'; use attack, heal, support or evade" in v.message


def test_a_dead_champion_fielded_names_the_living_ones(rules: ChampionsRuleset) -> None:
    ann = Player("Ann", at("B2"), health=(100, 85, 0, 80))
    [v] = refused(rules, two_players(ann), PlayerOrders(field=(("mage", "gladiator"),)))
    assert (v.subject, v.part) == ("Ann", "field")
    assert "Ann's Mage is dead" in v.message
    assert "Ann's living champions: Gladiator, Rogue, Healer" in v.message
    assert "The default pairs fight" in v.message


def test_three_champions_in_a_group_and_a_champion_twice(rules: ChampionsRuleset) -> None:
    [v] = refused(rules, two_players(), PlayerOrders(field=(("mage", "gladiator", "rogue"),)))
    assert "a group of 3: each battle takes one or two champions a side" in v.message
    [v] = refused(rules, two_players(), PlayerOrders(field=(("mage",), ("mage", "rogue"))))
    assert "the Mage is named twice: each champion fights at most once a round" in v.message


def test_orders_of_the_other_window_and_of_strangers(rules: ChampionsRuleset) -> None:
    state = two_players(phase=Phase.MOVE)
    [v] = refused(rules, state, PlayerOrders(equip=(("gladiator", ()),)))
    assert v.part == "equip" and "not an order of the move and loot window" in v.message
    [v] = refused(rules, state, PlayerOrders(move="B2"), name="Zed")
    assert "there is no player 'Zed' in this match" in v.message


def test_an_out_player_gives_no_orders(rules: ChampionsRuleset) -> None:
    out = Player("Ann", None, health=(0, 0, 0, 0), out_round=1)
    state = two_players(out, phase=Phase.MOVE)
    [v] = refused(rules, state, PlayerOrders(move="B2"))
    assert "Ann is out" in v.message


def test_refused_orders_change_nothing(rules: ChampionsRuleset) -> None:
    state = two_players(Player("Ann", at("A1"), bag=("Plate Armour",)), phase=Phase.FIGHT)
    orders = Orders({"Ann": PlayerOrders(equip=(("rogue", ("Plate Armour",)),), field=(("nobody",),),
                                         sets=(("mage", ("heal",)),))})
    before = rules.state_codec.to_json(state)
    after = rules.resolve(state, orders, TurnDice(SEED, 2, die_sides=None)).state
    assert rules.state_codec.to_json(state) == before
    ann = after.player("Ann")
    assert ann is not None and ann.bag == ("Plate Armour",) and ann.equipment == ((), (), (), ())


def test_every_item_cell_that_names_no_item_is_named(rules: ChampionsRuleset) -> None:
    """An equip row with two cells naming no item answers both (the player mends them at once), not the first."""
    ann = Player("Ann", at("B2"), bag=("Iron Sword", "Oak Staff"))
    state = two_players(ann)
    [v] = refused(rules, state, PlayerOrders(equip=(("gladiator", ("Iron Sword", "iron sword, oak staff", "foo")),)))
    assert "'iron sword, oak staff' names 2 items in one cell" in v.message
    assert "there is no item 'foo' in the loot table" in v.message
    assert v.message.endswith("the bag holds Iron Sword, Oak Staff. The Gladiator keeps nothing"), v.message
