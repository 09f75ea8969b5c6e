"""init for rulesets on the generic sync: what the legacy GvG init does, for any game. Sharing on Google
(and the list of whom to share local files with), the Roster tab typed in the sheet when there is no
roster file, ``--private`` for every shipped starter config, and a ruleset without sheets."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.commands.init import private_config, starter_config
from sheets_gm.engine.ruleset import JUDGE, Roster
from sheets_gm.rulesets.registry import GAMES
from sheets_gm.sync.life.share import sharing_plan
from sheets_gm.sync.sheets import MatchSheets
from tests.commands.test_window_commands import run
from tests.fakes.google_api import GoogleApiFake, signed_in_fake, write_service_account_key
from tests.fakes.memory import MemoryBackend
from tests.made import made_into
from tests.sync import race_game
from tests.sync.race_game import RaceRuleset, registered_race

__all__ = ["registered_race"]

ACCOUNT = "gm-bot@sheets-gm-test.iam.gserviceaccount.com"
KEYS = {"board": "1BoardKey_race_test_00000000000000000000000",
        "engine": "1EngineKey_race_test_0000000000000000000000",
        "Ann": "1AnnKey_race_test_0000000000000000000000000000",
        "Bo": "1BoKey_race_test_00000000000000000000000000000"}
ROSTER = "name,player,email\nAnn-1,Ann,ann@example.org\nAnn-2,Ann,al@example.org\nBo-1,Bo,bo@example.org\nBo-2,Bo,\n"
LOCAL = """ruleset = "race"
title = "Race night"
seats = ["Ann", "Bo"]
gm_emails = ["gm@example.org"]

