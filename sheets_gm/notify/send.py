"""Sending what waits in the outbox: each channel tried once per poll, never holding the poll up for long.

Letters go in the order they were queued. A letter of a time gone by (its window closed, its deadline passed) is
never sent: it is dropped, and the next letter to the same recipient says in a line that it went stale
(``fold``). A channel that fails as a whole (no server, no login, a timeout, a rate limit) is not tried again in
the same sending: its other letters wait for the next poll behind the one it failed on, marked with why, so a
server that is down costs a poll one connection attempt (at most ``timeout`` seconds), not one per letter, and
the channel's order holds.

What each refusal does to a letter (``docs/notices.md``, "Sent once"):

- an e-mail goes address by address: an address the server accepted is never sent it again; one it refused for
  good (5xx) is dropped from the letter and named to the GM; one it refused for now (4xx) is tried again alone,
  after a wait that grows with each try (``retry_wait``);
- a chat post the webhook refused for good (400) is dropped and named; one it never answered may have been
  taken: it is posted once more at most, then dropped as in doubt and named.

Whatever is dropped is kept in the outbox's notes, which ``status`` and ``doctor`` show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from sheets_gm.match.notify_settings import NotifySettings
from sheets_gm.notify.channel import SendError
from sheets_gm.notify.host_channels import HostChannels, chat_key, mail_key, retry_wait, take_budget
from sheets_gm.notify.outbox import CHAT, EMAIL, Letter, Outbox, iso

if TYPE_CHECKING:
    from sheets_gm.notify.mail import MailSession

Clock = Callable[[], datetime]

@dataclass(frozen=True)
class Refusal:
    """An address the mail server refused for good: the seat it was on the roster for, and the server's words."""

    seat: str
    address: str
    said: str


@dataclass
class Sending:
    """What one sending did: letters sent, letters still waiting (with their errors), letters dropped (with why)
    and of those the ones lost (refused for good, in doubt: not the notices gone stale, which the next letter names),
    addresses refused for good, each channel that failed as a whole (its error) or worked, and whether another
    process was sending (then this one sent nothing)."""

    sent: list[Letter] = field(default_factory=list)
    waiting: list[Letter] = field(default_factory=list)
    dropped: list[tuple[Letter, str]] = field(default_factory=list)
    lost: list[tuple[Letter, str]] = field(default_factory=list)  # of those dropped, the news nobody got
    refused: list[Refusal] = field(default_factory=list)
    failing: dict[str, str] = field(default_factory=dict)
    working: set[str] = field(default_factory=set)
    busy: bool = False
    held: str = ""  # why e-mail was held back by the day's sending budget ('' when it was not)

    def line(self) -> str:
        """A line for the GM: ``Notices: 3 sent, 2 waiting (chat: cannot reach …).`` ('' when nothing moved)."""
        if not self.sent and not self.waiting and not self.dropped:
            return ""
        mails = [letter for letter in self.sent if letter.channel == EMAIL]
        addresses = sum(len(letter.sent_to) for letter in mails)  # a letter to a side is a message to each player
        parts = [f"{len(self.sent)} sent" + (f" ({addresses} e-mail addresses)" if addresses > len(mails) else "")
                 ] if self.sent else []
        if self.waiting:
            why: dict[str, str] = {}  # a channel's error once: the one a letter was tried on, not the "not tried"
            for letter in sorted(self.waiting, key=lambda w: w.error.startswith("not tried: ")):
                if letter.error:
                    why.setdefault(letter.channel, letter.error.removeprefix("not tried: "))
            errors = [f"{channel}: {error}" for channel, error in sorted(why.items())]
            parts.append(f"{len(self.waiting)} waiting" + (f" ({'; '.join(errors)})" if errors else ""))
        elif self.held:
            parts.append(self.held)
        if self.dropped:
            parts.append(f"{len(self.dropped)} dropped (" + "; ".join(
                f"{letter.channel} to {letter.recipient}, {letter.subject!r}: {why}" for letter, why in self.dropped)
                + ")")
        if self.refused:
            parts.append("refused for good, dropped from their letters: " + ", ".join(
                dict.fromkeys(f"{r.address} ({r.seat})" for r in self.refused)) + " (mend the roster)")
        return "Notices: " + ", ".join(parts) + "."


