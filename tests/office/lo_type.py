"""Type cells into .xlsx workbooks through LibreOffice itself and save them, as a player does (run by the system
``python3``, which has LibreOffice's ``uno`` module; the tests' own interpreter need not).

    python3 tests/office/lo_type.py JOB.json PROFILE_DIR

JOB.json maps each workbook's path to its cells: ``[[tab, cell, value], ...]``; a value is entered as typed in a
cell (``F7`` is text, ``12`` a number, ``TRUE`` a ticked box). A value may also be a paste, as a player pastes a block
copied from another sheet, its top left at ``cell``: ``{"rows": [[...], ...]}`` pastes those rows, ``{"fill":
"note {row} {col}", "rows": R, "cols": C}`` a block of R rows and C columns of that text; ``cell`` ``"under"`` pastes
two rows under everything the tab holds. A sheet the paste covers is unprotected first (a player does so to paste
over its locked cells; it has no password), and a tab that is not there is inserted first, at ``"position"`` in the
paste (default: last). LibreOffice runs headless with its own profile in PROFILE_DIR; the script starts it, waits
for it to accept the connection, types, saves each workbook as .xlsx (Calc's own Excel 2007-365 filter), and
stops it; or it types in the LibreOffice the tests keep listening (``lo_office.office_desktop``), left running.

A value ``{"text": …, "strike": [[start, end], …]}`` types the text and strikes those characters through, as a
player selects words in the cell and strikes them (``"strike": "cell"``: the whole cell, from its format).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lo_office import opened, prop, run_in_office  # type: ignore[import-not-found]  # run as a script

PIPE = "sheets_gm_lo_type"


def _paste(doc: object, tab: str, cell: str, paste: dict[str, object]) -> None:
    """Paste the block ``paste`` describes (see the module notes) into ``tab`` of ``doc`` from ``cell``."""
    sheets = doc.Sheets  # type: ignore[attr-defined]
    if not sheets.hasByName(tab):
        sheets.insertNewByName(tab, int(paste.get("position", sheets.getCount())))  # type: ignore[call-overload]
    sheet = sheets.getByName(tab)
    if sheet.isProtected():
        sheet.unprotect("")
    if cell == "under":
        cursor = sheet.createCursor()
        cursor.gotoEndOfUsedArea(False)
        top, left = cursor.RangeAddress.EndRow + 2, 0
    else:
        address = sheet.getCellRangeByName(cell).RangeAddress
        top, left = address.StartRow, address.StartColumn
    if "fill" in paste:
        text, height, width = str(paste["fill"]), int(paste["rows"]), int(paste["cols"])  # type: ignore[call-overload]
        for first in range(0, height, 10_000):  # a block at a time: one call of 700,000 cells is slow to build
            count = min(10_000, height - first)
            block = tuple(tuple(text.format(row=first + r + 1, col=c + 1) for c in range(width))
                          for r in range(count))
            target = sheet.getCellRangeByPosition(left, top + first, left + width - 1, top + first + count - 1)
            target.setDataArray(block)
        return
    rows = tuple(tuple(row) for row in paste["rows"])  # type: ignore[attr-defined]
    if rows:
        width = max(len(row) for row in rows)
        block = tuple(tuple(row) + ("",) * (width - len(row)) for row in rows)
        sheet.getCellRangeByPosition(left, top, left + width - 1, top + len(block) - 1).setDataArray(block)


def _strike(cell: object, value: dict[str, object]) -> None:
    """Type ``value["text"]`` into ``cell`` and strike through what ``value["strike"]`` says (see the module notes)."""
    cell.setString(str(value["text"]))  # type: ignore[attr-defined]
    strike = value.get("strike")
    if strike == "cell":
        cell.CharStrikeout = SINGLE  # type: ignore[attr-defined]
        return
    for start, end in strike or ():  # type: ignore[attr-defined]
        cursor = cell.createTextCursor()  # type: ignore[attr-defined]
        cursor.gotoStart(False)
        cursor.goRight(int(start), False)
        cursor.goRight(int(end) - int(start), True)
        cursor.CharStrikeout = SINGLE


#: com.sun.star.awt.FontStrikeout.SINGLE: one line through the text.
SINGLE = 1


def main(job_path: str, profile: str) -> int:
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))

    def type_all(desktop: object) -> None:
        for path, cells in job.items():
            with opened(desktop, path) as doc:
                for tab, cell, value in cells:
                    if isinstance(value, dict) and "text" in value:
                        _strike(doc.Sheets.getByName(tab).getCellRangeByName(cell), value)
                        continue
                    if isinstance(value, dict):
                        _paste(doc, tab, cell, value)
                        continue
                    target = doc.Sheets.getByName(tab).getCellRangeByName(cell)
                    target.setFormula("=TRUE()" if value is True else "=FALSE()" if value is False else str(value))
                doc.storeToURL(doc.getURL(), (prop("FilterName", "Calc MS Excel 2007 XML"),
                                              prop("Overwrite", True)))

    return int(run_in_office(profile, PIPE, type_all))  # its own pipe: runs may overlap


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