[sheets]
backend = "local"
board = "board.xlsx"
engine = "gm/engine.xlsx"
orders = { Ann = "ann.xlsx", Bo = "bo.xlsx" }
"""


# --------------------------------------------------------------------------- sharing on Google

@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    with signed_in_fake(monkeypatch, {key: f"race test · {role}" for role, key in KEYS.items()}) as f:
        yield f


@pytest.fixture
def google_race(tmp_path: Path, registered_race: object) -> Path:
    write_service_account_key(tmp_path / "sa.json", ACCOUNT)
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    path = tmp_path / "match.toml"
    path.write_text(
        'ruleset = "race"\ntitle = "Cloud race"\nseats = ["Ann", "Bo"]\nroster = "roster.csv"\n'
        'gm_emails = ["gm@example.org"]\n'
        f'[sheets]\nbackend = "google"\nboard = "{KEYS["board"]}"\nengine = "{KEYS["engine"]}"\n'
        f'orders = {{ Ann = "{KEYS["Ann"]}", Bo = "{KEYS["Bo"]}" }}\n'
        '[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    return path


def granted(fake: GoogleApiFake, role: str) -> dict[str, str]:
    return {p["emailAddress"]: p["role"] for p in fake.spreadsheets[KEYS[role]].permissions}


def test_init_shares_each_spreadsheet_of_a_game_on_windows_by_role(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "init", "race", "-c", google_race, "--no-email")
    assert code == 0, err
    assert granted(fake, "board") == {"gm@example.org": "writer", "ann@example.org": "reader",
                                      "al@example.org": "reader", "bo@example.org": "reader"}
    assert granted(fake, "Ann") == {"ann@example.org": "writer", "al@example.org": "writer",
                                    "gm@example.org": "writer"}
    assert granted(fake, "Bo") == {"bo@example.org": "writer", "gm@example.org": "writer"}
    assert granted(fake, "engine") == {"gm@example.org": "writer"}
    assert out.count("Shared: ") == 5  # the board's writers and readers are two grants
    assert "Shared: spreadsheet 'Cloud race · orders Bo': writer for bo@example.org, gm@example.org" in out
    shares = [c for c in fake.log if c.endpoint == "drive.permissions.create"]
    assert shares and all(c.query["sendNotificationEmail"] == ["false"] for c in shares)
    # The seat's typed cells are its members' (and the GMs'): the protections name them.
    ann = fake.spreadsheets[KEYS["Ann"]]
    editors = [p.get("editors", {}).get("users", []) for s in ann.sheets for p in s.protected_ranges
               if "ann@example.org" in p.get("editors", {}).get("users", [])]
    assert editors and all("bo@example.org" not in e for e in editors)


def test_no_share_shares_nothing_and_e_mails_are_sent_by_default(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "init", "race", "-c", google_race, "--no-share")
    assert code == 0, err
    assert "Shared: " not in out and not granted(fake, "board") and not granted(fake, "Ann")
    for key in KEYS.values():  # a second match in new spreadsheets, this time shared with e-mails
        fake.create_spreadsheet(key + "2", "again")
    text = google_race.read_text(encoding="utf-8")
    for key in KEYS.values():
        text = text.replace(key, key + "2")
    google_race.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "init", "race", "-c", google_race)
    assert code == 0, err
    shares = [c for c in fake.log if c.endpoint == "drive.permissions.create"]
    assert len(shares) == 10 and all(c.query["sendNotificationEmail"] == ["true"] for c in shares)


def test_the_sharing_plan_gives_the_judge_spreadsheet_to_the_judge_and_the_gms() -> None:
    board, engine, judge, red, blue = (MemoryBackend(n) for n in ("board", "engine", "judge", "red", "blue"))
    sheets = MatchSheets(("red", "blue"), board, engine, (red, blue), judge)
    plan = sharing_plan(sheets, {"red": ("r@x.org",), "blue": ("b@x.org",), JUDGE: ("judge@x.org",)},
                        gm=("gm@x.org",))
    grants = {(g.backend.name, g.role): g.emails for g in plan}
    assert grants == {("red", "writer"): ("r@x.org", "gm@x.org"), ("blue", "writer"): ("b@x.org", "gm@x.org"),
                      ("judge", "writer"): ("judge@x.org", "gm@x.org"), ("board", "writer"): ("gm@x.org",),
                      ("board", "reader"): ("r@x.org", "b@x.org"), ("engine", "writer"): ("gm@x.org",)}


def test_local_files_are_listed_with_whom_to_share_them(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         registered_race: object) -> None:
    path = tmp_path / "match.toml"
    path.write_text(LOCAL, encoding="utf-8")
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    code, out, err = run(capsys, "init", "race", "-c", path, "--roster", tmp_path / "roster.csv")
    assert code == 0, err
    assert f"Share it yourself: {tmp_path / 'bo.xlsx'} is a local file; writer for bo@example.org, gm@example.org" \
        in out
    assert f"Share it yourself: {tmp_path / 'board.xlsx'} is a local file; reader for ann@example.org" in out
    path.write_text(LOCAL, encoding="utf-8")
    code, out, err = run(capsys, "init", "race", "-c", path, "--roster", tmp_path / "roster.csv", "--overwrite",
                         "--no-share")
    assert code == 0, err
    assert "Share it yourself" not in out


def test_a_bad_e_mail_in_the_roster_is_refused_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              registered_race: object) -> None:
    path = tmp_path / "match.toml"
    path.write_text(LOCAL, encoding="utf-8")
    (tmp_path / "roster.csv").write_text("name,player,email\nAnn-1,Ann,ann at example.org\n", encoding="utf-8")
    code, _, err = run(capsys, "init", "race", "-c", path, "--roster", tmp_path / "roster.csv")
    assert code == 1 and "roster.csv line 2: 'ann at example.org' is not an e-mail address" in err
    assert not list(tmp_path.glob("*.xlsx"))


# --------------------------------------------------------------------------- the Roster tab

@pytest.fixture
def race_needs_runners(monkeypatch: pytest.MonkeyPatch, registered_race: object) -> None:
    """The race refusing the seats alone, as a game that needs its members named does."""
    original = RaceRuleset.new_match

    def needs_runners(self: RaceRuleset, roster: Roster, seed: bytes) -> object:
        if not roster.members:
            raise ValueError("a race needs its runners: a roster row each")
        return original(self, roster, seed)

    monkeypatch.setattr(RaceRuleset, "new_match", needs_runners)


def type_rows(book_path: Path, rows: list[tuple[str | None, ...]]) -> None:
    book = openpyxl.load_workbook(book_path)
    sheet = book["Roster"]
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row, start=1):
            sheet.cell(r, c).value = value
    book.save(book_path)


def test_a_game_that_needs_its_roster_gets_a_roster_tab_then_reads_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], race_needs_runners: None) -> None:
    path = tmp_path / "match.toml"
    path.write_text(LOCAL, encoding="utf-8")
    engine = tmp_path / "gm" / "engine.xlsx"
    code, out, err = run(capsys, "init", "race", "-c", path)
    assert code == 0, err
    assert "cannot start from the seats alone (a race needs its runners: a roster row each)" in out
    assert f"type the roster in tab 'Roster' of {engine} (a row per member under its header: name, player, " \
           "email" in out
    assert "e.g. name Ann-1, player Ann" in out and f"init race -c {path}" in out and "Seed hash" not in out
    sheet = openpyxl.load_workbook(engine)["Roster"]
    assert [c.value for c in sheet[1]] == ["name", "player", "email", *[None] * 23]  # the columns read, to Z
    assert any(str(v.sqref).startswith("B2") and "Ann,Bo" in v.formula1
               for v in sheet.data_validations.dataValidation)

    code, out, _ = run(capsys, "init", "race", "-c", path)  # still empty: the same message, nothing created
    assert code == 0 and "No roster yet" in out

    type_rows(engine, [("Ann-1", "Ann", "ann@example.org"), ("Bo-1", "Cy", "")])
    code, _, err = run(capsys, "init", "race", "-c", path)  # the roster file's checks, the tab's rows
    assert code == 1 and f"{engine} tab 'Roster' row 3: Bo-1 is in 'Cy'; the seats are Ann, Bo" in err

    type_rows(engine, [("Ann-1", "Ann", "ann@example.org"), ("Bo-1", "bo", None), ("Bo-2", "Bo", None)])
    code, out, err = run(capsys, "init", "race", "-c", path)
    assert code == 0, err
    assert "Match created: Ann, Bo (3 roster lines)" in out and "Seed hash" in out
    code, out, _ = run(capsys, "status", "-c", path)
    assert code == 0 and "Bo-2" in openpyxl.load_workbook(tmp_path / "bo.xlsx")["Orders Bo"]["A6"].value


def test_win_or_die_lays_out_its_own_roster_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Win or Die needs a line-up per player: the Roster tab has its column, and the typed roster makes the match."""
    path = tmp_path / "match.toml"
    code, out, err = run(capsys, "init", "winordie", "-c", path)
    assert code == 0, err
    assert "name, player, email, lineup; e.g. name Ann, player Ann, lineup Ironclad Defense" in out
    engine = tmp_path / "gm" / "engine.xlsx"
    type_rows(engine, [("Ann", "Ann", "", "Ironclad Defense"), ("Bo", "Bo", "", "Firepower Suppression")])
    code, out, err = run(capsys, "init", "winordie", "-c", path)
    assert code == 0, err
    assert "Match created: Ann, Bo (2 roster lines)" in out


