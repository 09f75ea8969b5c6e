"""``sheets-gm demo``: a whole GvG match on a local workbook, no account needed."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, command, program_name


def run(args: argparse.Namespace) -> int:
    """Play the demo match and say where its files are."""
    from sheets_gm.demo import run_demo
    from sheets_gm.sheets.backend import SheetError

    try:
        result = run_demo(args.out, seed=args.seed, max_turns=args.turns)
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
    p = command(sub, "demo", run, "play a whole GvG match on a local workbook (no account needed)",
                "Two bot teams type their orders into a local workbook's cells; the real sync resolves "
                "every turn. Ends with the winner, the path of each tree and where the files are.",
                "sheets-gm demo --out demo-out --seed 7")
    p.add_argument("--out", type=Path, default=Path("demo-out"), help="folder for the workbook and the export")
    p.add_argument("--seed", default="1", help="any text; the same seed plays the same match")
    p.add_argument("--turns", type=int, default=60, help="the turn limit (default 60)")
