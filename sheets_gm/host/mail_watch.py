"""``serve``'s watch of the judges' mailboxes: a mail wakes its match's poll as a save does.

Each mailbox (a server, a login and a folder: matches that share one share its watch) is watched by a thread of its
own on one connection, with IMAP IDLE (RFC 2177) where the server offers it: the server tells of a new mail the
moment it arrives (``EXISTS``), and the matches of that mailbox are looked at first, as a file event or a Drive
change has them looked at (``take``). The look itself decides, as ever: the idle decision asks the mailbox
(``running.mail_check``), and the poll reads the mail. IDLE is renewed every :data:`RENEW` (servers drop an IDLE
after 30 minutes); a watch that (re)connects wakes its matches once, so mail that came while it was away is read.

A mailbox that is down, refuses its login, or offers no IDLE is said once (the host's log) and holds back nothing
else: its thread waits and tries again with the notices' backoff (1, 2, 4 … minutes, at most two hours:
``notify.host_channels.retry_wait``), and its matches are polled as before, their idle decision asking the
mailbox at each look. A mailbox without IDLE is not watched: its mail is read at its matches' looks.

A watched connection that is lost (the server restarted or said BYE, or the network went silent) is noticed at
once, or within :data:`KEEPALIVE_LIMIT` seconds where nothing comes back at all (TCP keepalive), and said once;
the watch then connects again soon (:func:`soon_after_loss`: 1, 2, 4 … seconds, at most a minute) rather than
after the backoff's minutes, and wakes its matches when it is back. An IDLE that ends with nothing read can only
be a connection gone: ``imapclient`` reads its end of file as silence, so such an IDLE is ended, and ending it
raises where the connection is gone.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from sheets_gm.mailbox import client as imap
from sheets_gm.mailbox.errors import MailboxError
from sheets_gm.match.config import MatchConfig
from sheets_gm.match.mailbox_settings import MailboxSettings
from sheets_gm.notify.host_channels import retry_wait

#: How long one IDLE lasts before it is renewed (servers may end one after 30 minutes of silence).
RENEW = 25 * 60.0
#: How often a watch's thread looks up from its IDLE to see whether it should stop.
GLANCE = 1.0
#: TCP keepalive on a watch's connection: first probe after this many idle seconds, then every ``KEEPALIVE_EVERY``,
#: the connection given up after ``KEEPALIVE_COUNT`` probes unanswered (a silent drop noticed within a minute).
KEEPALIVE_IDLE, KEEPALIVE_EVERY, KEEPALIVE_COUNT = 20, 10, 3
KEEPALIVE_LIMIT = KEEPALIVE_IDLE + KEEPALIVE_EVERY * KEEPALIVE_COUNT


#: The failures to connect that a server restarting shows (it is away, or stops at once): not a login or a certificate.
_AWAY = ("connect", "server")
#: How many tries after a loss are soon whatever the failure (a refused login, a certificate) before the backoff's.
_SOON_TRIES = 8


class ConnectionLost(Exception):
    """A watched connection that ended: the server said BYE, or closed it, or stopped answering."""


def soon_after_loss(tries: int) -> float:
    """Seconds before the ``tries``-th attempt to connect again after a watched connection was lost: a server that
    restarts is back within seconds, and its mail should be answered as soon as it is.

    >>> [soon_after_loss(n) for n in (1, 2, 3, 7, 20)]
    [1.0, 2.0, 4.0, 60.0, 60.0]
    """
    return float(min(2 ** min(tries - 1, 6), 60))


def _key(settings: MailboxSettings) -> tuple[str, int, str, str]:
    return settings.host.lower(), settings.port, settings.user, settings.folder


@dataclass
class _Box:
    """One mailbox watched: its settings, the matches it wakes, its thread and the event that stops it."""

    settings: MailboxSettings
    matches: set[Path] = field(default_factory=set)
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None
    watching: bool = False  # its connection is up and selected (a failure now is a loss)


class MailWatch:
    """The mailboxes of the host's matches, each watched with IDLE (see the module notes). ``wake`` ends the host's
    wait between passes; ``follow`` and ``drop`` keep the watches to the matches' configs; ``take`` gives the
    matches whose mailbox had news since, and the lines to say."""

    def __init__(self, wake: Callable[[], None], *, renew: float = RENEW, glance: float = GLANCE,
                 wait: Callable[[int], float] = lambda failures: retry_wait(failures).total_seconds(),
                 soon: Callable[[int], float] = soon_after_loss) -> None:
        self._wake = wake
        self._renew, self._glance, self._wait, self._soon = renew, glance, wait, soon
        self._boxes: dict[tuple[str, int, str, str], _Box] = {}
        self._of: dict[Path, tuple[str, int, str, str]] = {}
        self._lock = threading.Lock()
        self._woken: set[Path] = set()
        self._said: list[str] = []

    def follow(self, path: Path, config: MatchConfig) -> None:
        """The match ``path``'s config as its last poll read it: its mailbox watched, another one left."""
        settings = config.mailbox
        key = _key(settings) if settings is not None else None
        if self._of.get(path) == key:
            return
        self.drop(path)
        if settings is None or key is None:
            return
        self._of[path] = key
        box = self._boxes.get(key)
        if box is None:
            box = self._boxes[key] = _Box(settings)
            box.thread = threading.Thread(target=self._watch, args=(box,), name=f"mailbox {settings.user}",
                                          daemon=True)
            box.matches.add(path)
            box.thread.start()
        else:
            with self._lock:
                box.matches.add(path)

    def drop(self, path: Path) -> None:
        """The match ``path`` no longer watched (gone, or its config names no mailbox, or another)."""
        key = self._of.pop(path, None)
        box = self._boxes.get(key) if key is not None else None
        if box is None:
            return
        with self._lock:
            box.matches.discard(path)
            empty = not box.matches
        if empty:
            box.stop.set()
            del self._boxes[key]  # type: ignore[arg-type]

    def take(self) -> tuple[set[Path], list[str]]:
        """The matches whose mailbox had news since the last call, and the lines to say (each trouble once)."""
        with self._lock:
            woken, said = self._woken, self._said
            self._woken, self._said = set(), []
        return woken, said

    def watching(self) -> int:
        """How many mailboxes are watched."""
        return len(self._boxes)

    def stop(self) -> None:
        """Stop every watch (each thread ends within ``glance`` seconds, its connection closed)."""
        for box in list(self._boxes.values()):
            box.stop.set()
        for box in list(self._boxes.values()):
            if box.thread is not None:
                box.thread.join(timeout=self._glance * 5)
        self._boxes.clear()
        self._of.clear()

    def _news(self, box: _Box) -> None:
        with self._lock:
            self._woken |= box.matches
        self._wake()

    def _say(self, line: str) -> None:
        with self._lock:
            self._said.append(line)
        self._wake()

    def _watch(self, box: _Box) -> None:
        """A mailbox's thread: connect, IDLE, wake on news. A failure to connect is said once and tried again with the
        backoff; a watched connection that is lost is said once and tried again soon (``soon_after_loss``)."""
        failures, lost, said = 0, False, ""
        while not box.stop.is_set():
            box.watching = False
            try:
                self._idle(box, again=failures > 0 or lost)
                return  # no IDLE offered, or stopped
            except (MailboxError, IMAPClientError, OSError, ConnectionLost) as exc:
                kind = exc.kind if isinstance(exc, MailboxError) else "server"
                if box.watching:  # it was watched: a loss, said once however it ended
                    failures, lost, said = 0, True, ""
                    self._say(f"mailbox {box.settings.describe()}: connection lost ({_why(exc)}); tried again in a "
                              "second, then with a growing wait of at most a minute; its matches are polled as "
                              "before meanwhile")
                elif not (lost and kind in _AWAY):  # (a server still away after its loss was said: nothing new)
                    # a server starting may refuse a login or two before its parts are up: still soon, for a while
                    lost = lost and failures < _SOON_TRIES
                    if kind != said:
                        said = kind
                        self._say(f"mailbox {box.settings.describe()}: cannot be watched ({exc}); its matches are "
                                  "polled as before, and it is tried again with a growing wait")
                failures += 1
            box.stop.wait(self._soon(failures) if lost else self._wait(failures))

    def _idle(self, box: _Box, *, again: bool) -> None:
        """One connection's life: IDLE renewed until stopped; returns when stopped or when the server offers no
        IDLE; raises when the connection fails."""
        session = imap.connect(box.settings)
        try:
            if not session.has_capability("IDLE"):
                self._say(f"mailbox {box.settings.describe()}: the server offers no IDLE, so its mail is read at "
                          "each look of its matches, not the moment it arrives")
                return
            imap.select(session, box.settings)
            keep_alive(session.socket())
            box.watching = True
            if again:
                self._say(f"mailbox {box.settings.describe()}: watched again")
            self._news(box)  # mail that came while no watch was on is read
            while not box.stop.is_set():
                self._one_idle(session, box)
        finally:
            imap.close(session)

    def _one_idle(self, session: IMAPClient, box: _Box) -> None:
        """One IDLE, for ``renew`` seconds at most, glancing at ``stop`` every ``glance``; news wakes the matches.
        What the server said as the IDLE ended counts too: a mail told the very moment the IDLE began may sit in
        the client's buffer, unseen by the socket's poll (``_buffered``): that IDLE ends at once, and is begun
        again. A glance that ends early with nothing read, or a BYE, ends the IDLE too: the connection is gone
        (ending the IDLE raises), or it was a half-read line, and the next IDLE goes on."""
        session.idle()
        end = time.monotonic() + self._renew
        answers: list[Any] = []
        try:
            while not _buffered(session) and time.monotonic() < end and not box.stop.is_set():
                began = time.monotonic()
                told = session.idle_check(timeout=self._glance)
                _stop_at_bye(told)
                if _told(told):
                    self._news(box)
                elif not told and time.monotonic() - began < self._glance / 2:
                    break  # the socket was readable and nothing came: an end of file, most likely
        finally:
            answers = session.idle_done()[1]
        _stop_at_bye(answers)
        if _told(answers):
            self._news(box)


