"""Cells as the Sheets API takes and gives them: A1 ranges as GridRanges, values sent RAW, ``updateCells`` requests."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.layout import CellValue, Grid

#: Google's limit on the characters of one cell; longer text is cut to it.
MAX_CELL_CHARS = 50_000

_CELLS_RE = re.compile(r"^\$?([A-Za-z]{0,3})\$?(\d*)(?::\$?([A-Za-z]{0,3})\$?(\d*))?$")


def column_index(letters: str) -> int:
    """The 0-based index of a column: ``A`` is 0, ``Z`` 25, ``AA`` 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def grid_range(sheet_id: int, cells: str) -> dict[str, int]:
    """A Sheets API GridRange for the cell part of an A1 range (``B3``, ``B3:D9``, ``B:D``,
    ``3:5``, ``A2:E``; empty is the whole sheet). Indexes are 0-based and half open."""
    out: dict[str, int] = {"sheetId": sheet_id}
    cells = cells.strip()
    if not cells:
        return out
    m = _CELLS_RE.match(cells)
    if m is None or not (m.group(1) or m.group(2)):
        raise ValueError(f"not an A1 range: {cells!r}")
    c1, r1, c2, r2 = m.groups()
    if c1:
        out["startColumnIndex"] = column_index(c1)
    if r1:
        if int(r1) < 1:
            raise ValueError(f"not an A1 range: {cells!r}")
        out["startRowIndex"] = int(r1) - 1
    if c2 is None and r2 is None:  # a single cell, column or row
        if c1:
            out["endColumnIndex"] = out["startColumnIndex"] + 1
        if r1:
            out["endRowIndex"] = int(r1)
        return out
    if c2:
        out["endColumnIndex"] = column_index(c2) + 1
    if r2:
        out["endRowIndex"] = int(r2)
    if out.get("startColumnIndex", 0) >= out.get("endColumnIndex", 1 << 30) or out.get(
        "startRowIndex", 0
    ) >= out.get("endRowIndex", 1 << 30):
        raise ValueError(f"A1 range ends before it starts: {cells!r}")
    return out


def raw_value(value: CellValue) -> CellValue:
    """A value as sent RAW: None stays JSON null (Google leaves that cell unchanged), "" clears,
    text longer than Google's per-cell limit is cut to it."""
    if isinstance(value, float) and not math.isfinite(value):
        raise SheetError(f"cannot write {value!r} to a spreadsheet cell")
    if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
        return value[:MAX_CELL_CHARS]
    return value


def _extended_value(value: str | int | float | bool) -> dict[str, Any]:
    raw = raw_value(value)
    if raw == "":
        return {}
    if isinstance(raw, bool):
        return {"boolValue": raw}
    if isinstance(raw, int | float):
        return {"numberValue": raw}
    return {"stringValue": raw}  # never formulaValue: text stays text


def cell_value(value: Any) -> CellValue:
    """One value of a Sheets answer as the backend gives it: text, a bool or a number as it is, anything else as
    text; ``None`` for none."""
    if isinstance(value, str | bool | int | float):
        return value
    return None if value is None else str(value)


def value_requests(sid: int, row0: int, col0: int, rows: Grid) -> list[dict[str, Any]]:
    """updateCells requests writing ``rows`` RAW from (row0, col0): one for the whole block, or
    one per run of cells when some are None (None leaves a cell unchanged, "" clears it)."""

    def cell(v: str | int | float | bool) -> dict[str, Any]:
        ev = _extended_value(v)
        return {"userEnteredValue": ev} if ev else {}

    return _cell_requests(sid, row0, col0, rows, "userEnteredValue", cell)


def note_requests(sid: int, row0: int, col0: int, notes: Grid) -> list[dict[str, Any]]:
    """updateCells requests setting the notes of ``notes`` from (row0, col0) ("" removes a note, None leaves it)."""

    def cell(v: str | int | float | bool) -> dict[str, Any]:
        text = str(raw_value(v))
        return {"note": text} if text else {}

    return _cell_requests(sid, row0, col0, notes, "note", cell)


def _cell_requests(sid: int, row0: int, col0: int, rows: Grid, field: str,
                   cell: Callable[[str | int | float | bool], dict[str, Any]]) -> list[dict[str, Any]]:
    """updateCells requests writing ``field`` of each cell of ``rows`` from (row0, col0), ``cell`` making its
    CellData: one request for the whole block, or one per run of cells when some are None (left unchanged)."""

    def request(r: int, c: int, block: list[list[dict[str, Any]]]) -> dict[str, Any]:
        return {
            "updateCells": {
                "start": {"sheetId": sid, "rowIndex": r, "columnIndex": c},
                "rows": [{"values": cells} for cells in block],
                "fields": field,
            }
        }

    if all(v is not None for row in rows for v in row):
        return [request(row0, col0, [[cell(v) for v in row if v is not None] for row in rows])]
    out = []
    for i, row in enumerate(rows):
        j = 0
        while j < len(row):
            if row[j] is None:
                j += 1
                continue
            k = j
            run: list[dict[str, Any]] = []
            while k < len(row) and (v := row[k]) is not None:
                run.append(cell(v))
                k += 1
            out.append(request(row0 + i, col0 + j, [run]))
            j = k
    return out
