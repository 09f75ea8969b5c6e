"""The public board is checked whole (issue 60, item 4): for every game (the toy game too), on local workbooks and
on the Google fake, a match after a few windows with any edit of its board's spreadsheet the sync did not make
(text beside or under the Log, a hidden row, column or tab, a line in a font the colour of its fill, a tiny font, a
number format that shows nothing, a changed Settings value, an added tab, a cell far outside the drawing) fails
``verify -c``, which names the tab and the cell (or row, column) and what is wrong; with no edit it passes. A few
examples in the quick run, the walk over every game, backend, kind and a few positions under ``-m soak``.
"""

from __future__ import annotations

import os
import random
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Font, PatternFill

from sheets_gm.commands.verify import hand_edits
from sheets_gm.engine.grid import column_label
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.life import board_check
from sheets_gm.sync.life.board_check import own_board
from sheets_gm.sync.life.replay import match_history, replay_document
from sheets_gm.sync.match_tabs import LOG_FIRST_ROW
from sheets_gm.sync.read import read_match
from tests.conformance.test_input_lifecycle import GOOGLE_FAKES, Table, _games, _google_match, _local_match, new_table
from tests.conformance.test_verify_untouched import _play
from tests.conformance.test_verify_untouched import _verify as verify_says
from tests.fakes.google_api import GET, READ, GoogleApiFake, copied
from tests.toygame.registered import toy_registered

TOY = "tictactoe"
WINDOWS = 3
SURRENDER = "Announcement, blue surrenders"  # (a workbook refuses a colon in a tab name)


@dataclass(frozen=True)
class Spot:
    """Where edits land in a match: its tabs' names, its Log's lines, its Settings' rows, its board's drawing."""

    log: str
    settings: str
    board: str
    lines: int
    setting_rows: int  # the house rules' rows (the deadlines row below them left out)
    board_rows: int
    board_cols: int


def spot_of(table: Table) -> Spot:
    """Where edits land in ``table``'s match as it stands."""
    read = read_match(table.sheets, table.cls)
    own = own_board(table.sheets, read)
    spec = read.tabs.spec.tabs
    drawn = own.public[spec.board.casefold()].cells
    settings = own.public[spec.settings.casefold()].cells
    return Spot(spec.log, spec.settings, spec.board, read.record.log_rows, max(r for r, _ in settings) - 1,
                max(r for r, _ in drawn) + 1, max(c for _, c in drawn) + 1)


@dataclass(frozen=True)
class Edit:
    """One edit of the board's spreadsheet, made by hand: the tab and the place the message must name (a cell
    ``E5``, ``row 5``, ``column B``, or '' for the tab), and the edit on a local workbook and on the Google fake."""

    kind: str
    tab: str
    where: str
    local: Callable[[Any], None]
    google: Callable[[GoogleApiFake, str], None]


def _cell(row: int, col: int) -> str:
    """A1 of a 1-based row and 0-based column."""
    return f"{column_label(col)}{row}"


def _rgb(colour: str) -> dict[str, float]:
    return {k: int(colour[i:i + 2], 16) / 255 for k, i in (("red", 1), ("green", 3), ("blue", 5))}


def _typed(tab: str, row: int, col: int, text: str, kind: str) -> Edit:
    """``text`` typed in a cell (1-based row, 0-based column) of ``tab``; on Google the tab is grown to hold it, as a
    player adds rows and columns."""
    a1 = _cell(row, col)

    def local(book: Any) -> None:
        book[tab][a1] = text

    def google(fake: GoogleApiFake, key: str) -> None:
        grid = fake.spreadsheets[key].sheet(tab).properties["gridProperties"]
        grid["rowCount"], grid["columnCount"] = max(grid["rowCount"], row), max(grid["columnCount"], col + 1)
        fake.set_values(key, f"'{tab}'!{a1}", [[text]])

    return Edit(kind, tab, a1, local, google)


def _formatted(tab: str, row: int, col: int, kind: str, colour: str = "", size: float = 0.0,
               pattern: str = "") -> Edit:
    """A cell of ``tab`` (1-based row, 0-based column) given text and fill of one ``colour``, a font of ``size``
    points, or the number format ``pattern``."""
    a1 = _cell(row, col)

    def local(book: Any) -> None:
        cell = book[tab][a1]
        if colour:
            cell.font = Font(color="FF" + colour[1:])
            cell.fill = PatternFill("solid", fgColor="FF" + colour[1:])
        if size:
            cell.font = Font(sz=size)
        if pattern:
            cell.number_format = pattern

    def google(fake: GoogleApiFake, key: str) -> None:
        fmt: dict[str, Any] = {}
        if colour:
            fmt = {"backgroundColor": _rgb(colour), "textFormat": {"foregroundColor": _rgb(colour)}}
        if size:
            fmt = {"textFormat": {"fontSize": size}}
        if pattern:
            fmt = {"numberFormat": {"type": "NUMBER", "pattern": pattern}}
        fake.set_format(key, f"'{tab}'!{a1}", fmt)

    return Edit(kind, tab, a1, local, google)


