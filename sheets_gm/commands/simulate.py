"""``sheets-gm simulate``: thousands of bot matches, to see what a house rule does to the game."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from sheets_gm.commands.base import UsageError, UserError, command, game_name, whole_number
from sheets_gm.console import CommandConsole
from sheets_gm.engine.words import counted

#: The most worker processes ``--workers`` accepts.
MAX_WORKERS = 256


def progress_console() -> Console:
    """Where the progress bar goes: standard error, so the tables on standard output stay clean."""
    return CommandConsole(stderr=True)


def table_console() -> Console:
    """Where the tables go: standard output, wide enough for the tables when it is not a terminal."""
    return CommandConsole()


def _plan(args: argparse.Namespace) -> Any:
    """The simulation plan from the command line, or a UserError naming what is wrong."""
    from sheets_gm.engine.settings import SettingError, parse_assignments, parse_settings
    from sheets_gm.rulesets.registry import UnknownRulesetError, default_board_text, get_ruleset
    from sheets_gm.simulate.plan import Plan, PlanError, bot_help, parse_bots, variants_for

    try:
        ruleset = get_ruleset(args.ruleset)
    except UnknownRulesetError as exc:
        raise UserError(str(exc)) from None
    name = ruleset.traits.name
    settings_type = ruleset.traits.settings_type
    try:
        known = list(bot_help(name))
        bots = parse_bots(args.bots or known[0], known)
    except PlanError as exc:
        raise UsageError(f"--bots: {exc}") from None
    try:
        changes = parse_assignments(args.set or [], where="--set")
        house = parse_settings(settings_type, changes, where="--set") if changes else None
    except SettingError as exc:
        text = str(exc)
        raise UserError(text if text.startswith("--set") else f"--set: {text}") from None
    if args.map is None:
        map_text, map_name = default_board_text(name), "default map"
    else:
        try:
            map_text, map_name = args.map.read_text(encoding="utf-8"), f"map {args.map}"
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"--map: cannot read {args.map}: {exc}") from None
    try:
        ruleset.create(settings_type(), map_text)
    except ValueError as exc:
        raise UserError(f"{map_name}: {exc}" if map_name not in str(exc) else str(exc)) from None
    try:
        return Plan(name, str(args.seed), args.matches, bots, variants_for(settings_type(), changes, house),
                    map_text, map_name)
    except PlanError as exc:
        raise UserError(str(exc)) from None


def _out_dir(path: Path | None) -> Path | None:
    """The output folder, created now (before any match is played) so a bad path fails fast."""
    if path is None:
        return None
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"--out: cannot create the folder {path}: {exc.strerror or exc}") from None
    return path


def run(args: argparse.Namespace) -> int:
    """Play the simulation, print its tables and write its files."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from sheets_gm.engine.settings import idle_settings, parse_assignments
    from sheets_gm.simulate.chart import ChartUnavailableError, write_chart
    from sheets_gm.simulate.report import match_rows, print_tables, summary_rows, write_csv, write_json
    from sheets_gm.simulate.runner import default_workers, run_simulation

    plan = _plan(args)
    for why in idle_settings(plan.variants[-1].settings, parse_assignments(args.set or [])):
        print(f"sheets-gm: note: {why}: it changes nothing in this simulation", file=sys.stderr)
    out = _out_dir(args.out)
    workers = args.workers or default_workers()
    total = plan.matches * len(plan.variants)
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    # No refresh thread (auto_refresh=False): the bar is redrawn as each chunk comes back, and
    # the worker processes are never forked from a process with a second thread running.
    # Off a terminal (a pipe, a log file, CI) there is no bar at all, so standard error stays clean.
    bar_console = progress_console()
    with Progress(*columns, console=bar_console, transient=True, auto_refresh=False,
                  disable=not bar_console.is_terminal) as progress:
        task = progress.add_task(f"Playing matches ({counted(workers, 'worker')})", total=total)

        def advance(count: int) -> None:
            progress.advance(task, count)
            progress.refresh()

        progress.refresh()
        result = run_simulation(plan, workers, on_progress=advance)
    figures = result.figures()
    console = table_console()
    print_tables(result, figures, console)
    if out is not None:
        written = ["simulate.json", "simulate.csv", "matches.csv"]
        try:
            write_json(out / "simulate.json", result, figures)
            write_csv(out / "simulate.csv", summary_rows(result.spec, figures))
            write_csv(out / "matches.csv", match_rows(result))
            try:
                write_chart(out / "simulate.png", plan, result.spec, figures)
                written.append("simulate.png")
            except ChartUnavailableError as exc:
                print(f"sheets-gm: no chart: {exc}", file=sys.stderr)
        except OSError as exc:
            raise UserError(f"--out: cannot write into {out}: {exc.strerror or exc}") from None
        console.print(f"Written to {out}: {', '.join(written)}")
    console.print(f"Played {result.matches_played:,} matches in {result.seconds:.1f} s with "
                  f"{counted(result.workers, 'worker')}: {result.matches_per_second:,.0f} matches per second.")
    return 0


def register(sub: Any) -> None:
    """Add ``simulate`` to the command line."""
    from sheets_gm.rulesets.registry import ruleset_names

    p = command(sub, "simulate", run, "play thousands of bot matches to see what a house rule does",
                "Plays N bot-versus-bot matches (bot A against bot B, the seats dealt to them in turn, one seat "
                "further every match) with the default settings and, with --set, with the house rule too, in "
                "parallel processes. Reports per bot the win rate with its 95% Wilson interval, draws, match "
                "length, how matches end and the figures the ruleset counts (the guild game: tree captures, coins "
                "earned and spent per skill, knock-downs), with the house rule beside the default. The same seed gives "
                "the same figures whatever the worker count.",
                "sheets-gm simulate wesnoth --matches 2000 --seed 7 --set start_gold=20 --out sim-out")
    p.add_argument("ruleset", metavar="RULESET", type=game_name,
                   help=f"the ruleset to simulate ({', '.join(ruleset_names())})")
    p.add_argument("--matches", type=whole_number("--matches", 1, 10_000_000), default=1000,
                   help="matches per variant (default 1000)")
    p.add_argument("--seed", default="1", help="any text; the same seed gives the same figures (default 1)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="a house rule setting (repeat for several); its figures are shown beside the default's")
    p.add_argument("--bots", default=None, metavar="A[,B…]",
                   help="bot A's kind and bot B's, and more for games of more seats (one name: both; default: the "
                        "ruleset's first kind). The kinds are the ruleset's own: an unknown name lists them")
    p.add_argument("--workers", type=whole_number("--workers", 1, MAX_WORKERS), default=None,
                   help="worker processes (default: one per CPU)")
    p.add_argument("--map", type=Path, default=None,
                   help="a board file (default: the ruleset's, in templates/RULESET/)")
    p.add_argument("--out", type=Path, default=None,
                   help="folder for simulate.json, simulate.csv, matches.csv and simulate.png")
