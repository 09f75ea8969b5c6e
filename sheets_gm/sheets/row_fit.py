"""Rows of a local workbook as tall as their wrapped text, as Google Sheets makes them.

Google Sheets grows a row to show the whole text of its wrapping cells (a Feedback answer over three lines)
unless the row was given a height; LibreOffice and Excel open an .xlsx at the heights the file says and never
grow a row by themselves, so a long answer would be drawn over the rows under it. The local backend therefore
sets, after each write and layout, the height of every row it touched that holds a wrapping cell: enough
lines of the default font for the longest of them, word-wrapped at its column's width (or the default height
when one line is enough). A row the layout gave a height (a board's map rows) keeps it: those rows are
recorded in the workbook (:data:`FIXED_ROWS_PROPERTY`, a custom document property LibreOffice keeps on save)
so a later write knows them.

Which cells wrap is the layout's too: LibreOffice saves every cell holding a line break with "wrap text" on (a
status of lines of its own, meant to run on over the cells right of it), and a row sized for that text wrapped in
its narrow column grows eightfold and prints on dozens of pages. The cells the layout wraps are recorded as well
(:data:`WRAPPED_PROPERTY`); a fitted row's cell wrapped anywhere else is put back as the layout made it.

A cell's lines are counted as LibreOffice prints them (``printed_sizes.cell_lines``, with no workbook library: the
games' drawings and a Google match's layouts count them too); a cut answer is worse than a slack line. A row is as
tall as a line of the default font (LibreOffice's and Excel's 12.8 points) times its lines.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from copy import copy
from typing import Any

from sheets_gm.sheets.xlsx import openpyxl  # noqa: F401  # first: without numpy (see that module)  # isort: skip

from openpyxl.utils import get_column_letter

from sheets_gm.sheets.printed_sizes import LINE_POINTS, PRINTED_POINTS_PER_CHAR, cell_lines
from sheets_gm.sheets.tab_records import record_tabs, tab_records

#: The custom document property holding, per tab, the rows whose height the layout fixed (JSON).
FIXED_ROWS_PROPERTY = "sheets-gm fixed rows"
#: The custom document property holding, per tab, the boxes of cells the layout wraps (JSON: [top, left, bottom,
#: right], 1-based, ``null`` running to the tab's edge).
WRAPPED_PROPERTY = "sheets-gm wrapped cells"
#: A box of cells a layout wraps: top row, left column, bottom row, right column (1-based; ``None``: to the edge).
Span = tuple[int, int, int | None, int | None]
#: Excel's default column width, in characters, where a column has none.
DEFAULT_COLUMN_CHARS = 8.43
#: Most lines a row is made tall for (a row taller than a screen helps nobody; Excel's limit is 409 points).
MAX_LINES = 27
def column_points(ws: Any, column: int) -> float:
    """The width of a 1-based column in points as LibreOffice prints it at scale 1."""
    dimension = ws.column_dimensions.get(get_column_letter(column))
    chars = dimension.width if dimension is not None and dimension.width else DEFAULT_COLUMN_CHARS
    return chars * PRINTED_POINTS_PER_CHAR


def fixed_rows(wb: Any) -> dict[str, set[int]]:
    """The rows (1-based) of each tab whose height the layout fixed, as recorded in the workbook."""
    recorded = tab_records(wb, FIXED_ROWS_PROPERTY)
    return {tab: {int(r) for r in rows if isinstance(r, int)} for tab, rows in recorded.items()
            if isinstance(rows, list)}


def record_fixed_rows(wb: Any, tab: str, rows: Iterable[int]) -> None:
    """Record the rows (1-based) of ``tab`` whose height its layout fixed (replacing what was recorded for it)."""
    recorded = fixed_rows(wb)
    recorded[tab] = set(rows)
    record_tabs(wb, FIXED_ROWS_PROPERTY, {name: sorted(rows) for name, rows in recorded.items() if rows})


def wrapped_cells(wb: Any) -> dict[str, list[Span]]:
    """The boxes of cells each tab's layout wraps, as recorded in the workbook (a tab laid out before they were
    recorded is missing)."""
    found: dict[str, list[Span]] = {}
    for tab, spans in tab_records(wb, WRAPPED_PROPERTY).items():
        if isinstance(spans, list):
            found[tab] = [_span(s) for s in spans if isinstance(s, list) and len(s) == 4
                          and all(v is None or isinstance(v, int) for v in s) and s[0] and s[1]]
    return found


def _span(values: list[Any]) -> Span:
    return int(values[0]), int(values[1]), values[2], values[3]


def record_wrapped_cells(wb: Any, tab: str, spans: Iterable[Span]) -> None:
    """Record the boxes of cells ``tab``'s layout wraps (replacing what was recorded for it)."""
    recorded: dict[str, Any] = {name: [list(s) for s in found] for name, found in wrapped_cells(wb).items()}
    recorded[tab] = [list(s) for s in spans]
    record_tabs(wb, WRAPPED_PROPERTY, recorded)


def _row_columns(spans: list[Span], row: int) -> tuple[tuple[int, int | None], ...]:
    """The columns (left, right; ``None``: to the edge) of the boxes of ``spans`` that cross ``row``: a row's cells
    are tested against these, not against every box of the tab."""
    return tuple((left, right) for top, left, bottom, right in spans
                 if top <= row and (bottom is None or row <= bottom))


