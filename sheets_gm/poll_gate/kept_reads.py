"""What each spreadsheet of a Google match held when a poll last read it, so that the next poll reads only the
spreadsheets Drive says changed and takes the others from here.

A poll through the Drive gate (``poll_gate.drive``) wraps each spreadsheet in a :class:`KeptSheet`: one Drive named
is read live (once, whatever the poll asks of it again), any other answers from its kept read, provided the poll
asks the very ranges that were read (else it is read live: a table grew, a new version asks more). A first pass
*rehearses* the poll: it reads but writes nothing, noting which spreadsheets the poll would write. The poll is
then made for real only if every spreadsheet it writes was read live in it; otherwise every spreadsheet is read
live first. So a poll never writes a spreadsheet from a kept read, and a resolution (which writes the engine)
reads every spreadsheet once, as a full poll does. Each real write answers with what the poll read there as it
stands after the write (the backend's ``read_back``, in the same request): that snapshot is the spreadsheet's
kept read from then on, so nothing is read back, unless it shows a cell we did not write changed since our read
(someone typed meanwhile): then the next poll reads that spreadsheet.

The kept reads are one JSON file per match beside the poll state, in the GM's ``.sheets-gm`` folder: they hold
what the players typed and the engine's record, so that folder stays the GM's alone (as the engine does).
A missing or unreadable file only costs a full read.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sheets_gm.poll_gate.kept_file import UNREADABLE, read_kept_file, write_kept_file
from sheets_gm.sheets.backend import RangeWrite, SheetBackend, SheetError
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.guard import changed_since, extent, grid_cells, same_value, written_cells
from sheets_gm.sheets.layout import Grid, ReadGuard, WorkbookLayout
from sheets_gm.sheets.struck import grid_from_json, grid_to_json
from sheets_gm.sync.sheets import MatchSheets

#: Bumped when the file's meaning changes; a file of another version is ignored (the poll reads all). 2: a text
#: struck through is kept with its spans (``sheets.struck``).
KEPT_VERSION = 2


@dataclass(frozen=True, slots=True)
class KeptRead:
    """The ranges a poll read from one spreadsheet and what they held."""

    ranges: tuple[str, ...]
    grids: tuple[Grid, ...]


def kept_path(config_path: Path) -> Path:
    """The kept reads of the match configured by ``config_path`` (beside its poll state)."""
    return config_path.parent / ".sheets-gm" / f"{config_path.stem}.reads.json"


def load_kept(path: Path) -> dict[str, KeptRead]:
    """The kept reads by spreadsheet key ({} when the file is missing, unreadable or of another version)."""
    try:
        return {str(key): KeptRead(tuple(r["ranges"]), tuple(grid_from_json(g) for g in r["grids"]))
                for key, r in read_kept_file(path, KEPT_VERSION).items()}
    except UNREADABLE:
        return {}


def save_kept(path: Path, reads: dict[str, KeptRead]) -> None:
    """Write ``reads`` atomically, the GM's alone (the engine's cells, every seat's orders); a failure only costs the
    next poll a full read."""
    write_kept_file(path, KEPT_VERSION, {key: {"ranges": list(r.ranges), "grids": [grid_to_json(g) for g in r.grids]}
                                         for key, r in sorted(reads.items())})


class KeptSheet:
    """One spreadsheet as a gated poll sees it: read live, or answered from its kept read; written for real, or
    (while rehearsing) only noted. Everything else goes to the spreadsheet itself."""

    def __init__(self, inner: GoogleSheetBackend, kept: KeptRead | None, live: bool,
                 clock: Callable[[], datetime], after_write: Callable[[str], int | None] | None = None) -> None:
        self.inner = inner
        self.clock = clock
        self.after_write = after_write  # asked right after each real write: the version it leaves (gate.drive)
        self.version_after_write: int | None = None  # what it answered last (None: unknown, read it back)
        self.snapshot: KeptRead | None = None  # what this poll's write answered with (see ``write``)
        self.snapshot_at: datetime | None = None  # when that write was answered
        self.typed_meanwhile = False  # the answer shows a cell we did not write changed since our read
        self.key = inner.key
        self.kept = kept
        self.live = live
        self.rehearsing = False
        self.read_live: KeptRead | None = None  # what this poll read from the spreadsheet itself
        self.served_kept = False  # a read was answered from the kept read
        self.written = False  # the poll wrote (or, rehearsing, would write) here
        self.laid_out = False  # the poll laid a tab out here (what it read is no longer what the tab holds)

    @property
    def name(self) -> str:
        """The spreadsheet's name."""
        return self.inner.name

    @property
    def changes(self) -> int:
        """The writes sent to the spreadsheet itself (``SheetBackend.changes``)."""
        return self.inner.changes

    def read(self, ranges: Sequence[str], *, struck: Collection[str] = ()) -> list[Grid]:
        """The ranges' values: from this poll's live read, the kept read, or the spreadsheet (see the class)."""
        wanted = tuple(ranges)
        if self.read_live is not None and self.read_live.ranges == wanted:
            return list(self.read_live.grids)
        kept = None if self.live or self.kept is None else kept_answer(self.kept, wanted)
        if kept is not None:
            self.served_kept = True
            return kept
        grids = self.inner.read(ranges, struck=struck)
        self.read_live = KeptRead(wanted, tuple(grids))
        return grids

    def write(self, writes: Sequence[RangeWrite], *, read_back: Sequence[str] = (),
              guard: Sequence[ReadGuard] = ()) -> list[Grid]:
        """Write for real (its answer, what this poll read here as it stands after the write, kept from now on: see
        the module notes), or note the write while rehearsing. Never from a kept read: the gate reads live first."""
        self.written = True
        if self.rehearsing:
            return [] if not read_back else self.read(read_back)
        if self.served_kept:
            raise SheetError(f"{self.name}: a poll was about to write from what an earlier poll read; nothing was "
                             "written there, and the next poll reads every spreadsheet")
        before = self.snapshot or self.read_live
        ours = before.ranges if before is not None else ()
        grids = self.inner.write(writes, read_back=(*ours, *read_back), guard=guard)
        if before is not None:
            self.snapshot = KeptRead(ours, tuple(grids[:len(ours)]))
            self.snapshot_at = self.clock()
            self.typed_meanwhile = self.typed_meanwhile or typed_meanwhile(before, self.snapshot, writes)
            self.version_after_write = self.after_write(self.key) if self.after_write is not None else None
        return grids[len(ours):]

    def apply_layout(self, layout: WorkbookLayout, writes: Sequence[RangeWrite] = ()) -> None:
        """Lay out (and write ``writes``) for real, or note it while rehearsing (a layout is a write: it answers with
        no snapshot)."""
        self.written = True
        if not self.rehearsing:
            self.inner.apply_layout(layout, writes)
            self.laid_out = True

    def tab_names(self) -> list[str]:
        """The spreadsheet's tabs (never part of a poll)."""
        return self.inner.tab_names()

    def export_xlsx(self) -> bytes:
        """The spreadsheet as an .xlsx (never part of a poll)."""
        return self.inner.export_xlsx()