def send_waiting(box: Outbox, notify: NotifySettings | None, clock: Clock) -> Sending:
    """Try every letter of ``box`` that may be tried now, through the channels ``notify`` sets (None: notices
    are off, and every letter waits)."""
    with box.sending() as mine:
        if not mine:
            return Sending(waiting=box.waiting(), busy=True)
        now = clock()
        done = Sending()
        letters = _without_stale(box, box.waiting(), notify, now, done)
        due_keys = _due_in_order(letters, now)
        due = [letter for letter in letters if letter.key in due_keys]
        done.waiting += [letter for letter in letters if letter.key not in due_keys]
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


def _due_in_order(letters: list[Letter], now: datetime) -> set[str]:
    """The keys of the letters to try now: those due, and each letter queued before one of them to one of its
    addresses, though its own wait for that address (refused for now) is not over: a player gets her letters in
    the order they were queued, never a turn's news before the news it replaces."""
    due = {letter.key for letter in letters if letter.due(now)}
    for later in sorted((x for x in letters if x.key in due), key=lambda x: x.seq, reverse=True):
        due.update(e.key for e in letters if e.key not in due and e.channel == later.channel and e.seq < later.seq
                   and set(e.pending) & set(later.pending))
    return due


def _without_stale(box: Outbox, letters: list[Letter], notify: NotifySettings | None, now: datetime,
                   done: Sending) -> list[Letter]:
    """``letters`` less those of a time gone by, which are dropped and folded into the next letter to the same
    recipient over the same channel (when one waits): into its next letter to each zone of its players, so that
    all of them hear of it, the notice named once however many zone letters it went as."""
    open_window = box.open_window()
    kept: list[Letter] = []
    stale: dict[tuple[str, str], list[str]] = {}
    told: dict[tuple[str, str], set[str | None]] = {}
    for letter in letters:
        why = letter.stale(open_window, now)
        key = (letter.channel, letter.recipient)
        if why:
            _drop(box, letter, why, now, done, lost=False)
            said = stale.setdefault(key, [])
            if letter.subject not in said:  # a seat's letters to its players' zones are one notice
                said.append(letter.subject)
            continue
        zones = told.setdefault(key, set())
        if stale.get(key) and letter.zone not in zones and None not in zones:
            letter = fold(letter, stale[key], notify)
            box.keep(letter)
            zones.add(letter.zone)
        kept.append(letter)
    return kept


def fold(letter: Letter, subjects: list[str], notify: NotifySettings | None) -> Letter:
    """``letter`` with a line saying that the notices ``subjects`` to the same recipient went stale while its
    channel was down, and were not sent (a chat post only when the line keeps it within the style's limit)."""
    channel = "mail" if letter.channel == EMAIL else "chat"
    said = "; ".join(f"“{s}”" for s in subjects)
    line = f"(While the {channel} was down, {len(subjects)} notice{'s' if len(subjects) != 1 else ''} went " \
           f"stale and {'were' if len(subjects) != 1 else 'was'} not sent: {said}.)"
    if letter.channel == EMAIL:
        return replace(letter, body=f"{line}\n\n{letter.body}")
    if notify is None or notify.chat is None:
        return letter
    from sheets_gm.notify.chat import escape_chat

    head, _, rest = letter.body.partition("\n")
    body = f"{head}\n{escape_chat(notify.chat.style, line)}" + (f"\n{rest}" if rest else "")
    return replace(letter, body=body) if len(body) <= notify.chat.limit else letter


class _DownAfterLetter(Exception):
    """The channel failed on a letter, already kept with the error: the others wait."""

    def __init__(self, error: SendError, kept: Letter | None) -> None:
        super().__init__(str(error))
        self.error = error
        self.kept = kept  # the letter it failed on as kept waiting (None: dropped)


def channel_key(notify: NotifySettings, channel: str) -> str | None:
    """The host's name of the server ``channel`` sends through (``host_channels``); None for a webhook whose URL
    cannot be read (it fails before any connection)."""
    if channel == EMAIL:
        assert notify.email is not None
        return mail_key(notify.email.host, notify.email.port, notify.email.user)
    assert notify.chat is not None
    try:
        return chat_key(notify.chat.url.read("the webhook's URL"))
    except ValueError:
        return None


