"""Notices of a Google match polled through the Drive gate (the stateful fake of Sheets and Drive): a notice that
waits for a retry is sent by the next idle poll, which still makes no Sheets request; a reminder falling due
takes a poll past the gate once, which answers from the reads it kept when Drive names no change."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from sheets_gm.notify.outbox import Outbox
from sheets_gm.sync.deadline import stamp_deadline
from tests.commands.test_commands_google import KEYS
from tests.commands.test_drive_gate import Clock, clock, fake, made_started, poll, started
from tests.fakes.google_api import GoogleApiFake
from tests.notify.servers import Fault, webhook_server

__all__ = ["clock", "fake", "made_started", "started"]

CHAT = '\n[notify]\nreminder = "1h"\n[notify.chat]\nstyle = "slack"\nurl_env = "NOTICES_HOOK"\ntimeout = 5\n'


def test_an_idle_google_poll_sends_what_waits_without_a_sheets_request(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICES_HOOK", hook.url)
        started.write_text(started.read_text(encoding="utf-8") + CHAT, encoding="utf-8")
        hook.faults.append(Fault(503))
        reads, _, out = poll(fake, clock, capsys, started)  # the config changed: this poll reads
        assert reads > 0 and "503" in out and "1 waiting" in out, out
        assert [w.tries for w in Outbox.of(started).waiting()] == [1]
        reads, drive, out = poll(fake, clock, capsys, started)
        assert (reads, drive) == (0, 1), "the retry is made by an idle poll"
        assert "Notices: 1 sent." in out, out
        assert len(hook.posts) == 1 and "Turn 1 is open" in hook.texts()[0]
        board = f"https://docs.google.com/spreadsheets/d/{KEYS['board']}/edit"
        assert f"The board: {board}" in hook.texts()[0], "the channel's notice links the board"
        reads, _, out = poll(fake, clock, capsys, started)
        assert reads == 0 and len(hook.posts) == 1 and "Notices" not in out


def test_a_reminder_falling_due_is_sent_once_from_the_kept_reads(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICES_HOOK", hook.url)
        started.write_text(started.read_text(encoding="utf-8") + CHAT, encoding="utf-8")
        deadline = clock.now + timedelta(minutes=95)  # 13:37; its reminder is due an hour before, at 12:37
        # the engine record's deadline cell (B10), as a deadline schedule would have set it
        fake.set_values(KEYS["engine"], "Engine!B10", [[stamp_deadline(deadline, "UTC")]], user_entered=False)
        poll(fake, clock, capsys, started)  # reads (config and engine changed): turn 1 opened
        assert len(hook.posts) == 1
        clock.tick(20)
        reads, _, _ = poll(fake, clock, capsys, started)  # 12:24: nothing due
        assert reads == 0 and len(hook.posts) == 1
        clock.tick(14)
        # 12:39: the reminder fell due: the poll goes on past the gate, and with no spreadsheet changed (Drive)
        # answers from the reads it kept: still no Sheets request
        reads, _, _ = poll(fake, clock, capsys, started)
        assert reads == 0 and any("closes in 58 min" in t for t in hook.texts()), hook.texts()
        reads, _, _ = poll(fake, clock, capsys, started)
        assert reads == 0 and sum("closes in" in t for t in hook.texts()) == 1
