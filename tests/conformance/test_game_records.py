"""Every registered game is one record of parts, and each part it declares answers for it."""

from __future__ import annotations

import shlex

import pytest

from sheets_gm.rulesets.game_record import Game
from sheets_gm.rulesets.registry import TEMPLATES, create_ruleset, get_game, ruleset_names
from sheets_gm.sheets.spec import LAYOUT_FILE

GAMES = ruleset_names()


@pytest.mark.parametrize("name", GAMES)
def test_the_registry_maps_the_name_to_the_games_record(name: str) -> None:
    game = get_game(name)
    assert isinstance(game, Game)
    assert game.name == name and game.traits is game.rules.traits


def test_templates_holds_each_game_s_layout_and_data_and_no_code_template() -> None:
    """Issue 77: ``templates/`` is the games' template folders, one per game, each with its sheet layout under the one
    name; templates of code live with what fills them (the starter in ``commands/starter/``, the page's in ``web/``)."""
    assert sorted(p.name for p in TEMPLATES.iterdir() if p.is_dir()) == GAMES
    assert [n for n in GAMES if not (TEMPLATES / n / LAYOUT_FILE).is_file() and get_game(n).sheet is not None] == []
    code = {".py", ".pyi", ".tmpl", ".j2", ".jinja", ".html", ".js", ".css"}
    assert [str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*") if p.suffix in code] == []


@pytest.mark.parametrize("name", GAMES)
def test_each_part_a_game_declares_is_made_for_a_match_of_its_rules(name: str) -> None:
    game = get_game(name)
    rules = create_ruleset(name)
    if game.sheet is not None:
        assert game.sheet_of(rules) is not None
    if game.scenario is not None:
        assert {"name", "ruleset"} <= set(game.scenario().keys)
    if game.simulation is not None:
        kinds = game.simulation.bots(rules)
        assert kinds and all(kind.name == key for key, kind in kinds.items())
        assert game.simulation.spec(rules).endings
        state = rules.new_match(rules.sample_roster(), b"record")
        assert game.simulation.tally(rules, state).finish(state).ending in dict(game.simulation.spec(rules).endings)


@pytest.mark.parametrize("name", [n for n in GAMES if get_game(n).gm is not None])
def test_a_games_adjust_example_makes_gm_events_of_that_game(name: str) -> None:
    gm = get_game(name).gm
    assert gm is not None
    words = shlex.split(gm.example)
    values: dict[str, list[str]] = {}
    for flag, value in zip(words[::2], words[1::2], strict=True):
        values.setdefault(flag.removeprefix("--"), []).append(value)
    reason = values.pop("reason", [""])[0]
    assert set(values) <= {o.flag for o in gm.options}
    rules = create_ruleset(name)
    seats = rules.seats(rules.new_match(rules.sample_roster(), b"record"))
    assert gm.events_from_options(seats, values, reason)
