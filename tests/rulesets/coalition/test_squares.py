"""A plane's board tab, square by square, from the state."""

from __future__ import annotations

import pytest

from sheets_gm.rulesets.coalition.enums import BattleType, StructureKind
from sheets_gm.rulesets.coalition.sheet.squares import plane_rows
from sheets_gm.rulesets.coalition.state import Battle
from tests.rulesets.coalition.helpers import army, board, state


def test_each_square_shows_its_structure_armies_and_battle() -> None:
    s = state(army("Ann", "coalition", "2B", rank=6), army("Bo", "phyrexia", "4D", rank=2, units=(100, 0, 0, 0)),
              army("Cy", "coalition", "4D"), battles=(Battle(BattleType.ATTACKS, "Dominaria 4D", ("Cy", "Bo")),))
    rows = plane_rows(board(), s, "Dominaria")
    assert len(rows) == 6 and all(len(r) == 8 for r in rows)
    wrath = rows[1][1]
    assert (wrath.label, wrath.structure, wrath.kind) == ("2B", "Wrath", StructureKind.BASE)
    assert [(m.name, m.rank, m.units) for m in wrath.armies] == [("Ann", "General", 10000)]
    tower = rows[3][3]
    assert tower.structure == "Old Tower" and tower.battle is BattleType.ATTACKS
    assert [m.rank for m in tower.armies] == ["Plaguelord", "Lieutenant"]
    with pytest.raises(ValueError, match="there is no plane 'Rath'"):
        plane_rows(board(), s, "Rath")
