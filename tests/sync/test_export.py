"""Exporting a match: workbooks, CSV with formulas neutralised, and a replay that reproduces every state."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from openpyxl import load_workbook

from sheets_gm.rulesets.gvg.bots import ObjectiveBot, RandomBot
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.export import ReplayError, export_match, neutralise, replay_states, to_csv
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import MemoryBackend
from tests.sync.test_sync import NOW, new


@pytest.mark.parametrize("text", ["=1+1", "+A1", "-2+3", "@SUM(A1)", "\t=x", "\r=x"])
def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(text: str) -> None:
    assert neutralise(text) == "'" + text
    assert next(csv.reader(io.StringIO(to_csv([[text]]), newline="")))[0] == "'" + text


def test_plain_cells_are_kept_as_they_are() -> None:
    assert to_csv([["Ann", 3, None, True], ["G4"]]) == "Ann,3,,True\r\nG4,,,\r\n"


def play(turns: int) -> tuple[MatchSheets, list[MemoryBackend]]:
    sheets, backends = new(3, max_turns=turns)
    bots = [ObjectiveBot(11), RandomBot(12)]
    for _ in range(turns):
        type_bot_orders(sheets, bots)
        if poll(sheets, now=NOW).finished:
            break
    return sheets, backends


def test_export_writes_workbooks_csv_and_a_replay_that_reproduces_every_state(tmp_path: Path) -> None:
    sheets, backends = play(12)
    backends[3].type("Orders blue", "D5", '=HYPERLINK("http://evil","x")')
    files = export_match(sheets, tmp_path)
    names = {f.name for f in files}
    assert {"board.xlsx", "engine.xlsx", "orders-red.xlsx", "orders-blue.xlsx", "replay.json"} <= names
    assert {"Board.csv", "Players.csv", "Log.csv", "Settings.csv", "Orders red.csv", "Orders blue.csv"} <= names
    assert "Players" in load_workbook(tmp_path / "board.xlsx").sheetnames
    orders = (tmp_path / "Orders blue.csv").read_text(encoding="utf-8")
    assert "'=HYPERLINK" in orders
    assert not any(line.startswith("=") for line in orders.splitlines())
    log = list(csv.reader((tmp_path / "Log.csv").open(encoding="utf-8", newline="")))
    assert log[0] == ["Turn", "Kind", "What happened"] and len(log) > 12
    doc = json.loads((tmp_path / "replay.json").read_text(encoding="utf-8"))
    check = replay_states(doc)
    assert check.difference is None
    assert check.turns == 12 and check.rolls > 12 * 5


def test_a_tampered_replay_is_caught(tmp_path: Path) -> None:
    sheets, _ = play(6)
    export_match(sheets, tmp_path)
    doc = json.loads((tmp_path / "replay.json").read_text(encoding="utf-8"))
    forged = json.loads(json.dumps(doc))
    recorded = forged["final_state"]["coins"][0] + 5
    forged["final_state"]["coins"][0] = recorded
    assert replay_states(forged).difference == (
        f"the final state differs from the replayed one: coins[0]: recorded {recorded}, recomputed {recorded - 5}")
    other_seed = json.loads(json.dumps(doc))
    other_seed["seed"] = "00" * 32
    assert "seed does not match" in str(replay_states(other_seed).difference)
    with pytest.raises(ReplayError, match="not a sheets-gm replay"):
        replay_states({"format": "something else"})
    with pytest.raises(ReplayError, match="malformed"):
        replay_states({"format": doc["format"]})
