"""The judge's refused results, kept for the next results window, keep every cell the judge typed: a Siege tick or a
'Tried a kill and lost' tick is part of the result, not a box saying the window's results are in."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import cell_at
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.life.adjust_undo import undo_window
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.made import made_into
from tests.rulesets.coalition.helpers import local_match

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
CLS = get_ruleset("coalition")
pytestmark = pytest.mark.xdist_group("coalition-judge-kept-rows")  # one worker: it makes _battle once a run


def _battle(tmp_path: Path) -> tuple[MatchConfig, MatchSheets]:
    """A match whose first orders window ends in one battle, Ann attacks Bo at Dominaria 3B: the results window. Made
    once a test process and copied (``tests.made``)."""
    made_into(tmp_path, "judge kept rows battle", _make_battle)
    config = load_config(tmp_path / "match.toml")
    return config, open_match_sheets(config)


def _make_battle(tmp_path: Path) -> None:
    """``_battle``'s match made in ``tmp_path``."""
    config, sheets = local_match(tmp_path, [["Ann", "coalition", 1, "Dominaria 3A", "5000/2500/1500/1000",
                                             "white", "white"],
                                            ["Bo", "phyrexia", 1, "Dominaria 3B", "5000/2500/1500/1000", "", ""]],
                                 b"judge ticks", NOW)
    tab = read_match(sheets, CLS).seats["coalition"].tab.table("armies")
    sheets.of("coalition").write([RangeWrite(tab.at(tab.cell(0, "line")), [["Ann: Dominaria; 3A > 3B - engage Bo"]])])
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    assert len(read_match(sheets, CLS).record.state.battles) == 1


def _judge_rows(sheets: MatchSheets) -> dict[str, TypedRow]:
    return {r.subject: r for r in read_match(sheets, CLS).seats[JUDGE].rows}


def _judge_types(sheets: MatchSheets, *cells: tuple[str, str, str, object]) -> None:
    """The judge types each (table, row's subject, column, value) in her tab, in one save."""
    tab, rows = read_match(sheets, CLS).seats[JUDGE].tab, _judge_rows(sheets)
    sheets.judge_sheet().write([RangeWrite(tab.table(t).at(cell_at(tab.table(t).col(key), rows[subject].row)),
                                           [[value]]) for t, subject, key, value in cells])  # type: ignore[list-item]


def test_a_refused_results_siege_and_kill_ticks_stay_ticked_when_it_is_kept_for_the_next_window(
        tmp_path: Path) -> None:
    config, sheets = _battle(tmp_path)
    _judge_types(sheets,  # a siege with a winner is refused; the judge's ticks are part of her result
                 ("results", "Dominaria 3B", "winner", "Ann"), ("results", "Dominaria 3B", "siege", True),
                 ("losses", "Bo", "slot1", 100), ("losses", "Bo", "failed_kill", True))
    report = sync_once(config, sheets, now=NOW, force=True)
    assert report.resolved
    rows = _judge_rows(sheets)
    battle = rows["Dominaria 3B"]
    assert "a siege has no winner" in battle.feedback, battle.feedback
    assert battle.values["winner"] == "Ann"
    assert battle.values["siege"] is True, battle.values  # kept as she typed it: not a different result (a win)
    assert rows["Bo"].values["failed_kill"] is True, rows["Bo"].values
    assert rows["Bo"].values["slot1"] == 100


def test_an_undo_names_the_window_of_a_judge_row_typed_while_no_window_of_hers_was_open(tmp_path: Path) -> None:
    config, sheets = _battle(tmp_path)
    _judge_types(sheets, ("results", "Dominaria 3B", "winner", "Nobody"))  # refused: kept for the next results window
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    _judge_types(sheets, ("results", "Dominaria 3B", "winner", "Bo"))  # the sides' orders window: the judge has none
    undo_window(sheets, CLS, "the judge meant Bo")
    (archive,) = sheets.judge_sheet().read(["'Archive judge'!A1:B40"])
    said = [" ".join(str(c) for c in line if c) for line in archive]
    aside = next(line for line in said if "set aside by the GM's undo" in line)
    assert "no window" not in aside.casefold(), aside
    assert "after turn 1 · battle results" in aside, aside
    assert any("Dominaria 3B — Winner: Bo" in line for line in said), said


def test_repair_answers_the_rows_typed_for_the_open_window_as_the_poll_does_not_kept_for_that_window(
        tmp_path: Path) -> None:
    config, sheets = _battle(tmp_path)
    _judge_types(sheets, ("results", "Dominaria 3B", "siege", True), ("losses", "Bo", "slot1", 100))
    sync_once(config, sheets, now=NOW)
    polled = {s: r.feedback for s, r in _judge_rows(sheets).items() if s in ("Dominaria 3B", "Bo")}
    assert polled["Dominaria 3B"].startswith("✔ Dominaria 3B: the battle goes on as a siege"), polled
    repair_match(sheets, CLS)
    repaired = {s: r.feedback for s, r in _judge_rows(sheets).items() if s in ("Dominaria 3B", "Bo")}
    assert repaired == polled  # what the next poll writes, at once: never "Kept for <the window open now>"
