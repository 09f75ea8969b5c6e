"""Benchmark test files: the CPU seconds each one costs, paired against another tree.

Each pair runs the file once with the other tree's code and tests and once with this tree's, each in a fresh
``pytest -n 0`` process with ``PYTHONPATH`` on its tree, alternating which goes first; the figure is the process's
CPU time (user + system, read from the children's resource usage), which a loaded machine leaves alone where it
stretches the wall clock. It prints each run, then per file the medians and the median paired ratio.

    .venv/bin/python scripts/bench_test_files.py --vs main tests/sync/test_sync_google.py
    .venv/bin/python scripts/bench_test_files.py --vs /tmp/old --pairs 3 tests/host/test_serve_google.py -k cold

``--vs`` takes a commit of this repository (exported with ``git archive`` into a temporary folder for the run) or
a checkout's folder. Without ``--vs`` each file runs ``--pairs`` times with this tree alone. Arguments after the
files (``-k``, ``-m``) go to pytest as they are.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench_engine import (
    exported,  # a commit exported for a paired run, as the engine's bench does (scripts/ is on the path)
)

HERE = Path(__file__).resolve().parent.parent


def cpu_of_children() -> float:
    """The CPU seconds (user + system) the processes this one waited for have used so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_file(tree: Path, test_file: str, extra: Sequence[str]) -> tuple[float, str]:
    """``test_file`` of ``tree`` run by pytest in one process, its imports from ``tree``: its CPU seconds and the
    summary line pytest printed last."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = cpu_of_children()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", test_file,
                           *extra], capture_output=True, text=True, cwd=tree, env=env, check=False)
    cpu = cpu_of_children() - before
    lines = done.stdout.strip().splitlines()
    summary = lines[-1] if lines else done.stderr.strip()[-200:]
    if done.returncode not in (0, 5):
        raise SystemExit(f"{tree}: {test_file} failed ({summary}):\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    return cpu, summary


def bench(trees: dict[str, Path], files: Sequence[str], extra: Sequence[str], pairs: int) -> None:
    """Each file run ``pairs`` times in each tree, the trees alternating first; the runs, medians and ratios."""
    table: list[str] = []
    for test_file in files:
        runs: dict[str, list[float]] = {name: [] for name in trees}
        for pair in range(1, pairs + 1):
            order = list(trees.items())
            for name, tree in order if pair % 2 else reversed(order):
                cpu, summary = run_file(tree, test_file, extra)
                runs[name].append(cpu)
                print(f"{test_file} pair {pair} {name}: {cpu:.1f} s CPU ({summary})", flush=True)
        medians = {name: statistics.median(done) for name, done in runs.items()}
        line = f"{test_file}: " + ", ".join(f"{name} {m:.1f} s" for name, m in medians.items())
        if set(runs) == {"old", "new"}:
            ratios = [new / old for old, new in zip(runs["old"], runs["new"], strict=True)]
            line += f", new/old {statistics.median(ratios):.2f}x (median of {pairs} pairs)"
        table.append(line)
        print(line, flush=True)
    print("\nCPU seconds per test file, medians:")
    print("\n".join(table))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", help="test files (paths from the repository's root)")
    parser.add_argument("--vs", metavar="COMMIT_OR_PATH", help="pair each run with this commit or checkout folder")
    parser.add_argument("--pairs", type=int, default=3, help="runs of each file in each tree (default 3)")
    args, extra = parser.parse_known_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    if args.vs is None:
        bench({"new": HERE}, args.files, extra, args.pairs)
        return 0
    given = Path(args.vs)
    if given.is_dir():
        bench({"old": given.resolve(), "new": HERE}, args.files, extra, args.pairs)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-tests-") as folder:
        bench({"old": exported(args.vs, Path(folder)), "new": HERE}, args.files, extra, args.pairs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
