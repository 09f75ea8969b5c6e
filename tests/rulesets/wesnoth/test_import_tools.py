"""``sheets-gm wesnoth import-units`` and ``import-map``: Wesnoth's eras, an add-on, bad files, and a match that
plays with what they wrote."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.engine.ruleset import Member, Roster
from sheets_gm.engine.settings import SettingError, parse_settings, settings_to_mapping
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset
from sheets_gm.rulesets.wesnoth.settings import WesnothSettings
from sheets_gm.rulesets.wesnoth.tables import load_tables
from sheets_gm.running.run import configured_ruleset
from tests.paths import WESNOTH_SHARED, WESNOTH_TEMPLATES

WML = WESNOTH_SHARED / "wml"
MAPS = WESNOTH_SHARED / "maps"
FACTIONS = WML / "data" / "multiplayer" / "factions"

SQUIRE = """#textdomain knights
[unit_type]
    id=Squire
    name= _ "Squire"
    level=1
    alignment=lawful
    cost=13
    {KNIGHTS_HP 30}
    movement=7
    movement_type=mounted
    advances_to=Knight Captain
    [attack]
        name=lance
        range=melee
        type=pierce
        damage=6
        number=2
    [/attack]
[/unit_type]
"""
CAPTAIN = """[unit_type]
    id=Knight Captain
    level=2
    alignment=lawful
    cost=30
    hitpoints=48
    movement=5
    movement_type=smallfoot
    advances_to=null
    [resistance]
        blade=70
    [/resistance]
    [attack]
        name=sword
        range=melee
        type=blade
        damage=9
        number=3
    [/attack]
[/unit_type]
"""
ORDER = """[multiplayer_side]
    id=Order
    name= _"Order"
    leader=Knight Captain
    recruit=Squire,Spearman
[/multiplayer_side]
"""
MAIN = """#ifdef MULTIPLAYER
[era]
    id=era_knights
    name= _ "Knights"
    {~add-ons/Knights_Era/factions}
