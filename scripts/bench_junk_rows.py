"""Benchmark the resolving ``sheets-gm sync`` of a match whose player pasted junk rows under her Orders table.

As the player makes it: a GvG match made with ``init`` (4 players, the private layout), both teams' bots type
their orders and tick Ready, then red's player opens her orders workbook in LibreOffice, pastes ``--rows`` rows
under her Orders table (a name in column A, ``Z99`` in the Destination column, as a careless paste from another
sheet looks; the sheet unprotected first, as she must to paste over locked cells) and saves. The clean match is
the same, saved by LibreOffice with nothing pasted. Each tree (this one and ``--vs``, checked out under /tmp) makes
its own matches, then each folder is copied afresh and its ``sheets-gm sync -c match.toml`` run as its own process,
as cron runs it (``scripts/bench_typed.py``), the trees in turn, ``--pairs`` times.

Printed first, for each tree: the resolving sync with the most rows against the clean one (wall seconds, then CPU
seconds, the figure a busy machine moves least), the goal of issue 79 (at most 2x at 10,000 rows, linear in the
rows), then this tree against the other at each count, the load, and each run.

    .venv/bin/python scripts/bench_junk_rows.py                                # 0, 2000, 10000 rows vs main
    .venv/bin/python scripts/bench_junk_rows.py --vs e911ab2 --rows 0 10000 --pairs 5

``--keep DIR`` makes the folders in ``DIR`` (a new folder) and leaves them there, each tree's under its name
(``DIR/new/rows10000``: the match as pasted, before its sync), to profile the sync on a copy of one:

    cp -a DIR/new/rows10000 /tmp/run && cd /tmp/run
    PYTHONPATH=TREE python -m cProfile -o sync.prof -m sheets_gm.cli sync -c match.toml
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from bench_local import make_match  # the same match, made the same way (scripts/ is on the path)
from bench_typed import (
    HERE,
    Run,
    baseline,
    compiled,
    fresh_run,
    libreoffice,
    load,
    median,
    paired,
    paired_ratio,
    tree_env,
)

GOAL = 2.0  # issue 79: the resolving sync with 10,000 junk rows at most twice the clean one
#: Both teams' bots type this turn's orders and tick Ready (run by a tree: argv[1] is the match's config).
_BOTS_TYPE = """
import sys
from pathlib import Path
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.autoplay import type_bot_orders
kinds = bots_of(create_ruleset("gvg"))
bots = {"red": kinds["objective"].make("bench/red"), "blue": kinds["random"].make("bench/blue")}
type_bot_orders(open_match_sheets(load_config(Path(sys.argv[1]))), get_ruleset("gvg"), bots, ready=True)
"""


def junk(rows: int) -> list[list[str]]:
    """``rows`` rows as a paste from another sheet leaves them: a name, two empty cells, ``Z99`` as a destination."""
    return [[f"Player {i + 1}", "", "", "Z99"] for i in range(rows)]


def prepare(tree: Path, counts: Sequence[int], into: Path) -> dict[int, Path]:
    """A folder for each count of rows, made by ``tree`` and pasted in LibreOffice (see the module notes)."""
    base = into / "base"
    base.mkdir(parents=True)
    config = make_match(base, tree_env(tree))
    subprocess.run([sys.executable, "-c", _BOTS_TYPE, str(config)], check=True, env=tree_env(tree), cwd=base)
    folders: dict[int, Path] = {}
    job: dict[str, list[list[object]]] = {}
    for rows in counts:
        folder = folders[rows] = into / f"rows{rows}"
        shutil.copytree(base, folder, symlinks=True)
        job[str(folder / "orders-red.xlsx")] = [["Orders red", "under", {"rows": junk(rows)}]]
    libreoffice(job, into)
    return folders


@contextlib.contextmanager
def _scratch(keep: Path | None) -> Iterator[str]:
    """The folder the matches are made and synced in: ``keep`` (made here, left after), else a temporary one."""
    if keep is None:
        with tempfile.TemporaryDirectory(prefix="bench-junk-") as scratch:
            yield scratch
        return
    keep.mkdir(parents=True)
    yield str(keep.resolve())
    print(f"the folders are kept in {keep}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[0, 2000, 10000], help="junk rows pasted")
    parser.add_argument("--vs", default="main", metavar="COMMIT", help="the baseline commit (default main)")
    parser.add_argument("--pairs", type=int, default=3, help="pairs of runs (default 3)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="make the folders in DIR (new) and keep them")
    args = parser.parse_args(argv)
    counts = sorted(set(args.rows) | {0})
    with baseline(args.vs) as old, _scratch(args.keep) as scratch:
        trees = {"old": old, "new": HERE}
        made = {}
        for name, tree in trees.items():
            compiled(tree)
            made[name] = prepare(tree, counts, Path(scratch) / name)
        print(f"made: {', '.join(f'{r:,}' for r in counts)} rows pasted in LibreOffice; {load()}", file=sys.stderr)

        def run(name: str, tree: Path, rows: int) -> Run:
            return fresh_run(tree, ["sync", "-c", "match.toml"], Path(scratch), made[name][rows],
                             lambda _folder, got: "" if "resolved" in got.said else
                             f"the sync with {rows} rows did not resolve the turn")

        def show(pair: int, name: str, rows: int, got: Run) -> None:
            print(f"pair {pair} {name} {rows:>6,} rows: {got.wall:.2f} s wall, {got.cpu:.2f} s CPU, "
                  f"peak {got.peak:.0f} MiB", file=sys.stderr, flush=True)

        runs = paired(trees, counts, args.pairs, run, show)
        report(runs, trees, counts, args.vs, args.pairs)
    return 0


def report(runs: dict[tuple[str, int], list[Run]], trees: dict[str, Path], counts: Sequence[int], vs: str,
           pairs: int) -> None:
    """The figures: the command as typed first (junk against clean in each tree, then new against old)."""
    top = max(counts)
    print(f"resolving `sheets-gm sync` as its own process, {top:,} junk rows pasted in LibreOffice against none "
          f"(medians of {pairs} pairs; {load()}; a shared machine: noisy):")
    for name in trees:
        junky, clean = runs[name, top], runs[name, 0]
        wall, cpu = paired_ratio(junky, clean, "wall"), paired_ratio(junky, clean, "cpu")
        label = "this tree" if name == "new" else vs
        print(f"  {name} ({label}): {median(junky, 'wall'):.2f} s against {median(clean, 'wall'):.2f} s wall, "
              f"{wall:.2f}x; CPU {median(junky, 'cpu'):.2f} s against {median(clean, 'cpu'):.2f} s, {cpu:.2f}x; "
              f"goal at most {GOAL:.0f}x: {'met' if max(wall, cpu) <= GOAL else 'NOT met'}")
        steps = [f"{(median(runs[name, b], 'cpu') - median(runs[name, a], 'cpu')) / (b - a) * 1000:.3f} ms a row "
                 f"from {a:,} to {b:,}" for a, b in itertools.pairwise(counts)]
        if len(steps) > 1:
            print(f"  {name} CPU: {', '.join(steps)} (linear: about the same)")
    for rows in counts:
        new, old = runs["new", rows], runs["old", rows]
        print(f"new/old {rows:>6,} rows: wall {paired_ratio(new, old, 'wall'):.2f}x, CPU "
              f"{paired_ratio(new, old, 'cpu'):.2f}x, peak {median(new, 'peak'):.0f} against "
              f"{median(old, 'peak'):.0f} MiB")


if __name__ == "__main__":
    raise SystemExit(main())
