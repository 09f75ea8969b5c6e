"""Whose turn it is to ask Drive: the host's Google accounts' questions, at most :data:`DRIVE_ASKERS` under way at
once, each account taken when its moment comes, without a pass over every account.

An account's question (its change log, or Drive's ``about`` for a GM's sign-in file not named yet: ``accounts``)
runs on a thread of its own. At a first start on GMs' sign-in files saved in each match's folder (``doctor``'s
default), every file is a watcher of its own until Drive names its account: 10,000 of them at 10,000 such matches,
each a token refresh and an ``about``. Started as they fell due, they ran as fast as the host found them, a dozen
threads at once fighting the search and the loop for the interpreter, and the first search of 10,000 folders ended
94 s after the start. Here at most :data:`DRIVE_ASKERS` questions are under way; the rest wait for a place, the
named accounts first (their change logs name the saves waiting), then the files to name, each in the order of
its moment. A question past the host's deadline for Drive no longer holds a place: a hung account holds its own
matches up, never the others'.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from datetime import datetime, timedelta

from sheets_gm.host.accounts import AccountWatcher

#: At most this many accounts' questions to Drive are under way at once (each on a thread of its own). At 10,000
#: sign-in files to name at a first start, Drive's answers come as fast as a few threads take them; more only fight
#: the host's own thread for the interpreter (see the module notes). A restart's hundred accounts, each asking its
#: change log from the token kept, pass in a few rounds of questions well under a second each.
DRIVE_ASKERS = 8

#: An entry of a queue: the moment the account asks, then its name and an order (among equal moments: by name, as
#: the accounts are named in the status), and the account's watcher.
Turn = tuple[datetime, str, int, AccountWatcher]


class DriveTurns:
    """The accounts waiting to ask Drive, and those asking (see the module notes). Used on the host's thread."""

    def __init__(self, deadline: timedelta, limit: int = DRIVE_ASKERS) -> None:
        self.deadline = deadline
        self.limit = limit
        self._named: list[Turn] = []  # the accounts Drive named (a service account, a GM's account), by moment
        self._unnamed: list[Turn] = []  # the GMs' sign-in files whose next question is Drive's ``about``
        self._order = itertools.count()
        self.asking: dict[str, datetime] = {}  # the accounts whose question is under way, since when
        self.late: set[str] = set()  # those past the deadline (said once; they hold no place)
        self.held = False  # an account whose moment came waits for a place (an answer wakes the loop then)

    def plan(self, watcher: AccountWatcher, moment: datetime) -> None:
        """The account asks at ``moment`` (or as soon after as a place is free)."""
        naming = watcher.identify_at is not None and watcher.identify_at <= moment
        heapq.heappush(self._unnamed if naming else self._named, (moment, watcher.name, next(self._order), watcher))

    def free(self) -> int:
        """Places for a question now: the limit, less the questions under way and not late."""
        return self.limit - (len(self.asking) - len(self.late))

    def take(self, now: datetime, current: Callable[[AccountWatcher], bool]) -> list[AccountWatcher]:
        """The accounts that ask now, as many as there are places: those whose moment came, the named first, each
        queue by moment. ``current``: whether a watcher still serves (one the host let go, or moved, is dropped)."""
        out: list[AccountWatcher] = []
        free = self.free()
        for queue in (self._named, self._unnamed):
            while free > 0 and queue and queue[0][0] <= now:
                watcher = heapq.heappop(queue)[3]
                if current(watcher) and watcher.name not in self.asking:
                    out.append(watcher)
                    self.asking[watcher.name] = now
                    free -= 1
        self.held = any(queue and queue[0][0] <= now for queue in (self._named, self._unnamed))
        return out

    def answered(self, name: str) -> None:
        """The account's question ended (answered or failed)."""
        self.asking.pop(name, None)
        self.late.discard(name)

    def overdue(self, now: datetime) -> list[tuple[str, datetime]]:
        """The questions that passed the deadline since the last call, with when each began (each once: it holds
        no place from then on)."""
        out = [(name, began) for name, began in self.asking.items()
               if name not in self.late and now - began >= self.deadline]
        self.late.update(name for name, _ in out)
        return out

    def soonest(self) -> datetime | None:
        """The next moment an account asks, when a place is free for it (None: none waits, or every place is taken:
        an answer wakes the loop)."""
        if self.free() <= 0:
            return None
        return min((queue[0][0] for queue in (self._named, self._unnamed) if queue), default=None)
