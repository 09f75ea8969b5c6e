"""What an undo does with one seat's rows.

An undo takes the match back to before the resolution it undoes, and the seat's tables with it. The rows that
resolution read come back in their cells (its history row's copy, ``rows``), and so do the rows it kept in their
cells unread or refused (``stayed``: the history row's copy of them, with the row each was left in): each where it
stood before the resolution. An ordered table (Win or Die's actions), whose resolution moved its kept rows up, holds
them again after the rows put back, in their order. A standing row (a reaction) stays where it is. Only a row typed
after the resolution, one that holds none of those, is set aside to the Archive, and so is a standing row whose
subject has no row before the resolution. Ready and Go come back unticked, so that nothing resolves again before the
GM has done what the undo was for. The sentences are ``fates``'.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.tables import InputTab, TypedRow
from sheets_gm.sync.rows.fates import (
    held_sentence,
    kept_back_head,
    kept_back_refusals,
    kept_back_sentence,
    kept_refusals,
    put_back_sentence,
    undo_told,
    unticked,
)
from sheets_gm.sync.rows.opened import OpenedCheck
from sheets_gm.sync.rows.seat_read import SeatRead, cells_text


@dataclass
class UndoneSeat:
    """What an undo does with one seat's rows: ``read``, the rows the undone resolution read that it puts back (as
    read); ``restored``, every row back in its cells, each drawn in the row of its subject, Ready and Go unticked;
    ``told``, what each row put back says (by table and subject); ``typed_since``, the rows set aside."""

    read: list[TypedRow] = field(default_factory=list)
    restored: list[TypedRow] = field(default_factory=list)
    told: dict[str, dict[str, str]] = field(default_factory=dict)
    typed_since: list[TypedRow] = field(default_factory=list)
    # By table and subject: where each row put back comes from, and the refusals its note gave (``told_in``).
    heads: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)
    stood: list[TypedRow] = field(default_factory=list)  # the rows the undone resolution had kept, put back
    standing: list[TypedRow] = field(default_factory=list)  # the standing rows that stay where they are

    def told_in(self, opened: OpenedCheck, adapter: AnySheetAdapter, seat: str, tab: InputTab,
                ) -> dict[str, dict[str, str]]:
        """What each row put back says in the window the undo reopened (``opened``: what that window makes of the
        rows put back): where it comes from, then its true fate there (``fates.undo_told``); a row the window does
        not read, ``told``."""
        out = {table: dict(by_subject) for table, by_subject in self.told.items()}
        for row in self.restored:
            head, note = self.heads.get(row.table, {}).get(row.subject, ("", ""))
            stays = not head and row in self.standing  # a standing row left where it is: its own answer alone
            answer = opened.answer(adapter, seat, tab.table(row.table).spec, row, note) if head or stays else None
            if answer is not None:
                out.setdefault(row.table, {})[row.subject] = undo_told(head, answer, opened.window) if head else answer
        return out

    def fates(self, told: Mapping[str, Mapping[str, str]], window: Window, seat: str,
              tab: InputTab) -> dict[tuple[str, str], str]:
        """What each row put back where it stood says now in ``window``, the window reopened (``told``, by table and
        subject), without where it comes from: its fate, for the undo's Archive entry (in a table the seat does not
        write in then, that it is kept for her next window)."""
        out: dict[tuple[str, str], str] = {}
        for row in self.stood:
            head, _note = self.heads.get(row.table, {}).get(row.subject, ("", ""))
            said = told.get(row.table, {}).get(row.subject, "").removeprefix(head).removeprefix(" · ")
            spec = tab.table(row.table).spec
            if not (seat in window.seats and spec.open_in(window.phase)):
                said = " · ".join(p for p in (said, held_sentence(window, seat, spec)) if p)
            out[(row.table, row.subject)] = said
        return out


@dataclass(frozen=True)
class _Back:
    """A row the undo puts back: as it stood (``row``; its subject '' when the history does not say where), where
    the undone resolution left it (``at``), what it said then (``note``), and whether the resolution read it."""

    row: TypedRow
    at: str
    note: str = ""
    read: bool = True


def _stayed(found: Mapping[str, Any]) -> list[_Back]:
    """The rows the resolution whose archived record is ``found`` kept in their cells, outside the standing tables.
    A history row written before it kept them whole names only those that said why (``kept``, where they were
    left): those come back all the same, after the rows put back."""
    notes = [k for k in found.get("kept", []) if isinstance(k, Mapping)]

    def note(table: str, at: str, values: object) -> str:
        return next((str(k.get("note", "")) for k in notes if (k.get("table"), k.get("subject")) == (table, at)
                     and cells_text(k.get("values")) == cells_text(values)), "")

    out: list[_Back] = []
    if isinstance(found.get("stayed"), list):
        for entry in found["stayed"]:
            with contextlib.suppress(KeyError, TypeError):
                row = TypedRow.from_json(entry)
                out.append(_Back(row, str(entry["at"]), note(row.table, str(entry["at"]), row.values), read=False))
        return out
    window = str(found.get("window", ""))
    for k in notes:
        values = k.get("values")
        if isinstance(values, dict) and cells_text(values):
            row = TypedRow(str(k.get("table", "")), "", 0, window, values, "")
            out.append(_Back(row, str(k.get("subject", "")), str(k.get("note", "")), read=False))
    return out


def _still_refused(seat_read: SeatRead, back: _Back) -> _Back:
    """A row the undone resolution kept, with the refusals its row says now added to its note when it still holds
    what it held (nothing typed in it since): a window after that resolution refused it (Champions' equipment row,
    typed ahead, refused by the fight window), and a row keeps its reason until its text changes, across an undo
    too (issue 75), until a window that reads it answers it anew."""
    now = next((r for r in seat_read.rows if r.typed and r.table == back.row.table
                and r.subject in (back.row.subject or back.at, back.at)
                and cells_text(r.values) == cells_text(back.row.values)), None)
    said = kept_refusals([now]).get(back.row.table, {}).get(now.subject, "") if now is not None else ""
    parts = [p for p in said.split(" · ") if p and p not in back.note.split(" · ")]
    return replace(back, note=" · ".join([back.note, *parts]) if back.note else " · ".join(parts)) if parts else back


def _placed(seat_read: SeatRead, back: Sequence[_Back]) -> tuple[list[tuple[_Back, str]], list[_Back]]:
    """Each row put back with the subject of the row it goes in, and those no row is left for (set aside, never
    dropped). A row the resolution read goes where it was read; a row it kept goes where it stood, unless it is
    one it read too (it comes back as read); in an ordered table, a kept row the history does not place goes after
    the rows put back, in the order the resolution left them."""
    out: list[tuple[_Back, str]] = []
    names = {p.spec.name for p in seat_read.tab.tables}
    overflow = [b for b in back if b.row.table not in names]  # a table this layout no longer has
    for placed in seat_read.tab.tables:
        name = placed.spec.name
        mine = [b for b in back if b.row.table == name]
        rows = [b for b in mine if b.read]
        taken = {b.row.subject for b in rows}
        spare = list(rows)
        for b in (b for b in mine if not b.read):
            if b.row.subject or not placed.spec.ordered:
                at = b.row.subject or b.at
                if at not in taken:
                    rows.append(b)
                elif not b.row.subject and not any(r.row.subject == at and cells_text(r.row.values) ==
                                                   cells_text(b.row.values) for r in spare):
                    # a history from before ``stayed`` noting a row typed after a cut resolution, where the row it
                    # read goes back: set aside, never dropped
                    overflow.append(replace(b, row=replace(b.row, subject=at)))
                continue
            # not placed by the history: the same cells as a row it read (left unused, moved up) are that row
            twin = next((r for r in spare if cells_text(r.row.values) == cells_text(b.row.values)), None)
            if twin is None:
                rows.append(b)
            else:
                spare.remove(twin)
        if not placed.spec.ordered:
            out += [(b, b.row.subject or b.at) for b in rows]
            continue
        subjects = [r.subject for r in sorted(seat_read.rows, key=lambda r: r.row) if r.table == name]
        known = sorted((b for b in rows if b.row.subject in subjects), key=lambda b: subjects.index(b.row.subject))
        unknown = sorted((b for b in rows if b.row.subject not in subjects),
                         key=lambda b: subjects.index(b.at) if b.at in subjects else len(subjects))
        last = -1
        for b in [*known, *unknown]:
            last = max(subjects.index(b.row.subject) if b.row.subject in subjects else last + 1, last + 1)
            if last < len(subjects):
                out.append((b, subjects[last]))
            else:
                overflow.append(b)
    return out, overflow


def _typed_since(seat_read: SeatRead, rows: Sequence[TypedRow], expected: Sequence[tuple[str, set[str], TypedRow]],
                 ) -> list[TypedRow]:
    """Of the typed ``rows``, those that hold none of the rows the undo puts back (``expected``: each by its table,
    the subjects it may be found in, and its cells): typed after the undone resolution. A row is found where that
    resolution read or left it, or where an interrupted undo put it back; in an ordered table, in any row. Each
    row put back accounts for one typed row."""
    left = list(expected)
    found: set[int] = set()
    for anywhere in (False, True):
        for row in rows:
            if id(row) in found or (anywhere and not seat_read.tab.table(row.table).spec.ordered):
                continue
            match = next((e for e in left if e[0] == row.table and (anywhere or row.subject in e[1])
                          and cells_text(e[2].values) == cells_text(row.values)), None)
            if match is not None:
                left.remove(match)
                found.add(id(row))
    return [r for r in rows if id(r) not in found]


def undone_seat(adapter: AnySheetAdapter, state: Any, seat_read: SeatRead, read: Sequence[TypedRow],
                found: Mapping[str, Any], reopened: Window, resolution: int) -> UndoneSeat:
    """What an undo of ``resolution`` (``reopened`` the window it resolved, ``state`` the state before it) does
    with ``seat_read``'s rows: ``read``, the rows it read, and the rows its archived record ``found`` says it
    kept, back where they stood; the standing rows that still have a subject stay; the rows typed since are set
    aside."""
    out = UndoneSeat()
    standing = {p.spec.name for p in seat_read.tab.tables if p.spec.standing}
    back = [_Back(r, r.subject) for r in read]
    back += [_still_refused(seat_read, b) for b in _stayed(found) if b.row.table not in standing]
    placed, overflow = _placed(seat_read, back)
    kept_read = {id(b.row) for b, _subject in placed if b.read}
    out.read = [r for r in read if id(r) in kept_read]  # (one of a table this layout lacks is set aside)
    for b, subject in placed:
        spec = seat_read.tab.table(b.row.table).spec
        row, ticked = unticked(spec, replace(b.row, subject=subject))
        out.restored.append(row)
        said = put_back_sentence(reopened, resolution, row, ticked) if b.read else \
            kept_back_sentence(reopened, resolution, seat_read.seat, spec, ticked, b.note)
        out.told.setdefault(row.table, {})[subject] = said
        head = (said, "") if b.read else (kept_back_head(reopened, resolution, ticked),
                                          kept_back_refusals(reopened, b.note))
        out.heads.setdefault(row.table, {})[subject] = head
        if not b.read:
            out.stood.append(row)
    returned = {(r.table, r.subject) for r in read}
    still = [r for r in seat_read.rows if r.typed and r.table in standing and (r.table, r.subject) not in returned]
    # A standing row stays, unless its subject has no row before the undone resolution (a reaction of a unit
    # recruited in it): then it is set aside with the rows typed since, never dropped.
    subjects = {t: set(adapter.rows(state, seat_read.seat, seat_read.tab.table(t).spec))
                for t in {r.table for r in still}}
    homeless = [r for r in still if r.subject not in subjects[r.table]]
    out.standing = [r for r in still if r not in homeless]
    out.restored += out.standing
    where = {id(b): {b.at, subject} for b, subject in placed}
    expected = [(b.row.table, where.get(id(b), {b.at}), b.row) for b in back]
    others = [r for r in seat_read.rows if r.typed and r.table not in standing]
    out.typed_since = [*_typed_since(seat_read, others, expected), *homeless, *(b.row for b in overflow)]
    return out

