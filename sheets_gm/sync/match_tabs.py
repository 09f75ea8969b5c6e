"""Where every tab of a match of any ruleset is, derived from its sheet layout and its seats.

- the board spreadsheet: Board (the adapter's drawing from A1, the title, status line and
  legend to its right) and any other public tab the adapter draws (a tab per plane), Log
  (public events only), Settings;
- each seat's spreadsheet: Orders <seat> (its input tables; a game may put some in a further tab, each of
  ``tabs.pages``: Coalition's Forum <seat>), Archive <seat> (in sentences only,
  what became of the seat's typed rows: read by a resolution, taken back by an undo, set aside),
  View <seat> (what only that seat may see, and its private log), and Copies <seat> (hidden: the
  sync's own copies of the rows each Archive line names, in the line's row, and the pending row:
  what the resolution under way read, written in the same call that clears those rows);
- the judge's spreadsheet (a ruleset with a judge): Judge (the judge's input tables) and its archive;
- the engine spreadsheet: Engine (hidden; the record and one history row per resolution) and
  GM (the adapter's panel for the GM, such as effects to apply by hand, and every private event).
"""

from __future__ import annotations

import hashlib
import math
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from sheets_gm.engine.ruleset import GM, JUDGE
from sheets_gm.sheets.adapter import AnySheetAdapter, BoardDrawing
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.layout import TabLayout, a1, cells, quote_tab
from sheets_gm.sheets.printed_sizes import CELL_PADDING
from sheets_gm.sheets.spec import SEAT_ROWS, VIEW_COLS, VIEW_PANEL_ROWS, SheetSpec
from sheets_gm.sheets.tables import WORD_CHAR_PIXELS, InputTab

ARCHIVE_FIRST_LINE_ROW = 2  # the readable lines, one after the other, never written over
ARCHIVE_LINES = 3_000
ARCHIVE_TEXT_COLS = 2  # A: the window, B: the sentence; nothing else on the tab a player reads
#: The hidden Copies tab (in the seat's spreadsheet, beside its Archive): column A holds, in the row of each Archive
#: line that names rows, those rows as JSON; B:D of the pending row hold the window key, the rows read (JSON) and
#: the Archive's line count.
COPIES_COPY_COL = 0
COPIES_PENDING_ROW = 2
COPIES_DATA_COL = 1
COPIES_COLS = COPIES_DATA_COL + 3
VIEW_PANEL_ROW = 4
#: The View log's header row for a panel of the default size (``MatchTabs.view_log_header_row`` for a game's own).
VIEW_LOG_HEADER_ROW = VIEW_PANEL_ROW + VIEW_PANEL_ROWS + 1
LOG_FIRST_ROW = 2  # the public log's first line (its header row above it)
LOG_ROWS = 20_000  # the public log's rows: values cannot be written past a tab's last row
SEAT_LOG_ROWS = 5_000
#: The first tab of a new engine workbook (a workbook cannot be empty): the match's title, nothing the sync reads;
#: the export leaves it out and repair does not take it for a stray tab.
ABOUT_TAB = "About"


def first_tab_layout(name: str, about: str) -> TabLayout:
    """A new workbook's first tab, ``name``: the engine's About tab holding the line ``about`` in a column wide
    enough to show and print it whole (at the default width it printed "The engin", the tab's one column its
    print range), or an empty tab the match lays out later.

    >>> first_tab_layout(ABOUT_TAB, "The engine of a sheets-gm match: do not edit.").column_widths
    {0: 344}
    >>> first_tab_layout("Board", "ignored").values
    {}
    """
    if name != ABOUT_TAB:
        return TabLayout(name, 1, 1)
    return TabLayout(name, 1, 1, values={"A1": [[about]]},
                     column_widths={0: math.ceil(len(about) * WORD_CHAR_PIXELS) + CELL_PADDING})


#: Rows a table that must grow at a resolution gets beyond what it needs, so that an army recruiting a unit a
#: turn is laid out again every few turns, not at every one.
GROWTH_SPARE_ROWS = 5


