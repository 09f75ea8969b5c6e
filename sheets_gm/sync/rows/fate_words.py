"""The sentences ``sync/rows/fates.py`` does not build itself: what a player reads of a row no order is read from, of a
row with nothing typed in it, of a file saved from an older copy, of a cell drawn by sheets-gm that she typed over.

``fates.py`` decides what becomes of a typed row and says it; this module is its vocabulary for the rows around
those (``docs/sync.md``, "The life of a typed row", names both): together they are the one place a sentence about
a player's row comes from. The callers (``strays``, ``writes``, ``older_copy``, ``archive_move``, ``between``,
``drawn_cells``) decide which rows get which sentence and nothing about its words. Every function here is pure
text.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheets_gm.engine.ruleset import JUDGE, Window
from sheets_gm.engine.words import counted, label_verb, possessive
from sheets_gm.sheets.spec import ColumnKind, InputTable
from sheets_gm.sheets.tables import InputTab, TypedRow
from sheets_gm.sync.rows.archive_lines import ArchiveLine, capital, one_line, row_text

MARK = "✘ "  # every refusal, and every answer to a stray row, starts with it
HELD = " · You typed in this cell: "  # what a player typed in a blank row's feedback cell, kept in the answer
WARN = "⚠ "  # a file or a cell sheets-gm drew again over what a player saved


#: The most an answer in a feedback cell is given, in UTF-16 units: an .xlsx cell holds 32,767 (a Google cell
#: 50,000), and the closing sentence saying what did not fit needs room.
ANSWER_UNITS = 32_000
TAIL_UNITS = 200  # the room kept for the sentence saying what did not fit (besides where it is)
_JOIN = " · "


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def fitted_answer(text: str, rest_at: str = "") -> str:
    """``text`` (an answer's parts joined by ' · ') as a feedback cell can hold it: unchanged when it fits; else its
    refusals (``✘ …``) first, then as many other parts as fit whole, then how many did not fit and where they are
    (``rest_at``; else that they show here once the ones shown are mended). Never cut mid-sentence: a part too long
    on its own is cut where one of its clauses ('; ') ends.

    >>> fitted_answer("✔ a · ✘ b")
    '✔ a · ✘ b'
    >>> import sheets_gm.sync.rows.fate_words as w
    >>> long = " · ".join(["✔ " + "x" * 10_000] * 4 + ["✘ refused"])
    >>> cut = w.fitted_answer(long, "each is in its own row too")
    >>> cut.startswith("✘ refused · ✔ x") and cut.endswith("each is in its own row too.") and len(cut) < 32_767
    True
    """
    if _units(text) <= ANSWER_UNITS:
        return text
    parts = text.split(_JOIN)
    order = sorted(range(len(parts)), key=lambda i: not parts[i].startswith(MARK))  # stable: the refusals first
    room = ANSWER_UNITS - TAIL_UNITS - _units(rest_at)
    shown: list[str] = []
    left = cut = 0
    refused_left = 0
    for i in order:
        part = parts[i]
        if _units(part) + len(_JOIN) > room and not shown:  # one part longer than the cell: cut at a clause's end
            clauses = part.split("; ")
            whole = len(clauses)
            while clauses and _units("; ".join(clauses)) + len(_JOIN) > room:
                clauses.pop()
            if clauses:
                part = "; ".join(clauses) + " …"
                cut = whole - len(clauses)
        if _units(part) + len(_JOIN) <= room:
            shown.append(part)
            room -= _units(part) + len(_JOIN)
        else:
            left += 1
            refused_left += part.startswith(MARK)
    where = rest_at or "mend or clear what is shown, and the rest shows here"
    of_them = f", {refused_left} of them refusals" if refused_left else ""
    more = [f"{cut:,} more clause{'s' * (cut != 1)} of the first"] * bool(cut) + \
        [f"{left:,} more answer{'s' * (left != 1)}"] * bool(left)
    return _JOIN.join([*shown, f"… {' and '.join(more)} not shown here (a cell holds 32,767 characters{of_them}): "
                                f"{where}."])


def _who(window: Window) -> str:
    """The seats ``window`` is for, the first three named."""
    return ", ".join(window.seats[:3]) + (f" and {len(window.seats) - 3} more" if len(window.seats) > 3 else "")


# -- a row with nothing typed in it, and a seat row's Ready box ------------------------------------------------
def idle_feedback(window: Window | None, seat: str, table: InputTable, outcome_text: str, reason: str = "") -> str:
    """A row's feedback while nothing is typed in it (``reason``: the game's words for a seat with nothing to
    write in any window, from the adapter's ``idle_reason``)."""
    if window is None:
        return f"The match is over: {outcome_text}" if outcome_text else "The match is over."
    if reason:
        return reason
    label_is = label_verb(window.label, "is", "are")
    if seat in window.seats and not table.open_in(window.phase):
        return f"Not open now: {label_is} being played; this table opens in another window."
    early = window.early
    if seat not in window.seats and early is not None and seat in early.seats and table.open_in(early.phase):
        return (f"Open for {early.label}, with the {window.sealed or 'orders'} of {window.label}: what is typed "
                "here by the players' deadline is read (Ready is not needed: the deadline closes it).") \
            if table.of_kind(ColumnKind.READY) else table.idle or f"Open for {early.label}: type its orders here."
    if seat not in window.seats:
        return f"Nothing to write now: {label_is} for {_who(window)}."
    if table.of_kind(ColumnKind.READY):
        return ready_sentence(window, seat, table, False)
    if table.idle:
        return table.idle
    if seat not in window.awaited and not table.standing:
        named = all(who in window.label for who in window.awaited)  # "turn 1 · Ann" waits for Ann: said once
        waits = "" if named else f", which waits for {', '.join(window.awaited)}"
        return f"Not yet: it is {window.label}{waits}; {seat} writes here for {possessive(seat)} own turn."
    return f"Waiting for {'the results' if seat == JUDGE else 'your orders'} for {window.label}."


def ready_sentence(window: Window, seat: str, table: InputTable, ready: bool, ticked: bool = False,
                   waits: Sequence[str] = ()) -> str:
    """What a seat row says of its Ready box (a seat the window does not wait for is told it need not tick it, and,
    ticked, that it is unticked when the window closes; a box ticked over rows that say ✘, that it waits for them:
    ``waits``, their subjects, when known)."""
    box = table.of_kind(ColumnKind.READY)[0].header
    if seat not in window.awaited:
        label = window.label[:1].upper() + window.label[1:]
        if ticked:  # a Ready is for the window it is ticked in: this one does not take it, nor does the next
            return (f"{label} waits for {', '.join(window.awaited)} only: {seat}'s {box} is not taken for it, and "
                    f"is unticked as it resolves; tick {box} once {seat}'s own window is open and the orders are in.")
        return f"{label} waits for {', '.join(window.awaited)} only: {seat} need not tick {box}."
    if ready:
        return f"{box} for {window.label}."
    if ticked and waits:
        named = ["this row" if s == seat else s for s in waits]
        rows = ", ".join(named[:5]) + (f" and {len(named) - 5} more" if len(named) > 5 else "")
        one = len(waits) == 1
        return (f"{MARK}{box} is ticked, but not taken while {rows} {'is' if one else 'are'} refused (each row says "
                f"why): mend or clear {'it' if one else 'them'}, and {box} counts; the deadline, or the GM's resolve "
                f"--force, closes {window.label} without {'it' if one else 'them'}.")
    if ticked:
        return (f"{box} is ticked, but {seat} counts as ready only once every row marked ✘ is mended or cleared "
                f"(for {window.label}).")
    if seat == JUDGE:
        return f"Tick {box} when the judge's results for {window.label} are in."
    return f"Tick {box} when {seat}'s orders for {window.label} are in."


def ready_dropped_sentence(resolved: Window, seat: str, box: str) -> str:
    """What a seat row says once a resolution of a window that did not wait for the seat (the opponent's turn, or a
    step of it) cleared the Ready it ticked there: unticked, not carried over to the seat's own turn."""
    return (f"Your {box} ticked in {resolved.label} was unticked as it resolved: {resolved.label} waited for "
            f"{', '.join(resolved.awaited)} only, and a {box} counts only in a window that waits for you.")


def not_a_tick_words(header: str, shown: str, ready: bool) -> str:
    """A tick cell (Go, or the ``ready`` box) of ``header`` holding ``shown`` (quoted), neither a tick nor an
    untick: not counted as ticked (``typed_cells``; a refusal, said after ``MARK``)."""
    what = "your orders are not marked ready" if ready else "the box is not counted as ticked"
    return f"the {header} cell holds {shown}, which is not a tick: {what}; tick the box (or type x) to tick it, or " \
           "empty the cell"


# -- a row read as other rows' orders (a line of a pasted forum post) ---------------------------------------------
def read_as_words(subject: str, message: str) -> str:
    """A verdict on ``subject``'s order shown in the row it was read from (a line of a pasted post naming it)."""
    return f"{READ_AS}{possessive(subject)} order: {message}"


READ_AS = "read as "  # how a verdict on another row's order, shown in the row it was read from, begins
#: Where the rest of an answer cut to a cell's size is, for a row read as other rows' orders (a pasted post).
READ_AS_REST = "each order read from this row is answered in full in its own row too"


# -- a row no order is read from (``strays``) -----------------------------------------------------------------------
def not_yours_sentence(seat: str, owner: str, place: str, subject: str = "") -> str:
    """A row naming ``owner``'s subject (``subject``), or ``owner`` itself in a seat table (no ``subject``):
    ``owner``'s orders go in ``place`` (its own tab or file); nothing in the row is read."""
    if not subject:
        return f"{MARK}{owner}'s orders go in {owner}'s {place}, not in {seat}'s: nothing in this row is read."
    return f"{MARK}{subject} is {owner}'s: {owner}'s orders go in {owner}'s {place}; nothing in this row is read."


def elsewhere_words(seat: str, owner: str, place: str, subject: str = "") -> str:
    """``not_yours_sentence``'s words inside another answer (a blank row naming ``owner`` or its ``subject``)."""
    if not subject:
        return f"{owner}'s orders go in {owner}'s {place}, not in {seat}'s"
    return f"{subject} is {owner}'s: {owner}'s orders go in {owner}'s {place}"


def no_row_sentence(reason: str, subject: str, subjects: Sequence[str], header: str) -> str:
    """A row naming ``subject``, for which its table (whose rows are ``subjects``, named by ``header``) has no row
    now: ``reason`` is the game's words for it (the adapter's ``stray_reason``), '' for the general ones."""
    if not reason:
        listing = "it has no rows now" if not subjects else "its rows are " + ", ".join(subjects[:8]) + (
            f" and {len(subjects) - 8} more" if len(subjects) > 8 else "")
        reason = f"this table has no row for {subject} now ({listing})"
    return f"{MARK}{reason[:1].upper()}{reason[1:]}: nothing in this row is read; write in the row of the " \
           f"{header.lower()} you mean."


def duplicate_sentence(subject: str, rows: Sequence[int]) -> str:
    """One of several typed rows for ``subject`` in one table (at tab ``rows``): none is read until one is left."""
    where = ", ".join(str(r) for r in rows[:-1]) + f" and {rows[-1]}"
    return f"{MARK}{subject} has {len(rows)} typed rows in this table (rows {where}): none is read until one is " \
           "left; clear the others."


def past_table_sentence(typed: Sequence[tuple[str, str]], last_column: str, headers: Sequence[str]) -> str:
    """A row with something typed right of its table's last column (``last_column``; its columns ``headers``):
    ``typed`` is each such cell's column letter and what it holds."""
    where = ", ".join(f"{col} ({value!r})" for col, value in typed)
    said = f"Columns {where} are" if len(typed) > 1 else f"Column {where} is"
    return (f"{MARK}{said} past this table, which ends at column {last_column}: its columns are "
            f"{', '.join(headers)}. Nothing in this row is read until what is typed past the table is "
            "cleared or moved into its columns.")


def no_subject_sentence(header: str) -> str:
    """A row of a table without a subject (``header``'s cell empty) with something typed in it."""
    return (f"{MARK}This row has no {header}: nothing typed in it is read; write in the row of the "
            f"{header.lower()} it is for.")


def blank_row_sentence(row: int, under: bool, other: str = "", name: str = "", own_row: int = 0,
                       held: str = "", last_row: int = 0) -> str:
    """Row ``row`` between two tables (or ``under`` the last) with something typed in it: ``other``, where the
    seat it names writes (``elsewhere_words``); else, for a ``name`` of the seat's own, its ``own_row``. ``held``:
    what the player typed in the row's feedback cell, kept in the answer; ``last_row``: where the last table ends
    (a row under it is told so, as a cell past a table's last column is told its last column)."""
    where = "under the last table" if under else "between two tables"
    if under and last_row:  # as a cell past a table's last column is told where the table ends
        where += f", which ends at row {last_row}"
    text = f"{MARK}Row {row} is {where}: nothing typed in it is read"
    if other:
        text += f". {other}."
    elif own_row:
        text += f"; write {name}'s orders in its own row (row {own_row})."
    else:
        text += "; write orders in the rows of the tables."
    return text + (HELD + held if held else "")


def junk_block_sentence(first: int, last: int, count: int, sample: str, last_row: int, held: str = "") -> str:
    """``count`` rows typed under the last table (which ends at ``last_row``), from row ``first`` to ``last``: a
    paste gone wrong, answered once in the first row's feedback cell, ``sample`` (the first row's cells) naming what
    was pasted; ``held``: what the player typed in that cell, kept in the answer."""
    text = (f"{MARK}Rows {first} to {last} are under the last table, which ends at row {last_row}: nothing typed in "
            f"them is read ({count:,} rows typed, the first: {one_line(sample)}); write orders in the rows "
            f"of the tables. This answer stands for each of them.")
    return text + (HELD + held if held else "")


def moved_sentence(said: str, row: int) -> str:
    """A stray row's answer ``said`` once it moved from ``row``, which a table redrawn by a resolution needed."""
    return f"{said} (Moved here from row {row}, which the table needed.)"


def name_typed_over_sentence(header: str, typed: str, drawn: str, archive: str) -> str:
    """A row whose ``header`` cell (the row's name, drawn by sheets-gm) held ``typed``, with nothing typed in the
    row's own columns: ``drawn`` (the row's name) was written back, and what was typed is in tab ``archive``."""
    back = f"{drawn} was written back" if drawn else "the row was emptied (its table has no row there now)"
    return (f"{WARN}{header} is drawn by sheets-gm and is not read: what was typed there ({one_line(typed)!r}) is "
            f"kept in tab "
            f"{archive!r}, and {back}; type orders in this row's other columns.")


def strays_aside_line(label: str, named_over: Sequence[str], no_room: Sequence[str], archive_label: str) -> ArchiveLine:
    """The Archive entry of what was typed where no order is read and could not stay in its tab: ``named_over``,
    each cell typed where sheets-gm draws a row's name (written back), and ``no_room``, each stray row that the
    tables drawn again for ``archive_label`` left no free row to stay in (words, as ``stray_text`` gives them)."""
    said = []
    if named_over:
        said.append("typed where sheets-gm draws each row's name, which it wrote back")
    if no_room:
        them = "it" if len(no_room) == 1 else "them"
        said.append(f"typed where no order is read, with no free row left to keep {them} in when the tables were "
                    f"drawn for {archive_label}")
    return ArchiveLine(label, f"Set aside, never read as orders: {'; and '.join(said)}. No longer in your tab: type "
                              "what you still want in the row it is for:", (*named_over, *no_room))


# -- a file saved from an older copy (``older_copy``) and a drawn cell typed over (``drawn_cells``) -----------------
def _are(count: int) -> str:
    """The verb of ``count`` rows: ``is`` for one, ``are`` for any other count."""
    return "is" if count == 1 else "are"


def view_lines_wait_sentence(seat: str, lost: int) -> str:
    """What the GM is told when an older copy lost View log lines that neither the replay nor the Log gives back
    (lines that seat alone was shown in a window an undo took back)."""
    return (f"{seat}'s View log lacks {counted(lost, 'line')} written since the copy was drawn, which neither the "
            "replay nor the Log gives back (not given back: `repair` leaves their rows empty and counts them)")


def older_copy_sentence(now: int, fresh: int, done: int, ticks: int, gone: int, archive: str,
                        restored: int = 0, closed: int = 0) -> str:
    """What a seat's tab and View say when its file was saved from a copy older than resolution ``now`` (it was still
    open when the sync wrote it): how many rows were read (``fresh``), not read again (``done``), unticked
    (``ticks``), set aside (``gone``; ``closed``: typed for a window closed since) to tab ``archive``, and kept rows
    the copy lacked, drawn back (``restored``)."""
    told = [f"{WARN}This file was saved from a copy older than resolution {now} (it was still open "
            "when the sync wrote it): sheets-gm drew it again for the window open now"]
    if fresh:
        told.append(f"what you typed in it ({counted(fresh, 'row')}) is read for the window open now")
    if done:
        told.append(f"{counted(done, 'row')} already carried out {_are(done)} not read again (tab {archive!r} says "
                    "which)")
    if ticks:
        told.append(f"the ticks of {counted(ticks, 'row')} were for a window already resolved: unticked (tick "
                    "again if you mean the window open now)")
    if gone:
        told.append(f"{counted(gone, 'row')} whose subject has no row any more {_are(gone)} set aside in tab "
                    f"{archive!r}")
    if closed:
        told.append(f"{counted(closed, 'row')} typed for a window already resolved {_are(closed)} set aside in tab "
                    f"{archive!r}, not read for the window open now (type {'them' if closed > 1 else 'it'} again if "
                    "you mean it)")
    if restored:
        told.append(f"{counted(restored, 'row')} that resolution {now} kept with its reason and the copy did not "
                    f"hold {_are(restored)} back in {'their rows' if restored > 1 else 'its row'}")
    return "; ".join(told) + ". · "


def copy_done_line(tab: InputTab, label: str, now: int, when: str, rows: Sequence[TypedRow]) -> ArchiveLine:
    """The Archive entry of an older copy's rows, unchanged, already carried out when ``when`` resolved (the copy is
    older than resolution ``now``): not read again."""
    return ArchiveLine(label, (
        f"Not read again: this file was saved from a copy older than resolution {now}, and these rows, "
        f"unchanged, were already carried out when {when} resolved (its entry above says what became of "
        "them):"), tuple(row_text(tab, r) for r in rows), tuple(rows))


def copy_ticks_line(tab: InputTab, label: str, now: int, keys: str, rows: Sequence[TypedRow]) -> ArchiveLine:
    """The Archive entry of an older copy's ticks for windows already resolved (``keys``): unticked."""
    return ArchiveLine(label, (
        f"Unticked: this file was saved from a copy older than resolution {now}; these ticks were for {keys}, "
        "and a tick counts for one window only: tick again if you mean the window open now:"),
        tuple(row_text(tab, r) for r in rows), tuple(rows))


def copy_closed_line(tab: InputTab, label: str, now: int, keys: str, rows: Sequence[TypedRow]) -> ArchiveLine:
    """The Archive entry of an older copy's rows typed in its tables drawn for a window that closed without them
    (``keys``): bound to it, never read for the open one; set aside."""
    return ArchiveLine(label, (
        f"Set aside: this file was saved from a copy older than resolution {now}, and these rows were typed for "
        f"{keys}, which closed without them (the copy's tables were drawn for it); an order is read for its window "
        "only: type them again if you mean the window open now:"),
        tuple(row_text(tab, r) for r in rows), tuple(rows))


def copy_gone_line(tab: InputTab, label: str, now: int, rows: Sequence[TypedRow]) -> ArchiveLine:
    """The Archive entry of an older copy's rows whose subject has no row any more: set aside."""
    return ArchiveLine(label, (
        f"Set aside: this file was saved from a copy older than resolution {now}, and what these rows are for "
        "has no row any more; no longer in your rows:"), tuple(row_text(tab, r) for r in rows), tuple(rows))


def relaid_line(tab: InputTab, rows: Sequence[TypedRow]) -> ArchiveLine:
    """The Archive entry of rows an archive of the first layout kept as set aside, once ``repair`` lays it anew."""
    return ArchiveLine("", "Set aside before this archive was laid out anew; no longer in your rows: type them again "
                           "in the window they are for:", tuple(row_text(tab, r) for r in rows), tuple(rows))


def drawn_cell_words(header: str, was: str, put_back: str) -> str:
    """One cell of ``header``, drawn by sheets-gm, in which a player typed ``was``: put back to ``put_back``."""
    return f"{header} is drawn by sheets-gm and is not read: what was typed there ({was!r}) was put back to " \
           f"{put_back or 'empty'}"


def shown_typed_over_line(label: str, cells: Sequence[str]) -> ArchiveLine:
    """The Archive entry of what was typed in cells sheets-gm draws in the rows (a roll, a unit's hex: ``cells``,
    each its row, subject, column and text), put back as drawn and never read."""
    return ArchiveLine(label, "Typed in cells sheets-gm draws (never read as orders), put back as drawn; type orders "
                              "in the row's own columns:", tuple(cells))


def drawn_cells_note(words: Sequence[str]) -> str:
    """The note of a row whose drawn cells were put back (``drawn_cell_words`` each)."""
    return WARN + "; ".join(words)


def orphans_line(label: str, cells: Sequence[tuple[str, str, str]]) -> ArchiveLine:
    """The Archive entry of the cells typed in a column that is none of the tables' (``cells``: tab, cell, text),
    which repair could not keep in the tab (``label``: the window open)."""
    return ArchiveLine(label, "Set aside by the GM's repair, never read as orders: typed in a column that is none of "
                              "the table's (a column inserted), which the tab laid out again no longer has. No longer "
                              "in your tab: type what you still want in the row and column it is for:",
                       tuple(f"{tab} {cell}: {text}" for tab, cell, text in cells))


# -- the causes a GM's change names in the sentences of the rows it set aside ---------------------------------------
def adjust_cause(reasons: str) -> str:
    """``adjust``'s cause: 'the GM adjusted the match (why)'."""
    return f"the GM adjusted the match ({reasons})" if reasons else "the GM adjusted the match"


def handed_cause(reason: str) -> str:
    """A seat handed to a bot (or back): 'the GM handed seats to bots (why)'."""
    return f"the GM handed seats to bots ({reason})"


def undo_cause(window: Window, reason: str) -> str:
    """``undo``'s cause: 'the GM undid turn 3 (why)'."""
    return f"the GM undid {window.label} ({reason})"


def undo_adjustment_cause(undone: str, reason: str) -> str:
    """``undo``'s cause when it takes back an adjustment: 'the GM took back her adjustment (what) (why)'."""
    return f"the GM took back her adjustment ({undone}) ({reason})"


#: Why a window resolved when the GM closed it (``resolve --force``): the poll's reason, and the Archive's words.
FORCED = "forced by the GM"


def read_line_sentence(label: str, forced: bool = False) -> str:
    """The sentence of a resolution's Archive entry of the rows it read ("Turn 3 resolved with what you typed:"); a
    window the GM closed (``forced``) says so, whatever boxes the rows below had ticked."""
    if forced:
        return f"{capital(label)} was closed by the GM (resolve --force) and resolved with what you typed:"
    return f"{capital(label)} resolved with what you typed:"


def cut_lost_sentence(label: str, resolution: int, copies: str) -> str:
    """What the Archive entry of a resolution cut before its commit says instead of ``read_line_sentence`` once
    ``repair`` found the only copy of the rows it had read gone with the seat's hidden Copies tab (``copies``): they
    were cleared from her rows and never carried out."""
    return (f"{capital(label)} was being resolved with what you typed (resolution {resolution}), but "
            f"the resolution was cut before the match took it, and the copy of these rows was lost with the hidden "
            f"tab {copies!r}: they were NOT carried out and are no longer in your rows (those marked still in your "
            "rows excepted): type again those you still want:")


def resolution_aside_entry(text: str) -> bool:
    """Whether an Archive entry's sentence is one a resolution writes beside its entry of the rows it read (``fates``'
    ``stale_line``, ``gone_line``: rows set aside while its window was played, or when it resolved)."""
    return text.startswith(("Set aside while ", "Set aside when "))
