"""A bot seat on Google Sheets, behind the Drive gate: what its bot typed (in our own write, which Drive names us
for) is read at the next poll, and its spreadsheet alone; after that, an idle poll reads nothing again."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.match.config import load_config
from sheets_gm.match.connect import open_match_sheets
from tests.commands.test_commands_google import ACCOUNT, KEYS, ROSTER, run
from tests.commands.test_drive_gate import Clock, asked, clock, fake, poll  # noqa: F401 (fixtures)
from tests.fakes.google_api import READ, GoogleApiFake, write_service_account_key
from tests.matchfiles import type_orders


def test_the_poll_after_a_bot_typed_reads_its_spreadsheet_alone(
        fake: GoogleApiFake, clock: Clock, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    write_service_account_key(tmp_path / "sa.json", ACCOUNT)
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    config = tmp_path / "match.toml"
    config.write_text(
        'ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
        f'[sheets]\nbackend = "google"\nboard = "{KEYS["board"]}"\nengine = "{KEYS["engine"]}"\n'
        f'orders = {{ red = "{KEYS["red"]}", blue = "{KEYS["blue"]}" }}\n'
        '[google]\nservice_account = "sa.json"\n[bots]\nblue = "objective"\n', encoding="utf-8")
    assert run(capsys, "init", "gvg", "-c", config, "--no-share")[0] == 0
    for _ in range(2):
        clock.tick()
        assert run(capsys, "sync", "-c", config, "--quiet")[0] == 0
    type_orders(open_match_sheets(load_config(config)), ready=True, seats=("red",))
    out = poll(fake, clock, capsys, config)[2]
    assert "Turn 1 resolved" in out and "bots play blue (objective)" in out, out
    reads, _, out = poll(fake, clock, capsys, config)  # blue's bot typed turn 2 in the resolution's write
    assert reads == 1 and asked(fake, READ) == [KEYS["blue"]], out
    assert "Turn 2: waiting for red" in out
    assert poll(fake, clock, capsys, config)[0] == 0  # idle again
