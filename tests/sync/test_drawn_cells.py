"""A player who types over the sync's own cells of a row (issue 43, item 6): a 'For turn' stamp typed over makes
the row read as written for another window, so it is set aside with that reason in the Archive, and the row is
drawn again: its stamp and its move roll put back (they stayed as typed, neither corrected nor stopped)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl import Workbook

from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.sync.life.adjust_undo import undo_window
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.conformance.test_input_lifecycle import NOW, Table, new_table
from tests.matchfiles import local_match, record_of, sync, type_orders


def _typed_red0(tmp_path: Path) -> tuple[MatchSheets, Path, Workbook, int]:
    """A GvG match in one workbook with the bots' orders typed (Ready unticked), the workbook and red0's row."""
    _config, sheets = local_match(tmp_path)
    type_orders(sheets, ready=False)
    path = tmp_path / "match.xlsx"
    book = openpyxl.load_workbook(path)
    return sheets, path, book, next(r for r in range(1, 20) if book["Orders red"].cell(r, 1).value == "red0")


def test_a_stamp_and_a_roll_typed_over_are_set_aside_and_drawn_again(tmp_path: Path) -> None:
    sheets, path, book, row = _typed_red0(tmp_path)
    ws = book["Orders red"]
    stamp, roll = ws.cell(row, 2).value, ws.cell(row, 3).value
    destination = ws.cell(row, 4).value
    ws.cell(row, 2).value, ws.cell(row, 3).value = "7", 7 if roll != 7 else 6
    book.save(path)
    sync(sheets)
    ws = openpyxl.load_workbook(path)["Orders red"]
    assert str(ws.cell(row, 2).value) == str(stamp) and ws.cell(row, 3).value == roll  # drawn again
    assert ws.cell(row, 4).value in (None, "")
    assert "written for 7, not for turn 1: it was set aside" in str(ws.cell(row, 12).value)
    archive = " ".join(str(c) for r in openpyxl.load_workbook(path)["Archive red"].iter_rows(values_only=True)
                       for c in r if c)
    assert str(destination) in archive
    assert record_of(sheets).resolved == 0


def test_a_move_roll_typed_over_in_a_typed_row_is_put_back_at_the_next_poll_and_the_row_says_so(
        tmp_path: Path) -> None:
    """GvG's Move roll is drawn by the sync (the keyed die is read, never the cell): typed over in a row with orders
    in it, the next poll puts the roll back and the row's feedback names what was typed there; the orders stay."""
    sheets, path, book, row = _typed_red0(tmp_path)
    ws = book["Orders red"]
    roll, destination = ws.cell(row, 3).value, ws.cell(row, 4).value
    ws.cell(row, 3).value = 7 if roll != 7 else 6
    book.save(path)
    report = sync(sheets)
    assert not report.resolved and report.drawn_again == ["Orders red (Move roll)"]
    ws = openpyxl.load_workbook(path)["Orders red"]
    assert ws.cell(row, 3).value == roll and ws.cell(row, 4).value == destination
    feedback = str(ws.cell(row, 12).value)
    assert "⚠ Move roll is drawn by sheets-gm and is not read: what was typed there ('7'" in feedback or \
        "what was typed there ('6')" in feedback, feedback
    assert sync(sheets).drawn_again == []
    assert "Move roll is drawn" not in str(openpyxl.load_workbook(path)["Orders red"].cell(row, 12).value)


def test_on_google_a_board_cell_typed_over_is_drawn_again_at_the_next_poll() -> None:
    """The same on Google through the fake: a board cell typed over is put back by the next poll."""
    from sheets_gm.rulesets.registry import get_ruleset
    from sheets_gm.sync.poll import poll
    from tests.fakes.clock import FakeClock
    from tests.fakes.google_api import GoogleApiFake
    from tests.matchfiles import NOW
    from tests.sync.test_sync_google import KEYS, create, policy

    with GoogleApiFake() as fake:
        sheets = create(fake, policy(FakeClock()), 3)
        (before,) = sheets.board.read(["'Board'!A1:C3"])
        fake.set_values(KEYS["board"], "'Board'!B2", [["scribble"]], user_entered=False)
        report = poll(sheets, get_ruleset("gvg"), now=NOW)
        assert "Board" in report.drawn_again and not report.resolved
        assert sheets.board.read(["'Board'!A1:C3"])[0] == before
        assert not fake.violations, fake.violations


