"""init, sync, resolve and status end to end: a match config in a temporary folder, orders typed into cells.

Local workbooks here; the same commands against the Google fake are in test_commands_google.py.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.engine.registry import ruleset_names
from sheets_gm.match.config import load_config
from sheets_gm.match.connect import open_match_sheets
from sheets_gm.match.watch import sync_once
from sheets_gm.rulesets.gvg.bots import ObjectiveBot, RandomBot
from sheets_gm.rulesets.gvg.sheet.template import default_template
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import a1
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.snapshot import read_snapshot
from tests.matchfiles import local_config
from tests.paths import SCENARIOS

ROSTER = "name,team,role,captain,email\nAnn,red,dps,yes,ann@example.org\nBen,red,healer,,\n" \
         "Cat,blue,tank,yes,\nDan,blue,dps,,\n"


def config(tmp_path: Path, extra: str = "", **where: str) -> Path:
    """A local match.toml with ``extra`` above its tables (see tests/matchfiles.py)."""
    return local_config(tmp_path, head=extra, **where)


def roster(tmp_path: Path, text: str = ROSTER) -> Path:
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def state_turn(path: Path) -> int:
    return read_snapshot(open_match_sheets(load_config(path)), default_template()).record.turn


def type_orders(path: Path, ready: bool = True) -> None:
    type_bot_orders(open_match_sheets(load_config(path)), [ObjectiveBot(1), RandomBot(2)], ready=ready)


# --------------------------------------------------------------------------- init

def test_init_in_an_empty_folder_writes_a_starter_config_and_lays_out_the_roster_tab(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.toml"
    code, out, _ = run(capsys, "init", "gvg", "-c", path)
    assert code == 0
    assert "Wrote a starter config" in out and "type the players in tab 'Roster'" in out
    assert load_config(path).board == "match.xlsx"
    wb = openpyxl.load_workbook(tmp_path / "match.xlsx")
    ws = wb["Roster"]
    assert [c.value for c in ws[1]] == ["Name", "Team", "Role", "Captain", "Email"]
    lists = {str(v.sqref): v.formula1 for v in ws.data_validations.dataValidation}
    assert any(ref.startswith("B2") for ref in lists) and any(ref.startswith("C2") for ref in lists)

    # Running init again with the tab still empty changes nothing and says the same.
    code, out, _ = run(capsys, "init", "gvg", "-c", path)
    assert code == 0 and "No roster yet" in out

    # The GM types the roster in the sheet (any case; the captain box ticked), then init again.
    wb = openpyxl.load_workbook(tmp_path / "match.xlsx")
    ws = wb["Roster"]
    for r, row in enumerate([("Ann", "red", "DPS", True), ("Ben", "Red", "Healer", False),
                             ("Cat", "blue", "Tank", True)], start=2):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c).value = value
    wb.save(tmp_path / "match.xlsx")
    code, out, _ = run(capsys, "init", "gvg", "-c", path)
    assert code == 0, out
    assert "Match created: 3 players" in out
    assert state_turn(path) == 1


def test_init_with_a_roster_csv_and_private_workbooks_creates_every_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, "[deadlines]\ntimes = [\"20:00\"]\ntimezone = \"Europe/Paris\"", workbook="board.xlsx",
                  body='engine = "gm/engine.xlsx"\norders = { red = "red.xlsx", blue = "blue.xlsx" }')
    code, out, _ = run(capsys, "init", "gvg", "-c", path, "--roster", roster(tmp_path))
    assert code == 0, out
    seed_hash = out.split("Seed hash")[1].split(": ")[1].split()[0]
    assert len(seed_hash) == 64
    assert "Turn 1 orders are open until " in out and ", 20:00 (Europe/Paris)." in out
    for name in ("board.xlsx", "gm/engine.xlsx", "red.xlsx", "blue.xlsx"):
        assert (tmp_path / name).exists(), name
    assert openpyxl.load_workbook(tmp_path / "gm/engine.xlsx")["Engine"].sheet_state == "hidden"
    assert "Orders blue" not in openpyxl.load_workbook(tmp_path / "red.xlsx").sheetnames
    settings = openpyxl.load_workbook(tmp_path / "board.xlsx")["Settings"]
    last = [c.value for c in settings[settings.max_row]]
    assert last[:2] == ["deadlines", "every day at 20:00 (Europe/Paris)"]
    record = read_snapshot(open_match_sheets(load_config(path)), default_template()).record
    assert record.seed_hash == seed_hash
    assert record.deadline.endswith(("+01:00[Europe/Paris]", "+02:00[Europe/Paris]"))


def test_init_refuses_to_replace_a_match_unless_told_and_then_keeps_a_backup(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, 'roster = "roster.csv"')
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    type_orders(path)
    assert run(capsys, "sync", "-c", path)[0] == 0
    code, _, err = run(capsys, "init", "gvg", "-c", path)
    assert code == 1 and "already holds a match (turn 2, seed hash " in err and "init never replaces one" in err
    assert state_turn(path) == 2
    code, out, _ = run(capsys, "init", "gvg", "-c", path, "--overwrite")
    assert code == 0, out
    backups = list(tmp_path.glob("match.before-init-*.xlsx"))
    assert len(backups) == 1 and f"kept as {backups[0]}" in out
    assert state_turn(path) == 1


def test_house_rules_from_the_config_are_the_matchs_settings(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, 'roster = "roster.csv"\n[settings]\nmovement = "rook"\nmax_turns = 20')
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    record = read_snapshot(open_match_sheets(load_config(path)), default_template()).record
    assert record.settings.movement == "rook" and record.settings.max_turns == 20


# --------------------------------------------------------------------------- sync, resolve, status

@pytest.fixture
def match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = config(tmp_path, 'roster = "roster.csv"')
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    return path


def test_sync_answers_players_and_resolves_when_every_captain_is_ready(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sync", "-c", match)
    assert (code, out.strip()) == (0, "Turn 1: waiting for 4 order(s), 0 of 2 captains ready.")
    type_orders(match, ready=False)
    code, out, _ = run(capsys, "sync", "-c", match)
    assert code == 0 and "every order is in, 0 of 2 captains ready" in out and "feedback cell(s) updated" in out
    assert state_turn(match) == 1
    type_orders(match, ready=True)
    code, out, _ = run(capsys, "sync", "-c", match, "--quiet")
    assert code == 0 and out.startswith("Turn 1 resolved (every captain is ready). Turn 2 of 60")
    code, out, _ = run(capsys, "sync", "-c", match, "--quiet")
    assert (code, out) == (0, "")
    assert state_turn(match) == 2


def test_resolve_refuses_a_turn_that_is_not_due_and_force_resolves_it(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "resolve", "-c", match)
    assert code == 1
    assert "turn 1 is not due" in err and "no order yet from: Ann, Ben, Cat, Dan" in err
    assert "--force --turn 1" in err
    assert state_turn(match) == 1
    code, out, _ = run(capsys, "resolve", "-c", match, "--force", "--turn", "1")
    assert code == 0 and "Turn 1 resolved (forced by the GM)" in out
    assert state_turn(match) == 2


def test_force_without_a_turn_names_the_open_turn_and_resolves_nothing(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "resolve", "-c", match, "--force")
    assert code == 1 and out == ""
    assert "turn 1 is open now" in err and f"sheets-gm resolve -c {match} --force --turn 1" in err
    assert state_turn(match) == 1


def test_force_never_resolves_a_turn_that_another_sync_opened_meanwhile(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The GM sees turn 1 and forces it; cron resolved turn 1 a moment before: turn 2 stays open."""
    type_orders(match, ready=True)
    assert run(capsys, "sync", "-c", match)[0] == 0  # cron, first
    assert state_turn(match) == 2
    code, out, err = run(capsys, "resolve", "-c", match, "--force", "--turn", "1")
    assert code == 1 and out == ""
    assert "turn 1 is not the open turn: turn 2 is; nothing was forced" in err
    assert state_turn(match) == 2


