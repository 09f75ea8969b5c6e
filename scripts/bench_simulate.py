"""Benchmark ``sheets-gm simulate`` as its user types it, paired against an older commit.

The command line ``sheets-gm simulate gvg --matches N --workers W --out OUT`` in a fresh process of each tree (this one
and ``--vs``, checked out under /tmp; ``scripts/bench_typed.py``), at a terminal (a pseudo-terminal of 120 columns:
the progress bar is drawn as the user sees it), writing its four files (simulate.json, simulate.csv, matches.csv,
simulate.png), the trees in turn, ``--pairs`` times. Each run's files are checked, and both trees must print the same
tables (the same matches).

Printed first: the command's wall seconds in each tree and the median of the pairs' ratios (old over new: the
speed-up), against the goal of issue 79 (1.5x against e068bf5), and its CPU seconds (the workers' included), the
figure a busy machine moves least; beside it, the seconds the command says it spent playing the matches (its own
"Played N matches in S s": the inner loop); then the load and each run.

    .venv/bin/python scripts/bench_simulate.py                              # 2,000 matches, 2 workers, vs e068bf5
    .venv/bin/python scripts/bench_simulate.py --matches 10000 --pairs 3 --vs main

With ``--instructions`` each tree runs the command once under valgrind's cachegrind instead (``--trace-children=yes``,
``PYTHONHASHSEED=0``, address randomisation off with ``setarch -R``), at the same terminal, and the instructions of
every process (the command's own and its workers') are added up: the figure a busy machine leaves alone.

    .venv/bin/python scripts/bench_simulate.py --instructions     # about 20 minutes a tree under valgrind
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench_typed import HERE, Run, baseline, command, compiled, fresh_run, load, median, paired, paired_ratio

GOAL = 1.5  # issue 79: the command as typed 1.5x as fast as at e068bf5
FILES = ("simulate.json", "simulate.csv", "matches.csv", "simulate.png")
_PLAYED = re.compile(r"Played [\d,]+ matches in ([\d.]+) s")
_TERMINAL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def played_seconds(run: Run) -> float:
    """The seconds the command said it spent playing the matches."""
    found = _PLAYED.search(_TERMINAL.sub("", run.said))
    return float(found.group(1)) if found else float("nan")


def tables(run: Run) -> str:
    """What the command printed, the terminal's control codes, the timings and the bar left out: its tables."""
    text = _TERMINAL.sub("", run.said)
    return "\n".join(line for line in text.splitlines()
                     if line.strip() and not line.startswith(("Played ", "Written to ", "Playing matches")))


_IREFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(tree: Path, typed: Sequence[str], scratch: Path) -> tuple[list[int], str]:
    """The instructions cachegrind counts in each process of the command as typed by ``tree`` (the command's own
    first), and what it printed."""
    valgrind, setarch = shutil.which("valgrind"), shutil.which("setarch")
    if valgrind is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    logs = Path(tempfile.mkdtemp(dir=scratch))
    folder = Path(tempfile.mkdtemp(dir=scratch))
    prefix = [*([setarch, os.uname().machine, "-R"] if setarch else []), valgrind, "--tool=cachegrind",
              "--cache-sim=no", "--cachegrind-out-file=/dev/null", "--trace-children=yes",
              f"--log-file={logs}/%p.log"]
    got = command(tree, typed, folder, terminal=True, prefix=prefix, env={"PYTHONHASHSEED": "0"})
    counts = []
    for log in sorted(logs.iterdir(), key=lambda p: int(p.stem)):  # process ids: the command's own is the first
        found = _IREFS.search(log.read_text(encoding="utf-8", errors="replace"))
        if found:
            counts.append(int(found.group(1).replace(",", "")))
    if not counts or played_seconds(got) != played_seconds(got):  # NaN: the command never said it played them
        raise SystemExit(f"{tree}: the command did not finish under valgrind:\n{got.said[-3000:]}")
    return counts, got.said


