"""``sheets-gm demo [RULESET]``: a whole bot match on local workbooks, no account needed."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, activate_script, command, game_name, program_name
from sheets_gm.engine.words import counted


def run(args: argparse.Namespace) -> int:
    """Play the demo match of the ruleset named (the default game otherwise) and say where its files are."""
    from sheets_gm.demo.match import run_demo
    from sheets_gm.match.config import ConfigError
    from sheets_gm.rulesets.registry import UnknownRulesetError, get_ruleset
    from sheets_gm.running.run import require_sheets
    from sheets_gm.sheets.backend import SheetError

    try:
        ruleset = get_ruleset(args.ruleset).traits.name
    except UnknownRulesetError as exc:
        raise UserError(str(exc)) from None
    try:
        require_sheets(ruleset, f"demo {ruleset}")
        result = run_demo(ruleset, args.out, seed=args.seed, max_windows=args.turns, notices=args.notices)
    except (SheetError, ConfigError) as exc:
        raise UserError(str(exc)) from None
    prog = program_name()
    print()
    print(f"Result after {counted(result.windows, 'window')}: {result.result}")
    for role, path in result.files.items():
        print(f"  {role}: {path}")
    print("Open the board and each seat's workbook in LibreOffice or Excel: a seat's workbook holds its orders "
          "and what only it may see.")
    if result.export is not None:
        print(f"The export (a workbook per spreadsheet, a CSV per tab, replay.json): {result.export}")
        print(f"Check every roll and state: {prog} verify {result.export / 'replay.json'}")
    anywhere = program_name(from_anywhere=True)
    folder = free_folder(Path.cwd(), "my-match")
    print(f"Start a match of your own in an empty folder: mkdir {folder} && cd {folder} && {anywhere} init {ruleset}")
    activate = activate_script()
    if activate is not None:
        print(f"(or once per terminal `source {activate}`, and then type plain sheets-gm)")
    return 0


def free_folder(where: Path, name: str) -> str:
    """``name``, or ``name-2``, ``name-3``… : the first that nothing in ``where`` is called yet, so that the
    ``mkdir`` the demo suggests works after a match was started there with the last suggestion."""
    taken = {p.name for p in where.iterdir()} if where.is_dir() else set()
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}-{n}"
    return candidate


def register(sub: Any) -> None:
    """Add ``demo`` to the command line."""
    from sheets_gm.rulesets.registry import DEFAULT_RULESET

    p = command(sub, "demo", run, "play a whole bot match on local workbooks (no account needed)",
                "Bots type their orders into local workbooks' cells as players would; the real sync resolves "
                f"every window. Ends with the result and where the files are. {DEFAULT_RULESET} unless RULESET "
                "names another game.",
                "sheets-gm demo --out demo-out --seed 7\n         sheets-gm demo winordie --out wod")
    p.add_argument("ruleset", nargs="?", default=DEFAULT_RULESET, metavar="RULESET", type=game_name,
                   help=f"the game (default: {DEFAULT_RULESET})")
    p.add_argument("--out", type=Path, default=Path("demo-out"),
                   help="folder for the workbooks and the export (default: demo-out in this folder; a second demo "
                   "there starts it afresh)")
    p.add_argument("--seed", default="1", help="any text; the same seed plays the same match")
    p.add_argument("--turns", type=int, default=None, metavar="N",
                   help="stop after N windows (default: play to the end)")
    p.add_argument("--notices", action="store_true",
                   help="print the notices a match with [notify] would send after each poll, each with its "
                        "recipient (the chat channel or a seat's e-mail); nothing is sent")
