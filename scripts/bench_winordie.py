"""Benchmark the Win or Die engine: bot-versus-bot matches of the sample line-ups on the default map.

Plays the same ``--matches`` seeded matches ``--repeats`` times through the ruleset interface
(bots, check-free resolution, as ``simulate`` does) and prints, per repeat and as the median,
the resolved windows per second (deployments and player-turns, bots included) and the
resolved player-turns per second. An untimed first pass warms the caches (sight lines).

    .venv/bin/python scripts/bench_winordie.py
    .venv/bin/python scripts/bench_winordie.py --bot cautious --matches 50 --set mode=advanced
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.engine.settings import parse_assignments, parse_settings
from sheets_gm.rulesets.registry import bots_of, create_ruleset
from sheets_gm.rulesets.winordie.settings import WodSettings


@dataclass(frozen=True, slots=True)
class Pass:
    """One pass over the matches."""

    matches: int
    windows: int
    turns: int  # player-turns resolved (windows of the actions phase that ended a turn)
    seconds: float
    cpu_seconds: float
    bot_seconds: float


def run(bot: str, settings: WodSettings, matches: int, seed: str) -> Pass:
    """Play ``matches`` matches; match ``i`` uses the seed ``<seed>/<i>``."""
    rules = create_ruleset("winordie", settings)
    windows = turns = 0
    bot_seconds = 0.0
    began, cpu = time.perf_counter(), time.process_time()
    for i in range(matches):
        match_seed = f"{seed}/{i}".encode()
        state = rules.new_match(rules.sample_roster(), match_seed)
        bots = {s: bots_of(rules)[bot].make(f"{seed}/{i}/{s}") for s in rules.seats(state)}
        while (window := rules.window(state)) is not None:
            dice = rules.dice(match_seed, state)
            asked = time.perf_counter()
            orders = rules.merge_orders({s: bots[s].orders(state, s, dice) for s in window.seats})
            bot_seconds += time.perf_counter() - asked
            before = (state.game, state.turn)
            state = rules.resolve(state, orders, dice).state
            windows += 1
            turns += window.phase == "actions" and (state.game, state.turn) != before
    return Pass(matches, windows, turns, time.perf_counter() - began, time.process_time() - cpu, bot_seconds)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=100, help="matches per repeat (default 100)")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats (default 5)")
    parser.add_argument("--bot", default="advance", help="the bot of both players (advance, cautious, random)")
    parser.add_argument("--seed", default="bench", help="seed of the matches (default 'bench')")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a setting")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.repeats < 1:
        parser.error("--matches and --repeats must be at least 1")
    settings = parse_settings(WodSettings, parse_assignments(args.set))
    print(f"Win or Die engine benchmark: {args.bot} vs {args.bot}, sample line-ups, default map, "
          f"seed {args.seed!r}, Python {sys.version.split()[0]}")
    warm = run(args.bot, settings, args.matches, args.seed)
    print(f"warm-up (untimed): {warm.seconds:.2f} s")
    passes = []
    for n in range(args.repeats):
        p = run(args.bot, settings, args.matches, args.seed)
        passes.append(p)
        print(f"repeat {n + 1}: {p.turns / p.seconds:,.0f} turns/s, {p.windows / p.seconds:,.0f} windows/s, "
              f"{p.matches / p.seconds:,.1f} matches/s in {p.seconds:.2f} s "
              f"({p.turns / p.cpu_seconds:,.0f} turns per CPU second; per window: bots "
              f"{p.bot_seconds / p.windows * 1e6:,.0f} us, "
              f"resolution {(p.seconds - p.bot_seconds) / p.windows * 1e6:,.0f} us)")
    last = passes[-1]
    print(f"resolved player-turns: {last.turns} per repeat ({last.turns / last.matches:.1f} per match, "
          f"{last.windows / last.matches:.1f} windows per match)")
    print(f"turns per second (median of {len(passes)}): {statistics.median(p.turns / p.seconds for p in passes):,.0f}")
    print(f"turns per CPU second (median of {len(passes)}): "
          f"{statistics.median(p.turns / p.cpu_seconds for p in passes):,.0f}")
    print(f"windows per second (median of {len(passes)}): "
          f"{statistics.median(p.windows / p.seconds for p in passes):,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
