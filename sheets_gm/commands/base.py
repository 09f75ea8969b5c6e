"""What every subcommand shares: the user-error type and the way a subcommand is declared.

Cron's idle sync loads this module before it knows whether it parses its command line: ``argparse``, ``typing``,
``shlex`` and ``shutil`` are imported where they are used, not here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy and ruff know the name)
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from sheets_gm.rulesets.game_record import GameCommand


class UserError(Exception):
    """A problem the user can fix; printed as one message, exit code 1."""


class UsageError(UserError):
    """A mistyped command that only the command's own data can tell (a bot the ruleset has not); exit code 2."""


Handler = Callable[["argparse.Namespace"], int]


def clock() -> datetime:
    """Now, for every poll command (the tests set it: no test waits for a deadline or a Retry-After)."""
    return datetime.now(UTC)


def command(sub: Any, name: str, func: Handler, summary: str, description: str,
            example: str) -> argparse.ArgumentParser:
    """Declare a subcommand whose --help ends with an example."""
    import argparse

    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=description, epilog=f"example: {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(func=func)
    return parser


def game_command(sub: Any, tool: GameCommand) -> argparse.ArgumentParser:
    """Declare one of a game's own commands (``rulesets.game_record.GameCommand``) as a subcommand: its problems, raised
    as ``GameCommandError`` by the game, become a UserError (one message, exit code 1)."""
    from sheets_gm.rulesets.game_record import GameCommandError

    run = tool.run

    def handler(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except GameCommandError as exc:
            raise UserError(str(exc)) from None

    parser = command(sub, tool.name, handler, tool.summary, tool.description, tool.example)
    tool.arguments(parser)
    return parser


#: The stand-in for the config's path in the messages of the layers that do not know it (``sync``'s "run
#: sheets-gm repair -c MATCH.toml": ``sheets.adapter.CONFIG_STAND_IN``, not imported here to keep a
#: command's start light); a command names the real one before it prints them.
CONFIG_STAND_IN = "MATCH.toml"


def game_name(text: str) -> str:
    """An argparse type: the name of a registered game (lower case), or an error (exit code 2) naming the nearest
    and every game this build knows."""
    import argparse

    from sheets_gm.rulesets.registry import ruleset_names

    name = text.strip().lower()
    names = ruleset_names()
    if name in names:
        return name
    raise argparse.ArgumentTypeError(f"unknown game {text!r}{did_you_mean(name, names)}; this build knows: "
                                     f"{', '.join(names)}")


def did_you_mean(word: str, known: Sequence[str]) -> str:
    """`` (did you mean X?)`` for the known word nearest ``word``, or '' when none is near."""
    import difflib

    near = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f" (did you mean {near[0]}?)" if near else ""


def whole_number(option: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, or an error naming ``option`` and the range."""

    def parse(text: str) -> int:
        import argparse

        try:
            value = int(text.strip().replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} takes a whole number from {low} to {high:,}; "
                                             f"got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{option} takes a whole number from {low} to {high:,}; got {value}")
        return value

    return parse


def seconds(option: str, low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``low`` to ``high``, or an error naming ``option`` and the range."""

    def parse(text: str) -> float:
        import argparse

        try:
            value = float(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} takes a number of seconds from {low:g} to {high:g}; "
                                             f"got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{option} takes a number of seconds from {low:g} to {high:g}; "
                                             f"got {value:g}")
        return value

    return parse


def with_config_named(message: str, config: object) -> str:
    """``message`` with its commands' ``-c MATCH.toml`` naming ``config``, the file the GM gave (as she typed
    it), so that the command it suggests runs as printed; unchanged when there is no config.

    >>> with_config_named("run sheets-gm repair -c MATCH.toml, which…", Path("friday.toml"))
    'run sheets-gm repair -c friday.toml, which…'
    >>> with_config_named("run `sheets-gm repair -c MATCH.toml`", Path("my matches/a.toml"))
    "run `sheets-gm repair -c 'my matches/a.toml'`"
    """
    if not isinstance(config, Path):
        return message
    import shlex

    return message.replace(f"-c {CONFIG_STAND_IN}", f"-c {shlex.quote(str(config))}")


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """The ``-c/--config`` option every match command takes."""
    parser.add_argument("-c", "--config", type=Path, default=Path("match.toml"), metavar="MATCH.toml",
                        help="the match config file (default: match.toml in this folder)")


def _as_typed(path: Path) -> str:
    """``path`` relative to the working folder when it is below it (as a person would type it)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def program_name(*, from_anywhere: bool = False) -> str:
    """How to type this program again so that it works as printed: ``sheets-gm`` when that is on
    the PATH and is this program, else the path it was started by (e.g. ``.venv/bin/sheets-gm``).

    ``from_anywhere``: a command to be typed in another folder (``init`` in a new, empty one), so a
    path is absolute."""
    started = Path(sys.argv[0])
    typed = (lambda path: os.path.abspath(path)) if from_anywhere else _as_typed
    if started.name != "sheets-gm":  # python -m sheets_gm.cli, or a test runner
        return f"{typed(Path(sys.executable))} -m sheets_gm.cli"
    import shutil

    found = shutil.which("sheets-gm")
    if found is not None and started.exists() and os.path.samefile(found, started):
        return "sheets-gm"
    return typed(started)


def activate_script() -> Path | None:
    """The virtual environment's ``activate`` script beside the program when ``sheets-gm`` is not on
    the PATH (``source`` it to type plain ``sheets-gm``); None when it is, or there is none."""
    started = Path(sys.argv[0])
    if started.name != "sheets-gm" or program_name() == "sheets-gm":
        return None
    script = Path(os.path.abspath(started)).with_name("activate")
    return script if script.is_file() else None
