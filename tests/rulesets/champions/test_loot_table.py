"""The loot file a GM edits: the shipped one reads, and every mistake names the line and what is accepted."""

from __future__ import annotations

import pytest

from sheets_gm.rulesets.champions.enums import ItemType, Tier, TileClass
from sheets_gm.rulesets.champions.items import Dice, LootTableError, loot_table_from_text
from tests.paths import ROOT

SHIPPED = ROOT / "templates" / "champions" / "loot.yaml"


def test_the_shipped_table_has_items_of_every_type_and_tier() -> None:
    table = loot_table_from_text(SHIPPED.read_text(encoding="utf-8"), str(SHIPPED))
    for kind in ItemType:
        assert {i.tier for i in table.items.values() if i.type is kind} == set(Tier), kind
    weights = table.tier_weights
    centre, corner = weights[TileClass.CENTRE], weights[TileClass.CORNER]
    assert centre[Tier.LEGENDARY] > weights[TileClass.EDGE][Tier.LEGENDARY] > corner[Tier.LEGENDARY]
    assert table.get("Plate Armour") is not None and table.get("Iron Sword") is not None


def test_the_table_round_trips_through_its_text() -> None:
    table = loot_table_from_text(SHIPPED.read_text(encoding="utf-8"))
    again = loot_table_from_text(table.to_text())
    assert again.items == table.items and again.tier_weights == table.tier_weights


@pytest.mark.parametrize(("text", "expected"), [
    ("items:\n  - {name: Sword, type: blade, tier: common, dice: 1d8}\n",
     "loot.yaml:2: unknown item type of Sword 'blade'; use physical, magical, defensive or support"),
    ("items:\n  - {name: Sword, type: physical, tier: common, dice: 2d8}\n",
     "loot.yaml:2: dice '2d8': write one die of 2 to 100 faces and an optional bonus, like 1d8 or 1d8+2"),
    ("items:\n  - {name: Vest, type: defensive, tier: common, dice: 1d4}\n",
     "loot.yaml:2: Vest is defensive: give its weight, light, medium or heavy"),
    ("items:\n  - {name: Sword, type: physical, tier: common, dice: 1d8, weight: heavy}\n",
     "loot.yaml:2: Sword is physical: only defensive items have a weight"),
    ("items:\n  - {name: A, type: physical, tier: common, dice: 1d8}\n  - {name: A, type: magical, tier: rare, "
     "dice: 1d8}\n", "loot.yaml:3: item 'A' is listed twice"),
    ("items:\n  - {name: Iron Sword, type: physical, tier: common, dice: 1d8}\n  - {name: iron sword, type: "
     "physical, tier: rare, dice: 1d10}\n",
     "loot.yaml:3: item 'iron sword' is listed twice (as 'Iron Sword': names are read whatever their case)"),
    ("tier_weights:\n  corner: {common: 0}\nitems:\n  - {name: A, type: physical, tier: common, dice: 1d8}\n",
     "loot.yaml:2: the weights of corner tiles add up to 0"),
    ("tier_weights:\n  corner: {common: 1}\nitems:\n  - {name: A, type: physical, tier: common, dice: 1d8}\n",
     "tier_weights has no edge"),
    ("items: []\n", "loot.yaml:1: items must be a list of at least one item"),
    ("loot: []\n", "loot.yaml:1: unknown key 'loot'; known keys: tier_weights, items"),
])
def test_mistakes_name_the_line(text: str, expected: str) -> None:
    with pytest.raises(LootTableError) as caught:
        loot_table_from_text(text, "loot.yaml")
    assert expected in str(caught.value)


def test_dice_read_and_print() -> None:
    assert Dice.parse(" 1D10 + 2 ") == Dice(10, 2)
    assert str(Dice(8, 0)) == "1d8"


def test_an_item_is_found_whatever_the_case_of_its_name() -> None:
    table = loot_table_from_text("items:\n  - {name: Iron Sword, type: physical, tier: common, dice: 1d8}\n")
    found = table.find("  iRoN sWoRd ")
    assert found is not None and found.name == "Iron Sword"
    assert table.find("Iron Swords") is None
