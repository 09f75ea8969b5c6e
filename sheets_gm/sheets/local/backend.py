"""The local workbook backend: one .xlsx file read and written with openpyxl.

The embedded default: a GM runs a match with no Google account, players (or the GM) open
the file in LibreOffice or Excel to type orders and save it, and ``sheets-gm sync`` reads
and writes the same file. It follows the Google backend's rules so the sync cannot tell
them apart:

Reading (``read``)
    One load of the file per call (cached while the file's size, mtime and inode stay the
    same). Each A1 range comes back as rows of values, trimmed like Google's
    ``values.batchGet``: trailing empty rows and trailing empty cells of each row are left
    out, so an empty range is ``[]`` and an empty row before a non-empty one is ``[]``.
    **An empty cell inside a row is ``""``; ``None`` is never returned.** A cell holding
    the empty string counts as empty. Numbers come back as ``int`` or ``float`` (an
    integral number is usually an ``int``: the file stores doubles, and openpyxl writes
    16 significant digits, so a float may come back rounded in its 17th digit and an
    integer past 10**16 as a float), booleans as ``bool``, text as ``str``, a formula as
    its text (``"=SUM(A1:A3)"``, never evaluated), an error as its code (``"#N/A"``).
    LibreOffice saves a typed or ticked TRUE/FALSE as the formula ``=TRUE()``/``=FALSE()``:
    those come back as the booleans they stand for.
    **Dates and times typed by a user come back as ISO text**: a date-formatted cell
    ``"2024-03-01"``, a date-and-time ``"2024-03-01T12:30:00"``, a time ``"12:30:00"``, a
    duration (``[h]:mm:ss``) ``"30:00:00"``. Only what was last
    *saved* is read: orders typed in LibreOffice or Excel count once the file is saved.

Writing (``write``)
    Every value is RAW, as with Google's ``valueInputOption=RAW``: a string is stored as a
    text cell even when it starts with ``=``, ``+``, ``-`` or ``@`` (and such a cell is
    given Excel's "quote prefix" style, so an office program keeps showing it as text).
    ``None`` leaves a cell unchanged and ``""`` clears its value (styles are kept), as in
    the Sheets API. A single-cell range is the top-left anchor of the values; a larger
    range must contain them. Text is made storable: characters XML cannot hold become
    U+FFFD, ``\\r\\n`` and ``\\r`` become ``\\n``, and text longer than
    :data:`~sheets_gm.sheets.local.cells.MAX_CELL_CHARS` UTF-16 units (Excel's per-cell limit) is cut
    there, except over a cell that already holds that very text (a player's cell rewritten as typed stays as typed).
    A write loads the newest file under the lock, changes only the written cells (every
    other cell, style, validation and protection is kept) and saves it atomically: a
    temporary file in the same folder, flushed and fsync'ed, then ``os.replace`` onto the
    workbook, so a crash leaves either the old or the new file, never half of one. If the
    file changed on disk while the new one was being prepared, the write starts again
    from the newest file. A write that changes nothing does not touch the file. A range's
    ``notes`` become the cells' comments (LibreOffice and Excel show one when the pointer
    rests on its cell): ``""`` removes a comment, ``None`` leaves it. A write given
    ``read_back`` ranges answers with their values as saved, read from the written workbook
    under the same lock: exactly what a ``read`` right after would give. Inside
    :meth:`LocalWorkbookBackend.saved_once` the writes and layouts of a command are held in memory and the file is
    saved once at the end; a new workbook (:meth:`LocalWorkbookBackend.start_new`) is made by its first save.

Safety
    A sidecar lock file (``.<name>.sheets-gm.lock`` next to the workbook, ``flock``) keeps
    two syncs from writing at once; :meth:`LocalWorkbookBackend.hold_lock` holds it across
    a whole read-resolve-write. A workbook open in LibreOffice (``.~lock.<name>#``) or
    Excel (``~$<name>``) is never written: the office program would overwrite the sync's
    changes on its next save, or the sync would overwrite unsaved typing. The write stops
    with a :class:`SheetAccessError` that says to save, close the file and sync again.

Layouts (``apply_layout``)
    Mapped onto what an .xlsx can hold as :mod:`sheets_gm.sheets.local.layout` says, protections as
    :mod:`sheets_gm.sheets.local.protection` says (an .xlsx has no users: sheet protection and a "locked"
    flag per cell).

Not kept by openpyxl
    Drawn shapes, text boxes, form controls and images (charts survive) that a user adds
    to the workbook are dropped by openpyxl when the sync saves it: keep them out of a
    workbook the sync writes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

from sheets_gm.sheets.backend import RangeWrite, SavedMeanwhileError, SheetAccessError, SheetError
from sheets_gm.sheets.guard import changed_since, describe_cells
from sheets_gm.sheets.layout import CellValue, Grid, ReadGuard, WorkbookLayout, split_a1, trim_grid
from sheets_gm.sheets.local.boxes import Box, parse_cells, worksheet_named
from sheets_gm.sheets.local.cells import (
    cell_out,
    clean_text,
    comment_for,
    given_cells,
    numbers_read_back,
    struck_cells,
    write_box,
)
from sheets_gm.sheets.local.disk import (
    NEW_FILE_MODE,
    PRIVATE_FILE_MODE,
    FileChangedError,
    Stamp,
    cut_saves,
    save_atomically,
    stamp_of,
    sweep_cut_saves,
    try_lock,
    unlock,
)
from sheets_gm.sheets.local.kept import KeptBook
from sheets_gm.sheets.local.layout import RowsToFit, apply_layout, fit_tabs
from sheets_gm.sheets.local.links import drop_outside_links, outside_links
from sheets_gm.sheets.local.office_locks import refuse_if_open
from sheets_gm.sheets.local.release import release_workbook
from sheets_gm.sheets.local.seen import seen_workbook
from sheets_gm.sheets.looks import TabSeen
from sheets_gm.sheets.marks import FileMark, file_mark
from sheets_gm.sheets.xlsx import collector_paused, openpyxl, unpacked_size_problem

__all__ = ["LocalWorkbookBackend", "create_workbook"]

_LOCK_POLL_SECONDS = 0.1
_ATTEMPTS = 3  # loads or saves retried while the file is being replaced under us


class LocalWorkbookBackend:
    """A :class:`~sheets_gm.sheets.backend.SheetBackend` over one local .xlsx workbook.

    ``path`` is the workbook (it must end in ``.xlsx``; it need not exist until it is read
    or written: :func:`create_workbook` makes one from a layout). ``lock_timeout`` is how
    long a write waits for another sync's lock before giving up; ``clock`` and ``sleep``
    are injectable so tests never sleep for real. See the module notes for how values,
    dates, empty cells and protections are mapped.

    To run a whole sync (read, resolve, write) as one critical section, so that two syncs
    started at once resolve a turn only once, hold the lock around it::

        with backend.hold_lock():
            grids = backend.read(ranges)
            ...
            backend.write(writes)
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        lock_timeout: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.path = Path(path)
        if self.path.suffix.lower() != ".xlsx":
            raise SheetAccessError(
                f"{self.path} is not an .xlsx workbook: save it as Excel 2007-365 (.xlsx) and use that file"
            )
        self.lock_timeout = lock_timeout
        self._clock = clock
        self._sleep = sleep
        self._thread_lock = threading.RLock()
        self._lock_depth = 0
        self._lock_fd: int | None = None
        # the workbook last loaded or saved, the stamp of its file, and the grids read from it by range (as read:
        # a write's guard compares what the file holds with them, not with the same cells built again)
        self._cache: tuple[Stamp, Any, dict[str, Grid]] | None = None
        self._as_read: dict[str, Grid] = {}  # the grids read from the workbook a write is changing, if unchanged
        #: The fingerprint of the file as the last write saved it, when that write changed the very version the
        #: last read loaded (None otherwise): the poll gate records it so our own save is not taken for a player's.
        self.own_save: FileMark | None = None
        #: What the last poll read of the version of the file it saw (``sheets.local.kept``): while the file is
        #: still that version, reads are answered from it and nothing is loaded. Set by the poll's gate.
        self.kept: KeptBook | None = None
        self._kept_stamp: Stamp | None = None  # the stamp the kept read was last found to hold for
        self._loaded: Stamp | None = None  # the stamp of the version last loaded from the file (not saved by us)
        self._ranges_read: dict[str, None] = {}  # every range read, in order: what a kept read holds
        self._struck: set[str] = set()  # the ranges read with their strikethrough (``read``'s ``struck``)
        self._doubtful = False  # a number written here that may read back otherwise (see ``kept_read``)
        self.changes = 0  # the saves this backend made of its file (``SheetBackend.changes``)
        self._held: _HeldChanges | None = None  # the changes kept for one save at the end of ``saved_once``
        self._new: tuple[Any, int] | None = None  # a workbook ``start_new`` made, not yet saved, and its file's mode

    def __repr__(self) -> str:
        return f"LocalWorkbookBackend({str(self.path)!r})"

    @property
    def name(self) -> str:
        """The workbook's path, as given."""
        return str(self.path)

    @property
    def lock_path(self) -> Path:
        """The sidecar lock file two syncs of this workbook take turns on."""
        return self.path.parent / f".{self.path.name}.sheets-gm.lock"

    # ----------------------------------------------------------------- the interface

    def read(self, ranges: Sequence[str], *, struck: Collection[str] = ()) -> list[Grid]:
        """The values of each A1 range, in order, from one load of the file (see the module notes), or from the
        kept read of the version the file still is (``kept``). Text of a ``struck`` range struck through, by its
        cell's font or runs of it, reads as a ``StruckText`` (so does that range's read back after a write)."""
        self._struck.update(struck)
        self._ranges_read.update(dict.fromkeys(ranges))
        kept = self._kept_now()
        if kept is not None and (answer := kept.answers(ranges)) is not None:
            return answer
        wb = self._workbook_for_read()
        grids = self._grids(wb, ranges)
        if self._cache is not None and self._cache[1] is wb:
            self._cache[2].update((full, [list(row) for row in grid]) for full, grid in zip(ranges, grids, strict=True))
        return grids

    def _grids_now(self, wb: Any, ranges: Sequence[str]) -> list[Grid]:
        """The values of each A1 range of ``wb`` as it stands: as read from it when that workbook is the file as
        last read, unchanged since (its cells are the same), else read from it now."""
        as_read = self._as_read
        if all(full in as_read for full in ranges):
            return [as_read[full] for full in ranges]
        return self._grids(wb, ranges)

    def _grids(self, wb: Any, ranges: Sequence[str]) -> list[Grid]:
        """The values of each A1 range of the loaded workbook ``wb``, trimmed like Google's."""
        out: list[Grid] = []
        for full in ranges:
            ws, box = self._resolve(wb, full)
            min_row, min_col, max_row, max_col = box.clamp(ws.max_row, ws.max_column)
            if min_row > max_row or min_col > max_col:
                out.append([])
                continue
            values = _box_values(ws._cells, min_row, min_col, max_row, max_col)
            if full in self._struck:
                struck_cells(ws._cells, values, min_row, min_col)
            out.append(trim_grid(values))
        return out

    def tab_names(self) -> list[str]:
        """The workbook's tabs, in order (the helper tab of long dropdown lists included)."""
        kept = self._kept_now()
        return list(kept.tabs) if kept is not None else list(self._workbook_for_read().sheetnames)

    def read_seen(self) -> list[TabSeen]:
        """Every tab as a reader sees it (``sheets/looks.py``), from one load of the file."""
        return seen_workbook(self._workbook_for_read())

    def write(self, writes: Sequence[RangeWrite], *, read_back: Sequence[str] = (),
              guard: Sequence[ReadGuard] = ()) -> list[Grid]:
        """Write every range RAW and save once, atomically (see the module notes); then the values of each
        ``read_back`` range as a ``read`` right after would give them, taken from the workbook as saved, under
        the same lock (no other sync can write in between, and the file is not loaded again).

        ``guard``: what the poll read. The newest file is compared with it under the lock, right before it is
        replaced (and again if it changes while the new one is saved): a cell saved there since raises
        :class:`SavedMeanwhileError` and nothing is written."""
        if not writes:
            return self.read(read_back) if read_back else []

        def change(wb: Any) -> bool:
            for full in read_back:  # a bad range fails before anything is written, as on Google
                self._resolve(wb, full)
            saved = [c for g, now in zip(guard, self._grids_now(wb, [g.range for g in guard]), strict=True)
                     for c in changed_since(g, now)]
            if saved:
                raise SavedMeanwhileError(self.name, describe_cells(saved, {t.casefold(): t for t in wb.sheetnames}))
            return self._put(wb, writes)

        with self.hold_lock():
            return self._grids(self._modify(change), read_back)

    def apply_layout(self, layout: WorkbookLayout, writes: Sequence[RangeWrite] = ()) -> None:
        """Create or reshape the workbook's tabs from ``layout``, then write ``writes`` as ``write`` does, and save
        once, atomically (a new match's workbook is laid out and drawn in one save, not one each)."""

        def change(wb: Any) -> bool:
            if not writes:
                apply_layout(wb, layout)
                return True
            laid = apply_layout(wb, layout, fit=False)  # each row fitted once, written
            _outline_levels_found(wb)
            self._put(wb, writes, laid)
            return True

        self._modify(change)

    def _put(self, wb: Any, writes: Sequence[RangeWrite], laid: RowsToFit | None = None) -> bool:
        """Write every range of ``writes`` into the loaded workbook ``wb`` (values RAW, notes; each written row's
        height fitted once all are written, with the rows of the tabs ``laid`` out: ``apply_layout``'s rows to fit);
        whether a cell changed."""
        with collector_paused():  # a cell made for each answer, all alive until the save
            return self._put_all(wb, writes, dict(laid or {}))

    def _put_all(self, wb: Any, writes: Sequence[RangeWrite], written: RowsToFit) -> bool:
        changed = False
        tabs: dict[str, Any] = {}  # each tab named, found once (10,000 rows answered name the same tab)
        for w in writes:
            ws, box = self._resolve(wb, w.range, tabs)
            if write_box(ws, box, w.values, f"{self.path}: range {w.range!r}"):
                changed = True
                self._doubtful = self._doubtful or not numbers_read_back(ws, box, w.values)
                written.setdefault(ws.title, (ws, set()))[1].update(range(box.min_row, box.min_row + len(w.values)))
            if w.notes is not None:
                changed = self._write_notes(ws, box, w.notes) or changed
        if written:
            fit_tabs(wb, written)
        return changed

    def export_xlsx(self) -> bytes:
        """The workbook file's bytes, as last saved."""
        self._stamp()  # a clear error if it is missing
        try:
            return self.path.read_bytes()
        except OSError as e:
            raise SheetAccessError(f"cannot read {self.path}: {e.strerror or e}") from e

    # ----------------------------------------------------------------- the lock

    @contextlib.contextmanager
    def hold_lock(self) -> Iterator[None]:
        """Hold the sidecar lock (re-entrant): no other sync of this workbook writes meanwhile.

        Waits up to ``lock_timeout`` seconds, then raises :class:`SheetAccessError`.
        """
        with self._thread_lock:
            if self._lock_depth == 0:
                self._lock_fd = self._acquire_lock()
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1
                if self._lock_depth == 0 and self._lock_fd is not None:
                    unlock(self._lock_fd)
                    os.close(self._lock_fd)
                    self._lock_fd = None

    def sweep_cut_saves(self) -> list[Path]:
        """Remove the temporary files that saves of this workbook cut short left beside it
        (:func:`~sheets_gm.sheets.local.disk.sweep_cut_saves`); those removed. Only when the lock is free at once
        (or held here): a sync holding it may be saving, and a later command sweeps."""
        if not cut_saves(self.path):
            return []
        with self._thread_lock:
            if self._lock_depth:
                return sweep_cut_saves(self.path)
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, NEW_FILE_MODE)
            except OSError:
                return []
            try:
                if not try_lock(fd):
                    return []
                try:
                    return sweep_cut_saves(self.path)
                finally:
                    unlock(fd)
            finally:
                os.close(fd)

    def outside_links(self) -> list[str]:
        """The targets of the workbook's links to other files (:mod:`~sheets_gm.sheets.local.links`), from the
        workbook as last read (no load when it has not changed; none in a kept read's version, which had none)."""
        return [] if self._kept_now() is not None else outside_links(self._workbook_for_read())

    def drop_outside_links(self) -> list[str]:
        """Remove the workbook's links to other files and save it (under the lock, atomically), when it has any;
        the targets removed."""
        if not self.outside_links():
            return []
        dropped: list[str] = []

        def change(wb: Any) -> bool:
            dropped[:] = drop_outside_links(wb)
            return bool(dropped)

        self._modify(change)
        return dropped

    def _acquire_lock(self) -> int:
        try:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, NEW_FILE_MODE)
        except OSError as e:
            raise SheetAccessError(
                f"cannot create the lock file {self.lock_path} next to {self.path}: {e.strerror or e}"
            ) from e
        deadline = self._clock() + self.lock_timeout
        while True:
            if try_lock(fd):
                return fd
            if self._clock() >= deadline:
                os.close(fd)
                raise SheetAccessError(
                    f"another sync is writing {self.path} (it holds {self.lock_path}); "
                    "wait for it to finish, then run the sync again"
                )
            self._sleep(_LOCK_POLL_SECONDS)

    # ----------------------------------------------------------------- files

    def _stamp(self) -> Stamp:
        return stamp_of(self.path)

    def _load(self) -> tuple[Any, Stamp]:
        """The newest saved workbook and the stamp of the file it was read from."""
        for _ in range(_ATTEMPTS):
            before = self._stamp()
            try:
                data = self.path.read_bytes()
            except OSError as e:
                raise SheetAccessError(f"cannot read {self.path}: {e.strerror or e}") from e
            if self._stamp() != before:  # being saved right now: read it again
                self._sleep(_LOCK_POLL_SECONDS)
                continue
            if too_large := unpacked_size_problem(data):
                raise SheetAccessError(
                    f"{self.path} is not read: {too_large}; a match's workbook unpacks to a few megabytes. "
                    "Nothing was saved back to it. Restore a backup of it (or repair the match), or name the right "
                    "file in the config"
                )
            try:
                with collector_paused():
                    wb = openpyxl.load_workbook(io.BytesIO(data), data_only=False, rich_text=False)
            except Exception as e:
                raise SheetAccessError(
                    f"{self.path} is not a readable .xlsx workbook ({type(e).__name__}: {e}); "
                    "open it in LibreOffice or Excel and save it as .xlsx, or restore a backup"
                ) from e
            return wb, before
        raise SheetAccessError(f"{self.path} keeps changing while it is read; try again")

    def _workbook_for_read(self) -> Any:
        if self._new is not None:
            return self._new[0]
        if self._held is not None and self._held.wb is not None:
            return self._held.wb  # the changes not yet saved are read as made
        stamp = self._stamp()
        if self._cache is not None and self._cache[0] == stamp:
            return self._cache[1]
        wb, stamp = self._load()
        self._set_cache((stamp, wb, {}))
        self._loaded = stamp
        return wb

    def _set_cache(self, cache: tuple[Stamp, Any, dict[str, Grid]] | None, *, keep: Any = None) -> None:
        """``cache`` kept as the workbook last loaded or saved; the one kept before let go of (``_let_go``) unless it
        is ``keep`` (a workbook being changed or saved)."""
        old, self._cache = self._cache, cache
        if old is not None and old[1] is not keep:
            self._let_go(old[1])

    def _let_go(self, wb: Any) -> None:
        """The workbook ``wb``, which this backend no longer needs, taken apart (``release_workbook``: reference
        counting frees it at once, not the cycle collector), unless the backend still holds it (cached, changed in
        ``saved_once``, made by ``start_new``). Nothing outside the backend holds its workbooks."""
        if wb is None or any(wb is mine for mine in self._workbooks()):
            return
        release_workbook(wb)

    def _workbooks(self) -> list[Any]:
        """The workbooks this backend holds: the one cached, the one ``saved_once`` changes, the one ``start_new``
        made."""
        cache, held, new = getattr(self, "_cache", None), getattr(self, "_held", None), getattr(self, "_new", None)
        return [wb for wb in (cache and cache[1], held and held.wb, new and new[0]) if wb is not None]

    _release = staticmethod(release_workbook)  # held by the class: still there for a backend freed at exit

    def __del__(self) -> None:
        """The workbooks held taken apart as the backend goes (no one else holds them): freed there and then."""
        for wb in self._workbooks():
            self._release(wb)

    def _kept_now(self) -> KeptBook | None:
        """The kept read, while the file is still the version it was taken from (else it is dropped: loaded from
        now on)."""
        kept = self.kept
        if kept is None or (self._held is not None and self._held.wb is not None):
            return None
        try:
            stamp = self._stamp()
        except SheetAccessError:
            return None  # the load says what is wrong
        if stamp == self._kept_stamp:
            return kept
        if kept.holds(self.path, stamp):
            self._kept_stamp = stamp
            return kept
        self.kept = None
        return None

    def kept_read(self) -> KeptBook | None:
        """What this backend read of the file as it stands now, to keep for the next poll (``kept``): the ranges it
        was asked, from the version it loaded or saved (or the kept read it answered from); None when it read
        nothing, the file moved meanwhile, or it wrote a number that may read back otherwise (``numbers_read_back``:
        a version saved here is kept as its load would read it, or not at all)."""
        ranges = list(self._ranges_read)
        try:
            stamp = self._stamp()
        except SheetAccessError:
            return None
        cached = self._cache
        if cached is not None and cached[0] == stamp and ranges:
            wb = cached[1]
            grids = self._grids(wb, ranges)
            mark = file_mark(self.path)
            if (mark is None or outside_links(wb) or self._stamp() != stamp
                    or (mark.size, mark.mtime_ns) != (stamp.size, stamp.mtime_ns)
                    or (self._loaded != stamp and self._doubtful)):
                return None
            return KeptBook(mark, tuple(wb.sheetnames), dict(zip(ranges, grids, strict=True)))
        kept = self._kept_now()
        if kept is None or not ranges or kept.answers(ranges) is None:
            return None
        return KeptBook(kept.mark, kept.tabs, {full: kept.grids[full] for full in ranges})

    def refuse_if_open(self) -> None:
        """Raise :class:`WorkbookOpenError` if LibreOffice or Excel holds the workbook open (its lock file is there):
        writing it now would lose the typing there, or be lost at the office program's next save."""
        refuse_if_open(self.path)

    def _modify(self, change: Callable[[Any], bool]) -> Any:
        """Read-modify-write the newest file under the lock, saved once and atomically; the workbook as it now
        stands on disk.

        The workbook read last is reused when the file has not changed since (same device, inode,
        size and modification time): a resolving sync loads the file once, not once for the read
        and again for the write, and a demo once in all instead of four times a turn. Inside ``saved_once`` the
        change is made in memory and saved with the others when the block ends."""
        if self._new is not None:
            return self._first_save(change)
        if self._held is not None:
            return self._held_change(change)
        self.own_save = None
        with self.hold_lock():
            for _ in range(_ATTEMPTS):
                wb, stamp, read_before, self._as_read = self._newest()
                self._set_cache(None, keep=wb)  # ``change`` edits it: only a saved workbook goes back in the cache
                try:
                    try:
                        if not change(wb):
                            self._cache = (stamp, wb, self._as_read)  # nothing changed: still the file as it is
                            return wb
                    finally:
                        self._as_read = {}
                    if self._saved_over(wb, stamp, read_before):
                        return wb
                except BaseException:
                    self._let_go(wb)  # changed in part, or not saved: nothing reads it any more
                    raise
                self._let_go(wb)  # the file changed meanwhile: the next attempt loads it again
            raise _kept_changing(self.path)

    def _newest(self) -> tuple[Any, Stamp, bool, dict[str, Grid]]:
        """The newest file's workbook, the stamp of that version, whether it is the version last read, and what
        was read of it: the workbook read last when the file has not changed since (same device, inode, size and
        modification time), else loaded (what the poll's kept read holds when it read this very version)."""
        stamp = self._stamp()
        cached = self._cache
        if cached is not None and cached[0] == stamp:
            return cached[1], stamp, True, cached[2]
        kept = self._kept_now()
        wb, stamp = self._load()
        self._loaded = stamp
        if kept is not None and kept.holds(self.path, stamp):
            return wb, stamp, True, dict(kept.grids)
        return wb, stamp, False, {}

    def _saved_over(self, wb: Any, stamp: Stamp, read_before: bool) -> bool:
        """``wb`` saved over the file if it is still the version ``stamp`` (False when it changed meanwhile: nothing
        saved); a save of the version last read is this backend's own (``own_save``)."""
        refuse_if_open(self.path)
        try:
            saved = self._save(wb, stamp)
        except FileChangedError:
            return False
        if read_before:
            self.own_save = saved
        self._now_saved(wb)
        return True

    def _now_saved(self, wb: Any) -> None:
        """Counted as a change, ``wb`` kept as the file now is (it is exactly the saved file: no load next)."""
        self.changes += 1
        with contextlib.suppress(SheetAccessError):
            self._set_cache((self._stamp(), wb, {}))

    def start_new(self, layout: WorkbookLayout, *, private: bool = False) -> None:
        """Make the workbook of a file that does not exist yet from ``layout``, in memory: reads answer from it, and
        its first change (a match's layout and first drawing) makes the file, so a new match's workbook is saved
        once, not once with its first tab and again laid out. ``private``: the file is 0600 from its first byte.
        ``save_new`` makes the file as it stands."""
        wb = openpyxl.Workbook()
        apply_layout(wb, layout)
        self._new = (wb, PRIVATE_FILE_MODE if private else NEW_FILE_MODE)

    def save_new(self) -> None:
        """Make the file of the workbook ``start_new`` made, unchanged since, if it is not made yet."""
        if self._new is not None:
            self._first_save(lambda _wb: True)

    def _first_save(self, change: Callable[[Any], bool]) -> Any:
        """``change`` made on the workbook ``start_new`` made, and the file made from it (atomically; refused if a
        file was made there meanwhile)."""
        assert self._new is not None
        wb, mode = self._new
        with self.hold_lock():
            change(wb)
            try:
                self._save(wb, None, must_not_exist=True, mode=mode)
            except FileChangedError as e:
                raise SheetAccessError(f"{self.path} was made by something else while this one was; try again") from e
            self._new = None
            self._now_saved(wb)
        return wb

    @contextlib.contextmanager
    def saved_once(self) -> Iterator[None]:
        """Every change made inside the block (writes, layouts) is made in memory, read back as made, and saved
        once when the block ends without an error, under the lock held throughout; an error drops them all, the
        file untouched. Should the file change meanwhile (a player's save), the changes are made again, in order,
        on the newest file (a write's ``guard`` checked again there) before it is saved."""
        if self._held is not None:
            yield
            return
        with self.hold_lock():
            self.own_save = None
            self._held = _HeldChanges()
            try:
                yield
                self._save_held(self._held)
            finally:
                held, self._held = self._held, None
                self._let_go(held.wb)  # unless saved (cached): the changes dropped

    def _held_change(self, change: Callable[[Any], bool]) -> Any:
        """``change`` made on the workbook ``saved_once`` holds (the newest file loaded at the first change) and
        kept to be made again should the file change before the save."""
        held = self._held
        assert held is not None
        if held.wb is None:
            held.wb, held.stamp, held.read_before, _ = self._newest()
            self._set_cache(None)  # changed in memory: only a saved workbook goes back in the cache
        held.changes.append(change)
        held.saves += change(held.wb)
        return held.wb

    def _save_held(self, held: _HeldChanges) -> None:
        """Save what ``saved_once`` held, once; made again on the newest file as often as it changed meanwhile."""
        for _ in range(_ATTEMPTS):
            if held.wb is None:
                return
            if not held.saves:
                if held.stamp is not None:
                    self._cache = (held.stamp, held.wb, {})  # unchanged: still the file as it is
                return
            if held.saves > 1:  # saved as the last of its saves one by one would save it
                _outline_levels_found(held.wb)
            assert held.stamp is not None  # loaded at its first change
            if self._saved_over(held.wb, held.stamp, held.read_before):
                return
            dropped = held.wb
            held.wb, held.stamp = self._load()
            self._let_go(dropped)
            self._loaded, held.read_before = held.stamp, False
            held.saves = sum(change(held.wb) for change in held.changes)
        raise _kept_changing(self.path)

    def _save(self, wb: Any, expected: Stamp | None, *, must_not_exist: bool = False,
              mode: int = NEW_FILE_MODE) -> FileMark:
        """Save ``wb`` over the file atomically, if it is still the version ``expected``; the saved file's mark
        (see :func:`~sheets_gm.sheets.local.disk.save_atomically`)."""
        buffer = io.BytesIO()
        with collector_paused():
            wb.save(buffer)
        mark = save_atomically(self.path, buffer.getvalue(), expected, must_not_exist=must_not_exist, mode=mode)
        self._set_cache(None, keep=wb)
        return mark

    # ----------------------------------------------------------------- cells

    def _resolve(self, wb: Any, full: str, tabs: dict[str, Any] | None = None) -> tuple[Any, Box]:
        """The worksheet and box of a full A1 range; a bare ``A1:B2`` is on the first tab. ``tabs``: the worksheets
        found so far by name, kept there (a write naming one tab 10,000 times looks it up once)."""
        try:
            if full.startswith("'") or "!" in full:
                tab, cells = split_a1(full)
            elif worksheet_named(wb, full) is not None:
                tab, cells = full, ""
            else:
                tab, cells = wb.sheetnames[0], full
            box = parse_cells(cells)
        except ValueError as e:
            raise SheetError(f"{self.path}: {full!r} is not an A1 range") from e
        ws = tabs.get(tab) if tabs is not None else None
        if ws is None:
            ws = worksheet_named(wb, tab)
            if tabs is not None and ws is not None:
                tabs[tab] = ws
        if ws is None:
            raise SheetError(
                f"{self.path}: there is no tab named {tab!r} (range {full!r}); "
                f"the tabs are {', '.join(repr(n) for n in wb.sheetnames)}"
            )
        return ws, box

    @staticmethod
    def _write_notes(ws: Any, box: Box, notes: Grid) -> bool:
        changed = False
        for cell, note in given_cells(ws, box, notes):
            text = clean_text(str(note))
            if (cell.comment.text if cell.comment is not None else "") == text:
                continue
            cell.comment = comment_for(text) if text else None
            changed = True
        return changed


