"""A seat's file saved over the sync's write from an older copy: what she typed read, the rest drawn again.

A player's office program may still hold her workbook as it was before a resolution when she saves it (on a
shared folder the lock file does not always travel): the file then holds the older tables, stamps, View and
archive. Every resolution writes its number in the seat's pending row (``read.current_mark``), so the next poll
sees the copy (``SeatRead.older_copy``). That poll resolves nothing. It reads the engine's history rows of every
resolution since the copy (one read of the engine's spreadsheet, made only when a copy was found: each keeps
what it archived for every seat), and sorts the copy's typed rows (:func:`read_copies`):

- a row that a resolution since already read, unchanged since (same table, subject and cells), is not read again
  (none is resolved twice): an Archive entry says which resolution carried it out;
- a row holding only tick boxes (Go, Ready, End turn) stamped for a window that is not the open one: a tick is
  for one window, so it is unticked, and the Archive says so (a stale Go never resolves her turn with nothing);
- a row stamped for a window that has closed since (the copy's tables were drawn for it), that no resolution read
  as it stands, is bound to that window: set aside to the Archive with why, never read for the open one. Whether
  she typed it before that window resolved (and cleared it in the live file, with or without a poll between) or
  in the copy after, the file is the same: the sync cannot tell them apart, so it reads neither (a line cleared
  and brought back is never carried out; a line typed late is kept in the Archive, to be typed again);
- every other typed row (stamped for the open window, or not stamped) is what she typed in the copy: it is read for
  the open window, answered in its cell like any row;
- a row whose subject the state no longer draws (a unit that fell since) is set aside to the Archive.

The tab is then drawn again for the open window (stamps, rolls, headers, status), her rows in it; her View (title,
status, panel, and the log lines the copy lost, recomputed from the replay) and the board, when the board is in
that same file; and what the copy lost of her archive is written back from the engine's history rows: each later
resolution's readable entry (its copy beside it in the hidden Copies tab) and the pending row. The engine's
history rows stay the one copy ``undo`` reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sheets_gm.engine.ruleset import Window
from sheets_gm.engine.words import counted
from sheets_gm.sheets.backend import SheetBackend, SheetError
from sheets_gm.sheets.guard import GridCells
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sheets.spec import VIEW_COLS
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.life.repair_records import placed_view_rows, replayed_view_lines
from sheets_gm.sync.life.replay import entry_dice
from sheets_gm.sync.match_record import history_range, joined_cells
from sheets_gm.sync.read import MatchRead, current_mark, restamped
from sheets_gm.sync.rows.archive_lines import ArchiveLine, archive_lines_writes, capital, window_words
from sheets_gm.sync.rows.fate_words import (
    MARK,
    copy_closed_line,
    copy_done_line,
    copy_gone_line,
    copy_ticks_line,
    older_copy_sentence,
    shown_typed_over_line,
)
from sheets_gm.sync.rows.fates import read_line
from sheets_gm.sync.rows.pending_row import pending_writes
from sheets_gm.sync.rows.seat_read import SeatRead, cells_text, unticked
from sheets_gm.sync.rows.strays import StrayLayout, drawn_names, stray_layout
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend
from sheets_gm.sync.shown_cells import archived_details, seat_shown_typed_over
from sheets_gm.sync.writes import board_writes, seat_tables_writes, status_line, view_writes

History = Mapping[int, Mapping[str, Any]]  # resolution number -> its engine history row ({} if unreadable)


@dataclass(frozen=True)
class OlderCopy:
    """What a seat's file saved from an older copy held, sorted (``read_copies``): ``drawn`` is the seat's read
    as the tab is drawn again for the open window (her rows in it, stamped for it); the rest go to her Archive."""

    since: int  # the resolution the copy was drawn for
    drawn: SeatRead
    done: tuple[tuple[int, TypedRow], ...] = ()  # rows a resolution since already read (its number), unchanged
    ticks: tuple[TypedRow, ...] = ()  # rows of ticks alone, stamped for a closed window: unticked
    gone: tuple[TypedRow, ...] = ()  # rows whose subject the state no longer draws: set aside
    fresh: tuple[TypedRow, ...] = ()  # rows she typed in the copy, read for the open window (as drawn)
    restored: tuple[TypedRow, ...] = ()  # rows the last resolution kept in their cells, which the copy lacked
    closed: tuple[TypedRow, ...] = ()  # rows read for a window closed since without them: set aside


def read_copies(sheets: MatchSheets, read: MatchRead, window: Window | None) -> tuple[dict[str, OlderCopy], History]:
    """Every seat whose file is an older copy, its rows sorted (see the module), and the engine's history rows of
    the resolutions since the oldest copy (read only when a copy was found)."""
    older = {seat: s.older_copy for seat, s in read.seats.items() if s.older_copy is not None}
    if not older:
        return {}, {}
    history = _history(sheets, read, min(older.values()) + 1)
    return {seat: _sorted(read, read.seats[seat], since, history, window) for seat, since in older.items()}, history


def _history(sheets: MatchSheets, read: MatchRead, first: int) -> dict[int, dict[str, Any]]:
    """The engine's history rows from resolution ``first`` to the last ({} for each when they cannot be read)."""
    numbers = list(range(first, read.record.resolved + 1))
    try:
        grids = sheets.engine.read([history_range(read.tabs.spec.tabs.engine, n) for n in numbers])
    except SheetError:
        grids = [[] for _ in numbers]  # the tab is drawn again all the same; the archive waits for repair
    return {n: _entry(grid) for n, grid in zip(numbers, grids, strict=True)}


