"""init, sync, resolve and status against the Google fake: four spreadsheets, a service account, sharing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from tests.fakes.google_api import GoogleApiFake, signed_in_fake, write_service_account_key
from tests.matchfiles import type_orders

ACCOUNT = "gm-bot@sheets-gm-test.iam.gserviceaccount.com"
KEYS = {"board": "1BoardKey_cmd_test_000000000000000000000000",
        "engine": "1EngineKey_cmd_test_00000000000000000000000",
        "red": "1RedKey_cmd_test_0000000000000000000000000000",
        "blue": "1BlueKey_cmd_test_000000000000000000000000000"}
ROSTER = ("name,team,role,captain,email\nAnn,red,dps,yes,ann@example.org\nBen,red,healer,,ben@example.org\n"
          "Cat,blue,tank,yes,cat@example.org\nDan,blue,dps,,\n")


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    with signed_in_fake(monkeypatch, {key: f"cmd test · {role}" for role, key in KEYS.items()}) as f:
        yield f


@pytest.fixture
def match_toml(tmp_path: Path) -> Path:
    write_service_account_key(tmp_path / "sa.json", ACCOUNT)
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    path = tmp_path / "match.toml"
    path.write_text(
        'ruleset = "gvg"\ntitle = "Cloud match"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
        'gm_emails = ["gm@example.org"]\n'
        f'[sheets]\nbackend = "google"\nboard = "https://docs.google.com/spreadsheets/d/{KEYS["board"]}/edit"\n'
        f'engine = "{KEYS["engine"]}"\norders = {{ red = "{KEYS["red"]}", blue = "{KEYS["blue"]}" }}\n'
        '[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def emails(fake: GoogleApiFake, role: str) -> dict[str, str]:
    return {p["emailAddress"]: p["role"] for p in fake.spreadsheets[KEYS[role]].permissions}


def test_init_lays_out_four_spreadsheets_and_shares_each_by_role(
        fake: GoogleApiFake, match_toml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "init", "gvg", "-c", match_toml, "--no-email")
    assert code == 0, err
    assert "Match created: red, blue (4 roster lines)" in out and out.count("Shared: ") == 5
    assert emails(fake, "board") == {"gm@example.org": "writer", "ann@example.org": "reader",
                                     "ben@example.org": "reader", "cat@example.org": "reader"}
    assert emails(fake, "red") == {"ann@example.org": "writer", "ben@example.org": "writer",
                                   "gm@example.org": "writer"}
    assert emails(fake, "blue") == {"cat@example.org": "writer", "gm@example.org": "writer"}
    assert emails(fake, "engine") == {"gm@example.org": "writer"}
    red = fake.spreadsheets[KEYS["red"]]
    assert "Orders red" in [s.title for s in red.sheets] and "Orders blue" not in [s.title for s in red.sheets]
    editors = {p["description"]: p.get("editors", {}).get("users", [])
               for s in red.sheets for p in s.protected_ranges}
    # A player's row is hers (Ann's is row 1, Ben's row 2): only she and the GM may type in it. The captain's
    # row is the captain's (the roster marks Ann captain = yes); the rows left empty are the team's; blue's
    # players may type in none of red's; the columns sheets-gm writes are the GM's alone.
    for column in ("Destination", "Action", "Teleport"):
        ann, ben = editors[f"players: {column}, row 1"], editors[f"players: {column}, row 2"]
        assert {ACCOUNT, "ann@example.org", "gm@example.org"} <= set(ann) and "ben@example.org" not in ann
        assert {ACCOUNT, "ben@example.org", "gm@example.org"} <= set(ben) and "ann@example.org" not in ben
    for column in ("captain: Skill 1, row 1", "captain: Ready, row 1"):
        assert {ACCOUNT, "ann@example.org", "gm@example.org"} <= set(editors[column])
        assert "ben@example.org" not in editors[column] and "cat@example.org" not in editors[column]
    assert {ACCOUNT, "ann@example.org", "ben@example.org", "gm@example.org"} <= set(editors["players: Destination"])
    assert "cat@example.org" not in editors["players: Destination"]
    # Blue's captain Cat is the one player of blue with an e-mail: nothing to warn about but Dan's empty row.
    assert "Warning: team" not in out
    assert "ann@example.org" not in editors["players: Feedback, written by sheets-gm"]


def test_sync_resolve_and_status_through_google(fake: GoogleApiFake, match_toml: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "init", "gvg", "-c", match_toml, "--no-share")[0] == 0
    assert not emails(fake, "board")
    sheets = open_match_sheets(load_config(match_toml))
    type_orders(sheets, ready=False)
    code, out, _ = run(capsys, "status", "-c", match_toml)
    assert code == 0 and "Not ready: red, blue" in out
    fake.reset_counters()
    code, out, _ = run(capsys, "sync", "-c", match_toml)
    assert code == 0 and "Turn 1: waiting for red, blue" in out
    assert fake.calls("sheets.spreadsheets.values.batchGet") == 4
    code, out, _ = run(capsys, "resolve", "-c", match_toml, "--force", "--turn", "1")
    assert code == 0 and "Turn 1 resolved (forced by the GM)" in out


def test_an_unshared_spreadsheet_names_the_account_to_share_it_with(
        fake: GoogleApiFake, match_toml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake.set_shared(KEYS["red"], False)
    code, _, err = run(capsys, "init", "gvg", "-c", match_toml)
    assert code == 1 and ACCOUNT in err and "Traceback" not in err


@pytest.mark.parametrize(("content", "message"), [
    (None, "does not exist"),
    ('{"installed": {"client_id": "x"}}', "is not a service-account key"),
    ("not json", "is not a JSON file"),
])
def test_bad_credentials_are_one_message_and_exit_1(fake: GoogleApiFake, match_toml: Path,
                                                    capsys: pytest.CaptureFixture[str], content: str | None,
                                                    message: str) -> None:
    key = match_toml.parent / "sa.json"
    if content is None:
        key.unlink()
    else:
        key.write_text(content, encoding="utf-8")
    for command in (["init", "gvg"], ["sync"], ["status"]):
        code, _, err = run(capsys, *command, "-c", match_toml)
        assert code == 1 and message in err and "Traceback" not in err, (command, err)


def test_overwrite_is_refused_for_google(fake: GoogleApiFake, match_toml: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "init", "gvg", "-c", match_toml, "--overwrite")
    assert code == 1 and "--overwrite works on local workbooks only" in err


def test_repair_rebuilds_an_edited_google_layout_and_keeps_the_orders(
        fake: GoogleApiFake, match_toml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sheets_gm.sheets.backend import RangeWrite

    assert run(capsys, "init", "gvg", "-c", match_toml, "--no-share")[0] == 0
    sheets = open_match_sheets(load_config(match_toml))
    type_orders(sheets, ready=False)
    sheets.orders[0].write([RangeWrite("'Orders red'!D4", [["Where to?"]])])
    code, _, err = run(capsys, "sync", "-c", match_toml)
    assert code == 1 and "sheets-gm repair" in err
    code, _, err = run(capsys, "init", "gvg", "-c", match_toml, "--no-share")
    assert code == 1 and "already holds a gvg match" in err
    assert not list(match_toml.parent.rglob("*.command.json"))  # refused: nothing for the next command to settle
    code, out, err = run(capsys, "repair", "-c", match_toml)
    assert code == 0, err
    assert "back in their cells" in out and "Kept a copy" not in out  # Google keeps its history
    red = fake.spreadsheets[KEYS["red"]]
    rows = {p["description"]: p.get("editors", {}).get("users", []) for t in red.sheets for p in t.protected_ranges}
    assert "ann@example.org" in rows["players: Destination, row 1"]  # repair protects a player's row for her again
    assert "ben@example.org" not in rows["players: Destination, row 1"]
    code, out, _ = run(capsys, "resolve", "-c", match_toml, "--force", "--turn", "1")
    assert code == 0 and "Turn 1 resolved" in out


def test_no_email_still_shares_with_an_address_that_has_no_google_account(
        fake: GoogleApiFake, match_toml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake.no_google_account.add("ben@example.org")
    code, out, err = run(capsys, "init", "gvg", "-c", match_toml, "--no-email")
    assert code == 0, err
    assert "invited by e-mail all the same: ben@example.org" in out
    assert emails(fake, "red")["ben@example.org"] == "writer"


def test_every_protection_lets_the_gms_edit_and_the_board_has_no_empty_sheet1(
        fake: GoogleApiFake, match_toml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "init", "gvg", "-c", match_toml, "--no-share")[0] == 0
    for key in ("board", "red", "blue", "engine"):
        for sheet in fake.spreadsheets[KEYS[key]].sheets:
            for protected in sheet.protected_ranges:
                editors = protected.get("editors", {}).get("users", [])
                assert "gm@example.org" in editors and ACCOUNT in editors, (key, protected["description"])
    assert "Sheet1" not in [s.title for s in fake.spreadsheets[KEYS["board"]].sheets]


def test_init_on_new_spreadsheets_makes_no_request_that_google_refuses(
        fake: GoogleApiFake, match_toml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It asks for the tab list instead of probing tabs that do not exist yet (Google answers those with 400)."""
    assert run(capsys, "init", "gvg", "-c", match_toml, "--no-share")[0] == 0
    refused = [(c.endpoint, c.status) for c in fake.log if c.status is not None and c.status >= 400]
    assert refused == []


def test_init_and_doctor_name_a_team_nobody_can_play(
        fake: GoogleApiFake, match_toml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """On Google a team without a single e-mail cannot type an order or tick Ready: every turn of it would wait
    for the deadline. init and doctor name it, and a captain nobody can sign in as."""
    (match_toml.parent / "roster.csv").write_text(
        "name,team,role,captain,email\nAnn,red,dps,,ann@example.org\nBen,red,healer,yes,\nCat,blue,tank,yes,\n"
        "Dan,blue,dps,,\n", encoding="utf-8")
    code, out, err = run(capsys, "init", "gvg", "-c", match_toml, "--no-email")
    assert code == 0, err
    assert "Warning: team blue has no e-mail in the roster: on Google nobody on it can type its orders" in out
    assert "Warning: team red's captain Ben has no e-mail in the roster" in out
    code, out, _ = run(capsys, "doctor", "-c", match_toml)
    assert "⚠ teams: team blue has no e-mail in the roster" in out and "⚠ teams: team red's captain Ben" in out
