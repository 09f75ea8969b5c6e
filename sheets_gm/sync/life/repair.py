"""Repairing a match on the generic sync: every tab laid out again around the engine record, the typed
rows kept.

The record (state, seed, history, counters) is read from the engine tab alone and never rewritten;
the layouts are applied again (a renamed or deleted tab comes back, a header edited by hand is put
back, a public tab an earlier layout drew and this one does not is deleted); each seat's typed rows
are read where the layout puts them, by the row's subject (a row whose subject cell was overwritten
is not guessed at), then everything is drawn again with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import Window
from sheets_gm.engine.settings import settings_rows
from sheets_gm.rulesets.registry import AnyRuleset, get_game, sheet_spec
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.backend import OpenedElsewhere, RangeWrite, SheetBackend, SheetError
from sheets_gm.sheets.guard import grid_cells
from sheets_gm.sheets.layout import CellValue, Grid, a1, cell_at, quote_tab
from sheets_gm.sheets.spec import ColumnKind, SheetSpec
from sheets_gm.sheets.tables import InputTab, TypedRow
from sheets_gm.sync.command_journal import (
    begin_command,
    command_path,
    end_command,
    load_command,
    roll_back_init,
    settle_export,
)
from sheets_gm.sync.journal import journal_under_way
from sheets_gm.sync.life.archive_move import (
    archive_moves_read,
    archive_moves_writes,
    copies_laid_out_writes,
    old_columns_cleared,
)
from sheets_gm.sync.life.create import apply_layouts, match_layouts
from sheets_gm.sync.life.legacy.upgrade import old_tabs, upgrade_match
from sheets_gm.sync.life.moved_tables import tables_moved_out
from sheets_gm.sync.life.repair_aside import repair_aside_writes, with_orphans
from sheets_gm.sync.life.repair_columns import FoundColumns, laid_out_columns
from sheets_gm.sync.life.repair_records import renamed_copies, restore_logs
from sheets_gm.sync.match_record import MatchRecord, MatchRecordError, engine_read_range, parse_match_record
from sheets_gm.sync.match_tabs import ABOUT_TAB, MatchTabs
from sheets_gm.sync.read import adapter_of, current_mark, cut_pending, file_stamp, restamped
from sheets_gm.sync.rows.archive_lines import ArchiveLine, capital
from sheets_gm.sync.rows.fate_words import shown_typed_over_line
from sheets_gm.sync.rows.fates import kept_refusals, stays
from sheets_gm.sync.rows.opened import OpenedCheck, check_opened
from sheets_gm.sync.rows.pending_row import pending_block_range, pending_line, pending_writes
from sheets_gm.sync.rows.strays import StrayRow, in_layout, sort_rows, stray_layout
from sheets_gm.sync.save_race import again_if_saved
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, each_saved_once, seat_backend
from sheets_gm.sync.shown_cells import ShownTypedOver, archived_details, seat_shown_typed_over
from sheets_gm.sync.writes import (
    board_writes,
    seat_tables_writes,
    status_line,
    views_writes,
)


@dataclass
class WindowRepairReport:
    """What a repair kept."""

    record: MatchRecord
    rows_kept: int = 0
    notes: list[str] = field(default_factory=list)
    upgraded: str = ""  # the name of the ruleset's old layout the match was moved from ('' if it was not)


@dataclass(frozen=True)
class _Overlay:
    """A seat's tab as repair read it, and what its redraw lays over the tables or keeps in the Archive."""

    tab: InputTab
    strays: tuple[StrayRow, ...] = ()  # kept where they were typed, answered (see ``_typed_rows``)
    stamped: tuple[TypedRow, ...] = ()  # stamped for another window: the next poll sets them aside
    shown: tuple[ShownTypedOver, ...] = ()  # shown cells typed over: kept in the Archive


