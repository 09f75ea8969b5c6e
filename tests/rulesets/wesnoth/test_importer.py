"""The unit converter against Wesnoth's WML: the shipped table is what it makes, and agrees with units.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sheets_gm.rulesets.wesnoth.importer import convert
from sheets_gm.rulesets.wesnoth.tables import load_tables
from sheets_gm.rulesets.wesnoth.terrain import WESNOTH_KEY, Terrain
from sheets_gm.rulesets.wesnoth.wml import Preprocessor, WmlError, parse
from tests.paths import WESNOTH_SHARED, WESNOTH_TEMPLATES

WML = WESNOTH_SHARED / "wml"


def test_the_shared_wesnoth_data_is_found() -> None:
    assert (WESNOTH_SHARED / "units.json").is_file(), (
        f"no Wesnoth reference data at {WESNOTH_SHARED}: the tests look for shared/wesnoth beside the clone or "
        "above it; set SHEETS_GM_SHARED to the shared folder")


@pytest.fixture(scope="module")
def converted() -> tuple[str, str]:
    result = convert(WML)
    return result.units_csv, result.factions_csv


def test_the_shipped_tables_are_the_converters_output(converted: tuple[str, str]) -> None:
    units, factions = converted
    assert (WESNOTH_TEMPLATES / "units.csv").read_text(encoding="utf-8") == units
    assert (WESNOTH_TEMPLATES / "factions.csv").read_text(encoding="utf-8") == factions


def test_every_unit_agrees_with_units_json() -> None:
    reference = {u["id"]: u for u in json.loads((WESNOTH_SHARED / "units.json").read_text(encoding="utf-8"))["units"]}
    tables = load_tables(WESNOTH_TEMPLATES)
    assert set(tables.units) == set(reference)
    for name, unit in tables.units.items():
        ref = reference[name]
        assert (unit.level, unit.alignment.value, unit.hitpoints, unit.moves) == \
            (ref["level"], ref["alignment"], ref["hitpoints"], ref["movement"]), name
        assert list(unit.factions) == ref["factions"], name
        assert list(unit.advances_to) == [a for a in ref["advances_to"] if a in reference], name
        assert [(a.name, a.range, a.damage_type, a.damage, a.swings, a.magical) for a in unit.attacks] == \
            [(a["name"], a["range"], a["type"], a["damage"], a["number"], "magical" in a["specials"])
             for a in ref["attacks"]], name
        for terrain, key in WESNOTH_KEY.items():
            assert unit.move_costs[Terrain(terrain)] == ref["movement_costs"][key], (name, key)
            assert unit.chance_to_be_hit[Terrain(terrain)] == ref["defense"][key], (name, key)
        assert unit.resistance == ref["resistance"], name


def test_the_factions_agree_with_factions_json() -> None:
    reference = json.loads((WESNOTH_SHARED / "factions.json").read_text(encoding="utf-8"))["factions"]
    tables = load_tables(WESNOTH_TEMPLATES)
    for ref in reference:
        faction = tables.factions[ref["id"]]
        assert list(faction.leaders) == ref["leader"]
        assert list(faction.recruits) == ref["recruit"]


def test_the_default_era_is_read_from_its_era_definition() -> None:
    assert convert(WML, era="era_default").units_csv == convert(WML).units_csv


def test_a_missing_folder_is_an_error_not_a_crash(tmp_path: Path) -> None:
    with pytest.raises(WmlError, match="cannot be read"):
        convert(tmp_path / "nowhere")


def test_a_broken_unit_file_names_its_line(tmp_path: Path) -> None:
    pre = Preprocessor()
    with pytest.raises(WmlError, match=r"x\.cfg:4: \[unit_type\] \(line 1\) is closed by \[/attack\]"):
        parse(pre.expand_file("[unit_type]\n  id=X\n  hitpoints=3\n[/attack]\n", "x.cfg"), "x.cfg")
    with pytest.raises(WmlError, match=r"x\.cfg:2: expected key=value"):
        parse(pre.expand_file("[unit_type]\n  hitpoints 3\n[/unit_type]\n", "x.cfg"), "x.cfg")
    with pytest.raises(WmlError, match=r"x\.cfg:1: \[unit_type\] is never closed"):
        parse(pre.expand_file("[unit_type]\n  id=X\n", "x.cfg"), "x.cfg")


def test_line_numbers_survive_macro_expansion() -> None:
    pre = Preprocessor()
    pre.define_from("#define TWO\n  a=1\n  b=2\n#enddef\n", "m.cfg")
    with pytest.raises(WmlError, match=r"x\.cfg:3: "):
        parse(pre.expand_file("[u]\n{TWO}\n  oops\n[/u]\n", "x.cfg"), "x.cfg")


def test_macro_arguments_and_conditionals() -> None:
    pre = Preprocessor()
    pre.define_from("#define HP N\nhitpoints={N}#enddef\n#define OPT\n#arg X\n5\n#endarg\nx={X}\n#enddef\n", "m.cfg")
    text = "[u]\n{HP 36}\n{OPT}\n{OPT X=7}\n#ifdef HP\nyes=1\n#else\nno=1\n#endif\n[/u]\n"
    node = parse(pre.expand_file(text, "x.cfg"), "x.cfg").first("u")
    assert node is not None
    assert node.attrs == {"hitpoints": "36", "x": "7", "yes": "1"}
    with pytest.raises(WmlError, match="macro HP takes 1 arguments"):
        pre.expand_file("{HP}", "y.cfg")
