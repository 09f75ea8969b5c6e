"""The faction matrix printed from a simulation's JSON."""

from __future__ import annotations

import pytest

from scripts.wesnoth_matrix import matrix


def test_the_matrix_puts_each_matchup_in_its_cell() -> None:
    cell = {"rate": 0.75, "total": 8}
    data: dict[str, object] = {"variants": [{"win_rate_by": {"matchup": {
        "Drakes vs Undead": cell, "Undead vs Drakes": {"rate": 0.25, "total": 8}}}}]}
    lines = matrix(data).splitlines()
    assert lines[1].startswith("Drakes") and "75% (8)" in lines[1] and lines[1].split()[1] == "-"
    assert lines[2].startswith("Undead") and "25% (8)" in lines[2]


def test_a_file_without_matchups_is_named() -> None:
    with pytest.raises(ValueError, match="no win rate by matchup"):
        matrix({"variants": [{"win_rate_by": {}}]})