def _engine_record(sheets: MatchSheets, tabs: MatchTabs, ruleset: str) -> MatchRecord:
    tab = tabs.spec.tabs.engine
    if tab not in sheets.engine.tab_names():
        raise SheetError(f"{sheets.engine.name} has no tab {tab!r}. If no match was created there yet, there is "
                         f"nothing to repair: create one with sheets-gm init {ruleset}. If one was, repair needs its "
                         "engine record (the match itself): restore the tab from a backup or an export")
    (grid,) = sheets.engine.read([engine_read_range(tab)])
    try:
        return parse_match_record(grid[1:], f"tab {tab!r}")
    except MatchRecordError as exc:
        raise SheetError(f"{exc}. repair needs the engine record: restore the engine tab from a backup") from None


def repair_match(sheets: MatchSheets, ruleset_class: type[AnyRuleset], *,
                        emails: Mapping[str, Sequence[str]] | None = None, title: str = "",
                        member_emails: Mapping[str, Sequence[str]] | None = None,
                        schedule_text: str = "") -> WindowRepairReport:
    """Lay every tab of the match out again and draw it from its record, keeping the rows typed for the open
    window (and standing rows). The record is not written. ``emails``, ``member_emails`` and ``title`` are what
    init gave ``create_match``: the editors of each seat's typed cells (of each member's own rows), the
    spreadsheets' title. The Settings tab's house rules are written again (typed over by hand, ``verify -c`` names
    them); one laid out afresh (deleted by hand) gets its deadlines row too, saying ``schedule_text`` (the config's
    ``[deadlines]`` in words), as init wrote them.

    A match on the ruleset's old layout is moved first (``upgrade.upgrade_match``): its record,
    history and archives rewritten in the generic terms, the old tabs cleared or deleted, what was typed
    for the open window carried into the new rows; the report's notes say what could not be.

    A player's save that races the write of her tables is kept: the repair is made again whole from a fresh read
    (``save_race``), as the next command makes a repair cut short."""
    return again_if_saved(lambda: _repaired(sheets, ruleset_class, emails=emails, title=title,
                                            member_emails=member_emails, schedule_text=schedule_text), "the repair")


