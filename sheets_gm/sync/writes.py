"""What the generic sync draws for a state: each seat's tables for the open window, the board,
the status lines, each seat's View tab, and the logs. Used by ``init`` and by every resolution."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event, kind_words, visible_to
from sheets_gm.engine.gm_events import BY_GM
from sheets_gm.engine.ruleset import GM, JUDGE, Window
from sheets_gm.sheets.adapter import (
    CONFIG_STAND_IN,
    LEGEND_PIXELS,
    AnySheetAdapter,
    BoardDrawing,
)
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import CellValue, Fill, Grid, Protection, TabLayout, a1, cells
from sheets_gm.sheets.printed_lines import lines_clear_of_titles
from sheets_gm.sheets.spec import VIEW_COLS, ColumnKind, InputTable
from sheets_gm.sheets.tables import InputTab, PlacedTable, TypedRow
from sheets_gm.sync.bot_seats import bots_phrase, with_bot_rows
from sheets_gm.sync.deadline import describe_deadline
from sheets_gm.sync.judge_part import judge_part_words
from sheets_gm.sync.match_record import FileStamp, MatchRecord
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.rows.archive_lines import one_line
from sheets_gm.sync.rows.fate_words import fitted_answer
from sheets_gm.sync.rows.fates import empty_row_answer, kept_feedback, table_ahead_refusals
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend


def acts(window: Window | None, seat: str, table: InputTable) -> bool:
    """Whether ``seat`` types into ``table`` in ``window``."""
    return window is not None and seat in window.seats and table.open_in(window.phase)



def table_grid(adapter: AnySheetAdapter, state: Any, window: Window | None, seat: str, placed: PlacedTable,
               dice: TurnDice, outcome_text: str, kept: Mapping[str, TypedRow] | None = None,
               notes: Mapping[str, str] | None = None) -> Grid:
    """A table's rows as ``state`` and ``window`` show them: subjects, stamps, shown values, idle feedback,
    and empty typed cells, except for rows in ``kept`` (typed for this very window: left as typed, their
    feedback the row's sentence in ``notes`` if it has one); an empty row's sentence in ``notes`` (a row carried
    out in part) stands for its idle feedback."""
    spec = placed.spec
    need = len(adapter.rows(state, seat, spec))
    if need > placed.rows:  # the caller fits the tabs to the state first (MatchTabs.fitted)
        raise ValueError(f"table {spec.name!r} of {seat} has {placed.rows} rows for {need}: lay the tab out "
                         "for the state first")
    subjects = adapter.laid_out_rows(state, seat, placed)
    stamp = spec.stamp(window, seat)
    reason = adapter.idle_reason(state, seat)
    # each kept row as drawn, its subject the row it stands in (an ordered table's rows move up)
    ahead = table_ahead_refusals(adapter, state, window, seat, spec,
                                 [replace(r, subject=s) for s, r in (kept or {}).items()])
    grid: Grid = []
    for subject in subjects:
        shown = adapter.shown(state, seat, spec, subject, dice) if spec.of_kind(ColumnKind.SHOWN) else {}
        keep = (kept or {}).get(subject)
        line: list[CellValue] = [""] * placed.width
        for col, c in placed.columns():
            if c.kind is ColumnKind.SUBJECT:
                line[col] = subject
            elif c.kind is ColumnKind.WINDOW:
                line[col] = stamp
            elif c.kind is ColumnKind.SHOWN:
                line[col] = shown.get(c.key, "")
            elif c.kind is ColumnKind.FEEDBACK:
                note = (notes or {}).get(subject, "")
                if keep is None:
                    line[col] = empty_row_answer(adapter, state, window, seat, spec, subject, note, outcome_text,
                                                 acts(window, seat, spec))
                else:
                    line[col] = kept_feedback(window, seat, spec, acts(window, seat, spec),
                                              note or ahead.get(subject, ""), reason)
                line[col] = fitted_answer(str(line[col]))
            elif keep is not None:
                line[col] = keep.values.get(c.key, "")
            else:
                line[col] = False if c.kind in (ColumnKind.TICK, ColumnKind.READY) else ""
        grid.append(line)
    blank: list[CellValue] = [""] * placed.width
    grid += [list(blank) for _ in range(placed.rows - len(subjects))]
    return grid


def seat_tables_writes(batch: WriteBatch, backend: SheetBackend, tab: InputTab, adapter: AnySheetAdapter,
                       state: Any, window: Window | None, seat: str, dice: TurnDice, status: str,
                       outcome_text: str, kept: Mapping[str, Mapping[str, TypedRow]] | None = None,
                       notes: Mapping[str, Mapping[str, str]] | None = None,
                       overlays: Mapping[str, Mapping[int, Mapping[int, CellValue]]] | None = None) -> None:
    """Rewrite a seat's input tab for ``state``: its status line and every table whole (``kept`` and ``notes``
    by table: see ``table_grid``; ``overlays``: cells by table, row index and tab column laid over the drawn
    rows, the stray rows kept as typed: see ``strays.stray_layout``)."""
    for page in tab.sheets():  # the orders tab and the seat's further tabs (a Forum tab) each have the line
        batch.put(backend, page.status_cell(), [[tab_status(status)]])
    for placed in tab.tables:  # its title and headers too: where a tab grown at this resolution moved them
        batch.put(backend, placed.at(placed.heading_range()), placed.heading_rows())
        grid = table_grid(adapter, state, window, seat, placed, dice, outcome_text,
                          (kept or {}).get(placed.spec.name), (notes or {}).get(placed.spec.name))
        for index, laid in (overlays or {}).get(placed.spec.name, {}).items():
            for col, value in laid.items():
                grid[index][col] = value
        batch.put(backend, placed.at(placed.rows_range()), grid)


def drawn_tab(tabs: MatchTabs, name: str, drawing: BoardDrawing) -> TabLayout:
    """A public tab: the adapter's drawing from A1; right of it the title, status line and legend. The gap column
    between them holds the board's stamp (``board_writes``) and is hidden: the stamp is no text a player reads, and
    a hidden column is neither shown nor printed (it printed beside the title). Printed as a table is: over as many
    pages across as keep its type at 8 pt (a GvG board shrunk to one page printed at 4 pt), the title at the top of
    each page where it prints over more than one across (it stands right of the map: on the last page only)."""
    spec = tabs.spec
    info = drawing.width + 1
    legend = drawing.legend_rows
    fills = [*drawing.fills, Fill(cells(info, 1, info, 2), spec.colours.header, bold=True, wrap=True)]
    values: dict[str, Grid] = {cells(info, 1, info, 1): [[spec.headers.board]]}
    if legend:
        values[cells(info, 4, info, 4)] = legend
    return TabLayout(name=name, rows=max(drawing.height, 4 + len(legend)), cols=info + 1,
                     values=values, fills=tuple(fills), conditional_fills=drawing.conditional_fills,
                     protections=(Protection(None, "Drawn by sheets-gm: only the GM edits"),),
                     column_widths={**drawing.column_widths, drawing.width: 20, info: LEGEND_PIXELS},
                     row_heights=dict(drawing.row_heights), hidden_columns=(drawing.width,),
                     print_headings=drawing.print_headings,
                     print_pages_wide=drawing.print_pages_wide, print_title_rows=drawing.print_title_rows,
                     print_title_cols=drawing.print_title_cols, print_fewest=drawing.print_fewest,
                     print_header=spec.headers.board)


def board_writes(batch: WriteBatch, board: SheetBackend, tabs: MatchTabs, adapter: AnySheetAdapter, state: Any,
                 status: str, deadline: str = "", stamp: FileStamp | None = None) -> Sequence[BoardDrawing]:
    """Every public tab the adapter draws as ``state`` shows it, each with the title, status line and legend
    (a legend may change with the state: who is out); an adapter that says when the open window closes is given
    its ``deadline`` (the record's). ``stamp``: the match and generation the board is drawn for (``sync.history``),
    kept in the board tab's row 1, in the narrow gap between the drawing and its title (no drawing of it, nothing a
    player reads). Returns the drawings written (nobody's view: the match page draws the same board)."""
    drawings = adapter.drawings_before(state, describe_deadline(deadline) if deadline else "")
    drawings_writes(batch, board, tabs, tabs.drawn(drawings), status, stamp)
    return drawings


def board_tab_writes(batch: WriteBatch, board: SheetBackend, tabs: MatchTabs, adapter: AnySheetAdapter, state: Any,
                     status: str, deadline: str = "") -> None:
    """What ``board_writes`` writes in the board tab (the stamp left out), and in the other drawn tabs the adapter
    draws with it at no cost (``SheetAdapter.board_tab_before``): what a poll compares with the board tab read."""
    drawings = adapter.board_tab_before(state, describe_deadline(deadline) if deadline else "")
    drawings_writes(batch, board, tabs, tabs.drawn(drawings), status)


def drawings_writes(batch: WriteBatch, board: SheetBackend, tabs: MatchTabs,
                    drawn: Sequence[tuple[str, BoardDrawing]], status: str, stamp: FileStamp | None = None) -> None:
    """The writes of each drawing in its tab (``MatchTabs.drawn``): see ``board_writes``."""
    for tab, drawing in drawn:
        width = drawing.width  # measured over every row: once, not per row
        values = lines_clear_of_titles([list(r) + [""] * (width - len(r)) for r in drawing.values],
                                       drawn_tab(tabs, tab, drawing))
        notes: Grid | None = None
        if drawing.notes is not None:  # every cell's: a note not drawn again (an army moved on) goes
            notes = [[drawing.notes.get((r, c), "") for c in range(width)] for r in range(len(values))]
        batch.put(board, tabs.board_values_range(tab, width, drawing.height), values, notes)
        info: Grid = [[tabs.spec.headers.board], [status]]
        if drawing.legend:  # where the layout put it: a row under the status line
            info += [[""], *drawing.legend_rows]
        batch.put(board, tabs.board_info_range(tab, drawing.width, len(info)), info)
        if stamp is not None and tab == tabs.spec.tabs.board:
            batch.put(board, a1(tab, cells(drawing.width, 1, drawing.width, 1)), [[stamp.cell()]])


#: The most characters of a sentence one Log or View row holds: a longer one (a war's dice line, 9,000 characters)
#: goes on in the rows under it, so that every printed row fits a page at 8 pt (a row taller than a page is cut).
LOG_ROW_CHARS = 1200
#: How a row that goes on with the sentence of the row above starts.
CONTINUED = "… "


def log_line(event: Event, adapter: AnySheetAdapter | None = None) -> list[CellValue]:
    """An event as one whole Log line: turn (as the adapter names it, if it does), kind in words, sentence."""
    return [adapter.turn_label(event.turn) if adapter is not None else event.turn, kind_words(event.kind),
            log_sentence(event.text)]


def log_lines(events: Iterable[Event], adapter: AnySheetAdapter | None = None) -> Grid:
    """Events as the Log's rows: each event's ``log_line``, a sentence longer than ``LOG_ROW_CHARS`` over several
    rows (``sentence_parts``), each with the event's turn and kind. A sentence that carries a player's text with
    line breaks in it (an Aim typed on two lines) is shown on one line, as the Archive shows it: a Log row is one
    row tall, and its lines would print over the next."""
    return [row for e in events for row in split_line(log_line(e, adapter))]


def split_line(line: list[CellValue]) -> Grid:
    """A whole Log line (turn, kind, sentence) as the rows that print it: its sentence's parts, each beside the
    line's turn and kind."""
    return [[*line[:2], part] for part in sentence_parts(str(line[2]))]


def sentence_parts(text: str) -> list[str]:
    """``text`` cut between words into parts of at most ``LOG_ROW_CHARS`` characters (a word longer than that
    stays whole), preferring a cut after a semicolon or comma; every part but the first starts with
    ``CONTINUED``. ``joined_sentence`` puts them back together.

    >>> sentence_parts("short")
    ['short']
    >>> [len(p) for p in sentence_parts("; ".join(["roll 6"] * 400))]
    [1199, 1201, 800]
    """
    parts: list[str] = []
    start = 0
    while len(text) - start > LOG_ROW_CHARS:
        cut = _cut(text, start)
        if cut is None:
            break
        parts.append(text[start:cut])
        start = cut + 1  # the one space the cut takes out: joined_sentence puts it back
    parts.append(text[start:])
    return [parts[0], *(CONTINUED + p for p in parts[1:])]


def _cut(text: str, start: int) -> int | None:
    """Where to cut ``text``'s part from ``start``: a lone space at most ``LOG_ROW_CHARS`` on, the last after a
    semicolon or comma in the part's second half if there is one, else the last; None when no space will do."""
    spaces = [i for i in range(start + 1, min(start + LOG_ROW_CHARS, len(text) - 1))
              if text[i] == " " and not text[i - 1].isspace() and not text[i + 1].isspace()]
    if not spaces:
        return None
    after_mark = [i for i in spaces if text[i - 1] in ";," and i - start > LOG_ROW_CHARS // 2]
    return (after_mark or spaces)[-1]


def joined_sentence(head: str, more: str) -> str:
    """A sentence's part ``head`` with the part ``more`` that goes on with it (it starts with ``CONTINUED``)."""
    return f"{head} {more.removeprefix(CONTINUED)}"


def log_sentence(text: str) -> str:
    """An event's sentence as a Log row shows it: on one line (``one_line``) when it has line breaks, else as is.

    >>> log_sentence("Ann-3 uses Fire Volley on G2\\nthen E5; the GM applies its effect.")
    'Ann-3 uses Fire Volley on G2 | then E5; the GM applies its effect.'
    """
    return one_line(text) if "\n" in text or "\r" in text else text


def view_log_lines(events: Iterable[Event], adapter: AnySheetAdapter | None = None) -> Grid:
    """Events as the rows of a View tab's log: ``log_lines``, but an entry the adapter lays out over several
    rows (a battle report) takes them, its first row beside the turn and kind; rows padded to one width."""
    rows: Grid = []
    for e in events:
        laid = adapter.log_entry_rows(e) if adapter is not None else None
        if not laid:
            rows += log_lines([e], adapter)
            continue
        rows.append([*log_line(e, adapter)[:2], *laid[0]])
        rows += [["", "", *row] for row in laid[1:]]
    width = min(VIEW_COLS, max((len(r) for r in rows), default=3))
    return [[*r[:width], *[""] * (width - len(r[:width]))] for r in rows]


def public_log_writes(batch: WriteBatch, board: SheetBackend, tabs: MatchTabs, first: int,
                      events: Sequence[Event], adapter: AnySheetAdapter | None = None) -> int:
    """The public events appended to the Log tab from line ``first``; returns how many."""
    rows = log_lines(visible_to(events, None), adapter)
    if rows:
        batch.put(board, tabs.log_range(first, len(rows)), rows)
    return len(rows)


def private_events(events: Sequence[Event], seat: str) -> list[Event]:
    """The events only some seats may read that ``seat`` may; the GM reads them all."""
    if seat == GM:
        return [e for e in events if e.audience is not None]
    return [e for e in visible_to(events, seat) if e.audience is not None]


def seat_names(adapter: AnySheetAdapter, tabs: MatchTabs, seat: str, states: Sequence[Any]) -> frozenset[str]:
    """The names that stand for ``seat`` in events: the seat's own and its rows' subjects (its units, players,
    armies, champions) in any of ``states`` (the state before a resolution too: a unit that fell is named)."""
    names = {seat}
    for state in states:
        for placed in tabs.orders(seat).tables:
            names.update(adapter.rows(state, seat, placed.spec))
    return frozenset(names)


def _names_any(value: Any, names: frozenset[str]) -> bool:
    """Whether an event's data value is, or holds, one of ``names``."""
    if isinstance(value, str):
        return value in names
    if isinstance(value, Mapping):
        return any(_names_any(v, names) for v in value.values())
    if isinstance(value, list | tuple | set | frozenset):
        return any(_names_any(v, names) for v in value)
    return False


def seat_events(events: Sequence[Event], seat: str, names: frozenset[str],
                concerns: Callable[[Event], bool] | None = None) -> list[Event]:
    """What ``seat``'s View log lists: what happened to it. The events only some seats may read that it may, the
    GM's events it may read (``BY_GM``: an adjustment, an undo, a seat handed to a bot, as the board's Log has them),
    and the public events whose data names it or one of ``names`` (a move of its unit, a hit on its champion) or that
    ``concerns`` says are the seat's (a battle it lost: the adapter's ``event_seats``); the GM's lists every private
    event (the public ones are all in the Log)."""
    if seat == GM:
        return private_events(events, seat)
    return [e for e in visible_to(events, seat) if e.audience is not None or e.data.get(BY_GM)
            or _names_any(e.data, names) or (concerns is not None and concerns(e))]


def view_events(adapter: AnySheetAdapter, tabs: MatchTabs, seat: str, events: Sequence[Event], state: Any,
                before: Any = None) -> list[Event]:
    """The events of ``events`` (which led from ``before`` to ``state``) that ``seat``'s View log lists: its
    ``seat_events``, by the seat's names and the adapter's word on whom an event concerns (``event_seats``).
    What a seat's notice of a resolution tells it is this very list."""
    states = [state] if before is None else [before, state]
    names = seat_names(adapter, tabs, seat, states) if seat != GM else frozenset()
    return seat_events(events, seat, names, lambda e: seat in adapter.event_seats(e, states))


def with_config_named(rows: Grid, config_name: str) -> Grid:
    """``rows`` with every ``-c`` ``CONFIG_STAND_IN`` of their text naming ``config_name``, the match's config.

    >>> with_config_named([["run sheets-gm adjust -c MATCH.toml --done 1", 3]], "friday.toml")
    [['run sheets-gm adjust -c friday.toml --done 1', 3]]
    """
    stand_in = f"-c {CONFIG_STAND_IN}"
    return [[v.replace(stand_in, f"-c {config_name}") if isinstance(v, str) else v for v in row] for row in rows]


def view_panel(rows: Grid, size: int, rest: str = "the orders tab and the logs have the rest") -> Grid:
    """A View tab's panel of ``rows``, as wide as the tab and ``size`` rows long: padded, or cut with a last row
    saying so and where the ``rest`` is (never cut without a word).

    >>> view_panel([["a"], ["b"], ["c"]], 2)[1][0]
    '… 2 more rows: the panel holds 2 rows; the orders tab and the logs have the rest'
    """
    if len(rows) > size:
        rows = [*rows[:size - 1], [f"… {len(rows) - size + 1} more rows: the panel holds {size} rows; {rest}"]]
    panel = [list(r[:VIEW_COLS]) + [""] * (VIEW_COLS - len(r[:VIEW_COLS])) for r in rows]
    return panel + [[""] * VIEW_COLS for _ in range(size - len(panel))]


def view_writes(batch: WriteBatch, backend: SheetBackend, tabs: MatchTabs, adapter: AnySheetAdapter, state: Any,
                seat: str, status: str, log_from: int, events: Sequence[Event], before: Any = None, *,
                config_name: str = CONFIG_STAND_IN) -> int:
    """A seat's View tab: title, status, its private panel (rewritten whole) and the lines of its log (what
    happened to it, ``seat_events``; ``before`` is the state the events started from); returns how many log
    rows were added (an entry the adapter lays out takes several). A command the panel suggests names the match's
    config, ``config_name``."""
    batch.put(backend, tabs.view_status_range(seat), [[tabs.view_title(seat)], [tab_status(status)]])
    batch.put(backend, tabs.view_panel_range(seat),
              view_panel(with_config_named(adapter.panel(state, seat), config_name), tabs.view_panel_rows))
    mine = view_events(adapter, tabs, seat, events, state, before)
    if not mine:
        return 0
    rows = view_log_lines(mine, adapter)
    batch.put(backend, tabs.view_log_range(seat, log_from, len(rows), len(rows[0])), rows)
    return len(rows)


def views_writes(batch: WriteBatch, sheets: MatchSheets, tabs: MatchTabs, adapter: AnySheetAdapter, state: Any,
                 status: str, seat_logs: Mapping[str, int], events: Sequence[Event], before: Any = None) -> dict[str,
                                                                                                              int]:
    """Every View tab (each seat's, the judge's, the GM's) for ``state``, ``events`` (which started from
    ``before``) added to the logs; returns each log's new length."""
    counts = dict(seat_logs)
    for seat in tabs.view_seats():
        backend = sheets.engine if seat == GM else seat_backend(sheets, tabs, seat)
        counts[seat] = counts.get(seat, 0) + view_writes(batch, backend, tabs, adapter, state, seat, status,
                                                         counts.get(seat, 0), events, before,
                                                         config_name=sheets.config_name)
    return counts


def drawn_writes(batch: WriteBatch, sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord,
                 adapter: AnySheetAdapter, dice: TurnDice) -> None:
    """Everything drawn for the record's state: each seat's (and the judge's) tables and View tab, the board."""
    ruleset = record.ruleset
    state = record.state
    window = ruleset.window(state)
    outcome = ruleset.outcome(state)
    status = status_line(adapter, record)
    outcome_text = outcome.text if outcome is not None else ""
    for seat in tabs.input_seats():
        typed, _ = with_bot_rows({}, {}, record, adapter, window, seat, tabs.orders(seat), [])  # a bot's rows
        seat_tables_writes(batch, seat_backend(sheets, tabs, seat), tabs.orders(seat), adapter, state, window, seat,
                           dice, status, outcome_text, typed)
    views_writes(batch, sheets, tabs, adapter, state, status, {}, [])
    board_writes(batch, sheets.board, tabs, adapter, state, status, record.deadline, record.stamp())


def closing_word(window: Window) -> str:
    """What a window's deadline closes: ``results`` for the judge's window, ``orders`` for every other."""
    return "results" if window.seats == (JUDGE,) else "orders"


#: The most characters a line of the status row of a seat's tabs holds: the narrowest tab it is written on (GvG's
#: View, 705 points at scale 1, what it prints at) holds 113 characters of the default font at their widest
#: average (6.2 points: digits, capitals and the dots between its parts). A longer status ran on past the tab's last
#: column, cut off in print (Win or Die's at deployment, Wesnoth's with four players).
STATUS_LINE_CHARS = 110
#: Where a status line may break, the strongest first: between seats, between parts, after a sentence, between words.
_STATUS_BREAKS = (re.compile(r"(?<= \|) "), re.compile(r"(?<= ·) "), re.compile(r"(?<=[.:;]) "), re.compile(" "))


def tab_status(line: str, most: int = STATUS_LINE_CHARS, level: int = 0) -> str:
    """The status ``line`` as a seat's tab shows it: broken into lines of at most ``most`` characters, between
    seats (after a ``|``) where that is enough, else between its parts (a ``·``), its sentences, its words: so it
    prints whole within the tab's columns (a line breaks in a cell that does not wrap, its row as tall as its lines).

    >>> tab_status("Turn 1: Bo's turn. Ann: morale 19 · fatigue 0/8 | Bo: morale 17 · fatigue 0/8", 40)
    "Turn 1: Bo's turn. Ann: morale 19 ·\\nfatigue 0/8 |\\nBo: morale 17 · fatigue 0/8"
    >>> tab_status("short")
    'short'
    """
    if len(line) <= most or level == len(_STATUS_BREAKS):
        return line
    lines: list[str] = []
    for part in _STATUS_BREAKS[level].split(line):
        if lines and len(lines[-1]) + 1 + len(part) <= most:
            lines[-1] += f" {part}"
        else:
            lines += tab_status(part, most, level + 1).split("\n")
    return "\n".join(lines)


def status_line(adapter: AnySheetAdapter, record: MatchRecord) -> str:
    """The adapter's status line for the record's state, with the open window's deadline if it has one."""
    state = record.state
    window = record.ruleset.window(state)
    deadline_text = record.deadline
    line = adapter.status(state, window, record.ruleset.outcome(state))
    if window is not None and deadline_text and window.sealed:  # the players' deadline, then the judge's
        line += f" · {judge_part_words(window, deadline_text)}"
    elif window is not None and deadline_text:
        line += f" · {closing_word(window)} close {describe_deadline(deadline_text)}"
    if bots := bots_phrase(record):
        line += f" · {bots}"
    return line
