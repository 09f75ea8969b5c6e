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

from dataclasses import dataclass

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
        return (f"{_number(self.reads_per_minute)} reads a minute of {READS_PER_MINUTE_PER_USER} allowed per user: "
                f"{max(0, round(self.headroom * 100))}% headroom ({who}, {self.spreadsheets} {sheets}, a poll every "
                f"{_number(self.interval)} s; writes at most as many, only when something changed)")

    def fastest_safe_interval(self) -> float:
        """The shortest poll interval that keeps reads within :data:`COMFORT` of the per-user limit."""
        return 60.0 * self.spreadsheets * self.matches / (READS_PER_MINUTE_PER_USER * COMFORT)


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


def quota_use(spreadsheets: int, interval: float, matches: int = 1) -> QuotaUse:
    """The requests a minute of ``matches`` matches of ``spreadsheets`` spreadsheets polled every ``interval`` s."""
    if spreadsheets < 1 or interval <= 0 or matches < 1:
        raise ValueError("spreadsheets and matches must be at least 1, interval above 0")
    return QuotaUse(spreadsheets, interval, matches)
