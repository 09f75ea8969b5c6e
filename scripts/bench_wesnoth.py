"""Benchmark the Wesnoth engine: bot-versus-bot matches on a 2-player map, in one process.

Plays the same ``--matches`` seeded matches ``--repeats`` times through the ruleset interface
(the bots' rows, then the resolution of each player turn) and prints, per repeat and as the
median, the resolved player turns per second and how the time splits between the bots and the
resolution. A first, untimed pass warms the per-process caches (hex neighbours, the bots'
distance fields).

    .venv/bin/python scripts/bench_wesnoth.py
    .venv/bin/python scripts/bench_wesnoth.py --matches 10 --repeats 5 --map templates/wesnoth/maps/2p_The_Freelands.txt
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from sheets_gm.engine.registry import create_ruleset, default_board_text


def play(board: str, matches: int, bot: str) -> tuple[int, float, float]:
    """Play ``matches`` seeded matches; the player turns resolved, the bots' seconds and the resolution's."""
    rules = create_ruleset("wesnoth", board=board)
    turns = 0
    bot_seconds = resolve_seconds = 0.0
    for index in range(matches):
        seed = f"bench/{index}".encode()
        state = rules.new_match(rules.sample_roster(), seed)
        bots = {seat: rules.bots()[bot].make(f"{index}/{seat}") for seat in rules.seats(state)}
        while (window := rules.window(state)) is not None:
            started = time.perf_counter()
            orders = rules.merge_orders({s: bots[s].orders(state, s, rules.dice(seed, state)) for s in window.seats})
            middle = time.perf_counter()
            state = rules.resolve(state, orders, rules.dice(seed, state)).state
            resolve_seconds += time.perf_counter() - middle
            bot_seconds += middle - started
            turns += 1
    return turns, bot_seconds, resolve_seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Resolved player turns per second of the Wesnoth engine with bots.")
    parser.add_argument("--matches", type=int, default=6, help="matches per repeat (default 6)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats (default 3)")
    parser.add_argument("--map", type=Path, help="a board file (default: the ruleset's default 2-player map)")
    parser.add_argument("--bot", default="skirmisher", help="the bot kind on every seat (default skirmisher)")
    args = parser.parse_args(argv)
    board = args.map.read_text(encoding="utf-8") if args.map else default_board_text("wesnoth")
    warm = time.perf_counter()
    play(board, args.matches, args.bot)
    print(f"warm-up: {time.perf_counter() - warm:.1f} s")
    rates = []
    for repeat in range(1, args.repeats + 1):
        started = time.perf_counter()
        turns, bots, resolving = play(board, args.matches, args.bot)
        seconds = time.perf_counter() - started
        rates.append(turns / seconds)
        print(f"repeat {repeat}: {turns} player turns in {seconds:.2f} s = {turns / seconds:.1f} turns/s "
              f"(bots {bots:.2f} s, resolution {resolving:.2f} s = {turns / resolving:.0f} resolutions/s)")
    print(f"median: {statistics.median(rates):.1f} resolved player turns per second (bots included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
