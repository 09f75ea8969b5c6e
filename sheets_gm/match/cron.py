"""The cron line of a match: every five minutes, at a minute of its own.

Every match of one Google account polled at ``*/5`` would poll in the same minute and share
the account's per-minute quota at the worst moment. A match's line starts at an offset
drawn from its config file's path (stable: the same file always gets the same minute), so
the matches of one GM spread over the five minutes.

>>> cron_schedule(2)
'2-59/5 * * * *'

Ten matches of four spreadsheets each, on one account: 40 reads in one minute at ``*/5``,
8 in the busiest minute once spread:

>>> busiest_minute_reads(4, 10, spread=False), busiest_minute_reads(4, 10)
(40, 8)
"""

from __future__ import annotations

import hashlib
import math
import shlex
import sys
from pathlib import Path

#: Minutes between two polls of a match from cron.
CRON_PERIOD = 5


def cron_offset(config_path: Path) -> int:
    """The minute (0 to CRON_PERIOD - 1) a match's polls start at, from its config file's absolute path."""
    digest = hashlib.sha256(str(config_path.resolve()).encode()).digest()
    return digest[0] % CRON_PERIOD


def cron_schedule(offset: int) -> str:
    """The five cron fields: every CRON_PERIOD minutes, from minute ``offset``."""
    return f"{offset}-59/{CRON_PERIOD} * * * *"


def cron_program() -> str:
    """This program as cron must start it: an absolute path (cron's PATH is short, its folder not ours)."""
    started = Path(sys.argv[0])
    if started.name == "sheets-gm" and started.exists():
        return shlex.quote(str(started.resolve()))
    return f"{shlex.quote(sys.executable)} -m sheets_gm.cli"


def cron_line(config_path: Path, program: str | None = None) -> str:
    """The crontab line that syncs this match quietly (cron mails only what it prints: a resolved
    turn, a warning or a failure); ``program`` defaults to this one, by its absolute path."""
    folder = config_path.resolve().parent
    return (f"{cron_schedule(cron_offset(config_path))} cd {shlex.quote(str(folder))} && "
            f"{program or cron_program()} sync -c {shlex.quote(config_path.name)} --quiet")


def busiest_minute_reads(spreadsheets: int, matches: int, *, spread: bool = True) -> int:
    """Read requests in the busiest minute of ``matches`` matches polled by cron every CRON_PERIOD
    minutes: spread over the period by their offsets (at best evenly), or all in one minute."""
    return spreadsheets * (math.ceil(matches / CRON_PERIOD) if spread else matches)
