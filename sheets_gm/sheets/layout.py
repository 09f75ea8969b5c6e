"""A workbook layout as data: tabs, header cells, colours, dropdowns, checkboxes, protections.

Templates under ``templates/<ruleset>/`` describe it; a backend applies it in one call.
Ranges are A1 ranges within a tab (``A1:E6``); tabs are named.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheets_gm.engine.grid import column_label

CellValue = str | int | float | bool | None
Grid = list[list[CellValue]]
def text_of(value: CellValue) -> str:
    """A cell as stripped text ('' for an empty cell)."""
    return "" if value is None else str(value).strip()

#: The line drawn round a ``Fill`` with ``border``: light enough not to compete with the cells' text.
BORDER_COLOUR = "#9E9E9E"


#: A fill down more rows than this to the tab's last row is a column's style: a local workbook styles its columns,
#: not each of their cells; Google is not sent a wrap so long (``google/layout_requests.py``).
COLUMN_STYLE_ROWS = 500


def column_style(tab: TabLayout, first_row: int, last_row: int) -> bool:
    """Whether a fill over rows ``first_row`` to ``last_row`` (1-based, both in) of ``tab`` is a column's style:
    down more than ``COLUMN_STYLE_ROWS`` rows to the tab's last row (a Log's sentences, 20,000 rows)."""
    return last_row >= tab.rows and last_row - first_row >= COLUMN_STYLE_ROWS


@dataclass(frozen=True, slots=True)
class Fill:
    """A background colour (``#RRGGBB``) and optionally bold text over a range; with ``wrap``, text
    wraps inside the cells from their top (several players on a tile, one per line); with ``top`` alone, text
    stands at the cells' top and runs on over the empty cells right of it (a name beside a wrapped text); with
    ``border``, a thin grey line runs round the range (a board's tile or hex, so its cells read as one); with
    ``left``, numbers stand at the cells' left as text does (a Log's turn, right-aligned, printed against the kind
    beside it: "1 route")."""

    range: str
    colour: str
    bold: bool = False
    wrap: bool = False
    border: bool = False
    top: bool = False
    left: bool = False


@dataclass(frozen=True, slots=True)
class ConditionalFill:
    """A background colour (``#RRGGBB``) and optionally bold text over the cells of a range whose value
    starts with ``prefix``, whatever values later writes put there: a conditional format laid out once
    with its tab (a unit's owner sign → the owner's colour), so it costs no call when the values change."""

    range: str
    prefix: str
    colour: str
    bold: bool = False

    def __post_init__(self) -> None:
        # Google reads a condition value as if typed in a cell: "=…", "+…" would be formulas, "'…" lose its quote.
        if not self.prefix or self.prefix[0] in "=+'":
            raise ValueError(f"conditional fill over {self.range}: the prefix {self.prefix!r} must be a text that "
                             "neither is empty nor starts with =, + or '")


@dataclass(frozen=True, slots=True)
class Dropdown:
    """A list of allowed values for the cells of a range (strict: other values are refused); or, with
    ``source`` (a range of the same spreadsheet, with its tab), a list of what those cells hold now, which only
    helps: anything typed is kept (a player's own bag, written in her View tab at every resolution)."""

    range: str
    values: tuple[str, ...]
    source: str = ""


@dataclass(frozen=True, slots=True)
class Checkbox:
    """Cells that hold a tick box (TRUE/FALSE)."""

    range: str


@dataclass(frozen=True, slots=True)
class Protection:
    """A range (or the whole tab when ``range`` is None) that only ``editors`` (and the owner) may edit.

    ``player_input`` marks the cells a seat types into: they stay open to typing even when
    no e-mail names the player (a local workbook unlocks them; Google leaves them to everyone
    the spreadsheet is shared with as an editor, rather than to the GM alone)."""

    range: str | None
    description: str
    editors: tuple[str, ...] = ()
    player_input: bool = False


@dataclass(frozen=True, slots=True)
class TabLayout:
    """One tab: its size, frozen header rows, fixed cell values, formats (fixed and conditional) and rules.

    Applying a layout again replaces its tabs' conditional formats, dropdowns and checkboxes rather than
    adding to them."""

    name: str
    rows: int
    cols: int
    frozen_rows: int = 0
    hidden: bool = False
    values: dict[str, Grid] = field(default_factory=dict)  # A1 top-left or range → rows of values
    fills: tuple[Fill, ...] = ()
    conditional_fills: tuple[ConditionalFill, ...] = ()  # the tab's conditional formats: it owns them all
    dropdowns: tuple[Dropdown, ...] = ()
    checkboxes: tuple[Checkbox, ...] = ()
    protections: tuple[Protection, ...] = ()
    column_widths: dict[int, int] = field(default_factory=dict)  # 0-based column → pixels
    row_heights: dict[int, int] = field(default_factory=dict)  # 0-based row → pixels
    hidden_columns: tuple[int, ...] = ()  # 0-based columns hidden from view (what the sync keeps for itself)
    print_headings: bool = False  # printed with the column letters and row numbers (a board whose tiles are cells)
    # Printed ``print_pages_wide`` pages wide (1: one page, shrunk to fit), or more where that would shrink its type
    # below ``PRINT_LEAST_POINTS`` (``printed_sizes.print_pages_wide``); 0: at its own size across as many pages as it
    # needs, with its first row and first column repeated on each.
    print_pages_wide: int = 1
    # A map (a board drawn in cells): printed on as few pages as hold it at ``PRINT_LEAST_POINTS`` or more, its pages
    # tall chosen with its pages wide, in whichever orientation takes fewer (``printed_sizes.fewest_pages``).
    print_fewest: bool = False
    # Rows and columns every printed page repeats: rows ``print_title_first`` to ``print_title_rows`` (1-based; 0:
    # the frozen header rows) and the first ``print_title_cols`` (a plane's row letters). Rows below the first are
    # repeated on each page from the one they start on (LibreOffice and Excel both): a table under another (the
    # Judge tab's Losses) has its header on each of its pages, none on the pages above it.
    print_title_rows: int = 0
    print_title_cols: int = 0
    print_title_first: int = 1
    # Runs of rows (1-based, first and last) no printed page cuts (a table's caption, header and first row): where a
    # run would cross a page's end, the page is broken before it (a manual row break), so no table is printed apart
    # from its own header (``local.layout.page_breaks``).
    print_keep: tuple[tuple[int, int], ...] = ()
    # Rows (1-based, first and last) kept for text that may grow (a View's panel): in a local workbook those below
    # the last one holding something are hidden, so that neither screen nor page shows them blank (``local.spare``).
    spare_rows: tuple[int, int] | None = None
    # A line printed at the top of every page of a map printed over more than one page across (its title, which
    # stands right of the map with its legend, was on the last page across only); none on a map one page wide.
    print_header: str = ""


@dataclass(frozen=True, slots=True)
class WorkbookLayout:
    """Every tab of one spreadsheet or workbook file, in order; ``retired`` names tabs an earlier layout had
    that are deleted if present (other tabs not in the layout are left alone). ``partial``: the layout names some
    tabs of the spreadsheet only (a tab a match adds later, as the judge's Strategies tab): its tabs keep their
    place, a new one goes after every other, and no other tab is touched (an empty one or the dropdowns' helper)."""

    title: str
    tabs: tuple[TabLayout, ...]
    retired: tuple[str, ...] = ()
    partial: bool = False

    def tab(self, name: str) -> TabLayout:
        """The tab called ``name`` (KeyError if none)."""
        for t in self.tabs:
            if t.name == name:
                return t
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class ReadGuard:
    """One range a poll read (``range``, a full A1 range) and what it held then (``grid``, as ``read`` gave it)."""

    range: str
    grid: Grid


def quote_tab(name: str) -> str:
    """A tab name as it stands in an A1 range: ``'Orders red'``."""
    return "'" + name.replace("'", "''") + "'"


def a1(tab: str, cells: str) -> str:
    """A full A1 range: ``'Orders red'!A2:E6``."""
    return f"{quote_tab(tab)}!{cells}"


def split_a1(full: str) -> tuple[str, str]:
    """The tab name and the cell part of a full A1 range (inverse of ``a1``)."""
    if full.startswith("'"):
        end = 1
        while True:
            end = full.index("'", end)
            if full[end:end + 2] == "''":
                end += 2
                continue
            break
        return full[1:end].replace("''", "'"), full[end + 2:]
    tab, _, cells = full.partition("!")
    return tab, cells


def trim_grid(rows: list[list[CellValue]]) -> Grid:
    """Rows as Google's ``values.batchGet`` gives them: trailing empty cells of each row and trailing empty rows
    left out, an empty cell before a filled one as ``""``. ``None`` and ``""`` are both empty."""
    out: Grid = []
    for row in rows:
        end = len(row)
        while end and row[end - 1] in (None, ""):
            end -= 1
        out.append(["" if v is None else v for v in row[:end]])
    while out and not out[-1]:
        out.pop()
    return out


def cells(first_col: int, first_row: int, last_col: int, last_row: int) -> str:
    """An A1 cell range from 0-based columns and 1-based rows: ``cells(0, 1, 2, 3)`` is ``A1:C3``."""
    return f"{column_label(first_col)}{first_row}:{column_label(last_col)}{last_row}"


def cell_at(col: int, row: int) -> str:
    """One cell's A1 name from a 0-based column and a 1-based row: ``cell_at(2, 7)`` is ``C7``."""
    return f"{column_label(col)}{row}"
