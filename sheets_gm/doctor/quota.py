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

from sheets_gm.engine.ruleset import RulesetTraits, TurnStructure
from sheets_gm.engine.words import counted
from sheets_gm.match.schedule import DeadlineSchedule
from sheets_gm.poll_gate.idle import FULL_READ_HOURS as FULL_READ_HOURS  # doctor and the gate name them here
from sheets_gm.poll_gate.idle import SAFETY_NET_MINUTES as SAFETY_NET_MINUTES

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


def numbered(value: float, noun: str, plural: str | None = None) -> str:
    """A figure (``number``) and its noun, in the singular when the figure reads 1 (``counted``'s rule).

    >>> numbered(1.02, "save"), numbered(0.5, "window"), numbered(2, "person", "people")
    ('1 save', '0.5 windows', '2 people')
    """
    shown = number(value)
    return counted(1, noun, plural) if shown == "1" else f"{shown} {plural if plural is not None else noun + 's'}"


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
#: Windows an hour of a match being played without deadlines (each window resolves when every seat it waits for is
#: ready): a lively table closes one every two hours. With ``[deadlines]`` the schedule gives the pace instead.
ACTIVE_RESOLUTIONS_PER_HOUR = 0.5
#: Saves of her spreadsheet each seat that acts in a window makes in it, as a poll sees them (a poll a minute reads
#: a spreadsheet once however many cells changed since): at least one, realistically two to four (she types, the
#: feedback answers, she corrects).
FEWEST_SAVES_PER_WINDOW = 1
REALISTIC_SAVES_PER_WINDOW = (2, 4)


def savers_per_window(traits: RulesetTraits, seats: int) -> float:
    """How many people save their spreadsheet in an average window of a game with ``seats`` seats: every seat when
    they submit together, one seat when they take turns in order, both when two alternate (the other reacts); a
    judge's window, which follows each orders window, is the judge's save alone.

    >>> from sheets_gm.rulesets.registry import get_ruleset
    >>> [savers_per_window(get_ruleset(name).traits, n) for name, n in
    ...  [("champions", 16), ("gvg", 2), ("coalition", 2), ("wesnoth", 3), ("winordie", 2)]]
    [16.0, 2.0, 1.5, 1.0, 2.0]
    """
    acting = {TurnStructure.SIMULTANEOUS: float(seats), TurnStructure.SEQUENTIAL: 1.0,
              TurnStructure.ALTERNATING: float(min(seats, 2))}[traits.turn_structure]
    return (acting + 1.0) / 2.0 if traits.judge else acting


def windows_per_hour(schedule: DeadlineSchedule) -> float:
    """Windows an hour of a match being played: the deadlines of its schedule spread over the week, or without
    deadlines :data:`ACTIVE_RESOLUTIONS_PER_HOUR`.

    >>> windows_per_hour(DeadlineSchedule())
    0.5
    >>> round(windows_per_hour(DeadlineSchedule.parse(["20:00"])), 4)
    0.0417
    """
    if not schedule.times:
        return ACTIVE_RESOLUTIONS_PER_HOUR
    return len(schedule.times) * len(schedule.days) / (7 * 24)


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
        """Drive requests a minute: one a poll (``changes.list``, or every half hour ``files.list``); one
        ``files.get`` right after each write (the version our write leaves); and one per spreadsheet before a read
        of them all (the versions it covers), every :data:`FULL_READ_HOURS` hours and at a resolution's deadline."""
        full_reads_per_hour = 1 / FULL_READ_HOURS + self.resolutions_per_hour
        return 1.0 / self.period + self.writes_per_minute + full_reads_per_hour * self.spreadsheets / 60.0

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


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """The Sheets load of one match, from its game, seats, spreadsheets and deadlines: idle, and being played at
    the fewest saves (one per acting seat a window) and at the realistic two and four each."""

    spreadsheets: int
    savers: float  # people saving in an average window (``savers_per_window``)
    windows: float  # windows an hour (``windows_per_hour``)
    period: float = 1.0

    @property
    def idle(self) -> GatedLoad:
        """Nobody saves: the full read every :data:`FULL_READ_HOURS` hours alone."""
        return GatedLoad(self.spreadsheets, self.period)

    def saves_per_hour(self, each: int) -> float:
        """Saves an hour when every acting seat saves ``each`` times a window."""
        return self.savers * each * self.windows

    def played(self, each: int) -> GatedLoad:
        """Being played, every acting seat saving ``each`` times a window, a resolution closing each window."""
        return GatedLoad(self.spreadsheets, self.period, self.saves_per_hour(each), self.windows)

    @property
    def realistic(self) -> tuple[GatedLoad, GatedLoad]:
        """Being played at the realistic saves: the lighter (two each a window) and the heavier (four)."""
        low, high = REALISTIC_SAVES_PER_WINDOW
        return self.played(low), self.played(high)

    @property
    def per_deadline_minute(self) -> int:
        """How many matches like this one resolve within one minute under one account: a resolution reads and
        writes every spreadsheet once, against the 60 reads and 60 writes a minute a user gets."""
        return min(READS_PER_MINUTE_PER_USER, WRITES_PER_MINUTE_PER_USER) // self.spreadsheets


def played_match(traits: RulesetTraits, seats: int, spreadsheets: int, schedule: DeadlineSchedule,
                 period: float = 1.0) -> PlayedMatch:
    """The load of a match of a game with these traits, ``seats`` seats, ``spreadsheets`` spreadsheets and this
    deadline schedule, polled every ``period`` minutes.

    >>> from sheets_gm.rulesets.registry import get_ruleset
    >>> m = played_match(get_ruleset("champions").traits, 16, 18, DeadlineSchedule())
    >>> m.saves_per_hour(1), [load.matches_per_account() for load in m.realistic], m.per_deadline_minute
    (8.0, [128, 81], 3)
    """
    return PlayedMatch(spreadsheets, savers_per_window(traits, seats), windows_per_hour(schedule), period)
