"""A host that never served these folders (a new machine, a backup restored elsewhere, copies of a match): each
match's record was written for another folder. Property: a match whose own files differ from what its record kept
(a save typed while no host ran) is polled before any match that needs only its first poll, wherever it lies in the
folders' order, and while the first search of the folders goes on. Serve's own loop (``Host.run``) runs on a clock
that moves by the waits it asks for; nothing sleeps."""

from __future__ import annotations

import os
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from sheets_gm.host.scheduler import Host, Hosted
from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from tests.host.hosting import Clock, Passing, new_host
from tests.matchfiles import NOW, local_match, type_orders

COPIES = 240


#: Folders a slice of the search lists here: the search of the copies takes a dozen passes.
SLICE = 20


class UntilPolled(Passing):
    """Serve's waiter: set once the host started the polls of ``wanted``, or of any other match (what the test
    judges), or after ``limit`` waits."""

    def __init__(self, clock: Clock, started: dict[str, int | None], wanted: set[str]) -> None:
        super().__init__(clock, limit=2000)
        self.started, self.wanted = started, wanted

    def is_set(self) -> bool:
        return super().is_set() or self.wanted <= set(self.started) or bool(set(self.started) - self.wanted)


def walked_at_starts(host: Host) -> dict[str, int | None]:
    """The folders of the matches whose polls ``host`` starts, in order, each with the matches its first search had
    found then (None: the search had ended)."""
    started: dict[str, int | None] = {}
    real = host._submit

    def noted(hosted: Hosted, now: datetime) -> None:
        started[hosted.path.parent.name] = len(host._walked) if host.searched_at is None else None
        real(hosted, now)

    host._submit = noted  # type: ignore[method-assign]
    return started


def test_a_first_start_polls_the_copies_saved_since_their_records_first_wherever_they_lie(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sheets_gm.host.scheduler.WALK_A_PASS", SLICE)
    original = tmp_path / "original" / "m"
    local_match(original)
    clock = Clock(NOW)
    warm = new_host(original.parent, clock, [], interval=10, workers=1)
    warm.step()  # polled once, by a host that then went away
    warm.close()
    restored = tmp_path / "restored"
    for i in range(COPIES):  # copied with their times, each record naming the original's folder
        shutil.copytree(original, restored / f"m{i:03d}", copy_function=shutil.copy2)
    places = {f"m{i:03d}": i for i in (0, COPIES // 2, COPIES - 3 * SLICE)}
    for name in places:
        folder = restored / name
        kept = folder.stat().st_mtime_ns
        type_orders(open_match_sheets(load_config(folder / "match.toml")), ready=False)
        os.utime(folder, ns=(kept, kept))  # a save in place: the folder's own time says nothing, its name orders it
    clock.tick(60)
    cold = new_host(restored, clock, [], interval=10, workers=2)
    started = walked_at_starts(cold)
    began = clock()
    cold.run(UntilPolled(clock, started, set(places)))
    assert started and set(started) <= set(places), f"polled before a save waiting: {list(started)}"
    assert set(started) == set(places), f"not polled: {sorted(set(places) - set(started))}"
    for name, place in places.items():  # polled as the search finds it: within a slice or two of its folder
        walked = started[name]
        assert walked is not None and walked <= place + 1 + 2 * SLICE, f"{name} polled at {walked} matches found"
    assert (clock() - began).total_seconds() <= 10  # of the host's own waits (its passes' CPU comes on top)
