"""``status`` at a war's size (issue 78, item 6): the rows with nothing typed yet counted per seat, named behind a
flag, not 10,586 characters of army names on one line."""

from __future__ import annotations

from sheets_gm.commands.polls import UNTYPED_NAMED, untyped_line


def test_a_war_of_643_armies_is_counted_per_side_and_named_behind_the_flag() -> None:
    untyped = {"coalition": [f"Coal {n:03d}" for n in range(321)], "phyrexia": [f"Phyr {n:03d}" for n in range(322)],
               "mercenary": ["Rook"]}
    line = untyped_line(untyped)
    assert len(line) < 300, line
    assert "coalition: 321 rows (Coal 000, Coal 001, Coal 002 and 318 more" in line
    assert "phyrexia: 322 rows" in line and "mercenary: Rook" in line
    assert "status --untyped" in line
    every = untyped_line(untyped, every=True)
    assert all(name in every for rows in untyped.values() for name in rows)
    few = {"red": [f"red{n}" for n in range(UNTYPED_NAMED)]}
    assert untyped_line(few) == "Nothing typed yet in: red: " + ", ".join(few["red"])  # a table's few are named
