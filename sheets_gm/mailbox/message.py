"""A mail as the judge's mailbox reads it: plain, frozen data, made from the raw message by the reader and handed to
whatever files it (a movement post, a battle strategy), which never sees the raw message."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Mail:
    """One mail of the judge's mailbox, read once.

    ``uid`` is the server's UID in the folder (with ``uidvalidity``), ``message_id`` the ``Message-ID`` header (or
    one made from the UID and UIDVALIDITY when the mail has none): together they make a mail handled once across
    polls and restarts. ``sender`` is the ``From`` address in lower case, ``sender_name`` its display name.
    ``received`` is when the judge's server received it (IMAP's INTERNALDATE, aware, UTC): lateness is judged on
    it, never on the sender's own ``Date`` header. ``subject`` is decoded; ``text`` is the new text only (an
    HTML-only mail read as its text; quoted replies and a signature left out), lines joined by ``\\n``.

    ``problems`` says what of the mail was not read and why, in words for its sender (an attachment, a charset read
    as UTF-8, a mail cut at its size limit). ``refused`` is why nothing of it is read ('' when it is read):
    a failed DKIM or SPF check for its ``From`` domain, no text at all (an attachment only). ``answer`` is False
    for a mail that must never be answered (``Auto-Submitted``, a bounce, a mail from our own address), so that
    two robots never write to each other for ever.
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

    @property
    def lines(self) -> list[str]:
        """The text's lines that hold anything, stripped of the white space around them."""
        return [line.strip() for line in self.text.splitlines() if line.strip()]
