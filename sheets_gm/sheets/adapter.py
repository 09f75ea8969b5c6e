"""What a ruleset's sheet adapter says that its ``layout.yaml`` cannot: which rows a seat's tables
hold, what sheets-gm shows in them, how typed cells become orders, and how the board is drawn.

The generic sync (``sync.poll``) places the tables, reads them, checks the headers,
writes feedback, archives and clears what a resolution consumed, and commits; it asks the
adapter only the questions below. An adapter is pure: it reads states and typed rows and
returns data, never touching a spreadsheet.
"""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.ruleset import Outcome, Verdict, Window
from sheets_gm.sheets.layout import CellValue, ConditionalFill, Fill, Grid
from sheets_gm.sheets.spec import InputTable, SheetSpec
from sheets_gm.sheets.tables import PlacedTable, TypedRow

OrdersT = TypeVar("OrdersT")

#: How a drawn text names the match's config in a command it suggests (``sheets-gm adjust -c MATCH.toml …``):
#: a game knows no config, so the sync writes the real file's name in its place (``sync.writes.view_writes``),
#: and a command's error message names the file the GM gave.
CONFIG_STAND_IN = "MATCH.toml"
#: The width of the column right of a drawing (title, status line, legend), in pixels.
LEGEND_PIXELS = 440
#: The characters a legend line holds in that column (the default font's average width, with room for signs).
LEGEND_CHARS = 64
_StateIn = TypeVar("_StateIn", contravariant=True)


