"""Nothing typed goes unanswered behind the Drive gate: players save in their own spreadsheets at random moments
(between polls, while a poll writes, while Drive lags), cron polls through the gate, and once Drive has caught up
and a few polls have passed, a full poll that reads every spreadsheet afresh finds nothing left to answer."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sheets_gm.match.config import load_config
from sheets_gm.poll_gate.kept_reads import KeptSheets
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from tests.commands.test_commands_google import KEYS
from tests.commands.test_drive_gate import START, Clock, module_fake
from tests.fakes.google_api import GoogleApiFake, signed_in_fake, write_service_account_key

TEAMS = {"red": "Ann", "blue": "Cat"}
VALUES = ("G7", "K22", "ZZ99", "", "H12", "nonsense")

Step = tuple[str, Any, Any]
STEPS = st.lists(st.one_of(
    st.tuples(st.just("type"), st.sampled_from(sorted(TEAMS)), st.sampled_from(VALUES)),
    st.tuples(st.just("type while we write"), st.sampled_from(sorted(TEAMS)), st.sampled_from(VALUES)),
    st.tuples(st.just("poll"), st.sampled_from([1, 1, 2, 31]), st.none()),
    st.tuples(st.just("lag"), st.sampled_from([0, 30, 150]), st.none()),
), min_size=3, max_size=14)


def destination(fake: GoogleApiFake, team: str) -> str:
    """The destination cell of the team's first player (column D of her row)."""
    tab = f"Orders {team}"
    row = next(i for i, r in enumerate(fake.values(KEYS[team], tab), 1) if r and r[0] == TEAMS[team])
    return f"'{tab}'!D{row}"


def _match_folder(folder: Path) -> Path:
    """The GM's folder of a GvG match on the fake's spreadsheets (``KEYS``): its service account, roster and
    configuration; the configuration's path."""
    write_service_account_key(folder / "sa.json", "gm-bot@sheets-gm-test.iam.gserviceaccount.com")
    (folder / "roster.csv").write_text("name,team,role\nAnn,red,dps\nBen,red,tank\nCat,blue,dps\n"
                                       "Dan,blue,healer\n", encoding="utf-8")
    config = folder / "match.toml"
    config.write_text(
        'ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
        f'[sheets]\nbackend = "google"\nboard = "{KEYS["board"]}"\nengine = "{KEYS["engine"]}"\n'
        f'orders = {{ red = "{KEYS["red"]}", blue = "{KEYS["blue"]}" }}\n'
        '[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    return config


SPREADSHEETS = {key: f"gate property · {role}" for role, key in KEYS.items()}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The match ``init`` made at ``START``, once for the module (the same for every example, as ``init`` makes it
    from the same files at the same moment): the fake's state and the GM's folder, for each example to copy."""
    with module_fake(tmp_path_factory, SPREADSHEETS) as (fake, _clock):
        folder = tmp_path_factory.mktemp("made")
        assert main(_match_folder(folder), "init", "gvg", "--no-share") == 0
        return fake.snapshot(), folder


@pytest.fixture
def table(made: tuple[dict[str, Any], Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A way to start a fresh GvG match on the Google fake for each example: ``(fake, clock, config)``, each a
    copy of the match ``init`` made (``made``)."""
    state, made_folder = made
    closing: list[Any] = []

    def start() -> tuple[GoogleApiFake, Clock, Path]:
        for close in closing:
            close()
        closing.clear()
        patch = pytest.MonkeyPatch()
        context = signed_in_fake(patch, SPREADSHEETS)
        fake = context.__enter__()

        def undo() -> None:
            context.__exit__(None, None, None)
            patch.undo()

        closing.append(undo)
        fake.restore(state)
        clock = Clock(fake, patch)
        folder = tmp_path_factory.mktemp("match")
        shutil.copytree(made_folder, folder, dirs_exist_ok=True)
        return fake, clock, folder / "match.toml"

    yield start
    for close in closing:
        close()


def main(config: Path, *argv: str) -> int:
    """Run a command on ``config`` (``init`` takes it after its ruleset), quietly; its exit code."""
    from sheets_gm.cli import main as cli

    if argv[0] == "init":
        return cli([*argv[:2], "-c", str(config), *argv[2:]])
    return cli([argv[0], "-c", str(config), *argv[1:]])


def play(fake: GoogleApiFake, clock: Clock, config: Path, steps: list[Step]) -> None:
    """The steps, then Drive catching up and three quiet polls a minute apart."""
    typing_in_write: dict[str, str] = {}
    real_write = GoogleSheetBackend.write

    def write(self: GoogleSheetBackend, *args: Any, **kwargs: Any) -> Any:
        for team, value in list(typing_in_write.items()):
            if self.key == KEYS[team]:
                fake.set_values(KEYS[team], destination(fake, team), [[value]])
                del typing_in_write[team]
        return real_write(self, *args, **kwargs)

    patch = pytest.MonkeyPatch()
    patch.setattr(GoogleSheetBackend, "write", write)
    try:
        for kind, a, b in steps:
            if kind == "type":
                fake.set_values(KEYS[a], destination(fake, a), [[b]])
            elif kind == "type while we write":
                typing_in_write[a] = b
            elif kind == "lag":
                fake.drive_lag = timedelta(seconds=a)
            else:
                clock.tick(a)
                assert main(config, "sync", "--quiet") == 0
    finally:
        patch.undo()
    for team, value in typing_in_write.items():  # no write came: she saves anyway
        fake.set_values(KEYS[team], destination(fake, team), [[value]])
    clock.tick(3)  # Drive's lag, at most 150 s, has passed
    for _ in range(3):
        clock.tick(1)
        assert main(config, "sync", "--quiet") == 0


def unanswered(clock: Clock, config: Path) -> list[str]:
    """The spreadsheets a full poll, reading every one afresh, would still write: anything left unanswered."""
    match = load_config(config)
    kept = KeptSheets(open_match_sheets(match), {}, None)
    kept.rehearse(True)
    sync_once(match, kept.sheets, now=clock.now)
    return kept.wrote()


# The test command's few new walks (new ones every run) besides the three that broke it; the soak run walks 60.
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(steps=STEPS)
@example(steps=[("type", "red", "ZZ99"), ("type while we write", "red", "G7"), ("poll", 1, None)])  # in our answer
@example(steps=[("type", "red", "ZZ99"), ("poll", 1, None), ("type", "red", "G7")])  # the same second as our write
@example(steps=[("type", "red", "G7"), ("lag", 150, None), ("poll", 1, None), ("lag", 0, None),
                ("type", "red", "nonsense")])  # our write listed late, after her later save
def test_behind_the_drive_gate_every_save_is_answered(table: Any, steps: list[Step]) -> None:
    fake, clock, config = table()
    assert clock.now == START
    play(fake, clock, config, steps)
    assert unanswered(clock, config) == []


@pytest.mark.soak
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(steps=STEPS)
def test_behind_the_drive_gate_every_save_is_answered_long(table: Any, steps: list[Step]) -> None:
    fake, clock, config = table()
    play(fake, clock, config, steps)
    assert unanswered(clock, config) == []
