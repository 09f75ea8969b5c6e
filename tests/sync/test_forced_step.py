"""A forced resolution names exactly what it closes (issue 60, item 3): the window and its step, as ``status`` shows
them. A Win or Die turn resolves in several steps under one window key; cron's sync resolving the step the GM saw
before her ``resolve --force`` runs must leave her force refused, naming what was resolved and what is open now,
never closing the next step with the orders in the cells as they are. The race is ordered by events: the GM's
status, cron's poll, then her force."""

from __future__ import annotations

from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.poll import poll
from tests.sync.test_typed_row_lifecycle import NOW, Match


def _step_seen() -> tuple[Match, str, int]:
    """A Win or Die bot match at the first step of a turn that resolves in two (the bots' orders typed): the match,
    the window key and the step status shows."""
    match = Match("winordie")
    for _ in range(3):
        type_bot_orders(match.sheets, match.cls, match.bots)
        assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    type_bot_orders(match.sheets, match.cls, match.bots)
    seen = poll(match.sheets, match.cls, now=NOW, dry_run=True)  # the GM's status
    return match, seen.window_key, seen.step


def test_a_force_of_a_step_cron_resolved_meanwhile_is_refused_by_name() -> None:
    match, key, step = _step_seen()
    cron = poll(match.sheets, match.cls, now=NOW)  # cron's sync resolves the step she saw
    assert cron.resolved and match.read().record.resolved == step
    assert match.read().record.window_key() == key  # the turn goes on: its next step is open
    forced = poll(match.sheets, match.cls, now=NOW, force=True, window_key=key, step=step)
    assert not forced.resolved and match.read().record.resolved == step  # nothing closed a second time
    assert f"step {step} of window {key!r} is resolved already (resolution {step}, by a sync (" in forced.force_refused
    assert f"open now is {forced.window} (window {key}, step {step + 1})" in forced.force_refused
    bare = poll(match.sheets, match.cls, now=NOW, force=True, window_key=key)  # the window without its step
    assert not bare.resolved and f"window {key!r} has resolved a step already" in bare.force_refused
    assert f"--window {key} --step {step + 1}" in bare.force_refused
    named = poll(match.sheets, match.cls, now=NOW, force=True, window_key=key, step=step + 1)
    assert named.resolved and named.reason == "forced by the GM" and match.read().record.resolved == step + 1


def test_a_force_of_the_step_she_saw_resolves_it() -> None:
    match, key, step = _step_seen()
    forced = poll(match.sheets, match.cls, now=NOW, force=True, window_key=key, step=step)
    assert forced.resolved and not forced.force_refused and match.read().record.resolved == step
