"""A View tab's log lines that the replay cannot recompute, taken back from the public Log.

A seat's View log lists the public lines that concern it (``writes.view_events``) beside its private ones. When a
View tab is lost, ``repair`` recomputes its lines from the replay, which has neither the lines the sync writes of
itself (a seat handed to a bot) nor those of a window an undo took back. Those that were public are still in the
board's Log: a Log line the replay does not recompute, and that names the seat or one of its subjects (its units,
players, armies: ``writes.seat_names``), is put back in the View, in the Log's order among the recomputed lines.
The GM's own lines (an undo's, a seat handed to a bot) are in every seat's View, as the GM's events are. A line
that was private to the seat exists nowhere else: it stays counted as missing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from sheets_gm.engine.events import kind_words
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sheets.tables import text_of
from sheets_gm.sync.life.own_lines import SyncEvent

#: The sync's own lines no View lists: a deadline change's.
NO_SEAT_KINDS = frozenset(kind_words(k.value) for k in (SyncEvent.DEADLINES,))
#: The sync's own lines every View lists, as the GM's events (``gm_events.BY_GM``): an undo's, a seat handed to a bot.
EVERY_SEAT_KINDS = frozenset(kind_words(k.value) for k in (SyncEvent.UNDO, SyncEvent.BOT))

Key = tuple[str, str, str]  # a log line's turn, kind and sentence, as text


def _key(row: Sequence[object]) -> Key:
    cells = [text_of(v) for v in (*row[:3], "", "", "")[:3]]  # type: ignore[arg-type]
    return cells[0], cells[1], cells[2]


def names_any(text: str, names: frozenset[str]) -> bool:
    """Whether ``text`` names one of ``names`` as a word of its own ("Ann" in "Ann-R1 moves", not in "Anna").

    >>> names_any("GM hands Ann to the skirmisher bot", frozenset({"Ann"})), names_any("Anna rests", frozenset({"Ann"}))
    (True, False)
    """
    return any(re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", text) for n in names if n)


def log_only_lines(log: Grid, replayed_public: Grid, names: frozenset[str], never: frozenset[str] = frozenset(),
                   taken_back: Mapping[int, bool] | None = None, first: int = 0) -> list[tuple[int, list[CellValue]]]:
    """The Log's lines (with their index) that the replay's public lines do not account for and that name one of
    ``names`` or are the GM's own (``EVERY_SEAT_KINDS``): the public lines of the seat's View the replay cannot
    recompute. A line of a kind in ``never`` (in words, as the Log writes it) is in no seat's View, whoever it
    names. A row of a window an undo took back whose listing the undo kept (``taken_back``: by Log row index,
    ``log``'s first row being ``first``; ``undone_views``) is the seat's exactly when the listing says so."""
    known = Counter(_key(r) for r in replayed_public)
    out: list[tuple[int, list[CellValue]]] = []
    for i, row in enumerate(log):
        key = _key(row)
        if not any(key):
            continue
        listed = (taken_back or {}).get(first + i)
        if listed is not None:  # the replay has none of that window's lines: the undo said which were the seat's
            if listed:
                out.append((i, list(row[:3])))
        elif known[key] > 0:
            known[key] -= 1
        elif key[1] not in never and (key[1] in EVERY_SEAT_KINDS or names_any(key[2], names)):
            out.append((i, list(row[:3])))
    return out


def with_log_lines(view: Grid, log: Grid, extra: Sequence[tuple[int, list[CellValue]]]) -> Grid:
    """``view`` (the recomputed View lines) with the ``extra`` Log lines placed as the Log orders them: each before
    the first recomputed line that the Log holds after it; those after every such line at the end."""
    out: Grid = []
    keys = [_key(r) for r in log]
    left = list(extra)
    at = 0
    for row in view:
        key = _key(row)
        found = next((k for k in range(at, len(keys)) if keys[k] == key), None) if any(key) else None
        if found is not None:
            while left and left[0][0] < found:
                out.append(left.pop(0)[1])
            at = found + 1
        out.append(list(row))
    out += [row for _, row in left]
    return out