def _send_channel(box: Outbox, notify: NotifySettings, channel: str, letters: list[Letter], clock: Clock,
                  done: Sending) -> None:
    """Send ``letters`` over ``channel`` until it fails as a whole; the rest wait with why. A channel the host
    rests (it failed for this match or another: ``host_channels``) is not tried: its letters wait until then."""
    host, key = HostChannels(), channel_key(notify, channel)
    rest = host.held(key, clock()) if key is not None else None
    if rest is not None:
        resting = (f"{rest.error} (the host rests this channel after {rest.failures} failure"
                   f"{'s' if rest.failures != 1 else ''} in a row, for every match: next try {iso(rest.until)})")
        done.failing[channel] = rest.error
        done.waiting += [box.postpone(letter, f"not tried: {resting}", rest.until) for letter in letters]
        return
    left = list(letters)
    try:
        _send_all(notify, channel, left, box, clock, done)
    except _DownAfterLetter as down:
        error, failed = down.error, down.kept
    except SendError as exc:  # the channel failed before any letter: the first one counts the try
        error = exc
        failed = box.failed(left.pop(0), str(exc), clock(), exc.retry_at)
        done.waiting.append(failed)
    else:
        if key is not None:
            host.worked(key)
        done.working.add(channel)
        return
    until = host.failed(key, clock(), str(error), error.retry_at).until if key is not None else error.retry_at
    if until is not None and failed is not None:  # the letter it failed on waits as long as the channel rests
        done.waiting[done.waiting.index(failed)] = box.postpone(failed, failed.error, until)
    done.failing[channel] = str(error)
    done.waiting += [box.postpone(letter, f"not tried: {error}", until) for letter in left]


def _send_all(notify: NotifySettings, channel: str, left: list[Letter], box: Outbox, clock: Clock,
              done: Sending) -> None:
    """Send the letters ``left`` over ``channel``, taking each off the list as it is tried."""
    from sheets_gm.notify.chat import ChatHook
    from sheets_gm.notify.mail import MailHeads, MailSession

    if channel == EMAIL:
        assert notify.email is not None
        key, limit = channel_key(notify, EMAIL) or "", notify.email.daily_limit
        with MailSession(notify.email, MailHeads(notify.reply_to, notify.title)) as mail:
            while left:
                budget = take_budget(HostChannels(), key, clock(), len(left[0].pending), limit)
                if not budget.granted:
                    _hold(box, left, budget_words(limit, budget.frees_at), budget.frees_at, done)
                    return
                most = budget.granted if budget.frees_at is not None else None
                _mail_one(box, left.pop(0), partial(_send_most, mail, clock, most), clock, done,
                          held=(budget_words(limit, budget.frees_at), budget.frees_at) if most else None)
    else:
        assert notify.chat is not None
        hook = ChatHook(notify.chat)
        while left:
            _post_one(box, left.pop(0), lambda letter: hook.post(letter, clock(), box.picture(letter)), clock, done)


def _send_most(mail: MailSession, clock: Clock, most: int | None, letter: Letter) -> object:
    """``letter`` sent through ``mail`` to its first ``most`` addresses pending (all when None)."""
    return mail.send(letter, clock(), most)


def budget_words(limit: int, frees_at: datetime | None) -> str:
    """Why e-mail waits for the day's budget, for the GM and the letters' errors."""
    return (f"the day's sending budget of {limit} e-mail recipients is spent ([notify.email] daily_limit, for every "
            f"match sending through this account); the rest waits until {iso(frees_at) if frees_at else 'tomorrow'}")


def _hold(box: Outbox, left: list[Letter], why: str, until: datetime | None, done: Sending) -> None:
    """Every letter ``left`` waits for the day's budget to free (``until``), said in ``done``."""
    done.held = why
    done.waiting += [box.postpone(letter, why, until) for letter in left]
    left.clear()


def as_sent(letter: Letter, now: datetime) -> Letter:
    """``letter`` as it goes at ``now``: a reminder's "closes in 9 min" says the time left now (a channel that was
    down, a letter that waited), not when it was queued.

    >>> from sheets_gm.notify.outbox import EMAIL
    >>> late = Letter("k", EMAIL, "Ann", "Turn 3 closes in 9 min", "Turn 3 closes in 9 min: …", "",
    ...               until="2026-11-22T20:00:00+00:00", left="9 min")
    >>> as_sent(late, datetime.fromisoformat("2026-11-22T19:52:00+00:00")).subject
    'Turn 3 closes in 8 min'
    """
    if not letter.left or not letter.until:
        return letter
    from sheets_gm.engine.words import describe_left

    try:
        left = describe_left((datetime.fromisoformat(letter.until) - now).total_seconds())
    except ValueError:
        return letter
    subject, body = letter.subject, letter.body
    for verb in ("closes", "close"):  # a window's label takes either ("Turn 3 · orders close in …")
        subject = subject.replace(f"{verb} in {letter.left}", f"{verb} in {left}")
        body = body.replace(f"{verb} in {letter.left}", f"{verb} in {left}")
    return replace(letter, subject=subject, body=body)