def _roster_laid_out(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """``init winordie -c match.toml`` in ``folder`` with no roster yet (its Roster tab laid out, no match), as the
    tests that type the roster next start: made once a test run and copied (``tests.made``); the config."""
    def make(into: Path) -> None:
        assert run(capsys, "init", "winordie", "-c", into / "match.toml")[0] == 0

    made_into(folder, "window_init: a Win or Die roster laid out", make, shared=True)
    return folder / "match.toml"


def test_a_roster_row_typed_below_the_laid_out_rows_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A member typed far below the Roster tab's dropdown rows still joins the match: none is cut off unread."""
    path = _roster_laid_out(tmp_path, capsys)
    rows: list[tuple[str | None, ...]] = [("Ann", "Ann", "", "Ironclad Defense")]
    rows += [(None,)] * 300 + [("Bo", "Bo", "", "Firepower Suppression")]
    type_rows(tmp_path / "gm" / "engine.xlsx", rows)
    code, out, err = run(capsys, "init", "winordie", "-c", path)
    assert code == 0, err
    assert "Match created: Ann, Bo (2 roster lines)" in out


def test_win_or_die_logs_the_first_player_roll_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The first-player roll heads the Log of a new match, before any deployment, and stays at its head."""
    path = _roster_laid_out(tmp_path, capsys)
    type_rows(tmp_path / "gm" / "engine.xlsx",
              [("Ann", "Ann", "", "Ironclad Defense"), ("Bo", "Bo", "", "Firepower Suppression")])
    code, _, err = run(capsys, "init", "winordie", "-c", path)
    assert code == 0, err
    board = openpyxl.load_workbook(tmp_path / "board.xlsx")
    rows = [[c.value for c in r] for r in board["Log"].iter_rows(min_row=2, max_row=12)]
    lines = rows[:next(n for n, r in enumerate(rows) if r == [None, None, None])]
    assert all(r[:2] == [0, "first player"] for r in lines)
    # each die with its whole message (issue 54, item 10), to check by hand once the seed is revealed; a tie (the
    # seed is new at each init: one in six) is logged and both roll again under the next key
    for n, (*_, said) in enumerate(lines, start=1):
        outcome = r"(Ann|Bo) plays first\." if n == len(lines) else r"a tie, both roll again\."
        assert re.fullmatch(rf"Ann rolls \d \[0/first/{n}/Ann\], Bo rolls \d \[0/first/{n}/Bo\]: {outcome}",
                            str(said)), lines
    gm = openpyxl.load_workbook(tmp_path / "gm" / "engine.xlsx")["GM"]
    assert lines[0][2] in [c.value for r in gm.iter_rows() for c in r]  # the GM tab's log starts with it too


# --------------------------------------------------------------------------- --private, rulesets without sheets

@pytest.mark.parametrize("ruleset", sorted(r for r in GAMES if starter_config(r).exists()))
def test_private_gives_every_seat_its_orders_file_and_the_gm_the_engine(ruleset: str) -> None:
    text = starter_config(ruleset).read_text(encoding="utf-8")
    data = tomllib.loads(private_config(text))
    seats = data.get("seats") or data["teams"]
    sheets = data["sheets"]
    assert sheets["engine"].startswith("gm/")
    assert set(sheets["orders"]) == set(seats)
    files = [sheets["board"], sheets["engine"], *sheets["orders"].values()]
    assert len(set(files)) == len(files)


def test_private_adds_the_lines_a_starter_lacks_and_quotes_odd_seat_names() -> None:
    text = 'ruleset = "race"\nseats = ["Ann Lee", "Bo"]\n\n[sheets]\nbackend = "local"\nboard = "b.xlsx"\n'
    data = tomllib.loads(private_config(text))
    assert data["sheets"] == {"backend": "local", "board": "b.xlsx", "engine": "gm/engine.xlsx",
                              "orders": {"Ann Lee": "orders-Ann_Lee.xlsx", "Bo": "orders-Bo.xlsx"}}


def test_init_private_writes_the_private_starter_for_a_game_on_windows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.toml"
    code, out, err = run(capsys, "init", "champions", "-c", path, "--private")
    assert code == 0, err
    assert "one orders workbook per player" in out and (tmp_path / "gm" / "engine.xlsx").exists()


def test_init_of_a_ruleset_without_sheets_says_what_runs_instead(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        registered_race: object) -> None:
    monkeypatch.setattr("tests.sync.race_game.GAME", replace(race_game.GAME, sheet=None))
    code, _, err = run(capsys, "init", "race", "-c", tmp_path / "match.toml")
    assert code == 1 and "has no sheets" in err and "Traceback" not in err
    assert not (tmp_path / "match.toml").exists()


def test_doctor_warns_when_the_config_changes_a_house_rule_of_a_game_on_windows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], registered_race: object) -> None:
    path = tmp_path / "match.toml"
    path.write_text(LOCAL + "[settings]\nmax_turns = 3\n", encoding="utf-8")
    assert run(capsys, "init", "race", "-c", path)[0] == 0
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert code == 0 and "the config's house rules are the match's" in out
    path.write_text(LOCAL + "[settings]\nmax_turns = 5\n", encoding="utf-8")
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert "max_turns = 5 in the config but 3 in the match" in out


def seat_editors(fake: GoogleApiFake, role: str) -> set[str]:
    """Everyone a protected range of that spreadsheet lets edit, beyond the account and the GMs."""
    return {u for s in fake.spreadsheets[KEYS[role]].sheets for p in s.protected_ranges
            for u in p.get("editors", {}).get("users", [])} - {ACCOUNT, "gm@example.org"}


def test_repair_keeps_each_seats_typed_cells_to_its_members(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "init", "race", "-c", google_race, "--no-share")[0] == 0
    assert seat_editors(fake, "Ann") == {"ann@example.org", "al@example.org"}
    assert {fake.spreadsheets[k].properties["title"] for k in KEYS.values()} == {"Cloud race"}
    code, _, err = run(capsys, "repair", "-c", google_race)
    assert code == 0, err
    assert seat_editors(fake, "Ann") == {"ann@example.org", "al@example.org"}
    assert seat_editors(fake, "Bo") == {"bo@example.org"}
    assert {fake.spreadsheets[k].properties["title"] for k in KEYS.values()} == {"Cloud race"}  # the GM's title


def test_win_or_die_s_gm_tab_names_the_match_s_own_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The GM tab's line of effects to apply gives the adjust command with the config the match really has, as a
    shell takes it; and so again once repair draws the tab anew."""
    path = tmp_path / "friday night.toml"
    run(capsys, "init", "winordie", "-c", path)
    type_rows(tmp_path / "gm" / "engine.xlsx",
              [("Ann", "Ann", "", "Ironclad Defense"), ("Bo", "Bo", "", "Firepower Suppression")])
    for command in ("init", "repair"):
        code, _, err = run(capsys, command, *(["winordie"] if command == "init" else []), "-c", path)
        assert code == 0, err
        gm = openpyxl.load_workbook(tmp_path / "gm" / "engine.xlsx")["GM"]
        line = next(str(c.value) for r in gm.iter_rows() for c in r if str(c.value).startswith("Effects to apply"))
        assert "sheets-gm adjust -c 'friday night.toml' --damage" in line, command
        assert "match.toml" not in line and "MATCH.toml" not in line
