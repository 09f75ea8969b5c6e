"""Spreadsheets the GM made by hand, played on her own sign-in (issue 94, item 3): her playing sign-in's ``drive.file``
scope never sees them in Drive, which ``doctor`` explained alone. ``init`` and the first ``sync`` that finds them say it
too, once each: the polls after it read them as ever and say nothing more of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.at_rest.test_google_sign_in import _oauth, fake  # noqa: F401 (the fixture)
from tests.commands.test_window_commands import run
from tests.commands.test_window_init import google_race  # noqa: F401 (the fixture)
from tests.fakes.google_api import GoogleApiFake
from tests.sync.race_game import registered_race  # noqa: F401 (the fixture)

SAID = "Drive does not show your sign-in for playing 4 of the match's 4 spreadsheets (made by hand"


def test_init_and_the_first_sync_say_it_once_each(fake: GoogleApiFake, google_race: Path,  # noqa: F811
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    config = _oauth(google_race)
    code, out, err = run(capsys, "init", "race", "-c", config, "--no-email")
    assert code == 0, err
    assert out.count(SAID) == 1
    said = []
    for _ in range(3):
        code, out, err = run(capsys, "sync", "-c", config)
        said.append(out.count(SAID))
    assert said == [1, 0, 0]


def test_a_service_account_is_told_nothing_of_it(fake: GoogleApiFake, google_race: Path,  # noqa: F811
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "init", "race", "-c", google_race, "--no-email")
    assert code == 0, err
    assert "drive.file" not in out
    assert "drive.file" not in run(capsys, "sync", "-c", google_race)[1]
