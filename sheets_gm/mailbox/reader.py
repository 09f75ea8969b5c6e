"""A poll's one call to the judge's mailbox: the mail to file now (``new_mail``), and the flags set on mail filed
(``mark_handled``).

``new_mail`` asks the folder's UIDNEXT and UIDVALIDITY first (STATUS: one round trip). When they say nothing
arrived since the last UID the ledger knows and nothing waits to be filed again, it returns at once: an idle poll
never opens the folder, searches it or downloads anything. Otherwise it reads, in UID order, the mail after that
UID (or, the first time and after a UIDVALIDITY change, every mail not flagged handled, known ones left out by
their Message-ID) and the mail begun and not finished (a poll cut while filing it), and hands them over.

The caller files each mail in the order given: ``ledger.begin(mail)``, its filing's writes (idempotent),
``ledger.finish(mail)``; then ``mark_handled`` flags them on the server, and the ledger says so. A poll cut anywhere
hands the mail begun and not finished back to the next poll; a finished one is never handed back, and one finished
but never flagged (a poll cut before its flag) is flagged by the next poll that opens the folder.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from imapclient import IMAPClient

from sheets_gm.mailbox import client as imap
from sheets_gm.mailbox.errors import stopped
from sheets_gm.mailbox.ledger import MailLedger, MailRecord
from sheets_gm.mailbox.message import Mail, read_mail
from sheets_gm.mailbox.status import folder_status, news
from sheets_gm.match.mailbox_settings import MailboxSettings


def new_mail(settings: MailboxSettings, ledger: MailLedger, *, own_addresses: Collection[str] = ()) -> list[Mail]:
    """The mail to file now, in UID order (see the module notes); [] after one STATUS when nothing is new.
    ``own_addresses``: the judge's own (its mail is never answered). MailboxError, in words a GM can act on, when
    the mailbox cannot be read (nothing is lost: the next poll reads it)."""
    found = folder_status(settings)
    if not news(ledger, found.uidvalidity, found.uidnext):
        return []
    session = imap.connect(settings)
    try:
        return _read(session, settings, ledger, own_addresses, found.uidnext)
    except OSError as exc:
        raise stopped(settings, exc) from None
    finally:
        imap.close(session)


def _wanted(session: IMAPClient, ledger: MailLedger, uidvalidity: int) -> set[int]:
    """The UIDs to read: the new ones (or every one not flagged handled, when the folder's UIDVALIDITY is not the
    ledger's) and those of the mail begun and not finished."""
    fresh = uidvalidity != ledger.uidvalidity
    uids = set(imap.unhandled(session) if fresh else imap.after(session, ledger.last_uid))
    for record in ledger.pending():
        if record.uidvalidity == uidvalidity and not fresh:
            uids.add(record.uid)
        else:
            uids.update(imap.by_message_id(session, record.message_id))
    return uids


def _read(session: IMAPClient, settings: MailboxSettings, ledger: MailLedger, own_addresses: Collection[str],
          uidnext: int) -> list[Mail]:
    """The folder opened and its mail to file read (``new_mail`` past its idle check)."""
    uidvalidity, keyword = imap.select(session, settings)
    _flag(session, ledger, keyword, [r for r in ledger.unflagged() if r.uidvalidity == uidvalidity])
    pending = ledger.pending()
    arrivals = imap.arrivals(session, _wanted(session, ledger, uidvalidity))
    mails: list[Mail] = []
    taken: set[str] = set()
    for fetched in imap.bodies(session, arrivals):
        arrival = fetched.arrival
        mail = read_mail(fetched.raw, uid=arrival.uid, uidvalidity=uidvalidity, received=arrival.received,
                         size=arrival.size, own_addresses=own_addresses, cut=fetched.cut, unread=fetched.unread)
        if ledger.finished(mail.message_id) or mail.message_id in taken:
            ledger.skip(uidvalidity, arrival.uid, mail.message_id)  # the same mail again (a copy, a rebuilt folder)
            continue
        taken.add(mail.message_id)
        mails.append(mail)
    ledger.finish(*(r.message_id for r in pending if r.message_id not in taken), gone=True)
    if not mails:
        ledger.seen(uidvalidity, uidnext - 1)
    return mails


def _flag(session: IMAPClient, ledger: MailLedger, keyword: bool, mails: Sequence[Mail | MailRecord]) -> None:
    """Flag ``mails`` (of the open folder's UIDVALIDITY) on the server, then say so in the ledger."""
    if mails:
        imap.flag(session, sorted({m.uid for m in mails}), keyword)
        ledger.flagged(*mails)


def mark_handled(settings: MailboxSettings, ledger: MailLedger, mails: Sequence[Mail]) -> None:
    """Flag the mail filed (``\\Seen`` and ``$SheetsGmRead``) on the server, so that the judge's own mail client
    shows it read, and say so in ``ledger``; never deleted, never moved. Mail of an older UIDVALIDITY is left (its
    UID names another mail now). Nothing to flag: no connection. MailboxError when the server cannot be reached (the
    ledger, not the flag, is what makes a mail handled once: nothing is read twice for a flag missing, and the next
    poll flags it)."""
    if not mails:
        return
    session = imap.connect(settings)
    try:
        uidvalidity, keyword = imap.select(session, settings)
        _flag(session, ledger, keyword, [m for m in mails if m.uidvalidity == uidvalidity])
    except OSError as exc:
        raise stopped(settings, exc) from None
    finally:
        imap.close(session)
