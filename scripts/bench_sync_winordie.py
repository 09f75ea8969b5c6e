"""The sync bars of ``bench_sync.py`` for Win or Die on the generic sync: API calls and bytes per poll.

A sample match (Ann and Bo, the sample line-ups) is created in four spreadsheets (board, engine,
Ann's orders, Bo's orders) on the fake Google of ``tests/fakes/google_api.py``, through real
gspread and ``GoogleSheetBackend``, and the advance bots play it to its end through the cells.
Before every window an idle poll (nothing new typed) is measured; then the bots type their rows
and tick Ready, and the resolving poll is measured.

Bars (exit 1 if one fails): an idle poll is exactly 1 ``values.batchGet`` per spreadsheet and
nothing else; a resolution is 1 ``values.batchGet`` and 1 ``values.batchUpdate`` per spreadsheet
and nothing else; bytes read by an idle poll do not grow over the match (at most 25% over the
first turn's).

    .venv/bin/python scripts/bench_sync_winordie.py [--seed TEXT]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # for tests.fakes (the meters of bench_sync are next to this script)

from bench_sync import GROWTH_ALLOWED, NOW, Match, Usage, calls_text, metered_spreadsheets  # noqa: E402  (run from scripts/)

from sheets_gm.engine.registry import create_ruleset, get_ruleset  # noqa: E402
from sheets_gm.sync.sheets import MatchSheets  # noqa: E402
from sheets_gm.sync.window_autoplay import type_bot_orders  # noqa: E402
from sheets_gm.sync.window_create import create_window_match  # noqa: E402
from sheets_gm.sync.window_poll import poll  # noqa: E402
from tests.fakes.google_api import GoogleApiFake  # noqa: E402

RULESET = "winordie"
ROLES = ("board", "engine", "Ann", "Bo")


def new_match(fake: GoogleApiFake, seed: bytes) -> Match:
    """The sample Win or Die match in four new fake spreadsheets, a meter on each."""
    rules = create_ruleset(RULESET)
    roster = rules.sample_roster()
    meters = metered_spreadsheets(fake, ROLES, "WodBenchKey")
    sheets = MatchSheets(roster.seats, meters["board"], meters["engine"], tuple(meters[s] for s in roster.seats))
    create_window_match(sheets, rules, roster, seed=seed)
    return Match(fake, sheets, meters)


def problems(window: str, step: str, usage: dict[str, Usage]) -> list[str]:
    """Every bar the step missed."""
    want = (1, 1) if step == "resolution" else (1, 0)
    return [f"{window}, {step}: {role} made {u.reads} reads, {u.writes} writes, {u.other} other calls (want "
            f"{want[0]} read, {want[1]} write, nothing else)"
            for role, u in usage.items() if (u.reads, u.writes, u.other) != (*want, 0)]


def main(argv: Sequence[str] | None = None) -> int:
    """Play the match, print a line per window, return 1 if a bar failed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", default="bench-sync-winordie", help="the match seed (any text)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    cls = get_ruleset(RULESET)
    rules = create_ruleset(RULESET)
    bots = {seat: rules.bots()["advance"].make(f"bench/{seat}") for seat in rules.sample_roster().seats}
    failed: list[str] = []
    idle_bytes: list[tuple[str, int]] = []
    head = f"{'window':<24}  {'step':<10}  " + "  ".join(f"{r:>6}" for r in ROLES) + "  bytes read  bytes written"
    print("API calls per spreadsheet (R = values.batchGet, W = values.batchUpdate) and bytes, as the fake saw them")
    print(head)
    print("-" * len(head))
    with GoogleApiFake() as fake:
        match = new_match(fake, args.seed.encode())
        while True:
            with match.measure() as usage:
                report = poll(match.sheets, cls, now=NOW)
            if report.finished:
                break
            window = report.window
            if report.resolved:
                failed.append(f"{window}: the idle poll resolved it")
            failed += problems(window, "idle poll", usage)
            read = sum(u.bytes_read for u in usage.values())
            if "deploy" not in window:
                idle_bytes.append((window, read))
            print(f"{window:<24}  {'idle poll':<10}  " + "  ".join(f"{calls_text(usage[r]):>6}" for r in ROLES)
                  + f"  {read:>10,}  {0:>13,}")
            type_bot_orders(match.sheets, cls, bots)
            with match.measure() as usage:
                report = poll(match.sheets, cls, now=NOW)
            if not report.resolved:
                failed.append(f"{window}: the poll after every seat was ready did not resolve ({report.reason})")
            failed += problems(window, "resolution", usage)
            print(f"{window:<24}  {'resolution':<10}  " + "  ".join(f"{calls_text(usage[r]):>6}" for r in ROLES)
                  + f"  {sum(u.bytes_read for u in usage.values()):>10,}"
                  + f"  {sum(u.bytes_written for u in usage.values()):>13,}")
        if fake.violations:
            failed.append(f"the fake saw requests Google would refuse: {fake.violations}")
    first_window, first = idle_bytes[0]
    last_window, last = idle_bytes[-1]
    print(f"\nBytes read per idle poll: {first:,} ({first_window}), {last:,} ({last_window}): {last / first:.2f}x")
    if last > first * GROWTH_ALLOWED:
        failed.append(f"bytes read per idle poll grew {last / first:.2f}x (at most {GROWTH_ALLOWED}x)")
    print(f"Result: {report.result}")
    for line in failed:
        print(f"FAIL {line}")
    print(f"{'Bars met' if not failed else 'Bars missed'} ({time.perf_counter() - start:.1f} s).")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
