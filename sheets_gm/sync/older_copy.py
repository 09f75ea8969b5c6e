"""A seat's file saved over the sync's write from an older copy: its archive written back from the engine.

A player's office program may still hold her workbook as it was before a resolution when she saves it (on a
shared folder the lock file does not always travel): the file then holds the older tables, stamps and archive.
Every resolution writes its number in the seat's pending row (``read.current_mark``), so the next poll sees
the copy (``SeatRead.older_copy``). The poll then resolves nothing: it draws the seat's tab again for the open
window, sets aside the rows the copy holds (a copy in the archive: none is resolved twice), and writes back,
from the engine's history rows (each keeps what it archived for every seat), what the copy lost of the seat's
archive: each later resolution's readable entry (its copy beside it in the hidden Copies tab) and the pending
row. The engine's history rows stay the one copy ``undo`` reads.
"""

from __future__ import annotations

import json
from typing import Any

from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.archive_lines import ArchiveLine, archive_lines_writes
from sheets_gm.sync.fates import read_line
from sheets_gm.sync.match_record import history_range, joined_cells
from sheets_gm.sync.read import MatchRead, current_mark, seat_backend
from sheets_gm.sync.sheets import MatchSheets, WriteBatch


def older_copy_sentence(read: MatchRead, seat: str) -> str:
    """What a seat's tab says when its file was saved from a copy older than the sync's last write ('' if not)."""
    if read.seats[seat].older_copy is None:
        return ""
    return (f"⚠ This file was saved from a copy older than resolution {read.record.resolved} (it was still open "
            "when the sync wrote it): sheets-gm drew it again for the window open now, and the rows typed in the "
            f"old copy are set aside in tab {read.tabs.archive(seat)!r}: type again what you still want. · ")


def restore_archives(sheets: MatchSheets, read: MatchRead, batch: WriteBatch) -> dict[str, int]:
    """For every seat whose file is an older copy, queue its archive's lines of each resolution since the copy (a
    readable entry each, and the pending row) from the engine's history rows (one read of the engine's spreadsheet,
    made only when a copy was found); returns each such seat's archive line count after."""
    older = {seat: s.older_copy for seat, s in read.seats.items() if s.older_copy is not None}
    if not older:
        return {}
    record = read.record
    engine_tab = read.tabs.spec.tabs.engine
    numbers = list(range(min(older.values()) + 1, record.resolved + 1))
    try:
        grids = sheets.engine.read([history_range(engine_tab, n) for n in numbers])
    except SheetError:
        grids = [[] for _ in numbers]  # the tab is drawn again all the same; the archive waits for repair
    history = {n: _entry(grid) for n, grid in zip(numbers, grids, strict=True)}
    counts: dict[str, int] = {}
    for seat, copy in older.items():
        seat_read = read.seats[seat]
        backend = seat_backend(sheets, read.tabs, seat)
        lines: list[ArchiveLine] = []
        last: list[Any] = ["", current_mark(record.resolved)]
        for n in range(copy + 1, record.resolved + 1):
            entry = history.get(n, {})
            archived = entry.get("archived", {}).get(seat) if isinstance(entry.get("archived"), dict) else None
            if not isinstance(archived, str):
                continue  # resolved by an earlier version of sheets-gm: its engine row kept no copy
            key = str(entry.get("window", ""))
            last = [key, archived]
            window = _window(read, entry)
            rows = _rows(key, archived)
            if window is not None and rows:
                lines.append(read_line(seat_read.tab, window, rows, {}))
        counts[seat] = archive_lines_writes(batch, backend, read.tabs, seat, seat_read.archive_lines, lines)
        batch.put(backend, read.tabs.archive_pending_range(seat), [[*last, counts[seat]]])
    return counts


def _entry(grid: Any) -> dict[str, Any]:
    """A history row's JSON ({} when it cannot be read)."""
    row = grid[0] if grid else []
    try:
        found = json.loads(joined_cells(row, 1)) if len(row) > 1 else None
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _window(read: MatchRead, entry: dict[str, Any]) -> Any:
    """The window a history row resolved (None when its state cannot be read)."""
    ruleset = read.record.ruleset
    try:
        return ruleset.window(ruleset.state_codec.from_json(entry["state_before"]))
    except (KeyError, TypeError, ValueError):
        return None


def _rows(key: str, archived: str) -> list[TypedRow]:
    """The rows an archived cell holds ([] when it cannot be read)."""
    try:
        found = json.loads(joined_cells([key, archived], 1))
        return [TypedRow.from_json(r) for r in found.get("rows", [])]
    except (ValueError, KeyError, TypeError, AttributeError):
        return []
