"""A lock file so two syncs of one match on one machine never run at once."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.private_files import private_folder


class SyncBusyError(SheetError):
    """Another sync of the same match held the lock for longer than we were willing to wait."""


@contextmanager
def match_lock(path: Path, *, wait_seconds: float = 30.0, sleep: Callable[[float], None] = time.sleep,
               clock: Callable[[], float] = time.monotonic) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing) for the duration of a sync.

    Waits up to ``wait_seconds`` for another sync to finish; the caller reads the sheets only
    after taking the lock, so a turn the other sync resolved is seen as resolved."""
    private_folder(path.parent)  # .sheets-gm/: the kept reads and the sign-in live beside the lock
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = clock() + wait_seconds
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if clock() >= deadline:
                    raise SyncBusyError(
                        f"another sync of this match is still running (lock {path}); try again later"
                    ) from None
                sleep(0.2)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
