"""The pending row of a seat's Copies tab that ``repair`` lays out again while a resolution cut before its commit is
under way.

The cut resolution had cleared the rows it read from the seat's cells, their only copy in her spreadsheet being
the pending row of her hidden Copies tab. Laid out again with the mark of the last resolution, the next poll would
complete the resolution without them. So the pending row is written back from, in turn:

- the GM's journal of the resolution (``sync/journal.py``), when it shows the seat's spreadsheet was written (her
  Archive holds the lines the resolution wrote there in the same call; if not, her rows are still in her cells);
- the Copies tab renamed by hand, when its pending row is of that resolution.

Where neither has it (another computer carried the match on, the journal was removed), nothing pretends: the
Archive entry of that resolution (written in the call that cleared the rows) is rewritten to say that its rows were
not carried out and are lost, and the GM's note lists them from it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.engine.ruleset import Window
from sheets_gm.engine.words import counted
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sheets.tables import TypedRow, text_of
from sheets_gm.sync.journal import journal_under_way
from sheets_gm.sync.match_record import MatchRecord, history_rows, joined_cells
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.read import current_mark, cut_pending
from sheets_gm.sync.rows.archive_lines import row_text
from sheets_gm.sync.rows.fate_words import cut_lost_sentence, read_line_sentence, resolution_aside_entry
from sheets_gm.sync.rows.pending_row import pending_block_range, pending_in_tab, pending_line
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend

DETAIL = "· "  # how an Archive entry's line for one row starts, once its indent is stripped (``ArchiveLine.grid``)
STILL_TYPED = "still in your rows"  # how such a line of a row read and not carried out ends (``fates.read_line``)


@dataclass(frozen=True)
class PendingBack:
    """What a Copies tab laid out again gets in its pending row, and what ``repair`` says of it ('' for nothing more
    than that the tab was laid out again)."""

    row: list[CellValue]
    note: str = ""


def _rows_read(row: Sequence[CellValue]) -> int:
    """How many rows a pending row (window key, rows read, line count) holds as read (0 when it cannot tell)."""
    try:
        found = json.loads(joined_cells(list(row), 1))
    except ValueError:
        return 0
    rows = found.get("rows") if isinstance(found, dict) else None
    return len(rows) if isinstance(rows, list) else 0


def _line_count(row: Sequence[CellValue]) -> int:
    text = text_of(row[2]) if len(row) > 2 else ""
    return int(text) if text.isdecimal() else 0


def pending_back(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, batch: WriteBatch, seat: str,
                 archive: Grid | None, count: int, renamed: tuple[str, Grid] | None = None) -> PendingBack:
    """The pending row of ``seat``'s Copies tab laid out again: the journal's or the renamed copy's of the resolution
    a cut left, else the mark of the last resolution (``count``: the Archive's lines; ``archive``: its lines as read,
    None when the Archive was laid out again too). A cut resolution whose rows are lost has its Archive entry
    rewritten in ``batch`` to say so."""
    mark = PendingBack(["", current_mark(record.resolved, record.deal, record.stamp()), count])
    window = record.ruleset.window(record.state)
    if window is None or seat not in tabs.input_seats():
        return mark
    where = f"{seat}'s file"
    journal = journal_under_way(sheets.journal, record)
    if journal is not None and seat in journal.pending:
        row = list(journal.pending[seat])
        lines = _line_count(row)
        if archive is not None and count < lines:  # the cut came before her file: her rows are still in her cells
            return mark
        return PendingBack([*row[:2], max(count, lines) if archive is not None else count],
                           f"resolution {journal.resolution} ({window.label}) was cut before its commit and had read "
                           f"{counted(_rows_read(row), 'row')} from {where}: its pending row was written back from "
                           "the GM's journal, and the next sync completes the resolution with them")
    if renamed is not None:
        name, old = renamed
        found = pending_in_tab(old)
        if cut_pending([found], name, record) is not None:
            return PendingBack([*found[:2], max(count, _line_count(found))],
                               f"resolution {record.resolved + 1} ({window.label}) was cut before its commit: the rows "
                               f"it had read from {where} were written back from tab {name!r} into the pending row, "
                               "and the next sync completes the resolution with them")
    if archive is None:  # laid out again too: nothing lists what the cut resolution read from her cells
        if not _cut_evidenced(sheets, tabs, record, seat):
            return mark
        return PendingBack(mark.row, f"resolution {record.resolved + 1} ({window.label}) was cut before its commit, "
                                     "and no journal of it was found in the GM's .sheets-gm folder: the rows it had "
                                     f"read from {where}, if it had reached that file, could not be recovered, and "
                                     f"{tabs.archive(seat)!r}, laid out again too, no longer lists them")
    lost = _lost_entry(sheets, tabs, record, window, seat, archive)
    if lost is None:
        return mark
    index, when, details = lost
    backend = seat_backend(sheets, tabs, seat)
    batch.put(backend, tabs.archive_lines_range(seat, index, 1),
              [[when, cut_lost_sentence(window.label, record.resolved + 1, tabs.copies(seat))]])
    listed = "; ".join(d for d in details if not d.endswith(STILL_TYPED)) or "none listed"
    return PendingBack(mark.row, f"resolution {record.resolved + 1} ({window.label}) was cut before its commit, and "
                                 f"no journal of it was found in the GM's .sheets-gm folder (the match was carried on "
                                 f"from another computer, or the file was removed): the rows it had read from {where} "
                                 f"and cleared could not be recovered, and were not carried out: {listed}. Its "
                                 f"Archive ({tabs.archive(seat)!r}) now says so; ask {seat} to type again those "
                                 f"still wanted (the next sync resolves {window.label} with what the rows hold then)")


def _cut_evidenced(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, seat: str) -> bool:
    """Whether another seat's Copies tab holds the pending row of a resolution the record has not committed."""
    for other in tabs.input_seats():
        if other == seat:
            continue
        backend = seat_backend(sheets, tabs, other)
        if tabs.copies(other) not in backend.tab_names():
            continue
        grid = pending_line(backend.read([pending_block_range(tabs.copies(other))])[0])
        if cut_pending(grid, tabs.copies(other), record) is not None:
            return True
    return False


