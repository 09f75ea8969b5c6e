"""A Forum tab's lines typed there from a mail to the judge are told as mailed, not pasted: the reading of a post
(``read.read_side_rows``) words every line as "the pasted post's line"; under a mail's heading
(``mail_heading.MAIL_MARK``, typed by the judge's mailbox with the sender and the time the server received it) the
line's own answer says "the mailed line", and the army's row names the mail: ``ordered by ann@example.org's mail of
Fri 27 Nov 10:05 in coalition line 3``."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.sheet.mail_heading import HEADING, MAIL_MARK
from sheets_gm.rulesets.coalition.sheet.read import ReadRows

PASTED = "the pasted post's line"


def mails_of(post: Sequence[kit.TypedRow]) -> dict[str, str]:
    """The Forum tab's rows under a mail's heading, by subject: the mail in words (``ann@example.org's mail of Fri
    27 Nov 10:05``); the rows above the first heading are the pasted post's, and are not named."""
    out: dict[str, str] = {}
    mail = ""
    for row in post:
        text = row.text("line").strip()
        if text.startswith(MAIL_MARK):
            found = HEADING.match(text)
            mail = f"{found['who'].strip()}'s mail of {found['when']}" if found else "a mail to the judge"
        elif mail:
            out[row.subject] = mail
    return out


def _mailed_words(mails: Mapping[str, str]) -> Callable[[str], str]:
    """What tells an answer of the read with each pasted post's line of a mailed row told as that mail's: two
    patterns made once for every answer of a read (a pattern per mailed row and answer made a war's read of some
    600 mailed rows quadratic, each pattern compiled again as Python's cache of them overflowed)."""
    rows = "|".join(map(re.escape, sorted(mails, key=len, reverse=True)))
    line_in = re.compile(rf"{PASTED} in ({rows})(?!\d)")
    line_for = re.compile(rf"{PASTED} for (.+?) \(({rows})(?!\d)\)")

    def told(said: str) -> str:
        if PASTED not in said:
            return said
        said = line_in.sub(lambda m: f"{mails[m[1]]} in {m[1]}", said)
        return line_for.sub(lambda m: f"the line for {m[1]} in {mails[m[2]]} ({m[2]})", said)
    return told


def as_mailed(read: ReadRows, post: Sequence[kit.TypedRow]) -> ReadRows:
    """``read`` (a side's rows read with its Forum tab's ``post``) with the answers of mailed lines, and of the
    armies they order, naming the mail (see the module notes)."""
    mails = mails_of(post)
    if not mails:
        return read
    mailed = _mailed_words(mails)
    for by_subject in (read.problems, read.notes):
        for subject, said in by_subject.items():
            told = [mailed(s) for s in said]
            by_subject[subject] = [s.replace(PASTED, "the mailed line").replace("a pasted post", "a mailed line")
                                   for s in told] if subject in mails else told
    return read
