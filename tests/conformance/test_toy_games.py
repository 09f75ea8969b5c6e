"""The shared suite's own examples: three toy games of three shapes, written for the tests, each clean and with
mistakes planted one at a time, which the shared engine checks must catch (``toy_checks.py`` runs them as the
shared tests do, for every game).

- ``coins.py``: no map; sealed takes from a pot, told publicly;
- ``scouts.py``: hidden positions only; meetings told to those who meet;
- ``auction.py``: sealed simultaneous bids with a public reveal, a secret favourite revealed at the end, and the
  losing bids secret for ever.

Each planted mistake names the check that must catch it and words of what it says. A few examples each: a toy's
match is four to six windows, walked whole. A secret after the end is one too: what no reveal declares stays secret
for ever (the auction's losing bids), and the walk across a resolution always takes the last window's, whose
resolution ends the match (``test_the_quick_walk_holds_what_stays_secret_after_the_end``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from sheets_gm.engine.ruleset import BotKind
from tests.conformance import auction, coins, scouts
from tests.conformance.noninterference import AnyRuleset
from tests.conformance.test_engine_conformance import play
from tests.conformance.test_noninterference_resolution import walk
from tests.conformance.toy_checks import failing

#: Each toy game: its rules made with a mistake's setting (none: clean), and its bots.
TOYS: dict[str, tuple[Any, Mapping[str, BotKind]]] = {
    "coins": (lambda **mistake: coins.Rules(coins.Settings(**mistake)), coins.BOTS),
    "scouts": (lambda **mistake: scouts.Rules(scouts.Settings(**mistake)), scouts.BOTS),
    "auction": (lambda **mistake: auction.Rules(auction.Settings(**mistake)), auction.BOTS),
}

#: Each planted mistake: the toy, its setting, the shared check that must fail on it, and words that check must say.
PLANTED = [
    ("auction", "losing_bids_public", "resolution", "differs, though nothing it is shown does: [1]: 'Losing bids: "),
    ("auction", "bids_in_sale_line", "resolution", "the public reveals of kind Kind.SOLD differ, though the fields"),
    ("auction", "favourite_in_sale_line", "resolution", "of kind Kind.SOLD differ, though the fields its reveal"),
    ("auction", "late", "resolution", "the state keeps what nobody is shown: kept."),
    ("auction", "bids_told_at_end", "resolution", "the public reveals of kind Kind.END differ, though the fields"),
    ("auction", "random_setup", "dice", "the rules drew outside the match's dice"),
    ("auction", "feedback_names_others", "resolution", "its feedback differs"),
    ("auction", "random_tie", "dice", "the rules drew outside the match's dice"),
    ("auction", "fixed_window", "keys", "has the key 'lot' of lot 1: the Vase"),
    ("coins", "random_setup", "dice", "the rules drew outside the match's dice"),
    ("coins", "fixed_window", "keys", "has the key 'turn' of turn 1"),
    ("coins", "late", "resolution", "the state keeps what nobody is shown: kept."),
    ("scouts", "publish_moves", "resolution", "the public Log's other lines differs, though nothing"),
    ("scouts", "late", "resolution", "the state keeps what nobody is shown: kept."),
    ("scouts", "random_start", "dice", "the rules drew outside the match's dice"),
    ("scouts", "fixed_window", "keys", "has the key 'turn' of turn 1"),
]


def rules_of(toy: str, **mistake: bool) -> tuple[AnyRuleset, Mapping[str, BotKind]]:
    """The toy's rules (with ``mistake`` planted) and its bots."""
    make, bots = TOYS[toy]
    return make(**mistake), bots


@pytest.mark.parametrize("toy", list(TOYS))
def test_a_clean_toy_game_passes_every_shared_check(toy: str) -> None:
    assert failing(*rules_of(toy)) == {}


@pytest.mark.parametrize(("toy", "mistake", "check", "words"), PLANTED, ids=[f"{t}-{m}" for t, m, _, _ in PLANTED])
def test_a_planted_mistake_fails_its_shared_check(toy: str, mistake: str, check: str, words: str) -> None:
    found = failing(*rules_of(toy, **{mistake: True}))
    assert check in found and words in found[check], found
    if mistake == "late":  # kept out of every view and the bots' state: nothing a seat is handed differs
        assert "differs, though" not in found[check], found


def test_the_quick_walk_holds_what_stays_secret_after_the_end() -> None:
    """The auction's losing bids stay secret after the end: its last line telling the last lot's losing bids is
    found by the walk the quick run makes of every game (one window in five, and always the last)."""
    rules, bots = rules_of("auction", bids_told_at_end=True)
    match = play(rules, b"toy", kinds=bots)
    walked = walk(rules, match, every=len(match.windows), bots=bots)
    assert any("of kind Kind.END differ" in d for d in walked.found), walked.found
