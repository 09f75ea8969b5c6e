"""Mail as players' programs send it, for the mailbox's tests: the message's bytes, and the ``[mailbox]`` settings
of a test server's user (``tests/fakes/dovecot.py``)."""

from __future__ import annotations

import itertools
from email.header import Header
from pathlib import Path

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