@dataclass(frozen=True, slots=True)
class SeatInput(Generic[OrdersT]):
    """One seat's typed rows read as orders for the open window.

    ``problems`` are the cells that could not be read, per row subject, each a sentence naming
    the column and what would be accepted (the engine's checks come after, as verdicts).
    A window that closes takes every row typed for it itself (``fates.bound_to``: each carried out, or kept with
    why it was not), whatever an adapter marks: ``consumed`` says only what the core cannot know, the subjects
    whose rows a step of a stepwise window uses while the window stays open (Wesnoth's rows with Go ticked), and
    a standing table's rows an order used up (a reaction that fired). ``ready`` says the seat's orders are in;
    ``go`` (a stepwise window's Go box) asks for the ticked rows to be resolved now, without waiting for the other
    rows. ``held`` are the subjects of rows typed in an open table that the seat writes for its own next window, not
    this one (Win or Die's actions typed in the opponent's turn): they stay typed, unread, and are read when that
    window opens; ``held_why`` says why, by subject, where the seat could not guess it (Wesnoth's recruits typed
    after the leader acted this turn). ``read_as`` and ``notes``: see below."""

    orders: OrdersT
    problems: Mapping[str, Sequence[str]] = field(default_factory=dict)
    consumed: frozenset[str] = frozenset()
    ready: bool = False
    go: bool = False
    held: frozenset[str] = frozenset()
    held_why: Mapping[str, str] = field(default_factory=dict)
    # A row read as the order of other subjects (a line of a pasted forum post, the armies it names): by the row's
    # subject, those subjects; the row shows their verdicts, as their own rows do.
    read_as: Mapping[str, Sequence[str]] = field(default_factory=dict)
    # What the game tells a row that is neither a refusal nor a verdict (a post's title line, passed over; an army's
    # row whose line in a pasted post is not read), by subject.
    notes: Mapping[str, Sequence[str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BoardDrawing:
    """One public tab as cells from A1: values (rewritten after every resolution) and the formats
    laid out when the match is created (terrain colours, cell sizes), plus a legend for its right.

    ``conditional_fills`` colour the cells whose value starts with a sign (a unit's owner), whatever
    later resolutions write there: laid out with the tab too, so they cost no call per resolution.

    ``tab`` names the tab it is drawn in: empty for the layout's board tab (``tabs.board``, whose title
    the sync checks on every poll); a game drawing several public tabs names the others (Coalition: a
    tab per plane, named after it). The names depend on the match alone, never on its state."""

    values: Grid
    fills: tuple[Fill, ...] = ()
    column_widths: Mapping[int, int] = field(default_factory=dict)
    row_heights: Mapping[int, int] = field(default_factory=dict)
    legend: Grid = field(default_factory=list)
    tab: str = ""
    conditional_fills: tuple[ConditionalFill, ...] = ()
    print_pages_wide: int = 1  # the tab's print width in pages: 0 for as many as it needs (layout.TabLayout)
    # printed with the spreadsheet's column letters and row numbers: only for a board whose cells are its coordinates
    # (GvG's tile H20 is cell H20); not for one that labels its rows and columns with its own (a Coalition plane:
    # square 4C is not cell E4; a Win or Die hex names itself), nor for text (the Turn report's posts)
    print_headings: bool = False
    print_title_rows: int = 0  # rows each printed page repeats (the map's column labels): layout.TabLayout
    print_fewest: bool = False  # a map: printed on as few pages as hold it at 8 pt (layout.TabLayout)
    print_title_cols: int = 0  # columns each printed page repeats (a plane's row letters)
    # the drawing wraps its legend's cells itself (a wrapping fill over them): each line is kept whole in its one
    # row, so that a legend that grows with the match (Champions' "Out: …") never needs more rows than the tab has
    legend_wraps: bool = False
    notes: Mapping[tuple[int, int], str] | None = None

    @property
    def width(self) -> int:
        """Columns the board uses (at least one)."""
        return max([len(r) for r in self.values] + [1])

    @property
    def height(self) -> int:
        """Rows the board uses (at least one)."""
        return max(len(self.values), 1)

    @property
    def legend_rows(self) -> Grid:
        """The legend as the tab holds it, one row per line: a line too long for the legend column
        (``LEGEND_PIXELS``) is cut between words over the rows under it, so that nothing spills past the column
        (a printed page ends at it, and cut the legend off, or shrank the board to fit the spill). An entry of
        several lines, or any line of a drawing that wraps its legend itself (``legend_wraps``), is kept whole."""
        rows: Grid = []
        for row in self.legend:
            text = str(row[0]) if row and row[0] is not None else ""
            if self.legend_wraps or "\n" in text or len(text) <= LEGEND_CHARS:
                rows.append([text])
                continue
            rows += [[part] for part in textwrap.wrap(text, LEGEND_CHARS, subsequent_indent="   ",
                                                      break_on_hyphens=False)]
        return rows


@dataclass(frozen=True, slots=True)
class Post:
    """A message a game sends out after a resolution beside its log (the Coalition's forum posts): a title and
    its lines. ``audience`` says who may read it, as an event's does: None is public (the match's chat channel
    and every seat's e-mail), a set of seats is for their e-mail alone (never the channel)."""

    title: str
    text: str
    audience: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class RowOut:
    """What of a typed row orders subjects that cannot take orders now (``SheetAdapter.row_out``): ``lines``, by each
    of them it orders, the line that orders it; ``out``, the row with those lines alone (what her Archive keeps of
    them); ``left``, the row without them, None when nothing of it is left (the whole row is out)."""

    lines: Mapping[str, str]
    out: TypedRow
    left: TypedRow | None


class SheetAdapter(Protocol[_StateIn, OrdersT]):
    """A ruleset's sheet: its layout as data (``spec``) and the code data cannot replace.

    A game's adapter subclasses it, as its engine class subclasses ``Ruleset``: the members below the
    optional line have defaults it inherits, and overrides where its game says more."""

    @property
    def spec(self) -> SheetSpec:
        """The layout read from ``templates/<name>/layout.yaml``."""
        ...

    def rows(self, state: _StateIn, seat: str, table: InputTable) -> list[str]:
        """The subjects of ``seat``'s rows in ``table`` now, in order, every one of them: its living units, its
        armies, its champions, its numbered slots (as many as the match allows); ``[seat]`` for a seat table.
        The table is laid out with (and grows to) as many rows as this gives."""
        ...

    def read_orders(self, state: _StateIn, window: Window, seat: str,
                    rows: Mapping[str, Sequence[TypedRow]]) -> SeatInput[OrdersT]:
        """The seat's orders for ``window`` from its typed rows (by table name; only rows typed for this
        window, and only the tables open in its phase)."""
        ...

    def typed_cells(self, state: _StateIn, window: Window, seat: str,
                    orders: OrdersT) -> Mapping[str, Mapping[str, Mapping[str, CellValue]]]:
        """What a player would type for ``orders`` (``seat``'s part): values by table, row subject and column
        key, such that ``read_orders`` reads them back as the same orders (bots, demos, the conformance test).
        The Ready box is the sync's to tick, not part of this."""
        ...

    def drawings(self, state: _StateIn) -> Sequence[BoardDrawing]:
        """The public tabs, in the order they stand in the board spreadsheet: nobody's view of the state.
        Exactly one is drawn in the layout's board tab (``tab`` empty); most games draw only that one."""
        ...

    # -- optional: an adapter that subclasses ``SheetAdapter`` inherits these defaults ------------------------
    def shown(self, state: _StateIn, seat: str, table: InputTable, subject: str,
              dice: TurnDice) -> Mapping[str, CellValue]:
        """The values of the row's ``shown`` columns by key (hit points, a move roll); by default none (a layout
        with no ``shown`` column)."""
        return {}

    def status(self, state: _StateIn, window: Window | None, outcome: Outcome | None) -> str:
        """One line: where the match stands (round, whose turn, scores), for every tab's status row. By default how
        the match ended, or the open window's label ("Now: turn 3 · Ann.")."""
        return f"Over: {outcome.text}." if outcome is not None else f"Now: {window.label}." if window else ""

    def panel(self, state: _StateIn, seat: str) -> Grid:
        """What ``seat`` may see beyond the public board, as rows of cells for its View tab (its hidden
        units, its bag, its tile-mates); ``[]`` (the default) when there is nothing private. A command it suggests
        names the match's config ``-c`` ``CONFIG_STAND_IN``: the sync writes the real config's name there."""
        return []

    def idle_reason(self, state: _StateIn, seat: str) -> str:
        """Why ``seat`` has nothing to write in any window now, in the game's words (Champions: a player who is
        out); by default '', and the sync says whose window it is."""
        return ""

    def idle_row_reason(self, state: _StateIn, seat: str, table: InputTable, subject: str) -> str:
        """Why the row of ``subject`` in ``seat``'s ``table`` takes no orders now, in the game's words (GvG: a player
        knocked down until a later turn): its feedback says so instead of waiting for orders, and nobody is chased
        for it; by default '' (it takes orders)."""
        return ""

    def row_out(self, state: _StateIn, seat: str, table: InputTable, row: TypedRow,
                subjects: Collection[str]) -> RowOut | None:
        """What ``row`` (typed in ``seat``'s ``table``) orders for any of ``subjects``, which cannot take orders now
        (``Window.early_out``: an army that fights); None when it orders none of them. By default a row orders its
        own subject alone: the whole row is out when its subject is one of them. A game whose row may order other
        subjects (the Coalition's pasted post, a line per army) says which of its lines are out."""
        if row.subject not in subjects:
            return None
        return RowOut({row.subject: ""}, row, None)

    def laid_out_rows(self, state: _StateIn, seat: str, placed: PlacedTable) -> list[str]:
        """The names drawn down ``placed`` (a table of ``seat``'s as this match laid it out), row after row: by
        default the subjects ``rows`` gives that it has room for, the rows under them blank (a table laid out at
        its ``min_rows``, or grown with rows to spare). A table of ``numbered`` lines names every row it has (the
        Coalition's Forum post: ``coalition line 60`` on a side of 3 armies), so that each one is read."""
        return self.rows(state, seat, placed.spec)[:placed.rows]

    def drawings_before(self, state: _StateIn, deadline: str) -> Sequence[BoardDrawing]:
        """``drawings(state)``, the open window closing at ``deadline`` (as people read it; '' for none), for a game
        whose public tabs carry it (Coalition: the Battle Announcements post says by when the strategies are due, as
        the forum's did). By default the drawings, which do not show it."""
        return self.drawings(state)

    def board_tab_before(self, state: _StateIn, deadline: str) -> Sequence[BoardDrawing]:
        """What ``drawings_before`` draws in the layout's board tab (its drawing with no ``tab`` name), with any
        other drawing of no more cost: what a poll checks against the board tab it reads. By default every
        drawing; a game whose other public tabs cost more to draw leaves them out (the Coalition's planes,
        Wesnoth's Units tab)."""
        return self.drawings_before(state, deadline)

    def drawings_undated(self, state: _StateIn, dated: Sequence[BoardDrawing]) -> Sequence[BoardDrawing]:
        """``drawings(state)``, given ``dated``: ``drawings_before`` of the same state (the board the sync wrote): by
        default ``dated`` itself when ``drawings_before`` is this default (the two are one drawing, not made twice),
        else drawn again. A game whose deadline shows on one tab redraws that tab alone (the Coalition's post)."""
        if getattr(type(self), "drawings_before", None) is SheetAdapter.drawings_before:
            return tuple(dated)
        return self.drawings(state)

    def turn_label(self, turn: int) -> CellValue:
        """The Log's turn cell of an event of ``turn``, for a game that counts something other than the engine's
        turns (Champions: rounds of two windows). By default the turn itself."""
        return turn

    def log_entry_rows(self, event: Event) -> list[list[CellValue]] | None:
        """The rows of ``event`` in a View log, each a list of cells from the log's text column on (the first row
        stands beside the event's turn and kind), for a game whose long private entries read better over several
        rows (Champions' battle reports: a row per action). By default None: the entry keeps one cell."""
        return None

    def event_seats(self, event: Event, states: Sequence[Any]) -> frozenset[str]:
        """The seats ``event`` concerns beyond those its data names by a seat's or a row's name, read with
        ``states`` (the state the events started from, then the state they led to), so that a seat's View log
        lists its losses as well as its wins (GvG: a battle names only its winner; a hit on a structure names its
        id). By default none."""
        return frozenset()

    def stray_reason(self, state: _StateIn, seat: str, table: InputTable, subject: str) -> str:
        """Why ``seat``'s ``table`` has no row for ``subject`` now, in the game's words (the Coalition judge's *no
        battle to judge at 5C*, an army in no battle). By default '': the sync says it in general words."""
        return ""

    def verdict_table(self, part: str) -> str:
        """The table ``part`` of an order is typed in, for a game whose subjects have rows in more than one table
        (a Champions champion: its equip row and its action set row), so that a verdict shows in that row only.
        By default '': a verdict shows in every row of its subject."""
        return ""

    def placed_verdicts(self, verdicts: Sequence[Verdict], seat_input: SeatInput[OrdersT] | None) -> list[Verdict]:
        """``verdicts`` (the check's, shown before resolving) each under the subject of the row it is about, for a
        game whose check names another (Wesnoth: a recruit's verdict is its leader's; the n-th is the n-th recruit
        row's). By default as they are."""
        return list(verdicts)

    def row_group(self, state: _StateIn, table: str, subject: str) -> str:
        """The subject whose verdicts decide the row of ``subject`` in ``table``, for a game some of whose rows are
        read as part of another row's order (the Coalition judge's losses rows, part of their battle's result): a
        refused result is told, and kept, in the rows it was read from. By default '': every row has its own."""
        return ""

    def news_first(self, events: Sequence[Event]) -> list[Event]:
        """A resolution's public ``events`` in the order a short notice quotes them (the channel's, which shows its
        first lines and attaches the rest), what a reader wants first at the top: the Coalition's battles, kills
        and structures before its drawn routes. By default the Log's order."""
        return list(events)

    def posts(self, before: _StateIn, state: _StateIn) -> Sequence[Post]:
        """The messages the game posts of its own after the resolution that went from ``before`` to ``state``, each
        with its audience (the Coalition's Movement Results, Battle Announcements and Battle Results): the notices
        send each as a post of its own. By default none: the notices send the log's lines alone."""
        return ()


AnySheetAdapter = SheetAdapter[Any, Any]
