"""What a poll costs the sync itself, its workbooks' load, read, write and save set aside.

For each game the demo's first window is played on local workbooks (``run_demo``, one window) and the match's folder
kept as it was just before its resolving poll (each seat's bot typed its orders and ticked Ready). Then ``--polls``
times: that folder copied (untimed), its workbooks opened afresh and polled (forced, as the demo polls: the
resolution), then polled again with nothing new typed (the idle poll). Each poll's CPU (user + system of this
process) is taken whole and without the time spent inside the local backend (``LocalWorkbookBackend``'s methods:
the load, the reading of its cells, the writing of them and the save): what is left, the ``own`` figure, is the
sync's own Python work (reading the rows, answering them, resolving, drawing the board and the tables, the journal).

With ``--vs COMMIT_OR_PATH`` each game runs in a fresh process of each tree in turn (that tree's ``sheets_gm``, this
script's steps), alternating which goes first, ``--pairs`` times; printed: each tree's median per poll, the median
paired ratio new/old, the load. ``--profile FILE`` writes cProfile's stats of this tree's polls (one game).

    .venv/bin/python scripts/bench_poll_work.py                               # every game, this tree
    .venv/bin/python scripts/bench_poll_work.py --vs main --pairs 3 --polls 40
    .venv/bin/python scripts/bench_poll_work.py --game gvg --profile /tmp/poll.prof
"""

from __future__ import annotations

import cProfile
import gc
import io
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench_match_io import (  # each game run by two trees in turn, as the match's bench does
    bench_games,
    game_bench_args,
    in_tree,
    paired_games,
)
from bench_typed import load

FIGURES = ("resolve", "resolve own", "idle", "idle own")
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


class BackendClock:
    """The CPU seconds spent inside ``LocalWorkbookBackend``'s methods (the outermost call counted, once)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._depth = 0

    @contextmanager
    def counting(self) -> Iterator[None]:
        """Every method of the local backend timed while inside."""
        from sheets_gm.sheets.local.backend import LocalWorkbookBackend

        real = {name: f for name, f in vars(LocalWorkbookBackend).items()
                if callable(f) and not isinstance(f, (staticmethod, classmethod, type))
                and name not in ("__repr__", "__del__")}
        for name, f in real.items():
            setattr(LocalWorkbookBackend, name, self._timed(f))
        try:
            yield
        finally:
            for name, f in real.items():
                setattr(LocalWorkbookBackend, name, f)

    def _timed(self, f: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            if self._depth:
                return f(*args, **kwargs)
            self._depth += 1
            start = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                self.spent += time.process_time() - start
                self._depth -= 1
        return run


def before_resolution(game: str, folder: Path) -> Path:
    """The demo's first window of ``game`` played in ``folder``; a copy of it as it was before its resolving poll."""
    from rich.console import Console

    import sheets_gm.demo.match as demo

    kept = folder.parent / f"{folder.name}-before"
    real = getattr(demo, "poll")  # noqa: B009  # the demo's own, put back after

    def poll(*args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("dry_run") and not kept.exists():
            shutil.copytree(folder, kept)
        return real(*args, **kwargs)

    setattr(demo, "poll", poll)  # noqa: B010
    try:
        demo.run_demo(game, folder, seed="bench", console=Console(file=io.StringIO()), max_windows=1)
    finally:
        setattr(demo, "poll", real)  # noqa: B010
    return kept


def _sheets(game: str, folder: Path) -> Any:
    """The match ``run_demo`` made of ``game`` in ``folder``, its workbooks opened afresh (as the next command opens
    them)."""
    from sheets_gm.rulesets.registry import create_ruleset
    from sheets_gm.sheets.files import orders_file
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend
    from sheets_gm.sync.sheets import MatchSheets

    seats = create_ruleset(game).sample_roster().seats
    judge = folder / "gm" / "judge.xlsx"
    return MatchSheets(tuple(seats), LocalWorkbookBackend(folder / "board.xlsx"),
                       LocalWorkbookBackend(folder / "gm" / "engine.xlsx"),
                       tuple(LocalWorkbookBackend(folder / orders_file(seat)) for seat in seats),
                       LocalWorkbookBackend(judge) if judge.exists() else None)


def polls(game: str, count: int, profile: str | None = None) -> dict[str, list[float]]:
    """``count`` resolving polls and idle polls of ``game``'s first window: the CPU seconds of each, whole and own
    (one of each first, untimed: the imports and caches warmed)."""
    from sheets_gm.rulesets.registry import get_ruleset
    from sheets_gm.sync.poll import poll

    ruleset = get_ruleset(game)
    figures: dict[str, list[float]] = {f: [] for f in FIGURES}
    clock = BackendClock()
    profiler = cProfile.Profile() if profile else None
    with tempfile.TemporaryDirectory(prefix="bench-poll-work-") as tmp:
        kept = before_resolution(game, Path(tmp) / "demo")
        for n in range(count + 1):
            work = Path(tmp) / f"p{n}"
            shutil.copytree(kept, work)
            for kind, force in (("resolve", True), ("idle", False)):
                sheets = _sheets(game, work)
                gc.collect()
                spent = clock.spent
                with clock.counting():
                    if profiler is not None and n:
                        profiler.enable()
                    start = time.process_time()
                    report = poll(sheets, ruleset, now=NOW, force=force)
                    whole = time.process_time() - start
                    if profiler is not None:
                        profiler.disable()
                if kind == "resolve" and not report.resolved:
                    raise SystemExit(f"{game}: the poll did not resolve")
                if n:
                    figures[kind].append(whole)
                    figures[f"{kind} own"].append(whole - (clock.spent - spent))
            shutil.rmtree(work)
    if profiler is not None and profile:
        profiler.dump_stats(profile)
    return figures


def _line(figures: dict[str, float]) -> str:
    return ", ".join(f"{name} {figures[name] * 1000:.1f} ms" for name in FIGURES)


def _medians(figures: dict[str, list[float]]) -> dict[str, float]:
    return {name: statistics.median(figures[name]) for name in FIGURES}


def paired(other: Path, label: str, games: Sequence[str], count: int, pairs: int) -> None:
    """Each game run by ``other``'s tree and this one in turn, ``pairs`` times; medians and paired ratios."""
    paired_games(other, label, games, pairs, lambda tree, game: in_tree(__file__, tree, game, "--polls", str(count)),
                 FIGURES, lambda got: f"{_line(got)} CPU a poll", f"CPU a poll ({count} polls a run)")


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    args = game_bench_args(__doc__ or "", argv, "polls", 20, "polls of each kind timed per game and run", "polls")
    return bench_games(args, args.polls, lambda game, profile: _medians(polls(game, args.polls, profile)), paired,
                       lambda got: f"{_line(got)} CPU a poll (medians of {args.polls}; {load()})")


if __name__ == "__main__":
    raise SystemExit(main())
