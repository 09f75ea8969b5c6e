"""A window resolves at most once per step, in every game (issue 75, item 1). The property: a resolution its deadline
makes due always moves the match (its state after is not its state before, or GM events are filed); a window due by
its deadline alone (which stays passed) that a resolution would leave as it is (a Win or Die deployment with no
token typed) is not resolved at any poll: it waits, says why in the poll's report, ``status`` (one answer: its
deadline passed, it waits; never "Not due yet.", issue 91, item 7) and ``doctor``, and its notice (to the channel
and to the GM) has one key however many polls build it, so the outbox sends it once. The GM's force still resolves
it, once (a force, like Ready or Go, is spent by the resolution it asks for). Walked through every game, nothing
typed past every deadline, then the bots' orders typed; a few polls in the quick run, whole matches under ``-m
soak``."""

from __future__ import annotations

from datetime import timedelta

import pytest

from sheets_gm.commands.polls import window_status_lines
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.match.schedule import DeadlineSchedule
from sheets_gm.notify.announce import seen_of
from sheets_gm.notify.notices import CHANNEL, NoticeRules, poll_notices
from sheets_gm.rulesets.registry import get_game, ruleset_names
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.poll import WindowReport, poll
from tests.quick import soak_but
from tests.sync.test_typed_row_lifecycle import NOW, Match

GAMES = [n for n in ruleset_names() if get_game(n).sheet is not None]
EVENING = DeadlineSchedule.parse(["20:00"], [], "UTC").rule()
NONE = DeadlineSchedule().rule()


def _state(match: Match) -> str:
    record = match.read().record
    return f"{record.ruleset.state_codec.to_json(record.state)}"


class Walk:
    """A match polled as cron polls it, the clock past each deadline: every resolution checked to move it."""

    def __init__(self, game: str) -> None:
        self.match = Match(game)
        self.now = NOW
        self.waited: set[str] = set()  # the keys of the waits notices built
        poll(self.match.sheets, self.match.cls, now=self.now, schedule=NONE)  # the record takes a schedule
        poll(self.match.sheets, self.match.cls, now=self.now, schedule=EVENING)  # then the GM sets a deadline

    def poll(self, **kwargs: object) -> WindowReport:
        """A poll past the open window's deadline, checked: a resolution moved the match; one that would not was
        not made, said, and its notice keyed by its step."""
        self.now += timedelta(days=1)
        before, resolved = _state(self.match), self.match.read().record.resolved
        report = poll(self.match.sheets, self.match.cls, now=self.now, schedule=EVENING, **kwargs)  # type: ignore[arg-type]
        after = self.match.read().record
        if report.resolved:  # once, or twice where the judge's window closed and the window it took orders early for
            # resolved in the same poll (the war's one players' deadline: ``poll.early_due``), said in ``then``
            twice = bool(report.then) and "did not resolve" not in report.then
            assert after.resolved == resolved + 1 + twice and not report.stuck
            if report.reason.startswith("the deadline "):
                assert _state(self.match) != before or report.finished, f"{report.window}: resolved, nothing moved"
        else:
            assert after.resolved == resolved, report
        said = "\n".join(window_status_lines(report, self.now))  # status: one answer to whether it is due
        assert not ("has passed" in said and "Not due yet." in said), said
        if report.stuck:
            assert "would change nothing" in report.stuck and report.window.split(" ·")[0] in report.stuck.lower()
            assert "has passed: nothing to resolve, it waits (below)" in said and "Due now" not in said, said
            notices = poll_notices(report.facts, seen_of(report), NoticeRules(), self.now)  # type: ignore[arg-type]
            waits = {n.key for n in notices if "/waits/" in n.key}
            assert {n.recipient for n in notices if n.key in waits} == {CHANNEL, JUDGE}
            self.waited |= waits
        return report


def walk(game: str, polls: int) -> None:
    """``polls`` polls of ``game`` past each deadline: every other window with nothing typed (it resolves or waits
    as its rules say), then the bots' orders; a window that waited is forced (refused, nothing written)."""
    walk = Walk(game)
    for n in range(polls):
        if n % 3 == 2:
            type_bot_orders(walk.match.sheets, walk.match.cls, walk.match.bots)
        report = walk.poll()
        if report.finished:
            return
        if report.stuck:
            again = walk.poll()  # the next poll waits too, told under the same key
            assert again.stuck and not again.resolved
            keys = len(walk.waited)
            walk.poll()
            assert len(walk.waited) == keys, "a window that waits is told again by a later poll"
            forced = walk.poll(force=True, window_key=again.window_key, step=again.step)
            assert forced.resolved and not forced.force_refused, forced  # the GM's force: one step, told
            walk.poll()  # and the polls after it resolve nothing more by the same deadline (``Walk.poll`` checks)


def test_an_empty_deployment_past_its_deadline_waits_and_is_told_once() -> None:
    """The case the table met: a Win or Die deployment, nothing typed, its deadline past: no poll resolves it."""
    walk = Walk("winordie")
    first = walk.poll()
    assert first.stuck and not first.resolved and first.window.startswith("deployment")
    for _ in range(3):
        assert walk.poll().stuck
    assert len(walk.waited) == 2  # the channel's and the GM's, once
    type_bot_orders(walk.match.sheets, walk.match.cls, walk.match.bots)
    assert walk.poll().resolved  # her tokens typed: it resolves


@pytest.mark.parametrize("game", soak_but(GAMES, "winordie", "coalition"))  # Win or Die's deployment waits
def test_a_window_resolves_at_most_once_per_step_in_every_game(game: str) -> None:
    walk(game, 6)


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_a_window_resolves_at_most_once_per_step_through_whole_matches(game: str) -> None:
    walk(game, 150)
