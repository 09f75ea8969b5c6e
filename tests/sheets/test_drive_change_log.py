"""Drive's change log as ``DriveChangeLog`` asks it, against the fake: which files changed, and who last
modified each, a player typing or our own account writing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import gspread
import pytest

from sheets_gm.sheets.backend import RangeWrite, SheetError
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.drive import DRIVE_CHANGES_URL, DriveChangeLog
from sheets_gm.sheets.google.signin import open_service_account
from sheets_gm.sheets.retry import RetryPolicy
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import CHANGES, GoogleApiFake, fake_client, settle_auth, write_service_account_key

BOARD, ORDERS = "1BoardKeyOfTheChangeLogTest_abcdefghijk", "1OrdersKeyOfTheChangeLogTest_abcdefghij"
SA_EMAIL = "gm-bot@sheets-gm-test.iam.gserviceaccount.com"
START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


@pytest.fixture
def fake() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as f:
        f.now = START
        for key in (BOARD, ORDERS):
            f.create_spreadsheet(key, "change log", {"Board": (10, 10)})
        yield f
    assert not f.violations, f.violations


@pytest.fixture
def client(fake: GoogleApiFake, tmp_path: Path) -> gspread.Client:
    """Our service account, signed in."""
    return settle_auth(open_service_account(write_service_account_key(tmp_path / "sa.json", SA_EMAIL)))


def ours(client: gspread.Client, key: str) -> GoogleSheetBackend:
    clock = FakeClock()
    return GoogleSheetBackend(client, key, retry=RetryPolicy(deadline=60, time=clock.time, sleep=clock.sleep))


def later(fake: GoogleApiFake, seconds: float) -> None:
    assert fake.now is not None
    fake.now += timedelta(seconds=seconds)


def test_the_log_names_the_last_modifier_of_each_file(fake: GoogleApiFake, client: gspread.Client) -> None:
    log = DriveChangeLog(client)
    token = log.start_token()
    fake.set_values(BOARD, "Board!A1", [["typed"]])
    later(fake, 5)
    ours(client, ORDERS).write([RangeWrite("Board!A1", [["answered"]])])
    changes = log.since(token)
    assert changes.changed == {BOARD: "2026-11-23T12:00:00.000Z", ORDERS: "2026-11-23T12:00:05.000Z"}
    assert changes.modified_by == {BOARD: fake.player_email, ORDERS: SA_EMAIL}
    assert changes.modified_at == changes.changed
    assert changes.by_me == {ORDERS}
    assert "lastModifyingUser(emailAddress,me)" in fake.log[-1].query["fields"][0]


def test_a_players_edit_before_our_write_shows_only_as_a_change(fake: GoogleApiFake, client: gspread.Client) -> None:
    log = DriveChangeLog(client)
    token = log.start_token()
    fake.set_values(BOARD, "Board!B2", [["typed while the sync resolved"]])
    later(fake, 1)
    ours(client, BOARD).write([RangeWrite("Board!A1", [["answered"]])])
    changes = log.since(token)
    assert changes.modified_by == {BOARD: SA_EMAIL} and changes.by_me == {BOARD}
    later(fake, 1)
    fake.set_values(BOARD, "Board!B3", [["typed after"]], by="ann@example.com")
    changes = log.since(changes.token)
    assert changes.modified_by == {BOARD: "ann@example.com"} and changes.by_me == frozenset()
    assert changes.changed == {BOARD: "2026-11-23T12:00:02.000Z"}


def test_drive_knows_an_edit_only_once_it_lists_it(fake: GoogleApiFake, client: gspread.Client) -> None:
    fake.drive_lag = timedelta(minutes=3)
    log = DriveChangeLog(client)
    token = log.start_token()
    ours(client, BOARD).write([RangeWrite("Board!A1", [["answered"]])])
    later(fake, 60)
    fake.set_values(BOARD, "Board!B2", [["typed"]])
    later(fake, 150)  # our write is listed, the player's edit not yet
    changes = log.since(token)
    assert changes.modified_by == {BOARD: SA_EMAIL} and changes.modified_at == {BOARD: "2026-11-23T12:00:00.000Z"}
    later(fake, 60)
    changes = log.since(changes.token)
    assert changes.modified_by == {BOARD: fake.player_email}
    assert changes.modified_at == {BOARD: "2026-11-23T12:01:00.000Z"}


def test_an_edit_drive_lists_late_does_not_undo_a_later_one_it_listed(fake: GoogleApiFake,
                                                                        client: gspread.Client) -> None:
    """Drive lists a player's edit late (its lag then 3 minutes) and our later write at once: once both are listed,
    each change shows the file as its latest edit leaves it (our write), whichever was listed last."""
    log = DriveChangeLog(client)
    token = log.start_token()
    fake.drive_lag = timedelta(minutes=3)
    fake.set_values(BOARD, "Board!B2", [["typed"]])
    fake.drive_lag = timedelta(0)
    later(fake, 10)
    ours(client, BOARD).write([RangeWrite("Board!A1", [["answered"]])])
    changes = log.since(token)
    assert changes.modified_by == {BOARD: SA_EMAIL} and changes.modified_at == {BOARD: "2026-11-23T12:00:10.000Z"}
    later(fake, 180)  # the player's edit listed now, after ours
    changes = log.since(changes.token)
    assert changes.modified_by == {BOARD: SA_EMAIL} and changes.modified_at == {BOARD: "2026-11-23T12:00:10.000Z"}
    assert changes.by_me == {BOARD}


def test_an_account_sees_only_the_files_shared_with_it(fake: GoogleApiFake, client: gspread.Client,
                                                      tmp_path: Path) -> None:
    """A file shared with one account alone (the fake's ``readers``): another account's change log and file index
    leave it out and its read is refused, as Google's are; the account it is shared with sees it as before."""
    other = settle_auth(open_service_account(write_service_account_key(tmp_path / "other.json",
                                                                       "other@sheets-gm-test.iam.gserviceaccount.com")))
    fake.spreadsheets[BOARD].readers = frozenset({SA_EMAIL})
    mine, theirs = DriveChangeLog(client), DriveChangeLog(other)
    tokens = mine.start_token(), theirs.start_token()
    fake.set_values(BOARD, "Board!A1", [["typed"]])
    fake.set_values(ORDERS, "Board!A1", [["typed"]])
    later(fake, 5)
    assert set(mine.since(tokens[0]).changed) == {BOARD, ORDERS}
    assert set(theirs.since(tokens[1]).changed) == {ORDERS}
    assert set(mine.modified_since(START - timedelta(minutes=1)).modified) == {BOARD, ORDERS}
    assert set(theirs.modified_since(START - timedelta(minutes=1)).modified) == {ORDERS}
    with pytest.raises(SheetError, match=r"403|permission"):
        ours(other, BOARD).read(["Board!A1"])
    assert ours(client, BOARD).read(["Board!A1"])


def test_a_user_sign_in_is_its_own_account(fake: GoogleApiFake) -> None:
    client = fake_client()
    log = DriveChangeLog(client)
    token = log.start_token()
    ours(client, BOARD).write([RangeWrite("Board!A1", [["answered"]])])
    changes = log.since(token)
    assert changes.modified_by == {BOARD: fake.user_email} and changes.by_me == {BOARD}


def test_a_file_drive_shows_no_modifier_for(fake: GoogleApiFake, client: gspread.Client,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    log = DriveChangeLog(client)
    token = log.start_token()
    fake.set_values(BOARD, "Board!A1", [["typed"]])
    monkeypatch.setattr(fake, "_drive_file", lambda last, caller: {"modifiedTime": "2026-11-23T12:00:00.000Z"})
    changes = log.since(token)
    assert changes.changed == {BOARD: "2026-11-23T12:00:00.000Z"}
    assert changes.modified_by == {BOARD: ""} and changes.by_me == frozenset()


def test_the_fake_refuses_a_mask_naming_what_drive_lacks(fake: GoogleApiFake, client: gspread.Client) -> None:
    token = DriveChangeLog(client).start_token()
    for fields in ("changes(file(lastModifyingUser(shoeSize)))", "changes(fileId", "changes(fileId))"):
        with pytest.raises(gspread.exceptions.APIError, match="Invalid field selection"):
            client.http_client.request("get", DRIVE_CHANGES_URL, params={"pageToken": token, "fields": fields})
    assert fake.calls(CHANGES) == 3


def test_a_refused_question_is_a_sheet_error(fake: GoogleApiFake, client: gspread.Client) -> None:
    with pytest.raises(SheetError, match="did not answer"):
        DriveChangeLog(client).since("not-a-token")
