"""Benchmark a poll of a local match whose orders workbook a player padded with a tab of junk cells.

A small .xlsx can unpack to a tab of hundreds of thousands of cells (a paste gone wrong, or a hostile save). For each
count of junk cells (default: none, just under the workbook's cell bound, and 700,000 as the issue measured), a fresh
GvG match is made with ``init``, a tab ``Junk`` is added to ``orders-red.xlsx`` with that many cells, and one
``sheets-gm sync`` is run as its own process: its wall seconds, its peak memory (that process's ``ru_maxrss``), the
file's size before and after (a refused workbook is not saved back) and the first line it printed.

    .venv/bin/python scripts/bench_hostile_workbook.py
    .venv/bin/python scripts/bench_hostile_workbook.py --cells 0 700000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import openpyxl
from bench_local import make_match  # the same match, made the same way (scripts/ is on the path)

from sheets_gm.sheets.xlsx import MAX_CELLS


def pad(workbook: Path, cells: int) -> None:
    """A tab ``Junk`` of ``cells`` cells (ten to a row) added to ``workbook``, in a process of its own: a child's
    peak memory counts what it had before it started the program, so this process must stay small."""
    subprocess.run([sys.executable, __file__, "--pad", str(workbook), str(cells)], check=True)


def _pad_here(workbook: Path, cells: int) -> None:
    book = openpyxl.load_workbook(workbook)
    junk = book.create_sheet("Junk")
    for i in range(cells):
        junk.cell(row=i // 10 + 1, column=i % 10 + 1).value = "x"
    book.save(workbook)


def one_poll(config: Path) -> tuple[float, float, str]:
    """Wall seconds, peak MiB of the sync's own process (its rusage from ``wait4``) and the first line printed by
    one ``sync`` of ``config``."""
    start = time.perf_counter()
    with subprocess.Popen([sys.executable, "-m", "sheets_gm.cli", "sync", "-c", str(config)], cwd=config.parent,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as child:
        said = child.stdout.read() if child.stdout is not None else ""
        _, _, usage = os.wait4(child.pid, 0)
        child.returncode = 0  # reaped here: Popen must not wait for it again
    seconds = time.perf_counter() - start
    lines = said.strip().splitlines()
    return seconds, usage.ru_maxrss / 1024, lines[0] if lines else ""


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", type=int, nargs="+", default=[0, MAX_CELLS - 1_000, 700_000],
                        help="junk cells in the added tab")
    parser.add_argument("--pad", nargs=2, metavar=("WORKBOOK", "CELLS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pad:
        _pad_here(Path(args.pad[0]), int(args.pad[1]))
        return 0
    for cells in args.cells:
        with tempfile.TemporaryDirectory() as tmp:
            config = make_match(Path(tmp))
            workbook = Path(tmp) / "orders-red.xlsx"
            if cells:
                pad(workbook, cells)
            size = workbook.stat().st_size
            seconds, peak, said = one_poll(config)
            after = workbook.stat().st_size
            print(f"{cells:>8,} junk cells ({size / 1024:,.0f} KB file): poll {seconds:.2f} s, peak {peak:.0f} MiB, "
                  f"file {after / 1024:,.0f} KB after; said: {said[:150]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
