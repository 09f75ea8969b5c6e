"""The ``sheets-gm`` command: one subcommand per job a GM does.

Exit codes: 0 success, 1 a problem the user can fix (one clear message), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sheets_gm import __version__


class UserError(Exception):
    """A problem the user can fix; printed as one message, exit code 1."""


def _cmd_scenario(args: argparse.Namespace) -> int:
    from sheets_gm.scenario.runner import run_paths

    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        raise UserError(f"no such file or folder: {', '.join(missing)}")
    passed, failed = run_paths(args.paths)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


def _cmd_demo(args: argparse.Namespace) -> int:
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
    print(f"Check every roll and state: sheets-gm verify {args.out / 'export' / 'replay.json'}")
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    import json

    from sheets_gm.sync.export import ReplayError, replay_states

    try:
        doc = json.loads(args.replay.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"no such file: {args.replay}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{args.replay} is not a readable JSON replay ({exc})") from None
    if not isinstance(doc, dict):
        raise UserError(f"{args.replay} is not a sheets-gm replay")
    try:
        check = replay_states(doc)
    except ReplayError as exc:
        raise UserError(f"{args.replay}: {exc}") from None
    if check.difference is not None:
        print(f"MISMATCH after {check.turns} turns: {check.difference}")
        return 1
    print(f"OK: {check.turns} turns and {check.rolls} dice replayed from the seed; every state matches.")
    return 0


Handler = Callable[[argparse.Namespace], int]


def _command(sub: Any, name: str, func: Handler, summary: str, description: str,
             example: str) -> argparse.ArgumentParser:
    """Declare a subcommand whose --help ends with an example."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=description, epilog=f"example: {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(func=func)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand and its example."""
    parser = argparse.ArgumentParser(
        prog="sheets-gm",
        description="A game-master companion that runs turn-based games through a spreadsheet.",
    )
    parser.add_argument("--version", action="version", version=f"sheets-gm {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = _command(sub, "scenario", _cmd_scenario, "run rules scenarios (YAML files or folders)",
                 "Run rules scenario files; print one line per scenario; exit 1 if any fails.",
                 "sheets-gm scenario tests/scenarios/gvg/")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")

    p = _command(sub, "demo", _cmd_demo, "play a whole GvG match on a local workbook (no account needed)",
                 "Two bot teams type their orders into a local workbook's cells; the real sync resolves "
                 "every turn. Ends with the winner, the path of each tree and where the files are.",
                 "sheets-gm demo --out demo-out --seed 7")
    p.add_argument("--out", type=Path, default=Path("demo-out"), help="folder for the workbook and the export")
    p.add_argument("--seed", default="1", help="any text; the same seed plays the same match")
    p.add_argument("--turns", type=int, default=60, help="the turn limit (default 60)")

    p = _command(sub, "verify", _cmd_verify, "replay a match from its JSON export and check every roll and state",
                 "Recompute every turn of an exported match from its seed and orders; exit 1 on any mismatch.",
                 "sheets-gm verify demo-out/export/replay.json")
    p.add_argument("replay", type=Path, metavar="REPLAY.json")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except UserError as exc:
        if args.debug:
            raise
        print(f"sheets-gm: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("sheets-gm: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
