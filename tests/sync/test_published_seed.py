"""A published seed never deals another die, in every game and through every GM command (issue 75, item 2). The
property: once a match is over (its end publishes the seed: the "match is over" notice, ``export``), no command
deals a die of it again: ``sync``, ``resolve --force``, ``adjust`` and ``repair`` leave its state, its resolutions
and its deal (the undo count that re-keys the dice) as they are, and the writing ones that refuse write nothing;
``undo`` reopens it (issue 93, item 7) dealing from a fresh seed, the published one kept first in the chain, and
the match verifies. Each game's match is ended by its players' concessions in the quick run, by its bots under
``-m soak``."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from sheets_gm.rulesets.registry import get_game, ruleset_names
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError, adjust_match, undo_window
from sheets_gm.sync.life.export import match_replay
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.life.replay import replay_states
from sheets_gm.sync.poll import poll
from tests.declared import concedes, no_concession
from tests.quick import soak_but
from tests.sync.test_refused_force import _cells
from tests.sync.test_typed_row_lifecycle import NOW, Match

GAMES = [n for n in ruleset_names() if get_game(n).sheet is not None]


def _conceded(game: str) -> Match:
    """A match of ``game`` one window in, ended by its seats' concessions (all but the first)."""
    match = Match(game)
    match.bots_play()
    seats = match.read().record.seats
    for loser in seats[:0:-1]:
        record = match.read().record
        if record.ruleset.window(record.state) is None:
            break
        adjust_match(match.sheets, match.cls, get_game(game).gm_events(seats, {"concede": [loser]}, "gave up"))
    return match


def _played_out(game: str) -> Match:
    """A match of ``game`` played to its end by its bots."""
    match = Match(game)
    while not poll(match.sheets, match.cls, now=NOW, dry_run=True).finished:
        type_bot_orders(match.sheets, match.cls, match.bots)
        poll(match.sheets, match.cls, now=NOW, force=True)
    return match


def _commands(match: Match, game: str) -> dict[str, Callable[[], object]]:
    """Every GM command, as each runs on the match (the sync's own functions under the command line)."""
    seats = match.read().record.seats
    key = match.read().record.last.get("window", "")
    return {
        "sync": lambda: poll(match.sheets, match.cls, now=NOW),
        "resolve --force": lambda: poll(match.sheets, match.cls, now=NOW, force=True, window_key=key),
        "adjust": lambda: adjust_match(match.sheets, match.cls,
                                       get_game(game).gm_events(seats, {"concede": [seats[0]]}, "late")),
        "repair": lambda: repair_match(match.sheets, match.cls),
    }


def _undone(match: Match, window_key: str | None) -> None:
    """An undo of the finished ``match`` (a copy of it): open again, every later die dealt from a seed no notice
    published, the chain keeping the published ones, the whole match verifying. A match its GM's adjustment ended
    refuses ``--window``, naming why (it takes back the adjustment, not a window), and writes nothing."""
    ended = match.read().record
    copied = copy.copy(match)  # its sheets alone: a bot may hold what cannot be copied (Wesnoth's hashes)
    copied.sheets = copy.deepcopy(match.sheets)
    try:
        undo_window(copied.sheets, copied.cls, "the end was too early", window_key=window_key)
    except BetweenWindowsError as exc:
        assert window_key is not None and "run undo without --window" in str(exc), exc
        assert _cells(copied) == _cells(match)
        return
    record = copied.read().record
    assert record.ruleset.window(record.state) is not None, "the undo left the match over"
    assert record.seeds[:-1] == ended.seeds and record.dice_seed not in ended.seeds
    assert record.dice().seed == record.dice_seed and record.deal == ended.deal + 1
    assert replay_states(match_replay(copied.sheets, copied.cls)).difference is None


def check(match: Match, game: str) -> None:
    """Every GM command on the finished ``match``: the seed deals nothing more, a refusal writes nothing."""
    ended = match.read().record
    assert ended.ruleset.window(ended.state) is None
    _undone(match, None)
    _undone(match, ended.last.get("window", ""))
    for name, command in _commands(match, game).items():
        before = _cells(match)
        try:
            refused = bool(getattr(command(), "force_refused", ""))
        except BetweenWindowsError as exc:
            refused = True
            assert "over" in str(exc), f"{game}: {name}: {exc}"
        record = match.read().record
        assert record.ruleset.window(record.state) is None, f"{game}: {name} reopened the finished match"
        assert (record.deal, record.resolved) == (ended.deal, ended.resolved), f"{game}: {name} dealt again"
        codec = record.ruleset.state_codec
        assert codec.to_json(record.state) == codec.to_json(ended.state), f"{game}: {name} changed the state"
        if refused and name != "repair":
            assert _cells(match) == before, f"{game}: {name} refused and wrote"


@pytest.mark.parametrize("game", soak_but(GAMES, "gvg", "winordie"))
def test_no_command_deals_a_die_of_a_finished_match(game: str) -> None:
    if not concedes(game):
        pytest.skip(no_concession(game))
    check(_conceded(game), game)


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_no_command_deals_a_die_of_a_match_its_bots_played_out(game: str) -> None:
    check(_played_out(game), game)
