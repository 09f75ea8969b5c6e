"""What becomes of a typed row, decided in one place, and every sentence a player reads about her row.

A typed row has one of a few fates, each with the sentence its feedback cell shows and, when it leaves its
cells, the line her Archive tab keeps (``docs/sync.md``, "The life of a typed row"):

- **read**: read for the open window (``✔ …`` where the game shows verdicts before it resolves, else
  ``Kept for <window>.``); once resolved, carried out: archived as read and cleared; carried out in part (a
  move made, its attack refused): cleared, saying what was done and what was not;
- **kept for window X**: typed ahead (a table its seat does not write in now), or read but not carried out while
  its window stays open: it stays in its cells and is read when X opens;
- **refused because …**: a cell that cannot be read, an order the engine refuses, or one a resolution did not
  carry out: it stays in its cells with ``✘`` and why, whatever else resolves, until she changes it;
- **set aside to the Archive**: it cannot stay in its cells (stamped for another window, its subject gone): a
  copy and a sentence go to her Archive tab, and its cells are cleared in the same write;
- **not yours**: a row naming another seat's subject: it goes in that seat's file. ``sync/rows/strays.py`` finds
  those rows, with every other row no order is read from (a subject typed twice, a cell typed past its table),
  answers them with ``fate_words``' sentences in their cells, and keeps them in place through resolutions.

Beside those, what was done with what is no longer in a row is told too: a Go unticked once its step resolved
(``go_sentence``), the engine's word on a standing row a resolution read (``standing_said``), why a row kept for
the seat's next turn cannot be used now (``held_sentence``'s ``why``).

Every writer that decides what happens to typed rows takes its sentences and its decision from here:
``settle_seat`` is what a resolution (a poll, a deadline, ``resolve --force``, a reaction's or the judge's window,
the last window of a match) does with one seat's rows; ``settle_change`` what a change the GM makes between two
resolutions (``adjust``, a seat handed to a bot, ``undo``) does with them (for an undo, ``undo_rows`` first says
which rows come back: those the undone resolution read or kept, where they stood); ``over_feedback`` what a row
typed once the match is over says. What a window a resolution or an undo opens says at once of the rows kept for it
(read and checked as the next poll would) is ``sync/rows/opened.py``'s, built from ``row_feedback``.

The sentences of the rows around those decisions (a row no order is read from, an empty row, a file saved from an
older copy, a drawn cell typed over) are this module's too, kept in ``sync/rows/fate_words.py`` so that each stays
small: between them they are the one place a sentence about a player's row comes from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sheets_gm.engine.ruleset import Verdict, Window
from sheets_gm.engine.words import label_verb, possessive
from sheets_gm.sheets.adapter import AnySheetAdapter, RowOut, SeatInput
from sheets_gm.sheets.spec import SEAT_ROWS, ColumnKind, InputTable, SheetSpec
from sheets_gm.sheets.tables import InputTab, TypedRow, too_long
from sheets_gm.sync.rows.archive_lines import ArchiveLine, capital, row_text, window_words
from sheets_gm.sync.rows.fate_words import (
    MARK,
    READ_AS,
    READ_AS_REST,
    fitted_answer,
    idle_feedback,
    read_as_words,
    read_line_sentence,
    ready_dropped_sentence,
    ready_sentence,
)
from sheets_gm.sync.rows.seat_read import SeatRead, cells_text

Key = tuple[str, str]  # a row by its table and subject


# -- the sentences of a row still in its cells ------------------------------------------------------------------
def kept_sentence(window: Window) -> str:
    """Read for ``window``, in a game that shows its verdicts only once resolved (or a standing row)."""
    return f"Kept for {window.label}."


def held_sentence(window: Window | None, seat: str, table: InputTable, why: str = "") -> str:
    """Kept for the seat's next window: typed in a table it does not write in now, or (``why``) in one it writes
    in but cannot use it now; read when that opens."""
    if window is None:
        return "Kept as typed: the match is over, nothing more is read."
    early = window.early
    if early is not None and seat in early.seats and table.open_in(early.phase):
        closes = window.sealed or "the orders"
        return (f"For {early.label}: read as it stands at the players' deadline (which closes {closes} too), "
                f"adjudicated once the judge's window of {window.label} closes.")
    label_is = label_verb(window.label, "is", "are")
    if not table.open_in(window.phase):
        return f"Kept for when this table opens again for {seat}: it is read then ({label_is} being played now)."
    if seat in window.seats and why:
        return f"Kept for {seat}'s next turn ({why}): it is read when that opens, not in {window.label}."
    if seat in window.seats:
        return f"Kept for {seat}'s next turn: it is read when that opens, not in {window.label}."
    who = ", ".join(window.seats[:3]) + (f" and {len(window.seats) - 3} more" if len(window.seats) > 3 else "")
    return f"Kept for {seat}'s next turn: it is read when that opens ({label_is} for {who})."


def ahead_refusals(adapter: AnySheetAdapter, state: Any, window: Window | None, seat: str, tab: InputTab,
                   rows: Sequence[TypedRow], held: Collection[str] = ()) -> dict[tuple[str, str], str]:
    """What the rows ``rows`` that ``window`` does not read already say is wrong, by table and subject: those typed
    in tables closed in ``window`` (kept for when the table opens again, a standing table's too) and those the seat's
    reading of an open table holds for her next turn (``held``: typed in her opponent's turn), their cells read now as
    the window that reads them will read them (the engine's verdicts wait for that window's state). A refusal stands
    until the row changes: the row says it while it waits, not only once it is read."""
    by_table: dict[str, list[TypedRow]] = {}
    for row in rows:
        by_table.setdefault(row.table, []).append(row)
    return {(table, subject): said for table, typed in by_table.items()
            for subject, said in table_ahead_refusals(adapter, state, window, seat, tab.table(table).spec,
                                                      typed, held).items()}


def table_ahead_refusals(adapter: AnySheetAdapter, state: Any, window: Window | None, seat: str, spec: InputTable,
                         rows: Sequence[TypedRow], held: Collection[str] = ()) -> dict[str, str]:
    """``ahead_refusals`` for the rows of one table (``spec``), by subject: the poll's answer and a resolution's
    drawing of the tables (``sync.writes.table_grid``) say the same of a row kept while its table is closed or held
    for the seat's next turn."""
    if window is None:
        return {}
    open_now = spec.open_in(window.phase)
    # a row of a seat the window does not read (typed in her opponent's turn) waits as a held one does, and is
    # checked now as that turn will read it: her seat row too where an order is typed in it (a Surrender); a seat row
    # with only its boxes ticked ahead says why they are not taken instead (``early_ready_note``)
    unread = seat not in window.seats and (spec.rows != SEAT_ROWS or any(_orders_typed(spec, r) for r in rows))
    typed = [r for r in rows if r.typed and (not open_now or unread or r.subject in held)]
    if not typed:
        return {}
    opens = replace(window, phase=window.phase if open_now else spec.phases[0], seats=(seat,), waits_for=None,
                    stepwise=False)
    try:
        found = adapter.read_orders(state, opens, seat, {spec.name: typed})
    except (ValueError, KeyError):  # a game whose reading needs the window itself: it answers when it opens
        return {}
    # a held row (and a standing one, which says when it is read) says next why it waits
    after = "" if open_now or spec.standing else " — fix it before this table opens"
    out: dict[str, str] = {}
    for row in typed:
        said = [p for p in found.problems.get(row.subject, []) if p]
        if said:
            out[row.subject] = f"{MARK}{'; '.join(said)}{after}"
    return out


def late_sentence(window: Window, why: RowOut) -> str:
    """What a row typed for the next window ``window`` takes orders for says when that window will not read it, or
    part of it (``SeatRead.late``: ``why``): a subject it orders cannot take orders early (an army that fights:
    its own row, or its line in a pasted post, quoted when the rest of the post stands), or it was typed or changed
    after the players' deadline."""
    early = window.early
    label = early.label if early is not None else "the next window"
    kept = "Kept in the Archive when the judge's window closes"
    if not why.lines:
        return (f"{MARK}Late: typed or changed after the players' deadline, not read; {label} reads what stood here "
                f"then. {kept}.")
    fights = "; ".join(f"{subject} is in an open battle of {window.label} (it fights), and cannot take orders for "
                       f"{label}{f': its line {line!r}' if line and why.left is not None else ''}"
                       for subject, line in why.lines.items())
    return f"{MARK}Not read: {fights}. {kept}{'' if why.left is None else '; the rest of this cell stands'}."


def late_line(tab: InputTab, window: Window, rows: Sequence[TypedRow]) -> ArchiveLine:
    """The rows a resolution of the judge's ``window`` set aside as late for the next window it took orders for
    (``SeatRead.late``)."""
    label = window.early.label if window.early is not None else "the next window"
    text = (f"Not read for {label} (typed or changed after the players' deadline of {window.label}, or for an army "
            "in one of its open battles); no longer in your rows:")
    return ArchiveLine(capital(label), text, tuple(row_text(tab, r) for r in rows), tuple(rows))


def out_sentence(reason: str) -> str:
    """A row typed by a seat with nothing to write in any window (``idle_reason``: a Champions player who is out)."""
    return f"{MARK}{reason} What is typed here is not read."


def early_ready_note(window: Window, seat: str, table: InputTable, row: TypedRow) -> str:
    """What a seat row kept for the seat's own window (typed ahead: her deployment, during her opponent's) says of
    its Ready ticked already: not taken, and unticked as the open window resolves, as a Ready ticked in the
    opponent's turn is ('' when it is not ticked, or the open window waits for the seat)."""
    boxes = table.of_kind(ColumnKind.READY)
    if table.rows != SEAT_ROWS or not boxes or not row.ticked(boxes[0].key) or seat in window.awaited:
        return ""
    return ready_sentence(window, seat, table, False, ticked=True)


def kept_feedback(window: Window | None, seat: str, table: InputTable, reads: bool, note: str = "",
                  out_reason: str = "") -> str:
    """What a row kept in its cells says as its tables are drawn for ``window`` (``reads``: the seat writes in
    ``table`` in it): ``note`` (why a resolution kept it) or that it is kept for the window; for a seat out of the
    match (``out_reason``), that nothing it types is read; else why it waits, and that it waits for the seat's next
    window (or, the match over, that nothing more is read)."""
    if window is not None and reads:
        return note or kept_sentence(window)
    if out_reason:
        return out_sentence(out_reason)
    return " · ".join(p for p in (note, held_sentence(window, seat, table)) if p)


def over_feedback(row: TypedRow, seat: str, table: InputTable, idle: str, out_reason: str = "") -> str | None:
    """What a row says once the match is over, no window open (a row typed after its last window): a typed row,
    that it is kept as typed and nothing more is read (``out_sentence`` for a seat out of the match), unless it
    says so already (after why the last window did not carry it out); a row emptied since, its ``idle`` sentence.
    None: the row already says what it should."""
    over = out_sentence(out_reason) if out_reason else held_sentence(None, seat, table)
    if row.typed:
        return None if over in row.feedback else over
    return idle if over in row.feedback else None


def unused_sentence(window: Window, why: str) -> str:
    """Read but not carried out by a resolution, its window still open: kept for it, with why."""
    return f"Not resolved, kept for {window.label}: {why}."


def closed_note(note: str, closed: Window) -> str:
    """A kept row's ``note`` once ``closed`` ends: 'not resolved, kept for' it becomes 'not carried out in' it."""
    head = unused_sentence(closed, "")[:-1]
    return refused_sentence(closed, note[len(head):].removesuffix(".")) if note.startswith(head) else note


def refused_sentence(closed: Window, why: str) -> str:
    """Refused when ``closed`` resolved (not carried out, or unreadable): it stays typed, with why."""
    return f"{MARK}Not carried out in {closed.label}: {why}"


def partly_sentence(closed: Window, why: str) -> str:
    """A row carried out in part (a move made, then its attack refused; a seat row whose choice was refused and the
    default taken): cleared, with what was done and not (its copy is in the Archive)."""
    if why.startswith("not done: "):
        return f"{MARK}Not carried out in {closed.label} (your Archive keeps what you typed): {why[10:]}."
    return f"{MARK}Carried out in part in {closed.label}: {why}."


CARRIED = "✔ Carried out in "  # how what an emptied row says of the resolution that carried it out begins


def carried_sentence(closed: Window, what: str) -> str:
    """A row the resolution of ``closed`` carried out whole, cleared: what it did (``what``, its verdicts; '' when
    the engine said nothing of it)."""
    if not what:
        return f"{CARRIED}{closed.label} (the Log says what it did)."
    return f"{CARRIED}{closed.label}: {what}{'' if what.endswith(('.', '!', '?')) else '.'}"  # one full stop


def read_sentence(closed: Window, word: str) -> str:
    """A row the resolution of ``closed`` read, cleared, that gave no order: the game's ``word`` on it.

    >>> read_sentence(Window("2", "turn 2 · orders", "orders", ("coalition",), 2), "passed over: no army's order")
    "Read in turn 2 · orders: passed over: no army's order."
    """
    return f"Read in {closed.label}: {word}{'' if word.endswith(('.', '!', '?', ')')) else '.'}"


def empty_row_answer(adapter: AnySheetAdapter, state: Any, window: Window | None, seat: str, table: InputTable,
                     subject: str, note: str, outcome_text: str, writes_now: bool) -> str:
    """What a row with nothing typed in it says, the one answer every writer draws (a resolution's write, the
    completion of a cut one, the poll's answer): its ``note`` (what the last resolution did with what was typed
    there) or what it waits for; both for a seat row (what it did, then what it waits for: a Champions fight row, a
    Go) and for a row carried out in an earlier window that its seat writes in now (``writes_now``)."""
    idle = idle_feedback(window, seat, table, outcome_text, adapter.idle_reason(state, seat))
    if table.rows != SEAT_ROWS:
        idle = (window is not None and adapter.idle_row_reason(state, seat, table, subject)) or idle
    if note and idle and (table.rows == SEAT_ROWS or (note.startswith(CARRIED) and writes_now)):
        return f"{note} · {idle}"
    return note or idle


#: Why a line of a numbered table (a pasted post's) that its window did not carry out is set aside, and what to do.
LINE_WORDS = "a line is read for the window it was typed in: type it again in the window you want it carried out in"


def line_sentence(closed: Window, why: str) -> str:
    """A line of a numbered table (a Coalition post's) that the resolution of ``closed`` did not carry out: cleared
    and set aside to the Archive with ``why``, never read again."""
    return f"{MARK}Not carried out in {closed.label}, and set aside to your Archive: {why}; {LINE_WORDS}."


def set_aside_sentence(row_window: str, window: Window, archive_tab: str) -> str:
    """Set aside to the Archive: stamped for another window than the open one."""
    return (f"{MARK}This was written for {row_window or 'another window'}, not for {window.label}: it was set "
            f"aside (a copy is in tab {archive_tab!r}); write it again if you still want it.")


def go_sentence(closed: Window, done: int, left: int, box: str) -> str:
    """What became of a seat's ticked Go (``box``) once it resolved a step of ``closed`` (the window stays open):
    how many rows it carried out and left (each left row says why); it is unticked, for the next step."""
    said = [f"carried out {done} row{'s' * (done != 1)}"] * bool(done) + \
        [f"left {left} (still in your rows, each saying why)"] * bool(left)
    what = " and ".join(said) if said else "resolved nothing"
    return f"{box} {what} in {closed.label}, and is unticked: tick {box} again for the rows you type next."


def standing_said(closed: Window, verdicts: Sequence[Verdict]) -> str:
    """What the engine said of a standing row (a reaction that stood, fired or could not fire) when ``closed``
    resolved: kept in the row until the next resolution says otherwise."""
    return " · ".join(("✔ " if v.accepted else MARK) + f"{capital(closed.label)}: {v.message}" for v in verdicts)


def open_file_waits(box: str) -> str:
    """What a seat row whose ``box`` (Go or Ready) would resolve the window says while a workbook of the match is
    open in an office program: the resolution waits for it (who holds which file is the GM's to read, not hers)."""
    return (f"{box} waits: a workbook of the match is open in an office program, and nothing is resolved while one "
            "is (writing it then would lose what is typed there); your rows are carried out as they stand at the "
            "first poll after it is closed")


GO_NOTHING = "Go did nothing: no row can be read yet (mend the cells marked ✘, or clear them); nothing was resolved"


def row_feedback(row: TypedRow, seat: str, window: Window, table: InputTable, problems: Mapping[str, Any],
                 verdicts: list[Verdict], ready: bool, note: str = "", held: bool = False, extra: str = "",
                 why_held: str = "", waits: Sequence[str] = ()) -> str:
    """The feedback sentence of one typed row read for the open window: why a resolution kept it (``note``), its
    unreadable cells, then the engine's verdicts (and for a seat row, its Ready box, and ``extra``: why its Go did
    nothing); a row ``held`` for the seat's next window says so; with none of them, that it is kept. A refusal kept
    from a window that closed gives way to what this window's check says of the row (its list of battles, say)."""
    mine = [*problems.get(row.subject, []), *(v.message for v in verdicts)]
    # a refusal kept from a window that closed gives way to this window's check; one this window's resolution kept
    # (refused at its Go, ✘ Not resolved, kept for …) stays as it was drawn
    if note.startswith(MARK) and mine and not note.startswith(MARK + unused_sentence(window, "")[:-1]):
        note = ""
    parts = [note] if note else []
    parts += [f"{MARK}{p}" for p in problems.get(row.subject, []) if p not in note]
    # in the engine's order, what will happen beside what will not (a leader's recruits one by one); an answer too
    # long for its cell keeps its refusals first (fitted_answer)
    said = problems.get(row.subject, [])  # a refusal the reading and the check both give is said once
    parts += [("✔ " if v.accepted else MARK) + v.message for v in verdicts if v.message not in note
              and v.message not in said]
    if extra and extra not in note:  # a resolution that kept the row said it already (``settle_seat``)
        parts.append(extra)
    if table.of_kind(ColumnKind.READY):
        ticked = row.ticked(table.of_kind(ColumnKind.READY)[0].key)
        parts.append(ready_sentence(window, seat, table, ready, ticked, waits))
    if held:
        parts.append(held_sentence(window, seat, table, why_held))
    elif not parts:
        parts.append(kept_sentence(window))
    read_as = any(v.message.startswith(READ_AS) for v in verdicts)
    return fitted_answer(" · ".join(parts), READ_AS_REST if read_as else "")


# -- the Archive's sentences --------------------------------------------------------------------------------
def read_line(tab: InputTab, window: Window, read: Sequence[TypedRow], unused: Mapping[Key, str],
              partly: Mapping[Key, str] | None = None, aside: Mapping[Key, str] | None = None,
              forced: bool = False) -> ArchiveLine:
    """What a resolution of ``window`` read of the seat's rows: each carried out (the row alone), carried out in
    part (and what was not), not carried out and left in its row (and why), or not carried out and set aside
    (``aside``: a row of a table read for one window only, with the table's words); ``forced``: the GM closed it."""
    partly = partly or {}
    aside = aside or {}

    def detail(r: TypedRow) -> str:
        key = (r.table, r.subject)
        if key in unused and key in aside:
            return f"{row_text(tab, r)} — not carried out ({unused[key]}): set aside, no longer in your rows " \
                   f"({aside[key]})"
        if key in unused:
            return f"{row_text(tab, r)} — not carried out ({unused[key]}): still in your rows"
        if key in partly:
            return f"{row_text(tab, r)} — carried out in part ({partly[key]})"
        return row_text(tab, r)

    return ArchiveLine(capital(window.label), read_line_sentence(window.label, forced),
                       tuple(detail(r) for r in read), tuple(read))


def stale_line(tab: InputTab, open_window: Window, rows: Sequence[TypedRow]) -> ArchiveLine:
    """Rows typed for another window than the open one, set aside and cleared from their cells; or rows written for
    the open window that other rows were typed over (a bot's, its seat handed to it), which no other window wants:
    the line says so, not that they were written for another."""
    if all(r.window == open_window.key for r in rows):
        text = (f"Set aside while {open_window.label} was played: written for it, other rows were typed over them "
                "(a bot's, when the seat was handed to it); no longer in your rows:")
        return ArchiveLine(capital(open_window.label), text, tuple(row_text(tab, r) for r in rows), tuple(rows))
    keys = ", ".join(dict.fromkeys(window_words(r.window, open_window) for r in rows))
    text = (f"Set aside while {open_window.label} was played, as written for {keys}; no longer in your rows: type "
            "them again in the window they are for:")
    return ArchiveLine(capital(open_window.label), text, tuple(row_text(tab, r) for r in rows), tuple(rows))


def gone_line(tab: InputTab, window: Window, rows: Sequence[TypedRow], cause: str = "") -> ArchiveLine:
    """Rows kept by a resolution of ``window`` (or by the GM's change ``cause`` made while it was open: "the GM's
    adjustment (a reason)") whose subject the new state draws no row for (a unit that fell)."""
    when = cause or f"{window.label} resolved"
    text = f"Set aside when {when}: what they are for has no row any more; no longer in your rows:"
    return ArchiveLine(capital(window.label), text, tuple(row_text(tab, r) for r in rows), tuple(rows))


def handed_line(tab: InputTab, open_window: Window, bot: str, reason: str, rows: Sequence[TypedRow]) -> ArchiveLine:
    """Rows a person typed, set aside when the GM handed their seat (or their row) to a bot, which types its own."""
    text = (f"Set aside when the GM handed these rows to the {bot} bot during {open_window.label} ({reason}); no "
            "longer in your rows: the bot types its own, and `adjust --bot NAME=none` hands them back:")
    return ArchiveLine(capital(open_window.label), text, tuple(row_text(tab, r) for r in rows), tuple(rows))


def unticked(table: InputTable, row: TypedRow) -> tuple[TypedRow, list[str]]:
    """``row`` with its Ready and Go boxes unticked (an undo puts it back, or its seat is handed back to its player:
    the seat says again when it is ready, and the next poll resolves nothing before she looks), and the headers of
    the boxes that were ticked."""
    boxes = {c.key: c.header for c in table.window_boxes()}
    ticked = [boxes[k] for k, v in row.values.items() if k in boxes and v not in (None, "", False)]
    return replace(row, values={k: (False if k in boxes else v) for k, v in row.values.items()}), ticked


def handed_back(tab: InputTab, rows: Sequence[TypedRow], reason: str, aside: str = "") -> tuple[
        list[TypedRow], dict[str, dict[str, str]]]:
    """A seat handed back to its player: what its bot typed stays for her to change, Ready and Go unticked (left
    ticked, the next poll would resolve the bot's rows as hers before she saw them); what each row that had a box
    ticked says, by table and subject. ``aside``: what the hand-back set aside instead (``given_back_notice``, where
    her pasted post gives the orders), said in place of the rows staying."""
    out: list[TypedRow] = []
    said: dict[str, dict[str, str]] = {}
    stays = aside or "what the bot typed stays for you to change."
    for row in rows:
        row, ticked = unticked(tab.table(row.table).spec, row)
        out.append(row)
        if ticked:
            said.setdefault(row.table, {})[row.subject] = (
                f"Handed back to you by the GM ({reason}): {stays} "
                f"{' and '.join(ticked)} unticked, so nothing resolves before you look: tick {' or '.join(ticked)} "
                f"when {'your orders are in' if aside else 'your rows are right'}.")
    return out, said


def given_back(tab: InputTab, rows: Sequence[TypedRow], subjects: Collection[str] | None) -> list[TypedRow]:
    """The rows a bot typed that handing them back (the whole seat: ``subjects`` None, else the rows of those
    subjects) sets aside instead of keeping: in a seat whose orders a pasted post may give (a ``numbered`` table,
    Coalition's Forum tab), the bot's rows of the other list tables, which would win over her post's lines one by one
    (an army's own row wins over its post line); elsewhere none, the bot's rows staying for her to change."""
    if not any(p.spec.numbered for p in tab.tables):
        return []
    gives = {p.spec.name for p in tab.tables if not (p.spec.numbered or p.spec.standing or p.spec.rows == SEAT_ROWS)}
    return [r for r in rows if r.typed and r.table in gives and (subjects is None or r.subject in subjects)]


def given_back_line(tab: InputTab, open_window: Window, reason: str, rows: Sequence[TypedRow]) -> ArchiveLine:
    """The bot's rows set aside when the GM handed them back to their player (``given_back``): her own rows or her
    pasted post give the orders, and this line keeps what the bot had typed."""
    text = (f"Set aside when the GM handed these rows back to you from the bot during {open_window.label} ({reason}):"
            " what the bot had typed, no longer in your rows, so that your own rows or your pasted post give the "
            "orders; copy a line back if you want it:")
    return ArchiveLine(capital(open_window.label), text, tuple(row_text(tab, r) for r in rows), tuple(rows))


def given_back_aside(count: int, archive_tab: str) -> str:
    """What the seat row of a seat handed back says of the bot's rows the hand-back set aside.

    >>> given_back_aside(9, "Archive coalition")
    "the 9 rows the bot typed went to tab 'Archive coalition'; your own rows or your pasted post give the orders now."
    """
    rows = "the row the bot typed" if count == 1 else f"the {count} rows the bot typed"
    return f"{rows} went to tab {archive_tab!r}; your own rows or your pasted post give the orders now."


def given_back_notice(count: int, reason: str, archive_tab: str) -> str:
    """What the seat's View says of the bot's rows a hand-back set aside (a Log line only she reads)."""
    rows = f"{count} row{' the bot typed was' if count == 1 else 's the bot typed were'}"
    return (f"{rows} set aside when the GM handed them back to you ({reason}): tab {archive_tab!r} lists them; "
            "your own rows or your pasted post give the orders now.")


def taken_over(seat_read: SeatRead, handed: Mapping[str, str]) -> list[TypedRow]:
    """The typed rows of ``seat_read`` that bots ``handed`` the seat (or those rows' subjects) take over; the
    standing tables' aside (their rows stay from turn to turn, a bot's typing over them row by row)."""
    whole = seat_read.seat in handed
    standing = {p.spec.name for p in seat_read.tab.tables if p.spec.standing}
    return [r for r in seat_read.rows if r.typed and r.table not in standing and (whole or r.subject in handed)]


def put_back_sentence(window: Window, resolution: int, row: TypedRow, ticked: Sequence[str]) -> str:
    """What a row an undo put back says: where it came from and, when a box was ticked, that it was unticked so that
    nothing resolves until the seat ticks it again."""
    undone = f"the GM's undo of {window.label} (resolution {resolution})"
    said = f"Put back by {undone}: read again when it resolves." if row.typed else f"Undone by {undone}."
    return said + _unticked_words(ticked)


def _unticked_words(ticked: Sequence[str]) -> str:
    """That the boxes ``ticked`` (their headers) were unticked by an undo ('' for none)."""
    if not ticked:
        return ""
    return (f" {' and '.join(ticked)} unticked, so nothing resolves before you look again: tick "
            f"{' or '.join(ticked)} again when your rows are right.")


def kept_back_head(window: Window, resolution: int, ticked: Sequence[str]) -> str:
    """Where a row the undone resolution had kept in its cells (refused, unread, typed ahead) comes from once an undo
    put it back where it stood, and the boxes it unticked."""
    return (f"Put back by the GM's undo of {window.label} (resolution {resolution}), where it stood before it."
            + _unticked_words(ticked))


def kept_back_refusals(window: Window, note: str) -> str:
    """The refusals a kept row's ``note`` gave of its cells, but one saying that the undone ``window`` did not carry
    it out: that no longer holds once it is undone."""
    undone = refused_sentence(window, "")
    return " · ".join(p for p in dict.fromkeys(note.split(" · ")) if p.startswith(MARK) and not p.startswith(undone))


def kept_back_sentence(window: Window, resolution: int, seat: str, table: InputTable, ticked: Sequence[str],
                       note: str) -> str:
    """What a row the undone resolution had kept in its cells says once an undo put it back where it stood, when the
    window reopened does not read it (``undo_told`` says what one it reads says): where it comes from and the
    refusals its ``note`` gave of its cells (the drawing of a table ``seat`` does not write in during ``window`` adds
    that it waits for her next window: ``kept_feedback``)."""
    return " · ".join(p for p in (kept_back_head(window, resolution, ticked), kept_back_refusals(window, note)) if p)


def undo_told(head: str, answer: str, window: Window) -> str:
    """What a row an undo put back says in the window it reopened, which reads it: where it comes from (``head``),
    then its true fate in that window (``answer``, what the next poll says of it: kept for her next turn, refused
    because …, the engine's verdicts), unless that is only that it is kept for the window."""
    return head if not answer or answer == kept_sentence(window) else f"{head} · {answer}"


def aside_notice(count: int, cause: str, archive_tab: str) -> str:
    """What the seat's View says when a GM's change (``cause``: "the GM undid turn 3 (why)", "the GM adjusted the
    match (why)") set aside ``count`` of her rows (a Log line only she reads)."""
    rows = f"{count} row{' you typed was' if count == 1 else 's you typed were'}"
    return (f"{rows} set aside when {cause}: tab {archive_tab!r} lists them; type them again when their window "
            "opens.")


def undo_lines(tab: InputTab, undone: Window, reason: str, restored: Sequence[TypedRow],
               set_aside: Sequence[TypedRow], was_open: Window | None, stood: Sequence[TypedRow] = (),
               standing: Sequence[TypedRow] = (), fates: Mapping[Key, str] | None = None) -> list[ArchiveLine]:
    """What the GM's undo of ``undone`` did to every row the seat had: the rows the undone resolution read, put back;
    the rows it had kept in her cells (``stood``), put back where they stood, each with its fate now (``fates``, by
    table and subject: held for her next turn, refused because …); the standing rows, left where they are; the rows
    typed since, set aside."""
    lines = []
    if restored:
        lines.append(ArchiveLine(capital(undone.label), (
            f"Taken back by the GM's undo ({reason}): your orders for {undone.label} are back in your rows, Ready "
            f"unticked, to be read again when {undone.label} resolves:"),
            tuple(row_text(tab, r) for r in restored), tuple(restored)))
    if stood:
        def fate(row: TypedRow) -> str:
            return (fates or {}).get((row.table, row.subject), "") or "as you typed it"
        lines.append(ArchiveLine(capital(undone.label), (
            f"Put back by the GM's undo ({reason}): {undone.label} had left these rows in your cells unread or "
            "refused; they are in your rows again where they stood, each saying what it is now:"),
            tuple(f"{row_text(tab, r)} — {fate(r)}" for r in stood), tuple(stood)))
    if standing:
        lines.append(ArchiveLine(capital(undone.label), (
            f"Left where they stand by the GM's undo ({reason}): a standing row is read in every window its table "
            "is open, and stays in your rows:"), tuple(row_text(tab, r) for r in standing), tuple(standing)))
    stamped = [r for r in set_aside if r.window]
    if stamped:
        words = ", ".join(dict.fromkeys(window_words(r.window, was_open) for r in stamped))
        lines.append(ArchiveLine(capital(words), (
            f"Your orders for {words}, set aside by the GM's undo of {undone.label}; no longer in your rows: type "
            f"them again when {words} opens:"), tuple(row_text(tab, r) for r in stamped), tuple(stamped)))
    unstamped = [r for r in set_aside if not r.window]
    if unstamped:  # typed ahead, their table not open to her (the judge's rows in the sides' orders window)
        lines.append(ArchiveLine(f"After {undone.label}", (
            f"Typed after {undone.label} resolved, in a table that was not open to you then; set aside by the GM's "
            "undo, which opened it again, and no longer in your rows: type them again if you still want them:"),
            tuple(row_text(tab, r) for r in unstamped), tuple(unstamped)))
    return lines


# -- what a resolution does with one seat's rows ------------------------------------------------------------------
@dataclass
class SeatSettled:
    """What a resolution does with one seat's rows (``settle_seat``).

    ``read``: the rows it read (archived as read); ``unused``: those of them it did not carry out, with why (they
    stay typed); ``partly``: rows carried out in part, with what was not done (cleared, the reason in their
    feedback); ``kept``: every row that stays in its cells, by table and the subject it is drawn in; ``shown``: the
    feedback each kept row shows (by table and subject; '' for the table's own default); ``notes``: the notes the
    Archive's pending row keeps so that the next polls say them again (``SeatRead.note``); ``set_aside``: rows
    that cannot stay, copied to the Archive and cleared; ``bots_over``: those of them a bot's rows typed over (rows
    the seat's player typed since a bot took her seat: ``bot_seats.play_bots``); ``aside``: the rows of ``unused``
    in a table read for one window only (a post's lines), cleared and set aside with the table's words, never kept
    for a later window."""

    read: list[TypedRow] = field(default_factory=list)
    unused: dict[Key, str] = field(default_factory=dict)
    partly: dict[Key, str] = field(default_factory=dict)
    kept: dict[str, dict[str, TypedRow]] = field(default_factory=dict)
    shown: dict[str, dict[str, str]] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)
    set_aside: list[TypedRow] = field(default_factory=list)
    gone: list[TypedRow] = field(default_factory=list)
    bots_over: list[TypedRow] = field(default_factory=list)
    aside: dict[Key, str] = field(default_factory=dict)
    late: list[TypedRow] = field(default_factory=list)  # typed for the next window, not read by it (``late_line``)

    def lines(self, tab: InputTab, window: Window, forced: bool = False) -> list[ArchiveLine]:
        """The Archive entries this resolution writes for the seat (``forced``: the GM closed the window)."""
        out = []
        if self.read:
            out.append(read_line(tab, window, self.read, self.unused, self.partly, self.aside, forced))
        if self.set_aside:
            out.append(stale_line(tab, window, self.set_aside))
        if self.late:
            out.append(late_line(tab, window, self.late))
        if self.gone:
            out.append(gone_line(tab, window, self.gone))
        return out

    def completing_lines(self, tab: InputTab, window: Window) -> list[ArchiveLine]:
        """The Archive entries a cut resolution's completion writes for the seat: its first try wrote the rest (the
        rows read, those set aside then), so only the rows typed since that a bot's rows typed over, and the rows in
        her cells whose subject the new state draws no row for (typed since, or a stray row the first try kept:
        the first try drew no other, having set its own aside)."""
        out = [stale_line(tab, window, self.bots_over)] if self.bots_over else []
        return out + ([gone_line(tab, window, self.gone)] if self.gone else [])

    def stayed(self, seat_read: SeatRead, before: Mapping[str, Mapping[str, TypedRow]]) -> list[dict[str, Any]]:
        """The typed rows this resolution keeps in their cells outside the standing tables (those of ``kept`` that
        were already in ``before``: not a bot's rows typed in their place), as its history row keeps them for an
        undo: each as it stood when read (its subject, window and cells) and ``at``, the subject of the row it is
        drawn in now (an ordered table moves its rows up). A cut resolution completed keeps those its first try
        recorded with the rows it read (the seat's tables were drawn since)."""
        if seat_read.pending is not None:
            return [s for s in seat_read.pending.get("stayed", []) if isinstance(s, dict)]
        tab = seat_read.tab
        return [{**row.to_json(), "at": at} for table, rows in self.kept.items() if not tab.table(table).spec.standing
                for at, row in rows.items() if row.typed and before.get(table, {}).get(at) is row]

    def told(self) -> dict[str, Any]:
        """What this resolution's Archive entry says of the rows it did not carry out whole, by the table and subject
        each was read in (``unused`` and ``partly`` as ``[table, subject, why]``), for its history row: a file saved
        from an older copy gets that same entry back from there (``older_copy.restore_archives``)."""
        out: dict[str, Any] = {}
        for name, said in (("unused", self.unused), ("partly", self.partly), ("aside", self.aside)):
            if said:
                out[name] = [[table, subject, why] for (table, subject), why in said.items()]
        return out

    def change_lines(self, tab: InputTab, window: Window, cause: str) -> list[ArchiveLine]:
        """The Archive entries a GM's change (``settle_change``; ``cause``: "the GM adjusted the match (why)")
        writes for the seat, ``window`` open after it (or, once it ended the match, the one open before)."""
        out = []
        if self.set_aside:
            out.append(stale_line(tab, window, self.set_aside))
        if self.gone:
            out.append(gone_line(tab, window, self.gone, cause))
        return out


def in_table(adapter: AnySheetAdapter, verdict: Verdict, table: str) -> bool:
    """Whether ``verdict`` is of a row of ``table`` (every row of its subject, unless the adapter places it)."""
    placed = adapter.verdict_table(verdict.part)
    return not placed or placed == table


def routed(verdicts: Sequence[Verdict], seat: str, seat_input: SeatInput[Any] | None) -> list[Verdict]:
    """``verdicts`` and, for each row of ``seat`` read as other subjects' orders (``SeatInput.read_as``: a line of a
    pasted forum post), a copy of each of their verdicts under the row's subject, saying whose order it read as."""
    out = list(verdicts)
    if seat_input is None:
        return out
    for row, subjects in seat_input.read_as.items():
        out += [replace(v, subject=row, message=read_as_words(v.subject, v.message))
                for v in verdicts if v.seat == seat and v.subject in subjects and v.subject != row]
    return out


def told_verdicts(sheet: SheetSpec, diced: bool, verdicts: Sequence[Verdict]) -> list[Verdict]:
    """The check's ``verdicts`` a seat's rows tell before they resolve: all of them where the game shows its verdicts
    (``sheet.shows_verdicts``, ``diced``: the check rolled or drew a die), else those the rules say hide nothing
    (``Verdict.shown_early``), so that a row kept for the window says why the engine would not carry it out."""
    return list(verdicts) if sheet.shows_verdicts(diced) else [v for v in verdicts if v.shown_early]


def game_notes(seat_input: SeatInput[Any] | None, subject: str) -> str:
    """What the game tells ``subject``'s row that is neither a refusal nor a verdict (``SeatInput.notes``)."""
    return " · ".join(seat_input.notes.get(subject, ())) if seat_input is not None else ""


def row_verdicts(adapter: AnySheetAdapter, state: Any, seat: str, row: TypedRow,
                 verdicts: Sequence[Verdict]) -> list[Verdict]:
    """The verdicts of ``row``: of its subject, shown in its table; for a row read as part of another's order (a
    losses row of a battle's result: the adapter's ``row_group``) with none of its own, that row's."""
    own = [v for v in verdicts if v.seat == seat and v.subject == row.subject and in_table(adapter, v, row.table)]
    group = "" if own else adapter.row_group(state, row.table, row.subject)
    return [v for v in verdicts if v.seat == seat and v.subject == group] if group else own


def refused_whole(adapter: AnySheetAdapter, state: Any, seat_read: SeatRead, read: Sequence[TypedRow],
                  verdicts: Sequence[Verdict], problems: Mapping[str, Sequence[str]]) -> dict[Key, str]:
    """The rows read (not a seat row) of which nothing can be done, with why, by table and subject: every verdict a
    refusal, or no verdict at all because a cell cannot be read. They stay typed with the reason, like the rows a
    resolution says it left unused (a deadline or a forced resolution never empties a row it could not read)."""
    out: dict[Key, str] = {}
    for row in read:
        if not row.typed or seat_read.tab.table(row.table).spec.rows == SEAT_ROWS:
            continue
        said = row_verdicts(adapter, state, seat_read.seat, row, verdicts)
        if any(v.accepted for v in said):
            continue
        why = [*problems.get(row.subject, []), *(v.message for v in said)]
        group = "" if why else adapter.row_group(state, row.table, row.subject)
        why += [*problems.get(group, [])] if group else []  # read into a row that cannot be read: kept with it
        if why:
            out[(row.table, row.subject)] = "; ".join(dict.fromkeys(why))
    return out


def partly_done(adapter: AnySheetAdapter, state: Any, seat: str, read: Sequence[TypedRow],
                verdicts: Sequence[Verdict], done: frozenset[Key],
                problems: Mapping[str, Sequence[str]]) -> dict[Key, str]:
    """The rows carried out of which a part was refused or could not be read (a move made, then its attack
    refused; a destination carried out beside an action no one can read; a seat row's choice refused and the
    default taken): what was done and what was not, by table and subject."""
    out: dict[Key, str] = {}
    for row in read:
        if (row.table, row.subject) not in done:
            continue
        said = row_verdicts(adapter, state, seat, row, verdicts)
        yes = list(dict.fromkeys(v.message for v in said if v.accepted))
        unread = list(problems.get(row.subject, [])) if row.typed else []
        no = list(dict.fromkeys([*unread, *(v.message for v in said if not v.accepted)]))
        if no:
            out[(row.table, row.subject)] = (f"done: {'; '.join(yes)}; " if yes else "") + f"not done: {'; '.join(no)}"
    return out


def _untick(tab: InputTab, kept: dict[str, dict[str, TypedRow]],
            unused: Collection[Key]) -> dict[str, dict[str, TypedRow]]:
    """``kept`` with the tick boxes (Go) of the rows a stepwise resolution did not use cleared: left ticked, the
    next poll would resolve the same refused row again instead of waiting for its player."""
    out: dict[str, dict[str, TypedRow]] = {}
    for table, rows in kept.items():
        ticks = [c.key for c in tab.table(table).spec.of_kind(ColumnKind.TICK)]
        out[table] = {subject: (replace(row, values={**row.values, **dict.fromkeys(ticks, False)})
                                if (table, subject) in unused and ticks else row)
                      for subject, row in rows.items()}
    return out


def _goes_on(seat_read: SeatRead, left: Collection[Key], refused: Collection[Key]) -> frozenset[Key]:
    """The seat rows the engine left as they were read (``left``), none of them refused: its rows go on at the next
    poll with nothing for the player to tick again (a stop the stand-in GM settles), so the row keeps its Go ticked
    as it keeps its Ready."""
    return frozenset(k for k in left if k not in refused and seat_read.tab.table(k[0]).spec.rows == SEAT_ROWS)


def _drawable(adapter: AnySheetAdapter, state: Any, seat: str, tab: InputTab,
              kept: dict[str, dict[str, TypedRow]]) -> tuple[dict[str, dict[str, TypedRow]], list[TypedRow]]:
    """``kept`` without the rows the new state draws no row for (a unit that fell), and those rows: set aside."""
    out: dict[str, dict[str, TypedRow]] = {}
    gone: list[TypedRow] = []
    for table, rows in kept.items():
        placed = tab.table(table)  # tables grow to hold every row (grow); a numbered one names each row it has
        drawn = set(adapter.rows(state, seat, placed.spec)) | set(adapter.laid_out_rows(state, seat, placed))
        out[table] = {s: r for s, r in rows.items() if s in drawn}
        gone += [r for s, r in rows.items() if s not in drawn]
    return out, gone


def fresh_input(adapter: AnySheetAdapter, state: Any, window: Window | None, seat: str, tab: InputTab,
                kept: Mapping[str, Mapping[str, TypedRow]]) -> SeatInput[Any] | None:
    """The reading of the rows kept for ``window`` (a new window, ``state`` its state) in the tables the seat
    writes in then: what the next poll will answer them (a row typed ahead that cannot be read, a row it holds for
    the seat's next turn), so that the resolution draws them so at once, not 'Kept for …'. None when the seat does
    not write in ``window``."""
    if window is None or seat not in window.seats:
        return None
    rows = {table: [replace(row, subject=subject, window=window.key) for subject, row in by_subject.items()]
            for table, by_subject in kept.items() if tab.table(table).spec.open_in(window.phase)}
    return adapter.read_orders(state, window, seat, rows) if rows else None


def _kept_note(seat_read: SeatRead, row: TypedRow, window: Window, new_window: Window, same_window: bool,
               unused: Mapping[Key, str], told: bool = False) -> str:
    """What a row kept by a resolution says of why it is still typed, for as long as it holds what it holds (the
    archive keeps the sentence): why the resolution did not carry it out; '' when it was not read at all. ``told``:
    its refusal was told in its row before it resolved (``Verdict.shown_early``): kept in its window, its ✘ stays."""
    if seat_read.pending is not None:
        return seat_read.note(row)
    why = unused.get((row.table, row.subject))
    if why is not None and row.window == window.key and same_window:
        return f"{MARK * told}{unused_sentence(new_window, why)}"
    if why is not None and row.window == window.key:
        return refused_sentence(window, why)
    return seat_read.note(row) if same_window else closed_note(seat_read.note(row), window)


def settle_seat(adapter: AnySheetAdapter, state: Any, new_state: Any, seat_read: SeatRead, window: Window,
                new_window: Window | None, seat_input: SeatInput[Any] | None, verdicts: Sequence[Verdict],
                engine_unused: Mapping[str, str], resolved_words: bool = True) -> SeatSettled:
    """What a resolution of ``window`` (by the poll, a deadline or ``resolve --force``) does with one seat's rows:
    the rows it read are archived; those it carried out are cleared; those it did not (every part refused, a cell
    that cannot be read, or ``engine_unused``: read but left by the engine, with why) stay typed with why; rows it
    did not read stay as typed (typed ahead, for another table); rows stamped for another window, or whose subject
    the new state no longer draws, are set aside to the Archive. ``verdicts``: the engine's answers to the orders
    of ``state`` (the resolution's own when it gives them, else the check's: ``resolved_words`` False, and a row
    carried out says so without them, as they speak of what will be done)."""
    seat = seat_read.seat
    verdicts = routed(verdicts, seat, seat_input)
    same_window = new_window is not None and new_window.key == window.key
    consumed = seat_input.consumed if seat_input is not None else frozenset()
    if not same_window:  # the window closes: it takes every row typed for it, whatever the adapter marked
        consumed |= bound_to(seat_read, window, seat_input)
    problems: Mapping[str, Sequence[str]] = seat_input.problems if seat_input is not None else {}
    out = SeatSettled()
    out.read = [r for rows in seat_read.for_window(window).values() for r in rows
                if r.subject in consumed and (r.typed or seat_read.pending is not None)]
    refused = refused_whole(adapter, state, seat_read, out.read, verdicts, problems)
    left = {(r.table, r.subject): engine_unused[r.subject] for r in out.read if r.subject in engine_unused}
    out.unused = {**refused, **left}
    # A cut resolution completed reads its rows from the pending row: what it says of them is the uncut one's.
    typed_for = seat_read.read_and_used(window, consumed)
    done = typed_for - frozenset(out.unused)
    out.partly = partly_done(adapter, state, seat, out.read, verdicts, done, problems)
    # A line of a numbered table (a pasted post's) that the window did not carry out is set aside with why once it
    # closes: a line is no subject's own row, and a later window never reads it unless it is typed again.
    out.aside = {} if same_window or new_window is None else {  # the match's end keeps every row as typed
        k: LINE_WORDS for k in out.unused if k in typed_for and seat_read.tab.table(k[0]).spec.numbered}
    done |= frozenset(out.aside)
    out.set_aside = seat_read.stale(window) if seat_read.pending is None else []
    # At the match's end the rows it did not carry out stay as typed, saying that nothing more is read.
    target = new_window or window
    if seat_read.pending is not None:  # a cut resolution: every row typed since (for ``target``) stays
        # and a row it read and carried out, or set aside, still in her cells (a repair drew them again for
        # ``window``, or its first try never wrote her file) goes; one typed over since its first try is hers now
        read_out = seat_read.done(window, consumed | frozenset(s for _t, s in out.aside))
        done = read_out - (frozenset(out.unused) - frozenset(out.aside)) if target.key != window.key else frozenset()
    kept = seat_read.carried(window, target, done, frozenset(s for _t, s in done))
    if window.early is not None and target.key == window.early.key and seat_read.pending is None:
        # the next window reads what its seats sent by the players' deadline
        out.late = [why.out for _row, why in seat_read.late(window, adapter, state)]
        kept = seat_read.early_kept(window, kept, adapter, state)
    if window.stepwise and same_window:  # a row kept unused waits for its player to mend it and tick Go
        kept = _untick(seat_read.tab, kept, frozenset(out.unused) - _goes_on(seat_read, left, refused))
    out.kept, out.gone = _drawable(adapter, new_state, seat, seat_read.tab, kept)
    fresh = fresh_input(adapter, new_state, new_window, seat, seat_read.tab, out.kept) if not same_window else None
    _kept_rows_said(out, adapter, state, seat_read, window, target, verdicts, problems, same_window=same_window,
                    seat_input=seat_input, fresh=fresh, new_state=new_state)
    _step_notes(out, seat_read, window, same_window)
    placed = adapter.placed_verdicts([v for v in verdicts if v.seat == seat], seat_input)  # a recruit's, its row's
    did = {(r.table, r.subject): [v.message for v in row_verdicts(adapter, state, seat, r, placed) if v.accepted]
           for r in out.read} if resolved_words else {}
    did.update(_read_as_did(out.read, did, seat_input))
    _carried_notes(out, seat_read, window, did,
                   lambda spec, subject: bool(new_window and adapter.idle_row_reason(new_state, seat, spec, subject)),
                   _passed_over(seat_read, seat_input))
    if seat not in window.awaited and seat_read.pending is None and not same_window:
        _notes_kept_through(out, seat_read)
    elif window.stepwise and seat_read.pending is None:  # her own turn's steps: each earlier step's answer stays
        _notes_kept_through(out, seat_read, window)
    return out


def _kept_rows_said(out: SeatSettled, adapter: AnySheetAdapter, state: Any, seat_read: SeatRead, window: Window,
                    target: Window, verdicts: Sequence[Verdict], problems: Mapping[str, Sequence[str]], *,
                    same_window: bool, seat_input: SeatInput[Any] | None, fresh: SeatInput[Any] | None,
                    new_state: Any) -> None:
    """What each row ``out`` keeps says (``settle_seat``), in ``out.shown`` and, for the Archive's pending row, in
    ``out.notes``: why the resolution of ``window`` did not carry it out, the cells it cannot read, what the game
    tells it and why it waits. ``target``: the window the rows are kept for; ``same_window``: the resolution keeps
    ``window`` open (``seat_input`` is then what the seat's rows wait with); ``fresh``: the input of the window that
    opens, else None; ``new_state``: the state the rows wait in."""
    seat = seat_read.seat
    # A cut resolution completed reads the rows it had read then (the pending row's): a row typed since, or over
    # since, is not what their reasons are about, and says none of them.
    read_then = {(r["table"], r["subject"]): cells_text(r.get("values")) for r in seat_read.pending["rows"]} \
        if seat_read.pending is not None else None
    # What each kept row says: why the resolution did not carry it out, and the cells it cannot read. The Archive's
    # pending row keeps the sentence, so that it stays while the row waits in a window that does not read it.
    for table, rows in out.kept.items():
        by_subject: dict[str, str] = {}
        headers = {c.key: c.header for c in seat_read.tab.table(table).spec.columns}
        moved = {row.subject: subject for subject, row in rows.items() if row.subject != subject}
        for subject, row in rows.items():
            # refused: by a verdict told before it resolved, or by the resolution itself (a Wesnoth row refused at
            # its Go: "A1 costs 32 moves"), its ✘ kept while it waits; a row stopped (a reaction first) is no refusal
            told = any(not v.accepted for v in row_verdicts(adapter, state, seat, row, verdicts))
            note = _kept_note(seat_read, row, window, target, same_window, out.unused, told)
            if seat_read.tab.table(table).spec.standing and seat_read.pending is None:  # the engine's word on it
                note = standing_said(window, row_verdicts(adapter, state, seat, row, verdicts)) or note
            # a cell too long to read says so again when a cut resolution is completed (its row was not read)
            typed_over = read_then is not None and read_then.get((table, subject)) != cells_text(row.values)
            wrong = [*problems.get(row.subject, [])] * (not typed_over) or too_long(row, headers)
            reread = fresh is not None and seat_read.tab.table(table).spec.open_in(target.phase)
            if fresh is not None and reread and fresh.problems.get(subject):  # what the window that opens says
                wrong = [*fresh.problems[subject], *too_long(row, headers)]
            said = renamed(" · ".join([note] * bool(note) + [f"{MARK}{p}" for p in wrong if p not in note]), moved)
            if said:
                out.notes.append({"table": table, "subject": subject, "values": dict(row.values), "note": said})
            waiting = seat_input if same_window else fresh if reread else None
            # the open window's input names the row as it was read, before an ordered table's rows moved up
            named = row.subject if same_window else subject
            # what the game tells the row (a standing reaction in its own player's turn) is said as the next poll
            # says it: otherwise that poll writes again with nothing new typed
            extra = game_notes(waiting, named)
            if extra and extra not in said:
                said = " · ".join(p for p in (said, extra) if p)
            if waiting is not None and named in waiting.held:  # for her next turn, not this window
                if MARK not in said:  # what her turn will refuse, said while it waits (a refusal stands)
                    refused = table_ahead_refusals(adapter, new_state, target, seat, seat_read.tab.table(table).spec,
                                                   [replace(row, subject=named)], waiting.held).get(named)
                    said = renamed(refused, moved) if refused else said
                waits = waiting.held_why.get(named, "")
                said = " · ".join(p for p in (said, held_sentence(target, seat, seat_read.tab.table(table).spec, waits))
                                  if p)
            spec = seat_read.tab.table(table).spec
            if said and same_window and seat_input is not None and seat_read.pending is None \
                    and spec.rows == SEAT_ROWS and spec.of_kind(ColumnKind.READY):
                # a seat row kept with its window open (a stop the stand-in GM settles) says of its Ready box what
                # the next poll says, as a completed cut resolution does (the Archive's note keeps the reason only)
                said = row_feedback(row, seat, target, spec, {}, [], seat_input.ready, said)
            if said:
                by_subject[subject] = said
        out.shown[table] = by_subject


def bound_to(seat_read: SeatRead, window: Window, seat_input: SeatInput[Any] | None) -> frozenset[str]:
    """The subjects of the rows ``window`` read, which its closing resolution takes whatever its adapter marked as
    used: each carried out, or kept with why it was not (a refusal, the engine's word), never left to be carried out
    in a later window as if typed for it. Every row stamped for ``window`` (completing a cut resolution, every row
    its first try read) in a table the seat writes in, but a standing table's (read in every window until an order
    uses it) and a row held for the seat's next window."""
    return frozenset(r.subject for r in seat_read.bound(window, seat_input.held if seat_input is not None else
                                                            frozenset()))


def _read_as_did(read: Sequence[TypedRow], did: Mapping[Key, Sequence[str]],
                 seat_input: SeatInput[Any] | None) -> dict[Key, list[str]]:
    """What each row read as other subjects' orders (a pasted post's line, read as an army's: ``SeatInput.read_as``)
    and given no words of its own says once carried out: whose order it was, and that the Log says what it did (a
    bare "(the Log says what it did)" read on into the empty row's "Empty.")."""
    if seat_input is None:
        return {}
    out: dict[Key, list[str]] = {}
    for row in read:
        subjects = seat_input.read_as.get(row.subject, ())
        if subjects and not did.get((row.table, row.subject)):
            whose = " and ".join(possessive(s) for s in subjects)
            out[(row.table, row.subject)] = [f"read as {whose} order{'s' * (len(subjects) > 1)}; the Log says what "
                                             f"{'they' if len(subjects) > 1 else 'it'} did"]
    return out


def _notes_kept_through(out: SeatSettled, seat_read: SeatRead, steps_of: Window | None = None) -> None:
    """Keep what the seat's emptied rows said of her last resolution (``✔ Carried out in …``) through a window that
    did not wait for her (the opponent's turn, the judge's): each says it until she types in that row again or a
    window of hers resolves. With ``steps_of`` (her own window, resolved a step at a time by her Go), what the rows
    said of its earlier steps (carried out, or in part) stays through its later steps and its close."""
    noted = {(n["table"], n["subject"]) for n in out.notes}
    of_steps = (CARRIED + steps_of.label, f"{MARK}Carried out in part in {steps_of.label}") if steps_of else ()
    for k in seat_read.kept:
        table, subject = str(k.get("table", "")), str(k.get("subject", ""))
        if any(cells_text(k.get("values")).values()) or (table, subject) in noted or subject in out.kept.get(table, {}):
            continue
        row = next((r for r in seat_read.rows if (r.table, r.subject) == (table, subject)), None)
        if row is None or row.typed or seat_read.tab.table(table).spec.rows == SEAT_ROWS:
            continue
        note = str(k.get("note", ""))
        if not note.startswith(of_steps or (CARRIED,)):
            continue
        out.shown.setdefault(table, {})[subject] = note
        out.notes.append({"table": table, "subject": subject, "values": {}, "note": note})


def _passed_over(seat_read: SeatRead, seat_input: SeatInput[Any] | None) -> dict[str, Sequence[str]]:
    """The game's notes on the lines of a pasted post (a ``numbered`` table) that gave no order (read as none: a title
    line passed over), by subject; none while a cut resolution is completed (its input is not the one read)."""
    if seat_input is None or seat_read.pending is not None:
        return {}
    lines = {r.subject for r in seat_read.rows if seat_read.tab.table(r.table).spec.numbered}
    return {s: said for s, said in seat_input.notes.items() if s in lines and not seat_input.read_as.get(s)}


def _carried_notes(out: SeatSettled, seat_read: SeatRead, window: Window, said: Mapping[Key, Sequence[str]],
                   idle: Callable[[InputTable, str], bool], notes: Mapping[str, Sequence[str]]) -> None:
    """Add to ``out`` what a row the resolution carried out whole says once cleared: what it did (``said``: the
    resolution's verdicts, by table and subject), until she types in it again or the seat's next window resolves;
    the Log and her View say it at length. A row the game gives its own reason in the window that opens (``idle``:
    a player knocked down) says that instead; a post's line that gave no order (``notes``, by subject: a title line
    passed over) says that it was read, and the game's word on it."""
    for row in out.read:
        key = (row.table, row.subject)
        spec = seat_read.tab.table(row.table).spec
        if key in out.unused or key in out.partly or key in out.aside or row.subject in out.kept.get(row.table, {}) \
                or not row.typed or idle(spec, row.subject) \
                or (spec.rows == SEAT_ROWS and not _orders_typed(spec, row)):
            continue
        what = "; ".join(dict.fromkeys(said.get(key, [])))
        word = "" if what else "; ".join(dict.fromkeys(notes.get(row.subject, ())))
        note = read_sentence(window, word) if word else carried_sentence(window, what)
        out.shown.setdefault(row.table, {}).setdefault(row.subject, note)
        out.notes.append({"table": row.table, "subject": row.subject, "values": {}, "note": note})


def _orders_typed(spec: InputTable, row: TypedRow) -> bool:
    """Whether a seat row holds an order besides its boxes (Champions' fight row: its attacks), which says what it
    did once carried out; a row of boxes alone (Ready, Go) says what became of them elsewhere (``_step_notes``)."""
    return any(c.kind.typed and c.kind not in (ColumnKind.TICK, ColumnKind.READY)
               and row.values.get(c.key) not in (None, "", False) for c in spec.columns)


def renamed(text: str, moved: Mapping[str, str]) -> str:
    """``text`` with each row it names by a subject that ``moved`` (an ordered table's rows kept and moved up) named
    by the row it stands in now: a reason never points at a row by the number it had before ("waiting: Row 2 above
    cannot be read yet", said of Row 3, becomes "Row 1 above" once both moved up one)."""
    if not moved or not text:
        return text
    names = sorted(moved, key=len, reverse=True)
    return re.sub(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])", lambda m: moved[m.group(1)], text)


