"""A GM's ``resolve --force`` between ``serve``'s polls (issue 95, item 3): the command keeps the record a poll keeps
(what each write left, and Drive's version of it right after), so the host's next poll of the match passes her
writes over as its own: no spreadsheet read, the account's one change-log question a pass. On her own sign-in
(``spreadsheets`` + ``drive.file``, spreadsheets sheets-gm made) as on a service account."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.host.scheduler import Host
from sheets_gm.poll_gate.state import load_state, state_path
from tests.commands.test_commands_google import run
from tests.fakes.google_api import CHANGES, FILE_GET, READ, START_TOKEN, GoogleApiFake
from tests.host.hosting import Clock, hosted, new_host
from tests.host.test_serve_gm_sign_ins import GMS, configs_of, fake, league, settle  # noqa: F401 (the fixture)
from tests.host.test_serve_google import by_account, read_keys


def forced_between_polls(host: Host, clock: Clock, config: Path, fake: GoogleApiFake,  # noqa: F811
                         capsys: pytest.CaptureFixture[str]) -> None:
    """The host served until idle, then the GM forces the match's turn 1 from her terminal."""
    settle(host, clock)
    fake.reset_counters()
    code, out, err = run(capsys, "resolve", "-c", config, "--force", "--turn", "1")
    assert code == 0 and "Turn 1 resolved (forced by the GM)" in out, err
    assert fake.calls(READ) == 4 and fake.calls(CHANGES) == fake.calls(START_TOKEN) == 0  # each read once


@pytest.mark.parametrize("shared_file", [False, True])
def test_the_poll_after_a_gms_resolve_reads_no_spreadsheet(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, shared_file: bool) -> None:
    clock, root, configs = league(fake, tmp_path, capsys, monkeypatch, dict.fromkeys(configs_of(), shared_file))
    lines: list[str] = []
    host = new_host(root, clock, lines, interval=15)
    forced_between_polls(host, clock, configs["a1"], fake, capsys)
    fake.reset_counters()
    settle(host, clock)  # a minute: the log names her writes; the host polls the match and reads nothing
    assert read_keys(fake) == set() and fake.calls(FILE_GET) == 0
    assert by_account(fake, CHANGES) == {f"{gm}@example.com": 4 for gm in GMS}  # one question a pass an account
    match = hosted(host, root, "a1")
    assert match.done == "idle" and not match.failures and not match.error
    state = load_state(state_path(configs["a1"]))
    assert state is not None and len(state.versions) == 4 and not state.written  # what a poll keeps
