"""No seat learns what its rules hide after the window resolves either, and an engine keeps nothing of orders it did
not carry out: two properties of every game (the toy game too), proven by difference on twins.

- **Across the resolution**: at states of a seeded bot match, for every seat S, twins that differ only in what S may
  not see (the state's hidden part, ``Ruleset.unseen_twin``; the other seats' orders), resolved through the same
  orders of S, must give S the same lines of the Log and the public the same public lines, but for the lines of the
  kinds the game names as reveals (``Ruleset.reveals``: a fight's square, a unit that attacks); what the new state
  shows is its views' to say (held to noninterference state by state, ``test_noninterference.py``), and where S's
  view and reveals are the same, its bot's state and orders are too. An engine that publishes a hidden move ("Ann
  moves to B2.") fails it.
- **Nothing kept of orders not carried out**: twin windows whose orders differ (other bots, a seat typing nothing),
  after which every seat's view and the public board are the same, end in the same engine state: orders nobody is
  shown carried out were not carried out, and the state holds nothing derived from them. An engine that keeps a
  window's orders out of every view and its bot's state, to carry them out a window late, fails it.

A few states in the quick run, every state under ``-m soak``; the planted engines are ``tests/conformance/scouts.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from sheets_gm.engine.ruleset import JUDGE, BotKind, Information
from sheets_gm.rulesets.registry import bots_of, create_ruleset, ruleset_names
from tests.conformance import scouts
from tests.conformance.noninterference import AnyRuleset, canonical, differences_after, kept_differences
from tests.conformance.test_engine_conformance import PlayedMatch, play
from tests.toygame.registered import toy_registered

GAMES = [*ruleset_names(), "tictactoe"]


@dataclass
class Walked:
    """What a walk over a match found, and how many twins it compared (a property over no twin proves nothing)."""

    found: list[str] = field(default_factory=list)
    hidden: int = 0  # twins differing in the state's hidden part, compared across the resolution
    orders: int = 0  # twins differing in other seats' orders, compared across the resolution
    kept: int = 0  # twin windows compared for what the state keeps


def orders_of(rules: AnyRuleset, state: Any, seed: bytes, makers: Mapping[str, Any], skip: str = "") -> Any:
    """The orders of every seat acting in ``state`` (the judge too), each from its maker's bot, ``skip`` typing
    none."""
    window = rules.window(state)
    seats = [s for s in (window.seats if window else ()) if s != skip]
    dice = rules.dice(seed, state)
    return rules.merge_orders({s: makers[s].orders(state, s, dice) for s in seats})


def twin_orders(rules: AnyRuleset, state: Any, seed: bytes, seat: str, n: int, kinds: Mapping[str, BotKind],
                most: int) -> list[tuple[Any, Any]]:
    """Pairs of orders for the window of ``state`` that differ only in what seats other than ``seat`` type: the
    others' bots made from another secret and of another kind, and each other seat typing nothing (the first
    ``most`` of them after ``seat``)."""
    seats = (*rules.seats(state), JUDGE)
    first = list(kinds.values())
    one = {s: first[0].make(f"one/{n}/{s}") for s in seats}
    other = {s: (one[s] if s == seat else first[(n + 1) % len(first)].make(f"another/{n}/{s}")) for s in seats}
    mine = orders_of(rules, state, seed, one)
    window = rules.window(state)
    pairs = [(mine, orders_of(rules, state, seed, other))]
    acting = list(window.seats if window else ())
    after = acting[acting.index(seat) + 1:] + acting[:acting.index(seat)] if seat in acting else acting
    pairs += [(mine, orders_of(rules, state, seed, one, skip=s)) for s in after[:most]]
    codec = rules.orders_codec
    return [(a, b) for a, b in pairs if canonical(codec.to_json(a)) != canonical(codec.to_json(b))]


def walk(rules: AnyRuleset, match: PlayedMatch, every: int, bots: Mapping[str, BotKind] | None = None,
         most: int = 99) -> Walked:
    """Both properties (see the module) at one state of ``match`` in ``every``, for the first ``most`` seats (and of
    the seats typing nothing in their twins, the first ``most`` after each)."""
    kinds = bots or bots_of(rules)
    out = Walked()
    states = [match.start, *match.states]
    for n, (state, orders_json) in enumerate(zip(states, match.orders_json, strict=False)):
        if n % every:
            continue
        played = rules.orders_codec.from_json(orders_json)
        for seat in rules.seats(state)[:most]:
            twin = rules.unseen_twin(state, seat, random.Random(f"{n}/{seat}"))
            pairs = [] if canonical(rules.state_codec.to_json(twin)) == canonical(rules.state_codec.to_json(state)) \
                else [("hidden", ((state, played), (twin, played)))]
            crossed = twin_orders(rules, state, match.seed, seat, n, kinds, most)
            pairs += [("orders", ((state, a), (state, b))) for a, b in crossed]
            for what, twins in pairs:
                found, compared = differences_after(rules, twins, match.seed, seat, bots)
                out.found += [f"{match.windows[n].label} ({what} twins): {d}" for d in found]
                setattr(out, what, getattr(out, what) + compared)
            for a, b in crossed:
                found, compared = kept_differences(rules, state, (a, b), match.seed)
                out.found += [f"{match.windows[n].label}, orders of {seat}'s others differing: {d}" for d in found]
                out.kept += compared
    return out


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Iterator[tuple[AnyRuleset, PlayedMatch]]:
    """Each game with one seeded bot match (every state kept)."""
    with toy_registered():
        rules: AnyRuleset = create_ruleset(request.param)
        yield rules, play(rules, b"noninterference/after")


def said(rules: AnyRuleset, walked: Walked) -> str:
    """What a contributor is told when the walk found something: which property, and where."""
    return (f"{rules.traits.title}: what a seat is handed after a resolution depends on what the rules hide from it "
            "(a line of the Log, public or its own, that is no declared reveal: list its kind in the engine's "
            "`reveals` if a rule reveals it), or the state keeps what no one was shown (orders not carried out in "
            "their window): " + " | ".join(walked.found[:6]))


def test_a_resolution_tells_a_seat_nothing_its_rules_hide_but_their_reveals(
        game: tuple[AnyRuleset, PlayedMatch]) -> None:
    rules, match = game
    with toy_registered():
        walked = walk(rules, match, every=max(1, len(match.states) // 5), most=3)
    assert walked.found == [], said(rules, walked)
    if rules.traits.information is Information.HIDDEN_STATE:
        assert walked.hidden, f"{rules.traits.title}: no twins of its hidden state were compared: it proves nothing"


@pytest.mark.soak
def test_soak_a_resolution_tells_a_seat_nothing_its_rules_hide_but_their_reveals(
        game: tuple[AnyRuleset, PlayedMatch]) -> None:
    rules, match = game
    with toy_registered():
        walked = walk(rules, match, every=1)
    assert walked.found == [], said(rules, walked)


# -- each property fails with its defect planted: a small game of hidden positions ----------------------------------
def scouts_walk(rules: scouts.Rules) -> Walked:
    """Both properties walked over a match of the game of scouts with ``rules``."""
    return walk(rules, play(rules, b"scouts", kinds=scouts.BOTS), every=1, bots=scouts.BOTS)


def test_the_game_of_scouts_keeps_its_positions_hidden() -> None:
    walked = scouts_walk(scouts.Rules(scouts.Settings()))
    assert walked.found == [] and walked.hidden and walked.orders, walked


def test_a_hidden_move_published_after_the_resolution_is_found() -> None:
    walked = scouts_walk(scouts.Rules(scouts.Settings(publish_moves=True)))
    assert any("the public Log's other lines differs, though nothing public does: " in d and " moves to " in d
               for d in walked.found), walked.found


def test_orders_kept_hidden_and_carried_out_a_window_late_are_found() -> None:
    walked = scouts_walk(scouts.Rules(scouts.Settings(late=True)))
    assert any("the state keeps what nobody is shown: kept." in d for d in walked.found), walked.found
    assert not any("differs, though" in d for d in walked.found), walked.found  # the bot is handed none of it
