"""A loaded workbook as a reader sees it (``sheets/looks.py``): each tab's cells, their colours, font sizes and
number formats, its hidden rows and columns and whether it is hidden."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openpyxl.styles.colors import COLOR_INDEX
from openpyxl.utils import column_index_from_string

from sheets_gm.sheets.local.cells import cell_out
from sheets_gm.sheets.looks import BLACK, MIN_PIXELS, WHITE, Look, TabSeen

#: The theme colours a workbook's cells name by index that every theme gives the same: the background and text.
_THEME = {0: WHITE, 1: BLACK}


def seen_workbook(wb: Any) -> list[TabSeen]:
    """Every tab of the loaded workbook ``wb``, in order, as a reader sees it."""
    return [_seen_tab(ws) for ws in wb.worksheets]


def _seen_tab(ws: Any) -> TabSeen:
    cells: dict[tuple[int, int], Any] = {}
    looks: dict[tuple[int, int], Look] = {}
    rules = sorted(((rule.priority or 0, i, cf.sqref.ranges, rule) for i, cf in enumerate(ws.conditional_formatting)
                    for rule in cf.rules), key=lambda item: (item[0], item[1]))
    for (row, col), cell in ws._cells.items():  # looked up, not made (see the backend's reads)
        value = cell_out(cell)
        if value is None:
            continue
        cells[(row - 1, col - 1)] = value
        look = _conditional(rules, row, col, value, _look(cell))
        if look != Look():
            looks[(row - 1, col - 1)] = look
    rows = frozenset(r - 1 for r, dim in ws.row_dimensions.items()
                     if dim.hidden or (dim.ht is not None and dim.ht / 0.75 < MIN_PIXELS))
    cols: set[int] = set()
    for key, dim in ws.column_dimensions.items():
        first = dim.min or column_index_from_string(key)
        if dim.hidden or (dim.customWidth and dim.width is not None and dim.width * 7 + 5 < MIN_PIXELS):
            cols.update(range(first - 1, (dim.max or first)))
    return TabSeen(ws.title, ws.sheet_state != "visible", cells, looks, rows, frozenset(cols))


def _look(cell: Any) -> Look:
    """How ``cell`` shows its value."""
    font, fill = cell.font, cell.fill
    solid = fill is not None and fill.patternType == "solid"
    return Look(font=_colour(font.color, BLACK) if font is not None else BLACK,
                fill=_colour(fill.fgColor, WHITE) if solid else WHITE,
                size=float(font.sz) if font is not None and font.sz is not None else None,
                number_format="" if cell.number_format in ("General", "@") else str(cell.number_format))


#: The conditional formats whose condition is read here (what the layouts write, and the text tests like it); any
#: other rule is taken to hold: a rule typed by hand that would hide a line is named whatever its condition.
_TEXT_TESTS: dict[str, Callable[[str, str], bool]] = {
    "beginsWith": lambda text, value: value.lower().startswith(text.lower()),
    "endsWith": lambda text, value: value.lower().endswith(text.lower()),
    "containsText": lambda text, value: text.lower() in value.lower(),
    "notContainsText": lambda text, value: text.lower() not in value.lower(),
}


def _conditional(rules: list[tuple[int, int, Any, Any]], row: int, col: int, value: Any, look: Look) -> Look:
    """``look`` with the first of the tab's conditional formats (``rules``: by priority, each with its ranges) over
    the cell (1-based row and column) whose condition holds laid over it, as an office program shows the cell."""
    for _priority, _index, ranges, rule in rules:
        if not any(r.min_row <= row <= r.max_row and r.min_col <= col <= r.max_col for r in ranges):
            continue
        test = _TEXT_TESTS.get(rule.type)
        if test is not None and not test(str(rule.text or ""), str(value)):
            continue
        style = rule.dxf
        if style is None:
            return look
        fill = style.fill
        shade = (fill.fgColor if fill.fgColor is not None and fill.fgColor.rgb not in (None, "00000000")
                 else fill.bgColor) if fill is not None else None
        font = style.font
        return Look(font=_colour(font.color, look.font or BLACK) if font is not None and font.color is not None
                    else look.font,
                    fill=_colour(shade, look.fill or WHITE) if shade is not None else look.fill,
                    size=float(font.sz) if font is not None and font.sz is not None else look.size,
                    number_format=str(style.numFmt.formatCode) if style.numFmt is not None else look.number_format)
    return look


def _colour(colour: Any, default: str) -> str | None:
    """``#RRGGBB`` of an openpyxl colour (``default`` when none is set; None for a theme colour no theme fixes)."""
    if colour is None:
        return default
    kind = getattr(colour, "type", "rgb")
    if kind == "rgb" and isinstance(colour.rgb, str):
        return "#" + str(colour.rgb)[-6:].upper()
    if kind == "indexed" and isinstance(colour.indexed, int):
        if colour.indexed < len(COLOR_INDEX):
            return "#" + str(COLOR_INDEX[colour.indexed])[-6:].upper()
        return BLACK if colour.indexed == 64 else WHITE if colour.indexed == 65 else default  # the system's
    if kind == "theme":
        return _THEME.get(colour.theme) if isinstance(colour.theme, int) else None
    return default
