"""The Drive gate tells our own writes from anyone else's by Drive's file version, not by clocks: an edit made on
the very account the sync writes with (a GM signed in as herself, "us" to Drive) at any moment around our writes
is read at the next poll, and a machine clock a minute off Google's loses nothing. Spreadsheets kept in a shared
drive are seen through the same change log."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from sheets_gm.match.config import load_config
from sheets_gm.poll_gate.state import load_state, state_path
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.drive import DriveChangeLog
from tests.commands.test_commands_google import ACCOUNT, KEYS, run
from tests.commands.test_drive_gate import (  # noqa: F401 (fixtures)
    Clock,
    ann_destination,
    ann_row,
    clock,
    fake,
    made_started,
    poll,
    start_match,
    started,
)
from tests.fakes.google_api import FILE_GET, FILES, GoogleApiFake, fake_client
from tests.matchfiles import type_orders


class Poll(NamedTuple):
    """What one poll did: Sheets reads, Drive change-log requests, what it printed."""

    reads: int
    drive: int
    out: str


def gm_types(google: GoogleApiFake, text: str) -> None:
    """The GM types ``text`` as Ann's destination on the account the sync writes with."""
    google.set_values(KEYS["red"], ann_destination(google), [[text]], by=ACCOUNT)


def answered(google: GoogleApiFake, text: str, out: str) -> bool:
    """Whether the poll that printed ``out`` read ``text`` and Ann's row answers it."""
    return f"{text} is off the board" in out and text in str(ann_row(google)) and "✘" in str(ann_row(google))


