"""init, sync, status and resolve for a ruleset on the generic sync (the test game "race"), end to end
through the command line, with local workbooks: one for the board, one per seat, the GM's engine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.commands.polls import open_window_line
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import ruleset_names
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.autoplay import type_bot_orders
from tests.made import made_into
from tests.matchfiles import NOW
from tests.sync import race_game
from tests.sync.race_game import RACE, SteadyBot, registered_race
from tests.window_labels import english_problems, verb_after, window_labels

__all__ = ["registered_race"]

CONFIG = """ruleset = "race"
title = "Race night"
seats = ["Ann", "Bo"]

[sheets]
backend = "local"
board = "board.xlsx"
engine = "gm/engine.xlsx"
orders = { Ann = "ann.xlsx", Bo = "bo.xlsx" }

[settings]
max_turns = 3
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def new_match(tmp_path: Path, capsys: pytest.CaptureFixture[str], roster: str | None = None) -> Path:
    """A race match ``init`` created in ``tmp_path`` from ``CONFIG`` (and ``roster``, a roster file's text): the first
    test's of a test process for that roster, copied (``tests.made``; the config names every file relative to
    itself), what init printed checked when it ran."""
    def make(into: Path) -> None:
        path = into / "match.toml"
        path.write_text(CONFIG, encoding="utf-8")
        args: list[str | Path] = ["init", "race", "-c", path]
        if roster is not None:
            (into / "roster.csv").write_text(roster, encoding="utf-8")
            args += ["--roster", into / "roster.csv"]
        code, out, err = run(capsys, *args)
        assert code == 0, err
        assert "Seed hash" in out and "The first orders are open." in out
        assert "Match created: Ann, Bo (" in out if roster is not None else "Match created: Ann, Bo in " in out

    # once a process, not shared: tests/sync/test_upgrade.py's old race makes it under its own seed's patch
    made_into(tmp_path, ("window_commands/race", roster), make)
    return tmp_path / "match.toml"


def bots_type(path: Path) -> None:
    type_bot_orders(open_match_sheets(load_config(path)), RACE, {"Ann": SteadyBot(), "Bo": SteadyBot()})


def test_init_sync_and_status_run_a_race_to_its_end(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    registered_race: object) -> None:
    roster = "name,player,email\nAnn-1,Ann,ann@example.org\nBo-1,bo,\nBo-2,Bo,\n"
    path = new_match(tmp_path, capsys, roster)
    assert {p.name for p in tmp_path.glob("*.xlsx")} == {"board.xlsx", "ann.xlsx", "bo.xlsx"}
    code, out, _ = run(capsys, "status", "-c", path)
    assert code == 0 and "Turn 1 is open (window 1, step 1); no deadline" in out and "Not ready: Ann, Bo" in out
    code, out, _ = run(capsys, "sync", "-c", path)
    assert "Turn 1: waiting for Ann, Bo" in out
    for turn in (1, 2, 3):  # max_turns = 3: the race ends by turn 3 at the latest
        bots_type(path)
        code, out, _ = run(capsys, "sync", "-c", path)
        assert code == 0 and f"Turn {turn} resolved (every seat is ready)" in out
        if "Race over" in out:
            break
    code, out, _ = run(capsys, "sync", "-c", path)
    assert "Nothing to do: Race over" in out


def test_resolve_needs_the_window_to_force_and_refuses_another(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              registered_race: object) -> None:
    path = new_match(tmp_path, capsys)
    code, _, err = run(capsys, "resolve", "-c", path)
    assert code == 1 and "window 1 (turn 1) is not due" in err and "--force --window 1" in err
    code, _, err = run(capsys, "resolve", "-c", path, "--force")
    assert code == 1 and "--force needs the window you mean" in err
    code, _, err = run(capsys, "resolve", "-c", path, "--force", "--window", "2")
    assert code == 1 and "window '2' is not the open one" in err
    code, out, _ = run(capsys, "resolve", "-c", path, "--force", "--window", "1")
    assert code == 0 and "Turn 1 resolved (forced by the GM)" in out


def test_init_refuses_a_bad_roster_and_an_existing_match(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         registered_race: object) -> None:
    path = tmp_path / "match.toml"
    path.write_text(CONFIG, encoding="utf-8")
    (tmp_path / "roster.csv").write_text("name,player\nAnn-1,Cy\n", encoding="utf-8")
    code, _, err = run(capsys, "init", "race", "-c", path, "--roster", tmp_path / "roster.csv")
    assert code == 1 and "line 2: Ann-1 is in 'Cy'; the seats are Ann, Bo" in err
    assert not list(tmp_path.glob("*.xlsx"))  # nothing written
    new_match(tmp_path, capsys)
    code, _, err = run(capsys, "init", "race", "-c", path)
    assert code == 1 and "already holds a race match" in err


