"""Google sharing (issue 43 item 5): init locks every spreadsheet it shares (``writersCanShare = false``, the
request checked against Drive's discovery document by the fake), doctor checks the lock and names whoever else can
open each spreadsheet, and every command's token asks for the least scopes it needs (the fake refuses a call the
token's scopes do not reach, as Google does)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheets_gm.sheets.backend import OwnerOnlyError, SharingLock, SheetAccessError
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.signin import EXPORT_SCOPES, PLAY_SCOPES, SHARE_SCOPES, open_service_account
from tests.commands.test_window_commands import run
from tests.commands.test_window_init import ACCOUNT, KEYS, fake, google_race, granted
from tests.fakes.google_api import FILE_UPDATE, GoogleApiFake, iter_bodies, settle_auth
from tests.sync.race_game import registered_race

__all__ = ["fake", "google_race", "registered_race"]


def test_init_locks_every_spreadsheet_it_owns(fake: GoogleApiFake, google_race: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    for key in KEYS.values():
        fake.spreadsheets[key].owner = ACCOUNT  # as if the service account had made them (its shared drive aside)
    assert all(ss.writers_can_share for ss in fake.spreadsheets.values())  # Drive's default
    code, out, err = run(capsys, "init", "race", "-c", google_race, "--no-email")
    assert code == 0, err
    assert not any(fake.spreadsheets[key].writers_can_share for key in KEYS.values())
    assert list(iter_bodies(fake, FILE_UPDATE)) == [{"writersCanShare": False}] * len(KEYS)
    assert out.count("Locked: ") == len(KEYS) and "Not locked" not in out
    assert "Locked: spreadsheet 'Cloud race · orders Bo': only its owner can share it on" in out
    first_share = next(i for i, c in enumerate(fake.log) if c.endpoint == "drive.permissions.create")
    first_lock = next(i for i, c in enumerate(fake.log) if c.endpoint == FILE_UPDATE)
    assert first_lock < first_share  # locked before any editor is let in
    assert set(fake.scopes_granted.values()) == {frozenset(SHARE_SCOPES)}


def test_init_on_spreadsheets_the_gm_made_shares_them_and_says_she_alone_can_lock_them(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The README's second way: the GM made the spreadsheets in her My Drive and shared each with the service
    # account as Editor. Drive lets only the owner change "Editors can change permissions and share": the match is
    # created and shared all the same, and each spreadsheet's line says who locks it and where she clicks.
    code, out, err = run(capsys, "init", "race", "-c", google_race, "--no-email")
    assert code == 0, err
    assert "Match created" in out and "not shared with these credentials" not in out + err
    assert fake.calls(FILE_UPDATE) == len(KEYS)  # each asked once, each refused
    assert all(fake.spreadsheets[key].writers_can_share for key in KEYS.values())
    assert out.count("Not locked: ") == len(KEYS) and "Locked: " not in out.replace("Not locked: ", "")
    assert ("Not locked: spreadsheet 'Cloud race · orders Bo': its editors can still share it on, and Drive lets only "
            f"its owner stop them (the service account {ACCOUNT} is one of its editors); now that init has shared "
            "it, its owner (gm@example.com) can do it: in Google Drive, open its Share dialog, click the gear "
            "(Settings) and untick \"Editors can change permissions and share\"") in out
    assert granted(fake, "Bo") == {"bo@example.org": "writer", "gm@example.org": "writer"}
    assert out.count("Shared: ") == 5  # the board: its writers, its readers; the engine; each seat's orders

    out = run(capsys, "doctor", "-c", google_race)[1]
    assert out.count("⚠ sharing: ") == len(KEYS)
    assert "its owner (gm@example.com) can do it: in Google Drive, open its Share dialog" in out
    for key in KEYS.values():
        fake.spreadsheets[key].writers_can_share = False  # the GM unticks the box in each Share dialog
    out = run(capsys, "doctor", "-c", google_race)[1]
    assert "⚠ sharing" not in out and out.count("✔ sharing: ") == len(KEYS)


def test_init_on_spreadsheets_their_owner_locked_already_says_whom_she_shares_each_with(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Locked by their owner before init: Drive lets an editor share them no more. The match is created; each
    # spreadsheet's line names whom its owner shares it with, by the Share dialog's words.
    for key in KEYS.values():
        fake.spreadsheets[key].writers_can_share = False
    code, out, err = run(capsys, "init", "race", "-c", google_race, "--no-email")
    assert code == 0, err
    assert "Match created" in out and "Shared: " not in out
    assert not any(fake.spreadsheets[key].permissions for key in KEYS.values())
    assert ("Not shared: spreadsheet 'Cloud race · orders Bo': its owner has turned off \"Editors can change "
            f"permissions and share\", so the service account {ACCOUNT}, an editor, cannot share it; gm@example.com "
            "shares it in its Share dialog: Editor for bo@example.org, gm@example.org") in out
    assert "Viewer for ann@example.org, al@example.org, bo@example.org" in out
    assert "Not locked" not in out and out.count("Locked: ") == len(KEYS)  # as its owner left it
    assert ("Locked: spreadsheet 'Cloud race · orders Bo': only its owner can share it on (its owner turned Drive's "
            "\"Editors can change permissions and share\" off)") in out

    out = run(capsys, "doctor", "-c", google_race)[1]  # until she has shared them, doctor says with whom
    assert ("⚠ sharing: spreadsheet 'Cloud race · orders Bo' is not shared with bo@example.org (Editor), "
            "gm@example.org (Editor), whom the match shares it with: they cannot open it") in out
    assert "fix: gm@example.com shares it in its Share dialog" in out
    assert out.count("⚠ sharing: ") == len(KEYS)
    for role, key in KEYS.items():  # she shares each as told
        for email, grant in _plan(role).items():
            fake.spreadsheets[key].permissions.append({"kind": "drive#permission", "id": email, "type": "user",
                                                       "role": grant, "emailAddress": email})
    assert "⚠ sharing" not in run(capsys, "doctor", "-c", google_race)[1]


def _plan(role: str) -> dict[str, str]:
    """Whom the race's init shares each spreadsheet with (its roster and GM), by role."""
    gm = {"gm@example.org": "writer"}
    return {"Ann": {"ann@example.org": "writer", "al@example.org": "writer", **gm},
            "Bo": {"bo@example.org": "writer", **gm}, "engine": gm,
            "board": {**gm, "ann@example.org": "reader", "al@example.org": "reader",
                      "bo@example.org": "reader"}}[role]


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
    for key in KEYS.values():
        fake.spreadsheets[key].owner = ACCOUNT
    assert run(capsys, "init", "race", "-c", google_race, "--no-email")[0] == 0
    out = run(capsys, "doctor", "-c", google_race)[1]
    assert f"✔ sharing: spreadsheet 'Cloud race · orders Bo': opened by {ACCOUNT} (owner); bo@example.org " \
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