def test_status_says_where_the_match_stands_and_writes_nothing(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheets = open_match_sheets(load_config(match))
    team = read_snapshot(sheets, default_template()).positions.teams[0]
    row = team.player_row(0)
    sheets.orders[0].write([RangeWrite(a1(team.orders_tab, f"D{row}:E{row}"), [["Z99", "attack"]])])
    before = (match.parent / "match.xlsx").read_bytes()
    code, out, _ = run(capsys, "status", "-c", match)
    assert code == 0
    assert (match.parent / "match.xlsx").read_bytes() == before
    lines = out.splitlines()
    assert lines[0] == "Turn 1 of 60 · orders open (no deadline: the turn resolves when every captain is ready)"
    assert "red: 0 coins · captain not ready" in lines
    assert "No order yet from 3: Ben (red), Cat (blue), Dan (blue)" in lines
    assert "Rejected (1):" in lines
    assert any(line.startswith("  Ann: ") and "Z99" in line for line in lines)
    assert lines[-1] == "Not due yet."


def test_the_deadline_resolves_a_turn_and_the_next_one_follows_the_schedule(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, 'roster = "roster.csv"\n[deadlines]\ntimes = ["20:00"]\ntimezone = "UTC"')
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    cfg = load_config(path)
    sheets = open_match_sheets(cfg)
    stored = read_snapshot(sheets, default_template()).record.deadline
    assert stored.endswith("T20:00+00:00[UTC]")
    deadline = datetime.fromisoformat(stored.removesuffix("[UTC]"))
    before = sync_once(cfg, sheets, now=deadline - timedelta(minutes=1))
    assert not before.resolved and before.deadline == stored
    after = sync_once(cfg, sheets, now=deadline + timedelta(minutes=1))
    said = f"{deadline:%a} {deadline.day} {deadline:%b}, 20:00 (UTC)"
    assert after.resolved and after.reason == f"the deadline {said} has passed"
    tomorrow = deadline + timedelta(days=1)
    assert after.result.startswith(f"Turn 2 of 60 · orders open until {tomorrow:%a} {tomorrow.day} {tomorrow:%b}, "
                                   "20:00 (UTC)")


def test_a_whole_match_by_cron_syncs_reaches_its_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, 'roster = "roster.csv"\n[settings]\nmax_turns = 6')
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    for _ in range(6):
        type_orders(path)
        assert run(capsys, "sync", "-c", path)[0] == 0
    code, out, _ = run(capsys, "status", "-c", path)
    assert code == 0 and out.startswith("Match over on turn")
    code, out, _ = run(capsys, "sync", "-c", path)
    assert code == 0 and out.startswith("Nothing to do: Match over")
    code, _, err = run(capsys, "resolve", "-c", path, "--force")
    assert code == 1 and "the match is over" in err
    code, _, err = run(capsys, "resolve", "-c", path, "--force", "--turn", "6")
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
    path = config(tmp_path)
    import shutil

    from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
    from sheets_gm.sheets.local import create_workbook

    create_workbook(tmp_path / "match.xlsx", WorkbookLayout("x", (TabLayout("Sheet1", 1, 1),)))
    code, _, err = run(capsys, "sync", "-c", path)
    assert code == 1 and "If the match was never created, run sheets-gm init" in err and "sheets-gm repair" in err
    shutil.rmtree(tmp_path / ".sheets-gm", ignore_errors=True)


