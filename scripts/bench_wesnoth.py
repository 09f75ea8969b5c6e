r"""Benchmark the Wesnoth engine: bot-versus-bot matches on a 2-player map, in one process.

Plays the same ``--matches`` seeded matches ``--repeats`` times through the ruleset interface
(the bots' rows, then the resolution of each player turn) and prints, per repeat and as the
median, the resolved player turns per second, the CPU seconds they took, and how the time
splits between the bots and the resolution (the bots' share). One ruleset serves every
repeat, as each ``simulate`` worker keeps one, and a first, untimed pass warms the board's
tables (neighbours, entry costs, the bots' distance fields).

That warm-up plays the very matches that are then timed, so the board's memories of routes asked
before (the cheapest paths, the distance to a set of goals) answer every question from it: the
figures are those of a replay. With ``--fresh`` the warm-up plays other seeds, so the timed
matches are new to the board, as each match of ``simulate`` is; expect lower figures.

With ``--against CHECKOUT`` (another checkout's folder, such as a worktree of ``main`` or a commit
exported with ``git archive``), the benchmark is paired: each repeat runs this script once importing
from that checkout (under its own ``.venv`` if it has one, else this interpreter) and once from this
one, alternating which goes first, each in a fresh process with its own warm-up, and prints both
rates, their ratio per pair and the medians. On a busy machine the CPU figures tell a slower engine
from a busier machine.

``--set KEY=VALUE`` plays under a setting other than its default, as ``simulate --set`` does. With
``--set mercenary_cost=0`` the skirmisher hires no mercenary (none is worth a price of nothing to it, see
``worth_hiring``), which is how it played before issue 24; with ``--set advance_min_cost=999`` it buys no
advancement (none is free, and none is paid for: see ``advance_word``), which is how it played before issue 40.
With both, a checkout from before issue 24 (such as 6d259d7) plays the very same matches, and both print the same
number of player turns; with ``mercenary_cost=0`` alone the skirmisher of today still buys advancements.

    .venv/bin/python scripts/bench_wesnoth.py
    .venv/bin/python scripts/bench_wesnoth.py --matches 10 --repeats 5 --map templates/wesnoth/maps/2p_The_Freelands.txt
    .venv/bin/python scripts/bench_wesnoth.py --against /work/wt/main-base --repeats 5
    .venv/bin/python scripts/bench_wesnoth.py --against /work/wt/main-base --repeats 5 --fresh
    .venv/bin/python scripts/bench_wesnoth.py --against /tmp/wes6d --repeats 7 --fresh --matches 12 \
        --set mercenary_cost=0 --set advance_min_cost=999
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

try:
    from sheets_gm.rulesets.registry import bots_of, create_ruleset, default_board_text, get_ruleset
except ImportError:  # a checkout from before the games became records (issue 21), measured with --against
    from sheets_gm.engine.registry import (  # type: ignore[import-not-found,no-redef]
        create_ruleset,
        default_board_text,
        get_ruleset,
    )

    def bots_of(rules: Any) -> Any:  # type: ignore[misc]
        """The ruleset's bot kinds, as the older layout asked for them."""
        return rules.bots()

try:
    from sheets_gm.engine.settings import SettingError, parse_assignments, parse_settings
except ImportError:  # the older layout's settings module
    from sheets_gm.engine.core.settings import (  # type: ignore[import-not-found,no-redef]
        SettingError,
        parse_assignments,
        parse_settings,
    )

if TYPE_CHECKING:  # only a type here, so the script also runs under a checkout of an older layout (--against)
    from sheets_gm.engine.ruleset import Ruleset


class Timing(NamedTuple):
    """One timed pass: player turns resolved, wall and CPU seconds, and the wall seconds of bots and resolution."""

    turns: int
    seconds: float
    cpu: float
    bots: float
    resolution: float

    @property
    def rate(self) -> float:
        """Player turns per wall-clock second, bots included."""
        return self.turns / self.seconds

    @property
    def cpu_rate(self) -> float:
        """Player turns per CPU second, bots included."""
        return self.turns / self.cpu

    @property
    def bot_share(self) -> float:
        """The bots' part of the time spent in bots and resolution."""
        return self.bots / (self.bots + self.resolution)

    def line(self) -> str:
        """The pass as one line of figures."""
        return (f"{self.turns} player turns in {self.seconds:.2f} s = {self.rate:.1f} turns/s "
                f"(CPU {self.cpu:.2f} s = {self.cpu_rate:.1f} turns per CPU second; bots {self.bots:.2f} s, "
                f"{self.bot_share:.0%} of the time; resolution {self.resolution:.2f} s = "
                f"{self.turns / self.resolution:.0f} resolutions/s)")


def play(rules: Ruleset[Any, Any, Any], matches: int, bot: str, prefix: str = "bench") -> Timing:
    """Play ``matches`` seeded matches (seeds ``<prefix>/<index>``) and time them."""
    turns = 0
    bot_seconds = resolve_seconds = 0.0
    began, cpu_began = time.perf_counter(), time.process_time()
    for index in range(matches):
        seed = f"{prefix}/{index}".encode()
        state = rules.new_match(rules.sample_roster(), seed)
        bots = {seat: bots_of(rules)[bot].make(f"{index}/{seat}") for seat in rules.seats(state)}
        while (window := rules.window(state)) is not None:
            started = time.perf_counter()
            dice = rules.dice(seed, state)  # one turn's dice for its bots and its resolution, as simulate's play_out
            orders = rules.merge_orders({s: bots[s].orders(state, s, dice) for s in window.seats})
            middle = time.perf_counter()
            state = rules.resolve(state, orders, dice).state
            resolve_seconds += time.perf_counter() - middle
            bot_seconds += middle - started
            turns += 1
    return Timing(turns, time.perf_counter() - began, time.process_time() - cpu_began, bot_seconds, resolve_seconds)


