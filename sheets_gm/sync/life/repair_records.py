"""The drawn records ``repair`` brings back: the public Log and each View tab's log (the GM tab's too).

A layout laid out again over a deleted or renamed tab is empty, while the engine record still counts its lines
(``log_rows``, ``seat_logs``). Each log whose counted lines are not all there is written back: copied from a
tab of the same spreadsheet that no layout names and holds that log's header (the tab renamed by hand: it is a
copy, so the note says it may go; the lines logged after it was renamed, which it lacks, recomputed), else
recomputed from the match's replay (every line a resolution or a GM event
logged; an undo's own lines, and those of a window it took back, are not in the replay: a View's public ones
are taken from the Log, ``view_from_log``, and the note counts those it cannot put back). The engine record is
not rewritten: the lines go where it counts them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from sheets_gm.engine.events import visible_to
from sheets_gm.engine.grid import column_label
from sheets_gm.engine.ruleset import GM
from sheets_gm.engine.words import counted
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import CellValue, Grid, a1, cells, quote_tab
from sheets_gm.sheets.spec import VIEW_COLS
from sheets_gm.sheets.tables import text_of
from sheets_gm.sync.life.log_check import ReplayedSteps, replay_steps
from sheets_gm.sync.life.replay import match_history, replay_document
from sheets_gm.sync.life.undone_views import taken_back_rows
from sheets_gm.sync.life.view_from_log import NO_SEAT_KINDS, log_only_lines, with_log_lines
from sheets_gm.sync.life.view_rows import Step, placed_view
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.match_tabs import (
    ARCHIVE_FIRST_LINE_ROW,
    ARCHIVE_LINES,
    ARCHIVE_TEXT_COLS,
    LOG_FIRST_ROW,
    MatchTabs,
)
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend
from sheets_gm.sync.writes import log_lines, seat_names, view_events, view_log_lines


def _recomputed(lines: int) -> str:
    """``the 3 lines the replay recomputes were``, or the one line's ``was``."""
    return ("the line the replay recomputes was" if lines == 1 else
            f"the {lines} lines the replay recomputes were")


def _filled(grid: Grid) -> int:
    """How many rows of ``grid`` hold anything."""
    return sum(1 for row in grid if any(text_of(v) for v in row if v is not False))


def _padded(grid: Grid, rows: int, width: int) -> Grid:
    """``grid`` as ``rows`` rows of ``width`` cells, empty where it has none."""
    out: Grid = []
    for i in range(rows):
        line: list[CellValue] = list(grid[i][:width]) if i < len(grid) else []
        out.append([*("" if v is None else v for v in line), *[""] * (width - len(line))])
    return out


class _Replay:
    """The match's replay, worked out once and only if a log needs it."""

    def __init__(self, sheets: MatchSheets, record: MatchRecord, tabs: MatchTabs) -> None:
        self._args = (sheets, record, tabs)
        self._found: ReplayedSteps | None = None
        self.entries: list[dict[str, Any]] = []  # the history entries replayed
        self.gm_counts: list[int] = []  # how many GM events each entry's resolution follows
        self.copied: dict[str, int] = {}  # by seat, the View lines taken from the Log (``_replayed_view``)
        self.missing: dict[str, int] = {}  # by seat, the View rows left empty among those recomputed

    def steps(self) -> ReplayedSteps:
        if self._found is None:
            sheets, record, tabs = self._args
            self.entries = match_history(sheets, record, tabs.spec.tabs.engine)
            doc = replay_document(record, self.entries)
            self.gm_counts = [len(r.get("gm_events") or []) for r in doc["resolutions"]]
            self._found = replay_steps(doc)
        return self._found

    def pendings(self) -> list[dict[str, Any] | None]:
        """The GM events each history entry replayed followed, and the record's since (``steps`` first)."""
        return [*(e.get("gm_events") for e in self.entries), self._args[1].gm_events]


def _copy_from(backend: SheetBackend, others: Sequence[str], header_cell: str, header: str, first: int,
               count: int, width: int, filled: int) -> tuple[str, Grid] | None:
    """A tab among ``others`` whose ``header_cell`` says ``header`` and that holds more of the log's ``count`` lines
    (from row ``first``) than the ``filled`` ones left: its name and those rows."""
    best: tuple[str, Grid] | None = None
    for name in others:
        (head,) = backend.read([a1(name, header_cell)])
        if not head or not head[0] or text_of(head[0][0]) != header:
            continue
        (grid,) = backend.read([a1(name, cells(0, first, width - 1, first + count - 1))])
        if _filled(grid) > (filled if best is None else _filled(best[1])):
            best = (name, grid)
    return best


