"""A write that answers with ranges as they stand after it (``read_back``), on every backend.

What comes back must be exactly what a ``read`` right after the write returns: formulas as their text,
numbers, booleans, rows and cells past the data trimmed. On Google it is one spreadsheets.batchUpdate and
no read; locally it is taken from the workbook as saved, without loading the file again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.sheets.backend import RangeWrite, SheetBackend, SheetError
from sheets_gm.sheets.google import backend as google_backend
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.snapshot import snapshot_grids
from sheets_gm.sheets.layout import CellValue, Fill, Grid, TabLayout, WorkbookLayout
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.retry import RetryPolicy
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import (
    BATCH_UPDATE,
    GET,
    READ,
    WRITE,
    GoogleApiFake,
    fake_client,
    iter_bodies,
)
from tests.fakes.memory import MemoryBackend
from tests.sheets.test_local_backend import backend_for, count_loads, make_book

KEY = "1GvGreadBackSpreadsheetKey_abcdefghijk"
TABS = {"Board": (30, 20), "Orders red": (20, 8)}

#: What players typed before our write, cell by cell.
TYPED: list[tuple[str, str, CellValue]] = [
    ("Board", "A1", "=1+1"), ("Board", "C1", 7), ("Board", "D1", 2.5), ("Board", "A3", True),
    ("Orders red", "B2", "move 3C"),
]
WRITES = [RangeWrite("Board!B2:C2", [["ours", 5]]), RangeWrite("'Orders red'!A1", [["x"]])]
RANGES = ["Board!A1:F10", "Board!B2:D", "Board", "'Orders red'!A1:F3", "'Orders red'!C5:D9", "Board!A1:F10"]
EXPECTED: list[Grid] = [
    [["=1+1", "", 7, 2.5], ["", "ours", 5], [True]],
    [["ours", 5]],
    [["=1+1", "", 7, 2.5], ["", "ours", 5], [True]],
    [["x"], ["", "move 3C"]],
    [],
    [["=1+1", "", 7, 2.5], ["", "ours", 5], [True]],
]


@dataclass
class Spreadsheet:
    """A backend and how a player types into it (as the backend's players do: in Google, in an office program
    that saves the file, in memory)."""

    backend: SheetBackend
    type: Callable[[str, str, CellValue], None]


def _memory() -> Spreadsheet:
    backend = MemoryBackend()
    backend.apply_layout(WorkbookLayout("t", tuple(TabLayout(n, r, c) for n, (r, c) in TABS.items())))
    return Spreadsheet(backend, backend.type)


def _local(path: Path) -> Spreadsheet:
    make_book(path, {name: {} for name in TABS})

    def type_and_save(tab: str, cell: str, value: CellValue) -> None:
        wb = openpyxl.load_workbook(path)
        wb[tab][cell] = value
        wb.save(path)

    return Spreadsheet(backend_for(path), type_and_save)


def _google(fake: GoogleApiFake, policy: RetryPolicy) -> Spreadsheet:
    fake.create_spreadsheet(KEY, "read back", TABS)
    return Spreadsheet(GoogleSheetBackend(fake_client(), KEY, retry=policy),
                       lambda tab, cell, value: fake.set_values(KEY, f"'{tab}'!{cell}", [[value]]))


@pytest.fixture
def fake() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as f:
        yield f
    assert not f.violations, f.violations


@pytest.fixture
def policy() -> RetryPolicy:
    clock = FakeClock()
    return RetryPolicy(deadline=60, time=clock.time, sleep=clock.sleep, random=lambda: 0.5)


@pytest.fixture(params=["memory", "local", "google"])
def sheet(request: pytest.FixtureRequest, tmp_path: Path, fake: GoogleApiFake, policy: RetryPolicy) -> Spreadsheet:
    if request.param == "memory":
        return _memory()
    if request.param == "local":
        return _local(tmp_path / "match.xlsx")
    return _google(fake, policy)


# --------------------------------------------------------------------------- every backend


def test_the_answer_is_what_a_read_right_after_gives(sheet: Spreadsheet) -> None:
    for tab, cell, value in TYPED:  # a player's edits, made before our write: in the answer
        sheet.type(tab, cell, value)
    answer = sheet.backend.write(WRITES, read_back=RANGES)
    assert answer == EXPECTED
    assert answer == sheet.backend.read(RANGES)


def test_without_read_back_the_answer_is_empty(sheet: Spreadsheet) -> None:
    assert sheet.backend.write(WRITES) == []
    assert sheet.backend.read(["Board!B2:C2"]) == [[["ours", 5]]]


def test_nothing_to_write_reads_the_ranges(sheet: Spreadsheet) -> None:
    sheet.type("Board", "A1", "typed")
    assert sheet.backend.write([], read_back=["Board!A1:B2"]) == [[["typed"]]]


def test_a_range_on_a_missing_tab_fails_the_write_and_writes_nothing(sheet: Spreadsheet) -> None:
    with pytest.raises(SheetError):
        sheet.backend.write(WRITES, read_back=["Board!A1", "Mirrodin!A1:B2"])
    assert sheet.backend.read(["Board!B2:C2"]) == [[]]


# --------------------------------------------------------------------------- Google


@pytest.fixture
def laid_out(fake: GoogleApiFake, policy: RetryPolicy) -> GoogleSheetBackend:
    """A Google spreadsheet laid out by this backend (so it knows the tabs' ids), its cells filled with a colour
    (so Google's answer has cells with a format and no value), the counters zeroed."""
    fake.create_spreadsheet(KEY, "read back", TABS)
    backend = GoogleSheetBackend(fake_client(), KEY, retry=policy)
    fills = (Fill("A1:H12", "#FFF8E1"),)
    backend.apply_layout(WorkbookLayout("read back", (TabLayout("Board", 30, 20, fills=fills),
                                                      TabLayout("Orders red", 20, 8, fills=fills))))
    fake.reset_counters()
    return backend


def test_on_google_it_is_one_batch_update_and_no_read(laid_out: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    for tab, cell, value in TYPED:
        fake.set_values(KEY, f"'{tab}'!{cell}", [[value]])
    assert laid_out.write(WRITES, read_back=RANGES) == EXPECTED
    assert fake.calls() == 1 and fake.calls(BATCH_UPDATE) == 1
    assert fake.calls(READ) == 0 and fake.calls(GET) == 0 and fake.calls(WRITE) == 0


def test_the_request_google_is_sent(laid_out: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    laid_out.write(WRITES, read_back=RANGES)
    (body,) = iter_bodies(fake, BATCH_UPDATE)
    assert body["includeSpreadsheetInResponse"] is True and body["responseIncludeGridData"] is True
    assert body["responseRanges"] == list(dict.fromkeys(RANGES))  # a range asked twice is sent once
    assert [next(iter(r)) for r in body["requests"]] == ["updateCells", "updateCells"]
    (fields,) = fake.log[-1].query["fields"]
    assert fields.startswith("updatedSpreadsheet.sheets(") and "userEnteredValue" in fields


def test_the_answer_is_cut_to_what_the_snapshot_needs(laid_out: GoogleSheetBackend, fake: GoogleApiFake,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    answers: list[Any] = []
    real = snapshot_grids

    def spy(payload: Any, ranges: Sequence[str]) -> list[Grid] | None:
        answers.append(payload)
        return real(payload, ranges)

    monkeypatch.setattr(google_backend, "snapshot_grids", spy)
    laid_out.write(WRITES, read_back=["Board!B2:C2"])
    (answer,) = answers
    assert answer == {"updatedSpreadsheet": {"sheets": [{"properties": {"title": "Board"}, "data": [
        {"startRow": 1, "startColumn": 1, "rowData": [{"values": [
            {"userEnteredValue": {"stringValue": "ours"}, "formattedValue": "ours"},
            {"userEnteredValue": {"numberValue": 5}, "formattedValue": "5"}]}]}]}]}}


def test_a_players_edit_between_our_read_and_our_write_is_in_the_answer(
        laid_out: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    assert laid_out.read(["'Orders red'!A1:E6"]) == [[]]
    fake.set_values(KEY, "'Orders red'!A4:C4", [["attack", "=B1", "TRUE"]])
    assert laid_out.write([RangeWrite("'Orders red'!A1", [["turn 2"]])], read_back=["'Orders red'!A1:E6"]) == [
        [["turn 2"], [], [], ["attack", "=B1", True]]]
    assert fake.calls(READ) == 1  # the one before the write


def test_stale_tab_ids_are_asked_again_and_the_answer_still_comes(
        fake: GoogleApiFake, policy: RetryPolicy, tmp_path: Path) -> None:
    fake.create_spreadsheet(KEY, "read back", TABS)
    ids = tmp_path / "ids.json"
    ids.write_text(json.dumps({KEY: {"board": 987654, "orders red": 5}}), encoding="utf-8")
    backend = GoogleSheetBackend(fake_client(), KEY, retry=policy, sheet_ids=ids)
    fake.set_values(KEY, "Board!E5", [["typed"]])
    assert backend.write([RangeWrite("Board!A1", [["x"]])], read_back=["Board!A1:E5"]) == [
        [["x"], [], [], [], ["", "", "", "", "typed"]]]
    assert fake.calls(BATCH_UPDATE) == 2 and fake.calls(GET) == 1 and fake.calls(READ) == 0


def test_an_answer_that_does_not_match_the_ranges_is_read_instead(
        laid_out: GoogleSheetBackend, fake: GoogleApiFake, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(google_backend, "snapshot_grids", lambda payload, ranges: None)
    assert laid_out.write(WRITES, read_back=["Board!A1:C2"]) == [[[], ["", "ours", 5]]]
    assert fake.calls(BATCH_UPDATE) == 1 and fake.calls(READ) == 1


def _answer(*sheets: tuple[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return {"updatedSpreadsheet": {"sheets": [{"properties": {"title": t}, "data": d} for t, d in sheets]}}


def test_google_cells_become_what_the_values_api_gives() -> None:
    row = [
        {"userEnteredValue": {"formulaValue": "=NOW()"}, "formattedValue": "3/4/2026",
         "effectiveFormat": {"numberFormat": {"type": "DATE"}}},
        {"userEnteredValue": {"numberValue": 46085}, "formattedValue": "3/4",
         "effectiveFormat": {"numberFormat": {"type": "DATE"}}},  # a player typed 3/4: read as the text shown
        {"userEnteredValue": {"numberValue": 0.25}, "formattedValue": "25%",
         "effectiveFormat": {"numberFormat": {"type": "PERCENT"}}},  # any other format: the number
        {"userEnteredValue": {"errorValue": {"type": "N_A", "message": "x"}}, "formattedValue": "#N/A"},
        {"userEnteredValue": {"boolValue": False}, "formattedValue": "FALSE"},
        {},
        {"effectiveFormat": {"numberFormat": {"type": "DATE"}}},
        {},
    ]
    answer = _answer(("Board", [{"rowData": [{"values": row}, {}, {"values": [{}, {}]}]}]))
    assert snapshot_grids(answer, ["Board!A1:J9"]) == [[["=NOW()", "3/4", 0.25, "#N/A", False]]]


def test_google_grids_are_matched_to_the_ranges_by_tab_then_by_order() -> None:
    answer = _answer(
        ("Board", [{"startRow": 1, "rowData": [{"values": [{"userEnteredValue": {"stringValue": "b"}}]}]},
                   {"startColumn": 2, "rowData": [{"values": [{"userEnteredValue": {"stringValue": "c"}}]}]}]),
        ("Orders red", [{"rowData": [{"values": [{"userEnteredValue": {"stringValue": "o"}}]}]}]),
    )
    ranges = ["'Orders red'!A1:B2", "board!A2:B3", "Board!C1:D2"]
    assert snapshot_grids(answer, ranges) == [[["o"]], [["b"]], [["c"]]]


@pytest.mark.parametrize("ranges", [
    ["Board!A1:B2", "Board!C1:D2", "Board!E1"],  # one grid missing
    ["Board!A1:B2", "Board!C1:D2", "Orders!A1"],  # a tab missing
    ["Board!A1:B2"],  # a grid too many
    ["Board!B5:C6", "Board!C1:D2"],  # starts elsewhere
])
def test_google_grids_that_do_not_fit_the_ranges_are_refused(ranges: list[str]) -> None:
    answer = _answer(("Board", [{"rowData": [{"values": [{}]}]}, {"startColumn": 2}]))
    assert snapshot_grids(answer, ["Board!A1:B2", "Board!C1:D2"]) == [[], []]
    assert snapshot_grids(answer, ranges) is None


# --------------------------------------------------------------------------- local


def test_locally_the_answer_comes_from_the_workbook_as_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = _local(tmp_path / "match.xlsx")
    assert isinstance(sheet.backend, LocalWorkbookBackend)
    sheet.backend.read(["Board!A1"])
    sheet.type("Board", "E5", "saved by a player after our read")
    loads = count_loads(monkeypatch)
    assert sheet.backend.write(WRITES, read_back=["Board!A1:E5"]) == [
        [[], ["", "ours", 5], [], [], ["", "", "", "", "saved by a player after our read"]]]
    assert len(loads) == 1  # the newest file, once: the answer is read from it as saved, not parsed again
    assert sheet.backend.read(["Board!A1:E5"]) == sheet.backend.write([], read_back=["Board!A1:E5"])
    assert len(loads) == 1
