"""A real ``sheets-gm serve`` process on a Google match, pointed at the fake Google served over HTTP on 127.0.0.1
(``tests.fakes.google_http``): it signs in at the fake's token endpoint, asks Drive and Sheets as it would Google,
and answers a player's save; its requests are the fake's to count. Nothing sleeps but the waits for the
subprocess (a twentieth of a second at a time, bounded), as ``test_serve_command``."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from tests.fakes.google_api import CHANGES, TOKEN, GoogleApiFake
from tests.fakes.google_http import served_over_http
from tests.host.test_serve_command import LIMIT, wait_for
from tests.host.test_serve_google import MATCHES, create, keys
from tests.matchfiles import state_of, type_orders


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    from tests.fakes.google_api import signed_in_fake

    spreadsheets = {key: f"{match} · {role}" for match in MATCHES for role, key in keys(match).items()}
    with signed_in_fake(monkeypatch, spreadsheets) as f:
        yield f


@pytest.mark.soak  # a serve process started and a Google poll waited for: a minute on a loaded machine
def test_a_real_serve_answers_a_google_save_through_the_fake_over_http(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = tmp_path / "league"
    config = create(league, "one", capsys)
    sheets = open_match_sheets(load_config(config))
    log = tmp_path / "serve.log"
    with served_over_http(fake) as server, log.open("wb") as out:
        fake.reset_counters()
        proc = subprocess.Popen([sys.executable, "-m", "sheets_gm.cli", "serve", str(league), "--interval", "2",
                                 "--workers", "1"], stdout=out, stderr=subprocess.STDOUT, env=server.environment())
        try:
            wait_for(lambda: "Found 1 match" in log.read_text(encoding="utf-8"), "the match found")
            wait_for(lambda: fake.calls(CHANGES) > 0, "Drive's change log asked by the host", 20)
            with server.lock:  # a player types (in this process, on the same fake)
                type_orders(sheets, ready=True)
            wait_for(lambda: "Turn 1 resolved" in log.read_text(encoding="utf-8"), "the save answered", 2 * LIMIT)
            with server.lock:
                assert state_of(sheets).turn == 2
            assert fake.calls(TOKEN) >= 1 and server.served > 0  # signed in at the fake, asked it over HTTP
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=2 * LIMIT) == 0, log.read_text(encoding="utf-8")
    assert not fake.violations, fake.violations
