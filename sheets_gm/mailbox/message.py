"""A mail as the judge's mailbox reads it: plain, frozen data, made from the raw message by the reader
(``read_mail``) and handed to whatever files it (a movement post, a battle strategy), which never sees the raw
message.

The message is parsed by the standard ``email`` package with its ``compat32`` policy, and the few headers read
are decoded with ``email.header``: ``policy.default`` makes an object of every header each time one is read
(some 8 ms a mail here, 9 s for a thousand), where a war's turn brings hundreds of mails to a poll."""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesParser
from email.policy import compat32
from email.utils import getaddresses

from sheets_gm.mailbox.body import html_text, new_text
from sheets_gm.mailbox.trust import forged, never_answer

#: The most text read of one mail (a strategy is a few pages; a longer text is cut, and its sender told).
MAX_TEXT = 100_000
#: The headers a Mail keeps, for the record and for a reply (``In-Reply-To``, ``References``).
KEPT_HEADERS = ("From", "To", "Cc", "Reply-To", "Date", "Subject", "Message-ID", "In-Reply-To", "References",
                "Auto-Submitted", "Return-Path")


@dataclass(frozen=True, slots=True)
class Mail:
    """One mail of the judge's mailbox, read once.

    ``uid`` is the server's UID in the folder (with ``uidvalidity``), ``message_id`` the ``Message-ID`` header (or,
    when the mail has none, one made from a hash of its header, the same after a UIDVALIDITY change): together they
    make a mail handled once across polls and restarts. ``sender`` is the ``From`` address in lower case,
    ``sender_name`` its display name. ``received`` is when the judge's server received it (IMAP's INTERNALDATE,
    aware, UTC): lateness is judged on it, never on the sender's own ``Date`` header. ``subject`` is decoded;
    ``text`` is the new text only (an HTML-only mail read as its text; quoted replies and a signature left out),
    lines joined by ``\\n``.

    ``problems`` says what of the mail was not read and why, in words for its sender (an attachment, a charset read
    as UTF-8, a mail cut at its size limit). ``refused`` is why nothing of it is read ('' when it is read):
    a failed DKIM or SPF check for its ``From`` domain, no text at all (an attachment only). ``answer`` is False
    for a mail that must never be answered (``Auto-Submitted``, a bounce, a mail from our own address), so that
    two robots never write to each other for ever; ``silent`` says why.
    """

    uid: int
    uidvalidity: int
    message_id: str
    sender: str
    sender_name: str
    received: datetime
    subject: str
    text: str
    problems: tuple[str, ...] = ()
    attachments: tuple[str, ...] = ()
    refused: str = ""
    answer: bool = True
    size: int = 0
    headers: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    silent: str = ""  # why it is never answered ('' when ``answer``)
    unproven: bool = False  # its sender's domain failed the server's DKIM, SPF or DMARC check: a forged sender

    @property
    def lines(self) -> list[str]:
        """The text's lines that hold anything, stripped of the white space around them."""
        return [line.strip() for line in self.text.splitlines() if line.strip()]


def _header(message: Message, name: str) -> str:
    """A header's value, its encoded words (RFC 2047) decoded and white space folded ('' when absent); a charset
    that is not known leaves the words as written, bytes that are not UTF-8 are replaced."""
    value = message.get(name)
    if value is None:
        return ""
    text = str(value).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    with contextlib.suppress(LookupError, ValueError, UnicodeError, HeaderParseError):
        text = str(make_header(decode_header(text)))
    return " ".join(text.split())


def _raw(value: object) -> str:
    """A header's value as written (no encoded word decoded), its bytes that are not UTF-8 replaced, its folding
    undone."""
    text = str(value).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return re.sub(r"\r?\n(?=[ \t])", "", text)


def _decoded_name(name: str) -> str:
    """A display name with its encoded words decoded, its control characters and runs of white space one space."""
    with contextlib.suppress(LookupError, ValueError, UnicodeError, HeaderParseError):
        name = str(make_header(decode_header(name)))
    return " ".join(_CONTROL.sub(" ", name).split())


#: A control character (C0, DEL, C1): never part of an address, and taken out of a display name.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _sender(message: Message) -> tuple[str, str, str]:
    """The ``From`` address (lower case), its display name, and why neither is believed ('' when they are).

    The address is parsed from the header as the judge's server received it, and only the display name is decoded
    (RFC 2047 allows no encoded word in an address: ``=?us-ascii?q?ann=40example.org?=`` is no address at all, and
    the DKIM, SPF and DMARC checks of the server saw no player's domain in it). A mail with more than one ``From``
    header, or one that names no address or several, names no single sender."""
    found = message.get_all("From") or []
    if len(found) != 1:
        return "", "", (f"it has {len(found)} From headers" if found else "it has no From header") + \
            ", and a mail is read as its one sender"
    raw = _raw(found[0])
    addresses = [(name, addr) for name, addr in getaddresses([raw]) if addr]
    if len(addresses) != 1:
        return "", "", "its From header holds no address, or several"
    name, addr = addresses[0]
    if "@" not in addr and "=?" not in addr:
        return "", "", f"its From header holds no address with a domain ({addr[:80]!r})"
    if "=?" in addr or _CONTROL.search(addr):
        return "", "", (f"its From address {_CONTROL.sub('?', addr)[:80]!r} is no address (an encoded word or a "
                        "control character in it): write from your own mailbox, whose address is plain")
    return addr.strip().lower(), _decoded_name(name), ""
