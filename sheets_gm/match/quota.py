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

from sheets_gm.sync.poll_gate import FULL_READ_HOURS as FULL_READ_HOURS  # doctor and the gate name them here
from sheets_gm.sync.poll_gate import SAFETY_NET_MINUTES as SAFETY_NET_MINUTES

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
    """A figure for people: whole when it nearly is, else one decimal; under 1, two significant digits, so that a
    small cost does not read as none.

    >>> number(3.02), number(2.5), number(0.21), number(0.0111), number(0)
    ('3', '2.5', '0.21', '0.011', '0')
    """
    if 0 < abs(value) < 0.95:
        return f"{value:.2g}"
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


#: Where Drive's limits come from; Drive counts quota units, hundreds of thousands a minute per user, so the
#: one ``changes.list`` a poll makes is never what limits a service account.
DRIVE_LIMITS_SOURCE = "https://developers.google.com/workspace/drive/api/guides/limits"
#: What doctor assumes of a match being played: players' saves an hour (each costs the read of the saver's
#: spreadsheet and our answer in it) and resolutions an hour (every spreadsheet read and written).
ACTIVE_CHANGES_PER_HOUR = 4.0
ACTIVE_RESOLUTIONS_PER_HOUR = 0.5


@dataclass(frozen=True, slots=True)
class GatedLoad:
    """The requests a minute of one match polled from cron every ``period`` minutes through the Drive gate.

    Each poll asks Drive once; Sheets reads a spreadsheet only when Drive says it changed (a player's save,
    ``changes_per_hour``), to read back our write to it, at a resolution (every spreadsheet,
    ``resolutions_per_hour``) and every :data:`FULL_READ_HOURS` hours (every spreadsheet, the last resort).
    ``read_back``: how many reads a write of ours costs afterwards (0: the write answers with the spreadsheet as
    it stands after it; 1 when the next poll must read it back)."""

    spreadsheets: int
    period: float = 1.0
    changes_per_hour: float = 0.0
    resolutions_per_hour: float = 0.0
    read_back: int = 0

    @property
    def drive_per_minute(self) -> float:
        """Drive requests a minute (one ``changes.list``, or every half hour one ``files.list``, a poll)."""
        return 1.0 / self.period

    @property
    def reads_per_hour(self) -> float:
        """Sheets read requests an hour."""
        per_read = 1 + self.read_back  # the read, then any read-back of our answer
        return (self.spreadsheets / FULL_READ_HOURS + self.changes_per_hour * per_read
                + self.resolutions_per_hour * self.spreadsheets * per_read)

    @property
    def reads_per_minute(self) -> float:
        """Sheets read requests a minute."""
        return self.reads_per_hour / 60.0

    @property
    def writes_per_minute(self) -> float:
        """The most Sheets write requests a minute (an answer to every save, a resolution to every spreadsheet)."""
        return (self.changes_per_hour + self.resolutions_per_hour * self.spreadsheets) / 60.0

    def matches_per_account(self) -> int:
        """How many matches like this one a service account holds within its 60 reads (and writes) a minute."""
        per_match = max(self.reads_per_minute, self.writes_per_minute)
        return int(READS_PER_MINUTE_PER_USER / per_match + 1e-9) if per_match > 0 else 0


def idle_and_active(spreadsheets: int, period: float = 1.0) -> tuple[GatedLoad, GatedLoad]:
    """The load of a match of ``spreadsheets`` spreadsheets polled every ``period`` minutes: idle, and being played
    (:data:`ACTIVE_CHANGES_PER_HOUR`, :data:`ACTIVE_RESOLUTIONS_PER_HOUR`).

    >>> idle, active = idle_and_active(4)
    >>> round(idle.reads_per_minute, 4), idle.drive_per_minute, idle.matches_per_account()
    (0.0111, 1.0, 5400)
    >>> active.matches_per_account()
    540
    """
    return (GatedLoad(spreadsheets, period),
            GatedLoad(spreadsheets, period, ACTIVE_CHANGES_PER_HOUR, ACTIVE_RESOLUTIONS_PER_HOUR))
