"""The Google fake keeps Google's all or nothing while it shares what it stores (issue 66).

The fake stages a spreadsheets.batchUpdate on a copy that shares the spreadsheet's cells, and the cells one request
formats alike share one CellData; snapshots share them too. The property: whatever a request writes, (1) followed in
the same batchUpdate by a request Google refuses, it leaves the spreadsheet as it was (and answers the refusal);
(2) alone, it leaves a snapshot taken before it as it was, and the spreadsheet restored from that snapshot too;
(3) a cell written after a request that formatted many alike changes that cell alone (and not the request's body,
which the cells share and the fake's log keeps). A values.batchUpdate with a
range past the grid changes nothing either. Each kind of request the layouts send is walked."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from gspread.exceptions import APIError

from tests.fakes.google_api import BATCH_UPDATE, GoogleApiFake, fake_client, iter_bodies

KEY = "1AllOrNothingSpreadsheetKey_abcdefghijklm"
BOARD = 0  # the first tab's sheetId
AREA = {"sheetId": BOARD, "startRowIndex": 1, "endRowIndex": 6, "startColumnIndex": 1, "endColumnIndex": 5}
LINE = {"style": "SOLID", "colorStyle": {"rgbColor": {"red": 0.5}}}

#: One request of each kind the fake serves that writes something, by name.
REQUESTS: dict[str, dict[str, Any]] = {
    "repeatCell": {"repeatCell": {"range": AREA, "cell": {"userEnteredFormat": {
        "backgroundColorStyle": {"rgbColor": {"red": 1}}, "textFormat": {"bold": True}}},
        "fields": "userEnteredFormat.backgroundColorStyle,userEnteredFormat.textFormat.bold"}},
    "updateCells": {"updateCells": {"start": {"sheetId": BOARD, "rowIndex": 2, "columnIndex": 2},
                                    "rows": [{"values": [{"userEnteredValue": {"stringValue": "new"},
                                                          "note": "a note"}]}],
                                    "fields": "userEnteredValue,note"}},
    "updateBorders": {"updateBorders": {"range": AREA, "top": LINE, "bottom": LINE, "left": LINE, "right": LINE}},
    "setDataValidation": {"setDataValidation": {"range": AREA, "rule": {
        "condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": "a"}]}, "strict": True}}},
    "findReplace": {"findReplace": {"find": "old", "replacement": "", "allSheets": True}},
    "updateDimensionProperties": {"updateDimensionProperties": {
        "range": {"sheetId": BOARD, "dimension": "ROWS", "startIndex": 0, "endIndex": 8},
        "properties": {"pixelSize": 30}, "fields": "pixelSize"}},
    "updateSheetProperties": {"updateSheetProperties": {
        "properties": {"sheetId": BOARD, "title": "Renamed", "gridProperties": {"rowCount": 4}},
        "fields": "title,gridProperties.rowCount"}},
    "addSheet": {"addSheet": {"properties": {"title": "Added", "index": 0}}},
    "addProtectedRange": {"addProtectedRange": {"protectedRange": {"range": AREA, "description": "p"}}},
    "addConditionalFormatRule": {"addConditionalFormatRule": {"index": 0, "rule": {
        "ranges": [AREA], "booleanRule": {"condition": {"type": "TEXT_STARTS_WITH",
                                                        "values": [{"userEnteredValue": "x"}]},
                                          "format": {"backgroundColorStyle": {"rgbColor": {"blue": 1}}}}}}},
    "updateSpreadsheetProperties": {"updateSpreadsheetProperties": {"properties": {"title": "Other"},
                                                                    "fields": "title"}},
}
#: A request Google refuses: a range past the grid.
REFUSED = {"repeatCell": {"range": {"sheetId": BOARD, "startRowIndex": 0, "endRowIndex": 999},
                          "cell": {"userEnteredFormat": {"textFormat": {"italic": True}}},
                          "fields": "userEnteredFormat.textFormat.italic"}}


@pytest.fixture
def fake() -> Iterator[GoogleApiFake]:
    """A spreadsheet of two tabs with values, formats, a border, a row and column size, a protection and a
    conditional format already on it (what a request may share, or overwrite)."""
    with GoogleApiFake() as f:
        f.create_spreadsheet(KEY, "all or nothing", {"Board": (10, 6), "Orders": (5, 5)})
        f.set_values(KEY, "Board!A1:C3", [["old", "b", "old c"], ["d", "", "f"], ["g", "h", "old"]])
        f.set_values(KEY, "Orders!A1", [["old order"]])
        http = fake_client().http_client
        http.batch_update(KEY, {"requests": [
            {"repeatCell": {"range": {"sheetId": BOARD, "startRowIndex": 0, "endRowIndex": 4}, "cell": {
                "userEnteredFormat": {"textFormat": {"fontSize": 12}}}, "fields": "userEnteredFormat.textFormat"}},
            {"updateBorders": {"range": {"sheetId": BOARD, "startRowIndex": 2, "endRowIndex": 3,
                                         "startColumnIndex": 2, "endColumnIndex": 3}, "top": LINE}},
            {"updateDimensionProperties": {"range": {"sheetId": BOARD, "dimension": "COLUMNS", "startIndex": 0,
                                                     "endIndex": 3}, "properties": {"pixelSize": 50},
                                           "fields": "pixelSize"}},
            REQUESTS["addProtectedRange"], REQUESTS["addConditionalFormatRule"]]})
        f.reset_counters()
        yield f
    assert not f.violations, f.violations


def held(fake: GoogleApiFake) -> Any:
    """What the spreadsheet holds (its properties, and its tabs: properties, cells, sizes, protections,
    conditional formats), as an independent copy."""
    ss = fake.spreadsheets[KEY]
    return copy.deepcopy((ss.properties, ss.sheets))


@pytest.mark.parametrize("kind", sorted(REQUESTS))
def test_a_refused_request_after_any_request_leaves_the_spreadsheet_as_it_was(fake: GoogleApiFake,
                                                                              kind: str) -> None:
    before = held(fake)
    with pytest.raises(APIError, match="exceeds grid limits"):
        fake_client().http_client.batch_update(KEY, {"requests": [REQUESTS[kind], REFUSED]})
    assert held(fake) == before


@pytest.mark.parametrize("kind", sorted(REQUESTS))
def test_a_request_leaves_a_snapshot_taken_before_it_as_it_was(fake: GoogleApiFake, kind: str) -> None:
    before, saved = held(fake), fake.snapshot()
    fake_client().http_client.batch_update(KEY, {"requests": [REQUESTS[kind]]})
    after = held(fake)
    assert after != before, f"{kind} changed nothing: the walk would not see a change leak"
    fake.restore(saved)
    assert held(fake) == before
    fake_client().http_client.batch_update(KEY, {"requests": [REQUESTS[kind]]})  # the snapshot still makes it anew
    assert held(fake) == after
    fake.restore(saved)
    assert held(fake) == before


def test_a_cell_formatted_with_others_alike_changes_alone(fake: GoogleApiFake) -> None:
    http = fake_client().http_client
    http.batch_update(KEY, {"requests": [REQUESTS["repeatCell"]]})
    twin = fake.cell(KEY, "Board", "E6")
    http.batch_update(KEY, {"requests": [{"updateCells": {
        "range": {"sheetId": BOARD, "startRowIndex": 1, "endRowIndex": 2, "startColumnIndex": 1,
                  "endColumnIndex": 2},
        "rows": [{"values": [{"userEnteredFormat": {"textFormat": {"bold": False, "italic": True}}}]}],
        "fields": "userEnteredFormat.textFormat.bold,userEnteredFormat.textFormat.italic"}}]})
    fake.set_format(KEY, "Board!C2", {"textFormat": {"strikethrough": True}})
    fake.set_values(KEY, "Board!D2", [["typed"]])
    assert fake.cell(KEY, "Board", "E6") == twin
    assert twin["userEnteredFormat"]["textFormat"] == {"bold": True}
    assert fake.cell(KEY, "Board", "B2")["userEnteredFormat"]["textFormat"] == {"fontSize": 12, "bold": False,
                                                                                     "italic": True}


def test_a_cell_written_into_what_it_shares_with_a_request_leaves_the_request_as_sent(fake: GoogleApiFake) -> None:
    http = fake_client().http_client
    http.batch_update(KEY, {"requests": [REQUESTS["repeatCell"]]})  # its colour stored as the request has it
    twin = fake.cell(KEY, "Board", "E6")
    http.batch_update(KEY, {"requests": [{"repeatCell": {
        "range": {"sheetId": BOARD, "startRowIndex": 1, "endRowIndex": 2, "startColumnIndex": 1,
                  "endColumnIndex": 2},
        "cell": {"userEnteredFormat": {"backgroundColorStyle": {"rgbColor": {"green": 1}}}},
        "fields": "userEnteredFormat.backgroundColorStyle.rgbColor.green"}}]})
    assert next(iter_bodies(fake, BATCH_UPDATE)) == {"requests": [REQUESTS["repeatCell"]]}
    assert fake.cell(KEY, "Board", "E6") == twin
    assert fake.cell(KEY, "Board", "B2")["userEnteredFormat"]["backgroundColorStyle"] == {
        "rgbColor": {"red": 1, "green": 1}}


def test_a_values_write_past_the_grid_changes_nothing(fake: GoogleApiFake) -> None:
    before = held(fake)
    with pytest.raises(APIError, match="exceeds grid limits"):
        fake_client().http_client.values_batch_update(KEY, {"valueInputOption": "RAW", "data": [
            {"range": "Board!A1", "values": [["written"]]}, {"range": "Board!A12", "values": [["past"]]}]})
    assert held(fake) == before
