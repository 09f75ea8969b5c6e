"""How a tab prints, in points, lines and pages, as LibreOffice prints a workbook and Google Sheets grows its rows:
plain arithmetic on a layout (``sheets.layout``) and on text, with no workbook library, so that every backend's
layouts (a Google match's poll lays out its tabs too) are sized by it without importing ``openpyxl`` (the local
workbooks' own modules apply them: ``sheets.local.layout``, ``sheets.row_fit``).

A cell's lines are counted as LibreOffice prints them: its words at the default font's own widths (Arial 10,
printed in Liberation Sans: ``font_widths``) wrapped in its column's printed width less the cell's margins, each line
taken a little wider than the widths say (a print rounds each letter's place) so that a row is never too short. A
tab's pages are laid as LibreOffice lays them: columns at ``PRINT_FIT_SCALE``, none split, title columns repeated.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from sheets_gm.sheets.font_widths import text_points
from sheets_gm.sheets.layout import TabLayout

#: A row's height in points where the layout gives none (LibreOffice's 0.45 cm, a line of Arial 10).
DEFAULT_ROW_POINTS = 12.8
#: The height of one line of the default font in points (a row's default height: LibreOffice prints a line of
#: Arial 10 11.2 points apart, a row of one line 12.8 points tall).
LINE_POINTS = DEFAULT_ROW_POINTS
#: Pixels a line of the default font takes in a board's fixed-height cell as LibreOffice draws it without the
#: workbook's own font installed (a fallback a little taller): a board tile or square is sized by it.
DRAWN_LINE_PIXELS = 18
#: Pixels a character of the default font takes on average in running text (a 720-pixel cell holds about 120).
CHAR_PIXELS = 5.9
#: Points a character of a column's width in the .xlsx prints in LibreOffice at scale 1 with the default font
#: (measured in its PDFs, Liberation Sans 10: 7.29 characters 40.4 points, 62.14 characters 344.9, 20 characters
#: 111.0), a little more than Excel's 5.25 and its padding of 3.75.
PRINTED_POINTS_PER_CHAR = 5.55
#: Points of a column's printed width its text does not use: LibreOffice's margins either side, a point each
#: (measured at scale 1: a column of 12.14 characters, 67.4 points, printed a line of 65.0 points unbroken and none of
#: 66.1; one of 19.29 characters, 107.1 points, one of 105.1).
CELL_MARGIN_POINTS = 2.0
#: How much wider than the font's own widths a line is taken: printed at a scale, LibreOffice rounds each letter's
#: place, and a line ran up to 0.7 % wider against its column (a Champions Feedback line at 82 % broke a word
#: earlier than the widths said); twice that is kept spare.
PRINTED_WIDTH_SPARE = 1.015
#: Pixels of a cell's width its text does not use (the padding either side).
CELL_PADDING = 6


#: A column's width where the layout gives none (Excel's default, 8.43 characters).
DEFAULT_COLUMN_PIXELS = 64
#: The widest tab a portrait page prints at its own size (A4 or Letter less the margins): a wider one turns
#: sideways, where it shrinks less.
PORTRAIT_PIXELS = 700
#: The width in points a landscape page prints (Letter, the narrower of Letter and A4: 11 inches less the .xlsx
#: default margins of .75 inch either side).
LANDSCAPE_POINTS = 684.0
#: The width in points a portrait page prints (Letter: 8.5 inches less the margins).
PORTRAIT_POINTS = 504.0
#: The height in points a page prints, landscape and portrait (the shorter of Letter and A4, less the .xlsx default
#: margins of 1 inch above and below): A4 sideways 8.27 inches, Letter upright 11.
LANDSCAPE_TALL_POINTS = 451.0
PORTRAIT_TALL_POINTS = 648.0
#: The smallest printed type a table may be shrunk to.
PRINT_LEAST_POINTS = 8.0
#: The scale a fit-to-width tab's columns are laid out for: LibreOffice prints at a whole percent (the largest its
#: columns fit at), then, for a tab fit to pages wide but not tall over more than one page down, 2% smaller where
#: that saves a page down (its tdf#103516: ``int(zoom * 0.98)``), a tab laid out for 80% printed at 78% (Win or Die's
#: Orders, Coalition's Judge at war size at 7.8 pt). At 82% it prints at 80% at least: 8 pt.
PRINT_FIT_SCALE = 0.82
#: The width in points (at scale 1) of the row numbers LibreOffice prints left of a tab printed with its headings
#: (its PRINT_HEADER_WIDTH, 1 cm), taken from each page's width for the columns.
PRINT_HEADINGS_POINTS = 28.35


def cell_lines(text: str, points: float, bold: bool = False) -> int:
    """Lines ``text`` prints on, word-wrapped in a cell ``points`` wide (its own line breaks kept), in the default
    font (bold or regular), each line as wide as it may print (``line_points``).

    >>> cell_lines("Dice: d8 2/base/Lu.rogue/1/1 = 6, d8 2/base/Lu.rogue/1/2 = 2,", 281.4)  # 273.5 points
    1
    >>> cell_lines("Dice: d8 2/base/Lu.rogue/1/1 = 6, d8 2/base/Lu.rogue/1/2 = 2, d8", 281.4)
    2
    """
    return wrapped_lines(text, line_room(points), lambda word: line_points(word, bold))


def line_points(text: str, bold: bool = False) -> float:
    """The points ``text`` may take on one printed line of the default font (its own widths and the spare for a
    print's rounding, ``PRINTED_WIDTH_SPARE``)."""
    return text_points(text, bold) * PRINTED_WIDTH_SPARE


def line_room(points: float) -> float:
    """The points of a line of text a cell ``points`` wide holds (its margins taken off)."""
    return max(1.0, points - CELL_MARGIN_POINTS)


def lines_needed(text: str, pixels: int, measure: Callable[[str], float] = len) -> int:
    """Lines ``text`` takes word-wrapped in a cell ``pixels`` wide (its own line breaks kept); ``measure`` gives
    a word's (and a space's) width in average characters of the default font (its length unless the text is of
    signs or letters wider or narrower than most).

    >>> lines_needed("short", 200)
    1
    >>> lines_needed("a b c d e f g h i j", 40)  # five characters a line: "a b c", "d e f", "g h i", "j"
    4
    >>> lines_needed("one\\ntwo", 500)
    2
    """
    return wrapped_lines(text, max(1.0, (pixels - CELL_PADDING) / CHAR_PIXELS), measure)


def wrapped_lines(text: str, room: float, measure: Callable[[str], float]) -> int:
    """Lines ``text`` takes word-wrapped in lines of ``room`` (its own line breaks kept), ``measure`` giving a word's
    (and a space's) width in the same unit; a word longer than a line is broken across lines.

    >>> wrapped_lines("a b c d e f g h i j", 5, len)
    4
    """
    total, space = 0, measure(" ")
    for paragraph in text.split("\n"):
        lines, used = 1, 0.0
        for word in paragraph.split(" "):
            size = measure(word)
            if used and used + space + size > room:  # the word goes to the next line
                lines, used = lines + 1, 0.0
            if size > room:  # a word longer than the line is broken across lines
                extra = math.ceil(size / room) - 1
                lines, used = lines + extra, size - extra * room
            else:
                used += size + (space if used else 0)
        total += lines
    return total


def print_width(tab: TabLayout) -> int:
    """The tab's shown columns' width in pixels (a column the layout does not size at the default width)."""
    return sum(tab.column_widths.get(c, DEFAULT_COLUMN_PIXELS) for c in range(tab.cols)
               if c not in tab.hidden_columns)


def printed_points(pixels: int) -> float:
    """The width in points a column ``pixels`` wide prints at scale 1 (its width in characters, as the .xlsx holds
    it, at ``PRINTED_POINTS_PER_CHAR``)."""
    return px_to_width(pixels) * PRINTED_POINTS_PER_CHAR


def _print_points(tab: TabLayout) -> float:
    """The tab's shown columns' printed width in points at scale 1."""
    return sum(printed_points(tab.column_widths.get(c, DEFAULT_COLUMN_PIXELS)) for c in range(tab.cols)
               if c not in tab.hidden_columns)


def print_pages_wide(tab: TabLayout) -> int:
    """How many pages wide a fit-to-width tab prints: its layout's count, or for a tab whose columns do not fall on
    that many pages at ``PRINT_LEAST_POINTS`` as LibreOffice prints it (at ``PRINT_FIT_SCALE``; none split, as
    LibreOffice lays them: it shrinks a tab further until they do), as many landscape pages as hold them so, each
    repeating its title columns (a wide Orders tab over two pages at 10 pt rather than one at 5)."""
    # points of columns a page holds at 8 pt type as LibreOffice prints, less its row numbers where it prints them
    room = LANDSCAPE_POINTS / PRINT_FIT_SCALE - (PRINT_HEADINGS_POINTS if tab.print_headings else 0.0)
    widths = [printed_points(tab.column_widths.get(c, DEFAULT_COLUMN_PIXELS)) for c in range(tab.cols)
              if c not in tab.hidden_columns]
    titles = tab.print_title_cols
    if pages_laid(widths[titles:], _title_points(tab, readable=False), room) <= tab.print_pages_wide:
        return tab.print_pages_wide
    first = titles or (0 if tab.print_headings else 1)  # the columns after those each page repeats
    return max(tab.print_pages_wide, pages_laid(widths[first:], _title_points(tab, readable=True), room))


#: The least a column is narrowed to for an input tab to print one page across (``one_page_widths``): its Feedback
#: (a sentence, wrapped) while the other columns can give way, then at the very least; any other column (a heading
#: of a word or two, wrapped).
FEEDBACK_LEAST_PIXELS = 240
FEEDBACK_SMALLEST_PIXELS = 160
COLUMN_LEAST_PIXELS = 45


def one_page_widths(widths: dict[int, int], feedback: int, least: dict[int, int] | None = None) -> dict[int, int]:
    """``_one_page_widths``, found once for each table's widths (every match of a game lays out the same tables,
    and the narrowing takes a pass over the columns a pixel)."""
    return dict(_one_page_widths(tuple(widths.items()), feedback, tuple((least or {}).items())))


@functools.lru_cache(maxsize=1024)
def _one_page_widths(given: tuple[tuple[int, int], ...], feedback: int,
                     least_given: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Column widths (pixels) narrowed where they are wider than one landscape page holds at ``PRINT_LEAST_POINTS``
    as LibreOffice prints (at ``PRINT_FIT_SCALE``), so an input tab prints each row's Feedback (column ``feedback``)
    on the page of its typed cells (issue 78: a seat's Orders printed it a page after): the widest of the other
    columns narrowed first, each to the same width as the next widest (a column of short words, a window's ``1/Ann``,
    kept as it was) until they leave ``FEEDBACK_LEAST_PIXELS`` for it, none below ``COLUMN_LEAST_PIXELS`` nor its
    ``least`` (the longest word of its heading: a heading wraps between its words, never inside one); the Feedback
    then takes the room left, down to ``FEEDBACK_SMALLEST_PIXELS``. Cells wrap, their rows grow. The columns' order
    is kept: a match laid out before reads the same cells.

    >>> one_page_widths({0: 100, 1: 480}, 1)  # fits: as it was
    {0: 100, 1: 480}
    >>> one_page_widths({0: 900, 1: 90, 2: 480}, 2)  # the widest gives way, the narrow one is kept
    {0: 734, 1: 90, 2: 240}
    >>> one_page_widths({0: 600, 1: 30, 2: 500, 3: 480}, 3, {1: 60, 2: 470})  # column 2's heading: a long word
    {0: 329, 1: 30, 2: 470, 3: 240}
    """
    widths, least = dict(given), dict(least_given)
    room = LANDSCAPE_POINTS / PRINT_FIT_SCALE - 2  # a margin for the widths rounded to 0.01 character

    def points(sizes: dict[int, int]) -> float:
        return sum(printed_points(px) for px in sizes.values())

    if points(widths) <= room:
        return given
    floors = {c: min(px, max(COLUMN_LEAST_PIXELS, least.get(c, 0))) for c, px in widths.items()}
    others = {c: px for c, px in widths.items() if c != feedback}
    cap, wanted = max(others.values(), default=0), printed_points(min(widths[feedback], FEEDBACK_LEAST_PIXELS))
    while points(others) + wanted > room and cap > 0:
        cap -= 1
        others = {c: max(floors[c], min(px, cap)) for c, px in others.items()}
    left = int((room - points(others)) / PRINTED_POINTS_PER_CHAR * 7) + 5  # pixels the page has left
    return tuple((others | {feedback: min(widths[feedback], max(FEEDBACK_SMALLEST_PIXELS, left))}).items())


def fewest_pages(tab: TabLayout) -> tuple[str, int, int]:
    """(orientation, pages wide, pages tall) of a map printed on as few pages as hold it at ``PRINT_LEAST_POINTS``
    or more (LibreOffice fits it to that many pages across and down, at the largest scale they take): its columns
    and rows laid on pages at ``PRINT_FIT_SCALE`` (none split, the title columns and rows repeated on each, the
    sheet's row numbers and column letters where it prints them), landscape or portrait, whichever takes fewer
    pages (landscape on a tie).

    >>> wod = TabLayout("Board", rows=20, cols=9, column_widths=dict.fromkeys(range(9), 150),
    ...                 row_heights=dict.fromkeys(range(2, 19), 48))  # Win or Die's 9 by 8 hexes
    >>> fewest_pages(wod)  # landscape takes 2 pages across and 2 down
    ('portrait', 2, 1)
    """
    widths = [printed_points(tab.column_widths.get(c, DEFAULT_COLUMN_PIXELS)) for c in range(tab.cols)
              if c not in tab.hidden_columns]
    heights = [tab.row_heights[r] * 0.75 if r in tab.row_heights else DEFAULT_ROW_POINTS for r in range(tab.rows)]
    across = sum(widths[:tab.print_title_cols])
    title_rows = tab.print_title_rows or tab.frozen_rows
    down = sum(heights[min(tab.print_title_first, title_rows) - 1:title_rows]) if title_rows else 0.0
    laid: list[tuple[str, float, int, int]] = []  # orientation, room across, pages across and down at 8 pt
    for orientation, wide, tall in (("landscape", LANDSCAPE_POINTS, LANDSCAPE_TALL_POINTS),
                                    ("portrait", PORTRAIT_POINTS, PORTRAIT_TALL_POINTS)):
        room_wide = wide / PRINT_FIT_SCALE - (PRINT_HEADINGS_POINTS if tab.print_headings else 0.0)
        room_tall = tall / PRINT_FIT_SCALE - (DEFAULT_ROW_POINTS if tab.print_headings else 0.0)
        laid.append((orientation, room_wide, pages_laid(widths[tab.print_title_cols:], across, room_wide),
                     pages_laid(heights[title_rows:], down, room_tall)))
    if min(w for _o, _r, w, _t in laid) > MAP_MOST_PAGES_WIDE:  # a last page of a sliver may go: one or two across
        narrower = [(o, r, _map_pages_wide(widths[tab.print_title_cols:], across, r), t) for o, r, _w, t in laid]
        laid = [n if n[2] <= MAP_MOST_PAGES_WIDE else old for n, old in zip(narrower, laid, strict=True)]
    best = min(laid, key=lambda x: x[2] * x[3])  # landscape on a tie: it comes first
    return best[0], best[2], best[3]


#: The smallest type a map is shrunk to rather than print a last page across of a sliver (one column of the map
#: beside its legend, or the legend alone: GvG's board printed three pages across so).
MAP_LEAST_POINTS = 6.5
#: At most this many columns on a map's last page across make it a sliver.
SLIVER_COLUMNS = 2
#: The pages across a GM's map is shrunk to print on where a sliver is all that stands in the way.
MAP_MOST_PAGES_WIDE = 2


def _map_pages_wide(widths: list[float], repeated: float, room: float) -> int:
    """How many pages across a map takes: as many as hold it at ``PRINT_LEAST_POINTS``, one fewer where the last of
    them would hold a sliver (``SLIVER_COLUMNS``) and the map then fits at ``MAP_LEAST_POINTS``.

    >>> gvg = [83.0] * 15 + [345.0]  # 15 tiles and the legend, landscape: 9 + 6, then the legend alone
    >>> pages_laid(gvg, 0.0, 806.0), _map_pages_wide(gvg, 0.0, 806.0)
    (3, 2)
    """
    pages = pages_laid(widths, repeated, room)
    if pages < 2 or _last_page_columns(widths, repeated, room) > SLIVER_COLUMNS:
        return pages
    return min(pages, pages_laid(widths, repeated, room * PRINT_LEAST_POINTS / MAP_LEAST_POINTS))


def _last_page_columns(widths: list[float], repeated: float, room: float) -> int:
    """How many of ``widths`` the last page ``pages_laid`` lays holds."""
    used, count = repeated, 0
    for width in widths:
        if used + width > room and used > repeated:
            used, count = repeated, 0
        used += width
        count += 1
    return count


def pages_laid(widths: list[float], repeated: float, room: float) -> int:
    """How many pages ``room`` points long hold ``widths`` (columns' widths, rows' heights) in order, none split,
    each page beginning with the ``repeated`` points of title columns or rows (``scripts/render_tabs.py`` lays a
    tab's pages with it too)."""
    pages, used = 1, repeated
    for width in widths:
        if used + width > room and used > repeated:
            pages, used = pages + 1, repeated
        used += width
    return pages


def _title_points(tab: TabLayout, *, readable: bool) -> float:
    """The printed width of the columns each page across repeats: the layout's title columns, or, for a tab printed
    over more pages than its layout says (``readable``), its first column (a unit's, an army's name)."""
    if tab.print_title_cols:
        return sum(printed_points(tab.column_widths.get(c, DEFAULT_COLUMN_PIXELS))
                   for c in range(tab.print_title_cols))
    if tab.print_headings:
        return 0.0
    return printed_points(tab.column_widths.get(0, DEFAULT_COLUMN_PIXELS)) if readable else 0.0


def repeats_first_column(tab: TabLayout) -> bool:
    """Whether each page across repeats the tab's first column though its layout names none (``_title_points``):
    not where each page prints the row numbers (a GvG board: its column A is the map's, repeated it put the board
    on a page more), nor on a map laid on its fewest pages (a Win or Die hex names itself: column A repeated beside
    the legend took the legend's room)."""
    return (not tab.print_title_cols and not tab.print_headings and bool(tab.print_pages_wide)
            and not tab.print_fewest and print_pages_wide(tab) > tab.print_pages_wide)


def first_page_columns(tab: TabLayout) -> tuple[int, list[float]]:
    """The columns each printed page across repeats (the layout's title columns, or a tab's first column where it
    repeats that, ``repeats_first_column``) and the printed widths at scale 1 of the columns from A the first page
    across holds at the largest scale the tab may print at (its own size: a page holds at least its own width of
    them), a hidden one 0; ``(0, [])`` where the tab prints on one page across or repeats no column."""
    if tab.print_fewest:
        orientation, wide, _tall = fewest_pages(tab)
    elif tab.print_pages_wide:
        orientation = "landscape" if print_width(tab) > PORTRAIT_PIXELS else "portrait"
        wide = print_pages_wide(tab)
    else:
        return 0, []
    repeated = tab.print_title_cols or (1 if repeats_first_column(tab) else 0)
    if wide < 2 or not repeated:
        return 0, []
    room = LANDSCAPE_POINTS if orientation == "landscape" else PORTRAIT_POINTS
    room -= PRINT_HEADINGS_POINTS if tab.print_headings else 0.0
    widths: list[float] = []
    for col in range(tab.cols):
        width = 0.0 if col in tab.hidden_columns else printed_points(tab.column_widths.get(col, DEFAULT_COLUMN_PIXELS))
        if sum(widths) + width > room and len(widths) > repeated:
            break
        widths.append(width)
    return repeated, widths


def print_scale(tab: TabLayout) -> float:
    """The scale a fit-to-width tab prints at (1: its own size): its pages' width against its columns' printed
    width and the title columns each page after the first repeats, never above 1; a tab printed at its own size
    across pages prints at 1."""
    if not tab.print_pages_wide:
        return 1.0
    page = LANDSCAPE_POINTS if print_width(tab) > PORTRAIT_PIXELS else PORTRAIT_POINTS
    wide = print_pages_wide(tab)
    repeated = _title_points(tab, readable=wide > tab.print_pages_wide)
    return min(1.0, wide * page / (_print_points(tab) + (wide - 1) * repeated))


def px_to_width(pixels: int) -> float:
    """Excel's column width (characters of the default font) for a width in pixels."""
    return max(0.0, math.floor((pixels - 5) / 7 * 100 + 0.5) / 100)
