"""One poll's reading of a match of any ruleset: one read per spreadsheet, the layout checked.

What is read: the engine tab's record, the board's title row, and for every seat (and the
judge) its whole input tab, the pending row of its hidden Copies tab and its Archive's header
row. Nothing is written here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sheets_gm.engine.ruleset import GM
from sheets_gm.rulesets.registry import AnyRuleset, sheet_of, sheet_spec
from sheets_gm.sheets.adapter import CONFIG_STAND_IN, AnySheetAdapter
from sheets_gm.sheets.backend import LayoutDriftError, SavedMeanwhileError, SheetError
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sheets.spec import InputTable, SheetSpec
from sheets_gm.sheets.tables import TypedRow, text_of
from sheets_gm.sync.history import HistoryError, check_history
from sheets_gm.sync.journal import (
    ChangeJournal,
    change_under_way,
    complete_change,
    completed_sentence,
    drop_journal,
    journal_under_way,
    load_change,
)
from sheets_gm.sync.match_record import (
    FileStamp,
    MatchRecord,
    compact_json,
    engine_read_range,
    joined_cells,
    logged_rows,
    packed_cell,
    parse_match_record,
)
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.old_layout import refuse_old_layout
from sheets_gm.sync.rows.pending_row import pending_block_range, pending_line, pending_writes
from sheets_gm.sync.rows.seat_read import SeatRead
from sheets_gm.sync.rows.strays import StrayRow, sort_rows
from sheets_gm.sync.sheets import MatchSheets, ReadBatch, WriteBatch, seat_backend
from sheets_gm.sync.swaps import SWAP_HINT, refuse_swapped

REPAIR_HINT = (f"put it back, or run sheets-gm repair -c {CONFIG_STAND_IN}, which rebuilds the layout and keeps "
               "the match and every typed order — nothing was written")


def adapter_of(ruleset: AnyRuleset) -> AnySheetAdapter:
    """The game's sheet adapter, or a SheetError saying its record names none."""
    try:
        return sheet_of(ruleset)
    except ValueError as exc:
        raise SheetError(str(exc)) from None


@dataclass(frozen=True)
class MatchRead:
    """Everything one poll read, parsed."""

    record: MatchRecord
    tabs: MatchTabs
    adapter: AnySheetAdapter
    seats: Mapping[str, SeatRead]
    # seat -> each of its input tabs' range and cells, as read (its orders tab, then its further tabs)
    typed: Mapping[str, tuple[tuple[str, Grid], ...]] = field(default_factory=dict)
    board: tuple[str, Grid] | None = None  # the board tab's range and cells, as read (``sync/drawn_cells.py``)
    log_header_typed_over: bool = False  # the Log's header row typed over in place: the poll writes it again
    # each Log row below the match's last line that holds something: (its line index from 0, its first 3 cells)
    log_typed_below: tuple[tuple[int, tuple[CellValue, ...]], ...] = ()
    completed: str = ""  # a change cut short that this read completed first, for the GM ('' when none was)
    replayed: MatchRecord | None = None  # the engine before the cut resolution this read completed from its journal
    # this read as the record's own settings draw it, where the config's live settings differ (``poll``'s
    # ``with_live_settings``): a board drawn as it was is redrawn with them, never typed over by hand
    drawn_before: MatchRead | None = None

    @property
    def cut_under_way(self) -> bool:
        """Whether a resolution cut short before its commit is under way (a seat's pending row names it): its lines
        may already stand in the Log below the match's count, and the next poll completes it."""
        return any(s.pending is not None for s in self.seats.values())

    def guard(self, batch: WriteBatch, sheets: MatchSheets) -> None:
        """Guard ``batch``'s writes to every seat's input tab by what this read found there: a cell a player saves
        after this read is never written over (``sheets/guard.py``)."""
        for seat, ranges in self.typed.items():
            for a1_range, grid in ranges:
                batch.guard(seat_backend(sheets, self.tabs, seat), a1_range, grid)


