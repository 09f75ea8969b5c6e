"""A typed move is answered as one that will be made, before anything moved (issue 53, item 9): the check's
verdict says "will move to …"; the resolution's says what was done."""

from __future__ import annotations

from sheets_gm.rulesets.wesnoth.check import will_happen


def test_a_move_checked_before_it_is_made_says_it_will_be_made() -> None:
    assert will_happen("moved to P19 (4 moves)") == "will move to P19 (4 moves)"
    assert will_happen("stopped on K5 by an ambush (2 moves)") == "will stop on K5 by an ambush (2 moves)"
    assert will_happen("P19 is 9 moves away; Ann-R1 has 5") == "P19 is 9 moves away; Ann-R1 has 5"

