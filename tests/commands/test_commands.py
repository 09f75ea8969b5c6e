"""init, sync, resolve and status of a GvG match end to end: a match config in a temporary folder, orders
typed into the cells of each team's orders tab (a row per player, the captain's row).

Local workbooks here; the same commands against the Google fake are in test_commands_google.py. What every
game on the generic sync shares is in test_window_commands.py (the test game "race"); this file keeps what
GvG's players, captains and GM see.
"""

from __future__ import annotations

import hashlib
import threading
from datetime import datetime, timedelta
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import ruleset_names
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.run import sync_once
from sheets_gm.sync.match_record import MatchRecord
from tests.made import made_into
from tests.matchfiles import local_config, record_of, rules_of
from tests.matchfiles import type_orders as bots_type
from tests.paths import ROOT, SCENARIOS

ROSTER = "name,team,role,email\nAnn,red,dps,ann@example.org\nBen,red,healer,\nCat,blue,tank,\nDan,blue,dps,\n"
FEEDBACK, READY = 12, 11  # the Feedback column (L) of both tables, the captain's Ready box (K)


#: Each team's orders in a workbook of its own and the engine under gm/: GvG's orders are private until the
#: turn resolves, and init refuses a layout that shows them (or the seed) to the other team.
PRIVATE = 'engine = "gm/engine.xlsx"\norders = { red = "red.xlsx", blue = "blue.xlsx" }'


def config(tmp_path: Path, extra: str = "", **where: str) -> Path:
    """A local match.toml with ``extra`` above its tables (see tests/matchfiles.py): the board in match.xlsx,
    each team's orders in red.xlsx and blue.xlsx, the engine in gm/engine.xlsx (unless ``body`` says)."""
    where.setdefault("body", PRIVATE)
    return local_config(tmp_path, head=extra, **where)


def roster(tmp_path: Path, text: str = ROSTER) -> Path:
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def record(path: Path) -> MatchRecord:
    """The match the engine tab of ``path``'s match holds."""
    return record_of(open_match_sheets(load_config(path)))


def state_turn(path: Path) -> int:
    return int(record(path).state.turn)


def type_orders(path: Path, ready: bool = True) -> None:
    bots_type(open_match_sheets(load_config(path)), ready=ready)


def row_of(sheet: openpyxl.worksheet.worksheet.Worksheet, first: str) -> int:
    """The row whose column A says ``first`` (a player's name, a team's captain row)."""
    return next(r for r in range(1, sheet.max_row + 1) if sheet.cell(r, 1).value == first)


# --------------------------------------------------------------------------- init