def _refuse_if_old(sheets: MatchSheets, ruleset_class: type[AnyRuleset], engine_range: str) -> bool:
    """OldLayoutError when a read that failed was of a match on the old layout (whose tabs are not where the
    new layout reads: Google refuses a range past a tab's edge); SheetError saying so when the engine holds no
    match yet (``_no_match_yet``); else whether the engine tab holds a match (False when that cannot be told)."""
    try:
        (grid,) = sheets.engine.read([engine_range])
    except SheetError:
        grid = None
    if grid is not None:
        refuse_old_layout(ruleset_class, grid)
    spec = sheet_spec(ruleset_class.traits.name)
    never = _no_match_yet(sheets, spec.tabs.engine, spec.tabs.roster, ruleset_class.traits.name, grid)
    if never:
        raise SheetError(never)
    return bool(grid and grid[0] and text_of(grid[0][0]) == spec.headers.engine)


def _no_match_yet(sheets: MatchSheets, engine_tab: str, roster_tab: str, ruleset: str, grid: Grid | None) -> str:
    """What to say when the engine spreadsheet holds no match at all (no engine tab, or an empty one): ``init``
    never created it (it stops before, a roster missing), so the command that creates it; '' otherwise (the
    engine read failed for another reason, or holds something)."""
    if grid:
        return ""
    try:
        names = sheets.engine.tab_names()
    except SheetError:
        return ""
    where = sheets.engine.name
    if engine_tab in names and grid is None:
        return ""  # the tab is there but could not be read: not a match never created
    if engine_tab not in names:
        moved = _engine_elsewhere(sheets, engine_tab)
        if moved:
            return (f"{where} has no engine tab {engine_tab!r}, and {moved} has one: the config names {where} as the "
                    f"engine but the match's engine is still in {moved}. Run sheets-gm repair -c "
                    f"{CONFIG_STAND_IN}, which moves it there (or point engine under [sheets] back at {moved}) "
                    "— nothing was written")
    what = f"has no engine tab {engine_tab!r}" if engine_tab not in names else f"has an empty engine tab {engine_tab!r}"
    then = f"run sheets-gm init {ruleset} -c {CONFIG_STAND_IN}"
    if roster_tab in names:
        then = f"type the players in tab {roster_tab!r} of {where}, then {then}"
    return (f"no match was created yet: {where} {what} (init stops before creating the match when it has no "
            f"roster yet). To create it, {then}. If a match was created there and its engine tab was since "
            "renamed or deleted, restore that tab from a backup or an export — nothing was written")


def _engine_elsewhere(sheets: MatchSheets, engine_tab: str) -> str:
    """The name of another spreadsheet of the match that holds an engine tab (the engine before the config moved
    it: ``repair`` moves it), or ''."""
    for backend in sheets.write_order():
        if backend is sheets.engine:
            continue
        try:
            if engine_tab in backend.tab_names():
                return backend.name
        except SheetError:
            continue
    return ""


