"""A refused force changes nothing, in every game (issue 75, item 3). The property: a ``resolve --force --window KEY
[--step N]`` that names a window or a step that is not the open one writes nothing (no row answered, no window
resolved, not one cell), even when the window open now is due (every seat ready); its refusal says what resolved
the step it names (the GM's own force, or a sync and why), and what is open now. Walked through every game's
windows, each resolved in turn by a plain poll and by a force, with every stale force tried after each."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sheets_gm.rulesets.registry import create_ruleset, get_game, ruleset_names
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.retry import RetryPolicy
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import GET, READ, GoogleApiFake, fake_client
from tests.fakes.memory import MemoryBackend
from tests.quick import soak_but
from tests.sync.test_typed_row_lifecycle import NOW, Match

GAMES = [n for n in ruleset_names() if get_game(n).sheet is not None]


def _cells(match: Match) -> list[Any]:
    """Every cell and note of every spreadsheet of the match, and how many writes each has had."""
    found: list[Any] = []
    for backend in match.sheets.write_order():
        assert isinstance(backend, MemoryBackend)
        found.append((backend.name, copy.deepcopy(backend.tabs), copy.deepcopy(backend.notes),
                      backend.calls.count("write")))
    return found


def _refused(match: Match, key: str, step: int | None) -> WindowReport:
    """A force of window ``key`` at ``step`` that must be refused: checked to have written nothing."""
    before = _cells(match)
    report = poll(match.sheets, match.cls, now=NOW, force=True, window_key=key, step=step)
    assert report.force_refused and "nothing was forced" in report.force_refused, report
    assert not report.resolved and report.write_calls == 0, report.force_refused
    assert _cells(match) == before, f"a refused force wrote: {report.force_refused}"
    return report


def walk(game: str, windows: int) -> None:
    """``windows`` resolutions of ``game``, by a poll and by a force in turn, and every stale force after each, the
    window open then due (its seats' orders typed)."""
    match = Match(game)
    for n in range(windows):
        type_bot_orders(match.sheets, match.cls, match.bots)
        seen = poll(match.sheets, match.cls, now=NOW, dry_run=True)  # what status shows the GM
        if seen.finished:
            return
        forced = n % 2 == 1 or not seen.reason
        done = poll(match.sheets, match.cls, now=NOW, force=forced, window_key=seen.window_key if forced else None,
                    step=seen.step if forced else None)
        assert done.resolved and not done.force_refused, done
        type_bot_orders(match.sheets, match.cls, match.bots)  # the window open now is due: a plain poll resolves it
        stale = _refused(match, seen.window_key, seen.step)
        how = f"resolution {seen.step}, " + ("by a resolve --force" if forced else "by a sync (")
        now_open = poll(match.sheets, match.cls, now=NOW, dry_run=True)
        said = (f"step {seen.step} of window {seen.window_key!r} is resolved already ({how}"
                if now_open.window_key == seen.window_key else f"window {seen.window_key!r} (resolved already: {how}")
        assert said in stale.force_refused, stale.force_refused
        if now_open.finished:
            _refused(match, now_open.window_key or seen.window_key, None)
            return
        assert f"open now is {now_open.window} (window {now_open.window_key}, step {now_open.step})" \
            in stale.force_refused
        if now_open.window_key == seen.window_key:  # a step of the same window: its key alone is refused
            assert "has resolved a step already" in _refused(match, seen.window_key, None).force_refused
        else:
            assert "is not the open one" in _refused(match, seen.window_key, None).force_refused
        _refused(match, now_open.window_key, now_open.step + 1)  # a step not open yet


@pytest.mark.parametrize("game", soak_but(GAMES, "gvg", "wesnoth", "winordie"))
def test_a_refused_force_writes_nothing_in_every_game(game: str) -> None:
    walk(game, 4)


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_a_refused_force_writes_nothing_through_whole_matches(game: str) -> None:
    walk(game, 200)


def _google_match(fake: GoogleApiFake, game: str) -> tuple[Match, str]:
    """A sample match of ``game`` on the Google fake, a spreadsheet per role, and its engine's key."""
    match = Match(game)
    rules = create_ruleset(game)
    seats = rules.sample_roster().seats
    clock = FakeClock()
    retry = RetryPolicy(deadline=60, time=clock.time, sleep=clock.sleep, random=lambda: 0.5)
    client = fake_client()

    def sheet(role: str) -> GoogleSheetBackend:
        key = f"1Force_{game}_{role}_".ljust(44, "0")[:44]
        fake.create_spreadsheet(key, f"force · {role}", ("Sheet1",))
        return GoogleSheetBackend(client, key, retry=retry, title=role)

    match.sheets = MatchSheets(seats, sheet("board"), sheet("engine"),
                               tuple(sheet(f"seat{i}") for i in range(len(seats))),
                               sheet("judge") if rules.traits.judge else None)
    create_match(match.sheets, rules, rules.sample_roster(), seed=b"force reads")
    return match, f"1Force_{game}_engine_".ljust(44, "0")[:44]


@pytest.mark.parametrize("game", soak_but(GAMES, "coalition", "gvg"))
def test_a_forced_resolution_reads_the_engine_once_on_google(game: str) -> None:
    """``resolve --force`` reads each spreadsheet once, as a poll's resolution does: its window's step, named or not,
    is judged from that read (``MatchRecord.last``), never from a second read of the engine. (A read that asks for
    struck text, a Coalition side's with its Forum tab, is one spreadsheets.get of its ranges.)"""
    with GoogleApiFake() as fake:
        match, engine = _google_match(fake, game)
        for n in range(2):  # its step not named, then named
            type_bot_orders(match.sheets, match.cls, match.bots)
            seen = poll(match.sheets, match.cls, now=NOW, dry_run=True)
            fake.reset_counters()
            done = poll(match.sheets, match.cls, now=NOW, force=True, window_key=seen.window_key,
                        step=seen.step if n % 2 else None)
            assert done.resolved, done.force_refused
            reads = [c for c in fake.log if c.endpoint == READ or (c.endpoint == GET and "ranges" in c.query)]
            assert len(reads) == len(match.sheets.write_order()), [c.url for c in reads]
            assert sum(engine in c.url for c in reads) == 1, [c.url for c in reads]
        assert not fake.violations, fake.violations