def _in_columns(columns: tuple[tuple[int, int | None], ...], col: int) -> bool:
    return any(left <= col and (right is None or col <= right) for left, right in columns)


#: The longest text whose printed lines are kept (``_lines``): a Log's line or a table's cell, not a pasted page.
_KEPT_LINES_CHARS = 1000


@functools.lru_cache(maxsize=8192)
def _kept_lines(text: str, points: float, bold: bool) -> int:
    return cell_lines(text, points, bold)


def _lines(text: str, points: float, bold: bool) -> int:
    """``cell_lines``, each short text's lines counted once for each width: a match's tabs hold the same sentences
    (each seat's View log the Log's), written again at each poll, and its tables the same words row after row."""
    return _kept_lines(text, points, bold) if len(text) <= _KEPT_LINES_CHARS else cell_lines(text, points, bold)


def _unwrapped(ws: Any, alignment_id: int, made: dict[int, int]) -> int:
    """The id of the workbook's alignment ``alignment_id`` without its wrap (made once, kept in ``made``)."""
    if alignment_id not in made:
        alignment = copy(ws.parent._alignments[alignment_id])
        alignment.wrap_text = None
        made[alignment_id] = int(ws.parent._alignments.add(alignment))
    return made[alignment_id]


def _held_by_row(held: dict[tuple[int, int], Any], rows: list[int], width: int) -> dict[int, list[Any]]:
    """The cells the tab holds in each of ``rows``, left to right: looked up place by place where the rows have
    fewer places than the tab has cells (a write of a few rows into a long tab), else found in one pass over the
    tab's cells (a layout of a whole tab, mostly empty places right of its tables)."""
    if len(rows) * width <= len(held):
        return {row: [cell for col in range(1, width + 1) if (cell := held.get((row, col))) is not None]
                for row in rows}
    found: dict[int, list[tuple[int, Any]]] = {row: [] for row in rows}
    for (row, col), cell in held.items():
        if row in found:
            found[row].append((col, cell))
    return {row: [cell for _, cell in sorted(cells, key=lambda placed: placed[0])] for row, cells in found.items()}


def fit_rows(ws: Any, rows: Iterable[int], fixed: set[int], wrapped: list[Span] | None = None) -> None:
    """Make each of ``rows`` (1-based) that holds a wrapping cell as tall as its longest wrapped text needs (or a
    cell of lines of its own, a status broken to print within its tab), or of the default height when one line is
    enough; rows in ``fixed`` are left as the layout made them. Where ``wrapped`` (the boxes the layout wraps) is
    known, a cell of these rows wrapped outside them (an office's addition) is unwrapped first.

    Linear in the rows: the tab's width, which alignments wrap and each column's width are found once, not once
    a row (openpyxl counts a tab's width over every cell each time it is asked). A cell the tab does not hold is
    read as the empty cell of the default style it would be made as, not made: 10,000 rows pasted under a table
    would otherwise become 90,000 empty cells, each loaded, sorted and saved at every later poll."""
    width = ws.max_column
    wrapping_styles = {i for i, alignment in enumerate(ws.parent._alignments) if alignment.wrap_text}
    empty_wraps = 0 in wrapping_styles  # a cell not held has the default style, alignment 0
    bold_fonts = {i for i, font in enumerate(ws.parent._fonts) if font.b}
    points: dict[int, float] = {}
    unwrapped: dict[int, int] = {}
    inside: dict[tuple[tuple[int, int | None], ...], dict[int, bool]] = {}  # the columns a row's boxes cross
    wanted = sorted(set(rows) - fixed)
    for row, cells in _held_by_row(ws._cells, wanted, width).items():
        wrapping = empty_wraps and len(cells) < width
        lines = 1
        wrapped_here = _row_columns(wrapped, row) if wrapped is not None else ()
        known = inside.setdefault(wrapped_here, {})  # its columns -> wrapped there (rows of a table: the same)
        for cell in cells:
            style = cell._style  # None on a merged cell's covered part: the default alignment
            if wrapped is not None and style is not None and style.alignmentId in wrapping_styles:
                within = known.get(cell.column)
                if within is None:
                    within = known[cell.column] = _in_columns(wrapped_here, cell.column)
                if not within:
                    style.alignmentId = _unwrapped(ws, style.alignmentId, unwrapped)
            if (style.alignmentId if style is not None else 0) not in wrapping_styles:
                if isinstance(cell.value, str) and "\n" in cell.value:  # its own lines, run on to the right
                    wrapping, lines = True, max(lines, cell.value.count("\n") + 1)
                continue
            wrapping = True
            if isinstance(cell.value, str) and cell.value:
                column = cell.column
                if column not in points:
                    points[column] = column_points(ws, column)
                bold = style is not None and style.fontId in bold_fonts
                lines = max(lines, _lines(cell.value, points[column], bold))
        if not wrapping:
            continue
        height = None if lines == 1 else LINE_POINTS * min(lines, MAX_LINES)
        if ws.row_dimensions[row].height != height:
            ws.row_dimensions[row].height = height
