"""Rows no order is read from are answered in their own feedback cell, listed by sync and status, and kept
through resolutions (issue 20, findings 5 and 9), on the test game "race": a row naming another seat's runner,
a runner the table has no row for, one runner typed in two rows, cells typed in a table's blank row, in the
blank row between two tables and in the one under the last.

Ann's tab: runners in rows 5–7 (Ann-1, Ann-2, a blank row), a blank row 8, notes in 11–13, a blank row 14,
her seat row 17 and a blank row 18; the feedback column is E."""

from __future__ import annotations

import pytest

from sheets_gm.sync.life.adjust_undo import adjust_match
from sheets_gm.sync.poll import poll
from tests.sync.race_game import RACE, RaceRuleset, registered_race
from tests.sync.test_generic_sync import NOW, archive_lines, feedback, new_race, tabs, tick_ready, type_pace

__all__ = ["registered_race"]  # the fixture, used by name

HELD = " · You typed in this cell: "  # what she typed in a blank row's feedback cell, kept in the answer


def test_another_seats_runner_typed_in_a_blank_row_is_not_read_and_says_whose_it_is(
        registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, bo) = new_race()
    ann.type("Orders Ann", "A7", "Bo-1")
    ann.type("Orders Ann", "B7", "1")
    type_pace(ann, "Ann", 2, "run")
    report = poll(sheets, RACE, now=NOW)
    answer = feedback(ann, "Ann", "runners", 2)
    assert answer == "✘ Bo-1 is Bo's: Bo's orders go in Bo's own file (Bo, tab Orders Bo); nothing in this row is read."
    assert ("Ann · Bo-1 (row 7)", answer.removeprefix("✘ ")) in report.rejected
    assert ann.value("Orders Ann", "D7") == "run"  # not set aside, not cleared
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    resolved = poll(sheets, RACE, now=NOW)
    assert resolved.resolved and resolved.state.at["Bo-1"] == resolved.state.at["Bo-2"]  # Ann's "run" ran no one
    assert [ann.value("Orders Ann", c) for c in ("A7", "D7")] == ["Bo-1", "run"]  # kept through the resolution
    assert feedback(ann, "Ann", "runners", 2).startswith("✘ Bo-1 is Bo's")


def test_a_runner_the_table_has_no_row_for_and_a_runner_typed_twice_are_refused_naming_the_rows(
        registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, _bo) = new_race()
    type_pace(ann, "Ann", 0, "walk")
    ann.type("Orders Ann", "A7", "Ann-1")
    type_pace(ann, "Ann", 2, "run")
    ann.type("Orders Ann", "A13", "Zed-9")
    ann.type("Orders Ann", "C13", "hello")
    report = poll(sheets, RACE, now=NOW)
    twice = "✘ Ann-1 has 2 typed rows in this table (rows 5 and 7): none is read until one is left; clear the others."
    assert feedback(ann, "Ann", "runners", 0) == twice and feedback(ann, "Ann", "runners", 2) == twice
    assert feedback(ann, "Ann", "notes", 2) == ("✘ This table has no row for Zed-9 now (its rows are Ann-1, Ann-2): "
                                                "nothing in this row is read; write in the row of the runner you mean.")
    assert {who for who, _why in report.rejected} >= {"Ann · Ann-1 (row 5)", "Ann · Ann-1 (row 7)",
                                                      "Ann · Zed-9 (row 13)"}
    ann.type("Orders Ann", "D7", "")  # the second row cleared: the first is read again, the second emptied
    poll(sheets, RACE, now=NOW)
    assert feedback(ann, "Ann", "runners", 0) != twice and not ann.value("Orders Ann", "A7")


