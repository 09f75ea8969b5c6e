"""Moving a match of a ruleset's old layout onto the generic sync, with the test game "race" given a made-up
old layout ("race v0") through the same ``legacy`` hook GvG declares: every command but repair refuses it in
one line and changes nothing; repair moves it; sync, verify and undo then work on the new layout."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.rulesets.parts.legacy import CarriedOrders, LegacyError, RawCells, UpgradedMatch
from sheets_gm.sync.match_record import HISTORY_FIRST_ROW, MATCH_KEYS
from tests.commands.test_window_commands import bots_type, new_match, run
from tests.made import made_into
from tests.sync import race_game
from tests.sync.race_game import RaceRuleset, registered_race

__all__ = ["registered_race"]

OPEN_SEED = bytes(range(32))  # no runner rolls a 6 in window 1, so the race is still open after window 2
OLD_KEY_ROW = 3  # the old layout said "turn" where the generic record says "window"


def _cell(raw: RawCells, row: int, col: int) -> Any:
    line = raw[row - 1] if row - 1 < len(raw) else ()
    return line[col] if col < len(line) else None


class RaceV0:
    """The made-up old layout: the engine tab as today's but for A3 ("turn"), orders in "Old orders <seat>"
    (runner, pace from row 2), and a tab "Old board" in the board spreadsheet."""

    layout_name = "race"
    replay_formats: tuple[str, ...] = ("race replay v0",)
    old_tabs: tuple[str, ...] = ("Old board",)

    def detect(self, raw: RawCells) -> bool:
        return bool(_cell(raw, OLD_KEY_ROW, 0) == "turn")

    def upgrade_record(self, raw: RawCells, where: str) -> UpgradedMatch:
        values = {key: _cell(raw, i + 2, 1) for i, key in enumerate(MATCH_KEYS)}
        try:
            state = json.loads(str(values["state"]))
        except json.JSONDecodeError:
            raise LegacyError(f"{where}: cell B4 (state) is not JSON") from None
        resolved = int(values["resolved"] or 0)
        history = [json.loads(str(_cell(raw, HISTORY_FIRST_ROW + i, 1))) for i in range(resolved)]
        owner = state["owner"]
        parts = tuple({seat: {"pace": {r: p for r, p in e["orders"]["pace"].items() if owner[r] == seat}}
                       for seat in state["seats"]} for e in history)
        return UpgradedMatch(
            ruleset="race", settings=json.loads(str(values["settings"])), board=str(values["board"]), state=state,
            seed=bytes.fromhex(str(values["seed"])), seed_hash=str(values["seed_hash"]),
            seats=tuple(json.loads(str(values["seats"]))), log_rows=int(values["log_rows"] or 0),
            resolved=resolved, history=tuple(history), seat_orders=parts)

    def orders_tab(self, seat: str) -> str:
        return f"Old orders {seat}"

    def carried_orders(self, raw: RawCells, state: Mapping[str, Any], seat: str) -> CarriedOrders:
        pace = {str(r[0]): str(r[1]) for r in raw[1:] if len(r) > 1 and r[1] in ("run", "walk")}
        dropped = tuple(f"{r[0]}'s pace {r[1]!r}" for r in raw[1:] if len(r) > 1 and r[1] not in ("run", "walk", None))
        return CarriedOrders({"pace": pace} if pace else None, dropped)

    def upgrade_replay(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in doc.items() if k != "format"}


@pytest.fixture
def old_race(tmp_path: Path, capsys: pytest.CaptureFixture[str], registered_race: type[RaceRuleset],
             monkeypatch: pytest.MonkeyPatch) -> Path:
    """A race one window in, turned into a match of the old layout, Ann's pace typed in her old tab: made once a
    test run and copied for each test (``tests.made``); the old layout stays declared for the test's commands."""
    monkeypatch.setattr("tests.sync.race_game.GAME", replace(race_game.GAME, legacy=RaceV0()))
    monkeypatch.setattr("sheets_gm.init.start.new_seed", lambda: OPEN_SEED)
    # shared by the run's workers: made under the two patches above, the same in every process
    made_into(tmp_path, "upgrade/old_race", lambda folder: _old_race(folder, capsys), shared=True)
    capsys.readouterr()
    return tmp_path / "match.toml"