def test_demo_plays_a_race_on_a_workbook_per_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  registered_race: object) -> None:
    code, out, err = run(capsys, "demo", "race", "--out", tmp_path / "demo")
    assert code == 0, err
    assert "Result after" in out and "Race over" in out
    assert (tmp_path / "demo" / "orders-Ann.xlsx").exists() and (tmp_path / "demo" / "gm" / "engine.xlsx").exists()


def test_demo_names_the_rulesets_it_knows(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:  # a mistyped command: argparse's usage error, exit code 2
        run(capsys, "demo", "chess")
    assert exited.value.code == 2
    assert f"unknown game 'chess'; this build knows: {', '.join(ruleset_names())}" in capsys.readouterr().err


def test_export_and_verify_replay_every_window_of_a_race(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        registered_race: object) -> None:
    path = new_match(tmp_path, capsys)
    code, _, err = run(capsys, "export", "-c", path)
    assert code == 1 and "the match is still being played (" in err and " · 0 windows resolved)" in err
    for _ in range(3):
        bots_type(path)
        run(capsys, "sync", "-c", path)
    code, out, _ = run(capsys, "verify", "-c", path)
    assert code == 0 and "OK: " in out and "windows and" in out
    code, out, err = run(capsys, "export", "-c", path)
    assert code == 0, err
    assert "The match is over" in out and (tmp_path / "export" / "Board.csv").exists()
    assert (tmp_path / "export" / "orders-Ann.xlsx").exists() and not (tmp_path / "export" / "Engine.csv").exists()
    code, out, _ = run(capsys, "verify", tmp_path / "export" / "replay.json")
    assert code == 0 and "every state matches" in out


def test_verify_finds_an_order_changed_after_the_fact(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      registered_race: object) -> None:
    import json

    path = new_match(tmp_path, capsys)
    for _ in range(2):
        bots_type(path)
        run(capsys, "sync", "-c", path)
    run(capsys, "export", "-c", path, "--reveal-early")
    replay = tmp_path / "export" / "replay.json"
    doc = json.loads(replay.read_text(encoding="utf-8"))
    doc["resolutions"][0]["orders"]["pace"] = {"Ann-1": "walk"}  # as if Ann had walked
    replay.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = run(capsys, "verify", replay)
    assert code == 1 and "MISMATCH after 1 window replayed" in out


def _view_cells(tmp_path: Path, seat: str) -> list[str]:
    import openpyxl

    book = openpyxl.load_workbook(tmp_path / f"{seat.lower()}.xlsx")
    return [str(c.value) for row in book[f"View {seat}"].iter_rows() for c in row if c.value is not None]


def test_adjust_then_undo_keep_the_replay_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                registered_race: object) -> None:
    path = new_match(tmp_path, capsys)
    code, out, err = run(capsys, "adjust", "-c", path, "--stamina", "Ann-1=0", "--reason", "fell at the start")
    assert code == 0, err
    assert "The GM sets Ann-1's stamina to 0 (fell at the start)." in out
    assert "Ann-1 stamina 0" in _view_cells(tmp_path, "Ann")
    assert not any("Ann-1" in c for c in _view_cells(tmp_path, "Bo"))  # Ann's runner: private to her
    code, _, err = run(capsys, "adjust", "-c", path, "--stamina", "Cy-1=1", "--reason", "x")
    assert code == 1 and "no runner 'Cy-1'" in err and "nothing was written" in err
    bots_type(path)
    code, out, _ = run(capsys, "sync", "-c", path)
    assert "Turn 1 resolved" in out
    code, out, _ = run(capsys, "verify", "-c", path)
    assert code == 0 and "OK: 1 window and 1 die or draw replayed" in out
    bots_type(path)  # typed for turn 2, then the GM takes turn 1 back
    code, out, err = run(capsys, "undo", "-c", path, "--reason", "Bo's orders were typed by Ann")
    assert code == 0, err
    assert "GM undoes turn 1: " in out and "set aside" in out
    code, out, _ = run(capsys, "status", "-c", path)
    assert "Turn 1 is open (window 1, step 1)" in out and "Not ready: Ann, Bo" in out
    code, out, _ = run(capsys, "resolve", "-c", path, "--force", "--window", "1")
    assert code == 0 and "Turn 1 resolved (forced by the GM)" in out
    code, out, _ = run(capsys, "verify", "-c", path)
    assert code == 0 and "OK: 1 window and 1 die or draw replayed" in out, out


