"""A hosted match's poll as the host hands it over (:data:`VISIT`: ``visit.visit``, named) and how it ended, in plain
data the host takes in: what it did, what it says, and what the host keeps of the match's config. Apart from the
poll itself, whose path (the gate, the sync, the spreadsheets, the games' rules) is imported in the poll's process,
preloaded by its server (``processes``): the host's own process never imports it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from sheets_gm.host.processes import ByName

if TYPE_CHECKING:
    from sheets_gm.match.config import MatchConfig


class Done(StrEnum):
    """How a visit ended."""

    IDLE = "idle"  # nothing to read (a Google gate found nothing changed)
    READ = "read"  # a poll that read (feedback written or not)
    RESOLVED = "resolved"  # a window was resolved
    LETTERS = "letters"  # only the letters waiting for a retry were sent
    HELD = "held"  # another command held the match's lock: skipped
    OPEN = "open"  # a player's workbook is open in an office program: nothing synced
    UNAVAILABLE = "unavailable"  # Google kept failing past the retries
    FAILED = "failed"  # the config, a workbook or the rules failed: the GM must look


@dataclass(frozen=True)
class Outcome:
    """What a visit did: how it ended, the line it says (the poll's, or what failed), the warnings every poll
    repeats, what its notices did, and, when the config read, what the host keeps of it (its backend, the
    account and keys of a Google match, the deadline and whether the match is over)."""

    done: Done
    line: str = ""
    warning: str = ""
    notices: str = ""
    config: MatchConfig | None = None
    account: str = ""
    keys: frozenset[str] = frozenset()
    deadline: str = ""
    finished: bool = False
    trace: str = ""  # a failure's traceback, for the log (never the status file)


#: One match's poll (``visit.visit(path, handover, clock, letters_only=...)``), named: what the host submits.
VISIT = ByName("sheets_gm.host.visit", "visit")
