"""The mailbox's ledger alone: a mail begun and not finished is pending across a reopening, a finished one never;
a poll's mails begun and finished at once; a line cut mid-write by a crash is read as nothing and the next line
stays whole; an undone window hands its mail back; a trouble is said once; the file is the GM's alone."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sheets_gm.mailbox.ledger import MailLedger
from sheets_gm.mailbox.message import Mail, read_mail
from tests.mailbox.mails import plain


def _mail(uid: int) -> Mail:
    return read_mail(plain(subject=f"mail {uid}", message_id=f"<{uid}@example.org>"), uid=uid, uidvalidity=7,
                     received=datetime(2026, 3, 1, 20, uid, tzinfo=UTC), size=100)


def test_begun_is_pending_until_finished_across_reopening(tmp_path: Path) -> None:
    path = tmp_path / "state" / "ledger.jsonl"
    ledger = MailLedger(path)
    one, two, three = _mail(1), _mail(2), _mail(3)
    ledger.begin(one, two, three)
    ledger.finish(one)
    again = MailLedger(path)
    assert [r.uid for r in again.pending()] == [2, 3] and again.last_uid == 3 and again.uidvalidity == 7
    assert again.finished(one.message_id) and not again.finished(two.message_id)
    record = again.record(one.message_id)
    assert record is not None and (record.uidvalidity, record.uid, record.gone) == (7, 1, False)
    assert b"ann@example.org" not in path.read_bytes()  # who sent what is the filing's record, not the ledger's
    assert oct(path.stat().st_mode & 0o777) == "0o600" and oct(path.parent.stat().st_mode & 0o777) == "0o700"


def test_a_line_cut_by_a_crash_is_nothing_and_the_next_stays_whole(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger = MailLedger(path)
    ledger.begin(_mail(1))
    with path.open("ab") as cut:
        cut.write(b'{"op":"begin","message_id":"<2@exa')  # the crash: half a line, no newline
    reopened = MailLedger(path)
    assert [r.uid for r in reopened.pending()] == [1]
    reopened.begin(_mail(3))
    assert [r.uid for r in MailLedger(path).pending()] == [1, 3]


def test_a_trouble_is_said_once_and_its_end_once(tmp_path: Path) -> None:
    ledger = MailLedger(tmp_path / "ledger.jsonl")
    assert ledger.trouble("login", "refused") and not ledger.trouble("login", "refused again")
    assert not MailLedger(tmp_path / "ledger.jsonl").trouble("login", "still")
    assert ledger.trouble("folder", "missing")
    assert ledger.mended() and not ledger.mended()


def test_an_older_ledger_with_receipt_lines_reads_as_before(tmp_path: Path) -> None:
    """Older versions wrote a ``receipt`` line per answered mail: a fact the door's record keeps (whether a mail is
    answered, and why not); it is read as nothing, and nothing writes it any more."""
    path = tmp_path / "ledger.jsonl"
    MailLedger(path).begin(_mail(1), _mail(2))
    with path.open("ab") as old:
        old.write(b'{"op":"receipt","message_id":"<1@example.org>"}\n')
    ledger = MailLedger(path)
    ledger.finish(_mail(1))
    again = MailLedger(path)
    assert [r.uid for r in again.pending()] == [2] and again.finished("<1@example.org>")
    assert path.read_bytes().count(b'"receipt"') == 1
