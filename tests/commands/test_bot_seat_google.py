"""A bot seat on Google Sheets, behind the Drive gate: what its bot typed (in our own write, which Drive names us
for) is read at the next poll, and its spreadsheet alone; after that, an idle poll reads nothing again."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from tests.commands.test_commands_google import KEYS
from tests.commands.test_drive_gate import Clock, asked, clock, fake, poll, start_match  # noqa: F401 (fixtures)
from tests.fakes.google_api import READ, GoogleApiFake
from tests.matchfiles import type_orders


def test_the_poll_after_a_bot_typed_reads_its_spreadsheet_alone(
        fake: GoogleApiFake, clock: Clock, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    config = start_match(tmp_path, clock, capsys, '[bots]\nblue = "objective"\n')
    type_orders(open_match_sheets(load_config(config)), ready=True, seats=("red",))
    out = poll(fake, clock, capsys, config)[2]
    assert "Turn 1 resolved" in out and "bots play blue (objective)" in out, out
    reads, _, out = poll(fake, clock, capsys, config)  # blue's bot typed turn 2 in the resolution's write
    assert reads == 1 and asked(fake, READ) == [KEYS["blue"]], out
    assert "Turn 2: waiting for red" in out
    assert poll(fake, clock, capsys, config)[0] == 0  # idle again
