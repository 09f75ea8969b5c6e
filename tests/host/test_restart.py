"""A host restarted on matches polled before. Property: every match whose files changed while no host ran, or
whose deadline fell due meanwhile, is polled within ``ceil(needy / workers)`` passes, before any match that needs
nothing; and no match lock outlives its poll (after every pass, each match not being polled can be taken). The
walks run under ``-m soak`` (the quick run has the examples of ``test_scale``). The host's clock moves when the
test says; nothing sleeps."""

from __future__ import annotations

import math
import random
from datetime import timedelta
from pathlib import Path

import pytest

from sheets_gm.host.scheduler import Host
from sheets_gm.match.config import load_config
from sheets_gm.sync.lock import SyncBusyError, match_lock
from tests.host.hosting import Clock, new_host, starts
from tests.matchfiles import NOW, local_match, type_orders


def held_locks(host: Host) -> list[str]:
    """The matches not being polled whose lock something still holds."""
    held = []
    for hosted in host.matches.values():
        if hosted.running:
            continue
        try:
            with match_lock(load_config(hosted.path).lock_path, wait_seconds=0):
                pass
        except SyncBusyError:
            held.append(hosted.path.parent.name)
    return held


def restart_walk(tmp_path: Path, seed: int, size: int) -> None:
    """``size`` matches polled by a host that then stops; while none runs, players save in some and the deadline
    of others falls due; a host restarted with 1 to 3 workers polls those first, within the passes its workers
    allow, and leaves no lock held."""
    rng = random.Random(seed)
    league = tmp_path / f"league-{seed}"
    soon, late = (NOW + timedelta(minutes=10)).isoformat(), (NOW + timedelta(hours=2)).isoformat()
    due = set(rng.sample(range(size), rng.randint(0, size // 2)))
    made = {f"m{i:02d}": local_match(league / f"m{i:02d}", deadline=soon if i in due else late)[1]
            for i in range(size)}
    clock = Clock(NOW)
    warm = new_host(league, clock, [], interval=10, workers=size)
    warm.step()
    warm.close()
    saved = set(rng.sample(sorted(made), rng.randint(1, size - 1)))
    for name in saved:
        type_orders(made[name], ready=rng.random() < 0.5, seed=seed)
    clock.tick(30 * 60)  # the deadlines at 10 minutes passed while no host ran
    needy = saved | {f"m{i:02d}" for i in due}
    workers = rng.randint(1, 3)
    cold = new_host(league, clock, [], interval=10, workers=workers)
    order = starts(cold)
    for _ in range(math.ceil(len(needy) / workers)):
        cold.step()
        assert not held_locks(cold)
        clock.tick(10)
    assert needy <= set(order), f"not polled: {sorted(needy - set(order))} (seed {seed}, {workers} workers)"
    assert set(order[:len(needy)]) == needy, f"polled before a needy match: {order} (seed {seed})"


@pytest.mark.soak  # real local matches made and polled: seconds each on a loaded machine
@pytest.mark.parametrize("seed", range(1, 21))
def test_a_restart_polls_what_changed_or_fell_due_first_and_leaves_no_lock(tmp_path: Path, seed: int) -> None:
    restart_walk(tmp_path, seed, size=3 if seed == 1 else 6)
