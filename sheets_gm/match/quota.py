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


def number(value: float) -> str:
    """A figure for people: whole when it nearly is, else one decimal."""
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


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
