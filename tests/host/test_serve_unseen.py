"""``serve`` on a match the GM plays on her own account, on spreadsheets she made by hand: her playing sign-in
(``spreadsheets`` + ``drive.file``) never sees them in Drive's change log, so the one decision cron's poll asks too
(``poll_gate.drive.reads_anyway``) reads them about once a minute, whatever Drive says: a save there is answered within
the minute, and the account's Sheets quota pays four reads a minute, not four every look. The spreadsheets sheets-gm
made for her (``init --create``) her sign-in does see: a restart's kept change log names their saves first."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from sheets_gm.host.account_set import account_name
from sheets_gm.host.drive_tokens import read_tokens, tokens_path
from tests.at_rest.test_google_sign_in import _oauth, fake  # noqa: F401 (the fixture)
from tests.commands.test_window_commands import run
from tests.commands.test_window_init import KEYS, google_race  # noqa: F401 (the fixture)
from tests.fakes.google_api import READ, GoogleApiFake, permission_id
from tests.host.hosting import Clock, new_host
from tests.host.test_restart_google import _blind_index, _restarted
from tests.host.test_serve_google import _polled_then_stopped
from tests.sync.race_game import registered_race  # noqa: F401 (the fixture)

START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def _her_match(fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
               monkeypatch: pytest.MonkeyPatch) -> tuple[Clock, Path]:
    """The race on the GM's own account (OAuth), made by init and signed in for playing; one clock for all."""
    clock = Clock(START, on_move=lambda now: setattr(fake, "now", now))
    fake.now = START
    monkeypatch.setattr("sheets_gm.commands.base.clock", clock)
    config = _oauth(google_race)
    assert run(capsys, "init", "race", "-c", config, "--no-email")[0] == 0
    assert run(capsys, "sync", "-c", config)[0] in (0, 1)  # signs her in for playing, as doctor would
    return clock, config


def test_serve_reads_the_gms_hand_made_spreadsheets_once_a_minute(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, config = _her_match(fake, google_race, capsys, monkeypatch)
    lines: list[str] = []
    host = new_host(config.parent, clock, lines, interval=10)
    host.step()  # the first poll: everything read
    reading: list[int] = []  # the seconds at which a look read
    for second in range(10, 301, 10):
        clock.tick(10)
        fake.reset_counters()
        host.step()
        if fake.calls(READ):
            assert fake.calls(READ) == len(KEYS)
            reading.append(second)
            assert "not shown to these credentials in Drive, so read about once a minute" in \
                host.status(clock()).matches[0].line
    gaps = [b - a for a, b in zip([0, *reading], reading, strict=False)]
    assert gaps and all(50 <= gap <= 60 for gap in gaps), reading  # never each look; never past the minute
    assert len(reading) >= 5


@pytest.mark.parametrize("made_by", ["sheets-gm", "hand"])
def test_the_gms_own_sign_in_sees_in_the_kept_log_only_the_spreadsheets_sheets_gm_made(
        fake: GoogleApiFake, google_race: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, made_by: str) -> None:
    # Her playing sign-in's drive.file scope: Drive's change log lists her spreadsheets sheets-gm made (init
    # --create), never those she made by hand (serve reads them about once a minute: test_serve_unseen).
    clock, config = _her_match(fake, google_race, capsys, monkeypatch)
    for key in KEYS.values():
        fake.spreadsheets[key].by_app = made_by == "sheets-gm"
    _polled_then_stopped(config.parent, clock)
    assert list(read_tokens(tokens_path(config.parent / ".sheets-gm" / "serve-status.json"))[0]) == [
        account_name(permission_id(fake.user_email), fake.user_email)]  # kept by her account, not her file
    fake.set_values(KEYS["Ann"], "A1", [["Ann's note"]])  # a player's save while no host ran
    clock.tick(30)
    _blind_index(monkeypatch)
    order = _restarted(config.parent, clock)
    assert order == ([config.parent.name] if made_by == "sheets-gm" else [])
