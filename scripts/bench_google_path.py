"""Benchmark the Google path as the tests pay for it: the CPU of one request, from the backend's retry policy
through gspread, google-auth's session, requests and the interception down to the fake Google and back.

A GvG match of ``--size`` a team is made on the fake (four spreadsheets, ``create_match``: the layouts and the first
window) and played ``--turns`` turns (an idle poll, the bots typing their orders, the resolving poll), in this
process, once untimed (what a process pays once: imports, the fake's schemas compiled, its checks' first shapes) and
once timed. Timed: the CPU seconds spent inside ``RetryPolicy.call`` (every Google call of the product goes through it),
and of those, inside the fake's own answering (``GoogleApiFake._dispatch``); counted: the requests the fake answered
(its ``_dispatch`` calls, google-auth's token requests among them).
Printed: the CPU per request, the fake's share and the rest (gspread, google-auth, requests, the interception).

Given test files, those run instead, by pytest in this process (``-n 0``, in order), and the same is timed.

With ``--vs COMMIT_OR_PATH`` the match (or the files) runs in a fresh process of each tree in turn (that tree's
``sheets_gm`` and ``tests``, this script's steps), alternating which goes first, ``--pairs`` times; the medians and
the median paired ratio new/old.

    .venv/bin/python scripts/bench_google_path.py
    .venv/bin/python scripts/bench_google_path.py --vs main --pairs 5
    .venv/bin/python scripts/bench_google_path.py --vs main --pairs 2 tests/sync/test_sync_google.py
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench_engine import exported  # a commit exported for a paired run, as the engine's bench does
from bench_typed import load
from bench_typed import paired as paired_trees  # old and new trees alternated, as every paired bench runs them

FIGURES = ("requests", "path_us", "fake_us", "rest_us", "total_s")


def _timed(into: list[float], fn: Callable[..., Any], counted: list[int] | None = None) -> Callable[..., Any]:
    """``fn`` with the CPU of its outermost calls added to ``into[0]`` (and those calls counted in ``counted[0]``)."""
    depth = [0]

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        depth[0] += 1
        start = time.process_time() if depth[0] == 1 else 0.0
        try:
            return fn(*args, **kwargs)
        finally:
            depth[0] -= 1
            if depth[0] == 0:
                into[0] += time.process_time() - start
                if counted is not None:
                    counted[0] += 1

    return run


def measured(run: Callable[[], object]) -> dict[str, float]:
    """The figures of :data:`FIGURES` while ``run`` runs: the CPU inside ``RetryPolicy.call`` and inside the fake's
    ``_dispatch`` a request the fake answered, and the CPU of the whole run."""
    from sheets_gm.sheets.retry import RetryPolicy
    from tests.fakes.google_api import GoogleApiFake

    path, fake, answered = [0.0], [0.0], [0]
    calls, dispatch = RetryPolicy.call, GoogleApiFake._dispatch
    RetryPolicy.call = _timed(path, calls)  # type: ignore[method-assign]
    GoogleApiFake._dispatch = _timed(fake, dispatch, answered)  # type: ignore[method-assign]
    started = time.process_time()
    try:
        run()
    finally:
        RetryPolicy.call, GoogleApiFake._dispatch = calls, dispatch  # type: ignore[method-assign]
    total, n = time.process_time() - started, max(answered[0], 1)
    return {"requests": answered[0], "path_us": path[0] / n * 1e6, "fake_us": fake[0] / n * 1e6,
            "rest_us": (path[0] - fake[0]) / n * 1e6, "total_s": total}


def play(size: int, turns: int) -> dict[str, float]:
    """One match made and played on the fake after one untimed: the figures of :data:`FIGURES`."""
    _match(size, turns)
    return measured(lambda: _match(size, turns))


def test_files(files: Sequence[str]) -> dict[str, float]:
    """The figures of :data:`FIGURES` of the test ``files`` run by pytest in this process (``-n 0``, in order)."""
    import pytest

    return measured(lambda: pytest.main(["-q", "-n", "0", "-p", "no:randomly", "-p", "no:cacheprovider", *files]))


def _match(size: int, turns: int) -> None:
    """One match made and played on the fake."""
    from sheets_gm.rulesets.gvg.settings import GvgSettings
    from sheets_gm.rulesets.registry import create_ruleset, get_ruleset
    from sheets_gm.sync.autoplay import type_bot_orders
    from sheets_gm.sync.life.create import create_match
    from tests.fakes.clock import FakeClock
    from tests.fakes.google_api import GoogleApiFake
    from tests.matchfiles import SEED, bots, roster, sync
    from tests.sync.test_sync_google import new_spreadsheets, open_match, policy

    gvg = get_ruleset("gvg")
    with GoogleApiFake() as google:
        new_spreadsheets(google)
        retry = policy(FakeClock())
        create_match(open_match(retry), create_ruleset("gvg", GvgSettings()), roster(size), seed=SEED)
        sheets = open_match(retry)
        players = bots()
        for _ in range(turns):
            sync(sheets)
            type_bot_orders(sheets, gvg, players)
            sync(sheets)
        assert not google.violations, google.violations


def _line(got: dict[str, float]) -> str:
    return (f"{got['requests']:.0f} requests, {got['path_us']:.0f} us CPU a request (the fake {got['fake_us']:.0f}, "
            f"the rest {got['rest_us']:.0f}); the whole run {got['total_s']:.2f} s")


def _in_tree(tree: Path, size: int, turns: int, files: Sequence[str]) -> dict[str, float]:
    """``play`` (or ``test_files``) in a fresh process with ``tree``'s ``sheets_gm`` and ``tests``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, __file__, "--one", "--size", str(size), "--turns", str(turns), *files],
                          check=True, capture_output=True, text=True, env=env, cwd=tree)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def paired(other: Path, label: str, size: int, turns: int, pairs: int, files: Sequence[str]) -> None:
    """The match played by ``other``'s tree and this one in turn, ``pairs`` times; medians and paired ratios."""
    here = Path(__file__).resolve().parent.parent
    print(load(), flush=True)
    runs = paired_trees({"old": other, "new": here}, ["gvg"], pairs,
                        lambda _name, tree, _key: _in_tree(tree, size, turns, files),
                        lambda pair, name, _key, got: print(f"pair {pair} {name}: {_line(got)}", flush=True))
    old, new = runs["old", "gvg"], runs["new", "gvg"]
    for name, done in (("old", old), ("new", new)):
        print(f"{name} ({label if name == 'old' else here}), medians: "
              + _line({f: statistics.median(r[f] for r in done) for f in FIGURES}))
    print("new/old, median of the pairs: " + ", ".join(
        f"{f} {statistics.median(n[f] / o[f] for o, n in zip(old, new, strict=True)):.2f}x" for f in FIGURES[1:]))
    print(load())


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=3, help="players a team (default 3)")
    parser.add_argument("--turns", type=int, default=6, help="turns played (default 6)")
    parser.add_argument("--vs", metavar="COMMIT_OR_PATH", help="pair with this commit's or checkout's tree")
    parser.add_argument("--pairs", type=int, default=3, help="pairs of runs with --vs (default 3)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", help="test files to run by pytest in one process instead of the match")
    args = parser.parse_args(argv)
    if args.size < 1 or args.turns < 1 or args.pairs < 1:
        parser.error("--size, --turns and --pairs must be at least 1")
    if args.one:
        print(json.dumps(test_files(args.files) if args.files else play(args.size, args.turns)))
        return 0
    if args.vs is not None:
        given = Path(args.vs)
        if given.is_dir():
            paired(given.resolve(), args.vs, args.size, args.turns, args.pairs, args.files)
            return 0
        with tempfile.TemporaryDirectory(prefix="bench-google-tree-") as other:
            paired(exported(args.vs, Path(other)), args.vs, args.size, args.turns, args.pairs, args.files)
        return 0
    print(_line(test_files(args.files) if args.files else play(args.size, args.turns)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