def _step_notes(out: SeatSettled, seat_read: SeatRead, window: Window, same_window: bool) -> None:
    """Add to ``out`` what the seat row of a step resolved by Go says (its Go unticked), what a seat row whose Ready
    the closing window did not wait for says (unticked), and what a row carried out in part says (cleared, until the
    next window resolves)."""
    # A Go that resolved a step is unticked with its row: the seat row says what it did, until the next resolution.
    if window.stepwise and same_window and seat_read.pending is None:
        for row in out.read:
            spec = seat_read.tab.table(row.table).spec
            ticks = spec.of_kind(ColumnKind.TICK)
            if spec.rows != SEAT_ROWS or not ticks or not any(row.ticked(c.key) for c in ticks):
                continue
            stays = out.kept.get(row.table, {}).get(row.subject)
            if stays is not None and any(stays.ticked(c.key) for c in ticks):
                continue  # kept ticked: its rows go on at the next poll, and the row says so (``_goes_on``)
            steps = [r for r in out.read if seat_read.tab.table(r.table).spec.rows != SEAT_ROWS]
            left = sum((r.table, r.subject) in out.unused for r in steps)
            went = go_sentence(window, len(steps) - left, left, ticks[0].header)
            out.shown.setdefault(row.table, {})[row.subject] = went
            out.notes.append({"table": row.table, "subject": row.subject, "values": {}, "note": went})
    # A Ready ticked in a window that did not wait for the seat (the opponent's turn) is not carried over to the
    # seat's own: unticked as the window (or a step of it) resolves, the seat row says so until the next resolution.
    if seat_read.pending is None and seat_read.seat not in window.awaited:
        for row in seat_read.rows:
            spec = seat_read.tab.table(row.table).spec
            boxes = spec.of_kind(ColumnKind.READY)
            if spec.rows != SEAT_ROWS or not boxes or not row.ticked(boxes[0].key):
                continue
            stays_ticked = out.kept.get(row.table, {}).get(row.subject)
            if stays_ticked is not None and stays_ticked.ticked(boxes[0].key):
                if row.window == window.key:  # a step of the window resolved: unticked as the window closes
                    continue
                # ticked ahead for a window of her own (her deployment): one rule, a Ready is for the window
                # that waits for her, as in a turn
                out.kept[row.table][row.subject] = replace(stays_ticked, values={**stays_ticked.values,
                                                                           boxes[0].key: False})
            dropped = ready_dropped_sentence(window, seat_read.seat, boxes[0].header)
            out.shown.setdefault(row.table, {})[row.subject] = dropped
            out.notes.append({"table": row.table, "subject": row.subject, "values": {}, "note": dropped})
    # A row carried out in part, or set aside as one window's, is cleared; its feedback says what was not done
    # until the next window resolves.
    for row in out.read:
        key = (row.table, row.subject)
        if key in out.aside and row.subject not in out.kept.get(row.table, {}):
            note = line_sentence(window, out.unused[key])
            out.shown.setdefault(row.table, {})[row.subject] = note
            out.notes.append({"table": row.table, "subject": row.subject, "values": {}, "note": note})
            continue
        why = out.partly.get((row.table, row.subject))
        if why is None or row.subject in out.kept.get(row.table, {}) or seat_read.tab.table(row.table).spec.ordered:
            continue
        note = partly_sentence(window, why)
        out.shown.setdefault(row.table, {})[row.subject] = note
        out.notes.append({"table": row.table, "subject": row.subject, "values": {}, "note": note})


