"""A map's colours read a row or a column at once (``Cells.row_colours``, ``Cells.column_colours``: what the page's
scene reads a map with) are each cell's ``Cells.colour``, cell by cell: for every game's public board at the start
and after each resolution of a bot match, and for a drawing of overlapping fills, fills reaching past its values and
conditional fills whose prefixes some of its cells start with. A square map's colours made at once
(``scene._colours``: the map's paint, each written cell looked at) are each row's read at once, one after the
other. Each cell's paint is the last fill over it (``Cells.row_paint``), found cell by cell."""

from __future__ import annotations

import pytest

from sheets_gm.rulesets.registry import ruleset_names, sheet_of
from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.sheets.layout import ConditionalFill, Fill
from sheets_gm.web.cells import WHITE, Cells, _range_box
from sheets_gm.web.scene import _colours
from tests.web.pages import bot_match


def _check(drawing: BoardDrawing) -> None:
    """Every row's and every column's colours read at once, from each first cell, against each cell's."""
    cells = Cells(drawing)
    height = len(cells.rows) + 2
    width = max((len(row) for row in cells.rows), default=0) + 2
    for row in range(height):
        for first in range(3):
            assert cells.row_colours(row, first, width) == [cells.colour(row, c) for c in range(first, width)], \
                (drawing.tab, row, first)
    for col in range(width):
        for first in range(4):
            for step in (1, 2):
                assert cells.column_colours(col, first, step) == \
                    [cells.colour(r, col) for r in range(first, len(cells.rows), step)], (drawing.tab, col, first, step)
    boxes = [(box, f.colour) for f in drawing.fills if (box := _range_box(f.range)) is not None]
    for row in range(height):  # each cell's paint: the last fill over it, found the plain way
        assert cells.row_paint(row, 0, width) == [
            next((colour for (r1, c1, r2, c2), colour in reversed(boxes) if r1 <= row <= r2 and c1 <= c <= c2), "")
            or WHITE for c in range(width)], (drawing.tab, row)
    for first in range(3):
        for down in (range(first, height), range(0, len(cells.rows)), range(1, max(len(cells.rows) - 1, 1))):
            _check_map(cells, down, first, width)


def _check_map(cells: Cells, down: range, first: int, width: int) -> None:
    """A map's colours at once (``scene._colours``) against each row's (``row_colours``), and the places a
    conditional fill colours on a sign against the row's paint (``row_paint``), as the scene read them row by row."""
    across = width - first
    values = [v for r in down for v in ((cells.rows[r] if r < len(cells.rows) else [])[first:width] + [""] * across)
              [:across]]
    rows = [cells.row_colours(r, first, width) for r in down]
    paints = [cells.row_paint(r, first, width) for r in down]
    painted = [(k * across + c, p) for k, (row, paint) in enumerate(zip(rows, paints, strict=True))
               for c, (x, p) in enumerate(zip(row, paint, strict=True))
               if x != p and not values[k * across + c][:1].isalnum()]
    written = [i for i, value in enumerate(values) if value]
    assert _colours(cells, values, written, down, first, width) == ([c for row in rows for c in row], painted), \
        (down, first)


@pytest.mark.parametrize("name", ruleset_names())
def test_a_row_or_a_column_at_once_is_each_of_its_cells_colour(name: str) -> None:
    rules, start, steps = bot_match(name, 2)
    adapter = sheet_of(rules)
    for state in (start, *(step.after for step in steps)):
        for drawing in adapter.drawings(state):
            _check(drawing)


def test_overlapping_and_conditional_fills_read_at_once_as_cell_by_cell() -> None:
    values: list[list[str | int | float | bool | None]] = [
        ["", "●Ann", "▲", None, 3],
        ["▲Bo", "", "●", "x"],
        [],
        ["●", "● ", "  ", "▲▲", "", "●Cy"],
    ]
    fills = (Fill("A1:F6", "#111111"), Fill("B2:B9", "#222222"), Fill("Map!C1:E1", "#333333"), Fill("D4", ""),
             Fill("not a range", "#444444"), Fill("E2:E3", "#555555"))
    conditional = (ConditionalFill("A1:C4", "●", "#AA0000"), ConditionalFill("B2:F4", "▲", "#00AA00"),
                   ConditionalFill("A4:A4", "●", "#0000AA"))
    _check(BoardDrawing(values, fills, conditional_fills=conditional))
    _check(BoardDrawing(values, (), conditional_fills=conditional))
    _check(BoardDrawing(values, fills))
    _check(BoardDrawing([], fills))
