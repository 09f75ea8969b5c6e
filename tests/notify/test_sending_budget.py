"""A war's notices at war size (issue 89, item 7) against the real local SMTP server: a mail account's daily sending
budget (``[notify.email] daily_limit``, recipients a day, every match of the host together) is kept; what is past
it waits, said to the GM with when it goes, and goes when the budget frees; the counts the GM reads are true."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest

from sheets_gm.match.notify_settings import NotifySettings
from sheets_gm.notify.announce import BUDGET, keep_alarms
from sheets_gm.notify.outbox import EMAIL, Letter, Outbox
from sheets_gm.notify.send import send_waiting
from tests.notify.servers import smtp_server
from tests.notify.test_channels import mail_settings

NOON = datetime(2026, 11, 28, 12, 30, tzinfo=UTC)
#: A side's players: a sixth of a war's 288, the budgets below a sixth of a war's too (the counting does not depend
#: on the size, and each letter is a message through the real server: the war's size cost 4 CPU s a run).
SIDE = tuple(f"p{n:03d}@notices.example" for n in range(48))


@pytest.fixture(autouse=True)
def password(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tests.notify.servers import PASSWORD

    monkeypatch.setenv("NOTICE_TEST_PASSWORD", PASSWORD)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # the host's record, the budget's too


def _at(moment: datetime) -> datetime:
    return moment


def _opened(key: str, to: tuple[str, ...]) -> Letter:
    return Letter(key, EMAIL, "phyrexia", "[War] Turn 1 is open", "Orders close at 17:00.", NOON.isoformat(), to)


def _receipt(n: int) -> Letter:
    return Letter(f"war/mail-receipt/{n}", EMAIL, f"r{n}", "Re: my orders", "Read: 1 line.", NOON.isoformat(),
                  (f"r{n}@notices.example",))


def test_the_days_budget_is_kept_across_matches_and_what_waits_goes_when_it_frees(tmp_path: Path) -> None:
    with smtp_server() as (server, port):
        notify = NotifySettings(frozenset(), None, {}, email=replace(mail_settings(port), daily_limit=60))
        war, other = Outbox(tmp_path / "war"), Outbox(tmp_path / "other")
        war.add([_opened("war/1/opened/phyrexia", SIDE), *(_receipt(n) for n in range(40))])
        done = send_waiting(war, notify, lambda: NOON)
        assert len(server.messages) == 60  # the side's 48, and 12 receipts
        line = done.line()
        assert "1 sent" not in line and "13 sent (60 e-mail addresses)" in line, line
        assert "28 waiting" in line and "daily_limit" in line and "2026-11-29T13:00" in line, line
        keep_alarms(war, done)  # what cron's quiet poll tells the GM, once
        assert "daily_limit" in war.alarms()[BUDGET]["error"]
        other.add([_opened("other/1/opened/red", ("red@notices.example",))])
        assert "waiting" in send_waiting(other, notify, lambda: NOON + timedelta(hours=3)).line()  # one account
        assert len(server.messages) == 60
        later = NOON + timedelta(hours=25)
        assert "28 sent" in send_waiting(war, notify, lambda: later).line()
        assert "1 sent" in send_waiting(other, notify, lambda: later).line()
    got = [to for (to,), _message in server.messages]
    assert len(got) == len(set(got)) == 89  # each address its letter once
    assert war.waiting() == [] and other.waiting() == []


def test_a_letter_the_budget_cuts_keeps_those_who_had_it_and_goes_to_the_rest_later(tmp_path: Path) -> None:
    with smtp_server() as (server, port):
        notify = NotifySettings(frozenset(), None, {}, email=replace(mail_settings(port), daily_limit=20))
        box = Outbox(tmp_path / "war")
        box.add([_opened("war/1/opened/phyrexia", SIDE)])
        send_waiting(box, notify, lambda: NOON)
        (waiting,) = box.waiting()
        assert len(waiting.sent_to) == 20 and len(waiting.pending) == 28 and "daily_limit" in waiting.error
        for later in (NOON + timedelta(hours=25), NOON + timedelta(hours=50)):
            send_waiting(box, notify, partial(_at, later))
    got = [to for (to,), _message in server.messages]
    assert sorted(got) == sorted(SIDE) and box.waiting() == []
