"""Open workbooks in LibreOffice and save each as a PDF, an HTML page or an .xlsx, as ``soffice --convert-to`` does
(Calc's own export filters), into a folder (run by the system ``python3``, which has LibreOffice's ``uno`` module).

    python3 tests/office/lo_convert.py FORMAT OUT_DIR PROFILE_DIR BOOK.xlsx ...

FORMAT is ``pdf``, ``html`` or ``xlsx``; each ``BOOK.xlsx`` is saved as ``OUT_DIR/BOOK.FORMAT``. LibreOffice is the
one listening on the pipe ``lo_office.LISTENER_VARIABLE`` names, else started with its own profile in PROFILE_DIR.
"""

from __future__ import annotations

import sys
from pathlib import Path

import uno  # type: ignore[import-not-found]
from lo_office import OfficeNotStarted, office_desktop, prop  # type: ignore[import-not-found]  # run as a script

#: The filter ``soffice --convert-to FORMAT`` saves a Calc document with.
FILTERS = {"pdf": "calc_pdf_Export", "html": "HTML (StarCalc)", "xlsx": "Calc MS Excel 2007 XML"}


def main(to: str, out: str, profile: str, paths: list[str]) -> int:
    Path(out).mkdir(parents=True, exist_ok=True)
    try:
        with office_desktop(profile, "sheets_gm_lo_convert") as desktop:
            for path in paths:
                source = Path(path).resolve()
                doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(str(source)), "_blank", 0,
                                                   (prop("Hidden", True), prop("ReadOnly", True)))
                try:
                    target = uno.systemPathToFileUrl(str(Path(out).resolve() / f"{source.stem}.{to}"))
                    doc.storeToURL(target, (prop("FilterName", FILTERS[to]), prop("Overwrite", True)))
                finally:
                    doc.close(True)
    except OfficeNotStarted as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