def _mail_one(box: Outbox, letter: Letter, send: Callable[[Letter], object], clock: Clock, done: Sending,
              held: tuple[str, datetime | None] | None = None) -> None:
    """Send ``letter`` by e-mail to its addresses still pending (see the module notes); ``held``: why the day's
    budget let only some of them go now, and until when the others wait."""
    from sheets_gm.notify.mail import Delivery

    now = clock()
    try:
        delivery = send(as_sent(letter, now))
    except SendError as exc:
        _not_taken(box, letter, exc, now, done)
        return
    assert isinstance(delivery, Delivery)
    refused = tuple(f"{address} ({said})" for address, said in delivery.refused.items())
    letter = replace(letter, sent_to=letter.sent_to + delivery.accepted, dropped=letter.dropped + refused)
    for address, said in delivery.refused.items():
        done.refused.append(Refusal(letter.recipient, address, said))
        box.note(letter, f"{address} refused for good ({said}): dropped from this letter; mend the roster", now,
                 about=f"{address} refused for good")
    if delivery.stopped is not None:
        _not_taken(box, letter, delivery.stopped, now, done)
    elif delivery.later:
        until = now + retry_wait(letter.tries + 1)
        error = "refused for now: " + "; ".join(f"{a} ({said})" for a, said in delivery.later.items()) + (
            f" (the others have it); tried again alone from {iso(until)}" if letter.sent_to else "")
        done.waiting.append(box.failed(letter, error, now, until, sent_to=letter.sent_to, dropped=letter.dropped))
    elif letter.pending and held is not None:  # the day's budget let only some go
        done.held = held[0]
        done.waiting.append(box.postpone(letter, held[0], held[1]))
    elif letter.sent_to:
        box.sent(letter, now)
        done.sent.append(letter)
    else:
        why = "every address was refused for good: " + ", ".join(refused)
        # told already, an address at a time (``done.refused``, and a note each)
        _drop(box, letter, why, now, done, lost=False, noted=True)


def _not_taken(box: Outbox, letter: Letter, exc: SendError, now: datetime, done: Sending) -> None:
    """The server did not take ``letter`` (or stopped part way: the addresses that had it are kept in it): dropped
    when refused for good, else kept waiting; a connection that failed stops the channel (``_DownAfterLetter``)."""
    if exc.permanent:
        _drop(box, letter, f"the mail server refused it for good: {exc}", now, done)
        return
    wait = None if exc.down else now + retry_wait(letter.tries + 1)
    kept = box.failed(letter, str(exc), now, exc.retry_at or wait, sent_to=letter.sent_to, dropped=letter.dropped)
    done.waiting.append(kept)
    if exc.down:
        raise _DownAfterLetter(exc, kept) from None


def _drop(box: Outbox, letter: Letter, why: str, now: datetime, done: Sending, *, lost: bool = True,
          noted: bool = False) -> None:
    """Drop ``letter`` from the outbox for good, saying ``why``, and count it in ``done`` (in ``done.lost`` too
    unless it merely went stale or was refused address by address; ``noted``: the notes hold it already)."""
    box.drop(letter, why, now, noted=noted)
    done.dropped.append((letter, why))
    if lost:
        done.lost.append((letter, why))


def _post_one(box: Outbox, letter: Letter, post: Callable[[Letter], None], clock: Clock, done: Sending) -> None:
    """Post ``letter`` to the chat (see the module notes)."""
    now = clock()
    try:
        post(as_sent(letter, now))
    except SendError as exc:
        if exc.permanent:
            why = f"the webhook refused it for good: {exc}"
            _drop(box, letter, why, now, done)
            return
        if exc.doubt and letter.doubt >= 1:
            why = (f"in doubt: posted twice, and neither post was answered ({exc}); look in the channel whether "
                   "it arrived")
            _drop(box, letter, why, now, done)
            raise _DownAfterLetter(exc, None) from None
        error = f"{exc}; posted once more at the next try, at most" if exc.doubt else str(exc)
        kept = box.failed(letter, error, now, exc.retry_at, doubt=letter.doubt + exc.doubt)
        done.waiting.append(kept)
        raise _DownAfterLetter(exc, kept) from None
    box.sent(letter, now)
    done.sent.append(letter)
