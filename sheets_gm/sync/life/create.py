"""Creating a match of any ruleset in its spreadsheets: every tab laid out, then the first window drawn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from sheets_gm.engine.dice import seed_hash
from sheets_gm.engine.ruleset import GM, JUDGE, Roster
from sheets_gm.engine.settings import settings_rows
from sheets_gm.rulesets.registry import AnyRuleset, sheet_spec
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import Fill, Grid, Protection, TabLayout, WorkbookLayout, a1, cells
from sheets_gm.sheets.spec import VIEW_COLS, SheetSpec
from sheets_gm.sheets.tables import InputTab
from sheets_gm.sync.bot_seats import checked_bots
from sheets_gm.sync.match_record import (
    ENGINE_COLS,
    HISTORY_FIRST_ROW,
    HISTORY_MARGIN,
    MatchRecord,
    engine_write,
    key_column,
)
from sheets_gm.sync.match_tabs import (
    ARCHIVE_FIRST_LINE_ROW,
    ARCHIVE_LINES,
    LOG_ROWS,
    SEAT_LOG_ROWS,
    MatchTabs,
)
from sheets_gm.sync.read import adapter_of, current_mark
from sheets_gm.sync.rows.pending_row import pending_writes
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend
from sheets_gm.sync.writes import drawn_tab, drawn_writes, log_lines, public_log_writes

#: The width in pixels of the Log's Kind column (and the View log's): its longest words ("structure destroyed")
#: whole, not run into the line beside them.
LOG_KIND_WIDTH = 150
#: The width in pixels of the Log's sentence column (and the View log's): with the turn and kind columns, a
#: landscape page at the font's own size; a longer sentence wraps in it.
LOG_SENTENCE_WIDTH = 700
#: The width in pixels of a View tab's columns right of its sentences where the game gives none: a spreadsheet's
#: default, sized all the same (a column styled to wrap took another default in a local workbook, 13 characters).
VIEW_STEP_WIDTH = 64
#: The width in pixels of a View tab's sentence column (its log's, beside the turn and kind): narrower than the Log's,
#: the panel's columns beside it, so that a seat's View prints on one landscape page at 8 pt or more (600 pixels
#: printed a Wesnoth View at 7.6 pt in Liberation Sans); a longer sentence wraps.
VIEW_SENTENCE_WIDTH = 520
#: The width in pixels of an Archive's line column: with the window's column, one landscape page at the font's own
#: size (1,000 pixels printed on two pages, the first holding the window's column alone, or one at 7.5 pt); a longer
#: line wraps in it.
ARCHIVE_LINE_PIXELS = 700


class SeatsMismatchError(ValueError):
    """The match config's seats are not the roster's."""


def _simple_tab(name: str, header: Sequence[str], rows: int, spec: SheetSpec, description: str,
                widths: Mapping[int, int] | None = None) -> TabLayout:
    return TabLayout(name=name, rows=rows, cols=len(header), frozen_rows=1, values={"A1": [list(header)]},
                     fills=(Fill(cells(0, 1, len(header) - 1, 1), spec.colours.header, bold=True),),
                     protections=(Protection(None, description),), column_widths=dict(widths or {}))


def _wrapping(tab: TabLayout, first_col: int, last_col: int, first_row: int = 2) -> TabLayout:
    """``tab`` with the text of its columns ``first_col`` to ``last_col`` (0-based) wrapped from ``first_row`` down:
    a long line grows its row rather than running on over the empty cells beside it, which LibreOffice prints too
    (a Log's 9,000-character dice line once widened the printed page fortyfold, its type shrunk to 1 pt)."""
    wraps = Fill(cells(first_col, first_row, last_col, tab.rows), "#FFFFFF", wrap=True)
    return replace(tab, fills=(*tab.fills, wraps))


def _turns_left(first_row: int, last_row: int) -> Fill:
    """A log's turn column (A) from ``first_row`` to ``last_row``, wrapped as the log is, its numbers at the left as
    the kind beside them is: right-aligned, a turn printed against its kind ("1 route")."""
    return Fill(cells(0, first_row, 0, last_row), "#FFFFFF", wrap=True, left=True)


def _log_tab(spec: SheetSpec) -> TabLayout:
    """The board's Log tab: a turn, a kind and a sentence a row, each wrapped, its turns at the left."""
    tab = _wrapping(_simple_tab(spec.tabs.log, spec.headers.log, LOG_ROWS, spec, "Written by sheets-gm",
                                {1: LOG_KIND_WIDTH, 2: LOG_SENTENCE_WIDTH}), 0, 2)
    return replace(tab, fills=(*tab.fills, _turns_left(2, tab.rows)))


def _settings_tab(spec: SheetSpec, settings: object) -> TabLayout:
    """The Settings tab: each of the first three columns as wide as its longest text (a setting's name, its value,
    its default: cut on screen and on paper before), at most 320 pixels, the description 600; every cell under the
    header wraps (the deadline schedule in words is the longest value)."""
    rows = settings_rows(settings)
    widths = {**{col: min(320, 16 + 7 * max(len(str(r[col])) for r in rows)) for col in range(3)}, 3: 600}
    tab = _simple_tab(spec.tabs.settings, spec.headers.settings, len(rows) + 1, spec,
                      "Settings of this match: fixed at init", widths)
    return _wrapping(tab, 0, 3)


def _archive_tab(tabs: MatchTabs, seat: str) -> TabLayout:
    """A seat's archive: sentences only, the window in A and what became of the rows in B."""
    tab = _simple_tab(tabs.archive(seat), tabs.spec.headers.archive, ARCHIVE_FIRST_LINE_ROW + ARCHIVE_LINES - 1,
                      tabs.spec, "What became of the orders typed here, written by sheets-gm: only the GM edits",
                      {0: 160, 1: ARCHIVE_LINE_PIXELS})
    return _wrapping(tab, 0, 1)


def _copies_tab(tabs: MatchTabs, seat: str) -> TabLayout:
    """The hidden tab beside a seat's archive: the sync's own copies of the rows each Archive line names (in the
    line's row) and the pending row. Only the seat's own typing: it lives in the seat's spreadsheet, so that the
    write clearing a row holds its copy."""
    return replace(_simple_tab(tabs.copies(seat), tabs.spec.headers.copies, ARCHIVE_FIRST_LINE_ROW + ARCHIVE_LINES - 1,
                               tabs.spec, "The sync's own copies: only sheets-gm writes here"), hidden=True)


def _view_tab(tabs: MatchTabs, seat: str) -> TabLayout:
    """``seat``'s View tab (the judge's, the GM's): its title, status, panel and log, in the widths the game gives
    that seat (``SheetSpec.view_columns``). Every column of its log wraps, each row as tall as its text, and so do
    the panel's columns from B on; the panel's names in A (a heading, an army) and the status line run on over the
    empty cells right of them, as on screen. Without a style of their own those cells took the log's wrap down
    their columns in LibreOffice at one line's height, their lines printed over each other's. Printed with its
    title on each page, its status once at the top."""
    spec = tabs.spec
    header = tabs.view_log_header_row
    last = header + SEAT_LOG_ROWS
    return TabLayout(
        name=tabs.view(seat), rows=last, cols=VIEW_COLS, frozen_rows=2, print_title_rows=1,
        spare_rows=(3, header - 1),  # the panel's rows it does not use neither shown nor printed blank
        values={"A1": [[tabs.view_title(seat)]],
                f"A{header}": [list(spec.headers.log)]},
        fills=(Fill(cells(0, 1, VIEW_COLS - 1, 1), spec.colours.header, bold=True),
               Fill(cells(0, 2, VIEW_COLS - 1, 2), "#FFFFFF"),  # the status line runs on to the right
               Fill(cells(0, 3, 0, header - 1), "#FFFFFF", top=True),
               # the panel's numbers at the left as its words are (a Coalition army's rank printed against its square)
               Fill(cells(1, 3, VIEW_COLS - 1, header - 1), "#FFFFFF", wrap=True, left=True),
               Fill(cells(0, header, 2, header), spec.colours.header, bold=True),
               # the log's sentences and the steps right of them wrap: a long one ran on over the panel's columns,
               # widening the printed page, or was cut by the next step
               Fill(cells(0, header + 1, VIEW_COLS - 1, last), "#FFFFFF", wrap=True),
               _turns_left(header + 1, last)),
        protections=(Protection(None, f"What {seat} sees: written by sheets-gm"),),
        column_widths={**dict.fromkeys(range(3, VIEW_COLS), VIEW_STEP_WIDTH), 0: 160, 1: LOG_KIND_WIDTH,
                       2: VIEW_SENTENCE_WIDTH,
                       **spec.view_columns(seat in (JUDGE, GM))})


def _spanning(layout: TabLayout, width: int, spec: SheetSpec) -> TabLayout:
    """An orders tab's ``layout`` at least ``width`` columns wide: a poll reads each orders tab as the game's file
    layout spans it before it knows the match's own (Wesnoth's batch resolution takes the Go column out), and
    Google refuses a read past a tab's edge. The spare columns are coloured and protected as a narrower table's
    are: no column of the match is there."""
    if layout.cols >= width:
        return layout
    spare = cells(layout.cols, 1, width - 1, layout.rows)
    return replace(layout, cols=width, fills=(*layout.fills, Fill(spare, spec.colours.engine)),
                   protections=(*layout.protections, Protection(spare, "No column here: nothing typed here is read")))


def match_layouts(sheets: MatchSheets, tabs: MatchTabs, ruleset: AnyRuleset, adapter: AnySheetAdapter,
                  state: object, emails: Mapping[str, Sequence[str]],
                  member_emails: Mapping[str, Sequence[str]] | None = None) -> list[tuple[SheetBackend, TabLayout]]:
    """Every tab of the match with the spreadsheet it belongs in. ``emails``: the editors of each seat's
    typed cells (a seat's members; ``JUDGE`` for the judge); none leaves them to the spreadsheet's editors.
    ``member_emails`` (by member name) protect each row of a ``member_rows`` table for its member alone."""
    spec = tabs.spec
    windows = ruleset.traits.max_windows
    out: list[tuple[SheetBackend, TabLayout]] = [
        *((sheets.board, drawn_tab(tabs, name, drawing)) for name, drawing in tabs.drawn(adapter.drawings(state))),
        (sheets.board, _log_tab(spec)),
        (sheets.board, _settings_tab(spec, ruleset.settings)),
    ]
    file_tabs = MatchTabs(sheet_spec(ruleset.traits.name), sheets.seats, ruleset.traits.judge)
    for seat in tabs.input_seats():
        backend = seat_backend(sheets, tabs, seat)
        tab = tabs.orders(seat)
        editors = member_row_editors(tab, adapter, state, seat, member_emails or {})
        view_list = tabs.view_list_range(seat) if seat in tabs.view_seats() else ""
        read_widths = {page.name: page.width for page in file_tabs.orders(seat).sheets()}
        out += [(backend, _spanning(page.layout(spec.colours, tuple(emails.get(seat, ())), editors, view_list),
                                    read_widths.get(page.name, 0), spec))
                for page in tab.sheets()]  # the orders tab, then the seat's further tabs (a Forum tab)
        out.append((backend, _archive_tab(tabs, seat)))
        out.append((backend, _view_tab(tabs, seat)))
        out.append((backend, _copies_tab(tabs, seat)))
    out.append((sheets.engine, _view_tab(tabs, GM)))
    out.append((sheets.engine, TabLayout(
        name=spec.tabs.engine, rows=HISTORY_FIRST_ROW + windows + HISTORY_MARGIN, cols=ENGINE_COLS, hidden=True,
        values={"A1": [[spec.headers.engine]], "A2": key_column()},
        fills=(Fill("A1:B1", spec.colours.engine, bold=True),),
        protections=(Protection(None, "The match's engine: only the GM (sheets-gm) edits"),))))
    return out


def member_row_editors(tab: InputTab, adapter: AnySheetAdapter, state: object, seat: str,
                       member_emails: Mapping[str, Sequence[str]]) -> dict[tuple[str, int], tuple[str, ...]]:
    """(table, 0-based row) -> the e-mails of the member the row belongs to, for ``member_rows`` tables."""
    out: dict[tuple[str, int], tuple[str, ...]] = {}
    for placed in tab.tables:
        if placed.spec.member_rows:
            for index, subject in enumerate(adapter.rows(state, seat, placed.spec)):
                if member_emails.get(subject):
                    out[(placed.spec.name, index)] = tuple(member_emails[subject])
    return out


def apply_layouts(sheets: MatchSheets, layouts: Sequence[tuple[SheetBackend, TabLayout]], title: str,
                  retired: Sequence[str] = (), drawn: WriteBatch | None = None) -> None:
    """One layout call per spreadsheet, in the write order; the ``retired`` tabs deleted from the board's.
    ``drawn``: the writes that fill the tabs laid out, made in each spreadsheet's layout call (a local workbook is
    saved once, laid out and drawn, not once for each)."""
    for backend in sheets.write_order():
        mine = tuple(t for b, t in layouts if b is backend)
        writes = [w for b, w in drawn.writes if b is backend] if drawn is not None else []
        if mine:
            gone = tuple(retired) if backend is sheets.board else ()
            backend.apply_layout(WorkbookLayout(title, mine, gone), writes)
        elif writes:
            backend.write(writes)


def create_match(sheets: MatchSheets, ruleset: AnyRuleset, roster: Roster, *, seed: bytes,
                        emails: Mapping[str, Sequence[str]] | None = None, deadline: str = "",
                        schedule_text: str = "", schedule: str = "", title: str = "",
                        member_emails: Mapping[str, Sequence[str]] | None = None,
                        bots: Mapping[str, str] | None = None) -> MatchRecord:
    """Lay out every spreadsheet of a new match and draw its first window; returns the engine record.

    The roster is checked by the ruleset before anything is written (ValueError naming the line);
    the config's seats must be the roster's, in its order (SeatsMismatchError). ``bots``: the seats (or
    members) one of the game's bots plays, by kind of bot (BotSeatError naming a name or kind that is none);
    a bot acting in the first window types its rows in the same write as the tables. ``schedule_text`` is the deadline
    schedule in words for the Settings tab, ``schedule`` as the record remembers it (``MatchRecord.schedule``)."""
    adapter = adapter_of(ruleset)
    state = ruleset.new_match(roster, seed)
    seats = ruleset.seats(state)
    if seats != sheets.seats:
        raise SeatsMismatchError(f"the match config names seats {', '.join(sheets.seats) or '(none)'} but the roster "
                                 f"makes {', '.join(seats)}: make [sheets] list one orders spreadsheet per seat, "
                                 "in the roster's order")
    tabs = MatchTabs(adapter.spec, seats, ruleset.traits.judge).fitted(adapter, state)  # a row for every army…
    record = MatchRecord(ruleset=ruleset, state=state, seed=seed, seed_hash=seed_hash(seed), seats=seats,
                         deadline=deadline, schedule=schedule,
                         bots=checked_bots(ruleset, adapter, tabs, state, bots or {}))
    batch = WriteBatch()
    drawn_writes(batch, sheets, tabs, record, adapter, record.dice())
    for seat in tabs.input_seats():  # drawn for resolution 0: a copy of the file older than a resolution shows
        pending_writes(batch, seat_backend(sheets, tabs, seat), tabs, seat,
                       ["", current_mark(0, 0, record.stamp()), None])
    opening = ruleset.opening_events(state, seed)  # the set-up's draws head the Log (who plays first, and why)
    record = replace(record, log_rows=public_log_writes(batch, sheets.board, tabs, 0, opening))
    opening_rows = log_lines(opening)
    if opening_rows:  # the GM tab's log starts with them too: the GM reads the whole match there
        batch.put(sheets.engine, tabs.view_log_range(GM, 0, len(opening_rows)), opening_rows)
        record = replace(record, seat_logs={GM: len(opening_rows)})
    rows: Grid = [list(r) for r in settings_rows(ruleset.settings, schedule_text)]
    batch.put(sheets.board, a1(adapter.spec.tabs.settings, f"A2:D{1 + len(rows)}"), rows)
    batch.put(sheets.engine, *engine_write(adapter.spec.tabs.engine, record))
    apply_layouts(sheets, match_layouts(sheets, tabs, ruleset, adapter, state, emails or {}, member_emails),
                  title or f"sheets-gm · {ruleset.traits.title}", drawn=batch)
    return record
