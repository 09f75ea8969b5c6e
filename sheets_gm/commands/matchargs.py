"""What the match commands share: the ``-c match.toml`` option, opening the match, user errors."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from sheets_gm.commands.base import UserError
from sheets_gm.commands.base import add_config_option as add_config_option  # where every command finds it
from sheets_gm.engine.settings import SettingError
from sheets_gm.init.settle import complete_cut_commands
from sheets_gm.match.config import ConfigError, MatchConfig, load_config
from sheets_gm.match.seat_roster import SeatRosterError
from sheets_gm.running.connect import open_match_sheets, tidy_local_workbooks
from sheets_gm.running.google_sign_in import Access
from sheets_gm.running.run import require_sheets
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.spec import SheetSpecError
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError
from sheets_gm.sync.life.create import SeatsMismatchError
from sheets_gm.sync.match_record import MatchRecordError, ValueTooLongError
from sheets_gm.sync.old_layout import OldLayoutError
from sheets_gm.sync.sheets import MatchSheets

#: Errors whose message already says what to fix: shown as one line, exit code 1.
USER_FIXABLE: tuple[type[Exception], ...] = (
    ConfigError, SheetError, SettingError, MatchRecordError, SeatRosterError, SheetSpecError, SeatsMismatchError,
    BetweenWindowsError, ValueTooLongError,
)


@contextmanager
def user_errors(config: MatchConfig | None = None) -> Iterator[None]:
    """Turn the errors a user can fix into UserError (one message, exit code 1); a match on an old layout is
    named with ``config``'s path in the repair command it gives."""
    try:
        yield
    except OldLayoutError as exc:
        raise UserError(str(exc if config is None else exc.for_config(config.path))) from None
    except USER_FIXABLE as exc:
        raise UserError(str(exc)) from None


def load(args: argparse.Namespace) -> MatchConfig:
    """The match config named by ``-c``."""
    with user_errors():
        config = load_config(args.config)
        require_sheets(config.ruleset, str(config.path))
        return config


def open_match(config: MatchConfig, access: Access = "play", *, writes: bool = True,
               settles: bool | None = None) -> MatchSheets:
    """The configured match's spreadsheets (nothing is read yet); ``access``: what the command does with Google;
    ``writes``: False for a command that only reads (what ``say_tidied`` finds is then named, not mended). A command
    that writes (or ``settles`` a command cut short: export) first completes the files' moves of a repair cut short
    (``repair_prepare``: the command's settle then runs the rest of it again) and a plain init cut short
    (``init_settle``), and says so."""
    with user_errors():
        if writes if settles is None else settles:
            said = complete_cut_commands(config)
            if said:
                print(f"sheets-gm: note: {said}.", file=sys.stderr)
        sheets = open_match_sheets(config, access=access)
        say_tidied(sheets, writes=writes)
    return sheets


def say_tidied(sheets: MatchSheets, *, writes: bool = True) -> None:
    """Put right what a local match's workbooks hold that they must not (``tidy_local_workbooks``: what a cut save
    left, links to other files), and tell the GM (on stderr, so a command's own output stays as it is)."""
    for line in tidy_local_workbooks(sheets, writes=writes):
        print(f"sheets-gm: note: {line}", file=sys.stderr)
