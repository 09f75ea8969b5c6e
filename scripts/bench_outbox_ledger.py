"""The outbox's ledger at a war's size: a turn's receipts queued and sent, one by one, on a ledger that already holds
the keys of twenty turns. Prints the CPU and wall seconds of this tree's outbox, and of another tree's with ``--vs``
(run in its own interpreter, pairs alternating), and their medians.

    .venv/bin/python scripts/bench_outbox_ledger.py                      # this tree: 400 letters, 40,000 keys
    .venv/bin/python scripts/bench_outbox_ledger.py --vs ../old --pairs 3
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def one_run(folder: Path, keys: int, letters: int) -> tuple[float, float]:
    """CPU and wall seconds of ``letters`` queued and sent one by one on an outbox whose ledger holds ``keys``."""
    from sheets_gm.notify.outbox import Letter, Outbox

    shutil.rmtree(folder, ignore_errors=True)
    box = Outbox(folder)
    box.skip([f"turn{n // 2000}/receipt/{n % 2000}" for n in range(keys)], "an earlier turn's")
    now = datetime(2026, 11, 28, 17, tzinfo=UTC)
    fresh = [Letter(f"turn99/receipt/{n}", "email", f"player {n}", "Your mail to the judge", "typed",
                    "2026-11-28T17:00:00+00:00", to=(f"p{n}@example.org",)) for n in range(letters)]
    cpu, wall = time.process_time(), time.perf_counter()
    for letter in fresh:
        box.add([letter])
        box.sent(letter, now)
    return time.process_time() - cpu, time.perf_counter() - wall


def in_tree(tree: Path, folder: Path, keys: int, letters: int) -> tuple[float, float]:
    """:func:`one_run` with the outbox of ``tree``, in a fresh interpreter."""
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'scripts')!r}); from bench_outbox_ledger import one_run; "
            f"from pathlib import Path; import sheets_gm; assert sheets_gm.__file__.startswith({str(tree)!r}); "
            f"print(*one_run(Path({str(folder)!r}), {keys}, {letters}))")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=folder.parent, capture_output=True, text=True,
                          check=True)  # not run from a tree: its package would come first
    cpu, wall = done.stdout.split()
    return float(cpu), float(wall)


def main() -> None:
    """Run the pairs and print each figure and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=40_000)
    parser.add_argument("--letters", type=int, default=400)
    parser.add_argument("--vs", type=Path, help="another tree's root, run in turn with this one")
    parser.add_argument("--pairs", type=int, default=1)
    args = parser.parse_args()
    trees = [("this tree", ROOT)] + ([("--vs", args.vs.resolve())] if args.vs else [])
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in trees}
    with tempfile.TemporaryDirectory() as scratch:
        for pair in range(args.pairs):
            for name, tree in trees if pair % 2 == 0 else reversed(trees):
                cpu, wall = in_tree(tree, Path(scratch) / "outbox", args.keys, args.letters)
                figures[name].append((cpu, wall))
                print(f"{name}: {cpu:.2f} CPU s, {wall:.2f} s wall", flush=True)
    print(f"load {Path('/proc/loadavg').read_text().split()[0]}; {args.letters} letters on {args.keys} keys, medians:")
    for name, runs in figures.items():
        print(f"  {name}: {statistics.median(c for c, _ in runs):.2f} CPU s, "
              f"{statistics.median(w for _, w in runs):.2f} s wall")


if __name__ == "__main__":
    main()
