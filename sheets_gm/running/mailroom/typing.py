"""A mail's lines typed into its seat's post table (a Coalition side's Forum tab), as a player pastes a post: a
heading line (the game's mark, the sender, when the server received it, the subject) and the lines under it, in the
first rows below everything typed there, written only over cells read empty and guarded against a save since (a
player's cell is never written over: a cell saved meanwhile stops the write, and the mail is filed at the next
poll). A mail filed again (a poll cut after the write, before its record's end) finds its heading where it was
typed and writes the same cells again; one whose heading is gone (its window resolved, its rows archived) is not
typed again.

A table with too few rows below what is typed there (a side's Forum tab, laid out with two rows an army, after
hundreds of mails and corrections) grows first, as a resolution grows a table: the tab laid out again alone, its
new rows drawn. A mail that cannot be typed even so is not finished: it waits for the next poll, the judge told."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.tables import PlacedTable, TypedRow
from sheets_gm.sync.life.grow import TableFullError
from sheets_gm.sync.read import MatchRead, early_joined, early_writes
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend


def heading(mark: str, sender: str, received: datetime, subject: str, key: str) -> str:
    """A mail's heading line: the mark, the sender, when the server received it, the subject (cut at 60
    characters) and a short tag of the mail's key (two mails alike in all else stay two headings).

    >>> import datetime as dt
    >>> heading("✉", "ann@example.org", dt.datetime(2026, 11, 27, 10, 5, 31, tzinfo=dt.UTC), "moves", "m1@x.org")
    '✉ ann@example.org, Fri 27 Nov 10:05:31 UTC: moves #8fb9d1'
    """
    title = subject if len(subject) <= 60 else subject[:59] + "…"
    tag = hashlib.sha256(key.encode()).hexdigest()[:6]
    return f"{mark} {sender}, {received:%a %d %b %H:%M:%S} UTC: {title or '(no subject)'} #{tag}"


@dataclass(frozen=True)
class ToType:
    """A mail's lines for one seat: its key, its heading and the lines."""

    key: str
    seat: str
    heading: str
    lines: tuple[str, ...]


def _post_rows(read: MatchRead, seat: str, table: str) -> tuple[PlacedTable, list[TypedRow]]:
    seat_read = read.seats[seat]
    rows = sorted((r for r in seat_read.rows if r.table == table), key=lambda r: r.row)
    return seat_read.tab.table(table), rows


#: Grows a seat's post table to the rows given and some spare, for the mail to type there; returns it grown
#: (TableFullError or SheetError when it cannot: the mail then waits).
Grow = Callable[[str, int, int], PlacedTable]
#: Rows a post table grown for mail gets beyond what the mail typed at that poll needs: the next mails' room.
GROWN_SPARE_ROWS = 20


def type_mail(sheets: MatchSheets, read: MatchRead, table: str, todo: Sequence[ToType],
              grow: Grow | None = None) -> dict[str, dict[str, Any]]:
    """Type each of ``todo`` into its seat's ``table`` (one write per spreadsheet), the table grown first (``grow``)
    when the mail needs more rows than it has below what is typed there; returns where each went, by ``key/seat``:
    ``{"heading": A1, "lines": [A1…], "feedback": [A1…]}``, or ``{"full": why}`` when the table has no room even so
    (the mail waits for the next poll)."""
    placed_at: dict[str, dict[str, Any]] = {}
    batch = WriteBatch()
    for seat in dict.fromkeys(t.seat for t in todo):
        placed, rows = _post_rows(read, seat, table)
        texts = [r.text("line") for r in rows]
        backend = seat_backend(sheets, read.tabs, seat)
        free = max((i + 1 for i, t in enumerate(texts) if t.strip()), default=0)
        mine = [t for t in todo if t.seat == seat]
        placed, why = _room(placed, free + sum(1 + len(t.lines) for t in mine if t.heading not in texts), grow, seat)
        typed: dict[int, str] = {}  # the rows written, by their index in the table
        for item in mine:
            cells = [item.heading, *item.lines]
            at = texts.index(item.heading) if item.heading in texts else None
            if at is None:
                if free + len(cells) > placed.rows:
                    placed_at[f"{item.key}/{seat}"] = {"full": f"{placed.tab} has {placed.rows - free} free rows "
                                                               f"below what is typed there, and the mail needs "
                                                               f"{len(cells)}{why}"}
                    continue
                at, free = free, free + len(cells)
                batch.guard(backend, placed.at(placed.cell(at, "line") + ":" + placed.cell(at + len(cells) - 1,
                                                                                           "line")),
                            [[""] for _ in cells])
            batch.put(backend, placed.at(placed.cell(at, "line")), [[c] for c in cells])
            typed.update(enumerate(cells, at))
            placed_at[f"{item.key}/{seat}"] = {
                "heading": placed.at(placed.cell(at, "line")),
                "lines": [placed.at(placed.cell(at + 1 + n, "line")) for n in range(len(item.lines))],
                "feedback": [placed.at(placed.cell(at + 1 + n, "feedback")) for n in range(len(item.lines))]}
        taken = read.seats[seat].early
        if taken is not None and typed:  # past the players' deadline: it took the tab before this mail was typed
            early_writes(batch, sheets, read, seat, early_joined(taken, _rows_typed(read, seat, placed, rows, typed)))
    batch.run(sheets.write_order())
    return placed_at


def _rows_typed(read: MatchRead, seat: str, placed: PlacedTable, rows: Sequence[TypedRow],
                typed: dict[int, str]) -> list[TypedRow]:
    """The rows of ``placed`` (``seat``'s post table, ``rows`` as read before the mail, perhaps grown since) holding
    ``typed`` (their text by index in the table), as the next poll reads them: each mail typed into it reached the
    judge's mailbox before the players' deadline (one that arrived after it is not typed), so it joins what that
    deadline took, whenever it is typed (ruling "Mail to the judge": a mail counts at its arrival). A row the table
    grew by is drawn with the stamp of the rows above it."""
    subjects = read.adapter.laid_out_rows(read.record.state, seat, placed)
    stamp = rows[-1].window if rows else ""
    return [TypedRow(placed.spec.name, subjects[i], placed.first_row + i, rows[i].window if i < len(rows) else stamp,
                     {"line": text}, "") for i, text in sorted(typed.items())]


def _room(placed: PlacedTable, need: int, grow: Grow | None, seat: str) -> tuple[PlacedTable, str]:
    """``placed`` grown to hold ``need`` rows and some spare when it holds fewer (as it was when it cannot grow,
    with why in words, to add to the mail's ``full``)."""
    if need <= placed.rows or grow is None:
        return placed, ""
    try:
        return grow(seat, need, GROWN_SPARE_ROWS), ""
    except (TableFullError, SheetError) as exc:
        return placed, f" (it could not grow: {exc})"


def answers(sheets: MatchSheets, where: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """The answers the poll wrote beside the lines typed (``where``, as ``type_mail`` returned it), by ``key/seat``:
    one read per spreadsheet."""
    out: dict[str, list[str]] = {}
    for seat in dict.fromkeys(k.rsplit("/", 1)[1] for k in where):
        backend = sheets.of(seat)
        mine = {k: v for k, v in where.items() if k.rsplit("/", 1)[1] == seat and v.get("feedback")}
        ranges = [a for v in mine.values() for a in v["feedback"]]
        if not ranges:
            continue
        grids = dict(zip(ranges, backend.read(ranges), strict=True))
        for key, v in mine.items():
            out[key] = [str(grids[a][0][0]) if grids[a] and grids[a][0] and grids[a][0][0] is not None else ""
                        for a in v["feedback"]]
    return out
