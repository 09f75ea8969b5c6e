"""Rows of a local workbook as tall as their wrapped text, as Google Sheets makes them.

Google Sheets grows a row to show the whole text of its wrapping cells (a Feedback answer over three lines)
unless the row was given a height; LibreOffice and Excel open an .xlsx at the heights the file says and never
grow a row by themselves, so a long answer would be drawn over the rows under it. The local backend therefore
sets, after each write and layout, the height of every row it touched that holds a wrapping cell: enough
lines of the default font for the longest of them, word-wrapped at its column's width (or the default height
when one line is enough). A row the layout gave a height (a board's map rows) keeps it: those rows are
recorded in the workbook (:data:`FIXED_ROWS_PROPERTY`, a custom document property LibreOffice keeps on save)
so a later write knows them.

A cell's lines are counted as LibreOffice prints them: its words at the default font's own widths (Arial 10,
printed in Liberation Sans: ``font_widths``) wrapped in its column's printed width less the cell's margins, each line
taken a little wider than the widths say (a print rounds each letter's place) so that a row is never too short; a
cut answer is worse than a slack line. A
row is as tall as a line of the default font (LibreOffice's and Excel's 12.8 points) times its lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from sheets_gm.sheets.xlsx import openpyxl  # noqa: F401  # first: without numpy (see that module)  # isort: skip

from openpyxl.utils import get_column_letter

from sheets_gm.sheets.font_widths import text_points
from sheets_gm.sheets.local.breaks import DEFAULT_ROW_POINTS
from sheets_gm.sheets.tab_records import record_tabs, tab_records

#: The custom document property holding, per tab, the rows whose height the layout fixed (JSON).
FIXED_ROWS_PROPERTY = "sheets-gm fixed rows"
#: The height of one line of the default font in points (a row's default height: LibreOffice prints a line of
#: Arial 10 11.2 points apart, a row of one line 12.8 points tall).
LINE_POINTS = DEFAULT_ROW_POINTS
#: Pixels a line of the default font takes in a board's fixed-height cell as LibreOffice draws it without the
#: workbook's own font installed (a fallback a little taller): a board tile or square is sized by it.
DRAWN_LINE_PIXELS = 18
#: Pixels a character of the default font takes on average in running text (a 720-pixel cell holds about 120).
CHAR_PIXELS = 5.9
#: Points a character of a column's width in the .xlsx prints in LibreOffice at scale 1 with the default font
#: (measured in its PDFs, Liberation Sans 10: 7.29 characters 40.4 points, 62.14 characters 344.9, 20 characters
#: 111.0), a little more than Excel's 5.25 and its padding of 3.75.
PRINTED_POINTS_PER_CHAR = 5.55
#: Points of a column's printed width its text does not use: LibreOffice's margins either side, a point each
#: (measured at scale 1: a column of 12.14 characters, 67.4 points, printed a line of 65.0 points unbroken and none of
#: 66.1; one of 19.29 characters, 107.1 points, one of 105.1).
CELL_MARGIN_POINTS = 2.0
#: How much wider than the font's own widths a line is taken: printed at a scale, LibreOffice rounds each letter's
#: place, and a line ran up to 0.7 % wider against its column (a Champions Feedback line at 82 % broke a word
#: earlier than the widths said); twice that is kept spare.
PRINTED_WIDTH_SPARE = 1.015
#: Pixels of a cell's width its text does not use (the padding either side).
CELL_PADDING = 6
#: Excel's default column width, in characters, where a column has none.
DEFAULT_COLUMN_CHARS = 8.43
#: Most lines a row is made tall for (a row taller than a screen helps nobody; Excel's limit is 409 points).
MAX_LINES = 27


def column_points(ws: Any, column: int) -> float:
    """The width of a 1-based column in points as LibreOffice prints it at scale 1."""
    dimension = ws.column_dimensions.get(get_column_letter(column))
    chars = dimension.width if dimension is not None and dimension.width else DEFAULT_COLUMN_CHARS
    return chars * PRINTED_POINTS_PER_CHAR


def cell_lines(text: str, points: float, bold: bool = False) -> int:
    """Lines ``text`` prints on, word-wrapped in a cell ``points`` wide (its own line breaks kept), in the default
    font (bold or regular), each line as wide as it may print (``line_points``).

    >>> cell_lines("Dice: d8 2/base/Lu.rogue/1/1 = 6, d8 2/base/Lu.rogue/1/2 = 2,", 281.4)  # 273.5 points
    1
    >>> cell_lines("Dice: d8 2/base/Lu.rogue/1/1 = 6, d8 2/base/Lu.rogue/1/2 = 2, d8", 281.4)
    2
    """
    return wrapped_lines(text, line_room(points), lambda word: line_points(word, bold))


def line_points(text: str, bold: bool = False) -> float:
    """The points ``text`` may take on one printed line of the default font (its own widths and the spare for a
    print's rounding, ``PRINTED_WIDTH_SPARE``)."""
    return text_points(text, bold) * PRINTED_WIDTH_SPARE


def line_room(points: float) -> float:
    """The points of a line of text a cell ``points`` wide holds (its margins taken off)."""
    return max(1.0, points - CELL_MARGIN_POINTS)


def lines_needed(text: str, pixels: int, measure: Callable[[str], float] = len) -> int:
    """Lines ``text`` takes word-wrapped in a cell ``pixels`` wide (its own line breaks kept); ``measure`` gives
    a word's (and a space's) width in average characters of the default font (its length unless the text is of
    signs or letters wider or narrower than most).

    >>> lines_needed("short", 200)
    1
    >>> lines_needed("a b c d e f g h i j", 40)  # five characters a line: "a b c", "d e f", "g h i", "j"
    4
    >>> lines_needed("one\\ntwo", 500)
    2
    """
    return wrapped_lines(text, max(1.0, (pixels - CELL_PADDING) / CHAR_PIXELS), measure)


def wrapped_lines(text: str, room: float, measure: Callable[[str], float]) -> int:
    """Lines ``text`` takes word-wrapped in lines of ``room`` (its own line breaks kept), ``measure`` giving a word's
    (and a space's) width in the same unit; a word longer than a line is broken across lines.

    >>> wrapped_lines("a b c d e f g h i j", 5, len)
    4
    """
    total, space = 0, measure(" ")
    for paragraph in text.split("\n"):
        lines, used = 1, 0.0
        for word in paragraph.split(" "):
            size = measure(word)
            if used and used + space + size > room:  # the word goes to the next line
                lines, used = lines + 1, 0.0
            if size > room:  # a word longer than the line is broken across lines
                extra = math.ceil(size / room) - 1
                lines, used = lines + extra, size - extra * room
            else:
                used += size + (space if used else 0)
        total += lines
    return total


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


def fit_rows(ws: Any, rows: Iterable[int], fixed: set[int]) -> None:
    """Make each of ``rows`` (1-based) that holds a wrapping cell as tall as its longest wrapped text needs (or a
    cell of lines of its own, a status broken to print within its tab), or of the default height when one line is
    enough; rows in ``fixed`` are left as the layout made them.

    Linear in the rows: the tab's width, which alignments wrap and each column's width are found once, not once
    a row (openpyxl counts a tab's width over every cell each time it is asked). A cell the tab does not hold is
    read as the empty cell of the default style it would be made as, not made: 10,000 rows pasted under a table
    would otherwise become 90,000 empty cells, each loaded, sorted and saved at every later poll."""
    width = ws.max_column
    wrapping_styles = {i for i, alignment in enumerate(ws.parent._alignments) if alignment.wrap_text}
    empty_wraps = 0 in wrapping_styles  # a cell not held has the default style, alignment 0
    bold_fonts = {i for i, font in enumerate(ws.parent._fonts) if font.b}
    points: dict[int, float] = {}
    held = ws._cells
    for row in sorted(set(rows) - fixed):
        wrapping = False
        lines = 1
        for col in range(1, width + 1):
            cell = held.get((row, col))
            if cell is None:
                wrapping = wrapping or empty_wraps
                continue
            style = cell._style  # None on a merged cell's covered part: the default alignment
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
                lines = max(lines, cell_lines(cell.value, points[column], bold))
        if not wrapping:
            continue
        height = None if lines == 1 else LINE_POINTS * min(lines, MAX_LINES)
        if ws.row_dimensions[row].height != height:
            ws.row_dimensions[row].height = height
