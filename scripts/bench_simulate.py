"""Benchmark ``sheets-gm simulate``: 10,000 full GvG matches with 2 workers, against the 25-second goal.

Runs the simulation exactly as the command does (worker start-up, chunks, gathering the
records, computing the figures; no progress bar, no files) ``--repeats`` times and prints
for each the wall-clock seconds, the matches per second and the CPU seconds the workers
used, then the medians and whether the goal of issue 66 is met: 10,000 matches in at most
25 seconds with ``--workers 2`` (issue 5's bar was 60). The CPU figure tells a slow machine
from a busy one: when other processes take a core, the wall clock grows but the CPU seconds
per match do not, so the goal is also judged on the CPU seconds shared out over the workers
(the wall clock of a quiet machine with a core a worker).

    .venv/bin/python scripts/bench_simulate.py                       # 10,000 matches, 2 workers, 3 repeats
    .venv/bin/python scripts/bench_simulate.py --matches 2000 --repeats 1 --workers 1
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from collections.abc import Sequence

from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.registry import default_board_text
from sheets_gm.simulate.plan import Plan, bot_help, describe_bots, parse_bots, variants_for
from sheets_gm.simulate.runner import run_simulation

BAR_SECONDS = 25.0  # issue 66's goal (issue 5's bar was 60 s)
BAR_MATCHES = 10_000


def children_cpu_seconds() -> float:
    """User and system CPU seconds of this process's finished children (the workers, once joined)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_cpu_seconds() -> float:
    """User and system CPU seconds of this process (the parent, or everything with one worker)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def build_parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=BAR_MATCHES, help="matches per repeat (default 10000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats (default 3)")
    parser.add_argument("--seed", default="bench", help="the simulation seed (default 'bench')")
    parser.add_argument("--bots", default="objective", help="team A's bot and team B's, e.g. objective,random")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures; exit 0 whether or not the bar is met."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.matches < 1 or args.workers < 1 or args.repeats < 1:
        parser.error("--matches, --workers and --repeats must be at least 1")
    try:
        bots = parse_bots(args.bots, list(bot_help("gvg")))
    except ValueError as exc:
        parser.error(f"--bots: {exc}")
    plan = Plan("gvg", args.seed, args.matches, bots, variants_for(GvgSettings(), {}, None),
                default_board_text("gvg"), "default map")
    print(f"simulate benchmark: {args.matches:,} matches, {describe_bots(bots)}, {args.workers} worker(s), "
          f"seed {args.seed!r}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    rates: list[float] = []
    seconds: list[float] = []
    cpus: list[float] = []
    for r in range(args.repeats):
        cpu_before = children_cpu_seconds() + own_cpu_seconds()
        began = time.perf_counter()
        run = run_simulation(plan, args.workers)
        (figures,) = run.figures()
        elapsed = time.perf_counter() - began
        cpu = children_cpu_seconds() + own_cpu_seconds() - cpu_before
        seconds.append(elapsed)
        cpus.append(cpu)
        rates.append(args.matches / elapsed)
        wins = "/".join(str(t.wins.count) for t in figures.teams)
        print(f"repeat {r + 1}: {elapsed:.1f} s, {args.matches / elapsed:,.0f} matches/s "
              f"(CPU {cpu:.1f} s: {args.matches / cpu:,.0f} matches per CPU second; "
              f"wins A/B {wins}, draws {figures.draws.count}, mean length {figures.turns.mean:.1f} turns)")
    median = statistics.median(seconds)
    quiet = statistics.median(cpus) / args.workers  # a core a worker, nobody else on the machine
    print(f"median of {len(seconds)}: {median:.1f} s, {statistics.median(rates):,.0f} matches/s; "
          f"CPU {statistics.median(cpus):.1f} s, {quiet:.1f} s shared out over {args.workers} worker(s)")
    if args.matches == BAR_MATCHES and args.workers == 2:
        verdicts = ["met" if figure <= BAR_SECONDS else "NOT met" for figure in (median, quiet)]
        print(f"goal (10,000 matches in at most {BAR_SECONDS:.0f} s with 2 workers): wall clock {median:.1f} s, "
              f"{verdicts[0]}; CPU over the workers {quiet:.1f} s, {verdicts[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
