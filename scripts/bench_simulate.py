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
    .venv/bin/python scripts/bench_simulate.py --vs 0c7bcc5 --vs main --pairs 3   # paired against commits

With ``--vs COMMIT_OR_PATH`` (given once or more) the benchmark is paired: each pair runs every other tree's own
``scripts/bench_simulate.py`` (a checkout's folder, or a commit exported into a temporary folder) and this one's,
one repeat each in a fresh process with ``PYTHONPATH`` on its tree, in turn (the order rotated each pair); it
prints each run's wall clock and CPU seconds, whether the matches came out the same (wins, draws and mean length),
and the median CPU ratio of each other tree to this one.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

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
    parser.add_argument("--vs", metavar="COMMIT_OR_PATH", action="append", default=[],
                        help="pair each run with the same benchmark of this commit or checkout folder (repeatable)")
    parser.add_argument("--pairs", type=int, default=3, help="rounds of runs with --vs (default 3)")
    return parser


_REPEAT = re.compile(r"repeat 1: ([\d.]+) s, .*?\(CPU ([\d.]+) s: .*?; (wins .*?)\)")


def run_tree(tree: Path, argv: Sequence[str]) -> tuple[float, float, str]:
    """``tree``'s own ``scripts/bench_simulate.py`` with ``argv`` and one repeat, its imports from ``tree``: the wall
    clock and CPU seconds it printed, and its results (wins, draws, mean length)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, str(tree / "scripts" / "bench_simulate.py"), *argv, "--repeats", "1"],
                          capture_output=True, text=True, cwd=tree, env=env, check=False)
    found = _REPEAT.search(done.stdout)
    if found is None:
        raise SystemExit(f"{tree}: the benchmark printed no repeat:\n{done.stdout}{done.stderr[-2000:]}")
    return float(found.group(1)), float(found.group(2)), found.group(3)


def paired(trees: Sequence[tuple[str, Path]], argv: Sequence[str], pairs: int) -> None:
    """Rounds of one run of every tree of ``trees`` (this one last in the list), the order rotated each round; print
    each run, then the medians and each other tree's median CPU ratio to this one."""
    cpu: dict[str, list[float]] = {label: [] for label, _ in trees}
    results: set[str] = set()
    for pair in range(pairs):
        shift = pair % len(trees)
        for label, tree in [*trees[shift:], *trees[:shift]]:
            wall, seconds, result = run_tree(tree, argv)
            cpu[label].append(seconds)
            results.add(result)
            print(f"pair {pair + 1} {label}: {wall:.1f} s wall, CPU {seconds:.1f} s ({result})", flush=True)
    new = trees[-1][0]
    for label, _ in trees:
        print(f"median {label}: CPU {statistics.median(cpu[label]):.1f} s")
    for label, _ in trees[:-1]:
        ratios = [old / mine for old, mine in zip(cpu[label], cpu[new], strict=True)]
        print(f"median paired CPU ratio {label}/this tree: {statistics.median(ratios):.3f}x")
    print("same matches in every tree" if len(results) == 1 else f"the trees' matches differ: {sorted(results)}")


def main_vs(args: argparse.Namespace) -> int:
    """The paired benchmark of ``--vs``: each other tree (a folder, or a commit exported for the run) and this one."""
    # a commit exported as the engine's bench does (imported here: scripts/ is on the path when this runs as a
    # script, not always when a test loads the module)
    from bench_engine import exported

    argv = ["--matches", str(args.matches), "--workers", str(args.workers), "--seed", args.seed, "--bots", args.bots]
    with tempfile.TemporaryDirectory(prefix="bench-simulate-") as folder:
        trees: list[tuple[str, Path]] = []
        for n, given in enumerate(args.vs):
            where = Path(given)
            if where.is_dir():
                trees.append((given, where.resolve()))
            else:
                into = Path(folder) / str(n)
                into.mkdir()
                trees.append((given, exported(given, into)))
        trees.append(("this tree", Path(__file__).resolve().parent.parent))
        paired(trees, argv, args.pairs)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures; exit 0 whether or not the bar is met."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.matches < 1 or args.workers < 1 or args.repeats < 1 or args.pairs < 1:
        parser.error("--matches, --workers, --repeats and --pairs must be at least 1")
    try:
        bots = parse_bots(args.bots, list(bot_help("gvg")))
    except ValueError as exc:
        parser.error(f"--bots: {exc}")
    if args.vs:
        return main_vs(args)
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
