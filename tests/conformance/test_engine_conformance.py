"""One conformance test for every registered ruleset (the engine half), like OpenSpiel's random_sim_test.

Each ruleset plays a few bot matches from its sample roster on its default board, through the
``Ruleset`` interface only, and must show that: bots only produce accepted orders; state
and orders JSON round-trip; the same seed gives the same match; a replay from the first
state and each window's orders (as JSON) ends in the same state; no view shows another
seat's secrets; and a match ends within ``traits.max_windows``.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from sheets_gm.engine.ruleset import JUDGE, BotKind, Roster, Ruleset, Window
from sheets_gm.rulesets.registry import bots_of, create_ruleset, ruleset_names
from tests.conformance.outside_dice import OUTSIDE_DICE, outside_draws
from tests.toygame.engine import ToyRuleset, ToySettings, ToyState
from tests.toygame.registered import toy_registered

AnyRuleset = Ruleset[Any, Any, Any]
#: The seeds of the matches every check reads (``matches``): two in the test command, which tell the seeds' matches
#: apart; the soak run also plays ``SOAK_SEED``'s through the checks of one match
#: (``test_soak_a_third_seeded_match_passes_every_check_of_a_match``).
MATCH_SEEDS = (b"conformance/1", b"conformance/2")
SOAK_SEED = b"conformance/3"
# one worker runs these: it plays each game's seeded matches (the module's ``matches``) once a run, not each
pytestmark = pytest.mark.xdist_group("engine-conformance")


@dataclass
class PlayedMatch:
    """A bot match as the conformance test keeps it: every state, window and order, as JSON too."""

    start: Any
    states: list[Any] = field(default_factory=list)  # after each window
    windows: list[Window] = field(default_factory=list)
    orders_json: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    events: int = 0
    seed: bytes = b""  # the match's seed: its dice
    outside: list[str] = field(default_factory=list)  # where the game drew from Python's random: outside_dice.py


def play(rules: AnyRuleset, seed: bytes, bot: str | None = None,
         kinds: Mapping[str, BotKind] | None = None) -> PlayedMatch:
    """A whole match with one bot kind on every seat (default: the ruleset's first), of the game's kinds of bot or
    of ``kinds``; where the game drew outside its dice kept in ``outside``."""
    played, outside = outside_draws(lambda: _played(rules, seed, bot, kinds))
    played.outside = outside
    return played


#: The matches ``played`` kept, by the ruleset's class, its settings and the seed.
_PLAYED: dict[tuple[type, str, bytes], PlayedMatch] = {}


def played(rules: AnyRuleset, seed: bytes) -> PlayedMatch:
    """``play``'s match of the ruleset's first bot kind, played once a test process for its class, settings and seed:
    the engine tests read the same matches (this module's ``matches``, the non-interference walks), and none changes
    one. A test that plays a match again to compare (the same seed, the same match) calls ``play``."""
    key = (type(rules), repr(rules.settings), seed)
    if key not in _PLAYED:
        _PLAYED[key] = play(rules, seed)
    return _PLAYED[key]


def _played(rules: AnyRuleset, seed: bytes, bot: str | None, kinds: Mapping[str, BotKind] | None) -> PlayedMatch:
    """``play``'s match, played."""
    factories = kinds or bots_of(rules)
    make = factories[bot or next(iter(factories))].make
    start = rules.new_match(rules.sample_roster(), seed)
    judge = (JUDGE,) if rules.traits.judge else ()  # a judge's window lists JUDGE, which is no seat
    bots = {seat: make(f"{seed.hex()}/{seat}") for seat in (*rules.seats(start), *judge)}
    played = PlayedMatch(start, seed=seed)
    state = start
    for _ in range(rules.traits.max_windows + 1):
        window = rules.window(state)
        if window is None:
            break
        dice = rules.dice(seed, state)
        orders = rules.merge_orders({seat: bots[seat].orders(state, seat, dice) for seat in window.seats})
        resolution = rules.resolve(state, orders, rules.dice(seed, state))
        # the verdicts of the resolution where it gives them (a bot given the window's dice plans past a kill, which
        # a check on blind dice judges as if the fight changed nothing), else the check's
        said = resolution.verdicts or rules.check(state, orders, dice)
        played.refused += [f"{window.label}: {v.subject} {v.part}: {v.message}" for v in said if not v.accepted]
        played.windows.append(window)
        played.orders_json.append(rules.orders_codec.to_json(orders))
        played.events += len(resolution.events)
        state = resolution.state
        played.states.append(state)
    return played


def canonical(data: Any) -> str:
    """JSON text that compares equal for equal data."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


@pytest.fixture(scope="module", params=[*ruleset_names(), "tictactoe"])
def rules(request: pytest.FixtureRequest) -> Iterator[AnyRuleset]:
    """Each registered ruleset with its default settings on its default board, and the tests' own small game."""
    with toy_registered():
        yield create_ruleset(request.param)


@pytest.fixture(scope="module")
def matches(rules: AnyRuleset) -> list[PlayedMatch]:
    """A few seeded bot matches of the ruleset (played once a process: ``played``)."""
    return [played(rules, seed) for seed in MATCH_SEEDS]


def test_traits_are_declared(rules: AnyRuleset) -> None:
    traits = rules.traits
    assert 1 <= traits.min_seats <= traits.max_seats
    assert traits.max_windows > 0
    assert isinstance(rules.settings, traits.settings_type)
    seats = rules.sample_roster().seats
    assert traits.min_seats <= len(seats) <= traits.max_seats
    assert len(set(seats)) == len(seats)


def test_bots_only_give_accepted_orders(rules: AnyRuleset, matches: list[PlayedMatch]) -> None:
    for match in matches:
        assert match.refused == []


def test_every_bot_kind_gives_accepted_orders(rules: AnyRuleset) -> None:
    """Every other kind of bot than the first, whose matches (``matches``) the test above reads."""
    for bot in list(bots_of(rules))[1:]:
        assert play(rules, b"conformance/bots", bot).refused == [], bot


def test_a_match_ends_within_its_cap(rules: AnyRuleset, matches: list[PlayedMatch]) -> None:
    for match in matches:
        last = match.states[-1]
        assert rules.window(last) is None, f"still open after {len(match.windows)} windows"
        assert len(match.windows) <= rules.traits.max_windows
        outcome = rules.outcome(last)
        assert outcome is not None and outcome.text
        assert set(outcome.winners) <= set(rules.seats(last))


def test_state_json_round_trips(rules: AnyRuleset, matches: list[PlayedMatch]) -> None:
    for match in matches:
        for state in [match.start, *match.states]:
            codec = rules.state_codec
            data = codec.to_json(state)
            assert canonical(codec.to_json(codec.from_json(json.loads(canonical(data))))) == canonical(data)


def test_orders_json_round_trips(rules: AnyRuleset, matches: list[PlayedMatch]) -> None:
    for match in matches:
        for data in match.orders_json:
            codec = rules.orders_codec
            assert canonical(codec.to_json(codec.from_json(json.loads(canonical(data))))) == canonical(data)


UNKEYED = ("the game used randomness that is not the match's dice (Python's random, the clock, a set's order): "
           "every roll of a resolution is the TurnDice's it is handed (dice.d6(key)...), so that a match replays "
           "exactly and a scenario pins it")


def unkeyed(rules: AnyRuleset, match: PlayedMatch) -> str:
    """Where resolving the same state with the same orders and dice twice gives two results (the first such window,
    both results named), '' where none does: a resolution must be a function of those three alone."""
    for state, window, data in zip([match.start, *match.states], match.windows, match.orders_json, strict=False):
        done = [rules.resolve(state, rules.orders_codec.from_json(data), rules.dice(match.seed, state))
                for _ in range(2)]
        said = [canonical([rules.state_codec.to_json(d.state), [e.to_json() for e in d.events]]) for d in done]
        if said[0] != said[1]:
            where = next(n for n, (a, b) in enumerate(zip(*said, strict=False)) if a != b)
            start = max(0, where - 40)
            return f"{UNKEYED}: {window.label} resolved twice gave …{said[0][start:where + 60]}… / " \
                   f"…{said[1][start:where + 60]}…"
    return ""


def reused_keys(match: PlayedMatch) -> str:
    """Where two windows of ``match`` have one key, as a failing test says it ('' where none do): the key stamps
    what a player types for its window, so that a row typed for one window is never carried out in another (one
    window resolved in steps keeps its key: the same label, phase, turn and seats)."""
    first: dict[str, Window] = {}
    for window in match.windows:
        seen = first.setdefault(window.key, window)
        if (seen.label, seen.phase, seen.turn, seen.seats) != (window.label, window.phase, window.turn, window.seats):
            return (f"{window.label} has the key {window.key!r} of {seen.label}: each window's key must be its own "
                    "(the turn's number, say), or the orders typed for one are bound to the next")
    return ""


def test_each_window_has_a_key_of_its_own(matches: list[PlayedMatch]) -> None:
    assert not (found := next(filter(None, map(reused_keys, matches)), "")), found


def test_a_resolution_is_a_function_of_the_state_the_orders_and_the_dice(rules: AnyRuleset,
                                                                          matches: list[PlayedMatch]) -> None:
    found = unkeyed(rules, matches[0])
    assert not found, found


def drawn_outside(match: PlayedMatch) -> str:
    """Where the match drew outside its dice, as a failing test says it ('' where it never did)."""
    return f"{OUTSIDE_DICE}; it drew at {', '.join(match.outside)}" if match.outside else ""


def test_the_rules_draw_only_the_match_s_dice(matches: list[PlayedMatch]) -> None:
    assert not (found := next(filter(None, map(drawn_outside, matches)), "")), found


class _ShuffledSeats(ToyRuleset):
    """A planted mistake: who marks first drawn with Python's random, in the set-up."""

    def new_match(self, roster: Roster, seed: bytes) -> ToyState:
        """The toy game's grid, its players in an order Python's random draws."""
        state = super().new_match(roster, seed)
        return replace(state, players=tuple(random.sample(state.players, 2)))  # type: ignore[arg-type]


def test_a_game_that_draws_python_s_random_is_told_where() -> None:
    with toy_registered():
        said = drawn_outside(play(_ShuffledSeats(ToySettings()), MATCH_SEEDS[0]))
    line = inspect.getsourcelines(_ShuffledSeats.new_match)[1] + 3
    assert said.startswith("the rules drew outside the match's dice"), said
    assert said.endswith(f"it drew at tests/conformance/test_engine_conformance.py:{line}"), said


def test_the_same_seed_gives_the_same_match(rules: AnyRuleset, matches: list[PlayedMatch]) -> None:
    again = play(rules, MATCH_SEEDS[0])
    first = matches[0]
    assert [canonical(o) for o in again.orders_json] == [canonical(o) for o in first.orders_json], \
        drawn_outside(first) or unkeyed(rules, first) or "the bots gave other orders from the same seed"
    state_json = rules.state_codec.to_json
    assert canonical(state_json(again.states[-1])) == canonical(state_json(first.states[-1])), \
        drawn_outside(first) or unkeyed(rules, first)


def test_different_seeds_give_different_matches(rules: AnyRuleset, matches: list[PlayedMatch]) -> None:
    finals = {canonical(rules.state_codec.to_json(m.states[-1])) for m in matches}
    assert len(finals) > 1


def test_a_replay_from_json_ends_in_the_same_state(rules: AnyRuleset, matches: list[PlayedMatch]) -> None:
    for match in matches:
        state = rules.state_codec.from_json(json.loads(canonical(rules.state_codec.to_json(match.start))))
        for window, data in zip(match.windows, match.orders_json, strict=True):
            assert rules.window(state) == window, unkeyed(rules, match) or f"the replay left {window.label}"
            state = rules.resolve(state, rules.orders_codec.from_json(data), rules.dice(match.seed, state)).state
        assert canonical(rules.state_codec.to_json(state)) == canonical(rules.state_codec.to_json(match.states[-1])), \
            unkeyed(rules, match)


def test_no_view_shows_another_seats_secrets(rules: AnyRuleset, matches: list[PlayedMatch]) -> None:
    for match in matches:
        for state in [match.start, *match.states]:
            seats = rules.seats(state)
            public = canonical(rules.view(state, None))
            secrets = {owner: rules.secrets(state, owner) for owner in seats}
            views = {seat: canonical(rules.view(state, seat)) for seat in seats} if any(secrets.values()) else {}
            for owner in seats:  # each view made once a state, not once per secret
                for secret in secrets[owner]:
                    assert secret not in public, f"the public view shows {owner}'s {secret!r}"
                    for seat in seats:
                        if seat != owner:
                            assert secret not in views[seat], f"{seat}'s view shows {owner}'s {secret!r}"


def test_a_game_that_shapes_its_views_says_what_a_bot_playing_a_seat_knows(rules: AnyRuleset) -> None:
    cls = type(rules)
    if cls.view is not Ruleset.view:
        assert cls.seat_state is not Ruleset.seat_state, \
            f"{cls.__name__} writes its views but not seat_state: a bot playing a seat would be given the whole state"


def test_a_seat_sees_its_own_secrets(rules: AnyRuleset, matches: list[PlayedMatch]) -> None:
    state = matches[0].start
    for seat in rules.seats(state):
        mine = canonical(rules.view(state, seat))
        for secret in rules.secrets(state, seat):
            assert secret in mine


def test_no_orders_resolve_too(rules: AnyRuleset) -> None:
    state = rules.new_match(rules.sample_roster(), b"idle")
    resolution = rules.resolve(state, rules.no_orders(), rules.dice(b"idle", state))
    assert rules.check(state, rules.no_orders(), rules.dice(b"idle", state)) == []
    assert canonical(rules.state_codec.to_json(state)) == canonical(rules.state_codec.to_json(
        rules.new_match(rules.sample_roster(), b"idle")))  # the input is not changed
    assert resolution.state is not state


@pytest.mark.soak
def test_soak_a_third_seeded_match_passes_every_check_of_a_match(rules: AnyRuleset) -> None:
    """The checks each seeded match goes through (``matches``), on the soak run's third seed."""
    third = [played(rules, SOAK_SEED)]
    for check in (test_bots_only_give_accepted_orders, test_a_match_ends_within_its_cap, test_state_json_round_trips,
                  test_orders_json_round_trips, test_a_replay_from_json_ends_in_the_same_state,
                  test_no_view_shows_another_seats_secrets):
        check(rules, third)
    test_each_window_has_a_key_of_its_own(third)
    test_the_rules_draw_only_the_match_s_dice(third)
