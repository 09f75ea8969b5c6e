"""Noninterference over orders: until the window another seat typed for resolves, a seat receives the same whatever
that seat typed, proven by difference on twin matches (``twin_orders``).

For every game and the toy game, a match is copied at a window; in the copies, every seat but the watched one types
other orders for the window (a seat of a game of turns that does not act yet types ahead, for its next window), and
the watched seat types the same. Then both are polled, Ready is ticked (first by the seats whose orders are the
same, so that a game of turns moves on to the window typed ahead), polled again... and after each poll, as long as
no window of the differing orders has resolved, everything the watched seat receives must be identical: every text
of every workbook it opens, cell by cell (its rows' feedback, its View, its Archive, the board), so that an order of
any length counts; every notice to it or to the channel; what a bot handed its seat now is given and would type.

Once such a window resolves, the twins may differ where the rules show its result. But where the watched seat is
shown nothing different, a bot on its seat may be given nothing different: an engine that keeps a window's orders in
its state, to carry them out a window late, shows no one anything yet, and hands every seat's sealed orders to every
bot.

A few twins in the quick run (each game, the seat acting now), every seat after more windows under ``-m soak``; the
mistakes planted below (an engine keeping the orders in its state; a short order echoed into another seat's
feedback) show the property failing, each named by file, tab, cell and both texts, or by the bot's input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.engine.codecs import Codec
from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import JUDGE, Resolution
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.gvg.engine import GvgRuleset
from sheets_gm.rulesets.gvg.orders import TurnOrders
from sheets_gm.rulesets.gvg.state import GvgState
from tests.conformance.noninterference import json_differences
from tests.conformance.twin_orders import GAMES, Twins, acting, copied_base, seats_of, tick_ready, twins_of, watched
from tests.toygame.registered import toy_registered


@pytest.fixture(scope="module", autouse=True)
def toy_game() -> Iterator[None]:
    """The toy game registered for the module's tests (only the tests know it)."""
    with toy_registered():
        yield


def walk(twins: Twins, steps: int = 4) -> list[str]:
    """Everything the watched seat receives differently in the twins, poll after poll (see the module): before a
    window of the differing orders resolves, any difference; after, a bot's input or moves that differ where
    nothing the seat is shown does."""
    found: list[str] = []
    before, ticked, now = True, list[str](), acting(twins.a)
    for step in range(steps):
        if step:
            if not now:
                break
            # the seats whose orders are the same tick first (a game of turns moves on to the window typed ahead);
            # when they did and nothing moved, every seat acting ticks, so that the window typed for resolves
            calm = [s for s in now if s not in twins.differing]
            ticked = calm if calm and set(calm) != set(now) and calm != ticked else list(now)
            tick_ready(twins, ticked)
        mine, theirs = watched(twins.a, twins.seat), watched(twins.b, twins.seat)
        before = before and not (mine.resolved and set(now) & set(twins.differing))
        now = mine.acting
        shown = mine.received.differences(theirs.received)
        bots = [f"{what}: {d}" for what in sorted(set(mine.bot) | set(theirs.bot))
                for d in json_differences(mine.bot.get(what, "null"), theirs.bot.get(what, "null"))]
        when = f"poll {step + 1} ({'before' if before else 'after'} the window typed for resolved)"
        if before:
            found += [f"{when}: {d}" for d in shown + bots]
        elif not shown:
            found += [f"{when}: nothing {twins.seat} is shown differs, yet {d}" for d in bots]
        if not before and step >= 2:
            break
    return found


def watched_seat(base: Path) -> str:
    """The seat the quick run watches: one acting now (the others type for this window, or ahead in a game of
    turns), the judge aside."""
    config = load_config(base / "match.toml")
    return next((s for s in acting(config) if s != JUDGE), config.seats[0])


def next_seat(base: Path, seat: str) -> str:
    """The seat after ``seat`` in the roster's order (the quick run's other seat: one typing is enough to differ)."""
    seats = load_config(base / "match.toml").seats
    return seats[(seats.index(seat) + 1) % len(seats)]


def interfered(seat: str, found: list[str]) -> str:
    """What a contributor is told when what ``seat`` receives depends on another seat's orders: which of the two
    mistakes it is, and where it shows."""
    before = [d for d in found if "(before" in d]
    late = [d for d in found if "yet its bot's input" in d]
    return "; ".join(filter(None, [
        f"another seat's orders leaked to {seat} before their window resolved (a verdict's sentence, a row's "
        "feedback, the View, the board or a notice names what that seat typed): " + " | ".join(before)
        if before else "",
        f"a window's orders are kept in the state, unresolved: nothing {seat} is shown differs, yet a bot on its "
        "seat is handed them (resolve must carry out each window's orders in that window, and keep none for "
        "later): " + " | ".join(late) if late else "",
        " | ".join(d for d in found if d not in before and d not in late)]))


@pytest.mark.xdist_group("conformance-base")  # one worker makes the base fixture's matches, once a run
def test_a_seat_receives_the_same_whatever_another_seat_typed(base: Path, tmp_path: Path) -> None:
    seat = watched_seat(base)
    twins = twins_of(base, tmp_path, seat, others=[next_seat(base, seat)])
    assert twins.differing, "the other seat typed the same in both twins: the comparison would prove nothing"
    found = walk(twins)
    assert found == [], interfered(seat, found)