def _repaired(sheets: MatchSheets, ruleset_class: type[AnyRuleset], *, emails: Mapping[str, Sequence[str]] | None,
              title: str, member_emails: Mapping[str, Sequence[str]] | None, schedule_text: str) -> WindowRepairReport:
    """One attempt of ``repair_match`` (SavedMeanwhileError: a save raced its write)."""
    spec = sheet_spec(ruleset_class.traits.name)
    tabs = MatchTabs(spec, sheets.seats, ruleset_class.traits.judge)
    journal = command_path(sheets.journal)
    settled = _begin_repair(sheets, journal, emails, member_emails, title)
    upgrade = upgrade_match(sheets, ruleset_class)
    record = _checked_record(sheets, tabs, ruleset_class.traits.name, journal, upgraded=upgrade is not None)
    report = WindowRepairReport(record, upgraded=upgrade.layout_name if upgrade is not None else "")
    kept: dict[str, dict[str, dict[str, TypedRow]]] = {}
    if settled:
        report.notes.append(settled)
    if upgrade is not None:
        report.notes += upgrade.notes
        kept = {seat: dict(rows) for seat, rows in upgrade.carried.items()}
        report.rows_kept = sum(len(r) for rows in kept.values() for r in rows.values())
    # The old orders tab was read by the upgrade, and cleared.
    adapter = adapter_of(record.ruleset)
    found = _SeatTabsRead() if upgrade is not None else _seat_tabs_read(sheets, tabs, report, adapter, record.state)
    grown, mentioned, extra = found.grown, found.mentioned, found.extra
    overlays: dict[str, _Overlay] = {}  # see _typed_rows
    for seat, pages in found.read_as.items():
        kept[seat], overlays[seat] = _seat_typed_rows(sheets, tabs.with_sizes({seat: found.grown[seat]}), record,
                                                      adapter, seat, pages, found.moved.get(seat, ()), report)
    tabs = _tabs_laid_out_again(sheets, ruleset_class, adapter, record, grown)
    retired = _retired_tabs(sheets, ruleset_class, spec, report, upgraded=upgrade is not None)
    layouts = match_layouts(sheets, tabs, record.ruleset, adapter, record.state, emails or {}, member_emails)
    absent = {t.name for backend, t in layouts if t.name not in backend.tab_names()}  # deleted or renamed
    with each_saved_once(sheets.write_order()):  # each workbook laid out and drawn in one save, not two
        for seat, pushed in extra.items():  # before the layout, which may narrow the tab to its columns
            seat_backend(sheets, tabs, seat).write([RangeWrite(cell, [[""]]) for cell in pushed])
        moves = archive_moves_read(sheets, tabs)  # an archive of an earlier layout: copies where players read them
        apply_layouts(sheets, layouts, title or f"sheets-gm · {record.ruleset.traits.title}", retired)
        batch = WriteBatch()
        _typed_rows_guarded(batch, sheets, tabs, found)
        laid_out = {t.name for _, t in layouts} | {spec.tabs.roster, *retired}
        restored, copied = restore_logs(sheets, tabs, record, adapter, batch, laid_out | mentioned, absent)
        relaid = absent - {tabs.copies(seat) for seat in moves}
        renamed = renamed_copies(sheets, tabs, laid_out | mentioned | copied, relaid)
        report.notes += _stray_tabs(sheets, laid_out | mentioned | copied | {name for name, _grid in renamed.values()}
                                    | _mail_tabs(ruleset_class.traits.name))
        report.notes += restored
        report.notes += archive_moves_writes(sheets, tabs, record, batch, moves)
        report.notes += copies_laid_out_writes(sheets, tabs, record, batch, relaid, renamed)
        _restamp_seats(sheets, tabs, record, batch, relaid | {tabs.copies(seat) for seat in moves})
        status = status_line(adapter, record)
        aside = with_orphans(_seat_tables_drawn(batch, sheets, tabs, record, adapter, status, kept, overlays),
                             found.read_as, record.ruleset.window(record.state))
        report.notes += repair_aside_writes(sheets, tabs, batch, aside, absent)
        _settings_writes(batch, sheets, spec, record, schedule_text, absent, report)
        views_writes(batch, sheets, tabs, adapter, record.state, status, {}, [])
        board_writes(batch, sheets.board, tabs, adapter, record.state, status, record.deadline, record.stamp())
        batch.run(sheets.write_order())
    old_columns_cleared(sheets, tabs, moves)  # the copies are in their new places: the old columns may go
    end_command(journal)
    return report


def _typed_rows_guarded(batch: WriteBatch, sheets: MatchSheets, tabs: MatchTabs, found: _SeatTabsRead) -> None:
    """Guard ``batch``'s writes to each seat's tables by what the repair read there, where the tab is laid out
    again where it stood (its columns and its tables' rows in place): a cell a player saves after the repair's read
    is never written over (``sheets/guard.py``). A tab laid out otherwise is not guarded: what was read is no longer
    where it was."""
    for seat, pages in found.intact.items():
        laid = tabs.orders(seat).sizes()
        if any(laid.get(name) != rows for name, rows in found.grown.get(seat, {}).items()):
            continue  # a table grown: the rows below it moved
        backend = seat_backend(sheets, tabs, seat)
        for page in tabs.orders(seat).sheets():
            grid = pages.get(page.name)
            if grid is None:
                continue
            for placed in page.tables:
                first, last = placed.first_row, placed.last_row
                batch.guard(backend, f"{quote_tab(page.name)}!{cell_at(0, first)}:{cell_at(page.width - 1, last)}",
                            [list(row[:page.width]) for row in grid[first - 1:last]])


