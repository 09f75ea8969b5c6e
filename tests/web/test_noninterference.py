"""Noninterference of the match page: two matches that differ only in what nobody may see (every state a seat's
unseen twin, ``Ruleset.unseen_twin``: hidden units elsewhere, other cards in a bag, another seat's secrets; every
resolution with a private event more, for one seat alone) give byte-identical page files. The page is a function of
the public board and the public Log, and of nothing else."""

from __future__ import annotations

import random
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.engine.events import Event
from sheets_gm.rulesets.registry import ruleset_names
from tests.web.pages import bot_match, build_pages, files_of


class _Secret(Enum):
    SECRET = "secret"


def _twins(name: str, seat_index: int, windows: int, tmp_path: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    rules, start, steps = bot_match(name, windows)
    seat = rules.seats(start)[seat_index % len(rules.seats(start))]
    rng = random.Random(f"twin/{name}/{seat}")

    def twin(state: Any) -> Any:
        return rules.unseen_twin(state, seat, rng)

    hidden = [replace(s, events=(*s.events, Event(s.window.turn, _Secret.SECRET, f"{seat}'s hidden unit X9 at Q7",
                                                  audience=frozenset({seat})))) for s in steps]
    plain = files_of(build_pages(tmp_path / "plain", rules, start, steps))
    other = files_of(build_pages(tmp_path / "twin", rules, start, hidden, twin=twin))
    return plain, other


@pytest.mark.parametrize("name", ruleset_names())
def test_twin_matches_give_the_same_page(name: str, tmp_path: Path) -> None:
    plain, other = _twins(name, 1, 3, tmp_path)
    assert list(plain) == list(other)
    assert [f for f in plain if plain[f] != other[f]] == []
    assert not any(b"hidden unit X9" in data for data in other.values())


@pytest.mark.soak
@pytest.mark.parametrize("name", ruleset_names())
@pytest.mark.parametrize("seat_index", [0, 1, 2])
def test_twin_matches_give_the_same_page_longer(name: str, seat_index: int, tmp_path: Path) -> None:
    plain, other = _twins(name, seat_index, 12, tmp_path)
    assert [f for f in plain if plain[f] != other.get(f)] == []