def _found(entry: Mapping[str, Any], seat: str) -> Mapping[str, Any]:
    """What a history row keeps of ``seat``'s rows ({} when it keeps nothing readable)."""
    archived = entry.get("archived", {}).get(seat) if isinstance(entry.get("archived"), dict) else None
    if not isinstance(archived, str):
        return {}
    try:
        found = json.loads(joined_cells([str(entry.get("window", "")), archived], 1))
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _archived(entry: Mapping[str, Any], seat: str) -> tuple[list[TypedRow], list[Mapping[str, Any]]]:
    """The rows a history row says its resolution read of ``seat``'s, and those it kept (each with its note)."""
    found = _found(entry, seat)
    kept: list[Mapping[str, Any]] = [k for k in found.get("kept", []) if isinstance(k, dict)]
    return _rows(found.get("rows", [])), kept


def _sorted(read: MatchRead, seat_read: SeatRead, since: int, history: History, window: Window | None) -> OlderCopy:
    """One copy's typed rows sorted (see the module), and the seat's read as its tab is drawn again."""
    done: list[tuple[int, TypedRow]] = []
    ticks: list[TypedRow] = []
    fresh: list[tuple[TypedRow, str]] = []  # each with the subject of the row it is drawn in now
    closed: list[TypedRow] = []
    for row in (r for r in seat_read.rows if r.typed):
        carried_out, now = _followed(row, seat_read.seat, since, history)
        if carried_out is not None:
            done.append((carried_out, row))
            continue
        stamped = window is not None and row.window == window.key
        if not stamped and row.window and not unticked(seat_read.tab, row).typed:
            ticks.append(row)
            continue
        if window is not None and row.window and not stamped \
                and not seat_read.tab.table(row.table).spec.standing \
                and not _read_since(row, seat_read.seat, since, history):
            closed.append(row)
            continue
        fresh.append((row if stamped or not row.window else unticked(seat_read.tab, row), now))
    last = next((found for n in sorted(history, reverse=True) if (found := _found(history[n], seat_read.seat))), {})
    placed = _moved_up(fresh)
    moved: dict[tuple[str, str], str] = {}  # a kept row drawn back lower down (its place typed over): where now
    restored = _left_in_rows(last, placed, _free_rows(read, seat_read), moved) \
        if any(n > since for n in history) else []
    restored = [t for r in restored if (t := unticked(seat_read.tab, r)).typed]  # a tick is for one window only
    drawn, gone = _drawn(read, seat_read, window, placed + restored)
    notes = [k for k in last.get("kept", []) if isinstance(k, dict)]  # their reasons, beside them where they are now
    drawn = replace(drawn, kept=tuple({**k, "subject": moved.get((str(k.get("table")), str(k.get("subject"))),
                                                                  k.get("subject"))}
                                      for k in notes))
    back = {(r.table, r.subject) for r in restored}
    return OlderCopy(since, drawn, tuple(done), tuple(ticks), tuple(gone),
                     tuple(r for r in drawn.rows if r.typed and (r.table, r.subject) not in back),
                     tuple(r for r in drawn.rows if (r.table, r.subject) in back), tuple(closed))


