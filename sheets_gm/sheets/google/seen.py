"""A spreadsheet as a reader sees it (``sheets/looks.py``), from ONE ``spreadsheets.get`` cut by a field mask.

A field mask that names ``sheets.data`` makes Google answer with every tab's grid (``includeGridData`` is ignored
when a mask is given): per cell only what was entered, what it shows and the parts of its effective format that can
hide it (the number format, the fill, the text's size and colour: effective, so a conditional format's colours
count; each colour as a ColorStyle and as the plain Color the API still gives, which a theme colour needs), and per
row and column whether it is hidden and its size.
"""

from __future__ import annotations

from typing import Any

from sheets_gm.sheets.google.snapshot import snapshot_cell
from sheets_gm.sheets.looks import BLACK, MIN_PIXELS, WHITE, Look, TabSeen, hex_colour

#: What the read asks of each tab: its title and whether it is hidden, and its grid as the module says.
SEEN_FIELDS = (
    "sheets(properties(title,hidden),data(startRow,startColumn,"
    "rowData.values(userEnteredValue,formattedValue,effectiveFormat(numberFormat,backgroundColor,"
    "backgroundColorStyle,textFormat(fontSize,foregroundColor,foregroundColorStyle))),"
    "rowMetadata(hiddenByUser,hiddenByFilter,pixelSize),columnMetadata(hiddenByUser,pixelSize)))"
)


def seen_sheets(payload: Any) -> list[TabSeen]:
    """Every tab of a ``spreadsheets.get`` answer asked with :data:`SEEN_FIELDS`, in order."""
    sheets = payload.get("sheets", []) if isinstance(payload, dict) else []
    return [_seen_sheet(sheet) for sheet in sheets if isinstance(sheet, dict)]


def _seen_sheet(sheet: dict[str, Any]) -> TabSeen:
    props = sheet.get("properties", {})
    cells: dict[tuple[int, int], Any] = {}
    looks: dict[tuple[int, int], Look] = {}
    rows: set[int] = set()
    cols: set[int] = set()
    for data in sheet.get("data", []):
        r0, c0 = int(data.get("startRow", 0)), int(data.get("startColumn", 0))
        for i, row in enumerate(data.get("rowData", [])):
            for j, cell in enumerate(row.get("values", [])):
                value = snapshot_cell(cell)
                if value is None or value == "":
                    continue
                cells[(r0 + i, c0 + j)] = value
                looks[(r0 + i, c0 + j)] = _look(cell.get("effectiveFormat", {}))
        rows |= {r0 + i for i, meta in enumerate(data.get("rowMetadata", [])) if _hidden(meta)}
        cols |= {c0 + j for j, meta in enumerate(data.get("columnMetadata", [])) if _hidden(meta)}
    return TabSeen(str(props.get("title", "")), bool(props.get("hidden", False)), cells, looks, frozenset(rows),
                   frozenset(cols))


def _hidden(meta: Any) -> bool:
    """Whether a row's or column's DimensionProperties hide it (by hand, by a filter, or too small to show text)."""
    return isinstance(meta, dict) and bool(meta.get("hiddenByUser") or meta.get("hiddenByFilter")
                                           or int(meta.get("pixelSize", MIN_PIXELS)) < MIN_PIXELS)


def _look(fmt: dict[str, Any]) -> Look:
    """A cell's effective format as a ``Look`` (a colour left out of a Color is 0, as the API leaves zeros out)."""
    text = fmt.get("textFormat", {})
    size = text.get("fontSize")
    return Look(font=_colour(text.get("foregroundColorStyle"), text.get("foregroundColor"), BLACK),
                fill=_colour(fmt.get("backgroundColorStyle"), fmt.get("backgroundColor"), WHITE),
                size=float(size) if isinstance(size, int | float) else None,
                number_format=str(fmt.get("numberFormat", {}).get("pattern", "")))


def _colour(style: Any, plain: Any, default: str) -> str | None:
    """``#RRGGBB`` of a ColorStyle, or of its plain Color where the style names a theme colour (``default`` when
    neither is given; None when only a theme's name is known)."""
    rgb = style.get("rgbColor") if isinstance(style, dict) else None
    if not isinstance(rgb, dict):
        rgb = plain if isinstance(plain, dict) else None
    if rgb is None:
        return None if isinstance(style, dict) else default
    return hex_colour(*(float(rgb.get(k, 0.0)) for k in ("red", "green", "blue")))
