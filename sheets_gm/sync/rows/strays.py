"""Rows no order is read from, each answered in its own feedback cell instead of being ignored.

A stray row is one of:
- a row naming a subject that is another seat's (another player, a unit of another seat): its
  orders go in that seat's own tab or file;
- a row naming a subject its table has no row for now (a battle nobody fights, a unit that is not
  there): the adapter may say why in its game's words (its ``stray_reason``);
- two or more typed rows for one subject in one table: none is read, and each names the others;
- a row without a subject with something typed in it (a table's blank row), or the blank row
  between two tables (or under the last) with something typed in it. In a ``numbered`` table every
  row is named by its place, so a line typed where an earlier version drew no name is no stray: it
  is read as the line its place names, and the poll draws the name in (``_numbered_lines``).

More than :data:`JUNK_ROWS` rows typed under the tables are a paste gone wrong: answered once, in the first one's
feedback cell, naming them all (``_junk_block``); each other one is ``quiet``, kept like any stray row.

Each gets a sentence starting with ✘ in the tab's feedback column (in a blank row between tables,
that cell is the player's too: what she typed there is quoted in the answer, never lost), and
``sync`` and ``status`` list it with the refused rows. A stray row is never set aside nor cleared:
a resolution redraws the tables around it (``stray_layout``); a row whose place the redrawn
table needs moves to a free row of its table, or to a free blank row, saying from where. Two
cases only leave the tab, each to the seat's Archive in the same write (``StrayLayout.aside_line``):
a row with nowhere left to go (every table full, every blank row typed in), and text typed over a
row's name in a row with nothing else typed (``StrayRow.over``), which the poll writes back.
"""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

from sheets_gm.engine.grid import column_label
from sheets_gm.engine.ruleset import Window
from sheets_gm.rulesets.registry import AnyRuleset
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import CellValue, Grid, a1, cell_at, cells
from sheets_gm.sheets.spec import SEAT_ROWS, ColumnKind, InputTable
from sheets_gm.sheets.tables import InputTab, LooseRow, PlacedTable, TypedRow, text_of
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.rows.archive_lines import ArchiveLine, capital, short_header
from sheets_gm.sync.rows.fate_words import (
    HELD,
    MARK,
    blank_row_sentence,
    duplicate_sentence,
    elsewhere_words,
    junk_block_sentence,
    moved_sentence,
    name_typed_over_sentence,
    no_row_sentence,
    no_subject_sentence,
    not_yours_sentence,
    past_table_sentence,
    strays_aside_line,
)
from sheets_gm.sync.sheets import MatchSheets, WriteBatch


@dataclass(frozen=True, slots=True)
class StrayRow:
    """One row of a seat's input tab that no order is read from, and its answer.

    ``table`` is '' for a blank row between tables; ``cells`` are the row's cells before the feedback column
    as read; ``feedback`` what its feedback cell holds; ``why`` the answer ('' once nothing is typed there any
    more). ``mend``: the cells an idle poll writes in the row (its answer, or the row put back as drawn).
    ``home``: a duplicate standing in the row its subject is drawn in."""

    table: str
    row: int
    subject: str
    cells: tuple[CellValue, ...]
    feedback: str
    why: str
    mend: Mapping[int, CellValue] = field(default_factory=dict)  # what an idle poll writes in the row, by column
    home: bool = False
    tab: str = ""  # the input tab it is on (the seat's orders tab, or one of its further tabs)
    over: str = ""  # typed in the row's name cell, which the drawing writes back: set aside to the Archive
    quiet: bool = False  # one of many rows typed under the tables, answered once in the first one's cell (``_junk``)

    def words(self, tab: InputTab) -> str:
        """What was typed in the row, as an Archive line names it: its row, then each cell under its column's
        header ("row 10 — Line: Army 03 …"; a blank row's cells one after the other)."""
        if self.over:
            header = tab.table(self.table).spec.columns[0].header
            return f"row {self.row} — {short_header(header)}: {self.over}"
        if self.table:  # its name, the cells a player types, and any typed past the table (drawn cells left out)
            placed = tab.table(self.table)
            named = {col: short_header(c.header) for col, c in placed.columns() if col == 0 or c.kind.typed}
            named |= {col: column_label(col) for col in placed.past_cols()}
            parts = [f"{named[col]}: {text_of(v)}" for col, v in enumerate(self.cells) if col in named and text_of(v)]
        else:
            parts = [text_of(v) for v in self.cells if text_of(v)]
        return f"row {self.row} — {', '.join(parts)}"

    def as_typed(self, tab: InputTab) -> TypedRow:
        """What the Archive's hidden copy keeps of the row: its name as typed, and each cell typed in it, by its
        column's key (a cell past the table, or in a blank row, by its column letter)."""
        if self.over:
            return TypedRow(self.table, self.over, self.row, "", {}, self.feedback)
        keys = {col: c.key for col, c in tab.table(self.table).columns() if c.kind.typed} if self.table else {}
        start = 1 if self.table else 0  # a table's first cell is the row's name
        values = {keys.get(col, column_label(col)): v for col, v in enumerate(self.cells)
                  if col >= start and text_of(v) and (col in keys or not self.table
                                                      or col in tab.table(self.table).past_cols())}
        return TypedRow(self.table, self.subject, self.row, "", values, self.feedback)

    @property
    def label(self) -> str:
        """How ``sync`` and ``status`` name it: its subject, else its row."""
        return f"{self.subject} (row {self.row})" if self.subject else f"row {self.row}"


