"""Tables an earlier layout placed in a seat's orders tab and this one places in a tab of its own (the Coalition's
Forum post table, now in the Forum tab): ``repair`` finds each in the old tab by its header row, takes its lines out
of what it reads there (the tables under it move up, as the new layout draws them) and carries its typed rows into
the new tab, where the redraw writes them as any kept row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from sheets_gm.sheets.layout import Grid
from sheets_gm.sheets.tables import FIRST_TABLE_ROW, InputTab, PlacedTable, TypedRow, text_of


@dataclass(frozen=True)
class MovedOut:
    """The orders tab as read without the lines of the tables found there that now stand elsewhere (``grid``), the
    typed rows of those tables (``rows``) and a sentence per table moved (``notes``)."""

    grid: Grid
    rows: tuple[TypedRow, ...] = ()
    notes: list[str] = field(default_factory=list)


def _header_row(grid: Grid, placed: PlacedTable) -> int:
    """The 1-based row of ``grid`` holding ``placed``'s header row, every header in its place or moved (0 if none)."""
    for row in range(FIRST_TABLE_ROW + 1, len(grid) + 1):
        line = grid[row - 1]
        if line and text_of(line[0]).casefold() == placed.spec.columns[0].header.casefold() \
                and replace(placed, header_row=row).holds_header(grid):
            return row
    return 0


def tables_moved_out(grid: Grid, tab: InputTab, elsewhere: Sequence[PlacedTable]) -> MovedOut:
    """``grid`` (the orders tab ``tab`` read whole, from A1) without the tables of ``elsewhere`` it still holds (an
    earlier layout's), and their typed rows. A table found ends at the first row without a subject; its lines, from
    its title to the row before the next title of ``tab`` (or the end), are taken out."""
    rows: list[TypedRow] = []
    notes: list[str] = []
    own_titles = {t.spec.heading for t in tab.tables}
    for placed in elsewhere:
        header = _header_row(grid, placed)
        if not header:
            continue
        end = header + 1
        while end <= len(grid) and grid[end - 1] and text_of(grid[end - 1][0]):
            end += 1
        found = replace(placed, title_row=header - 1, header_row=header, rows=end - 1 - header)
        typed = [r for r in found.read(grid, by_header=True) if r.typed]
        rows += typed
        stop = next((row for row in range(end, len(grid) + 1)
                     if grid[row - 1] and text_of(grid[row - 1][0]) in own_titles), len(grid) + 1)
        grid = grid[:header - 2] + grid[stop - 1:]
        notes.append(f"the table “{placed.spec.heading}” was in tab {tab.name!r} (an earlier layout): it now has "
                     f"tab {placed.tab!r} of its own, where its {len(typed)} typed row(s) are written back")
    return MovedOut(grid, tuple(rows), notes)
