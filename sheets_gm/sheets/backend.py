"""The interface every spreadsheet backend implements: batched reads, batched writes, layout.

One backend object stands for one spreadsheet (Google) or one workbook file (local). The
sync reads every range it needs in ONE ``read`` call and writes a resolution in ONE
``write`` call per spreadsheet; everything written is RAW (text never becomes a formula). A write
can also answer with the values of given ranges as they stand once it is made (``read_back``), so
what a player typed while the sync was resolving is learnt without reading the spreadsheet again.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sheets_gm.sheets.layout import Grid, ReadGuard, WorkbookLayout


class SheetError(Exception):
    """A spreadsheet problem the user can fix; the message says what and how."""


class LayoutDriftError(SheetError):
    """A header cell no longer says what the template wrote: the layout was edited by hand. ``breaks`` names each
    cell out of place, a sentence each, where the read found several (``doctor`` lists them all, as ``repair``
    mends them all); empty when the message names the one."""

    def __init__(self, message: str, breaks: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.breaks = breaks


class SheetAccessError(SheetError):
    """The spreadsheet or file cannot be opened: not shared, missing, locked, bad credentials."""


class OwnerOnlyError(SheetAccessError):
    """The file's owner alone may make this change of its sharing, and the account asking is one of its editors
    (Drive's 403 ``insufficientFilePermissions``): its sharing settings, or any share once its owner has turned off
    editors' sharing."""


class SharingLock(enum.Enum):
    """What became of a request to let no editor of a spreadsheet share it on (Drive's ``writersCanShare``)."""

    LOCKED = "locked"
    #: A shared drive's file: Drive keeps no such lock per file (the shared drive's settings say who may share).
    SHARED_DRIVE = "shared drive"
    #: Drive lets only the file's owner change it, and the account asking is an editor (the GM made it by hand).
    OWNER_ONLY = "owner only"


class WorkbookOpenError(SheetAccessError):
    """A local workbook is open in an office program (its lock file is there): it is not written. ``window``: the
    key of the window the poll that met it had open ('' when it was met outside a poll), so that what a poll says
    about it can be said once a window; ``path``: the workbook; ``holder``: who holds it open ("LibreOffice by Ann
    (lock file …)"), '' where unknown."""

    def __init__(self, message: str, window: str = "", *, path: str = "", holder: str = "") -> None:
        super().__init__(message)
        self.window = window
        self.path = path
        self.holder = holder
        self.report: object = None  # the report of the poll a due window's resolution waited in (``sync.poll``)

    def in_window(self, window: str, report: object = None) -> WorkbookOpenError:
        """The same refusal, met by a poll that had ``window`` open (``report``: that poll's, when the window was
        due and its resolution waits for the file)."""
        refused = WorkbookOpenError(str(self), window, path=self.path, holder=self.holder)
        refused.report = report
        return refused


class SavedMeanwhileError(SheetError):
    """A guarded write found cells saved since the poll read them (``cells``, A1 names): nothing was written to that
    spreadsheet, so the poll is made again from a fresh read (``sheets/guard.py``)."""

    def __init__(self, name: str, cells: str) -> None:
        super().__init__(f"{name} was saved while the sync was writing it ({cells} changed since it was read); "
                         "nothing was written over it")
        self.spreadsheet = name
        self.cells = cells
        self.completed = ""  # what the sync completed before the race (a change cut short), said after the poll again
        self.reason = ""  # why the poll that raced was resolving ('' when it was not): the poll made again says it


class SheetUnavailableError(SheetError):
    """The service kept failing (quota, 5xx, network) past the retry deadline."""


class GoogleUnreachableError(SheetUnavailableError):
    """No connection to Google at all (a name that does not resolve, a proxy or a network that refuses or drops it):
    no answer came, so no quota or outage of Google's is to blame."""


@dataclass(frozen=True, slots=True)
class RangeWrite:
    """Values for one A1 range (``'Board'!A1:O23``); written RAW.

    ``notes``, when given, are the cells' notes (the text a spreadsheet shows when the pointer rests on a
    cell), row by row like ``values``: a note replaces the cell's, ``""`` removes it, ``None`` leaves it."""

    range: str
    values: Grid
    notes: Grid | None = None


@runtime_checkable
class OpenedElsewhere(Protocol):
    """A spreadsheet an office program may hold open (a local workbook): the sync must not write it then."""

    def refuse_if_open(self) -> None:
        """Raise :class:`WorkbookOpenError` (saying how to close it) if an office program holds the file open."""
        ...


@runtime_checkable
class SavedOnce(Protocol):
    """A spreadsheet each save of which writes its whole file (a local workbook): the changes a command makes one
    after another can be held and saved once."""

    def saved_once(self) -> AbstractContextManager[None]:
        """Every change made inside the block held and saved once when it ends (nothing saved on an error)."""
        ...


class SheetBackend(Protocol):
    """One spreadsheet: read many ranges in one call, write many ranges in one call."""

    @property
    def changes(self) -> int:
        """The writes and layouts sent to it so far: a command that sent none changed nothing
        (``running.run.gm_change``)."""
        ...

    @property
    def name(self) -> str:
        """What to call this spreadsheet in messages (title, key or file path)."""
        ...

    def read(self, ranges: Sequence[str], *, struck: Collection[str] = ()) -> list[Grid]:
        """The values of each A1 range, in order: one call. Rows and cells past the data are
        trimmed as Google trims them; values are str, int, float, bool (a formula is read as
        its text starting with ``=``, never evaluated). In the ranges of ``struck`` (some of ``ranges``), a text
        struck through, whole by its cell's font or in runs, is a ``StruckText`` (``sheets.struck``); the backend
        reads those ranges so again when a write reads them back."""
        ...

    def write(self, writes: Sequence[RangeWrite], *, read_back: Sequence[str] = (),
              guard: Sequence[ReadGuard] = ()) -> list[Grid]:
        """Write every range in one call, RAW (no value is parsed as a formula or a date), with its notes.

        Returns, for each ``read_back`` A1 range, what ``read([that range])`` would return right after the
        write (same trimming, same types), taken in the same call: whatever a player typed before the write
        is in it, so the spreadsheet need not be read again to learn it. With no ``read_back``: ``[]``.

        ``guard``: ranges as the poll read them. A cell saved there since is never written over: a backend that
        can check before it writes (a local workbook) writes nothing and raises :class:`SavedMeanwhileError`;
        Google writes only the guarded cells that change, clearing a typed cell only if it still holds what
        was read (``sheets/guard.py``)."""
        ...

    def apply_layout(self, layout: WorkbookLayout, writes: Sequence[RangeWrite] = ()) -> None:
        """Create or reshape the tabs, fixed values, formats (conditional ones too), dropdowns and protections
        (one call); applying a layout again replaces its tabs' conditional formats and validations. Then
        ``writes`` are written as ``write`` writes them: a local workbook is saved once with both, Google is
        sent the layout's call and then the write's."""
        ...

    def tab_names(self) -> list[str]:
        """The names of the spreadsheet's tabs, in order (one call; never part of a poll)."""
        ...

    def export_xlsx(self) -> bytes:
        """The whole spreadsheet as an .xlsx file."""
        ...


def http_status(exc: BaseException) -> int | None:
    """The HTTP status of a failed response carried by ``exc`` (gspread's APIError or a
    requests HTTPError), read from the response itself: gspread's ``APIError.code`` is -1
    when the body is not JSON (an HTML 429 page)."""
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    return status if isinstance(status, int) else None
