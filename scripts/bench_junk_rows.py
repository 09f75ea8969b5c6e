"""Benchmark the first poll of a local match whose orders tab has junk rows typed under its table.

Every row typed where no order is read is answered and kept (docs/sync.md, "Every typed cell gets an answer"), so a
poll's work grows with them; it must grow linearly. For each count of rows (default 500, 2,000 and 10,000) a fresh
GvG match is made with ``init`` (the private layout every starter has), the rows are typed under red's orders
table (a name and an order in each, as a paste gone wrong would leave them), and one ``sync`` is timed in this
process (the median of ``--repeats`` runs, each on a fresh copy of the folder), with how many lines it printed; then
the bots type both teams' orders and the poll that resolves the turn is timed too (it sets aside to the Archive the
rows it has no free row to keep, in one entry).

    .venv/bin/python scripts/bench_junk_rows.py                     # 500, 2000, 10000 rows, 1 run each
    .venv/bin/python scripts/bench_junk_rows.py --rows 2000 --repeats 3
    .venv/bin/python scripts/bench_junk_rows.py --rows 2000 --profile   # cProfile's top functions too
    .venv/bin/python scripts/bench_junk_rows.py --vs main --pairs 3     # paired against a commit (or a checkout)

With ``--vs COMMIT_OR_PATH`` each count is run in a fresh process of each tree in turn (that tree's ``sheets_gm``,
this script's steps), alternating which goes first, ``--pairs`` times: the resolving poll's wall and CPU seconds
in that process (its imports warm from the first poll, as above), then the same poll of a copy of the folder run as
its own ``sheets-gm sync`` process, as cron runs it (wall, CPU and peak memory); medians, and the resolving poll
with the most rows against the one with the fewest in each tree (the goal: at most 2x).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import itertools
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import openpyxl
from bench_engine import exported  # a commit exported for a paired run, as the engine's bench does
from bench_local import make_match  # the same match, made the same way (scripts/ is on the path)

from sheets_gm.cli import main as cli

K = TypeVar("K")


def type_junk(workbook: Path, rows: int) -> None:
    """``rows`` rows typed under the last table of the first tab: a name and a destination in each."""
    book = openpyxl.load_workbook(workbook)
    sheet = book.worksheets[0]
    first = sheet.max_row + 3
    for i in range(rows):
        sheet.cell(first + i, 1).value = f"junk{i}"
        sheet.cell(first + i, 2).value = f"F{i % 9 + 1}"
    book.save(workbook)


def one_poll(config: Path, profile: bool) -> tuple[float, int, str]:
    """Seconds of one ``sync``, the lines it printed, and cProfile's top functions when asked."""
    out = io.StringIO()
    profiler = cProfile.Profile() if profile else None
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        if profiler is not None:
            profiler.enable()
        cli(["sync", "-c", str(config)])
        if profiler is not None:
            profiler.disable()
    seconds = time.perf_counter() - start
    top = ""
    if profiler is not None:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(40)
        top = text.getvalue()
    return seconds, len(out.getvalue().splitlines()), top


def bots_type(config: Path) -> None:
    """Both teams' bots type this turn's orders and tick Ready."""
    from sheets_gm.match.config import load_config
    from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
    from sheets_gm.running.connect import open_match_sheets
    from sheets_gm.sync.autoplay import type_bot_orders

    kinds = bots_of(create_ruleset("gvg"))
    bots = {"red": kinds["objective"].make("bench/red"), "blue": kinds["random"].make("bench/blue")}
    type_bot_orders(open_match_sheets(load_config(config)), get_ruleset("gvg"), bots, ready=True)


def print_growth(figures: Sequence[tuple[int, float, float]]) -> None:
    """The resolving poll against the one with the fewest rows (the goal: at most 2x at 10,000 rows), and whether
    the cost of a row stays the same between the two largest counts (linear growth)."""
    if len(figures) < 2:
        return
    (r0, _, base), (r1, _, middle), (rows, first, top) = figures[0], figures[-2], figures[-1]
    print(f"growth: the resolving poll with {rows:,} rows took {top / base:.2f}x the one with {r0:,}; "
          f"the first poll {first:.2f} s")
    if len(figures) > 2 and r1 > r0:
        per_row_low = (middle - base) / (r1 - r0) * 1000
        per_row_high = (top - middle) / (rows - r1) * 1000
        print(f"growth: {per_row_low:.3f} ms a row up to {r1:,} rows, {per_row_high:.3f} ms a row from {r1:,} to "
              f"{rows:,} (linear: about the same)")


