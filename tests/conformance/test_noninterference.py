"""No seat learns what its rules hide, proven by difference (the engine half; the files and notices half is
``test_noninterference_files.py``).

For every game, at every state of a few seeded bot matches and for every seat S, a twin state that differs only in
what S may not see (``Ruleset.unseen_twin``: another player's face-down units dealt afresh to her tokens, bags
and pools shuffled) must hand S exactly the same view, public board, bot state and bot orders. The twins are
drawn by Hypothesis (a handful in the test command, many more under ``-m soak``). Two deliberate leaks (the
roster's order kept in a bot's state, a hidden unit named in a view) show the property failing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import BotKind, Information
from sheets_gm.rulesets.registry import create_ruleset, ruleset_names
from sheets_gm.rulesets.winordie import engine as wod_engine
from sheets_gm.rulesets.winordie import views as wod_views
from tests.conformance.noninterference import AnyRuleset, canonical, differences
from tests.conformance.test_engine_conformance import MATCH_SEEDS, PlayedMatch, played
from tests.toygame.registered import toy_registered

GAMES = [*ruleset_names(), "tictactoe"]
#: The test command's draws of twins (or of other dice) for each game's match: two, each walking a sixth of its states
#: for every seat; the soak run's 200 draws walk every state.
QUICK = settings(max_examples=2, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
SOAK = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# one worker runs these and the engine conformance tests: the seeded matches they read played once (``played``)
pytestmark = pytest.mark.xdist_group("engine-conformance")


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Iterator[tuple[AnyRuleset, PlayedMatch]]:
    """Each game with one seeded bot match (every state kept): the engine conformance tests' first."""
    with toy_registered():
        rules: AnyRuleset = create_ruleset(request.param)
        yield rules, played(rules, MATCH_SEEDS[0])


def states_of(match: PlayedMatch, every: int = 1) -> list[Any]:
    """The match's states, one in ``every``, the first and the last always in."""
    states = [match.start, *match.states]
    return [s for n, s in enumerate(states) if n % every == 0 or n == len(states) - 1]


def leaks(rules: AnyRuleset, match: PlayedMatch, twin_seed: int, every: int,
          bots: Mapping[str, BotKind] | None = None) -> list[str]:
    """Every difference a seat is handed between a state of ``match`` and its twins (drawn from ``twin_seed``)."""
    found: list[str] = []
    for n, state in enumerate(states_of(match, every)):
        for seat in rules.seats(state):
            twin = rules.unseen_twin(state, seat, random.Random(f"{twin_seed}/{n}/{seat}"))
            found += [f"state {n}: {d}" for d in differences(rules, state, twin, seat, bots)]
    return found


