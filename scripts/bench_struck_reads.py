"""What reading the Coalition's Forum lines with their strikethrough costs a Google poll (issue 93, item 4), paired:
the same poll of a sample Coalition match on the Google fake, its sides' spreadsheets read as before (one
``values.batchGet`` each) and as now (one ``spreadsheets.get`` of the same ranges cut by a field mask to the values
and what strikes a text through). Prints, for each, the read requests a poll makes, the bytes Google answers them
with and the poll's CPU time, the fake's own answering taken out (medians of the pairs, old and new in turn).

    .venv/bin/python scripts/bench_struck_reads.py [--pairs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sheets_gm.sync import sheets as sync_sheets
from sheets_gm.sync.poll import poll
from tests.fakes.google_api import GET, READ, GoogleApiFake
from tests.sync.test_refused_force import _google_match
from tests.sync.test_typed_row_lifecycle import NOW

_ASK = sync_sheets.ReadBatch.ask


def _plain_ask(self: sync_sheets.ReadBatch, backend: Any, a1: str, *, struck: bool = False) -> None:
    """``ReadBatch.ask`` as before item 4: no range read with its strikethrough."""
    _ASK(self, backend, a1)


def one_poll(struck: bool) -> tuple[int, int, float]:
    """A poll of a Coalition match whose side pasted a post: its read requests, the bytes answering them, its CPU s."""
    sync_sheets.ReadBatch.ask = _ASK if struck else _plain_ask  # type: ignore[method-assign]
    try:
        with GoogleApiFake() as fake:
            match, _engine = _google_match(fake, "coalition")
            armies = [a for a in match.read().record.state.armies if a.side.value == "coalition"]
            post = [[f"{a.name}: {a.at.split()[-1]} - none"] for a in armies]
            key = match.sheets.of("coalition").key  # type: ignore[attr-defined]
            fake.set_values(key, f"'Forum coalition'!C5:C{4 + len(post)}", post)
            fake.reset_counters()
            served = [0.0]  # the CPU the fake spent answering, in this process: not the poll's
            handle = fake._handle

            def timed(request: Any) -> Any:
                began = time.process_time()
                try:
                    return handle(request)
                finally:
                    served[0] += time.process_time() - began

            fake._handle = timed  # type: ignore[method-assign]
            started = time.process_time()
            poll(match.sheets, match.cls, now=NOW)
            spent = time.process_time() - started - served[0]
            reads = [c for c in fake.log if c.endpoint == READ or (c.endpoint == GET and "ranges" in c.query)]
            return len(reads), fake.byte_counts(READ)[1] + fake.byte_counts(GET)[1], spent
    finally:
        sync_sheets.ReadBatch.ask = _ASK  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    runs: dict[str, list[tuple[int, int, float]]] = {"before (values.batchGet)": [], "now (spreadsheets.get)": []}
    for _ in range(args.pairs):
        runs["before (values.batchGet)"].append(one_poll(False))
        runs["now (spreadsheets.get)"].append(one_poll(True))
    for name, found in runs.items():
        print(f"{name}: {statistics.median(r[0] for r in found):.0f} read requests a poll, "
              f"{statistics.median(r[1] for r in found) / 1000:.1f} kB answered, "
              f"{statistics.median(r[2] for r in found):.3f} CPU s a poll (median of {len(found)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