def read_match(sheets: MatchSheets, ruleset_class: type[AnyRuleset], *, complete: bool = True,
               replay: bool = False) -> MatchRead:
    """One batched read per spreadsheet; the layout and the engine record checked, and every file's history
    (``sync.history``). A change cut before its commit (a resolution too, with ``replay``) is completed first
    (``MatchRead.completed``; ``_change_to_complete``), unless ``complete`` is False (``doctor``, which writes
    nothing): then HistoryError says the next command completes it."""
    spec = sheet_spec(ruleset_class.traits.name)
    tabs = MatchTabs(spec, sheets.seats, ruleset_class.traits.judge)
    engine_range = engine_read_range(spec.tabs.engine)
    batch, log_from = _read_every_spreadsheet(sheets, ruleset_class, tabs, engine_range)
    record = _engine_record(sheets, ruleset_class, spec, batch.get(sheets.engine, engine_range))
    adapter = adapter_of(record.ruleset)
    board_grid = batch.get(sheets.board, tabs.board_tab_range())
    title_row = board_grid[:1]
    _check_board_title(spec, title_row)
    log_typed_over = _check_written_tabs(batch, sheets, tabs)
    seats: dict[str, SeatRead] = {}
    ranges = {seat: {page.name: page.read_range() for page in tabs.orders(seat).sheets()}
              for seat in tabs.input_seats()}
    grids = {seat: {name: batch.get(seat_backend(sheets, tabs, seat), a1_range) for name, a1_range in pages.items()}
             for seat, pages in ranges.items()}
    tabs = _tabs_as_grown(sheets, ruleset_class, adapter, record, grids)
    for seat in tabs.input_seats():
        backend = seat_backend(sheets, tabs, seat)
        tab = tabs.orders(seat)
        pending_row = pending_line(batch.get(backend, pending_block_range(tabs.copies(seat))))
        archived = _archived(pending_row, tabs.copies(seat))
        pending = _pending(archived, record)
        rows, strays = _seat_rows(sheets, record, adapter, tabs, seat, grids[seat], recovering=pending is not None)
        seats[seat] = SeatRead(seat, tab, rows, pending, _kept(archived, record), strays, _archive_lines(pending_row),
                               older_copy(archived, record),
                               FileStamp.from_json(archived.get("gen")) if archived is not None else None,
                               tuple(pending_row[0]) if pending_row else (), early=_early(archived, record))
    change = _change_to_complete(sheets, record, complete=complete, replay=replay)
    if change is not None:  # a change cut before its commit: completed, then the match read as it leaves it
        return _completed(sheets, ruleset_class, tabs, record, seats, change)
    board_stamp = next((st for v in (title_row[0] if title_row else []) if (st := FileStamp.from_cell(v))), None)
    # an engine older than its files, a file of another match, a board older than the engine: refused
    check_history(sheets, tabs, record, seats, board_stamp)
    # each grid with the range it was read from (the file layout's, wider than the match's where a setting took a
    # column out): a guard compares the same cells when it reads them again
    below = () if any(s.pending is not None for s in seats.values()) else (  # a cut resolution's lines are its own
        typed_below_log(batch.get(sheets.board, tabs.log_to_end(log_from)), record.log_rows, log_from))
    return MatchRead(record, tabs, adapter, seats,
                     {seat: tuple((ranges[seat][page.name], grids[seat][page.name])
                                  for page in tabs.orders(seat).sheets()) for seat in grids},
                     (tabs.board_tab_range(), board_grid), log_typed_over, below)


def _completed(sheets: MatchSheets, ruleset_class: type[AnyRuleset], tabs: MatchTabs, record: MatchRecord,
               seats: Mapping[str, SeatRead], change: ChangeJournal) -> MatchRead:
    """The match read once ``change``, cut before its commit (``record``: the engine then; ``seats``: every seat as
    read), is completed: every spreadsheet not drawn for it yet written as it would have been, the engine last."""
    written = {seat_backend(sheets, tabs, seat).name for seat, s in seats.items()
               if s.stamp is not None and s.stamp.generation == change.after}
    try:
        done = complete_change(sheets.write_order(), sheets.journal, change, written)
    except SavedMeanwhileError:
        if not change.resolution:
            raise
        # a seat saved since the resolution read it: the poll completes it from its record, keeping her save
        return read_match(sheets, ruleset_class)
    return replace(read_match(sheets, ruleset_class), completed=completed_sentence(change, sorted(written), done),
                   replayed=record if change.resolution else None)


def _change_to_complete(sheets: MatchSheets, record: MatchRecord, *, complete: bool,
                        replay: bool) -> ChangeJournal | None:
    """The change the journal keeps, cut before its commit, that this read completes (``read_match``); a journal the
    engine committed (or of another match) is dropped; a resolution's record is kept, and completed only with
    ``replay`` (without, the poll completes it from its record); HistoryError when the read may not write
    (``complete`` False)."""
    change = change_under_way(sheets.journal, record)
    if change is not None and change.resolution and not (complete and replay):
        return None  # status tells what the poll will do; a save raced its writes: the poll completes it
    if change is None and complete and load_change(sheets.journal) is not None \
            and journal_under_way(sheets.journal, record) is None:
        drop_journal(sheets.journal)  # a change the engine committed (or of another match): nothing to complete
    if change is not None and not complete:
        raise HistoryError(f"{change.what} was cut short before its last write (the engine's): the next sync, or any "
                           "command that writes the match, completes it and says so")
    return change


