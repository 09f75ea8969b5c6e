"""init --create writes the new spreadsheets' keys into the GM's config: every comment and line kept, each
spreadsheet of the layout named after the match and its roles."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sheets_gm.commands.init import private_config, starter_config
from sheets_gm.match.config import load_config
from sheets_gm.match.config_keys import ConfigKeysError, needed_spreadsheets, with_sheet_keys
from sheets_gm.rulesets.registry import GAMES


def private_starter(ruleset: str, folder: Path) -> Path:
    """The game's private starter config, written in ``folder``."""
    path = folder / "match.toml"
    path.write_text(private_config(starter_config(ruleset).read_text(encoding="utf-8")), encoding="utf-8")
    return path


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_every_game_s_private_layout_gets_a_key_per_spreadsheet_and_keeps_its_comments(ruleset: str,
                                                                                     tmp_path: Path) -> None:
    path = private_starter(ruleset, tmp_path)
    config = load_config(path)
    needed = needed_spreadsheets(config)
    roles = [role for sheet in needed for role in sheet.roles]
    assert roles[:2] == ["board", "engine"]
    assert {f"orders {seat}" for seat in config.seats} <= set(roles)
    assert ("judge" in roles) == bool(config.judge)
    assert all(sheet.name.startswith(f"{config.title} · ") for sheet in needed)
    keys = {role: f"key-{n}" for n, sheet in enumerate(needed) for role in sheet.roles}
    before = path.read_text(encoding="utf-8")
    after = with_sheet_keys(before, keys, config.seats)
    comments = [line for line in before.splitlines() if line.lstrip().startswith("#")]
    assert comments == [line for line in after.splitlines() if line.lstrip().startswith("#")]
    assert len(before.splitlines()) == len(after.splitlines())
    path.write_text(after + '[google]\noauth_client = "client.json"\n', encoding="utf-8")  # --create signs in first
    reread = load_config(path)
    assert reread.backend.value == "google"
    assert (reread.board, reread.engine) == (keys["board"], keys["engine"])
    assert reread.orders == tuple(keys[f"orders {seat}"] for seat in config.seats)
    assert reread.judge == keys.get("judge")


def test_roles_in_one_file_share_one_spreadsheet(tmp_path: Path) -> None:
    path = tmp_path / "match.toml"
    path.write_text('ruleset = "wesnoth"\ntitle = "Sunday"\nseats = ["Ann", "Bo"]\n[sheets]\nboard = "b.xlsx"\n'
                    'engine = "gm/e.xlsx"\n', encoding="utf-8")
    needed = needed_spreadsheets(load_config(path))
    assert [(s.roles, s.name) for s in needed] == [
        (("board", "orders Ann", "orders Bo"), "Sunday · board, orders Ann, orders Bo"),
        (("engine",), "Sunday · engine")]


def test_orders_written_as_a_table_of_their_own_get_a_key_per_line() -> None:
    text = ('[sheets]\nbackend = "local"\nboard = "b.xlsx"\nengine = "e.xlsx"\n\n[sheets.orders]\n'
            'red = "r.xlsx"   # the reds\n"blue team" = "b2.xlsx"\n')
    after = with_sheet_keys(text, {"board": "B", "engine": "E", "orders red": "R", "orders blue team": "T"},
                            ("red", "blue team"))
    assert 'red = "R"   # the reds' in after
    assert tomllib.loads(after)["sheets"]["orders"] == {"red": "R", "blue team": "T"}


def test_a_line_it_cannot_find_is_named_with_the_lines_to_paste() -> None:
    with pytest.raises(ConfigKeysError) as caught:
        with_sheet_keys('[sheets]\nboard = "b.xlsx"\n', {"board": "B", "engine": "E"}, ())
    assert "no one-line backend, engine" in str(caught.value)
    assert 'engine = "E"' in str(caught.value)
