"""The test game's own tools: ``sheets-gm toolgame shout WORD`` and one that fails as a user error."""

from __future__ import annotations

import argparse
from typing import Any

from sheets_gm.commands.base import UserError, command


def _shout(args: argparse.Namespace) -> int:
    print(f"{args.word.upper()}!")
    return 0


def _refuse(args: argparse.Namespace) -> int:
    raise UserError(f"cannot refuse {args.what!r}; try 'nothing'")


def register(sub: Any) -> None:
    """Add the test game's tools."""
    p = command(sub, "shout", _shout, "print a word in capitals", "Print WORD in capitals.",
                "sheets-gm toolgame shout hello")
    p.add_argument("word")
    p = command(sub, "refuse", _refuse, "always fail", "Fail with a user error.",
                "sheets-gm toolgame refuse this")
    p.add_argument("what")