def test_a_move_roll_typed_over_in_the_poll_that_resolves_the_turn_is_named_in_the_archive(tmp_path: Path) -> None:
    """The same, but both captains ticked Ready in the same save: the poll resolves the turn at once, so no poll is
    left to say in her row that the roll she typed was not read. The team's Archive entry for the turn says it (what
    was typed, and the roll the turn was played with), so that her '7' does not vanish without a word."""
    sheets, path, book, row = _typed_red0(tmp_path)
    ws = book["Orders red"]
    roll = ws.cell(row, 3).value
    typed = 7 if roll != 7 else 6
    ws.cell(row, 3).value = typed
    book.save(path)
    type_orders(sheets)  # Ready ticked
    assert sync(sheets).resolved
    archive = [" ".join(str(c) for c in r if c)
               for r in openpyxl.load_workbook(path)["Archive red"].iter_rows(values_only=True)]
    said = [line for line in archive if f"Move roll: {typed} (put back to {roll})" in line]
    assert said, archive


def test_a_hex_typed_over_in_a_row_with_no_orders_is_answered_and_kept_in_the_archive(tmp_path: Path) -> None:
    """A Wesnoth player types where she means her unit to go into its Hex cell (drawn by sheets-gm), and nothing
    else: the next poll puts the hex back, her row says so, and her Archive keeps what she typed, which the row's
    answer no longer shows once a later poll writes it again."""
    table = new_table("wesnoth")
    cls = get_ruleset("wesnoth")
    seat, header = _hex_typed(table)
    report = poll(table.sheets, cls, now=NOW)
    assert report.drawn_again == [f"Orders {seat} ({header})"]
    row = next(r for r in read_match(table.sheets, cls).seats[seat].rows if r.table == "units")
    assert "what was typed there ('N5 please') was put back to" in row.feedback, row.feedback
    assert "Hex: N5 please (put back to" in _archive(table, seat)
    poll(table.sheets, cls, now=NOW)
    assert "Hex: N5 please (put back to" in _archive(table, seat)


def _hex_typed(table: Table) -> tuple[str, str]:
    """The first seat types 'N5 please' into its first unit's Hex cell (drawn by sheets-gm); its name and the
    column's header."""
    read = table.read()
    seat = read.record.seats[0]
    placed = read.seats[seat].tab.table("units")
    column = next(c for c in placed.spec.columns if c.header.startswith("Hex"))
    table.sheets.of(seat).type(placed.tab, placed.cell(0, column.key), "N5 please")  # type: ignore[attr-defined]
    return seat, column.header


def _archive(table: Table, seat: str) -> str:
    """The seat's Archive tab's text, every cell."""
    tab = table.read().tabs.archive(seat)
    return " ".join(str(v) for v in table.sheets.of(seat).tabs[tab].values())  # type: ignore[attr-defined]


@pytest.mark.parametrize("how", ["forced", "undone", "repaired"])
def test_a_hex_typed_over_is_kept_by_a_resolution_an_undo_or_repair_that_draws_the_row_again(how: str) -> None:
    """No poll comes between her typing and the GM's force (or his undo, or repair, which draw every row again
    too): what she typed in the Hex cell is kept in her Archive all the same."""
    table = new_table("wesnoth")
    cls = get_ruleset("wesnoth")
    if how == "undone":
        assert poll(table.sheets, cls, now=NOW, force=True).resolved
    seat, _header = _hex_typed(table)
    if how == "forced":
        assert poll(table.sheets, cls, now=NOW, force=True).resolved
    elif how == "undone":
        undo_window(table.sheets, cls, "a test")
    else:
        repair_match(table.sheets, cls)
    assert "Hex: N5 please (put back to" in _archive(table, seat)
