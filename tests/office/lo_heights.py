"""Ask LibreOffice itself how tall each row sheets-gm sized should be: for every visible tab of each workbook given,
every row whose height the file sets, its height and LibreOffice's own optimal height for its text (Calc's
"optimal row height", which wraps each cell as it shows and prints it). Run by the system ``python3``, which has
LibreOffice's ``uno`` module (in the LibreOffice the tests keep listening, else one of its own: ``lo_office.py``);
prints JSON: ``{"<file> · <tab>": [[row, height, optimal], ...]}`` in points.

    python3 tests/office/lo_heights.py PROFILE_DIR BOOK.xlsx ...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lo_office import opened, run_in_office  # type: ignore[import-not-found]  # run as a script

#: Hundredths of a millimetre (LibreOffice's unit) in a point.
UNITS_PER_POINT = 2540 / 72


def _rows(doc: object, name: str) -> dict[str, list[list[float]]]:
    """Each visible tab's sized rows of ``doc``: (row, height, LibreOffice's optimal height) in points."""
    out: dict[str, list[list[float]]] = {}
    sheets = doc.Sheets  # type: ignore[attr-defined]
    for i in range(sheets.Count):
        sheet = sheets.getByIndex(i)
        if not sheet.IsVisible:
            continue
        cursor = sheet.createCursor()
        cursor.gotoEndOfUsedArea(False)
        rows = []
        for r in range(cursor.RangeAddress.EndRow + 1):
            row = sheet.Rows.getByIndex(r)
            if not row.IsVisible or row.OptimalHeight:
                continue
            height = row.Height
            row.OptimalHeight = True
            rows.append([r + 1, round(height / UNITS_PER_POINT, 1), round(row.Height / UNITS_PER_POINT, 1)])
        out[f"{name} · {sheet.Name}"] = rows
    return out


def main(profile: str, paths: list[str]) -> int:
    out: dict[str, list[list[float]]] = {}

    def measure(desktop: object) -> None:
        for path in paths:
            with opened(desktop, path) as doc:
                out.update(_rows(doc, Path(path).name))

    status = int(run_in_office(profile, "sheets_gm_lo_heights", measure))
    if status == 0:
        print(json.dumps(out))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