#: The Log is read by a poll from the start of the block of this many lines its last line is in: the range asked
#: stays the same for as many lines (a kept read answers it, ``poll_gate.kept_reads``), and what is read of the Log
#: above its last line stays small whatever the match's length.
LOG_READ_BLOCK = 16


def _log_read_from(engine_grid: Grid) -> int:
    """The Log line a poll reads the Log from (see ``LOG_READ_BLOCK``), from the engine tab as read."""
    return logged_rows(engine_grid[1:]) // LOG_READ_BLOCK * LOG_READ_BLOCK


def typed_below_log(lines: Grid, log_rows: int, start: int = 0) -> tuple[tuple[int, tuple[CellValue, ...]], ...]:
    """Each Log row of ``lines`` (the Log from its line ``start``, 0 its first) below the match's ``log_rows``
    lines that holds something, with its line index from 0 and its turn, kind and sentence as read: no event of the
    match wrote it.

    >>> typed_below_log([[1, "move", "Red moves."], [], [None, "", "blue surrenders"]], 1)
    ((2, (None, '', 'blue surrenders')),)
    >>> typed_below_log([[None, "", "blue surrenders"]], 17, 16)
    ()
    """
    found: list[tuple[int, tuple[CellValue, ...]]] = []
    for i, row in enumerate(lines[max(log_rows - start, 0):], start=max(log_rows, start)):
        cells = (*row[:3], *[""] * (3 - len(row[:3])))
        if any(text_of(c).strip() for c in cells):
            found.append((i, cells))
    return tuple(found)


def _drawn_rows(adapter: AnySheetAdapter, record: MatchRecord, seat: str) -> Callable[[InputTable], list[str]]:
    """The subjects the match draws in each of ``seat``'s tables (where a table's rows end, ``sizes_in``)."""
    return lambda spec: adapter.rows(record.state, seat, spec)


def _seat_rows(sheets: MatchSheets, record: MatchRecord, adapter: AnySheetAdapter, tabs: MatchTabs, seat: str,
               grids: Mapping[str, Grid], *, recovering: bool) -> tuple[tuple[TypedRow, ...], tuple[StrayRow, ...]]:
    """Each of ``seat``'s input tabs checked and read (``grids``: by tab name): the rows an order may be read from,
    and the stray rows with their answers, of every tab."""
    rows: tuple[TypedRow, ...] = ()
    strays: tuple[StrayRow, ...] = ()
    for page in tabs.orders(seat).sheets():
        grid = grids[page.name]
        drift = page.drift(grid)
        if drift:
            raise LayoutDriftError(f"the layout has changed: {drift}; {REPAIR_HINT}")
        read = tuple(r for placed in page.tables for r in placed.read(grid))
        kept, found = sort_rows(record.ruleset, adapter, record.state, sheets, tabs, seat, page, grid, read,
                                recovering=recovering)
        rows += kept
        strays += found
    return rows, strays


