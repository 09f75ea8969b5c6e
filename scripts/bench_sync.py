"""The sync bars for every game: API calls and bytes per poll of the sync, on the fake Google.

For each ruleset with a sheet adapter, its sample match is created in one spreadsheet per role
(board, engine, each seat's orders, the judge's if it has one) on the fake Google of
``tests/fakes/google_api.py``, through real gspread and ``GoogleSheetBackend``, and the ruleset's
bots (the first it lists, or ``--bot``; and its stand-in judge) play it through the cells. Before
every window an idle poll (nothing new typed) is measured; then the bots type their rows and tick
Ready, and the resolving poll is measured.

Bars (exit 1 if one fails): an idle poll is exactly 1 ``values.batchGet`` per spreadsheet and
nothing else; a resolution is 1 ``values.batchGet`` and at most 1 ``values.batchUpdate`` per
spreadsheet and nothing else; bytes read by an idle poll do not grow over the match (at most 25%
over the first windows of the same phase: the median of the last three idle polls of a phase against
that of its first three, since what is read varies with the match).

Then, for each game, the polls cron makes every minute through the Drive gate (``poll_gate/``):
Sheets and Drive requests of an idle poll, of one player's save, of the poll that resolves after the bots
typed, of the polls after those two, and of the half-hourly look at Drive's file index; bars: an idle poll,
the polls after a write of ours and the half-hourly one make no Sheets request and at most one Drive
request, a save reads and answers the saver's spreadsheet alone, a resolution makes 1 read + at most 1 write
per spreadsheet; each of those two asks Drive once, plus one ``files.get`` per spreadsheet written (its Drive
version right after our write, which the next poll passes over). And the matches one service account
holds, idle and being played, with cron every minute and every five (``doctor/quota.py``).

    .venv/bin/python scripts/bench_sync.py [--ruleset NAME ...] [--windows N] [--bot KIND] [--seed TEXT]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # for tests.fakes: the fake Google lives with the tests

from sheets_gm.doctor.quota import played_match  # noqa: E402
from sheets_gm.engine.ruleset import JUDGE  # noqa: E402
from sheets_gm.match.schedule import DeadlineSchedule  # noqa: E402
from sheets_gm.poll_gate.drive import DriveGate  # noqa: E402
from sheets_gm.poll_gate.run import IdlePoll, gated_poll  # noqa: E402
from sheets_gm.poll_gate.state import Said  # noqa: E402
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_game, get_ruleset, ruleset_names  # noqa: E402
from sheets_gm.sheets.backend import RangeWrite  # noqa: E402
from sheets_gm.sheets.google.backend import GoogleSheetBackend  # noqa: E402
from sheets_gm.sheets.google.drive import DriveChangeLog  # noqa: E402
from sheets_gm.sheets.layout import Grid, ReadGuard, WorkbookLayout  # noqa: E402
from sheets_gm.sheets.marks import file_mark  # noqa: E402
from sheets_gm.sheets.retry import RetryPolicy  # noqa: E402
from sheets_gm.sync.autoplay import type_bot_orders  # noqa: E402
from sheets_gm.sync.life.create import create_match  # noqa: E402
from sheets_gm.sync.poll import poll  # noqa: E402
from sheets_gm.sync.sheets import MatchSheets  # noqa: E402
from tests.fakes.google_api import (  # noqa: E402
    BATCH_UPDATE,
    CHANGES,
    FILE_GET,
    FILES,
    GET,
    READ,
    START_TOKEN,
    WRITE,
    GoogleApiFake,
    fake_client,
)

T = TypeVar("T")

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
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

    @property
    def changes(self) -> int:
        """The wrapped spreadsheet's writes sent (``SheetBackend.changes``)."""
        return self.inner.changes

    def _metered(self, fn: Callable[[], T], writes: tuple[str, ...] = (WRITE,), reads: tuple[str, ...] = (READ,)) -> T:
        """Run ``fn``, counting its requests: ``reads`` and ``writes`` (the endpoints that count as a read, a write),
        others."""
        calls = {endpoint: stats.calls for endpoint, stats in self.fake.stats.items()}
        read_before = sum(self.fake.byte_counts(r)[1] for r in reads)
        written_before = sum(self.fake.byte_counts(w)[0] for w in writes)
        try:
            return fn()
        finally:
            for endpoint, stats in self.fake.stats.items():
                delta = stats.calls - calls.get(endpoint, 0)
                if endpoint in reads:
                    self.usage.reads += delta
                elif endpoint in writes:
                    self.usage.writes += delta
                else:
                    self.usage.other += delta
            self.usage.bytes_read += sum(self.fake.byte_counts(r)[1] for r in reads) - read_before
            self.usage.bytes_written += sum(self.fake.byte_counts(w)[0] for w in writes) - written_before

    def read(self, ranges: Sequence[str], *, struck: Collection[str] = ()) -> list[Grid]:
        """Read through the wrapped backend, counted."""
        return self._metered(lambda: self.inner.read(ranges, struck=struck), reads=(READ, GET))  # (struck: a get)

    def write(self, writes: Sequence[RangeWrite], *, read_back: Sequence[str] = (),
              guard: Sequence[ReadGuard] = ()) -> list[Grid]:
        """Write through the wrapped backend, counted: a write with cell notes is one spreadsheets.batchUpdate,
        which Google counts as one write request like a values.batchUpdate."""
        return self._metered(lambda: self.inner.write(writes, read_back=read_back, guard=guard), (WRITE, BATCH_UPDATE))

    def apply_layout(self, layout: WorkbookLayout, writes: Sequence[RangeWrite] = ()) -> None:
        """Lay out through the wrapped backend, counted; then ``writes``, counted as a write of their own (as
        Google sends them)."""
        self._metered(lambda: self.inner.apply_layout(layout))
        if writes:
            self.write(writes)

    def export_xlsx(self) -> bytes:
        """Export through the wrapped backend, counted."""
        return self._metered(self.inner.export_xlsx)

    def tab_names(self) -> list[str]:
        """List the tabs through the wrapped backend, counted."""
        return self._metered(self.inner.tab_names)


