"""Benchmark the GvG engine: bot-versus-bot 5v5 matches on the default map, in one process.

Plays the same ``--matches`` seeded matches ``--repeats`` times and prints, per repeat and
as the median, the resolved turns per second (bots and resolution together) and matches
per second, how the time splits between the bots and the resolution, and the peak memory.

Before the timed repeats, an untimed warm-up fills the per-process caches (the map's path
distances from every tile, then one pass over the matches for the bots' caches); its times
are printed on their own. Wall-clock and CPU-time rates are both printed: on a busy machine
the process may not get a whole core.

    .venv/bin/python scripts/bench_engine.py                      # ObjectiveBot vs ObjectiveBot
    .venv/bin/python scripts/bench_engine.py --bot objective --bot random --matches 100
    .venv/bin/python scripts/bench_engine.py --vs 0c7bcc5 --pairs 5      # paired against a commit
    .venv/bin/python scripts/bench_engine.py --vs /tmp/old0c7             # ... or against a checkout

With ``--vs COMMIT_OR_PATH`` the benchmark is paired: each pair runs the other tree's own
``scripts/bench_engine.py`` (a checkout's folder, or a commit exported from this repository into a
temporary folder) and this one, each in a fresh process with ``PYTHONPATH`` on its tree and one timed
repeat after its warm-up, alternating which goes first; it prints both CPU rates per pair, their
ratio, and the medians. On a shared machine the CPU-time ratio is the figure to read.

With ``--instructions`` (alone, or with ``--vs``) each tree's matches are replayed under valgrind's cachegrind
instead of timed: the instructions of a run that plays the matches twice less those of a run that plays them once
(imports, caches and warm-up alike cancel out), per resolved turn, bots included. Other processes do not change
that count, so on a loaded machine it is the paired figure to trust (address randomisation is turned off with
``setarch -R`` where there is one, so that hashing does not move it).

    .venv/bin/python scripts/bench_engine.py --instructions --vs 0c7bcc5 --matches 20
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sheets_gm.engine.dice import TurnDice
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots.base import Bot, TeamOrders, play_match
from sheets_gm.rulesets.gvg.bots.objective import ObjectiveBot
from sheets_gm.rulesets.gvg.bots.random_bot import RandomBot
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import STANDARD_ROLES, standard_match
from sheets_gm.rulesets.gvg.state import GvgState

DEFAULT_MAP = Path(__file__).resolve().parent.parent / "templates" / "gvg" / "map.txt"
TEAMS = ("red", "blue")
BOTS: dict[str, Callable[[str], Bot]] = {"objective": ObjectiveBot, "random": RandomBot}


class TimedBot:
    """A bot wrapper that adds up the time spent choosing orders."""

    def __init__(self, bot: Bot, clock: Callable[[], float] = time.perf_counter) -> None:
        self.bot = bot
        self.clock = clock
        self.seconds = 0.0

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: TurnDice) -> TeamOrders:
        """The wrapped bot's orders, timed."""
        start = self.clock()
        out = self.bot.orders(rules, state, team, dice)
        self.seconds += self.clock() - start
        return out


@dataclass(frozen=True, slots=True)
class RunResult:
    """One pass over the matches: how much was played and how long it took."""

    matches: int
    turns: int
    events: int
    seconds: float  # wall clock
    cpu_seconds: float  # this process's CPU time (what a busy machine does not take away)
    bot_seconds: float
    wins: tuple[int, int, int]  # team slot 1, team slot 2, draws

    @property
    def turns_per_second(self) -> float:
        """Resolved turns per wall-clock second, bots included."""
        return self.turns / self.seconds

    @property
    def cpu_turns_per_second(self) -> float:
        """Resolved turns per second of CPU time, bots included."""
        return self.turns / self.cpu_seconds

    @property
    def matches_per_second(self) -> float:
        """Finished matches per wall-clock second."""
        return self.matches / self.seconds


def load_rules(map_path: Path) -> GvgRules:
    """The default settings on the map at ``map_path``."""
    return GvgRules(GvgMap.from_text(map_path.read_text(encoding="utf-8"), where=str(map_path)), GvgSettings())


def starting_state(rules: GvgRules) -> GvgState:
    """A 5v5 match: each team plays two DPS, two Tanks and a Healer."""
    return standard_match(rules.board, rules.settings, TEAMS)


def run(rules: GvgRules, start: GvgState, kinds: Sequence[str], matches: int, seed: str) -> RunResult:
    """Play ``matches`` seeded matches; match ``i`` uses the match seed ``<seed>/<i>``."""
    turns = events = 0
    wins = [0, 0, 0]
    bot_seconds = 0.0
    began, cpu_began = time.perf_counter(), time.process_time()
    for i in range(matches):
        bots = (TimedBot(BOTS[kinds[0]](f"{seed}/{i}/1")), TimedBot(BOTS[kinds[1]](f"{seed}/{i}/2")))
        result = play_match(rules, start, bots, f"{seed}/{i}".encode())
        turns += result.turns
        events += result.events
        wins[2 if result.state.winner is None else result.state.winner] += 1
        bot_seconds += bots[0].seconds + bots[1].seconds
    seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu_began
    return RunResult(matches, turns, events, seconds, cpu_seconds, bot_seconds, (wins[0], wins[1], wins[2]))