def _read_since(row: TypedRow, seat: str, since: int, history: History) -> bool:
    """Whether a resolution since the copy read ``row`` as it stands (and kept it: ``_followed`` finds those it
    carried out): a row kept with why goes on as the resolution left it."""
    return any((r.table, _text(r)) == (row.table, _text(row)) for n in history if n > since
               for r in _rows(_found(history[n], seat).get("rows", [])))


def _free_rows(read: MatchRead, seat_read: SeatRead) -> dict[str, list[str]]:
    """The rows of each ordered table of the seat's tab, top down: places where a kept row may go back."""
    return {p.spec.name: read.adapter.laid_out_rows(read.record.state, seat_read.seat, p)
            for p in seat_read.tab.tables if p.spec.ordered}


def _left_in_rows(found: Mapping[str, Any], fresh: Sequence[TypedRow], free: Mapping[str, Sequence[str]],
                  moved: dict[tuple[str, str], str]) -> list[TypedRow]:
    """The rows the last resolution since the copy kept in their cells (``stayed``, each where it stood) that the copy
    has no typed row for: the copy was loaded before that resolution wrote them, so saving it emptied them; they come
    back where the resolution left them, as it left them (its Archive says they are still in her rows). In an ordered
    table (``free``: its rows, top down) a row is a place in a list, not a subject: when she typed a new row in the
    copy where a kept one stood, the kept one comes back in the first row free below the rows in use (both are
    hers; ``moved`` gets its row's place then and now); in a table of subjects, what she typed for that subject is
    her order for it now."""
    taken = {(r.table, r.subject) for r in fresh}
    texts = {(r.table, tuple(sorted(_text(r).items()))) for r in fresh}
    out: list[TypedRow] = []
    for entry in found.get("stayed", []):
        if not isinstance(entry, dict) or not entry.get("at"):
            continue
        try:
            row = TypedRow.from_json(entry)
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        key = (row.table, str(entry["at"]))
        at = key
        if key in taken and row.table in free:
            key = next(((row.table, s) for s in free[row.table] if (row.table, s) not in taken), key)
        if key in taken or not any(_text(row).values()) or (row.table, tuple(sorted(_text(row).items()))) in texts:
            continue
        if key != at:
            moved[at] = key[1]
        taken.add(key)
        out.append(replace(row, subject=key[1]))
    return out


def _moved_up(fresh: Sequence[tuple[TypedRow, str]]) -> list[TypedRow]:
    """The copy's rows read, each in the row a resolution since drew it in (a kept row an ordered table moved up),
    unless another row she typed holds that place: then where she typed it (neither is lost)."""
    taken = {(r.table, r.subject) for r, now in fresh if now == r.subject}
    out = []
    for row, now in fresh:
        if now != row.subject and (row.table, now) not in taken:
            taken.add((row.table, now))
            row = replace(row, subject=now)
        out.append(row)
    return out


def _followed(row: TypedRow, seat: str, since: int, history: History) -> tuple[int | None, str]:
    """The resolution since the copy that carried ``row`` out (None if none did), and the subject of the row it is
    drawn in now. A resolution that read it and kept it (refused, or not carried out) did not carry it out; an
    ordered table moved it up, and the next resolution read it under the subject it was moved to."""
    subject, text = row.subject, _text(row)
    for n in sorted(k for k in history if k > since):
        found = _found(history[n], seat)
        if not any((r.table, r.subject, _text(r)) == (row.table, subject, text) for r in _rows(found.get("rows", []))):
            continue
        if not any((k.get("table"), cells_text(k.get("values"))) == (row.table, text)
                   for k in found.get("kept", []) if isinstance(k, dict)):
            return n, subject
        subject = next((str(s.get("at")) for s in found.get("stayed", []) if isinstance(s, dict)
                        and (s.get("table"), s.get("subject")) == (row.table, subject) and s.get("at")), subject)
    return None, subject


def _drawn(read: MatchRead, seat_read: SeatRead, window: Window | None,
           fresh: Sequence[TypedRow]) -> tuple[SeatRead, list[TypedRow]]:
    """The seat's read as its tab is drawn again for ``window``: a row per subject the state draws, where the
    drawing puts it, holding what she typed in the copy for that subject (stamped as the window stamps the table);
    and the rows she typed whose subject has no row any more."""
    state = read.record.state
    by_key = {(r.table, r.subject): r for r in fresh}
    rows: list[TypedRow] = []
    for placed in seat_read.tab.tables:
        spec = placed.spec
        stamp = spec.stamp(window, seat_read.seat)
        for i, subject in enumerate(read.adapter.laid_out_rows(state, seat_read.seat, placed)):
            typed = by_key.pop((spec.name, subject), None)
            values = dict(typed.values) if typed is not None else {c.key: "" for c in spec.columns if c.kind.typed}
            rows.append(TypedRow(spec.name, subject, placed.first_row + i, stamp, values, ""))
    return replace(seat_read, rows=tuple(rows), kept=()), list(by_key.values())


