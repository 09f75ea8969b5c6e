"""Google's refusals in the GM's words: one mapper (``sheets.google.errors.api_error``) for a match's spreadsheets and
for ``init --create``'s Drive folder, so that a refusal reads as well whichever asked (a disabled API, rejected
credentials, a service account in a My Drive), and only what is out of reach is named for what it is."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from gspread.exceptions import APIError

from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.google.drive_create import DriveCreateError, DriveCreator
from sheets_gm.sheets.google.errors import USE_INSTEAD, api_error, spreadsheet_refused
from sheets_gm.sheets.google.signin import SHARE_SCOPES, open_service_account
from sheets_gm.sheets.retry import RetryPolicy
from tests.fakes.google_api import signed_in_fake, write_service_account_key

ACCOUNT = "gm-bot@sheets-gm-test.iam.gserviceaccount.com"
DISABLED = ("Google Drive API has not been used in project 123 before or it is disabled. Enable it by visiting "
            "https://console.developers.google.com/apis/api/drive.googleapis.com/overview?project=123")


def refusal(code: int, message: str, status: str, reason: str = "forbidden") -> APIError:
    """Google's error answer as gspread raises it."""
    r = requests.Response()
    r.status_code = code
    r._content = json.dumps({"error": {"code": code, "message": message, "status": status,
                                       "errors": [{"message": message, "reason": reason}]}}).encode()
    r.headers["Content-Type"] = "application/json; charset=UTF-8"
    return APIError(r)


@pytest.fixture
def drive(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[DriveCreator]:
    with signed_in_fake(monkeypatch, {}):
        client = open_service_account(write_service_account_key(tmp_path / "sa.json", ACCOUNT), SHARE_SCOPES)
        yield DriveCreator(client, RetryPolicy(sleep=lambda s: None))


def test_a_spreadsheet_out_of_reach_names_the_account_to_share_it_with() -> None:
    err = api_error("read", refusal(403, "The caller does not have permission", "PERMISSION_DENIED"),
                    spreadsheet_refused("spreadsheet 'Friday · board'", "1Key", "Friday · board", ACCOUNT))
    assert type(err) is SheetAccessError
    assert str(err).startswith("Cannot open spreadsheet 'Friday · board' (key 1Key) for the read (HTTP 403")
    assert str(err).endswith(f"it does not exist or is not shared with these credentials. Share the spreadsheet "
                             f"with {ACCOUNT} (as Editor).")


def test_a_drive_folder_out_of_reach_is_named_as_a_folder(drive: DriveCreator) -> None:
    what = "look-up of the Drive folder 1Folder"
    missing = drive._refusal(what, refusal(404, "File not found: 1Folder.", "NOT_FOUND", "notFound"), "1Folder")
    assert type(missing) is DriveCreateError
    assert str(missing) == (f"Drive has no folder or file 1Folder that the service account {ACCOUNT} can see "
                            f"({what}): check the URL, and share the folder with {ACCOUNT} as Editor")
    refused = drive._refusal(what, refusal(403, "Insufficient permissions", "PERMISSION_DENIED"), "1Folder")
    assert type(refused) is DriveCreateError and "share the folder with" in str(refused)
    assert "(Content manager in a shared drive)" in str(refused)


def test_a_disabled_api_reads_the_same_from_drive_and_from_a_spreadsheet(drive: DriveCreator) -> None:
    """Drive's own mapper said "share the folder" here; the one mapper names the API to enable."""
    err = refusal(403, DISABLED, "PERMISSION_DENIED", "accessNotConfigured")
    created = drive._refusal("creation of 'Friday · board'", err, "1Folder")
    read = api_error("read", err, spreadsheet_refused("spreadsheet 'x'", "1Key", None, ACCOUNT))
    for found in (created, read):
        assert "is not enabled in the Cloud project of these credentials: enable the Google Sheets API and the " \
               "Google Drive API" in str(found)
    assert type(created) is DriveCreateError and "share the folder" not in str(created)


def test_rejected_credentials_say_how_to_sign_in_again_and_are_no_missing_file(drive: DriveCreator) -> None:
    """A 401 is not a DriveCreateError (which ``still_there`` takes for a file gone): no sharing mends it."""
    err = refusal(401, "Request had invalid authentication credentials.", "UNAUTHENTICATED", "authError")
    found = drive._refusal("creation of 'Friday · board'", err, "1Folder")
    assert type(found) is SheetAccessError
    assert "Google rejected the credentials for the creation of 'Friday · board'" in str(found)
    assert "delete the saved sign-in and sign in again" in str(found)


def test_a_service_account_in_a_my_drive_is_told_the_way_out_from_either(drive: DriveCreator) -> None:
    err = refusal(403, "The user's Drive storage quota has been exceeded.", "PERMISSION_DENIED",
                  "storageQuotaExceeded")
    created = drive._refusal("creation of 'Friday · board'", err, "1Folder")
    assert type(created) is DriveCreateError and "cannot own files in a My Drive" in str(created)
    assert str(created).endswith(USE_INSTEAD)
    assert USE_INSTEAD in str(api_error("write", err, spreadsheet_refused("s", "1Key", None, ACCOUNT)))
    mine = api_error("write", err, spreadsheet_refused("s", "1Key", None, None))  # the GM's own: her quota is full
    assert isinstance(mine, SheetAccessError) and USE_INSTEAD not in str(mine)
    assert "the Drive storage of your Google account is full" in str(mine) and "Cannot open" not in str(mine)