def keep_alive(sock: socket.socket) -> None:
    """TCP keepalive on a watch's connection (``KEEPALIVE_*``), where the system offers it: a connection whose
    far end went silent (a network gone, a server host powered off) errs within ``KEEPALIVE_LIMIT`` seconds."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (("TCP_KEEPIDLE", KEEPALIVE_IDLE), ("TCP_KEEPINTVL", KEEPALIVE_EVERY),
                        ("TCP_KEEPCNT", KEEPALIVE_COUNT)):
        if hasattr(socket, name):
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)


def _stop_at_bye(answers: list[Any]) -> None:
    """ConnectionLost when the server's answers hold its BYE (it is shutting down or ending the session)."""
    for answer in answers:
        if isinstance(answer, tuple) and answer and answer[0] == b"BYE":
            words = b" ".join(a for a in answer[1:] if isinstance(a, bytes)).decode("utf-8", "replace")
            raise ConnectionLost(f"the server said BYE: {words}".strip().rstrip(":"))


def _why(exc: BaseException) -> str:
    """A lost connection's cause in a few words."""
    text = str(exc) or type(exc).__name__
    return "the server closed it" if "EOF" in text else text


def _buffered(session: IMAPClient) -> bool:
    """Whether the server's words wait already in the client's read buffer, where the socket's poll (which
    ``idle_check`` asks) cannot see them: read with the same line reader ``imapclient`` itself reads IDLE's
    answers with (``imaplib``'s), the socket made non-blocking for the look (nothing waits)."""
    reader = getattr(getattr(session, "_imap", None), "file", None)
    if reader is None or not hasattr(reader, "peek"):
        return False
    sock = session.socket()
    sock.setblocking(False)
    try:
        return bool(reader.peek(1))
    except (OSError, ValueError):
        return False
    finally:
        sock.setblocking(True)
        session._set_read_timeout()  # as ``idle_check`` leaves it


def _told(answers: list[Any]) -> bool:
    """Whether the server's answers tell of a new mail."""
    return any(isinstance(a, tuple) and len(a) > 1 and a[1] in (b"EXISTS", b"RECENT") for a in answers)
