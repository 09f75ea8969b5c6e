"""A game drawing more than one public tab (the test race draws its track and its standings): each tab laid
out once, every drawn tab rewritten in the resolution's one write, the idle poll reading only the board
tab's title, repair bringing back a drawn tab and deleting a tab an earlier layout drew."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.sheets.backend import LayoutDriftError, SheetError
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.layout_requests import layout_requests
from sheets_gm.sheets.layout import Dropdown, TabLayout, WorkbookLayout
from sheets_gm.sheets.local.backend import create_workbook
from sheets_gm.sheets.spec import TabNames
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import GoogleApiFake, fake_client
from tests.sync.race_game import RACE, STANDINGS_TAB, RaceRuleset, RaceSettings, as_ruleset, registered_race
from tests.sync.test_generic_sync import NOW, SEATS, SEED, new_race, tabs, tick_ready, type_pace
from tests.sync.test_sync_google import policy

__all__ = ["registered_race"]  # the fixture, used by name


def test_each_drawn_tab_is_laid_out_in_order_with_the_title_and_status(registered_race: type[RaceRuleset]) -> None:
    _sheets, (board, _engine, _ann, _bo) = new_race()
    assert list(board.tabs)[:2] == ["Board", STANDINGS_TAB]  # the drawings' order, before Log and Settings
    assert board.value(STANDINGS_TAB, "A1") == "Runner" and board.value(STANDINGS_TAB, "A2") == "Ann-1"
    assert "race track" in str(board.value(STANDINGS_TAB, "D1"))  # right of the 2 columns and a gap
    assert board.value(STANDINGS_TAB, "D2") == "Turn 1."


def test_the_idle_poll_reads_the_board_tab_and_the_log_s_header_and_end_only(
        registered_race: type[RaceRuleset]) -> None:
    sheets, backends = new_race()
    board = backends[0]
    poll(sheets, RACE, now=NOW)
    for b in backends:
        b.calls.clear()
    board.ranges_read.clear()
    poll(sheets, RACE, now=NOW)
    assert [b.calls for b in backends] == [["read"]] * 4
    # never the standings (the poll does not need them); the board (its title checked, its drawn cells compared:
    # nothing typed over, nothing written); the Log's header row, which a resolution writes under; the Log from the
    # block of lines its last is in to the tab's end (empty, unless a line was typed below it: the poll clears it)
    assert board.ranges_read == ["'Board'", "'Log'!A1:C1", "'Log'!A2:C20000"]


def test_a_resolution_rewrites_every_drawn_tab_in_its_one_write(registered_race: type[RaceRuleset]) -> None:
    sheets, (board, _engine, ann, bo) = new_race()
    type_pace(ann, "Ann", 0, "walk")
    type_pace(bo, "Bo", 0, "walk")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    board.calls.clear()
    assert poll(sheets, RACE, now=NOW).resolved
    assert board.calls == ["read", "write"]
    assert board.value(STANDINGS_TAB, "A2") in ("Ann-1", "Bo-1") and board.value(STANDINGS_TAB, "B2") == 2
    assert board.value(STANDINGS_TAB, "D2") == board.value("Board", "K2") == "Turn 2."


def test_an_adapter_must_draw_the_board_tab_once_and_no_tab_twice(registered_race: type[RaceRuleset]) -> None:
    one = BoardDrawing([["x"]])
    with pytest.raises(SheetError, match="must draw the board tab 'Board' exactly once, not 0 times"):
        tabs().drawn([BoardDrawing([["x"]], tab="Standings")])
    with pytest.raises(SheetError, match="draws a tab 'Standings' that is already a tab"):
        tabs().drawn([one, BoardDrawing([["x"]], tab="Standings"), BoardDrawing([["y"]], tab="Standings")])
    with pytest.raises(SheetError, match="draws a tab 'Log'"):
        tabs().drawn([one, BoardDrawing([["x"]], tab="Log")])


def test_repair_brings_back_a_drawn_tab_and_deletes_a_retired_one(registered_race: type[RaceRuleset],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    sheets, (board, _engine, _ann, _bo) = new_race()
    del board.tabs[STANDINGS_TAB]
    board.tabs["Old track"] = {(0, 0): "drawn by an earlier version"}
    board.sizes["Old track"] = (1, 1)
    spec = tabs().spec
    retiring = spec.model_copy(update={"tabs": spec.tabs.model_copy(update={"retired": ("Old track",)})})
    monkeypatch.setattr("sheets_gm.sync.life.repair.sheet_spec", lambda name: retiring)
    report = repair_match(sheets, RACE)
    assert STANDINGS_TAB in board.tabs and board.value(STANDINGS_TAB, "A1") == "Runner"
    assert "Old track" not in board.tabs
    assert report.notes == ["tab 'Old track' of an earlier layout was deleted from board: what it showed is drawn "
                            "in the new tabs"]


def test_a_local_workbook_deletes_a_retired_tab_and_keeps_other_tabs(tmp_path: Path,
                                                                     registered_race: type[RaceRuleset]) -> None:
    path = tmp_path / "match.xlsx"
    backend = create_workbook(path, WorkbookLayout("t", (TabLayout("Board", rows=1, cols=1),)))
    rules = RaceRuleset(RaceSettings(), "track 8")
    sheets = MatchSheets.single(SEATS, backend)
    create_match(sheets, as_ruleset(rules), rules.sample_roster(), seed=SEED)
    keep = TabLayout("Notes", rows=2, cols=2, values={"A1": [["the GM's own notes"]]})
    backend.apply_layout(WorkbookLayout("t", (keep,)))
    backend.apply_layout(WorkbookLayout("t", (keep,), retired=(STANDINGS_TAB, "Notes", "Absent")))
    names = backend.tab_names()
    assert STANDINGS_TAB not in names and "Notes" in names and "Board" in names  # only the retired tab goes


def test_google_deletes_a_retired_tab_last_and_only_if_present() -> None:
    metadata = {"sheets": [{"properties": {"sheetId": 7, "title": "Board", "index": 0}}]}
    plane = TabLayout("Dominaria", rows=2, cols=2)
    reqs = layout_requests(WorkbookLayout("t", (plane,), retired=("Board", "Absent")), metadata)
    assert reqs[-1] == {"deleteSheet": {"sheetId": 7}}
    assert sum("deleteSheet" in r for r in reqs) == 1
    assert not any("deleteSheet" in r for r in layout_requests(WorkbookLayout("t", (plane,)), metadata))


def test_a_retired_tab_cannot_be_a_tab_of_the_layout() -> None:
    with pytest.raises(ValueError, match="retired tab 'Log' is also a tab of this layout"):
        TabNames(retired=("Log",))


def test_google_deletes_a_retired_tab_through_the_api() -> None:
    key = "1BoardKey_sheetsgm_retired_000000000000000"
    with GoogleApiFake() as fake:
        fake.create_spreadsheet(key, "board", ("Board", "Log"))
        backend = GoogleSheetBackend(fake_client(), key, retry=policy(FakeClock()), title="board")
        log = TabLayout("Log", rows=2, cols=2)
        backend.apply_layout(WorkbookLayout("t", (TabLayout("Dominaria", rows=2, cols=2), log), retired=("Board",)))
        assert backend.tab_names() == ["Dominaria", "Log"]


def test_google_lists_a_dropdown_from_a_range_without_refusing_what_is_typed() -> None:
    metadata = {"sheets": [{"properties": {"sheetId": 3, "title": "Orders Ann", "index": 0}},
                           {"properties": {"sheetId": 4, "title": "View Ann", "index": 1}}]}
    orders = TabLayout("Orders Ann", rows=10, cols=4, dropdowns=(Dropdown("C3:C6", (), source="'View Ann'!H4:H9"),))
    reqs = layout_requests(WorkbookLayout("t", (orders, TabLayout("View Ann", rows=10, cols=8))), metadata)
    [rule] = [r["setDataValidation"]["rule"] for r in reqs if "setDataValidation" in r]
    assert rule == {"condition": {"type": "ONE_OF_RANGE", "values": [{"userEnteredValue": "='View Ann'!H4:H9"}]},
                    "strict": False, "showCustomUi": True}


def test_a_poll_stops_naming_a_written_tab_whose_heading_was_typed_over(registered_race: type[RaceRuleset]) -> None:
    """The Log and the View tabs are written at every resolution and read by no poll: their heading is checked, so
    a tab typed over (or deleted) stops the sync before anything is written, as the README promises."""
    sheets, backends = new_race()
    board = backends[0]
    for where, text in (("A1", "Round"), ("B1", "Sort"), ("C1", "Events")):  # no cell in place: a row moved?
        board.type("Log", where, text)
    with pytest.raises(LayoutDriftError, match=re.escape("tab 'Log' row 1 should say 'Turn | Kind | What happened' "
                                                         "but says 'Round | Sort | Events'")):
        poll(sheets, RACE, now=NOW)
    for where, text in (("A1", "Turn"), ("B1", "Kind"), ("C1", "What happened")):
        board.type("Log", where, text)
    seat = backends[2]
    seat.type("View Ann", "A1", "My notes")
    with pytest.raises(LayoutDriftError, match="tab 'View Ann' cell A1 should say"):
        poll(sheets, RACE, now=NOW)


def test_drawn_cells_typed_over_are_drawn_again_at_the_next_poll(registered_race: type[RaceRuleset]) -> None:
    """A board cell and a cell of the Log's header typed over (the rest of the header in place) are put back by the
    next poll, which resolves nothing; the poll says which tabs it drew again."""
    sheets, backends = new_race()
    board = backends[0]
    poll(sheets, RACE, now=NOW)
    drawn = {k: v for k, v in board.tabs["Board"].items()}
    cell = next(k for k, v in sorted(drawn.items()) if v not in (None, ""))
    board.tabs["Board"][cell] = "scribble"
    board.type("Log", "B1", "Sort")
    report = poll(sheets, RACE, now=NOW)
    assert not report.resolved
    assert board.tabs["Board"][cell] == drawn[cell]
    assert board.value("Log", "B1") == "Kind"
    assert report.drawn_again == ["Board", "Log (header)"]
    for b in backends:
        b.calls.clear()
    assert poll(sheets, RACE, now=NOW).drawn_again == []
    assert [b.calls for b in backends] == [["read"]] * 4  # drawn as it should be: nothing written
