"""A mail's heading line in a side's Forum tab, as the judge's mailbox types it above the mail's lines
(``running.mailroom.typing.heading``): ``✉ ann@example.org, Fri 27 Nov 10:05:31 UTC: moves #8fb9d1``. Its mark tells
the reading to pass over it; its sender and the time the judge's mailbox received the mail name the mail; that time
orders the mails of a tab (ruling "Mail to the judge": a mail counts at its arrival, whenever it was typed)."""

from __future__ import annotations

import re
from collections.abc import Sequence

#: The mark that begins a mail's heading line in a side's Forum tab: the reading passes over it.
MAIL_MARK = "✉"
#: The heading as the mailbox types it: who sent the mail, and when the server received it (to the minute, seconds).
HEADING = re.compile(rf"^{MAIL_MARK}\s*(?P<who>[^,]+), (?P<when>\w{{3}} \d{{2}} \w{{3}} \d{{2}}:\d{{2}}):\d{{2}} UTC:")
_RECEIVED = re.compile(r"\b(?P<day>\d{2}) (?P<month>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                       r"(?P<time>\d{2}:\d{2}:\d{2}) UTC\b")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def arrival_ranks(headings: Sequence[str]) -> list[int]:
    """Each heading's place (1 for the mail received first) among ``headings`` (a tab's, top to bottom) by the time
    the judge's mailbox received its mail, as the heading says it: a mail typed late (it waited for the mailbox or for
    room) takes its place by its arrival, not by its row. Mails of the same second, and a heading whose time cannot
    be read (typed by hand), keep their order in the tab (the latter right after the heading above it). The heading
    names no year: a tab's mails span days, so one of January to June beside one of December is of the next year.

    >>> arrival_ranks(["✉ a@x.org, Fri 27 Nov 10:05:31 UTC: moves", "✉ b@x.org, Fri 27 Nov 09:00:00 UTC: old",
    ...                "✉ by hand", "✉ c@x.org, Thu 31 Dec 23:59:59 UTC: x", "✉ d@x.org, Fri 01 Jan 00:00:01 UTC: y"])
    [3, 1, 2, 4, 5]
    """
    found = [_RECEIVED.search(text) for text in headings]
    months = {_MONTHS.index(m["month"]) + 1 for m in found if m}
    wraps = bool(months) and max(months) - min(months) > 6
    keys: list[tuple[int, int, str]] = []
    for m in found:
        if m is None:
            keys.append(keys[-1] if keys else (0, 0, ""))
            continue
        month = _MONTHS.index(m["month"]) + 1
        keys.append((month + 12 if wraps and month <= 6 else month, int(m["day"]), m["time"]))
    order = sorted(range(len(headings)), key=lambda i: (keys[i], i))
    ranks = [0] * len(headings)
    for rank, i in enumerate(order, 1):
        ranks[i] = rank
    return ranks
