"""The war by mail rehearsed small (``scripts/rehearse_war_by_mail.py``, issue 89): a war whose players mail their
movement, corrections and strategies through the real local Dovecot, their receipts through the real SMTP server;
every mail handled once and typed, filed or told; and the paired benchmark of mail against the paste runs."""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType

import pytest

import sheets_gm.commands.base as command_base
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


@pytest.mark.soak
def test_a_small_war_by_mail_is_handled_once_and_every_mail_told(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert _script(monkeypatch).main(["--armies", "12", "--corrections", "4", "--late", "2"]) == 0
    out = capsys.readouterr().out
    assert "every mail handled once: yes; every mail's lines typed: yes; every mail typed, filed or told why not, and "\
           "its receipt received: yes" in out
    assert "could not be typed: 0" in out
    assert "2 late movement" in out and "2 late strategy" in out and "1 stranger" in out
    # the next turn's movement mailed with the strategies, before the one players' deadline, adjudicated with the
    # judge's results; the late changes not read
    assert "2 late turn 2 movement" in out
    assert "then turn 2 · orders resolved" in out
    assert "turn 2's movement, adjudicated in the sync that applied the judge's results: 3 battles announced, 3 of " \
           "them the 3 pairs that held in turn 1" in out


@pytest.mark.soak
def test_the_benchmark_of_mail_against_the_paste_runs_through_the_imap_server(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _script(monkeypatch).main(["--armies", "12", "--bench", "1"])
    out = capsys.readouterr().out
    assert "pair 1: pasted" in out and "mail / pasted = " in out
