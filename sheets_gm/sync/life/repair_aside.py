"""What ``repair`` keeps in a seat's Archive: what was typed where its redraw writes, and cannot stay in the tab.

Repair draws every seat's tables again whole. A stray row keeps its place or moves to a free row; but text typed
in a cell sheets-gm draws in a row (a hex typed as if the order), and a stray row with no free row left, would go
under the redraw. They are written to the seat's Archive, after its last line (counted from what the tab holds
and from the pending row's count), with their hidden copy, in the repair's one write. An Archive that repair lays
out again itself is not written (its lines are being put back in the same write): the GM's note names them instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.tables import InputTab, text_of
from sheets_gm.sync.life.repair_columns import FoundColumns
from sheets_gm.sync.match_tabs import ARCHIVE_LINES, MatchTabs
from sheets_gm.sync.rows.archive_lines import ArchiveLine, archive_lines_writes, capital, lines_cell
from sheets_gm.sync.rows.fate_words import orphans_line
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend


def _lines_held(sheets: MatchSheets, tabs: MatchTabs, seat: str) -> int:
    """How many lines the seat's Archive holds: its last filled row, or the pending row's count if more."""
    backend = seat_backend(sheets, tabs, seat)
    archive, counted = backend.read([tabs.archive_lines_range(seat, 0, ARCHIVE_LINES), lines_cell(tabs, seat)])
    filled = max((i for i, row in enumerate(archive, start=1) if any(text_of(v) for v in row)), default=0)
    text = text_of(counted[0][0]) if counted and counted[0] else ""
    return max(filled, int(text) if text.isdecimal() else 0)


def with_orphans(aside: Mapping[str, Sequence[ArchiveLine]],
                 read_as: Mapping[str, Sequence[tuple[InputTab, FoundColumns]]],
                 window: Window | None) -> dict[str, list[ArchiveLine]]:
    """``aside`` (each seat's entries of what the redraw writes over) with, first, each seat's entry of the cells its
    tabs (``read_as``) held in a column of no table (a column inserted inside a table), for the Archive of
    ``window``: the tab laid out again has no such column, so they would be in no cell."""
    out = {seat: list(lines) for seat, lines in aside.items()}
    label = capital(window.label) if window is not None else "End"
    for seat, pages in read_as.items():
        cells = [(page.name, cell, text) for page, columns in pages for cell, text in columns.orphans]
        if cells:
            out.setdefault(seat, []).insert(0, orphans_line(label, cells))
    return out


def repair_aside_writes(sheets: MatchSheets, tabs: MatchTabs, batch: WriteBatch,
                        lines: Mapping[str, Sequence[ArchiveLine]], relaid: set[str]) -> list[str]:
    """Queue each seat's ``lines`` after the last of its Archive (``relaid``: the tabs repair lays out again);
    returns a note for each seat whose Archive could not take them, naming what they keep."""
    notes: list[str] = []
    for seat, written in lines.items():
        if not written:
            continue
        if tabs.archive(seat) in relaid or tabs.copies(seat) in relaid:
            said = "; ".join(d for line in written for d in line.details)
            notes.append(f"{seat}'s tab held what its redraw writes over, and {tabs.archive(seat)!r} is laid out "
                         f"again: copy it back by hand if it is wanted: {said}")
            continue
        backend = seat_backend(sheets, tabs, seat)
        count = archive_lines_writes(batch, backend, tabs, seat, _lines_held(sheets, tabs, seat), written)
        batch.put(backend, lines_cell(tabs, seat), [[count]])
    return notes
