"""The ``sheets-gm`` command: one subcommand per job a GM does (each in ``sheets_gm.commands``),
and a group ``sheets-gm <ruleset> TOOL`` for each ruleset whose package has its own tools.

Exit codes: 0 success, 1 a problem the user can fix (one clear message), 2 bad usage.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from collections.abc import Callable, Sequence
from importlib import import_module

from sheets_gm import __version__
from sheets_gm.commands.base import TYPE_CHECKING, UsageError, UserError, did_you_mean, with_config_named
from sheets_gm.commands.sync import idle_sync_by_hand

if TYPE_CHECKING:  # argparse is imported where a command line is parsed: cron's idle sync never parses one
    import argparse
    from typing import Any

#: Each subcommand module of ``sheets_gm.commands`` with the commands its ``register`` adds, in the
#: order ``--help`` lists them. A command line imports the module of the command it runs and no
#: other (the idle sync that cron starts every minute pays for nothing else); ``--help`` imports all.
COMMANDS: dict[str, tuple[str, ...]] = {
    "init": ("init",),
    "sync": ("sync", "resolve", "status"),
    "serve": ("serve",),
    "export": ("export",),
    "verify": ("verify",),
    "adjust": ("adjust",),
    "undo": ("undo",),
    "doctor": ("doctor",),
    "notices": ("notices",),
    "repair": ("repair",),
    "demo": ("demo",),
    "scenario": ("scenario",),
    "simulate": ("simulate",),
    "new_game": ("new-game",),
}


def _command_module(word: str | None) -> str | None:
    """The module of ``sheets_gm.commands`` that adds the command ``word`` (None: not a built-in command)."""
    return next((module for module, words in COMMANDS.items() if word in words), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand and its example, and a group per ruleset with tools.

    A built-in command's parser holds that command alone (its module is the only one imported);
    ``--help``, a mistyped command and a ruleset's group get every command. A group's tools module
    is imported only when ``argv`` names that group: elsewhere the group is listed by name."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="sheets-gm",
        description="A game-master companion that runs turn-based games through a spreadsheet.",
    )
    parser.add_argument("--version", action="version", version=f"sheets-gm {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    chosen = _command_word(sys.argv[1:] if argv is None else argv)
    module_name = _command_module(chosen)
    words = sys.argv[1:] if argv is None else list(argv)
    for name in COMMANDS if module_name is None else (module_name,):
        register: Callable[..., None] = import_module(f"sheets_gm.commands.{name}").register
        if name == module_name == "adjust":
            register(sub, words)  # the options of the config's game only (see adjust.rulesets_named)
        else:
            register(sub)
    if module_name is not None:
        return parser
    from sheets_gm.rulesets.registry import WITH_COMMANDS

    for name in sorted(WITH_COMMANDS):
        if name not in sub.choices:
            _add_tools_group(sub, name, name == chosen)
    if chosen is not None and chosen not in sub.choices:
        raise UsageError(f"unknown command {chosen!r}{did_you_mean(chosen, list(sub.choices))}; the commands: "
                         f"{', '.join(sub.choices)} (sheets-gm --help says what each does)")
    return parser


def _command_word(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option (no global option takes a value)."""
    return next((a for a in argv if not a.startswith("-")), None)