def _begin_repair(sheets: MatchSheets, journal: Path | None, emails: Mapping[str, Sequence[str]] | None,
                  member_emails: Mapping[str, Sequence[str]] | None, title: str) -> str:
    """An export or init cut short settled, a workbook open in an office program refused, then the repair's command
    journal kept with what it was given (``repair_match``'s arguments); what was settled, in words ('' for none)."""
    left = load_command(journal)
    settled = ("" if left is None else settle_export(journal, left) if left["kind"] == "export"
               else roll_back_init(journal, left) if left["kind"] == "init" else "")
    for backend in sheets.write_order():  # a workbook open in an office program: refused before the journal
        if isinstance(backend, OpenedElsewhere):
            backend.refuse_if_open()
    # one transaction: cut anywhere, the next command runs it again whole with what it was given (``life/settle``)
    begin_command(journal, "repair", "the repair", emails={k: list(v) for k, v in (emails or {}).items()},
                  member_emails=None if member_emails is None else {k: list(v) for k, v in member_emails.items()},
                  title=title)
    return settled


def _checked_record(sheets: MatchSheets, tabs: MatchTabs, ruleset: str, journal: Path | None, *,
                    upgraded: bool) -> MatchRecord:
    """The engine's record, refused (SheetError) when it cannot be read or holds other seats than the config's; the
    journal ended on a refusal before the repair's first write (none when the match was not ``upgraded``)."""
    try:
        record = _engine_record(sheets, tabs, ruleset)
        if record.seats != sheets.seats:
            raise SheetError(f"the match config names seats {', '.join(sheets.seats)} but the engine tab holds "
                             f"{', '.join(record.seats)}: fix the config")
    except SheetError:
        if not upgraded:  # refused before its first write: nothing for the next command to run again
            end_command(journal)
        raise
    return record


def _tabs_laid_out_again(sheets: MatchSheets, ruleset_class: type[AnyRuleset], adapter: AnySheetAdapter,
                         record: MatchRecord, grown: Mapping[str, Mapping[str, int]]) -> MatchTabs:
    """The tabs as the repair lays them out: as the match's settings lay them out (the rows were read with the
    ruleset's file layout, which spans it), with the rows the match grew its tables to (``grown``; never fewer than
    the layout's), and more where the state needs them."""
    tabs = MatchTabs(adapter.spec, sheets.seats, ruleset_class.traits.judge)
    tabs = tabs.with_sizes({seat: {name: max(rows, tabs.orders(seat).table(name).rows)
                                   for name, rows in sizes.items()} for seat, sizes in grown.items()})
    tabs = tabs.fitted(adapter, record.state)
    return tabs


def _retired_tabs(sheets: MatchSheets, ruleset_class: type[AnyRuleset], spec: SheetSpec, report: WindowRepairReport,
                  *, upgraded: bool) -> tuple[str, ...]:
    """The tabs of earlier layouts the repair deletes (those of the ruleset's old layout too, when the match was
    ``upgraded``), each one the board holds noted in ``report``."""
    present = sheets.board.tab_names()
    retired = (*spec.tabs.retired, *(n for n in old_tabs(ruleset_class) if upgraded
                                     and n not in spec.tabs.retired))
    for name in retired:
        if name in present:
            report.notes.append(f"tab {name!r} of an earlier layout was deleted from {sheets.board.name}: "
                                "what it showed is drawn in the new tabs")
    return retired


def _settings_writes(batch: WriteBatch, sheets: MatchSheets, spec: SheetSpec, record: MatchRecord,
                     schedule_text: str, absent: set[str], report: WindowRepairReport) -> None:
    """The Settings tab's house rules written back (typed over by hand: ``verify -c`` names it); one laid out afresh
    (in ``absent``: deleted by hand) gets its deadlines row too, saying ``schedule_text``, and a note in ``report``."""
    rows: Grid = [list(r) for r in settings_rows(record.ruleset.settings, schedule_text)]
    if spec.tabs.settings not in absent:  # the house rules written back (typed over by hand: verify -c names it)
        rows = rows[:-1]  # the deadlines row is the config's, which a poll writes when it changes
    batch.put(sheets.board, a1(spec.tabs.settings, f"A2:D{1 + len(rows)}"), rows)
    if spec.tabs.settings in absent:
        report.notes.append(f"tab {spec.tabs.settings!r} was missing from {sheets.board.name}: laid out again with "
                            "the match's house rules and deadlines")