@dataclass(frozen=True)
class _Seats:
    """What the answers name: where each seat's orders go."""

    ruleset: AnyRuleset
    adapter: AnySheetAdapter
    state: Any
    sheets: MatchSheets
    tabs: MatchTabs
    seat: str
    # What the answers look up again and again (every junk row pasted under a table asks the same), found once a
    # poll: each seat's input tab, and the names drawn in each seat's table (None: the seat has no such table).
    _tabs: dict[str, InputTab] = field(default_factory=dict, compare=False, repr=False)
    _drawn: dict[tuple[str, str], set[str] | None] = field(default_factory=dict, compare=False, repr=False)
    _laid_out: dict[str, list[str]] = field(default_factory=dict, compare=False, repr=False)

    def orders(self, seat: str) -> InputTab:
        """``seat``'s input tab (``MatchTabs.orders``), placed once."""
        if seat not in self._tabs:
            self._tabs[seat] = self.tabs.orders(seat)
        return self._tabs[seat]

    def drawn(self, other: str, table: str) -> set[str] | None:
        """Every name sheets-gm draws in ``other``'s table ``table`` (``_drawn``); None when it has none."""
        if (other, table) not in self._drawn:
            theirs = [t for t in self.orders(other).tables if t.spec.name == table]
            self._drawn[other, table] = _drawn(self.adapter, self.state, other, theirs[0]) if theirs else None
        return self._drawn[other, table]

    def laid_out(self, placed: PlacedTable) -> list[str]:
        """The subjects laid out down this seat's ``placed`` table."""
        if placed.spec.name not in self._laid_out:
            self._laid_out[placed.spec.name] = list(self.adapter.laid_out_rows(self.state, self.seat, placed))
        return self._laid_out[placed.spec.name]

    def secret(self, other: str, subject: str) -> bool:
        """Whether ``subject`` is part of one of ``other``'s secrets (a face-down unit's id) and absent from what this
        seat may see: then whose it is is not told, and the row reads as if it named nothing that exists."""
        word = re.compile(rf"(?<![\w-]){re.escape(subject)}(?![\w-])", re.IGNORECASE)
        return any(word.search(text) for text in self.ruleset.secrets(self.state, other)) \
            and not word.search(json.dumps(self.ruleset.view(self.state, self.seat), ensure_ascii=False))

    def sheet_of(self, seat: str) -> SheetBackend:
        return self.sheets.of(seat) if seat in self.sheets.seats else self.sheets.judge_sheet()

    def place(self, other: str) -> str:
        """Where ``other``'s orders go, as seen from this seat's tab."""
        tab = self.orders(other).name
        theirs = self.sheet_of(other)
        if theirs is self.sheet_of(self.seat):
            return f"own tab, {tab}"
        name = theirs.name
        if name.endswith(".xlsx"):
            name = PurePath(name).name
        return f"own file ({name}, tab {tab})"

    def owner(self, spec: InputTable, subject: str) -> str:
        """The other seat whose ``spec`` table has a row for ``subject`` ('' if none)."""
        for other in self.tabs.input_seats():
            if other == self.seat:
                continue
            drawn = self.drawn(other, spec.name)
            if drawn is not None and subject in drawn and not self.secret(other, subject):
                return other
        return ""

    def elsewhere(self, subject: str) -> str:
        """The sentence for a name of another seat's row, or of another seat ('' if it is neither)."""
        for other in self.tabs.input_seats():
            if other == self.seat:
                continue
            if subject.casefold() == other.casefold():
                return elsewhere_words(self.seat, other, self.place(other))
        for placed in self.orders(self.seat).tables:
            owner = self.owner(placed.spec, subject)
            if owner:
                return elsewhere_words(self.seat, owner, self.place(owner), subject)
        return ""