def _check_written_tabs(batch: ReadBatch, sheets: MatchSheets, tabs: MatchTabs) -> bool:
    """LayoutDriftError naming the cell when a tab a resolution writes, and no poll reads, lost its heading: the
    Log's header row with none of its cells in place (a row inserted or deleted: writing the header there could
    write over a line), each Archive's header row, a View tab's title (the GM tab's too). A missing one already
    failed the read, naming it. True when the Log's header was typed over in place (some of its cells still as
    drawn): the poll writes it again (``sync/drawn_cells.py``)."""
    header = list(tabs.spec.headers.log)
    found = [text_of(v) for v in (batch.get(sheets.board, tabs.log_header_range()) or [[]])[0]]
    found += [""] * (len(header) - len(found))
    typed_over = found[:len(header)] != header
    if typed_over and not any(f == h for f, h in zip(found, header, strict=False)):
        raise LayoutDriftError(f"the layout has changed: tab {tabs.spec.tabs.log!r} row 1 should say "
                               f"{' | '.join(header)!r} but says {' | '.join(found)!r}; {REPAIR_HINT}")
    archive_header = list(tabs.spec.headers.archive)
    for seat in tabs.input_seats():
        found = [text_of(v) for v in (batch.get(seat_backend(sheets, tabs, seat), tabs.archive_header_range(seat))
                                      or [[]])[0]]
        if found[:len(archive_header)] != archive_header:
            raise LayoutDriftError(f"the layout has changed: tab {tabs.archive(seat)!r} row 1 should say "
                                   f"{' | '.join(archive_header)!r} but says {' | '.join(found)!r}; {REPAIR_HINT}")
    for seat in tabs.view_seats():
        backend = sheets.engine if seat == GM else seat_backend(sheets, tabs, seat)
        grid = batch.get(backend, tabs.view_status_range(seat))
        title = text_of(grid[0][0]) if grid and grid[0] else ""
        if title != tabs.view_title(seat):
            raise LayoutDriftError(f"the layout has changed: tab {tabs.view(seat)!r} cell A1 should say "
                                   f"{tabs.view_title(seat)!r} but says {title!r}; {REPAIR_HINT}")
    return typed_over


def cut_pending(grid: Grid, tab: str, record: MatchRecord) -> dict[str, Any] | None:
    """The pending row read as ``grid`` (its window key, rows read and line count, from tab ``tab``) when it is of the
    resolution ``record`` has not committed: one a cut left (None otherwise, or when the row cannot be read)."""
    try:
        return _pending(_archived(grid, tab), record)
    except LayoutDriftError:
        return None


def file_stamp(grid: Grid) -> FileStamp | None:
    """The stamp a pending row read as ``grid`` keeps (None when it keeps none, or cannot be read)."""
    try:
        found = _archived(grid, "")
    except LayoutDriftError:
        return None
    return FileStamp.from_json(found.get("gen")) if found is not None else None


def _archived(grid: Grid, tab: str) -> dict[str, Any] | None:
    """The archive's pending row: what the last resolution (committed or cut) consumed."""
    line = grid[0] if grid else []
    if not (text_of(line[1]) if len(line) > 1 else ""):
        return None
    try:
        found = json.loads(joined_cells(line[:2], 1))  # the window key, then the rows read (packed if long)
    except ValueError:
        raise LayoutDriftError(f"tab {tab!r} cell C2 (a hidden tab) holds unreadable orders; restore it from the "
                               "engine's history row of the same window ('archived')") from None
    return found if isinstance(found, dict) else None


def current_mark(resolution: int, deal: int = 0, stamp: FileStamp | None = None,
                 kept: Sequence[Mapping[str, Any]] = (), for_window: str = "") -> str:
    """What a seat's pending row holds when nothing is under way: the resolution the file was last drawn for
    (``create_match`` draws it for 0; every resolution and every undo writes its own there), so a copy older than
    that shows. ``deal`` counts the match's undos (``MatchRecord.deal``): after an undo, resolution numbers are
    used again, and the deal tells a file drawn before the undo from one drawn after. ``stamp``: the match and
    generation the file is drawn for (``MatchRecord.stamp``). ``kept``: the rows an undo put back that still say a
    refusal, each with its note (``SeatRead.kept``), for the window ``for_window`` it reopened: the next polls keep
    the refusal until a window reads the row."""
    notes = {"kept": list(kept), "for": for_window} if kept else {}
    text = json.dumps({"resolution": resolution, **({"deal": deal} if deal else {}), "window": "", "rows": [],
                       **notes, **({"gen": stamp.to_json()} if stamp is not None else {})}, separators=(",", ":"))
    return packed_cell(text, "the refusals of the rows an undo put back") if kept else text


