"""An undo puts back the rows the undone resolution kept in their cells (refused, unread, left for later) where they
stood before it, as it puts back the rows it read: they were in the table when it read it, so they are not "typed
since" and do not go to the Archive. Only rows typed after the resolution are set aside (issue 38, item 9)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.adjust_undo import undo_window
from sheets_gm.sync.match_record import compact_json, history_range, history_write, joined_cells, packed_cell
from sheets_gm.sync.match_tabs import ARCHIVE_LINES
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import seat_backend
from tests.conformance.test_input_lifecycle import NOW, Table, _put, new_table
from tests.fakes.memory import InjectedFault

FLY = {"unit": "Ann-1", "action": "fly", "target": "A2"}  # a row no poll can read: 'fly' is no action
AHEAD = {"unit": "Bo-1", "action": "move", "target": "E6"}  # Bo's row for her next turn, typed in Ann's


def _typed(table: Table, seat: str, name: str) -> list[TypedRow]:
    return [r for r in read_match(table.sheets, table.cls).seats[seat].rows if r.table == name and r.typed]


def _cells(row: TypedRow) -> dict[str, str]:
    return {k: str(v) for k, v in row.values.items() if v not in (None, "", False)}


def _archive(table: Table, seat: str) -> str:
    read = read_match(table.sheets, table.cls)
    (grid,) = seat_backend(table.sheets, read.tabs, seat).read([f"'{read.tabs.archive(seat)}'!A1:B{ARCHIVE_LINES}"])
    return "\n".join(" ".join(str(c) for c in row if c) for row in grid)


def _winordie_step_with_a_refused_row(ahead: dict[str, str] | None = None) -> tuple[Table, dict[str, str]]:
    """Win or Die, Ann's turn 1: Row 1 an action her bot would take, Row 2 ``FLY`` (and Bo's Row 1 ``ahead``, for her
    next turn); Ann's Go ticked and polled. The poll carries out Row 1 and keeps the refused row, moved up into Row 1
    with its ✘. Returns Row 1 as typed."""
    table = new_table("winordie")
    for _ in range(2):  # both deployed: Ann's turn is open
        type_bot_orders(table.sheets, table.cls, table.bots)
        poll(table.sheets, table.cls, now=NOW)
    read = read_match(table.sheets, table.cls)
    assert read.record.state.acting == "Ann"
    type_bot_orders(table.sheets, table.cls, {"Ann": table.bots["Ann"]}, ready=False)
    first = _cells(_typed(table, "Ann", "actions")[0])
    for row in _typed(table, "Ann", "actions")[1:]:  # Row 1 alone, then the row that cannot be read
        for key in row.values:
            _put(table, read_match(table.sheets, table.cls), "Ann", "actions", row.subject, key, "")
    for key, value in FLY.items():
        _put(table, read_match(table.sheets, table.cls), "Ann", "actions", "Row 2", key, value)
    for key, value in (ahead or {}).items():
        _put(table, read_match(table.sheets, table.cls), "Bo", "actions", "Row 1", key, value)
    _put(table, read_match(table.sheets, table.cls), "Ann", "seat", "Ann", "go", True)
    assert poll(table.sheets, table.cls, now=NOW).resolved
    (kept,) = _typed(table, "Ann", "actions")
    assert (kept.subject, _cells(kept)) == ("Row 1", FLY) and kept.feedback.startswith("✘ Action 'fly'")
    return table, first


def test_a_win_or_die_row_refused_and_kept_is_put_back_after_the_row_undone_not_set_aside() -> None:
    table, first = _winordie_step_with_a_refused_row()
    report = undo_window(table.sheets, table.cls, "Ann-7 was meant to charge")
    assert report.set_aside == 0, [e.text for e in report.events]
    assert "set aside" not in " ".join(e.text for e in report.events)
    rows = _typed(table, "Ann", "actions")
    assert [(r.subject, _cells(r)) for r in rows] == [("Row 1", first), ("Row 2", FLY)]  # in the order they stood
    assert rows[0].feedback.startswith("Put back by the GM's undo of turn 1 · Ann")
    assert rows[1].feedback.startswith("Put back by the GM's undo of turn 1 · Ann (resolution 3), where it stood") \
        and "✘ Action 'fly' is not an action" in rows[1].feedback  # its refusal shown again
    assert "set aside by the GM's undo" not in _archive(table, "Ann")
    assert not poll(table.sheets, table.cls, now=NOW).resolved  # Go unticked: the GM acts first
    rows = _typed(table, "Ann", "actions")
    assert [_cells(r) for r in rows] == [first, FLY] and "✘ Action 'fly'" in rows[1].feedback  # checked again


def test_a_row_typed_ahead_for_the_next_turn_and_kept_through_a_step_is_put_back() -> None:
    table, _first = _winordie_step_with_a_refused_row(ahead=AHEAD)
    report = undo_window(table.sheets, table.cls, "Ann-7 was meant to charge")
    assert report.set_aside == 0
    (row,) = _typed(table, "Bo", "actions")
    assert (row.subject, _cells(row)) == ("Row 1", AHEAD)
    assert row.feedback.startswith("Put back by the GM's undo of turn 1 · Ann (resolution 3), where it stood")
    # its true fate in the window reopened, at once (it said only where it came from until the next poll)
    held = "Kept for Bo's next turn: it is read when that opens, not in turn 1 · Ann."
    assert row.feedback.endswith(f" · {held}"), row.feedback
    poll(table.sheets, table.cls, now=NOW)
    assert _typed(table, "Bo", "actions")[0].feedback == held
    assert f"Row 1 — Unit: Bo-1, Action: move, Target: E6 — {held}" in _archive(table, "Bo")  # the undo's entry


def test_the_undo_s_archive_entry_says_what_became_of_every_row_she_had() -> None:
    table, first = _winordie_step_with_a_refused_row()
    undo_window(table.sheets, table.cls, "Ann-7 was meant to charge")
    archive = _archive(table, "Ann")
    taken = archive.index("Taken back by the GM's undo (Ann-7 was meant to charge)")
    assert f"Row 1 — Unit: {first['unit']}, Action: {first['action']}, Target: {first['target']}" in archive[taken:]
    stood = archive.index("Put back by the GM's undo (Ann-7 was meant to charge): turn 1 · Ann had left these rows")
    assert "Row 2 — Unit: Ann-1, Action: fly, Target: A2 — ✘ Action 'fly' is not an action" in archive[stood:]


def test_a_second_undo_sets_aside_only_what_was_typed_after_the_window_it_reopens() -> None:
    table, first = _winordie_step_with_a_refused_row()
    undo_window(table.sheets, table.cls, "Ann-7 was meant to charge")
    report = undo_window(table.sheets, table.cls, "Bo deployed on the wrong row")  # back to Bo's deployment
    assert report.set_aside == 2  # both rows of Ann's turn were typed after Bo's deployment resolved
    assert not _typed(table, "Ann", "actions")
    archive = _archive(table, "Ann")
    assert "set aside by the GM's undo of deployment · Bo" in archive
    assert "Action: fly, Target: A2" in archive and f"Target: {first['target']}" in archive


def _forget_stayed(table: Table) -> None:
    """The last history row as a version of sheets-gm before ``stayed`` wrote it: only the kept rows with a note."""
    read = read_match(table.sheets, table.cls)
    tab, number = read.tabs.spec.tabs.engine, read.record.resolved
    (grid,) = table.sheets.engine.read([history_range(tab, number)])
    entry: dict[str, Any] = json.loads(joined_cells(grid[0], 1))
    for seat, cell in entry["archived"].items():
        found = json.loads(joined_cells([cell], 0))
        found.pop("stayed", None)
        entry["archived"][seat] = packed_cell(compact_json(found), "a test's copy")
    table.sheets.engine.write([RangeWrite(*history_write(tab, number, entry))])


def test_an_undo_of_a_resolution_recorded_before_stayed_puts_the_noted_rows_back_after_the_rows_read() -> None:
    table, first = _winordie_step_with_a_refused_row()
    _forget_stayed(table)
    report = undo_window(table.sheets, table.cls, "Ann-7 was meant to charge")
    assert report.set_aside == 0
    assert [(r.subject, _cells(r)) for r in _typed(table, "Ann", "actions")] == [("Row 1", first), ("Row 2", FLY)]


def _wesnoth_step_with_rows_left() -> tuple[Table, str, list[TypedRow]]:
    """Wesnoth, a side's later turn: its bot's unit rows typed, the first ticked Go, the second's Order made
    unreadable; polled. The step resolves the first row (or refuses it, and keeps it); the others stay unread, the
    second with its ✘. Returns the seat and its unit rows left typed."""
    table = new_table("wesnoth")
    for _ in range(4):
        type_bot_orders(table.sheets, table.cls, table.bots)
        poll(table.sheets, table.cls, now=NOW)
    read = read_match(table.sheets, table.cls)
    window = read.record.ruleset.window(read.record.state)
    assert window is not None
    seat = window.seats[0]
    type_bot_orders(table.sheets, table.cls, {seat: table.bots[seat]}, ready=False)
    units = _typed(table, seat, "units")
    assert len(units) >= 3
    _put(table, read_match(table.sheets, table.cls), seat, "units", units[0].subject, "go", True)
    _put(table, read_match(table.sheets, table.cls), seat, "units", units[1].subject, "order", "zz")
    assert poll(table.sheets, table.cls, now=NOW).resolved
    left = _typed(table, seat, "units")
    unread = next(r for r in left if r.subject == units[1].subject)
    assert "✘ Order 'zz' is not a whole number" in unread.feedback
    assert [r.subject for r in left if r.subject != units[0].subject] == [r.subject for r in units[1:]]
    return table, seat, left


def test_wesnoth_rows_a_step_left_unread_are_put_back_and_only_a_row_typed_since_is_set_aside() -> None:
    table, seat, left = _wesnoth_step_with_rows_left()
    changed = left[-1]
    _put(table, read_match(table.sheets, table.cls), seat, "units", changed.subject, "to", "A1")  # typed since
    report = undo_window(table.sheets, table.cls, "the step went wrong")
    assert report.set_aside == 1, [e.text for e in report.events]
    back = {r.subject: r for r in _typed(table, seat, "units")}
    for row in left:  # every row the step left is back as it stood, the one typed over since too
        assert _cells(back[row.subject]) == _cells(row), row.subject
        assert back[row.subject].feedback.startswith("Put back by the GM's undo"), back[row.subject].feedback
    assert any("✘ Order 'zz' is not a whole number" in r.feedback for r in back.values())
    archive = _archive(table, seat)
    assert "set aside by the GM's undo" in archive and "A1" in archive  # what was typed since, kept there


def _gvg_row_typed_over_after_a_cut() -> Table:
    """GvG, turn 1: red3's Action typed, a forced resolution cut before its commit (red's rows already cleared for
    turn 2), then ``-3`` typed in red3's Destination and the cut resolution completed by the next poll, which keeps
    that row with its ✘ for turn 2."""
    table = new_table("gvg")
    _put(table, read_match(table.sheets, table.cls), "red", "players", "red3", "action", "act")
    engine = table.engine
    engine.calls.clear()
    engine.fail_on_call = 2  # its read, then its write: the commit
    with pytest.raises(InjectedFault):
        poll(table.sheets, table.cls, now=NOW, force=True)
    engine.fail_on_call = None
    _put(table, read_match(table.sheets, table.cls), "red", "players", "red3", "destination", "-3")
    assert poll(table.sheets, table.cls, now=NOW).resolved
    (row,) = _typed(table, "red", "players")
    assert _cells(row) == {"destination": "-3"} and row.feedback.startswith("✘ destination '-3'")
    return table


def test_an_undo_sets_aside_a_row_typed_after_a_cut_resolution_it_takes_back() -> None:
    """The completed resolution's history said why it kept the row typed since, but recorded no rows it had kept
    from before (an empty ``stayed`` was left out): the undo took it for a history written before ``stayed`` and
    counted the row typed since as one it would put back, which its own row read took the place of: neither put
    back nor set aside, the ``-3`` was gone (found by a random run of the lifecycle steps)."""
    table = _gvg_row_typed_over_after_a_cut()
    report = undo_window(table.sheets, table.cls, "the red captain asked")
    assert report.set_aside == 1
    (row,) = _typed(table, "red", "players")
    assert _cells(row) == {"action": "act"}  # the row resolution 1 read, back
    assert "set aside by the GM's undo" in _archive(table, "red") and "Destination: -3" in _archive(table, "red")


def test_an_undo_of_a_history_from_before_stayed_sets_aside_a_noted_row_whose_place_is_taken() -> None:
    """The same history as a version before ``stayed`` wrote it (only the kept row with its note): the noted row
    cannot go back where the row read goes, so it is set aside, never dropped."""
    table = _gvg_row_typed_over_after_a_cut()
    _forget_stayed(table)
    report = undo_window(table.sheets, table.cls, "the red captain asked")
    assert report.set_aside == 1
    assert [_cells(r) for r in _typed(table, "red", "players")] == [{"action": "act"}]
    assert "Destination: -3" in _archive(table, "red")


def test_a_wesnoth_row_typed_ahead_says_it_is_kept_for_its_side_s_turn_once_put_back() -> None:
    table = new_table("wesnoth")
    for _ in range(4):
        type_bot_orders(table.sheets, table.cls, table.bots)
        poll(table.sheets, table.cls, now=NOW)
    read = read_match(table.sheets, table.cls)
    seat = read.record.ruleset.window(read.record.state).seats[0]  # type: ignore[union-attr]
    other = next(s for s in read.record.seats if s != seat)
    unit = [r for r in read.seats[other].rows if r.table == "units"][1].subject
    _put(table, read, other, "units", unit, "action", "move")
    _put(table, read_match(table.sheets, table.cls), other, "units", unit, "to", "A1")
    type_bot_orders(table.sheets, table.cls, {seat: table.bots[seat]})
    assert poll(table.sheets, table.cls, now=NOW).resolved  # the other side's turn opens: her row is read in it
    undo_window(table.sheets, table.cls, "the turn went wrong")
    (row,) = _typed(table, other, "units")
    held = f"Kept for {other}'s next turn: it is read when that opens"
    assert row.feedback.startswith("Put back by the GM's undo of") and row.feedback.count(held) == 1, row.feedback
    # the refusal her turn gave it (too far), nothing typed in it since, stands with it (issue 75)
    line = next(x for x in _archive(table, other).splitlines() if f"{unit} — Action: move, Destination: A1 — " in x)
    assert "✘" in row.feedback and held in line and 0 <= line.find("✘") < line.index(held), line


def test_a_champions_row_typed_ahead_says_it_waits_for_its_table_once_put_back() -> None:
    table = new_table("champions")
    while True:
        read = read_match(table.sheets, table.cls)
        window = read.record.ruleset.window(read.record.state)
        assert window is not None
        if window.phase == "equip_fight":
            break
        type_bot_orders(table.sheets, table.cls, table.bots)
        poll(table.sheets, table.cls, now=NOW)
    seat = window.seats[0]
    _put(table, read, seat, "move_loot", seat, "move", "A1")  # for the next move window, typed in this one
    type_bot_orders(table.sheets, table.cls, table.bots)
    assert poll(table.sheets, table.cls, now=NOW).resolved
    undo_window(table.sheets, table.cls, "a fight went wrong")
    row = next(r for r in _typed(table, seat, "move_loot"))
    held = f"Kept for when this table opens again for {seat}"
    assert row.text("move") == "A1" and row.feedback.startswith("Put back by the GM's undo of"), row.feedback
    assert row.feedback.count(held) == 1, row.feedback


def test_a_standing_reaction_refused_says_so_at_once_after_an_undo_not_kept_until_the_next_poll() -> None:
    """Win or Die: Bo's standing reaction names an ability her unit does not have (✘ in its row). Ann's step
    resolves; the GM undoes it. The reaction stays where it stands, and its row says at once what the next poll says
    of it (its ✘), not 'Kept for …', which read as accepted until the next poll."""
    table, _first = _winordie_step_with_a_refused_row()
    read = read_match(table.sheets, table.cls)
    unit = next(u for u in read.record.state.units if u.owner == "Bo")
    for key, value in {"unit": unit.id, "ability": "Dance"}.items():
        _put(table, read_match(table.sheets, table.cls), "Bo", "reactions", "Reaction 1", key, value)
    poll(table.sheets, table.cls, now=NOW)
    (before,) = _typed(table, "Bo", "reactions")
    assert before.feedback.startswith("✘"), before
    undo_window(table.sheets, table.cls, "Ann-7 was meant to charge")
    (after,) = _typed(table, "Bo", "reactions")
    assert before.feedback in after.feedback and "Kept for" not in after.feedback, after
    poll(table.sheets, table.cls, now=NOW)
    (polled,) = _typed(table, "Bo", "reactions")
    assert polled.feedback == before.feedback
