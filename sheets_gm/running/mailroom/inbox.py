"""The judge's mailbox of a configured match as the door uses it (``door.Inbox``): the reader's new mail, each
begun in the mailbox's ledger before anything of its filing is written, finished after its receipt is queued
(the ledger keeps that alone; what the mail said and what was made of it is the door's record), then
flagged handled on the server. A mailbox that cannot be read holds nothing else back: the poll runs without its
mail, and the trouble is said once (the ledger remembers what it said)."""

from __future__ import annotations

from collections.abc import Sequence
from email.utils import parseaddr

from sheets_gm.mailbox.errors import MailboxError
from sheets_gm.mailbox.ledger import MailLedger
from sheets_gm.mailbox.message import Mail
from sheets_gm.mailbox.reader import mark_handled, new_mail
from sheets_gm.match.config import MatchConfig


class MailboxInbox:
    """The configured ``[mailbox]`` of ``config`` (which must have one); ``said`` collects what the GM is told."""

    def __init__(self, config: MatchConfig) -> None:
        assert config.mailbox is not None
        self.config = config
        self.settings = config.mailbox
        self.ledger = MailLedger.for_match(config)
        self.said: list[str] = []
        self.done: list[Mail] = []

    def own_addresses(self) -> tuple[str, ...]:
        """The judge's own addresses: the mailbox's login and the notices' sender (never answered)."""
        email = self.config.notify.email if self.config.notify is not None else None
        found = [self.settings.user, parseaddr(email.sender)[1] if email is not None else ""]
        return tuple(a.lower() for a in found if "@" in a)

    def new_mail(self) -> Sequence[Mail]:
        """The mail to file now, begun in the ledger at once; none (and the trouble said once) when it cannot be
        read."""
        try:
            mails = new_mail(self.settings, self.ledger, own_addresses=self.own_addresses())
        except MailboxError as exc:
            if self.ledger.trouble(exc.kind, str(exc)):
                self.said.append(f"the judge's mailbox: {exc}")
            return []
        if self.ledger.mended():
            self.said.append("the judge's mailbox is read again")
        self.ledger.begin(*mails)
        return mails

    def finish(self, mails: Sequence[Mail]) -> None:
        """The mails were filed and their receipts queued (each mail answered: ``Mail.answer``): the ledger says so
        at once (what came of each is the door's record), and ``close`` has the server flag them."""
        self.ledger.finish(*mails)
        self.done += mails

    def say(self, text: str) -> None:
        """Tell the GM ``text`` after the poll."""
        self.said.append(text)

    def close(self) -> None:
        """Flag the finished mail handled on the server (harmless when it fails: the ledger knows them)."""
        try:
            mark_handled(self.settings, self.ledger, self.done)
        except MailboxError as exc:
            if self.ledger.trouble(exc.kind, str(exc)):
                self.said.append(f"the judge's mailbox: {exc}")