def own_process_poll(config: Path) -> tuple[float, float, float]:
    """Wall and CPU seconds and peak MiB of one ``sync`` of ``config`` run as its own process, as cron runs it
    (its rusage from ``wait4``)."""
    start = time.perf_counter()
    with subprocess.Popen([sys.executable, "-m", "sheets_gm.cli", "sync", "-c", str(config)], cwd=config.parent,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as child:
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
    if child.returncode:
        raise SystemExit(f"sync of {config} exited with {child.returncode}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def one_count(rows: int) -> dict[str, float]:
    """The figures of ``rows`` junk rows in this process (``--vs``'s child): a fresh match, the rows typed, the
    first poll, the bots' orders, then the resolving poll in this process and, on a copy made just before it, as
    its own process."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "match"
        folder.mkdir()
        config = make_match(folder)
        type_junk(folder / "orders-red.xlsx", rows)
        one_poll(config, False)
        bots_type(config)
        copy = Path(tmp) / "copy"
        shutil.copytree(folder, copy, symlinks=True)
        cpu = time.process_time()
        wall = one_poll(config, False)[0]
        cpu = time.process_time() - cpu
        own_wall, own_cpu, own_peak = own_process_poll(copy / config.name)
    return {"wall": wall, "cpu": cpu, "own_wall": own_wall, "own_cpu": own_cpu, "own_peak": own_peak}


def _tree_count(tree: Path, rows: int) -> dict[str, float]:
    """``one_count`` run in a fresh process with ``tree``'s ``sheets_gm``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, __file__, "--one", str(rows)], check=True, capture_output=True, text=True,
                          env=env, cwd=tree)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def paired_runs(trees: dict[str, Path], keys: Sequence[K], pairs: int, run: Callable[[Path, K], dict[str, float]],
                show: Callable[[int, str, K, dict[str, float]], None]) -> dict[tuple[str, K], list[dict[str, float]]]:
    """Each key ``run`` by each tree in turn, ``pairs`` times, the trees alternating which goes first; every run's
    figures by tree and key, each given to ``show`` as it comes (with its pair's number)."""
    runs: dict[tuple[str, K], list[dict[str, float]]] = {}
    for pair in range(1, pairs + 1):
        for key in keys:
            order = list(trees.items()) if pair % 2 else list(reversed(trees.items()))
            for name, tree in order:
                got = run(tree, key)
                runs.setdefault((name, key), []).append(got)
                show(pair, name, key, got)
    return runs


def paired(other: Path, label: str, counts: Sequence[int], pairs: int) -> None:
    """Each count of rows run by ``other``'s tree and this one in turn, ``pairs`` times; the medians, and the
    resolving poll with the most rows against the one with the fewest in each tree."""
    here = Path(__file__).resolve().parent.parent
    trees = {"old": other, "new": here}

    def show(pair: int, name: str, rows: int, got: dict[str, float]) -> None:
        print(f"pair {pair} {name} {rows:>6} rows: resolving poll {got['wall']:.2f} s wall, "
              f"{got['cpu']:.2f} s CPU; as its own process {got['own_wall']:.2f} s wall, "
              f"{got['own_cpu']:.2f} s CPU, peak {got['own_peak']:.0f} MiB", flush=True)

    runs = paired_runs(trees, counts, pairs, _tree_count, show)
    medians = {key: {k: statistics.median(r[k] for r in done) for k in done[0]} for key, done in runs.items()}
    for (name, rows), m in medians.items():
        print(f"median {name} {rows:>6} rows: resolving poll {m['wall']:.2f} s wall, {m['cpu']:.2f} s CPU; "
              f"as its own process {m['own_wall']:.2f} s wall, {m['own_cpu']:.2f} s CPU, peak {m['own_peak']:.0f} MiB")
    low, high = min(counts), max(counts)
    ordered = sorted(set(counts))
    for name in trees:
        a, b = medians[name, low], medians[name, high]
        print(f"growth {name}: the resolving poll with {high:,} rows took {b['wall'] / a['wall']:.2f}x the one "
              f"with {low:,} (CPU {b['cpu'] / a['cpu']:.2f}x); as its own process {b['own_wall'] / a['own_wall']:.2f}x"
              f" (CPU {b['own_cpu'] / a['own_cpu']:.2f}x)")
        steps = [f"{(medians[name, r1]['cpu'] - medians[name, r0]['cpu']) / (r1 - r0) * 1000:.3f} ms from {r0:,} to "
                 f"{r1:,}" for r0, r1 in itertools.pairwise(ordered)]
        if len(steps) > 1:
            print(f"growth {name}: CPU a row {', '.join(steps)} (linear: about the same)")
    for rows in counts:
        old, new = medians["old", rows], medians["new", rows]
        print(f"new/old {rows:>6} rows: resolving poll CPU {new['cpu'] / old['cpu']:.2f}x, as its own process CPU "
              f"{new['own_cpu'] / old['own_cpu']:.2f}x, peak {new['own_peak'] / old['own_peak']:.2f}x "
              f"({here} against {label})")


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[0, 2000, 10000], help="junk rows to type")
    parser.add_argument("--repeats", type=int, default=1, help="polls timed per count (default 1)")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions of the last poll")
    parser.add_argument("--vs", metavar="COMMIT_OR_PATH", help="pair each count with this commit's or checkout's")
    parser.add_argument("--pairs", type=int, default=3, help="pairs of runs with --vs (default 3)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one is not None:
        print(json.dumps(one_count(args.one)))
        return 0
    if args.vs is not None:
        given = Path(args.vs)
        if given.is_dir():
            paired(given.resolve(), args.vs, args.rows, args.pairs)
            return 0
        with tempfile.TemporaryDirectory(prefix="bench-junk-") as other:
            paired(exported(args.vs, Path(other)), args.vs, args.rows, args.pairs)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        config = make_match(base)
        figures = []
        for rows in args.rows:
            runs, resolving, lines, top = [], [], 0, ""
            for run in range(args.repeats):
                folder = Path(tmp) / f"rows{rows}-{run}"
                shutil.copytree(base, folder, symlinks=True)
                type_junk(folder / "orders-red.xlsx", rows)
                seconds, lines, top = one_poll(folder / config.name, args.profile)
                runs.append(seconds)
                bots_type(folder / config.name)
                resolving_seconds, _, resolving_top = one_poll(folder / config.name, args.profile)
                resolving.append(resolving_seconds)
            median, resolving_median = statistics.median(runs), statistics.median(resolving)
            figures.append((rows, median, resolving_median))
            print(f"{rows:>6} junk rows: first poll median {median:.2f} s over {args.repeats} run(s) "
                  f"(min {min(runs):.2f}, max {max(runs):.2f}); {lines} lines printed; "
                  f"the resolving poll after it: median {resolving_median:.2f} s")
            if top:
                print("the first poll:\n" + top + "the resolving poll:\n" + resolving_top)
        print_growth(figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