class _Lines:
    """A log's lines as the replay recomputes them, worked out only if asked."""

    def __init__(self, make: Callable[[], Grid]) -> None:
        self._make = make
        self._lines: Grid | None = None

    def get(self) -> Grid:
        if self._lines is None:
            self._lines = self._make()
        return self._lines


def _completed(rows: Grid, own: Grid, replayed: _Lines, count: int, width: int) -> tuple[Grid, str]:
    """A log's ``count`` lines copied back from a renamed copy's ``rows``, and what the note adds of the lines the
    copy does not hold ('' when it holds them all). A copy renamed before later lines were logged (in the tab laid
    out in its place, since lost) lacks them: a line the copy has not is the tab's ``own`` where it still holds it,
    else the replay's line of that place when the replay agrees with every line kept (no undo's line between them,
    which the replay has not)."""
    copy, kept = _padded(rows, count, width), _padded(own, count, width)
    whole = [line if _filled([line]) else kept[i] for i, line in enumerate(copy)]
    before = _filled(whole)
    if before == count:
        return whole, ""
    lines = _padded(replayed.get(), count, width)
    agree = all(list(map(text_of, line)) == list(map(text_of, lines[i]))
                for i, line in enumerate(whole) if _filled([line]))
    if agree:
        whole = [line if _filled([line]) else lines[i] for i, line in enumerate(whole)]
    new, gaps = _filled(whole) - before, count - _filled(whole)
    said = [f"{new} line{'s' * (new != 1)} it does not hold recomputed from the replay"] * (new > 0)
    said += [f"{gaps} line{'s' * (gaps != 1)} it does not hold that cannot be recomputed (such as an undo's) left "
             "empty"] * (gaps > 0)
    return whole, f" ({' and '.join(said)})"


def restore_logs(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, adapter: AnySheetAdapter,
                 batch: WriteBatch, laid_out: set[str], absent: set[str]) -> tuple[list[str], set[str]]:
    """Queue the lines of every log the record counts and the tabs no longer hold, and each archive laid out again
    (``absent``: the tabs the layouts created) copied back from a renamed copy; the report's notes, and the renamed
    tabs copied from (``laid_out``: every tab a layout names)."""
    notes, copied = _restore_archives(sheets, tabs, batch, laid_out, absent)
    replay = _Replay(sheets, record, tabs)
    board = sheets.board
    log_tab = tabs.spec.tabs.log
    header = tabs.spec.headers.log
    public = _Lines(lambda: [*log_lines(visible_to(replay.steps().opening, None)),
                             *log_lines(visible_to(replay.steps().events, None), adapter)])
    log: Grid = []  # the Log as repair leaves it: where a View's public lines the replay has not are found
    if record.log_rows:
        (grid,) = board.read([tabs.log_range(0, record.log_rows)])
        log = grid
        filled = _filled(grid)
        if filled < record.log_rows:
            others = [n for n in board.tab_names() if n not in laid_out]
            found = _copy_from(board, others, "A1", header[0], LOG_FIRST_ROW, record.log_rows, 3, filled)
            if found is not None:
                name, rows = found
                copied.add(name)
                whole, more = _completed(rows, grid, public, record.log_rows, 3)
                log = whole
                batch.put(board, tabs.log_range(0, record.log_rows), whole)
                notes.append(f"tab {log_tab!r} had {filled} of the match's {record.log_rows} Log lines: they were "
                             f"copied back from tab {name!r} (a renamed copy), which may go once you have checked "
                             f"{log_tab!r}" + more)
            else:
                lines = public.get()
                log = _padded(lines, record.log_rows, 3)
                batch.put(board, tabs.log_range(0, record.log_rows), log)
                missing = max(record.log_rows - len(lines), 0)
                notes.append(f"tab {log_tab!r} had {filled} of the match's {counted(record.log_rows, 'Log line')} "
                             f"and no copy was found: {_recomputed(min(len(lines), record.log_rows))} written back"
                             + (f" ({counted(missing, 'line')} of undos and of windows they took back cannot be "
                                "recomputed)" if missing else ""))
    for seat in tabs.view_seats():
        count = record.seat_logs.get(seat, 0)
        if not count:
            continue
        backend = sheets.engine if seat == GM else seat_backend(sheets, tabs, seat)
        where = tabs.view_log_range(seat, 0, count, VIEW_COLS)
        (grid,) = backend.read([where])
        filled = _filled(grid)
        if filled >= count:
            continue
        view = tabs.view(seat)
        others = [n for n in backend.tab_names() if n not in laid_out]
        found = _copy_from(backend, others, "A1", tabs.view_title(seat), tabs.view_log_header_row + 1, count,
                           VIEW_COLS, filled)
        replayed = _Lines(partial(_replayed_view, replay, adapter, tabs, seat, log, public, count))
        if found is not None:
            name, rows = found
            copied.add(name)
            whole, more = _completed(rows, grid, replayed, count, VIEW_COLS)
            batch.put(backend, where, whole)
            notes.append(f"tab {view!r} had {filled} of its {counted(count, 'log line')}: they were copied back from "
                         f"tab {name!r} (a renamed copy), which may go once you have checked {view!r}" + more)
            continue
        lines = replayed.get()
        batch.put(backend, where, _padded(lines, count, VIEW_COLS))
        # laid out row for row (``placed_view``), or from the top with the lines the replay lacks at the end
        written = min(len(lines), count)
        missing = replay.missing.get(seat, count - written)
        notes.append(_view_note(view, filled, count, count - missing, replay.copied.get(seat, 0), missing))
    return notes, copied


