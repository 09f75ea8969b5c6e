"""The judge's inputs as a judge types them: ``+5`` bonuses, losses per slot in one cell, thousands
separators; a winning raid with no kill warned; the judge's idle rows wait for the results."""

from __future__ import annotations

from sheets_gm.engine.ruleset import JUDGE, Window
from sheets_gm.rulesets.coalition.check import describe_result
from sheets_gm.rulesets.coalition.enums import BattleType, Colour, Phase
from sheets_gm.rulesets.coalition.resolve.judging import CheckedResult, check_result
from sheets_gm.rulesets.coalition.sheet.panels import judge_panel
from sheets_gm.rulesets.coalition.sheet.read import read_judge_rows
from sheets_gm.rulesets.coalition.state import Battle, BattleResult, CoalitionState, Creature
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.rows.fate_words import idle_feedback
from tests.rulesets.coalition.helpers import SETTINGS, army, board, state

RAID = Battle(BattleType.RAID, "Dominaria 3C", ("Raider", "Target"), weather="Clear")


def _raid_state() -> CoalitionState:
    return state(army("Raider", "coalition", "3C", units=(5000, 2500, 1500, 1000)),
                 army("Target", "phyrexia", "3C", units=(1000, 0, 0, 100)), battles=(RAID,), phase=Phase.RESULTS)


def _row(table: str, subject: str, values: dict[str, object]) -> TypedRow:
    return TypedRow(table, subject, 3, "3/results", values, "")  # type: ignore[arg-type]


def test_a_plus_sign_and_losses_per_slot_in_one_cell_are_read() -> None:
    s = _raid_state()
    read = read_judge_rows(s, [_row("results", "Dominaria 3C", {"winner": "Raider", "kill": "roll",
                                                                 "kill_bonus": "+5", "escape_bonus": "-3"})],
                           [_row("losses", "Raider", {"slot1": "1,000/0/200/0"}),
                            _row("losses", "Target", {"slot1": "1,000", "slot4": "50"})])
    assert not read.problems, read.problems
    result = read.results["Dominaria 3C"]
    assert (result.kill_bonus, result.escape_bonus) == (5, -3)
    assert result.losses == {"Raider": (1000, 0, 200, 0), "Target": (1000, 0, 0, 50)}
    garbled = read_judge_rows(s, [_row("results", "Dominaria 3C", {"winner": "Raider", "kill_bonus": "+-5"})], [])
    assert "Kill bonus '+-5' is not a whole number" in garbled.problems["Dominaria 3C"][0]


def test_losses_in_one_cell_and_in_the_slot_cells_too_are_named() -> None:
    read = read_judge_rows(_raid_state(), [], [_row("losses", "Raider", {"slot1": "100/0/0/0", "slot2": "5"})])
    assert "Lost in slot 1 '100/0/0/0' holds every slot" in read.problems["Raider"][0]


def test_a_winning_raid_with_no_kill_is_warned() -> None:
    s = _raid_state()
    checked = check_result(board(), SETTINGS, s, "Dominaria 3C", BattleResult(winner="Raider"))
    assert isinstance(checked, CheckedResult)
    assert "warning: Raider wins its raid but no Kill is entered" in describe_result(SETTINGS, checked)
    with_kill = check_result(board(), SETTINGS, s, "Dominaria 3C", BattleResult(winner="Raider", kill="roll"))
    assert isinstance(with_kill, CheckedResult)
    assert "warning" not in describe_result(SETTINGS, with_kill)
    lost = check_result(board(), SETTINGS, s, "Dominaria 3C", BattleResult(winner="Target"))
    assert isinstance(lost, CheckedResult) and "warning" not in describe_result(SETTINGS, lost)


def test_the_judge_waits_for_the_results() -> None:
    window = Window("3/results", "turn 3 · battle results", "results", (JUDGE,), 3)
    table = next(t for t in sheet_spec("coalition").tables(judge=True) if t.name != "judge_ready"
                 and t.rows == "battles")
    assert idle_feedback(window, JUDGE, table, "") == "Waiting for the results for turn 3 · battle results."


def test_the_judges_view_shows_each_armys_makeup_under_it() -> None:
    elves = Creature("Elves", (Colour.GREEN,), 2, 5000)
    battle = Battle(BattleType.ATTACKS, "Dominaria 3C", ("Ann", "Bo"), announced=True)
    s = state(army("Ann", "coalition", "3C", legend="Freyalise", creatures=(elves,), factions=(Colour.GREEN,)),
              army("Bo", "phyrexia", "3C"), battles=(battle,), phase=Phase.RESULTS)
    text = [str(row[2]) for row in judge_panel(s, board()) if len(row) > 2]
    at = text.index(next(t for t in text if t.startswith("Ann: ")))
    assert text[at + 1].strip() == ("legend Freyalise · at full strength: 5000 Elves (green, size 2) · "
                                    "factions green · colour bonus +1")  # its slots hold more than the 5000 designed
    assert any(t.strip().startswith("creatures not given") for t in text)  # Bo's makeup is unknown
