"""A write that a player's save raced: made again from a fresh read (``sheets/guard.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sheets_gm.sheets.backend import SavedMeanwhileError, SheetError

#: How many times a poll or a GM's command is made again when a player saves a spreadsheet between its read and its
#: write.
SAVE_RACE_ATTEMPTS = 4

T = TypeVar("T")


def again_if_saved(attempt: Callable[[], T], what: str) -> T:
    """``attempt`` (a GM's command: read, then a guarded write) made again from a fresh read while a player's save
    races its write (SavedMeanwhileError: nothing was written over her save), so that the command reads what she
    saved and keeps it; SheetError naming ``what`` after :data:`SAVE_RACE_ATTEMPTS` races in a row."""
    for tried in range(1, SAVE_RACE_ATTEMPTS + 1):
        try:
            return attempt()
        except SavedMeanwhileError as exc:
            if tried == SAVE_RACE_ATTEMPTS:
                raise SheetError(f"{exc}, {tried} times in a row: {what} was not done; run it again") from None
    raise AssertionError("unreachable")  # (the loop returns or raises)
