"""A window the judge closes herself (``Window.sealed``: the Coalition's battle results): the players' deadline, then
the judge.

The window's deadline (the record's) is the players': it closes what they send the judge (the strategies). Only
then is the judge's part open, and it stays open until the judge marks it done (her Ready, the Coalition's Results
in), or until a judge's deadline of its own when the game sets one (``Window.judge_hours`` after the players'),
or until the GM resolves it. Nothing the judge typed is applied before: her Ready ticked while the players' part is
open is not taken yet. A window without a deadline has no players' part: the judge's Ready closes it, as any seat's.

>>> from dataclasses import replace
>>> from sheets_gm.engine.ruleset import JUDGE, Window
>>> results = Window("3/results", "turn 3 · battle results", "results", (JUDGE,), 3, sealed="strategies")
>>> players = "2026-11-28T14:21+00:00[UTC]"
>>> before, after = datetime(2026, 11, 28, 14, 0, tzinfo=UTC), datetime(2026, 11, 28, 14, 21, 6, tzinfo=UTC)
>>> judging(results, players, before), judging(results, players, after)
(False, True)
>>> closing_deadline(results, players, before), closing_deadline(results, players, after)
('2026-11-28T14:21+00:00[UTC]', '')
>>> judge_due(results, players, after, ready=False), judge_due(results, players, after, ready=True)
('', 'the judge marked the results done')
>>> closing_deadline(replace(results, judge_hours=24), players, after)
'2026-11-29T14:21+00:00[UTC]'
>>> judge_part_words(results, players)
'strategies close Sat 28 Nov, 14:21 (UTC) · results close when the judge marks them done'
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sheets_gm.engine.ruleset import Window
from sheets_gm.sync.deadline import deadline_moment, describe_deadline, stamp_deadline


def sealed_words(window: Window) -> str:
    """What the players' deadline of the judge's ``window`` closes: what they send her (``Window.sealed``) and the
    next window whose orders it takes early (``Window.early``), as a line says it.

    >>> from sheets_gm.engine.ruleset import JUDGE
    >>> early = Window("4", "turn 4 · orders", "orders", ("coalition", "phyrexia"), 4)
    >>> sealed_words(Window("3/results", "turn 3 · battle results", "results", (JUDGE,), 3, sealed="strategies",
    ...                     early=early))
    'strategies and turn 4 · orders'
    """
    return f"{window.sealed} and {window.early.label}" if window.early is not None else window.sealed


def judging(window: Window | None, deadline: str, now: datetime) -> bool:
    """Whether ``window`` is the judge's own and its players' ``deadline`` (the record's) has passed at ``now``: the
    judge's part is open."""
    moment = deadline_moment(deadline)
    return window is not None and bool(window.sealed) and moment is not None and now >= moment


def judge_deadline(window: Window, deadline: str) -> str:
    """The judge's deadline of her own (``judge_hours`` after the players' ``deadline``, in its time zone), as the
    record keeps a deadline; '' when the game sets none (the judge's part closes when she marks it done)."""
    moment = deadline_moment(deadline)
    if moment is None or not window.sealed or window.judge_hours <= 0:
        return ""
    later = moment + timedelta(hours=window.judge_hours)
    zone = deadline.partition("[")[2].rstrip("]")
    try:
        return stamp_deadline(later.astimezone(ZoneInfo(zone)), zone) if zone else later.isoformat(timespec="minutes")
    except (ZoneInfoNotFoundError, ValueError):
        return later.astimezone(UTC).isoformat(timespec="minutes")


def closing_deadline(window: Window | None, deadline: str, now: datetime) -> str:
    """When the open ``window`` closes next, as seen at ``now``: its ``deadline``, or once the judge's part of a
    judge's window is open, the judge's deadline ('' for none: she marks it done). What the poll's gate waits for,
    and the notices' reminders."""
    if window is None or not judging(window, deadline, now):
        return deadline
    return judge_deadline(window, deadline)


def judge_due(window: Window, deadline: str, now: datetime, *, ready: bool) -> str:
    """Why the judge's ``window`` (with a players' ``deadline``) resolves at ``now`` ('' when it does not): the
    judge marked it done (``ready``) once the players' part closed, or the judge's own deadline passed."""
    if not judging(window, deadline, now):
        return ""
    if ready:
        return "the judge marked the results done"
    own = deadline_moment(judge_deadline(window, deadline))
    if own is not None and now >= own:
        return f"the judge's deadline {describe_deadline(judge_deadline(window, deadline))} has passed"
    return ""


def _judge_close(window: Window, deadline: str) -> str:
    own = judge_deadline(window, deadline)
    return f"results close {describe_deadline(own)} (the judge's deadline), or when the judge marks them done" \
        if own else "results close when the judge marks them done"


def judge_part_words(window: Window, deadline: str) -> str:
    """The status line's words for a judge's window with a players' ``deadline``: what closes when."""
    return f"{sealed_words(window)} close {describe_deadline(deadline)} · {_judge_close(window, deadline)}"


def judge_line(window: Window, deadline: str, now: datetime, *, ready: bool) -> str:
    """What a poll, ``status`` and the notices say of a judge's window with a players' ``deadline`` ('' for another
    window): once that deadline passed, that the deadline moved from the players' to the judge's, and why; before
    it, with the judge's Ready ticked, that it is taken only then."""
    if not window.sealed or deadline_moment(deadline) is None:
        return ""
    if not judging(window, deadline, now):
        return (f"The judge marked the results of {window.label} done before the {window.sealed} close: they are "
                f"applied as they stand at {describe_deadline(deadline)}, when the {window.sealed} close (untick it "
                f"to judge the {window.sealed} first)") if ready else ""
    closed = sealed_words(window)
    return (f"{closed[:1].upper()}{closed[1:]} closed {describe_deadline(deadline)} (the players' "
            f"deadline); the judge's window for {window.label} is open now, and nothing the judge typed is "
            f"applied before it closes: {_judge_close(window, deadline)}")
