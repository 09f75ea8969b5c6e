"""Open workbooks in LibreOffice and save each as a PDF, an HTML page or an .xlsx, as ``soffice --convert-to`` does
(Calc's own export filters), into a folder (run by the system ``python3``, which has LibreOffice's ``uno`` module).

    python3 tests/office/lo_convert.py FORMAT OUT_DIR PROFILE_DIR BOOK.xlsx ...

FORMAT is ``pdf``, ``html`` or ``xlsx``; each ``BOOK.xlsx`` is saved as ``OUT_DIR/BOOK.FORMAT``. LibreOffice is the
one listening on the pipe ``lo_office.LISTENER_VARIABLE`` names, else started with its own profile in PROFILE_DIR.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import uno  # type: ignore[import-not-found]
from lo_office import opened, prop, run_in_office  # type: ignore[import-not-found]  # run as a script

#: The filter ``soffice --convert-to FORMAT`` saves a Calc document with.
FILTERS = {"pdf": "calc_pdf_Export", "html": "HTML (StarCalc)", "xlsx": "Calc MS Excel 2007 XML"}


def main(to: str, out: str, profile: str, paths: list[str]) -> int:
    folder = Path(out).resolve()
    folder.mkdir(parents=True, exist_ok=True)

    def convert(desktop: Any) -> None:
        for path in paths:
            with opened(desktop, path, read_only=True) as doc:
                target = uno.systemPathToFileUrl(str(folder / f"{Path(path).stem}.{to}"))
                doc.storeToURL(target, (prop("FilterName", FILTERS[to]), prop("Overwrite", True)))

    return int(run_in_office(profile, "sheets_gm_lo_convert", convert))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
