"""Each reader's own time (issue 63.6), against the real local servers: a seat's letters give every time in its
zone (the status line at their foot too, the resolution's news included), the channel shows the deadline with the
platform's mark that each reader's app puts in her own zone, and a reminder held up by its channel says the time
left when it goes, not when it was queued."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests.notify.servers import Fault
from tests.notify.test_delivery import played_notified_match
from tests.notify.test_notices_every_game import NOON, Clock, sync

__all__ = ["clock", "secrets"]
from tests.notify.test_notices_every_game import clock, secrets  # the fixtures, shared

pytestmark = pytest.mark.xdist_group("notices")  # one worker runs these: it makes each game's new_match once a run

#: The deadline of ``new_match``: 20:00 in Paris, 19:00 UTC, 14:00 in New York, its first seat's zone.
DEADLINE_UNIX = int(dt.datetime(2026, 11, 22, 19, tzinfo=dt.UTC).timestamp())


def test_a_seat_s_letters_give_every_time_in_its_zone_and_the_channel_in_each_reader_s(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails with the status line left in the match's zone (it said "close Sun 22 Nov, 20:00 (Europe/Paris)" at
    the foot of a letter that gave 14:00 New York above it)."""
    with played_notified_match("gvg", tmp_path, monkeypatch, clock, capsys, "sync", "turn") as (
            box, hook, config, addresses):
        far = config.seats[0]  # in America/New_York (new_match's [notify] timezones)
        letters = [m for rcpts, m in box.messages if min(addresses[far]) in rcpts]
        assert any("is open" in str(m["Subject"]) for m in letters) and any(
            "resolved" in str(m["Subject"]) for m in letters), [str(m["Subject"]) for m in letters]
        for message in letters:
            body = message.get_content()
            assert "Europe/Paris" not in body and "(America/New_York)" in body, body
        near = config.seats[1]
        assert all("(Europe/Paris)" in m.get_content() for rcpts, m in box.messages
                   if min(addresses[near]) in rcpts and "is open" in str(m["Subject"]))
        told = [t for t in hook.texts() if " is open" in t]
        assert told and all(f"<t:{DEADLINE_UNIX}:F>" in t and "Europe/Paris" not in t for t in told), told


def test_a_reminder_held_up_says_the_time_left_when_it_goes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The webhook down when the reminder is queued, nine minutes before the deadline; up a minute later: the post
    says "closes in 8 min". Fails with ``send.as_sent`` taken out."""
    with played_notified_match("winordie", tmp_path, monkeypatch, clock, capsys, "sync") as (_box, hook, config, _):
        hook.faults.append(Fault(500))
        clock.now = NOON + dt.timedelta(hours=6, minutes=51)  # 18:51 UTC: 9 minutes before the deadline
        sync(config, capsys)
        assert not [t for t in hook.texts() if "closes in" in t]
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        (reminder,) = [t for t in hook.texts() if "closes in" in t]
        assert "closes in 8 min" in reminder and "9 min" not in reminder, reminder