def _lost_entry(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, window: Window, seat: str,
                archive: Grid) -> tuple[int, str, list[str]] | None:
    """The last Archive entry of the rows a resolution of ``window`` read, when a resolution is under way (another
    seat's pending row shows it) and the entry is not one the engine committed: its line (0-based), its window cell
    and its lines of rows; None when there is none."""
    sentences = {read_line_sentence(window.label, forced) for forced in (False, True)}  # the GM's force, or not
    starts = [i for i, line in enumerate(archive) if len(line) > 1 and text_of(line[1]) in sentences]
    if not starts:
        return None
    first = starts[-1]
    details: list[str] = []
    entries: list[str] = []  # the entries after it: only those the same resolution writes (rows set aside)
    for line in archive[first + 1:]:
        text = text_of(line[1]) if len(line) > 1 else ""
        if text.startswith(DETAIL):
            (details if not entries else []).append(text.removeprefix(DETAIL))
        elif text:
            entries.append(text)
    if not all(resolution_aside_entry(e) for e in entries):
        return None
    if not _cut_evidenced(sheets, tabs, record, seat) or _committed(sheets, tabs, record, window, seat, details):
        return None
    return first, text_of(archive[first][0]), details


def _committed(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, window: Window, seat: str,
               details: Sequence[str]) -> bool:
    """Whether a committed resolution of ``window`` read the rows ``details`` lists (its entry, not the cut one's)."""
    if record.resolved < 1:
        return False
    (grid,) = sheets.engine.read([history_rows(tabs.spec.tabs.engine, record.resolved)])
    tab = tabs.orders(seat)
    for line in grid:
        try:
            entry = json.loads(joined_cells(line, 1)) if len(line) > 1 else None
            if not isinstance(entry, dict) or entry.get("window") != window.key:
                continue
            archived = entry.get("archived", {}).get(seat)
            if not isinstance(archived, str):
                continue
            rows = [TypedRow.from_json(r) for r in json.loads(joined_cells([archived], 0)).get("rows", [])]
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
        if len(rows) == len(details) and all(d.startswith(row_text(tab, r))
                                             for d, r in zip(details, rows, strict=True)):
            return True
    return False