def _drawn(adapter: AnySheetAdapter, state: Any, seat: str, placed: PlacedTable) -> set[str]:
    """Every name sheets-gm draws in ``seat``'s ``placed`` table for ``state``: the subjects of its rows (those a
    table laid out before it grew has no room for yet too), and each numbered line it has."""
    return set(adapter.rows(state, seat, placed.spec)) | set(adapter.laid_out_rows(state, seat, placed))


def _height(placed: PlacedTable) -> int:
    """The rows the table has on its tab."""
    return placed.last_row - placed.first_row + 1


def _not_here(seats: _Seats, placed: PlacedTable, subject: str, expected: Sequence[str]) -> str:
    """Why a row naming ``subject`` is not read: it is another seat's, or the table has no row for it."""
    spec = placed.spec
    owner = seats.owner(spec, subject)
    if owner:
        return not_yours_sentence(seats.seat, owner, seats.place(owner), "" if spec.rows == SEAT_ROWS else subject)
    reason = seats.adapter.stray_reason(seats.state, seats.seat, spec, subject)
    return no_row_sentence(reason, subject, expected, spec.columns[0].header)


def _past_table(placed: PlacedTable, line: Sequence[CellValue]) -> str:
    """The answer to a row with something typed right of its table's last column (a 4th item in a table of 3)."""
    typed = [(column_label(col), text_of(line[col])) for col in placed.past_cols() if text_of(line[col])]
    own = [(col, c.header) for col, c in placed.columns() if c.kind is not ColumnKind.FEEDBACK]
    return past_table_sentence(typed, column_label(own[-1][0]), [h for _col, h in own])


def _held(feedback: str) -> str:
    """What the player typed in a blank row's feedback cell (open to her too): the cell, or what our answer there
    keeps of it."""
    return feedback.partition(HELD)[2] if feedback.startswith(MARK) else feedback


#: Rows typed under the tables past which they are a paste gone wrong, answered once (``_junk_block``).
JUNK_ROWS = 20
_SAMPLE_CHARS = 80  # of the first junk row's cells, quoted in the answer


def _junk_block(loose: Sequence[LooseRow], last_row: int, tab: str, col: int, own: Callable[[], set[str]]
                ) -> tuple[list[StrayRow], list[LooseRow]]:
    """The rows typed under the tables (past the blank row under the last, ``last_row`` + 1), when there are more
    than :data:`JUNK_ROWS`: a paste gone wrong, answered once in the first one's feedback cell (column ``col``),
    naming them (``junk_block_sentence``), not 10,000 times. Every other one is a ``quiet`` stray row: its cells stay
    where they are, its feedback cell says nothing (an answer of ours left there is cleared; what the player typed
    there stays). Returns them, and the other loose rows: among them, the first row naming each of the seat's own
    subjects (``own``, asked once the rows are that many): a player's attempt, answered on its own (its orders go in
    that subject's row), as many at most as her tables have rows."""
    under = [r for r in loose if not r.table and r.row > last_row + 1
             and any(v is not None and str(v).strip() for v in r.cells)]  # typed (``LooseRow.typed``, faster)
    if len(under) <= JUNK_ROWS:
        return [], list(loose)
    names, attempts = own(), set()
    for r in under:
        name = r.cells[0].strip() if r.cells and isinstance(r.cells[0], str) else ""
        if name in names:
            names.discard(name)  # the first row naming it: the next ones are part of the paste
            attempts.add(id(r))
    under = [r for r in under if id(r) not in attempts]
    if len(under) <= JUNK_ROWS:
        return [], list(loose)
    first = under[0]
    sample = ", ".join(t for v in first.cells if (t := text_of(v)))
    sample = sample if len(sample) <= _SAMPLE_CHARS else sample[:_SAMPLE_CHARS - 1] + "…"
    why = junk_block_sentence(first.row, under[-1].row, len(under), sample, last_row, _held(first.feedback))
    out = [StrayRow("", first.row, "", first.cells, first.feedback, why, _answer(why, first.feedback, col), tab=tab)]
    for r in under[1:]:
        held = _held(r.feedback)
        out.append(StrayRow("", r.row, "", r.cells, r.feedback, "", {col: held} if held != r.feedback else {},
                            tab=tab, quiet=True))
    taken = {id(r) for r in under}
    return out, [r for r in loose if id(r) not in taken]


def _loose_answer(seats: _Seats, tab: InputTab, loose: LooseRow, last_row: int) -> str:
    """The answer to what is typed in a row without a subject ('' when nothing is typed there any more);
    ``last_row``: the tab's."""
    held = ""
    if not loose.table and loose.feedback:  # a blank row's feedback cell is open to the player too
        held = _held(loose.feedback)
    if not loose.typed and not held:
        return ""
    if loose.table:
        return no_subject_sentence(tab.table(loose.table).spec.columns[0].header)
    name = text_of(loose.cells[0]) if loose.cells else ""
    other = seats.elsewhere(name) if name else ""
    mine = [p for p in tab.tables if name and name in seats.laid_out(p)]
    own_row = mine[0].first_row + seats.laid_out(mine[0]).index(name) if mine and not other else 0
    return blank_row_sentence(loose.row, loose.row > last_row, other, name, own_row, held, last_row)


