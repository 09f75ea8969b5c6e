"""Ask LibreOffice itself how tall each row sheets-gm sized should be: for every visible tab of each workbook given,
every row whose height the file sets, its height and LibreOffice's own optimal height for its text (Calc's
"optimal row height", which wraps each cell as it shows and prints it). Run by the system ``python3``, which has
LibreOffice's ``uno`` module; prints JSON: ``{"<file> · <tab>": [[row, height, optimal], ...]}`` in points.

    python3 tests/office/lo_heights.py PROFILE_DIR BOOK.xlsx ...
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]
from com.sun.star.connection import NoConnectException  # type: ignore[import-not-found]

#: Hundredths of a millimetre (LibreOffice's unit) in a point.
UNITS_PER_POINT = 2540 / 72


def _hidden() -> PropertyValue:
    prop = PropertyValue()
    prop.Name, prop.Value = "Hidden", True
    return prop


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
    pipe = f"sheets_gm_lo_heights_{os.getpid()}"
    office = subprocess.Popen(["soffice", "--headless", "--invisible", "--norestore", "--nologo", "--nodefault",
                               f"-env:UserInstallation=file://{profile}", f"--accept=pipe,name={pipe};urp;"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        for _ in range(600):  # LibreOffice takes a few seconds to start: nothing to do but wait for it
            try:
                ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                break
            except NoConnectException:
                time.sleep(0.1)
        else:
            print("LibreOffice did not start", file=sys.stderr)
            return 1
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        out: dict[str, list[list[float]]] = {}
        for path in paths:
            url = uno.systemPathToFileUrl(str(Path(path).resolve()))
            doc = desktop.loadComponentFromURL(url, "_blank", 0, (_hidden(),))
            out.update(_rows(doc, Path(path).name))
            doc.close(True)
        print(json.dumps(out))
        with contextlib.suppress(Exception):  # the bridge goes down with LibreOffice
            desktop.terminate()
        office.wait(timeout=60)
        return 0
    finally:
        if office.poll() is None:
            office.kill()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