@pytest.mark.parametrize(("owner", "drive_id", "caller", "want"), [
    ("", "", "user", SharingLock.LOCKED),  # the GM's own spreadsheet, her own sign-in
    ("", "", "service", SharingLock.OWNER_ONLY),  # the GM's own, shared with the service account as Editor
    (ACCOUNT, "", "service", SharingLock.LOCKED),  # the service account's own
    (ACCOUNT, "", "user", SharingLock.OWNER_ONLY),  # the service account's own, the GM an editor
    ("", "0ASharedDrive00", "user", SharingLock.SHARED_DRIVE),  # a shared drive's: nobody
    ("", "0ASharedDrive00", "service", SharingLock.SHARED_DRIVE),
])
def test_the_fake_keeps_the_sharing_settings_to_the_files_owner_as_drive_does(
        owner: str, drive_id: str, caller: str, want: SharingLock, fake: GoogleApiFake, tmp_path: Path) -> None:
    from tests.fakes.google_api import OWNER_ONLY_MESSAGE, fake_client, write_service_account_key

    ss = fake.spreadsheets[KEYS["Bo"]]
    ss.owner, ss.drive_id = owner, drive_id
    client = fake_client() if caller == "user" else settle_auth(open_service_account(
        write_service_account_key(tmp_path / "sa.json", ACCOUNT), SHARE_SCOPES))
    backend = GoogleSheetBackend(client, KEYS["Bo"])
    assert backend.restrict_sharing() is want
    assert ss.writers_can_share is (want is not SharingLock.LOCKED)
    refused = [c for c in fake.log if c.endpoint == FILE_UPDATE and c.status == 403]
    assert len(refused) == (want is not SharingLock.LOCKED)
    if want is SharingLock.OWNER_ONLY:  # Drive's own words and reason
        assert backend.owner_lock() == (owner or fake.user_email, True)
        ss.writers_can_share = False  # the owner locks it: her editors may share it no more
        with pytest.raises(OwnerOnlyError, match=re.escape(OWNER_ONLY_MESSAGE)):
            backend.share(["eve@example.org"], "reader", notify=False)
        assert not ss.permissions
    elif not drive_id:
        backend.share(["eve@example.org"], "reader", notify=False)  # the owner shares a locked file
        assert [p["emailAddress"] for p in ss.permissions] == ["eve@example.org"]
