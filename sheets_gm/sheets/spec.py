"""A ruleset's sheet layout as data: ``templates/<name>/layout.yaml``, read and checked with pydantic.

(``layout_file`` finds it; a template folder made before it took that name holds it as ``sheet.yaml``.)

What data can say lives here, for any game: the tab names, the header texts the sync checks,
the colours, and the **input tables** players (or a judge) type into, one table per kind of
row (a row per unit, per army, per champion, or one per seat) with its columns, their kinds
and vocabularies, and the windows (phases) in which it is open. Everything else about the
sheet (where each cell is, header checks, dropdowns, protections, clearing) is derived from
it by ``sheets.tables``; only what data cannot say (drawing a board, parsing a forum line into
an order) is code, in the ruleset's sheet adapter.

A minimal file::

    tabs: {board: Board, log: Log, settings: Settings, engine: Engine,
           orders: "Orders {seat}", archive: "Archive {seat}", view: "View {seat}", judge: Judge}
    headers: {board: "sheets-gm · My game board"}
    inputs:
      - name: units
        rows: units            # the adapter lists a seat's rows of this kind
        min_rows: 20           # rows laid out at least: more when the match needs them
        columns:
          - {key: unit, header: Unit, kind: subject}
          - {key: window, header: For, kind: window}
          - {key: to, header: Destination, kind: text}
          - {key: action, header: Action, kind: choice, values: [move, hold]}
          - {key: feedback, header: Feedback, kind: feedback}
      - name: seat
        rows: seat             # one row: the seat itself
        columns:
          - {key: seat, header: Player, kind: subject}
          - {key: window, header: For, kind: window}
          - {key: ready, header: Ready, kind: ready}
          - {key: feedback, header: Feedback, kind: feedback}
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sheets_gm.yamlio import YamlError, load_yaml_model

if TYPE_CHECKING:
    from sheets_gm.engine.ruleset import Window


class SheetSpecError(ValueError):
    """A sheet layout file that is missing or malformed: the message names the file and the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ColumnKind(StrEnum):
    """What a column of an input table holds, and so who writes it and how it is checked."""

    SUBJECT = "subject"  # the row's name (unit, army, champion, seat): written by sheets-gm
    WINDOW = "window"  # which window the row is for: written by sheets-gm when the window opens
    SHOWN = "shown"  # information sheets-gm writes for the row (a roll, hit points): read-only
    TEXT = "text"  # free text the player types (a destination, a route, a forum order line)
    CHOICE = "choice"  # one of ``values``, offered as a dropdown
    NUMBER = "number"  # a whole number
    TICK = "tick"  # a tick box that is part of the order (Wesnoth's Go box)
    READY = "ready"  # a tick box saying the seat's orders for the window are in
    FEEDBACK = "feedback"  # what the engine says of the row: written by sheets-gm

    @property
    def typed(self) -> bool:
        """Whether players type into this column."""
        return self in _TYPED_KINDS


#: The kinds of column players type into (``ColumnKind.typed``: asked of every cell of every row read).
_TYPED_KINDS = (ColumnKind.TEXT, ColumnKind.CHOICE, ColumnKind.NUMBER, ColumnKind.TICK, ColumnKind.READY)


#: The key of a tick column that asks for rows to be resolved now (Wesnoth's Go on each row, Win or Die's Go on
#: the seat's row): an undo unticks it, with Ready, on the rows it puts back.
GO_COLUMN = "go"
#: The row kind of a table with one row: the seat itself (its Ready box, seat-wide orders).
SEAT_ROWS = "seat"
#: Columns of a seat's View tab (its panel and its log): what ``view_widths`` may size.
VIEW_COLS = 8
#: Rows a View tab's panel holds unless the game says fewer or more (``view_panel_rows``): its log starts below.
VIEW_PANEL_ROWS = 40


