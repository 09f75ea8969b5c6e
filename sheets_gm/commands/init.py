"""``sheets-gm init RULESET``: create a match's spreadsheets or workbooks, draw the seed, publish its hash."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, command, program_name
from sheets_gm.commands.matchargs import add_config_option, load, user_errors
from sheets_gm.engine.registry import RULESETS, TEMPLATES
from sheets_gm.match.cron import cron_line
from sheets_gm.sync.deadline import describe_deadline


def starter_config(ruleset: str) -> Path:
    """The commented starter config shipped for ``ruleset``."""
    return TEMPLATES / ruleset / "match.toml"


def private_config(text: str) -> str:
    """The starter config with the private layout: the GM's engine in a folder of its own, and
    one orders workbook per team, so that neither team sees the other's orders as typed."""
    lines = []
    for line in text.splitlines():
        if line.startswith("# engine = "):
            line = 'engine = "gm/engine.xlsx"   # the GM-only engine (state, seed, history): keep gm/ to yourself'
        elif line.startswith("# orders = "):
            line = ('orders = { red = "red-orders.xlsx", blue = "blue-orders.xlsx" }   '
                    "# one file per team: share each with its team only")
        elif line.startswith('board = "match.xlsx"'):
            line = 'board = "board.xlsx"         # the public board: share it with everybody'
        lines.append(line)
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Write a starter config if there is none, then create the match it describes."""
    from sheets_gm.match.init import init_match
    from sheets_gm.match.window_match import init_window_match, on_window_sync

    ruleset = args.ruleset.strip().lower()
    if ruleset not in RULESETS:
        raise UserError(f"unknown ruleset {args.ruleset!r}; this build knows: {', '.join(sorted(RULESETS))}")
    if not args.config.exists():
        args.config.parent.mkdir(parents=True, exist_ok=True)
        text = starter_config(ruleset).read_text(encoding="utf-8")
        if on_window_sync(ruleset):
            args.config.write_text(text, encoding="utf-8")
            print(f"Wrote a starter config {args.config} (its comments say where the board, each seat's orders and "
                  "the GM's engine live; edit it for Google Sheets, seats, deadlines and house rules).")
        else:
            args.config.write_text(private_config(text) if args.private else text, encoding="utf-8")
            layout = ("a board, a GM-only engine and one orders workbook per team" if args.private else
                      "one local workbook for everybody: each team sees the other's orders as they are typed; "
                      "init --private makes a file per team")
            print(f"Wrote a starter config {args.config} ({layout}; edit it for Google Sheets, teams, deadlines "
                  "and house rules).")
    elif args.private:
        raise UserError(f"--private shapes a new starter config, and {args.config} exists: set engine and orders "
                        "under [sheets] in it yourself (see its comments)")
    config = load(args)
    if config.ruleset != ruleset:
        raise UserError(f"{config.path} is a {config.ruleset} match, not {ruleset}")
    if args.roster is not None and not args.roster.exists():
        raise UserError(f"no roster file at {args.roster}")
    with user_errors():
        if on_window_sync(ruleset):
            outcome = init_window_match(config, now=datetime.now(UTC), roster_file=args.roster,
                                        overwrite=args.overwrite)
        else:
            outcome = init_match(config, now=datetime.now(UTC), roster_file=args.roster, overwrite=args.overwrite,
                                 share=not args.no_share, notify=not args.no_email)
    for backup in outcome.backups:
        print(f"The old workbook is kept as {backup}")
    if outcome.roster_tab is not None:
        print(f"No roster yet: type the players in tab {outcome.roster_tab!r} of {outcome.where[0]} "
              "(name, team, role, captain, e-mail), then run the same init again:")
        print(f"  sheets-gm init {ruleset} -c {args.config}")
        return 0
    if on_window_sync(ruleset):
        print(f"Match created: {', '.join(config.seats)} ({outcome.players} roster lines) in "
              f"{', '.join(outcome.where)}.")
    else:
        print(f"Match created: {outcome.players} players in {', '.join(outcome.where)}.")
    for warning in outcome.warnings:
        print(f"Warning: {warning}.")
    print(f"Seed hash (publish it now; `export` reveals the seed at the end): {outcome.seed_hash}")
    until = f" until {describe_deadline(outcome.deadline)}" if outcome.deadline else ""
    print(f"Turn 1 orders are open{until}." if not on_window_sync(ruleset) else f"The first orders are open{until}.")
    for line in outcome.shared:
        print(f"Shared: {line}")
    print(f"Next: schedule the sync; this match's crontab line (crontab -e), at a minute of its own:\n"
          f"  {cron_line(args.config)}\n"
          f"or run `{program_name()} sync -c {args.config}` by hand (scripts/cron.txt says more).")
    return 0


def register(sub: Any) -> None:
    """Add ``init`` to the command line."""
    p = command(sub, "init", run, "create a match: spreadsheets or workbooks, roster, seed",
                "Create the match described by the config (a starter config is written if there is none): "
                "lay out every tab, place the roster (from --roster, the config's roster file, or typed in "
                "the sheet's Roster tab), draw the secret seed and print its hash for the players.",
                "sheets-gm init gvg -c match.toml --roster roster.csv")
    p.add_argument("ruleset", metavar="RULESET", help="the game: gvg")
    add_config_option(p)
    p.add_argument("--roster", type=Path, help="a CSV of the players: name, team, role, captain, email")
    p.add_argument("--private", action="store_true",
                   help="with no config yet: start one with a file per team (private orders) and a GM-only engine")
    p.add_argument("--overwrite", action="store_true",
                   help="replace an existing local match (its workbooks are kept aside as backups)")
    p.add_argument("--no-share", action="store_true", help="Google: do not share the spreadsheets with the players")
    p.add_argument("--no-email", action="store_true", help="Google: share without sending e-mails")