def _text(row: TypedRow) -> dict[str, str]:
    return cells_text(row.values)


def copy_fate(read: MatchRead, seat: str, copy: OlderCopy) -> str:
    """What the sync does with a seat's file saved from an older copy, for the GM: ``red (drawn for resolution 0, the
    match is at 1): 1 row read for turn 2, 4 already carried out not read again, 1 tick unticked``."""
    window = read.record.ruleset.window(read.record.state)
    parts = [f"{counted(len(copy.fresh), 'row')} typed in it read for {window.label if window else 'nothing'}"]
    if copy.done:
        parts.append(f"{len(copy.done)} already carried out not read again")
    if copy.ticks:
        parts.append(f"{counted(len(copy.ticks), 'row')} of ticks for a closed window unticked")
    if copy.gone:
        parts.append(f"{counted(len(copy.gone), 'row')} whose subject has no row any more set aside")
    if copy.closed:
        parts.append(f"{counted(len(copy.closed), 'row')} read for a window closed without them set aside")
    if copy.restored:
        parts.append(f"{counted(len(copy.restored), 'row')} kept by the last resolution and missing from it drawn back")
    return f"{seat} (drawn for resolution {copy.since}, the match is at {read.record.resolved}): {', '.join(parts)}"


def copy_lines(read: MatchRead, copy: OlderCopy, window: Window | None, history: History) -> list[ArchiveLine]:
    """The Archive entries saying why the copy's rows that are not read were left: carried out already, ticks of a
    closed window, a subject with no row any more."""
    tab = copy.drawn.tab
    now = read.record.resolved
    label = capital(window.label) if window is not None else "End"
    lines: list[ArchiveLine] = []
    for n in sorted({n for n, _r in copy.done}):
        rows = tuple(r for m, r in copy.done if m == n)
        was = _window(read, history.get(n, {}))
        when = was.label if was is not None else f"resolution {n}"
        lines.append(copy_done_line(tab, capital(when), now, when, rows))
    if copy.ticks:
        keys = ", ".join(dict.fromkeys(window_words(r.window, window) for r in copy.ticks))
        lines.append(copy_ticks_line(tab, label, now, keys, copy.ticks))
    if copy.gone:
        lines.append(copy_gone_line(tab, label, now, copy.gone))
    if copy.closed:
        keys = ", ".join(dict.fromkeys(window_words(r.window, window) for r in copy.closed))
        lines.append(copy_closed_line(tab, label, now, keys, copy.closed))
    return lines


def restore_archives(sheets: MatchSheets, read: MatchRead, batch: WriteBatch, copies: Mapping[str, OlderCopy],
                     history: History, window: Window | None) -> dict[str, int]:
    """For every seat whose file is an older copy, queue its archive's rows of each resolution since the copy (a
    readable entry each, the pending row) from the engine's history rows, then the entries
    of the copy's rows not read (``copy_lines``); returns each such seat's archive line count after."""
    record = read.record
    counts: dict[str, int] = {}
    for seat, copy in copies.items():
        seat_read = read.seats[seat]
        backend = seat_backend(sheets, read.tabs, seat)
        lines: list[ArchiveLine] = []
        last: list[Any] = ["", current_mark(record.resolved, record.deal, record.stamp())]
        for n in range(copy.since + 1, record.resolved + 1):
            entry = history.get(n, {})
            archived = entry.get("archived", {}).get(seat) if isinstance(entry.get("archived"), dict) else None
            if not isinstance(archived, str):
                continue  # resolved by an earlier version of sheets-gm: its engine row kept no copy
            key = str(entry.get("window", ""))
            last = [key, archived]
            was = _window(read, entry)
            rows, _kept = _archived(entry, seat)
            if was is not None and rows:
                found = _found(entry, seat)
                unused, partly, aside = _said(found)
                lines.append(read_line(seat_read.tab, was, rows, unused, partly, aside, found.get("forced") is True))
        lines += copy_lines(read, copy, window, history)
        lines += _copy_strays(read, copy, history).aside_line(copy.drawn.tab, window)
        shown = _copy_shown(read, copy, history)
        lines += [shown_typed_over_line(capital(window.label) if window else "End", shown)] if shown else []
        counts[seat] = archive_lines_writes(batch, backend, read.tabs, seat, seat_read.archive_lines, lines)
        pending_writes(batch, backend, read.tabs, seat,  # drawn again for the match as it is now
                       [*restamped(last, record, f"rows {seat} typed")[:2], counts[seat]])
    return counts