class Column(_Strict):
    """One column of an input table."""

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")  # what the adapter calls it
    header: str  # what the sheet shows (and the sync checks)
    kind: ColumnKind
    values: tuple[str, ...] = ()  # a choice column's vocabulary
    width: int = 0  # pixels; 0 lets the kind decide
    # The widest word sheets-gm writes in the column's cells (a shown column's units, a unit's type): printing
    # narrows the column no narrower, so that word is never broken on screen nor on paper (a Coalition army's
    # "(5000/2500/1500/1000)" once wrapped mid-number). A choice column keeps its values' words by itself.
    widest_word: str = ""
    # "view": a text column whose dropdown lists what the adapter writes in the last column of the seat's View
    # panel (the seat's own list, such as a Champions player's bag), rewritten at every resolution; it only
    # helps: anything typed is read.
    values_from: Literal["", "view"] = ""

    @model_validator(mode="after")
    def _vocabulary(self) -> Column:
        if self.kind is ColumnKind.CHOICE and not self.values:
            raise ValueError(f"column {self.key!r} is a choice: give its values")
        if self.kind is not ColumnKind.CHOICE and self.values:
            raise ValueError(f"column {self.key!r} is {self.kind.value}: only a choice column has values")
        if self.values_from and self.kind is not ColumnKind.TEXT:
            raise ValueError(f"column {self.key!r} is {self.kind.value}: only a text column takes values_from")
        return self


