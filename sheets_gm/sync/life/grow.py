"""Growing a match's input tables when a state needs more rows than they were laid out with.

A table is laid out at ``init`` with the rows the first state needs (``MatchTabs.fitted``): an army
per row, a battle per row, the recruit rows the biggest castle takes. When a resolution (or a GM's
correction) makes a state that needs more (a recruit, more battles than ever before), the spreadsheets
holding the tabs that grow are laid out again before anything is written: one layout call each (on
Google a spreadsheets.get and a spreadsheets.batchUpdate, which also grows the tab's grid), then the
resolution's one write per spreadsheet fills the new rows. Tables never shrink, so this happens only
at the rare resolution that needs more rows than any before it.

The layout call leaves the tables' titles and headers to the resolution's write, which moves them
with the rows, so that a resolution cut between the two leaves every table where its title says: the
next poll reads the tab as it was (``InputTab.sizes_in`` finds each table by its title) and grows it
again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sheets_gm.rulesets.registry import AnyRuleset
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import TabLayout, WorkbookLayout, cells
from sheets_gm.sheets.spec import SEAT_ROWS
from sheets_gm.sync.life.create import apply_layouts, match_layouts
from sheets_gm.sync.match_tabs import GROWTH_SPARE_ROWS, MatchTabs
from sheets_gm.sync.read import MatchRead
from sheets_gm.sync.sheets import MatchSheets, seat_backend
from sheets_gm.sync.writes import table_grid


@dataclass(frozen=True)
class LayoutOwners:
    """What ``init`` gave the layout beyond the match itself, needed to lay a tab out again as it was: the
    editors of each seat's typed cells (``JUDGE``: the judge's), each member's own rows, the spreadsheets'
    title ('' leaves it as it is)."""

    emails: Mapping[str, Sequence[str]] = field(default_factory=dict)
    member_emails: Mapping[str, Sequence[str]] = field(default_factory=dict)
    title: str = ""


#: Where the poll gets the owners when a table must grow (the config and roster; read only then).
OwnersSource = Callable[[], LayoutOwners]


def grow_tables(sheets: MatchSheets, tabs: MatchTabs, ruleset: AnyRuleset, adapter: AnySheetAdapter, state: Any,
                owners: OwnersSource | None) -> MatchTabs:
    """``tabs`` fitted to ``state``. When a table grows, every spreadsheet holding a tab that grows is laid out
    again first (with ``owners``' editors and title; none: the spreadsheet's editors keep the typed cells)."""
    fitted = tabs.fitted(adapter, state, spare=GROWTH_SPARE_ROWS)
    grown = fitted.grown(tabs)
    if not grown:
        return tabs
    found = owners() if owners is not None else LayoutOwners()
    backends = [seat_backend(sheets, fitted, seat) for seat in grown]
    moved = {page.name for seat in grown for page in fitted.orders(seat).sheets()}
    layouts = [(backend, _titles_left_to_the_write(tab) if tab.name in moved else tab)
               for backend, tab in match_layouts(sheets, fitted, ruleset, adapter, state, found.emails,
                                                 found.member_emails)
               if any(backend is b for b in backends)]
    apply_layouts(sheets, layouts, found.title)
    return fitted


def _titles_left_to_the_write(tab: TabLayout) -> TabLayout:
    """A grown input tab's layout without its tables' titles and headers, which the resolution's write puts where
    they move, with the rows (``seat_tables_writes``; see the module notes)."""
    return replace(tab, values={cell: grid for cell, grid in tab.values.items() if cell == "A1"})


#: The most rows a table grown for the lines typed into it (``grow_for_lines``) may reach: a Coalition side's Forum
#: tab of 288 armies holds 596 at first; a war's mail, a heading and some lines a mail, needs some hundreds more.
LINES_TABLE_MAX_ROWS = 20_000


class TableFullError(ValueError):
    """A table that cannot grow for the lines to type into it (``LINES_TABLE_MAX_ROWS``)."""


def grow_for_lines(sheets: MatchSheets, read: MatchRead, seat: str, table: str, need: int, owners: LayoutOwners,
                   spare: int = 0) -> MatchTabs:
    """``read``'s tabs with ``seat``'s ``table`` (the one table of a further tab of hers: a Coalition side's Forum
    tab, into which the judge's mailbox types mail) grown to ``need`` rows and ``spare`` more (as many as
    ``LINES_TABLE_MAX_ROWS`` allows): that tab alone laid out again (with ``owners``' editors) and its new rows drawn
    as a resolution draws them, in one layout call; the rows above, and what is typed in them, stay as they are. A
    table never shrinks; TableFullError when ``need`` is past ``LINES_TABLE_MAX_ROWS``."""
    if need > LINES_TABLE_MAX_ROWS:
        raise TableFullError(f"the {table} table of {seat} would need {need:,} rows, and a table grows to "
                             f"{LINES_TABLE_MAX_ROWS:,} at most")
    rows = min(need + spare, LINES_TABLE_MAX_ROWS)
    tabs = read.tabs
    before = tabs.orders(seat).table(table)
    if rows <= before.rows:
        return tabs
    sizes = {s: {t.spec.name: t.rows for t in tabs.orders(s).tables if t.spec.rows != SEAT_ROWS}
             for s in tabs.input_seats()}
    sizes[seat][table] = rows
    grown = tabs.with_sizes(sizes)
    placed = grown.orders(seat).table(table)
    record, state = read.record, read.record.state
    layouts = tuple(tab for _b, tab in match_layouts(sheets, grown, record.ruleset, read.adapter, state, owners.emails,
                                                    owners.member_emails) if tab.name == placed.tab)
    drawn = table_grid(read.adapter, state, record.ruleset.window(state), seat, placed, record.dice(state), "")
    new = placed.at(cells(0, placed.first_row + before.rows, placed.width - 1, placed.last_row))
    seat_backend(sheets, grown, seat).apply_layout(WorkbookLayout(owners.title, layouts, partial=True),
                                                   [RangeWrite(new, drawn[before.rows:])])
    return grown
