"""Spreadsheets the GM made by hand, played on her own sign-in (issue 94, item 3): her playing sign-in's ``drive.file``
scope never sees them in Drive, which ``doctor`` explained alone. ``init``, the first ``sync`` that finds them, or
``resolve``, says it too in doctor's words, once for the match: the polls after it read them as ever and say nothing
more of it, a GM's command between them (which forgets the poll's record) included."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.poll_gate.drive import UNSEEN_FIX
from sheets_gm.poll_gate.state import forget_state, state_path
from tests.at_rest.test_google_sign_in import _oauth, fake  # noqa: F401 (the fixture)
from tests.commands.test_window_commands import run
from tests.commands.test_window_init import google_race  # noqa: F401 (the fixture)
from tests.fakes.google_api import GoogleApiFake
from tests.sync.race_game import registered_race  # noqa: F401 (the fixture)

SAID = "Drive does not show these credentials 4 of the match's 4 spreadsheets (your own sign-in for playing reaches"


def test_init_says_it_once_and_the_polls_after_it_never(fake: GoogleApiFake, google_race: Path,  # noqa: F811
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    config = _oauth(google_race)
    code, out, err = run(capsys, "init", "race", "-c", config, "--no-email")
    assert code == 0, err
    assert out.count(SAID) == 1
    said = [run(capsys, "sync", "-c", config)[1].count(SAID) for _ in range(2)]
    forget_state(state_path(config))  # as every GM's command does (running.run.gm_change)
    said.append(run(capsys, "sync", "-c", config)[1].count(SAID))
    assert said == [0, 0, 0]


@pytest.mark.parametrize("first", ["sync", "resolve"])
def test_a_match_made_before_hears_it_once_in_doctors_words(fake: GoogleApiFake, google_race: Path,  # noqa: F811
                                                            capsys: pytest.CaptureFixture[str], first: str) -> None:
    config = _oauth(google_race)
    assert run(capsys, "init", "race", "-c", config, "--no-email")[0] == 0
    (config.parent / ".sheets-gm" / "match.told.json").unlink()  # as a match made by an earlier sheets-gm
    said = [run(capsys, command, "-c", config)[1].count(SAID) for command in (first, first, "sync")]
    assert said == [1, 0, 0]
    doctor = run(capsys, "doctor", "-c", config)[1]
    assert UNSEEN_FIX in doctor and SAID.split(" 4 of")[0] in doctor


def test_a_service_account_is_told_nothing_of_it(fake: GoogleApiFake, google_race: Path,  # noqa: F811
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "init", "race", "-c", google_race, "--no-email")
    assert code == 0, err
    assert "drive.file" not in out
    assert "drive.file" not in run(capsys, "sync", "-c", google_race)[1]