@pytest.mark.parametrize(("extra", "roster_text", "message"), [
    ('[settings]\nmovment = "rook"', ROSTER, "movment"),
    ('[settings]\nmovement = "diagonal"', ROSTER, "movement"),
    ("", "name,team\nAnn,red\n", "role is missing"),
    ("", "name,team,role\nAnn,green,dps\n", "line 2: Ann is on team 'green'"),
    ('map = "nomap.txt"', ROSTER, "no file at"),
])
def test_init_user_errors_exit_1_with_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str,
                                                  roster_text: str, message: str) -> None:
    path = config(tmp_path, extra)
    code, _, err = run(capsys, "init", "gvg", "-c", path, "--roster", roster(tmp_path, roster_text))
    assert code == 1, err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "match.xlsx").exists() or "Engine" not in openpyxl.load_workbook(
        tmp_path / "match.xlsx").sheetnames


def test_init_of_an_unknown_ruleset_or_another_rulesets_config_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "init", "chess", "-c", tmp_path / "match.toml")
    assert code == 1 and f"unknown ruleset 'chess'; this build knows: {', '.join(ruleset_names())}" in err
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
    record = read_snapshot(open_match_sheets(load_config(path)), default_template()).record
    assert f"Seed hash (publish it now; `export` reveals the seed at the end): {record.seed_hash}" in out
    assert hashlib.sha256(record.seed).hexdigest() == record.seed_hash
    assert len(record.seed) == 32


