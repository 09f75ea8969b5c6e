"""Which mail to the judge is answered, and how: the judge's address is never a relay of backscatter.

A mail is answered once, to its ``From`` alone (``receipts``), unless:

- it was written by a robot (``Mail.answer`` False: ``Auto-Submitted``, a bounce, a list, our own address);
- it replies to one of the judge's own answers (its ``In-Reply-To`` or ``References`` names one): an
  auto-responder that sets no robot header would otherwise get a receipt at every poll, and answer it;
- its address is no player's (not in the roster's ``email`` column, nor the config's ``gm_emails``), or its
  sender is not proven (``Mail.unproven``: a player's address forged): it gets, at most once a day, one short line
  that echoes nothing of the mail (no subject, no text), or nothing at all (``[mailbox] answer_strangers = false``);
  and all such addresses together get no more short lines a day than one address gets receipts (a thousand forged
  senders cost the judge's address twenty mails, not a thousand);
- its address has had ``[mailbox] receipts_per_day`` answers already on the day the server received it.

The mail is read and filed all the same (a player's reply to her receipt with orders in it is typed as ever); only
its answer is left out, and ``status`` counts each kind (``status.mail_status_lines``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping

from sheets_gm.engine.ruleset import Roster
from sheets_gm.engine.words import counted
from sheets_gm.mailbox.message import Mail
from sheets_gm.match.mailbox_settings import RECEIPTS_PER_DAY, MailboxSettings
from sheets_gm.notify.mail import letter_id
from sheets_gm.running.mailroom.receipts import letter_key
from sheets_gm.running.mailroom.record import MailEntry

#: Why a mail gets no answer, as ``MailEntry.silent`` keeps it, and in words for ``status``.
SILENT: Mapping[str, str] = {
    "robot": "written by robots",
    "reply": "replying to the judge's answers",
    "stranger": "from addresses of no player",
    "strangers": "from addresses of no player past the day's short answers to them",
    "cap": "past an address's receipts of the day",
}


def player_addresses(roster: Roster, gm_emails: Collection[str]) -> frozenset[str]:
    """The addresses the judge answers in full: each roster row's ``email`` and the GMs'."""
    return frozenset(a.strip().lower() for a in (*(m.email for m in roster.members), *gm_emails) if a.strip())


def _replies_to(mail: Mail, answered: Collection[str]) -> bool:
    """Whether ``mail`` names one of the judge's answers (their Message-IDs' left parts ``answered``) in its
    ``In-Reply-To`` or ``References``."""
    said = " ".join(mail.headers.get(name, "") for name in ("In-Reply-To", "References"))
    return any(found.split("@", 1)[0] in answered for found in re.findall(r"<([^<>\s]+)>", said))


class Answering:
    """The answers of a match's mail so far (its record's ``entries``), to decide a new mail's: the addresses the
    judge answers in full (``players``: ``player_addresses``), ``[mailbox]``'s limits (``settings``; None: the
    defaults), and the match's id (an answer's key)."""

    def __init__(self, entries: Collection[MailEntry], players: Collection[str], settings: MailboxSettings | None,
                 match: str) -> None:
        self.players, self.match = players, match
        self.cap = settings.receipts_per_day if settings is not None else RECEIPTS_PER_DAY
        self.strangers = settings.answer_strangers if settings is not None else True
        self.answered: Counter[tuple[str, str]] = Counter((e.sender, e.day) for e in entries if e.answer)
        self.brief: Counter[str] = Counter(e.day for e in entries if e.answer and e.brief)  # strangers' by day
        self.ids = {e.answer_id for e in entries if e.answer_id}

    def decide(self, entry: MailEntry, mail: Mail) -> None:
        """Set on the new ``entry`` of ``mail`` whether it is answered, how, and why not (see the module notes)."""
        entry.day = mail.received.date().isoformat()
        today = self.answered[(entry.sender, entry.day)]
        if not mail.answer:
            entry.silent = "robot"
        elif _replies_to(mail, self.ids):
            entry.silent = "reply"
        elif entry.sender not in self.players or mail.unproven:
            entry.brief = True
            if today or not self.strangers:
                entry.silent = "stranger"
            elif self.brief[entry.day] >= self.cap:
                entry.silent = "strangers"
        elif today >= self.cap:
            entry.silent = "cap"
        entry.answer = not entry.silent
        if entry.answer:
            entry.answer_id = letter_id(letter_key(self.match, entry.key))
            self.answered[(entry.sender, entry.day)] += 1
            self.brief[entry.day] += entry.brief
            self.ids.add(entry.answer_id)


def unanswered_line(entries: Collection[MailEntry]) -> str:
    """``status``'s line of the mail not answered, counted by why, and of the short answers to addresses of no
    player ('' when every mail got its receipt)."""
    counts = {code: sum(1 for e in entries if e.silent == code) for code in SILENT}
    brief = sum(1 for e in entries if e.brief and e.answer)
    said = []
    if any(counts.values()):
        said.append(f"Not answered: {counted(sum(counts.values()), 'mail')} ("
                    + ", ".join(f"{n} {SILENT[code]}" for code, n in counts.items() if n) + ")")
    if brief:
        said.append(f"{counted(brief, 'short answer')} to addresses of no player (one a day each at most, and as "
                    "many a day in all as one address gets receipts)")
    return "; ".join(said) + "." if said else ""