def _restamp_seats(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, batch: WriteBatch,
                   relaid: set[str]) -> None:
    """Queue every seat's pending row stamped for the engine's record (``sync.history``): the match goes on from the
    engine as it is, whatever generation or match a file was drawn for (a Copies tab laid out again or moved,
    ``relaid``, gets its row from ``copies_laid_out_writes`` or ``archive_moves_writes``; an empty row keeps no
    stamp to mend)."""
    for seat in tabs.input_seats():
        if tabs.copies(seat) in relaid:
            continue
        backend = seat_backend(sheets, tabs, seat)
        try:
            grid = pending_line(backend.read([pending_block_range(tabs.copies(seat))])[0])
        except SheetError:
            continue
        row = tuple(grid[0]) if grid else ()
        if len(row) < 2 or row[1] in (None, "") or cut_pending(grid, tabs.copies(seat), record) is not None:
            continue  # nothing to mend, or a resolution cut before its commit: the next poll completes it
        stamp = file_stamp(grid)
        if stamp is None or stamp == record.stamp():
            mark = restamped(row, record, f"rows {seat} typed")
        else:  # drawn for another generation, history or match: the file goes on from the engine as it is
            mark = ["", current_mark(record.resolved, record.deal, record.stamp()), row[2] if len(row) > 2 else None]
        pending_writes(batch, backend, tabs, seat, mark)


@dataclass
class _SeatTabsRead:
    """Each seat's orders tab as repair found it, before anything is laid out again."""

    grown: dict[str, dict[str, int]] = field(default_factory=dict)  # each seat's tables as the match grew them
    mentioned: set[str] = field(default_factory=set)  # renamed tabs the notes name already
    # each of its input tabs read, its columns put in place
    read_as: dict[str, list[tuple[InputTab, FoundColumns]]] = field(default_factory=dict)
    extra: dict[str, list[str]] = field(default_factory=dict)  # cells of ours a column inserted pushed right
    moved: dict[str, tuple[TypedRow, ...]] = field(default_factory=dict)  # rows of a table an old layout put elsewhere
    # each seat's input tabs read whole, by tab, where its layout stood intact (no column moved, no tab renamed): what
    # a guard compares its typed rows with before the repair writes them (``_typed_rows_guarded``)
    intact: dict[str, dict[str, Grid]] = field(default_factory=dict)


def _seat_tabs_read(sheets: MatchSheets, tabs: MatchTabs, report: WindowRepairReport, adapter: AnySheetAdapter,
                    state: Any) -> _SeatTabsRead:
    """Every seat's orders tab read whole (a tab renamed by hand found by its headers), its tables' sizes (the
    rows ``state`` draws in them, and no text typed under the last) and its columns put back where the layout has
    them; what was missing or moved is said in ``report``'s notes."""
    found = _SeatTabsRead()
    for seat in tabs.input_seats():
        backend = seat_backend(sheets, tabs, seat)
        grids: dict[str, Grid] = {}
        for page in tabs.orders(seat).sheets():
            grid = _tab_grid(backend, page, tabs, report, found)
            if grid is None:
                continue
            raw = grid
            if page.name == tabs.orders(seat).name:  # an earlier layout's table that now has a tab of its own
                moved = tables_moved_out(grid, page, [t for t in tabs.orders(seat).tables if t.tab != page.name])
                grid, found.moved[seat] = moved.grid, moved.rows
                report.notes += moved.notes
            if page.name in backend.tab_names() and not found.moved.get(seat):
                found.intact.setdefault(seat, {})[page.name] = raw
            grids[page.name] = grid
            drawn = partial(adapter.rows, state, seat)
            found.grown.setdefault(seat, {}).update(page.sizes_in(grid, drawn))  # the tables as the match grew them
        for page in tabs.with_sizes({seat: found.grown.get(seat, {})}).orders(seat).sheets():
            if page.name not in grids:
                continue
            columns = laid_out_columns(grids[page.name], page)
            if columns.moved or columns.extra:  # its rows are no longer where they were read
                found.intact.get(seat, {}).pop(page.name, None)
            report.notes += columns.notes(backend.name)
            found.read_as.setdefault(seat, []).append((page, columns))
            if columns.extra and page.name in backend.tab_names():
                found.extra.setdefault(seat, []).extend(columns.extra)
    return found


