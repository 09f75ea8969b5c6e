"""What one sync poll of a Coalition match costs through its sheets: calls, bytes and time per poll.

A match of the sample armies is created in five in-memory spreadsheets (``tests/fakes/memory.py``:
board, engine, judge, one per side); the bots type every window's orders and the judge's stand-in
results, and the real sync resolves each window. At the first window and after ``--windows``
windows it measures an idle poll (nothing typed since) and a resolution: the calls per
spreadsheet, the bytes read and written (JSON of the values), and the time.

    .venv/bin/python scripts/bench_coalition_sheet.py [--windows 30]

Bars (exit 1 if one fails): a poll reads each spreadsheet once; a resolution writes each at most
once; the bytes read by an idle poll do not grow with the match (at most 25% over the first's).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sheets_gm.engine.core.ruleset import JUDGE  # noqa: E402
from sheets_gm.engine.registry import create_ruleset, get_ruleset  # noqa: E402
from sheets_gm.sheets.backend import RangeWrite  # noqa: E402
from sheets_gm.sync.sheets import MatchSheets  # noqa: E402
from sheets_gm.sync.window_autoplay import type_bot_orders  # noqa: E402
from sheets_gm.sync.window_create import create_window_match  # noqa: E402
from sheets_gm.sync.window_poll import poll  # noqa: E402
from tests.fakes.memory import MemoryBackend  # noqa: E402

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


class CountingBackend(MemoryBackend):
    """A memory spreadsheet that also counts the bytes written."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.written_bytes = 0

    def write(self, writes: Sequence[RangeWrite]) -> None:
        """Write, counting the values' JSON."""
        self.written_bytes += sum(len(json.dumps(w.values, ensure_ascii=False).encode()) for w in writes)
        super().write(writes)


@dataclass(frozen=True)
class Measure:
    """One poll's cost."""

    seconds: float
    reads: dict[str, int]  # calls per spreadsheet
    writes: dict[str, int]
    read_bytes: int
    written_bytes: int


def measure(sheets: MatchSheets, everyone: list[CountingBackend], resolve: bool) -> Measure:
    """One poll (a resolution when ``resolve``): calls, bytes and seconds."""
    for b in everyone:
        b.calls.clear()
        b.read_bytes = 0
        b.written_bytes = 0
    started = time.perf_counter()
    poll(sheets, get_ruleset("coalition"), now=NOW, force=resolve)
    seconds = time.perf_counter() - started
    return Measure(seconds, {b.name: b.calls.count("read") for b in everyone},
                   {b.name: b.calls.count("write") for b in everyone}, sum(b.read_bytes for b in everyone),
                   sum(b.written_bytes for b in everyone))


def main() -> int:
    """Play, measure, print, check the bars."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--windows", type=int, default=30, help="windows to play before the late measure")
    args = parser.parse_args()
    rules = create_ruleset("coalition")
    roster = rules.sample_roster()
    board, engine, judge = CountingBackend("board"), CountingBackend("engine"), CountingBackend("judge")
    sides = [CountingBackend(seat) for seat in roster.seats]
    everyone = [board, engine, judge, *sides]
    sheets = MatchSheets(roster.seats, board, engine, tuple(sides), judge)
    create_window_match(sheets, rules, roster, seed=b"bench")
    make = rules.bots()["commander"].make
    bots = {seat: make(f"bench/{seat}") for seat in (*roster.seats, JUDGE)}
    cls = get_ruleset("coalition")
    rows = []
    failures = []
    for played in range(args.windows + 1):
        if played in (0, args.windows):
            idle = measure(sheets, everyone, resolve=False)
            type_bot_orders(sheets, cls, bots)
            resolution = measure(sheets, everyone, resolve=True)
            rows.append((played, idle, resolution))
            for what, m in (("idle poll", idle), ("resolution", resolution)):
                reads, writes = m.reads, m.writes
                if any(n != 1 for n in reads.values()):
                    failures.append(f"window {played + 1} {what}: reads {reads}")
                if what == "idle poll" and any(writes.values()):
                    failures.append(f"window {played + 1} idle poll wrote {writes}")
                if any(n > 1 for n in writes.values()):
                    failures.append(f"window {played + 1} {what}: writes {writes}")
            continue
        type_bot_orders(sheets, cls, bots)
        if not poll(sheets, cls, now=NOW, force=True).resolved:
            print(f"the match ended after {played} windows")
            break
    print(f"Coalition sync poll, sample armies ({len(roster.members)}), 5 spreadsheets, in memory")
    print(f"{'window':>7} {'idle s':>8} {'idle KB read':>13} {'resolve s':>10} {'KB read':>8} {'KB written':>11}")
    for played, idle, res in rows:
        print(f"{played + 1:>7} {idle.seconds:>8.3f} {idle.read_bytes / 1024:>13.1f} {res.seconds:>10.3f} "
              f"{res.read_bytes / 1024:>8.1f} {res.written_bytes / 1024:>11.1f}")
    first, last = rows[0][1].read_bytes, rows[-1][1].read_bytes
    if last > first * 1.25:
        failures.append(f"idle poll bytes read grew from {first} to {last}")
    for f in failures:
        print(f"FAIL {f}")
    print("bars: " + ("all met" if not failures else f"{len(failures)} failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
