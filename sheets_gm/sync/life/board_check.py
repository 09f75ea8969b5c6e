"""The public board checked whole: every edit of the board's spreadsheet the sync did not make (``verify -c``,
``doctor``).

What the sync made is derived from the engine's record, by the functions that make it, never from a list of its
own: the drawn tabs are what a resolution draws for the record's state (``board_writes``, the stamp's cell with
them), the Log its header and the record's ``log_rows`` lines in columns A to C, the Settings tab its header and
the rows ``create_match`` writes for the match's settings (``settings_rows``; the deadlines row as the record's
schedule says), and the tabs those of the match's layouts that the board's spreadsheet holds (``match_layouts``;
the engine's too, when the engine lives in the same file). Against that, ONE read of the spreadsheet as a reader
sees it (``sheets/looks.py``) names, each with its tab, cell and the mend:

- a tab the match does not lay out ("Announcement: blue surrenders"), and a public tab missing or hidden;
- a cell holding something outside what the sync draws: beside or under the Log's lines, outside a drawing, beside
  the Settings (a Log row below the match's lines is ``log_check``'s, which names it already);
- a Settings cell that is not the match's (the house rules the players read);
- a hidden row or column of a public tab (one the layout hides is the layout's);
- a cell the sync wrote that cannot be read: text the colour of its fill, a font under ``MIN_FONT_POINTS``, a
  number format that shows nothing (``;;;``); the effective format on Google, so a conditional format counts.

A value the sync draws that was typed over is ``drawn_cells.typed_over_words``'s, and a Log line's words
``log_check``'s: each edit is named once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sheets_gm.engine.grid import column_label
from sheets_gm.engine.settings import settings_rows
from sheets_gm.sheets.guard import written_cells
from sheets_gm.sheets.layout import CellValue, cell_at
from sheets_gm.sheets.local.layout import LISTS_TAB
from sheets_gm.sheets.looks import Look, TabSeen, hides, seen_tabs
from sheets_gm.sheets.tables import text_of
from sheets_gm.sync.life.create import match_layouts
from sheets_gm.sync.life.deadline_change import NO_SCHEDULE
from sheets_gm.sync.match_tabs import ABOUT_TAB, LOG_FIRST_ROW
from sheets_gm.sync.read import MatchRead
from sheets_gm.sync.sheets import MatchSheets, WriteBatch
from sheets_gm.sync.shown_cells import alike
from sheets_gm.sync.writes import board_writes, status_line

#: How to make a cell readable again, in Google Sheets and in LibreOffice.
_CLEAR_FORMAT = ("clear its formatting (Google Sheets: Format > Clear formatting; LibreOffice: Format > Clear Direct "
                 "Formatting), then `sheets-gm repair -c {config}` lays the tab's colours out again")


@dataclass
class OwnTab:
    """What the sync made of one public tab: the cells it writes (by 0-based row and column: the value it writes,
    or None where only the place is its own), the columns its layout hides, and whether its values are compared
    here (the Settings: no poll draws them again)."""

    name: str
    cells: dict[tuple[int, int], CellValue | None] = field(default_factory=dict)
    hidden_cols: frozenset[int] = frozenset()
    compared: bool = False
    below_log: int | None = None  # the Log: rows from here down in columns A to C are log_check's to name


@dataclass
class OwnBoard:
    """What the sync made of the board's spreadsheet: its public tabs (``OwnTab``) by folded name, and the names
    of every tab the match lays out there (another role's too, when it shares the file), folded."""

    public: dict[str, OwnTab]
    laid_out: frozenset[str]


def own_board(sheets: MatchSheets, read: MatchRead) -> OwnBoard:
    """What the sync made of the board's spreadsheet for the match ``read`` found (see the module)."""
    record, tabs, spec = read.record, read.tabs, read.tabs.spec
    layouts = [t for backend, t in match_layouts(sheets, tabs.fitted(read.adapter, record.state), record.ruleset,
                                                read.adapter, record.state, {}) if backend is sheets.board]
    laid_out = {t.name.casefold() for t in layouts} | {n.casefold() for n in spec.tabs.retired}
    laid_out |= {LISTS_TAB.casefold()}  # a local workbook's dropdown lists
    if sheets.engine is sheets.board:
        laid_out |= {ABOUT_TAB.casefold(), spec.tabs.roster.casefold()}
    drawing = WriteBatch()
    board_writes(drawing, sheets.board, tabs, read.adapter, record.state, status_line(read.adapter, record),
                 record.deadline, record.stamp())
    drawn: dict[str, OwnTab] = {}
    names = {t.name.casefold(): t.name for t in layouts}
    for (tab, r, c), _value in written_cells(w for _, w in drawing.writes).items():
        drawn.setdefault(tab, OwnTab(names.get(tab, tab))).cells[(r, c)] = None  # typed_over_words compares values
    # the rows under the Log's lines in columns A to C are log_check's to judge (a resolution cut short wrote its
    # lines there, or a line was typed there)
    log = OwnTab(spec.tabs.log, below_log=LOG_FIRST_ROW - 1 + record.log_rows)
    log.cells = {(0, c): None for c in range(len(spec.headers.log))}
    log.cells.update({(LOG_FIRST_ROW - 1 + i, c): None for i in range(record.log_rows) for c in range(3)})
    settings = OwnTab(spec.tabs.settings, compared=True)
    rows = [list(spec.headers.settings), *settings_rows(record.ruleset.settings, _schedule_words(record.schedule))]
    settings.cells = {(r, c): v for r, row in enumerate(rows) for c, v in enumerate(row)}
    if record.schedule in ("", NO_SCHEDULE):  # words not kept (an older record), or a match without deadlines
        settings.cells[(len(rows) - 1, 1)] = None
    public = {t.name.casefold(): t for t in (*drawn.values(), log, settings)}
    for layout in layouts:
        if layout.name.casefold() in public:
            public[layout.name.casefold()].hidden_cols = frozenset(layout.hidden_columns)
    return OwnBoard(public, frozenset(laid_out))


def _schedule_words(schedule: str) -> str:
    """The Settings tab's deadlines row as a record's schedule says it (``none`` for none)."""
    return "" if schedule in ("", NO_SCHEDULE) else schedule


def board_edits(sheets: MatchSheets, read: MatchRead, seen: Iterable[TabSeen] | None = None) -> list[str]:
    """A sentence per edit of the board's spreadsheet the sync did not make (see the module), each naming its tab
    and cell, what is wrong and how to mend it. ``seen``: the spreadsheet as read (one ``read_seen`` when not
    given)."""
    own = own_board(sheets, read)
    tabs = list(seen if seen is not None else seen_tabs(sheets.board))
    config = sheets.config_name
    by_name = {t.name.casefold(): t for t in tabs}
    out = [f"tab {t.name!r} of {sheets.board.name} is no tab of the match{_first_words(t)}: players read it as "
           "the match's; delete the tab (once you have kept what you need of it)" for t in tabs
           if t.name.casefold() not in own.laid_out]
    for key, mine in own.public.items():
        found = by_name.get(key)
        if found is None:
            out.append(f"{sheets.board.name} has no tab {mine.name!r}: `sheets-gm repair -c {config}` lays it out "
                       "again")
            continue
        out += _tab_edits(mine, found, config)
    return out


def _first_words(tab: TabSeen) -> str:
    """`` (cell A1 says 'blue surrenders')``: the first thing a tab holds, '' for an empty tab."""
    if not tab.cells:
        return ""
    (r, c), value = min(tab.cells.items())
    return f" (cell {cell_at(c, r + 1)} says {text_of(value)!r})"


def _tab_edits(mine: OwnTab, found: TabSeen, config: str) -> list[str]:
    """The edits of one public tab: hidden, its hidden rows and columns, cells outside the sync's, Settings not
    the match's, lines that cannot be read."""
    tab = f"tab {mine.name!r}"
    out = [f"{tab} is hidden: players do not see it; show it again (right-click the tab > Show, or View > "
           "Hidden sheets)"] if found.hidden else []
    out += [f"{tab} {what} hidden: unhide {'them' if ' to ' in what else 'it'} (select the rows or columns "
            "around, right-click > Unhide)"
            for what in _runs("row", sorted(found.hidden_rows), 1) + _runs("column", sorted(found.hidden_cols -
                                                                                            mine.hidden_cols), 0)]
    for (r, c), value in sorted(found.cells.items()):
        cell = f"{tab} cell {cell_at(c, r + 1)}"
        if (r, c) not in mine.cells:
            if mine.below_log is not None and r >= mine.below_log and c < 3:
                continue  # under the Log's lines: log_check's (a line typed there, a cut resolution's)
            out.append(f"{cell} says {text_of(value)!r}, {_outside(mine, r)}: no part of the match wrote it; "
                       "delete it")
            continue
        want = mine.cells[(r, c)]
        if mine.compared and want is not None and not alike(value, want):
            out.append(f"{cell} says {text_of(value)!r} but the match plays with {text_of(want)!r}: "
                       f"`sheets-gm repair -c {config}` writes the match's settings back")
        why = hides(found.looks.get((r, c)) or Look(), value)
        if why:
            out.append(f"{cell} ({text_of(value)!r}) cannot be read: {why}; " + _CLEAR_FORMAT.format(config=config))
    out += [f"{tab} cell {cell_at(c, r + 1)} is empty but the match plays with {text_of(v)!r}: "
            f"`sheets-gm repair -c {config}` writes the match's settings back"
            for (r, c), v in sorted(mine.cells.items()) if mine.compared and v not in (None, "")
            and (r, c) not in found.cells]
    return out


def _outside(mine: OwnTab, row: int) -> str:
    """Where a cell outside the sync's lies, in words: beside or under the Log's lines, or outside the drawing."""
    if mine.below_log is not None:
        lines = mine.below_log - (LOG_FIRST_ROW - 1)
        if row == 0:
            return "beside the Log's header"
        return f"beside the Log's line in row {row + 1}" if row - (LOG_FIRST_ROW - 1) < lines else \
            "under the Log's lines"
    rows = max(r for r, _ in mine.cells) + 1 if mine.cells else 0
    cols = max(c for _, c in mine.cells) + 1 if mine.cells else 0
    return f"outside what the sync draws there (A1:{cell_at(cols - 1, rows)})" if rows else "in a tab the sync " \
        "leaves empty"


def _runs(word: str, indexes: list[int], base: int) -> list[str]:
    """Consecutive ``indexes`` (0-based) as ``row 5 is`` / ``rows 5 to 7 are`` (``base`` 1: rows by number; 0:
    columns by letter).

    >>> _runs("row", [4, 5, 6, 9], 1), _runs("column", [1], 0)
    (['rows 5 to 7 are', 'row 10 is'], ['column B is'])
    """
    def name(n: int) -> str:
        return str(n + 1) if base else column_label(n)

    runs: list[list[int]] = []
    for i in indexes:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return [f"{word} {name(run[0])} is" if len(run) == 1 else f"{word}s {name(run[0])} to {name(run[-1])} are"
            for run in runs]
