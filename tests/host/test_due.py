"""What one pass of the host looks at, at any number of matches: only the matches a file event or Drive named
and those whose moment came, never a pass over every match; a match waiting for a worker is not looked at again
each pass; a save made while its match's poll ran (its file event taken during the poll) is looked at as soon as
the poll ends, first, not an interval later. The host's clock moves when the test says; nothing sleeps."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from concurrent.futures import Executor, Future
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from sheets_gm.host.scheduler import Host, Hosted
from tests.host.hosting import Clock, hosted, new_host, starts
from tests.host.test_scale import HandedEvents
from tests.matchfiles import NOW, local_match, type_orders

T = TypeVar("T")


class AnsweredLater(Executor):
    """A pool that runs each poll at once but hands its outcome back only when told (``answer``): its match is
    being polled meanwhile, as in a worker that has read the files and not yet ended."""

    def __init__(self) -> None:
        self.pending: list[tuple[Future[Any], Any]] = []

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        self.pending.append((future, fn(*args, **kwargs)))
        return future

    def answer(self) -> None:
        for future, result in self.pending:
            future.set_result(result)
        self.pending.clear()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.answer()


def counted_looks(host: Host) -> list[str]:
    """The folders of the matches ``host`` looks at, in order (kept as it looks)."""
    looked: list[str] = []
    real = host._look

    def noted(match: Hosted, now: datetime) -> bool:
        looked.append(match.path.parent.name)
        return real(match, now)

    host._look = noted  # type: ignore[method-assign,assignment]
    return looked


def test_a_save_made_while_its_poll_ran_is_looked_at_when_the_poll_ends(tmp_path: Path) -> None:
    league = tmp_path / "league"
    _, sheets = local_match(league / "m", private=True)
    events, pool, clock = HandedEvents(league), AnsweredLater(), Clock(NOW)
    host = new_host(league, clock, [], interval=10, events=events, pool=pool)
    order = starts(host)
    host.step()  # its first poll: it has read the files, its outcome not yet back
    type_orders(sheets, ready=False, seats=("red",))  # a save after that read ...
    events.note((league / "m" / "red.xlsx").resolve())  # ... told of while the poll runs
    clock.tick(1)
    host.step()
    pool.answer()
    clock.tick(1)
    host.step()  # the poll's outcome taken in: the match looked at again at once, its save polled
    assert order == ["m", "m"], "a save told of during its match's poll waited for the next interval"
    pool.answer()
    clock.tick(1)
    host.step()
    assert "feedback cells updated" in hosted(host, league, "m").line


def test_a_pass_looks_only_at_what_an_event_named_or_fell_due(tmp_path: Path) -> None:
    league = tmp_path / "league"
    local_match(league / "m0", private=True)
    for i in range(1, 3):
        shutil.copytree(league / "m0", league / f"m{i}")  # never polled: no record to move
    events, clock = HandedEvents(league), Clock(NOW)
    host = new_host(league, clock, [], interval=10, workers=1, events=events)
    looked = counted_looks(host)
    for _ in range(3):  # a cold start, one worker: three first looks, then each waits for the worker
        host.step()
        clock.tick(1)
    assert sorted(looked) == ["m0", "m1", "m2"], f"matches waiting for a worker looked at again: {looked}"
    assert all(h.read_at is not None for h in host.matches.values())
    for _ in range(3):  # idle now, their files covered by the events: a pass looks at none of them
        clock.tick(10)
        host.step()
    looked.clear()
    events.note((league / "m2" / "red.xlsx").resolve())
    clock.tick(1)
    host.step()
    assert looked == ["m2"]


def test_a_new_match_is_found_by_its_files_events_without_searching_every_folder(tmp_path: Path) -> None:
    league = tmp_path / "league"
    local_match(league / "club" / "m0", private=True)
    events, clock = HandedEvents(league), Clock(NOW)
    host = new_host(league, clock, [], interval=10, events=events)
    host.step()
    searched = host.scanned_at
    shutil.copytree(league / "club" / "m0", league / "club" / "m1", ignore=shutil.ignore_patterns(".sheets-gm"))
    events.note((league / "club" / "m1").resolve())  # the folder made in a folder of matches: not searched
    events.note((league / "club" / "m1" / "match.toml").resolve())  # its config written: its folder searched
    clock.tick(61)
    host.step()
    assert host.scanned_at == searched, "the whole folders searched again while the file events cover them"
    assert hosted(host, league / "club", "m1").read_at == clock()