@dataclass
class Match:
    """A match in fake spreadsheets, with a meter on each."""

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
            raise AssertionError(f"{unattributed} API calls were made outside the spreadsheets' backends")


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


def calls_text(u: Usage) -> str:
    """A spreadsheet's calls in a step: ``1R+1W`` (reads, writes, anything else as ``?``)."""
    text = f"{u.reads}R" + (f"+{u.writes}W" if u.writes else "")
    return text + (f"+{u.other}?" if u.other else "")


def with_sheets() -> list[str]:
    """Every registered ruleset whose matches run through spreadsheets (it has a sheet adapter)."""
    return [n for n in ruleset_names() if get_game(n).sheet is not None]


def new_match(fake: GoogleApiFake, ruleset: str, seed: bytes) -> tuple[Match, tuple[str, ...]]:
    """The ruleset's sample match in new fake spreadsheets, a meter on each; and the roles, in order."""
    rules = create_ruleset(ruleset)
    roster = rules.sample_roster()
    roles = ("board", "engine", *roster.seats, *((JUDGE,) if rules.traits.judge else ()))
    meters = metered_spreadsheets(fake, roles, f"{ruleset}BenchKey")
    sheets = MatchSheets(roster.seats, meters["board"], meters["engine"], tuple(meters[s] for s in roster.seats),
                         meters.get(JUDGE))
    create_match(sheets, rules, roster, seed=seed)
    return Match(fake, sheets, meters), roles


def problems(window: str, step: str, usage: dict[str, Usage]) -> list[str]:
    """Every bar the step missed."""
    most_writes = 1 if step == "resolution" else 0
    return [f"{window}, {step}: {role} made {u.reads} reads, {u.writes} writes, {u.other} other calls (want "
            f"1 read, at most {most_writes} write, nothing else)"
            for role, u in usage.items() if u.reads != 1 or u.writes > most_writes or u.other]


