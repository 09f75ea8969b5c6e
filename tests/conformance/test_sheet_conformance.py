"""One conformance test for every ruleset with a sheet adapter (the sheet half): a bot match played
through spreadsheets, with the real sync, must be the pure engine's match.

Each seat's bot types its orders into its own spreadsheet and ticks Ready, the sync polls, and
the test checks that: every poll reads each spreadsheet once; a resolution writes each
spreadsheet once; the match ends within ``traits.max_windows``; its final state is the state
the pure engine reaches with the orders the bots typed and the same seed; and no seat's
spreadsheet, nor the public board and log, shows another seat's secrets.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.rulesets.registry import (
    AnyRuleset,
    bots_of,
    create_ruleset,
    get_game,
    get_ruleset,
    ruleset_names,
)
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import MemoryBackend
from tests.quick import soak_but
from tests.sync.race_game import registered_race
from tests.toygame.registered import toy_registered

__all__ = ["registered_race"]

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
SEED = b"sheet-conformance"


def _with_sheets() -> list[str]:
    return [n for n in ruleset_names() if get_game(n).sheet is not None]


# Quick: GvG, Win or Die and the tests' own games; Wesnoth (2.3 s), Coalition and Champions (9 s) in the soak run: the
# poll under test is the same for every game, and each of them plays windows through the sheets elsewhere in the
# quick run (test_verify_untouched.py's walk after an undo, every game).
@pytest.fixture(params=soak_but([*_with_sheets(), "race", "tictactoe"], "gvg", "winordie", "race", "tictactoe"))
def ruleset_name(request: pytest.FixtureRequest, registered_race: Any) -> Iterator[str]:
    """Every registered ruleset with a sheet adapter, and the tests' own games."""
    with toy_registered():
        yield str(request.param)


def _cells(backend: MemoryBackend) -> str:
    return "\n".join(str(v) for tab in backend.tabs.values() for v in tab.values() if v not in (None, ""))


def test_a_bot_match_through_the_sheets_is_the_engine_match(ruleset_name: str) -> None:
    rules: AnyRuleset = create_ruleset(ruleset_name)
    traits = rules.traits
    roster = rules.sample_roster()
    seats = roster.seats
    board, engine = MemoryBackend("board"), MemoryBackend("engine")
    per_seat = {seat: MemoryBackend(seat) for seat in seats}
    judge = MemoryBackend("judge") if traits.judge else None
    sheets = MatchSheets(seats, board, engine, tuple(per_seat[s] for s in seats), judge)
    everyone = [board, engine, *per_seat.values(), *([judge] if judge else [])]
    create_match(sheets, rules, roster, seed=SEED)
    make = next(iter(bots_of(rules).values())).make
    bots = {seat: make(f"conformance/{seat}") for seat in (*seats, JUDGE)}
    cls = get_ruleset(ruleset_name)

    state = rules.new_match(roster, SEED)
    for _ in range(traits.max_windows + 1):
        window = rules.window(state)
        if window is None:
            break
        typed = type_bot_orders(sheets, cls, bots)
        for b in everyone:
            b.calls.clear()
        report = poll(sheets, cls, now=NOW)
        assert report.resolved, f"{window.label}: {report.reason or 'not due'}; waiting for {report.waiting_for}"
        assert all(b.calls.count("read") == 1 and b.calls.count("write") <= 1 for b in everyone), \
            {b.name: b.calls for b in everyone}
        orders = rules.merge_orders({s: typed.get(s, rules.no_orders()) for s in window.seats})
        state = rules.resolve(state, orders, rules.dice(SEED, state)).state
        assert rules.state_codec.to_json(report.state) == rules.state_codec.to_json(state), window.label
        public = _cells(board)
        texts = {seat: _cells(per_seat[seat]) for seat in seats}  # each seat's sheet once a window, not per secret
        for seat in seats:
            for secret in rules.secrets(state, seat):
                assert secret not in public, f"{seat}'s secret {secret!r} on the public board or log"
                for other in seats:
                    if other != seat and per_seat[other] is not per_seat[seat]:
                        assert secret not in texts[other], f"{seat}'s secret {secret!r} in {other}'s sheet"
    assert rules.window(state) is None, f"no end within {traits.max_windows} windows"
    final = poll(sheets, cls, now=NOW)
    assert final.finished