def _line(grid: Grid, row: int, width: int) -> tuple[CellValue, ...]:
    line = grid[row - 1] if row - 1 < len(grid) else []
    return tuple(list(line[:width]) + [None] * (width - len(line[:width])))


def _numbered_lines(tab: InputTab, grid: Grid, rows: Sequence[TypedRow], expected: Mapping[str, Sequence[str]],
                    stamps: Mapping[str, str]) -> dict[int, tuple[TypedRow, dict[int, CellValue]]]:
    """The lines typed in a ``numbered`` table's rows that have no name yet (a table laid out by an earlier version,
    which named fewer rows than the table has), by sheet row: each read as the line its place names (``expected``),
    stamped as the drawing stamps it (``stamps``, by table), with the cells the poll writes to draw that name in.
    A row with something typed past the table's columns is left to be answered as such."""
    out: dict[int, tuple[TypedRow, dict[int, CellValue]]] = {}
    for placed in [p for p in tab.tables if p.spec.numbered]:
        names = expected[placed.spec.name]
        named = {r.subject for r in rows if r.table == placed.spec.name}
        window_col = placed.col(placed.spec.of_kind(ColumnKind.WINDOW)[0].key)
        for row in range(placed.first_row, placed.last_row + 1):
            index = row - placed.first_row
            line = _line(grid, row, placed.width)
            if index >= len(names) or names[index] in named or text_of(line[0]) \
                    or any(text_of(line[col]) for col in placed.past_cols()):
                continue
            values = {c.key: v.strip() if isinstance(v := line[col], str) else v
                      for col, c in placed.columns() if c.kind.typed}
            if any(text_of(v) for v in values.values()):
                stamp = stamps[placed.spec.name]
                typed = TypedRow(placed.spec.name, names[index], row, stamp, values, text_of(line[-1]))
                out[row] = (typed, {0: names[index], window_col: stamp})
    return out


