"""A spreadsheet as a reader sees it: every tab's cells with what makes one unreadable, its hidden rows and columns.

``verify -c`` and ``doctor`` check the public board whole (``sync/life/board_check.py``): text typed outside what
the sync draws, a tab nobody laid out, and what hides a line the sync wrote (a hidden row or column, a font the
colour of its fill, a tiny font, a number format that shows nothing). A backend that can tell formats answers
``read_seen`` (``SeenReader``) in one call: Google's one ``spreadsheets.get`` cut by a field mask to the values,
the formats that hide and the rows' and columns' metadata; a local workbook from one load of the file. Any other
backend is seen through its values alone (``seen_tabs``: its tab list and one read).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from sheets_gm.sheets.backend import SheetBackend, SheetError
from sheets_gm.sheets.guard import extent
from sheets_gm.sheets.layout import CellValue, Grid, quote_tab, split_a1, trim_grid

#: The smallest font a line is read in (points): Google's and LibreOffice's menus start at 6.
MIN_FONT_POINTS = 6.0
#: Text and fill whose contrast ratio (WCAG's) is below this read as one colour: white on white is 1.
MIN_CONTRAST = 1.5
#: Rows and columns narrower than this (pixels) show no text: hidden in all but name.
MIN_PIXELS = 4
#: The fill of a cell with none, and the colour of text with none.
WHITE, BLACK = "#FFFFFF", "#000000"


@dataclass(frozen=True, slots=True)
class Look:
    """How a cell shows its value: its text colour and fill (``#RRGGBB``, None where unknown), its font size
    in points (None: the default), its number format ('' for none)."""

    font: str | None = BLACK
    fill: str | None = WHITE
    size: float | None = None
    number_format: str = ""


@dataclass(frozen=True)
class TabSeen:
    """One tab as a reader sees it: its name, whether it is hidden, its cells that hold something (0-based row and
    column) and their looks (a cell left out looks as ``Look()``), its hidden rows and columns (0-based; too narrow
    to show text counts as hidden)."""

    name: str
    hidden: bool = False
    cells: Mapping[tuple[int, int], CellValue] = field(default_factory=dict)
    looks: Mapping[tuple[int, int], Look] = field(default_factory=dict)
    hidden_rows: frozenset[int] = frozenset()
    hidden_cols: frozenset[int] = frozenset()


@runtime_checkable
class SeenReader(Protocol):
    """A spreadsheet that tells how its cells show (a local workbook, Google): every tab in one call."""

    def read_seen(self) -> list[TabSeen]:
        """Every tab, in order, as a reader sees it (one call)."""
        ...


def seen_tabs(backend: SheetBackend) -> list[TabSeen]:
    """Every tab of ``backend`` as a reader sees it: ``read_seen`` where the backend tells formats, else its values
    alone (its tab list and one read of every tab whole)."""
    if isinstance(backend, SeenReader):
        return backend.read_seen()
    names = backend.tab_names()
    grids = backend.read([quote_tab(n) for n in names]) if names else []
    return [TabSeen(name, cells={(r, c): v for r, row in enumerate(grid) for c, v in enumerate(row)
                                 if v is not None and v != ""})
            for name, grid in zip(names, grids, strict=True)]


def seen_grid(tabs: Iterable[TabSeen], a1_range: str) -> Grid:
    """The values of ``a1_range`` as ``read`` gives them (trimmed as Google trims them), from ``tabs`` as seen:
    what was seen needs no second read (SheetError naming the tab when none of ``tabs`` has its name)."""
    name, row0, col0, last_row, last_col = extent(a1_range)
    tab = next((t for t in tabs if t.name.casefold() == name), None)
    if tab is None:
        raise SheetError(f"no tab named {split_a1(a1_range)[0]!r} (range {a1_range!r})")
    inside = {(r, c): v for (r, c), v in tab.cells.items() if r >= row0 and c >= col0
              and (last_row is None or r <= last_row) and (last_col is None or c <= last_col)}
    if not inside:
        return []
    rows, cols = max(r for r, _ in inside), max(c for _, c in inside)
    return trim_grid([[inside.get((r, c)) for c in range(col0, cols + 1)] for r in range(row0, rows + 1)])


def hides(look: Look, value: CellValue) -> str:
    """Why ``value`` cannot be read in a cell that looks as ``look`` ('' when it can).

    >>> hides(Look(font="#FFFFFF"), "blue surrenders")
    'its text is #FFFFFF on a #FFFFFF fill'
    >>> hides(Look(size=1), "x"), hides(Look(number_format=";;;"), 4), hides(Look(number_format="0.0"), 4)
    ('its font is 1 pt', "its number format ';;;' shows nothing", '')
    """
    if look.font is not None and look.fill is not None and contrast(look.font, look.fill) < MIN_CONTRAST:
        return f"its text is {look.font} on a {look.fill} fill"
    if look.size is not None and look.size < MIN_FONT_POINTS:
        return f"its font is {look.size:g} pt"
    if look.number_format and not shown_section(look.number_format, value):
        return f"its number format {look.number_format!r} shows nothing"
    return ""


def _luminance(colour: str) -> float:
    """WCAG's relative luminance of ``#RRGGBB``."""
    def channel(i: int) -> float:
        c = int(colour[i:i + 2], 16) / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two ``#RRGGBB`` colours: 1 for the same colour, 21 for black on white.

    >>> round(contrast("#000000", "#FFFFFF")), contrast("#FEFEFE", "#FFFFFF") < 1.1
    (21, True)
    """
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


_QUOTED = re.compile(r'"[^"]*"|\\.')
_SHOWS = re.compile(r"[^\s_*]")  # a section that prints anything: not only spaces, padding (_x) or fill (*x)


def shown_section(number_format: str, value: CellValue) -> bool:
    """Whether a number format shows ``value`` at all: the section a value of its kind takes (text the fourth,
    shown as typed by a format of fewer; a number by its sign) prints something. ``;;;`` hides everything,
    ``0;-0;;@`` hides a zero.

    >>> shown_section(";;;", "x"), shown_section("@", "x"), shown_section("0;-0;;@", 0), shown_section("0", 5)
    (False, True, False, True)
    >>> shown_section('"";"";"";""', "x"), shown_section('0;0;0;"Sealed"', "x")
    (False, True)
    """
    sections = [_QUOTED.sub(_literal, s) for s in _split_sections(number_format)]
    if isinstance(value, str):
        return len(sections) < 4 or bool(_SHOWS.search(sections[3]))
    if isinstance(value, bool) or not isinstance(value, int | float):
        return True
    index = 0 if value > 0 or len(sections) == 1 else 1 if value < 0 else 2 if len(sections) > 2 else 0
    section = sections[index] if index < len(sections) else sections[0]
    return bool(_SHOWS.search(section))


def _literal(match: re.Match[str]) -> str:
    """A quoted or escaped literal of a number format as it prints: ``"abc"`` as ``abc``, ``\\x`` as ``x``."""
    text = match.group(0)
    return text[1:-1] if text.startswith('"') else text[1:]


def _split_sections(number_format: str) -> list[str]:
    """A number format's ``;``-separated sections (a ``;`` in quotes or escaped is text)."""
    out, current, quoted, escaped = [], "", False, False
    for ch in number_format:
        if escaped:
            current += ch
            escaped = False
        elif ch == "\\":
            current += ch
            escaped = True
        elif ch == '"':
            quoted = not quoted
            current += ch
        elif ch == ";" and not quoted:
            out.append(current)
            current = ""
        else:
            current += ch
    return [*out, current]


def hex_colour(red: float, green: float, blue: float) -> str:
    """``#RRGGBB`` of components 0 to 1 (the Sheets API's ``Color``).

    >>> hex_colour(1, 1, 1), hex_colour(0, 0.5, 0)
    ('#FFFFFF', '#008000')
    """
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02X}" for v in (red, green, blue))
