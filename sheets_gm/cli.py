"""The ``sheets-gm`` command: one subcommand per job a GM does (each in ``sheets_gm.commands``).

Exit codes: 0 success, 1 a problem the user can fix (one clear message), 2 bad usage.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from sheets_gm import __version__
from sheets_gm.commands import adjust, demo, doctor, export, init, repair, scenario, simulate, sync, undo, verify
from sheets_gm.commands.base import UsageError, UserError

#: Each subcommand module's ``register``, in the order ``--help`` lists them.
REGISTER: tuple[Callable[[Any], None], ...] = (
    init.register,
    sync.register,
    export.register,
    verify.register,
    adjust.register,
    undo.register,
    doctor.register,
    repair.register,
    demo.register,
    scenario.register,
    simulate.register,
)


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
    for register in REGISTER:
        register(sub)
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
        return 2 if isinstance(exc, UsageError) else 1
    except KeyboardInterrupt:
        print("sheets-gm: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _reader_went_away()


def _reader_went_away() -> int:
    """The output's reader stopped reading (``sheets-gm status | head -1``): not an error.

    Standard output is pointed at /dev/null so that Python's flush at exit does not complain
    about the closed pipe either (the recipe of the ``signal`` module's documentation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