@dataclass(frozen=True)
class _Sorting:
    """What ``sort_rows`` tells a seat's rows apart by: the names drawn down each table (``expected``), every name
    sheets-gm draws for the seat (``ours``), each table's stamp, and the tab read (``grid``)."""

    seats: _Seats
    tab: InputTab
    grid: Grid
    expected: Mapping[str, Sequence[str]]
    ours: set[str]
    stamps: Mapping[str, str]
    feedback_col: int  # the tab's, worked out once (every row sorted asks)
    last_row: int  # the tab's too

    def line(self, row: int) -> tuple[CellValue, ...]:
        """The cells of tab row ``row`` before the feedback column."""
        return _line(self.grid, row, self.feedback_col)

    def drawn_again(self, placed: PlacedTable, row: int, over: str = "") -> dict[int, CellValue]:
        """An untyped row not drawn as it stands: its subject and stamp put back, or emptied past the subjects;
        ``over``: what was typed in its name cell, which its feedback says is kept in the Archive."""
        spec = placed.spec
        names = self.expected[spec.name]
        index = row - placed.first_row
        drawn = names[index] if index < len(names) else ""
        archive = self.seats.tabs.archive(self.seats.seat)
        said = name_typed_over_sentence(spec.columns[0].header, over, drawn, archive) if over else ""
        if not drawn:
            return {**dict.fromkeys(range(self.feedback_col + 1), ""), self.feedback_col: said}
        # the stamp a drawn row carries (writes.acts): the window's key where the seat types in the table now
        window_col = placed.col(spec.of_kind(ColumnKind.WINDOW)[0].key)
        return {0: drawn, window_col: self.stamps[spec.name], self.feedback_col: said}

    def loose(self, loose: LooseRow, adopted: Mapping[int, tuple[TypedRow, dict[int, CellValue]]],
              recovering: bool) -> StrayRow | None:
        """What becomes of a row without a subject: read as a numbered line (``adopted``), answered, or mended."""
        cells_, col = loose.cells, self.feedback_col
        if loose.row in adopted:  # its line is read; its name (and stamp) drawn in by the poll
            return StrayRow(loose.table, loose.row, "", cells_, loose.feedback, "", adopted[loose.row][1])
        why = _loose_answer(self.seats, self.tab, loose, self.last_row)
        tab = self.tab.name  # named here, as ``_on`` would (10,000 rows answered are not copied again)
        if why == loose.feedback:
            return StrayRow(loose.table, loose.row, "", cells_, loose.feedback, why, tab=tab) if why else None
        if why or not loose.table:
            return StrayRow(loose.table, loose.row, "", cells_, loose.feedback, why, {col: why}, tab=tab)
        if recovering:
            return None
        return StrayRow(loose.table, loose.row, "", cells_, loose.feedback, "",
                        self.drawn_again(self.tab.table(loose.table), loose.row))

    def past_only(self, rows: Sequence[TypedRow]) -> list[StrayRow]:
        """While recovering, the rows typed past their table: told apart all the same (it depends on no state)."""
        out: list[StrayRow] = []
        for r in rows:
            placed = self.tab.table(r.table)
            line = self.line(r.row)
            if not any(text_of(line[col]) for col in placed.past_cols()):
                continue
            names = self.expected[placed.spec.name]
            index = r.row - placed.first_row
            home = index < len(names) and names[index] == r.subject
            why = _past_table(placed, line)
            out.append(StrayRow(r.table, r.row, r.subject, line, r.feedback, why,
                                _answer(why, r.feedback, self.feedback_col), home=home))
        return out

    def table_rows(self, placed: PlacedTable, mine: Sequence[TypedRow]) -> tuple[list[TypedRow], list[StrayRow]]:
        """One table's rows: those an order is read from, and the stray rows with their answers."""
        spec, listed, col = placed.spec, self.expected[placed.spec.name], self.feedback_col
        past_cols, first_row = placed.past_cols(), placed.first_row  # the table's, worked out once for its rows
        flags = [r.typed for r in mine]  # each row's, worked out once (``typed`` looks at every cell)
        typed = Counter(r.subject for r, r_typed in zip(mine, flags, strict=True) if r_typed)
        present, names = {r.subject for r in mine}, set(listed)
        kept: list[TypedRow] = []
        strays: list[StrayRow] = []
        for r, r_typed in zip(mine, flags, strict=True):
            line = self.line(r.row)
            index = r.row - first_row
            home = index < len(listed) and listed[index] == r.subject
            beside = any(text_of(line[c]) for c in past_cols)
            drawn = listed[index] if index < len(listed) else ""
            if r_typed and not home and not beside and drawn and drawn not in present and r.subject not in self.ours \
                    and not self.seats.owner(spec, r.subject):
                # the name drawn here typed over beside the row's orders: still that row, read as it; the name is
                # written back and what was typed there set aside to the Archive
                strays.append(StrayRow(r.table, r.row, r.subject, line, r.feedback, "", {0: drawn}, over=r.subject))
                kept.append(replace(r, subject=drawn))
                continue
            if not r_typed and not home and not beside:
                over = r.subject if r.subject not in self.ours else ""  # typed by a player: not a name we draw
                strays.append(StrayRow(r.table, r.row, r.subject, line, r.feedback, "",
                                       self.drawn_again(placed, r.row, over), over=over))
                continue
            if not r_typed and not home:  # typed past its table, its subject gone (the table shrank): answered
                why, at_home = _past_table(placed, line), False
            elif r.subject not in names:
                why, at_home = _not_here(self.seats, placed, r.subject, listed), False
            elif r_typed and typed[r.subject] > 1:
                why = duplicate_sentence(r.subject, [o.row for o in mine if o.subject == r.subject and o.typed])
                at_home = home
            elif beside:
                why, at_home = _past_table(placed, line), home
            else:
                kept.append(r)
                continue
            strays.append(StrayRow(r.table, r.row, r.subject, line, r.feedback, why, _answer(why, r.feedback, col),
                                   home=at_home))
        return kept, strays


