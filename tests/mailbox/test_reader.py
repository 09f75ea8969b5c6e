"""The mailbox read from a real IMAP server (Dovecot, ``tests/fakes/dovecot.py``): nothing of IMAP mocked.

An idle poll asks one STATUS and nothing else; new mail comes in UID order with the server's arrival time; mail
handled is flagged, never deleted or moved; a finished mail is never read again, across a UIDVALIDITY change too;
a wrong password, a missing folder, an untrusted certificate are said in words a GM can act on, once."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sheets_gm.mailbox.errors import MailboxError
from sheets_gm.mailbox.ledger import MailLedger
from sheets_gm.mailbox.reader import mark_handled, new_mail
from sheets_gm.match.mailbox_settings import MailboxSecurity
from tests.fakes.dovecot import Dovecot
from tests.mailbox.mails import file_mails, plain, settings_of, with_mail


def test_an_idle_poll_is_one_status_and_nothing_else(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    settings = settings_of(dovecot, user, tmp_path)
    ledger = MailLedger(tmp_path / "ledger.jsonl")
    when = datetime(2026, 3, 1, 19, 59, 30, tzinfo=UTC)
    dovecot.deliver(user, plain(subject="first"), received=when)
    dovecot.deliver(user, plain(subject="second"))
    mails = new_mail(settings, ledger)
    assert [m.subject for m in mails] == ["first", "second"] and mails[0].received == when
    assert mails[0].uid < mails[1].uid and mails[0].sender == "ann@example.org"
    file_mails(ledger, mails)
    mark_handled(settings, ledger, mails)
    dovecot.forget_commands(user)
    for _ in range(3):
        assert new_mail(settings, ledger) == []
    assert dovecot.commands(user) == ["STATUS"] * 3  # no SELECT, no SEARCH, no FETCH, not even a LOGOUT
    dovecot.deliver(user, plain(subject="third"))
    assert [m.subject for m in new_mail(settings, ledger)] == ["third"]


def test_mail_handled_is_flagged_never_deleted_nor_moved(dovecot: Dovecot, tmp_path: Path) -> None:
    user, settings, ledger = with_mail(dovecot, tmp_path, [f"mail {n}" for n in range(3)])
    mails = new_mail(settings, ledger)
    file_mails(ledger, mails)
    mark_handled(settings, ledger, mails)
    files = [p.name for p in (user.maildir / "cur").iterdir()] + [p.name for p in (user.maildir / "new").iterdir()]
    assert len(files) == 3 and all(name.endswith(",Sa") or ":2,S" in name for name in files), files
    keywords = (user.maildir / "dovecot-keywords").read_text(encoding="utf-8")
    assert "$SheetsGmRead" in keywords


def test_begun_mail_is_handed_back_and_finished_mail_never(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    settings = settings_of(dovecot, user, tmp_path)
    path = tmp_path / "ledger.jsonl"
    for n in range(3):
        dovecot.deliver(user, plain(subject=f"mail {n}"))
    first = new_mail(settings, MailLedger(path))
    ledger = MailLedger(path)
    ledger.begin(first[0])
    ledger.finish(first[0])
    ledger.begin(first[1])  # cut here: begun, never finished
    again = new_mail(settings, MailLedger(path))
    assert [m.subject for m in again] == ["mail 1", "mail 2"]
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_a_uidvalidity_change_falls_back_on_message_ids(dovecot: Dovecot, tmp_path: Path) -> None:
    user, settings, ledger = with_mail(dovecot, tmp_path, [f"old {n}" for n in range(3)])
    file_mails(ledger, new_mail(settings, ledger))
    before = ledger.uidvalidity
    # the server rebuilds the folder: a new UIDVALIDITY, every UID anew, the flags lost
    for name in os.listdir(user.maildir):
        if name.startswith("dovecot"):
            os.remove(user.maildir / name)
    for path in (user.maildir / "cur").iterdir():
        path.rename(user.maildir / "new" / path.name.split(":")[0])
    (user.maildir / "dovecot-uidlist").write_text(f"3 V{(before or 0) + 1000} N1\n", encoding="utf-8")
    dovecot.deliver(user, plain(subject="new"))
    mails = new_mail(settings, ledger)
    assert [m.subject for m in mails] == ["new"] and mails[0].uidvalidity != before
    file_mails(ledger, mails)
    assert new_mail(settings, ledger) == []


def test_begun_mail_gone_from_the_mailbox_is_finished_as_gone(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    settings = settings_of(dovecot, user, tmp_path)
    ledger = MailLedger(tmp_path / "ledger.jsonl")
    delivered = dovecot.deliver(user, plain(subject="soon gone"))
    ledger.begin(new_mail(settings, ledger)[0])
    for folder in ("new", "cur"):
        for path in (user.maildir / folder).iterdir():
            path.unlink()
    assert not delivered.exists()
    assert new_mail(settings, ledger) == []
    record = ledger.records()[0]
    assert record.finished and record.gone
    assert new_mail(settings, ledger) == []


def test_tls_and_starttls_with_the_servers_authority(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    dovecot.deliver(user, plain(subject="over tls"))
    for security in (MailboxSecurity.TLS, MailboxSecurity.STARTTLS):
        settings = settings_of(dovecot, user, tmp_path, security=security)
        assert [m.subject for m in new_mail(settings, MailLedger(tmp_path / f"{security}.jsonl"))] == ["over tls"]
    untrusted = settings_of(dovecot, user, tmp_path, security=MailboxSecurity.TLS, ca=False)
    with pytest.raises(MailboxError) as caught:
        new_mail(untrusted, MailLedger(tmp_path / "untrusted.jsonl"))
    assert caught.value.kind == "tls" and "name the PEM file of its authority in [mailbox] ca_file" in str(caught.value)


def test_wrong_password_and_missing_folder_said_once_in_words(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    ledger = MailLedger(tmp_path / "ledger.jsonl")
    wrong = settings_of(dovecot, user, tmp_path, password="not it")
    said = []
    for _ in range(3):
        with pytest.raises(MailboxError) as caught:
            new_mail(wrong, ledger)
        if ledger.trouble(caught.value.kind, str(caught.value)):
            said.append(str(caught.value))
    assert len(said) == 1 and caught.value.kind == "login"
    assert f"refused the login of {user.name}" in said[0] and "check user in [mailbox] and the password in the file" \
        in said[0]
    dovecot.add_folder(user, "Judge")
    missing = settings_of(dovecot, user, tmp_path, mailbox="Stratgies")
    with pytest.raises(MailboxError) as caught:
        new_mail(missing, ledger)
    assert caught.value.kind == "folder" and ledger.trouble(caught.value.kind, str(caught.value))
    assert "the folder 'Stratgies' cannot be opened" in str(caught.value)
    assert "the folders of" in str(caught.value) and "INBOX, Judge" in str(caught.value)
    assert new_mail(settings_of(dovecot, user, tmp_path), ledger) == [] and ledger.mended()
    assert not ledger.mended()


def test_a_server_not_there_is_said_with_what_to_check(dovecot: Dovecot, tmp_path: Path) -> None:
    from tests.notify.servers import free_port

    user = dovecot.add_user()
    settings = settings_of(dovecot, user, tmp_path)
    with pytest.raises(MailboxError) as caught:
        new_mail(settings.replaced(port=free_port()), MailLedger(tmp_path / "ledger.jsonl"))
    assert caught.value.kind == "connect" and "cannot be reached" in str(caught.value)
    assert "check host and port" in str(caught.value)
