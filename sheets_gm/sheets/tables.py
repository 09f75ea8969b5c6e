"""Input tables placed on a tab: every address, header check, dropdown, protection and clearing
derived from a ruleset's ``layout.yaml``, for any game.

An orders tab (a seat's, or the judge's) reads from the top: the title (row 1), the status
line (row 2), then each input table in the order of the file: its title row, its header row
and its rows, then a blank row. Every table's columns run from A in the order of the
file, except its feedback, which stands in the tab's last column for every table, so that the
feedback columns line up, wide, and no input column is stretched by another table's feedback.
The whole tab is read in ONE range on every poll, open-ended downwards.

How many rows a table has is the match's, not the layout file's: ``min_rows`` at least, as many as
the match needs when it is laid out, more when a resolution needs more (the sync lays the tab out
again). So the tab itself says where its tables are: a read finds each table's title row in column
A (``InputTab.sizes_in``), and a tab grown by a resolution cut short is read as it stands.
Reading the whole tab also reads the blank rows between and under the tables: what is typed
in a blank row (``InputTab.loose_rows``) is answered too, never silently ignored.

>>> from sheets_gm.sheets.spec import Column, ColumnKind, InputTable
>>> table = InputTable(name="seat", rows="seat", columns=(
...     Column(key="seat", header="Player", kind=ColumnKind.SUBJECT),
...     Column(key="window", header="For", kind=ColumnKind.WINDOW),
...     Column(key="ready", header="Ready", kind=ColumnKind.READY),
...     Column(key="feedback", header="Feedback", kind=ColumnKind.FEEDBACK)))
>>> tab = InputTab.place("Orders Ann", "sheets-gm · orders of Ann", (table,))
>>> tab.read_range(), tab.tables[0].header_row, tab.tables[0].first_row, tab.tables[0].cell(0, "feedback")
("'Orders Ann'!A1:D", 4, 5, 'D5')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from sheets_gm.engine.grid import column_label
from sheets_gm.sheets.layout import (
    CellValue,
    Checkbox,
    Dropdown,
    Fill,
    Grid,
    Protection,
    TabLayout,
    a1,
    cell_at,
    cells,
)
from sheets_gm.sheets.layout import text_of as text_of  # beside a cell's type; the tables' readers find it here
from sheets_gm.sheets.printed_sizes import CELL_PADDING, one_page_widths
from sheets_gm.sheets.spec import SEAT_ROWS, Colours, Column, ColumnKind, InputTable
from sheets_gm.sheets.struck import cell_from_json, cell_to_json, stripped

#: Pixels a character of a heading takes on average (the default font in bold, Arial's letters a sixth wider than
#: running text's ``row_fit.CHAR_PIXELS``).
HEADING_CHAR_PIXELS = 8.8
#: Pixels a character of a word written in a cell may take, taken wide: a digit of the default font (Arial 10,
#: printed in Liberation Sans) is 7.4 pixels, most letters less, and a word must stay whole on a line.
WORD_CHAR_PIXELS = 7.5
TITLE_ROW = 1
STATUS_ROW = 2
#: The most rows that may follow a tab's longest table (a gap, a caption, a header and a seat's Ready row) for each
#: printed page to repeat that table's header (``InputTab._print_titles``): they are kept on its last page.
TRAILING_ROWS = 4
FIRST_TABLE_ROW = 3  # a table's title row; its header follows

#: The longest typed cell read (after stripping spaces): the rows a resolution reads are archived in one cell,
#: which must stay within a cell's limit to be read back. A longer cell is read whole but refused by name
#: (``too_long``), never cut: a forum post of hundreds of armies fits far inside it.
MAX_TYPED_CHARS = 16_000


class CellError(ValueError):
    """A cell that cannot be read: the message names the column and what would be accepted."""


def whole_number(value: CellValue, column: str, accepted: str) -> int | None:
    """A typed whole number (None for an empty cell); CellError naming ``column`` otherwise.

    >>> whole_number(" 12 ", "VP", "0 or more"), whole_number(3.0, "VP", ""), whole_number("", "VP", "")
    (12, 3, None)
    >>> whole_number("+5", "Kill bonus", ""), whole_number("1,200", "Lost in slot 1", "")
    (5, 1200)
    """
    if value is None or text_of(value) == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = text_of(value)
    digits = text.replace(",", "").replace(" ", "")  # a thousands separator as typed
    if digits.lstrip("+-").isdecimal() and digits[:2] not in ("+-", "-+", "++", "--"):
        return int(digits)
    raise CellError(f"{column} {text!r} is not a whole number: {accepted}")


def ticked(value: CellValue) -> bool:
    """Whether a tick-box cell is ticked (TRUE, or a typed yes/x/1 in a sheet without the box)."""
    if isinstance(value, bool):
        return value
    return text_of(value).casefold() in ("true", "yes", "y", "x", "1", "✓", "✔")


def _typed(value: CellValue) -> CellValue:
    return stripped(value) if isinstance(value, str) else value  # (a text struck through keeps its spans)


def too_long(row: TypedRow, headers: Mapping[str, str]) -> list[str]:
    """Why ``row`` is not read when a cell of it is longer than ``MAX_TYPED_CHARS``, one sentence per such cell
    naming its column (``headers``: by key), else []."""
    return [f"The cell under “{headers.get(k, k)}” holds {len(v):,} characters: a cell is read up to "
            f"{MAX_TYPED_CHARS:,}; split it over several rows (nothing in this row is read until then)"
            for k, v in row.values.items() if isinstance(v, str) and len(v) > MAX_TYPED_CHARS]


@dataclass(frozen=True, slots=True)
class TypedRow:
    """One row of an input table as a poll read it.

    ``values`` holds the typed columns by key (text stripped, ticks as read); ``window`` is the
    window the row was stamped for; ``typed`` says whether anything was typed or ticked."""

    table: str
    subject: str
    row: int
    window: str
    values: Mapping[str, CellValue]
    feedback: str

    @property
    def typed(self) -> bool:
        """Whether the player typed or ticked anything in the row."""
        return any(v not in (None, "", False) for v in self.values.values())

    def text(self, key: str) -> str:
        """The typed text of column ``key`` ('' if empty)."""
        return text_of(self.values.get(key))

    def ticked(self, key: str) -> bool:
        """Whether the tick box of column ``key`` is ticked."""
        return ticked(self.values.get(key))

    def to_json(self) -> dict[str, object]:
        """What the archive keeps of the row: its subject, window and typed values."""
        return {"table": self.table, "subject": self.subject, "window": self.window,
                "values": {key: cell_to_json(v) for key, v in self.values.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, object], row: int = 0) -> TypedRow:
        """A row the archive kept (an interrupted resolution's); KeyError or TypeError if malformed."""
        values = data["values"]
        if not isinstance(values, dict):
            raise TypeError("values is not a mapping")
        return cls(str(data["table"]), str(data["subject"]), row, str(data["window"]),
                   {key: cell_from_json(v) for key, v in values.items()}, "")


@dataclass(frozen=True, slots=True)
class LooseRow:
    """A row of an input tab that no table reads an order from: a blank row between tables (``table`` empty),
    or a table's row without a subject. ``cells`` are its cells before the feedback column, as read (an
    unticked box read as empty; in a table's row, only its typed columns); ``feedback`` what its feedback
    cell holds."""

    table: str
    row: int
    cells: tuple[CellValue, ...]
    feedback: str

    @property
    def typed(self) -> bool:
        """Whether anything is typed in it (before the feedback column)."""
        return any(text_of(v) for v in self.cells)


@dataclass(frozen=True, slots=True)
class PlacedTable:
    """One input table on its tab: its rows and columns."""

    spec: InputTable
    title_row: int
    header_row: int
    feedback_col: int  # the tab's last column, where every table's feedback stands
    rows: int  # the rows laid out in this match (``min_rows`` at least; one for a seat table)
    tab: str = ""  # the name of the tab it stands on (a seat's orders tab, or another of its input tabs)
    #: each column with its tab column (``columns``), found once: asked for by every row read and drawn
    _columns: tuple[tuple[int, Column], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_columns", tuple(
            (self.feedback_col if c.kind is ColumnKind.FEEDBACK else i, c) for i, c in enumerate(self.spec.columns)))

    def at(self, within: str) -> str:
        """A range within the table's tab (``cell``, ``rows_range``…) as a full range naming the tab."""
        return a1(self.tab, within)

    @property
    def first_row(self) -> int:
        """The sheet row of the table's first data row."""
        return self.header_row + 1

    @property
    def last_row(self) -> int:
        """The sheet row of the table's last data row."""
        return self.header_row + self.rows

    @property
    def width(self) -> int:
        """The tab columns its rows span: to the feedback column."""
        return self.feedback_col + 1

    def heading_rows(self) -> Grid:
        """The table's title row and header row, as the layout writes them (from column A)."""
        header: list[CellValue] = [""] * self.width
        for i, c in self.columns():
            header[i] = c.header
        return [[self.spec.heading], header]

    def heading_range(self) -> str:
        """The title and header rows' cells, as a range within the tab."""
        return cells(0, self.title_row, self.width - 1, self.header_row)

    def col(self, key: str) -> int:
        """The 0-based tab column of column ``key``."""
        column = self.spec.column(key)
        return self.feedback_col if column.kind is ColumnKind.FEEDBACK else self.spec.index(key)

    def columns(self) -> list[tuple[int, Column]]:
        """Each column of the table with its tab column (as ``col`` gives it: keys are unique, so a column's place)."""
        return list(self._columns)

    def past_cols(self) -> list[int]:
        """The tab columns in the table's rows that are none of its columns: right of its last one, left of the
        feedback column every table shares (a narrower table's rows span them; what is typed there is answered)."""
        own = {col for col, _c in self.columns()}
        return [col for col in range(self.feedback_col) if col not in own]

    def rows_range(self) -> str:
        """Every data row's cells, as a range within the tab."""
        return cells(0, self.first_row, self.width - 1, self.last_row)

    def column_cells(self, key: str) -> str:
        """One column's data cells, as a range within the tab."""
        col = self.col(key)
        return cells(col, self.first_row, col, self.last_row)

    def cell(self, index: int, key: str) -> str:
        """The cell of column ``key`` in the table's ``index``-th row (0-based)."""
        return cell_at(self.col(key), self.first_row + index)

    def found_columns(self, grid: Grid) -> dict[str, int]:
        """Each column's tab column as the header row in ``grid`` says it (a column moved by hand, header
        and all, is found where it went); a header not found keeps the layout's column."""
        line = grid[self.header_row - 1] if self.header_row - 1 < len(grid) else []
        where: dict[str, int] = {}
        for i, v in enumerate(line):
            if text_of(v):
                where.setdefault(text_of(v).casefold(), i)
        return {c.key: where.get(c.header.casefold(), col) for col, c in self.columns()}

    def holds_header(self, grid: Grid) -> bool:
        """Whether the header row in ``grid`` names every column of the table (in any order)."""
        line = grid[self.header_row - 1] if self.header_row - 1 < len(grid) else []
        found = {text_of(v).casefold() for v in line}
        return all(c.header.casefold() in found for c in self.spec.columns)

    def read(self, grid: Grid, *, by_header: bool = False) -> list[TypedRow]:
        """The table's rows with a subject, from a grid read from A1 of the tab; ``by_header``: each column
        where its header is (``found_columns``), not where the layout puts it (what repair reads)."""
        out: list[TypedRow] = []
        placed = self.found_columns(grid) if by_header else {c.key: col for col, c in self.columns()}
        window_col = placed[self.spec.of_kind(ColumnKind.WINDOW)[0].key]
        feedback_col = self.feedback_col
        subject_col = placed[self.spec.columns[0].key]
        typed = [(c.key, placed[c.key]) for c in self.spec.columns if c.kind.typed]  # once, not once a row
        for row in range(self.first_row, self.last_row + 1):
            line = grid[row - 1] if row - 1 < len(grid) else []

            def at(col: int, line: list[CellValue] = line) -> CellValue:
                return line[col] if col < len(line) else None

            subject = text_of(at(subject_col))
            if not subject:
                continue
            values = {key: _typed(at(col)) for key, col in typed}
            out.append(TypedRow(self.spec.name, subject, row, text_of(at(window_col)), values,
                                text_of(at(feedback_col))))
        return out


