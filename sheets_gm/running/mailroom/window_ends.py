"""When each window of a match ended, as the judge's mailbox sees it, so that a mail read late is filed for the window
open at its arrival (ruling "Mail to the judge": a mail counts at the time the mailbox received it, never when a poll
read it).

The mail record keeps, by window key and in the order the windows came, ``[deadline, label, closed]``: the players'
deadline that governed the window once it passed (as the engine keeps it; '' while none did), its label, and the
moment it closed (ISO; '' while open). The deadline is kept by the first poll past it (``deadline.close_sealed``);
the moment a window closed is the engine's own (``MatchRecord.last``: the resolution that closed it, written with it,
so that a poll cut after it or a mailbox read days later finds it the same), taken by the door at its next read. An
``undo`` that reopens a window makes it the open one again: its end and every later window's are forgotten, and a
mail arriving after it counts for it again. The door learns of it when it next reads mail: a window reopened and
closed again before then keeps its first end. The windows one poll closed before the last (the judge's, then the
movement taken early) take the last one's moment: the same poll's."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from sheets_gm.sync.deadline import deadline_moment

#: A window's end as the record keeps it: its deadline, its label, the moment it closed.
Ends = dict[str, list[str]]


def seen_open(ends: Ends, key: str, label: str, last: Mapping[str, str]) -> None:
    """Note what the door sees: the window ``key`` (``label``) open, and the last resolution's window closed at its
    moment (``last``, the engine's ``MatchRecord.last``; a step of the open window closes nothing)."""
    if _padded(ends.get(key, []))[2]:  # closed, and open again: an undo reopened it (its deadline kept)
        keys = list(ends)
        for later in keys[keys.index(key) + 1:]:  # the windows it took back
            del ends[later]
        ends[key] = [*_padded(ends[key])[:2], ""]
    closed, at = last.get("window", ""), last.get("at", "")
    if closed and at and closed != key:
        ends[closed] = [*_padded(ends.get(closed, ["", f"window {closed}"]))[:2], at]
        for other, said in ends.items():  # closed by the same poll before it (or, unseen, by then at the latest)
            if other != key and not _padded(said)[2]:
                ends[other] = [*_padded(said)[:2], at]
    ends.setdefault(key, ["", label, ""])


def deadline_passed(ends: Ends, key: str, deadline: str, label: str) -> None:
    """Note the players' deadline ``deadline`` of the open window ``key`` passed."""
    ends[key] = [deadline, label, _padded(ends.get(key, []))[2]]


def arrived_in_closed(ends: Ends, received: datetime, open_key: str) -> str:
    """Why a mail the server received at ``received`` is read for no window now: the window open at its arrival (the
    one of the earliest end not before it) is not ``open_key``, the one open now, but one that has closed since
    (adjudicated: nothing of it is read for a later turn; after its deadline: late). '' when it arrived in the open
    window."""
    closed = []
    for key, (kept, label, closed_at) in ((k, _padded(said)) for k, said in ends.items()):
        deadline = deadline_moment(kept)
        end = deadline_moment(closed_at) or deadline
        if key != open_key and end is not None and received <= end:
            closed.append((end, deadline, label))
    if not closed:
        return ""
    end, deadline, label = min(closed, key=lambda found: found[0])
    if deadline is not None and received > deadline:
        return (f"it reached the judge's mailbox after the deadline of {label} ({deadline:%a %d %b %H:%M} UTC), "
                f"while {label} was still open: too late for it, and read for no later turn; it is kept in the "
                "judge's record")
    when = f"before the deadline of {label} ({deadline:%a %d %b %H:%M} UTC)" if deadline is not None else \
        f"while {label} was open (it closed {end:%a %d %b %H:%M} UTC)"
    return (f"it reached the judge's mailbox {when}, but the mailbox could be read only after {label} was "
            "adjudicated: nothing of it is read for a later turn; it is kept in the judge's record (tell the "
            "judge)")


def _padded(said: list[str]) -> list[str]:
    """An end as kept, three items long (a record written before the moment of closing was kept has two)."""
    return [*said, "", "", ""][:3]
