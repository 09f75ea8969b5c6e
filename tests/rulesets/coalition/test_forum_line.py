"""The forum's order line in one cell: parsed into the order's fields, or refused naming the part."""

from __future__ import annotations

import pytest

from sheets_gm.rulesets.coalition.orders import OrderLineError, parse_forum_line


def test_a_full_line_gives_every_field() -> None:
    name, order = parse_forum_line("Frank, the Toad: Dominaria; 3A > 3B > 3C - engage Jeff the Owl")
    assert name == "Frank, the Toad"
    assert (order.start, order.via, order.to) == ("Dominaria 3A", ("Dominaria 3B",), "Dominaria 3C")
    assert (order.word, order.target) == ("engage", "Jeff the Owl")


def test_the_plane_is_optional_and_the_dash_may_be_an_en_dash() -> None:
    name, order = parse_forum_line("Frank: 3A – intercept Newt with a Blowfish")
    assert (name, order.start, order.to, order.word, order.target) == (
        "Frank", "3A", "", "intercept", "Newt with a Blowfish")


def test_no_order_word_is_a_plain_move() -> None:
    _, order = parse_forum_line("Frank: Mirrodin; 3A > 3B")
    assert (order.to, order.word) == ("Mirrodin 3B", "")


def test_a_transfer_names_units_per_slot() -> None:
    _, order = parse_forum_line("Ann: Dominaria; 2B - transfer Cy 1000/0/0/200")
    assert (order.word, order.target, order.units) == ("transfer", "Cy", (1000, 0, 0, 200))


def test_a_joint_engage_bump_rides_on_the_line() -> None:
    _, order = parse_forum_line("Ann: Dominaria; 2C > 3C - engage Bo; bump 2B")
    assert (order.target, order.bump) == ("Bo", "2B")


@pytest.mark.parametrize(("line", "part"), [
    ("Frank 3A > 3B", "the army name is missing"),
    ("Frank: Dominaria; 3A > > 3C", "has an empty square"),
    ("Frank: Dominaria; 3A > 3B - charge Jeff", "the order 'charge' after the dash"),
    ("Frank: Dominaria Prime; 3A", "the plane 'Dominaria Prime' is one word"),
])
def test_a_line_that_does_not_parse_names_the_part(line: str, part: str) -> None:
    with pytest.raises(OrderLineError, match=part) as err:
        parse_forum_line(line)
    assert "write" in str(err.value) or "is not one of" in str(err.value)  # it says what would be accepted
