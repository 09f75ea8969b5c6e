"""Rows of a local workbook as tall as their wrapped text, as Google Sheets makes them.

Google Sheets grows a row to show the whole text of its wrapping cells (a Feedback answer over three lines)
unless the row was given a height; LibreOffice and Excel open an .xlsx at the heights the file says and never
grow a row by themselves, so a long answer would be drawn over the rows under it. The local backend therefore
sets, after each write and layout, the height of every row it touched that holds a wrapping cell: enough
lines of the default font for the longest of them, word-wrapped at its column's width (or the default height
when one line is enough). A row the layout gave a height (a board's map rows) keeps it: those rows are
recorded in the workbook (:data:`FIXED_ROWS_PROPERTY`, a custom document property LibreOffice keeps on save)
so a later write knows them.

The widths are estimates of the default font (Calibri 11 in Excel, its metric twin Carlito in LibreOffice),
taken a little wide so that a row is never too short; a slack line is cheaper than a cut answer.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from sheets_gm.sheets.xlsx import openpyxl  # noqa: F401  # first: without numpy (see that module)  # isort: skip

from openpyxl.packaging.custom import StringProperty
from openpyxl.utils import get_column_letter

#: The custom document property holding, per tab, the rows whose height the layout fixed (JSON).
FIXED_ROWS_PROPERTY = "sheets-gm fixed rows"
#: The height of one line of the default font in points (a row's default height).
LINE_POINTS = 15.0
#: Pixels a line of the default font takes in a board's fixed-height cell as LibreOffice draws it without the
#: workbook's own font installed (a fallback a little taller): a board tile or square is sized by it.
DRAWN_LINE_PIXELS = 18
#: Pixels a character of the default font takes on average in running text (a 720-pixel cell holds about 120).
CHAR_PIXELS = 5.9
#: How much wider a bold text runs than the same text in the default font's regular face (a table's heading; measured
#: in Liberation Sans, 1.06, with a margin for where a line breaks: a Coalition heading printed 7 lines where 5 fit).
BOLD_WIDTH = 1.1
#: Pixels of a cell's width its text does not use (the padding either side).
CELL_PADDING = 6
#: Excel's default column width, in characters, where a column has none.
DEFAULT_COLUMN_CHARS = 8.43
#: Most lines a row is made tall for (a row taller than a screen helps nobody; Excel's limit is 409 points).
MAX_LINES = 27


def column_pixels(ws: Any, column: int) -> int:
    """The width of a 1-based column in pixels (Excel's character width converted back)."""
    dimension = ws.column_dimensions.get(get_column_letter(column))
    chars = dimension.width if dimension is not None and dimension.width else DEFAULT_COLUMN_CHARS
    return int(chars * 7 + 5)


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
    room = max(1.0, (pixels - CELL_PADDING) / CHAR_PIXELS)  # characters a line holds
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


def _bold_width(word: str) -> float:
    """A bold word's width in average characters of the default font's regular face."""
    return len(word) * BOLD_WIDTH


def fixed_rows(wb: Any) -> dict[str, set[int]]:
    """The rows (1-based) of each tab whose height the layout fixed, as recorded in the workbook."""
    try:
        recorded = json.loads(wb.custom_doc_props[FIXED_ROWS_PROPERTY].value)
    except (KeyError, TypeError, ValueError):
        return {}
    if not isinstance(recorded, dict):
        return {}
    return {str(tab): {int(r) for r in rows if isinstance(r, int)} for tab, rows in recorded.items()
            if isinstance(rows, list)}


def record_fixed_rows(wb: Any, tab: str, rows: Iterable[int]) -> None:
    """Record the rows (1-based) of ``tab`` whose height its layout fixed (replacing what was recorded for it)."""
    recorded = fixed_rows(wb)
    recorded[tab] = set(rows)
    value = json.dumps({name: sorted(rows) for name, rows in recorded.items() if rows}, separators=(",", ":"))
    props = wb.custom_doc_props
    if FIXED_ROWS_PROPERTY in props.names:
        del props[FIXED_ROWS_PROPERTY]
    props.append(StringProperty(name=FIXED_ROWS_PROPERTY, value=value))


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
    pixels: dict[int, int] = {}
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
                if column not in pixels:
                    pixels[column] = column_pixels(ws, column)
                bold = style is not None and style.fontId in bold_fonts
                lines = max(lines, lines_needed(cell.value, pixels[column], _bold_width if bold else len))
        if not wrapping:
            continue
        height = None if lines == 1 else LINE_POINTS * min(lines, MAX_LINES)
        if ws.row_dimensions[row].height != height:
            ws.row_dimensions[row].height = height
