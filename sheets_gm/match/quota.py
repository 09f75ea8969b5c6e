"""How much of the Google Sheets API quota a match's sync uses, from Google's published limits.

Google does not tell a program how much quota is left (the Sheets API has no such call;
the Cloud console shows usage after the fact), so the figures here are computed: the
requests a sync makes, divided by the published per-minute limits.

The limits, from Google's "Usage limits" page of the Sheets API
(https://developers.google.com/workspace/sheets/api/limits, as published when this was written;
Google may change them, and a Cloud project can ask for more):

=================  =======================  ==================================
Quota              per minute per project   per minute per user per project
=================  =======================  ==================================
Read requests      300                      60
Write requests     300                      60
=================  =======================  ==================================

"Each batch request, including any subrequest, is counted as one API request", so a
``values.batchGet`` of many ranges is one read. A service account is one user, so one
account's syncs share its 60 reads and 60 writes a minute.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sheets_gm.sync.poll_gate import SAFETY_NET_MINUTES as SAFETY_NET_MINUTES  # doctor and the gate name it here

#: Where the limits below come from.
LIMITS_SOURCE = "https://developers.google.com/workspace/sheets/api/limits"
#: Sheets API read requests allowed per minute per user per project (and per project).
READS_PER_MINUTE_PER_USER = 60
READS_PER_MINUTE_PER_PROJECT = 300
#: Sheets API write requests allowed per minute per user per project (and per project).
WRITES_PER_MINUTE_PER_USER = 60
WRITES_PER_MINUTE_PER_PROJECT = 300
#: Above this share of the per-user limit, doctor warns: the GM's own commands need room too.
COMFORT = 0.8


@dataclass(frozen=True, slots=True)
class QuotaUse:
    """The Sheets API requests a minute of ``sync --watch`` makes at its fastest interval.

    A poll reads each distinct spreadsheet once (one ``values.batchGet``); it writes each at
    most once (one ``values.batchUpdate``, feedback and resolution in the same call), and
    only when something changed, so ``writes_per_minute`` is a ceiling, reached only while
    players type on every poll.
    """

    spreadsheets: int
    interval: float
    matches: int

    @property
    def polls_per_minute(self) -> float:
        """Polls a minute of each match at the configured interval."""
        return 60.0 / self.interval

    @property
    def reads_per_minute(self) -> float:
        """Read requests a minute of every match sharing the account."""
        return self.spreadsheets * self.polls_per_minute * self.matches

    @property
    def writes_per_minute(self) -> float:
        """The most write requests a minute of every match sharing the account."""
        return self.reads_per_minute

    @property
    def read_share(self) -> float:
        """The part of the per-user read limit used (1.0 is the whole limit)."""
        return self.reads_per_minute / READS_PER_MINUTE_PER_USER

    @property
    def headroom(self) -> float:
        """The part of the per-user read limit left (negative: over the limit)."""
        return 1.0 - self.read_share

    @property
    def over_limit(self) -> bool:
        """True when the reads alone exceed what Google allows a user a minute."""
        return self.reads_per_minute > READS_PER_MINUTE_PER_USER

    @property
    def tight(self) -> bool:
        """True when less than a fifth of the per-user limit is left for anything else."""
        return self.read_share > COMFORT

    def describe(self) -> str:
        """One sentence: requests a minute, the limit and the headroom."""
        who = "this match" if self.matches == 1 else f"{self.matches} matches"
        sheets = "spreadsheet" if self.spreadsheets == 1 else "spreadsheets"
        return (f"{number(self.reads_per_minute)} reads a minute of {READS_PER_MINUTE_PER_USER} allowed per user: "
                f"{max(0, round(self.headroom * 100))}% headroom ({who}, {self.spreadsheets} {sheets}, a poll every "
                f"{number(self.interval)} s; writes at most as many, only when something changed)")

    def fastest_safe_interval(self) -> float:
        """The shortest poll interval that keeps reads within :data:`COMFORT` of the per-user limit."""
        return 60.0 * self.spreadsheets * self.matches / (READS_PER_MINUTE_PER_USER * COMFORT)


def number(value: float) -> str:
    """A figure for people: whole when it nearly is, else one decimal."""
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


def safe_watch_interval(spreadsheets: int, matches: int = 1) -> int:
    """The fewest whole seconds between ``sync --watch`` polls that keep ``matches`` matches of ``spreadsheets``
    spreadsheets within :data:`COMFORT` of the per-user read limit (what doctor advises and the guides say).

    >>> safe_watch_interval(18), safe_watch_interval(4)
    (23, 5)
    """
    return math.ceil(quota_use(spreadsheets, 1.0, matches).fastest_safe_interval() - 1e-9)


def quota_use(spreadsheets: int, interval: float, matches: int = 1) -> QuotaUse:
    """The requests a minute of ``matches`` matches of ``spreadsheets`` spreadsheets polled every ``interval`` s."""
    if spreadsheets < 1 or interval <= 0 or matches < 1:
        raise ValueError("spreadsheets and matches must be at least 1, interval above 0")
    return QuotaUse(spreadsheets, interval, matches)


#: Where Drive's limits come from; Drive counts quota units, hundreds of thousands a minute per user, so the
#: one ``changes.list`` a poll makes is never what limits a service account.
DRIVE_LIMITS_SOURCE = "https://developers.google.com/workspace/drive/api/guides/limits"
#: What doctor assumes of a match being played: polls an hour that find a player's save (each costs a full read,
#: then the read-back of our answer), and resolutions an hour (a read, a write, the read-back).
ACTIVE_CHANGES_PER_HOUR = 4.0
ACTIVE_RESOLUTIONS_PER_HOUR = 0.5


@dataclass(frozen=True, slots=True)
class GatedLoad:
    """The requests a minute of one match polled from cron every ``period`` minutes through the Drive gate.

    Each poll asks Drive once; Sheets reads every spreadsheet only at the safety net, after a poll that found
    a change (``changes_per_hour``), after each of our writes, and at a resolution."""

    spreadsheets: int
    period: float = 1.0
    changes_per_hour: float = 0.0
    resolutions_per_hour: float = 0.0

    @property
    def drive_per_minute(self) -> float:
        """Drive requests a minute (one ``changes.list`` a poll)."""
        return 1.0 / self.period

    @property
    def full_reads_per_hour(self) -> float:
        """Polls an hour that read every spreadsheet (never more than the polls themselves)."""
        wanted = 60.0 / SAFETY_NET_MINUTES + 2 * self.changes_per_hour + 2 * self.resolutions_per_hour
        return min(wanted, 60.0 / self.period)

    @property
    def reads_per_minute(self) -> float:
        """Sheets read requests a minute."""
        return self.spreadsheets * self.full_reads_per_hour / 60.0

    @property
    def writes_per_minute(self) -> float:
        """The most Sheets write requests a minute (an answer to every change, a resolution to every spreadsheet)."""
        return self.spreadsheets * (self.changes_per_hour + self.resolutions_per_hour) / 60.0

    def matches_per_account(self) -> int:
        """How many matches like this one a service account holds within its 60 reads (and writes) a minute."""
        per_match = max(self.reads_per_minute, self.writes_per_minute)
        return int(READS_PER_MINUTE_PER_USER / per_match + 1e-9) if per_match > 0 else 0


def idle_and_active(spreadsheets: int, period: float = 1.0) -> tuple[GatedLoad, GatedLoad]:
    """The load of a match of ``spreadsheets`` spreadsheets polled every ``period`` minutes: idle, and being played
    (:data:`ACTIVE_CHANGES_PER_HOUR`, :data:`ACTIVE_RESOLUTIONS_PER_HOUR`).

    >>> idle, active = idle_and_active(4)
    >>> idle.reads_per_minute, idle.drive_per_minute, idle.matches_per_account()
    (0.13333333333333333, 1.0, 450)
    >>> active.matches_per_account()
    81
    """
    return (GatedLoad(spreadsheets, period),
            GatedLoad(spreadsheets, period, ACTIVE_CHANGES_PER_HOUR, ACTIVE_RESOLUTIONS_PER_HOUR))