class KeptSheets:
    """A match's spreadsheets for one gated poll: each Google spreadsheet wrapped once in a :class:`KeptSheet`,
    live when its key is in ``live`` (None: every one), the others answered from ``kept``; ``after_write`` is
    asked right after each real write with a snapshot, for the version of the spreadsheet it leaves."""

    def __init__(self, sheets: MatchSheets, kept: dict[str, KeptRead], live: Iterable[str] | None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 after_write: Callable[[str], int | None] | None = None) -> None:
        wanted = None if live is None else set(live)
        self.kept = kept
        self.wrapped: dict[int, KeptSheet] = {}
        for backend in sheets.write_order():
            if isinstance(backend, GoogleSheetBackend):
                is_live = wanted is None or backend.key in wanted
                self.wrapped[id(backend)] = KeptSheet(backend, kept.get(backend.key), is_live, clock,
                                                        after_write)

        def wrap(backend: SheetBackend) -> SheetBackend:
            return self.wrapped.get(id(backend), backend)

        self.sheets = MatchSheets(sheets.seats, wrap(sheets.board), wrap(sheets.engine),
                                  tuple(wrap(b) for b in sheets.orders),
                                  None if sheets.judge is None else wrap(sheets.judge), sheets.config_name,
                                  sheets.journal)

    def taken(self, key: str, read: KeptRead) -> None:
        """The spreadsheet ``key`` as read elsewhere just now (a GM's command's write answered with it, Drive's
        version asked right after): answered from ``read``, and kept as this poll's live read of it."""
        for sheet in self.wrapped.values():
            if sheet.key == key:
                sheet.kept, sheet.read_live = read, read

    def rehearse(self, on: bool) -> None:
        """Note writes instead of making them (``on``), or make them."""
        for sheet in self.wrapped.values():
            sheet.rehearsing = on
            sheet.written = False
            sheet.laid_out = False

    def wrote_from_kept(self) -> bool:
        """Whether the (rehearsed) poll writes a spreadsheet it did not read live."""
        return any(s.written and s.served_kept for s in self.wrapped.values())

    def wrote(self) -> list[str]:
        """The keys of the spreadsheets the poll wrote."""
        return [s.key for s in self.wrapped.values() if s.written]

    def go_live(self) -> None:
        """Read every spreadsheet live from now on (what was read live already is not read again)."""
        for sheet in self.wrapped.values():
            sheet.live = True
            sheet.served_kept = False

    def read_live(self) -> dict[str, KeptRead]:
        """What this poll read live, by key: for a spreadsheet it wrote, the snapshot its write answered with."""
        return {s.key: s.snapshot if s.snapshot is not None and s.written and not s.laid_out else s.read_live
                for s in self.wrapped.values() if s.read_live is not None}

    def to_keep(self) -> dict[str, KeptRead]:
        """The kept reads for the next poll: those this poll was given, with what it read live (or its writes
        answered with) in their place."""
        return {**self.kept, **self.read_live()}

    def all_read_live(self) -> bool:
        """Whether this poll read every spreadsheet live."""
        return all(s.read_live is not None for s in self.wrapped.values())

    def snapshots(self) -> dict[str, datetime]:
        """The spreadsheets this poll wrote whose write answered with a snapshot, and when: nothing there needs
        reading back."""
        return {s.key: s.snapshot_at for s in self.wrapped.values()
                if s.written and not s.laid_out and s.snapshot is not None and s.snapshot_at is not None}

    def versions_after_write(self) -> dict[str, int | None]:
        """For each spreadsheet of :meth:`snapshots`, what ``after_write`` answered right after the last write."""
        snapped = self.snapshots()
        return {s.key: s.version_after_write for s in self.wrapped.values() if s.key in snapped}

    def to_read_back(self) -> list[str]:
        """The spreadsheets the next poll reads whatever Drive says: written with no snapshot to show for it (a
        layout), or whose snapshot shows someone typed between this poll's read and its write (Drive then names
        us as the last to modify the file, for our write came last)."""
        snapped = self.snapshots()
        typed = {s.key for s in self.wrapped.values() if s.typed_meanwhile}
        return [key for key in self.wrote() if key not in snapped or key in typed]