def stays(row: TypedRow, seat: str, table: InputTable, window: Window | None) -> bool:
    """Whether a typed row stays in its cells when its seat's tables are drawn anew for ``window`` (a GM's change,
    ``repair``): typed for it, typed ahead (in a table the seat does not write in now), a standing table's, or
    every row once the match is over (None). Else it is stamped for another window: set aside to the Archive."""
    if window is None or row.window == window.key or table.standing:
        return True
    return not (seat in window.seats and table.open_in(window.phase))


def kept_refusals(rows: Sequence[TypedRow]) -> dict[str, dict[str, str]]:
    """The refusals (``✘ …``) the kept ``rows`` already say, by table and subject: a tab drawn again by ``repair``
    or a GM's change keeps each row's refusal until the next poll checks it again (and, once the change ended the
    match, for good), never masked by "Kept for …"."""
    out: dict[str, dict[str, str]] = {}
    for row in rows:
        refusals = [p for p in row.feedback.split(" · ") if p.startswith(MARK)]
        if row.typed and refusals:
            out.setdefault(row.table, {})[row.subject] = " · ".join(refusals)
    return out


# -- what a change the GM makes between two resolutions does with one seat's rows ----------------------------------
def settle_change(adapter: AnySheetAdapter, state: Any, seat_read: SeatRead, window: Window | None,
                  rows: Sequence[TypedRow], told: Mapping[str, Mapping[str, str]]) -> SeatSettled:
    """What a change the GM makes between two resolutions (``adjust``, a seat handed to a bot, ``undo``) does with
    the seat's ``rows`` (her typed rows, or those an undo puts back), the match drawn at ``state`` with ``window``
    open: a row for ``window``, typed ahead (a table she does not write in now) or in a standing table stays in its
    cells, saying what ``told`` says of it (by table and subject), else what a kept row says; once the change ended
    the match (``window`` None) every row stays as typed, saying that nothing more is read. A row stamped for
    another window than ``window`` is set aside to the Archive, and so is a row whose subject ``state`` no longer
    draws (a unit the change removed): never dropped."""
    out = SeatSettled()
    kept: dict[str, dict[str, TypedRow]] = {}
    for row in rows:
        said = told.get(row.table, {}).get(row.subject, "")
        if not (row.typed or said):
            continue
        if stays(row, seat_read.seat, seat_read.tab.table(row.table).spec, window):
            kept.setdefault(row.table, {})[row.subject] = row
            if said:
                out.shown.setdefault(row.table, {})[row.subject] = said
        elif row.typed:
            out.set_aside.append(row)
    out.kept, out.gone = _drawable(adapter, state, seat_read.seat, seat_read.tab, kept)
    return out