def _kept_changing(path: Path) -> SheetAccessError:
    """The error of a save that found the file changed meanwhile at every attempt."""
    return SheetAccessError(f"{path} kept changing while the sync was saving it; try again")


@dataclasses.dataclass
class _HeldChanges:
    """What ``LocalWorkbookBackend.saved_once`` holds: the workbook changed in memory (None until the first change),
    the stamp of the file it was loaded from, whether that is the version last read, each change made, in order,
    and how many of them changed it (each a save of its own outside ``saved_once``)."""

    wb: Any = None
    stamp: Stamp | None = None
    read_before: bool = False
    changes: list[Callable[[Any], bool]] = dataclasses.field(default_factory=list)
    saves: int = 0


def _outline_levels_found(wb: Any) -> None:
    """Each tab's column outline level found as openpyxl's save finds it. Its writer writes a tab's
    ``outlineLevelCol`` as the last save in this process found it (none before the first), so a workbook laid out
    and written in one save (or changed several times in ``saved_once``) is given the level the layout's own save
    found: the file is byte for byte the one that a save of the layout and another of the writes made."""
    for ws in wb.worksheets:
        dims = ws.column_dimensions
        # as its ``to_tree`` finds it, without registering the columns' styles ahead of the cells' (the save does)
        levels = {dim.outlineLevel for dim in dims.values()
                  if dim.has_style or any(getattr(dim, key, None) for key in dim.__fields__
                                          if key not in ("min", "max", "style"))}
        if levels:
            dims.max_outline = max(levels)


