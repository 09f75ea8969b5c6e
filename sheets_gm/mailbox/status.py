"""The question an idle poll asks the judge's mailbox: a login and one STATUS (UIDVALIDITY, UIDNEXT), compared with
the ledger's last UID (``waiting``); nothing opened, searched or downloaded.

Standard library only (``imaplib``): cron's idle poll runs in a fresh process every minute, and the IMAP client the
reading uses (``client``, over ``imapclient``) would cost it twice as much to load as the whole question takes
(some 60 ms of a core against 30). For two commands (LOGIN, STATUS) the standard library's client is
enough: it leaves nothing to parse here but one line. What fails is said as the reading says it (``errors``).
Neither ``dataclasses`` nor ``typing`` is loaded on this path (``engine.plain``).
"""

from __future__ import annotations

import base64
import contextlib
import imaplib
import re

from sheets_gm.engine.plain import Plain
from sheets_gm.mailbox.errors import (
    connecting,
    no_folder,
    password,
    refused_login,
    starttls_if_asked,
    stopped,
    tls_context,
)
from sheets_gm.mailbox.ledger import MailLedger
from sheets_gm.match.mailbox_settings import MailboxSecurity, MailboxSettings

_FIGURE = re.compile(rb"\b(UIDVALIDITY|UIDNEXT)\s+(\d+)", re.IGNORECASE)


class FolderStatus(Plain):
    """What the server says of the folder: its UIDVALIDITY and UIDNEXT, and whether it offers IDLE."""

    __slots__ = ("idle", "uidnext", "uidvalidity")

    def __init__(self, uidvalidity: int, uidnext: int, idle: bool) -> None:
        self.uidvalidity, self.uidnext, self.idle = uidvalidity, uidnext, idle


def quoted(name: str) -> str:
    """A folder's name as IMAP takes it: modified UTF-7 (RFC 3501, 5.1.3) for what is not printable ASCII, in
    quotes.

    >>> quoted("INBOX"), quoted('Judge "2"'), quoted("Stratégies")
    ('"INBOX"', '"Judge \\\\"2\\\\""', '"Strat&AOk-gies"')
    """
    out: list[str] = []
    pending = ""
    for char in name + "\0":
        if char != "\0" and not 0x20 <= ord(char) <= 0x7E:
            pending += char
            continue
        if pending:
            coded = base64.b64encode(pending.encode("utf-16-be")).decode("ascii").rstrip("=").replace("/", ",")
            out.append(f"&{coded}-")
            pending = ""
        if char != "\0":
            out.append("&-" if char == "&" else char)
    text = "".join(out)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _open(settings: MailboxSettings) -> imaplib.IMAP4:
    """The connection, encrypted as ``security`` says; MailboxError when it cannot be made."""
    with connecting(settings):
        if settings.security is MailboxSecurity.TLS:
            return imaplib.IMAP4_SSL(settings.host, settings.port, ssl_context=tls_context(settings),
                                     timeout=settings.timeout)
        connection = imaplib.IMAP4(settings.host, settings.port, timeout=settings.timeout)
    starttls_if_asked(settings, connection.starttls, lambda: _close(connection))
    return connection


def _close(connection: imaplib.IMAP4) -> None:
    """Close the connection without waiting for the server to answer a LOGOUT: the question asked, the poll has no
    more to say, and a server takes a closed connection as the end of the session (RFC 3501 asks no LOGOUT of a
    client). One round trip fewer for every idle poll."""
    with contextlib.suppress(OSError, imaplib.IMAP4.error):
        connection.shutdown()


def _folders(connection: imaplib.IMAP4) -> list[str]:
    """The folders' names as the server lists them ([] when it does not say)."""
    try:
        kind, lines = connection.list()
    except (OSError, imaplib.IMAP4.error):
        return []
    names = []
    for line in lines if kind == "OK" else []:
        if isinstance(line, bytes):
            found = re.search(rb'\)\s+(?:"[^"]*"|NIL)\s+(.+)$', line)
            if found:
                names.append(found[1].decode("utf-8", "replace").strip().strip('"'))
    return names


def folder_status(settings: MailboxSettings) -> FolderStatus:
    """The folder's UIDVALIDITY and UIDNEXT, and the server's IDLE: a login and one STATUS, then the connection
    closed (``_close``). MailboxError, in words, for anything that fails."""
    secret = password(settings)
    connection = _open(settings)
    try:
        try:
            connection.login(settings.user, secret)
        except imaplib.IMAP4.error as exc:
            if isinstance(exc, imaplib.IMAP4.abort):
                raise stopped(settings, exc) from None
            raise refused_login(settings, exc) from None
        kind, answer = connection.status(quoted(settings.folder), "(UIDVALIDITY UIDNEXT)")
        figures = {key.upper(): int(value) for key, value in _FIGURE.findall(b" ".join(
            a for a in answer if isinstance(a, bytes)))}
        if kind != "OK" or len(figures) != 2:
            raise no_folder(settings, answer, _folders(connection))
        return FolderStatus(figures[b"UIDVALIDITY"], figures[b"UIDNEXT"], "IDLE" in connection.capabilities)
    except (OSError, imaplib.IMAP4.abort) as exc:
        raise stopped(settings, exc) from None
    except imaplib.IMAP4.error as exc:
        raise no_folder(settings, exc, _folders(connection)) from None
    finally:
        _close(connection)


def news(ledger: MailLedger, uidvalidity: int, uidnext: int) -> bool:
    """Whether the folder's STATUS, or the ledger, says there is mail to file or to flag: mail after the last UID the
    ledger knows, the folder rebuilt (a new UIDVALIDITY, or never read), mail begun and not finished, mail finished
    and never flagged read (a poll cut before its flag)."""
    return (uidvalidity != ledger.uidvalidity or uidnext - 1 > ledger.last_uid or bool(ledger.pending())
            or bool(ledger.unflagged()))


def waiting(settings: MailboxSettings, ledger: MailLedger) -> bool:
    """Whether a poll has mail to file or to flag (``news``); mail begun and not finished, or never flagged,
    answers without asking the server. MailboxError when the mailbox cannot be asked."""
    if ledger.pending() or ledger.unflagged():
        return True
    found = folder_status(settings)
    return news(ledger, found.uidvalidity, found.uidnext)
