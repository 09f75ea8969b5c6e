"""Google sharing (issue 43 item 5): init locks every spreadsheet it shares (``writersCanShare = false``, the
request checked against Drive's discovery document by the fake), doctor checks the lock and names whoever else can
open each spreadsheet, and every command's token asks for the least scopes it needs (the fake refuses a call the
token's scopes do not reach, as Google does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.signin import EXPORT_SCOPES, PLAY_SCOPES, SHARE_SCOPES, open_service_account
from tests.commands.test_window_commands import run
from tests.commands.test_window_init import ACCOUNT, KEYS, fake, google_race
from tests.fakes.google_api import FILE_UPDATE, GoogleApiFake, iter_bodies, settle_auth
from tests.sync.race_game import registered_race

__all__ = ["fake", "google_race", "registered_race"]


def test_init_locks_every_spreadsheet_it_shares(fake: GoogleApiFake, google_race: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert all(ss.writers_can_share for ss in fake.spreadsheets.values())  # Drive's default
    code, out, err = run(capsys, "init", "race", "-c", google_race, "--no-email")
    assert code == 0, err
    assert not any(fake.spreadsheets[key].writers_can_share for key in KEYS.values())
    assert list(iter_bodies(fake, FILE_UPDATE)) == [{"writersCanShare": False}] * len(KEYS)
    assert out.count("Locked: ") == len(KEYS)
    assert "Locked: spreadsheet 'Cloud race · orders Bo': only its owner can share it on" in out
    first_share = next(i for i, c in enumerate(fake.log) if c.endpoint == "drive.permissions.create")
    first_lock = next(i for i, c in enumerate(fake.log) if c.endpoint == FILE_UPDATE)
    assert first_lock < first_share  # locked before any editor is let in
    assert set(fake.scopes_granted.values()) == {frozenset(SHARE_SCOPES)}


def test_each_command_asks_the_least_scopes_it_needs(fake: GoogleApiFake, google_race: Path,
                                                     capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "init", "race", "-c", google_race, "--no-email")[0] == 0
    fake.scopes_granted.clear()
    assert run(capsys, "sync", "-c", google_race)[0] in (0, 1)
    assert run(capsys, "doctor", "-c", google_race)[0] in (0, 1)
    assert set(fake.scopes_granted.values()) == {frozenset(PLAY_SCOPES)}
    fake.scopes_granted.clear()
    code, _, err = run(capsys, "export", "-c", google_race, "--reveal-early", "--out", tmp_path / "out")
    assert code == 0, err
    assert set(fake.scopes_granted.values()) == {frozenset(EXPORT_SCOPES)}


def test_a_token_of_the_play_scopes_cannot_share(fake: GoogleApiFake, tmp_path: Path) -> None:
    from tests.fakes.google_api import write_service_account_key

    key = write_service_account_key(tmp_path / "sa.json", ACCOUNT)
    backend = GoogleSheetBackend(settle_auth(open_service_account(key, PLAY_SCOPES)), KEYS["Bo"])
    backend.read(["A1"])  # Sheets and Drive's read-only calls are within its scopes
    backend.sharing()
    with pytest.raises(SheetAccessError):
        backend.share(["eve@example.org"], "reader", notify=False)
    assert not fake.spreadsheets[KEYS["Bo"]].permissions


def test_doctor_checks_the_lock_and_names_whoever_else_can_open_a_spreadsheet(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "init", "race", "-c", google_race, "--no-email")[0] == 0
    out = run(capsys, "doctor", "-c", google_race)[1]
    assert "✔ sharing: spreadsheet 'Cloud race · orders Bo': opened by gm@example.com (owner); bo@example.org " \
           "(writer); gm@example.org (writer); only its owner can share it on" in out
    assert "⚠ sharing" not in out

    bo = fake.spreadsheets[KEYS["Bo"]]
    bo.writers_can_share = True  # a GM ticked the box back in Drive
    bo.permissions.append({"kind": "drive#permission", "id": "99", "type": "user", "role": "reader",
                           "emailAddress": "ann@example.org"})  # Bo's orders handed to the enemy
    board = fake.spreadsheets[KEYS["board"]]
    board.permissions.append({"kind": "drive#permission", "id": "98", "type": "anyone", "role": "reader"})
    out = run(capsys, "doctor", "-c", google_race)[1]
    assert "⚠ sharing: spreadsheet 'Cloud race · orders Bo': its editors can share it on with anyone" in out
    assert "Editors can change permissions and share" in out
    assert "⚠ sharing: spreadsheet 'Cloud race · orders Bo' can also be opened by ann@example.org (reader), whom " \
           "the match does not share it with" in out
    assert "⚠ sharing: spreadsheet 'Cloud race · board' can also be opened by anyone with the link (reader)" in out