#: Each input tab placed (``MatchTabs.orders``), by its layout's value (``_layout_key``), seat and table sizes: equal
#: layouts (Wesnoth's batch layout, made again for each adapter) share their tabs, and no layout is kept alive;
#: emptied when it holds ``_PLACED_MAX`` (an InputTab never changes once placed).
_PLACED: dict[tuple[bytes, str, tuple[tuple[str, int], ...]], InputTab] = {}
_PLACED_MAX = 4096
#: The value of each layout object asked for (``_layout_key``), computed once per object: its entry goes with the
#: object (a weak reference's callback), so an id that a dead layout held never names its value.
_LAYOUT_KEYS: dict[int, tuple[weakref.ref[SheetSpec], bytes]] = {}


def _layout_key(spec: SheetSpec) -> bytes:
    """The value of a layout (a digest of its JSON: what placing its tabs reads), computed once per layout object."""
    kept = _LAYOUT_KEYS.get(id(spec))
    if kept is not None and kept[0]() is spec:
        return kept[1]
    key = hashlib.sha256(spec.model_dump_json().encode()).digest()
    _LAYOUT_KEYS[id(spec)] = (weakref.ref(spec, partial(_forget_layout, id(spec))), key)
    return key


def _forget_layout(at: int, ref: weakref.ref[SheetSpec]) -> None:
    """Drop the value kept at ``at`` once its layout is gone (unless a later layout's value took the place)."""
    if _LAYOUT_KEYS.get(at, (None, b""))[0] is ref:
        del _LAYOUT_KEYS[at]


