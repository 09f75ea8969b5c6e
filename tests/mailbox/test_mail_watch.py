"""serve's watch of a judge's mailbox against a real IMAP server (Dovecot's IDLE): a mail wakes its matches at
once; matches that share a mailbox share one connection; a mailbox down is said once while it is tried again with a
growing wait, and holds back nothing; a watch dropped ends its connection."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from imapclient import IMAPClient

from sheets_gm.host.mail_watch import MailWatch
from sheets_gm.host.scheduler import Stop
from sheets_gm.host.visit import visit as visit_once
from sheets_gm.match.config import MatchConfig, load_config
from tests.fakes.dovecot import Dovecot, MailUser
from tests.host.hosting import Clock, new_host
from tests.mailbox.mails import file_all, plain
from tests.matchfiles import NOW, local_config, local_match
from tests.notify.servers import free_port

WAIT = 20.0  # seconds a real server is given to tell (it tells within milliseconds)


def _mailbox(folder: Path, server: Dovecot, user: MailUser, port: int = 0) -> str:
    """The ``[mailbox]`` table of ``user`` (its password in a file in ``folder``)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "imap-password").write_text(user.password, encoding="utf-8")
    return (f'[mailbox]\nhost = "127.0.0.1"\nport = {port or server.port}\nsecurity = "none"\nuser = "{user.name}"\n'
            'password_file = "imap-password"\n')


def _config(folder: Path, server: Dovecot, user: MailUser, port: int = 0) -> MatchConfig:
    return load_config(local_config(folder, _mailbox(folder, server, user, port)))


class _Idles:
    """Each IDLE a watch began (the server answered it), told as it happens: Dovecot's own record of a session
    (rawlog) is buffered, and may show an IDLE seconds after it began, or not until the session's next words."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.begun = threading.Event()
        self.count = 0
        real = IMAPClient.idle

        def idle(session: IMAPClient) -> Any:
            answer = real(session)
            self.count += 1
            self.begun.set()
            return answer

        monkeypatch.setattr(IMAPClient, "idle", idle)


@pytest.fixture
def idles(monkeypatch: pytest.MonkeyPatch) -> _Idles:
    """The IDLEs begun from now on."""
    return _Idles(monkeypatch)


class _Woken:
    """The host's wake, as an event a test waits on."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def __call__(self) -> None:
        self.event.set()

    def wait_for(self, watch: MailWatch, wanted: set[Path]) -> tuple[set[Path], list[str]]:
        woken: set[Path] = set()
        said: list[str] = []
        while not wanted <= woken:
            assert self.event.wait(WAIT), f"no news within {WAIT} s: {woken}, {said}"
            self.event.clear()
            got, lines = watch.take()
            woken |= got
            said += lines
        return woken, said


def test_a_mail_wakes_every_match_of_its_mailbox_over_one_connection(dovecot: Dovecot, tmp_path: Path,
                                                                    idles: _Idles) -> None:
    user = dovecot.add_user()
    first, second = _config(tmp_path / "a", dovecot, user), _config(tmp_path / "b", dovecot, user)
    woken = _Woken()
    watch = MailWatch(woken, glance=0.2)
    try:
        watch.follow(first.path, first)
        watch.follow(second.path, second)
        assert watch.watching() == 1
        woken.wait_for(watch, {first.path, second.path})  # a watch that starts wakes its matches once
        dovecot.deliver(user, plain())
        assert woken.wait_for(watch, {first.path, second.path})[1] == []
        sessions = list((user.home / "rawlog").glob("*.in"))
        assert len(sessions) == 1 and idles.count >= 1
        watch.drop(first.path)
        dovecot.deliver(user, plain())
        assert woken.wait_for(watch, {second.path})[0] == {second.path}
    finally:
        watch.stop()
    assert watch.watching() == 0


