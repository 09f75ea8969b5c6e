"""LibreOffice's and Excel's lock files: a workbook open in an office program is never written."""

from __future__ import annotations

import contextlib
from pathlib import Path

from sheets_gm.sheets.backend import WorkbookOpenError


def refuse_if_open(path: Path) -> None:
    """Raise :class:`WorkbookOpenError` if LibreOffice or Excel holds the workbook at ``path`` open (its lock file is
    there, beside the path as given or as resolved): the office program would overwrite the sync's changes on its
    next save, or the sync would overwrite unsaved typing."""
    paths = {path}
    with contextlib.suppress(OSError):
        paths.add(path.resolve())
    for each in sorted(paths):
        for lock in office_lock_files(each):
            program = "LibreOffice" if lock.name.startswith(".~lock.") else "Excel"
            holder = f"{program}{_read_lock_owner(lock)} (lock file {lock.name})"
            raise WorkbookOpenError(
                f"{path} is open in {holder}: save your changes and close the file there, then sync again; writing "
                f"now would lose edits. If it is not open anywhere, delete {lock}", path=str(path), holder=holder)


def office_lock_files(path: Path) -> list[Path]:
    """The lock files LibreOffice and Excel leave next to ``path`` while it is open.

    LibreOffice writes ``.~lock.<name>#``; Excel writes ``~$<name>``, or with the first two
    characters of a long name replaced (``~$ngFileName.xlsx``). Only existing ones are listed.
    """
    name = path.name
    candidates = [f".~lock.{name}#", f"~${name}"]
    if len(Path(name).stem) > 2:
        candidates.append(f"~${name[2:]}")
    return [path.parent / c for c in candidates if (path.parent / c).is_file()]


def _read_lock_owner(lock: Path) -> str:
    """Who holds an office lock file, if it says (best effort, never raises)."""
    try:
        data = lock.read_bytes()[:512]
    except OSError:
        return ""
    if lock.name.startswith(".~lock."):
        # LibreOffice: "u,Full Name,host,date,url;" (the first field may be empty)
        parts = data.decode("utf-8", "replace").split(",")
        if len(parts) >= 3 and parts[1].strip():
            return f" by {parts[1].strip()} on {parts[2].strip()}"
        return ""
    if data and 0 < data[0] < len(data):  # Excel: a length byte, then the user name
        name = data[1 : 1 + data[0]].decode("latin-1").strip()
        if name.isprintable() and name:
            return f" by {name}"
    return ""
