"""What the sheets say in the judge's window: its status line and Ready row speak of results (issue 40)."""

from __future__ import annotations

import datetime as dt

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.sync.deadline import describe_deadline
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from tests.fakes.memory import MemoryBackend
from tests.rulesets.coalition.test_forum_parts import NOW, _coalition_match


def test_the_judges_window_says_results_close_and_tick_results_in_when_the_judges_results_are_in() -> None:
    sheets, _rules = _coalition_match()
    due = dt.datetime(2026, 11, 27, 17, tzinfo=dt.UTC)
    poll(sheets, get_ruleset("coalition"), now=NOW, force=True, next_deadline=lambda _now: due.isoformat())
    read = read_match(sheets, get_ruleset("coalition"))
    judge = read.seats[JUDGE]
    [ready] = [r.feedback for r in judge.rows if r.table == "judge"]
    assert ready == "Tick Results in when the judge's results for turn 1 · battle results are in."
    board = sheets.board
    assert isinstance(board, MemoryBackend)
    status = [str(v) for v in board.tabs["Turn report"].values() if str(v).startswith("Turn 1 · battle results")]
    assert status and status[0].endswith(f"· results close {describe_deadline(due.isoformat())}")
    assert "orders close" not in status[0]
