"""Benchmark what a local match costs the product itself: making it, a resolving poll, an idle poll that reads.

For each game the demo's first window is played on local workbooks (``run_demo``: the board, a workbook a seat, the
engine, the judge's where the game has one) and, in this process, the CPU seconds of its steps are taken:

- ``make``: the workbooks made and ``create_match`` (the layouts applied, the first window drawn and saved);
- ``resolve``: the poll that resolves the first window once each seat's bot typed its orders and ticked Ready;
- ``idle``: a poll of fresh backends with nothing new typed (every workbook loaded from its file and read, nothing
  resolved or saved), as a cron poll whose gate saw a save that changed nothing;
- ``repair``: ``repair_match`` on fresh backends (every tab laid out again and drawn, each workbook loaded and saved).

``create_match`` and each poll start from a collected heap (``gc.collect()``, untimed): a full collection is owed
by what the steps before left, and where it lands depends on every allocation before it, so one tree's step could
pay it and the other's not (Champions' idle poll paid a 160-190 ms one, of 220-500 ms, in 2 of 4 matches).

Each is the median of ``--repeats`` matches. With ``--vs COMMIT_OR_PATH`` each game runs in a fresh process of each
tree in turn (that tree's ``sheets_gm``, this script's steps), alternating which goes first, ``--pairs`` times; the
medians of each tree and the median paired ratio new/old. ``--profile FILE`` writes cProfile's stats of this tree's
matches, the untimed steps between included (``python -m pstats FILE``).

    .venv/bin/python scripts/bench_match_io.py                        # every game, this tree
    .venv/bin/python scripts/bench_match_io.py --vs main --pairs 3    # paired against a commit (or a checkout)
    .venv/bin/python scripts/bench_match_io.py --game gvg --profile /tmp/io.prof
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench_engine import exported  # a commit exported for a paired run, as the engine's bench does
from bench_typed import load
from bench_typed import paired as paired_trees  # old and new trees alternated, as every paired bench runs them
from rich.console import Console

from sheets_gm.rulesets.registry import get_ruleset

GAMES = ("gvg", "wesnoth", "coalition", "champions", "winordie")
STEPS = ("make", "resolve", "idle", "repair")
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def one_match(game: str, folder: Path) -> dict[str, float]:
    """The CPU seconds of making a match of ``game`` in ``folder``, its resolving poll and an idle poll: the demo's
    first window played (``run_demo``), its steps timed where it calls them."""
    import sheets_gm.demo.match as demo
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend
    from sheets_gm.sync.life.repair import repair_match
    from sheets_gm.sync.sheets import MatchSheets

    figures = {step: 0.0 for step in STEPS}
    made: list[MatchSheets] = []

    def timed(step: str, call: Callable[..., Any], collect: bool = False) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            if collect:
                gc.collect()
            start = time.process_time()
            try:
                return call(*args, **kwargs)
            finally:
                figures[step] += time.process_time() - start
        return run

    def made_sheets(sheets: MatchSheets, *args: Any, **kwargs: Any) -> Any:
        made.append(sheets)
        return create_match(sheets, *args, **kwargs)

    real = {name: getattr(demo, name) for name in ("_workbook", "create_match", "poll")}
    create_match = real["create_match"]
    try:  # the demo's own steps, timed where it calls them
        for name, step, call, collect in (("_workbook", "make", real["_workbook"], False),
                                          ("create_match", "make", made_sheets, True),
                                          ("poll", "resolve", real["poll"], True)):
            setattr(demo, name, timed(step, call, collect))
        demo.run_demo(game, folder, seed="bench", console=Console(file=io.StringIO()), max_windows=1)
    finally:
        for name, call in real.items():
            setattr(demo, name, call)
    sheets = made[0]

    def fresh() -> MatchSheets:  # the match's workbooks opened afresh, as the next command opens them
        return MatchSheets(sheets.seats, LocalWorkbookBackend(sheets.board.name),
                           LocalWorkbookBackend(sheets.engine.name),
                           tuple(LocalWorkbookBackend(b.name) for b in sheets.orders),
                           LocalWorkbookBackend(sheets.judge.name) if sheets.judge is not None else None)

    for step, call in (("idle", lambda: real["poll"](fresh(), get_ruleset(game), now=NOW)),
                       ("repair", lambda: repair_match(fresh(), get_ruleset(game)))):
        gc.collect()
        start = time.process_time()
        call()
        figures[step] = time.process_time() - start
    return figures


def run_game(game: str, repeats: int, profile: str | None = None) -> dict[str, float]:
    """The median CPU seconds of each step over ``repeats`` matches of ``game`` (one match first, untimed, to warm
    the imports)."""
    runs: list[dict[str, float]] = []
    profiler = cProfile.Profile() if profile else None
    with tempfile.TemporaryDirectory(prefix="bench-io-") as tmp:
        one_match(game, Path(tmp) / "warm")
        for repeat in range(repeats):
            if profiler is not None:
                profiler.enable()
            runs.append(one_match(game, Path(tmp) / f"m{repeat}"))
            if profiler is not None:
                profiler.disable()
    if profiler is not None and profile:
        profiler.dump_stats(profile)
    return {step: statistics.median(r[step] for r in runs) for step in STEPS}


def in_tree(script: str, tree: Path, game: str, *args: str) -> dict[str, float]:
    """``script --one game args`` in a fresh process with ``tree``'s ``sheets_gm`` (run from ``tree``): the figures
    of its last line (JSON)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, script, "--one", game, *args], check=True,
                          capture_output=True, text=True, env=env, cwd=tree)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _line(figures: dict[str, float]) -> str:
    return ", ".join(f"{step} {figures[step] * 1000:.0f} ms" for step in STEPS)