def _conditional(tab: str, row: int, col: int, kind: str, colour: str) -> Edit:
    """A conditional format over a cell of ``tab`` (1-based row, 0-based column) that writes its text in ``colour``,
    its fill's (white): the rule's condition holds for any text."""
    a1 = _cell(row, col)

    def local(book: Any) -> None:
        book[tab].conditional_formatting.add(a1, FormulaRule(formula=["TRUE"], font=Font(color="FF" + colour[1:])))

    def google(fake: GoogleApiFake, key: str) -> None:
        fake.add_conditional_format(key, f"'{tab}'!{a1}", {"type": "NOT_BLANK"},
                                    {"textFormat": {"foregroundColor": _rgb(colour)}})

    return Edit(kind, tab, a1, local, google)


def _hidden(tab: str, kind: str, row: int = 0, col: int = -1) -> Edit:
    """A row (1-based), a column (0-based) or, with neither, the tab itself hidden."""
    where = f"row {row}" if row else f"column {column_label(col)}" if col >= 0 else ""

    def local(book: Any) -> None:
        if row:
            book[tab].row_dimensions[row].hidden = True
        elif col >= 0:
            book[tab].column_dimensions[column_label(col)].hidden = True
        else:
            book[tab].sheet_state = "hidden"

    def google(fake: GoogleApiFake, key: str) -> None:
        fake.hide(key, tab, rows=[row - 1] if row else [], columns=[col] if col >= 0 else [],
                  tab=not row and col < 0)

    return Edit(kind, tab, where, local, google)


def _added_tab(kind: str) -> Edit:
    def local(book: Any) -> None:
        book.create_sheet(SURRENDER)["A1"] = "Blue surrenders: red wins the match."

    def google(fake: GoogleApiFake, key: str) -> None:
        fake.add_tab(key, SURRENDER)
        fake.set_values(key, f"'{SURRENDER}'!A1", [["Blue surrenders: red wins the match."]])

    return Edit(kind, SURRENDER, "", local, google)


def edit_of(kind: str, spot: Spot, rng: random.Random) -> Edit:
    """The edit ``kind`` at a place ``rng`` picks in the match ``spot`` describes."""
    line = LOG_FIRST_ROW + rng.randrange(max(spot.lines, 1))
    under = LOG_FIRST_ROW + spot.lines + rng.randrange(1, 40)
    colour = rng.choice(["#FFFFFF", "#FFD966", "#000000", "#C9DAF8"])
    makers: dict[str, Callable[[], Edit]] = {
        "beside the Log": lambda: _typed(spot.log, line, rng.randrange(3, 9), "blue surrenders", "beside the Log"),
        "under the Log": lambda: _typed(spot.log, under, rng.randrange(3, 9), "blue surrenders", "under the Log"),
        "a hidden Log row": lambda: _hidden(spot.log, "a hidden Log row", row=line),
        "a hidden column": lambda: _hidden(rng.choice([spot.log, spot.board]), "a hidden column",
                                           col=rng.randrange(3)),
        "a hidden tab": lambda: _hidden(rng.choice([spot.log, spot.settings]), "a hidden tab"),
        "a line in its fill's colour": lambda: _formatted(spot.log, line, rng.randrange(3), "a line in its fill's "
                                                          "colour", colour=colour),
        "a tiny font": lambda: _formatted(spot.log, line, rng.randrange(3), "a tiny font",
                                          size=rng.choice([1, 2, 4])),
        "a number format that hides": lambda: _formatted(spot.log, line, rng.randrange(3), "a number format that "
                                                         "hides", pattern=rng.choice([";;;", '"";"";"";""'])),
        "a conditional format that hides": lambda: _conditional(spot.log, line, rng.randrange(3), "a conditional "
                                                                "format that hides", "#FFFFFF"),
        "a Settings value": lambda: _typed(spot.settings, 2 + rng.randrange(spot.setting_rows), 1,
                                           rng.choice(["99", "double damage", "yes"]), "a Settings value"),
        "an added tab": lambda: _added_tab("an added tab"),
        "a cell far outside the drawing": lambda: _typed(spot.board, spot.board_rows + rng.randrange(5, 80),
                                                         spot.board_cols + rng.randrange(2, 30), "blue surrenders",
                                                         "a cell far outside the drawing"),
    }
    return makers[kind]()


KINDS = ("beside the Log", "under the Log", "a hidden Log row", "a hidden column", "a hidden tab",
         "a line in its fill's colour", "a tiny font", "a number format that hides", "a conditional format that hides",
         "a Settings value",
         "an added tab", "a cell far outside the drawing")


@contextmanager
def edited(table: Table, edit: Edit) -> Iterator[None]:
    """``edit`` made by hand to the board's spreadsheet of ``table`` for the time of a ``with``, then undone."""
    board = table.sheets.board
    if isinstance(board, LocalWorkbookBackend):
        kept = board.path.read_bytes()
        book = openpyxl.load_workbook(board.path)
        edit.local(book)
        book.save(board.path.with_name("edited.xlsx"))
        os.replace(board.path.with_name("edited.xlsx"), board.path)
        try:
            yield
        finally:
            board.path.with_name("kept.xlsx").write_bytes(kept)
            os.replace(board.path.with_name("kept.xlsx"), board.path)
        return
    assert isinstance(board, GoogleSheetBackend)
    fake = GOOGLE_FAKES[board.key]
    held = copied(fake.spreadsheets[board.key])
    edit.google(fake, board.key)
    try:
        yield
    finally:
        fake.spreadsheets[board.key] = held


