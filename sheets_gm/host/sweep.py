"""Where the file events do not tell of a local match's saves (the system's watches ran out, a network folder, no
events here), its own files (config and workbooks) are looked at by their identity on disk, a ``stat`` each, a slice
of the matches a pass, round after round, the round as long as keeps its cost within :data:`SHARE` of a core.

A match is swept once a look found it idle (``seen``); one whose files were touched is handed to the host, which
looks at it as a file event has it looked at (its record, journals and outbox, which the file events leave out too,
at its next look by its moment: ``file_events.QUIET_LOOK``). A round takes the interval where that costs less than
:data:`SHARE` (a thousand matches: a save answered as without the sweep); at 10,000 matches on a loaded machine, up
to a few intervals (said in docs/hosting.md), instead of a quarter of a core spent looking at files nobody touched.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from sheets_gm.host.seen import identity

#: The share of one core the sweep may spend, measured (its own thread's CPU): a round of every match swept is the
#: interval, or longer where a round would cost more.
SHARE = 0.012


class Sweep:
    """The local matches swept (see the module notes): each one's files and their identity when its look found it
    idle; :meth:`take`, once a pass, looks at the slice due and gives those whose files were touched."""

    def __init__(self, interval: timedelta, cpu: Callable[[], float] = time.thread_time) -> None:
        self.interval = interval
        self.cpu = cpu  # this thread's CPU seconds (a test hands in its own)
        self._files: dict[Path, tuple[tuple[str, ...], int]] = {}
        self._turn: deque[Path] = deque()  # the order of the round (a match noted again keeps its place)
        self._cost = 0.0  # CPU seconds a match's look costs, as last measured
        self._owed = 0.0  # matches due, not looked at yet (a fraction carried to the next pass)
        self._at: datetime | None = None  # the last pass's moment

    def __contains__(self, path: Path) -> bool:
        return path in self._files

    def __len__(self) -> int:
        return len(self._files)

    def note(self, path: Path, files: tuple[str, ...], number: int) -> None:
        """Sweep ``path``'s ``files``, whose identity was ``number`` (``seen.identity``) when its look found it idle."""
        if path not in self._files:
            self._turn.append(path)
        self._files[path] = (files, number)

    def forget(self, path: Path) -> None:
        """Sweep ``path`` no more (polled, looked at whole, gone); its place in the round is dropped as it comes."""
        self._files.pop(path, None)

    def round(self) -> timedelta:
        """How long a round of every match takes now: the interval, or as long as keeps it within :data:`SHARE`."""
        return max(self.interval, timedelta(seconds=self._cost * len(self._files) / SHARE))

    def take(self, now: datetime) -> list[Path]:
        """Look at the matches due since the last pass (the round's share of the time passed); those whose files
        were touched leave the sweep and are given back."""
        elapsed = (now - self._at).total_seconds() if self._at is not None else 0.0
        self._at = now
        if not self._files:
            self._turn.clear()
            return []
        self._owed = min(self._owed + len(self._files) * elapsed / self.round().total_seconds(), len(self._files))
        due = math.floor(self._owed)
        self._owed -= due
        touched: list[Path] = []
        started, looked = self.cpu(), 0
        while looked < due and self._turn:
            path = self._turn.popleft()
            kept = self._files.get(path)
            if kept is None:
                continue  # forgotten: its place goes
            looked += 1
            if identity(kept[0]) != kept[1]:
                del self._files[path]
                touched.append(path)
            else:
                self._turn.append(path)
        if looked:
            self._cost = (self.cpu() - started) / looked
        return touched
