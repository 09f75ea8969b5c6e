"""A local workbook's manual page breaks: no printed page cuts a table from its own header (issue 78, item 5).

LibreOffice repeats one band of rows on each printed page of a tab, and breaks its pages where the next row does not
fit; a table caught by a page's end printed apart from its caption and header. The layout names the runs of rows no
page should cut (``TabLayout.print_keep``: each table, or its caption, header and first row where it is longer than a
page); they are recorded in the workbook (:data:`KEPT_ROWS_PROPERTY`, a custom document property, with the points of
rows a printed page holds at the tab's scale) so that, after each write has made its rows as tall as their text
(``row_fit``), the breaks are laid again for the rows as they are now.
"""

from __future__ import annotations

from typing import Any

from sheets_gm.sheets.xlsx import openpyxl  # noqa: F401  # first: without numpy (see that module)  # isort: skip

from openpyxl.worksheet.pagebreak import Break, RowBreak

from sheets_gm.sheets.printed_sizes import DEFAULT_ROW_POINTS
from sheets_gm.sheets.tab_records import record_tabs, tab_records

#: The custom document property holding, per tab, the runs of rows no printed page cuts and a page's room (JSON).
KEPT_ROWS_PROPERTY = "sheets-gm kept rows"
#: The rows of a run kept together longer than a page that stay together (a table's caption, header and first row).
KEPT_HEAD = 3

Kept = tuple[tuple[tuple[int, int], ...], float]


def record_kept_rows(wb: Any, tab: str, keep: tuple[tuple[int, int], ...], room: float) -> None:
    """Record the runs of rows (1-based, first and last) of ``tab`` no printed page cuts, and the points of rows a
    page of it holds (replacing what was recorded for it; none: nothing recorded)."""
    recorded = {name: [list(map(list, runs)), points] for name, (runs, points) in kept_rows(wb).items()}
    recorded.pop(tab, None)
    if keep:
        recorded[tab] = [[list(run) for run in keep], round(room, 1)]
    record_tabs(wb, KEPT_ROWS_PROPERTY, recorded)


def kept_rows(wb: Any) -> dict[str, Kept]:
    """The runs of rows no printed page cuts and a page's room in points, per tab, as recorded in the workbook
    (anything else recorded there read as nothing)."""
    out: dict[str, Kept] = {}
    for tab, value in tab_records(wb, KEPT_ROWS_PROPERTY).items():
        try:
            runs, room = value
            out[tab] = (tuple((int(first), int(last)) for first, last in runs), float(room))
        except (TypeError, ValueError):
            continue
    return out


def break_pages(ws: Any, kept: Kept | None) -> None:
    """Lay the tab's manual page breaks anew: before each run of ``kept`` that would otherwise cross a printed
    page's end, its rows as tall as they are now; none where nothing is kept."""
    ws.row_breaks = RowBreak()
    if not kept:
        return
    runs, room = kept
    last = max(end for _first, end in runs)
    heights = [0.0 if ws.row_dimensions[row].hidden else ws.row_dimensions[row].height or DEFAULT_ROW_POINTS
               for row in range(1, last + 1)]
    band = (0, 0)
    if ws.print_title_rows:
        first, _, end = ws.print_title_rows.replace("$", "").partition(":")
        band = (int(first), int(end))
    for row in page_breaks(heights, band, runs, room):
        ws.row_breaks.append(Break(id=row))


def page_breaks(heights: list[float], band: tuple[int, int], keep: tuple[tuple[int, int], ...],
                room: float) -> list[int]:
    """The rows (1-based) after which a page is broken so that no run of ``keep`` (first and last rows) is cut:
    rows of ``heights`` points laid on pages of ``room`` points, each page after the one it starts on beginning
    with the repeated rows of ``band`` (first and last; 0 for none), a page ending where the next row does not fit
    (as LibreOffice's own breaks do). A run taller than a page keeps its first ``KEPT_HEAD`` rows together (a
    table's caption, header and first row), the rest left to those breaks.

    >>> page_breaks([10.0] * 12, (1, 2), ((5, 7), (9, 11)), 60.0)  # rows 5-7 and 9-11 each whole on a page
    [4, 8]
    >>> page_breaks([10.0] * 12, (1, 2), ((4, 12),), 50.0)  # rows 4-12 longer than a page: 4-6 kept
    [3]
    """
    repeat = sum(heights[band[0] - 1:band[1]]) if band[0] else 0.0
    ends = {first: last if sum(heights[first - 1:last]) + repeat <= room else min(last, first + KEPT_HEAD - 1)
            for first, last in keep}
    used, repeated, breaks = 0.0, 0.0, []
    for row, height in enumerate(heights, start=1):
        run = sum(heights[row - 1:ends[row]]) if row in ends else height
        if used > repeated and used + run > room and ((row in ends and repeat + run <= room)
                                                      or used + height > room):
            breaks += [row - 1] if row in ends else []
            used = repeated
        used += height
        if row == band[1]:
            repeated = repeat
    return breaks