def check_edit(table: Table, edit: Edit) -> None:
    """``verify -c`` fails on ``edit``, naming its tab and place (the walk verifies the match once all its edits are
    undone: ``edited`` puts back the bytes or the spreadsheet held, so one check at its end finds any that stayed)."""
    with edited(table, edit):
        said = verify_says(table)
    place = re.compile(rf"(?<![\w:]){re.escape(edit.where)}(?![\w:])")  # C5, not C50 nor A1:C5
    named = [line for line in said if f"tab {edit.tab!r}" in line and place.search(line)]
    assert named, f"{edit.kind} at {edit.tab}!{edit.where or '(the tab)'}: verify says {said}"


@contextmanager
def match_on(backend: str, game: str) -> Iterator[Table]:
    """A match of ``game`` on ``backend`` after a few windows, the toy game registered and the Google fake started
    for the time of a ``with``."""
    with toy_registered(), GoogleApiFake() as fake, tempfile.TemporaryDirectory() as folder:
        GOOGLE_FAKES.clear()
        GOOGLE_FAKES["fake"] = fake
        try:
            table = new_table(game, _local_match, Path(folder)) if backend == "local" else \
                new_table(game, _google_match)
            _play(table, WINDOWS)
            yield table
        finally:
            GOOGLE_FAKES.clear()
        assert not fake.violations, fake.violations


def walk(backend: str, game: str, kinds: tuple[str, ...], positions: int, seed: int = 0) -> None:
    """The property over one match: with no edit ``verify -c`` passes; each of ``kinds`` at ``positions`` places
    fails it, naming where."""
    with match_on(backend, game) as table:
        assert verify_says(table) == []
        spot = spot_of(table)
        rng = random.Random(f"{game}/{backend}/{seed}")
        for kind in kinds:
            for _ in range(positions):
                check_edit(table, edit_of(kind, spot, rng))
        assert verify_says(table) == []  # every edit undone: the match verifies again


# The quick run: one match a backend, each given more of the kinds (a match played costs more than its edits); GvG's
# board is walked in the quick run by the two tests below (its edits with the check taken out; its one request on
# Google), every game under ``-m soak``.
QUICK = [("google", TOY, ("a line in its fill's colour", "a cell far outside the drawing", "a number format that "
                          "hides", "a hidden column", "a conditional format that hides", "beside the Log",
                          "a Settings value", "an added tab", "a hidden tab")),
         ("local", "winordie", ("under the Log", "a tiny font", "a hidden tab", "a conditional format that hides",
                                "beside the Log", "a hidden Log row", "a Settings value", "an added tab"))]


@pytest.mark.parametrize(("backend", "game", "kinds"), QUICK, ids=[f"{b}-{g}" for b, g, _ in QUICK])
def test_verify_names_every_edit_of_the_board(backend: str, game: str, kinds: tuple[str, ...]) -> None:
    walk(backend, game, kinds, positions=1)


@pytest.mark.soak
@pytest.mark.parametrize("backend", ["local", "google"])
@pytest.mark.parametrize("game", [*_games(), TOY])
def test_verify_names_every_edit_of_the_board_walk(backend: str, game: str) -> None:
    walk(backend, game, KINDS, positions=3, seed=1)


def test_without_the_whole_board_check_the_edits_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The defect put back (``verify -c`` seeing only the lines it wrote): the property fails, kind after kind."""
    monkeypatch.setattr(board_check, "board_edits", lambda *_args, **_kw: [])
    with match_on("local", "gvg") as table:
        spot = spot_of(table)
        rng = random.Random(0)
        passed = []
        for kind in KINDS:
            try:
                check_edit(table, edit_of(kind, spot, rng))
            except AssertionError:
                continue
            passed.append(kind)
    assert passed == [], f"caught without the whole-board check: {passed}"


def test_verify_reads_the_board_once_for_the_log_the_drawn_tabs_and_the_board_whole() -> None:
    """``verify -c``'s check of the board (the Log's lines, the drawn cells, the board whole) is ONE request on
    Google: a spreadsheets.get whose field mask asks the grids, where the Log and the drawn tabs took two
    values.batchGet before the board was checked whole (verify of a GvG match: 7 requests then, 6 now)."""
    with match_on("google", "gvg") as table:
        read = read_match(table.sheets, table.cls)
        doc = replay_document(read.record, match_history(table.sheets, read.record, read.tabs.spec.tabs.engine))
        fake = GOOGLE_FAKES["fake"]
        fake.reset_counters()
        assert hand_edits(table.sheets, read, doc) == ([], [], [])
        assert (fake.calls(GET), fake.calls(READ)) == (1, 0)
