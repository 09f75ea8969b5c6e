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
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import pstats
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import openpyxl
from bench_local import make_match  # the same match, made the same way (scripts/ is on the path)

from sheets_gm.cli import main as cli


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
    from sheets_gm.match.connect import open_match_sheets
    from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
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


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[0, 2000, 10000], help="junk rows to type")
    parser.add_argument("--repeats", type=int, default=1, help="polls timed per count (default 1)")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions of the last poll")
    args = parser.parse_args(argv)
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
