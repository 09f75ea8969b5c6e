"""The map as data: the default map loads with the rulebook's structures; bad maps name the line."""

from __future__ import annotations

import pytest

from sheets_gm.rulesets.coalition.board import load_board
from sheets_gm.rulesets.coalition.enums import StructureKind
from sheets_gm.rulesets.registry import default_board_text


def test_the_default_map_has_the_rulebooks_structures() -> None:
    board = load_board(default_board_text("coalition"), "map.yaml")
    kinds = [s.kind for s in board.structures]
    assert kinds.count(StructureKind.BASE) == 5 and kinds.count(StructureKind.STRONGHOLD) == 5
    for plane in ("Dominaria", "Phyrexia", "Mirrodin"):
        assert len(board.features(plane)) == 5
    names = {s.name for s in board.structures}
    assert {"Wrath", "Eluria", "Kamakawiwo'ole", "Vesuva", "Mirrodin's Core", "Sheila's Lair", "Blobble"} <= names
    for portal in (s for s in board.structures if s.kind is StructureKind.PORTAL):
        back = board.structure_at[portal.to or ""]
        assert back.kind is StructureKind.PORTAL and back.to == portal.at
    assert board.planes["Mirrodin"].wrap and not board.planes["Dominaria"].wrap
    assert board.neighbours("Mirrodin 1A")[0] == "Mirrodin 1H"


@pytest.mark.parametrize(("text", "message"), [
    ("planes:\n  Dominaria: {size: 24by9}\n", "map:2: plane Dominaria: size is columns x rows"),
    ("planes:\n  Dominaria:\n    size: 4x4\n    squares:\n      9A: {terrain: forest}\n",
     "map:5: '9A' is off Dominaria"),
    ("planes:\n  Dominaria:\n    size: 4x4\n    squares:\n      1A: {structure: base, name: W}\n",
     "map:5: base at Dominaria 1A: give its colour"),
    ("planes:\n  Dominaria:\n    size: 4x4\n    squares:\n      1A: {terrain: lava}\n", "unknown terrain 'lava'"),
    ("planes:\n  Dominaria:\n    size: 4x2\n    rows: [pppp, ppxp]\n", "row B: write 4 letters"),
])
def test_a_bad_map_names_the_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_board(text, "map")


def test_the_gap_to_the_nearest_goal_is_the_least_distance_and_is_kept() -> None:
    board = load_board(default_board_text("coalition"), "map.yaml")
    goals = ("Dominaria 3A", "Dominaria 20H", "Phyrexia 1A")  # a goal on another plane counts 0, as before
    for place in ("Dominaria 1A", "Dominaria 12E", "Dominaria 24I"):
        near = (board.goal_gap(place, goals[:2]), board.goal_gap(place, goals))
        assert near == (min(board.distance(place, g) or 0 for g in goals[:2]), 0)
        assert board.goal_gap(place, goals[:2]) == near[0]
    assert board.goal_gap("Dominaria 3A", goals[:2]) == 0

