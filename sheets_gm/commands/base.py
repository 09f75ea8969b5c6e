"""What every subcommand shares: the user-error type and the way a subcommand is declared."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


class UserError(Exception):
    """A problem the user can fix; printed as one message, exit code 1."""


class UsageError(UserError):
    """A mistyped command that only the command's own data can tell (a bot the ruleset has not); exit code 2."""


Handler = Callable[[argparse.Namespace], int]


def command(sub: Any, name: str, func: Handler, summary: str, description: str,
            example: str) -> argparse.ArgumentParser:
    """Declare a subcommand whose --help ends with an example."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=description, epilog=f"example: {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(func=func)
    return parser