def restamped(cells: Sequence[CellValue], record: MatchRecord, what: str) -> list[CellValue]:
    """A pending row as read (``SeatRead.pending_cells``: the window key, the rows read, the line count) with
    ``record``'s stamp in place of the one it holds: the file drawn again for ``record``, its rows read kept
    (``what`` names them for a value too long). An empty or unreadable row becomes the mark of nothing under way."""
    row = list(cells) + [""] * (3 - len(cells))
    stamp = record.stamp()
    try:
        found = json.loads(joined_cells(row[:2], 1)) if text_of(row[1]) else None
    except ValueError:
        found = None
    if not isinstance(found, dict):
        return ["", current_mark(record.resolved, record.deal, stamp), row[2]]
    # an undo of the match's end that took back the GM's adjustment deals afresh: the file is drawn at its deal
    dealt = {"deal": record.deal} if _deal(found) < record.deal else {}
    return [row[0], packed_cell(compact_json({**found, **dealt, "gen": stamp.to_json()}), what), row[2]]


def _deal(found: Mapping[str, Any]) -> int:
    """The undo count a pending row was written at (0 when it names none: before the first undo)."""
    deal = found.get("deal", 0)
    return deal if isinstance(deal, int) and not isinstance(deal, bool) else -1


def older_copy(archived: Mapping[str, Any] | None, record: MatchRecord) -> int | None:
    """The resolution the seat's file was drawn for, when it holds the pending row of one before the last: every
    resolution writes its own there (an undo empties it), so the file was saved over our write from a copy taken
    before it (a player's office program still holding the workbook as it was); None when the file is current."""
    found = archived.get("resolution") if archived is not None else None
    if archived is None or not isinstance(found, int) or isinstance(found, bool):
        return None
    if _deal(archived) < record.deal:  # drawn before an undo: older whatever its number says
        return max(0, min(found, record.resolved - 1))
    return found if found < record.resolved else None


def _early(found: Mapping[str, Any] | None, record: MatchRecord) -> tuple[TypedRow, ...] | None:
    """The rows the players' deadline of the open judge's window took for the next window (``with_early``), when the
    pending row keeps them for it (None when it keeps none)."""
    early = found.get("early") if found is not None else None
    if not isinstance(early, dict) or found is None or found.get("resolution") != record.resolved \
            or _deal(found) != record.deal or early.get("at") != record.window_key():
        return None
    return tuple(TypedRow.from_json(r) for r in early.get("rows", []) if isinstance(r, dict))


def with_early(cells: Sequence[CellValue], record: MatchRecord, rows: Sequence[TypedRow], what: str) -> list[CellValue]:
    """A pending row as read (``SeatRead.pending_cells``) keeping ``rows`` too: the rows the players' deadline of
    the open judge's window took for the next window (``Window.early``), which that window reads (``_early``)."""
    row = restamped(cells, record, what)
    found = json.loads(joined_cells(row[:2], 1))
    found["early"] = {"at": record.window_key(), "rows": [r.to_json() for r in rows]}
    return [row[0], packed_cell(compact_json(found), what), row[2]]


def early_writes(batch: WriteBatch, sheets: MatchSheets, read: MatchRead, seat: str, rows: Sequence[TypedRow]) -> None:
    """Queue ``seat``'s pending row keeping ``rows`` as what the players' deadline of the open judge's window took for
    the next window (``with_early``): the first poll past that deadline, and the judge's mailbox typing a mail that
    reached it before the deadline (its lines join what the deadline took)."""
    pending_writes(batch, seat_backend(sheets, read.tabs, seat), read.tabs, seat,
                   with_early(read.seats[seat].pending_cells, read.record, rows,
                              f"rows {seat} typed by the players' deadline"))


