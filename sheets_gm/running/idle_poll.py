"""Whether a poll of a match may stay idle, and cron's idle poll of a local match, decided before anything loads.

A poll the gate finds idle (nothing changed, no deadline due: ``poll_gate``) stays idle only when it has
something to say again (the last full poll's line, or nothing at all for ``--quiet``) and the open window's
reminder has not fallen due (a reminder needs a read, to know whom to remind), and no mail waits in the judge's
mailbox (``mail_check``, which loads the IMAP client only for a match with a ``[mailbox]``). Standard library only, as
``poll_gate.idle`` and ``notify.outbox`` are: cron's idle sync of a local match decides here before any game,
sheet or config code loads (``commands/sync.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path

from sheets_gm.engine.plain import Plain
from sheets_gm.notify.due import Due, due_without_letters
from sheets_gm.poll_gate.idle import idle_local_poll
from sheets_gm.poll_gate.state import PollState

#: The config whose mailbox this poll has asked already and found nothing new in (``mailbox_asked``): it is not
#: asked a second time for the poll to stay idle.
_MAIL_ASKED: ContextVar[Path | None] = ContextVar("mail_asked", default=None)


@contextmanager
def mailbox_asked(config_path: Path) -> Iterator[None]:
    """Within it, the poll of the match configured by ``config_path`` has asked its mailbox (the door of
    ``running.mailroom``), which held nothing new: ``may_stay_idle`` does not ask it again (one round trip a poll)."""
    token = _MAIL_ASKED.set(config_path)
    try:
        yield
    finally:
        _MAIL_ASKED.reset(token)


def may_stay_idle(state: PollState, notices: Due, *, quiet: bool, config_path: Path) -> bool:
    """Whether a poll the gate found idle stays so: a line to say again (or ``quiet``), no reminder due, and no mail
    in the judge's mailbox (asked last, and only of a match with a ``[mailbox]``: ``mail_check``; not again when
    this poll's door asked it: ``mailbox_asked``)."""
    if not (quiet or state.summary) or notices.reminder:
        return False
    if _MAIL_ASKED.get() == config_path:
        return True
    from sheets_gm.running.mail_check import mail_waiting

    return not mail_waiting(config_path)


class IdleSync(Plain):
    """Cron's idle poll of a local match: the last full poll's state, which it says again (its warning and line;
    for ``serve``, the open window's deadline and whether the match is over), and whether letters wait for a retry
    (sent then, reading no spreadsheet). A plain class: no ``dataclasses`` on the idle path."""

    __slots__ = ("letters_waiting", "state")

    def __init__(self, state: PollState, letters_waiting: bool) -> None:
        self.state = state
        self.letters_waiting = letters_waiting


def idle_local_sync(config_path: Path, now: datetime, *, quiet: bool) -> IdleSync | None:
    """The idle poll of the local match configured by ``config_path`` when it may stay idle, else None: the
    poll reads (a Google match always asks Drive first: ``host.polls``)."""
    state = idle_local_poll(config_path, now)
    if state is None:
        return None
    notices = due_without_letters(config_path, now)
    if notices is None:  # letters wait: the outbox tells which may be tried now
        from sheets_gm.notify.outbox import due

        notices = due(config_path, now)
    if not may_stay_idle(state, notices, quiet=quiet, config_path=config_path):
        return None
    return IdleSync(state, notices.letters > 0)
