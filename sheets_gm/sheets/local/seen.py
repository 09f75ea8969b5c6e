"""A loaded workbook as a reader sees it (``sheets/looks.py``): each tab's cells, their colours, font sizes and
number formats, its hidden rows and columns and whether it is hidden."""

from __future__ import annotations

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
    for (row, col), cell in ws._cells.items():  # looked up, not made (see the backend's reads)
        value = cell_out(cell)
        if value is None:
            continue
        cells[(row - 1, col - 1)] = value
        look = _look(cell)
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