class InputTable(_Strict):
    """A table of rows to type into, in a seat's orders tab (or the judge's tab)."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str = ""  # shown above the header row
    rows: str  # the kind of row: ``seat`` (one row, the seat), or a name the adapter lists rows for
    # Rows laid out at least. A table is laid out with as many rows as the match needs (its roster, its map, its
    # settings: ``rows`` of the sheet adapter), never fewer than this, and grows when a resolution needs more
    # (``sync.match_tabs.MatchTabs.fitted``): no row is ever left out for want of room.
    min_rows: int = Field(default=1, ge=1, le=200)
    judge: bool = False  # in the judge's tab instead of each seat's orders tab
    standing: bool = False  # rows stay as typed from window to window until an order consumes them (reactions)
    # What an empty row says while its seat may write in it, instead of "Waiting for your orders": a standing
    # table read in the other seats' turns (Win or Die's reactions) is not waited for in the seat's own.
    idle: str = ""
    ordered: bool = False  # one list read from its first row down: rows a resolution keeps move up to the top
    # Each row is a roster member's own (its subject is the member's name, and rows do not move during a
    # match): its typed cells are protected for that member's e-mail alone (and the GMs), not the whole seat.
    member_rows: bool = False
    # Its rows are another way to give the orders of other rows (Coalition's Forum post lines), or an empty row
    # is itself an answer (Champions' equipment: kept as it is), not orders awaited: ``status`` never lists them
    # as having nothing typed.
    optional: bool = False
    # Its rows are numbered lines (Coalition's Forum post: ``coalition line 7``), named by their place, not by
    # anything of the state: every row the table has is one (the adapter's ``laid_out_rows`` names them all), and a
    # line typed in a row whose name is not drawn yet (a table laid out by an earlier version, which named fewer)
    # is read as the line its place names, the name drawn in. A line is no subject's own row: one its window did not
    # carry out is set aside with why when the window closes, never kept for a later one (``fates.settle_seat``).
    numbered: bool = False
    # Text struck through in its cells (the cell's font, or runs of it: a forum post as it is pasted) is read with
    # its strikethrough (``sheets.struck``), so that the game may pass it over as no order.
    struck: bool = False
    # The seat's tab it stands in: '' for the orders tab, else the key of one of the layout's ``tabs.pages`` (a
    # tab of its own in the seat's spreadsheet, read and drawn with the orders tab: Coalition's Forum tab).
    page: str = Field(default="", pattern=r"^([a-z][a-z0-9_]*)?$")
    phases: tuple[str, ...] = ()  # the window phases it is open in; empty: every phase
    columns: tuple[Column, ...]

    @model_validator(mode="after")
    def _shape(self) -> InputTable:
        kinds = [c.kind for c in self.columns]
        keys = [c.key for c in self.columns]
        if len(set(keys)) != len(keys):
            raise ValueError(f"table {self.name!r}: a column key is used twice")
        for kind in (ColumnKind.SUBJECT, ColumnKind.WINDOW, ColumnKind.FEEDBACK):
            if kinds.count(kind) != 1:
                raise ValueError(f"table {self.name!r}: give exactly one {kind.value} column")
        if kinds[0] is not ColumnKind.SUBJECT:
            raise ValueError(f"table {self.name!r}: the first column is the subject")
        if self.rows == SEAT_ROWS and self.min_rows != 1:
            raise ValueError(f"table {self.name!r}: a seat table has one row")
        if self.rows == SEAT_ROWS and self.numbered:
            raise ValueError(f"table {self.name!r}: a seat table has one row, not numbered lines")
        return self

    @property
    def heading(self) -> str:
        """The text of the table's title row (its ``title``, else its name): where a read finds the table."""
        return self.title or self.name.replace("_", " ").capitalize()

    def column(self, key: str) -> Column:
        """The column called ``key`` (KeyError naming the table if none)."""
        for c in self.columns:
            if c.key == key:
                return c
        raise KeyError(f"table {self.name!r} has no column {key!r}")

    def index(self, key: str) -> int:
        """The 0-based position of column ``key``."""
        for i, c in enumerate(self.columns):
            if c.key == key:
                return i
        raise KeyError(f"table {self.name!r} has no column {key!r}")

    def of_kind(self, kind: ColumnKind) -> list[Column]:
        """The columns of one kind, in order."""
        return [c for c in self.columns if c.kind is kind]

    def window_boxes(self) -> list[Column]:
        """The tick boxes that speak for the window rather than the order (Ready, and a Go box that asks for the
        rows to be resolved now): cleared when the window they were ticked for is over. A tick that is part of
        the order itself (Coalition's Siege, 'Tried a kill and lost') is kept with the row like any typed cell."""
        return [c for c in self.columns
                if c.kind is ColumnKind.READY or (c.kind is ColumnKind.TICK and c.key == GO_COLUMN)]

    def open_in(self, phase: str) -> bool:
        """Whether rows of this table are typed for a window of ``phase``."""
        return not self.phases or phase in self.phases

    def stamp(self, window: Window | None, seat: str) -> str:
        """The stamp ``seat``'s rows of this table carry while ``window`` is open: the key of the window that reads
        what is typed there (``window``'s where the seat types in the table now, or the next window's whose orders
        ``window`` takes early: ``Window.early``), '' for none."""
        for reads in (window, window.early if window is not None else None):
            if reads is not None and seat in reads.seats and self.open_in(reads.phase):
                return reads.key
        return ""


class TabNames(_Strict):
    """The tabs' names; ``{seat}`` stands for a seat's name."""

    board: str = "Board"  # the public tab carrying the title the sync checks (a game may draw more: see BoardDrawing)
    log: str = "Log"
    settings: str = "Settings"
    engine: str = "Engine"
    orders: str = "Orders {seat}"
    archive: str = "Archive {seat}"
    view: str = "View {seat}"  # what the seat may see: its private panel and log, in its own spreadsheet
    copies: str = "Copies {seat}"  # hidden, in the seat's spreadsheet: the sync's copies of its archived rows
    judge: str = "Judge"
    gm: str = "GM"  # the GM's own panel and the full private log, in the engine spreadsheet
    roster: str = "Roster"  # the roster the GM types when there is no roster file, in the engine spreadsheet
    # Public tabs an earlier layout of the game drew and this one does not (Coalition's one Board tab before
    # its tab per plane): repair deletes them from the board spreadsheet. They held nothing typed.
    retired: tuple[str, ...] = ()
    # A seat's further input tabs, by key (an input table's ``page``): ``{forum: "Forum {seat}"}``. Each is laid
    # out, read and drawn as the orders tab is, in the seat's own spreadsheet, beside it.
    pages: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _retired(self) -> TabNames:
        kept = {self.board, self.log, self.settings, self.engine, self.judge, self.gm, self.roster}
        clash = [name for name in self.retired if name in kept]
        if clash:
            raise ValueError(f"retired tab {clash[0]!r} is also a tab of this layout: a retired tab is deleted")
        return self