@given(twin_seed=st.integers(0, 2**32))
@QUICK
def test_a_seat_is_handed_the_same_whatever_it_may_not_see(game: tuple[AnyRuleset, PlayedMatch],
                                                            twin_seed: int) -> None:
    rules, match = game
    assert leaks(rules, match, twin_seed, every=max(1, len(match.states) // 6)) == []


@pytest.mark.soak
@given(twin_seed=st.integers(0, 2**32))
@SOAK
def test_soak_a_seat_is_handed_the_same_whatever_it_may_not_see(game: tuple[AnyRuleset, PlayedMatch],
                                                                 twin_seed: int) -> None:
    rules, match = game
    assert leaks(rules, match, twin_seed, every=1) == []


def test_a_game_that_hides_state_draws_twins_that_differ(game: tuple[AnyRuleset, PlayedMatch]) -> None:
    """A game with hidden state must vary it, or the property above proves nothing for it."""
    rules, match = game
    if rules.traits.information is not Information.HIDDEN_STATE:
        pytest.skip(f"{rules.traits.name}'s only secrets are the orders not yet resolved and the seed")
    codec = rules.state_codec
    varied = [state for state in states_of(match) for seat in rules.seats(state)
              if canonical(codec.to_json(rules.unseen_twin(state, seat, random.Random(seat))))
              != canonical(codec.to_json(state))]
    assert len(varied) >= len(match.states) // 2, "the twins are the states themselves"


# -- the feedback before a window resolves tells no roll --------------------------------------------------------
def verdicts_by_seed(rules: AnyRuleset, match: PlayedMatch, other_seed: bytes, every: int) -> list[str]:
    """Every state of ``match`` (one in ``every``) whose check of the bots' orders differs between the match's dice
    and the dice of ``other_seed`` that agree on every roll the game has published (``Ruleset.rolls_shown``)."""
    found: list[str] = []
    states = [match.start, *match.states]
    for n, (state, orders_json) in enumerate(zip(states, match.orders_json, strict=False)):
        if n % every:
            continue
        orders = rules.orders_codec.from_json(orders_json)
        dice = rules.dice(match.seed, state)
        shown = rules.rolls_shown(state, dice)
        other = rules.dice(other_seed, state, shown)
        mine, theirs = rules.check(state, orders, dice), rules.check(state, orders, other)
        found += [f"{match.windows[n].label}: {a.subject} {a.part}: {a.message!r} / {b.message!r}"
                  for a, b in zip(mine, theirs, strict=False) if a != b]
        if len(mine) != len(theirs):
            found.append(f"{match.windows[n].label}: {len(mine)} verdicts / {len(theirs)}")
    return found


@given(other_seed=st.binary(min_size=1, max_size=8))
@QUICK
def test_a_check_tells_no_roll_that_is_not_published(game: tuple[AnyRuleset, PlayedMatch], other_seed: bytes) -> None:
    """Whatever the dice would roll, the check of the same orders says the same: nobody learns a roll from the
    feedback before committing (a game's published rolls, GvG's movement dice, are the same in both)."""
    rules, match = game
    assert verdicts_by_seed(rules, match, other_seed, every=max(1, len(match.states) // 6)) == []


@pytest.mark.soak
@given(other_seed=st.binary(min_size=1, max_size=8))
@SOAK
def test_soak_a_check_tells_no_roll_that_is_not_published(game: tuple[AnyRuleset, PlayedMatch],
                                                          other_seed: bytes) -> None:
    rules, match = game
    assert verdicts_by_seed(rules, match, other_seed, every=1) == []


# -- the property fails with a leak put back -------------------------------------------------------------------
@pytest.fixture(scope="module")
def winordie() -> tuple[AnyRuleset, PlayedMatch]:
    rules: AnyRuleset = create_ruleset("winordie")
    return rules, played(rules, MATCH_SEEDS[0])


def test_the_roster_order_kept_in_a_bot_s_state_is_found(winordie: tuple[AnyRuleset, PlayedMatch],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The defect of issue 51: the other player's face-down units kept in roster order (her leader first)."""
    fixed = wod_views.seat_state

    def in_roster_order(state: Any, seat: str) -> Any:
        known = fixed(state, seat)
        place = {f"{u.owner}-{u.token}": n for n, u in enumerate(state.units) if u.token}
        known.units.sort(key=lambda u: place.get(u.id, -1) if u.owner != seat else -1)
        return known

    monkeypatch.setattr(wod_engine, "seat_state", in_roster_order)
    rules, match = winordie
    assert any("its bot's state differs" in d for d in leaks(rules, match, 7, every=1))


def test_a_check_on_the_window_s_own_dice_is_found(winordie: tuple[AnyRuleset, PlayedMatch],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 51's other defect put back: the check run on the real dice, so that the feedback says the damage."""
    monkeypatch.setattr(TurnDice, "blinded", lambda self, shown=None: self)
    rules, match = winordie
    assert any("deals" in d for d in verdicts_by_seed(rules, match, b"another seed", every=1))


def test_a_hidden_unit_named_in_a_view_is_found(winordie: tuple[AnyRuleset, PlayedMatch],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that names which card stands behind the other player's first token."""
    fixed = wod_views.view_of

    def naming(rules: Any, state: Any, seat: str | None) -> dict[str, Any]:
        view = fixed(rules, state, seat)
        hidden = sorted((u for u in state.units if u.hidden and u.token and u.owner != seat), key=lambda u: u.token)
        return {**view, "log": [f"{u.token} is {u.card}" for u in hidden[:1]]}

    monkeypatch.setattr(wod_engine, "view_of", naming)
    rules, match = winordie
    assert any("its view differs" in d for d in leaks(rules, match, 7, every=1))


def test_the_bot_attacks_the_same_token_whichever_unit_stands_behind_it(
        winordie: tuple[AnyRuleset, PlayedMatch]) -> None:
    """Issue 51's finding as it was seen: two of a player's face-down units swapped between their hexes, the
    other player's bot gives the same orders."""
    rules, match = winordie
    for state in match.states:
        window = rules.window(state)
        if window is None:
            continue
        (seat,) = window.seats
        hidden = [u for u in state.units if u.owner != seat and u.hidden and u.token]
        if len(hidden) < 2:
            continue
        twin = state.copy()
        a, b = (u for u in twin.units if u.id in {hidden[0].id, hidden[1].id})
        a.at, b.at, a.token, b.token = b.at, a.at, b.token, a.token
        assert differences(rules, state, twin, seat) == []
        assert canonical(replace(state).to_json()) != canonical(twin.to_json())
        return
    pytest.fail("no state with two face-down tokens of the other player")