def sort_rows(ruleset: AnyRuleset, adapter: AnySheetAdapter, state: Any, sheets: MatchSheets, tabs: MatchTabs,
              seat: str, tab: InputTab, grid: Grid, rows: Sequence[TypedRow], *,
              recovering: bool = False) -> tuple[tuple[TypedRow, ...], tuple[StrayRow, ...]]:
    """``seat``'s rows split: those an order may be read from, and the stray rows with their answers (read from
    ``grid``, the tab from A1). ``recovering``: a cut resolution may have drawn the tables for a state the record
    does not hold yet, so only the rows without a subject are told apart.

    A row with nothing typed in it, whose subject is not the one drawn there, is mended (the subject and stamp
    are sheets-gm's cells, which a player cannot clear): the drawn subject put back, or the row emptied."""
    window = ruleset.window(state)
    expected = {p.spec.name: adapter.laid_out_rows(state, seat, p) for p in tab.tables}
    stamps = {p.spec.name: p.spec.stamp(window, seat) for p in tab.tables}
    sorting = _Sorting(_Seats(ruleset, adapter, state, sheets, tabs, seat), tab, grid, expected,
                       drawn_names(adapter, [state], seat, tabs.orders(seat)), stamps,  # every tab: a table moved
                       tab.width - 1, tab.last_row)
    adopted = _numbered_lines(tab, grid, rows, expected, stamps)
    rows = (*rows, *(row for row, _mend in adopted.values()))
    strays, loose_rows = _junk_block(tab.loose_rows(grid), tab.last_row, tab.name, tab.width - 1,
                                     lambda: {name for p in tab.tables for name in sorting.seats.laid_out(p)})
    strays += [s for loose in loose_rows if (s := sorting.loose(loose, adopted, recovering)) is not None]
    if recovering:
        past = sorting.past_only(rows)
        rows_past = {(s.table, s.row) for s in past}
        return tuple(r for r in rows if (r.table, r.row) not in rows_past), _on(tab, strays + past)
    kept: list[TypedRow] = []
    for placed in tab.tables:
        table_kept, table_strays = sorting.table_rows(placed, [r for r in rows if r.table == placed.spec.name])
        kept += table_kept
        strays += table_strays
    return tuple(kept), _on(tab, strays)


def drawn_names(adapter: AnySheetAdapter, states: Sequence[Any], seat: str, tab: InputTab) -> set[str]:
    """Every row name sheets-gm draws in ``seat``'s tables for any of ``states``, and every table's title and header
    (drawn there before a row was inserted above them, or by an earlier layout): a name cell holding anything else
    was typed over by hand."""
    layout = {text for p in tab.tables for text in (p.spec.heading, *(c.header for c in p.spec.columns))}
    return layout | {name for state in states for p in tab.tables for name in _drawn(adapter, state, seat, p)}


def names_typed_over(adapter: AnySheetAdapter, states: Sequence[Any], seat: str, tab: InputTab,
                     rows: Sequence[TypedRow]) -> tuple[StrayRow, ...]:
    """The rows whose name is none that sheets-gm draws for ``seat`` in any of ``states``: a cut resolution's tab
    may hold the tables drawn for the state before it or after it, so the poll completing it tells the names typed
    over only then (``sort_rows`` leaves them alone while recovering). The name is kept in the Archive; a row with
    orders typed in it follows its own fate besides (an ordered table's row moves up under the name drawn there,
    another's is set aside as one whose subject has no row)."""
    ours = drawn_names(adapter, states, seat, tab)
    return tuple(StrayRow(r.table, r.row, r.subject, (), r.feedback, "", over=r.subject, tab=tab.table(r.table).tab)
                 for r in rows if r.subject and r.subject not in ours)


def in_layout(stray: StrayRow, was: InputTab, tab: InputTab) -> StrayRow:
    """``stray``, read in ``was``'s columns, in the columns ``tab`` lays out: ``repair`` reads a tab in the widest
    layout of its game, which a house setting narrows (Wesnoth's batch mode has no Go column, so its feedback
    column is one to the left). A table's row keeps each cell under its column's key and its cells past the table
    in order; a blank row between tables keeps its cells where they are; a cell with no column in ``tab`` held
    nothing (the reading put it there empty)."""
    if was.width == tab.width and was.tables == tab.tables:
        return stray
    where = {col: col for col in range(tab.width - 1)}
    if stray.table:
        old, new = was.table(stray.table), tab.table(stray.table)
        keys = {c.key for c in new.spec.columns}
        where = {col: new.col(c.key) for col, c in old.columns() if c.key in keys}
        where.update(zip(old.past_cols(), new.past_cols(), strict=False))
    where[was.width - 1] = tab.width - 1  # the feedback column every table shares
    cells: list[CellValue] = [None] * (tab.width - 1)
    for col, value in enumerate(stray.cells):
        if where.get(col, tab.width - 1) < tab.width - 1:
            cells[where[col]] = value
    return replace(stray, cells=tuple(cells), mend={where[c]: v for c, v in stray.mend.items() if c in where})


def _on(tab: InputTab, strays: Sequence[StrayRow]) -> tuple[StrayRow, ...]:
    """``strays`` in row order, each naming the tab it is on."""
    return tuple(s if s.tab == tab.name else replace(s, tab=tab.name) for s in sorted(strays, key=lambda s: s.row))


def _answer(why: str, feedback: str, col: int) -> dict[int, CellValue]:
    return {col: why} if why != feedback else {}


def stray_rejections(seat: str, strays: Sequence[StrayRow]) -> list[tuple[str, str]]:
    """What ``sync`` and ``status`` list of a seat's stray rows: (who and which row, why)."""
    return [(f"{seat} · {s.label}", s.why.removeprefix(MARK)) for s in strays if s.why]


