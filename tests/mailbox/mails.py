"""Mail as players' programs send it, for the mailbox's tests: the message's bytes, the ``[mailbox]`` settings of a
test server's user (``tests/fakes/dovecot.py``), and what a poll's filing does with the mail it is handed."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from email.header import Header
from pathlib import Path

from sheets_gm.mailbox.ledger import MailLedger
from sheets_gm.mailbox.message import Mail
from sheets_gm.mailbox.reader import mark_handled, new_mail
from sheets_gm.match.config import load_config
from sheets_gm.match.config_tables import SecretSource
from sheets_gm.match.mailbox_settings import MailboxSecurity, MailboxSettings
from tests.fakes.dovecot import Dovecot, MailUser

_IDS = itertools.count(1)


def plain(text: str = "Rabid Cat: Mirrodin; 3A > 4A - engage Various Puppies", *, sender: str = "Ann <ann@example.org>",
          subject: str = "Movement", message_id: str | None = None, headers: dict[str, str] | None = None) -> bytes:
    """A plain-text mail's bytes, UTF-8, as a mail program writes it (a Message-ID of its own unless one is given;
    none for ``message_id=""``). Written out by hand: a thousand of them are made in a blink."""
    head = {"From": sender, "To": "judge@example.org", "Subject": Header(subject, "utf-8").encode()}
    if message_id != "":
        head["Message-ID"] = message_id or f"<m{next(_IDS)}@example.org>"
    head |= (headers or {}) | {"MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8",
                               "Content-Transfer-Encoding": "8bit"}
    lines = [f"{key}: {value}" for key, value in head.items()]
    return ("\r\n".join([*lines, "", *text.splitlines()]) + "\r\n").encode("utf-8")


def settings_of(server: Dovecot, user: MailUser, folder: Path, *, security: MailboxSecurity = MailboxSecurity.NONE,
                password: str | None = None, mailbox: str = "INBOX", ca: bool = True) -> MailboxSettings:
    """The ``[mailbox]`` of ``user`` on ``server`` (its password in a file in ``folder``)."""
    secret = folder / f"{user.name}.password"
    secret.write_text(password if password is not None else user.password, encoding="utf-8")
    port = server.tls_port if security is MailboxSecurity.TLS else server.port
    return MailboxSettings(server.host, port, security, user.name, SecretSource(file=secret), mailbox,
                           server.ca_file if ca else None, 10.0)


def with_mail(server: Dovecot, folder: Path, subjects: Sequence[str]) -> tuple[MailUser, MailboxSettings, MailLedger]:
    """A new mailbox on ``server`` holding a mail per subject, its settings, and a new ledger in ``folder``."""
    user = server.add_user()
    for subject in subjects:
        server.deliver(user, plain(subject=subject))
    return user, settings_of(server, user, folder), MailLedger(folder / "ledger.jsonl")


def file_mails(ledger: MailLedger, mails: Sequence[Mail]) -> None:
    """What a poll's filing does with the mail (``reader``'s contract): each begun, filed, finished."""
    for mail in mails:
        ledger.begin(mail)
        ledger.finish(mail)


def file_all(config_path: Path) -> None:
    """The match's mailbox read, every mail filed and flagged read, as its poll does."""
    config = load_config(config_path)
    assert config.mailbox is not None
    ledger = MailLedger.for_match(config)
    mails = new_mail(config.mailbox, ledger)
    file_mails(ledger, mails)
    mark_handled(config.mailbox, ledger, mails)