def draw_copy_again(sheets: MatchSheets, batch: WriteBatch, backend: SheetBackend, read: MatchRead,
                    copy: OlderCopy, window: Window, history: History) -> int:
    """Queue the seat's file drawn again for ``window``: its tab (status, headings, stamps, rolls, her rows, the stray
    rows kept), its View (title, status, panel, the log lines the copy lost) and the board when it is in that file;
    the status lines say what happened (``fate_words.older_copy_sentence``). Returns how many View log lines the
    copy lost that the replay cannot give back (they wait for ``repair``)."""
    record, seat, adapter = read.record, copy.drawn.seat, read.adapter
    tab = copy.drawn.tab
    status = older_copy_sentence(record.resolved, len(copy.fresh), len(copy.done), len(copy.ticks), len(copy.gone),
                                 read.tabs.archive(seat), len(copy.restored), len(copy.closed)) \
        + status_line(adapter, record)
    kept: dict[str, dict[str, TypedRow]] = {}
    for row in copy.fresh + copy.restored:
        kept.setdefault(row.table, {})[row.subject] = row
    seat_tables_writes(batch, backend, tab, adapter, record.state, window, seat, record.dice(), status, "", kept, {},
                       _copy_strays(read, copy, history).queue(batch, backend))
    lost = 0
    if seat in read.tabs.view_seats():
        view_writes(batch, backend, read.tabs, adapter, record.state, seat, status, record.seat_logs.get(seat, 0), [])
        lost = _lost_view_lines(sheets, batch, backend, read, copy, history)
    if sheets.board is backend or sheets.board.name == backend.name:  # the board is in her file: drawn again too
        board_writes(batch, sheets.board, read.tabs, adapter, record.state, status_line(adapter, record),
                     record.deadline, record.stamp())
    return lost


def _copy_strays(read: MatchRead, copy: OlderCopy, history: History) -> StrayLayout:
    """Where the copy's stray rows stay once its tab is drawn again. A row's name that the state the copy was
    drawn for (or one since) draws is the copy's own drawing (a unit that fell since), not a player's typing:
    drawn again, not kept; any other name written over is kept in the Archive, as the poll keeps one."""
    tab = copy.drawn.tab
    ours = drawn_names(read.adapter, [state for state, _entry in _copy_states(read, copy, history)], copy.drawn.seat,
                       tab)
    strays = [s for s in copy.drawn.strays if not s.over or s.over not in ours]
    return stray_layout(read.adapter, read.record.state, copy.drawn.seat, tab, tab, strays)


def _copy_shown(read: MatchRead, copy: OlderCopy, history: History) -> list[str]:
    """The Archive's lines of the shown cells typed over in the copy (a hex typed as the order): a cell holding what
    the state the copy was drawn for (or one since) drew there is the copy's own drawing, not typing."""
    seat, rules, seeds = copy.drawn.seat, read.record.ruleset, read.record.seeds
    found = GridCells(read.typed.get(seat, ()))
    drawings = [(state, entry_dice(rules, seeds, state, entry)) for state, entry in _copy_states(read, copy, history)]
    shown = seat_shown_typed_over(read.adapter, read.record, seat, copy.drawn.tab, found, drawings)
    return archived_details(shown).get(seat, [])


def _copy_states(read: MatchRead, copy: OlderCopy, history: History) -> list[tuple[Any, Mapping[str, Any]]]:
    """The states the copy's tab may have been drawn for (the one of its resolution, and each one since), each with
    its history row; a row whose state cannot be read is left out."""
    out: list[tuple[Any, Mapping[str, Any]]] = []
    for n in range(copy.since + 1, read.record.resolved + 1):
        entry = history.get(n) or {}
        try:
            out.append((read.record.ruleset.state_codec.from_json(entry["state_before"]), entry))
        except (KeyError, TypeError, ValueError):
            continue
    return out