def warm_up(rules: GvgRules) -> float:
    """Fill the map's path-distance cache from every tile for both teams; the seconds it took."""
    began = time.perf_counter()
    board, mode = rules.board, rules.settings.movement
    for tile in board.grid.tiles():
        for team in (0, 1):
            if board.enterable(team, tile):
                board.distances(team, mode, tile)
    return time.perf_counter() - began


def peak_mib() -> float:
    """The process's peak resident memory in MiB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


_CPU_RATE = re.compile(r"turns per CPU second \(median of \d+\): ([\d,]+)")
_SPLIT = re.compile(r"per turn: bots (\d+) us, resolution (\d+) us")


@dataclass(frozen=True, slots=True)
class ChildRun:
    """One timed repeat of a tree's benchmark in its own process: turns per CPU second, wall µs per turn."""

    cpu_rate: float
    bot_us: float
    resolution_us: float


def run_tree(tree: Path, argv: Sequence[str]) -> ChildRun:
    """``tree``'s own ``scripts/bench_engine.py`` with ``argv`` and one repeat, its imports from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, str(tree / "scripts" / "bench_engine.py"), *argv, "--repeats", "1"],
                          check=True, capture_output=True, text=True, cwd=tree, env=env)
    rate, split = _CPU_RATE.search(done.stdout), _SPLIT.search(done.stdout)
    if rate is None or split is None:
        raise SystemExit(f"{tree}: the benchmark printed no rate:\n{done.stdout}{done.stderr}")
    return ChildRun(float(rate.group(1).replace(",", "")), float(split.group(1)), float(split.group(2)))


def exported(commit: str, into: Path) -> Path:
    """``commit`` of this repository exported (``git archive``) into ``into`` (made if missing); the folder."""
    into.mkdir(parents=True, exist_ok=True)
    here = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "-C", str(here), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


# Played in a fresh interpreter under cachegrind, its imports from the tree at argv[1]: that tree's own benchmark
# functions (every tree since turn 3 has them) play the matches once to warm up, then argv[5] more times.
_REPLAY = """
import importlib.util, sys
from pathlib import Path
tree, matches, seed = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
kinds, passes = sys.argv[4].split(","), int(sys.argv[5])
spec = importlib.util.spec_from_file_location("bench_engine", tree / "scripts" / "bench_engine.py")
bench = importlib.util.module_from_spec(spec)
sys.modules["bench_engine"] = bench
spec.loader.exec_module(bench)
rules = bench.load_rules(bench.DEFAULT_MAP)
start = bench.starting_state(rules)
bench.warm_up(rules)
turns = bench.run(rules, start, kinds, matches, seed).turns
for _ in range(passes):
    bench.run(rules, start, kinds, matches, seed)
