"""Count the Google Sheets API calls and bytes one sync poll costs, and check the bars.

A GvG match is created in four spreadsheets (board, engine, red orders, blue orders) on the
fake Google of ``tests/fakes/google_api.py`` (every request validated against Google's
discovery documents; nothing reaches the network), through real gspread and
:class:`~sheets_gm.sheets.google.GoogleSheetBackend`. For 2 players (1 per team) and 10
players (5 per team), on turn 1 and on turn 59 of a 60-turn match, it measures:

* an idle poll (nobody has typed anything new): calls per spreadsheet and bytes read;
* a resolution (orders typed, both captains ready): reads and writes per spreadsheet, bytes.

Turns 2 to 58 are played for real in between: the bots (RandomBot, which plays all 60
turns) type every player's orders into the cells and the GM forces each resolution, so
the log, the archives and the engine history fill up as in a real match. Bytes read per
idle poll are also sampled at turns 1, 20, 40 and 59.

Bars (the script exits 1 if one fails): an idle poll is exactly 1 ``values.batchGet`` per
spreadsheet and nothing else; a resolution is exactly 1 ``values.batchGet`` and 1
``values.batchUpdate`` per spreadsheet and nothing else (never a ``spreadsheets.get``);
bytes read per idle poll do not grow with the turn (at most 25% over turn 1's).

    .venv/bin/python scripts/bench_sync.py

"Bytes read" are the bodies of the batchGet answers; "bytes written" are the batchUpdate
requests (URL and JSON body), as the fake received them.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # for tests.fakes: the fake Google lives with the tests

from sheets_gm.rulesets.gvg.bots import Bot, RandomBot  # noqa: E402
from sheets_gm.rulesets.gvg.settings import GvgSettings  # noqa: E402
from sheets_gm.rulesets.gvg.setup import RosterEntry  # noqa: E402
from sheets_gm.rulesets.gvg.sheet.template import default_map_text  # noqa: E402
from sheets_gm.sheets.backend import RangeWrite  # noqa: E402
from sheets_gm.sheets.google import GoogleSheetBackend  # noqa: E402
from sheets_gm.sheets.layout import Grid, WorkbookLayout  # noqa: E402
from sheets_gm.sheets.retry import RetryPolicy  # noqa: E402
from sheets_gm.sync.autoplay import type_bot_orders  # noqa: E402
from sheets_gm.sync.create import create_match  # noqa: E402
from sheets_gm.sync.poll import PollReport, poll  # noqa: E402
from sheets_gm.sync.sheets import MatchSheets  # noqa: E402
from tests.fakes.google_api import READ, WRITE, GoogleApiFake, fake_client  # noqa: E402

T = TypeVar("T")

ROLES = ("board", "engine", "red", "blue")
TEAMS = ("red", "blue")
PLAYER_ROLES = ("dps", "dps", "tank", "tank", "healer")
MAX_TURNS = 60
MEASURED_TURNS = (1, 59)
SAMPLED_TURNS = (1, 20, 40, 59)
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
SEED = b"bench-sync"
GROWTH_ALLOWED = 1.25


@dataclass
class Usage:
    """What one spreadsheet cost during one measured step."""

    reads: int = 0
    writes: int = 0
    other: int = 0
    bytes_read: int = 0
    bytes_written: int = 0


class Metered:
    """A SheetBackend around a GoogleSheetBackend that attributes the fake's counters to it."""

    def __init__(self, inner: GoogleSheetBackend, fake: GoogleApiFake) -> None:
        self.inner = inner
        self.fake = fake
        self.usage = Usage()

    @property
    def name(self) -> str:
        """The wrapped spreadsheet's name."""
        return self.inner.name

    def _metered(self, fn: Callable[[], T]) -> T:
        calls = {endpoint: stats.calls for endpoint, stats in self.fake.stats.items()}
        read_before = self.fake.byte_counts(READ)[1]
        written_before = self.fake.byte_counts(WRITE)[0]
        try:
            return fn()
        finally:
            for endpoint, stats in self.fake.stats.items():
                delta = stats.calls - calls.get(endpoint, 0)
                if endpoint == READ:
                    self.usage.reads += delta
                elif endpoint == WRITE:
                    self.usage.writes += delta
                else:
                    self.usage.other += delta
            self.usage.bytes_read += self.fake.byte_counts(READ)[1] - read_before
            self.usage.bytes_written += self.fake.byte_counts(WRITE)[0] - written_before

    def read(self, ranges: Sequence[str]) -> list[Grid]:
        """Read through the wrapped backend, counted."""
        return self._metered(lambda: self.inner.read(ranges))

    def write(self, writes: Sequence[RangeWrite]) -> None:
        """Write through the wrapped backend, counted."""
        self._metered(lambda: self.inner.write(writes))

    def apply_layout(self, layout: WorkbookLayout) -> None:
        """Lay out through the wrapped backend, counted."""
        self._metered(lambda: self.inner.apply_layout(layout))

    def export_xlsx(self) -> bytes:
        """Export through the wrapped backend, counted."""
        return self._metered(self.inner.export_xlsx)

    def tab_names(self) -> list[str]:
        """List the tabs through the wrapped backend, counted."""
        return self._metered(self.inner.tab_names)


