"""verify -c compares the words of the Log lines the sync writes of itself (a seat handed to a bot, an undo, a
deadline change) with what the engine's record keeps of them, naming the cell typed over."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import bots_of, create_ruleset
from sheets_gm.running.connect import open_match_sheets
from tests.commands.test_repair_records import _played, run
from tests.quick import soak_but

pytestmark = pytest.mark.xdist_group("repair-played")  # one worker plays _played's matches once a run, not each


def _row_of(path: Path, kind: str) -> tuple[int, str]:
    log = openpyxl.load_workbook(path)["Log"]
    row = next(r for r in range(2, log.max_row + 1) if log.cell(r, 2).value == kind)
    return row, str(log.cell(row, 3).value)


def _typed_over(path: Path, row: int, text: str) -> None:
    book = openpyxl.load_workbook(path)
    book["Log"].cell(row, 3).value = text
    book.save(path)


#: The hand-over line is the core's (``hand_seats``), the same words in every game: the quick run checks it in the
#: Wesnoth match the other tests of ``_played`` play too; Champions (a match of its own, the costliest to play)
#: under ``-m soak``.
@pytest.mark.parametrize("game", soak_but(["champions", "wesnoth"], "wesnoth"))
def test_a_bot_hand_over_line_typed_over_is_named_by_its_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              game: str) -> None:
    config = _played(tmp_path, capsys, game, 2)
    seat = open_match_sheets(load_config(config)).seats[0]
    kind = next(iter(bots_of(create_ruleset(game))))
    assert run(capsys, "adjust", "-c", config, "--bot", f"{seat}={kind}", "--reason", "away")[0] == 0
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0, out
    row, truth = _row_of(tmp_path / "board.xlsx", "bot")
    _typed_over(tmp_path / "board.xlsx", row, "GM  handz the seat to nobody")
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 1, out
    assert f"tab 'Log' cell C{row} says 'GM  handz the seat to nobody' (bot) but the sync logged {truth!r}" in out


def test_an_undo_line_typed_over_is_named_and_an_untouched_one_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _played(tmp_path, capsys, "wesnoth", 3)
    assert run(capsys, "undo", "-c", config, "--reason", "a misread order")[0] == 0
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0, out
    row, truth = _row_of(tmp_path / "board.xlsx", "undo")
    _typed_over(tmp_path / "board.xlsx", row, truth.replace("a misread order", "Ann cheated"))
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 1 and f"tab 'Log' cell C{row} says" in out and "but the sync logged" in out, out
