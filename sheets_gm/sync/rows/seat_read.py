"""A seat's input tab as a poll read it: its typed rows, and what its pending row keeps of them.

Every writer around the poll decides a row's fate from this (``fates``); ``read`` builds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.adapter import AnySheetAdapter, RowOut
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sheets.tables import InputTab, TypedRow, text_of
from sheets_gm.sync.match_record import FileStamp
from sheets_gm.sync.rows.strays import StrayRow


@dataclass(frozen=True)
class SeatRead:
    """One seat's input tab as read: its rows, and what the archive's pending row holds of them.

    A typed row is, at any poll, in one of these states (``docs/sync.md``, "The life of a typed row"): read for
    the open window (its stamp is the open window's key); held for the seat's next window (typed in a table the
    seat does not write in now: kept in its cell, read when that window opens); stale (typed in a table open now
    but stamped for another window: set aside, a copy in the archive); or standing (read in every window)."""

    seat: str
    tab: InputTab
    rows: tuple[TypedRow, ...]
    pending: Mapping[str, Any] | None  # {"resolution": n, "window": key, "rows": [...]} when a resolution was cut
    kept: tuple[Mapping[str, Any], ...] = ()  # the rows the last resolution kept, and why (their feedback)
    strays: tuple[StrayRow, ...] = ()  # rows no order is read from (not in ``rows``), each with its answer
    archive_lines: int = 0  # the readable lines of the seat's archive: where the next one goes
    older_copy: int | None = None  # the resolution the file was drawn for, when older than the last (a stale copy)
    stamp: FileStamp | None = None  # the match and generation the file was last drawn for (None: before stamps)
    pending_cells: tuple[CellValue, ...] = ()  # the pending row as read (window key, rows read, the line count)
    # completing a resolution cut short: the rows its record says it read for the window (``sync/journal.py``)
    recorded: tuple[TypedRow, ...] | None = None
    # the rows typed for the next window the open judge's window takes orders for (``Window.early``) as the first
    # poll past her players' deadline read them (kept in the pending row): what that window reads; a row typed or
    # changed since is late. None: not taken yet (the players' part is open, or no poll has run since)
    early: tuple[TypedRow, ...] | None = None

    def note(self, row: TypedRow) -> str:
        """Why ``row`` is still typed, if the last resolution kept it and it still holds what it held then ('' if
        not)."""
        for k in self.kept:
            if (k.get("table"), k.get("subject")) == (row.table, row.subject) \
                    and cells_text(k.get("values")) == cells_text(row.values):
                return str(k.get("note", ""))
        return ""

    def _standing(self) -> set[str]:
        return {p.spec.name for p in self.tab.tables if p.spec.standing}

    def writes_in(self, window: Window | None, table: str) -> bool:
        """Whether the seat writes in ``table`` in ``window`` (it acts in the window and the table is open)."""
        return window is not None and self.seat in window.seats and self.tab.table(table).spec.open_in(window.phase)

    def for_window(self, window: Window) -> dict[str, list[TypedRow]]:
        """The rows typed for ``window`` (completing a resolution cut short, those its record says it read, or
        without one those its pending row says it consumed), by table name, only for the tables open in the window's
        phase."""
        standing = self._standing()
        if self.recorded is not None:
            rows = list(self.recorded)
        elif self.pending is not None:
            rows = [TypedRow.from_json(r) for r in self.pending["rows"]]
        else:
            rows = [r for r in self.rows if r.window == window.key or (r.table in standing and r.typed)]
        out: dict[str, list[TypedRow]] = {}
        for placed in self.tab.tables:
            if placed.spec.open_in(window.phase):
                out[placed.spec.name] = [r for r in rows if r.table == placed.spec.name]
        return out

    def bound(self, window: Window, held: frozenset[str] = frozenset()) -> list[TypedRow]:
        """The rows read for ``window``, which bind to it: every row stamped for it (completing a cut resolution,
        every row its first try read) in a table the seat writes in, but a standing table's (read in every window
        until an order uses it) and those ``held`` for the seat's next window (by subject)."""
        return [r for rows in self.for_window(window).values() for r in rows
                if r.window == window.key and (r.typed or self.pending is not None) and r.subject not in held
                and not self.tab.table(r.table).spec.standing and self.writes_in(window, r.table)]

    def stale(self, window: Window) -> list[TypedRow]:
        """Rows typed in a table the seat writes in now but stamped for another window (a window undone, or
        one a cut resolution left): they cannot be read as this window's, and are set aside."""
        standing = self._standing()
        return [r for r in self.rows if r.typed and r.window != window.key and r.table not in standing
                and self.writes_in(window, r.table)]

    def done(self, window: Window, used: frozenset[str]) -> frozenset[tuple[str, str]]:
        """(table, subject) of the rows a resolution of ``window`` carried out: rows typed for it, in a table the
        seat writes in, whose subjects it ``used`` (a row of another table with the same subject is not one)."""
        return frozenset((r.table, r.subject) for r in self.rows if r.subject in used and r.window == window.key
                         and self.writes_in(window, r.table))

    def read_and_used(self, window: Window, used: frozenset[str]) -> frozenset[tuple[str, str]]:
        """(table, subject) of the rows a resolution of ``window`` read and ``used``: ``done``'s rows, or, completing a
        resolution cut short, those its pending row keeps (her cells were cleared by its first write): so that the
        completion answers them as the uncut resolution did."""
        if self.pending is None:
            return self.done(window, used)
        return frozenset((r.table, r.subject) for r in (TypedRow.from_json(j) for j in self.pending["rows"])
                         if r.subject in used and r.window == window.key and self.writes_in(window, r.table))

    def writes_early(self, window: Window | None, table: str) -> bool:
        """Whether the seat types, while ``window`` is open, the orders of the next window it takes early in
        ``table`` (``Window.early``)."""
        early = window.early if window is not None else None
        return early is not None and self.seat in early.seats and self.tab.table(table).spec.open_in(early.phase)

    def early_typed(self, window: Window) -> tuple[TypedRow, ...]:
        """The rows typed now for the next window ``window`` takes orders for (what the players' deadline takes)."""
        return tuple(r for r in self.rows if r.typed and self.writes_early(window, r.table))

    def late(self, window: Window | None, adapter: AnySheetAdapter, state: Any) -> list[tuple[TypedRow, RowOut]]:
        """The rows typed for the next window ``window`` takes orders for that it will not read, whole or in part,
        each with what of it is not read (``adapter.row_out`` read with ``state``, the judge's window's): what orders
        a subject that cannot take orders early (``Window.early_out``: an army that fights, its own row or its line in
        a pasted post, the rest of the post read), or the whole row typed or changed since the players' deadline
        took it (``early``; no lines named)."""
        if window is None or window.early is None:
            return []
        taken = None if self.early is None else {(r.table, r.subject): cells_text(r.values) for r in self.early}
        out = []
        for row in self.early_typed(window):
            why = self._out(row, window, adapter, state)
            if (why is None or why.left is not None) and taken is not None \
                    and taken.get((row.table, row.subject)) != cells_text(row.values):
                why = RowOut({}, row, None)
            if why is not None:
                out.append((row, why))
        return out

    def _out(self, row: TypedRow, window: Window, adapter: AnySheetAdapter, state: Any) -> RowOut | None:
        """What of ``row`` orders a subject that cannot take orders early in ``window`` (None: nothing)."""
        if not window.early_out:
            return None
        return adapter.row_out(state, self.seat, self.tab.table(row.table).spec, row, window.early_out)

    def early_kept(self, window: Window, kept: Mapping[str, Mapping[str, TypedRow]], adapter: AnySheetAdapter,
                   state: Any) -> dict[str, dict[str, TypedRow]]:
        """``kept`` (the rows a resolution of ``window`` keeps in their cells) as the next window it took orders for
        reads them: the late rows out (what of a pasted post orders an army that fights: its lines, the rest kept),
        and those the players' deadline took as they stood then (one cleared since put back), without their lines
        for an army that fights."""
        out = {t: dict(rows) for t, rows in kept.items()}
        for row, why in self.late(window, adapter, state):
            rows = out.get(row.table, {})
            if why.left is None:
                rows.pop(row.subject, None)
            elif row.subject in rows:
                rows[row.subject] = why.left
        for row in self.early or ():
            taken = self._out(row, window, adapter, state)
            left = row if taken is None else taken.left
            if left is not None:
                out.setdefault(row.table, {})[row.subject] = left
        return out

    def held(self, window: Window | None) -> list[TypedRow]:
        """Rows typed ahead, in a table the seat does not write in now (a standing table's too): kept in their
        cells for the seat's next window that opens the table."""
        return [r for r in self.rows if r.typed and not self.writes_in(window, r.table)]

    def carried(self, window: Window | None, new_window: Window, done: frozenset[tuple[str, str]],
                consumed: frozenset[str]) -> dict[str, dict[str, TypedRow]]:
        """The typed rows that stay when the tables are drawn for ``new_window`` after ``window`` resolved, by
        table and the subject of the row they are drawn in: every typed row but those ``done`` (by table and
        subject: carried out) and the stale ones (set aside), and a standing table's rows not ``consumed``.
        Moving to another window, the tick boxes (Go, Ready) of the rows typed for ``window`` are cleared: a
        tick was for that window (a row typed ahead keeps its ticks, for the window it was typed for). In an
        ordered table the rows move up together, in order, the first to the table's first row, gaps closed."""
        standing = self._standing()
        stale = {(r.table, r.row) for r in self.stale(window)} if window is not None and self.pending is None else set()
        moving = window is None or new_window.key != window.key
        kept: dict[str, dict[str, TypedRow]] = {}
        for row in self.rows:
            if not row.typed or (row.table, row.row) in stale:
                continue
            stays = row.subject not in consumed if row.table in standing else (row.table, row.subject) not in done
            if stays and moving and window is not None and row.window == window.key:  # typed ahead: ticks kept
                row = unticked(self.tab, row)
            if stays and row.typed:
                kept.setdefault(row.table, {})[row.subject] = row
        for placed in self.tab.tables:
            if placed.spec.ordered and kept.get(placed.spec.name):
                subjects = [r.subject for r in sorted(self.rows, key=lambda r: r.row) if r.table == placed.spec.name]
                rows = kept[placed.spec.name]
                ordered = sorted(rows, key=subjects.index)
                kept[placed.spec.name] = {subjects[i]: rows[s] for i, s in enumerate(ordered)}
        return kept


def unticked(tab: InputTab, row: TypedRow) -> TypedRow:
    """``row`` with its window's tick boxes (Go, Ready) cleared; a tick that is part of its order stays."""
    ticks = [c.key for c in tab.table(row.table).spec.window_boxes()]
    return replace(row, values={**row.values, **dict.fromkeys(ticks, False)}) if ticks else row


def cells_text(values: object) -> dict[str, str]:
    """A row's typed cells as text, the empty ones left out (to compare a row with what was archived of it)."""
    if not isinstance(values, Mapping):
        return {}
    return {str(k): text_of(v) for k, v in values.items() if v not in (None, "", False)}
