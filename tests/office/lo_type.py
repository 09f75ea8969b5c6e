"""Type cells into .xlsx workbooks through LibreOffice itself and save them, as a player does (run by the system
``python3``, which has LibreOffice's ``uno`` module; the tests' own interpreter need not).

    python3 tests/office/lo_type.py JOB.json PROFILE_DIR

JOB.json maps each workbook's path to its cells: ``[[tab, cell, value], ...]``; a value is entered as typed in a
cell (``F7`` is text, ``12`` a number, ``TRUE`` a ticked box). LibreOffice runs headless with its own profile in
PROFILE_DIR; the script starts it, waits for it to accept the connection, types, saves each workbook as .xlsx
(Calc's own Excel 2007-365 filter), and stops it.
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

PIPE = "sheets_gm_lo_type"


def _prop(name: str, value: object) -> PropertyValue:
    prop = PropertyValue()
    prop.Name, prop.Value = name, value
    return prop


def main(job_path: str, profile: str) -> int:
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    pipe = f"{PIPE}_{os.getpid()}"  # its own: every test names its profile lo-profile, and runs may overlap
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
        for path, cells in job.items():
            url = uno.systemPathToFileUrl(str(Path(path).resolve()))
            doc = desktop.loadComponentFromURL(url, "_blank", 0, (_prop("Hidden", True),))
            for tab, cell, value in cells:
                target = doc.Sheets.getByName(tab).getCellRangeByName(cell)
                target.setFormula("=TRUE()" if value is True else "=FALSE()" if value is False else str(value))
            doc.storeToURL(url, (_prop("FilterName", "Calc MS Excel 2007 XML"), _prop("Overwrite", True)))
            doc.close(True)
        with contextlib.suppress(Exception):  # the bridge goes down with LibreOffice
            desktop.terminate()
        office.wait(timeout=60)
        return 0
    finally:
        if office.poll() is None:
            office.kill()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