def _old_race(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``old_race``'s match laid out in ``folder`` (the old layout declared, the seed the race stays open with)."""
    path = new_match(folder, capsys)
    bots_type(path)
    assert run(capsys, "sync", "-c", path)[0] == 0
    engine = openpyxl.load_workbook(folder / "gm" / "engine.xlsx")
    engine["Engine"]["A3"] = "turn"
    engine.save(folder / "gm" / "engine.xlsx")
    ann = openpyxl.load_workbook(folder / "ann.xlsx")
    old = ann.create_sheet("Old orders Ann")
    for row in (["Runner", "Pace"], ["Ann-1", "walk"], ["Ann-2", "fly"]):
        old.append(row)
    ann["Archive Ann"]["B5"] = '{"turn": 1, "old": "what the old layout archived"}'
    ann.save(folder / "ann.xlsx")
    board = openpyxl.load_workbook(folder / "board.xlsx")
    board.create_sheet("Old board")["A1"] = "the old board"
    board.save(folder / "board.xlsx")


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.xlsx"))}


@pytest.mark.parametrize("command", [["sync"], ["status"], ["resolve", "--force", "--window", "2"], ["init", "race"],
                                     ["undo", "--reason", "x"], ["export", "--reveal-early"], ["verify"]])
def test_every_command_but_repair_names_the_old_layout_in_one_line_and_changes_nothing(
        old_race: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    before = _files(old_race.parent)
    code, out, err = run(capsys, *command, "-c", old_race)
    assert code == 1 and out == ""
    assert f"this match is on the old race layout: run `sheets-gm repair -c {old_race}` to move it" in err
    assert len(err.strip().splitlines()) == 1
    assert _files(old_race.parent) == before


def test_doctor_names_the_old_layout_and_the_repair(old_race: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "doctor", "-c", old_race)
    assert code == 1 and "this match is on the old race layout" in out and f"sheets-gm repair -c {old_race}" in out


def test_repair_moves_the_match_and_the_sync_verify_and_undo_work_on_it(
        old_race: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = old_race.parent
    code, out, err = run(capsys, "repair", "-c", old_race)
    assert code == 0, err
    assert "Moved the match from the old race layout onto the new one" in out and "1 window" in out
    assert "1 row typed for the open window is carried" in out
    assert "not carried over: Ann-2's pace 'fly'" in out and "tab 'Old board' of an earlier layout" in out
    engine = openpyxl.load_workbook(folder / "gm" / "engine.xlsx")["Engine"]
    assert engine["A3"].value == "window" and engine["B3"].value == "2"
    board = openpyxl.load_workbook(folder / "board.xlsx")
    assert "Old board" not in board.sheetnames
    ann = openpyxl.load_workbook(folder / "ann.xlsx")
    assert "Old orders Ann" not in ann.sheetnames  # cleared, so the layout dropped it: its rows are in the new tab
    assert "Copies Ann" in ann.sheetnames and ann["Copies Ann"].sheet_state == "hidden"
    entry = json.loads(engine["B21"].value)  # the engine's history row of resolution 1 keeps what it read
    archived = json.loads(entry["archived"]["Ann"])
    assert archived["resolution"] == 1 and "Ann-1" in [r["subject"] for r in archived["rows"]]
    orders = ann["Orders Ann"]
    assert (orders["A5"].value, orders["B5"].value, orders["D5"].value) == ("Ann-1", "2", "walk")
    code, out, err = run(capsys, "sync", "-c", old_race)
    assert code == 0, err
    code, out, err = run(capsys, "resolve", "-c", old_race, "--force", "--window", "2")
    assert code == 0, err
    code, out, _ = run(capsys, "verify", "-c", old_race)
    assert code == 0 and "OK: 2 windows" in out
    assert run(capsys, "undo", "-c", old_race, "--reason", "test")[0] == 0
    code, out, err = run(capsys, "undo", "-c", old_race, "--reason", "back before the move")
    assert code == 0 and "GM undoes turn 1: " in out, err
    ann = openpyxl.load_workbook(folder / "ann.xlsx")
    assert ann["Orders Ann"]["D5"].value == "run"  # what the bot typed for window 1, from the rewritten archive
    code, out, _ = run(capsys, "verify", "-c", old_race)
    assert code == 0 and "OK: 0 windows" in out


def test_an_old_record_that_cannot_be_read_stops_repair_before_anything_is_written(
        old_race: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = openpyxl.load_workbook(old_race.parent / "gm" / "engine.xlsx")
    engine["Engine"]["B4"] = "{not json"
    engine.save(old_race.parent / "gm" / "engine.xlsx")
    before = {k: v for k, v in _files(old_race.parent).items() if "backups" not in k}
    code, _, err = run(capsys, "repair", "-c", old_race)
    assert code == 1 and "cell B4 (state) is not JSON" in err and "Nothing was changed" in err
    assert {k: v for k, v in _files(old_race.parent).items() if "backups" not in k} == before
