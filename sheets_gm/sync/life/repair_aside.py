"""What ``repair`` could not keep in a seat's tab, written to that seat's Archive (``docs/sync.md``, "repair").

A cell typed in a column that is none of a table's (a column inserted inside it) has no place once the tab is laid
out again, and a stray row may find no free row left: the GM's report names them, and the seat's own Archive keeps
them too, under the lines it holds, so that what she typed is never only in a backup the GM keeps. The Archive's
line count (the pending row's last cell, on the hidden Copies tab) is read once the repair has written the match,
so that the entry goes under every line the repair wrote back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.layout import a1, cell_at
from sheets_gm.sheets.tables import InputTab, text_of
from sheets_gm.sync.life.repair_columns import FoundColumns
from sheets_gm.sync.match_tabs import COPIES_COLS, COPIES_PENDING_ROW, MatchTabs
from sheets_gm.sync.rows.archive_lines import ArchiveLine, archive_lines_writes, capital
from sheets_gm.sync.rows.fate_words import orphans_line
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend

Orphans = Mapping[str, Sequence[tuple[str, str, str]]]  # seat -> (tab, cell, text) typed in a column of no table


def with_orphans(aside: Mapping[str, Sequence[ArchiveLine]],
                 read_as: Mapping[str, Sequence[tuple[InputTab, FoundColumns]]],
                 window: Window | None) -> dict[str, list[ArchiveLine]]:
    """``aside`` (each seat's entries of the stray rows left no free row) with, first, each seat's entry of the
    cells its tabs (``read_as``) held in a column of no table, for the Archive of ``window``."""
    out = {seat: list(lines) for seat, lines in aside.items()}
    label = capital(window.label) if window is not None else "End"
    for seat, pages in read_as.items():
        cells = [(page.name, cell, text) for page, columns in pages for cell, text in columns.orphans]
        if cells:
            out.setdefault(seat, []).insert(0, orphans_line(label, cells))
    return out


def archive_aside(sheets: MatchSheets, tabs: MatchTabs, lines: Mapping[str, Sequence[ArchiveLine]]) -> None:
    """Write each seat's ``lines`` under the lines its Archive holds now (one read and one write of its file)."""
    for seat, entries in lines.items():
        if not entries:
            continue
        backend = seat_backend(sheets, tabs, seat)
        (pending,) = backend.read([tabs.archive_pending_range(seat)])
        line = pending[0] if pending else []
        text = text_of(line[2]) if len(line) > 2 else ""  # window key, mark, then the count
        batch = WriteBatch()
        count = archive_lines_writes(batch, backend, tabs, seat, int(text) if text.isdigit() else 0, entries)
        batch.put(backend, a1(tabs.copies(seat), cell_at(COPIES_COLS - 1, COPIES_PENDING_ROW)), [[count]])
        batch.run([backend])