def stray_feedback_writes(batch: WriteBatch, backend: SheetBackend, tab: InputTab, strays: Sequence[StrayRow]) -> int:
    """Each stray row's answer where its feedback cell says something else, and the rows to mend, on a poll that
    redraws no table; returns how many rows were written."""
    count = 0
    for s in strays:
        if s.mend:
            for col, value in s.mend.items():
                batch.put(backend, a1(s.tab or tab.name, cell_at(col, s.row)), [[value]])
            count += 1
    return count


@dataclass(frozen=True)
class StrayLayout:
    """Where a redraw of a seat's tables keeps its stray rows.

    ``tables``: cells laid over the drawn rows, by table, row index and tab column; ``writes``: the rows written
    outside the tables (a blank row's answer, a row moved to a free blank row, a blank row emptied), as (range,
    cells); ``unplaced``: the stray rows the redraw covers with nothing kept in the tab (a name typed over, written
    back; a row left no free row anywhere), which the caller sets aside to the seat's Archive (``aside_line``)."""

    tables: dict[str, dict[int, dict[int, CellValue]]] = field(default_factory=dict)
    writes: tuple[tuple[str, list[list[CellValue]]], ...] = ()
    unplaced: tuple[StrayRow, ...] = ()

    def queue(self, batch: WriteBatch, backend: SheetBackend) -> dict[str, dict[int, dict[int, CellValue]]]:
        """Queue the rows written outside the tables; returns what is laid over the tables' rows."""
        for where, values in self.writes:
            batch.put(backend, where, values)
        return self.tables

    def aside_line(self, tab: InputTab, window: Window | None, drawn_for: Window | None = None) -> list[ArchiveLine]:
        """The Archive entry of the stray rows not kept in the tab (none when every one stays): ``tab`` is the
        seat's orders tab as read, ``window`` the window open when they were typed (it labels the entry),
        ``drawn_for`` the window the tables are drawn again for (``window`` unless a resolution moved on)."""
        if not self.unplaced:
            return []
        typed_in = window.label if window is not None else "the end of the match"
        drawn = drawn_for or window
        over = [s.words(tab) for s in self.unplaced if s.over]
        no_room = [s.words(tab) for s in self.unplaced if not s.over]
        rows = tuple(s.as_typed(tab) for s in self.unplaced)
        line = strays_aside_line(capital(typed_in), over, no_room,
                                 drawn.label if drawn is not None else "the end of the match")
        return [replace(line, rows=rows)]

def _blank_rows_kept(was: InputTab, tab: InputTab, strays: Sequence[StrayRow],
                     writes: list[tuple[str, list[list[CellValue]]]], unplaced: list[StrayRow], *,
                     read_here: bool) -> list[int]:
    """The blank rows of ``tab`` (the tab as the resolution draws it; ``was``: as it was read): a stray row typed in
    a blank row that stays blank, or under every table, keeps its place and gets its answer, its cells written where
    the layout has them (a repair after a column inserted moves them back); one that a grown table now covers moves,
    typed cells and answer, to a free blank row, saying from where (to ``unplaced`` when none is left); a blank row
    that a table held before the tables grew is emptied of what was drawn there. ``read_here``: the strays were read
    from the very tab written (a poll's resolution, not a repair drawing a copy's tab again): a row that stays there,
    in the same columns, already answered alike is not written (10,000 rows typed under the tables and answered by
    the last poll cost a resolution nothing to write). Appends to ``writes``; returns the blank rows still free."""
    blank = tab.blank_rows()
    blank_set = set(blank)
    loose = [s for s in strays if not s.table]
    last_row, feedback_col = tab.last_row, tab.width - 1  # asked once, not for each of 10,000 rows
    # under the tables (past the blank row under the last) no drawing reaches: a row typed there stays there
    staying = [s for s in loose if s.row in blank_set or s.row > last_row + 1]
    staying_ids = {id(s) for s in staying}
    staying_rows = {s.row for s in staying}
    free = deque(r for r in blank if r not in staying_rows)
    in_place = read_here and was.width == tab.width  # a blank row's cells where they were read
    for s in staying:
        if s.why and in_place and s.why == s.feedback:
            continue  # its cells where they are, answered alike: written again, nothing would change
        if s.why and in_place:  # its typed cells where they are: only its answer is new
            writes.append((a1(tab.name, cell_at(feedback_col, s.row)), [[s.why]]))
        elif s.why:
            line: list[CellValue] = ["" if v is None else v for v in s.cells]
            writes.append((a1(tab.name, cells(0, s.row, feedback_col, s.row)), [[*line, s.why]]))
        elif s.quiet and not in_place:  # one of many rows answered once: its cells, its feedback cell as it stays
            line = ["" if v is None else v for v in s.cells]
            writes.append((a1(tab.name, cells(0, s.row, feedback_col, s.row)),
                           [[*line, s.mend.get(feedback_col, s.feedback)]]))
        else:
            writes += [(a1(tab.name, cell_at(col, s.row)), [[value]]) for col, value in s.mend.items()]
    for s in loose:
        if id(s) in staying_ids or not (s.why or s.quiet):
            continue  # nothing typed to keep (the table's drawing covers our old answer)
        if not free:
            unplaced.append(s)
            continue
        row = free.popleft()
        moved = moved_sentence(s.why, s.row).strip()  # a quiet row's: only where it came from
        writes.append((a1(tab.name, cells(0, row, tab.width - 1, row)), [[*s.cells, moved]]))
    was_blank = set(was.blank_rows())
    for row in [r for r in free if r not in was_blank and r <= was.last_row]:
        writes.append((a1(tab.name, cells(0, row, tab.width - 1, row)), [[""] * tab.width]))
    return list(free)