def early_joined(taken: Sequence[TypedRow], rows: Sequence[TypedRow]) -> tuple[TypedRow, ...]:
    """``taken`` (what the players' deadline took of a seat's rows) with ``rows`` in place of its rows of the same
    table and subject, and the others of ``rows`` after them."""
    new = {(r.table, r.subject) for r in rows}
    return (*(r for r in taken if (r.table, r.subject) not in new), *rows)


def _archive_lines(grid: Grid) -> int:
    """How many readable lines the archive holds: the pending row's last cell (0 if empty or not a count)."""
    line = grid[0] if grid else []
    text = text_of(line[2]) if len(line) > 2 else ""
    return int(text) if text.isdecimal() else 0


def _pending(found: dict[str, Any] | None, record: MatchRecord) -> dict[str, Any] | None:
    """The consumed rows of the resolution under way, when the last one was cut before its commit."""
    if found is not None and found.get("resolution") == record.resolved + 1 and _deal(found) == record.deal \
            and found.get("window") == record.window_key() and isinstance(found.get("rows"), list):
        return found
    return None


def _kept(found: dict[str, Any] | None, record: MatchRecord) -> tuple[Mapping[str, Any], ...]:
    """The rows the last resolution kept (for the window it opened, ``for``), or the one under way kept unused,
    each with its note."""
    if found is None or not isinstance(found.get("kept"), list) or _deal(found) != record.deal:
        return ()
    committed = found.get("resolution") == record.resolved and found.get("for", found.get("window")) == \
        record.window_key()
    under_way = found.get("resolution") == record.resolved + 1 and found.get("window") == record.window_key()
    if not (committed or under_way):
        return ()
    return tuple(k for k in found["kept"] if isinstance(k, dict))


def _read_every_spreadsheet(sheets: MatchSheets, ruleset_class: type[AnyRuleset], tabs: MatchTabs,
                            engine_range: str) -> tuple[ReadBatch, int]:
    """Every range a poll reads, asked in one batched read per spreadsheet (the board last, where the engine is a
    spreadsheet of its own), and the Log line it read the Log from; a tab that cannot be read is refused with what
    to run (``repair``, or ``init`` for a match never created)."""
    batch = ReadBatch()
    batch.ask(sheets.engine, engine_range)
    batch.ask(sheets.board, tabs.board_tab_range())  # its title row checked, its drawn cells compared
    batch.ask(sheets.board, tabs.log_header_range())  # the tabs a resolution writes: there, and still ours
    batch.ask(sheets.engine, tabs.view_status_range(GM))
    for seat in tabs.input_seats():
        backend = seat_backend(sheets, tabs, seat)
        for page in tabs.orders(seat).sheets():
            batch.ask(backend, page.read_range(), struck=any(t.spec.struck for t in page.tables))
        batch.ask(backend, pending_block_range(tabs.copies(seat)))
        batch.ask(backend, tabs.archive_header_range(seat))
        batch.ask(backend, tabs.view_status_range(seat))
    try:
        # the board last (where the engine is a spreadsheet of its own): the Log is read from near its last line to
        # the tab's end, in the board's one read, so that a line typed below it is found at no call more
        board_last = sheets.engine is not sheets.board
        if board_last:
            batch.run([b for b in sheets.write_order() if b is not sheets.board])
        log_from = _log_read_from(batch.get(sheets.engine, engine_range)) if board_last else 0
        batch.ask(sheets.board, tabs.log_to_end(log_from))
        batch.run([sheets.board] if board_last else sheets.write_order())
    except SheetError as exc:
        if type(exc) is not SheetError:
            raise
        if _refuse_if_old(sheets, ruleset_class, engine_range):
            refuse_swapped(sheets, tabs, SWAP_HINT)
            raise SheetError(f"{exc}. The engine tab holds the match, so a tab was renamed or deleted, or the "
                             "match was created by an earlier version of sheets-gm: run sheets-gm repair -c "
                             f"{CONFIG_STAND_IN}, which lays every tab out again and keeps the match and every "
                             "typed row") from None
        raise SheetError(f"{exc}. If the match was never created, run sheets-gm init {ruleset_class.traits.name} -c "
                         f"{CONFIG_STAND_IN}; if a tab was renamed or "
                         "deleted, or the match was created by an earlier version of sheets-gm, run sheets-gm "
                         f"repair -c {CONFIG_STAND_IN}, which rebuilds the layout and keeps the match") from None
    return batch, log_from