def _add_tools_group(sub: Any, name: str, mounted: bool) -> None:
    """``sheets-gm <name> TOOL``: the game's own commands (its record's ``commands``), mounted only when ``mounted``
    (the command line names the game: elsewhere the group is listed by name and no game is imported)."""
    import argparse

    summary = f"the {name} ruleset's own tools (sheets-gm {name} --help lists them)"
    group: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=f"Tools of the {name} ruleset.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    tools = group.add_subparsers(dest="tool", metavar="TOOL")
    tools.required = True
    if not mounted:
        return
    from sheets_gm.commands.base import game_command
    from sheets_gm.rulesets.registry import get_game

    for tool in get_game(name).commands:
        game_command(tools, tool)
    examples = [parser.epilog.removeprefix("example: ") for parser in tools.choices.values() if parser.epilog]
    group.epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples) if examples else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code. Cron's idle sync of a local match ends before any parsing
    (``commands.sync.idle_sync_by_hand``): only a line it cannot tell alone, or a poll that reads, is parsed."""
    args: argparse.Namespace | None = None
    _exit_without_sweep()
    try:
        idle = idle_sync_by_hand(sys.argv[1:] if argv is None else argv)
        if idle is not None:
            return idle
        args = build_parser(argv).parse_args(argv)
        func: Callable[[argparse.Namespace], int] = args.func
        return func(args)
    except UserError as exc:
        if (args.debug if args is not None else not isinstance(exc, UsageError)):
            raise
        print(f"sheets-gm: {with_config_named(str(exc), getattr(args, 'config', None))}", file=sys.stderr)
        return 2 if isinstance(exc, UsageError) else 1
    except KeyboardInterrupt:
        print("sheets-gm: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _reader_went_away()


def _exit_without_sweep() -> None:
    """At the process's exit, every object still alive (the libraries' modules, the caches, a simulation's records) is
    moved out of the cycle collector's reach (``gc.freeze``) before the interpreter's last collection walks them all:
    the process is ending, so that walk frees nothing anyone waits for, and it was a third of a second of
    ``sheets-gm simulate``'s end when it drew its chart with matplotlib. Registered once per process (a test calls
    ``main`` many times: unregistered first); atexit's other functions, and the modules' teardown, run as before."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def _reader_went_away() -> int:
    """The output's reader stopped reading (``sheets-gm status | head -1``): not an error.

    Standard output is pointed at /dev/null so that Python's flush at exit does not complain
    about the closed pipe either (the recipe of the ``signal`` module's documentation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


def entry() -> int:
    """The ``sheets-gm`` program: :func:`main`, and an error nobody foresaw said in words instead of a traceback,
    the traceback kept in a file for the report (``--debug`` shows it instead). Tests call :func:`main`, which
    lets such an error through, as a crash that kills the process would."""
    try:
        return main()
    except Exception as exc:  # the last line of defence: every error the commands did not name
        if "--debug" in sys.argv[1:]:
            raise
        print(unexpected_error_words(exc, _keep_traceback(exc)), file=sys.stderr)
        return 1


def unexpected_error_words(exc: BaseException, kept: str) -> str:
    """What a command that stopped on ``exc`` says, its traceback kept at ``kept`` ('' when it could not be).

    >>> print(unexpected_error_words(ValueError("bad"), "/tmp/x.txt"))  # doctest: +NORMALIZE_WHITESPACE
    sheets-gm: stopped on an error it did not expect (ValueError: bad). What it wrote is whole: each change is
    saved entirely or not at all; if the match looks wrong, `sheets-gm repair` puts it together again. Run the
    command again; if it stops again, send /tmp/x.txt (the details) with what you ran.
    """
    where = f"send {kept} (the details)" if kept else "run it with --debug and send what it prints"
    return (f"sheets-gm: stopped on an error it did not expect ({type(exc).__name__}: {exc}). What it wrote is "
            "whole: each change is saved entirely or not at all; if the match looks wrong, `sheets-gm repair` puts "
            f"it together again. Run the command again; if it stops again, {where} with what you ran.")


def _keep_traceback(exc: BaseException) -> str:
    """The traceback of ``exc`` in a file of its own under the user's state folder; its path ('' if not written)."""
    import tempfile
    import traceback
    from datetime import UTC, datetime
    from pathlib import Path

    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    text = f"sheets-gm {__version__}: {' '.join(sys.argv)}\n" + "".join(traceback.format_exception(exc))
    for folder in (Path(base) / "sheets-gm", Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"sheets-gm-error-{stamp}-{os.getpid()}.txt"
            path.write_text(text, encoding="utf-8")
            return str(path)
        except OSError:
            continue
    return ""


if __name__ == "__main__":
    sys.exit(entry())
