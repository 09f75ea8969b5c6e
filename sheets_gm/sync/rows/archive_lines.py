"""A seat's Archive tab: what became of the rows it typed, in sentences only.

An entry is the window it concerns and a sentence ("Your orders for turn 4, set aside by the GM's
undo of turn 3; …:"), then a line per row it names ("    · 10F — Order: 10F > 10G"). The rows it
names are copied as JSON to the seat's hidden Copies tab, in the row of the entry's first line (so
each sentence maps to its copy by row), never on the tab players read. Lines go one after the other
from the count kept in the pending row (a hidden cell every poll reads anyway), in the same write
as what they record, and nothing ever writes over them: a row set aside stays readable for the
whole match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import CellValue, a1, cell_at
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sheets.tables import InputTab, TypedRow, text_of, ticked
from sheets_gm.sync.match_record import compact_json
from sheets_gm.sync.match_tabs import ARCHIVE_LINES, COPIES_COLS, COPIES_PENDING_ROW, MatchTabs
from sheets_gm.sync.sheets import WriteBatch

#: The most detail lines one Archive entry takes (an entry naming more rows puts several on a line): the tab holds
#: ``ARCHIVE_LINES`` lines, and one entry must never outgrow it.
DETAIL_LINES = 100


@dataclass(frozen=True, slots=True)
class ArchiveLine:
    """One entry: the window it concerns, a sentence, then one line per typed row it names (``details``), and
    those rows themselves (copied as JSON to the hidden Copies tab, in the row of the entry's first line)."""

    when: str
    text: str
    details: tuple[str, ...] = ()
    rows: tuple[TypedRow, ...] = ()

    def detail_lines(self) -> list[str]:
        """The entry's detail lines: one per row it names, or, past :data:`DETAIL_LINES` rows (thousands pasted
        under a table, set aside at once), as many rows a line as it takes to fit that many lines, so that one
        entry never outgrows the tab (every row is still named, and copied whole to the Copies tab)."""
        if len(self.details) <= DETAIL_LINES:
            return [one_line(d) for d in self.details]
        per = -(-len(self.details) // DETAIL_LINES)
        return ["; ".join(one_line(d) for d in self.details[i:i + per]) for i in range(0, len(self.details), per)]

    def grid(self) -> list[list[CellValue]]:
        """The entry's readable lines as cells: window and sentence, then each detail line indented."""
        first: list[CellValue] = [self.when, self.text]
        return [first, *(list[CellValue](["", f"    · {line}"]) for line in self.detail_lines())]

    def copies(self) -> list[list[CellValue]]:
        """The Copies tab's cells beside the entry's lines: the rows as JSON by its first line, then blanks."""
        copy = compact_json([r.to_json() for r in self.rows]) if self.rows else ""
        return [[copy], *(list[CellValue]([""]) for _ in self.detail_lines())]


def one_line(text: str) -> str:
    """``text`` on one line, each line break shown as " | ": a line of the Archive is one row of the tab, which no
    program makes taller for a cell's line breaks (a post pasted whole in one cell), so the lines would print over
    the next row. The hidden copy keeps the text as typed.

    >>> one_line("Army 00: Dominaria; 1A > 1B\\nArmy 01: Dominaria; 2A > 2B\\n")
    'Army 00: Dominaria; 1A > 1B | Army 01: Dominaria; 2A > 2B'
    """
    return " | ".join(line.strip() for line in text.strip().splitlines() if line.strip())


def capital(text: str) -> str:
    """``text`` with its first letter upper-case ("turn 4" → "Turn 4")."""
    return text[:1].upper() + text[1:]


def row_text(tab: InputTab, row: TypedRow) -> str:
    """A typed row in words: its subject, then each typed cell under its column's header, without its hint
    ("10F — Order: 10F > 10G", "Ann — Ready ✔", "coalition line 3 — Post line: Frank: 3A > 3B")."""
    try:
        columns = tab.table(row.table).spec.columns
    except KeyError:  # a table this layout no longer has: its cells by key
        parts = [f"{k}: {text_of(v)}" for k, v in row.values.items() if v not in (None, "", False)]
    else:
        parts = []
        for c in columns:
            value = row.values.get(c.key)
            if not c.kind.typed or value in (None, "", False):
                continue
            if c.kind in (ColumnKind.TICK, ColumnKind.READY):
                if ticked(value):
                    parts.append(f"{short_header(c.header)} ✔")
            else:
                parts.append(f"{short_header(c.header)}: {text_of(value)}")
    return f"{row.subject} — {', '.join(parts)}" if parts else row.subject


def short_header(header: str) -> str:
    """A column's header without the hint in brackets that ends it, as an Archive line names the column: the
    sheet shows the hint above every row, a line repeating it for each row would bury what was typed.

    >>> short_header("Post line (Army: Plane; 3A > 3B - engage Target)")
    'Post line'
    >>> short_header("Transfer units (1/2/3/4)"), short_header("Order")
    ('Transfer units', 'Order')
    """
    head, bracket, _hint = header.partition(" (")
    return head if bracket and header.endswith(")") and head else header


def window_words(key: str, window: Window | None) -> str:
    """How a line names the window a row was typed for: the window's label when it is ``window``, else its key
    as the row's For cell showed it."""
    if window is not None and key == window.key:
        return window.label
    return f"window “{key}”" if key else "no window"


def lines_cell(tabs: MatchTabs, seat: str) -> str:
    """The hidden cell of the pending row counting the archive's readable lines."""
    return a1(tabs.copies(seat), cell_at(COPIES_COLS - 1, COPIES_PENDING_ROW))


def archive_lines_writes(batch: WriteBatch, backend: SheetBackend, tabs: MatchTabs, seat: str, first: int,
                         lines: Sequence[ArchiveLine]) -> int:
    """Queue ``lines`` from line ``first`` (0-based) of the seat's archive, and their copies in the same rows of its
    Copies tab (one spreadsheet: one write); returns the count after them (the caller writes it in the pending
    row's last cell, in the same batch)."""
    grid = [cells for line in lines for cells in line.grid()]
    if not grid:
        return first
    first = min(first, ARCHIVE_LINES - len(grid))  # the tab's last lines, past thousands: never past its edge
    batch.put(backend, tabs.archive_lines_range(seat, first, len(grid)), grid)
    batch.put(backend, tabs.copies_lines_range(seat, first, len(grid)), [c for line in lines for c in line.copies()])
    return first + len(grid)