@pytest.mark.soak
@pytest.mark.parametrize("windows", [1, 2, 4])
@pytest.mark.parametrize("game", GAMES)
def test_soak_every_seat_receives_the_same_whatever_another_seat_typed(game: str, windows: int,
                                                                       tmp_path: Path) -> None:
    base = copied_base(tmp_path, game, windows)
    compared = 0
    for n, seat in enumerate(seats_of(game)):
        twins = twins_of(base, tmp_path / str(n), seat, tag=f"/{windows}")
        if not twins.differing:
            continue  # the others' bots typed the same from every secret (or the match is over): nothing to compare
        found = walk(twins, steps=6)
        assert found == [], interfered(seat, found)
        compared += 1
    assert compared or not acting(load_config(base / "match.toml")), "no seat's twins differed: nothing was proven"


# -- the property fails with a mistake planted ---------------------------------------------------------------------
@dataclass(slots=True)
class _LateState(GvgState):
    """A GvG state that keeps the orders of the window resolved last, to carry them out at the next."""

    pending: dict[str, Any] | None = None


def _late(state: GvgState, pending: dict[str, Any] | None) -> _LateState:
    return _LateState(**{f.name: getattr(state, f.name) for f in fields(GvgState)}, pending=pending)


@pytest.fixture
def orders_kept_in_the_state(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Mistake (a): a GvG engine that keeps a window's orders in its state, unresolved, and carries them out a
    window late. Nobody is shown them before, but every bot is given them (a bot's input is the state as its seat
    knows it, which is the whole state in a game that hides nothing but the orders). Returns GvG's base match,
    copied before the mistake is planted."""
    base = copied_base(tmp_path, "gvg", 1)
    resolve = GvgRuleset.resolve

    def late(self: GvgRuleset, state: GvgState, orders: TurnOrders, dice: TurnDice) -> Resolution[GvgState]:
        kept = getattr(state, "pending", None)
        done = resolve(self, state, self.orders_codec.from_json(kept) if kept else TurnOrders(), dice)
        return replace(done, state=_late(done.state, self.orders_codec.to_json(orders)))

    monkeypatch.setattr(GvgRuleset, "resolve", late)
    monkeypatch.setattr(GvgRuleset, "state_codec", Codec(
        lambda s: {**s.to_json(), "pending": getattr(s, "pending", None)},
        lambda d: _late(GvgState.from_json({k: v for k, v in d.items() if k != "pending"}), d.get("pending"))))
    return base


def test_orders_kept_in_the_state_are_found(orders_kept_in_the_state: Path, tmp_path: Path) -> None:
    found = walk(twins_of(orders_kept_in_the_state, tmp_path / "twins", "red"))
    assert any("after the window typed for resolved): nothing red is shown differs, yet its bot's input: "
               "state.pending.players.blue" in d for d in found), found


@pytest.fixture
def short_order_echoed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Mistake (b): each row's feedback ends with what the other seats typed, their cells joined (``B2 5``): in
    Noughts and crosses a square (``B2``), shorter than any text a scan for typed orders looks for. Returns the toy
    game's base match, copied before the mistake is planted."""
    from sheets_gm.sync import poll as polling

    with toy_registered():
        base = copied_base(tmp_path, "tictactoe", 1)
    from sheets_gm.sync.rows.fates import row_feedback

    seen: dict[str, Any] = {}
    writes = polling._feedback_writes

    def remembering(sheets: Any, read: Any, *args: Any, **kwargs: Any) -> None:
        seen["read"] = read
        writes(sheets, read, *args, **kwargs)

    def echoing(row: Any, seat: str, *args: Any, **kwargs: Any) -> str:
        theirs = [" ".join(str(v) for v in r.values.values() if v not in (None, "", True, False))
                  for other, typed in seen["read"].seats.items() if other != seat for r in typed.rows if r.typed]
        return " · ".join([row_feedback(row, seat, *args, **kwargs), *filter(None, theirs)])

    monkeypatch.setattr(polling, "_feedback_writes", remembering)
    monkeypatch.setattr(polling, "row_feedback", echoing)
    return base


def test_a_short_order_echoed_into_another_seat_s_feedback_is_found(short_order_echoed: Path, tmp_path: Path) -> None:
    with toy_registered():
        base = short_order_echoed
        twins = twins_of(base, tmp_path / "twins", watched_seat(base))
        assert twins.seat == "Bo" and set(twins.differing) == {"Ann"}  # Ann types ahead, a square
        found = walk(twins)
    square = re.compile(r"poll 1 \(before .*\): orders-Bo\.xlsx: tab '[^']+' cell [A-Z]+[0-9]+: "
                        r"(['\"]).* ([A-C][1-3])\1 / (['\"]).* ([A-C][1-3])\3$")  # file, tab, cell, both texts
    named = [m for d in found if (m := square.match(d))]
    assert named and all(m[2] != m[4] for m in named), found
