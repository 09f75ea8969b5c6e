"""The reads a poll of a local match kept (``sheets.local.kept``): handed to the next poll's workbooks before it
reads (``host.polls``), kept by the gate after a poll that succeeded (``poll_gate.local``), forgotten before one
that reads (a poll that fails half-way leaves none).

One JSON file per match beside the poll state, in the GM's ``.sheets-gm`` folder, written as Google's kept reads are
(``poll_gate.kept_file``: the GM's alone, it holds what the players typed and the engine's record). Each
workbook's read is filed under its path from the config's folder (a match folder copied whole keeps its reads: each
is still checked against its file's fingerprint). A missing, unreadable or other version's file only costs the
loads it would save.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from sheets_gm.poll_gate.kept_file import UNREADABLE, read_kept_file, write_kept_file
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.local.kept import KeptBook
from sheets_gm.sheets.marks import FileMark
from sheets_gm.sheets.struck import grid_from_json, grid_to_json
from sheets_gm.sync.sheets import MatchSheets

#: Bumped when the file's meaning changes; a file of another version is ignored (every workbook is loaded). 2: a
#: text struck through is kept with its spans (``sheets.struck``).
LOCAL_READS_VERSION = 2


def local_reads_path(config_path: Path) -> Path:
    """The kept reads of the local match configured by ``config_path`` (beside its poll state)."""
    return config_path.parent / ".sheets-gm" / f"{config_path.stem}.local-reads.json"


def _name(config_path: Path, workbook: Path) -> str:
    """``workbook``'s path from the config's folder (absolute when it lies outside it)."""
    folder = config_path.parent.resolve()
    where = workbook.resolve()
    return os.path.relpath(where, folder) if where.is_relative_to(folder) else str(where)


def hand_kept_reads(config_path: Path, sheets: MatchSheets) -> None:
    """Give each local workbook of ``sheets`` the read the last poll kept of it (each used only while its file is
    still the version read)."""
    try:
        books = {name: KeptBook(FileMark(int(r["mark"]["size"]), int(r["mark"]["mtime_ns"]), str(r["mark"]["sha256"])),
                                tuple(str(t) for t in r["tabs"]),
                                {str(k): grid_from_json(v) for k, v in r["grids"].items()})
                 for name, r in read_kept_file(local_reads_path(config_path), LOCAL_READS_VERSION).items()}
    except UNREADABLE:
        return
    for backend in sheets.write_order():
        if isinstance(backend, LocalWorkbookBackend):
            backend.kept = books.get(_name(config_path, backend.path))


def keep_reads(config_path: Path, sheets: MatchSheets) -> None:
    """Keep what this poll read of each local workbook it did not write last (``LocalWorkbookBackend.kept_read``);
    a failure to write only costs the next poll its loads."""
    reads = {}
    for backend in sheets.write_order():
        if isinstance(backend, LocalWorkbookBackend) and (book := backend.kept_read()) is not None:
            reads[_name(config_path, backend.path)] = {"mark": book.mark.as_dict(), "tabs": list(book.tabs),
                                                       "grids": {k: grid_to_json(g) for k, g in book.grids.items()}}
    if not reads:
        forget_reads(config_path)
        return
    write_kept_file(local_reads_path(config_path), LOCAL_READS_VERSION, reads)


def forget_reads(config_path: Path) -> None:
    """Remove the kept reads: the next poll loads every workbook."""
    with contextlib.suppress(OSError):
        local_reads_path(config_path).unlink(missing_ok=True)