def test_ctrl_c_during_watch_stops_after_the_poll_under_way_and_restores_the_handlers(
        match: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    import sheets_gm.commands.sync as sync_command

    seen: dict[str, object] = {}

    def fake_watch(step: object, stop: threading.Event, **kwargs: object) -> None:
        signal.raise_signal(signal.SIGINT)  # the GM presses Ctrl-C while a poll runs
        seen["stopped"] = stop.is_set()
        return None

    before = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(sync_command, "watch", fake_watch)
    code, out, _ = run(capsys, "sync", "-c", match, "--watch")
    assert code == 0 and seen == {"stopped": True}
    assert "Stopping after this poll (press Ctrl-C again to stop at once)." in out
    assert out.splitlines()[-1] == "Stopped."
    assert signal.getsignal(signal.SIGINT) is before


def test_printed_commands_work_as_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After scripts/demo.sh, sheets-gm is not on the PATH: the demo prints the path it was started by."""
    from sheets_gm.commands.base import program_name

    program = tmp_path / ".venv" / "bin" / "sheets-gm"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", [str(program)])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert program_name() == ".venv/bin/sheets-gm"
    monkeypatch.setenv("PATH", f"{program.parent}:/usr/bin:/bin")
    assert program_name() == "sheets-gm"
    monkeypatch.setattr("sys.argv", ["/somewhere/sheets_gm/cli.py"])
    assert program_name().endswith(" -m sheets_gm.cli")


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


def test_players_without_an_email_can_type_their_orders_in_a_local_workbook(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """LibreOffice and Excel refuse typing into a locked cell of a protected sheet: every player's and
    captain's input cells must be unlocked in the saved file, e-mail or not; GM cells stay locked."""
    import openpyxl

    path = config(tmp_path, 'roster = "roster.csv"')
    roster(tmp_path)  # Ben, Cat and Dan have no e-mail
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    for team, players in (("red", ("Ann", "Ben")), ("blue", ("Cat", "Dan"))):
        ws = book[f"Orders {team}"]
        assert ws.protection.sheet
        rows = {ws.cell(r, 1).value: r for r in range(1, 30)}
        for name in players:
            r = rows[name]
            assert [ws.cell(r, c).protection.locked for c in (4, 5, 6)] == [False, False, False], name
            assert ws.cell(r, 11).protection.locked, f"{name}'s feedback is the GM's"
            assert ws.cell(r, 1).protection.locked, f"{name}'s name is the GM's"
        header = next(r for r in range(rows[players[-1]] + 1, 40) if ws.cell(r, 1).value == "Captain")
        captain = header + 1
        kinds = [ws.cell(header, c).value for c in range(1, 12)]
        inputs = [c + 1 for c, k in enumerate(kinds) if k in ("Skill", "Ready")]
        assert inputs and all(not ws.cell(captain, c).protection.locked for c in inputs)
        assert ws.cell(captain, kinds.index("Feedback") + 1).protection.locked


def test_the_ready_box_shows_as_a_box_in_libreoffice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """LibreOffice shows an .xlsx FALSE as 0 unless the cell's number format says otherwise."""
    import openpyxl

    from sheets_gm.sheets.local import CHECKBOX_FORMAT

    path = config(tmp_path, 'roster = "roster.csv"')
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    ws = openpyxl.load_workbook(tmp_path / "match.xlsx")["Orders red"]
    ready = [c for row in ws.iter_rows() for c in row if c.value is False]
    assert ready and all(c.number_format == CHECKBOX_FORMAT for c in ready)


def test_init_private_starts_a_file_per_team(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.toml"
    code, out, err = run(capsys, "init", "gvg", "-c", path, "--private")
    assert code == 0, err
    assert "one orders workbook per team" in out
    cfg = load_config(path)
    assert {cfg.local_path(w).name for w in (cfg.board, cfg.engine, *cfg.orders)} == {
        "board.xlsx", "engine.xlsx", "red-orders.xlsx", "blue-orders.xlsx"}
    assert cfg.local_path(cfg.engine).parent.name == "gm"
    code, _, err = run(capsys, "init", "gvg", "-c", path, "--private")
    assert code == 1 and "--private shapes a new starter config" in err


def test_the_board_tile_is_the_cell_and_every_team_wears_its_colour(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tile G9 is cell G9; a player shows its team's mark; red's base is red, blue's blue (slot 1 is red)."""
    import openpyxl

    from sheets_gm.rulesets.gvg.board import GvgMap
    from sheets_gm.rulesets.gvg.enums import Terrain
    from sheets_gm.rulesets.gvg.sheet.template import default_map_text, default_template

    path = config(tmp_path, 'roster = "roster.csv"')
    roster(tmp_path)
    assert run(capsys, "init", "gvg", "-c", path)[0] == 0
    board = openpyxl.load_workbook(tmp_path / "match.xlsx")["Board"]
    state = read_snapshot(open_match_sheets(load_config(path)), default_template()).record.state
    symbols = default_template().symbols
    for p in state.players:
        assert f"{p.name}{symbols.team(p.team)}" in str(board[p.at.label].value), p.name
    colours = {"red": "F4CCCC", "blue": "CFE2F3"}
    for tile, (terrain, owner) in GvgMap.from_text(default_map_text()).terrain.items():
        if terrain is Terrain.BASE and owner is not None:
            assert str(board[tile.label].fill.start_color.rgb).endswith(colours[state.teams[owner]]), tile.label


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


def test_init_warns_of_a_team_without_a_captain_and_uneven_teams(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config(tmp_path, 'roster = "roster.csv"')
    roster(tmp_path, "name,team,role,captain\nAnn,red,dps,yes\nBen,red,healer,\nEve,red,tank,\nCat,blue,tank,\n")
    code, out, _ = run(capsys, "init", "gvg", "-c", path)
    assert code == 0
    assert "Warning: team blue has no captain" in out
    assert "Warning: the teams are uneven (red 3, blue 1 players)" in out