def _restore_archives(sheets: MatchSheets, tabs: MatchTabs, batch: WriteBatch, laid_out: set[str],
                      absent: set[str]) -> tuple[list[str], set[str]]:
    """Each seat's archive that was laid out again (deleted or renamed): its sentences copied back from a renamed tab
    holding the archive's headers (the copies are in the hidden Copies tab and the engine's history, untouched);
    else a note saying what is gone."""
    notes: list[str] = []
    copied: set[str] = set()
    header = tabs.spec.headers.archive
    for seat in tabs.input_seats():
        archive = tabs.archive(seat)
        if archive not in absent:
            continue
        backend = seat_backend(sheets, tabs, seat)
        found = None
        for name in [n for n in backend.tab_names() if n not in laid_out]:
            (head,) = backend.read([a1(name, "A1:B1")])
            if head and [text_of(v) for v in head[0][:2]] == list(header[:2]):
                (grid,) = backend.read([quote_tab(name)])
                found = (name, grid)
                break
        if found is None:
            notes.append(f"tab {archive!r} was missing in {backend.name} and no copy was found: it is laid out again "
                         "empty (what became of the rows typed before is no longer listed there; undo still puts back "
                         "the rows of the windows resolved before, from the engine's history)")
            continue
        name, grid = found
        copied.add(name)
        body = grid[ARCHIVE_FIRST_LINE_ROW - 1:ARCHIVE_FIRST_LINE_ROW - 1 + ARCHIVE_LINES]  # under the header row
        if body:
            batch.put(backend, a1(archive, cells(0, ARCHIVE_FIRST_LINE_ROW, ARCHIVE_TEXT_COLS - 1,
                                                 ARCHIVE_FIRST_LINE_ROW + len(body) - 1)),
                      _padded(body, len(body), ARCHIVE_TEXT_COLS))
        # Cells right of the sentences (an earlier layout's copies of the rows) are not copied: the tab keeps them.
        beyond = any(text_of(v) for line in grid for v in line[ARCHIVE_TEXT_COLS:])
        after = ("which holds more than its sentences (cells right of column B): keep it until you have moved what "
                 "you need") if beyond else f"which may go once you have checked {archive!r}"
        notes.append(f"tab {archive!r} was missing in {backend.name}: its lines were copied "
                     f"back from tab {name!r} (a renamed copy), {after}")
    return notes, copied


def _replayed_view(replay: _Replay, adapter: AnySheetAdapter, tabs: MatchTabs, seat: str, log: Grid,
                   public: _Lines, count: int) -> Grid:
    """The lines of ``seat``'s View log as the match's replay recomputes them, with the public lines it cannot
    recompute (a seat handed to a bot, a window an undo took back) taken from the ``log`` where they name the seat
    (``view_from_log``), unless that would make more lines than the View's ``count``."""
    steps = replay.steps()
    lines = _view_lines(steps, adapter, tabs, seat)
    if seat == GM or len(lines) >= count:
        return lines
    states = [steps.first, *(s for before, after, _ in steps.steps for s in (before, after))]
    names = seat_names(adapter, tabs, seat, states)
    taken_back = taken_back_rows(replay.pendings(), seat)
    placed = placed_view(steps, replay.gm_counts, replay.entries, adapter,
                         partial(_steps_view, adapter, tabs, seat), log, seat, names, count, taken_back)
    if placed is not None:  # each line in the row it held: the rows of lines shown to this seat alone left empty
        replay.copied[seat], replay.missing[seat] = placed.copied, placed.missing
        return [[""] * VIEW_COLS if r is None else r for r in placed.rows]
    extra = log_only_lines(log, public.get(), names, NO_SEAT_KINDS, taken_back)
    if not extra or len(lines) + len(extra) > count:
        return lines
    replay.copied[seat] = len(extra)
    return with_log_lines(lines, log, extra)


