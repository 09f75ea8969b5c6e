"""Events with an audience: a private event reaches the seats it names and never the public log."""

from __future__ import annotations

import json
from enum import Enum
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.engine.events import Event, visible_to


class Kind(Enum):
    MOVE = "move"


SEATS = ["Ann", "Bo", "Cy"]


def test_a_public_event_has_the_json_it_always_had() -> None:
    event = Event(3, Kind.MOVE, "Ann moves to C3.", {"to": "C3"})
    assert json.dumps(event.to_json()) == ('{"turn": 3, "kind": "move", "text": "Ann moves to C3.", '
                                           '"data": {"to": "C3"}}')


def test_a_private_event_names_its_seats_in_its_json() -> None:
    event = Event(3, Kind.MOVE, "A hidden unit moves to C3.", audience=frozenset({"Cy", "Bo"}))
    assert event.to_json()["audience"] == ["Bo", "Cy"]
    assert event != Event(3, Kind.MOVE, "A hidden unit moves to C3.")


def test_the_public_log_and_each_seats_log() -> None:
    public = Event(1, Kind.MOVE, "Ann moves.")
    for_bo = Event(1, Kind.MOVE, "Bo's scout moves to D4.", audience=frozenset({"Bo"}))
    for_gm = Event(1, Kind.MOVE, "The GM moves the mercenaries.", audience=frozenset())
    log = [public, for_bo, for_gm]
    assert visible_to(log, None) == [public]
    assert visible_to(log, "Bo") == [public, for_bo]
    assert visible_to(log, "Ann") == [public]


def test_an_audience_is_a_set_of_whole_seat_names() -> None:
    # Before: the text "Bo" was kept as it was, and the seat "B" read the event ("B" in "Bo").
    with pytest.raises(TypeError, match="a set of seats, not the text 'Bo'"):
        Event(1, Kind.MOVE, "secret", audience=cast(Any, "Bo"))
    event = Event(1, Kind.MOVE, "secret", audience=cast(Any, {"Bo"}))
    assert event.audience == frozenset({"Bo"}) and visible_to([event], "B") == []


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.none(), st.frozensets(st.sampled_from(SEATS))), max_size=12),
       st.one_of(st.none(), st.sampled_from(SEATS)))
def test_a_private_event_never_reaches_the_public_log_nor_a_seat_it_does_not_name(
        audiences: list[frozenset[str] | None], seat: str | None) -> None:
    log = [Event(1, Kind.MOVE, f"event {i}", audience=a) for i, a in enumerate(audiences)]
    shown = visible_to(log, seat)
    assert all(e.audience is None for e in visible_to(log, None))
    assert [e for e in log if e.audience is None] == [e for e in shown if e.audience is None]
    assert all(e.audience is None or (seat is not None and seat in e.audience) for e in shown)
    assert [e for e in log if e in shown] == shown  # in the log's order