def test_undo_with_nothing_resolved_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             registered_race: object) -> None:
    path = new_match(tmp_path, capsys)
    code, _, err = run(capsys, "undo", "-c", path, "--reason", "oops")
    assert code == 1 and "nothing to undo" in err


def test_doctor_reads_a_race_as_a_poll_does(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            registered_race: object) -> None:
    path = new_match(tmp_path, capsys)
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert code == 0, out
    assert "Ann vs Bo" in out and "workbook (orders Ann)" in out
    assert "✔ layout: every header cell is in place; turn 1 is open (window 1)\n" in out
    import openpyxl

    book = openpyxl.load_workbook(tmp_path / "ann.xlsx")
    book["Orders Ann"]["D4"] = "Speed"
    book.save(tmp_path / "ann.xlsx")
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert code == 1 and "should say 'Pace' but says 'Speed'" in out


def test_doctor_names_a_drawn_tab_that_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  registered_race: object) -> None:
    import openpyxl

    path = new_match(tmp_path, capsys)
    book = openpyxl.load_workbook(tmp_path / "board.xlsx")
    del book["Standings"]  # the race's second drawn tab: a poll never reads it, doctor looks for it
    book.save(tmp_path / "board.xlsx")
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert code == 1 and "has no tab 'Standings' (the drawn tabs are Board, Standings)" in out
    assert "sheets-gm repair" in out
    assert run(capsys, "repair", "-c", path)[0] == 0
    assert run(capsys, "doctor", "-c", path)[0] == 0


def test_a_ruleset_without_sheets_says_what_runs_instead(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          registered_race: object) -> None:
    monkeypatch.setattr("tests.sync.race_game.GAME", replace(race_game.GAME, sheet=None))
    path = tmp_path / "match.toml"
    path.write_text(CONFIG, encoding="utf-8")
    code, _, err = run(capsys, "sync", "-c", path)
    assert code == 1 and "has no sheets" in err and "sheets-gm simulate race" in err
    code, _, err = run(capsys, "demo", "race", "--out", tmp_path / "demo")
    assert code == 1 and "has no sheets" in err and not (tmp_path / "demo").exists()


def test_repair_lays_the_tabs_out_again_and_keeps_what_was_typed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 registered_race: object) -> None:
    import openpyxl

    path = new_match(tmp_path, capsys)
    book = openpyxl.load_workbook(tmp_path / "ann.xlsx")
    book["Orders Ann"]["D4"] = "Speed"  # a header typed over
    book["Orders Ann"]["D5"] = "run"  # Ann's order for turn 1
    del book["Archive Ann"]  # a tab deleted
    book.save(tmp_path / "ann.xlsx")
    code, _, err = run(capsys, "sync", "-c", path)
    assert code == 1 and "there is no tab named 'Archive Ann'" in err and "sheets-gm repair" in err
    code, out, err = run(capsys, "repair", "-c", path)
    assert code == 0, err
    assert "1 typed row is back" in out and "Kept a copy of the " in out and "backups/" in out
    book = openpyxl.load_workbook(tmp_path / "ann.xlsx")
    assert book["Orders Ann"]["D4"].value == "Pace" and book["Orders Ann"]["D5"].value == "run"
    assert "Archive Ann" in book.sheetnames
    code, out, _ = run(capsys, "sync", "-c", path)
    assert code == 0 and "Turn 1: waiting for Ann, Bo" in out


def test_demo_turns_stops_a_match_early(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        registered_race: object) -> None:
    code, out, err = run(capsys, "demo", "race", "--out", tmp_path / "demo", "--turns", "1")
    assert code == 0, err
    assert "Result after 1 window: Turn 2." in out


@pytest.mark.parametrize("label", window_labels())
def test_status_names_the_open_window_once_in_its_own_words_for_every_window_of_every_game(label: str) -> None:
    """Not "Turn 1 · orders (window 1, step 1) · orders open": the label once, with the verb doctor's line takes."""
    for deadline in ("", "2020-01-01T20:00+00:00", "2026-11-22T20:00+00:00"):
        line = open_window_line(label, "1", 1, deadline, NOW)
        assert english_problems(label, line) == [] and not verb_after(label, line, "is", "are"), line
