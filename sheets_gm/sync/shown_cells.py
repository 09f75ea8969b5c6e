"""The shown cells of a seat's rows typed over by hand (GvG's Move roll, a unit's Hex or HP, which sheets-gm draws
and the engine never reads): found here, from what the poll read.

The poll puts them back and says so in each row's feedback (``drawn_cells``); what was typed there (not a cell
cleared) is kept in the seat's Archive, by the poll and by the writers that draw the rows again whole (a resolution,
an adjustment, an undo), since the row's answer is written over at the next poll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.guard import GridCells, origin, same_value
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sheets.tables import InputTab, text_of
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.read import MatchRead
from sheets_gm.sync.rows.archive_lines import short_header


@dataclass(frozen=True, slots=True)
class ShownTypedOver:
    """One shown cell holding something else than sheets-gm draws there: where, what is drawn, what was typed."""

    seat: str
    table: str
    row: int  # the tab row (1-based)
    subject: str
    header: str
    cell: str  # the cell as a range naming its tab
    typed: str  # what the cell holds ('' when it was cleared)
    drawn: CellValue  # what sheets-gm draws there

    @property
    def where(self) -> str:
        """How the GM's sync line names it: its tab and column ("Orders red (Move roll)")."""
        return f"{self.cell.rpartition('!')[0].strip(chr(39))} ({self.header})"

    def detail(self) -> str:
        """The Archive's line for it: "row 5 (Ann-L) — Hex: N5 (put back to M4)"."""
        return (f"row {self.row} ({self.subject}) — {short_header(self.header)}: {self.typed} "
                f"(put back to {text_of(self.drawn) or 'empty'})")


def alike(was: CellValue, drawn: CellValue) -> bool:
    """Whether a cell read holds what the sync draws there (3 and '3' alike: a spreadsheet may give either)."""
    return same_value(was, drawn) or text_of(was) == text_of(drawn)


def shown_typed_over(read: MatchRead, drawings: Sequence[tuple[Any, Any]] = ()) -> list[ShownTypedOver]:
    """Every shown cell of every seat's rows that holds something else than the record's state draws there (a seat
    whose file is an older copy is drawn again whole, and left out). ``drawings``: the (state, dice) pairs whose
    drawing a cell may hold instead, when a cut resolution left tables drawn for the state after it: a cell
    holding what any of them draws is not typed over."""
    out: list[ShownTypedOver] = []
    for seat, ranges in read.typed.items():
        seat_read = read.seats.get(seat)
        if seat_read is None or seat_read.older_copy is not None:
            continue
        out += seat_shown_typed_over(read.adapter, read.record, seat, seat_read.tab, GridCells(ranges), drawings)
    return out


def seat_shown_typed_over(adapter: AnySheetAdapter, record: MatchRecord, seat: str, tab: InputTab,
                          found: Mapping[tuple[str, int, int], CellValue],
                          drawings: Sequence[tuple[Any, Any]] = ()) -> list[ShownTypedOver]:
    """``shown_typed_over`` of one seat's tables (``tab``), from the cells read (``found``, by tab, row and column
    from 0, as ``grid_cells`` gives them)."""
    every = [(record.state, record.dice()), *drawings]
    out: list[ShownTypedOver] = []
    for placed in tab.tables:
        spec = placed.spec
        shown_cols = spec.of_kind(ColumnKind.SHOWN)
        if not shown_cols:
            continue
        drawn: dict[tuple[int, str], list[tuple[str, CellValue]]] = {}  # by row index and column: each drawing
        for state, dice in every:
            for index, subject in enumerate(adapter.laid_out_rows(state, seat, placed)):
                values = adapter.shown(state, seat, spec, subject, dice)
                for c in shown_cols:
                    drawn.setdefault((index, c.key), []).append((subject, values.get(c.key, "")))
        for (index, key), drawings_here in drawn.items():
            cell = placed.at(placed.cell(index, key))
            was = found.get(origin(cell), "")
            if not any(alike(was, value) for _subject, value in drawings_here):
                subject, value = drawings_here[0]
                out.append(ShownTypedOver(seat, spec.name, placed.first_row + index, subject,
                                          spec.column(key).header, cell, text_of(was), value))
    return out


def archived_details(found: list[ShownTypedOver]) -> dict[str, list[str]]:
    """By seat, the Archive's lines of the shown cells in which something was typed (a cell cleared is not)."""
    out: dict[str, list[str]] = {}
    for f in found:
        if f.typed:
            out.setdefault(f.seat, []).append(f.detail())
    return out