def counted(trees: dict[str, Path], typed: Sequence[str], scratch: Path, label: str) -> None:
    """Print each tree's instructions (all processes, and each) and the ratio old over new."""
    totals: dict[str, int] = {}
    said: set[str] = set()
    for name, tree in trees.items():
        counts, printed = instructions(tree, typed, scratch)
        totals[name] = sum(counts)
        said.add(tables(Run(0, 0, 0, printed)))
        each = ", ".join(f"{c / 1e9:.2f} G" for c in counts)
        print(f"{name} ({label if name == 'old' else tree}): {totals[name] / 1e9:.3f} G instructions ({each})",
              flush=True)
    print(f"`sheets-gm {' '.join(typed)}`: {totals['old'] / totals['new']:.3f}x fewer instructions in this tree; "
          + ("the same tables" if len(said) == 1 else "the tables differ"))


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=2000, help="matches (default 2,000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", default="bench", help="the simulation seed (default 'bench')")
    parser.add_argument("--vs", default="e068bf5", metavar="COMMIT", help="the baseline commit (default e068bf5)")
    parser.add_argument("--pairs", type=int, default=3, help="pairs of runs (default 3)")
    parser.add_argument("--instructions", action="store_true",
                        help="count each tree's instructions under cachegrind, every process, instead of timing")
    args = parser.parse_args(argv)
    typed = ["simulate", "gvg", "--matches", str(args.matches), "--workers", str(args.workers), "--seed", args.seed,
             "--out", "out"]
    with baseline(args.vs) as old, tempfile.TemporaryDirectory(prefix="bench-simulate-") as scratch:
        trees = {"old": old, "new": HERE}
        for tree in trees.values():
            compiled(tree)
        if args.instructions:
            counted(trees, typed, Path(scratch), args.vs)
            return 0

        def wrote(folder: Path, _got: Run) -> str:
            missing = [f for f in FILES if not (folder / "out" / f).is_file()]
            return f"no {', '.join(missing)} written" if missing else ""

        def run(_name: str, tree: Path, _key: str) -> Run:
            return fresh_run(tree, typed, Path(scratch), None, wrote, terminal=True)

        def show(pair: int, name: str, _key: str, got: Run) -> None:
            print(f"pair {pair} {name}: {got.wall:.2f} s wall, {got.cpu:.2f} s CPU, matches played in "
                  f"{played_seconds(got):.2f} s", file=sys.stderr, flush=True)

        runs = paired(trees, ["simulate"], args.pairs, run, show)
        old_runs, new_runs = runs["old", "simulate"], runs["new", "simulate"]
        print(f"`sheets-gm {' '.join(typed)}` at a terminal, its progress bar and files (medians of {args.pairs} "
              f"pairs; {load()}; a shared machine: noisy):")
        speed = paired_ratio(old_runs, new_runs, "wall")
        print(f"  wall: {median(old_runs, 'wall'):.2f} s ({args.vs}) -> {median(new_runs, 'wall'):.2f} s (this tree), "
              f"{speed:.2f}x; goal {GOAL}x: {'met' if speed >= GOAL else 'NOT met'}")
        print(f"  CPU: {median(old_runs, 'cpu'):.2f} s -> {median(new_runs, 'cpu'):.2f} s, "
              f"{paired_ratio(old_runs, new_runs, 'cpu'):.2f}x")
        old_played = [played_seconds(r) for r in old_runs]
        new_played = [played_seconds(r) for r in new_runs]
        ratios = sorted(a / b for a, b in zip(old_played, new_played, strict=True))
        print(f"  beside it, the matches played (the command's own figure): "
              f"{sorted(old_played)[len(old_played) // 2]:.2f} s -> {sorted(new_played)[len(new_played) // 2]:.2f} s, "
              f"{ratios[len(ratios) // 2]:.2f}x")
        same = {tables(r) for r in old_runs + new_runs}
        print("  the same tables in every run" if len(same) == 1 else f"  the tables differ between runs ({len(same)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