[/era]
#endif
"""


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def addon(tmp_path: Path) -> Path:
    """A small era add-on: its own macro, two units of its own and a faction that also recruits a core unit."""
    return write(tmp_path / "Knights_Era", {
        "_main.cfg": MAIN, "macros/hp.cfg": "#define KNIGHTS_HP N\n    hitpoints={N}\n#enddef\n",
        "units/squire.cfg": SQUIRE, "units/captain.cfg": CAPTAIN, "factions/order.cfg": ORDER})


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, " ".join(out.split()), " ".join(err.split())


def rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return {r["type"]: r for r in csv.DictReader(f)}


# --------------------------------------------------------------------------- Wesnoth's own data

def test_the_default_era_is_converted_to_the_shipped_tables(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "wesnoth", "import-units", WML, "--out", tmp_path / "default")
    assert (code, err) == (0, "")
    assert "wrote 155 units of 6 factions (Loyalists, Rebels, Northerners, Undead, Knalgan Alliance, Drakes)" in out
    assert f'units = "{tmp_path / "default"}"' in out
    for name in ("units.csv", "factions.csv"):
        assert (tmp_path / "default" / name).read_text(encoding="utf-8") == \
            (WESNOTH_TEMPLATES / name).read_text(encoding="utf-8")


def test_an_era_is_chosen_by_its_id_and_a_faction_file_it_lacks_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "wesnoth", "import-units", WML / "data", "--era", "era_dunefolk",
                       "--out", tmp_path / "dune")
    assert code == 0 and "155 units of 6 factions" in out
    assert "not there (their factions are left out): multiplayer/factions/dunefolk-default.cfg" in out


def test_an_era_that_is_not_there_lists_the_eras_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "wesnoth", "import-units", WML, "--era", "era_nope", "--out", tmp_path / "x")
    assert code == 1
    assert "no [era] with id=era_nope" in err and "the eras there: era_default, era_dunefolk" in err
    assert "nothing was written" in err and not (tmp_path / "x").exists()


def test_without_out_the_tables_go_to_a_new_folder_here(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "wesnoth", "import-units", WML)[0] == 0
    assert load_tables(tmp_path / "wesnoth-era_default").units["Spearman"].hitpoints == 36


def test_a_table_is_never_replaced_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = write(tmp_path / "mine", {"units.csv": "my own edits\n"})
    code, _, err = run(capsys, "wesnoth", "import-units", WML, "--out", out)
    assert code == 1 and f"{out / 'units.csv'} exists; nothing was written" in err and "--force" in err
    assert (out / "units.csv").read_text(encoding="utf-8") == "my own edits\n"
    assert not (out / "factions.csv").exists()
    assert run(capsys, "wesnoth", "import-units", WML, "--out", out, "--force")[0] == 0
    assert "Spearman" in rows(out / "units.csv")


def test_the_shipped_table_is_named_as_such_when_refused(capsys: pytest.CaptureFixture[str]) -> None:
    before = (WESNOTH_TEMPLATES / "units.csv").read_text(encoding="utf-8")
    code, _, err = run(capsys, "wesnoth", "import-units", WML, "--out", WESNOTH_TEMPLATES)
    assert code == 1 and "(the table the project ships)" in err
    assert (WESNOTH_TEMPLATES / "units.csv").read_text(encoding="utf-8") == before


# --------------------------------------------------------------------------- an add-on on top of the game's data

def test_a_copied_faction_as_an_add_on_gives_the_shipped_rows_of_its_units(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    addon = tmp_path / "Loyalists_Only"
    addon.mkdir()
    shutil.copy(FACTIONS / "loyalists-default.cfg", addon)
    code, out, _ = run(capsys, "wesnoth", "import-units", addon, "--core", WML, "--out", tmp_path / "out")
    assert code == 0 and "of 1 factions (Loyalists)" in out
    shipped = rows(WESNOTH_TEMPLATES / "units.csv")
    mine = rows(tmp_path / "out" / "units.csv")
    assert "Spearman" in mine and "Elvish Fighter" not in mine
    for name, row in mine.items():
        assert row | {"factions": ""} == shipped[name] | {"factions": ""}, name
        assert row["factions"] == "Loyalists"


def test_an_add_ons_own_units_macros_and_faction(addon: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "wesnoth", "import-units", addon, "--core", WML, "--out", tmp_path / "out")
    assert code == 0 and "of 1 factions (Order)" in out
    tables = load_tables(tmp_path / "out")
    squire = tables.units["Squire"]
    assert (squire.level, squire.hitpoints, squire.moves, squire.advances_to) == (1, 30, 7, ("Knight Captain",))
    assert [a.label for a in squire.attacks] == ["lance 6-2 melee pierce"]
    assert tables.units["Knight Captain"].resistance["blade"] == 70
    assert tables.units["Spearman"].hitpoints == 36  # a core unit the faction recruits
    assert "Swordsman" in tables.units  # and what it advances to
    assert tables.factions["Order"].recruits == ("Squire", "Spearman")


def test_an_add_ons_era_is_read_through_its_inclusions(addon: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "wesnoth", "import-units", addon, "--core", WML, "--era", "era_knights",
                       "--out", tmp_path / "out")
    assert code == 0 and "of 1 factions (Order)" in out


def test_an_add_on_without_core_asks_for_it(addon: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "wesnoth", "import-units", addon)
    assert code == 1 and "holds no data/core/units.cfg" in err and "--core" in err


# --------------------------------------------------------------------------- bad input: a message, nothing written

@pytest.mark.parametrize(("files", "said"), [
    ({}, "no .cfg file in it or below"),
    ({"readme.cfg": "#textdomain x\n[about]\n    title=hi\n[/about]\n"}, "no [unit_type], [multiplayer_side] or [era]"),
    ({"units/squire.cfg": SQUIRE.replace("[/attack]", "[/atack]"), "factions/order.cfg": ORDER},
     "units/squire.cfg:18: [attack] (line 12) is closed by [/atack]"),
    ({"units/squire.cfg": SQUIRE.replace("    {KNIGHTS_HP 30}\n", ""), "macros/hp.cfg": "",
      "units/captain.cfg": CAPTAIN, "factions/order.cfg": ORDER},
     "units/squire.cfg:2: [unit_type] Squire: no hitpoints; the importer needs it as a whole number"),
    ({"units/captain.cfg": CAPTAIN.replace("movement_type=smallfoot", "movement_type=hovercraft"),
      "units/squire.cfg": SQUIRE, "macros/hp.cfg": "#define KNIGHTS_HP N\nhitpoints={N}\n#enddef\n",
      "factions/order.cfg": ORDER},
     "units/captain.cfg:1: [unit_type] Knight Captain: unknown movement_type 'hovercraft'; the movetypes read:"),
    ({"factions/order.cfg": ORDER}, "order.cfg:1: faction Order names the unit 'Squire', which no [unit_type] read"),
    ({"factions/order.cfg": ORDER.replace("    leader=Knight Captain\n", ""), "units/squire.cfg": SQUIRE},
     "order.cfg:1: faction Order has no leader="),
    ({"units/captain.cfg": CAPTAIN}, "no faction (a [multiplayer_side] with recruit=) in its .cfg files"),
])
def test_a_bad_add_on_is_one_message_naming_the_file_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str], said: str) -> None:
    addon = write(tmp_path / "Bad_Era", files)
    addon.mkdir(exist_ok=True)
    code, out, err = run(capsys, "wesnoth", "import-units", addon, "--core", WML, "--out", tmp_path / "out")
    assert (code, out) == (1, "")
    assert said in err
    assert "nothing was written" in err and not (tmp_path / "out").exists()


def test_a_file_that_is_not_text_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    addon = write(tmp_path / "Odd_Era", {"factions/order.cfg": ORDER})
    (addon / "units" / "squire.cfg").parent.mkdir()
    (addon / "units" / "squire.cfg").write_bytes(b"[unit_type]\n    id=Squire\xff\n[/unit_type]\n")
    code, _, err = run(capsys, "wesnoth", "import-units", addon, "--core", WML, "--out", tmp_path / "out")
    assert code == 1 and "units/squire.cfg: cannot be read as UTF-8 text" in err
    assert not (tmp_path / "out").exists()


def test_a_folder_that_is_not_there_or_a_core_that_is_not_wesnoth(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "wesnoth", "import-units", tmp_path / "nowhere")
    assert code == 1 and "nowhere: no such folder" in err
    code, _, err = run(capsys, "wesnoth", "import-units", tmp_path, "--core", tmp_path)
    assert code == 1 and f"--core {tmp_path}: no data/core/units.cfg there" in err


# --------------------------------------------------------------------------- maps

def test_a_map_is_converted_to_the_shipped_board(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "wesnoth", "import-map", MAPS / "2p_Hamlets.map")
    assert code == 0 and "wrote 2p_Hamlets.txt: 27x28 hexes, 2 players, 14 villages" in out
    assert (tmp_path / "2p_Hamlets.txt").read_text(encoding="utf-8") == \
        (WESNOTH_TEMPLATES / "maps" / "2p_Hamlets.txt").read_text(encoding="utf-8")
    code, _, err = run(capsys, "wesnoth", "import-map", MAPS / "2p_Hamlets.map")
    assert code == 1 and "2p_Hamlets.txt exists; nothing was written" in err


def test_a_map_with_an_unknown_code_names_its_line_and_column_and_codes_may_add_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (MAPS / "2p_Hamlets.map").read_text(encoding="utf-8").replace("Mm^Xm", "Zz^Qq", 1)
    bad = write(tmp_path, {"odd.map": text}) / "odd.map"
    code, _, err = run(capsys, "wesnoth", "import-map", bad, "--out", tmp_path / "odd.txt")
    assert code == 1 and "odd.map line 2, column 28: no row of terrain_codes.csv matches the code 'Zz^Qq'" in err
    assert not (tmp_path / "odd.txt").exists()
    codes = tmp_path / "codes.csv"
    shipped = (WESNOTH_TEMPLATES / "terrain_codes.csv").read_text(encoding="utf-8")
    codes.write_text(shipped + "Zz,mountain,an odd base\n", encoding="utf-8")
    assert run(capsys, "wesnoth", "import-map", bad, "--out", tmp_path / "odd.txt", "--codes", codes)[0] == 0


@pytest.mark.parametrize(("text", "said"), [
    ("Gg, Gg, Gg\nGg, 1 Kh, Gg\nGg, Gg, Gg\n", "1 player start on the map, and a match needs at least two"),
    ("Gg, Gg\n", "a Wesnoth map has at least 3 rows and columns"),
    ("Gg, Gg, Gg\nGg, 1 2 Kh, Gg\nGg, Gg, Gg\n", "line 2, column 2: '1 2 Kh' is not a terrain code"),
])
def test_a_bad_map_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str) -> None:
    bad = write(tmp_path, {"bad.map": text}) / "bad.map"
    code, _, err = run(capsys, "wesnoth", "import-map", bad, "--out", tmp_path / "bad.txt")
    assert code == 1 and said in err and not (tmp_path / "bad.txt").exists()


# --------------------------------------------------------------------------- a match plays with them

def test_a_match_config_names_its_imported_units_relative_to_its_own_folder(
        addon: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    match = tmp_path / "match"
    assert run(capsys, "wesnoth", "import-units", addon, "--core", WML, "--out", match / "knights")[0] == 0
    assert run(capsys, "wesnoth", "import-map", MAPS / "2p_Weldyn_Channel.map", "--out", match / "weldyn.txt")[0] == 0
    (match / "match.toml").write_text('ruleset = "wesnoth"\nseats = ["Ann", "Bo"]\nmap = "weldyn.txt"\n'
                                      '[sheets]\nboard = "match.xlsx"\n[settings]\nunits = "knights"\n',
                                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the GM's shell is elsewhere: the folder is the config's
    ruleset = configured_ruleset(load_config(match / "match.toml"))
    assert isinstance(ruleset, WesnothRuleset)
    assert list(ruleset.rules.tables.factions) == ["Order"]
    assert ruleset.settings.units == str(match / "knights")
    roster = Roster(("Ann", "Bo"), (Member("Ann", "Ann", {"faction": "Order"}), Member("Bo", "Bo", {})))
    state = ruleset.new_match(roster, b"seed")
    assert {u.type for u in state.units} == {"Knight Captain"}
    # The match's record keeps the settings; read back, they name the same tables.
    again = parse_settings(WesnothSettings, settings_to_mapping(ruleset.settings))
    assert WesnothRuleset.create(again, ruleset.board_text).rules.tables.units.keys() == \
        ruleset.rules.tables.units.keys()


def test_a_units_setting_naming_a_folder_without_tables_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "match.toml").write_text('ruleset = "wesnoth"\nseats = ["Ann", "Bo"]\n[sheets]\nboard = "m.xlsx"\n'
                                         '[settings]\nunits = "nowhere"\n', encoding="utf-8")
    with pytest.raises(SettingError, match=r"\[settings\]: setting 'units': .*nowhere/units.csv: cannot be read"):
        configured_ruleset(load_config(tmp_path / "match.toml"))


def test_units_none_is_the_shipped_default_era() -> None:
    settings = parse_settings(WesnothSettings, {"units": "none"})
    assert settings.units == ""
    assert "Spearman" in WesnothRuleset.create(settings, "keep1 . keep2\n").rules.tables.units
