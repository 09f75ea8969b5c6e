"""The cron line of a match: a poll every minute.

An idle poll costs next to nothing (a local one parses no workbook, a Google one asks Drive once
and makes no Sheets request: ``host.polls`` runs each poll behind its gate, ``poll_gate``), so
cron polls every minute and a player sees ✔ or ✘ within a minute of saving.

A GM who polls less often (``--every 5``) gets a line that starts at an offset drawn from the
config file's path (stable: the same file always gets the same minute), so that the matches of
one account do not all poll in the same minute:

>>> cron_schedule(0)
'* * * * *'
>>> cron_schedule(2, period=5)
'2-59/5 * * * *'
"""

from __future__ import annotations

import hashlib
import shlex
import sys
from pathlib import Path

from sheets_gm.match.env_file import env_file_path

#: The notes on polling from cron (MAILTO, --quiet, a log file) shipped with the program: an absolute path, so
#: that a GM who reads it in her match's folder can open it.
CRON_NOTES = Path(__file__).resolve().parent.parent.parent / "scripts" / "cron.txt"

#: Minutes between two polls of a match from cron.
CRON_PERIOD = 1


def cron_offset(config_path: Path, period: int = 5) -> int:
    """The minute (0 to ``period`` - 1) a match's polls start at, from its config file's absolute path."""
    digest = hashlib.sha256(str(config_path.resolve()).encode()).digest()
    return digest[0] % period


def cron_schedule(offset: int, *, period: int = CRON_PERIOD) -> str:
    """The five cron fields: every ``period`` minutes, from minute ``offset`` (every minute: ``* * * * *``)."""
    return "* * * * *" if period == 1 else f"{offset}-59/{period} * * * *"


def cron_program() -> str:
    """This program as cron must start it: an absolute path (cron's PATH is short, its folder not ours)."""
    started = Path(sys.argv[0])
    if started.name == "sheets-gm" and started.exists():
        return shlex.quote(str(started.resolve()))
    return f"{shlex.quote(sys.executable)} -m sheets_gm.cli"


def cron_line(config_path: Path, program: str | None = None, *, period: int = CRON_PERIOD,
              secret_env: bool = False) -> str:
    """The crontab line that syncs this match quietly every ``period`` minutes (cron mails only what it prints:
    a resolved turn, a warning, a failure, a channel of the notices that fails); ``program`` defaults to this
    one, by its absolute path. ``secret_env``: the config names secrets by environment variable, which cron's
    bare environment lacks, so the line reads them from the match's environment file (``match.env_file``) when
    there is one: a file the GM never wrote (her secrets in the host's file, which every command reads too) is
    not named, since the line would name a file that does not exist."""
    folder = config_path.resolve().parent
    schedule = cron_schedule(cron_offset(config_path, period) if period > 1 else 0, period=period)
    env = f" --env-file {shlex.quote(f'.sheets-gm/{config_path.stem}.env')}" \
        if secret_env and env_file_path(config_path).exists() else ""
    return (f"{schedule} cd {shlex.quote(str(folder))} && "
            f"{program or cron_program()} sync -c {shlex.quote(config_path.name)} --quiet{env}")


def cron_notes_pointer() -> str:
    """Where a GM reads more on cron, as a path that opens from any folder: the shipped notes, or the
    guide's section when this copy of the program has no ``scripts`` folder."""
    if CRON_NOTES.exists():
        return str(CRON_NOTES)
    return "docs/gm-guide.md of sheets-gm, \"3. Schedule the sync\""
