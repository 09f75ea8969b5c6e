"""What a GvG table reads on its sheets: a pickup's answer says whether a tree lies where the player acts, a
crowded tile shows every player on it."""

from __future__ import annotations

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.check import check_orders
from sheets_gm.rulesets.gvg.enums import Action
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
from sheets_gm.rulesets.gvg.sheet.draw import TILE_LINES, GvgLook, legend, tile_lines, tile_text
from sheets_gm.rulesets.gvg.state import GvgState
from sheets_gm.rulesets.registry import sheet_spec
from tests.paths import GVG_MAP

BOARD = GvgMap.from_text(GVG_MAP.read_text(encoding="utf-8"))
ROLES = ("dps", "dps", "tank", "tank", "healer")
ROSTER = [RosterEntry(f"{team}{i}", team, ROLES[i]) for team in ("red", "blue") for i in range(5)]


def start() -> tuple[GvgRules, GvgState]:
    rules = GvgRules(BOARD, GvgSettings())
    return rules, new_match(BOARD, ("red", "blue"), ROSTER, rules.settings)


def _pickup_answer(rules: GvgRules, state: GvgState, name: str) -> str:
    orders = TurnOrders(players={name: PlayerOrder(action=Action.PICKUP)})
    checked = check_orders(rules, state, orders, TurnDice(b"pickup", state.turn))
    [answer] = [c for c in checked.for_subject(name) if c.part == "action"]
    assert answer.accepted  # the order stands: a tree dropped on the tile this turn may still be taken
    return answer.message


def test_a_pickup_where_no_tree_lies_says_so() -> None:
    rules, state = start()
    red = state.player("red0")
    answer = _pickup_answer(rules, state, "red0")
    assert answer.startswith(f"pickup on {red.at.label}: no tree lies there now")


def test_a_pickup_where_the_enemy_tree_lies_says_it_is_there() -> None:
    rules, state = start()
    blue_tree = state.trees[1]
    assert blue_tree is not None
    blue_tree.at = Coord(3, 3)
    state.player("red0").at = Coord(3, 3)
    assert _pickup_answer(rules, state, "red0") == "pickup on D4: blue's tree lies there"


def test_a_pickup_on_a_standing_fish_says_the_fish_must_fall_first() -> None:
    rules, state = start()
    blue_tree = state.trees[1]
    assert blue_tree is not None
    state.player("red0").at = blue_tree.at
    assert "stands on its fish there, to be taken once the fish is destroyed" in _pickup_answer(rules, state, "red0")


def test_a_pickup_of_the_own_dropped_tree_says_it_goes_back() -> None:
    rules, state = start()
    red_tree = state.trees[0]
    assert red_tree is not None
    red_tree.at = Coord(3, 3)
    state.player("red0").at = Coord(3, 3)
    assert _pickup_answer(rules, state, "red0") == "pickup on D4: red's own tree lies there, sent back to its fish"


def test_a_tile_with_a_structure_two_attackers_and_two_defenders_shows_all_four_in_three_lines() -> None:
    rules, state = start()
    bulwark = next(s for s in state.structures.values() if s.kind.value == "bulwark" and s.team == 1)
    for name in ("red0", "red1", "blue2", "blue3"):
        state.player(name).at = bulwark.at
    look = GvgLook.of(sheet_spec("gvg"))
    text = tile_text(look, rules, state, bulwark.at, [p for p in state.players if p.at == bulwark.at])
    assert tile_lines(text) <= TILE_LINES, text
    for name in ("red0", "red1", "blue2", "blue3"):
        assert name in text


def test_a_tile_too_crowded_for_every_name_counts_each_teams_players_within_its_three_lines() -> None:
    rules, state = start()
    bulwark = next(s for s in state.structures.values() if s.kind.value == "bulwark" and s.team == 1)
    look = GvgLook.of(sheet_spec("gvg"))
    crowd = ("red0", "red1", "red2", "blue2", "blue3")
    for name in crowd:
        state.player(name).at = bulwark.at
    here = [p for p in state.players if p.at == bulwark.at]
    text = tile_text(look, rules, state, bulwark.at, here)
    # as wrapped at the tile's width (the demo's three attackers wrapped to a second line, cutting the defenders)
    assert tile_lines(text) <= TILE_LINES, text
    assert all(name in text for name in crowd), text
    for p in state.players:
        p.name = {"red0": "Bartholomew", "red1": "Wilhelmina", "red2": "Maximilian"}.get(p.name, p.name)
    text = tile_text(look, rules, state, bulwark.at, here)
    assert tile_lines(text) <= TILE_LINES, text
    red, blue = look.team_mark(0), look.team_mark(1)
    assert f"3{red} " in text and f"2{blue} " in text, text


def test_the_boss_tiles_legend_names_no_colour_a_team_may_have() -> None:
    look = GvgLook.of(sheet_spec("gvg"))
    [line] = [row[0] for row in legend(look, ("red", "blue")) if look.sign("lair") in str(row[0])]
    assert "red tile" not in str(line) and "a tile where the boss may appear" in str(line)


def test_the_log_names_a_refused_skill_by_its_name_and_its_kind_in_words() -> None:
    from sheets_gm.engine.events import kind_words
    from sheets_gm.rulesets.gvg.enums import Skill
    from sheets_gm.rulesets.gvg.resolve import resolve_turn
    from sheets_gm.sync.writes import log_lines

    rules, state = start()
    orders = TurnOrders(skills=((Skill.HEALING_REDUCTION,), ()))
    resolution = resolve_turn(rules, state, orders, TurnDice(b"skill", state.turn))
    [refused] = [line for line in log_lines(resolution.events) if "Healing Reduction" in str(line[2])]
    assert refused[1] == "order rejected" == kind_words(str(refused[1]))
    assert "skill Healing Reduction refused" in str(refused[2]) and "healing_reduction" not in str(refused[2])
