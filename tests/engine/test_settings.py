"""Settings (house rules): parsing from text and values, error messages, the rules-page table."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from sheets_gm.engine.grid import Neighbourhood
from sheets_gm.engine.settings import (
    SettingError,
    idle_settings,
    parse_assignments,
    parse_settings,
    setting,
    settings_table,
    settings_to_mapping,
)
from sheets_gm.rulesets.gvg.enums import Skill
from sheets_gm.rulesets.gvg.settings import GvgSettings, OwnTreePickup, TurnLimitRule
from sheets_gm.rulesets.winordie.enums import Mode
from sheets_gm.rulesets.winordie.settings import WodSettings

FIELD_NAMES = [f.name for f in dataclasses.fields(GvgSettings)]


def test_no_values_gives_the_defaults() -> None:
    assert parse_settings(GvgSettings, {}) == GvgSettings()
    s = GvgSettings()
    assert s.movement is Neighbourhood.KING
    assert s.max_turns == 60
    assert s.boss_spawn_turns == (15, 45)


@pytest.mark.parametrize("value", ["rook", "ROOK", " Rook ", Neighbourhood.ROOK])
def test_movement_rook_as_text_or_enum(value: object) -> None:
    s = parse_settings(GvgSettings, {"movement": value})
    assert s.movement is Neighbourhood.ROOK


def test_other_enum_settings_from_text() -> None:
    s = parse_settings(GvgSettings, {"own_tree_pickup": "forbid", "turn_limit_rule": "draw"})
    assert s.own_tree_pickup is OwnTreePickup.FORBID
    assert s.turn_limit_rule is TurnLimitRule.DRAW


@pytest.mark.parametrize(("value", "expected"), [("40", 40), (" 40 ", 40), (40, 40), ("999", 999), ("1", 1)])
def test_int_settings_from_text_or_int(value: object, expected: int) -> None:
    assert parse_settings(GvgSettings, {"max_turns": value}).max_turns == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [(True, True), (False, False), ("true", True), ("Yes", True), ("on", True), ("1", True),
     ("false", False), ("NO", False), ("off", False), ("0", False), (1, True), (0, False)],
)
def test_bool_settings(value: object, expected: bool) -> None:
    s = parse_settings(GvgSettings, {"healing_reduction_blocks_revive": value})
    assert s.healing_reduction_blocks_revive is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [("15,45", (15, 45)), ("10, 20 ,30", (10, 20, 30)), ("15;45", (15, 45)), ("7", (7,)), ("", ()),
     ([15, 45], (15, 45)), (("5", "6"), (5, 6))],
)
def test_tuple_settings_from_text_or_list(value: object, expected: tuple[int, ...]) -> None:
    assert parse_settings(GvgSettings, {"boss_spawn_turns": value}).boss_spawn_turns == expected


def test_negative_tuple_items_are_accepted() -> None:
    assert parse_settings(GvgSettings, {"fish_tiers": "3,1,-1"}).fish_tiers == (3, 1, -1)


def test_keys_with_dashes_and_spaces_are_accepted() -> None:
    s = parse_settings(GvgSettings, {" max-turns ": "30", "bulwark-hp": 5})
    assert s.max_turns == 30 and s.bulwark_hp == 5


def test_several_settings_at_once_leave_the_others_at_default() -> None:
    s = parse_settings(GvgSettings, {"movement": "rook", "boss_hp": "5", "boss_spawn_turns": "20"})
    assert (s.movement, s.boss_hp, s.boss_spawn_turns) == (Neighbourhood.ROOK, 5, (20,))
    assert s.fish_hp == GvgSettings().fish_hp


def test_unknown_key_names_the_key_and_lists_the_known_ones() -> None:
    with pytest.raises(SettingError) as info:
        parse_settings(GvgSettings, {"movment": "rook"}, where="match.yaml settings")
    message = str(info.value)
    assert "'movment'" in message
    assert "match.yaml settings" in message
    for name in FIELD_NAMES:
        assert name in message


@pytest.mark.parametrize(
    ("key", "value", "accepted"),
    [
        ("movement", "queen", ["'king'", "'rook'"]),
        ("movement", 1, ["'king'", "'rook'"]),
        ("own_tree_pickup", "keep", ["'return'", "'forbid'"]),
        ("max_turns", "sixty", ["whole number"]),
        ("max_turns", "6.5", ["whole number"]),
        ("max_turns", 6.5, ["whole number"]),
        ("max_turns", True, ["whole number"]),
        ("max_turns", None, ["whole number"]),
        ("healing_reduction_blocks_revive", "maybe", ["true", "false"]),
        ("healing_reduction_blocks_revive", 2, ["true", "false"]),
        ("boss_spawn_turns", "15,x", ["whole number"]),
    ],
)
def test_bad_values_name_the_key_and_the_accepted_values(key: str, value: object, accepted: list[str]) -> None:
    with pytest.raises(SettingError) as info:
        parse_settings(GvgSettings, {key: value})
    message = str(info.value)
    assert repr(key) in message
    for word in accepted:
        assert word in message


@pytest.mark.parametrize(
    ("key", "value"),
    [("max_turns", 0), ("max_turns", "1000"), ("boss_hp", 0), ("boss_hp", 100), ("bulwark_hp", "-1"),
     ("fish_hp", 0), ("carrier_steps", 100), ("skill_duration", 0), ("ballista_charges", 0)],
)
def test_out_of_range_ints_are_rejected_with_the_range(key: str, value: object) -> None:
    with pytest.raises(SettingError) as info:
        parse_settings(GvgSettings, {key: value})
    message = str(info.value)
    assert repr(key) in message
    assert "out of range" in message
    assert str(int(str(value))) in message


@pytest.mark.parametrize("key", ["halftime_turn", "boss_reward", "dps_bonus", "skill_cooldown", "cost_ballista"])
def test_negative_value_for_a_setting_with_only_a_minimum_is_rejected(key: str) -> None:
    with pytest.raises(SettingError) as info:
        parse_settings(GvgSettings, {key: -1})
    assert repr(key) in str(info.value)
    assert "out of range" in str(info.value)


def test_out_of_range_message_for_a_setting_without_maximum_has_no_none() -> None:
    with pytest.raises(SettingError) as info:
        parse_settings(GvgSettings, {"halftime_turn": -1})
    assert "None" not in str(info.value)
    assert "0 or more" in str(info.value)


def test_range_bounds_themselves_are_accepted() -> None:
    s = parse_settings(GvgSettings, {"max_turns": 1, "boss_hp": 99, "halftime_turn": 0})
    assert (s.max_turns, s.boss_hp, s.halftime_turn) == (1, 99, 0)


def test_setting_error_is_a_value_error() -> None:
    assert issubclass(SettingError, ValueError)


# -- key=value assignments ---------------------------------------------------------------------

def test_parse_assignments_reads_key_value_pairs() -> None:
    assert parse_assignments(["movement=rook", " max_turns = 40 ", "boss_spawn_turns=15,45"]) == {
        "movement": "rook",
        "max_turns": "40",
        "boss_spawn_turns": "15,45",
    }


def test_parse_assignments_keeps_equals_signs_in_values() -> None:
    assert parse_assignments(["a=b=c"]) == {"a": "b=c"}


def test_parse_assignments_then_parse_settings() -> None:
    values = parse_assignments(["movement=rook", "max_turns=40", "healing_reduction_blocks_revive=yes"])
    s = parse_settings(GvgSettings, values)
    assert s.movement is Neighbourhood.ROOK and s.max_turns == 40 and s.healing_reduction_blocks_revive


@pytest.mark.parametrize("pair", ["movement", "=rook", " = rook", "", "movement rook"])
def test_parse_assignments_rejects_pairs_without_key_or_equals(pair: str) -> None:
    with pytest.raises(SettingError) as info:
        parse_assignments(["max_turns=40", pair], where="--set")
    message = str(info.value)
    assert "--set" in message
    assert repr(pair) in message
    assert "key=value" in message


# -- the rules-page table ----------------------------------------------------------------------

def test_settings_table_lists_every_field_with_a_doc() -> None:
    rows = settings_table(GvgSettings)
    assert [r[0] for r in rows] == FIELD_NAMES
    for name, default, accepted, doc in rows:
        assert default != "" or name == "", name
        assert accepted, name
        assert doc.strip(), f"{name} has no doc"


def test_settings_table_shows_defaults_as_text_a_user_can_type_back() -> None:
    rows = {r[0]: r for r in settings_table(GvgSettings)}
    assert rows["movement"][1] == "king"
    assert "'king'" in rows["movement"][2] and "'rook'" in rows["movement"][2]
    assert rows["boss_spawn_turns"][1] == "15,45"
    assert rows["healing_reduction_blocks_revive"][1] == "false"
    assert rows["max_turns"][1] == "60"
    # every shown default parses back to the default
    typed_back = {name: row[1] for name, row in rows.items()}
    assert parse_settings(GvgSettings, typed_back) == GvgSettings()


def test_settings_to_mapping_is_json_ready_and_parses_back() -> None:
    s = parse_settings(GvgSettings, {"movement": "rook", "boss_spawn_turns": "10,20"})
    mapping = settings_to_mapping(s)
    assert json.loads(json.dumps(mapping)) == mapping
    assert mapping["movement"] == "rook" and mapping["boss_spawn_turns"] == [10, 20]
    assert parse_settings(GvgSettings, mapping) == s


def test_every_skill_has_a_cost_setting() -> None:
    s = GvgSettings()
    for skill in Skill:
        assert isinstance(s.cost(skill), int)
    assert s.cost(Skill.CITY_PROTECTION) == 2 and s.cost(Skill.BALLISTA) == 1


def test_settings_are_frozen() -> None:
    s = GvgSettings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.max_turns = 3  # type: ignore[misc]


@dataclasses.dataclass(frozen=True)
class _Texts:
    table: tuple[str, ...] = setting(("Clear", "Fog"), "a table of texts")


def test_text_tuple_settings_from_text_or_list() -> None:
    # the Coalition's weather table is a tuple of texts: it crashed with "unsupported setting type str"
    parsed = parse_settings(_Texts, {"table": "Sunny, Acid rain ,Ash storm"})
    assert parsed.table == ("Sunny", "Acid rain", "Ash storm")
    assert parse_settings(_Texts, {"table": ["Sun", "Rain"]}).table == ("Sun", "Rain")
    with pytest.raises(SettingError, match="setting 'table'"):
        parse_settings(_Texts, {"table": [""]})


@dataclasses.dataclass(frozen=True, slots=True)
class _WithAFile:
    table: str = setting("", "A file of the GM's.", path=True)


def test_a_path_setting_is_resolved_against_the_folder_given(tmp_path: Path) -> None:
    assert parse_settings(_WithAFile, {"table": "mine/t.csv"}, folder=tmp_path).table == str(tmp_path / "mine/t.csv")
    assert parse_settings(_WithAFile, {"table": "/abs/t.csv"}, folder=tmp_path).table == "/abs/t.csv"
    assert parse_settings(_WithAFile, {"table": "rel.csv"}).table == "rel.csv"
    # what a match record holds reads back the same, and 'none' or nothing names no file
    held = settings_to_mapping(parse_settings(_WithAFile, {"table": "t.csv"}, folder=tmp_path))
    assert parse_settings(_WithAFile, held, folder=Path("/elsewhere")).table == str(tmp_path / "t.csv")
    assert parse_settings(_WithAFile, {"table": "none"}).table == parse_settings(_WithAFile, {"table": ""}).table == ""
    assert settings_table(_WithAFile)[0][1:3] == ("none", "a path (relative to the match config)")
    with pytest.raises(SettingError, match="use the path of a file or folder"):
        parse_settings(_WithAFile, {"table": 3})


def test_a_setting_that_only_matters_under_another_is_named_when_set_without_it() -> None:
    basic = WodSettings(zoc_morale=2)
    assert idle_settings(basic, ["zoc_morale", "tokens", "best-of"]) == [
        "zoc_morale only matters when mode is 'advanced' (it is 'basic' here)",
        "best_of only matters when mode is 'advanced' (it is 'basic' here)"]
    assert idle_settings(WodSettings(mode=Mode.ADVANCED, zoc_morale=2), ["zoc_morale"]) == []
    assert idle_settings(GvgSettings(), ["movement", "no_such_setting"]) == []
