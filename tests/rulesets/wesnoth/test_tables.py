"""The unit and faction tables: pawns as the rulebook reads them, and bad cells named by line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sheets_gm.rulesets.wesnoth.pawns import PAWN_COLUMNS, pawn_rows
from sheets_gm.rulesets.wesnoth.tables import Alignment, Kind, TableError, default_tables, load_tables
from sheets_gm.rulesets.wesnoth.terrain import Terrain, d6_defence
from tests.paths import WESNOTH_TEMPLATES


def test_defence_scores_follow_the_rulings_bands() -> None:
    assert [d6_defence(c) for c in (100, 75, 74, 58, 57, 42, 41, 25, 24, 0, -30)] == [2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 5]


def test_a_pawn_reads_like_the_rulebook() -> None:
    spearman = default_tables().units["Spearman"]
    assert spearman.defence(Terrain.PLAIN) == 3 and spearman.defence(Terrain.CITY) == 5
    assert spearman.move_cost(Terrain.WATER) == 3
    assert default_tables().units["Heavy Infantryman"].move_cost(Terrain.MOUNTAIN) is None
    assert [a.kind for a in default_tables().units["Mage"].attacks] == [Kind.MELEE, Kind.MAGICAL]
    assert spearman.attack_named("SPEAR") is spearman.attacks[0]
    assert default_tables().units["Orcish Archer"].attack_named("bow") is None  # two bows: name the type


def test_alignment_by_faction_and_by_unit() -> None:
    tables = default_tables()
    thief = tables.units["Thief"]
    assert tables.board_alignment(thief, by_faction=True) is Alignment.NEUTRAL
    assert tables.board_alignment(thief, by_faction=False) is Alignment.CHAOTIC
    assert tables.board_alignment(tables.units["Mage"], by_faction=True) is Alignment.LAWFUL


def test_mercenaries_are_other_factions_recruits() -> None:
    tables = default_tables()
    mercenaries = tables.mercenaries("Loyalists")
    assert "Orcish Grunt" in mercenaries and "Spearman" not in mercenaries and "Mage" not in mercenaries
    assert all(tables.units[m].level <= 1 for m in mercenaries)


def _copy(tmp_path: Path) -> Path:
    for name in ("units.csv", "factions.csv"):
        shutil.copy(WESNOTH_TEMPLATES / name, tmp_path / name)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(("file", "old", "new", "message"), [
    ("units.csv", "Spearman,1,lawful,14,36", "Spearman,1,lawful,14,lots", r"units.csv line \d+, hitpoints: 'lots'"),
    ("units.csv", "spear:melee:pierce:7x3", "spear:melee:pierce:7", r"units.csv line \d+: attack 'spear:melee"),
    ("units.csv", "Spearman,1,lawful", "Spearman,1,sunny", r"units.csv line \d+, alignment: 'sunny'"),
    ("factions.csv", "Cavalryman, Horseman", "Cavalryman, Hoarseman", r"factions.csv line 2: Loyalists names "
                                                                      "'Hoarseman'"),
    ("units.csv", "type,level", "kind,level", r"units.csv line 1: the header lacks type"),
])
def test_bad_table_cells_name_the_line(tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    folder = _copy(tmp_path)
    _edit(folder / file, old, new)
    with pytest.raises(TableError, match=message):
        load_tables(folder)


def test_pawn_rows_follow_the_order_given_once_each() -> None:
    rows = pawn_rows(default_tables(), ["Heavy Infantryman", "Mage", "Heavy Infantryman", "Nobody"])
    assert [r[0] for r in rows] == ["Heavy Infantryman", "Mage"]
    heavy = dict(zip(PAWN_COLUMNS, rows[0], strict=True))
    assert heavy["move mountain"] == "-" and heavy["takes blade"] == "50%" and heavy["alignment"] == "lawful"
