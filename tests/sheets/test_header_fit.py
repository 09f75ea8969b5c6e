"""Every heading of an input table is read whole in its cell: a heading wider than its column wraps (the row is made
as tall as it needs), never cut by the heading beside it, as LibreOffice and Google Sheets cut a text whose
neighbour is not empty (the Coalition's "Route (squares on the way, 3B > 3C)" read "Route (squares on the way")."""

from __future__ import annotations

import pytest

from sheets_gm.sheets.layout import cell_at, split_a1
from sheets_gm.sheets.printed_sizes import CELL_PADDING, CHAR_PIXELS
from tests.conformance.test_input_lifecycle import _games, new_table

#: Bold text is wider than the average character the row fit counts.
BOLD = 1.15


def _in(cell: str, ranges: list[str]) -> bool:
    from openpyxl.utils.cell import range_boundaries

    col, row = range_boundaries(f"{cell}:{cell}")[:2]
    for r in ranges:
        c1, r1, c2, r2 = range_boundaries(split_a1(r)[1] if "!" in r else r)
        if c1 <= col <= c2 and r1 <= row <= r2:
            return True
    return False


@pytest.mark.parametrize("name", _games())
def test_every_heading_of_an_input_table_fits_or_wraps(name: str) -> None:
    table = new_table(name)
    read = table.read()
    cut = []
    for seat in read.tabs.input_seats():
        for page in read.tabs.orders(seat).sheets():
            layout = page.layout(read.tabs.spec.colours, ())
            wrapped = [f.range for f in layout.fills if f.wrap]
            for placed in (t for t in page.tables if t.tab == page.name):
                for i, column in placed.columns():
                    pixels = layout.column_widths.get(i, 0)
                    need = len(column.header) * CHAR_PIXELS * BOLD + CELL_PADDING
                    cell = cell_at(i, placed.header_row)
                    if need > pixels and not _in(cell, wrapped):
                        cut.append(f"{page.name}!{cell} {column.header!r} ({pixels} px)")
    assert not cut, cut
