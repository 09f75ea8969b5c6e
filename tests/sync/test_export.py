"""Exporting a match: workbooks, CSV with formulas neutralised, and a replay that reproduces every state."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from openpyxl import load_workbook

from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.registry import create_ruleset, get_ruleset
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.life.export import export_match, neutralise, to_csv
from sheets_gm.sync.life.replay import WindowReplayError, replay_states
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import MemoryBackend
from tests.matchfiles import NOW, SEED, TEAMS, bots, roster

GVG = get_ruleset("gvg")


@pytest.mark.parametrize("text", ["=1+1", "+A1", "-2+3", "@SUM(A1)", "\t=x", "\r=x"])
def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(text: str) -> None:
    assert neutralise(text) == "'" + text
    assert next(csv.reader(io.StringIO(to_csv([[text]]), newline="")))[0] == "'" + text


def test_plain_cells_are_kept_as_they_are() -> None:
    assert to_csv([["Ann", 3, None, True], ["G4"]]) == "Ann,3,,True\r\nG4,,,\r\n"


def play(turns: int) -> tuple[MatchSheets, dict[str, MemoryBackend]]:
    """A GvG match of ``turns`` turns at most, in four in-memory spreadsheets, played by the bots."""
    backends = {role: MemoryBackend(role) for role in ("board", "engine", *TEAMS)}
    sheets = MatchSheets(TEAMS, backends["board"], backends["engine"], (backends["red"], backends["blue"]), None)
    create_match(sheets, create_ruleset("gvg", GvgSettings(max_turns=turns)), roster(), seed=SEED)
    players = bots(11)
    for _ in range(turns):
        type_bot_orders(sheets, GVG, players)
        if poll(sheets, GVG, now=NOW, force=True).finished:
            break
    return sheets, backends


def test_export_writes_workbooks_csv_and_a_replay_that_reproduces_every_state(tmp_path: Path) -> None:
    sheets, backends = play(12)
    read = read_match(sheets, GVG)
    table = read.tabs.orders("blue").table("players")
    cell = table.cell(0, "destination")
    backends["blue"].type("Orders blue", cell, '=HYPERLINK("http://evil","x")')
    _record, files = export_match(sheets, GVG, tmp_path)
    names = {f.name for f in files}
    assert {"board.xlsx", "engine.xlsx", "orders-red.xlsx", "orders-blue.xlsx", "replay.json"} <= names, names
    assert {"Board.csv", "Log.csv", "Settings.csv", "Orders red.csv", "Orders blue.csv"} <= names
    assert "Board" in load_workbook(tmp_path / "board.xlsx").sheetnames
    orders = (tmp_path / "Orders blue.csv").read_text(encoding="utf-8")
    assert "'=HYPERLINK" in orders
    assert not any(line.startswith("=") for line in orders.splitlines())
    log = list(csv.reader((tmp_path / "Log.csv").open(encoding="utf-8", newline="")))
    assert log[0] == ["Turn", "Kind", "What happened"] and len(log) > 12
    board = (tmp_path / "Board.csv").read_text(encoding="utf-8")
    assert "Player,Team,Role,Position,Status,Carries" in board  # the players' list below the map
    doc = json.loads((tmp_path / "replay.json").read_text(encoding="utf-8"))
    check = replay_states(doc)
    assert check.difference is None
    assert check.resolutions == 12 and check.rolls > 12 * 5


def test_a_tampered_replay_is_caught(tmp_path: Path) -> None:
    sheets, _ = play(6)
    export_match(sheets, GVG, tmp_path)
    doc = json.loads((tmp_path / "replay.json").read_text(encoding="utf-8"))
    forged = json.loads(json.dumps(doc))
    recorded = forged["final_state"]["coins"][0] + 5
    forged["final_state"]["coins"][0] = recorded
    assert replay_states(forged).difference == (
        f"the final state differs from the replayed one: coins[0]: recorded {recorded}, recomputed {recorded - 5}")
    other_seed = json.loads(json.dumps(doc))
    other_seed["seed"] = "00" * 32
    assert "seed does not match" in str(replay_states(other_seed).difference)
    with pytest.raises(WindowReplayError, match="malformed"):
        replay_states({"format": doc["format"], "ruleset": "gvg", "settings": doc["settings"],
                              "board": doc["board"]})
