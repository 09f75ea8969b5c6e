"""Reading as ``values.batchGet`` renders, and a write's answer read as one (the ``read_back`` snapshot)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheets_gm.sheets.google.cells import cell_value, grid_range
from sheets_gm.sheets.layout import CellValue, Grid, split_a1, trim_grid

#: How every read asks ``values.batchGet`` to render the cells.
READ_PARAMS = {
    "valueRenderOption": "FORMULA",  # a formula comes back as its text, never evaluated
    "majorDimension": "ROWS",
    "dateTimeRenderOption": "FORMATTED_STRING",  # a date a player typed reads as the text they see
}
#: Number format types ``dateTimeRenderOption=FORMATTED_STRING`` renders as the text shown.
_DATE_TYPES = frozenset({"DATE", "TIME", "DATE_TIME"})
#: What the answer to a write with a snapshot keeps of the updated spreadsheet (see ``snapshot_body``).
_SNAPSHOT_FIELDS = (
    "updatedSpreadsheet.sheets(properties.title,data(startRow,startColumn,"
    "rowData.values(userEnteredValue,formattedValue,effectiveFormat.numberFormat.type)))"
)


def snapshot_body(requests: list[dict[str, Any]], read_back: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The body and query of a spreadsheets.batchUpdate making ``requests`` and, when ``read_back`` names
    ranges, answering with them as they stand after the update (``updatedSpreadsheet``), cut by a field mask
    to what :func:`snapshot_grids` needs: each tab's title and, per cell, its user-entered value, and the
    formatted value and number format type that tell a date from a number."""
    if not read_back:
        return {"requests": requests}, {}
    return {
        "requests": requests,
        "includeSpreadsheetInResponse": True,
        "responseRanges": list(read_back),
        "responseIncludeGridData": True,  # (Google goes by the field mask when one is given)
    }, {"fields": _SNAPSHOT_FIELDS}


def snapshot_grids(payload: Any, ranges: Sequence[str]) -> list[Grid] | None:
    """Each of ``ranges`` as the backend's ``read`` gives it, from the ``updatedSpreadsheet`` of a
    spreadsheets.batchUpdate answer asked with :func:`snapshot_body`; None unless the answer holds, for each
    tab, one grid per range asked there, in the order asked, each starting where its range starts."""
    updated = payload.get("updatedSpreadsheet", {}) if isinstance(payload, dict) else {}
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
        return str(entered["stringValue"])
    if "boolValue" in entered:
        return bool(entered["boolValue"])
    shown = cell.get("formattedValue")
    if "numberValue" in entered:
        kind = cell.get("effectiveFormat", {}).get("numberFormat", {}).get("type")
        return str(shown) if kind in _DATE_TYPES and shown is not None else cell_value(entered["numberValue"])
    if "errorValue" in entered:
        return None if shown is None else str(shown)
    return None