def test_a_mailbox_down_is_said_once_and_tried_again(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    down = _config(tmp_path / "down", dovecot, user, port=free_port())
    user_up = dovecot.add_user()
    up = _config(tmp_path / "up", dovecot, user_up)
    woken = _Woken()
    tries: list[int] = []
    fifth = threading.Event()

    def wait(failures: int) -> float:
        tries.append(failures)
        if failures >= 5:
            fifth.set()
        return 0.01

    watch = MailWatch(woken, glance=0.2, wait=wait)
    try:
        watch.follow(down.path, down)
        watch.follow(up.path, up)
        said: list[str] = []
        news: set[Path] = set()
        assert fifth.wait(WAIT)  # five tries of the mailbox down, each after the backoff's wait
        while up.path not in news or not said:
            assert woken.event.wait(WAIT)
            woken.event.clear()
            got, lines = watch.take()
            news |= got
            said += lines
        said += watch.take()[1]
        assert len([line for line in said if "cannot be watched" in line]) == 1, said
        assert "cannot be reached" in said[0] and "tried again with a growing wait" in said[0]
        assert tries[:5] == [1, 2, 3, 4, 5]  # the notices' backoff is asked with each failure's count
        assert down.path not in news  # the other mailbox is watched all the while
        dovecot.deliver(user_up, plain())
        woken.wait_for(watch, {up.path})
    finally:
        watch.stop()


def test_serve_looks_at_a_match_the_moment_its_mailbox_tells_of_mail(dovecot: Dovecot, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch,
                                                                    idles: _Idles) -> None:
    league = tmp_path / "league"
    user = dovecot.add_user()
    judged, _ = local_match(league / "judged", body=_mailbox(league / "judged", dovecot, user))
    local_match(league / "quiet")
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=600)
    stop = _Told()
    host._stop = stop  # what the host's loop waits on, and what a watch wakes
    visits: list[str] = []
    real = visit_once

    def visit(path: Path, *args: Any, **kwargs: Any) -> Any:
        visits.append(path.parent.name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr("sheets_gm.host.scheduler.VISIT", visit)
    try:
        host.step()  # the first polls: judged's config names a mailbox, which is watched from now on
        assert host.mail.watching() == 1 and sorted(visits) == ["judged", "quiet"]
        file_all(judged)  # what the poll's filing does with the mailbox (read it: nothing there)
        assert idles.begun.wait(WAIT)  # the watch connected, woke its match once, and waits in IDLE
        stop.told.clear()
        host.step()
        visits.clear()
        stop.told.clear()
        dovecot.deliver(user, plain())
        assert stop.told.wait(WAIT)  # the mail: the server tells the watch, which wakes the host
        host.step()
        assert visits == ["judged"]  # looked at first, and polled (the mail waits); the other match left alone
    finally:
        host.close()
    assert host.mail.watching() == 0


class _Told(Stop):
    """The host's waiter, which a test may ask whether anything woke it."""

    def __init__(self) -> None:
        super().__init__()
        self.told = threading.Event()

    def wake(self) -> None:
        super().wake()
        self.told.set()


def test_a_server_restart_is_said_once_and_the_watch_comes_back_at_once(tmp_path: Path) -> None:
    """A restart of the IMAP server ends the watch's connection: the watch says so once, within a glance (never
    silent until the IDLE's renewal, 25 minutes on), connects again as soon as the server answers, and a mail that
    comes then wakes its match."""
    from tests.fakes.dovecot import running_dovecot

    with running_dovecot() as server:
        user = server.add_user()
        config = _config(tmp_path / "m", server, user)
        woken = _Woken()
        tries: list[int] = []

        def soon(failures: int) -> float:
            tries.append(failures)
            return 0.05

        watch = MailWatch(woken, glance=0.2, soon=soon)
        try:
            watch.follow(config.path, config)
            woken.wait_for(watch, {config.path})
            server.stop()
            said: list[str] = []
            while not any("connection lost" in line for line in said):
                assert woken.event.wait(WAIT), f"the lost connection was never said: {said}"
                woken.event.clear()
                said += watch.take()[1]
            assert not any("cannot be watched" in line for line in said), said  # the loss is said, not each try
            server.start()
            lines = woken.wait_for(watch, {config.path})[1]
            said += lines
            while not any("watched again" in line for line in said):
                assert woken.event.wait(WAIT), f"the watch never came back: {said}"
                woken.event.clear()
                said += watch.take()[1]
            assert len([line for line in said if "connection lost" in line]) == 1, said
            assert tries and tries[0] == 1  # tried again at once (a second's wait in a host), not after minutes
            server.deliver(user, plain())
            assert config.path in woken.wait_for(watch, {config.path})[0]
            server.stop()  # a second restart is said again: each loss once, not once a watch's life
            more: list[str] = []
            while not any("connection lost" in line for line in more):
                assert woken.event.wait(WAIT), f"the second loss was never said: {more}"
                woken.event.clear()
                more += watch.take()[1]
        finally:
            watch.stop()


def test_a_watched_connection_keeps_alive_so_a_silent_drop_errs_within_a_minute() -> None:
    """A connection whose far end went silent (no end of file ever comes) errs by TCP keepalive within a minute."""
    import socket

    from sheets_gm.host.mail_watch import KEEPALIVE_LIMIT, keep_alive

    with socket.socket() as sock:
        keep_alive(sock)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        idle = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE)
        every = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL)
        count = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT)
        assert idle + every * count == KEEPALIVE_LIMIT <= 60