def _decoded(part: Message, problems: list[str]) -> str:
    """A text part's text in its charset; an unknown charset read as UTF-8, bytes that do not decode replaced, each
    said in ``problems``."""
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    charset = part.get_content_charset() or "us-ascii"
    try:
        codecs.lookup(charset)
    except LookupError:
        problems.append(f"its charset {charset!r} is unknown: it was read as UTF-8, and a character that is not "
                        "UTF-8 shows as \ufffd; send it as UTF-8")
        charset = "utf-8"
    text = data.decode(charset, errors="replace")
    if "\ufffd" in text and not any("charset" in p for p in problems):
        problems.append(f"some of its text is not {charset}: those characters show as \ufffd")
    return text


def _attachment_name(part: Message) -> str:
    """An attachment as its sender knows it: its file name, else its kind."""
    try:
        name = part.get_filename()
    except (ValueError, IndexError, TypeError, LookupError):
        name = None
    return str(name).strip() if name and str(name).strip() else f"a part of type {part.get_content_type()}"


def _text_and_attachments(message: Message, problems: list[str]) -> tuple[str, list[str]]:
    """The mail's text (its first plain text, else its first HTML read as text) and the attachments it was not read
    from (every other part but the text's other forms)."""
    texts: list[Message] = []
    attachments: list[str] = []
    for part in message.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        if part.get_content_disposition() == "attachment" or kind not in ("text/plain", "text/html"):
            attachments.append(_attachment_name(part))
        else:
            texts.append(part)
    body = next((p for p in texts if p.get_content_subtype() == "plain"), texts[0] if texts else None)
    if body is None:
        return "", attachments
    raw = _decoded(body, problems)
    return (html_text(raw) if body.get_content_subtype() == "html" else raw), attachments


def message_id(message: Message, raw: bytes) -> str:
    """The mail's ``Message-ID``; one made from a hash of its header when it has none (the same mail gives the
    same one, whatever its UID)."""
    found = _header(message, "Message-ID")
    if found:
        return found
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    return f"<{hashlib.sha256(head).hexdigest()[:32]}@no-message-id.invalid>"


def read_mail(raw: bytes, *, uid: int, uidvalidity: int, received: datetime, size: int,
              own_addresses: Collection[str] = (), cut: bool = False, unread: Collection[str] = ()) -> Mail:
    """The mail of the raw message ``raw``: its sender, subject and new text, what of it was
    not read and why, whether it is refused and whether it may be answered (see ``Mail``). ``cut``: ``raw`` is
    the mail's header and only the first part of its body (a mail over the reader's size limit, ``size`` bytes in
    all), its other parts, not fetched, named in ``unread``."""
    message = BytesParser(policy=compat32).parsebytes(raw)
    problems: list[str] = []
    if cut:
        problems.append(f"it is {size / 1e6:.1f} MB: only the start of its text was read (a strategy or an order is "
                        "text of a few pages; send attachments and pictures elsewhere)")
    sender, name, no_sender = _sender(message)
    text, attachments = _text_and_attachments(message, problems)
    attachments += list(unread)
    text = new_text(text)
    if len(text) > MAX_TEXT:
        problems.append(f"its text is {len(text):,} characters long: only the first {MAX_TEXT:,} were read")
        text = text[:MAX_TEXT]
    if attachments:
        problems.append("attachments are not read (strategies and orders are read from the mail's text): "
                        + ", ".join(attachments))
    failed = forged(message, sender) if sender else ""
    refused = (f"it names no single sender: {no_sender}" if no_sender else failed or _no_text(text, attachments))
    silent = never_answer(message, sender, own_addresses) if sender else "it names no single sender in its From"
    headers = {key: value for key in KEPT_HEADERS if (value := _header(message, key))}
    return Mail(uid=uid, uidvalidity=uidvalidity, message_id=message_id(message, raw), sender=sender,
                sender_name=name, received=received, subject=_header(message, "Subject"), text=text,
                problems=tuple(problems), attachments=tuple(attachments), refused=refused, answer=not silent,
                size=size, headers=headers, silent=silent, unproven=bool(failed))


def _no_text(text: str, attachments: list[str]) -> str:
    """Why nothing of a mail with no text is read ('' when it has text)."""
    if not text.strip():
        return ("it holds attachments only, and strategies and orders are read from the mail's text: write them in "
                "the mail itself" if attachments else "it has no text (a quoted reply or a signature is not read)")
    return ""
