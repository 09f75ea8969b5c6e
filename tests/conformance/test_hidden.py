"""Noninterference, for every game whose record declares what each seat alone may know (``Game.hidden``): one seat's
secrets drawn anew change nothing another seat may see (its view, its ``seat_state``) nor the public board, and do
change what that seat sees (else the test could not fail)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from sheets_gm.rulesets.registry import create_ruleset, get_game, ruleset_names
from tests.conformance.test_engine_conformance import MATCH_SEEDS, play
from tests.sync.race_game import registered_race

__all__ = ["registered_race"]


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)


@pytest.fixture(params=[*ruleset_names(), "race"])
def name(request: pytest.FixtureRequest, registered_race: Any) -> Iterator[str]:
    """Every registered game that declares its secrets, and the tests' race (its runners' stamina)."""
    if get_game(request.param).hidden is None:
        pytest.skip(f"{request.param} declares no secrets as data (Game.hidden)")
    yield str(request.param)


def test_one_seats_secrets_redrawn_change_nothing_another_seat_or_the_public_sees(name: str) -> None:
    rules = create_ruleset(name)
    hidden = get_game(name).hidden
    assert hidden is not None
    match = play(rules, MATCH_SEEDS[0])
    rng, changed = random.Random(name), 0
    for state in [match.start, *match.states][::3]:
        for seat in rules.seats(state):
            other = hidden.redraw(rules, state, seat, rng)
            changed += _canonical(rules.view(other, seat)) != _canonical(rules.view(state, seat))
            assert _canonical(rules.view(other, None)) == _canonical(rules.view(state, None)), \
                f"{name}: the public board changes with {seat}'s secrets"
            for them in rules.seats(state):
                if them != seat:
                    assert _canonical(rules.view(other, them)) == _canonical(rules.view(state, them)), \
                        f"{name}: {them}'s view changes with {seat}'s secrets"
                    assert _canonical(rules.state_codec.to_json(rules.seat_state(other, them))) == _canonical(
                        rules.state_codec.to_json(rules.seat_state(state, them))), \
                        f"{name}: what a bot playing {them} is given changes with {seat}'s secrets"
    assert changed, f"{name}: redrawing a seat's secrets never changed what it sees"
