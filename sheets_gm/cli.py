"""The ``sheets-gm`` command: one subcommand per job a GM does.

Exit codes: 0 success, 1 a problem the user can fix (one clear message), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

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

    p = sub.add_parser(
        "scenario",
        help="run rules scenarios (YAML files or folders)",
        description="Run rules scenario files; print one line per scenario; exit 1 if any fails.",
        epilog="example: sheets-gm scenario tests/scenarios/gvg/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p.set_defaults(func=_cmd_scenario)
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
