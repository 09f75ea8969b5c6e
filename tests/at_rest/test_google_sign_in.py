"""The GM's own Google sign-in (issue 56): the token every command and cron's polls load asks for the spreadsheets
and ``drive.file`` alone (Drive on the files sheets-gm made), and the steps that reach other Drive files (init's
folder look-up, creation and sharing; export) sign in apart, in a file no poll loads. The fake grants each token
the scopes it asked for and refuses, as Google does, a call outside them (403) and, to a ``drive.file`` token, any
Drive call on a file sheets-gm did not make (404, left out of lists)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from google.oauth2.credentials import Credentials as UserCredentials

from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.signin import DRIVE_SIGN_IN_SCOPES, SIGN_IN_SCOPES, saved_scopes
from tests.commands.test_init_create import MINE, made, starter
from tests.commands.test_window_commands import run
from tests.commands.test_window_init import KEYS, google_race
from tests.fakes.google_api import (
    CHANGES,
    READ,
    SHARE,
    TOKEN_URL,
    GoogleApiFake,
    signed_in_fake,
)
from tests.sync.race_game import registered_race

__all__ = ["google_race", "registered_race"]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    """The fake with the race's four spreadsheets, the GM's own, made by hand, and a folder of her My Drive; every
    OAuth sign-in answered at once (no browser) with the scopes it asks, its first request refreshing its token."""
    import sheets_gm.sheets.google.signin as google

    original = google.open_oauth

    asked: list[tuple[str, ...]] = []

    def flow(client_config: Mapping[str, Any], scopes: Iterable[str], port: int = 0) -> UserCredentials:
        asked.append(tuple(scopes))
        return UserCredentials(  # type: ignore[no-untyped-call]
            token=None, refresh_token="refresh", client_id="cid", client_secret="secret", token_uri=TOKEN_URL,
            scopes=list(asked[-1]))

    monkeypatch.setattr(google, "open_oauth", lambda c, t, *, scopes=google.SIGN_IN_SCOPES, **_: original(
        c, t, scopes=scopes, flow=flow))
    with signed_in_fake(monkeypatch, {key: f"race test · {role}" for role, key in KEYS.items()}) as f:
        f.create_folder(MINE, "My matches")
        f.asked = asked  # type: ignore[attr-defined]
        yield f


def _oauth(config: Path) -> Path:
    """The config signed in as the GM herself: an OAuth client file beside it instead of the service account."""
    (config.parent / "client_secret.json").write_text(json.dumps(
        {"installed": {"client_id": "cid", "client_secret": "secret", "token_uri": TOKEN_URL}}), encoding="utf-8")
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('service_account = "sa.json"', 'oauth_client = "client_secret.json"'),
                      encoding="utf-8")
    return config


def _granted_since(fake: GoogleApiFake, before: int) -> set[frozenset[str]]:
    return {scopes for token, scopes in fake.scopes_granted.items() if int(token.rsplit("-", 1)[1]) > before}


def test_polls_hold_the_narrow_sign_in_and_init_its_own_on_spreadsheets_sheets_gm_made(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter(tmp_path, "wesnoth", oauth=True)
    _oauth(config)
    code, out, err = run(capsys, "init", "wesnoth", "-c", config, "--create", MINE, "--no-email")
    assert code == 0, err
    assert out.count("Locked: ") == 4 and len(made(fake)) == 4  # hers: init locks them
    state = tmp_path / ".sheets-gm"
    assert saved_scopes(state / "oauth-token-drive.json") == frozenset(DRIVE_SIGN_IN_SCOPES)
    assert not (state / "oauth-token.json").exists()  # init never signed in for playing

    before = fake.tokens_issued
    assert run(capsys, "sync", "-c", config)[0] in (0, 1)
    assert saved_scopes(state / "oauth-token.json") == frozenset(SIGN_IN_SCOPES) == {
        "https://www.googleapis.com/auth/spreadsheets", "https://www.googleapis.com/auth/drive.file"}
    assert _granted_since(fake, before) == {frozenset(SIGN_IN_SCOPES)}  # the poll never loads the Drive sign-in
    assert fake.asked == [tuple(DRIVE_SIGN_IN_SCOPES), tuple(SIGN_IN_SCOPES)]  # type: ignore[attr-defined]
    fake.reset_counters()
    assert run(capsys, "sync", "-c", config)[0] in (0, 1)
    assert fake.calls(CHANGES) == 1 and fake.calls(READ) == 0  # drive.file shows it sheets-gm's own: the gate holds

    fake.scopes_granted.clear()
    assert run(capsys, "export", "-c", config, "--reveal-early", "--out", tmp_path / "out")[0] == 0
    assert set(fake.scopes_granted.values()) == {frozenset(DRIVE_SIGN_IN_SCOPES)}


def test_the_narrow_sign_in_reads_the_gms_own_spreadsheets_once_a_minute_and_cannot_share_them(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Spreadsheets the GM made by hand and plays on her own account: init (the Drive sign-in) shares and locks
    # them, hers; the polls' drive.file sees none of them in Drive, so a poll reads them all whatever Drive says,
    # once a minute (cron's poll a minute as before; a poll sooner, serve's look every 10 s, reads none of them).
    now = [datetime(2026, 11, 23, 12, 0, tzinfo=UTC)]
    monkeypatch.setattr("sheets_gm.commands.base.clock", lambda: now[0])
    config = _oauth(google_race)
    code, out, err = run(capsys, "init", "race", "-c", config, "--no-email")
    assert code == 0, err
    assert out.count("Locked: ") == len(KEYS)
    assert run(capsys, "sync", "-c", config)[0] in (0, 1)
    for step, reads in ((60, len(KEYS)), (10, 0), (30, 0), (20, len(KEYS))):
        now[0] += timedelta(seconds=step)
        fake.reset_counters()
        code, out, err = run(capsys, "sync", "-c", config)
        assert code in (0, 1), err
        assert fake.calls(READ) == reads, step
    assert "are not shown to these credentials in Drive, so read about once a minute" in out + err

    out = run(capsys, "doctor", "-c", config)[1]  # what doctor cannot check with that sign-in, it says so
    assert "✘" not in out
    assert ("⚠ drive: Drive does not show these credentials spreadsheet 'Cloud race · orders Ann', " in out
            and "read them in full about once a minute" in out and "init --create" in out)
    assert out.count("⚠ sharing: ") == len(KEYS) and "so who can open it is not checked" in out

    from sheets_gm.match.config import load_config
    from sheets_gm.running.google_sign_in import google_client

    narrow = GoogleSheetBackend(google_client(load_config(config)), KEYS["Bo"])
    narrow.read(["A1"])  # the spreadsheets scope reaches every spreadsheet
    with pytest.raises(SheetAccessError, match="does not exist or is not shared"):
        narrow.share(["eve@example.org"], "reader", notify=False)  # Drive: no such file, for drive.file
    assert fake.calls(SHARE) == 1 and not any(p.get("emailAddress") == "eve@example.org"
                                              for p in fake.spreadsheets[KEYS["Bo"]].permissions)


def test_doctor_warns_of_a_saved_sign_in_that_holds_the_whole_drive(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _oauth(google_race)
    token = google_race.parent / ".sheets-gm" / "oauth-token.json"
    token.parent.mkdir(exist_ok=True)
    token.write_text(json.dumps({"refresh_token": "refresh", "client_id": "cid", "client_secret": "secret",
                                 "token_uri": TOKEN_URL, "scopes": list(DRIVE_SIGN_IN_SCOPES)}), encoding="utf-8")
    token.chmod(0o600)
    out = run(capsys, "doctor", "-c", config)[1]
    assert f"⚠ credentials: the sign-in saved in {token}, which every poll loads, holds drive as well" in out
    assert f"delete {token} and run `sheets-gm status -c {config}` once" in out
    token.write_text(json.dumps({"refresh_token": "refresh", "client_id": "cid", "client_secret": "secret",
                                 "token_uri": TOKEN_URL, "scopes": list(SIGN_IN_SCOPES)}), encoding="utf-8")
    assert "⚠ credentials" not in run(capsys, "doctor", "-c", config)[1]


@pytest.mark.parametrize(("scopes", "by_app", "sheets", "drive"), [
    ({"spreadsheets", "drive.file"}, False, 200, 404),  # the GM's own hand-made file: Drive shows it none
    ({"spreadsheets", "drive.file"}, True, 200, 200),  # one sheets-gm made
    ({"drive.file"}, False, 404, 404),  # no spreadsheets scope: Sheets too reaches only sheets-gm's files
    ({"drive.file"}, True, 200, 200),
    ({"spreadsheets"}, True, 200, 403),  # no Drive scope at all: the method is out of reach
    ({"spreadsheets", "drive"}, False, 200, 200),
])
def test_the_fake_reaches_what_each_tokens_scopes_reach_as_google_does(
        scopes: set[str], by_app: bool, sheets: int, drive: int, fake: GoogleApiFake) -> None:
    import gspread

    from tests.fakes.google_api import fake_credentials

    token = f"scoped-{'-'.join(sorted(scopes))}"
    fake.scopes_granted[token] = frozenset(f"https://www.googleapis.com/auth/{s}" for s in scopes)
    fake.spreadsheets[KEYS["Bo"]].by_app = by_app
    http = gspread.Client(auth=fake_credentials(token)).http_client
    base = "https://sheets.googleapis.com/v4/spreadsheets"
    got_sheets = http.session.get(f"{base}/{KEYS['Bo']}", params={"fields": "spreadsheetId"}).status_code
    got_drive = http.session.get(f"https://www.googleapis.com/drive/v3/files/{KEYS['Bo']}",
                                 params={"fields": "id"}).status_code
    assert (got_sheets, got_drive) == (sheets, drive)
    if drive == 403:  # Google's own words for a scope the method does not take
        assert "insufficient authentication scopes" in http.session.get(
            f"https://www.googleapis.com/drive/v3/files/{KEYS['Bo']}", params={"fields": "id"}).text