def _box_values(cells: dict[tuple[int, int], Any], min_row: int, min_col: int, max_row: int,
                max_col: int) -> list[list[CellValue]]:
    """The values of a box of a tab (1-based, inclusive) from its ``cells`` (openpyxl's ``ws._cells``: looked up,
    not made, as its ``iter_rows`` would make every empty cell it passes), ``None`` where empty. A box with more
    places than the tab holds cells (a whole tab of rows pasted under a table, mostly empty) is filled from the
    cells there are, not probed place by place."""
    height, width = max_row - min_row + 1, max_col - min_col + 1
    if height * width <= len(cells):
        return [[cell_out(cell) if (cell := cells.get((r, c))) is not None else None
                 for c in range(min_col, max_col + 1)] for r in range(min_row, max_row + 1)]
    rows: list[list[CellValue]] = [[None] * width for _ in range(height)]
    for (r, c), cell in cells.items():
        if min_row <= r <= max_row and min_col <= c <= max_col:
            rows[r - min_row][c - min_col] = cell_out(cell)
    return rows


def create_workbook(
    path: str | os.PathLike[str],
    layout: WorkbookLayout,
    *,
    overwrite: bool = False,
    lock_timeout: float = 10.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    private: bool = False,
) -> LocalWorkbookBackend:
    """Make a new workbook file at ``path`` from ``layout`` (atomically) and return its backend.

    An existing file is never replaced unless ``overwrite`` is true, and never while it is
    open in LibreOffice or Excel. ``private``: the new file is 0600 from its first byte (the GM's
    engine), whatever the umask; later saves keep its mode.
    """
    backend = LocalWorkbookBackend(path, lock_timeout=lock_timeout, clock=clock, sleep=sleep)
    with backend.hold_lock():
        exists = backend.path.exists()
        if exists and not overwrite:
            raise SheetAccessError(f"{backend.path} already exists; choose another file or overwrite it explicitly")
        expected = backend._stamp() if exists else None
        if exists:
            refuse_if_open(backend.path)
        wb = openpyxl.Workbook()
        apply_layout(wb, layout)
        try:
            backend._save(wb, expected, must_not_exist=not exists,
                          mode=PRIVATE_FILE_MODE if private else NEW_FILE_MODE)
        except FileChangedError as e:
            raise SheetAccessError(f"{backend.path} changed while it was being replaced; try again") from e
        if private and exists:  # a file replaced keeps the mode it had
            with contextlib.suppress(OSError):
                os.chmod(backend.path, PRIVATE_FILE_MODE)
        with contextlib.suppress(SheetAccessError):  # the workbook is the file as saved: the next change needs no load
            backend._cache = (backend._stamp(), wb, {})
    return backend
