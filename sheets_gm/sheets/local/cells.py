"""Values in and out of one cell of a local workbook, as the Sheets API gives and takes them (RAW)."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterator
from copy import copy
from typing import Any

from openpyxl.cell.cell import MergedCell
from openpyxl.comments import Comment
from openpyxl.compat import safe_string
from openpyxl.styles.numbers import is_date_format, is_datetime
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._reader import _cast_number

from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sheets.local.boxes import MAX_COLS, MAX_ROWS, Box
from sheets_gm.sheets.struck import struck

MAX_CELL_CHARS = 32_767
"""The most text one cell may hold (Excel's limit, in UTF-16 units); longer text is cut."""

_FORMULA_LIKE = ("=", "+", "-", "@")
# Characters an XML 1.0 document cannot hold (the file would not open again).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_BOOL_FORMULAS = {"=TRUE()": True, "=FALSE()": False, "=TRUE": True, "=FALSE": False}


def clean_text(text: str) -> str:
    """Text as a cell can store it and give back unchanged (see "Writing" in the backend module's notes)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _NOT_XML.sub("\ufffd", text)
    if len(text) * 2 <= MAX_CELL_CHARS:
        return text
    units = 0
    for index, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > MAX_CELL_CHARS:
            return text[:index]
    return text


def _duration(value: dt.timedelta) -> str:
    seconds = value.total_seconds()
    sign = "-" if seconds < 0 else ""
    whole = int(abs(seconds))
    frac = abs(seconds) - whole
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    if frac >= 1e-6:
        text += f"{frac:.6f}"[1:].rstrip("0")
    return text


def cell_out(cell: Any) -> CellValue:
    """The value of one cell as the backend returns it; ``None`` for an empty cell."""
    value = cell.value
    if type(value) is str and cell.data_type != "f":  # text, most cells: as it is
        return value or None
    if value is None or value == "":
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return "#NUM!"  # what an office program shows for it
    if cell.data_type == "f" and isinstance(value, str):
        constant = _BOOL_FORMULAS.get(value.replace(" ", "").upper())
        if constant is not None:  # LibreOffice saves a typed TRUE as the formula =TRUE()
            return constant
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dt.datetime):
        midnight = value.time() == dt.time(0)
        if midnight and is_datetime(cell.number_format) != "datetime":
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return _duration(value)
    text = getattr(value, "text", None)  # an ArrayFormula
    if isinstance(text, str):
        return text
    return str(value)


def struck_cells(cells: dict[tuple[int, int], Any], values: list[list[CellValue]], min_row: int,
                 min_col: int) -> None:
    """Each text of ``values`` (a box of a tab from ``min_row``, ``min_col``, 1-based, as ``cell_out`` read it from
    ``cells``) whose cell's font strikes it through, whole, made a ``StruckText``; one struck in runs is one already
    (``sheets.xlsx.inline_text``: a run's own font says)."""
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            if type(value) is str and value and cells[(min_row + i, min_col + j)].font.strike:
                row[j] = struck(value, [(0, len(value))])


def store(cell: Any, value: CellValue) -> bool:
    """Store ``value`` RAW in ``cell``; True if the cell changed."""
    if value is None:
        return False
    if isinstance(value, str) and value == "":
        if cell.value is None:
            return False
        cell.value = None
        return True
    if isinstance(value, bool):
        new: bool | int | float | str = value
        data_type = "b"
    elif isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(float(f"{value:.16g}")):
            raise SheetError(f"cell {cell.coordinate}: {value!r} cannot be stored in a workbook")
        new, data_type = value, "n"
    elif isinstance(value, str):
        new, data_type = clean_text(value), "s"
        if new != value and cell.value == value and cell.data_type != "f":
            # The cell holds this very text already (a player's, longer than a cell should hold or with a character
            # mended on writing): rewriting it would cut or change what the player typed, so it is left as typed.
            # Never a formula of that text: it is written as text (cut), as any formula is.
            return False
    else:
        raise TypeError(f"cell {cell.coordinate}: cannot write a {type(value).__name__}")
    quote = data_type == "s" and str(new).startswith(_FORMULA_LIKE)
    if (
        type(cell.value) is type(new)
        and cell.value == new
        and cell.data_type == data_type
        and bool(cell.quotePrefix) == quote
    ):
        return False
    cell.value = new
    if data_type == "s":
        cell.data_type = "s"  # never "f": RAW text that starts with "=" stays text
        if quote:
            cell.quotePrefix = True
    elif cell.quotePrefix:
        cell.quotePrefix = False
    return True


def write_box(ws: Any, box: Box, values: Grid, where: str) -> bool:
    """Store ``values`` RAW from the top left of ``box`` (which must hold them unless it is one cell); True if a
    cell changed. ``where`` names the range in a refusal."""
    height = len(values)
    width = max((len(row) for row in values), default=0)
    if not box.single:
        fits_rows = box.max_row is None or height <= box.max_row - box.min_row + 1
        fits_cols = box.max_col is None or width <= box.max_col - box.min_col + 1
        if not (fits_rows and fits_cols):
            raise SheetError(f"{where} is smaller than the {height} x {width} values written to it")
    if box.min_row + height - 1 > MAX_ROWS or box.min_col + width - 1 > MAX_COLS:
        raise SheetError(f"{where}: the values run past the edge of the sheet")
    changed = False
    for cell, value in given_cells(ws, box, values):
        if isinstance(cell, MergedCell):
            raise SheetError(f"{where}: cell {cell.coordinate} of tab {ws.title!r} is inside merged cells; "
                             "unmerge them")
        changed = store(cell, value) or changed
    return changed


def numbers_read_back(ws: Any, box: Box, values: Grid) -> bool:
    """Whether every number of ``values``, stored from the top left of ``box`` (``write_box``), reads back from the
    saved file as it is held now: a number is saved to 16 digits (``0.1 + 0.2`` reads back 0.3, ``2.0`` as 2, an
    integer past 10**16 as a float) and read as a date where its cell's format shows one."""
    held = ws._cells
    for r, row in enumerate(values):
        for c, value in enumerate(row):
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            cell = held.get((box.min_row + r, box.min_col + c))
            if cell is None or is_date_format(cell.number_format):
                return False
            back = _cast_number(safe_string(value))
            if type(back) is not type(value) or back != value:
                return False
    return True


def given_cells(ws: Any, box: Box, grid: Grid) -> Iterator[tuple[Any, CellValue]]:
    """Each cell of ``box`` that ``grid`` (rows from the box's top left) gives something for, with it; a ``None``
    leaves its cell out, and so does ``""`` over a cell the sheet does not hold (it is empty already: making it
    would only add a styled empty cell to every later load and save, 90,000 of them for 10,000 rows answered)."""
    held = ws._cells
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value is None or (value == "" and (box.min_row + r, box.min_col + c) not in held):
                continue
            yield _cell(ws, box.min_row + r, box.min_col + c), value


def _cell(ws: Any, row: int, col: int) -> Any:
    """The cell at ``row``, ``col`` (1-based); one made here takes its column's style, as Excel and LibreOffice show
    an empty cell of a styled column (a Log's wrapping sentences, laid out as their column's style)."""
    if (row, col) in ws._cells:
        return ws._cells[(row, col)]
    cell = ws.cell(row=row, column=col)
    dimension = ws.column_dimensions.get(get_column_letter(col))
    if dimension is not None and dimension.has_style:
        cell._style = copy(dimension._style)
    return cell


def comment_for(text: str) -> Comment:
    """A cell comment holding ``text``, sized to show it whole on hover (an office program's default box is
    a few words wide)."""
    lines = text.split("\n")
    comment = Comment(text, "sheets-gm")
    comment.width = min(480, 24 + 7 * max(len(line) for line in lines))
    comment.height = 24 + 16 * len(lines)
    return comment
