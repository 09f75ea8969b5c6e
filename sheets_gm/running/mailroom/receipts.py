"""The receipt of a mail to the judge: to its sender alone, by ``[notify.email]`` (the outbox), saying what was read
from it and how each line was answered, or why nothing was. It quotes only the sender's own mail and the answers
her lines got; it names no other player's mail or strategy."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from sheets_gm.notify.outbox import EMAIL, Letter, iso
from sheets_gm.running.mailroom.record import MailEntry

#: The lines of each kind (refused, passed over) a receipt quotes at most: a mail of megabytes (a log pasted by
#: mistake) is said in a few lines and counted, never sent back whole.
QUOTED = 10


def receipt_body(entry: MailEntry, answers: Mapping[str, Sequence[str]], lines: Mapping[str, Sequence[str]],
                 problems: Sequence[str] = ()) -> str:
    """The receipt's text for ``entry``: ``lines`` are the lines typed by seat, ``answers`` their answers by seat
    (as the table shows them after the poll), ``problems`` what of the mail its reading left out."""
    when = datetime.fromisoformat(entry.received)
    out = [f"Your mail {entry.subject or '(no subject)'!r} reached the judge's mailbox on "
           f"{when:%a %d %b %Y at %H:%M:%S} UTC."]
    if entry.unread:
        out += ["", f"It was not read: {entry.unread}."]
    elif entry.sealed:
        s = entry.strategy
        assert s is not None
        labels = f" with the labels {', '.join(s.labels)}" if s.labels else ""
        near = "".join(f" ({word!r} read as {army})" for word, army in s.read_as)
        one = len(s.passed) == 1
        passed = f" (the title's {' and '.join(map(repr, s.passed))} {'is no army' if one else 'are no armies'} of " \
                 "that battle)" if s.passed else ""
        out += ["", f"It was filed as {s.seat}'s strategy for {s.title} ({s.subject}){labels}{near}{passed}.",
                "The judge alone reads it. A later strategy of your side for this battle replaces it (a contingency "
                "counts only when none other arrives by the battle deadline)."]
    untyped = entry.untyped()
    for seat, typed in lines.items():
        if seat in untyped:  # a mail that waits gets no receipt: this one's window closed while it waited
            out += ["", f"Its lines were never typed into {seat}'s Forum tab ({untyped[seat]}), and the window they "
                        "were read for closed meanwhile: they were not read as orders; tell the judge. The lines:"]
            out += [f"  {line}" for line in typed[:QUOTED]] + more_lines(typed)
            continue
        said = list(answers.get(seat, ()))
        read_for = f", read for {entry.read_for}" if entry.read_for else ""
        out += ["", f"Its lines, typed into {seat}'s Forum tab{read_for}, and each line's answer there:"]
        for n, line in enumerate(typed[:QUOTED]):
            out += [f"  {line}", f"    {said[n] if n < len(said) and said[n] else '(not answered yet)'}"]
        out += more_lines(typed)
    if entry.refused:
        out += ["", "Lines not read:"] + [f"  {line}\n    ✘ {why}" for line, why in entry.refused[:QUOTED]]
        out += more_lines(entry.refused)
    if entry.chatter:
        out += ["", "Passed over (no army's order): " + " / ".join(entry.chatter[:QUOTED]), *more_lines(entry.chatter)]
    if problems:
        out += ["", "Part of the mail was not read: " + "; ".join(problems[:QUOTED]), *more_lines(problems)]
    out += ["", "This is an automatic receipt from the judge's mailbox; write to the judge for anything else."]
    return "\n".join(out)


def more_lines(lines: Sequence[object]) -> list[str]:
    """The line that counts the lines of a kind a letter about a mail does not quote, past its first ``QUOTED``
    (none when it quotes them all): every letter quoting a mail's lines (a receipt's typed, refused and passed-over
    lines, an undo's lines set aside) quotes ``lines[:QUOTED]`` and this.

    >>> more_lines(["a"] * 3), more_lines(["a"] * 3_160)
    ([], ['  … and 3150 more lines of this kind, not quoted here'])
    """
    return [f"  … and {len(lines) - QUOTED} more lines of this kind, not quoted here"] if len(lines) > QUOTED else []


def letter_key(match: str, mail_key: str, kind: str = "mail-receipt") -> str:
    """The outbox key of the letter of ``kind`` (its receipt by default) about the mail ``mail_key`` of ``match``."""
    return f"{match}/{kind}/{mail_key}"


def receipt_letter(match: str, entry: MailEntry, body: str, now: datetime, kind: str = "mail-receipt", *,
                   answers: str = "") -> Letter:
    """The receipt (or another letter of ``kind`` about the mail) as a letter of the outbox to its sender alone, keyed
    by the match, the kind and the mail (queued once, whatever happens); ``answers``: the mail's Message-ID, for its
    In-Reply-To and References (kept only when it is one: ``<…>`` of printable characters). The short line of an
    address that is no player's (``entry.brief``) echoes nothing of the mail, its subject neither."""
    subject = f"Re: {entry.subject}" if entry.subject and not entry.brief else "Your mail to the judge"
    return Letter(key=letter_key(match, entry.key, kind), channel=EMAIL, recipient=entry.sender, subject=subject,
                  body=body, queued_at=iso(now), to=(entry.sender,),
                  in_reply_to=answers if re.fullmatch(r"<[!-;=?-~]{1,250}>", answers) else "")


def brief_body(entry: MailEntry, title: str, *, unproven: bool = False) -> str:
    """The one short answer of a day to an address that is no player's (``unproven``: or whose mail's sender the
    judge's mail server could not prove): nothing of its mail echoed."""
    when = datetime.fromisoformat(entry.received)
    why = ("the judge's mail server could not confirm that it comes from this address; send it again from your own "
           "mailbox" if unproven else "it is no player's address in the match's roster, and the judge reads mail from "
           "the players' own addresses only")
    return (f"A mail from this address reached the judge's mailbox of {title} on {when:%a %d %b %Y} and was not "
            f"read: {why}. This is the one answer this address gets today; mail from it is not answered again "
            "before tomorrow.")