def test_the_gm_typing_as_our_account_right_after_our_write_is_read_at_the_next_poll(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    type_orders(open_match_sheets(load_config(started)), ready=False, seats=("red",))
    assert poll(fake, clock, capsys, started)[0] == 1  # red's save read and answered
    assert fake.calls(FILE_GET) == 1  # one Drive files.get for the one spreadsheet written
    gm_types(fake, "ZZ98")  # the same instant as our write, on our own account: once passed over for ten seconds
    reads, _, out = poll(fake, clock, capsys, started)
    assert reads == 1 and answered(fake, "ZZ98", out)
    assert poll(fake, clock, capsys, started)[0] == 0  # our answer to her is ours again: nothing to read


@pytest.mark.parametrize("moment", ["before the poll", "between our read and our write",
                                    "while another spreadsheet is written", "after the poll"])
def test_the_gm_typing_as_our_account_at_any_moment_around_our_writes_is_read(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, moment: str) -> None:
    typed: list[str] = []

    def once() -> None:
        if not typed:
            typed.append("ZZ97")
            gm_types(fake, "ZZ97")

    type_orders(open_match_sheets(load_config(started)), ready=False)  # both teams: the poll writes red and blue
    if moment == "before the poll":
        once()
    real_write = GoogleSheetBackend.write
    if moment == "between our read and our write":
        def typed_first(self: GoogleSheetBackend, *args: Any, **kwargs: Any) -> Any:
            if self.key == KEYS["red"]:
                once()
            return real_write(self, *args, **kwargs)

        monkeypatch.setattr(GoogleSheetBackend, "write", typed_first)
    elif moment == "while another spreadsheet is written":
        def on_edit(key: str, by: str) -> None:
            if key == KEYS["blue"] and by == ACCOUNT:
                once()
        fake.after_edit.append(on_edit)
    first = Poll(*poll(fake, clock, capsys, started))
    assert first.reads == 2
    fake.after_edit.clear()
    monkeypatch.setattr(GoogleSheetBackend, "write", real_write)
    if moment == "after the poll":
        once()
    assert typed
    polls = [poll(fake, clock, capsys, started) for _ in range(2)]
    assert answered(fake, "ZZ97", first.out if moment == "before the poll" else polls[0][2]), ann_row(fake)
    assert [reads for reads, _, _ in polls] == ([0, 0] if moment == "before the poll" else [1, 0])


def test_a_players_typing_just_after_our_write_is_read_back(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    type_orders(open_match_sheets(load_config(started)), ready=False, seats=("red",))

    def after_ours(key: str, by: str) -> None:  # between our write's answer and Drive's version of it
        if key == KEYS["red"] and by == ACCOUNT:
            fake.after_edit.clear()
            fake.set_values(KEYS["red"], ann_destination(fake), [["ZZ96"]])
    fake.after_edit.append(after_ours)
    assert poll(fake, clock, capsys, started)[0] == 1
    state = load_state(state_path(started))
    assert state is not None and KEYS["red"] in state.written  # Drive names her last: read it back
    reads, _, out = poll(fake, clock, capsys, started)
    assert reads == 1 and answered(fake, "ZZ96", out)


@pytest.mark.parametrize("offset", [timedelta(minutes=1), timedelta(minutes=-1)])
def test_a_machine_clock_a_minute_off_loses_nothing(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        offset: timedelta) -> None:
    google = Clock(fake, monkeypatch)
    machine: Callable[[], datetime] = lambda: google.now + offset  # noqa: E731 - the cron machine's clock
    monkeypatch.setattr("sheets_gm.commands.base.clock", machine)
    match = start_match(tmp_path, google, capsys)
    for step in range(40):  # forty minutes of cron, across the 30-minute file index
        if step % 7 == 3:
            type_orders(open_match_sheets(load_config(match)), ready=False, seats=("red",))
            gm_types(fake, f"Z{step}")  # then the GM, on our account, in the same minute
            reads, _, out = poll(fake, google, capsys, match)
            assert reads >= 1 and answered(fake, f"Z{step}", out), (step, out)
        else:
            poll(fake, google, capsys, match)
        if step % 7 == 4:
            gm_types(fake, f"Y{step}")  # right after our answer, Google's clock seconds away from the machine's
            reads, _, out = poll(fake, google, capsys, match)
            assert reads == 1 and answered(fake, f"Y{step}", out), (step, out)


def test_spreadsheets_in_a_shared_drive_are_seen_through_the_change_log(
        fake: GoogleApiFake, clock: Clock, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    for key in KEYS.values():
        fake.spreadsheets[key].drive_id = "0AMatchDrive"
    match = start_match(tmp_path, clock, capsys)
    assert poll(fake, clock, capsys, match)[0] == 0  # idle: nothing read
    type_orders(open_match_sheets(load_config(match)), ready=False, seats=("red",))
    reads, _, out = poll(fake, clock, capsys, match)
    assert reads == 1 and "feedback cells updated" in out
    assert poll(fake, clock, capsys, match)[0] == 0
    clock.tick(30)  # the file index sees shared drives too
    type_orders(open_match_sheets(load_config(match)), ready=False, seats=("blue",))
    reads, _, out = poll(fake, clock, capsys, match)
    assert (fake.calls(FILES), reads) == (1, 1) and "feedback cells updated" in out


def test_the_fake_lists_a_shared_drives_files_only_when_asked_for_every_drive(fake: GoogleApiFake) -> None:  # noqa: F811
    fake.spreadsheets[KEYS["red"]].drive_id = "0AMatchDrive"
    log = DriveChangeLog(fake_client())
    token = log.start_token()
    fake.set_values(KEYS["red"], "A1", [["a test edit"]])
    assert KEYS["red"] in log.since(token).changed  # our list asks for every drive's items
    plain = fake_client().http_client.request("get", "https://www.googleapis.com/drive/v3/changes",
                                              params={"pageToken": token, "fields": "changes(fileId)"}).json()
    assert plain.get("changes", []) == []  # Drive leaves shared drives' files out unless told
    assert log.version(KEYS["red"]).drive_id == "0AMatchDrive"



def doctor_lines(capsys: pytest.CaptureFixture[str], config: Path, name: str) -> list[str]:
    """Doctor's lines of the check ``name`` (each with its fix, if any)."""
    out = run(capsys, "doctor", "-c", config)[1]
    return [line for line in out.splitlines() if line[2:].startswith(f"{name}:")]


def test_doctor_says_the_match_is_in_my_drive_and_the_gate_sees_its_edits(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sheets_gm.doctor.drive.machine_now", lambda: clock.now)
    assert doctor_lines(capsys, started, "drive") == [
        "✔ drive: the spreadsheets are 4 in My Drive; Drive's lists show each of them, so the sync sees their edits "
        "at the next poll"]
    assert doctor_lines(capsys, started, "clock") == [
        "✔ clock: this machine's clock agrees with Google's (within 5 s)"]


def test_doctor_says_the_match_is_in_a_shared_drive_and_the_gate_sees_its_edits(
        fake: GoogleApiFake, clock: Clock, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sheets_gm.doctor.drive.machine_now", lambda: clock.now)
    for key in KEYS.values():
        fake.spreadsheets[key].drive_id = "0AMatchDrive"
    match = start_match(tmp_path, clock, capsys)
    assert doctor_lines(capsys, match, "drive") == [
        "✔ drive: the spreadsheets are 4 in the shared drive 0AMatchDrive; Drive's lists show each of them, so the "
        "sync sees their edits at the next poll"]
    type_orders(open_match_sheets(load_config(match)), ready=False, seats=("red",))  # a test edit, seen by the gate
    assert poll(fake, clock, capsys, match)[0] == 1


def test_doctor_names_both_drives_of_a_match_split_between_them(
        fake: GoogleApiFake, clock: Clock, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sheets_gm.doctor.drive.machine_now", lambda: clock.now)
    for key in (KEYS["red"], KEYS["blue"]):
        fake.spreadsheets[key].drive_id = "0AMatchDrive"
    match = start_match(tmp_path, clock, capsys)
    assert doctor_lines(capsys, match, "drive") == [
        "✔ drive: the spreadsheets are 2 in My Drive; 2 in the shared drive 0AMatchDrive; Drive's lists show each of "
        "them, so the sync sees their edits at the next poll"]


def test_doctor_warns_of_a_machine_clock_a_minute_off_googles(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sheets_gm.doctor.drive.machine_now", lambda: clock.now + timedelta(minutes=1))
    lines = doctor_lines(capsys, started, "clock")
    assert lines[0].startswith("⚠ clock: this machine's clock is 60 s ahead of Google's")
    monkeypatch.setattr("sheets_gm.doctor.drive.machine_now", lambda: clock.now - timedelta(seconds=3))
    assert doctor_lines(capsys, started, "clock")[0].startswith("✔ clock")