def _lost_view_lines(sheets: MatchSheets, batch: WriteBatch, backend: SheetBackend, read: MatchRead,
                     copy: OlderCopy, history: History) -> int:
    """Queue the View log lines written since the copy was drawn, each in the row it held (``placed_view_rows``:
    the replay's lines, and the public ones of a window an undo took back from the Log), else recomputed from the
    replay when it gives every line the record counts; a line this seat alone was shown, which neither gives,
    waits for ``repair``, which says what it cannot recompute. Returns how many lost lines wait so."""
    record, seat = read.record, copy.drawn.seat
    count = record.seat_logs.get(seat, 0)
    starts = history.get(copy.since + 1, {}).get("seat_logs_from")
    first = starts.get(seat, 0) if isinstance(starts, dict) else None
    if not isinstance(first, int) or first >= count:
        return 0
    try:
        placed = placed_view_rows(sheets, record, read.tabs, read.adapter, seat)
        lines: Sequence[Sequence[CellValue] | None] = (
            placed if placed is not None else replayed_view_lines(sheets, record, read.tabs, read.adapter, seat))
    except (SheetError, ValueError, KeyError, TypeError):
        return count - first  # the replay cannot be worked out: the lines wait for repair
    if len(lines) != count:
        return count - first
    # each line in the row it held; a row the replay cannot give (a line this seat alone was shown) waits for repair
    rows: Grid = [[*line[:VIEW_COLS], *[""] * (VIEW_COLS - len(line[:VIEW_COLS]))] if line is not None
                  else [""] * VIEW_COLS
                  for line in lines[first:]]
    batch.put(backend, read.tabs.view_log_range(seat, first, len(rows), VIEW_COLS), rows)
    return sum(1 for line in lines[first:] if line is None)


def _entry(grid: Any) -> dict[str, Any]:
    """A history row's JSON ({} when it cannot be read)."""
    row = grid[0] if grid else []
    try:
        found = json.loads(joined_cells(row, 1)) if len(row) > 1 else None
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _window(read: MatchRead, entry: Mapping[str, Any]) -> Any:
    """The window a history row resolved (None when its state cannot be read)."""
    ruleset = read.record.ruleset
    try:
        return ruleset.window(ruleset.state_codec.from_json(entry["state_before"]))
    except (KeyError, TypeError, ValueError):
        return None


def _rows(found: Any) -> list[TypedRow]:
    """The rows of an archived list ([] when it cannot be read)."""
    try:
        return [TypedRow.from_json(r) for r in found]
    except (ValueError, KeyError, TypeError, AttributeError):
        return []


Said = dict[tuple[str, str], str]


def _said(found: Mapping[str, Any]) -> tuple[Said, Said, Said]:
    """What a resolution's Archive entry said of the rows it did not carry out whole, by the table and subject each
    was read in: those not carried out (and why), those carried out in part, and those of the first set aside as
    one window's (with their table's words); so the entry written back from the
    engine says what the first one said, row for row. Its history row keeps those words (``SeatSettled.told``); one
    written by an earlier version of sheets-gm keeps only its kept rows' feedback, each under the row it was drawn
    in after (an ordered table moves its rows up), taken back to the row it was read in (``stayed``)."""
    if "unused" in found or "partly" in found:
        return _told(found.get("unused")), _told(found.get("partly")), _told(found.get("aside"))
    read_in = {(str(s.get("table", "")), str(s.get("at", ""))): str(s.get("subject", ""))
               for s in found.get("stayed", []) if isinstance(s, dict)}
    unused: Said = {}
    partly: Said = {}
    for k in (k for k in found.get("kept", []) if isinstance(k, dict)):
        table, subject = str(k.get("table", "")), str(k.get("subject", ""))
        note = str(k.get("note", "")).removeprefix(MARK).strip()
        if note and not note.startswith("✔"):  # a row carried out whole says so once cleared: not a refusal
            (partly if "in part" in note else unused)[(table, read_in.get((table, subject), subject))] = note
    return unused, partly, {}


def _told(said: Any) -> Said:
    """``[[table, subject, words], ...]`` by table and subject (what cannot be read left out)."""
    return {(str(t[0]), str(t[1])): str(t[2]) for t in said if isinstance(t, list) and len(t) == 3} \
        if isinstance(said, list) else {}
