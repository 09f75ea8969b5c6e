"""``sheets-gm demo [RULESET]``: a whole bot match on local workbooks, no account needed (GvG by default)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, command, program_name


def run_window(args: argparse.Namespace, ruleset: str) -> int:
    """The demo of a ruleset on the generic sync: its files, its result."""
    from sheets_gm.sheets.backend import SheetError
    from sheets_gm.window_demo import run_window_demo

    try:
        result = run_window_demo(ruleset, args.out, seed=args.seed, max_windows=args.turns)
    except SheetError as exc:
        raise UserError(str(exc)) from None
    print()
    print(f"Result after {result.windows} windows: {result.result}")
    for role, path in result.files.items():
        print(f"  {role}: {path}")
    print("Open the board and each seat's workbook in LibreOffice or Excel: a seat's workbook holds its orders "
          "and what only it may see.")
    print(f"Start a match of your own: in an empty folder, {program_name()} init {ruleset}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Play the demo match and say where its files are."""
    from sheets_gm.demo import run_demo
    from sheets_gm.engine.registry import UnknownRulesetError, get_ruleset
    from sheets_gm.match.window_match import on_window_sync
    from sheets_gm.sheets.backend import SheetError

    try:
        ruleset = get_ruleset(args.ruleset).traits.name
    except UnknownRulesetError as exc:
        raise UserError(str(exc)) from None
    if on_window_sync(ruleset):
        return run_window(args, ruleset)
    if not getattr(get_ruleset(ruleset), "legacy_sheets", False):
        raise UserError(f"the {ruleset} ruleset has no sheets yet (its sheet adapter is not written): watch its "
                        f"bots play with `sheets-gm simulate {ruleset}`, or run its rules with "
                        f"`sheets-gm scenario tests/scenarios/{ruleset}/`")

    try:
        result = run_demo(args.out, seed=args.seed, max_turns=args.turns or 60)
    except SheetError as exc:
        raise UserError(str(exc)) from None
    print()
    print(f"Result: {result.result}")
    for team, path in result.tree_paths.items():
        print(f"{team}'s tree went: {' → '.join(path)}")
    print(f"The workbook: {result.workbook} (open it in LibreOffice or Excel)")
    print(f"The export (CSV per tab, replay.json, .xlsx): {args.out / 'export'}")
    prog = program_name()
    print(f"Check every roll and state: {prog} verify {args.out / 'export' / 'replay.json'}")
    print(f"Start a match of your own: in an empty folder, {prog} init gvg (then see the GM's guide in README.md)")
    return 0


def register(sub: Any) -> None:
    """Add ``demo`` to the command line."""
    p = command(sub, "demo", run, "play a whole bot match on local workbooks (no account needed)",
                "Bots type their orders into local workbooks' cells as players would; the real sync resolves "
                "every turn. Ends with the result and where the files are. GvG unless RULESET names another game.",
                "sheets-gm demo --out demo-out --seed 7")
    p.add_argument("ruleset", nargs="?", default="gvg", metavar="RULESET", help="the game (default: gvg)")
    p.add_argument("--out", type=Path, default=Path("demo-out"), help="folder for the workbook and the export")
    p.add_argument("--seed", default="1", help="any text; the same seed plays the same match")
    p.add_argument("--turns", type=int, default=None, metavar="N",
                   help="stop after N turns (GvG: the match's turn limit, default 60; other games: N windows)")