def read_record(sheets: MatchSheets, ruleset_class: type[AnyRuleset]) -> MatchRecord:
    """The match's record alone, from one read of the engine tab (what a reader of the state needs, no seat's rows:
    the mail of a poll that types nothing); checked as ``read_match`` checks it."""
    spec = sheet_spec(ruleset_class.traits.name)
    engine_range = engine_read_range(spec.tabs.engine)
    (grid,) = sheets.engine.read([engine_range])
    return _engine_record(sheets, ruleset_class, spec, grid)


def _engine_record(sheets: MatchSheets, ruleset_class: type[AnyRuleset], spec: SheetSpec,
                   engine_grid: Grid) -> MatchRecord:
    """The match's record in the engine tab as read (``engine_grid``), refused when the engine tab is of an older
    layout, of another game or of other seats than the config's."""
    refuse_old_layout(ruleset_class, engine_grid)
    header = text_of(engine_grid[0][0]) if engine_grid and engine_grid[0] else ""
    if header != spec.headers.engine:
        raise LayoutDriftError(f"the layout has changed: tab {spec.tabs.engine!r} cell A1 should say "
                               f"{spec.headers.engine!r} but says {header!r}; {REPAIR_HINT}")
    record = parse_match_record(engine_grid[1:], f"tab {spec.tabs.engine!r}")
    if record.name != ruleset_class.traits.name:
        raise LayoutDriftError(f"the match config says ruleset {ruleset_class.traits.name!r} but the engine tab "
                               f"holds a {record.name!r} match")
    if record.seats != sheets.seats:
        raise LayoutDriftError(f"the match config names seats {', '.join(sheets.seats)} but the engine tab holds "
                               f"{', '.join(record.seats)}")
    return record


def _check_board_title(spec: SheetSpec, title_row: Grid) -> None:
    """LayoutDriftError unless the board's title row (``title_row``, as read) says the board's header."""
    if not any(text_of(v) == spec.headers.board for v in (title_row[0] if title_row else [])):
        raise LayoutDriftError(f"the layout has changed: tab {spec.tabs.board!r} should say {spec.headers.board!r} "
                               f"in row 1, right of the board, but does not; {REPAIR_HINT}")


def _tabs_as_grown(sheets: MatchSheets, ruleset_class: type[AnyRuleset], adapter: AnySheetAdapter,
                   record: MatchRecord, grids: Mapping[str, Mapping[str, Grid]]) -> MatchTabs:
    """The match's tabs as each seat's tab is laid out now (``grids``: every seat's tabs as read, by name): its
    tables' rows those the match grew them to; LayoutDriftError naming every header cell out of place."""
    # The match's own layout (a setting may take a column out, e.g. Wesnoth's Go under batch resolution): the
    # ruleset's file layout, read above, spans it. Each tab is read as it is laid out now: its tables' rows are
    # those the match grew them to.
    tabs = MatchTabs(adapter.spec, sheets.seats, ruleset_class.traits.judge)
    tabs = tabs.with_sizes({seat: {name: rows for page in tabs.orders(seat).sheets()
                                   for name, rows in page.sizes_in(grids[seat][page.name],
                                                                   _drawn_rows(adapter, record, seat)).items()}
                            for seat in grids})
    # every header cell out of place in every seat's tabs, not only the first: doctor lists them all
    breaks = tuple(d for seat in tabs.input_seats() for page in tabs.orders(seat).sheets()
                   for d in page.drifts(grids[seat][page.name]))
    if len(breaks) > 1:
        raise LayoutDriftError(f"the layout has changed in {len(breaks)} places: {'; '.join(breaks)}; {REPAIR_HINT}",
                               breaks)
    return tabs

