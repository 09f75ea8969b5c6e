"""What a Wesnoth table reads, played through the command line on local workbooks: the Log's words and
numbers as a player meets them."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.match.connect import open_match_sheets
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
from sheets_gm.sync.autoplay import type_bot_orders


def _new_match(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = folder / "match.toml"
    assert main(["init", "wesnoth", "-c", str(path)]) == 0
    capsys.readouterr()
    return path


def _play(path: Path, windows: int, capsys: pytest.CaptureFixture[str]) -> None:
    kinds = bots_of(create_ruleset("wesnoth"))
    default = next(iter(kinds.values()))
    ruleset_class = get_ruleset("wesnoth")
    for _ in range(windows):
        type_bot_orders(open_match_sheets(load_config(path)), ruleset_class,
                        {s: default.make(f"t/{s}") for s in ("Ann", "Bo")})
        assert main(["sync", "-c", str(path)]) == 0
    capsys.readouterr()


def _log_rows(folder: Path) -> list[tuple[object, ...]]:
    ws = openpyxl.load_workbook(folder / "board.xlsx")["Log"]
    return [row[:3] for row in ws.iter_rows(min_row=3, values_only=True) if row[2]]


def test_an_undo_line_in_the_log_carries_the_round_and_no_window_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _new_match(tmp_path, capsys)
    _play(path, 4, capsys)  # rounds 1 and 2, each player's turn
    assert main(["undo", "-c", str(path), "--reason", "Bo typed for Ann"]) == 0
    out = capsys.readouterr().out
    turn, kind, text = _log_rows(tmp_path)[-1]
    assert kind == "undo" and "GM undoes round 2 · " in str(text)
    assert turn == 2  # the round, as every other line of the Log (it said 4, the player-turn count)
    assert "(window" not in str(text) and "(window" not in out