@dataclass
class Match:
    """A match in four fake spreadsheets, with a meter on each."""

    fake: GoogleApiFake
    sheets: MatchSheets
    meters: dict[str, Metered]

    @contextmanager
    def measure(self) -> Iterator[dict[str, Usage]]:
        """Zero the meters; the yielded dict holds each spreadsheet's usage once the block ends."""
        for meter in self.meters.values():
            meter.usage = Usage()
        out: dict[str, Usage] = {}
        total_before = self.fake.calls()
        yield out
        out.update({role: meter.usage for role, meter in self.meters.items()})
        for meter in self.meters.values():
            meter.usage = Usage()  # calls outside a measured block (bots typing) are not counted
        unattributed = self.fake.calls() - total_before - sum(u.reads + u.writes + u.other for u in out.values())
        if unattributed:
            raise AssertionError(f"{unattributed} API calls were made outside the four spreadsheets' backends")


def metered_spreadsheets(fake: GoogleApiFake, roles: Sequence[str], tag: str) -> dict[str, Metered]:
    """A new fake spreadsheet per role, each behind a real ``GoogleSheetBackend`` with a meter."""
    retry = RetryPolicy(deadline=5, sleep=lambda _s: None)  # the fake never fails here
    client = fake_client()
    meters: dict[str, Metered] = {}
    for role in roles:
        key = f"1{role.capitalize()}{tag}_" + "x" * 20
        fake.create_spreadsheet(key, f"bench {role}", ("Sheet1",))
        meters[role] = Metered(GoogleSheetBackend(client, key, retry=retry, title=role), fake)
    return meters


def new_match(fake: GoogleApiFake, per_team: int) -> Match:
    """Create a match of ``per_team`` players a side in four new spreadsheets."""
    meters = metered_spreadsheets(fake, ROLES, f"BenchKey_{per_team}")
    sheets = MatchSheets(TEAMS, meters["board"], meters["engine"], (meters["red"], meters["blue"]))
    roster = [RosterEntry(f"{team}{i}", team, PLAYER_ROLES[i % len(PLAYER_ROLES)])
              for team in TEAMS for i in range(per_team)]
    create_match(sheets, roster, settings=GvgSettings(max_turns=MAX_TURNS), map_text=default_map_text(), seed=SEED)
    return Match(fake, sheets, meters)


@dataclass
class Row:
    """One line of the table."""

    players: int
    turn: int
    step: str
    usage: dict[str, Usage]
    problems: list[str] = field(default_factory=list)


def check(row: Row) -> Row:
    """Fill ``row.problems`` with every bar the step missed."""
    want = (1, 1) if row.step == "resolution" else (1, 0)
    for role in ROLES:
        u = row.usage[role]
        if (u.reads, u.writes, u.other) != (*want, 0):
            row.problems.append(
                f"{row.players} players, turn {row.turn}, {row.step}: {role} made {u.reads} reads, "
                f"{u.writes} writes, {u.other} other calls (want {want[0]} read, {want[1]} write, nothing else)"
            )
    return row


def idle_poll(match: Match, players: int) -> Row:
    """A poll with nothing new typed: it must only read."""
    with match.measure() as usage:
        report = poll(match.sheets, now=NOW)
    row = Row(players, report.turn, "idle poll", usage)
    if report.resolved:
        row.problems.append(f"{players} players, turn {report.turn}: the idle poll resolved the turn")
    return check(row)


def resolution(match: Match, players: int, bots: Sequence[Bot]) -> Row:
    """Every player types an order, both captains tick ready, then one poll resolves the turn."""
    type_bot_orders(match.sheets, bots)
    with match.measure() as usage:
        report = poll(match.sheets, now=NOW)
    row = Row(players, report.turn, "resolution", usage)
    if not report.resolved:
        row.problems.append(f"{players} players, turn {report.turn}: the resolution poll did not resolve")
    return check(row)


def forced_turn(match: Match, bots: Sequence[Bot]) -> PollReport:
    """A turn played forward: the bots type orders, captains not ready, and the GM forces it."""
    type_bot_orders(match.sheets, bots, ready=False)
    report = poll(match.sheets, now=NOW, force=True)
    if not report.resolved or report.finished:
        raise AssertionError(f"turn {report.turn} was not resolved by force, or the match ended early")
    return report


