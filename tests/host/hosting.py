"""What the host's tests share: a clock that moves only when told, a pool that runs each poll at once, a host
on a folder, and a waiter that lets time pass instead of sleeping."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from sheets_gm.host.scheduler import Host, Hosted

T = TypeVar("T")


class Clock:
    """The host's clock (and the polls'): moves only when told."""

    def __init__(self, start: datetime, on_move: Callable[[datetime], None] = lambda now: None) -> None:
        self.now = start
        self.on_move = on_move

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        self.on_move(self.now)


class InlinePool(Executor):
    """A pool that runs each poll as it is handed in (its callbacks too): a test sees every outcome at the next
    pass, in order, and no thread outlives it."""

    def __init__(self) -> None:
        self.shut = False
        self.submitted = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        assert not self.shut, "a poll was started after the host stopped"
        self.submitted += 1
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # what a worker thread's future would hold
            future.set_exception(exc)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True


class Passing:
    """A waiter whose ``wait`` lets the clock move by the time asked (nothing sleeps); set after ``limit`` waits
    or by ``set``."""

    def __init__(self, clock: Clock, limit: int = 1000) -> None:
        self.clock = clock
        self.limit = limit
        self.waits: list[float] = []
        self.stopped = False

    def is_set(self) -> bool:
        return self.stopped or len(self.waits) >= self.limit

    def set(self) -> None:
        self.stopped = True

    def wake(self) -> None:
        """Nothing to end: a wait here lets the clock move at once."""

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout or 0.0)
        if not self.stopped:
            self.clock.tick(timeout or 0.0)
        return self.is_set()


def new_host(folder: Path, clock: Clock, lines: list[str], **options: Any) -> Host:
    """A host on ``folder`` with an inline pool, its log kept in ``lines``."""
    options.setdefault("background", inline)
    return Host([folder], options.pop("pool", None) or InlinePool(), clock=clock, say=lines.append,
                status_file=folder / ".sheets-gm" / "serve-status.json", **options)


def inline(task: Callable[[], None], name: str) -> None:
    """An account's question to Drive asked at once, on the test's thread (the host's own runs it on a thread)."""
    task()


def hosted(host: Host, folder: Path, name: str) -> Hosted:
    """The hosted match whose config is ``folder/name/match.toml``."""
    return host.matches[(folder / name / "match.toml").resolve()]


def starts(host: Host) -> list[str]:
    """The folders of the matches whose polls ``host`` starts, in order (kept as it starts them)."""
    order: list[str] = []
    real = host._submit

    def noted(hosted: Hosted, now: datetime) -> None:
        order.append(hosted.path.parent.name)
        real(hosted, now)

    host._submit = noted  # type: ignore[method-assign]
    return order