def settings_with(changes: Sequence[str]) -> Any:
    """The default settings but ``changes`` (``key=value`` texts); SettingError naming what is wrong."""
    return parse_settings(get_ruleset("wesnoth").traits.settings_type, parse_assignments(list(changes), where="--set"),
                          where="--set")


def run_here(board: str, matches: int, repeats: int, bot: str, quiet: bool, fresh: bool = False,
             settings: Any = None) -> list[Timing]:
    """A warm-up pass (of other seeds if ``fresh``), then ``repeats`` timed passes in this process (printed unless
    ``quiet``), under ``settings`` (default: the defaults)."""
    rules = create_ruleset("wesnoth", settings, board)  # one ruleset for every repeat, as simulate's workers keep one
    warm = time.perf_counter()
    play(rules, matches, bot, "warm-up" if fresh else "bench")
    if not quiet:
        print(f"warm-up: {time.perf_counter() - warm:.1f} s")
    timings = []
    for repeat in range(1, repeats + 1):
        timing = play(rules, matches, bot)
        timings.append(timing)
        if not quiet:
            print(f"repeat {repeat}: {timing.line()}")
    return timings


def run_child(python: str, argv: list[str], tree: Path) -> Timing:
    """One warm-up and one timed pass of this script under ``python``, in a fresh process importing from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([python, __file__, *argv, "--repeats", "1", "--json"], check=True, capture_output=True,
                          text=True, env=env)
    return Timing(**json.loads(done.stdout.strip().splitlines()[-1]))


def paired(against: Path, argv: list[str], repeats: int) -> None:
    """Alternate runs of ``against``'s checkout (under its own ``.venv``, else this interpreter) and this one, each
    importing from its own tree; print each pair, then the medians and ratios."""
    venv = against / ".venv" / "bin" / "python"
    other = str(venv) if venv.exists() else sys.executable
    here = Path(__file__).resolve().parent.parent
    old: list[Timing] = []
    new: list[Timing] = []
    for repeat in range(1, repeats + 1):
        order = [("old", other, against), ("new", sys.executable, here)]
        for name, python, tree in order if repeat % 2 else reversed(order):
            timing = run_child(python, argv, tree)
            (old if name == "old" else new).append(timing)
            print(f"pair {repeat} {name}: {timing.line()}", flush=True)
        print(f"pair {repeat}: new/old {new[-1].rate / old[-1].rate:.2f}× wall, "
              f"{new[-1].cpu_rate / old[-1].cpu_rate:.2f}× CPU", flush=True)
    for name, runs in (("old", old), ("new", new)):
        print(f"median {name}: {statistics.median(t.rate for t in runs):.1f} player turns/s, "
              f"{statistics.median(t.cpu_rate for t in runs):.1f} per CPU second, bots "
              f"{statistics.median(t.bot_share for t in runs):.0%} of the time")
    ratios = [n.rate / o.rate for o, n in zip(old, new, strict=True)]
    cpu_ratios = [n.cpu_rate / o.cpu_rate for o, n in zip(old, new, strict=True)]
    print(f"median ratio new/old: {statistics.median(ratios):.2f}× wall, {statistics.median(cpu_ratios):.2f}× CPU "
          f"({against} against {Path(__file__).resolve().parent.parent})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Resolved player turns per second of the Wesnoth engine with bots.")
    parser.add_argument("--matches", type=int, default=6, help="matches per repeat (default 6)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats, or pairs with --against (default 3)")
    parser.add_argument("--map", type=Path, help="a board file (default: the ruleset's default 2-player map)")
    parser.add_argument("--bot", default="skirmisher", help="the bot kind on every seat (default skirmisher)")
    parser.add_argument("--against", type=Path, help="pair each repeat with a run of this checkout (its .venv)")
    parser.add_argument("--fresh", action="store_true",
                        help="warm up on other seeds, so the timed matches are new to the board's tables")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting other than its default (repeat for several), as simulate's --set")
    parser.add_argument("--json", action="store_true", help="print only the last repeat's figures, as JSON")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.repeats < 1:
        parser.error("--matches and --repeats must be at least 1")
    try:
        settings = settings_with(args.set)
    except SettingError as exc:
        parser.error(str(exc))
    if args.against is not None:
        if not (args.against / "sheets_gm").is_dir():
            parser.error(f"--against: {args.against} holds no sheets_gm package; give a checkout's folder")
        args.against = args.against.resolve()
        child = ["--matches", str(args.matches), "--bot", args.bot] + (["--fresh"] if args.fresh else [])
        child += [f"--set={change}" for change in args.set]
        if args.map:
            child += ["--map", str(args.map.resolve())]
        paired(args.against, child, args.repeats)
        return 0
    board = args.map.read_text(encoding="utf-8") if args.map else default_board_text("wesnoth")
    timings = run_here(board, args.matches, args.repeats, args.bot, args.json, args.fresh, settings)
    if args.json:
        print(json.dumps(timings[-1]._asdict()))
        return 0
    print(f"median: {statistics.median(t.rate for t in timings):.1f} resolved player turns per second (bots "
          f"included), {statistics.median(t.cpu_rate for t in timings):.1f} per CPU second; bots "
          f"{statistics.median(t.bot_share for t in timings):.0%} of the time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
