"""Mail in bulk from a real IMAP server: a 10 MB mail is read as its header and first megabyte, never held whole
(the poll's memory peak stays far under the mail's size); mails by the hundred at once come in UID order, each
once, fetched in batches (a FETCH per hundred mails, not one per mail nor one for all): 250 in the test command, a
thousand under ``-m soak``."""

from __future__ import annotations

import tracemalloc
from email.message import EmailMessage
from pathlib import Path

import pytest

from sheets_gm.mailbox.client import BATCH_COUNT, SIZE_LIMIT
from sheets_gm.mailbox.ledger import MailLedger
from sheets_gm.mailbox.reader import new_mail
from tests.fakes.dovecot import Dovecot
from tests.mailbox.mails import plain, settings_of
from tests.quick import soak_but

ORDER = "Rabid Cat: Mirrodin; 3A > 4A - engage Various Puppies"


def _huge(megabytes: int) -> bytes:
    message = EmailMessage()
    message["From"], message["Subject"], message["Message-ID"] = "Ann <ann@example.org>", "huge", "<huge@example.org>"
    message.set_content(ORDER)
    message.add_attachment(bytes(range(256)) * (megabytes * 4096), maintype="image", subtype="png",
                           filename="map.png")
    return message.as_bytes()


def test_a_10_mb_mail_is_read_bounded(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    raw = _huge(10)
    assert len(raw) > 10 * SIZE_LIMIT
    dovecot.deliver(user, plain(subject="before"))
    dovecot.deliver(user, raw)
    dovecot.deliver(user, plain(subject="after"))
    del raw
    settings = settings_of(dovecot, user, tmp_path)
    tracemalloc.start()
    try:
        mails = new_mail(settings, MailLedger(tmp_path / "ledger.jsonl"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [m.subject for m in mails] == ["before", "huge", "after"]
    huge = mails[1]
    assert huge.text == ORDER and huge.size > 10 * SIZE_LIMIT and huge.refused == ""
    assert any("MB: only the start of its text was read" in p for p in huge.problems), huge.problems
    assert any("map.png" in p for p in huge.problems)
    assert peak < 6 * SIZE_LIMIT, f"peak {peak:,} bytes for a {huge.size:,}-byte mail"


@pytest.mark.parametrize("count", soak_but([1000, 250], 250))
def test_mails_by_the_hundred_at_once_are_read_in_batches(dovecot: Dovecot, tmp_path: Path, count: int) -> None:
    user = dovecot.add_user()
    for n in range(count):
        dovecot.deliver(user, plain(f"{ORDER} {n}", subject=f"mail {n}"))
    settings = settings_of(dovecot, user, tmp_path)
    ledger = MailLedger(tmp_path / "ledger.jsonl")
    mails = new_mail(settings, ledger)
    assert [m.subject for m in mails] == [f"mail {n}" for n in range(count)]
    assert len({m.message_id for m in mails}) == count
    fetches = dovecot.commands(user).count("UID FETCH")
    assert fetches == 1 + -(-count // BATCH_COUNT)  # the arrival times in one, the mail a hundred at a time
    for mail in mails:
        ledger.begin(mail)
        ledger.finish(mail)
    assert new_mail(settings, ledger) == []