def stray_layout(adapter: AnySheetAdapter, state: Any, seat: str, was: InputTab, tab: InputTab,
                 strays: Sequence[StrayRow], *, read_here: bool = False) -> StrayLayout:
    """Where a redraw of ``seat``'s input tabs (its orders tab and its further tabs: ``tab``, read as ``was``) for
    ``state`` keeps its ``strays`` (``_tab_layout`` of each tab). ``read_here``: the strays were read from the tabs
    written (a poll's resolution; not a repair, which draws a copy's tab again): a row left where it is, answered
    alike, is not written again."""
    tables: dict[str, dict[int, dict[int, CellValue]]] = {}
    writes: list[tuple[str, list[list[CellValue]]]] = []
    unplaced: list[StrayRow] = [s for s in strays if s.over]  # the drawing writes the name back: set aside
    for page_was, page in zip(was.sheets(), tab.sheets(), strict=True):
        mine = [s for s in strays if (s.tab or tab.name) == page.name]
        tables.update(_tab_layout(adapter, state, seat, page_was, page, mine, writes, unplaced, read_here=read_here))
    return StrayLayout(tables, tuple(writes), tuple(unplaced))


def _tab_layout(adapter: AnySheetAdapter, state: Any, seat: str, was: InputTab, tab: InputTab,
                strays: Sequence[StrayRow], writes: list[tuple[str, list[list[CellValue]]]],
                unplaced: list[StrayRow], *, read_here: bool) -> dict[str, dict[int, dict[int, CellValue]]]:
    """Where a resolution redrawing ``seat``'s tables for ``state`` (in ``tab``, read as ``was``: the same unless a
    table grew) keeps the stray rows of its tables: cells by table, row index and tab column, laid over the drawn
    rows. A duplicate keeps its typed cells in its subject's row; any other stray row stays where it is if the new
    table leaves that row free, else moves to a free row of its table, else to a free blank row between the tables
    (appended to ``writes``), saying from where, else to ``unplaced``. The stray rows typed in blank rows are kept
    too (``_blank_rows_kept``)."""
    out: dict[str, dict[int, dict[int, CellValue]]] = {}
    feedback_col = tab.width - 1
    free_blank = _blank_rows_kept(was, tab, strays, writes, unplaced, read_here=read_here)
    for placed in tab.tables:
        mine = [s for s in strays if s.table == placed.spec.name and s.why]
        if not mine:
            continue
        subjects = adapter.laid_out_rows(state, seat, placed)
        lines = out.setdefault(placed.spec.name, {})
        typed_cols = [col for col, c in placed.columns() if c.kind.typed] + placed.past_cols()
        for s in [s for s in mine if s.home and s.subject in subjects]:
            index = subjects.index(s.subject)
            lines[index] = {**{col: s.cells[col] for col in typed_cols}, feedback_col: s.why}
        free = [i for i in range(len(subjects), _height(placed)) if i not in lines]
        for s in [s for s in mine if not (s.home and s.subject in subjects)]:
            index = s.row - placed.first_row
            moved = s
            if index not in free and free:
                index = free[0]
            elif index not in free:
                if not free_blank:
                    unplaced.append(s)  # every table full, every blank row typed in: set aside by the caller
                    continue
                row = free_blank.pop(0)
                writes.append((a1(tab.name, cells(0, row, feedback_col, row)),
                               [[*s.cells, moved_sentence(s.why, s.row)]]))
                continue
            if placed.first_row + index != s.row:
                moved = replace(s, why=moved_sentence(s.why, s.row))
            free.remove(index)
            lines[index] = {**dict(enumerate(moved.cells)), feedback_col: moved.why}
    return {t: v for t, v in out.items() if v}