def bench(ruleset: str, seed: str, windows: int | None, bot: str = "") -> list[str]:
    """Play one ruleset's sample match (its ``bot`` kind of bots if it has one), print a line per poll; return the
    bars missed."""
    cls = get_ruleset(ruleset)
    rules = create_ruleset(ruleset)
    kinds = bots_of(rules)
    make = (kinds[bot] if bot in kinds else next(iter(kinds.values()))).make
    bots = {seat: make(f"bench/{seat}") for seat in (*rules.sample_roster().seats, JUDGE)}
    failed: list[str] = []
    idle_bytes: dict[str, list[tuple[str, int]]] = {}  # by window phase
    with GoogleApiFake() as fake:
        match, roles = new_match(fake, ruleset, seed.encode())
        width = max(6, *(len(r) for r in roles))
        head = f"{'window':<28}  {'step':<10}  " + "  ".join(f"{r:>{width}}" for r in roles)
        print(f"\n{rules.traits.title}: API calls per spreadsheet (R = values.batchGet, W = one write: "
              "values.batchUpdate, or spreadsheets.batchUpdate when it sets cell notes)")
        print(head + "  bytes read  bytes written")
        print("-" * (len(head) + 27))
        played = resolutions = 0
        while windows is None or played < windows:
            with match.measure() as usage:
                report = poll(match.sheets, cls, now=NOW)
            window = rules.window(report.state)
            if report.finished or window is None:
                break
            if report.resolved:
                failed.append(f"{report.window}: the idle poll resolved it")
            failed += problems(report.window, "idle poll", usage)
            read = sum(u.bytes_read for u in usage.values())
            idle_bytes.setdefault(window.phase, []).append((report.window, read))
            print(f"{report.window:<28}  {'idle poll':<10}  " + "  ".join(f"{calls_text(usage[r]):>{width}}"
                                                                          for r in roles)
                  + f"  {read:>10,}  {0:>13,}")
            type_bot_orders(match.sheets, cls, bots)
            with match.measure() as usage:
                # as status prints it: the window and its step (without a step the force reads the last history row)
                report = poll(match.sheets, cls, now=NOW, force=True, window_key=window.key, step=resolutions + 1)
            resolutions += int(report.resolved)
            if not report.resolved:
                failed.append(f"{window.label}: the poll after the bots' orders did not resolve ({report.reason})")
            failed += problems(window.label, "resolution", usage)
            print(f"{window.label:<28}  {'resolution':<10}  " + "  ".join(f"{calls_text(usage[r]):>{width}}"
                                                                           for r in roles)
                  + f"  {sum(u.bytes_read for u in usage.values()):>10,}"
                  + f"  {sum(u.bytes_written for u in usage.values()):>13,}")
            played += 1
        if fake.violations:
            failed.append(f"the fake saw requests Google would refuse: {fake.violations}")
    for phase, seen in idle_bytes.items():
        # What is read varies with the match (feedback texts, armies on the board's first row): compare the
        # median of the phase's first three idle polls with that of its last three.
        first, last = statistics.median(b for _w, b in seen[:3]), statistics.median(b for _w, b in seen[-3:])
        print(f"Bytes read per idle poll ({phase}), median of the first three {first:,.0f} ({seen[0][0]}…), of the "
              f"last three {last:,.0f} (…{seen[-1][0]}): {last / first:.2f}x")
        if last > first * GROWTH_ALLOWED:
            failed.append(f"{ruleset} {phase}: bytes read per idle poll grew {last / first:.2f}x "
                          f"(at most {GROWTH_ALLOWED}x)")
    print(f"Result after {played} windows: {report.result}")
    return failed


@dataclass
class GatedPoll:
    """The requests of one cron poll through the Drive gate."""

    reads: int
    writes: int
    drive: int
    resolved: bool

    def text(self) -> str:
        """``0R 0W 1D``."""
        return f"{self.reads}R {self.writes}W {self.drive}D"


def gated_polls(ruleset: str, seed: str, bot: str = "") -> tuple[int, dict[str, GatedPoll]]:
    """The spreadsheets of the ruleset's sample match and its cron polls a minute apart through the Drive gate:
    the first (no state), an idle one, one player's save and the poll after it, the poll that resolves after the
    bots typed and the poll after it (our writes answered with their spreadsheets: nothing to read back), idle
    again, and the poll half an hour later that asks Drive's file index."""
    cls = get_ruleset(ruleset)
    rules = create_ruleset(ruleset)
    kinds = bots_of(rules)
    make = (kinds[bot] if bot in kinds else next(iter(kinds.values()))).make
    bots = {seat: make(f"bench/{seat}") for seat in (*rules.sample_roster().seats, JUDGE)}
    steps: dict[str, GatedPoll] = {}
    with GoogleApiFake() as fake, tempfile.TemporaryDirectory() as tmp:
        fake.now = NOW
        match, _roles = new_match(fake, ruleset, seed.encode())
        meters = match.meters
        plain = MatchSheets(match.sheets.seats, meters["board"].inner, meters["engine"].inner,
                            tuple(meters[s].inner for s in match.sheets.seats),
                            meters[JUDGE].inner if JUDGE in meters else None)
        config = Path(tmp) / "match.toml"
        config.write_text("# the state file's place\n", encoding="utf-8")
        mark = file_mark(config)
        log = DriveChangeLog(plain.engine.client)  # type: ignore[attr-defined]
        now = NOW

        def step(name: str, force: bool = False, minutes: float = 1) -> None:
            nonlocal now
            now += timedelta(minutes=minutes)
            fake.now = now
            fake.reset_counters()
            gated = gated_poll(
                DriveGate(config, mark, plain, log, now, lambda: now),
                lambda sheets: poll(sheets, cls, now=now, force=force, window_key=open_key if force else None),
                may_idle=lambda _: True, said=lambda _: Said())
            resolved = not isinstance(gated, IdlePoll) and gated[0].resolved
            written = fake.calls(WRITE) + fake.calls(BATCH_UPDATE)  # a write with notes, or a layout: one write each
            drive = fake.calls(CHANGES) + fake.calls(START_TOKEN) + fake.calls(FILES) + fake.calls(FILE_GET)
            reads = fake.calls(READ) + fake.calls(GET)  # a spreadsheets.get (tab ids) is a read request too
            steps[name] = GatedPoll(reads, written, drive, resolved)

        open_key = ""
        step("first poll")
        step("idle poll")
        first = poll(plain, cls, now=now, dry_run=True)  # where the match stands (not counted)
        open_key = first.window_key
        saver = (first.waiting_for or list(plain.seats))[0]
        type_bot_orders(plain, cls, {saver: bots[saver]}, ready=False)  # one player saves her orders
        step("one save")
        step("next poll")
        type_bot_orders(plain, cls, bots)
        step("resolution", force=True)
        step("after it")
        step("idle again")
        step("half hour", minutes=30)
    return len({id(b) for b in plain.write_order()}), steps