def kept_answer(kept: KeptRead, wanted: Sequence[str]) -> list[Grid] | None:
    """What the ranges ``wanted`` hold, answered from ``kept`` (None when it does not hold them all): a range kept
    itself, or the end of a kept range that starts higher up, over the same columns to the same last row.

    The second is what our own write leaves: a resolution writes the Log's new lines, the next poll reads the Log
    from the block its last line is now in (``sync/read.py``), and that range is the end of the one the write
    answered with (its snapshot): what we wrote, so no read. Sheets leaves out a range's empty rows at its end
    and keeps those above a filled one, so the end of a kept grid is what Sheets answers for the shorter range.

    >>> log = KeptRead(("Log!A2:C20000",), ([[1, "move", "Red moves."], [], [2, "move", "Blue moves."]],))
    >>> kept_answer(log, ["Log!A3:C20000"]), kept_answer(log, ["Log!A5:C20000"])
    ([[[], [2, 'move', 'Blue moves.']]], [[]])
    >>> kept_answer(log, ["Log!A3:D20000"]) is None, kept_answer(log, ["Log!A1:C20000"]) is None
    (True, True)
    """
    grids: list[Grid] = []
    for asked in wanted:
        tab, row0, col0, last_row, last_col = extent(asked)
        found = next((list(grid[row0 - k_row0:]) for held, grid in zip(kept.ranges, kept.grids, strict=True)
                      for k_tab, k_row0, k_col0, k_last_row, k_last_col in [extent(held)]
                      if (k_tab, k_col0, k_last_row, k_last_col) == (tab, col0, last_row, last_col)
                      and k_row0 <= row0), None)
        if found is None:
            return None
        while found and not found[-1]:
            found.pop()
        grids.append(found)
    return grids


def typed_meanwhile(before: KeptRead, after: KeptRead, writes: Sequence[RangeWrite]) -> bool:
    """Whether ``after`` (what a write answered with) differs from ``before`` (what the poll read) overlaid with
    what the ``writes`` set: someone typed between the read and the write, in a cell the write did not set, or in
    one it cleared only if unchanged and found changed (``sheets/guard.py``).

    >>> read = KeptRead(("T!A1:C2",), ([["Ann", "", "old"]],))
    >>> typed_meanwhile(read, KeptRead(read.ranges, ([["Ann", "", "new"]],)), [RangeWrite("T!C1", [["new"]])])
    False
    >>> typed_meanwhile(read, KeptRead(read.ranges, ([["Ann", "", "new"], ["Bo"]],)), [RangeWrite("T!C1", [["new"]])])
    True
    >>> typed_meanwhile(read, KeptRead(read.ranges, ([["Ann", "", "hers"]],)), [RangeWrite("T!C1", [[""]])])
    True
    """
    written = written_cells(writes)
    for a1_range, old, new in zip(before.ranges, before.grids, after.grids, strict=True):
        now = grid_cells(a1_range, new)
        for cell in changed_since(ReadGuard(a1_range, old), new):
            if cell not in written or not same_value(written[cell], now.get(cell, "")):
                return True
    return False