def _tab_grid(backend: SheetBackend, tab: InputTab, tabs: MatchTabs, report: WindowRepairReport,
              found: _SeatTabsRead) -> Grid | None:
    """One of a seat's input tabs read whole (a column inserted pushes ours past the layout), or the tab renamed by
    hand that holds its tables' headers; None when neither is there (what was missing is said in ``report``)."""
    if tab.name in backend.tab_names():
        (grid,) = backend.read([quote_tab(tab.name)])
        return grid
    renamed = _renamed(backend, tab, tabs)
    if renamed is None:
        report.notes.append(f"tab {tab.name!r} was missing in {backend.name}: laid out again, with nothing typed")
        return None
    name, grid = renamed
    found.mentioned.add(name)
    report.notes.append(f"tab {tab.name!r} was missing in {backend.name}; its typed rows were found in tab "
                        f"{name!r} and written back into {tab.name!r} (the renamed tab is left as it is, a "
                        f"copy: it may go once you have checked {tab.name!r})")
    return grid


def _seat_tables_drawn(batch: WriteBatch, sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord,
                       adapter: AnySheetAdapter, status: str, kept: Mapping[str, dict[str, dict[str, TypedRow]]],
                       overlays: Mapping[str, _Overlay]) -> dict[str, list[ArchiveLine]]:
    """Each seat's tables drawn again for the open window with the rows it ``kept``, and laid over them what stays
    where it was typed (``overlays``: the stray rows with their answers, the rows stamped for another window);
    returns by seat the Archive entries of what the redraw writes over: a stray row with no free row left, the
    shown cells typed over."""
    aside: dict[str, list[ArchiveLine]] = {}
    window = record.ruleset.window(record.state)
    outcome = record.ruleset.outcome(record.state)
    dice = record.dice()
    opened = _opened(record, adapter, tabs, window, dice, kept)
    for seat in tabs.input_seats():
        backend = seat_backend(sheets, tabs, seat)
        laid: dict[str, dict[int, dict[int, CellValue]]] = {}
        if seat in overlays:
            overlay = overlays[seat]
            was, tab = overlay.tab, tabs.orders(seat)
            pages = dict(zip((p.name for p in was.sheets()), zip(was.sheets(), tab.sheets(), strict=True), strict=True))
            strays = [in_layout(s, *pages[s.tab or was.name]) for s in overlay.strays]  # as the match lays them out
            layout = stray_layout(adapter, record.state, seat, was, tab, strays)
            laid = layout.queue(batch, backend)
            aside[seat] = layout.aside_line(tab, window)
            shown = archived_details(list(overlay.shown)).get(seat, [])
            aside[seat] += [shown_typed_over_line(capital(window.label if window else "the match"), shown)] \
                if shown else []
            for row in overlay.stamped:  # a row stamped for another window keeps its stamp: the next poll sets it aside
                placed = tabs.orders(seat).table(row.table)
                index = adapter.laid_out_rows(record.state, seat, placed).index(row.subject)
                keys = {c.key for c in placed.spec.columns}  # read in the file layout: a setting may take one out
                cells_ = {placed.col(k): v for k, v in row.values.items() if k in keys}
                cells_[placed.col(placed.spec.of_kind(ColumnKind.WINDOW)[0].key)] = row.window
                laid.setdefault(row.table, {})[index] = {**laid.get(row.table, {}).get(index, {}), **cells_}
        # An empty cell of a row laid over is written empty: the tab's old cells (a column inserted) do not stay.
        laid = {t: {i: {c: "" if v is None else v for c, v in line.items()} for i, line in rows.items()}
                for t, rows in laid.items()}
        said = _answers(opened, adapter, tabs.orders(seat), kept.get(seat, {}), seat)
        seat_tables_writes(batch, backend, tabs.orders(seat), adapter, record.state, window, seat, dice, status,
                           outcome.text if outcome else "", kept.get(seat), said, overlays=laid)
    return aside