class Headers(_Strict):
    """The fixed texts the sync checks, so a layout edited by hand is noticed before anything is written."""

    board: str  # the board tab's title, right of the board
    engine: str = "sheets-gm engine v1 · do not edit"
    orders_title: str = "sheets-gm · orders of {seat}"
    judge_title: str = "sheets-gm · the judge's entries"
    view_title: str = "sheets-gm · what {seat} sees"
    gm_title: str = "sheets-gm · for the GM only"
    page_titles: dict[str, str] = Field(default_factory=dict)  # each of ``tabs.pages``' title, by key ({seat})
    log: tuple[str, ...] = ("Turn", "Kind", "What happened")
    settings: tuple[str, ...] = ("Setting", "Value", "Default", "What it changes")
    archive: tuple[str, ...] = ("Window", "What became of the orders typed in this tab's spreadsheet")
    copies: tuple[str, ...] = ("Rows the Archive line of this row names (JSON)", "Window key", "Rows read (JSON)",
                               "Archive lines")


class Colours(_Strict):
    """Background colours (``#RRGGBB``) of what sheets-gm writes; a ruleset's board colours are its own."""

    header: str = "#D9D9D9"
    input: str = "#FFFFFF"
    engine: str = "#EFEFEF"
    seats: tuple[str, ...] = ("#F4CCCC", "#CFE2F3", "#D9EAD3", "#FFF2CC", "#D9D2E9", "#FCE5CD", "#D0E0E3",
                              "#EAD1DC")  # one per seat in roster order, round again past the last
    extra: dict[str, str] = Field(default_factory=dict)  # the ruleset's own: terrain, villages…


