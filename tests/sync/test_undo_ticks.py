"""An undo puts a window's rows back as they were typed, with Go and Ready unticked, and says so in the seat's
cell; rows the undone resolution kept (moved up in an ordered table) are put back, not taken for rows typed since
(Win or Die, issue 38 item 9)."""

from __future__ import annotations

from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.adjust_undo import undo_window
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from tests.conformance.test_input_lifecycle import NOW, Table, _put, new_table


def _play(table: Table, windows: int) -> None:
    for _ in range(windows):
        type_bot_orders(table.sheets, table.cls, table.bots)
        poll(table.sheets, table.cls, now=NOW)


def test_an_undo_unticks_go_so_the_next_poll_waits_and_the_seat_is_told() -> None:
    table = new_table("winordie")
    _play(table, 2)  # both deployed: the first player's turn is open
    read = read_match(table.sheets, table.cls)
    acting = read.record.state.acting
    type_bot_orders(table.sheets, table.cls, {acting: table.bots[acting]}, ready=False)
    _put(table, read_match(table.sheets, table.cls), acting, "seat", acting, "go", True)
    assert poll(table.sheets, table.cls, now=NOW).resolved
    resolved = read_match(table.sheets, table.cls).record.resolved
    report = undo_window(table.sheets, table.cls, "Ann's rows were meant for Bo")
    assert report.set_aside == 0 and len(report.events) == 1  # nothing was typed since: no seat is told otherwise
    assert "Ready and Go unticked" in report.events[0].text
    read = read_match(table.sheets, table.cls)
    seat_row = next(r for r in read.seats[acting].rows if r.table == "seat")
    assert not seat_row.ticked("go")
    assert seat_row.feedback.startswith("Undone by the GM's undo of turn 1") and "Go unticked" in seat_row.feedback
    moved = [r for r in read.seats[acting].rows if r.table == "actions" and r.typed]
    assert moved and all(r.feedback.startswith("Put back by the GM's undo") for r in moved)
    assert not poll(table.sheets, table.cls, now=NOW).resolved  # the GM acts before anything resolves again
    assert read_match(table.sheets, table.cls).record.resolved == resolved - 1


def test_rows_a_reaction_left_moved_up_are_put_back_not_set_aside() -> None:
    table = new_table("winordie")
    for _ in range(40):
        read = read_match(table.sheets, table.cls)
        kept = [r for s in read.seats.values() for r in s.rows if r.typed and r.table == "actions"]
        if kept and read.record.resolved > 2:
            break
        _play(table, 1)
    else:
        raise AssertionError("no reaction stopped a row in 40 windows")
    report = undo_window(table.sheets, table.cls, "the reaction was set wrongly")
    assert report.set_aside == 0, [e.text for e in report.events]
    assert "set aside" not in " ".join(e.text for e in report.events)
