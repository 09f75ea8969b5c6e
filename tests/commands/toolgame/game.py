"""The test game's record: the race's, with two tools of its own (``sheets-gm toolgame shout WORD`` and one that
fails as a user error)."""

from __future__ import annotations

import argparse
from dataclasses import replace

from sheets_gm.rulesets.game import GameCommand, GameCommandError
from tests.sync.race_game import GAME as RACE_GAME


def _shout(args: argparse.Namespace) -> int:
    print(f"{args.word.upper()}!")
    return 0


def _refuse(args: argparse.Namespace) -> int:
    raise GameCommandError(f"cannot refuse {args.what!r}; try 'nothing'")


def _word(p: argparse.ArgumentParser) -> None:
    p.add_argument("word")


def _what(p: argparse.ArgumentParser) -> None:
    p.add_argument("what")


GAME = replace(RACE_GAME, commands=(
    GameCommand("shout", "print a word in capitals", "Print WORD in capitals.", "sheets-gm toolgame shout hello",
                _word, _shout),
    GameCommand("refuse", "always fail", "Fail with a user error.", "sheets-gm toolgame refuse this", _what, _refuse),
))
