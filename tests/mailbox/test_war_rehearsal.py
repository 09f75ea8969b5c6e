"""The war by mail rehearsed small (``scripts/rehearse_war_by_mail.py``, issue 89): a war whose players mail their
movement, corrections and strategies through the real local Dovecot, their receipts through the real SMTP server;
every mail handled once and typed, filed or told; each pair that held in turn 1 meets in turn 2 or is kept apart by
a rule the check names (``scripts/war_meetings.py``); and the paired benchmark of mail against the paste runs."""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType

import pytest

import sheets_gm.commands.base as command_base
from sheets_gm.rulesets.coalition.enums import BattleType, Phase, ResultCode, Side
from sheets_gm.rulesets.coalition.state import Army, Battle, CoalitionState, MoveReport
from tests.fakes.dovecot import DOVECOT, MISSING
from tests.paths import SCRIPTS


def _script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    if not DOVECOT.exists():
        pytest.skip(MISSING)
    monkeypatch.syspath_prepend(str(SCRIPTS))
    monkeypatch.setattr(command_base, "clock", command_base.clock)  # the script sets its clock: put back after
    monkeypatch.setenv("REHEARSAL_SMTP_PASSWORD", "")  # the script sets these: put back after
    monkeypatch.setenv("XDG_STATE_HOME", os.environ.get("XDG_STATE_HOME", ""))
    spec = importlib.util.spec_from_file_location("rehearse_war_by_mail", SCRIPTS / "rehearse_war_by_mail.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "rehearse_war_by_mail", module)
    spec.loader.exec_module(module)
    return module


def _meetings(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """``scripts/war_meetings.py``, imported from the scripts' folder."""
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("war_meetings")


def _army(name: str, at: str) -> Army:
    side = Side.COALITION if name.startswith("Coal") else Side.PHYREXIA
    return Army(name, side, 1, f"Dominaria {at}", (500, 250, 150, 100))


def _turn_two() -> CoalitionState:
    """Turn 2 after its movement: pair 1 met; pair 2's Coalition army was held by Phyr 9, a turn-1 loser bumped onto
    its square; pair 3's Coalition army held with no order read (its mailed order lost)."""
    start = {"Coal 1": "1A", "Phyr 1": "2A", "Coal 2": "1B", "Phyr 2": "2B", "Phyr 9": "1B", "Coal 3": "1C",
             "Phyr 3": "2C"}
    end = {**start, "Coal 1": "2A"}
    moves = [MoveReport("Coal 1", Side.COALITION, "Dominaria 1A", "Dominaria 2A", ResultCode.MOVED, "1A > 2A"),
             MoveReport("Coal 2", Side.COALITION, "Dominaria 1B", "Dominaria 1B", ResultCode.VOID, "1B > 2B",
                        "Coal 2 is in the battle at 1B: an army in battle takes no order until it ends"),
             MoveReport("Coal 3", Side.COALITION, "Dominaria 1C", "Dominaria 1C", ResultCode.HELD, "1C")]
    return CoalitionState(2, Phase.RESULTS, tuple(_army(n, at) for n, at in end.items()),
                          battles=(Battle(BattleType.ATTACKS, "Dominaria 2A", ("Coal 1", "Phyr 1")),
                                   Battle(BattleType.INTERCEPTS, "Dominaria 1B", ("Coal 2", "Phyr 9"))),
                          movement=tuple(moves), turn_start={n: f"Dominaria {at}" for n, at in start.items()})


def test_the_turn_two_check_names_the_bump_that_kept_a_pair_apart_and_fails_on_a_lost_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every held pair meets, or a rule the check names kept it apart; a pair apart for no rule's reason (an order
    mailed in time and lost) is the check's failure, never excused."""
    module = _meetings(monkeypatch)
    state = _turn_two()
    found = module.meetings(state, [("Coal 1", "Phyr 1"), ("Coal 2", "Phyr 2"), ("Coal 3", "Phyr 3")])
    assert [m.met for m in found] == [True, False, False]
    assert found[1].why.startswith("Phyr 9, a loser of turn 1 bumped onto Coal 2 at Dominaria 1B")
    assert found[2].why == ""  # the lost order: nothing in the rules explains it
    lines = module.summary(state, found)
    assert lines[0] == ("2 battles announced: 1 the meetings of the 3 pairs that held in turn 1, 1 intercepts of "
                        "turn 1's losers bumped onto an enemy; of the pairs, 1 met, 1 kept apart by the rules, 1 not "
                        "met with nothing in the rules to explain it")
    assert lines[2] == "  Coal 3 and Phyr 3 did NOT meet: Coal 3: held Dominaria 1C -> Dominaria 1C; Phyr 3: no move " \
        "reported"
    # an intercepts battle of two armies that did not both begin the turn on its square is no bump: not excused
    moved_in = state.with_(turn_start={**state.turn_start, "Phyr 9": "Dominaria 3B"})
    assert module.meetings(moved_in, [("Coal 2", "Phyr 2")])[0].why == ""


@pytest.mark.soak
def test_a_small_war_by_mail_is_handled_once_and_every_mail_told(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # 48 pairs: four rows of a plane, enough for a loser of turn 1 to find no free square and be bumped onto a held
    # pair's army (Phyr 027 onto Coal 040)
    assert _script(monkeypatch).main(["--armies", "48", "--corrections", "12", "--late", "3"]) == 0
    out = capsys.readouterr().out
    assert "every mail handled once: yes; every mail's lines typed: yes; every mail typed, filed or told why not, and "\
           "its receipt received: yes" in out
    assert "could not be typed: 0" in out
    assert "3 late movement" in out and "3 late strategy" in out and "1 stranger" in out
    # the next turn's movement mailed with the strategies, before the one players' deadline, adjudicated with the
    # judge's results; the late changes not read
    assert "3 late turn 2 movement" in out
    assert "then turn 2 · orders resolved" in out
    assert "12 battles announced: 11 the meetings of the 12 pairs that held in turn 1, 1 intercepts of turn 1's " \
           "losers bumped onto an enemy; of the pairs, 11 met, 1 kept apart by the rules, 0 not met with nothing in " \
           "the rules to explain it" in out
    assert "Coal 040 and Phyr 040 kept apart: Phyr 027, a loser of turn 1 bumped onto Coal 040 at Dominaria 7D" in out


@pytest.mark.soak
def test_the_benchmark_of_mail_against_the_paste_runs_through_the_imap_server(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _script(monkeypatch).main(["--armies", "12", "--bench", "1"])
    out = capsys.readouterr().out
    assert "pair 1: pasted" in out and "mail / pasted = " in out
