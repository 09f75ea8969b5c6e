"""Reading as ``values.batchGet`` renders, and a write's answer read as one (the ``read_back`` snapshot)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheets_gm.sheets.google.cells import cell_value, grid_range
from sheets_gm.sheets.layout import CellValue, Grid, split_a1, trim_grid
from sheets_gm.sheets.struck import from_runs

#: How every read asks ``values.batchGet`` to render the cells.
READ_PARAMS = {
    "valueRenderOption": "FORMULA",  # a formula comes back as its text, never evaluated
    "majorDimension": "ROWS",
    "dateTimeRenderOption": "FORMATTED_STRING",  # a date a player typed reads as the text they see
}
#: Number format types ``dateTimeRenderOption=FORMATTED_STRING`` renders as the text shown.
_DATE_TYPES = frozenset({"DATE", "TIME", "DATE_TIME"})
#: What a read's answer keeps of each tab: its title and, per cell, what ``snapshot_cell`` needs.
_GRID_FIELDS = ("sheets(properties.title,data(startRow,startColumn,"
                "rowData.values(userEnteredValue,formattedValue,effectiveFormat.numberFormat.type)))")
#: The same with what says a text is struck through: its cell's font as set (a player's strike, a paste's, an
#: upload's; not ``effectiveFormat``'s, which answers ``"strikethrough": false`` for every formatted cell, empty
#: ones too: three times the bytes), and its runs' (where each starts).
STRUCK_FIELDS = ("sheets(properties.title,data(startRow,startColumn,"
                 "rowData.values(userEnteredValue,formattedValue,"
                 "effectiveFormat.numberFormat.type,userEnteredFormat.textFormat.strikethrough,"
                 "textFormatRuns(startIndex,format.strikethrough))))")


def snapshot_body(requests: list[dict[str, Any]], read_back: Sequence[str],
                  struck: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
    """The body and query of a spreadsheets.batchUpdate making ``requests`` and, when ``read_back`` names
    ranges, answering with them as they stand after the update (``updatedSpreadsheet``), cut by a field mask
    to what :func:`snapshot_grids` needs: each tab's title and, per cell, its user-entered value, and the
    formatted value and number format type that tell a date from a number (and, with ``struck``, what strikes a
    text through: :data:`STRUCK_FIELDS`)."""
    if not read_back:
        return {"requests": requests}, {}
    return {
        "requests": requests,
        "includeSpreadsheetInResponse": True,
        "responseRanges": list(read_back),
        "responseIncludeGridData": True,  # (Google goes by the field mask when one is given)
    }, {"fields": f"updatedSpreadsheet.{STRUCK_FIELDS if struck else _GRID_FIELDS}"}


def snapshot_grids(payload: Any, ranges: Sequence[str]) -> list[Grid] | None:
    """Each of ``ranges`` as the backend's ``read`` gives it, from the ``updatedSpreadsheet`` of a
    spreadsheets.batchUpdate answer asked with :func:`snapshot_body`; None unless the answer holds, for each
    tab, one grid per range asked there, in the order asked, each starting where its range starts."""
    return spreadsheet_grids(payload.get("updatedSpreadsheet", {}) if isinstance(payload, dict) else {}, ranges)


def spreadsheet_grids(updated: Any, ranges: Sequence[str]) -> list[Grid] | None:
    """Each of ``ranges`` as the backend's ``read`` gives it, from a Spreadsheet resource whose tabs hold one grid
    per range asked there (a spreadsheets.get of those ranges, or a write's ``updatedSpreadsheet``); None unless
    it holds them all, in the order asked, each starting where its range starts."""
    found: dict[str, list[Any]] = {}
    for sheet in updated.get("sheets", []) if isinstance(updated, dict) else []:
        title = str(sheet.get("properties", {}).get("title", "")).casefold()
        found.setdefault(title, []).extend(sheet.get("data", []))
    used: dict[str, int] = {}
    out: list[Grid] = []
    for full in ranges:
        tab, cells = split_a1(full)
        at = used[tab.casefold()] = used.get(tab.casefold(), 0) + 1
        grids = found.get(tab.casefold(), [])
        try:
            box = grid_range(0, cells)
        except ValueError:
            return None
        if at > len(grids) or not isinstance(grids[at - 1], dict):
            return None
        data = grids[at - 1]  # Google leaves a zero start out
        if (data.get("startRow", 0), data.get("startColumn", 0)) != (box.get("startRowIndex", 0),
                                                                     box.get("startColumnIndex", 0)):
            return None
        out.append(trim_grid([[snapshot_cell(cell) for cell in row.get("values", [])]
                              for row in data.get("rowData", [])]))
    if any(len(grids) != used.get(title, 0) for title, grids in found.items()):
        return None
    return out


def snapshot_cell(cell: Any) -> CellValue:
    """One CellData as ``values.batchGet`` renders it with :data:`READ_PARAMS`: a formula as its text, a number
    formatted as a date or time as the text shown, an error as shown, anything else as its value."""
    if not isinstance(cell, dict):
        return None
    entered = cell.get("userEnteredValue") or {}
    if "formulaValue" in entered:
        return str(entered["formulaValue"])
    if "stringValue" in entered:
        return _struck_text(str(entered["stringValue"]), cell)
    if "boolValue" in entered:
        return bool(entered["boolValue"])
    shown = cell.get("formattedValue")
    if "numberValue" in entered:
        kind = cell.get("effectiveFormat", {}).get("numberFormat", {}).get("type")
        return str(shown) if kind in _DATE_TYPES and shown is not None else cell_value(entered["numberValue"])
    if "errorValue" in entered:
        return None if shown is None else str(shown)
    return None


def _struck_text(text: str, cell: dict[str, Any]) -> str:
    """``text`` as ``sheets.struck`` gives it where its cell's font or runs of it strike it through (what a read
    asked with :data:`STRUCK_FIELDS` tells: a run's format left out keeps the cell's)."""
    runs = cell.get("textFormatRuns")
    whole = bool(cell.get("userEnteredFormat", {}).get("textFormat", {}).get("strikethrough"))
    if not whole and not runs:
        return text
    return from_runs(text, whole, [(int(run.get("startIndex", 0)), run.get("format", {}).get("strikethrough"))
                                   for run in runs or () if isinstance(run, dict)])