def gated_problems(ruleset: str, spreadsheets: int, steps: dict[str, GatedPoll]) -> list[str]:
    """The Drive gate's bars each step missed."""
    out = []
    for name in ("idle poll", "next poll", "after it", "idle again", "half hour"):
        got = steps[name]
        if got.reads or got.writes or got.drive > 1:
            out.append(f"{ruleset}: the {name} made {got.text()} (want no Sheets request, at most 1 Drive request)")
    got = steps["one save"]
    if got.reads != 1 or got.writes > 1 or got.drive > 1 + got.writes:
        out.append(f"{ruleset}: one save made {got.text()} (want the saver's spreadsheet read and answered alone, 1D "
                   "and 1D a write)")
    got = steps["resolution"]
    if not got.resolved or got.reads != spreadsheets or got.writes > spreadsheets or got.drive > 1 + got.writes:
        out.append(f"{ruleset}: the resolving poll made {got.text()} (want {spreadsheets}R, at most "
                   f"{spreadsheets}W, 1D and 1D a write, and a resolution)")
    return out


def gated_report(rulesets: Sequence[str], seed: str, bot: str) -> list[str]:
    """Print the Drive gate's table and the matches per account; return the bars missed."""
    print("\nCron polls through the Drive gate (R = Sheets values.batchGet, W = one write (or layout), D = Drive "
          "changes.list, getStartPageToken, files.list, or files.get: a spreadsheet's version, asked right after "
          "each write of ours)")
    names = ("first poll", "idle poll", "one save", "next poll", "resolution", "after it", "idle again", "half hour")
    print(f"{'game':<12} {'sheets':>6}  " + "  ".join(f"{n:>11}" for n in names)
          + "   matches per account (idle / played): every minute, every 5 min")
    failed: list[str] = []
    for ruleset in rulesets:
        count, steps = gated_polls(ruleset, seed, bot)
        failed += gated_problems(ruleset, count, steps)
        seats = len(create_ruleset(ruleset).sample_roster().seats)
        traits = get_ruleset(ruleset).traits
        loads = [played_match(traits, seats, count, DeadlineSchedule(), period) for period in (1.0, 5.0)]
        per_account = ", ".join(f"{load.idle.matches_per_account()} / "
                                + "–".join(str(p.matches_per_account()) for p in reversed(load.realistic))
                                for load in loads)
        print(f"{ruleset:<12} {count:>6}  " + "  ".join(f"{steps[n].text():>11}" for n in names)
              + f"   {per_account}")
    return failed


def main(argv: Sequence[str] | None = None) -> int:
    """Bench each ruleset asked for (default: every one with sheets); return 1 if a bar failed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", action="append", default=None, metavar="NAME",
                        help="a ruleset to bench (repeatable; default: every ruleset on the generic sync)")
    parser.add_argument("--windows", type=int, default=None, metavar="N", help="stop after N windows (default: "
                        "play the match to its end)")
    parser.add_argument("--bot", default="", metavar="KIND", help="the bots to play with where the ruleset has them "
                        "(e.g. random); default: each ruleset's first")
    parser.add_argument("--seed", default="bench-sync", help="the match seed (any text)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    failed: list[str] = []
    for ruleset in args.ruleset or with_sheets():
        failed += bench(ruleset, args.seed, args.windows, args.bot)
    failed += gated_report(args.ruleset or with_sheets(), args.seed, args.bot)
    for line in failed:
        print(f"FAIL {line}")
    print(f"\n{'Bars met' if not failed else 'Bars missed'} ({time.perf_counter() - start:.1f} s).")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
