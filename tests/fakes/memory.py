"""An in-memory spreadsheet implementing SheetBackend, for fast sync tests.

It behaves like Google where the sync depends on it: reads are trimmed of trailing empty
rows and cells, reads and writes past a tab's size fail, values are stored RAW. It counts calls and
can fail the Nth call (a crash or an outage at any point of a resolution).
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import count, repeat
from typing import Any

from sheets_gm.engine.grid import column_index
from sheets_gm.sheets.backend import RangeWrite, SavedMeanwhileError, SheetError
from sheets_gm.sheets.guard import changed_since, describe_cells
from sheets_gm.sheets.layout import CellValue, Grid, ReadGuard, WorkbookLayout
from sheets_gm.sheets.layout import split_a1 as split_range

_CELLS = re.compile(r"^([A-Z]+)(\d+)(?::([A-Z]+)(\d+)?)?$")


class InjectedFault(RuntimeError):
    """The crash a test asked for."""


_ROWS = re.compile(r"^(\d+):(\d+)$")


#: ``split_a1`` of a range, once for each range text (a poll reads and writes the same ranges again and again).
split_a1 = functools.lru_cache(maxsize=4096)(split_range)


@functools.lru_cache(maxsize=4096)
def parse_cells(cells: str, extent: tuple[int, int] = (0, 0)) -> tuple[int, int, int, int]:
    """0-based (first row, first col, last row, last col) of ``A1``, ``A1:C3``, ``A1:C`` (down to the last row),
    whole rows ``2:5`` or the whole tab ``""``; ``extent`` is the tab's (rows, cols) for the last three. Found once
    for each range and extent."""
    rows, cols = extent
    if cells == "":
        return 0, 0, max(rows - 1, 0), max(cols - 1, 0)
    whole = _ROWS.match(cells)
    if whole:
        return int(whole.group(1)) - 1, 0, int(whole.group(2)) - 1, max(cols - 1, 0)
    m = _CELLS.match(cells)
    if not m:
        raise SheetError(f"bad range {cells!r}")
    c1, r1 = column_index(m.group(1)), int(m.group(2)) - 1
    c2, r2 = (column_index(m.group(3)), int(m.group(4)) - 1 if m.group(4) else max(rows - 1, 0)) if m.group(3) \
        else (c1, r1)
    return r1, c1, r2, c2


def _filled_rows(data: dict[tuple[int, int], CellValue]) -> tuple[dict[int, dict[int, CellValue]], int, int]:
    """A tab's cells holding a value (not ``None`` nor ``""``) by row, its last such row, and its last column holding
    anything (a whole row's read spans it): what a trimmed read is made of, found in one pass over the tab rather than
    once a cell of each range."""
    rows: dict[int, dict[int, CellValue]] = {}
    last_col = -1
    for (r, c), value in data.items():
        last_col = max(last_col, c)
        if value is not None and value != "":
            rows.setdefault(r, {})[c] = value
    return rows, max(rows, default=-1), last_col


class Cells(dict[tuple[int, int], CellValue]):
    """A tab's cells by (row, column), counting every change made to them (``version``), however it is made: by the
    backend, a person typing, or a test changing the cells in place. A read keeps what it makes of a tab
    (``_filled_rows``) until the tab changes: most reads find most tabs as the last read left them."""

    version = 0

    def __setitem__(self, key: tuple[int, int], value: CellValue) -> None:
        super().__setitem__(key, value)
        self.version += 1

    def __delitem__(self, key: tuple[int, int]) -> None:
        super().__delitem__(key)
        self.version += 1

    def pop(self, *args: Any) -> Any:
        self.version += 1
        return super().pop(*args)

    def popitem(self) -> tuple[tuple[int, int], CellValue]:
        self.version += 1
        return super().popitem()

    def clear(self) -> None:
        super().clear()
        self.version += 1

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        self.version += 1

    def setdefault(self, *args: Any) -> Any:
        self.version += 1
        return super().setdefault(*args)

    def __ior__(self, other: Any) -> Cells:  # type: ignore[override,misc]
        self.update(other)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) as one dict of its cells: unpickling a dict subclass item by item calls
        ``__setitem__`` once a cell, most of what loading a made match cost."""
        return _cells, (dict(self), self.version)


def _cells(items: dict[tuple[int, int], CellValue], version: int) -> Cells:
    """The ``Cells`` holding ``items``, at ``version`` (what ``Cells.__reduce__`` pickles)."""
    cells = Cells()
    dict.update(cells, items)
    cells.version = version
    return cells


@dataclass
class _Scan:
    """What a read made of a tab's cells (``_filled_rows``), as of one version of them."""

    cells: Cells
    version: int
    rows: dict[int, dict[int, CellValue]]
    last_row: int
    last_col: int

    def put(self, written: Sequence[tuple[tuple[int, int], CellValue]]) -> None:
        """The scan kept up with the cells written, in order (one loop for them all: a write of a tab's drawing
        puts hundreds of cells)."""
        rows, last_col, last_row, emptied = self.rows, self.last_col, self.last_row, False
        for (r, c), value in written:
            if c > last_col:
                last_col = c
            if value is not None and value != "":
                row = rows.get(r)
                if row is None:
                    row = rows[r] = {}
                row[c] = value
                if r > last_row:
                    last_row = r
                continue
            row = rows.get(r)
            if row is not None and row.pop(c, None) is not None and not row:
                del rows[r]
                emptied = True
        self.last_col = last_col
        self.last_row = max(rows, default=-1) if emptied else last_row


def copy_cells(tabs: dict[str, dict[tuple[int, int], Any]]) -> dict[str, dict[tuple[int, int], Any]]:
    """An independent copy of a memory spreadsheet's ``tabs`` or ``notes`` (what ``copy.deepcopy`` gives, in a
    fraction of its time: the keys and values inside are immutable)."""
    return {tab: type(cells)(cells) for tab, cells in tabs.items()}  # a tab's ``Cells`` stay ``Cells``


class MemoryBackend:
    """A spreadsheet held in memory."""

    def __init__(self, name: str = "memory") -> None:
        self._name = name
        self.tabs: dict[str, dict[tuple[int, int], CellValue]] = {}  # a tab laid out here holds ``Cells``
        self.notes: dict[str, dict[tuple[int, int], str]] = {}  # cell notes by tab, as written
        self.sizes: dict[str, tuple[int, int]] = {}
        self.calls: list[str] = []
        self.ranges_read: list[str] = []  # every range asked for, in order
        self.fail_on_call: int | None = None  # 1-based index into ``calls`` that raises
        self._scans: dict[str, _Scan] = {}  # what the last read made of each tab, by name

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_scans": {}}  # a copy (pickled) scans its tabs anew

    def __deepcopy__(self, memo: dict[int, Any]) -> MemoryBackend:
        """An independent copy, made fast: a cell's value, a note and a cell's key are immutable, so each tab's
        cells are copied as one dict rather than walked one object at a time (most of what a test copying its
        matches spent); every other attribute (a subclass's too) deep-copied as usual."""
        new = self.__class__.__new__(self.__class__)
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            if key == "_scans":  # a copy scans its tabs anew (a scan names the cells it was made of)
                new.__dict__[key] = {}
            else:
                new.__dict__[key] = copy_cells(value) if key in ("tabs", "notes") else copy.deepcopy(value, memo)
        return new

    @property
    def name(self) -> str:
        """The name used in messages."""
        return self._name

    @property
    def changes(self) -> int:
        """The writes and layouts made (``SheetBackend.changes``)."""
        return sum(kind in ("write", "layout") for kind in self.calls)

    def _call(self, kind: str) -> None:
        self.calls.append(kind)
        if self.fail_on_call is not None and len(self.calls) == self.fail_on_call:
            raise InjectedFault(f"injected fault at call {len(self.calls)} ({kind}) of {self._name}")

    def tab_names(self) -> list[str]:
        """The tabs, in the order they were made."""
        self._call("tabs")
        return list(self.tabs)

    def read(self, ranges: Sequence[str], *, struck: Collection[str] = ()) -> list[Grid]:
        """Every range in one call, trimmed like values.batchGet (a memory spreadsheet holds no formats: nothing in
        it is ``struck``)."""
        self._call("read")
        self.ranges_read += ranges
        for full in ranges:  # a range past the tab's size fails, like Google's values.batchGet
            tab, cells = split_a1(full)
            if tab in self.sizes and cells:
                _r1, _c1, r2, c2 = parse_cells(cells, self.sizes[tab])
                rows, cols = self.sizes[tab]
                if r2 >= rows or c2 >= cols:
                    raise SheetError(f"Range ({full}) exceeds grid limits. Max rows: {rows}, max columns: {cols}")
        return self._grids(ranges)

    def _grids(self, ranges: Sequence[str]) -> list[Grid]:
        """The values of each range, trimmed like values.batchGet (no call counted)."""
        out: list[Grid] = []
        by_row: dict[str, tuple[dict[int, dict[int, CellValue]], int, int]] = {}  # each tab's, once a call
        for full in ranges:
            tab, cells = split_a1(full)
            if tab not in self.tabs:
                raise SheetError(f"Unable to parse range: {full}")
            if tab not in by_row:
                by_row[tab] = self._scanned(tab)
            rows, last_row, last_col = by_row[tab]
            r1, c1, r2, c2 = parse_cells(cells, (last_row + 1, last_col + 1))
            grid: Grid = []
            for r in range(r1, min(r2, last_row) + 1):  # past the data nothing is read: as trimmed
                row = rows.get(r)
                if not row:
                    grid.append([])
                    continue
                end = max(row)  # trailing empty cells left out: the last cell in the range holding a value
                if end > c2:
                    end = max((c for c in row if c1 <= c <= c2), default=c1 - 1)
                grid.append(list(map(row.get, range(c1, end + 1), repeat(""))))  # a row holds no None nor ""
            while grid and not grid[-1]:  # trailing empty rows left out
                grid.pop()
            out.append(grid)
        return out

    def _scanned(self, tab: str) -> tuple[dict[int, dict[int, CellValue]], int, int]:
        """``_filled_rows`` of ``tab``, made again only when its cells changed since the last read (a tab of plain
        dict cells, as a test may put in, is scanned at each read)."""
        cells = self.tabs[tab]
        scan = self._scans.get(tab)
        if not isinstance(cells, Cells):
            return _filled_rows(cells)
        if scan is None or scan.cells is not cells or scan.version != cells.version:
            scan = self._scans[tab] = _Scan(cells, cells.version, *_filled_rows(cells))
        return scan.rows, scan.last_row, scan.last_col

    def write(self, writes: Sequence[RangeWrite], *, read_back: Sequence[str] = (),
              guard: Sequence[ReadGuard] = ()) -> list[Grid]:
        """All ranges in one call, RAW; a range past the tab's size fails like Google. The ``read_back`` ranges
        come back as read once the write is made, in the same call (counted as a write only). A ``guard`` range
        that no longer holds what was read stops the write, as a local workbook's does (``sheets/guard.py``)."""
        self._call("write")
        saved = [c for g, now in zip(guard, self._grids([g.range for g in guard]), strict=True)
                 for c in changed_since(g, now)]
        if saved:
            raise SavedMeanwhileError(self._name, describe_cells(saved, {t.casefold(): t for t in self.tabs}))
        for full in read_back:  # a bad range fails before anything is written
            if split_a1(full)[0] not in self.tabs:
                raise SheetError(f"Unable to parse range: {full}")
        staged: dict[str, list[tuple[tuple[int, int], CellValue]]] = {}
        noted: list[tuple[str, int, int, str]] = []
        for w in writes:
            tab, cells = split_a1(w.range)
            if tab not in self.tabs:
                raise SheetError(f"Unable to parse range: {w.range}")
            r1, c1, r2, c2 = parse_cells(cells)
            rows, cols = self.sizes[tab]
            if len(w.values) > r2 - r1 + 1 or any(len(row) > c2 - c1 + 1 for row in w.values):
                raise SheetError(f"values do not fit {w.range}")
            if r1 + len(w.values) > rows or c2 >= cols:
                raise SheetError(f"Range ({w.range}) exceeds grid limits. Max rows: {rows}, max columns: {cols}")
            cells_of_tab = staged.setdefault(tab, [])
            for r, row in enumerate(w.values, start=r1):
                cells_of_tab += zip(zip(repeat(r), count(c1)), row, strict=False)  # count and repeat never end
            for i, row in enumerate(w.notes or []):
                noted += [(tab, r1 + i, c1 + j, str(note)) for j, note in enumerate(row) if note is not None]
        for tab, written in staged.items():  # all or nothing, like one batchUpdate
            self._put(tab, written)
        for tab, r, c, note in noted:
            if note:
                self.notes.setdefault(tab, {})[(r, c)] = note
            else:
                self.notes.get(tab, {}).pop((r, c), None)
        return self._grids(read_back)

    def _put(self, tab: str, written: list[tuple[tuple[int, int], CellValue]]) -> None:
        """The cells written in ``tab`` (by (row, column), in order); what the last read made of the tab kept up
        with them."""
        cells = self.tabs[tab]
        scan = self._scans.get(tab)
        kept = isinstance(cells, Cells) and scan is not None and scan.cells is cells and scan.version == cells.version
        dict.update(cells, written)  # one change counted, not one a cell
        if not isinstance(cells, Cells):
            return
        cells.version += 1
        if scan is not None and kept:
            scan.version = cells.version
            scan.put(written)

    def apply_layout(self, layout: WorkbookLayout, writes: Sequence[RangeWrite] = ()) -> None:
        """Create or resize the tabs and write their fixed values; delete the retired ones; then ``writes``."""
        self._call("layout")
        for name in layout.retired:
            if name not in {t.name for t in layout.tabs}:
                self.tabs.pop(name, None)
                self.sizes.pop(name, None)
        for tab in layout.tabs:
            self.tabs.setdefault(tab.name, Cells())
            self.sizes[tab.name] = (tab.rows, tab.cols)
            for anchor, grid in tab.values.items():
                r1, c1, _r2, _c2 = parse_cells(anchor.split(":")[0])
                self._put(tab.name, [((r1 + i, c1 + j), v) for i, row in enumerate(grid) for j, v in enumerate(row)])
        if writes:
            self.write(writes)

    def export_xlsx(self) -> bytes:
        """The tabs as an .xlsx file (values only)."""
        import io

        from openpyxl import Workbook

        book = Workbook()
        book.remove(book.active)
        for name, data in self.tabs.items():
            sheet = book.create_sheet(name)
            for (r, c), value in data.items():
                sheet.cell(row=r + 1, column=c + 1, value=value)
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()

    # -- what a test or a player does --------------------------------------------------------
    def type(self, tab: str, cell: str, value: CellValue) -> None:
        """A person typing into a cell (no API call counted)."""
        r, c, _r2, _c2 = parse_cells(cell)
        self.tabs[tab][(r, c)] = value

    def note(self, tab: str, cell: str) -> str:
        """A cell's note ('' for none)."""
        r, c, _r2, _c2 = parse_cells(cell)
        return self.notes.get(tab, {}).get((r, c), "")

    def value(self, tab: str, cell: str) -> CellValue:
        """What a cell holds."""
        r, c, _r2, _c2 = parse_cells(cell)
        return self.tabs[tab].get((r, c))
