"""Benchmark the Coalition adjudicator: adjudicated turns per second for 10, 100 and 1,000 armies.

For each army count N the script builds a map of three planes (26 rows, wide enough for about
eight squares per army, Mirrodin wrapping, features, bases and strongholds), places N armies
at random (half a side, ranks 1 to 6), lets the ``commander`` bots write one turn of orders
(untimed), then times:

- **adjudication**: the orders window resolved (raids, intercepts, moves, mercenaries, battles
  announced), the same state and orders ``--repeats`` times (every function is pure);
- **a whole turn**: adjudication, the stand-in judge's results and the end of the turn;
- **the bots**: both sides' ``commander`` orders for the same state (what ``simulate`` asks of
  them before each adjudication).

It prints the median of the repeats, turns per second and microseconds per army, so the growth
from 10 to 1,000 armies shows whether the work is linear in the armies (it must not be quadratic).
An untimed warm-up fills the board's caches first (routes, rings), as a long match would.

    .venv/bin/python scripts/bench_coalition.py                 # 10, 100, 1000 armies
    .venv/bin/python scripts/bench_coalition.py --armies 100 --repeats 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import yaml

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.rulesets.coalition.engine import CoalitionRuleset
from sheets_gm.rulesets.coalition.enums import Colour, Phase, Side
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import SLOT_CAPACITY, Army, CoalitionOrders, CoalitionState
from sheets_gm.rulesets.registry import bots_of

SEED = b"bench coalition"


def bench_map(armies: int) -> str:
    """Three planes of 26 rows, about eight squares per army, with structures spread over them."""
    width = max(8, -(-armies * 8 // (3 * 26)))
    planes: dict[str, object] = {}
    for name, wrap in (("Dominaria", False), ("Phyrexia", False), ("Mirrodin", True)):
        squares: dict[str, object] = {f"{1 + i * (width - 1) // 5}{'BFJNR'[i]}": {"structure": "feature",
                                                                                   "name": f"{name} F{i}"}
                                      for i in range(5)}
        squares[f"{width // 2}X"] = {"structure": "base", "name": f"{name} Base", "colour": "white"}
        squares[f"{width // 2}Z"] = {"structure": "stronghold", "name": f"{name} Hold"}
        planes[name] = {"size": f"{width}x26", "wrap": wrap, "terrain": "plains", "squares": squares}
    for here, there in (("Dominaria", "Mirrodin"), ("Mirrodin", "Dominaria")):
        planes[here]["squares"]["1Y"] = {"structure": "portal", "name": f"Gate {here}",  # type: ignore[index]
                                         "to": f"{there} 1Y"}
    return yaml.safe_dump({"planes": planes}, sort_keys=False)


def bench_state(rules: CoalitionRuleset, armies: int) -> CoalitionState:
    """``armies`` armies on distinct random squares, half a side, ranks 1 to 6."""
    rng = random.Random(armies)
    squares = rng.sample([p for p in rules.board.places() if p not in rules.board.structure_at], armies)
    out = []
    for i, place in enumerate(squares):
        side = Side.COALITION if i % 2 == 0 else Side.PHYREXIA
        factions = (Colour.WHITE,) if side is Side.COALITION else ()
        units = tuple(rng.randint(c // 5, c) for c in SLOT_CAPACITY)
        out.append(Army(f"{side.value[:3]}{i:04d}", side, rng.randint(1, 6), place,
                        (units[0], units[1], units[2], units[3]), factions, factions[0] if factions else None))
    return CoalitionState(turn=1, phase=Phase.ORDERS, armies=tuple(out), top_ranks_at_start=("coalition", "phyrexia"))


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    """The median wall-clock time of ``run``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--armies", type=int, action="append", help="army counts (default 10, 100 and 1000)")
    parser.add_argument("--repeats", type=int, default=7, help="timed runs per count (default 7)")
    args = parser.parse_args()
    counts = args.armies or [10, 100, 1000]
    print(f"{'armies':>7} {'adjudicated turns/s':>20} {'ms/turn':>8} {'µs/army':>8} "
          f"{'whole turns/s':>14} {'µs/army':>8} {'battles':>8} {'bots ms/turn':>13}")
    for n in counts:
        adj, whole, battles, bots = measure(n, args.repeats)
        print(f"{n:>7} {1 / adj:>20.1f} {adj * 1000:>8.2f} {adj * 1e6 / n:>8.1f} {1 / whole:>14.1f} "
              f"{whole * 1e6 / n:>8.1f} {battles:>8} {bots * 1000:>13.2f}")


def measure(n: int, repeats: int) -> tuple[float, float, int, float]:
    """Median seconds of one adjudication and of one whole turn with ``n`` armies, the battles announced, and
    the median seconds of both sides' bot orders."""
    rules = CoalitionRuleset.create(CoalitionSettings(), bench_map(n))
    state = bench_state(rules, n)
    bot = bots_of(rules)["commander"].make("bench")
    dice = rules.dice(SEED, state)

    def bot_orders() -> CoalitionOrders:
        return rules.merge_orders({seat: bot.orders(state, seat, dice) for seat in ("coalition", "phyrexia")})

    orders = bot_orders()

    def resolve_orders() -> CoalitionState:
        return rules.resolve(state, orders, TurnDice(SEED, state.turn, die_sides=None)).state

    def whole_turn() -> CoalitionState:
        after = resolve_orders()
        if after.phase is Phase.RESULTS:
            results = bot.orders(after, JUDGE, TurnDice(SEED, after.turn, die_sides=None))
            after = rules.resolve(after, CoalitionOrders(results=results.results),
                                  TurnDice(SEED, after.turn, die_sides=None)).state
        return after

    battles = len(whole_turn().announced)  # also the warm-up: the board's caches
    return (median_seconds(resolve_orders, repeats), median_seconds(whole_turn, repeats), battles,
            median_seconds(bot_orders, repeats))


if __name__ == "__main__":
    main()
