"""``sheets-gm export``: the match's workbooks, a CSV per tab and the JSON replay, with the seed revealed."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, command
from sheets_gm.commands.matchargs import add_config_option, load, open_match, user_errors
from sheets_gm.engine.words import counted


def _early_refusal(where: str) -> str:
    return (f"the match is still being played ({where}), and an export reveals the seed: every die of every "
            "turn to come is computed from it, so anyone who sees it can predict the rest of the match. Export "
            "once the match is over, or pass --reveal-early if you are ending it now (then tell the players the "
            "seed is public). Nothing was written.")


def run(args: argparse.Namespace) -> int:
    """Export the match into --out; refuse an unfinished match without --reveal-early."""
    from sheets_gm.engine.vocab import plural
    from sheets_gm.match.config import BackendKind
    from sheets_gm.rulesets.registry import get_ruleset
    from sheets_gm.sync.life.export import export_match
    from sheets_gm.sync.life.seed_check import seed_problem
    from sheets_gm.sync.life.settle import settle_cut_command
    from sheets_gm.sync.read import read_match
    from sheets_gm.sync.writes import status_line
    from sheets_gm.upkeep.export_folder import folder_contents

    config = load(args)
    folder: Path = args.out if args.out is not None else config.folder / "export"
    if config.backend is BackendKind.LOCAL:
        live = {config.local_path(w).resolve().parent
                for w in {config.board, config.engine, *config.orders, *([config.judge] if config.judge else [])}}
        if folder.resolve() in live:
            raise UserError(f"{folder} holds the match's own workbooks, which the export could replace: "
                            "export into a folder of its own (the default is export/ next to the config)")
    sheets = open_match(config, "export", writes=False, settles=True)
    told: list[str] = []
    with user_errors(config):  # a repair, export or init --overwrite cut short, settled before anything is read
        told += [said] if (said := settle_cut_command(sheets, get_ruleset(config.ruleset))) else []
        read = read_match(sheets, get_ruleset(config.ruleset))
        found = read.record
        # Where the match stands in the words status uses (Wesnoth counts rounds, not the windows resolved).
        finished = found.window_key() == ""
        where = f"{status_line(read.adapter, found)} · {plural(found.resolved, 'window')} resolved"
        seed, published = found.seed, found.seed_hash
        problem = seed_problem(found, "the engine tab")
    told += [read.completed] if read.completed else []
    for line in told:  # a command cut short, settled first
        print(f"Settled first: {line}.")
    told = []
    if not finished and not args.reveal_early:
        raise UserError(_early_refusal(where))
    before = folder_contents(folder)
    if not before.empty and not before.holds_match(published) and not args.overwrite:
        raise UserError(f"{folder} already holds {before.describe()}: nothing was written. Choose another folder "
                        "with --out, or pass --overwrite to replace its files")
    with user_errors(config):
        _record, written = export_match(sheets, get_ruleset(config.ruleset), folder, told)
    for line in told:  # a repair or an export cut short, settled first
        print(f"Settled first: {line}.")

    if finished:
        print(f"The match is over ({where}): exported with its seed.")
    else:
        print(f"WARNING: the match is not over ({where}) and its seed is now revealed: anyone who sees "
              "it can predict every roll to come.")
    print(f"Seed:      {seed.hex()}")
    print(f"Seed hash: {published} (SHA-256 of the seed, published when the match was created)")
    for link in found.reseeds:  # an undo of the match's end drew each: every later die came from it
        print(f"Seed:      {link.seed.hex()} (drawn when the GM undid the end of the match: {link.reason})")
        print(f"Seed hash: {link.hash} (published then, in the Log's line of that undo)")
    genuine = not problem
    if not genuine:
        print(f"PROBLEM: {problem}.")
    if before.holds_match(published):
        at = f" (it stopped at {before.stopped})" if before.stopped is not None else ""
        print(f"Replaced the earlier export of this match in {folder}{at}.")
    elif not before.empty:
        print(f"Replaced {before.describe()} in {folder}.")
    print(f"Wrote {counted(len(written), 'file')}:")
    for path in written:
        print(f"  {path}")
    for path in before.left_over(written):
        print(f"  (left from before, not part of this export: {path})")
    print(f"Anyone can check every roll and state: sheets-gm verify {folder / 'replay.json'}")
    return 0 if genuine else 1


def register(sub: Any) -> None:
    """Add ``export`` to the command line."""
    p = command(sub, "export", run, "export the match (workbooks, CSV per tab, JSON replay) and reveal its seed",
                "Write the match's workbooks (.xlsx), a CSV per tab (cells a spreadsheet would run as formulas are "
                "neutralised) and replay.json, from which `sheets-gm verify` recomputes every roll. Prints the "
                "seed and its hash, published when the match was created, so players can check the seed was "
                "never changed. An unfinished match needs --reveal-early: its seed predicts every roll to come. "
                "A folder holding another match's export is replaced only with --overwrite.",
                "sheets-gm export -c match.toml --out final")
    add_config_option(p)
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="the folder to write (default: export/ next to the config file)")
    p.add_argument("--reveal-early", action="store_true",
                   help="export a match that is not over yet, revealing the seed that decides its future rolls")
    p.add_argument("--overwrite", action="store_true",
                   help="replace the files of a folder that holds another match's export or other files")
