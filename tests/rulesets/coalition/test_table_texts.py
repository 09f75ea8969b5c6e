"""What the sheets say in the judge's window: its status line and Ready row speak of results (issue 40)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.coalition.sheet.adapter import CoalitionSheet
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.door import with_mail
from sheets_gm.running.poll_words import settings_warning
from sheets_gm.running.run import sync_once
from sheets_gm.sync.deadline import describe_deadline
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from tests.fakes.memory import MemoryBackend
from tests.rulesets.coalition.helpers import looking, war_of_three_a_side
from tests.rulesets.coalition.test_forum_parts import NOW, _coalition_match
from tests.rulesets.coalition.test_mail_door import Box, mail
from tests.rulesets.coalition.test_mail_door import _match as _mail_match


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
    # the players' deadline closes the strategies; the judge's results close when she marks them done
    players = f"· strategies and turn 2 · orders close {describe_deadline(due.isoformat())}"
    assert status and status[0].endswith(f"{players} · results close when the judge marks them done"), status
    assert status[0].count("orders close") == 1  # the next turn's, closing with the strategies: not the judge's


def test_strategies_to_is_taken_in_a_running_match_without_a_warning(tmp_path: Path) -> None:
    path = war_of_three_a_side(tmp_path, b"post", NOW).path  # test_pasted_post.py's match, made once a run
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("[settings]", '[settings]\nstrategies_to = "judge@example.org"', 1),
                    encoding="utf-8")
    config = load_config(path)
    sheets = open_match_sheets(config)
    cls = get_ruleset("coalition")
    report = sync_once(config, sheets, now=NOW)
    assert not report.resolved and settings_warning(config, report) == ""  # no warning, at every sync
    report = sync_once(config, sheets, now=NOW, force=True)
    after = read_match(sheets, cls)
    assert report.resolved and after.record.ruleset.settings.strategies_to == "judge@example.org"  # stored now
    adapter = after.adapter
    assert isinstance(adapter, CoalitionSheet) and adapter.strategies_to == "judge@example.org"  # drawn with it
    path.write_text(text.replace("[settings]", "[settings]\nmax_steps = 2", 1), encoding="utf-8")
    assert "max_steps = 2 in the config but 3 in the match" in settings_warning(load_config(path), report)



def test_strategies_to_set_in_the_results_window_redraws_the_post_and_calls_no_cell_typed_over(
        tmp_path: Path) -> None:
    # played by mail: the judge set strategies_to while a battle awaited results; the next sync said "Drawn again,
    # typed over by hand: Turn report", though nobody had typed there: the post was drawn with the new address
    config, sheets = _mail_match(tmp_path)
    box = Box([mail(1, "ann@example.org", "Turn 1", "Rabid Cat: Dominaria; 3C > 4C - engage Various Puppies")])
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW, force=True), box)
    assert sync_once(config, open_match_sheets(config), now=NOW).drawn_again == []
    text = config.path.read_text(encoding="utf-8")
    config.path.write_text(text.replace("[settings]", '[settings]\nstrategies_to = "judge@example.org"', 1),
                           encoding="utf-8")
    config = load_config(config.path)
    report = sync_once(config, open_match_sheets(config), now=NOW)
    assert not report.resolved and report.drawn_again == []
    board = read_match(looking(config), get_ruleset("coalition")).board
    assert board is not None and any("Send your battle strategies to judge@example.org" in str(v)
                                     for row in board[1] for v in row)
    assert sync_once(config, open_match_sheets(config), now=NOW).drawn_again == []