@dataclass(frozen=True, slots=True)
class MatchTabs:
    """The tabs of one match: names and placed input tables, from the layout and the seats."""

    spec: SheetSpec
    seats: tuple[str, ...]
    judge: bool
    # Each input tab's table rows, by seat (``JUDGE`` for the judge's tab) and table: what the tab was laid out
    # with (found in it by a read, or fitted to a state); a table not named has its ``min_rows``.
    sizes: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def orders(self, seat: str) -> InputTab:
        """The input tab of ``seat`` (the judge's tab for ``JUDGE``), placed once per process for each layout's
        value, seat and table sizes (``_PLACED``: a read asks for each seat's tab many times)."""
        sizes = self.sizes.get(seat, {})
        key = (_layout_key(self.spec), seat, tuple(sorted(sizes.items())))
        tab = _PLACED.get(key)
        if tab is None:
            if len(_PLACED) >= _PLACED_MAX:
                _PLACED.clear()
            tab = _PLACED[key] = self._placed(seat, sizes)
        return tab

    def _placed(self, seat: str, sizes: Mapping[str, int]) -> InputTab:
        """The input tab of ``seat`` with its tables of ``sizes`` rows, placed anew."""
        if seat == JUDGE:
            return InputTab.place(self.spec.tabs.judge, self.spec.headers.judge_title, self.spec.tables(judge=True),
                                  sizes)
        tab = InputTab.place(self.spec.tabs.orders.format(seat=seat), self.spec.headers.orders_title.format(seat=seat),
                             self.spec.tables(judge=False, page=""), sizes)
        if not self.spec.tabs.pages:
            return tab
        titles = self.spec.headers.page_titles
        return tab.with_pages([InputTab.place(name.format(seat=seat), titles[key].format(seat=seat),
                                              self.spec.tables(judge=False, page=key), sizes)
                               for key, name in self.spec.tabs.pages.items()])

    def pages(self, seat: str) -> tuple[str, ...]:
        """The names of ``seat``'s further input tabs (Coalition's Forum tab), beside its orders tab."""
        return () if seat == JUDGE else tuple(name.format(seat=seat) for name in self.spec.tabs.pages.values())

    def with_sizes(self, sizes: Mapping[str, Mapping[str, int]]) -> MatchTabs:
        """The same tabs with these table rows (by seat and table)."""
        return replace(self, sizes={seat: dict(by_table) for seat, by_table in sizes.items()})

    def fitted(self, adapter: AnySheetAdapter, state: Any, *, spare: int = 0) -> MatchTabs:
        """The tabs with every table large enough for the rows ``state`` gives it (``adapter.rows``): a table
        that has room keeps its rows; one that has not gets what it needs and ``spare`` rows more. Tables
        never shrink, so a tab is laid out again only when a table grows."""
        sizes: dict[str, dict[str, int]] = {}
        for seat in self.input_seats():
            mine: dict[str, int] = {}
            for placed in self.orders(seat).tables:
                if placed.spec.rows == SEAT_ROWS:
                    continue
                need = len(adapter.rows(state, seat, placed.spec))
                mine[placed.spec.name] = placed.rows if need <= placed.rows else need + spare
            sizes[seat] = mine
        return self.with_sizes(sizes)

    def short(self, adapter: AnySheetAdapter, state: Any) -> list[str]:
        """A sentence per table with fewer rows than ``state`` gives it (a match laid out before tables were
        sized from the match): the rows past its end have no row to type in until it is laid out again."""
        out: list[str] = []
        for seat in self.input_seats():
            tab = self.orders(seat)
            for placed in tab.tables:
                need = len(adapter.rows(state, seat, placed.spec))
                if need > placed.rows:
                    name = placed.spec.name.replace("_", " ")
                    out.append(f"the {name} table of tab {placed.tab!r} has {placed.rows} rows for {need}: the last "
                               f"{need - placed.rows} have no row to type in")
        return out

    def grown(self, before: MatchTabs) -> tuple[str, ...]:
        """The seats (and ``JUDGE``) whose input tab has more rows here than in ``before``."""
        return tuple(seat for seat in self.input_seats()
                     if self.orders(seat).sizes() != before.orders(seat).sizes())

    def input_seats(self) -> tuple[str, ...]:
        """Every seat with an input tab: the seats, then the judge if the game has one."""
        return self.seats + ((JUDGE,) if self.judge else ())

    def archive(self, seat: str) -> str:
        """The archive tab's name of ``seat`` (or of the judge)."""
        return self.spec.tabs.archive.format(seat=seat)

    def copies(self, seat: str) -> str:
        """The hidden tab beside ``seat``'s archive holding the sync's own copies of its rows."""
        return self.spec.tabs.copies.format(seat=seat)

    def seat_tab_names(self, seat: str) -> tuple[str, ...]:
        """Every tab ``seat`` has in its own spreadsheet: its input tab, Archive, View and Copies, and its further
        input tabs (``pages``)."""
        return self.orders(seat).name, self.archive(seat), self.view(seat), self.copies(seat), *self.pages(seat)

    def archive_header_range(self, seat: str) -> str:
        """The archive's header row (what a poll checks of the tab, which a resolution writes and no poll reads)."""
        return a1(self.archive(seat), cells(0, 1, ARCHIVE_TEXT_COLS - 1, 1))

    def archive_lines_range(self, seat: str, first: int, count: int) -> str:
        """Readable lines ``first`` (0-based) onwards of the archive: window and sentence."""
        row = ARCHIVE_FIRST_LINE_ROW + first
        return a1(self.archive(seat), cells(0, row, ARCHIVE_TEXT_COLS - 1, row + count - 1))

    def copies_lines_range(self, seat: str, first: int, count: int) -> str:
        """The copies of archive lines ``first`` (0-based) onwards: in the Copies tab, each in its line's row."""
        row = ARCHIVE_FIRST_LINE_ROW + first
        return a1(self.copies(seat), cells(COPIES_COPY_COL, row, COPIES_COPY_COL, row + count - 1))

    def view(self, seat: str) -> str:
        """The View tab's name of ``seat`` (the GM's tab for ``GM``)."""
        return self.spec.tabs.gm if seat == GM else self.spec.tabs.view.format(seat=seat)

    def view_title(self, seat: str) -> str:
        """The title of ``seat``'s View tab."""
        return self.spec.headers.gm_title if seat == GM else self.spec.headers.view_title.format(seat=seat)

    def view_seats(self) -> tuple[str, ...]:
        """Every View tab's owner: the seats, the judge if the game has one, and the GM."""
        return (*self.input_seats(), GM)

    def view_status_range(self, seat: str) -> str:
        """The View tab's title and status cells."""
        return a1(self.view(seat), "A1:A2")

    @property
    def view_panel_rows(self) -> int:
        """Rows of a View tab's panel (the game's ``view_panel_rows``)."""
        return self.spec.view_panel_rows

    @property
    def view_log_header_row(self) -> int:
        """The row of a View tab's log header (1-based), a blank row under the panel."""
        return VIEW_PANEL_ROW + self.spec.view_panel_rows + 1

    def view_list_range(self, seat: str) -> str:
        """The last column of ``seat``'s View panel: the list a ``values_from: view`` column's dropdown offers."""
        return a1(self.view(seat), cells(VIEW_COLS - 1, VIEW_PANEL_ROW, VIEW_COLS - 1,
                                         VIEW_PANEL_ROW + self.view_panel_rows - 1))

    def view_panel_range(self, seat: str) -> str:
        """The View tab's panel, rewritten whole after each resolution."""
        last = VIEW_PANEL_ROW + self.view_panel_rows - 1
        return a1(self.view(seat), cells(0, VIEW_PANEL_ROW, VIEW_COLS - 1, last))

    def view_log_range(self, seat: str, first: int, count: int, width: int = 3) -> str:
        """Private log rows ``first`` (0-based) onwards of ``seat``'s View tab: turn, kind, text, and the cells
        right of the text an entry laid out over rows uses (``width`` in all)."""
        row = self.view_log_header_row + 1 + first
        return a1(self.view(seat), cells(0, row, width - 1, row + count - 1))

    def log_header_range(self) -> str:
        """The public log's header row (what a poll checks of the Log, which it writes at every resolution)."""
        return a1(self.spec.tabs.log, cells(0, 1, len(self.spec.headers.log) - 1, 1))

    def log_range(self, first: int, count: int) -> str:
        """Public log lines ``first`` (0-based) onwards."""
        return a1(self.spec.tabs.log, cells(0, LOG_FIRST_ROW + first, 2, LOG_FIRST_ROW - 1 + first + count))

    def log_to_end(self, first: int) -> str:
        """The Log's lines from line ``first`` (0 its first) to the tab's last row."""
        return self.log_range(first, LOG_ROWS - (LOG_FIRST_ROW - 1) - first)

    def board_tab_range(self) -> str:
        """The board tab whole: what a poll reads of it (its title row checked, its drawn cells compared)."""
        return quote_tab(self.spec.tabs.board)

    def drawn(self, drawings: Sequence[BoardDrawing]) -> list[tuple[str, BoardDrawing]]:
        """Each public drawing with the name of its tab, in order (SheetError naming the fault unless exactly
        one is drawn in the board tab and no tab is named twice)."""
        named = [(d.tab or self.spec.tabs.board, d) for d in drawings]
        names = [n for n, _ in named]
        if names.count(self.spec.tabs.board) != 1:
            raise SheetError(f"the sheet adapter must draw the board tab {self.spec.tabs.board!r} exactly once, "
                             f"not {names.count(self.spec.tabs.board)} times (its drawn tabs: {', '.join(names)})")
        fixed = {self.spec.tabs.log, self.spec.tabs.settings, *self.spec.tabs.retired}
        for i, name in enumerate(names):
            if name in names[:i] or name in fixed:
                raise SheetError(f"the sheet adapter draws a tab {name!r} that is already a tab of the board "
                                 f"spreadsheet (its drawn tabs: {', '.join(names)})")
        return named

    def board_values_range(self, tab: str, width: int, height: int) -> str:
        """A drawn tab's cells from A1."""
        return a1(tab, cells(0, 1, width - 1, height))

    def board_info_range(self, tab: str, width: int, rows: int = 2) -> str:
        """A drawn tab's title and status cells (and ``rows`` beyond 2: the legend under them), one column
        right of the drawing and a gap."""
        col = width + 1
        return a1(tab, cells(col, 1, col, rows))
