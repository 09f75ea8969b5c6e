"""The toy game's record with two tools of its own (``sheets-gm toolgame shout WORD`` and one that fails as a user
error), for ``tests/commands/test_ruleset_tools.py``.

It exists because the toy game (``tests/toygame``), the example to copy, keeps to what every game needs and has no
``commands`` part: this adds one to it, as ``sheets_gm/rulesets/wesnoth/commands.py`` does for a real game."""

from __future__ import annotations

import argparse
from dataclasses import replace

from sheets_gm.rulesets.game_record import GameCommand, GameCommandError
from tests.toygame.game import GAME as TOY_GAME


def _shout(args: argparse.Namespace) -> int:
    print(f"{args.word.upper()}!")
    return 0


def _refuse(args: argparse.Namespace) -> int:
    raise GameCommandError(f"cannot refuse {args.what!r}; try 'nothing'")


def _word(p: argparse.ArgumentParser) -> None:
    p.add_argument("word")


def _what(p: argparse.ArgumentParser) -> None:
    p.add_argument("what")


GAME = replace(TOY_GAME, commands=(
    GameCommand("shout", "print a word in capitals", "Print WORD in capitals.", "sheets-gm toolgame shout hello",
                _word, _shout),
    GameCommand("refuse", "always fail", "Fail with a user error.", "sheets-gm toolgame refuse this", _what, _refuse),
))