def test_what_is_typed_outside_the_tables_is_answered_in_its_row_and_kept(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, bo) = new_race()
    ann.type("Orders Ann", "A8", "Bo")  # the blank row under the runners
    ann.type("Orders Ann", "D8", "run")
    ann.type("Orders Ann", "C18", "walk")  # the blank row under the last table
    ann.type("Orders Ann", "E14", "remember to run")  # the feedback cell of a blank row is open too
    ann.type("Orders Ann", "D7", "run")  # a table's row with no runner
    report = poll(sheets, RACE, now=NOW)
    assert ann.value("Orders Ann", "E8") == ("✘ Row 8 is between two tables: nothing typed in it is read. Bo's orders "
                                             "go in Bo's own file (Bo, tab Orders Bo), not in Ann's.")
    assert ann.value("Orders Ann", "E18") == ("✘ Row 18 is under the last table, which ends at row 17: nothing typed "
                                              "in it is read; write orders in the rows of the tables.")
    assert ann.value("Orders Ann", "E14") == ("✘ Row 14 is between two tables: nothing typed in it is read; write "
                                              f"orders in the rows of the tables.{HELD}remember to run")
    assert feedback(ann, "Ann", "runners", 2) == ("✘ This row has no Runner: nothing typed in it is read; write in "
                                                  "the row of the runner it is for.")
    assert {who for who, _why in report.rejected} >= {"Ann · row 7", "Ann · row 8", "Ann · row 14", "Ann · row 18"}
    assert poll(sheets, RACE, now=NOW).feedback_written == 0  # the answers stand: nothing to write again
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    assert poll(sheets, RACE, now=NOW).resolved
    assert [ann.value("Orders Ann", c) for c in ("D7", "D8", "C18")] == ["run", "run", "walk"]
    assert str(ann.value("Orders Ann", "E14")).endswith(f"{HELD}remember to run")
    for cell in ("A8", "D8", "C18", "D7"):
        ann.type("Orders Ann", cell, "")
    poll(sheets, RACE, now=NOW)  # cleared: the answers go too (but the one holding what she typed)
    assert [ann.value("Orders Ann", c) for c in ("E8", "E18", "E7")] == ["", "", ""]
    assert str(ann.value("Orders Ann", "E14")).endswith(f"{HELD}remember to run")


def test_in_one_spreadsheet_another_seats_row_points_to_its_tab(registered_race: type[RaceRuleset]) -> None:
    sheets, (match,) = new_race(separate=False)
    match.type("Orders Ann", "A8", "Bo")
    match.type("Orders Ann", "B8", "run")
    poll(sheets, RACE, now=NOW)
    assert "Bo's orders go in Bo's own tab, Orders Bo, not in Ann's" in str(match.value("Orders Ann", "E8"))
    assert tabs().orders("Ann").blank_rows() == [8, 14, 18]


def test_the_gms_adjust_redraws_the_tables_around_a_stray_row(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, _bo) = new_race()
    ann.type("Orders Ann", "A7", "Bo-1")
    type_pace(ann, "Ann", 2, "run")
    poll(sheets, RACE, now=NOW)
    adjust_match(sheets, RACE, [{"runner": "Bo-2", "stamina": 0, "reason": "a cramp"}])
    assert [ann.value("Orders Ann", c) for c in ("A7", "D7")] == ["Bo-1", "run"]
    assert feedback(ann, "Ann", "runners", 2).startswith("✘ Bo-1 is Bo's")


def test_a_subject_cell_changed_by_hand_with_nothing_typed_is_drawn_again(registered_race: type[RaceRuleset]) -> None:
    """A subject cell is sheets-gm's (protected; a player cannot clear one): one cleared or written by hand in a row
    with nothing typed is put back as drawn, or emptied past the table's subjects, instead of standing refused."""
    sheets, (_board, _engine, ann, _bo) = new_race()
    ann.type("Orders Ann", "A5", "")
    ann.type("Orders Ann", "A6", "Zed-9")
    ann.type("Orders Ann", "A7", "Zed-8")
    ann.type("Orders Ann", "E7", "✘ This table has no row for Zed-8 now")
    report = poll(sheets, RACE, now=NOW)
    assert [ann.value("Orders Ann", c) for c in ("A5", "B5", "A6", "B6", "A7")] == ["Ann-1", "1", "Ann-2", "1", ""]
    assert not report.rejected
    # what was written over a name is not a name sheets-gm draws: kept in the Archive, and the row says so once
    assert ann.value("Orders Ann", "E5") == ""
    for cell, drawn in (("E6", "Ann-2 was written back"), ("E7", "the row was emptied")):
        assert "Runner is drawn by sheets-gm and is not read" in str(ann.value("Orders Ann", cell))
        assert drawn in str(ann.value("Orders Ann", cell)) and "'Archive Ann'" in str(ann.value("Orders Ann", cell))
    lines = archive_lines(ann, "Ann")
    assert lines[0].startswith("Set aside, never read as orders: typed where sheets-gm draws each row's name")
    assert lines[1:] == ["    · row 6 — Runner: Zed-9", "    · row 7 — Runner: Zed-8"]
    poll(sheets, RACE, now=NOW)  # the rows are as drawn now: the next poll answers them as any other
    assert archive_lines(ann, "Ann")[1:] == ["    · row 6 — Runner: Zed-9", "    · row 7 — Runner: Zed-8"]


