"""The judge's IMAP server, spoken to through ``imapclient`` (which parses the server's FETCH answers, UIDs, flags
and IDLE for us, where the standard library's ``imaplib`` leaves all of that to its caller).

A session opens with ``connect`` (TLS, STARTTLS or, on this computer alone, none; then the login) and asks only
what a poll that has mail needs (an idle poll asks one STATUS, over the standard library: ``status``): the
UIDs after the last one read, the arrival time and size of each, the mail itself in batches, a mail over the size
limit as its header and first part only (``bodies``), and the flags that mark mail handled (``flag``). Mail is
read with ``BODY.PEEK`` (nothing is marked read before it is handled), never deleted, never moved.

Every failure is a ``MailboxError`` in words a GM can act on: what failed, and what to change (``errors``).
"""

from __future__ import annotations

import contextlib
import imaplib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from sheets_gm.mailbox import errors
from sheets_gm.mailbox.errors import MailboxError, connecting, starttls_if_asked, tls_context
from sheets_gm.match.mailbox_settings import MailboxSecurity, MailboxSettings

#: The keyword set on mail handled, beside ``\\Seen`` (a mail client shows it; the judge may search by it).
HANDLED = "$SheetsGmRead"
#: A mail over this size is read as its header and first part only: memory stays bounded whatever is sent.
SIZE_LIMIT = 1_000_000
#: The most of a header read (a real one is a few kilobytes).
HEADER_LIMIT = 64_000
#: The most of the first part read of a mail over ``SIZE_LIMIT`` (a strategy is a few pages).
PART_LIMIT = 256_000
#: Mails fetched in one request at most, and the most bytes of mail one request brings.
BATCH_COUNT = 100
BATCH_BYTES = 4_000_000


@dataclass(frozen=True, slots=True)
class Arrival:
    """What the server says of one mail before it is read: its UID, when it arrived, its size in bytes."""

    uid: int
    received: datetime
    size: int


def connect(settings: MailboxSettings) -> IMAPClient:
    """A session logged in to the mailbox (no folder selected yet). MailboxError, in words, for a password that
    cannot be read, a server not reached, a TLS failure, a login refused."""
    secret = errors.password(settings)
    client = _open(settings)
    try:
        client.login(settings.user, secret)
    except LoginError as exc:
        _drop(client)
        raise errors.refused_login(settings, exc) from None
    except (IMAPClientError, OSError) as exc:
        _drop(client)
        raise errors.stopped(settings, exc) from None
    return client


def _open(settings: MailboxSettings) -> IMAPClient:
    """The connection, encrypted as ``security`` says; MailboxError when it cannot be made."""
    tls = settings.security is MailboxSecurity.TLS
    with connecting(settings):
        client = IMAPClient(settings.host, port=settings.port, ssl=tls,
                            ssl_context=tls_context(settings) if tls else None, timeout=settings.timeout)
    client.normalise_times = False  # arrival times with their zone, never the local clock's
    starttls_if_asked(settings, client.starttls, lambda: _drop(client))
    return client


def _drop(client: IMAPClient) -> None:
    """Close a session whatever its state (a failed one may not log out)."""
    try:
        client.logout()
    except (IMAPClientError, OSError, imaplib.IMAP4.error):
        with contextlib.suppress(IMAPClientError, OSError):
            client.shutdown()


def close(client: IMAPClient) -> None:
    """Log out (a session cut short by the server is closed anyway)."""
    _drop(client)


def _folder_error(client: IMAPClient, settings: MailboxSettings, exc: BaseException) -> MailboxError:
    """The folder could not be opened: name the folders there are, when the server says."""
    try:
        names = [str(name) for _flags, _sep, name in client.list_folders()]
    except (IMAPClientError, OSError):
        names = []
    return errors.no_folder(settings, exc, names)


def select(client: IMAPClient, settings: MailboxSettings) -> tuple[int, bool]:
    """Open the folder for reading and flagging; its UIDVALIDITY, and whether it keeps our keyword."""
    try:
        found = client.select_folder(settings.folder)
    except (IMAPClientError, imaplib.IMAP4.error) as exc:
        raise _folder_error(client, settings, exc) from None
    permanent = {bytes(f) for f in found.get(b"PERMANENTFLAGS", ())}
    return int(found[b"UIDVALIDITY"]), b"\\*" in permanent or HANDLED.encode() in permanent


def after(client: IMAPClient, uid: int) -> list[int]:
    """The UIDs of the open folder above ``uid``, ascending (``UID n:*`` names the last mail even below ``n``: it
    is left out)."""
    return sorted(u for u in client.search(["UID", f"{uid + 1}:*"]) if u > uid)


def unhandled(client: IMAPClient) -> list[int]:
    """The UIDs of the open folder's mail not flagged handled, ascending."""
    return sorted(client.search(["UNKEYWORD", HANDLED]))


def by_message_id(client: IMAPClient, message_id: str) -> list[int]:
    """The UIDs of the open folder's mail with that ``Message-ID``."""
    return sorted(client.search(["HEADER", "Message-ID", message_id]))


def arrivals(client: IMAPClient, uids: Iterable[int]) -> list[Arrival]:
    """Each mail's arrival time (INTERNALDATE, aware, UTC) and size, in UID order, asked ``BATCH_COUNT`` × 10 at a
    time (a few bytes each)."""
    wanted = sorted(uids)
    found: list[Arrival] = []
    step = BATCH_COUNT * 10
    for start in range(0, len(wanted), step):
        answer = client.fetch(wanted[start:start + step], ["INTERNALDATE", "RFC822.SIZE"])
        for uid in sorted(answer):
            data = answer[uid]
            when = data[b"INTERNALDATE"]
            found.append(Arrival(uid, when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC),
                                 int(data[b"RFC822.SIZE"])))
    return found


