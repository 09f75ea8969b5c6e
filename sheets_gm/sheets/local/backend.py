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
    :data:`MAX_CELL_CHARS` UTF-16 units (Excel's per-cell limit) is cut there, except over a cell
    that already holds that very text (a player's cell rewritten as typed stays as typed).
    A write loads the newest file under the lock, changes only the written cells (every
    other cell, style, validation and protection is kept) and saves it atomically: a
    temporary file in the same folder, flushed and fsync'ed, then ``os.replace`` onto the
    workbook, so a crash leaves either the old or the new file, never half of one. If the
    file changed on disk while the new one was being prepared, the write starts again
    from the newest file. A write that changes nothing does not touch the file. A range's
    ``notes`` become the cells' comments (LibreOffice and Excel show one when the pointer
    rests on its cell): ``""`` removes a comment, ``None`` leaves it. A write given
    ``read_back`` ranges answers with their values as saved, read from the written workbook
    under the same lock: exactly what a ``read`` right after would give.

Safety
    A sidecar lock file (``.<name>.sheets-gm.lock`` next to the workbook, ``flock``) keeps
    two syncs from writing at once; :meth:`LocalWorkbookBackend.hold_lock` holds it across
    a whole read-resolve-write. A workbook open in LibreOffice (``.~lock.<name>#``) or
    Excel (``~$<name>``) is never written: the office program would overwrite the sync's
    changes on its next save, or the sync would overwrite unsaved typing. The write stops
    with a :class:`SheetAccessError` that says to save, close the file and sync again.

Layouts (``apply_layout``), mapped onto what an .xlsx can hold
    Tabs are created or reshaped in the layout's order (tabs outside the layout are kept after
    them, except empty ones such as a new workbook's ``Sheet``); fixed values are written RAW;
    fills are solid ``PatternFill`` colours with bold set as the layout says; conditional fills
    are "begins with" conditional formats (a solid fill, bold if asked) and the layout owns its
    tabs' conditional formats: applying it again replaces them; ``frozen_rows`` freeze panes;
    hidden tabs are hidden; column widths are converted from pixels to Excel character widths. A
    row holding a wrapping cell is made as tall as its text after each write and layout, as
    Google grows it (``row_fit``; rows the layout sized keep it). Dropdowns are list validations
    that refuse other values: inline (``"a,b,c"``) when Excel allows it, else (a list longer
    than 255 characters, or a value holding ``,`` or ``"``) a reference to a column of the
    hidden helper tab :data:`LISTS_TAB`. Checkboxes are ``TRUE,FALSE`` list validations, their
    empty cells are set to ``FALSE``, and they show as ☐ / ☑ (:data:`CHECKBOX_FORMAT`). A layout
    owns its tabs' validations: applying it again replaces them rather than adding duplicates.
    ``rows`` and ``cols`` do not shrink the sheet (an .xlsx sheet has a fixed, huge grid); they
    bound the cells the layout may touch and the cells whose protection is set.

    Protections: an .xlsx file has no users, only "sheet protection on" plus a "locked"
    flag per cell, so a layout's :class:`~sheets_gm.sheets.layout.Protection` entries map
    to it like this, for each tab:

    * no protection with ``editors=()`` (GM-only) on the tab: sheet protection off,
      everything editable (as in Google, where unprotected cells are open to editors);
    * otherwise sheet protection on (no password: it guards against slips, not people),
      and within the tab's ``rows`` x ``cols`` a cell is

      1. **locked** if a GM-only protection with a range covers it;
      2. else **unlocked** if the layout marks it as player input: a dropdown, a
         checkbox, or a protection naming editors or marked ``player_input`` (a seat's own input range,
         with or without an e-mail);
      3. else **locked** if the whole tab has a GM-only protection (``range=None``);
      4. else **unlocked**.

    Sharing and per-player editors have no local meaning: give each team its own
    workbook file for privacy.

Not kept by openpyxl
    Drawn shapes, text boxes, form controls and images (charts survive) that a user adds
    to the workbook are dropped by openpyxl when the sync saves it: keep them out of a
    workbook the sync writes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import math
import os
import re
import secrets
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from copy import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from sheets_gm.sheets.xlsx import openpyxl  # first: without numpy (see that module)  # isort: skip

from openpyxl.cell.cell import MergedCell
from openpyxl.comments import Comment
from openpyxl.formatting.formatting import ConditionalFormattingList
from openpyxl.formatting.rule import Rule
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.styles import Protection as CellProtection
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.styles.numbers import is_datetime
from openpyxl.utils import column_index_from_string, get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation, DataValidationList

from sheets_gm.sheets.backend import (
    RangeWrite,
    SavedMeanwhileError,
    SheetAccessError,
    SheetError,
    WorkbookOpenError,
)
from sheets_gm.sheets.guard import changed_since, describe_cells
from sheets_gm.sheets.layout import (
    BORDER_COLOUR,
    CellValue,
    ConditionalFill,
    Grid,
    ReadGuard,
    TabLayout,
    WorkbookLayout,
    quote_tab,
    split_a1,
    trim_grid,
)
from sheets_gm.sheets.marks import FileMark, bytes_mark
from sheets_gm.sheets.row_fit import fit_rows, fixed_rows, record_fixed_rows

__all__ = [
    "LISTS_TAB",
    "MAX_CELL_CHARS",
    "LocalWorkbookBackend",
    "create_workbook",
    "office_lock_files",
]

MAX_CELL_CHARS = 32_767
"""The most text one cell may hold (Excel's limit, in UTF-16 units); longer text is cut."""

LISTS_TAB = "sheets-gm lists"
"""The hidden helper tab holding dropdown lists too long (or too odd) for an inline list."""

MAX_ROWS = 1_048_576
MAX_COLS = 16_384
_INLINE_LIST_LIMIT = 255  # Excel refuses a list validation formula longer than this
_FORMULA_LIKE = ("=", "+", "-", "@")
_LOCK_POLL_SECONDS = 0.1
_ATTEMPTS = 3  # loads or saves retried while the file is being replaced under us
# Characters an XML 1.0 document cannot hold (the file would not open again).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_COLOUR = re.compile(r"^#?([0-9A-Fa-f]{6})$")
_ENDPOINT = re.compile(r"^\$?([A-Za-z]{0,3})\$?([0-9]{0,7})$")
_NEW_FILE_MODE = 0o666  # before the umask, like any new file
_PRIVATE_FILE_MODE = 0o600  # the GM's own workbooks (the engine): only the GM's account reads them
_BOOL_FORMULAS = {"=TRUE()": True, "=FALSE()": False, "=TRUE": True, "=FALSE": False}


class _Stamp(NamedTuple):
    """What identifies one version of the file on disk."""

    device: int
    inode: int
    size: int
    mtime_ns: int


class _FileChangedError(Exception):
    """The workbook was replaced while a new version was being prepared (internal)."""


@dataclass(frozen=True, slots=True)
class _Box:
    """A rectangle of cells, 1-based and inclusive; ``None`` ends run to the sheet's edge."""

    min_row: int
    min_col: int
    max_row: int | None
    max_col: int | None

    @property
    def single(self) -> bool:
        return self.min_row == self.max_row and self.min_col == self.max_col

    def clamp(self, rows: int, cols: int) -> tuple[int, int, int, int]:
        """The box cut to a grid of ``rows`` x ``cols``: (min_row, min_col, max_row, max_col)."""
        max_row = rows if self.max_row is None else min(self.max_row, rows)
        max_col = cols if self.max_col is None else min(self.max_col, cols)
        return self.min_row, self.min_col, max_row, max_col

    def contains(self, row: int, col: int) -> bool:
        return (
            self.min_row <= row
            and (self.max_row is None or row <= self.max_row)
            and self.min_col <= col
            and (self.max_col is None or col <= self.max_col)
        )


_WHOLE_TAB = _Box(1, 1, None, None)


def _endpoint(text: str) -> tuple[int | None, int | None]:
    match = _ENDPOINT.match(text.strip())
    if match is None or not (match.group(1) or match.group(2)):
        raise ValueError(text)
    col = column_index_from_string(match.group(1).upper()) if match.group(1) else None
    row = int(match.group(2)) if match.group(2) else None
    if (col is not None and not 1 <= col <= MAX_COLS) or (row is not None and not 1 <= row <= MAX_ROWS):
        raise ValueError(text)
    return col, row


def _parse_cells(cells: str) -> _Box:
    """The box of the cell part of an A1 range: ``""`` (whole tab), ``B2``, ``A1:C3``,
    ``A:C``, ``2:5``, ``A2:E`` (open-ended down)."""
    if cells.strip() == "":
        return _WHOLE_TAB
    first, colon, last = cells.partition(":")
    col1, row1 = _endpoint(first)
    if not colon:
        if col1 is None or row1 is None:
            raise ValueError(cells)
        return _Box(row1, col1, row1, col1)
    col2, row2 = _endpoint(last)
    min_col, max_col = col1 or 1, col2
    min_row, max_row = row1 or 1, row2
    if max_col is not None and max_col < min_col:
        min_col, max_col = max_col, min_col
    if max_row is not None and max_row < min_row:
        min_row, max_row = max_row, min_row
    return _Box(min_row, min_col, max_row, max_col)


def _clean_text(text: str) -> str:
    """Text as a cell can store it and give back unchanged (see the module notes)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _NOT_XML.sub("\ufffd", text)
    if len(text) * 2 <= MAX_CELL_CHARS:
        return text
    units = 0
    for index, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > MAX_CELL_CHARS:
            return text[:index]
    return text


def _duration(value: dt.timedelta) -> str:
    seconds = value.total_seconds()
    sign = "-" if seconds < 0 else ""
    whole = int(abs(seconds))
    frac = abs(seconds) - whole
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    if frac >= 1e-6:
        text += f"{frac:.6f}"[1:].rstrip("0")
    return text


def _cell_out(cell: Any) -> CellValue:
    """The value of one cell as the backend returns it; ``None`` for an empty cell."""
    value = cell.value
    if value is None or value == "":
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return "#NUM!"  # what an office program shows for it
    if cell.data_type == "f" and isinstance(value, str):
        constant = _BOOL_FORMULAS.get(value.replace(" ", "").upper())
        if constant is not None:  # LibreOffice saves a typed TRUE as the formula =TRUE()
            return constant
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dt.datetime):
        midnight = value.time() == dt.time(0)
        if midnight and is_datetime(cell.number_format) != "datetime":
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return _duration(value)
    text = getattr(value, "text", None)  # an ArrayFormula
    if isinstance(text, str):
        return text
    return str(value)


def _store(cell: Any, value: CellValue) -> bool:
    """Store ``value`` RAW in ``cell``; True if the cell changed."""
    if value is None:
        return False
    if isinstance(value, str) and value == "":
        if cell.value is None:
            return False
        cell.value = None
        return True
    if isinstance(value, bool):
        new: bool | int | float | str = value
        data_type = "b"
    elif isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(float(f"{value:.16g}")):
            raise SheetError(f"cell {cell.coordinate}: {value!r} cannot be stored in a workbook")
        new, data_type = value, "n"
    elif isinstance(value, str):
        new, data_type = _clean_text(value), "s"
        if new != value and cell.value == value:
            # The cell holds this very text already (a player's, longer than a cell should hold or with a character
            # mended on writing): rewriting it would cut or change what the player typed, so it is left as typed.
            return False
    else:
        raise TypeError(f"cell {cell.coordinate}: cannot write a {type(value).__name__}")
    quote = data_type == "s" and str(new).startswith(_FORMULA_LIKE)
    if (
        type(cell.value) is type(new)
        and cell.value == new
        and cell.data_type == data_type
        and bool(cell.quotePrefix) == quote
    ):
        return False
    cell.value = new
    if data_type == "s":
        cell.data_type = "s"  # never "f": RAW text that starts with "=" stays text
        if quote:
            cell.quotePrefix = True
    elif cell.quotePrefix:
        cell.quotePrefix = False
    return True


#: How a tick box shows: LibreOffice reads an .xlsx TRUE/FALSE as 1/0 and would show "0"; this
#: number format shows it as a box, ticked or not (Excel shows TRUE/FALSE, ignoring formats on booleans).
CHECKBOX_FORMAT = '"☑";"☑";"☐"'


def _px_to_width(pixels: int) -> float:
    """Excel's column width (characters of the default font) for a width in pixels."""
    return max(0.0, math.floor((pixels - 5) / 7 * 100 + 0.5) / 100)


def _argb(colour: str) -> str:
    match = _COLOUR.match(colour.strip())
    if match is None:
        raise SheetError(f"colour {colour!r} is not #RRGGBB")
    return "FF" + match.group(1).upper()


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


def _worksheet(wb: Any, tab: str) -> Any:
    if tab in wb.sheetnames:
        return wb[tab]
    folded = [n for n in wb.sheetnames if n.casefold() == tab.casefold()]
    if len(folded) == 1:
        return wb[folded[0]]
    return None


def _is_empty(ws: Any) -> bool:
    return all(cell.value in (None, "") for row in ws.iter_rows() for cell in row)


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
        self._cache: tuple[_Stamp, Any] | None = None
        #: The fingerprint of the file as the last write saved it, when that write changed the very version the
        #: last read loaded (None otherwise): the poll gate records it so our own save is not taken for a player's.
        self.own_save: FileMark | None = None

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

    def read(self, ranges: Sequence[str]) -> list[Grid]:
        """The values of each A1 range, in order, from one load of the file (see the module notes)."""
        return self._grids(self._workbook_for_read(), ranges)

    def _grids(self, wb: Any, ranges: Sequence[str]) -> list[Grid]:
        """The values of each A1 range of the loaded workbook ``wb``, trimmed like Google's."""
        out: list[Grid] = []
        for full in ranges:
            ws, box = self._resolve(wb, full)
            min_row, min_col, max_row, max_col = box.clamp(ws.max_row, ws.max_column)
            if min_row > max_row or min_col > max_col:
                out.append([])
                continue
            rows = [
                [_cell_out(cell) for cell in row]
                for row in ws.iter_rows(min_row=min_row, max_row=max_row, min_col=min_col, max_col=max_col)
            ]
            out.append(trim_grid(rows))
        return out

    def tab_names(self) -> list[str]:
        """The workbook's tabs, in order (the helper tab of long dropdown lists included)."""
        return list(self._workbook_for_read().sheetnames)

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
            saved = [c for g, now in zip(guard, self._grids(wb, [g.range for g in guard]), strict=True)
                     for c in changed_since(g, now)]
            if saved:
                raise SavedMeanwhileError(self.name, describe_cells(saved, {t.casefold(): t for t in wb.sheetnames}))
            changed = False
            fixed = fixed_rows(wb)
            for w in writes:
                if self._write_range(wb, w.range, w.values):
                    changed = True
                    ws, box = self._resolve(wb, w.range)
                    fit_rows(ws, range(box.min_row, box.min_row + len(w.values)), fixed.get(ws.title, set()))
                if w.notes is not None:
                    changed = self._write_notes(wb, w.range, w.notes) or changed
            return changed

        with self.hold_lock():
            return self._grids(self._modify(change), read_back)

    def apply_layout(self, layout: WorkbookLayout) -> None:
        """Create or reshape the workbook's tabs from ``layout`` and save once, atomically."""

        def change(wb: Any) -> bool:
            self._apply_layout(wb, layout)
            return True

        self._modify(change)

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
                    _unlock(self._lock_fd)
                    os.close(self._lock_fd)
                    self._lock_fd = None

    def _acquire_lock(self) -> int:
        try:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, _NEW_FILE_MODE)
        except OSError as e:
            raise SheetAccessError(
                f"cannot create the lock file {self.lock_path} next to {self.path}: {e.strerror or e}"
            ) from e
        deadline = self._clock() + self.lock_timeout
        while True:
            if _try_lock(fd):
                return fd
            if self._clock() >= deadline:
                os.close(fd)
                raise SheetAccessError(
                    f"another sync is writing {self.path} (it holds {self.lock_path}); "
                    "wait for it to finish, then run the sync again"
                )
            self._sleep(_LOCK_POLL_SECONDS)

    # ----------------------------------------------------------------- files

    def _stamp(self) -> _Stamp:
        try:
            st = os.stat(self.path)
        except FileNotFoundError as e:
            raise SheetAccessError(
                f"{self.path} does not exist: create it with `sheets-gm init` or check the path"
            ) from e
        except OSError as e:
            raise SheetAccessError(f"cannot open {self.path}: {e.strerror or e}") from e
        if not stat.S_ISREG(st.st_mode):
            raise SheetAccessError(f"{self.path} is not a file")
        return _Stamp(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)

    def _load(self) -> tuple[Any, _Stamp]:
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
            try:
                wb = openpyxl.load_workbook(io.BytesIO(data), data_only=False, rich_text=False)
            except Exception as e:
                raise SheetAccessError(
                    f"{self.path} is not a readable .xlsx workbook ({type(e).__name__}: {e}); "
                    "open it in LibreOffice or Excel and save it as .xlsx, or restore a backup"
                ) from e
            return wb, before
        raise SheetAccessError(f"{self.path} keeps changing while it is read; try again")

    def _workbook_for_read(self) -> Any:
        stamp = self._stamp()
        if self._cache is not None and self._cache[0] == stamp:
            return self._cache[1]
        wb, stamp = self._load()
        self._cache = (stamp, wb)
        return wb

    def refuse_if_open(self) -> None:
        """Raise :class:`WorkbookOpenError` if LibreOffice or Excel holds the workbook open (its lock file is there):
        writing it now would lose the typing there, or be lost at the office program's next save."""
        self._refuse_if_open_elsewhere()

    def _refuse_if_open_elsewhere(self) -> None:
        paths = {self.path}
        with contextlib.suppress(OSError):
            paths.add(self.path.resolve())
        for path in sorted(paths):
            for lock in office_lock_files(path):
                program = "LibreOffice" if lock.name.startswith(".~lock.") else "Excel"
                raise WorkbookOpenError(
                    f"{self.path} is open in {program}{_read_lock_owner(lock)} (lock file {lock.name}): "
                    f"save your changes and close the file there, then sync again; writing now would lose "
                    f"edits. If it is not open anywhere, delete {lock}"
                )

    def _modify(self, change: Callable[[Any], bool]) -> Any:
        """Read-modify-write the newest file under the lock, saved once and atomically; the workbook as it now
        stands on disk.

        The workbook read last is reused when the file has not changed since (same device, inode,
        size and modification time): a resolving sync loads the file once, not once for the read
        and again for the write, and a demo once in all instead of four times a turn."""
        self.own_save = None
        with self.hold_lock():
            for _ in range(_ATTEMPTS):
                stamp = self._stamp()
                cached = self._cache
                read_before = cached is not None and cached[0] == stamp
                if cached is not None and read_before:
                    wb = cached[1]
                else:
                    wb, stamp = self._load()
                self._cache = None  # ``change`` edits it: only a saved workbook goes back in the cache
                if not change(wb):
                    self._cache = (stamp, wb)  # nothing changed: still the file as it is
                    return wb
                self._refuse_if_open_elsewhere()
                try:
                    saved = self._save(wb, stamp)
                except _FileChangedError:
                    continue
                if read_before:
                    self.own_save = saved
                with contextlib.suppress(SheetAccessError):
                    self._cache = (self._stamp(), wb)  # the workbook is now exactly the saved file
                return wb
            raise SheetAccessError(f"{self.path} kept changing while the sync was saving it; try again")

    def _save(self, wb: Any, expected: _Stamp | None, *, must_not_exist: bool = False,
              mode: int = _NEW_FILE_MODE) -> FileMark:
        """Save ``wb`` over the file atomically, if it is still the version ``expected``; the saved file's mark. A
        file saved over keeps the mode it had; a new one gets ``mode`` (less the umask)."""
        buffer = io.BytesIO()
        wb.save(buffer)
        data = buffer.getvalue()
        target = self.path
        with contextlib.suppress(OSError):
            target = self.path.resolve()  # replace the file a symlink points at, not the link
        tmp = target.parent / f".{target.name}.{secrets.token_hex(6)}.sheets-gm.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        try:
            fd = os.open(tmp, flags, mode)
        except OSError as e:
            raise SheetAccessError(f"cannot save {self.path}: {e.strerror or e}") from e
        try:
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                if expected is not None:
                    with contextlib.suppress(OSError):
                        os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
                current = self._stamp() if target.exists() else None
                if must_not_exist and current is not None:
                    raise SheetAccessError(f"{self.path} already exists; pass overwrite=True to replace it")
                if not must_not_exist and current != expected:
                    raise _FileChangedError
                mark = bytes_mark(data, os.stat(tmp).st_mtime_ns)  # the moved file keeps its inode and times
                if must_not_exist:
                    _link_no_clobber(tmp, target, self.path)
                else:
                    os.replace(tmp, target)
            except OSError as e:
                hint = " (is it open in another program? close it and try again)" if isinstance(
                    e, PermissionError
                ) else ""
                raise SheetAccessError(f"cannot save {self.path}: {e.strerror or e}{hint}") from e
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        self._cache = None
        _fsync_dir(target.parent)
        return mark

    # ----------------------------------------------------------------- cells

    def _resolve(self, wb: Any, full: str) -> tuple[Any, _Box]:
        """The worksheet and box of a full A1 range; a bare ``A1:B2`` is on the first tab."""
        try:
            if full.startswith("'") or "!" in full:
                tab, cells = split_a1(full)
            elif _worksheet(wb, full) is not None:
                tab, cells = full, ""
            else:
                tab, cells = wb.sheetnames[0], full
            box = _parse_cells(cells)
        except ValueError as e:
            raise SheetError(f"{self.path}: {full!r} is not an A1 range") from e
        ws = _worksheet(wb, tab)
        if ws is None:
            raise SheetError(
                f"{self.path}: there is no tab named {tab!r} (range {full!r}); "
                f"the tabs are {', '.join(repr(n) for n in wb.sheetnames)}"
            )
        return ws, box

    def _write_range(self, wb: Any, full: str, values: Grid) -> bool:
        ws, box = self._resolve(wb, full)
        return _write_box(ws, box, values, f"{self.path}: range {full!r}")

    def _write_notes(self, wb: Any, full: str, notes: Grid) -> bool:
        ws, box = self._resolve(wb, full)
        changed = False
        for cell, note in _given_cells(ws, box, notes):
            text = _clean_text(str(note))
            if (cell.comment.text if cell.comment is not None else "") == text:
                continue
            cell.comment = _comment(text) if text else None
            changed = True
        return changed

    # ----------------------------------------------------------------- layout

    def _apply_layout(self, wb: Any, layout: WorkbookLayout) -> None:
        names = [t.name for t in layout.tabs]
        if not names and layout.retired:  # only deletes tabs (an engine moved out): the others stay as they are
            retired = {n.casefold() for n in layout.retired}
            for ws in list(wb.worksheets):
                if ws.title.casefold() in retired:
                    wb.remove(ws)
            wb.active = next(i for i, ws in enumerate(wb.worksheets) if ws.sheet_state == "visible")
            return
        if not names:
            raise SheetError("a layout needs at least one tab")
        if len({n.casefold() for n in names}) != len(names):
            raise SheetError(f"layout {layout.title!r} names a tab twice")
        if LISTS_TAB.casefold() in {n.casefold() for n in names}:
            raise SheetError(f"{LISTS_TAB!r} is reserved for the local workbook's dropdown lists")
        folded = {n.casefold() for n in names}
        others_shown = any(
            ws.title.casefold() not in folded and ws.title != LISTS_TAB and ws.sheet_state == "visible"
            and not _is_empty(ws)
            for ws in wb.worksheets
        )  # kept after the layout's tabs: a workbook holding only a hidden engine tab is fine beside them
        if all(t.hidden for t in layout.tabs) and not others_shown:
            raise SheetError(f"layout {layout.title!r} hides every tab; at least one must be visible")

        for tab in layout.tabs:
            if len(tab.name) > 31:
                raise SheetError(f"{tab.name!r} is longer than the 31 characters an .xlsx tab name may have")
            ws = _worksheet(wb, tab.name)
            if ws is None:
                try:
                    ws = wb.create_sheet(tab.name)
                except ValueError as e:
                    raise SheetError(f"{tab.name!r} cannot be a tab name in an .xlsx workbook: {e}") from e
            elif ws.title != tab.name:
                ws.title = tab.name
        old_lists = _worksheet(wb, LISTS_TAB)
        if old_lists is not None:
            wb.remove(old_lists)
        retired = {n.casefold() for n in layout.retired}
        for ws in list(wb.worksheets):
            if ws.title not in names and (_is_empty(ws) or ws.title.casefold() in retired):
                wb.remove(ws)
        for index, tab_name in enumerate(names):
            ws = wb[tab_name]
            wb.move_sheet(ws, offset=index - wb.index(ws))

        lists: list[tuple[str, ...]] = []
        for tab in layout.tabs:
            ws = wb[tab.name]
            _apply_tab(ws, tab, lists)
            fixed = {row + 1 for row in tab.row_heights}
            record_fixed_rows(wb, tab.name, fixed)
            fit_rows(ws, range(1, min(tab.rows, ws.max_row) + 1), fixed)
        if lists:
            helper = wb.create_sheet(LISTS_TAB)
            for col, values in enumerate(lists, start=1):
                for row, value in enumerate(values, start=1):
                    _store(helper.cell(row=row, column=col), value)
            helper.sheet_state = "hidden"
            helper.protection.sheet = True

        wb.active = next(i for i, ws in enumerate(wb.worksheets) if ws.sheet_state == "visible")
        for ws in wb.worksheets:
            ws.sheet_view.tabSelected = ws is wb.active
        if layout.title:  # '' leaves the title as it is (a tab laid out again alone)
            wb.properties.title = layout.title


def _write_box(ws: Any, box: _Box, values: Grid, where: str) -> bool:
    height = len(values)
    width = max((len(row) for row in values), default=0)
    if not box.single:
        fits_rows = box.max_row is None or height <= box.max_row - box.min_row + 1
        fits_cols = box.max_col is None or width <= box.max_col - box.min_col + 1
        if not (fits_rows and fits_cols):
            raise SheetError(f"{where} is smaller than the {height} x {width} values written to it")
    if box.min_row + height - 1 > MAX_ROWS or box.min_col + width - 1 > MAX_COLS:
        raise SheetError(f"{where}: the values run past the edge of the sheet")
    changed = False
    for cell, value in _given_cells(ws, box, values):
        if isinstance(cell, MergedCell):
            raise SheetError(f"{where}: cell {cell.coordinate} of tab {ws.title!r} is inside merged cells; "
                             "unmerge them")
        changed = _store(cell, value) or changed
    return changed


def _given_cells(ws: Any, box: _Box, grid: Grid) -> Iterator[tuple[Any, CellValue]]:
    """Each cell of ``box`` that ``grid`` (rows from the box's top left) gives something for, with it; a ``None``
    leaves its cell out."""
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value is not None:
                yield ws.cell(row=box.min_row + r, column=box.min_col + c), value


def _comment(text: str) -> Comment:
    """A cell comment holding ``text``, sized to show it whole on hover (an office program's default box is
    a few words wide)."""
    lines = text.split("\n")
    comment = Comment(text, "sheets-gm")
    comment.width = min(480, 24 + 7 * max(len(line) for line in lines))
    comment.height = 24 + 16 * len(lines)
    return comment


def _tab_box(tab: TabLayout, cells: str, what: str) -> _Box:
    """The box of a range of a layout tab, checked against the tab's size."""
    try:
        box = _parse_cells(cells)
    except ValueError as e:
        raise SheetError(f"tab {tab.name!r}: {what} range {cells!r} is not an A1 range") from e
    if box.min_row > tab.rows or box.min_col > tab.cols or (box.max_row or 0) > tab.rows or (
        box.max_col or 0
    ) > tab.cols:
        raise SheetError(f"tab {tab.name!r}: {what} range {cells!r} is outside its {tab.rows} x {tab.cols} cells")
    return box


def _outline(ws: Any, tab: TabLayout, box: _Box) -> None:
    """A thin grey line round ``box``: each edge cell gets the side it lies on, its other sides kept."""
    min_row, min_col, max_row, max_col = box.clamp(tab.rows, tab.cols)
    line = Side(style="thin", color=_argb(BORDER_COLOUR))
    for cell in _cells(ws, tab, box):
        old = cell.border
        cell.border = Border(left=line if cell.column == min_col else old.left,
                             right=line if cell.column == max_col else old.right,
                             top=line if cell.row == min_row else old.top,
                             bottom=line if cell.row == max_row else old.bottom)


def _cells(ws: Any, tab: TabLayout, box: _Box) -> Iterator[Any]:
    min_row, min_col, max_row, max_col = box.clamp(tab.rows, tab.cols)
    for row in range(min_row, max_row + 1):
        for col in range(min_col, max_col + 1):
            cell = ws.cell(row=row, column=col)
            if not isinstance(cell, MergedCell):
                yield cell


def _absolute(source: str) -> str:
    """A range with its tab as a list validation's source: ``'View Ann'!$H$4:$H$43``."""
    tab, cells = split_a1(source)
    first, _, last = cells.partition(":")

    def fixed(cell: str) -> str:
        letters = cell.rstrip("0123456789")
        return f"${letters}${cell[len(letters):]}"
    return f"{quote_tab(tab)}!{fixed(first)}:{fixed(last or first)}"


def _list_formula(values: tuple[str, ...], lists: list[tuple[str, ...]]) -> str:
    """A list validation's source: inline when Excel allows it, else a helper-tab column."""
    inline = ",".join(values)
    if values and len(inline) + 2 <= _INLINE_LIST_LIMIT and not any("," in v or '"' in v for v in values):
        return f'"{inline}"'
    if values not in lists:
        lists.append(values)
    column = get_column_letter(lists.index(values) + 1)
    return f"{quote_tab(LISTS_TAB)}!${column}$1:${column}${max(1, len(values))}"


def _apply_tab(ws: Any, tab: TabLayout, lists: list[tuple[str, ...]]) -> None:
    if tab.rows < 1 or tab.cols < 1 or tab.rows > MAX_ROWS or tab.cols > MAX_COLS:
        raise SheetError(f"tab {tab.name!r}: {tab.rows} x {tab.cols} is not a possible sheet size")
    where = f"tab {tab.name!r}"
    for cells, grid in tab.values.items():
        box = _tab_box(tab, cells, "value")
        height, width = len(grid), max((len(r) for r in grid), default=0)
        if box.min_row + height - 1 > tab.rows or box.min_col + width - 1 > tab.cols:
            raise SheetError(f"{where}: the values at {cells!r} run past its {tab.rows} x {tab.cols} cells")
        _write_box(ws, box, grid, f"{where}: values {cells!r}")

    for fill in tab.fills:
        argb = _argb(fill.colour)
        pattern = PatternFill(fill_type="solid", start_color=argb, end_color=argb)
        wrapped = Alignment(wrap_text=True, vertical="top")
        for cell in _cells(ws, tab, _tab_box(tab, fill.range, "fill")):
            cell.fill = pattern
            if bool(cell.font.b) != fill.bold:
                font = copy(cell.font)
                font.b = fill.bold
                cell.font = font
            if fill.wrap:
                cell.alignment = wrapped
        if fill.border:
            _outline(ws, tab, _tab_box(tab, fill.range, "fill"))
    # The layout owns its tabs' conditional formats, so applying it again replaces them.
    ws.conditional_formatting = ConditionalFormattingList()
    for conditional in tab.conditional_fills:
        box = _tab_box(tab, conditional.range, "conditional fill")
        ws.conditional_formatting.add(_box_ref(box, tab), _begins_with_rule(conditional, box, where))

    ws.freeze_panes = f"A{tab.frozen_rows + 1}" if tab.frozen_rows > 0 else None
    ws.sheet_state = "hidden" if tab.hidden else "visible"
    # Printed or exported to PDF, a tab is one page wide (the board on one page, not cut in strips).
    ws.page_setup.orientation = "landscape" if tab.cols > 6 else "portrait"
    if tab.print_pages_wide:
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.page_setup.fitToWidth = tab.print_pages_wide
        ws.page_setup.fitToHeight = 0
    else:  # at its own size, over as many pages as it needs, its labels repeated on each
        ws.sheet_properties.pageSetUpPr.fitToPage = False
        ws.print_title_rows = "1:1"
        ws.print_title_cols = "A:A"
    ws.print_options.headings = tab.print_headings
    for col, pixels in tab.column_widths.items():
        if not 0 <= col < tab.cols:
            raise SheetError(f"{where}: column {col} (0-based) is outside its {tab.cols} columns")
        ws.column_dimensions[get_column_letter(col + 1)].width = _px_to_width(pixels)
    for col in tab.hidden_columns:
        if not 0 <= col < tab.cols:
            raise SheetError(f"{where}: hidden column {col} (0-based) is outside its {tab.cols} columns")
        ws.column_dimensions[get_column_letter(col + 1)].hidden = True
    for row, pixels in tab.row_heights.items():
        if not 0 <= row < tab.rows:
            raise SheetError(f"{where}: row {row} (0-based) is outside its {tab.rows} rows")
        ws.row_dimensions[row + 1].height = pixels * 0.75  # points

    # Validations: the layout owns its tabs' validations, so applying it again replaces them.
    ws.data_validations = DataValidationList()
    inputs: list[_Box] = []
    for dropdown in tab.dropdowns:
        box = _tab_box(tab, dropdown.range, "dropdown")
        inputs.append(box)
        rule = DataValidation(
            type="list",
            formula1=_absolute(dropdown.source) if dropdown.source else _list_formula(tuple(dropdown.values), lists),
            allow_blank=True,
            showErrorMessage=not dropdown.source,  # a list read from cells only helps: anything typed is kept
            showDropDown=False,  # (sic) False shows the in-cell arrow
            errorTitle="Not in the list",
            error="Pick one of the values from the dropdown list.",
        )
        rule.add(_box_ref(box, tab))
        ws.add_data_validation(rule)
    for checkbox in tab.checkboxes:
        box = _tab_box(tab, checkbox.range, "checkbox")
        inputs.append(box)
        rule = DataValidation(
            type="list",
            formula1='"TRUE,FALSE"',
            allow_blank=True,
            showErrorMessage=True,
            errorTitle="Tick box",
            error="Enter TRUE (ticked) or FALSE.",
        )
        rule.add(_box_ref(box, tab))
        ws.add_data_validation(rule)
        for cell in _cells(ws, tab, box):
            if cell.value is None or cell.value == "":
                _store(cell, False)
            cell.number_format = CHECKBOX_FORMAT

    _apply_protection(ws, tab, inputs)


def _begins_with_rule(conditional: ConditionalFill, box: _Box, where: str) -> Rule:
    """Excel's "begins with" rule, written as Excel writes it (the formula is what Excel and LibreOffice test)."""
    try:
        argb = _argb(conditional.colour)
    except SheetError as e:
        raise SheetError(f"{where}: conditional fill {conditional.range!r}: {e}") from e
    text = '"' + conditional.prefix.replace('"', '""') + '"'
    first = f"{get_column_letter(box.min_col)}{box.min_row}"  # relative: Excel shifts it to each cell
    style = DifferentialStyle(fill=PatternFill(fill_type="solid", start_color=argb, end_color=argb),
                              font=Font(b=True) if conditional.bold else None)
    return Rule(type="beginsWith", operator="beginsWith", text=conditional.prefix,
                formula=[f"LEFT({first},LEN({text}))={text}"], dxf=style)


def _box_ref(box: _Box, tab: TabLayout) -> str:
    min_row, min_col, max_row, max_col = box.clamp(tab.rows, tab.cols)
    return f"{get_column_letter(min_col)}{min_row}:{get_column_letter(max_col)}{max_row}"


def _protection_candidates(ws: Any, tab: TabLayout, inputs: list[_Box], gm_whole_tab: bool) -> Iterator[Any]:
    """The cells whose lock may need setting. A cell is locked unless told otherwise, so in a tab locked
    whole only the cells that exist and the input cells can differ: a 20,000-row log is not made of
    60,000 styled empty cells that every later save writes again."""
    if not gm_whole_tab:
        yield from _cells(ws, tab, _WHOLE_TAB)
        return
    seen: set[tuple[int, int]] = set()
    for cell in list(ws._cells.values()):
        if not isinstance(cell, MergedCell):
            seen.add((cell.row, cell.column))
            yield cell
    for box in inputs:
        for cell in _cells(ws, tab, box):
            if (cell.row, cell.column) not in seen:
                yield cell


def _apply_protection(ws: Any, tab: TabLayout, inputs: list[_Box]) -> None:
    """Sheet protection and per-cell locks for one tab (the mapping is in the module notes)."""
    gm_ranges: list[_Box] = []
    gm_whole_tab = False
    for p in tab.protections:
        if p.editors or p.player_input:
            inputs.append(_WHOLE_TAB if p.range is None else _tab_box(tab, p.range, "protection"))
        elif p.range is None:
            gm_whole_tab = True
        else:
            gm_ranges.append(_tab_box(tab, p.range, "protection"))
    ws.protection.sheet = bool(gm_ranges) or gm_whole_tab
    if not ws.protection.sheet:
        return
    locked = CellProtection(locked=True, hidden=False)
    unlocked = CellProtection(locked=False, hidden=False)
    for cell in _protection_candidates(ws, tab, inputs, gm_whole_tab):
        row, col = cell.row, cell.column
        if any(b.contains(row, col) for b in gm_ranges):
            lock = True
        elif any(b.contains(row, col) for b in inputs):
            lock = False
        else:
            lock = gm_whole_tab
        if bool(cell.protection.locked) != lock:
            cell.protection = locked if lock else unlocked


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
            backend._refuse_if_open_elsewhere()
        wb = openpyxl.Workbook()
        backend._apply_layout(wb, layout)
        try:
            backend._save(wb, expected, must_not_exist=not exists,
                          mode=_PRIVATE_FILE_MODE if private else _NEW_FILE_MODE)
        except _FileChangedError as e:
            raise SheetAccessError(f"{backend.path} changed while it was being replaced; try again") from e
        if private and exists:  # a file replaced keeps the mode it had
            with contextlib.suppress(OSError):
                os.chmod(backend.path, _PRIVATE_FILE_MODE)
    return backend


# --------------------------------------------------------------------- OS helpers

if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)


def _link_no_clobber(tmp: Path, target: Path, shown: Path) -> None:
    """Put ``tmp`` at ``target`` only if nothing is there (atomic where links exist)."""
    try:
        os.link(tmp, target)
    except FileExistsError as e:
        raise SheetAccessError(f"{shown} already exists; choose another file or overwrite it explicitly") from e
    except OSError:  # a file system without hard links: check, then rename
        if target.exists():
            raise SheetAccessError(
                f"{shown} already exists; choose another file or overwrite it explicitly"
            ) from None
        os.replace(tmp, target)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; a no-op where folders cannot be opened)."""
    if sys.platform == "win32":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
