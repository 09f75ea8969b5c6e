"""A match whose house setting narrows its tabs (Wesnoth's batch mode has no Go column, so every feedback column is
one to the left of the game's widest layout, in which repair and the poll read a tab): repair writes the stray rows
it keeps in the match's own columns, never past the feedback column, and the poll guards its writes with the cells
of the range it read (issue 38; both found by random runs of the lifecycle steps on a batch-mode table: repair
stopped with its write refused, and a poll after a column inserted and repaired stopped for ever, 'saved
meanwhile')."""

from __future__ import annotations

from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import a1, cell_at, quote_tab
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import seat_backend
from tests.conformance.test_input_lifecycle import NOW, _do, _insert_column, _named, new_table, run
from tests.fakes.memory import MemoryBackend


def test_repair_of_a_batch_match_keeps_a_blank_rows_text_in_the_tabs_own_columns_and_archives_a_name() -> None:
    table = new_table("wesnoth-batch")
    read = table.read()
    tab = read.seats["Ann"].tab
    backend = seat_backend(table.sheets, read.tabs, "Ann")
    assert isinstance(backend, MemoryBackend)
    recruit = tab.table("recruit")
    blank = next(r for r in tab.blank_rows() if r > tab.table("units").last_row)
    backend.write([RangeWrite(recruit.at(recruit.cell(0, "entry")), [["name 20"]]),  # a recruit row's name typed over
                   RangeWrite(a1(tab.name, cell_at(2, blank)), [["a note"]])])  # text in a blank row
    report = repair_match(table.sheets, table.cls)
    after = read_match(table.sheets, table.cls)
    width = after.seats["Ann"].tab.width
    assert width == tab.width  # the batch layout: no Go column
    grid = backend.read([quote_tab(tab.name)])[0]
    assert not any(line[width:] for line in grid), "repair wrote past the tab's feedback column"
    line = next(line for line in grid if "a note" in map(str, line))  # kept in the tab, answered in its row
    assert len(line) == width and str(line[-1]).startswith("✘"), (line, report.notes)
    assert "name 20" not in [r.subject for r in after.seats["Ann"].rows]  # the name drawn again, the text archived
    assert _named(backend, after.tabs.archive("Ann"), "name 20"), report.notes
    poll(table.sheets, table.cls, now=NOW)
    assert _named(backend, table.read().tabs.archive("Ann"), "name 20")


def test_a_batch_tab_with_text_right_of_its_feedback_column_is_written_by_the_next_poll() -> None:
    """A column inserted in a batch-mode tab, then repaired: the old feedback column, pushed right, is one past the
    match's feedback column and inside the game's widest layout, in which the poll reads the tab. The poll guarded
    its writes with the cells it read under the narrower range, so every write saw that column 'saved meanwhile'
    and the sync stopped after four tries, for ever (found by a random run of the lifecycle steps)."""
    table = new_table("wesnoth-batch")
    read = table.read()
    backend = seat_backend(table.sheets, read.tabs, "Ann")
    _insert_column(backend, read.tabs.orders("Ann").name, 1)
    repair_match(table.sheets, table.cls)
    _do(table, "ready", 0, 0, 0)  # Ann's End turn: the poll writes her tab
    report = poll(table.sheets, table.cls, now=NOW)
    assert report.resolved and not report.saved_meanwhile


def test_repair_of_a_batch_match_lays_a_row_stamped_for_another_window_in_the_tabs_own_columns() -> None:
    """A row the cut resolution left stamped for the window it closed, then repair before the next poll: the row,
    read in the game's widest layout, carries the Go column the batch table has not; repair stopped on it
    (KeyError) instead of laying the row's cells in the match's columns (found by the lifecycle examples on the
    batch table). The lifecycle check then finds every typed cell in its row, resolved or set aside."""
    table = new_table("wesnoth-batch")
    _do(table, "type", 0, 1271, 0)
    _do(table, "cut", 0, 0, 0)
    assert any(s.pending is not None for s in table.read().seats.values())
    run(table, [("repair", 0, 0, 8561)])
