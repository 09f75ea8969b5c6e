"""Benchmark the Champions engine: sixteen bot players per match on the shipped loot table, in one process.

Plays the same ``--matches`` seeded matches ``--repeats`` times through the ruleset interface
(bots, checks and resolution, as ``simulate`` plays them) and prints, per repeat and as the
median, the resolved rounds per second (a round is its two windows: move and loot, equip and
fight), windows and battles per second, how the time splits between the bots and the engine,
and the peak memory. An untimed first pass warms the caches; wall-clock and CPU-time rates are
both printed, since on a busy machine the process may not get a whole core.

    .venv/bin/python scripts/bench_champions.py                     # affinity bots on all sixteen seats
    .venv/bin/python scripts/bench_champions.py --bot random --matches 50
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.enums import EventKind
from sheets_gm.rulesets.registry import bots_of, create_ruleset


@dataclass(frozen=True, slots=True)
class RunResult:
    """One pass over the matches: how much was played and how long it took."""

    matches: int
    rounds: int
    windows: int
    battles: int
    seconds: float
    cpu_seconds: float
    bot_seconds: float

    @property
    def rounds_per_second(self) -> float:
        """Resolved rounds (two windows each) per wall-clock second, bots included."""
        return self.rounds / self.seconds

    @property
    def cpu_rounds_per_second(self) -> float:
        """Resolved rounds per second of CPU time, bots included."""
        return self.rounds / self.cpu_seconds


def run(rules: ChampionsRuleset, bot: str, matches: int, seed: str) -> RunResult:
    """Play ``matches`` matches of sixteen ``bot`` players; match ``i`` uses the seed ``<seed>/<i>``."""
    windows = battles = 0
    rounds = 0
    bot_seconds = 0.0
    make = bots_of(rules)[bot].make
    began, cpu_began = time.perf_counter(), time.process_time()
    for i in range(matches):
        match_seed = f"{seed}/{i}".encode()
        state = rules.new_match(rules.sample_roster(), match_seed)
        bots = {seat: make(f"{seed}/{i}/{seat}") for seat in rules.seats(state)}
        while (window := rules.window(state)) is not None:
            dice = rules.dice(match_seed, state)
            t = time.perf_counter()
            orders = rules.merge_orders({seat: bots[seat].orders(state, seat, dice) for seat in window.seats})
            bot_seconds += time.perf_counter() - t
            resolution = rules.resolve(state, orders, dice)
            battles += sum(1 for e in resolution.events if e.kind is EventKind.BATTLE)
            state = resolution.state
            windows += 1
        rounds += state.round
    seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu_began
    return RunResult(matches, rounds, windows, battles, seconds, cpu_seconds, bot_seconds)


def peak_mib() -> float:
    """The process's peak resident memory in MiB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=40, help="matches per repeat (default 40)")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats of the same matches (default 5)")
    parser.add_argument("--bot", default="affinity", help="the bot on every seat: affinity, stack or random")
    parser.add_argument("--seed", default="bench", help="seed of the matches and the bots (default 'bench')")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.repeats < 1:
        parser.error("--matches and --repeats must be at least 1")
    rules = create_ruleset("champions")
    assert isinstance(rules, ChampionsRuleset)
    if args.bot not in bots_of(rules):
        parser.error(f"unknown bot {args.bot!r}; choose from {', '.join(bots_of(rules))}")
    print(f"Champions engine benchmark: 16 {args.bot} bots, shipped loot table, seed {args.seed!r}, "
          f"Python {sys.version.split()[0]}")
    warm = run(rules, args.bot, args.matches, args.seed)
    print(f"warm-up (untimed): {warm.seconds:.2f} s ({warm.rounds_per_second:,.0f} rounds/s)")
    results: list[RunResult] = []
    for r in range(args.repeats):
        result = run(rules, args.bot, args.matches, args.seed)
        results.append(result)
        bots = result.bot_seconds / result.rounds * 1e3
        engine = (result.seconds - result.bot_seconds) / result.rounds * 1e3
        print(f"repeat {r + 1}: {result.rounds_per_second:,.0f} rounds/s in {result.seconds:.2f} s "
              f"({result.cpu_rounds_per_second:,.0f} per CPU second; per round: bots {bots:.2f} ms, "
              f"engine {engine:.2f} ms)")
    last = results[-1]
    print(f"per repeat: {last.matches} matches, {last.rounds} rounds ({last.rounds / last.matches:.1f} per match), "
          f"{last.windows} windows, {last.battles} battles ({last.battles / last.rounds:.1f} per round)")
    print(f"rounds per second (median of {len(results)}): "
          f"{statistics.median(r.rounds_per_second for r in results):,.0f}")
    print(f"rounds per CPU second (median of {len(results)}): "
          f"{statistics.median(r.cpu_rounds_per_second for r in results):,.0f}")
    print(f"battles per second (median of {len(results)}): "
          f"{statistics.median(r.battles / r.seconds for r in results):,.0f}")
    print(f"peak memory (ru_maxrss): {peak_mib():.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
