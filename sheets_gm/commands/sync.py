"""``sheets-gm sync``, ``resolve`` and ``status``: their command line (what they do is in ``polls``).

This module is all that an idle ``sync`` from cron imports besides the poll gate: when no workbook
changed since the last poll and no deadline is due, the poll ends here, before any game, sheet or
config code loads (``sheets_gm.running.idle_poll`` decides).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sheets_gm.commands import base
from sheets_gm.commands.base import TYPE_CHECKING, add_config_option, command

if TYPE_CHECKING:
    import argparse
    from typing import Any

#: The options of ``sync`` that cron's line may hold and :func:`idle_sync_by_hand` reads without ``argparse``
#: (each of them once), by whether they take a value.
_BY_HAND = {"-c": True, "--config": True, "--env-file": True, "--quiet": False}
_SAME = {"-c": "--config", "--config": "-c"}


def run_sync(args: argparse.Namespace) -> int:
    """One poll (for cron), or ``--watch``; an idle local poll ends at the gate (see the module notes), unless the
    open window's reminder fell due (then it reads, to know whom to remind); notices waiting for a retry are
    sent then without a read. ``--env-file`` (cron's line) is read first: the notices' secrets."""
    if args.env_file is not None:
        _apply_env_file(args.env_file, quiet=args.quiet)
    if not args.watch:
        from sheets_gm.running.idle_poll import idle_local_sync

        idle = idle_local_sync(args.config, base.clock(), quiet=args.quiet)
        if idle is not None:
            if idle.state.warning:
                print(idle.state.warning)
            if not args.quiet:
                print(idle.state.summary)
            if idle.letters_waiting:  # letters waiting for a retry: sent without reading any spreadsheet
                from sheets_gm.commands import polls

                polls.send_waiting_notices(args)
            return 0
    from sheets_gm.commands import polls

    return polls.run_sync(args)


def idle_sync_by_hand(words: Sequence[str]) -> int | None:
    """Cron's idle poll of a local match before ``argparse`` loads: when ``words`` is a plain ``sync`` line (its
    options among ``--debug`` before it, ``-c``/``--config``, ``--quiet`` and ``--env-file``, each once, written
    out in full) and the poll may stay idle with no letter waiting, print what :func:`run_sync` would and return
    0; else None, and the command line is parsed as always (which decides again)."""
    options = _sync_options(words)
    if options is None:
        return None
    config = Path(options.get("--config", options.get("-c", "match.toml")))
    quiet = "--quiet" in options
    from sheets_gm.running.idle_poll import idle_local_sync

    idle = idle_local_sync(config, base.clock(), quiet=quiet)
    if idle is None or idle.letters_waiting:
        return None
    if "--env-file" in options:
        _apply_env_file(Path(options["--env-file"]), quiet=quiet)
    if idle.state.warning:
        print(idle.state.warning)
    if not quiet:
        print(idle.state.summary)
    return 0


def _sync_options(words: Sequence[str]) -> dict[str, str] | None:
    """The options of the plain ``sync`` line ``words`` by name (see :func:`idle_sync_by_hand`), else None."""
    rest = list(words)
    if rest[:1] == ["--debug"]:
        rest = rest[1:]
    if rest[:1] != ["sync"]:
        return None
    options: dict[str, str] = {}
    rest = rest[1:]
    while rest:
        word = rest.pop(0)
        name, equals, value = word.partition("=") if word.startswith("--") else (word, "", "")
        takes_value = _BY_HAND.get(name)
        if takes_value is None or name in options or _SAME.get(name) in options:
            return None
        if takes_value and not equals and rest:
            value = rest.pop(0)
        if takes_value != bool(value) or (not takes_value and equals) or value.startswith("-"):
            return None
        options[name] = value
    return options


def _apply_env_file(path: Path, *, quiet: bool) -> None:
    """Read ``--env-file``: the notices' secrets; a file that cannot be read is a warning (unless ``quiet``)."""
    from sheets_gm.match.env_file import EnvFileError, apply_env_file

    try:
        apply_env_file(path)
    except EnvFileError as exc:  # the poll goes on; the notices' channels say what they lack (once, --quiet)
        if not quiet:
            print(f"Warning: {exc}")


def run_resolve(args: argparse.Namespace) -> int:
    """``resolve``: see ``polls.run_resolve``."""
    from sheets_gm.commands import polls

    return polls.run_resolve(args)


def run_status(args: argparse.Namespace) -> int:
    """``status``: see ``polls.run_status``."""
    from sheets_gm.commands import polls

    return polls.run_status(args)


def register(sub: Any) -> None:
    """Add ``sync``, ``resolve`` and ``status`` to the command line."""
    p = command(sub, "sync", run_sync, "poll the match once (for cron), or keep polling with --watch",
                "Read every order cell, answer each player in their feedback cell, and resolve the open window "
                "when every seat it waits for is ready, a Go box asks for it, or the deadline has passed; with a "
                "[notify] table, tell the players by e-mail and chat (docs/notices.md). With --watch, poll again and "
                "again, backing off while nothing changes, until the match ends or Ctrl-C.",
                "sheets-gm sync -c match.toml --quiet   (cron: the line init and doctor print)")
    add_config_option(p)
    p.add_argument("--watch", action="store_true", help="keep polling until the match ends or Ctrl-C")
    p.add_argument("--interval", type=_positive, metavar="S", help="seconds between polls (default: [sync] interval)")
    p.add_argument("--quiet", action="store_true", help="print only when a turn is resolved (cron mails less), "
                                                        "and once when a channel of the notices fails or works again")
    p.add_argument("--env-file", type=Path, metavar="FILE",
                   help="read NAME=value lines into the environment first: the notices' secrets under cron (the "
                        "crontab line init and doctor print names the match's .sheets-gm/<config name>.env)")
    p = command(sub, "resolve", run_resolve,
                "resolve the open window now (--force --window KEY --step N: even if not every seat is ready)",
                "Poll the match and resolve the open window if it is due; with --force --window KEY, resolve it "
                "anyway with the orders in the cells now (missing orders: those units do nothing). The window and its "
                "step are checked under the sync lock: if another sync resolved them meanwhile, nothing is forced.",
                "sheets-gm resolve -c match.toml --force --window 7 --step 9")
    add_config_option(p)
    p.add_argument("--force", action="store_true", help="resolve even if not every seat is ready (needs --window)")
    p.add_argument("--window", metavar="KEY",
                   help="the window to force, as status names it (7, or 3/equip): the open one")
    p.add_argument("--turn", type=int, metavar="N",
                   help="the same as --window N, for a game whose windows are its turns (GvG: 7)")
    p.add_argument("--step", type=int, metavar="N",
                   help="the window's step, as status names it (window 1, step 3): a window that resolves in steps "
                        "(Win or Die's turn) is never forced a step further than you saw; without it, --window "
                        "forces only a window no step of which was resolved yet")
    p = command(sub, "status", run_status, "window, deadline, who is not ready, what was rejected and why",
                "Read the match and say where it stands, and which notices wait to be sent and why; writes nothing.",
                "sheets-gm status -c match.toml")
    add_config_option(p)
    p.add_argument("--untyped", action="store_true",
                   help="name every row nothing is typed in yet (a seat with many is counted, its first few named)")


def _positive(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the interval must be more than 0 seconds")
    return value