def _opened(record: MatchRecord, adapter: AnySheetAdapter, tabs: MatchTabs, window: Window | None, dice: TurnDice,
            kept: Mapping[str, Mapping[str, Mapping[str, TypedRow]]]) -> OpenedCheck | None:
    """What the open window makes of the typed rows every seat kept, as the next poll reads them (None once the
    match is over)."""
    if window is None:
        return None
    seat_tabs = {s: tabs.orders(s) for s in window.seats if s in tabs.input_seats()}
    return check_opened(record.ruleset, adapter, record.state, window, dice, seat_tabs, kept, tabs.spec)


def _answers(opened: OpenedCheck | None, adapter: AnySheetAdapter, tab: InputTab,
             kept: Mapping[str, Mapping[str, TypedRow]], seat: str) -> dict[str, dict[str, str]]:
    """What each typed row ``seat`` kept says once drawn again: what the open window makes of it, as the next poll
    writes it (``opened``: read and checked, refused because …, held for her next turn), a refusal kept from a
    window that closed coming first; a row of a table not open to her keeps its refusal, if any."""
    said = kept_refusals([r for rows in kept.values() for r in rows.values()])
    if opened is None:
        return said
    for table, rows in kept.items():
        spec = tab.table(table).spec
        for subject, row in rows.items():
            if not row.typed:
                continue
            note = said.get(table, {}).get(subject, "") if row.window != opened.window.key else ""
            answer = opened.answer(adapter, seat, spec, replace(row, subject=subject), note)
            if answer is not None:
                said.setdefault(table, {})[subject] = answer
    return said


def _mail_tabs(game: str) -> set[str]:
    """The tab the game's mail to the judge lays out in the judge's workbook (Coalition's Strategies tab, drawn from
    the mail record by ``running.mailroom`` after this repair): the match's own, never a stray tab of the GM's."""
    part = get_game(game).mail
    return {part.sealed_tab().tab} if part is not None else set()


def _stray_tabs(sheets: MatchSheets, laid_out: set[str]) -> list[str]:
    """A note per tab that is no part of the match's layout (a tab renamed by hand stays beside the one laid out
    again under its name): sheets-gm neither reads nor writes it, and leaves it to the GM to delete."""
    notes: list[str] = []
    for backend in sheets.write_order():
        for name in backend.tab_names():
            if name not in laid_out and not (backend is sheets.engine and name == ABOUT_TAB):
                notes.append(f"tab {name!r} in {backend.name} is no part of the match's layout (a tab renamed by "
                             "hand, or one of yours): sheets-gm neither reads nor writes it, and it may hold the only "
                             "copy of what it shows: keep it until you have moved what you need")
    return notes


def _renamed(backend: SheetBackend, tab: InputTab, tabs: MatchTabs) -> tuple[str, Grid] | None:
    """A tab of ``backend`` that no layout names whose header rows are those of ``tab``'s tables: the orders
    tab renamed by hand (its name and grid), or None."""
    laid_out = set(tabs.spec.tabs.retired) | {t for seat in tabs.input_seats()
                                              for t in tabs.seat_tab_names(seat)}
    others = [name for name in backend.tab_names() if name not in laid_out]
    if not others:
        return None
    grids = backend.read([quote_tab(name) for name in others])
    for name, grid in zip(others, grids, strict=True):
        if all(placed.holds_header(grid) for placed in tab.tables):
            return name, grid
    return None


