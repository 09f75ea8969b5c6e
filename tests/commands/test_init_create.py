"""``init --create``: every spreadsheet a game's layout needs, created in a Drive folder on the Google fake, their
keys written into the GM's config, then laid out and shared as ``init`` does; never a second set, however a run
ended; a service account refused in a My Drive before anything is made; a bad folder named."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.cli import main
from sheets_gm.commands.init import starter_config
from sheets_gm.init.create_sheets import journal_path
from sheets_gm.match.config import load_config
from sheets_gm.match.config_keys import needed_spreadsheets
from sheets_gm.sheets.google.drive_create import DriveCreateError, DriveCreator, DriveFolder, folder_id
from sheets_gm.sheets.retry import RetryPolicy
from tests.commands.test_commands import run
from tests.fakes.google_api import (
    CREATE,
    FaultKind,
    GoogleApiFake,
    fake_client,
    signed_in_fake,
    write_service_account_key,
)
from tests.quick import soak_but

ACCOUNT = "gm-bot@sheets-gm-test.iam.gserviceaccount.com"
SHARED = "1SharedDriveFolder_0000000000000000000000"  # a folder of a shared drive, the service account a member
MINE = "1MyDriveFolder_000000000000000000000000000"  # a folder of a My Drive
URL = f"https://drive.google.com/drive/u/0/folders/{SHARED}?usp=sharing"
SIXTEEN = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu", "Mo", "Ned", "Oz", "Pia"]
#: What each game's starter layout needs on Google (Champions with sixteen players): board, engine, an orders
#: spreadsheet per seat, and Coalition's judge.
COUNTS = {"champions": 18, "gvg": 4, "coalition": 5, "wesnoth": 4, "winordie": 4}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    with signed_in_fake(monkeypatch, {}) as f:
        f.create_folder(SHARED, "Friday matches", drive_id="0ASharedDrive00")
        f.create_folder(MINE, "My matches")
        yield f


def starter(tmp_path: Path, game: str, *, oauth: bool = False) -> Path:
    """The game's starter config as a GM would edit it for Google: ``[google]`` uncommented, a key file beside."""
    text = starter_config(game).read_text(encoding="utf-8")
    text = text.replace("# [google]", "[google]", 1)
    text = re.sub(r"^(title = .*)$", r'\1\ngm_emails = ["gm@example.org"]', text, count=1, flags=re.M)
    if oauth:
        text = text.replace('# oauth_client = "client_secret.json"', 'oauth_client = "client_secret.json"')
    else:
        write_service_account_key(tmp_path / "sa.json", ACCOUNT)
        text = text.replace('# service_account = "service-account.json"', 'service_account = "sa.json"')
    if game == "champions":  # sixteen players, a file each
        text = re.sub(r"^seats = \[.*?\]", f"seats = {json.dumps(SIXTEEN)}", text, flags=re.M)
        orders = ", ".join(f'{p} = "orders-{p}.xlsx"' for p in SIXTEEN)
        text = re.sub(r"^orders = \{.*?\}", f"orders = {{ {orders} }}", text, flags=re.M)
    path = tmp_path / "match.toml"
    path.write_text(text, encoding="utf-8")
    return path


def sheets_section(path: Path) -> dict[str, Any]:
    return dict(tomllib.loads(path.read_text(encoding="utf-8"))["sheets"])


def made(fake: GoogleApiFake) -> list[str]:
    return [key for key, ss in fake.spreadsheets.items() if ss.app_properties]