def test_a_post_pasted_over_a_name_is_kept_by_a_resolution_and_by_repair(registered_race: type[RaceRuleset]) -> None:
    """No poll comes between the paste and the resolution (the GM forces it), or ``repair`` runs first: the text
    written over a runner's name is in the Archive all the same, never drawn over."""
    from sheets_gm.sync.life.repair import repair_match

    sheets, (_board, _engine, ann, bo) = new_race()
    ann.type("Orders Ann", "A6", "Ann-1 run, Ann-2 walk (pasted)")
    assert poll(sheets, RACE, now=NOW, force=True).resolved
    assert ann.value("Orders Ann", "A6") == "Ann-2"
    assert "    · row 6 — Runner: Ann-1 run, Ann-2 walk (pasted)" in archive_lines(ann, "Ann")
    bo.type("Orders Bo", "A5", "Bo's post")
    repair_match(sheets, RACE)  # the name drawn back, what was typed there in the Archive, as a poll keeps it
    assert bo.value("Orders Bo", "A5") == "Bo-1" and bo.value("Orders Bo", "A7") in (None, "")
    assert "    · row 5 — Runner: Bo's post" in archive_lines(bo, "Bo")


@pytest.mark.parametrize("by", ["resolution", "repair"])
def test_a_stray_row_left_no_free_row_by_a_redraw_is_kept_in_the_archive(
        registered_race: type[RaceRuleset], by: str) -> None:
    """Ann types Bo's runners over both of her rows, and something in every blank row: the redrawn table needs her
    rows back, one stray row moves to the table's free row, and the other has nowhere left but the Archive."""
    from sheets_gm.sync.life.repair import repair_match

    sheets, (_board, _engine, ann, _bo) = new_race()
    for row, runner in ((5, "Bo-1"), (6, "Bo-2")):
        ann.type("Orders Ann", f"A{row}", runner)
        ann.type("Orders Ann", f"D{row}", "run")
    for row in (8, 14, 18):
        ann.type("Orders Ann", f"C{row}", f"note {row}")
    if by == "repair":
        repair_match(sheets, RACE)
    else:
        assert poll(sheets, RACE, now=NOW, force=True).resolved
    assert [ann.value("Orders Ann", c) for c in ("A5", "A6", "A7", "D7")] == ["Ann-1", "Ann-2", "Bo-1", "run"]
    assert [ann.value("Orders Ann", f"C{row}") for row in (8, 14, 18)] == ["note 8", "note 14", "note 18"]
    lines = archive_lines(ann, "Ann")
    said = next(i for i, line in enumerate(lines) if "no free row left to keep it in" in line)
    assert lines[said + 1] == "    · row 6 — Runner: Bo-2, Pace: run"


def test_a_name_typed_over_in_a_row_with_orders_is_written_back_and_the_row_read_as_the_one_drawn_there(
        registered_race: type[RaceRuleset]) -> None:
    """A typo in a row's name cell (sheets-gm's) beside orders typed in the same row: the row is still the one drawn
    there (the name is no runner of any table, nor another seat's), so it is read as that runner's; the name is
    written back and what was typed there kept in the Archive. Left as a stray row, a seat's one row (Champions'
    move and loot, with its Ready) was never read and a forced window resolved her turn with nothing."""
    sheets, (_board, _engine, ann, _bo) = new_race()
    type_pace(ann, "Ann", 1, "run")
    ann.type("Orders Ann", "A6", "Ann-22")
    report = poll(sheets, RACE, now=NOW)
    assert not report.rejected, report.rejected
    assert ann.value("Orders Ann", "A6") == "Ann-2"
    assert not feedback(ann, "Ann", "runners", 1).startswith("✘"), feedback(ann, "Ann", "runners", 1)
    assert "    · row 6 — Runner: Ann-22" in archive_lines(ann, "Ann")
    ann.type("Orders Ann", "A6", "Ann-23")  # and a forced resolution with no poll in between reads it too
    assert poll(sheets, RACE, now=NOW, force=True).resolved
    assert ann.value("Orders Ann", "A6") == "Ann-2"
    lines = archive_lines(ann, "Ann")
    assert "    · row 6 — Runner: Ann-23" in lines, lines
    assert any(line.startswith("    · Ann-2 — ") and "run" in line for line in lines), lines
