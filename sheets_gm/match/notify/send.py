"""Sending what waits in the outbox: each channel tried once per poll, never holding the poll up for long.

Letters go oldest first. A channel that fails as a whole (no server, no login, a timeout, a rate limit) is
not tried again in the same sending: its other letters wait for the next poll, marked with why, so a server
that is down costs a poll one connection attempt (at most ``timeout`` seconds), not one per letter. A letter
refused on its own (an address the mail server refuses) stays too, with the server's words, until the GM
mends what it names; nothing is ever dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sheets_gm.match.notify.channel import SendError
from sheets_gm.match.notify.outbox import CHAT, EMAIL, Letter, Outbox
from sheets_gm.match.notify.settings import NotifySettings

Clock = Callable[[], datetime]


@dataclass
class Sending:
    """What one sending did: letters sent, letters still waiting (with their errors), and whether another
    process was sending (then this one sent nothing)."""

    sent: list[Letter] = field(default_factory=list)
    waiting: list[Letter] = field(default_factory=list)
    busy: bool = False

    def line(self) -> str:
        """A line for the GM: ``Notices: 3 sent, 2 waiting (chat: cannot reach …).`` ('' when nothing moved)."""
        if not self.sent and not self.waiting:
            return ""
        parts = [f"{len(self.sent)} sent"] if self.sent else []
        if self.waiting:
            why: dict[str, str] = {}  # a channel's error once: the one a letter was tried on, not the "not tried"
            for letter in sorted(self.waiting, key=lambda w: w.error.startswith("not tried: ")):
                if letter.error:
                    why.setdefault(letter.channel, letter.error.removeprefix("not tried: "))
            errors = [f"{channel}: {error}" for channel, error in sorted(why.items())]
            parts.append(f"{len(self.waiting)} waiting" + (f" ({'; '.join(errors)})" if errors else ""))
        return "Notices: " + ", ".join(parts) + "."


def send_waiting(box: Outbox, notify: NotifySettings | None, clock: Clock) -> Sending:
    """Try every letter of ``box`` that may be tried now, through the channels ``notify`` sets (None: notices
    are off, and every letter waits)."""
    with box.sending() as mine:
        if not mine:
            return Sending(waiting=box.waiting(), busy=True)
        now = clock()
        letters = box.waiting()
        done = Sending()
        due = [letter for letter in letters if letter.due(now)]
        done.waiting += [letter for letter in letters if not letter.due(now)]
        for channel in (EMAIL, CHAT):
            mine_now = [letter for letter in due if letter.channel == channel]
            if not mine_now:
                continue
            if notify is None or (notify.email if channel == EMAIL else notify.chat) is None:
                done.waiting += [box.postpone(letter, f"no [notify.{channel}] in the config now", None)
                                 for letter in mine_now]
                continue
            _send_channel(box, notify, channel, mine_now, clock, done)
        done.waiting += [letter for letter in due if letter.channel not in (EMAIL, CHAT)]
        return done


class _DownAfterLetter(Exception):
    """The channel failed on a letter, already kept with the error: the others wait."""

    def __init__(self, error: SendError) -> None:
        super().__init__(str(error))
        self.error = error


def _send_channel(box: Outbox, notify: NotifySettings, channel: str, letters: list[Letter], clock: Clock,
                  done: Sending) -> None:
    """Send ``letters`` over ``channel`` until it fails as a whole; the rest wait with why."""
    from sheets_gm.match.notify.chat import ChatHook
    from sheets_gm.match.notify.mail import MailSession

    left = list(letters)
    try:
        if channel == EMAIL:
            assert notify.email is not None
            with MailSession(notify.email) as mail:
                while left:
                    _one(box, left, mail.send, clock, done)
        else:
            assert notify.chat is not None
            hook = ChatHook(notify.chat)
            while left:
                _one(box, left, lambda letter: hook.post(letter, clock()), clock, done)
    except _DownAfterLetter as down:
        error = down.error
    except SendError as exc:  # the channel failed before any letter: the first one counts the try
        error = exc
        done.waiting.append(box.failed(left.pop(0), str(exc), clock(), exc.retry_at))
    else:
        return
    done.waiting += [box.postpone(letter, f"not tried: {error}", error.retry_at) for letter in left]


def _one(box: Outbox, left: list[Letter], send: Callable[[Letter], None], clock: Clock, done: Sending) -> None:
    """Send the first of ``left``: sent, or kept with its error (and when the whole channel failed on it,
    ``_DownAfterLetter``)."""
    letter = left.pop(0)
    try:
        send(letter)
    except SendError as exc:
        done.waiting.append(box.failed(letter, str(exc), clock(), exc.retry_at))
        if exc.down:
            raise _DownAfterLetter(exc) from None
        return
    box.sent(letter, clock())
    done.sent.append(letter)
