"""The Google backend through real gspread and google-auth objects, against the fake Google.

Every request the backend makes is validated by the fake against Google's discovery
documents; a violation raises inside the request and fails the test. Nothing here touches
the network or sleeps: the retry policy runs on a fake clock.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import gspread
import openpyxl
import pytest
import requests
from google.oauth2.credentials import Credentials as UserCredentials

from sheets_gm.sheets.backend import (
    GoogleUnreachableError,
    RangeWrite,
    SheetAccessError,
    SheetBackend,
    SheetError,
    SheetUnavailableError,
)
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.cells import MAX_CELL_CHARS, grid_range
from sheets_gm.sheets.google.layout_requests import LAYOUT_METADATA_FIELDS, built_tabs, layout_requests
from sheets_gm.sheets.google.signin import open_oauth, open_service_account
from sheets_gm.sheets.layout import (
    CellValue,
    Checkbox,
    ConditionalFill,
    Dropdown,
    Fill,
    Protection,
    TabLayout,
    WorkbookLayout,
)
from sheets_gm.sheets.retry import RetryPolicy
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import (
    ALL_FAULTS,
    BATCH_UPDATE,
    EXPORT,
    GET,
    READ,
    SHARE,
    TOKEN,
    TOKEN_URL,
    WRITE,
    FaultKind,
    GoogleApiFake,
    SchemaViolation,
    UnexpectedRequest,
    fake_client,
    iter_bodies,
    settle_auth,
    write_service_account_key,
)

KEY = "1GvGtestSpreadsheetKey_abcdefghijklmnop"
SA_EMAIL = "gm-bot@sheets-gm-test.iam.gserviceaccount.com"


@pytest.fixture
def fake() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as f:
        f.create_spreadsheet(KEY, "GvG test", {"Board": (30, 20), "Orders red": (20, 8)})
        yield f
    assert not f.violations, f.violations


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def policy(clock: FakeClock) -> RetryPolicy:
    return RetryPolicy(deadline=60, time=clock.time, sleep=clock.sleep, random=lambda: 0.5)


@pytest.fixture
def backend(fake: GoogleApiFake, policy: RetryPolicy) -> GoogleSheetBackend:
    return GoogleSheetBackend(fake_client(), KEY, retry=policy)


@pytest.fixture(scope="module")
def sa_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_service_account_key(tmp_path_factory.mktemp("sa") / "key.json", SA_EMAIL)


# --------------------------------------------------------------------------- read and write


def test_write_then_read_round_trip(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    backend.write(
        [
            RangeWrite("Board!A1:C2", [["turn", 3, True], ["phase", 2.5, False]]),
            RangeWrite("'Orders red'!B2", [["F7", "attack"]]),
        ]
    )
    grids = backend.read(["Board!A1:C2", "'Orders red'!A1:C3", "Board!D1:E5"])
    assert grids == [
        [["turn", 3, True], ["phase", 2.5, False]],
        [[], ["", "F7", "attack"]],
        [],
    ]


def test_raw_text_never_becomes_a_formula(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    nasty: list[CellValue] = [
        "=1+1",
        '=HYPERLINK("http://evil.example","x")',
        "+SUM(A1)",
        "-2+3",
        "@A1",
        "TRUE",
        "007",
        "1/2/2024",
    ]
    backend.write([RangeWrite("Board!A1:H1", [nasty])])
    for col, text in zip("ABCDEFGH", nasty, strict=True):
        cell = fake.cell(KEY, "Board", f"{col}1")
        assert cell["userEnteredValue"] == {"stringValue": text}
    assert backend.read(["Board!A1:H1"]) == [[nasty]]
    body = next(iter_bodies(fake, WRITE))
    assert body["valueInputOption"] == "RAW"


def test_a_players_formula_is_read_as_its_text(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    fake.set_values(KEY, "'Orders red'!A2", [["=IMPORTXML(\"x\")", "42", "yes"]])
    assert fake.spreadsheets[KEY].sheet("Orders red").is_formula(1, 0)
    assert backend.read(["'Orders red'!A2:C2"]) == [[['=IMPORTXML("x")', 42, "yes"]]]
    call = fake.log[-1]
    assert call.query["valueRenderOption"] == ["FORMULA"]
    assert call.query["majorDimension"] == ["ROWS"]


def test_read_trims_like_google(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    fake.set_values(KEY, "Board!A1", [["a", "", "b", ""], ["", "", "", ""], ["", "c"], ["", ""]])
    assert backend.read(["Board!A1:F6"]) == [[["a", "", "b"], [], ["", "c"]]]


def test_none_leaves_a_cell_and_empty_string_clears_it(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    fake.set_values(KEY, "Board!A1", [["keep", "clear", "over"]])
    backend.write([RangeWrite("Board!A1:C1", [[None, "", "new"]])])
    assert fake.values(KEY, "Board") == [["keep", "", "new"]]


def test_long_text_is_cut_to_googles_cell_limit(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    backend.write([RangeWrite("Board!A1", [["x" * (MAX_CELL_CHARS + 10)]])])
    assert len(backend.read(["Board!A1"])[0][0][0]) == MAX_CELL_CHARS  # type: ignore[arg-type]


def test_one_call_per_read_and_per_write(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    ranges = ["Board!A1:O23", "Board!A25:C25", "'Orders red'!A1:E6", "'Orders red'!F1:F6", "Board!T30"]
    backend.read(ranges)
    assert fake.calls(READ) == 1 and fake.calls() == 1
    assert fake.log[-1].query["ranges"] == ranges
    backend.write([RangeWrite(r, [["x"]]) for r in ranges])
    assert fake.calls(WRITE) == 1 and fake.calls() == 2
    assert fake.calls(GET) == 0  # never a metadata read on the poll path
    request_bytes, response_bytes = fake.byte_counts()
    assert request_bytes > 0 and response_bytes > 0


def test_nothing_to_read_or_write_makes_no_call(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    assert backend.read([]) == []
    backend.write([])
    assert fake.calls() == 0


def test_a_missing_tab_is_an_error_naming_the_range(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    with pytest.raises(SheetError, match="Orders blue"):
        backend.read(["Board!A1", "'Orders blue'!A1:E6"])
    assert fake.calls(READ) == 1  # a 400 is not retried


def test_writing_past_the_grid_is_an_error(backend: GoogleSheetBackend) -> None:
    with pytest.raises(SheetError, match="exceeds grid limits"):
        backend.write([RangeWrite("Board!T30", [["x", "y"]])])


# --------------------------------------------------------------------------- cell notes


def test_notes_ride_in_the_one_write_as_update_cells(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    fake.set_values(KEY, "Board!A1", [["keep"]])
    backend.write([RangeWrite("Board!B2:C2", [["=army", 3]], [["Ann: 5000 Elves", ""]]),
                   RangeWrite("'Orders red'!A1", [["x"]])])
    assert fake.calls(BATCH_UPDATE) == 1 and fake.calls(WRITE) == 0
    assert fake.calls(GET) == 1  # the tabs' ids, asked once: no layout call told this backend
    assert fake.cell(KEY, "Board", "B2") == {"userEnteredValue": {"stringValue": "=army"}, "note": "Ann: 5000 Elves"}
    assert "note" not in fake.cell(KEY, "Board", "C2")
    assert fake.values(KEY, "Board")[0] == ["keep"]  # cells outside the ranges are untouched
    backend.write([RangeWrite("Board!B2:C2", [[None, None]], [["", None]])])
    assert "note" not in fake.cell(KEY, "Board", "B2") and fake.values(KEY, "Board")[1] == ["", "=army", 3]
    assert fake.calls(GET) == 1  # the ids are kept by the backend


def test_tab_ids_are_learnt_from_the_layout_and_kept_for_the_next_process(
        fake: GoogleApiFake, policy: RetryPolicy, tmp_path: Path) -> None:
    ids = tmp_path / "ids.json"
    first = GoogleSheetBackend(fake_client(), KEY, retry=policy, sheet_ids=ids)
    first.apply_layout(WorkbookLayout("t", (TabLayout("Plane", 5, 5),)))
    fake.reset_counters()
    later = GoogleSheetBackend(fake_client(), KEY, retry=policy, sheet_ids=ids)
    later.write([RangeWrite("Plane!A1", [["3C"]], [["Dominaria 3C · forest"]])])
    assert fake.calls(GET) == 0 and fake.calls(BATCH_UPDATE) == 1  # no metadata read
    assert fake.cell(KEY, "Plane", "A1")["note"] == "Dominaria 3C · forest"


def test_stale_tab_ids_are_asked_again_and_the_write_made_once_more(
        fake: GoogleApiFake, policy: RetryPolicy, tmp_path: Path) -> None:
    ids = tmp_path / "ids.json"
    ids.write_text(json.dumps({KEY: {"board": 987654}}), encoding="utf-8")  # a tab since deleted and laid out again
    backend = GoogleSheetBackend(fake_client(), KEY, retry=policy, sheet_ids=ids)
    backend.write([RangeWrite("Board!A1", [["x"]], [["a note"]])])
    assert fake.cell(KEY, "Board", "A1")["note"] == "a note"
    assert fake.calls(BATCH_UPDATE) == 2 and fake.calls(GET) == 1
    assert json.loads(ids.read_text(encoding="utf-8"))[KEY]["board"] != 987654


def test_a_write_without_notes_stays_a_values_write(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    backend.write([RangeWrite("Board!A1", [["x"]])])
    assert fake.calls(WRITE) == 1 and fake.calls(BATCH_UPDATE) == 0 and fake.calls(GET) == 0


def test_a_note_for_a_missing_tab_names_it(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    with pytest.raises(SheetError, match="no tab named 'Mirrodin'"):
        backend.write([RangeWrite("Mirrodin!A1", [["x"]], [["n"]])])


def test_a_url_is_accepted_as_the_key(fake: GoogleApiFake, policy: RetryPolicy) -> None:
    b = GoogleSheetBackend(fake_client(), f"https://docs.google.com/spreadsheets/d/{KEY}/edit#gid=0", retry=policy)
    assert b.key == KEY
    assert b.read(["Board!A1"]) == [[]]


# --------------------------------------------------------------------------- layout

LAYOUT = WorkbookLayout(
    title="GvG - match 1",
    tabs=(
        TabLayout(
            name="Board",
            rows=25,
            cols=16,
            frozen_rows=1,
            values={"A1": [["Turn", 1, None, "=not a formula"]], "B3": [["tree", True]]},
            fills=(Fill("A1:P1", "#1F4E79", bold=True), Fill("B2:C3", "#00ff00")),
            conditional_fills=(ConditionalFill("A3:P25", "●", "#F4CCCC", bold=True),
                               ConditionalFill("A3:P25", "■", "#CFE2F3")),
            column_widths={0: 120, 3: 40},
        ),
        TabLayout(
            name="Orders red",
            rows=12,
            cols=6,
            frozen_rows=1,
            values={"A1": [["Player", "Destination", "Action", "Ready"]]},
            dropdowns=(Dropdown("C2:C11", ("move", "attack", "defend")),),
            checkboxes=(Checkbox("D2:D11"),),
            protections=(
                Protection("A2:F2", "row 2: alice", ("alice@example.com",)),
                Protection("A1:F1", "header"),
            ),
        ),
        TabLayout(name="Engine", rows=50, cols=4, hidden=True, protections=(Protection(None, "engine state"),)),
    ),
)


def test_a_new_spreadsheets_own_tab_is_kept_when_somebody_typed_in_it(
        backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    fake.create_spreadsheet("USED", "Notes", ["Feuille 1"])
    fake.set_values("USED", "'Feuille 1'!A1", [["my notes"]])
    GoogleSheetBackend(backend.client, "USED", retry=backend.retry).apply_layout(LAYOUT)
    assert [s.title for s in fake.spreadsheets["USED"].sheets] == ["Board", "Orders red", "Engine", "Feuille 1"]
    fake.create_spreadsheet("FRENCH", "Sans titre", ["Feuille 1"])
    GoogleSheetBackend(backend.client, "FRENCH", retry=backend.retry).apply_layout(LAYOUT)
    assert [s.title for s in fake.spreadsheets["FRENCH"].sheets] == ["Board", "Orders red", "Engine"]


def test_layout_in_one_metadata_read_and_one_batch_update(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    fake.create_spreadsheet("FRESH", "Untitled spreadsheet", ["Sheet1"])
    b = GoogleSheetBackend(backend.client, "FRESH", retry=backend.retry)
    b.apply_layout(LAYOUT)
    # The metadata, a look at the new spreadsheet's own empty tab, one update (which deletes that tab).
    assert fake.calls(GET) == 1 and fake.calls(BATCH_UPDATE) == 1 and fake.calls() == 3

    ss = fake.spreadsheets["FRESH"]
    assert ss.properties["title"] == "GvG - match 1"
    assert b.name == "spreadsheet 'Untitled spreadsheet'"  # the title read with the metadata
    assert [s.title for s in ss.sheets] == ["Board", "Orders red", "Engine"]
    board, orders, engine = ss.sheet("Board"), ss.sheet("Orders red"), ss.sheet("Engine")
    assert board.properties["gridProperties"] == {"rowCount": 25, "columnCount": 16, "frozenRowCount": 1}
    assert engine.properties["hidden"] is True and board.properties["hidden"] is False

    assert fake.cell("FRESH", "Board", "A1")["userEnteredValue"] == {"stringValue": "Turn"}
    assert fake.cell("FRESH", "Board", "B1")["userEnteredValue"] == {"numberValue": 1}
    assert "userEnteredValue" not in fake.cell("FRESH", "Board", "C1")
    assert fake.cell("FRESH", "Board", "D1")["userEnteredValue"] == {"stringValue": "=not a formula"}
    assert fake.values("FRESH", "Board")[2] == ["", "tree", True]

    header = fake.cell("FRESH", "Board", "P1")["userEnteredFormat"]
    assert header["textFormat"] == {"bold": True}
    assert header["backgroundColorStyle"]["rgbColor"] == pytest.approx(
        {"red": 0x1F / 255, "green": 0x4E / 255, "blue": 0x79 / 255}
    )
    assert fake.cell("FRESH", "Board", "C3")["userEnteredFormat"]["textFormat"] == {"bold": False}
    assert board.columns[0] == {"pixelSize": 120} and board.columns[3] == {"pixelSize": 40}
    units = {"sheetId": board.sheet_id, "startRowIndex": 2, "endRowIndex": 25, "startColumnIndex": 0,
             "endColumnIndex": 16}
    assert board.conditional_formats == [
        {"ranges": [units], "booleanRule": {
            "condition": {"type": "TEXT_STARTS_WITH", "values": [{"userEnteredValue": "●"}]},
            "format": {"backgroundColorStyle": {"rgbColor": pytest.approx(
                {"red": 0xF4 / 255, "green": 0xCC / 255, "blue": 0xCC / 255})}, "textFormat": {"bold": True}}}},
        {"ranges": [units], "booleanRule": {
            "condition": {"type": "TEXT_STARTS_WITH", "values": [{"userEnteredValue": "■"}]},
            "format": {"backgroundColorStyle": {"rgbColor": pytest.approx(
                {"red": 0xCF / 255, "green": 0xE2 / 255, "blue": 0xF3 / 255})}}}},
    ]
    assert orders.conditional_formats == [] and engine.conditional_formats == []

    dropdown = fake.cell("FRESH", "Orders red", "C11")["dataValidation"]
    assert dropdown["condition"] == {
        "type": "ONE_OF_LIST",
        "values": [{"userEnteredValue": v} for v in ("move", "attack", "defend")],
    }
    assert dropdown["strict"] is True
    assert "dataValidation" not in fake.cell("FRESH", "Orders red", "C12")
    checkbox = fake.cell("FRESH", "Orders red", "D2")["dataValidation"]
    assert checkbox == {"condition": {"type": "BOOLEAN"}, "strict": True}

    rows = {p["description"]: p for p in orders.protected_ranges}
    assert rows["row 2: alice"]["editors"] == {"users": ["alice@example.com"]}
    assert rows["row 2: alice"]["range"] == {
        "sheetId": orders.sheet_id,
        "startRowIndex": 1,
        "endRowIndex": 2,
        "startColumnIndex": 0,
        "endColumnIndex": 6,
    }
    assert engine.protected_ranges[0]["range"] == {"sheetId": engine.sheet_id}


def test_layout_again_replaces_rather_than_duplicates(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    backend.apply_layout(LAYOUT)
    ss = fake.spreadsheets[KEY]
    ids = {s.title: s.sheet_id for s in ss.sheets}
    backend.apply_layout(LAYOUT)
    assert {s.title: s.sheet_id for s in ss.sheets} == ids
    assert [s.title for s in ss.sheets] == ["Board", "Orders red", "Engine"]
    assert len(ss.sheet("Orders red").protected_ranges) == 2
    assert len(ss.sheet("Engine").protected_ranges) == 1
    assert [r["booleanRule"]["condition"]["values"] for r in ss.sheet("Board").conditional_formats] == [
        [{"userEnteredValue": "●"}], [{"userEnteredValue": "■"}]]
    # the existing 30 x 20 Board was reshaped in place
    assert ss.sheet("Board").properties["gridProperties"]["rowCount"] == 25
    bodies = list(iter_bodies(fake, BATCH_UPDATE))
    assert any("deleteProtectedRange" in r for r in bodies[1]["requests"])
    board = ss.sheet("Board").sheet_id
    assert [r["deleteConditionalFormatRule"] for r in bodies[1]["requests"] if "deleteConditionalFormatRule" in r] == [
        {"sheetId": board, "index": 1}, {"sheetId": board, "index": 0}]  # last first: the indexes shift down
    assert not any("addSheet" in r for r in bodies[1]["requests"])


def test_layout_keeps_the_service_account_an_editor_of_each_protection(fake: GoogleApiFake, sa_key: Path,
                                                                        policy: RetryPolicy) -> None:
    b = GoogleSheetBackend(settle_auth(open_service_account(sa_key)), KEY, retry=policy)
    b.apply_layout(LAYOUT)
    for s in fake.spreadsheets[KEY].sheets:
        for p in s.protected_ranges:
            assert SA_EMAIL in p["editors"]["users"]


@pytest.mark.parametrize("key", ["FRESH", KEY], ids=["new-tabs", "tabs-made-by-hand"])
def test_a_layout_sends_the_requests_made_for_the_spreadsheet_as_it_was_read(
    backend: GoogleSheetBackend, fake: GoogleApiFake, key: str
) -> None:
    """A layout's tabs' requests are made once, before the spreadsheet is read, for the ids its new tabs take: sent
    to a spreadsheet whose tabs have ids of their own (made by hand: Board is 0), they are the requests made for
    those ids, as on a new spreadsheet."""
    fake.create_spreadsheet("FRESH", "Untitled spreadsheet", ["Sheet1"])
    b = GoogleSheetBackend(backend.client, key, retry=backend.retry)
    read = b.client.http_client.fetch_sheet_metadata(key, params={"fields": LAYOUT_METADATA_FIELDS})
    fake.reset_counters()
    b.apply_layout(LAYOUT)
    (sent,) = [body["requests"] for body in iter_bodies(fake, BATCH_UPDATE)]
    made_for_it = layout_requests(LAYOUT, dict(read), b.account, b.co_editors)
    assert sent[:len(made_for_it)] == made_for_it
    assert sent[len(made_for_it):] == ([{"deleteSheet": {"sheetId": 0}}] if key == "FRESH" else [])  # its Sheet1
    ids = {s["properties"]["title"]: s["properties"]["sheetId"] for s in read["sheets"]}
    assert all(ids[name] != sid for name, (sid, _own) in built_tabs(LAYOUT).items() if name in ids)


def test_layout_requests_are_valid_batch_update_bodies(fake: GoogleApiFake) -> None:
    meta = {"properties": {"title": "x"}, "sheets": [{"properties": {"sheetId": 0, "title": "Sheet1"}}]}
    body = {"requests": layout_requests(LAYOUT, meta, SA_EMAIL)}
    fake.sheets_api.validate("BatchUpdateSpreadsheetRequest", body, "layout")


def test_a_partial_layout_keeps_every_tabs_place_and_adds_its_new_tab_last(backend: GoogleSheetBackend,
                                                                           fake: GoogleApiFake) -> None:
    """A tab laid out alone (the judge's Strategies tab) goes after the others, and stays where it stands when laid
    out again; a whole layout puts it back after its own tabs."""
    backend.apply_layout(LAYOUT)
    ss = fake.spreadsheets[KEY]
    alone = WorkbookLayout("t", (TabLayout("Strategies", 10, 4),), partial=True)
    backend.apply_layout(alone)
    assert [s.title for s in ss.sheets] == ["Board", "Orders red", "Engine", "Strategies"]
    backend.apply_layout(WorkbookLayout("t", (TabLayout("Orders red", 10, 4),), partial=True))
    backend.apply_layout(alone)
    assert [s.title for s in ss.sheets] == ["Board", "Orders red", "Engine", "Strategies"]
    backend.apply_layout(WorkbookLayout("t", (TabLayout("Strategies", 10, 4), *LAYOUT.tabs)))
    backend.apply_layout(alone)
    assert ss.sheets[0].title == "Strategies"  # where the whole layout put it


def test_layout_with_none_values_skips_those_cells(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    fake.set_values(KEY, "Board!A1", [["old", "old", "old"]])
    layout = WorkbookLayout("t", (TabLayout("Board", 25, 16, values={"A1": [["new", None, "new"]]}),))
    backend.apply_layout(layout)
    assert fake.values(KEY, "Board") == [["new", "old", "new"]]


def test_layout_retry_after_a_lost_answer_does_not_duplicate_tabs(
    backend: GoogleSheetBackend, fake: GoogleApiFake, clock: FakeClock
) -> None:
    fake.inject(FaultKind.CONNECTION_RESET, endpoint=BATCH_UPDATE, after_apply=True)
    backend.apply_layout(LAYOUT)  # the first batchUpdate landed; the retry reads the tabs again
    ss = fake.spreadsheets[KEY]
    assert [s.title for s in ss.sheets] == ["Board", "Orders red", "Engine"]
    assert len(ss.sheet("Orders red").protected_ranges) == 2
    assert len(ss.sheet("Board").conditional_formats) == 2
    assert fake.calls(GET) == 2 and fake.calls(BATCH_UPDATE) == 2 and len(clock.sleeps) == 1


def test_a_layout_owns_its_tabs_conditional_formats(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    """A rule somebody added by hand on a layout's tab goes when the layout is applied again; other tabs keep theirs."""
    fake.create_spreadsheet(KEY, "GvG test", {"Board": (30, 20), "Notes": (10, 5)})
    http = backend.client.http_client
    for tab in ("Board", "Notes"):
        sid = fake.spreadsheets[KEY].sheet(tab).sheet_id
        http.batch_update(KEY, {"requests": [{"addConditionalFormatRule": {"index": 0, "rule": {
            "ranges": [{"sheetId": sid, "startRowIndex": 0, "endRowIndex": 2}],
            "booleanRule": {"condition": {"type": "NOT_BLANK"}, "format": {"textFormat": {"italic": True}}}}}}]})
    backend.apply_layout(WorkbookLayout("t", (TabLayout("Board", 25, 16),)))
    ss = fake.spreadsheets[KEY]
    assert ss.sheet("Board").conditional_formats == [] and len(ss.sheet("Notes").conditional_formats) == 1


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ("B3", {"startRowIndex": 2, "endRowIndex": 3, "startColumnIndex": 1, "endColumnIndex": 2}),
        ("A2:E6", {"startRowIndex": 1, "endRowIndex": 6, "startColumnIndex": 0, "endColumnIndex": 5}),
        ("B:D", {"startColumnIndex": 1, "endColumnIndex": 4}),
        ("3:5", {"startRowIndex": 2, "endRowIndex": 5}),
        ("A2:E", {"startRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 5}),
        ("$AA$10", {"startRowIndex": 9, "endRowIndex": 10, "startColumnIndex": 26, "endColumnIndex": 27}),
        ("", {}),
    ],
)
def test_grid_range(cells: str, expected: dict[str, int]) -> None:
    assert grid_range(7, cells) == {"sheetId": 7, **expected}


@pytest.mark.parametrize("cells", ["A0", "C1:A1", "A1:B0", "1A", "A1:B2:C3", "ABCD1"])
def test_grid_range_refuses_nonsense(cells: str) -> None:
    with pytest.raises(ValueError):
        grid_range(0, cells)


# --------------------------------------------------------------------------- export and share


def test_export_xlsx(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    backend.write([RangeWrite("Board!A1:B1", [["=1+1", 7]])])
    data = backend.export_xlsx()
    assert fake.calls(EXPORT) == 1
    wb = openpyxl.load_workbook(io.BytesIO(data))
    assert wb.sheetnames == ["Board", "Orders red"]
    cell = wb["Board"]["A1"]
    assert (cell.value, cell.data_type) == ("=1+1", "s")
    assert wb["Board"]["B1"].value == 7


def test_share(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    backend.share(["alice@example.com", " ALICE@example.com ", "bob@example.org"], "reader", notify=False)
    perms = fake.spreadsheets[KEY].permissions
    assert [(p["emailAddress"], p["role"], p["type"]) for p in perms] == [
        ("alice@example.com", "reader", "user"),
        ("bob@example.org", "reader", "user"),
    ]
    assert fake.calls(SHARE) == 2
    assert fake.log[-1].query["sendNotificationEmail"] == ["false"]


def test_share_refuses_a_bad_role_or_address_without_calling(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    with pytest.raises(ValueError, match="role"):
        backend.share(["a@example.com"], "owner")
    with pytest.raises(ValueError, match="e-mail"):
        backend.share(["not-an-address"])
    assert fake.calls() == 0


# --------------------------------------------------------------------------- faults and retries


def _do(backend: GoogleSheetBackend, op: str) -> None:
    if op == "read":
        assert backend.read(["Board!A1:B2"]) == [[]]
    elif op == "write":
        backend.write([RangeWrite("Board!A1", [["x"]])])
    elif op == "layout":
        backend.apply_layout(LAYOUT)
    elif op == "export":
        assert backend.export_xlsx()[:2] == b"PK"
    elif op == "share":
        backend.share(["alice@example.com"])


@pytest.mark.parametrize("op", ["read", "write", "layout", "export", "share"])
@pytest.mark.parametrize("kind", ALL_FAULTS, ids=lambda k: k.value)
def test_every_fault_at_the_first_call_is_retried(
    backend: GoogleSheetBackend, fake: GoogleApiFake, clock: FakeClock, kind: FaultKind, op: str
) -> None:
    fault = fake.inject(kind, at=1)
    _do(backend, op)
    assert fault.fired == 1
    assert len(clock.sleeps) == 1 and 0 <= clock.sleeps[0] <= 1.0  # full jitter on a 1 s first step
    assert sum(s.faults for s in fake.stats.values()) == 1


@pytest.mark.parametrize("kind", [FaultKind.UNAVAILABLE, FaultKind.RATE_LIMIT_JSON, FaultKind.RATE_LIMIT_HTML])
def test_retry_after_is_honoured(
    backend: GoogleSheetBackend, fake: GoogleApiFake, clock: FakeClock, kind: FaultKind
) -> None:
    fake.inject(kind, retry_after=7)
    backend.read(["Board!A1"])
    assert clock.sleeps and clock.sleeps[0] >= 7


def test_the_deadline_gives_a_clear_unavailable_error(
    backend: GoogleSheetBackend, fake: GoogleApiFake, clock: FakeClock
) -> None:
    fake.inject(FaultKind.UNAVAILABLE, times=None)
    start = clock.now
    with pytest.raises(SheetUnavailableError) as info:
        backend.read(["Board!A1"])
    message = str(info.value)
    attempts = fake.calls(READ)
    assert attempts > 3
    assert f"read of spreadsheet {KEY} failed {attempts} times" in message
    assert "HTTP 503" in message and "deadline 60 s" in message
    assert clock.now - start <= 60


def test_a_machine_cut_off_from_google_is_told_so_never_quota(
    backend: GoogleSheetBackend, fake: GoogleApiFake, clock: FakeClock
) -> None:
    """Issue 94: a name that does not resolve is no quota of Google's, and a short deadline for it is kept."""
    fake.inject(FaultKind.NAME_NOT_RESOLVED, times=None)
    start = clock.now
    with pytest.raises(GoogleUnreachableError) as info:
        backend.read(["Board!A1"])
    message = str(info.value)
    assert message.startswith("cannot reach Google from this machine (sheets.googleapis.com: the name does not "
                              "resolve): check the network or proxy")
    assert "quota" not in message
    assert clock.now - start <= 60
    short = GoogleSheetBackend(fake_client(), KEY, retry=replace(backend.retry, unreachable_deadline=4.0))
    start = clock.now
    with pytest.raises(GoogleUnreachableError):
        short.read(["Board!A1"])
    assert clock.now - start <= 4.0


def test_a_retry_after_past_the_deadline_gives_up_at_once(
    backend: GoogleSheetBackend, fake: GoogleApiFake, clock: FakeClock
) -> None:
    fake.inject(FaultKind.RATE_LIMIT_JSON, retry_after=600)
    with pytest.raises(SheetUnavailableError, match="asked to wait 600 s"):
        backend.read(["Board!A1"])
    assert fake.calls(READ) == 1 and clock.sleeps == []


def test_a_lost_answer_to_a_write_is_harmless(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    fake.inject(FaultKind.CONNECTION_RESET, endpoint=WRITE, after_apply=True)
    backend.write([RangeWrite("Board!A1:B1", [["turn", 2]])])
    assert fake.calls(WRITE) == 2
    assert fake.values(KEY, "Board") == [["turn", 2]]


def _session(backend: GoogleSheetBackend) -> list[object]:
    """A miniature sync: read, write, read back."""
    first = backend.read(["Board!A1:C3", "'Orders red'!A1:B2"])
    backend.write([RangeWrite("Board!A1:B1", [["turn", 2]]), RangeWrite("'Orders red'!B2", [[""]])])
    return [first, backend.read(["Board!A1:C3", "'Orders red'!A1:B2"])]


@pytest.mark.parametrize("at", [1, 2, 3])
@pytest.mark.parametrize("kind", ALL_FAULTS, ids=lambda k: k.value)
@pytest.mark.parametrize("after_apply", [False, True], ids=["before", "after"])
def test_a_fault_at_every_call_position_changes_nothing(
    fake: GoogleApiFake, policy: RetryPolicy, kind: FaultKind, at: int, after_apply: bool
) -> None:
    fake.set_values(KEY, "'Orders red'!A2", [["alice", "F7"]])
    baseline = _session(GoogleSheetBackend(fake_client(), KEY, retry=policy))
    expected_board = fake.values(KEY, "Board")

    fake.create_spreadsheet(KEY, "GvG test", {"Board": (30, 20), "Orders red": (20, 8)})
    fake.set_values(KEY, "'Orders red'!A2", [["alice", "F7"]])
    fake.inject(kind, at=at, after_apply=after_apply)
    assert _session(GoogleSheetBackend(fake_client(), KEY, retry=policy)) == baseline
    assert fake.values(KEY, "Board") == expected_board


def test_a_bad_request_is_not_retried(backend: GoogleSheetBackend, fake: GoogleApiFake, clock: FakeClock) -> None:
    with pytest.raises(SheetError):
        backend.read(["Nowhere!A1"])
    assert fake.calls(READ) == 1 and clock.sleeps == []


# --------------------------------------------------------------------------- access and credentials


def test_not_shared_names_the_service_account(fake: GoogleApiFake, sa_key: Path, policy: RetryPolicy) -> None:
    fake.set_shared(KEY, False)
    b = GoogleSheetBackend(settle_auth(open_service_account(sa_key)), KEY, retry=policy)
    assert b.account == SA_EMAIL
    with pytest.raises(SheetAccessError, match=f"Share the spreadsheet with {SA_EMAIL}") as info:
        b.read(["Board!A1"])
    assert "HTTP 403" in str(info.value)
    assert fake.calls(TOKEN) == 1  # the JWT was exchanged with the fake, not with Google
    assert fake.calls(READ) == 1  # a 403 is not retried


def test_the_service_account_reads_once_shared(fake: GoogleApiFake, sa_key: Path, policy: RetryPolicy) -> None:
    b = GoogleSheetBackend(settle_auth(open_service_account(sa_key)), KEY, retry=policy)
    b.write([RangeWrite("Board!A1", [["hello"]])])
    assert b.read(["Board!A1"]) == [[["hello"]]]


def test_an_unknown_key_is_an_access_error(fake: GoogleApiFake, policy: RetryPolicy) -> None:
    b = GoogleSheetBackend(fake_client(), "NoSuchKey", retry=policy)
    with pytest.raises(SheetAccessError, match="HTTP 404"):
        b.read(["Board!A1"])
    with pytest.raises(SheetAccessError, match="signed in with"):
        b.export_xlsx()  # Drive says 404 for a file it will not show


def test_sharing_a_file_we_cannot_see(backend: GoogleSheetBackend, fake: GoogleApiFake) -> None:
    fake.set_shared(KEY, False)
    with pytest.raises(SheetAccessError, match="not shared"):
        backend.share(["alice@example.com"])


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        (None, "does not exist"),
        ("not json {", "is not a JSON file"),
        ("[1, 2]", "does not hold a JSON object"),
        (json.dumps({"installed": {"client_id": "x"}}), "is not a service-account key"),
        (json.dumps({"type": "service_account", "client_email": "a@b"}), "lacks private_key, token_uri"),
        (
            json.dumps(
                {"type": "service_account", "client_email": "a@b", "private_key": "nope", "token_uri": "https://x"}
            ),
            "is damaged",
        ),
    ],
)
def test_a_bad_key_file_names_the_path_and_the_problem(tmp_path: Path, content: str | None, complaint: str) -> None:
    path = tmp_path / "sa.json"
    if content is not None:
        _write(path, content)
    with pytest.raises(SheetAccessError) as info:
        open_service_account(path)
    assert str(path) in str(info.value) and complaint in str(info.value)


def test_oauth_without_a_client_file(tmp_path: Path) -> None:
    with pytest.raises(SheetAccessError, match=r"OAuth client file .*credentials\.json does not exist"):
        open_oauth(tmp_path / "credentials.json", tmp_path / "token.json")
    bad = _write(tmp_path / "client.json", json.dumps({"type": "service_account"}))
    with pytest.raises(SheetAccessError, match="not an OAuth client ID file"):
        open_oauth(bad, tmp_path / "token.json")


def test_oauth_flow_then_saved_sign_in(tmp_path: Path, fake: GoogleApiFake, policy: RetryPolicy) -> None:
    client_file = _write(
        tmp_path / "client.json",
        json.dumps({"installed": {"client_id": "cid", "client_secret": "secret", "token_uri": TOKEN_URL}}),
    )
    token_file = tmp_path / "gm" / "token.json"
    flows: list[object] = []

    def flow(client_config: object, scopes: object, port: int = 0) -> UserCredentials:
        flows.append(client_config)
        return UserCredentials(  # type: ignore[no-untyped-call]
            token="user-token", refresh_token="refresh", client_id="cid", client_secret="secret",
            token_uri=TOKEN_URL,
        )

    client = open_oauth(client_file, token_file, flow=flow)
    assert len(flows) == 1 and token_file.exists()
    assert token_file.stat().st_mode & 0o777 == 0o600  # a refresh token: the GM's account alone reads it
    GoogleSheetBackend(client, KEY, retry=policy).read(["Board!A1"])

    again = open_oauth(client_file, token_file, flow=flow)  # the saved sign-in: no flow, a token refresh
    b = GoogleSheetBackend(again, KEY, retry=policy)
    assert b.account is None
    b.read(["Board!A1"])
    assert len(flows) == 1 and fake.calls(TOKEN) == 1

    fake.set_shared(KEY, False)
    with pytest.raises(SheetAccessError, match="shared with the Google account you signed in with"):
        b.read(["Board!A1"])


def test_a_damaged_saved_sign_in(tmp_path: Path) -> None:
    token_file = _write(tmp_path / "token.json", json.dumps({"client_id": "x"}))
    with pytest.raises(SheetAccessError, match="delete it and sign in again"):
        open_oauth(tmp_path / "client.json", token_file)




# --------------------------------------------------------------------------- the fake's own checks


def test_the_fake_refuses_a_body_google_would_refuse(fake: GoogleApiFake) -> None:
    http = fake_client().http_client
    with pytest.raises(SchemaViolation, match="colour"):
        http.batch_update(KEY, {"requests": [{"addSheet": {"properties": {"title": "X", "colour": "red"}}}]})
    with pytest.raises(SchemaViolation, match="RAWISH"):
        http.values_batch_update(KEY, {"valueInputOption": "RAWISH", "data": []})
    with pytest.raises(SchemaViolation, match="valueRenderOption"):
        http.values_batch_get(KEY, ["Board!A1"], params={"valueRenderOption": "FORMULAS"})
    with pytest.raises(SchemaViolation, match="unknown query parameter"):
        http.values_batch_get(KEY, ["Board!A1"], params={"valueInputOption": "RAW"})
    with pytest.raises(SchemaViolation, match="withLink"):
        gspread.Client(auth=http.auth).insert_permission(KEY, "a@example.com", perm_type="user", role="writer")
    assert len(fake.violations) == 5
    fake.violations.clear()


def test_the_fake_refuses_a_cell_that_differs_from_one_it_passed_only_in_a_string(fake: GoogleApiFake) -> None:
    """The fake remembers a kind of row as valid by its text with its free strings blanked (a cell's text, a note):
    an enum spelt wrong, or a string where a number goes, is still refused after a row like it passed."""
    http = fake_client().http_client

    def cells(value: dict[str, object], align: str) -> dict[str, object]:
        row = {"values": [{"userEnteredValue": value, "userEnteredFormat": {"horizontalAlignment": align}}]}
        return {"requests": [{"updateCells": {"rows": [row], "fields": "*", "start": {"sheetId": 0}}}]}

    http.batch_update(KEY, cells({"stringValue": "Ann"}, "CENTER"))
    http.batch_update(KEY, cells({"stringValue": "Bo"}, "CENTER"))  # the same kind of row: remembered valid
    http.batch_update(KEY, cells({"stringValue": "Bo"}, "CENTER"))  # the very same row: remembered by its text
    with pytest.raises(SchemaViolation, match="'center' is not one of"):
        http.batch_update(KEY, cells({"stringValue": "Bo"}, "center"))
    with pytest.raises(SchemaViolation, match="'center' is not one of"):
        http.batch_update(KEY, cells({"stringValue": "Cy"}, "center"))
    with pytest.raises(SchemaViolation, match="'Di' is not of type 'number'"):
        http.batch_update(KEY, cells({"numberValue": "Di"}, "CENTER"))
    assert len(fake.violations) == 3
    fake.violations.clear()


def test_the_fake_refuses_what_differs_from_a_body_it_passed_only_in_a_number_a_word_or_a_length(
        fake: GoogleApiFake) -> None:
    """The fake remembers a kind of body as valid by its shape (strings in no enum blanked, digits as one, numbers
    by kind, lists by the kinds of their items): what the shape keeps apart is still refused after a body like it
    passed."""
    api = fake.sheets_api
    api.validate("GridRange", {"sheetId": 3, "startRowIndex": 0}, "test")
    api.validate("GridRange", {"sheetId": 4, "startRowIndex": 12}, "test")
    with pytest.raises(SchemaViolation, match=r"2\.5 is not of type 'integer'"):
        api.validate("GridRange", {"sheetId": 2.5, "startRowIndex": 0}, "test")
    api.validate("ValueRange", {"values": [["a", 1], ["b"]]}, "test")
    api.validate("ValueRange", {"values": [["c", 2, "d"], ["e"], ["f"]]}, "test")
    with pytest.raises(SchemaViolation, match="is not of type"):
        api.validate("ValueRange", {"values": [["a", 1], ["b", {"x": 1}]]}, "test")
    api.validate("DimensionRange", {"sheetId": 1, "dimension": "ROWS"}, "test")
    with pytest.raises(SchemaViolation, match="'ROWZ' is not one of"):
        api.validate("DimensionRange", {"sheetId": 1, "dimension": "ROWZ"}, "test")
    with pytest.raises(SchemaViolation, match="'Rows' is not one of"):
        api.validate("DimensionRange", {"sheetId": 1, "dimension": "Rows"}, "test")
    api.validate("DimensionRange", {"sheetId": 1, "dimension": "ROWS"}, "test")  # the very same: known by its text
    with pytest.raises(SchemaViolation, match="True is not of type 'integer'"):  # equal in Python, not in JSON
        api.validate("DimensionRange", {"sheetId": True, "dimension": "ROWS"}, "test")
    with pytest.raises(SchemaViolation, match="'1' is not of type 'integer'"):
        api.validate("DimensionRange", {"sheetId": "1", "dimension": "ROWS"}, "test")


def _conditional(rule: dict[str, object], index: int = 0) -> dict[str, object]:
    return {"addConditionalFormatRule": {"index": index, "rule": rule}}


BOARD_CELLS = {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 5, "startColumnIndex": 0, "endColumnIndex": 5}
STARTS_WITH_DOT = {"condition": {"type": "TEXT_STARTS_WITH", "values": [{"userEnteredValue": "●"}]},
                   "format": {"backgroundColorStyle": {"rgbColor": {"red": 1}}}}


@pytest.mark.parametrize(
    ("request_body", "complaint"),
    [
        (_conditional({"ranges": [BOARD_CELLS], "booleanRule": {**STARTS_WITH_DOT, "condition": {
            "type": "TEXT_STARTS_WITH", "values": [{"userEnteredValue": "●"}, {"userEnteredValue": "■"}]}}}),
         "requires 1 values, not 2"),
        (_conditional({"ranges": [BOARD_CELLS], "booleanRule": {**STARTS_WITH_DOT, "condition": {
            "type": "TEXT_STARTS_WITH", "values": [{"userEnteredValue": ""}]}}}), "not empty"),
        (_conditional({"ranges": [BOARD_CELLS], "booleanRule": {**STARTS_WITH_DOT, "condition": {
            "type": "ONE_OF_LIST", "values": [{"userEnteredValue": "●"}]}}}), "Invalid ConditionType ONE_OF_LIST"),
        (_conditional({"ranges": [BOARD_CELLS], "booleanRule": {**STARTS_WITH_DOT, "format": {
            "numberFormat": {"type": "TEXT"}}}}), "can only apply bold"),
        (_conditional({"ranges": [BOARD_CELLS], "booleanRule": {**STARTS_WITH_DOT, "format": {
            "textFormat": {"fontSize": 14}}}}), "can only apply bold"),
        (_conditional({"ranges": [], "booleanRule": STARTS_WITH_DOT}), "at least one range"),
        (_conditional({"ranges": [BOARD_CELLS, {**BOARD_CELLS, "sheetId": 1}], "booleanRule": STARTS_WITH_DOT}),
         "same sheet"),
        (_conditional({"ranges": [{**BOARD_CELLS, "endRowIndex": 31}], "booleanRule": STARTS_WITH_DOT}),
         "exceeds grid limits"),
        (_conditional({"ranges": [BOARD_CELLS]}), "exactly one of booleanRule or gradientRule"),
        (_conditional({"ranges": [BOARD_CELLS], "booleanRule": STARTS_WITH_DOT}, index=1), "Invalid index 1"),
        ({"deleteConditionalFormatRule": {"sheetId": 0, "index": 0}}, "No conditional format"),
    ],
)
def test_the_fake_refuses_conditional_formats_google_would_refuse(
    fake: GoogleApiFake, request_body: dict[str, object], complaint: str
) -> None:
    board, orders = fake.spreadsheets[KEY].sheets
    assert board.sheet_id == 0  # as BOARD_CELLS says; sheetId 1 in a request stands for the orders tab
    body = json.loads(re.sub(r'"sheetId": 1\b', f'"sheetId": {orders.sheet_id}', json.dumps(request_body)))
    with pytest.raises(gspread.exceptions.APIError, match=complaint):
        fake_client().http_client.batch_update(KEY, {"requests": [body]})
    assert fake.spreadsheets[KEY].sheets[0].conditional_formats == []


def test_the_fake_serves_conditional_formats_when_asked(fake: GoogleApiFake) -> None:
    http = fake_client().http_client
    http.batch_update(KEY, {"requests": [_conditional({"ranges": [BOARD_CELLS], "booleanRule": STARTS_WITH_DOT})]})
    asked = http.fetch_sheet_metadata(KEY, params={"fields": "sheets(properties(title),conditionalFormats(ranges))"})
    assert [len(s.get("conditionalFormats", [])) for s in asked["sheets"]] == [1, 0]
    not_asked = http.fetch_sheet_metadata(KEY, params={"fields": "sheets(properties(title))"})
    assert all("conditionalFormats" not in s for s in not_asked["sheets"])


ROW_SIZE = {"pixelSize": 21}


@pytest.mark.parametrize(
    ("schema", "body", "why"),
    [
        ("Request", {"addSheet": {}, "deleteSheet": {"sheetId": 1}}, "too many properties"),
        ("Request", {}, "should be non-empty"),
        ("ExtendedValue", {"stringValue": "a", "numberValue": 1}, "too many properties"),
        ("CellData", {"userEnteredValue": {"stringValue": 3}}, "is not of type 'string'"),
        ("ValueRange", {"values": [[{"nested": 1}]]}, "is not of type"),
        ("BooleanCondition", {"type": "ONE_OF_LISTS"}, "is not one of"),
        ("GridRange", {"sheetId": "0"}, "is not of type 'integer'"),
        ("GridData", {"rowMetadata": [ROW_SIZE, ROW_SIZE, {"pixelSize": "21"}]},
         r"rowMetadata\.2\.pixelSize: '21' is not of type 'integer'"),  # one item held twice checked once, not all
    ],
)
def test_the_validator_itself(fake: GoogleApiFake, schema: str, body: object, why: str) -> None:
    with pytest.raises(SchemaViolation, match=why):
        fake.sheets_api.validate(schema, body, "test")


def test_the_fake_rejects_a_bad_field_mask(fake: GoogleApiFake, backend: GoogleSheetBackend) -> None:
    http = backend.client.http_client
    body = {"requests": [{"updateSheetProperties": {"properties": {"sheetId": 0}, "fields": "gridProperties.rows"}}]}
    with pytest.raises(gspread.exceptions.APIError, match="Invalid field mask"):
        http.batch_update(KEY, body)


def test_no_request_escapes_to_the_network(fake: GoogleApiFake) -> None:
    with pytest.raises(UnexpectedRequest):
        requests.get("https://example.com/", timeout=1)
    with pytest.raises(UnexpectedRequest, match="does not implement"):
        fake_client().http_client.values_clear(KEY, "Board!A1")
    fake.violations.clear()


def test_a_revoked_sign_in_is_an_access_error(fake: GoogleApiFake, policy: RetryPolicy) -> None:
    fake.reject_tokens = True
    creds = UserCredentials(  # type: ignore[no-untyped-call]
        token=None, refresh_token="revoked", client_id="cid", client_secret="secret", token_uri=TOKEN_URL
    )
    b = GoogleSheetBackend(gspread.Client(auth=creds), KEY, retry=policy)
    with pytest.raises(SheetAccessError, match="sign in again") as info:
        b.read(["Board!A1"])
    assert fake.calls(READ) == 0
    assert "An app left in \"Testing\" on Google's consent screen loses its sign-ins after 7 days" in str(info.value)


def test_gspreads_backoff_client_is_refused(fake: GoogleApiFake) -> None:
    client = gspread.Client(auth=fake_client().http_client.auth, http_client=gspread.BackOffHTTPClient)
    with pytest.raises(TypeError, match="never gives up"):
        GoogleSheetBackend(client, KEY)


def test_the_backend_is_a_sheet_backend(backend: GoogleSheetBackend) -> None:
    as_protocol: SheetBackend = backend
    assert as_protocol.name == f"spreadsheet {KEY}"


def test_a_tab_named_in_another_case_is_renamed_not_duplicated(
    backend: GoogleSheetBackend, fake: GoogleApiFake
) -> None:
    fake.create_spreadsheet(KEY, "GvG test", {"board": (30, 20)})
    sid = fake.spreadsheets[KEY].sheets[0].sheet_id
    backend.apply_layout(WorkbookLayout("t", (TabLayout("Board", 25, 16),)))
    assert [(s.title, s.sheet_id) for s in fake.spreadsheets[KEY].sheets] == [("Board", sid)]


def test_several_faults_each_count_every_call(
    backend: GoogleSheetBackend, fake: GoogleApiFake, clock: FakeClock
) -> None:
    first = fake.inject(FaultKind.INTERNAL, at=1)
    second = fake.inject(FaultKind.RATE_LIMIT_HTML, at=2)
    backend.read(["Board!A1"])
    assert (first.fired, second.fired) == (1, 1)
    assert fake.calls(READ) == 3 and len(clock.sleeps) == 2


@pytest.mark.parametrize(
    ("tab", "complaint"),
    [
        (TabLayout("Board", 10, 5, fills=(Fill("A1", "green"),)), "not a #RRGGBB colour"),
        (TabLayout("Board", 10, 5, dropdowns=(Dropdown("A1:1A", ("x",)),)), "not an A1 range"),
        (TabLayout("Board", 3, 5, frozen_rows=3), "frozen rows"),
        (TabLayout("Board", 10, 5, conditional_fills=(ConditionalFill("A1:B2", "●", "blue"),)),
         "conditional fill 'A1:B2': not a #RRGGBB colour"),
        (TabLayout("Board", 10, 5, conditional_fills=(ConditionalFill("A1:1A", "●", "#0000FF"),)), "not an A1 range"),
    ],
)
def test_a_broken_layout_fails_before_any_call(
    backend: GoogleSheetBackend, fake: GoogleApiFake, tab: TabLayout, complaint: str
) -> None:
    with pytest.raises(SheetError, match=complaint):
        backend.apply_layout(WorkbookLayout("t", (tab,)))
    assert fake.calls() == 0


def test_row_heights_and_column_widths_go_as_one_request_per_run_of_equal_sizes() -> None:
    tab = TabLayout("Board", rows=30, cols=5, column_widths={0: 110, 1: 110, 2: 110, 4: 60},
                    row_heights={3: 44, 4: 44, 5: 44, 7: 20})
    reqs = [r["updateDimensionProperties"] for r in layout_requests(WorkbookLayout("t", (tab,)), {})
            if "updateDimensionProperties" in r]
    got = [(r["range"]["dimension"], r["range"]["startIndex"], r["range"]["endIndex"], r["properties"]["pixelSize"])
           for r in reqs]
    assert got == [("COLUMNS", 0, 3, 110), ("COLUMNS", 4, 5, 60), ("ROWS", 3, 6, 44), ("ROWS", 7, 8, 20)]


def test_a_fill_set_at_the_top_is_sent_as_google_sets_it_and_a_long_wrap_is_not() -> None:
    """Issue 64: a View's panel names stand at their cells' top without wrapping (beside a wrapped text), sent to
    Google as to a local workbook; the wrap down its log's 5,000 rows is the columns' own style, not sent."""
    tab = TabLayout("View Ann", rows=5050, cols=8, fills=(Fill("A3:A40", "#FFFFFF", top=True),
                                                          Fill("B3:H40", "#FFFFFF", wrap=True),
                                                          Fill("A43:H5050", "#FFFFFF", wrap=True)))
    sent = [r["repeatCell"] for r in layout_requests(WorkbookLayout("t", (tab,)), {}) if "repeatCell" in r]
    formats = [(r["range"]["startColumnIndex"], r["cell"]["userEnteredFormat"]) for r in sent]
    assert [(col, f.get("verticalAlignment"), f.get("wrapStrategy")) for col, f in formats] == [
        (0, "TOP", None), (1, "TOP", "WRAP")]
    assert "verticalAlignment" in sent[0]["fields"] and "wrapStrategy" not in sent[0]["fields"]