def bench(per_team: int) -> tuple[list[Row], dict[int, dict[str, int]]]:
    """The measured rows, and bytes read per spreadsheet by the idle poll of each sampled turn."""
    players = 2 * per_team
    bots: list[Bot] = [RandomBot(f"bench-red-{per_team}"), RandomBot(f"bench-blue-{per_team}")]
    rows: list[Row] = []
    sampled: dict[int, dict[str, int]] = {}
    with GoogleApiFake() as fake:
        match = new_match(fake, per_team)
        turn = 1
        while turn <= max(MEASURED_TURNS):
            if turn in SAMPLED_TURNS or turn in MEASURED_TURNS:
                row = idle_poll(match, players)
                if row.turn != turn:
                    raise AssertionError(f"expected turn {turn}, the sheets are on turn {row.turn}")
                sampled[turn] = {role: u.bytes_read for role, u in row.usage.items()}
                if turn in MEASURED_TURNS:
                    rows.append(row)
            if turn in MEASURED_TURNS:
                rows.append(resolution(match, players, bots))
            else:
                forced_turn(match, bots)
            turn += 1
        if fake.violations:
            raise AssertionError(f"the fake saw requests Google would refuse: {fake.violations}")
    return rows, sampled


def calls_text(u: Usage) -> str:
    text = f"{u.reads}R" + (f"+{u.writes}W" if u.writes else "")
    return text + (f"+{u.other}?" if u.other else "")


def print_tables(rows: list[Row], sampled: dict[int, dict[int, dict[str, int]]]) -> None:
    head = (f"{'players':>7}  {'turn':>4}  {'step':<10}  " + "  ".join(f"{r:>6}" for r in ROLES)
            + f"  {'calls':>5}  {'bytes read':>10}  {'bytes written':>13}  bars")
    print("API calls per spreadsheet (R = values.batchGet, W = values.batchUpdate) and bytes, as the fake saw them")
    print(head)
    print("-" * len(head))
    for row in rows:
        total = sum(u.reads + u.writes + u.other for u in row.usage.values())
        read = sum(u.bytes_read for u in row.usage.values())
        written = sum(u.bytes_written for u in row.usage.values())
        print(f"{row.players:>7}  {row.turn:>4}  {row.step:<10}  "
              + "  ".join(f"{calls_text(row.usage[r]):>6}" for r in ROLES)
              + f"  {total:>5}  {read:>10,}  {written:>13,}  {'ok' if not row.problems else 'FAIL'}")
    print()
    print("Bytes per spreadsheet, read / written")
    head3 = f"{'players':>7}  {'turn':>4}  {'step':<10}  " + "  ".join(f"{r:>15}" for r in ROLES)
    print(head3)
    print("-" * len(head3))
    for row in rows:
        print(f"{row.players:>7}  {row.turn:>4}  {row.step:<10}  " + "  ".join(
            f"{f'{row.usage[r].bytes_read:,} / {row.usage[r].bytes_written:,}':>15}" for r in ROLES))
    print()
    print("Bytes read per idle poll, by turn (per spreadsheet: " + " / ".join(ROLES) + ")")
    head2 = f"{'players':>7}  {'turn':>4}  {'total':>7}  {'per spreadsheet':<32}  vs turn 1"
    print(head2)
    print("-" * len(head2))
    for players, by_turn in sampled.items():
        first = sum(by_turn[SAMPLED_TURNS[0]].values())
        for turn in SAMPLED_TURNS:
            per = by_turn[turn]
            total = sum(per.values())
            split = " / ".join(f"{per[r]:,}" for r in ROLES)
            print(f"{players:>7}  {turn:>4}  {total:>7,}  {split:<32}  {total / first:>8.2f}x")


def main() -> int:
    """Run the bench, print the tables, and return 1 if a bar failed."""
    start = time.perf_counter()
    rows: list[Row] = []
    sampled: dict[int, dict[int, dict[str, int]]] = {}
    for per_team in (1, 5):
        got, samples = bench(per_team)
        rows += got
        sampled[2 * per_team] = samples
    print_tables(rows, sampled)
    problems = [p for row in rows for p in row.problems]
    for players, by_turn in sampled.items():
        first = sum(by_turn[SAMPLED_TURNS[0]].values())
        for turn in SAMPLED_TURNS[1:]:
            total = sum(by_turn[turn].values())
            if total > first * GROWTH_ALLOWED:
                problems.append(f"{players} players: an idle poll on turn {turn} read {total:,} bytes, "
                                f"more than {GROWTH_ALLOWED:g} x turn 1's {first:,}")
    print()
    print(f"({time.perf_counter() - start:.1f} s)")
    if problems:
        print("BARS FAILED:")
        for problem in problems:
            print(f"  - {problem}")
        return 1
    print("All bars met: idle poll = 1 read per spreadsheet; resolution = 1 read + 1 write per spreadsheet; "
          "bytes read per poll do not grow with the turn.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
