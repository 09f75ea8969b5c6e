"""Armies are checked against the rulebook's table when the roster is read; errors name the row."""

from __future__ import annotations

import pytest

from sheets_gm.engine.ruleset import Member, Roster
from sheets_gm.rulesets.coalition.setup import RosterError, army_from_fields, new_match, parse_creatures
from tests.rulesets.coalition.helpers import board


def fields(**kw: str) -> dict[str, str]:
    return {"rank": "3", "at": "Dominaria 3C", "factions": "green, blue", "primary": "green", **kw}


def test_creatures_fill_the_slots_by_their_size() -> None:
    a = army_from_fields(board(), "Ann", "coalition", fields(
        creatures="5000 Elves (green 3/1); 2500 Bears (green 4/4); 1500 Golems (colourless 5/2); "
                  "900 Drakes (blue 6/6)"))
    assert a.units == (5000, 2500, 1500, 900)
    assert not a.colour_bonus


def test_the_colour_bonus_when_every_creature_shares_a_colour() -> None:
    a = army_from_fields(board(), "Ann", "coalition",
                         fields(creatures="5000 Elves (green 3/3); 100 Wurm (green blue 6/6)"))
    assert a.colour_bonus


@pytest.mark.parametrize(("extra", "message"), [
    ({"creatures": "5000 Elves (green 2/2)"}, "a Commander's slots hold 3/3 to 6/6"),
    ({"units": "6000/0/0/0"}, "slot 1 holds 6000 units; it holds 0 to 5000"),
    ({"creatures": "10 Goblins (red 3/3)"}, "the army's factions are green, blue"),
    ({"creatures": "; ".join(f"1 C{i} (green 3/3)" for i in range(7))}, "at most 6"),
    ({"factions": "green, blue, black", "primary": "red"}, "a primary faction and two secondary ones at most"),
    ({"rank": "7"}, "ranks run from 1"),
    ({"at": "Dominaria 30C"}, "off Dominaria"),
    ({"creatures": "5000 Elves green 3/3"}, "write the count, the name"),
])
def test_a_coalition_army_breaking_the_table(extra: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        army_from_fields(board(), "Ann", "coalition", fields(**extra))


def test_phyrexia_uses_no_white_or_green_without_the_watermark() -> None:
    with pytest.raises(ValueError, match="Phyrexia uses no white or green"):
        army_from_fields(board(), "Bo", "phyrexia", {"rank": "1", "at": "Dominaria 1A",
                                                     "creatures": "10 Glider (white green 1/1)"})
    ok = army_from_fields(board(), "Bo", "phyrexia", {
        "rank": "1", "at": "Dominaria 1A", "creatures": "10 Glider (white phyrexian 1/1); 5 Rat (black 2/1)"})
    assert ok.units == (10, 5, 0, 0)


def test_a_bad_roster_row_is_named() -> None:
    roster = Roster(("coalition", "phyrexia"), (
        Member("Ann", "coalition", fields()), Member("Bo", "phyrexia", {"rank": "x", "at": "Dominaria 1A"})))
    with pytest.raises(RosterError, match=r"roster row 2 \(Bo\): rank 'x'"):
        new_match(board(), roster, b"s")


def test_parse_creatures_reads_counts_names_and_sizes() -> None:
    (c,) = parse_creatures("1500 Steel Golem (colourless 4/5)")
    assert (c.count, c.name, c.colours, c.size) == (1500, "Steel Golem", (), 5)
