"""openpyxl, imported without numpy.

openpyxl imports numpy when it is installed, only to accept numpy numbers as cell values;
sheets-gm never writes one. numpy is installed beside the test and plot extras, and importing
it is the largest part of a local sync's start-up (cron starts one every few minutes), so
openpyxl is imported with numpy hidden, and numpy stays importable for whoever needs it.
"""

from __future__ import annotations

import sys
from types import ModuleType


def _import_without_numpy() -> ModuleType:
    """openpyxl, imported while ``import numpy`` fails; numpy importable again afterwards."""
    hide = "numpy" not in sys.modules
    if hide:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # makes ``import numpy`` fail at once
    try:
        import openpyxl
    finally:
        if hide:
            del sys.modules["numpy"]
    module: ModuleType = openpyxl
    return module


openpyxl = _import_without_numpy()


#: The most a workbook may unpack to (every part of its zip, as its central directory says): a match's largest
#: workbook, its Log full at 20,000 lines, unpacks to a few megabytes; a file that unpacks past this is refused
#: before anything is inflated (a "zip bomb": a small file whose sheet inflates to gigabytes).
MAX_UNPACKED_BYTES = 100 * 1024 * 1024
#: The most parts a workbook may hold (a match's has a few dozen).
MAX_PARTS = 10_000


def unpacked_size_problem(data: bytes) -> str:
    """Why the .xlsx ``data`` must not be loaded ('' when it may): more than :data:`MAX_UNPACKED_BYTES` once
    unpacked, or more than :data:`MAX_PARTS` parts, read from the zip's central directory alone. A part whose
    stored size is smaller than what it inflates to is cut at that size by the zip reader (and then fails its
    check), so the sizes read here bound what loading it takes."""
    import io
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return ""  # not a zip: loading it says so
    if len(parts) > MAX_PARTS:
        return f"it holds {len(parts):,} parts (a workbook holds at most {MAX_PARTS:,})"
    unpacked = sum(part.file_size for part in parts)
    if unpacked > MAX_UNPACKED_BYTES:
        return (f"it would unpack to {unpacked:,} bytes, past the {MAX_UNPACKED_BYTES:,} bytes a workbook may "
                "unpack to")
    return ""