def _batches(mails: list[Arrival]) -> Iterator[list[Arrival]]:
    """The mails in UID order, in batches: a mail over ``SIZE_LIMIT`` alone, the others together, at most
    ``BATCH_COUNT`` mails and ``BATCH_BYTES`` bytes a batch."""
    batch: list[Arrival] = []
    total = 0
    for mail in sorted(mails, key=lambda m: m.uid):
        large = mail.size > SIZE_LIMIT
        if batch and (large or len(batch) >= BATCH_COUNT or total + mail.size > BATCH_BYTES):
            yield batch
            batch, total = [], 0
        if large:
            yield [mail]
            continue
        batch.append(mail)
        total += mail.size
    if batch:
        yield batch


@dataclass(frozen=True, slots=True)
class Fetched:
    """One mail as fetched: its bytes, whether they are cut (a mail over ``SIZE_LIMIT``: its header and first part
    only), and the parts not fetched, by name (``map.png``, ``a part of type image/png``)."""

    arrival: Arrival
    raw: bytes
    cut: bool = False
    unread: tuple[str, ...] = ()


def bodies(client: IMAPClient, mails: list[Arrival]) -> Iterator[Fetched]:
    """Each mail, in UID order: one up to ``SIZE_LIMIT`` whole, in batches (``_batches``); one over it alone, as
    its header and the first ``PART_LIMIT`` bytes of its first part, its other parts named (``_first_part``).
    Nothing is marked read (``BODY.PEEK``); a mail gone meanwhile is left out."""
    for batch in _batches(mails):
        if batch[0].size > SIZE_LIMIT:
            found = _first_part(client, batch[0])
            if found is not None:
                yield found
            continue
        answer = client.fetch([m.uid for m in batch], ["BODY.PEEK[]"])
        for mail in batch:
            if mail.uid in answer:
                yield Fetched(mail, bytes(answer[mail.uid].get(b"BODY[]") or b""))


def _first_part(client: IMAPClient, mail: Arrival) -> Fetched | None:
    """A mail over the size limit: its structure and header, then its first part (at most ``PART_LIMIT``), as one
    message of those bytes; memory never holds more, whatever the mail's size."""
    answer = client.fetch([mail.uid], ["BODYSTRUCTURE", f"BODY.PEEK[HEADER]<0.{HEADER_LIMIT}>"])
    if mail.uid not in answer:
        return None
    structure = answer[mail.uid][b"BODYSTRUCTURE"]
    head = bytes(answer[mail.uid].get(b"BODY[HEADER]<0>") or b"")
    if not structure.is_multipart:
        text = client.fetch([mail.uid], [f"BODY.PEEK[TEXT]<0.{PART_LIMIT}>"]).get(mail.uid, {})
        return Fetched(mail, head + bytes(text.get(b"BODY[TEXT]<0>") or b""), cut=True)
    part = client.fetch([mail.uid], ["BODY.PEEK[1.MIME]", f"BODY.PEEK[1]<0.{PART_LIMIT}>"]).get(mail.uid, {})
    own = _own_header(head)
    raw = own.rstrip(b"\r\n") + b"\r\n" + bytes(part.get(b"BODY[1.MIME]") or b"\r\n") + bytes(
        part.get(b"BODY[1]<0>") or b"")
    others = [name for sub in structure[0][1:] for name in _part_names(sub)]
    return Fetched(mail, raw, cut=True, unread=tuple(others))


def _own_header(head: bytes) -> bytes:
    """The mail's header without its own MIME lines (``Content-*``, ``MIME-Version``, each with its folded
    continuations), which its first part's header replaces when that part is read as the message."""
    kept: list[bytes] = []
    dropping = False
    for line in head.splitlines(keepends=True):
        if line[:1] not in (b" ", b"\t"):
            dropping = line[:8].lower() == b"content-" or line[:13].lower() == b"mime-version:"
        if not dropping:
            kept.append(line)
    return b"".join(kept)


def _part_names(part: Any) -> list[str]:
    """The names of a BODYSTRUCTURE part's leaves: a file name, else a ``name`` parameter, else the kind."""
    if getattr(part, "is_multipart", False):
        return [name for sub in part[0] for name in _part_names(sub)]
    fields = list(part)
    for found in fields:
        if isinstance(found, tuple) and len(found) == 2 and isinstance(found[1], tuple):
            pairs = dict(zip(found[1][::2], found[1][1::2], strict=False))
            name = pairs.get(b"filename") or pairs.get(b"FILENAME")
            if name:
                return [_text(name)]
    params = fields[2] if len(fields) > 2 and isinstance(fields[2], tuple) else ()
    pairs = dict(zip(params[::2], params[1::2], strict=False))
    name = pairs.get(b"name") or pairs.get(b"NAME")
    kind = f"{_text(fields[0]).lower()}/{_text(fields[1]).lower()}" if len(fields) > 1 else "unknown"
    return [_text(name) if name else f"a part of type {kind}"]


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def flag(client: IMAPClient, uids: list[int], keyword: bool) -> None:
    """Mark the open folder's mail ``uids`` handled: ``\\Seen`` and, where the folder keeps keywords, ``HANDLED``.
    Never deleted, never moved."""
    flags: list[str | bytes] = [b"\\Seen", *([HANDLED] if keyword else [])]
    for start in range(0, len(uids), BATCH_COUNT * 10):
        client.add_flags(uids[start:start + BATCH_COUNT * 10], flags, silent=True)
