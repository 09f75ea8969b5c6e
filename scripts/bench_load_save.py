"""Benchmark a workbook's load and save as the local backend makes them (``openpyxl.load_workbook`` of the file's
bytes, ``save`` into memory), on a match's own workbooks.

The workbooks are the demo's (``sheets-gm demo coalition`` and ``demo gvg``, 4 turns: the board, each side's orders
workbook, the engine's; made once by this tree) or those given. Each tree loads and saves all of them once to warm
up, then ``--rounds`` times in a fresh process of its own (its ``sheets_gm``); the CPU seconds of one round, the
median of ``--repeats`` such processes. With ``--vs COMMIT`` the two trees run in turn, alternating which goes first,
``--pairs`` times: the medians of each and the median paired ratio new/old.

Each case is measured on its own: ``all`` (every workbook), ``board`` (the demos' boards) and ``seat`` (one side's
orders workbook, the smallest kind: most of a match's loads). ``--load-only`` times the loads without the saves.

    .venv/bin/python scripts/bench_load_save.py                         # this tree
    .venv/bin/python scripts/bench_load_save.py --vs main --pairs 5     # paired against a commit
    .venv/bin/python scripts/bench_load_save.py --vs main --load-only --cases board seat
    .venv/bin/python scripts/bench_load_save.py --vs main a.xlsx b.xlsx
    .venv/bin/python scripts/bench_load_save.py --vs main --save-only    # the saves alone, each of a fresh load

With ``--save-only`` each round saves workbooks loaded before the round started (a fresh load for each save, as the
local backend saves each workbook it loaded): the CPU of the saves alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench_engine import exported  # a commit exported for a paired run, as the engine's bench does
from bench_typed import load
from bench_typed import paired as paired_trees  # old and new trees alternated, as every paired bench runs them

DEMOS = ("coalition", "gvg")

# Run in a fresh interpreter with a tree on sys.path: argv[1] rounds of loading and saving the files argv[3:], of
# loading them alone (argv[2] "load"), or of saving them alone (argv[2] "save", each round's workbooks loaded before
# it starts).
_ROUNDS = """
import io, sys, time
from pathlib import Path
from sheets_gm.sheets.xlsx import collector_paused, openpyxl
datas = [Path(p).read_bytes() for p in sys.argv[3:]]
mode = sys.argv[2]
def load(data):
    return openpyxl.load_workbook(io.BytesIO(data), data_only=False, rich_text=False)
def round_():
    for data in datas:
        with collector_paused():
            book = load(data)
            if mode != "load":
                book.save(io.BytesIO())
def saves():
    books = [load(data) for data in datas]
    start = time.process_time()
    for book in books:
        with collector_paused():
            book.save(io.BytesIO())
    return time.process_time() - start
round_()
spent = 0.0
start = time.process_time()
for _ in range(int(sys.argv[1])):
    if mode == "save":
        spent += saves()
    else:
        round_()
print((spent if mode == "save" else time.process_time() - start) / int(sys.argv[1]))
"""


def demo_workbooks(into: Path) -> list[Path]:
    """The workbooks of a 4-turn demo of each of :data:`DEMOS`, made by this tree's ``sheets-gm`` in ``into``
    (the board, each seat's, the engine's and the judge's; not their exports)."""
    cli = Path(sys.executable).with_name("sheets-gm")
    for game in DEMOS:
        subprocess.run([str(cli), "demo", game, "--out", game, "--turns", "4"], check=True, cwd=into,
                       capture_output=True)
    return sorted(p for p in into.rglob("*.xlsx") if "export" not in p.parts)


def cases(files: Sequence[Path], wanted: Sequence[str]) -> dict[str, list[Path]]:
    """The files of each case of ``wanted``: ``all`` of them, the ``board`` workbooks, and one ``seat``'s (the
    smallest orders workbook); a case none of ``files`` fits is left out."""
    seats = sorted((p for p in files if p.name.startswith("orders-")), key=lambda p: p.stat().st_size)
    chosen = {"all": list(files), "board": [p for p in files if p.name == "board.xlsx"], "seat": seats[:1]}
    return {name: chosen[name] for name in wanted if chosen[name]}


def rounds_cpu(tree: Path, files: Sequence[Path], rounds: int, mode: str = "load-save") -> float:
    """The CPU seconds one round of loads and saves (``mode`` "load-save"), of loads alone ("load") or of saves
    alone ("save", each of a workbook loaded afresh) of ``files`` takes ``tree``'s ``sheets_gm``, in a fresh
    process."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", _ROUNDS, str(rounds), mode, *map(str, files)], check=True,
                          capture_output=True, text=True, env=env, cwd=tree)
    return float(done.stdout.split()[-1])


def main(argv: Sequence[str] | None = None) -> int:
    """Print the CPU of a round of loads and saves: this tree's, or paired against ``--vs``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workbooks", nargs="*", type=Path, help="the .xlsx files (default: the demos')")
    parser.add_argument("--vs", help="a commit to compare with, paired")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cases", nargs="+", choices=("all", "board", "seat"), default=["all"])
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--load-only", action="store_true", help="time the loads alone, not the saves")
    only.add_argument("--save-only", action="store_true", help="the saves alone (each of a workbook loaded afresh)")
    args = parser.parse_args(argv)
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="bench-load-save-") as tmp:
        files = [p.resolve() for p in args.workbooks] or demo_workbooks(Path(tmp))
        print(f"{len(files)} workbooks, {sum(p.stat().st_size for p in files):,} bytes; {load()}")
        trees = {"new": here}
        if args.vs:
            trees = {"old": exported(args.vs, Path(tmp) / "old"), "new": here}

        chosen = cases(files, args.cases)
        mode = "load" if args.load_only else "save" if args.save_only else "load-save"
        what = {"load": "loads", "save": "saves", "load-save": "loads and saves"}[mode]

        def show(pair: int, name: str, case: str, got: float) -> None:
            print(f"pair {pair} {name} {case}: {got * 1000:.1f} ms a round of {what}")

        runs = paired_trees(trees, list(chosen), args.pairs,
                            lambda _, tree, case: rounds_cpu(tree, chosen[case], args.rounds, mode), show)
        for case, case_files in chosen.items():
            for name in trees:
                print(f"{case} ({len(case_files)} workbooks) {name}: median "
                      f"{statistics.median(runs[name, case]) * 1000:.1f} ms a round of {what}")
            if args.vs:
                ratios = [n / o for n, o in zip(runs["new", case], runs["old", case], strict=True)]
                print(f"{case} new/old, median of pairs: {statistics.median(ratios):.3f}")
        print(load())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