def _view_note(view: str, filled: int, count: int, written: int, copied: int, missing: int) -> str:
    """What ``repair`` says of a View log written back with no copy found: how many lines were recomputed, how
    many copied from the Log, and how many (``missing``) could be neither (lines only that seat was shown)."""
    said = f"{_recomputed(written - copied)} written back"
    if copied:
        said += (f", and {counted(copied, 'public line')} the replay cannot recompute (a seat handed to a bot, a "
                 f"window an undo took back) copied from tab 'Log'")
    if missing:
        said += (f" ({counted(missing, 'line')} neither recomputed nor found in the Log, such as those the sync "
                 "wrote to this seat alone (a window's private lines, the rows an undo or the GM's change set aside): "
                 "their rows are left empty)")
    return f"tab {view!r} had {filled} of its {counted(count, 'log line')} and no copy was found: {said}"


def renamed_copies(sheets: MatchSheets, tabs: MatchTabs, laid_out: set[str],
                   absent: set[str]) -> dict[str, tuple[str, Grid]]:
    """Each seat's Copies tab laid out again (``absent``) whose renamed copy is still in its spreadsheet, found by its
    headers among the tabs no layout names (``laid_out``): by seat, that tab's name and grid. A poll stops while the
    tab is missing, so the copy holds what the sync wrote there last."""
    found: dict[str, tuple[str, Grid]] = {}
    header = list(tabs.spec.headers.copies)
    for seat in tabs.input_seats():
        if tabs.copies(seat) not in absent:
            continue
        backend = seat_backend(sheets, tabs, seat)
        for name in [n for n in backend.tab_names() if n not in laid_out]:
            (head,) = backend.read([a1(name, cells(0, 1, len(header) - 1, 1))])
            if head and [text_of(v) for v in head[0][:len(header)]] == header:
                # the whole tab, however many rows it has (a range past its last row is refused by Google)
                (grid,) = backend.read([a1(name, f"A1:{column_label(len(header) - 1)}")])
                found[seat] = (name, grid)
                break
    return found


def _steps_view(adapter: AnySheetAdapter, tabs: MatchTabs, seat: str, steps: Sequence[Step]) -> Grid:
    """The log rows of ``seat``'s View tab the replay ``steps`` wrote, as the sync wrote them (``views_writes``)."""
    rows: Grid = []
    for before, after, events in steps:
        mine = view_events(adapter, tabs, seat, events, after, before)
        if mine:
            rows += view_log_lines(mine, adapter)
    return rows


def _view_lines(steps: ReplayedSteps, adapter: AnySheetAdapter, tabs: MatchTabs, seat: str) -> Grid:
    """The log rows of ``seat``'s View tab as the sync wrote them step by step (``views_writes``): the GM's starts
    with the set-up's draws."""
    rows: Grid = [list(r) for r in log_lines(steps.opening)] if seat == GM else []
    return rows + _steps_view(adapter, tabs, seat, steps.steps)


def placed_view_rows(sheets: MatchSheets, record: MatchRecord, tabs: MatchTabs, adapter: AnySheetAdapter,
                     seat: str) -> list[list[CellValue] | None] | None:
    """``seat``'s View log rows as the record counts them, each in the row it held (``placed_view``), None for a
    line the replay cannot recompute nor the Log give back; None when the history cannot place them."""
    count = record.seat_logs.get(seat, 0)
    if seat == GM or count < 1:
        return None
    replay = _Replay(sheets, record, tabs)
    steps = replay.steps()
    (log,) = sheets.board.read([tabs.log_range(0, record.log_rows)]) if record.log_rows else ([],)
    states = [steps.first, *(s for before, after, _ in steps.steps for s in (before, after))]
    placed = placed_view(steps, replay.gm_counts, replay.entries, adapter, partial(_steps_view, adapter, tabs, seat),
                         log, seat, seat_names(adapter, tabs, seat, states), count,
                         taken_back_rows(replay.pendings(), seat))
    return None if placed is None else placed.rows


def replayed_view_lines(sheets: MatchSheets, record: MatchRecord, tabs: MatchTabs, adapter: AnySheetAdapter,
                        seat: str) -> Grid:
    """The log rows of ``seat``'s View tab recomputed from the match's replay (the lines of an undo are not in it)."""
    return _view_lines(_Replay(sheets, record, tabs).steps(), adapter, tabs, seat)