@pytest.mark.parametrize("game", soak_but(sorted(COUNTS), "champions", "coalition"))
def test_every_spreadsheet_of_a_games_layout_is_created_named_written_laid_out_and_shared(
        game: str, fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter(tmp_path, game)
    before = config.read_text(encoding="utf-8")
    title = load_config(config).title
    code, out, err = run(capsys, "init", game, "-c", config, "--create", URL, "--no-email")
    assert code == 0, err
    keys = made(fake)
    assert len(keys) == COUNTS[game] == fake.calls(CREATE)
    assert f"Created {COUNTS[game]} spreadsheets in the folder 'Friday matches' (a shared drive)" in out
    names = sorted(str(fake.spreadsheets[k].properties["title"]) for k in keys)
    assert f"{title} · board" in names and f"{title} · engine" in names
    seats = load_config(config).seats
    assert {f"{title} · orders {seat}" for seat in seats} <= set(names)
    for key in keys:
        ss = fake.spreadsheets[key]
        assert ss.parents == [SHARED] and ss.drive_id == "0ASharedDrive00"
        if "No roster yet" not in out:  # laid out, the new file's own tab gone (else the roster comes first)
            assert "Sheet1" not in [s.title for s in ss.sheets], ss.properties
    # The keys are in the config, every comment and every other line as the GM left them.
    sheets = sheets_section(config)
    assert sheets["backend"] == "google" and set(sheets["orders"]) == set(seats)
    judge = [sheets["judge"]] if "judge" in sheets else []
    assert {sheets["board"], sheets["engine"], *sheets["orders"].values(), *judge} == set(keys)
    after = config.read_text(encoding="utf-8")
    assert len(after.splitlines()) == len(before.splitlines()) and "gm@example.org" in after
    for old, new in zip(before.splitlines(), after.splitlines(), strict=True):
        if "#" in old and not old.lstrip().startswith("#"):
            assert new.endswith(old[old.index("#"):]), (old, new)
        elif not re.match(r"(backend|board|engine|judge|orders) =", old):
            assert new == old
    engine = fake.spreadsheets[sheets["engine"]]
    if "No roster yet" in out:  # the game's roster is typed in the engine's Roster tab, then init runs again
        assert "Roster" in [s.title for s in engine.sheets] and f"init {game} -c {config}" in out
    else:
        assert "Seed hash" in out
        # Shared by role, as init does; a shared drive's file cannot be locked per file (Drive refuses
        # writersCanShare there): init says so instead of failing.
        assert out.count("Not locked: ") == COUNTS[game] and "Locked: " not in out
        for key in keys:
            ss = fake.spreadsheets[key]
            assert {"emailAddress": "gm@example.org", "role": "writer"}.items() <= ss.permissions[0].items()


def test_running_it_again_makes_no_second_set(fake: GoogleApiFake, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    # GvG without a roster file: the first run creates the four spreadsheets and lays out the Roster tab; the GM
    # types the roster there and runs the same command again, which creates the match in the same four; a third
    # run leaves the match be.
    config = starter(tmp_path, "gvg")
    code, out, err = run(capsys, "init", "gvg", "-c", config, "--create", URL, "--no-email")
    assert code == 0 and "No roster yet" in out, err
    written = config.read_text(encoding="utf-8")
    engine = sheets_section(config)["engine"]
    fake.set_values(engine, "'Roster'!A2:E3", [["Ann", "red", "ann@example.org", "dps", "yes"],
                                                ["Cat", "blue", "cat@example.org", "tank", "yes"]])
    code, out, err = run(capsys, "init", "gvg", "-c", config, "--create", URL, "--no-email")
    assert code == 0, err
    assert "names Google spreadsheets already: nothing to create" in out and "Seed hash" in out
    assert {"emailAddress": "ann@example.org", "role": "writer"}.items() <= {
        k: v for p in fake.spreadsheets[sheets_section(config)["orders"]["red"]].permissions
        if p.get("emailAddress") == "ann@example.org" for k, v in p.items()}.items()
    _, out, _ = run(capsys, "doctor", "-c", config)
    assert out.count("it is in a shared drive, whose own settings say who may share it on") == 4, out
    code, out, err = run(capsys, "init", "gvg", "-c", config, "--create", URL, "--no-email")
    assert code == 1 and "already holds a gvg match" in err
    assert fake.calls(CREATE) == 4 and len(made(fake)) == 4 and config.read_text(encoding="utf-8") == written


class Crash(Exception):
    """The machine stopping in the middle of a run."""


def crash_after(made_so_far: int, game: str, config: Path, fake: GoogleApiFake,
                monkeypatch: pytest.MonkeyPatch) -> None:
    """Run ``init GAME --create`` and stop the machine once ``made_so_far`` spreadsheets are made."""
    original = DriveCreator.create

    def crashing(self: DriveCreator, *args: Any) -> Any:
        if fake.calls(CREATE) == made_so_far:
            raise Crash
        return original(self, *args)

    monkeypatch.setattr(DriveCreator, "create", crashing)
    with pytest.raises(Crash):
        main(["init", game, "-c", str(config), "--create", URL])
    monkeypatch.setattr(DriveCreator, "create", original)


def test_a_run_stopped_after_3_of_18_is_completed_not_repeated(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    config = starter(tmp_path, "champions")
    before = config.read_text(encoding="utf-8")
    crash_after(3, "champions", config, fake, monkeypatch)
    assert len(made(fake)) == 3 and config.read_text(encoding="utf-8") == before  # nothing half-written
    code, out, err = run(capsys, "init", "champions", "-c", config, "--create", URL, "--no-email")
    assert code == 0, err
    assert "Found 3 spreadsheets an earlier init --create made" in out and "Created 15 spreadsheets" in out
    assert len(made(fake)) == 18 == fake.calls(CREATE)
    sheets = sheets_section(config)
    assert len({sheets["board"], sheets["engine"], *sheets["orders"].values()}) == 18


def test_a_creation_whose_answer_was_lost_is_found_not_made_twice(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Google made the 2nd spreadsheet, and the connection broke before its answer came: the retry finds it.
    import sheets_gm.sheets.google.drive_create as drive_create

    monkeypatch.setattr(drive_create, "DEFAULT_RETRY", RetryPolicy(sleep=lambda s: None, random=lambda: 0.0))
    config = starter(tmp_path, "gvg")
    fake.inject(FaultKind.CONNECTION_RESET, at=2, endpoint=CREATE, after_apply=True)
    code, _out, err = run(capsys, "init", "gvg", "-c", config, "--create", URL, "--no-email")
    assert code == 0, err
    assert fake.calls(CREATE) == 4 and len(made(fake)) == 4  # the retry searched, found it, and made no other
    assert set(made(fake)) == {v for k, v in sheets_section(config).items() if k in ("board", "engine")} | set(
        sheets_section(config)["orders"].values())


def test_the_search_trailing_a_creation_and_a_trashed_spreadsheet(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A run stopped after 2; Drive's search does not list them yet (the journal's keys find them), and the GM
    # trashed one of them: it is made again, the other reused.
    config = starter(tmp_path, "gvg")
    crash_after(2, "gvg", config, fake, monkeypatch)
    first, second = made(fake)
    fake.trash(second)
    monkeypatch.setattr(DriveCreator, "made_for", lambda self, match, folder: [])
    code, out, err = run(capsys, "init", "gvg", "-c", config, "--create", URL, "--no-email")
    assert code == 0, err
    assert "Found 1 spreadsheet an" in out and "Created 3 spreadsheets" in out
    assert sheets_section(config)["board"] == first and second not in sheets_section(config).values()
    assert json.loads(journal_path(load_config(config)).read_text(encoding="utf-8"))["made"]["board"] == first


def test_a_service_account_in_a_my_drive_folder_is_refused_before_anything_is_made(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter(tmp_path, "coalition")
    before = config.read_text(encoding="utf-8")
    code, _out, err = run(capsys, "init", "coalition", "-c", config, "--create", MINE)
    assert code == 1
    assert "cannot own files there" in err and "shared drive" in err and "oauth_client" in err
    assert "nothing was created" in err
    assert fake.calls(CREATE) == 0 and not made(fake) and config.read_text(encoding="utf-8") == before


def test_googles_own_refusal_of_a_service_account_in_a_my_drive_is_named_at_once(
        fake: GoogleApiFake, tmp_path: Path) -> None:
    # Whatever the folder looked like, Google's 403 storageQuotaExceeded (domain usageLimits, which is otherwise a
    # rate limit) is final: one attempt, and the way out named.
    from sheets_gm.sheets.google.signin import SHARE_SCOPES, open_service_account

    client = open_service_account(write_service_account_key(tmp_path / "sa.json", ACCOUNT), SHARE_SCOPES)
    drive = DriveCreator(client, RetryPolicy(sleep=lambda s: None))
    with pytest.raises(DriveCreateError) as refused:
        drive.create("M · board", DriveFolder(MINE, "My matches"), "m1", "board")
    assert "cannot own files in a My Drive" in str(refused.value) and "storage quota" in str(refused.value)
    assert "shared drive" in str(refused.value) and fake.calls(CREATE) == 1


def test_the_gms_own_account_creates_in_her_my_drive(fake: GoogleApiFake, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import sheets_gm.sheets.google.signin as google

    monkeypatch.setattr(google, "open_oauth", lambda *args, **kwargs: fake_client())
    config = starter(tmp_path, "wesnoth", oauth=True)
    code, out, err = run(capsys, "init", "wesnoth", "-c", config, "--create",
                         f"https://drive.google.com/drive/folders/{MINE}", "--no-email")
    assert code == 0, err
    assert "in the folder 'My matches' (My Drive)" in out and out.count("Locked: ") == 4
    assert all(fake.spreadsheets[k].writers_can_share is False for k in made(fake))
    assert len(made(fake)) == 4 and all(fake.spreadsheets[k].parents == [MINE] for k in made(fake))
    assert sheets_section(config)["backend"] == "google"


@pytest.mark.parametrize(("folder", "setup", "says"), [
    ("https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOpQrStUv/edit", None, "the address of a spreadsheet"),
    ("my matches", None, "neither a Drive folder's URL"),
    ("1NoSuchFolder_00000000000000000000000000", None, "Drive has no folder or file 1NoSuchFolder"),
    ("1Hidden_000000000000000000000000000000000", "hidden", "Drive has no folder or file 1Hidden"),
    ("1ASpreadsheet_00000000000000000000000000", "spreadsheet", "is not a folder but 'Some sheet'"),
    ("1ReadOnly_0000000000000000000000000000000", "read-only", "may not add files to the folder 'Read only'"),
    ("1Trashed_00000000000000000000000000000000", "trashed", "the folder 'Old' is in the trash"),
])
def test_a_folder_that_is_no_folder_or_not_reachable_is_named(
        folder: str, setup: str | None, says: str, fake: GoogleApiFake, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    if setup == "hidden":
        fake.create_folder(folder, "Hidden", drive_id="0ASharedDrive00", shared=False)
    elif setup == "spreadsheet":
        fake.create_spreadsheet(folder, "Some sheet")
    elif setup == "read-only":
        fake.create_folder(folder, "Read only", drive_id="0ASharedDrive00", writable=False)
    elif setup == "trashed":
        fake.create_folder(folder, "Old", drive_id="0ASharedDrive00").trashed = True
    config = starter(tmp_path, "gvg")
    before = config.read_text(encoding="utf-8")
    code, _out, err = run(capsys, "init", "gvg", "-c", config, "--create", folder)
    assert code == 1 and says in err, err
    assert fake.calls(CREATE) == 0 and config.read_text(encoding="utf-8") == before


def test_no_credentials_named_before_any_request(fake: GoogleApiFake, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.toml"
    path.write_text(starter_config("gvg").read_text(encoding="utf-8"), encoding="utf-8")
    code, _out, err = run(capsys, "init", "gvg", "-c", path, "--create", URL)
    assert code == 1 and "needs Google credentials" in err and "oauth_client" in err and fake.calls() == 0


def test_folder_urls_as_drive_shows_them() -> None:
    for text in (f"https://drive.google.com/drive/folders/{SHARED}", URL, f"https://drive.google.com/open?id={SHARED}",
                 f"  {SHARED} "):
        assert folder_id(text) == SHARED


def test_needed_spreadsheets_of_every_starter_layout() -> None:
    # The counts the tests above create, from the pure layout (Champions' starter has eight players).
    for game, count in COUNTS.items():
        config = load_config(starter_config(game))
        assert len(needed_spreadsheets(config)) == (10 if game == "champions" else count)


def test_a_config_whose_keys_cannot_be_written_in_is_named_before_anything_is_made(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A TOML literal string ('…') on the board's line: the line cannot be rewritten in place, so the GM is told
    # which lines to write, and no spreadsheet is made that the config would not name.
    config = starter(tmp_path, "gvg")
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r'^board = "board.xlsx"', "board = 'board.xlsx'", text, flags=re.M), encoding="utf-8")
    code, _out, err = run(capsys, "init", "gvg", "-c", config, "--create", URL)
    assert code == 1 and "nothing was created" in err and "put these lines under [sheets] yourself" in err
    assert fake.calls() == 0


def test_a_layout_init_refuses_is_refused_before_anything_is_made(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter(tmp_path, "gvg")
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r"^orders = .*$", "", text, flags=re.M), encoding="utf-8")  # every team in the board
    code, _out, err = run(capsys, "init", "gvg", "-c", config, "--create", URL)
    assert code == 1 and "would let players read secrets" in err and fake.calls() == 0


@pytest.mark.parametrize(("sheets", "names"), [
    ('backend = "google"', "names no spreadsheet (no board key)"),
    ('backend = "google"\nboard = "board.xlsx"\nengine = "gm/engine.xlsx"', "names local workbooks (board.xlsx, "
                                                                             "gm/engine.xlsx)"),
])
def test_a_config_that_says_google_but_names_no_spreadsheet_is_told_what_to_do(
        sheets: str, names: str, fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The GM wrote backend = "google" herself and left out (or kept local) the files: before, the loader said only
    # "[sheets] board is missing" (or init went on to open "board.xlsx" as a spreadsheet's key).
    config = tmp_path / "match.toml"
    config.write_text(f'ruleset = "gvg"\ntitle = "Friday GvG"\nteams = ["red", "blue"]\n\n[sheets]\n{sheets}\n\n'
                      '[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    write_service_account_key(tmp_path / "sa.json", ACCOUNT)
    before = config.read_text(encoding="utf-8")
    code, _out, err = run(capsys, "init", "gvg", "-c", config, "--create", URL)
    assert code == 1 and "is missing" not in err
    assert f'[sheets] says backend = "google" but {names}' in err
    assert 'set the line back to backend = "local"' in err
    assert ('board = "board.xlsx"; engine = "gm/engine.xlsx"; orders = { red = "orders-red.xlsx", '
            'blue = "orders-blue.xlsx" }') in err
    assert "give their keys" in err and "without --create" in err
    assert fake.calls() == 0 and config.read_text(encoding="utf-8") == before

    # Done as told: the line set back, the files named; init --create makes them and turns the line to Google.
    config.write_text(before.replace(sheets, 'backend = "local"\nboard = "board.xlsx"\nengine = "gm/engine.xlsx"\n'
                                             'orders = { red = "orders-red.xlsx", blue = "orders-blue.xlsx" }'),
                      encoding="utf-8")
    code, _out, err = run(capsys, "init", "gvg", "-c", config, "--create", URL, "--no-email")
    assert code == 0, err
    assert sheets_section(config)["backend"] == "google" and len(made(fake)) == 4