print(turns)
"""
_IREFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(tree: Path, matches: int, seed: str, kinds: Sequence[str], passes: int) -> tuple[int, int]:
    """The instructions valgrind counts in a run of ``tree``'s matches played ``1 + passes`` times, and the turns of
    one pass."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    setarch = shutil.which("setarch")
    no_aslr = [setarch, os.uname().machine, "-R"] if setarch else []
    command = [*no_aslr, valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, "-c", _REPLAY, str(tree), str(matches), seed, ",".join(kinds), str(passes)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tree, check=False,
                          env={**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"})
    found = _IREFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{tree}: valgrind counted nothing:\n{done.stdout}{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def instructions_per_turn(tree: Path, matches: int, seed: str, kinds: Sequence[str]) -> float:
    """Instructions per resolved turn of ``tree``'s engine and bots: a run of two passes less a run of one."""
    once, turns = instructions(tree, matches, seed, kinds, 0)
    twice, _ = instructions(tree, matches, seed, kinds, 1)
    return (twice - once) / turns


def counted(others: Sequence[tuple[str, Path]], matches: int, seed: str, kinds: Sequence[str]) -> None:
    """Print the instructions per turn of every tree in ``others`` and of this one, and this one's ratio to each."""
    here = Path(__file__).resolve().parent.parent
    new = instructions_per_turn(here, matches, seed, kinds)
    print(f"this tree ({here}): {new:,.0f} instructions per turn ({matches} matches replayed, cachegrind)")
    for label, tree in others:
        old = instructions_per_turn(tree, matches, seed, kinds)
        print(f"{label}: {old:,.0f} instructions per turn; speed-up by instructions (old/new): {old / new:.3f}x")


def paired(other: Path, label: str, argv: Sequence[str], pairs: int) -> None:
    """Alternate runs of ``other``'s tree and this one; print each pair, then the medians and the ratio."""
    here = Path(__file__).resolve().parent.parent
    runs: dict[str, list[ChildRun]] = {"old": [], "new": []}
    for pair in range(1, pairs + 1):
        order = [("old", other), ("new", here)]
        for name, tree in order if pair % 2 else reversed(order):
            run_ = run_tree(tree, argv)
            runs[name].append(run_)
            print(f"pair {pair} {name}: {run_.cpu_rate:,.0f} turns per CPU second (wall per turn: bots "
                  f"{run_.bot_us:.0f} us, resolution {run_.resolution_us:.0f} us)", flush=True)
        print(f"pair {pair}: new/old {runs['new'][-1].cpu_rate / runs['old'][-1].cpu_rate:.3f}x CPU", flush=True)
    for name, done in runs.items():
        print(f"median {name}: {statistics.median(r.cpu_rate for r in done):,.0f} turns per CPU second")
    ratios = [n.cpu_rate / o.cpu_rate for o, n in zip(runs["old"], runs["new"], strict=True)]
    print(f"median paired ratio new/old: {statistics.median(ratios):.3f}x CPU ({here} against {label})")


def build_parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200, help="matches per repeat (default 200)")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats of the same matches (default 5)")
    parser.add_argument(
        "--bot", action="append", choices=sorted(BOTS), default=None,
        help="the bot of team slot 1, then of slot 2 (give it twice); once: both sides (default objective)",
    )
    parser.add_argument("--seed", default="bench", help="seed of the matches and the bots (default 'bench')")
    parser.add_argument("--map", type=Path, default=DEFAULT_MAP, help="map file (default templates/gvg/map.txt)")
    parser.add_argument("--vs", metavar="COMMIT_OR_PATH",
                        help="pair each run with the same benchmark of this commit or checkout folder")
    parser.add_argument("--pairs", type=int, default=5, help="pairs of runs with --vs (default 5)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per turn under valgrind instead of timing (with --vs: both trees)")
    return parser


def main_vs(args: argparse.Namespace, kinds: Sequence[str]) -> int:
    """The paired benchmark of ``--vs`` (the other tree: a folder, or a commit exported for the run, and this one),
    timed, or counted by ``--instructions`` (this tree alone without ``--vs``)."""
    argv = ["--matches", str(args.matches), "--seed", args.seed, "--map", str(args.map.resolve())]
    argv += [f"--bot={kind}" for kind in kinds]
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as folder:
        given = Path(args.vs) if args.vs is not None else None
        other = None if given is None else given.resolve() if given.is_dir() else exported(args.vs, Path(folder))
        if args.instructions:
            counted([] if other is None else [(args.vs, other)], args.matches, args.seed, kinds)
        elif other is not None:
            paired(other, args.vs, argv, args.pairs)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = build_parser()
    args = parser.parse_args(argv)
    kinds: list[str] = args.bot or ["objective"]
    if len(kinds) == 1:
        kinds = kinds * 2
    if len(kinds) != 2:
        parser.error("--bot is given once (both sides) or twice (slot 1, then slot 2)")
    if args.matches < 1 or args.repeats < 1 or args.pairs < 1:
        parser.error("--matches, --repeats and --pairs must be at least 1")
    if args.vs is not None or args.instructions:
        return main_vs(args, kinds)
    rules = load_rules(args.map)
    start = starting_state(rules)

    print(f"GvG engine benchmark: {kinds[0]} ({TEAMS[0]}) vs {kinds[1]} ({TEAMS[1]}), 5v5 "
          f"({', '.join(STANDARD_ROLES)}), map {args.map.name}, seed {args.seed!r}, Python {sys.version.split()[0]}")
    cache = warm_up(rules)
    warm = run(rules, start, kinds, args.matches, args.seed)
    print(f"warm-up (untimed): path distances from every tile {cache:.2f} s; "
          f"first pass {warm.seconds:.2f} s ({warm.turns_per_second:,.0f} turns/s)")

    results: list[RunResult] = []
    for r in range(args.repeats):
        result = run(rules, start, kinds, args.matches, args.seed)
        results.append(result)
        share = result.bot_seconds / result.turns * 1e6
        rest = (result.seconds - result.bot_seconds) / result.turns * 1e6
        print(f"repeat {r + 1}: {result.turns_per_second:,.0f} turns/s, {result.matches_per_second:,.1f} matches/s "
              f"in {result.seconds:.2f} s ({result.cpu_turns_per_second:,.0f} turns per CPU second; "
              f"per turn: bots {share:.0f} us, resolution {rest:.0f} us)")

    last = results[-1]
    wins = last.wins
    print(f"matches: {last.matches} per repeat (wins {TEAMS[0]} {wins[0]}, {TEAMS[1]} {wins[1]}, draws {wins[2]})")
    print(f"resolved turns: {last.turns} per repeat ({last.turns / last.matches:.1f} per match, "
          f"{last.events / last.turns:.1f} log events per turn)")
    print(f"turns per second (median of {len(results)}): "
          f"{statistics.median(r.turns_per_second for r in results):,.0f}")
    print(f"turns per CPU second (median of {len(results)}): "
          f"{statistics.median(r.cpu_turns_per_second for r in results):,.0f}")
    print(f"matches per second (median of {len(results)}): "
          f"{statistics.median(r.matches_per_second for r in results):,.1f}")
    print(f"peak memory (ru_maxrss): {peak_mib():.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
