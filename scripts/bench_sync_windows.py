"""The sync bars of ``bench_sync.py`` for every game on the generic sync: API calls and bytes per poll.

For each ruleset with a sheet adapter, its sample match is created in one spreadsheet per role
(board, engine, each seat's orders, the judge's if it has one) on the fake Google of
``tests/fakes/google_api.py``, through real gspread and ``GoogleSheetBackend``, and the ruleset's
default bots (and stand-in judge) play it through the cells. Before every window an idle poll
(nothing new typed) is measured; then the bots type their rows and tick Ready, and the resolving
poll is measured.

Bars (exit 1 if one fails): an idle poll is exactly 1 ``values.batchGet`` per spreadsheet and
nothing else; a resolution is 1 ``values.batchGet`` and at most 1 ``values.batchUpdate`` per
spreadsheet and nothing else; bytes read by an idle poll do not grow over the match (at most 25%
over the first windows of the same phase: the median of the last three idle polls of a phase against
that of its first three, since what is read varies with the match).

    .venv/bin/python scripts/bench_sync_windows.py [--ruleset NAME ...] [--windows N] [--seed TEXT]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # for tests.fakes (the meters of bench_sync are next to this script)

from bench_sync import GROWTH_ALLOWED, NOW, Match, Usage, calls_text, metered_spreadsheets  # noqa: E402  (run from scripts/)

from sheets_gm.engine.core.ruleset import JUDGE  # noqa: E402
from sheets_gm.engine.registry import create_ruleset, get_ruleset, ruleset_names  # noqa: E402
from sheets_gm.sync.sheets import MatchSheets  # noqa: E402
from sheets_gm.sync.window_autoplay import type_bot_orders  # noqa: E402
from sheets_gm.sync.window_create import create_window_match  # noqa: E402
from sheets_gm.sync.window_poll import poll  # noqa: E402
from tests.fakes.google_api import GoogleApiFake  # noqa: E402


def with_sheets() -> list[str]:
    """Every registered ruleset whose matches run on the generic sync."""
    return [n for n in ruleset_names() if create_ruleset(n).sheet() is not None]


def new_match(fake: GoogleApiFake, ruleset: str, seed: bytes) -> tuple[Match, tuple[str, ...]]:
    """The ruleset's sample match in new fake spreadsheets, a meter on each; and the roles, in order."""
    rules = create_ruleset(ruleset)
    roster = rules.sample_roster()
    roles = ("board", "engine", *roster.seats, *((JUDGE,) if rules.traits.judge else ()))
    meters = metered_spreadsheets(fake, roles, f"{ruleset}BenchKey")
    sheets = MatchSheets(roster.seats, meters["board"], meters["engine"], tuple(meters[s] for s in roster.seats),
                         meters.get(JUDGE))
    create_window_match(sheets, rules, roster, seed=seed)
    return Match(fake, sheets, meters), roles


def problems(window: str, step: str, usage: dict[str, Usage]) -> list[str]:
    """Every bar the step missed."""
    most_writes = 1 if step == "resolution" else 0
    return [f"{window}, {step}: {role} made {u.reads} reads, {u.writes} writes, {u.other} other calls (want "
            f"1 read, at most {most_writes} write, nothing else)"
            for role, u in usage.items() if u.reads != 1 or u.writes > most_writes or u.other]


def bench(ruleset: str, seed: str, windows: int | None) -> list[str]:
    """Play one ruleset's sample match, print a line per poll; return the bars missed."""
    cls = get_ruleset(ruleset)
    rules = create_ruleset(ruleset)
    make = next(iter(rules.bots().values())).make
    bots = {seat: make(f"bench/{seat}") for seat in (*rules.sample_roster().seats, JUDGE)}
    failed: list[str] = []
    idle_bytes: dict[str, list[tuple[str, int]]] = {}  # by window phase
    with GoogleApiFake() as fake:
        match, roles = new_match(fake, ruleset, seed.encode())
        width = max(6, *(len(r) for r in roles))
        head = f"{'window':<28}  {'step':<10}  " + "  ".join(f"{r:>{width}}" for r in roles)
        print(f"\n{rules.traits.title}: API calls per spreadsheet (R = values.batchGet, W = values.batchUpdate)")
        print(head + "  bytes read  bytes written")
        print("-" * (len(head) + 27))
        played = 0
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
                report = poll(match.sheets, cls, now=NOW, force=True, window_key=window.key)
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


def main(argv: Sequence[str] | None = None) -> int:
    """Bench each ruleset asked for (default: every one on the generic sync); return 1 if a bar failed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", action="append", default=None, metavar="NAME",
                        help="a ruleset to bench (repeatable; default: every ruleset on the generic sync)")
    parser.add_argument("--windows", type=int, default=None, metavar="N", help="stop after N windows (default: "
                        "play the match to its end)")
    parser.add_argument("--seed", default="bench-sync-windows", help="the match seed (any text)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    failed: list[str] = []
    for ruleset in args.ruleset or with_sheets():
        failed += bench(ruleset, args.seed, args.windows)
    for line in failed:
        print(f"FAIL {line}")
    print(f"\n{'Bars met' if not failed else 'Bars missed'} ({time.perf_counter() - start:.1f} s).")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