def _name_shape(name: str) -> str:
    """``name`` with each run of digits as ``#``: the drawn subjects of a table share it (``coalition line #``)."""
    return re.sub(r"\d+", "#", name)


def _drawn_names(subjects: Sequence[str]) -> set[str]:
    """The shapes of a table's drawn ``subjects`` (``_name_shape``)."""
    return {_name_shape(s) for s in subjects}


@dataclass(frozen=True, slots=True)
class InputTab:
    """A tab of input tables (a seat's orders tab, or the judge's tab), and the seat's further input tabs
    (``pages``: Coalition's Forum tab), each a tab of its own laid out the same way.

    ``tables`` are every table of the seat, on whichever tab (what a row's table name finds); the geometry (where
    rows are, what is blank, what the tab's width is, its layout) is of this tab's own tables alone:
    ``sheets()`` gives each tab with only its own tables, to read, lay out and answer one tab at a time."""

    name: str
    title: str
    tables: tuple[PlacedTable, ...]
    pages: tuple[InputTab, ...] = ()
    #: this tab's own tables (the geometry's), found once: every row's question of where it stands asks for them
    _own: tuple[PlacedTable, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_own", tuple(t for t in self.tables if t.tab == self.name))

    def sheets(self) -> tuple[InputTab, ...]:
        """This tab with its own tables only, then each page: every tab the seat types in."""
        own = tuple(t for t in self.tables if t.tab == self.name)
        return (InputTab(self.name, self.title, own) if self.pages else self, *self.pages)

    def with_pages(self, pages: Sequence[InputTab]) -> InputTab:
        """This tab with ``pages`` beside it: their tables among ``tables``."""
        mine = tuple(t for t in self.tables if t.tab == self.name)
        return InputTab(self.name, self.title, mine + tuple(t for p in pages for t in p.tables), tuple(pages))

    def page_of(self, table: str) -> InputTab:
        """The tab (with its own tables only) that table ``table`` stands on."""
        tab = self.table(table).tab
        return next(s for s in self.sheets() if s.name == tab)

    @classmethod
    def place(cls, name: str, title: str, tables: Sequence[InputTable],
              sizes: Mapping[str, int] | None = None) -> InputTab:
        """The tables stacked from row 3: each a title row, a header row, its rows and a blank row; a table has
        the rows ``sizes`` gives it by name, else its ``min_rows`` (a seat table always one)."""
        placed: list[PlacedTable] = []
        row = FIRST_TABLE_ROW
        feedback_col = max([len(t.columns) - 1 for t in tables] + [1])
        for spec in tables:
            rows = 1 if spec.rows == SEAT_ROWS else max(1, (sizes or {}).get(spec.name, spec.min_rows))
            placed.append(PlacedTable(spec, row, row + 1, feedback_col, rows, name))
            row += 2 + rows + 1
        return cls(name, title, tuple(placed))

    def sizes(self) -> dict[str, int]:
        """Each table's rows, by name."""
        return {t.spec.name: t.rows for t in self.tables}  # every tab's

    def sizes_in(self, grid: Grid, subjects: Callable[[InputTable], Sequence[str]] | None = None) -> dict[str, int]:
        """Each table's rows as the tab read in ``grid`` (from A1) lays them out: a table ends where the next
        one's title stands in column A (a gap row before it), its last such title: tables only grow, so a title
        left above by an earlier layout (a resolution cut between laying the tab out larger and writing its
        rows) is never the current one. A table whose end is not found keeps the rows placed here (the header
        check then names the cell that moved). The last table (a seat's further tab holds one), with no title
        under it, has at least the rows placed here and as many as its drawn subjects run down column A: with
        ``subjects`` (the rows the match draws in a table), only the cells of column A that hold one of them, or a
        name like theirs with other numbers (a row drawn for a state that needed more), not what a player typed
        in column A just under the table (answered as typed past the table, never read as one of its rows)."""
        column_a = [text_of(line[0]) if line else "" for line in grid]
        found: dict[str, int] = {}
        title_row = FIRST_TABLE_ROW
        for t, after in zip(self._own, self._own[1:], strict=False):
            first = title_row + 2  # the table's first row
            titles = [row for row in range(first + 2, len(column_a) + 1)  # one row at least, then the gap
                      if column_a[row - 1] == after.spec.heading]
            rows = titles[-1] - 1 - first if titles else t.rows
            found[t.spec.name] = rows
            title_row += 2 + rows + 1
        last = self._own[-1] if self._own else None
        if last is not None and last.spec.rows != SEAT_ROWS:  # no title under it: its drawn subjects say its end
            first = title_row + 2
            end = first
            drawn = _drawn_names(subjects(last.spec)) if subjects is not None else None
            while end <= len(column_a) and column_a[end - 1] and (
                    drawn is None or end - first < last.rows or _name_shape(column_a[end - 1]) in drawn):
                end += 1
            found[last.spec.name] = max(last.rows, end - first)
        return found

    @property
    def width(self) -> int:
        """The tab's columns: to the feedback column (at least two)."""
        return max([t.width for t in self._own] + [2])

    @property
    def last_row(self) -> int:
        """The last row any table uses."""
        return max([t.last_row for t in self._own] + [STATUS_ROW])

    def table(self, name: str) -> PlacedTable:
        """The placed table called ``name`` (KeyError naming the tab if none)."""
        for t in self.tables:
            if t.spec.name == name:
                return t
        raise KeyError(f"tab {self.name!r} has no table {name!r}")

    def read_range(self, name: str = "") -> str:
        """The one range a poll reads: the whole tab from its title down, however many rows its tables have
        now (the same cells of tab ``name``, when given: where repair looks for a renamed copy)."""
        return a1(name or self.name, f"{cell_at(0, TITLE_ROW)}:{column_label(self.width - 1)}")

    def blank_rows(self) -> list[int]:
        """The rows between two tables and the one under the last: part of the tab, read, and in no table."""
        own = self._own
        return [row for row in range(FIRST_TABLE_ROW, self.last_row + 2)
                if not any(t.title_row <= row <= t.last_row for t in own)]

    def loose_rows(self, grid: Grid) -> list[LooseRow]:
        """The rows of ``grid`` (read from A1) that no table reads an order from, yet hold something: a blank
        row between tables (or under the last) with a cell typed, or an answer of ours left from before; a
        table's row without a subject with a cell typed (or our answer in its feedback cell)."""
        out: list[LooseRow] = []
        feedback_col = self.width - 1
        tables = self._own
        # each row's table, worked out once for the tab (a row under the last table is in none)
        table_of = {row: t for t in reversed(tables) for row in range(t.title_row, t.last_row + 1)}  # the first wins
        # what sheets-gm writes in a table's row (its stamp, shown values) is not typed: each table's typed columns
        owns = {id(t): {col for col, c in t.columns() if c.kind.typed} | set(t.past_cols()) for t in tables}
        for row in range(FIRST_TABLE_ROW, max(self.last_row + 1, len(grid)) + 1):  # and any row read below
            table = table_of.get(row)
            if table is not None and row <= table.header_row:
                continue  # a title or header row: protected, and checked for drift
            line = grid[row - 1] if row - 1 < len(grid) else []
            if table is not None and text_of(line[0] if line else None):
                continue  # a row with a subject: the table reads it
            typed = tuple(line[:feedback_col])
            if False in typed:  # an unticked box is empty (0 == False too: the slow way then tells them apart)
                typed = tuple(v if v is not False else None for v in typed)
            if len(typed) < feedback_col:
                typed += (None,) * (feedback_col - len(typed))
            if table is not None:
                own = owns[id(table)]
                typed = tuple(v if col in own else None for col, v in enumerate(typed))
            feedback = text_of(line[feedback_col]) if feedback_col < len(line) else ""
            if feedback or any(v is not None and str(v).strip() for v in typed):  # text_of, called 10,000 x 11 times
                out.append(LooseRow(table.spec.name if table is not None else "", row, typed, feedback))
        return out

    def status_cell(self) -> str:
        """The status line's cell, as a full range."""
        return a1(self.name, cell_at(0, STATUS_ROW))

    def header_checks(self) -> list[tuple[int, int, str]]:
        """(row, 0-based column, text) of every fixed text the sync checks before writing anything."""
        checks = [(TITLE_ROW, 0, self.title)]
        for t in self._own:
            checks += [(t.header_row, i, c.header) for i, c in t.columns()]
        return checks

    def drift(self, grid: Grid) -> str:
        """'' when every fixed text is in place, else a sentence naming the first cell that changed."""
        found = self.drifts(grid)
        return found[0] if found else ""

    def drifts(self, grid: Grid) -> list[str]:
        """A sentence for each fixed text out of place, naming its cell (none when all are in place)."""
        out: list[str] = []
        for row, col, want in self.header_checks():
            line = grid[row - 1] if row - 1 < len(grid) else []
            got = text_of(line[col] if col < len(line) else None)
            if got != want:
                out.append(f"tab {self.name!r} cell {cell_at(col, row)} should say {want!r} but says {got!r}")
        return out

    def layout(self, colours: Colours, editors: Sequence[str],
               row_editors: Mapping[tuple[str, int], Sequence[str]] | None = None,
               view_list: str = "") -> TabLayout:
        """The tab as a layout: titles and headers, colours, dropdowns, tick boxes, and protections that
        leave only the typed cells open (to ``editors``, or to anyone who may edit the spreadsheet). A
        ``member_rows`` table's rows are each protected for their own editors instead, when ``row_editors``
        names them by (table, 0-based row): a player's row for that player alone. ``view_list``: the range
        of the seat's View panel that a ``values_from: view`` column's dropdown lists."""
        width = self.width
        values: dict[str, Grid] = {"A1": [[self.title]]}
        fills = [Fill(cells(0, TITLE_ROW, width - 1, TITLE_ROW), colours.header, bold=True),
                 # the status line runs on over the empty cells to its right instead of wrapping in column A
                 Fill(cells(0, STATUS_ROW, width - 1, STATUS_ROW), colours.engine)]
        dropdowns: list[Dropdown] = []
        checkboxes: list[Checkbox] = []
        protections = [Protection(cells(0, TITLE_ROW, width - 1, STATUS_ROW), "Title and status: written by sheets-gm")]
        widths: dict[int, int] = {}
        least: dict[int, int] = {}  # a column's heading's longest word: narrowed to print, it keeps it whole
        for t in self._own:
            spec = t.spec
            title, header = t.heading_rows()
            values[cell_at(0, t.title_row)] = [title[:1]]
            values[cell_at(0, t.header_row)] = [header]
            # the caption runs on over the empty cells right of it, in a style of its own: without one it took the
            # wrap a long table's column gives each cell written in it, five lines tall in column A (the Judge
            # tab's Losses caption, repeated on each of its printed pages; issue 64)
            fills.append(Fill(cells(0, t.title_row, 0, t.title_row), "#FFFFFF", top=True))
            # a heading wider than its column wraps: the heading beside it would cut it (the row grows to fit)
            fills.append(Fill(cells(0, t.header_row, t.width - 1, t.header_row), colours.header, bold=True,
                              wrap=True))
            protections.append(Protection(cells(0, t.title_row, width - 1, t.header_row), f"{spec.name}: headers"))
            own_rows = {i: tuple(who) for (name, i), who in (row_editors or {}).items()
                        if name == spec.name and who} if spec.member_rows else {}
            for i, c in t.columns():
                col_cells = cells(i, t.first_row, i, t.last_row)
                widths[i] = max(widths.get(i, 0), c.width or _default_width(c.kind))
                least[i] = max(least.get(i, 0), _least_pixels(c))
                # Every cell of a table wraps from its top, so a long answer or order is read whole in its cell,
                # its row as tall as it needs, and the row's other cells (tick boxes too) beside its first line.
                if not c.kind.typed:
                    fills.append(Fill(col_cells, colours.engine, wrap=True))
                    protections.append(Protection(col_cells, f"{spec.name}: {c.header}, written by sheets-gm"))
                else:
                    fills.append(Fill(col_cells, colours.input, wrap=True))
                    protections += (_row_protections(t, i, c, own_rows, tuple(editors)) if own_rows else
                                    [Protection(col_cells, f"{spec.name}: {c.header}", tuple(editors),
                                                player_input=True)])
                if c.kind is ColumnKind.CHOICE:
                    dropdowns.append(Dropdown(col_cells, c.values))
                if c.values_from == "view" and view_list:
                    dropdowns.append(Dropdown(col_cells, (), source=view_list))
                if c.kind in (ColumnKind.TICK, ColumnKind.READY):
                    checkboxes.append(Checkbox(col_cells))
            gap = 1 + max(i for i, c in t.columns() if c.kind is not ColumnKind.FEEDBACK)  # right of its own columns
            if gap < t.feedback_col:  # a narrower table than the tab's widest: nobody types there
                unused = cells(gap, t.first_row, t.feedback_col - 1, t.last_row)
                fills.append(Fill(unused, colours.engine))
                protections.append(Protection(unused, f"{spec.name}: no column here"))
        first, last, keep = self._print_titles()
        widths = one_page_widths(widths, width - 1, least)  # the Feedback beside its rows when printed
        return TabLayout(name=self.name, rows=self.last_row + 1, cols=width, frozen_rows=STATUS_ROW,
                         values=values, fills=tuple(fills), dropdowns=tuple(dropdowns),
                         checkboxes=tuple(checkboxes), protections=tuple(protections), column_widths=widths,
                         print_title_first=first, print_title_rows=last, print_keep=keep,
                         spare_rows=self._spare_rows())

    def _spare_rows(self) -> tuple[int, int] | None:
        """The rows (1-based, first and last) of the tab's first table of rows the adapter lists (a seat's units or
        armies) that another table follows, through the gap under it: the rows under those it lists hold no subject,
        and nothing typed there is read (``no_subject_sentence``), so they are hidden where they hold nothing
        (``TabLayout.spare_rows``; a row typed in, or a subject drawn in a resolution, is shown again). Printed, the
        empty rows made Win or Die's Units table taller than a page, its rows on the next printed without their
        header (issue 78, item 5). The cells read stay where they are."""
        for t, after in zip(self._own, self._own[1:], strict=False):
            if t.spec.rows != SEAT_ROWS and not t.spec.numbered:
                return t.first_row, after.title_row - 1
        return None

    def _print_titles(self) -> tuple[int, int, tuple[tuple[int, int], ...]]:
        """The rows each printed page repeats (1-based, first and last) and the runs of rows no page cuts, so that
        every printed page is true (LibreOffice repeats one band of rows a tab, on every page from the one it
        starts on). Each table is kept on one page (one longer than a page: its caption, header and first row).
        Its longest table's caption and header are repeated (from the tab's title down when that table comes
        first: an Orders tab's units, armies or players; else from its caption: the Judge tab's Losses) where
        what follows that table is short (``TRAILING_ROWS``: a seat's Ready row) and kept on a page with the
        table's last row, so no page begins under that header with another table's rows. Where longer tables
        follow it (Wesnoth's recruits and standing choices after its units; issue 78: recruits printed under the
        Units header), the title and status are repeated, which belong to every table."""
        keep = tuple((t.title_row, t.last_row) for t in self._own)
        if not self._own:
            return 1, STATUS_ROW, keep
        longest = max(self._own, key=lambda t: t.rows)
        if self.last_row - longest.last_row > TRAILING_ROWS:
            return 1, STATUS_ROW, keep
        if longest.last_row < self.last_row:
            keep += ((longest.last_row, self.last_row),)
        return (1 if longest is self._own[0] else longest.title_row), longest.header_row, keep


def _row_protections(t: PlacedTable, col: int, column: Column, own: Mapping[int, tuple[str, ...]],
                     editors: tuple[str, ...]) -> list[Protection]:
    """A typed column of a ``member_rows`` table: each run of rows with the same editors protected for them (a
    row whose member has no e-mail stays with the seat's ``editors``)."""
    out: list[Protection] = []
    first = 0
    for index in range(1, t.rows + 1):
        if index < t.rows and own.get(index, editors) == own.get(first, editors):
            continue
        who = own.get(first, editors)
        what = f"{t.spec.name}: {column.header}" + (f", row {first + 1}" if first in own else "")
        out.append(Protection(cells(col, t.first_row + first, col, t.first_row + index - 1), what, who,
                              player_input=True))
        first = index
    return out


def _word_pixels(heading: str) -> int:
    """The pixels a column needs for the longest word of its ``heading`` in bold, whole on a line."""
    return math.ceil(max(map(len, heading.split()), default=0) * HEADING_CHAR_PIXELS) + CELL_PADDING


def _least_pixels(column: Column) -> int:
    """The narrowest a column may be printed at and still show every word whole, on screen as on paper: its
    heading's longest word in bold, and the longest word written in its cells (its ``widest_word``, a choice's
    values) in the default font.

    >>> _least_pixels(Column(key="units", header="Units", kind=ColumnKind.SHOWN, widest_word="(5000/2500/1500/1000)"))
    164
    """
    words = [word for text in (column.widest_word, *column.values) for word in text.split()]
    return max(_word_pixels(column.header),
               math.ceil(max(map(len, words), default=0) * WORD_CHAR_PIXELS) + CELL_PADDING)


def _default_width(kind: ColumnKind) -> int:
    return {ColumnKind.SUBJECT: 140, ColumnKind.WINDOW: 90, ColumnKind.SHOWN: 110, ColumnKind.TEXT: 150,
            ColumnKind.CHOICE: 120, ColumnKind.NUMBER: 80, ColumnKind.TICK: 60, ColumnKind.READY: 80,
            ColumnKind.FEEDBACK: 480}[kind]
