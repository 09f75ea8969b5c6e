r"""Benchmark Wesnoth's WML reader: ``sheets-gm wesnoth import-units`` of an era, in one process.

Runs the command ``--runs`` times in a fresh process (the first run, which imports the program, untimed) and prints
the CPU seconds of each timed run and their median. With ``--against CHECKOUT`` (another checkout's folder, such
as a worktree of ``main``) the benchmark is paired: each repeat runs it once importing from that checkout and once
from this one, alternating which goes first, and prints both medians and their ratio.

    .venv/bin/python scripts/bench_wml_import.py --wml ../shared/wesnoth/wml
    .venv/bin/python scripts/bench_wml_import.py --wml ../shared/wesnoth/wml --against /tmp/main-base --repeats 3
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def timed_runs(wml: Path, runs: int) -> list[float]:
    """The CPU seconds of ``runs`` imports of ``wml``'s default era after an untimed first one, in this process."""
    from sheets_gm.cli import main

    spent = []
    with tempfile.TemporaryDirectory() as out:
        for run in range(runs + 1):
            start = time.process_time()
            with contextlib.redirect_stdout(io.StringIO()):
                if main(["wesnoth", "import-units", str(wml), "--out", f"{out}/{run}"]) != 0:
                    raise SystemExit(f"import-units of {wml} failed")
            if run:
                spent.append(time.process_time() - start)
    return spent


def in_checkout(checkout: Path, wml: Path, runs: int) -> list[float]:
    """``timed_runs`` in a fresh process importing the program from ``checkout``."""
    code = (f"import json, pathlib, runpy, sys; sys.path.insert(0, {str(checkout)!r}); "
            f"timed_runs = runpy.run_path({__file__!r})['timed_runs']; "
            f"print(json.dumps(timed_runs(pathlib.Path({str(wml)!r}), {runs})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=checkout, capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout.splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    """Print the figures; 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wml", type=Path, required=True, help="Wesnoth's data folder (holding data/core)")
    parser.add_argument("--runs", type=int, default=5, help="timed imports a process (default 5)")
    parser.add_argument("--repeats", type=int, default=3, help="processes a checkout, paired (default 3)")
    parser.add_argument("--against", type=Path, help="another checkout to pair this one with")
    args = parser.parse_args(argv)
    trees = {"this": HERE} if args.against is None else {"other": args.against.resolve(), "this": HERE}
    spent: dict[str, list[float]] = {name: [] for name in trees}
    for repeat in range(args.repeats):
        order = list(trees) if repeat % 2 == 0 else list(reversed(trees))
        for name in order:
            spent[name] += in_checkout(trees[name], args.wml.resolve(), args.runs)
    for name, runs in spent.items():
        print(f"{name} ({trees[name]}): median {statistics.median(runs):.3f} CPU s an import of {len(runs)}: "
              + " ".join(f"{s:.3f}" for s in runs))
    if args.against is not None:
        print(f"this / other: {statistics.median(spent['this']) / statistics.median(spent['other']):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