@contextmanager
def other_tree(vs: str) -> Iterator[Path]:
    """The tree ``--vs`` names: a checkout's folder as it is, else the commit exported for the run."""
    given = Path(vs)
    if given.is_dir():
        yield given.resolve()
        return
    with tempfile.TemporaryDirectory(prefix="bench-tree-") as other:
        yield exported(vs, Path(other))


def paired_games(other: Path, label: str, games: Sequence[str], pairs: int,
                 run: Callable[[Path, str], dict[str, float]], names: Sequence[str],
                 line: Callable[[dict[str, float]], str], what: str) -> None:
    """Each game run (``run(tree, game)``: its figures by name) by ``other``'s tree and this one in turn, ``pairs``
    times; each run printed (``line``), then each tree's medians of the figures ``names`` and the median paired
    ratios new/old, with the load."""
    here = Path(__file__).resolve().parent.parent

    def show(pair: int, name: str, game: str, got: dict[str, float]) -> None:
        print(f"pair {pair} {game:9} {name}: {line(got)} ({load()})", flush=True)

    runs = paired_trees({"old": other, "new": here}, games, pairs, lambda _name, tree, game: run(tree, game), show)
    print(f"\n{what}, medians of {pairs} pairs ({here} against {label}; {load()}):")
    for game in games:
        old, new = runs["old", game], runs["new", game]
        medians = {name: {s: statistics.median(r[s] for r in done) for s in names}
                   for name, done in (("old", old), ("new", new))}
        ratios = {s: statistics.median(n[s] / o[s] for o, n in zip(old, new, strict=True)) for s in names}
        print(f"{game:9} old: {line(medians['old'])}\n{'':9} new: {line(medians['new'])}\n{'':9} new/old: "
              + ", ".join(f"{s} {ratios[s]:.2f}x" for s in names))


def paired(other: Path, label: str, games: Sequence[str], repeats: int, pairs: int) -> None:
    """Each game run by ``other``'s tree and this one in turn, ``pairs`` times; medians and paired ratios."""
    paired_games(other, label, games, pairs, lambda tree, game: in_tree(__file__, tree, game, "--repeats",
                                                                        str(repeats)),
                 STEPS, lambda got: f"{_line(got)} CPU", "CPU per match step")


def game_bench_args(description: str, argv: Sequence[str] | None, count: str, default: int, count_help: str,
                    timed: str) -> argparse.Namespace:
    """The options every per-game bench takes (``--game``, ``--vs``, ``--pairs``, ``--profile``, the hidden ``--one``
    a paired run passes to each tree), with its own count option ``--COUNT``; each count at least 1."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all", help="one game, or all (default)")
    parser.add_argument(f"--{count}", type=int, default=default, help=f"{count_help} (default {default})")
    parser.add_argument("--vs", metavar="COMMIT_OR_PATH", help="pair each game with this commit's or checkout's")
    parser.add_argument("--pairs", type=int, default=3, help="pairs of runs with --vs (default 3)")
    parser.add_argument("--profile", metavar="FILE", help=f"write cProfile's stats of the timed {timed} (one game)")
    parser.add_argument("--one", choices=GAMES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if getattr(args, count) < 1 or args.pairs < 1:
        parser.error(f"--{count} and --pairs must be at least 1")
    return args


def bench_games(args: argparse.Namespace, count: int, measure: Callable[[str, str | None], dict[str, float]],
                pair: Callable[[Path, str, Sequence[str], int, int], None],
                said: Callable[[dict[str, float]], str]) -> int:
    """A per-game bench run as its options (``game_bench_args``) say: one game's figures as JSON for a paired run
    (``--one``), the games paired with another tree (``--vs``), or each game's figures printed (``--profile``'d)."""
    games = GAMES if args.game == "all" else (args.game,)
    if args.one is not None:
        print(json.dumps(measure(args.one, None)))
        return 0
    if args.vs is not None:
        with other_tree(args.vs) as other:
            pair(other, args.vs, games, count, args.pairs)
        return 0
    for game in games:
        print(f"{game:9} {said(measure(game, args.profile))}", flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    args = game_bench_args(__doc__ or "", argv, "repeats", 3, "matches timed per game and run", "matches")
    return bench_games(args, args.repeats, lambda game, profile: run_game(game, args.repeats, profile), paired,
                       lambda got: f"{_line(got)} CPU (medians of {args.repeats})")


if __name__ == "__main__":
    raise SystemExit(main())
