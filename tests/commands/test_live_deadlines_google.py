"""A change of ``[deadlines]`` in a running match on Google Sheets (the fake): the sync that reads the changed config
writes the open window's new deadline; the polls after it, the config unchanged, read no spreadsheet."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from tests.commands.test_commands_google import KEYS
from tests.commands.test_drive_gate import Clock, clock, fake, poll, start_match  # noqa: F401 (fixtures)
from tests.commands.test_live_deadlines import SAID, SCHEDULE
from tests.fakes.google_api import GoogleApiFake
from tests.matchfiles import record_of


def test_on_google_the_change_is_written_and_an_unchanged_config_reads_nothing(
        fake: GoogleApiFake, clock: Clock, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    match = start_match(tmp_path, clock, capsys)
    assert poll(fake, clock, capsys, match)[0] == 0  # idle
    with match.open("a", encoding="utf-8") as f:
        f.write(SCHEDULE)
    reads, _, out = poll(fake, clock, capsys, match)
    assert reads > 0 and f"Deadlines changed by the GM: orders now close {SAID}" in out
    assert f"orders close {SAID}" in str(fake.values(KEYS["red"], "Orders red")[1][0])
    board = [str(c) for row in fake.values(KEYS["board"], "Board") for c in row]
    assert any(f"orders close {SAID}" in c for c in board)
    assert fake.values(KEYS["board"], "Log")[-1][1:3] == ["deadlines", f"Deadlines changed by the GM: orders now "
                                                          f"close {SAID} (the schedule: every day at 12:30 (UTC))."]
    for _ in range(2):  # the config as the change left it: the gate keeps the polls idle
        reads, _, out = poll(fake, clock, capsys, match)
        assert reads == 0 and "Deadlines changed" not in out
    assert record_of(open_match_sheets(load_config(match))).schedule == "every day at 12:30 (UTC)"
    clock.tick(30)  # past 12:30: the gate reads for the deadline, which resolves the turn
    reads, _, out = poll(fake, clock, capsys, match)
    assert reads > 0 and out.startswith(f"Turn 1 resolved (the deadline {SAID} has passed)"), out