class SheetSpec(_Strict):
    """Everything about a ruleset's sheets that is data."""

    tabs: TabNames = TabNames()
    headers: Headers
    colours: Colours = Colours()
    symbols: dict[str, str] = Field(default_factory=dict)  # the ruleset's board signs, by name
    # Whether idle polls show the engine's verdicts on typed rows before they resolve. A game whose verdicts
    # are worked out with the window's dice and hidden things (Win or Die: an attack on a face-down token)
    # says false: the rows then show only what the adapter could not read, and the logs tell what happened.
    preview: bool = True
    # With ``preview`` false, whether the verdicts are shown anyway when the check rolled no die: a game whose only
    # secret before resolving is the dice (Wesnoth) shows then what the board alone decides (a recruit its gold
    # does not cover, a move too long); once a die is rolled, nothing is shown before the resolution.
    preview_without_dice: bool = False
    # Pixel widths of a View tab's panel columns, by 0-based column, where the game's panel needs other widths
    # than the default (names in column A, long texts in column C): ``{1: 150, 7: 200}``.
    view_widths: dict[int, int] = Field(default_factory=dict)
    # The same for the judge's View and the GM's, where their panel is not a seat's (Coalition's battles to judge,
    # each army in a column of its own); none: ``view_widths``. A seat's View then keeps only the columns its own
    # panel fills wide, so that it prints on one page across.
    judge_view_widths: dict[int, int] | None = None
    # Rows of a View tab's panel, the log's header under them: a game whose panel is short says so, so that its
    # log starts on the first screen (a longer panel ends with a line saying where the rest is).
    view_panel_rows: int = Field(default=VIEW_PANEL_ROWS, ge=1, le=200)
    inputs: tuple[InputTable, ...]

    def view_columns(self, judging: bool) -> dict[int, int]:
        """The widths in pixels of a View tab's columns the game sizes: a seat's (``view_widths``), or the judge's
        and the GM's (``judging``: ``judge_view_widths`` where the game gives them)."""
        if judging and self.judge_view_widths is not None:
            return dict(self.judge_view_widths)
        return dict(self.view_widths)

    def shows_verdicts(self, diced: bool) -> bool:
        """Whether a seat's rows show the engine's verdicts before they resolve, when the check that gave them rolled
        or drew a die (``diced``) or not (``preview``, ``preview_without_dice``)."""
        return self.preview or (self.preview_without_dice and not diced)

    @model_validator(mode="after")
    def _tables(self) -> SheetSpec:
        for name, widths in (("view_widths", self.view_widths), ("judge_view_widths", self.judge_view_widths or {})):
            for col, pixels in widths.items():
                if not 0 <= col < VIEW_COLS or not 20 <= pixels <= 1000:
                    raise ValueError(f"{name}: column {col} at {pixels} px; give columns 0 to {VIEW_COLS - 1}, "
                                     "20 to 1000 px wide")
        names = [t.name for t in self.inputs]
        if len(set(names)) != len(names):
            raise ValueError("two input tables have the same name")
        if not any(t.rows == SEAT_ROWS and not t.judge for t in self.inputs):
            raise ValueError("give a seat table (rows: seat) with its Ready box, so a seat can say its orders are in")
        for t in self.inputs:
            if t.page and (t.judge or t.page not in self.tabs.pages or t.page not in self.headers.page_titles):
                raise ValueError(f"table {t.name!r}: page {t.page!r} is a seat's tab of its own: name it under "
                                 "tabs.pages and headers.page_titles (a judge's table stays in the judge's tab)")
        for key in self.tabs.pages:
            if not any(t.page == key for t in self.inputs) or not any(t.rows == SEAT_ROWS for t in self.inputs
                                                                       if t.page == ""):
                raise ValueError(f"tabs.pages: {key!r} holds no input table")
        return self

    def tables(self, *, judge: bool, page: str | None = None) -> tuple[InputTable, ...]:
        """The input tables of the seats' input tabs (``judge=False``) or of the judge's tab; with ``page``, only
        those of that tab ('' the orders tab, or a key of ``tabs.pages``)."""
        return tuple(t for t in self.inputs if t.judge == judge and (page is None or t.page == page))


#: The sheet layout's file in a game's template folder.
LAYOUT_FILE = "layout.yaml"
#: Its name before issue 77 (when "sheet" named three things): still read in a template folder made then (a
#: contributor's game written by an earlier ``new-game``, a folder named in ``registry.TEMPLATE_FOLDERS``).
OLD_LAYOUT_FILE = "sheet.yaml"


def layout_file(folder: Path) -> Path:
    """The sheet layout's file in the template folder ``folder``: ``layout.yaml``, or ``sheet.yaml`` in a folder made
    before the layout took its name; SheetSpecError, naming both and which to keep, for a folder holding both (an
    edit of the one not read would change nothing)."""
    layout, old = folder / LAYOUT_FILE, folder / OLD_LAYOUT_FILE
    if not old.is_file():
        return layout
    if layout.is_file():
        raise SheetSpecError(f"{folder} holds two sheet layouts, {LAYOUT_FILE} and {OLD_LAYOUT_FILE} (its old name): "
                             f"keep the one you edit, named {LAYOUT_FILE}, and remove the other")
    return old


def load_sheet_spec(path: Path) -> SheetSpec:
    """Read a sheet layout file; errors name the file, the field and, where known, the line."""
    try:
        return load_yaml_model(path, SheetSpec)
    except YamlError as exc:
        raise SheetSpecError(str(exc)) from None


@cache
def cached_sheet_spec(path: Path) -> SheetSpec:
    """``load_sheet_spec`` read once per process (the shipped templates never change while running)."""
    return load_sheet_spec(path)