def test_init_in_an_empty_folder_writes_a_starter_config_and_lays_out_the_roster_tab(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GvG needs its players: without a roster, init lays out the Roster tab and creates no match."""
    path = tmp_path / "match.toml"
    code, out, _ = run(capsys, "init", "gvg", "-c", path)
    assert code == 0
    assert "Wrote a starter config" in out
    assert f"type the roster in tab 'Roster' of {tmp_path / 'gm' / 'engine.xlsx'}" in out
    assert "a GvG match needs its players: a roster line per player" in out and "Seed hash" not in out
    assert (load_config(path).board, load_config(path).engine) == ("board.xlsx", "gm/engine.xlsx")
    engine = tmp_path / "gm" / "engine.xlsx"  # the GM's: the roster holds e-mail addresses
    wb = openpyxl.load_workbook(engine)
    assert "Engine" not in wb.sheetnames
    ws = wb["Roster"]
    assert [c.value for c in ws[1]] == ["name", "team", "email", "role", "captain", *[None] * 21]  # read to Z
    lists = {str(v.sqref): v.formula1 for v in ws.data_validations.dataValidation}
    assert any(ref.startswith("B2") and "red,blue" in str(f) for ref, f in lists.items())

    # Running init again with the tab still empty changes nothing and says the same.
    code, out, _ = run(capsys, "init", "gvg", "-c", path)
    assert code == 0 and "No roster yet" in out

    # The GM types the roster in the sheet (any case), then init again.
    wb = openpyxl.load_workbook(engine)
    ws = wb["Roster"]
    for r, row in enumerate([("Ann", "red", None, "DPS", "yes"), ("Ben", "Red", None, "Healer"),
                             ("Cat", "blue", "cat@example.org", "Tank", "x")], start=2):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c).value = value
    wb.save(engine)
    code, out, _ = run(capsys, "init", "gvg", "-c", path)
    assert code == 0, out
    assert "Match created: red, blue (3 roster lines)" in out
    assert state_turn(path) == 1
    assert [(p.name, p.team, p.role.value) for p in record(path).state.players] == [
        ("Ann", 0, "dps"), ("Ben", 0, "healer"), ("Cat", 1, "tank")]


def test_init_with_a_roster_csv_and_private_workbooks_creates_every_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, "[deadlines]\ntimes = [\"20:00\"]\ntimezone = \"Europe/Paris\"", workbook="board.xlsx",
                  body='engine = "gm/engine.xlsx"\norders = { red = "red.xlsx", blue = "blue.xlsx" }')
    code, out, _ = run(capsys, "init", "gvg", "-c", path, "--roster", roster(tmp_path))
    assert code == 0, out
    seed_hash = out.split("Seed hash")[1].split(": ")[1].split()[0]
    assert len(seed_hash) == 64
    assert "The first orders are open until " in out and ", 20:00 (Europe/Paris)" in out
    for name in ("board.xlsx", "gm/engine.xlsx", "red.xlsx", "blue.xlsx"):
        assert (tmp_path / name).exists(), name
    assert openpyxl.load_workbook(tmp_path / "gm/engine.xlsx")["Engine"].sheet_state == "hidden"
    assert "Orders blue" not in openpyxl.load_workbook(tmp_path / "red.xlsx").sheetnames
    assert "Orders red" in openpyxl.load_workbook(tmp_path / "red.xlsx").sheetnames
    settings = openpyxl.load_workbook(tmp_path / "board.xlsx")["Settings"]
    rows = [[c.value for c in row][:2] for row in settings.iter_rows()]
    assert ["deadlines", "every day at 20:00 (Europe/Paris)"] in rows
    stored = record(path)
    assert stored.seed_hash == seed_hash
    assert stored.deadline.endswith(("+01:00[Europe/Paris]", "+02:00[Europe/Paris]"))


def test_init_with_a_roster_and_no_config_writes_the_roster_line_so_doctor_checks_the_captains(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    players = tmp_path / "lists" / "players.csv"
    players.parent.mkdir()
    players.write_text(ROSTER, encoding="utf-8")
    path = tmp_path / "match.toml"
    code, out, err = run(capsys, "init", "gvg", "-c", path, "--roster", players)
    assert code == 0, err
    text = path.read_text(encoding="utf-8")
    assert 'roster = "lists/players.csv"' in text and "# roster =" not in text
    assert "captain (yes for the one who buys" in text  # the column the captains' check reads
    assert load_config(path).roster == players.resolve()
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert "captains and e-mails not checked" not in out


def test_init_points_to_the_cron_notes_by_a_path_that_opens_from_the_match_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "init", "gvg", "-c", tmp_path / "match.toml", "--roster", roster(tmp_path))
    assert code == 0, err
    pointer = out.split("by hand (")[1].split(" says more")[0]
    assert Path(pointer).is_absolute() and Path(pointer).is_file() and Path(pointer).name == "cron.txt"


def test_init_refuses_to_replace_a_match_unless_told_and_then_keeps_a_backup(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, tmp_path = match, match.parent
    type_orders(path)
    assert run(capsys, "sync", "-c", path)[0] == 0
    code, _, err = run(capsys, "init", "gvg", "-c", path)
    assert code == 1 and "already holds a gvg match at turn 2 (1 window resolved, seed hash " in err
    assert "init never replaces one" in err
    assert state_turn(path) == 2
    code, out, _ = run(capsys, "init", "gvg", "-c", path, "--overwrite")
    assert code == 0, out
    assert "Replaced a gvg match at turn 2 (1 window resolved, seed hash " in out  # what the GM just replaced
    backups = list(tmp_path.glob("match.before-init-*.xlsx"))
    assert len(backups) == 1 and str(backups[0]) in out
    assert state_turn(path) == 1


def test_house_rules_from_the_config_are_the_matchs_settings(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, 'roster = "roster.csv"\n[settings]\nmovement = "rook"\nmax_turns = 20')
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    settings = rules_of(record(path)).settings
    assert settings.movement == "rook" and settings.max_turns == 20
    code, out, _ = run(capsys, "status", "-c", path)
    assert code == 0 and "Turn 1 of 20" in out


# --------------------------------------------------------------------------- sync, resolve, status

@pytest.fixture
def match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A GvG match ``init`` created from its config and roster: the first test's of a test run, copied
    (``tests.made``; the config names every file relative to itself)."""
    def make(into: Path) -> None:
        path = config(into, 'roster = "roster.csv"')
        roster(into)
        assert run(capsys, "init", "gvg", "-c", path)[0] == 0

    made_into(tmp_path, "commands/match", make, shared=True)
    return tmp_path / "match.toml"


def test_sync_answers_players_and_resolves_when_every_captain_is_ready(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sync", "-c", match)
    assert (code, out.strip()) == (0, "Turn 1: waiting for red, blue.")
    type_orders(match, ready=False)
    code, out, _ = run(capsys, "sync", "-c", match)
    assert code == 0 and "Turn 1: waiting for red, blue; " in out and "feedback cells updated" in out
    assert state_turn(match) == 1
    sheet = openpyxl.load_workbook(match.parent / "red.xlsx")["Orders red"]
    feedback = str(sheet.cell(row_of(sheet, "Ann"), FEEDBACK).value)
    assert "Waiting for your orders" not in feedback and feedback
    type_orders(match, ready=True)
    code, out, _ = run(capsys, "sync", "-c", match, "--quiet")
    assert code == 0 and out.startswith("Turn 1 resolved (every seat is ready). Turn 2 of 60")
    code, out, _ = run(capsys, "sync", "-c", match, "--quiet")
    assert (code, out) == (0, "")
    assert state_turn(match) == 2


def test_force_names_the_turn_and_never_resolves_one_that_another_sync_opened_meanwhile(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GvG's windows are its turns: ``--turn N`` names the turn to force. The GM sees turn 1 and forces it;
    if cron resolved turn 1 a moment before, turn 2 stays open."""
    code, _, err = run(capsys, "resolve", "-c", match)
    assert code == 1 and "window 1 (turn 1) is not due" in err and "(not ready: red, blue)" in err
    assert f"sheets-gm resolve -c {match} --force --window 1 --step 1" in err
    code, out, err = run(capsys, "resolve", "-c", match, "--force")
    assert code == 1 and out == "" and "window 1, step 1 (turn 1) is open now" in err
    assert state_turn(match) == 1
    code, out, _ = run(capsys, "resolve", "-c", match, "--force", "--turn", "1")
    assert code == 0 and out.startswith("Turn 1 resolved (forced by the GM). Turn 2 of 60")
    code, out, err = run(capsys, "resolve", "-c", match, "--force", "--turn", "1")  # the GM's second try
    assert code == 1 and out == ""
    assert ("window '1' (resolved already: resolution 1, by a resolve --force) is not the open one: open now is "
            "turn 2 (window 2, step 2); nothing was forced") in err
    assert state_turn(match) == 2
    code, _, err = run(capsys, "resolve", "-c", match, "--force", "--window", "2", "--turn", "3")
    assert code == 2 and "--window 2 and --turn 3 name two windows" in err
    assert state_turn(match) == 2


def test_status_says_where_the_match_stands_and_writes_nothing(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    workbook = match.parent / "red.xlsx"
    book = openpyxl.load_workbook(workbook)
    sheet = book["Orders red"]
    ann = row_of(sheet, "Ann")
    sheet.cell(ann, 4).value, sheet.cell(ann, 5).value = "Z99", "attack"
    book.save(workbook)
    before = workbook.read_bytes()
    code, out, _ = run(capsys, "status", "-c", match)
    assert code == 0
    assert workbook.read_bytes() == before
    lines = out.splitlines()
    assert lines[0] == "Turn 1 is open (window 1, step 1); no deadline: it resolves when every seat is ready"
    assert lines[1].startswith("Turn 1 of 60 · orders open · red: 0 coins")
    assert "Not ready: red, blue" in lines
    assert "Nothing typed yet in: red: Ben; blue: Cat, Dan" in lines  # whose orders the GM may chase
    assert "Rejected (1):" in lines
    assert "  red · Ann: Z99 is off the board (A1 to O23)" in lines
    assert lines[-1] == "Not due yet."


def test_the_deadline_resolves_a_turn_and_the_next_one_follows_the_schedule(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, 'roster = "roster.csv"\n[deadlines]\ntimes = ["20:00"]\ntimezone = "UTC"')
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    cfg = load_config(path)
    sheets = open_match_sheets(cfg)
    stored = record(path).deadline
    assert stored.endswith("T20:00+00:00[UTC]")
    deadline = datetime.fromisoformat(stored.removesuffix("[UTC]"))
    before = sync_once(cfg, sheets, now=deadline - timedelta(minutes=1))
    assert not before.resolved and before.deadline == stored
    after = sync_once(cfg, sheets, now=deadline + timedelta(minutes=1))
    said = f"{deadline:%a} {deadline.day} {deadline:%b}, 20:00 (UTC)"
    assert after.resolved and said in after.reason and "passed" in after.reason
    tomorrow = deadline + timedelta(days=1)
    assert after.deadline.startswith(f"{tomorrow:%Y-%m-%d}T20:00")
    assert record(path).state.turn == 2


def test_a_whole_match_by_cron_syncs_reaches_its_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, 'roster = "roster.csv"\n[settings]\nmax_turns = 2')  # ends as a long match would
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    for _ in range(2):
        type_orders(path)
        assert run(capsys, "sync", "-c", path)[0] == 0
    code, out, _ = run(capsys, "status", "-c", path)
    assert code == 0 and out.startswith("Match over on turn")
    code, out, _ = run(capsys, "sync", "-c", path)
    assert code == 0 and out.startswith("Nothing to do: Match over")
    code, _, err = run(capsys, "resolve", "-c", path, "--force")
    assert code == 1 and "the match is over" in err
    code, _, err = run(capsys, "resolve", "-c", path, "--force", "--turn", "2")
    assert code == 1 and "the match is over" in err
    code, out, _ = run(capsys, "sync", "-c", path, "--watch", "--interval", "0.01")
    assert code == 0 and out.splitlines()[-1] == "The match is over; watch ends."


# --------------------------------------------------------------------------- user errors

@pytest.mark.parametrize("command", [["sync"], ["resolve"], ["status"]])
def test_a_missing_config_is_one_message_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     command: list[str]) -> None:
    code, _, err = run(capsys, *command, "-c", tmp_path / "none" / "match.toml")
    assert code == 1 and "Traceback" not in err
    assert f"no config file at {tmp_path / 'none' / 'match.toml'}" in err


def test_a_missing_roster_file_is_one_message_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "init", "gvg", "-c", config(tmp_path), "--roster", tmp_path / "x.csv")
    assert code == 1 and f"no roster file at {tmp_path / 'x.csv'}" in err


def test_sync_before_init_says_to_run_init(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, body="")
    import shutil

    from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
    from sheets_gm.sheets.local.backend import create_workbook

    create_workbook(tmp_path / "match.xlsx", WorkbookLayout("x", (TabLayout("Sheet1", 1, 1),)))
    code, _, err = run(capsys, "sync", "-c", path)
    assert code == 1 and f"no match was created yet: {tmp_path / 'match.xlsx'} has no engine tab 'Engine'" in err
    assert f"run sheets-gm init gvg -c {path}." in err and "Roster" not in err
    shutil.rmtree(tmp_path / ".sheets-gm", ignore_errors=True)


def test_sync_with_the_engine_moved_in_the_config_only_says_to_run_repair(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The config names a new engine file while the match's engine tab is still in the board's: not a match never
    created, but one whose engine repair moves."""
    from tests.matchfiles import local_match

    path, _ = local_match(tmp_path)
    path.write_text(path.read_text().replace('board = "match.xlsx"', 'board = "match.xlsx"\nengine = "gm/engine.xlsx"'))
    (tmp_path / "gm").mkdir()
    openpyxl.Workbook().save(tmp_path / "gm" / "engine.xlsx")
    code, _, err = run(capsys, "sync", "-c", path)
    assert code == 1 and "no match was created" not in err
    assert f"{tmp_path / 'gm' / 'engine.xlsx'} has no engine tab 'Engine', and {tmp_path / 'match.xlsx'} has one" in err
    assert f"Run sheets-gm repair -c {path}, which moves it there" in err


@pytest.mark.parametrize("command", ["sync", "status", "resolve"])
def test_a_command_after_an_init_that_stopped_for_its_roster_says_to_run_init(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """init without a roster lays out the Roster tab and creates no match: a command of a match in play says
    that no match was created and how to create one, not that some tab of it is missing."""
    def make(into: Path) -> None:  # the same init for each command: made once a test process, copied
        assert run(capsys, "init", "gvg", "-c", into / "match.toml")[0] == 0

    made_into(tmp_path, "commands/init without a roster", make)
    path = tmp_path / "match.toml"
    code, _, err = run(capsys, command, "-c", path)
    assert code == 1 and "Traceback" not in err
    engine = tmp_path / "gm" / "engine.xlsx"
    assert f"no match was created yet: {engine} has no engine tab 'Engine'" in err
    assert f"type the players in tab 'Roster' of {engine}, then run sheets-gm init gvg -c {path}." in err
    assert "Copies" not in err and "repair" not in err


@pytest.mark.parametrize(("extra", "roster_text", "message"), [
    ('[settings]\nmovment = "rook"', ROSTER, "movment"),
    ('[settings]\nmovement = "diagonal"', ROSTER, "movement"),
    ("", "name,team\nAnn,red\n", "Ann: unknown role ''; use dps, tank or healer"),
    ("", "name,team,role\nAnn,red,mage\n", "Ann: unknown role 'mage'; use dps, tank or healer"),
    ("", "name,team,role\nAnn,green,dps\n", "line 2: Ann is in 'green'; the seats are red, blue"),
    ("", "name,team,role\nAnn,red,dps\nBen,red,mage\n", "roster.csv: roster line 3: Ben: unknown role 'mage'"),
    ("", "name,role\nAnn,dps\n", "line 1 should name the columns name and seat (or team"),
    ('map = "nomap.txt"', ROSTER, "no file at"),
])
def test_init_user_errors_exit_1_with_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str,
                                                  roster_text: str, message: str) -> None:
    path = config(tmp_path, extra)
    code, _, err = run(capsys, "init", "gvg", "-c", path, "--roster", roster(tmp_path, roster_text))
    assert code == 1, err
    assert message in err and "Traceback" not in err
    engine = tmp_path / "gm" / "engine.xlsx"
    assert not engine.exists() or "Engine" not in openpyxl.load_workbook(engine).sheetnames


def test_init_of_an_unknown_ruleset_or_another_rulesets_config_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:  # a mistyped command: exit code 2, as the README promises
        run(capsys, "init", "chess", "-c", tmp_path / "match.toml")
    assert exited.value.code == 2
    assert f"unknown game 'chess'; this build knows: {', '.join(ruleset_names())}" in capsys.readouterr().err
    assert not (tmp_path / "match.toml").exists()


def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["sync", "--interval", "-3"])
    assert exit_.value.code == 2
    assert "the interval must be more than 0 seconds" in capsys.readouterr().err


def test_every_command_help_shows_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("init", "sync", "resolve", "status"):
        with pytest.raises(SystemExit):
            main([name, "--help"])
        out = capsys.readouterr().out
        assert f"example: sheets-gm {name}" in out, name


def test_the_seed_hash_printed_by_init_is_the_sha256_of_the_secret_seed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import hashlib

    path = config(tmp_path, 'roster = "roster.csv"')
    roster(tmp_path)
    code, out, _ = run(capsys, "init", "gvg", "-c", path)
    assert code == 0
    stored = record(path)
    assert f"Seed hash (publish it now; `export` reveals the seed at the end): {stored.seed_hash}" in out
    assert hashlib.sha256(stored.seed).hexdigest() == stored.seed_hash
    assert len(stored.seed) == 32


def test_ctrl_c_during_watch_stops_after_the_poll_under_way_and_restores_the_handlers(
        match: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    import sheets_gm.commands.polls as sync_command

    seen: dict[str, object] = {}

    def fake_watch(step: object, stop: threading.Event, **kwargs: object) -> None:
        signal.raise_signal(signal.SIGINT)  # the GM presses Ctrl-C while a poll runs
        seen["stopped"] = stop.is_set()
        seen["waits"] = (kwargs["interval"], kwargs["max_interval"])
        return None

    before = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(sync_command, "watch", fake_watch)
    code, out, _ = run(capsys, "sync", "-c", match, "--watch")
    # Issue 54: on local workbooks the watch polls every interval (an idle local poll compares file stamps only)
    assert code == 0 and seen == {"stopped": True, "waits": (60.0, 60.0)}
    assert "Stopping after this poll (press Ctrl-C again to stop at once)." in out
    assert out.splitlines()[-1] == "Stopped."
    assert signal.getsignal(signal.SIGINT) is before


def test_printed_commands_work_as_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After scripts/demo.sh, sheets-gm is not on the PATH: the demo prints the path it was started by."""
    from sheets_gm.commands.base import activate_script, program_name

    program = tmp_path / ".venv" / "bin" / "sheets-gm"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", [str(program)])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert program_name() == ".venv/bin/sheets-gm"
    assert program_name(from_anywhere=True) == str(program)  # for `init` in a new, empty folder
    assert activate_script() is None  # no activate script beside it
    (program.parent / "activate").write_text("# the venv's\n")
    assert activate_script() == program.parent / "activate"
    monkeypatch.setenv("PATH", f"{program.parent}:/usr/bin:/bin")
    assert program_name() == "sheets-gm" == program_name(from_anywhere=True)
    assert activate_script() is None
    monkeypatch.setattr("sys.argv", ["/somewhere/sheets_gm/cli.py"])
    assert program_name().endswith(" -m sheets_gm.cli")


def test_demo_sh_plays_in_the_folder_it_is_started_from(tmp_path: Path) -> None:
    """``bash ~/sheets-gm/scripts/demo.sh --out mine`` writes ``./mine``, not into the repository, so the paths
    the demo prints are the user's. A stand-in program (the install stamp matches) records where it ran."""
    import shutil
    import subprocess

    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "demo.sh", repo / "scripts" / "demo.sh")
    (repo / "pyproject.toml").write_text("[project]\n", encoding="utf-8")
    bin_dir = repo / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name, body in (("python", "exit 0"), ("sheets-gm", 'echo "$PWD $*"')):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    digest = hashlib.sha256((repo / "pyproject.toml").read_bytes()).hexdigest()
    (repo / ".venv" / ".sheets-gm-install").write_text(f"{digest} base\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(["bash", str(repo / "scripts" / "demo.sh"), "--out", "mine"], cwd=elsewhere,
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, f"{elsewhere} demo --out mine\n")


def test_output_cut_short_by_its_reader_is_not_an_error() -> None:
    """``sheets-gm … | head -1`` must not end in a BrokenPipeError traceback."""
    import subprocess
    import sys

    scenarios = SCENARIOS / "gvg"
    command = f"'{sys.executable}' -m sheets_gm.cli scenario '{scenarios}' | head -1"
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command}"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.stdout.startswith("pass ") and done.stdout.count("\n") == 1
    assert done.stderr == "" and done.returncode == 0


def test_players_without_an_email_can_type_their_orders_in_a_local_workbook(match: Path) -> None:
    """LibreOffice and Excel refuse typing into a locked cell of a protected sheet: every player's and
    captain's input cells must be unlocked in the saved file, e-mail or not; GM cells stay locked."""
    for team, players in (("red", ("Ann", "Ben")), ("blue", ("Cat", "Dan"))):  # Ben, Cat and Dan have no e-mail
        ws = openpyxl.load_workbook(match.parent / f"{team}.xlsx")[f"Orders {team}"]
        assert ws.protection.sheet
        header = row_of(ws, "Player")
        assert [ws.cell(header, c).value for c in (4, 5, 6)] == ["Destination", "Action", "Teleport"]
        for name in players:
            r = row_of(ws, name)
            assert [ws.cell(r, c).protection.locked for c in (4, 5, 6)] == [False, False, False], name
            assert ws.cell(r, FEEDBACK).protection.locked, f"{name}'s feedback is the GM's"
            assert ws.cell(r, 3).protection.locked, f"{name}'s move roll is the GM's"
            assert ws.cell(r, 1).protection.locked, f"{name}'s name is the GM's"
        header = row_of(ws, "Captain of")
        captain = row_of(ws, team)
        assert captain == header + 1
        kinds = [ws.cell(header, c).value for c in range(1, 13)]
        inputs = [c + 1 for c, k in enumerate(kinds) if str(k).startswith("Skill") or k == "Ready"]
        assert len(inputs) == 8 and all(not ws.cell(captain, c).protection.locked for c in inputs)
        assert ws.cell(captain, kinds.index("Feedback") + 1).protection.locked
        assert ws.cell(captain, kinds.index("The other team's move rolls") + 1).protection.locked


def test_the_ready_box_shows_as_a_box_in_libreoffice(match: Path) -> None:
    """LibreOffice shows an .xlsx FALSE as 0 unless the cell's number format says otherwise."""
    import openpyxl

    from sheets_gm.sheets.local.layout import CHECKBOX_FORMAT

    ws = openpyxl.load_workbook(match.parent / "red.xlsx")["Orders red"]
    ready = [c for row in ws.iter_rows() for c in row if c.value is False]
    assert ready and all(c.number_format == CHECKBOX_FORMAT for c in ready)


def test_init_private_starts_a_file_per_team(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.toml"
    code, out, err = run(capsys, "init", "gvg", "-c", path, "--private")
    assert code == 0, err
    assert "one orders workbook per team" in out
    cfg = load_config(path)
    assert {cfg.local_path(w).name for w in (cfg.board, cfg.engine, *cfg.orders)} == {
        "board.xlsx", "engine.xlsx", "orders-red.xlsx", "orders-blue.xlsx"}
    assert cfg.local_path(cfg.engine).parent.name == "gm"
    code, _, err = run(capsys, "init", "gvg", "-c", path, "--private")
    assert code == 1 and "--private shapes a new starter config" in err


def test_the_board_tile_is_the_cell_and_every_team_wears_its_colour(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tile G9 is cell G9; a player shows its team's mark; red's base is red, blue's blue (slot 1 is red)."""
    from sheets_gm.rulesets.gvg.enums import Terrain
    from sheets_gm.rulesets.gvg.sheet.draw import GvgLook
    from sheets_gm.rulesets.registry import sheet_spec

    path, tmp_path = match, match.parent
    board = openpyxl.load_workbook(tmp_path / "match.xlsx")["Board"]
    stored = record(path)
    look = GvgLook.of(sheet_spec("gvg"))
    for p in stored.state.players:
        assert f"{p.name}{look.team_mark(p.team)}" in str(board[p.at.label].value), p.name
    colours = {"red": "F4CCCC", "blue": "CFE2F3"}
    bases = 0
    for tile, (terrain, owner) in rules_of(stored).board.terrain.items():
        if terrain is Terrain.BASE and owner is not None:
            assert str(board[tile.label].fill.start_color.rgb).endswith(colours[stored.state.teams[owner]]), tile.label
            bases += 1
    assert bases >= 2
    listed = row_of(board, "Player")
    assert [c.value for c in board[listed]][:4] == ["Player", "Team", "Role", "Position"]
    assert {board.cell(listed + 1 + i, 1).value for i in range(4)} == {"Ann", "Ben", "Cat", "Dan"}


def test_a_workbook_left_open_is_reported_once_a_turn_naming_who_has_it(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lock = match.parent / ".~lock.match.xlsx#"
    type_orders(match, ready=True)
    lock.write_text(",Ann Smith,ann-laptop,22.11.2026 12:00,file:///home/ann/.config/libreoffice/4;", encoding="utf-8")
    code, out, err = run(capsys, "sync", "-c", match, "--quiet")
    assert code == 1 and out == ""
    assert "open in LibreOffice by Ann Smith on ann-laptop" in err and "said once this turn" in err
    for _ in range(2):  # cron's next polls: no mail
        assert run(capsys, "sync", "-c", match, "--quiet") == (1, "", "")
    code, out, err = run(capsys, "sync", "-c", match)  # the GM by hand: told what happened, every time
    assert code == 1 and out == "" and err.startswith("sheets-gm: nothing synced: ") and "by Ann Smith" in err
    assert state_turn(match) == 1
    lock.unlink()
    code, out, _ = run(capsys, "sync", "-c", match, "--quiet")
    assert code == 0 and out.startswith("Turn 1 resolved")
    type_orders(match, ready=True)
    lock.write_text(",Ann Smith,ann-laptop,22.11.2026 12:05,file:///x;", encoding="utf-8")
    code, _, err = run(capsys, "sync", "-c", match, "--quiet")
    assert code == 1 and "by Ann Smith" in err  # a new turn: said again


def test_settings_changed_after_init_are_named_on_every_sync(match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = match.read_text(encoding="utf-8")
    match.write_text(text + '\n[settings]\nmovement = "rook"\nboss_hp = 5\n', encoding="utf-8")
    for _ in range(2):
        code, out, _ = run(capsys, "sync", "-c", match, "--quiet")
        assert code == 0
        assert "Warning: movement = 'rook' in the config but 'king' in the match" in out
        assert "boss_hp = 5 in the config but 3 in the match" in out and "is ignored" in out
    match.write_text(text, encoding="utf-8")
    assert run(capsys, "sync", "-c", match, "--quiet") == (0, "", "")


def test_init_warns_of_uneven_teams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The captain is whoever may edit the team's orders (no roster column says it); uneven teams are named."""
    path = config(tmp_path, 'roster = "roster.csv"')
    roster(tmp_path, "name,team,role\nAnn,red,dps\nBen,red,healer\nEve,red,tank\nCat,blue,tank\n")
    code, out, _ = run(capsys, "init", "gvg", "-c", path)
    assert code == 0
    assert "Warning: the teams are uneven: red 3, blue 1." in out
    roster(tmp_path, ROSTER)
    code, out, _ = run(capsys, "init", "gvg", "-c", path, "--overwrite")
    assert code == 0 and "the teams are uneven" not in out


@pytest.mark.parametrize("shared", ["red.xlsx", "board.xlsx"])
def test_init_of_a_second_config_naming_a_running_match_s_workbook_refuses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shared: str) -> None:
    """Issue 52, item 3: a copied config with one line not edited (its own engine, the first match's orders or
    board) is refused before anything is written: that match's typed orders are never laid over."""
    first = config(tmp_path, workbook="board.xlsx")
    assert run(capsys, "init", "gvg", "-c", first, "--roster", roster(tmp_path))[0] == 0
    type_orders(first, ready=False)
    before = {name: (tmp_path / name).read_bytes() for name in ("board.xlsx", "red.xlsx", "blue.xlsx")}
    mine = {"red.xlsx": "red2.xlsx", "board.xlsx": "board2.xlsx", "blue.xlsx": "blue2.xlsx"}
    mine[shared] = shared
    second = tmp_path / "second.toml"
    second.write_text(first.read_text(encoding="utf-8").replace('"gm/engine.xlsx"', '"gm/engine2.xlsx"')
                      .replace('"board.xlsx"', f'"{mine["board.xlsx"]}"').replace('"red.xlsx"', f'"{mine["red.xlsx"]}"')
                      .replace('"blue.xlsx"', f'"{mine["blue.xlsx"]}"'), encoding="utf-8")
    code, out, err = run(capsys, "init", "gvg", "-c", second, "--roster", roster(tmp_path))
    assert code != 0
    said = out + err
    assert f"{shared} holds " in said and "init never writes over a match" in said
    assert ("the orders of red" if shared == "red.xlsx" else "the board") in said
    assert {name: (tmp_path / name).read_bytes() for name in before} == before
    assert not (tmp_path / "gm" / "engine2.xlsx").exists()


def test_a_config_naming_another_match_s_board_is_refused_by_sync_and_doctor(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 52, item 3: two configs naming one board (each match's players would read the other's board): the
    board carries its match's id, and the other match's sync and doctor name it, nothing written."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = config(tmp_path / "a", workbook="board.xlsx"), config(tmp_path / "b", workbook="board.xlsx")
    for path in (first, second):
        assert run(capsys, "init", "gvg", "-c", path, "--roster", roster(path.parent))[0] == 0
    second.write_text(second.read_text(encoding="utf-8").replace('board = "board.xlsx"', 'board = "../a/board.xlsx"'),
                      encoding="utf-8")
    board = (tmp_path / "a" / "board.xlsx").read_bytes()
    code, out, err = run(capsys, "sync", "-c", second)
    assert code != 0 and "is the board of another match" in out + err
    code, out, err = run(capsys, "doctor", "-c", second)
    assert code != 0 and "is the board of another match" in out + err
    assert (tmp_path / "a" / "board.xlsx").read_bytes() == board
    assert run(capsys, "sync", "-c", first)[0] == 0  # the first match goes on


def test_status_chases_no_row_of_a_seat_that_ticked_ready(match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54, tried as a GM: status listed a Ready seat's empty rows under 'Nothing typed yet' (a Champions
    bot's champion that fields no set): a seat that ticked Ready has its orders in, its empty rows take the
    game's default. Checked to fail without the skip in ``poll._untyped_rows``."""
    workbook = match.parent / "red.xlsx"
    book = openpyxl.load_workbook(workbook)
    sheet = book["Orders red"]
    box = next(c for row in sheet.iter_rows() for c in row if c.column == READY and c.value is False)
    box.value = True
    book.save(workbook)
    code, out, _ = run(capsys, "status", "-c", match)
    assert code == 0
    lines = out.splitlines()
    assert "Not ready: blue" in lines
    assert "Nothing typed yet in: blue: Cat, Dan" in lines, lines
