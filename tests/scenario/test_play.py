"""The one scenario loop, driven with the tests' own game: what a codec hands it is all it needs."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from sheets_gm.engine.ruleset import Verdict
from sheets_gm.rulesets.parts.fields import Fields, ScenarioError
from sheets_gm.rulesets.parts.scenario import Entry, Play, Scenario
from sheets_gm.scenario.play import play
from tests.toygame.engine import ToyOrders, ToyRuleset, ToySettings, ToyState

RULES = ToyRuleset(ToySettings(), "3")
START = RULES.new_match(RULES.sample_roster(), b"")
FIELDS = Fields("toy.yaml")


def _turn(n: int, seat: str, square: str, pins: dict[str, int] | None = None,
          refusal_is_error: bool = False) -> Entry[ToyState, ToyOrders]:
    return Entry.of(10 + n, f"turn {n}", [Play(ToyOrders({seat: square}), pins or {}, refusal_is_error)])


def _refused(_state: ToyState, verdicts: Sequence[Verdict]) -> list[str]:
    return [f"refused: {v.message}" for v in verdicts if not v.accepted]


def _scenario(*entries: Entry[ToyState, ToyOrders], skip: bool = False) -> Scenario[ToyState, ToyOrders]:
    return Scenario(RULES, START, entries, _refused, skip_after_the_end=skip)


ANN_WINS = [_turn(1, "Ann", "A1"), _turn(2, "Bo", "A2"), _turn(3, "Ann", "B1"), _turn(4, "Bo", "B2"),
            _turn(5, "Ann", "C1")]


def test_the_turns_resolve_in_order_and_expect_sees_the_verdicts() -> None:
    run = play(_scenario(*ANN_WINS[:2], _turn(3, "Ann", "A1")), FIELDS)
    assert [e.text for e in run.events] == ["Ann marks A1.", "Bo marks A2.", "Ann passes."]
    assert run.differences == ["refused: A1 is taken"]


def test_a_turn_after_the_end_is_a_mistake_in_the_file_or_skipped_where_the_game_says_so() -> None:
    with pytest.raises(ScenarioError, match=r"toy.yaml:16: turn 6: the game is already over before it \(Ann wins\)"):
        play(_scenario(*ANN_WINS, _turn(6, "Bo", "C3")), FIELDS)
    assert play(_scenario(*ANN_WINS, _turn(6, "Bo", "C3"), skip=True), FIELDS).events[-1].text == "Ann wins."


def test_the_wrong_seats_turn_names_whose_it_is() -> None:
    entry: Entry[ToyState, ToyOrders] = Entry.of(12, "turn 1", [Play(ToyOrders({"Bo": "A1"}))], seat="Bo")
    with pytest.raises(ScenarioError, match=r"toy\.yaml:12: turn 1 is Bo's, but the open window is Ann's"):
        play(_scenario(entry), FIELDS)


def test_a_refusal_the_file_marks_as_an_error_stops_the_run() -> None:
    with pytest.raises(ScenarioError, match=r"toy\.yaml:11: turn 1: Ann is refused: there is no square 'Z9'"):
        play(_scenario(_turn(1, "Ann", "Z9", refusal_is_error=True)), FIELDS)


def test_dice_pinned_and_never_rolled_are_noted_by_turn() -> None:
    run = play(_scenario(_turn(1, "Ann", "A1", pins={"luck": 3})), FIELDS)
    assert run.unused_pins == ["turn 1 luck"]


def test_a_refused_gm_event_ends_the_run_with_a_difference() -> None:
    marks = [{"square": square, "mark": "O", "reason": "typo"} for square in ("A1", "B1", "C1", "C3")]
    entry: Entry[ToyState, ToyOrders] = Entry.of(11, "turn 1", [Play(ToyOrders({"Ann": "A2"}))], gm=marks)
    run = play(_scenario(entry), FIELDS)
    assert run.differences == ["GM event refused: the game is over: undo its last turn to play on"]
    assert [e.text for e in run.events][-2:] == ["The GM sets C1 to O (typo).", "Bo wins."]


def test_an_entry_can_decide_its_next_window_from_the_last_resolution() -> None:
    def next_play(state: ToyState, last: object, played: int) -> Play[ToyOrders] | None:
        return Play(ToyOrders({state.acting(): "ABC"[played] + "1"})) if played < 3 else None

    run = play(_scenario(Entry(11, "turn 1", next_play)), FIELDS)
    assert [e.text for e in run.events] == ["Ann marks A1.", "Bo marks B1.", "Ann marks C1."]
