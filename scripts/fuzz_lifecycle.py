"""Walk the input-lifecycle invariant far: seeded random step lists, each failure minimised for an ``@example``.

``tests/conformance/test_input_lifecycle.py`` checks, after every sync, that each cell a seat typed is in its cell
with its true fate, in the Log and her View, or in her Archive, and that an order lives in its window (bound to
it, a refusal standing until the row changes, Ready taken only when no row of the seat is refused); hypothesis walks
a few step lists per game. This
tool walks many more, reproducibly: run ``i`` draws its steps from ``random.Random(i)`` with the shapes of that
test's ``step()`` strategy, plays them with ``run(new_table(game, make), steps)`` and catches what fails. With
``--minimise`` each failure is shrunk greedily (steps dropped, then numbers made smaller, as long as it fails at
the same place) and printed as a Python literal ready for an ``@example``. Run it from the repository root:

    .venv/bin/python scripts/fuzz_lifecycle.py --game wesnoth --seeds 200 --minimise
    .venv/bin/python scripts/fuzz_lifecycle.py --game winordie --backend local --start 200 --seeds 50

``--game`` names a game or one of the test's house tables (``wesnoth-batch``: Wesnoth with ``resolve = batch``).
Every step kind is walked on every backend: a ``cut`` fails the engine's write as that backend fails (a memory
call, a local save refused, Google's 500 past the retries). Exit status 1 when a run failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the test's table, steps and check live with the tests

from tests.conformance import test_input_lifecycle as lc  # noqa: E402
from tests.fakes.google_api import GoogleApiFake  # noqa: E402

Step = tuple[str, int, int, int]
#: The step kinds as ``step()`` draws them (a kind listed twice is drawn twice as often).
KINDS = lc.STEP_KINDS
NUMBER_MAX = 10_000
BACKENDS = ("memory", "local", "google")


def draw_steps(seed: int, steps_max: int) -> list[Step]:
    """Run ``seed``'s steps: 4 to ``steps_max`` of them, each a kind and three numbers, as ``step()`` draws them."""
    rng = random.Random(seed)
    kinds = list(KINDS)
    return [(rng.choice(kinds), rng.randint(0, NUMBER_MAX), rng.randint(0, NUMBER_MAX), rng.randint(0, NUMBER_MAX))
            for _ in range(rng.randint(4, max(4, steps_max)))]


def play(game: str, backend: str, steps: list[Step]) -> None:
    """The steps played on a new sample match of ``game`` held on ``backend``; raises what the check raises."""
    if backend == "memory":
        lc.run(lc.new_table(game), steps)
    elif backend == "local":
        with tempfile.TemporaryDirectory(prefix="fuzz-lifecycle-") as folder:
            lc.run(lc.new_table(game, lc._local_match, Path(folder)), steps)
    else:
        with GoogleApiFake() as fake:
            lc.GOOGLE_FAKES.clear()
            lc.GOOGLE_FAKES["fake"] = fake
            try:
                lc.run(lc.new_table(game, lc._google_match), steps)
            finally:
                lc.GOOGLE_FAKES.clear()
            assert not fake.violations, fake.violations


def failure(game: str, backend: str, steps: list[Step]) -> tuple[str, str] | None:
    """None when the steps pass, else (where it failed: the exception's type and innermost line, its message)."""
    try:
        play(game, backend, steps)
    except Exception as error:  # any crash of the sync is a failure too
        frame = traceback.extract_tb(error.__traceback__)[-1]
        return f"{type(error).__name__} at {Path(frame.filename).name}:{frame.lineno}", str(error)[:2000]
    return None


def minimise(steps: list[Step], fails: Callable[[list[Step]], bool]) -> list[Step]:
    """Greedily smaller steps that still fail: each step dropped while one can be, then each number made 0 or
    halved while that still fails."""
    changed = True
    while changed:
        changed = False
        for i in reversed(range(len(steps))):
            if i < len(steps) and fails(shorter := steps[:i] + steps[i + 1:]):
                steps, changed = shorter, True
    for i in range(len(steps)):
        for j in range(3):
            while True:
                kind, numbers = steps[i][0], list(steps[i][1:])
                number = numbers[j]
                for smaller in sorted({0, number // 2}):
                    numbers[j] = smaller
                    candidate = [*steps[:i], (kind, numbers[0], numbers[1], numbers[2]), *steps[i + 1:]]
                    if smaller < number and fails(candidate):
                        steps = candidate
                        break
                else:
                    break
    return steps


def main(argv: list[str] | None = None) -> int:
    """Run the seeds asked for, print each failure (minimised if asked) and a summary line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=lc._tables())
    parser.add_argument("--backend", default="memory", choices=BACKENDS)
    parser.add_argument("--seeds", type=int, default=100, help="how many runs (seeds start, start+1, ...)")
    parser.add_argument("--start", type=int, default=0, help="the first seed")
    parser.add_argument("--steps-max", type=int, default=18, help="the most steps a run draws (at least 4)")
    parser.add_argument("--minimise", action="store_true", help="shrink each failure to a minimal list of steps")
    parser.add_argument("--budget", type=float, default=0, help="start no further run after these many seconds "
                        "(0: none); the summary says how many ran")
    args = parser.parse_args(argv)
    started, failed, ran = time.monotonic(), 0, 0
    for seed in range(args.start, args.start + args.seeds):
        if args.budget and time.monotonic() - started > args.budget:
            break
        ran += 1
        steps = draw_steps(seed, args.steps_max)
        found = failure(args.game, args.backend, steps)
        if found is None:
            continue
        failed += 1
        where, message = found
        if args.minimise:
            def same(candidate: list[Step], where: str = where) -> bool:
                again = failure(args.game, args.backend, candidate)
                return again is not None and again[0] == where

            steps = minimise(steps, same)
            message = (failure(args.game, args.backend, steps) or found)[1]
        print(f"seed {seed}: {where}\n  {message}\n  steps = {steps!r}", flush=True)
    seconds = time.monotonic() - started
    print(f"{args.game} on {args.backend}: {ran} runs (seeds {args.start}..{args.start + ran - 1}), "
          f"{failed} failed, {seconds:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
