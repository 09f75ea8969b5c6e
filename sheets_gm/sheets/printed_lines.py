"""A drawn tab's lines of text kept clear of the columns each printed page across repeats (issue 78, item 5).

A tab printed over more than one page across repeats its first columns on each (a unit's name, a plane's row
letters). A line of text alone in its row's first cell runs on over the empty cells right of it; printed, the
repeated column showed the line's start on every page across and the page after the first the part that ran past
the first page, read together as one garbled sentence (Wesnoth's Units: "Every unit type in play, as" + "enter (—
it cannot)…"). Such a line is therefore written in the first column no page repeats and broken between its words into
lines that the first page's columns after the repeated ones hold (its row as tall as its lines: ``printed_sizes``
counts a cell's own line breaks), so it prints whole on the first page across and nowhere else.
"""

from __future__ import annotations

from sheets_gm.sheets.layout import CellValue, Grid, TabLayout
from sheets_gm.sheets.printed_sizes import CELL_MARGIN_POINTS, first_page_columns, line_points


def lines_clear_of_titles(values: Grid, tab: TabLayout) -> Grid:
    """``values`` (rows from A1 of ``tab``) with each line of text alone in its row's first cell and wider than that
    cell moved, broken into lines (``broken_lines``), to the first column each printed page across does not repeat,
    where ``tab`` prints over more than one page across repeating its first columns; the rest as they are."""
    repeated, columns = first_page_columns(tab)
    if not repeated:
        return values
    room = sum(columns[repeated:]) - CELL_MARGIN_POINTS  # the cell runs on over the columns right of it
    out: Grid = []
    for row in values:
        text = row[0] if row else None
        if (isinstance(text, str) and len(row) > repeated and all(v in ("", None) for v in row[1:])
                and line_points(text) > columns[0] - CELL_MARGIN_POINTS):
            moved: list[CellValue] = [""] * repeated
            row = [*moved, broken_lines(text, room), *row[repeated + 1:]]
        out.append(row)
    return out


def broken_lines(text: str, room: float) -> str:
    """``text`` broken between its words into lines each printing within ``room`` points in the default font, bold or
    not (a word
    wider than that on a line of its own), its own line breaks kept.

    >>> broken_lines("Every unit type in play, as its pawn shows it.", 100.0)
    'Every unit type in\\nplay, as its pawn\\nshows it.'
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            if line and line_points(f"{line} {word}", bold=True) > room:  # bold or not
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return "\n".join(lines)