def _seat_typed_rows(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, adapter: AnySheetAdapter, seat: str,
                     pages: Sequence[tuple[InputTab, FoundColumns]], moved: Sequence[TypedRow],
                     report: WindowRepairReport) -> tuple[
        dict[str, dict[str, TypedRow]], _Overlay]:
    """``_typed_rows`` of each of ``seat``'s input tabs read (``pages``), with the rows of a table an earlier layout
    put in another tab (``moved``): kept by table and subject, or stamped for another window."""
    kept: dict[str, dict[str, TypedRow]] = {}
    strays: tuple[StrayRow, ...] = ()
    stamped: tuple[TypedRow, ...] = ()
    shown: tuple[ShownTypedOver, ...] = ()
    for page, columns in pages:
        rows, read = _typed_rows(sheets, tabs, record, adapter, seat, page, columns.grid, report)
        kept.update(rows)
        strays += read.strays
        stamped += read.stamped
        shown += read.shown
    window = record.ruleset.window(record.state)
    tab = tabs.orders(seat)
    for row in moved:
        subjects = adapter.laid_out_rows(record.state, seat, tab.table(row.table))
        if row.subject not in subjects:
            report.notes.append(f"{seat}'s {row.subject} of the table moved held {row.values}: it has no row now, "
                                "not carried")
            continue
        if stays(row, seat, tab.table(row.table).spec, window):
            kept.setdefault(row.table, {})[row.subject] = row
        else:
            stamped += (row,)
        report.rows_kept += 1
    return kept, _Overlay(tab, strays, stamped, shown)


def _typed_rows(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, adapter: AnySheetAdapter, seat: str,
                tab: InputTab, grid: Grid, report: WindowRepairReport) -> tuple[
        dict[str, dict[str, TypedRow]], _Overlay]:
    """Every row ``seat`` typed, sorted as a poll sorts them (``grid``: the tab with its columns put back where the
    layout has them): the rows an order is read from, by table and subject (for the open window, a standing
    table, or typed ahead), and what the redraw lays over its rows: the stray rows with their answers (a row typed
    in a table's row that has no subject, a row of another seat's unit, a duplicate: kept where they were, with
    the answer a poll gives them), and the rows stamped for another window (kept with their stamp: the next poll
    sets them aside, a copy in the archive, as it would have)."""
    window = record.ruleset.window(record.state)
    rows = tuple(r for placed in tab.tables for r in placed.read(grid))
    rows, strays = sort_rows(record.ruleset, adapter, record.state, sheets, tabs, seat, tab, grid, rows)
    kept: dict[str, dict[str, TypedRow]] = {}
    stamped: list[TypedRow] = []
    for row in rows:
        if not row.typed:
            continue
        if stays(row, seat, tab.table(row.table).spec, window):  # its fate, as a GM's change would decide it
            kept.setdefault(row.table, {})[row.subject] = row
        else:
            stamped.append(row)
    # a name typed over (``over``) goes to the Archive, the redraw writing the name back (``stray_layout``), as a
    # poll does: the row's orders, if any, are among those kept above
    typed_strays = tuple(s for s in strays if s.why or s.over or s.quiet)
    report.rows_kept += sum(len(r) for r in kept.values()) + len(stamped) + len(typed_strays)
    # a cut resolution under way may have drawn the shown cells for the state after it: not told apart then
    shown = () if journal_under_way(sheets.journal, record) is not None else tuple(
        seat_shown_typed_over(adapter, record, seat, tab, grid_cells(tab.read_range(), grid)))
    return kept, _Overlay(tab, typed_strays, tuple(stamped), shown)
