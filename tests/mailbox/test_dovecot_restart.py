"""The test Dovecot restarts at once (``tests/fakes/dovecot.py``): ``stop`` returns only when every process of the
server is gone, and ``start`` only when the server it started takes logins. Either falling short left the mail
watch's restart test with no server after ``start`` returned, its watch refused in silence until the test gave up."""

from __future__ import annotations

import os
import signal
import socket

import pytest

from tests.fakes import dovecot
from tests.fakes.dovecot import living, running_dovecot, wait_gone


def test_stop_returns_only_when_every_process_of_the_server_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process of the server that outlives the master's death (an IMAP process tearing its inotify watch down
    takes tens of milliseconds) holds the server's sockets: a server started again then stops at once. Here one
    is held stopped through the kill (it would end itself when the master dies), standing for it."""
    with running_dovecot() as server:
        assert server.process is not None
        group = server.process.pid
        spared = next(pid for pid, name in living(group).items() if name == "config")
        real = os.killpg

        def kill_but_one(target: int, sig: int) -> None:
            assert target == group
            os.kill(spared, signal.SIGSTOP)
            for pid in living(group):
                if pid != spared:
                    os.kill(pid, sig)

        monkeypatch.setattr(os, "killpg", kill_but_one)
        try:
            with pytest.raises(RuntimeError, match="processes config outlived their kill"):
                server.stop(within=0.1)
        finally:
            monkeypatch.setattr(os, "killpg", real)
            os.kill(spared, signal.SIGKILL)
        wait_gone(group, 10.0)
        server.start()  # at once: nothing of the old server holds its sockets
        assert dovecot.greets(server.host, server.port)


def test_start_returns_only_when_the_server_it_started_takes_logins() -> None:
    """Ports that answer with no login process behind them (the old server's, or the new master's own for the
    moment before it dies of them) are no server: ``start`` says that the server did not start, and never returns
    over them."""
    with running_dovecot() as server:
        server.stop()
        holders = []
        for port in (server.port, server.tls_port):
            holder = socket.socket()
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past the killed sessions' TIME_WAIT
            holder.bind((server.host, port))
            holder.listen()
            holders.append(holder)
        try:
            with pytest.raises(RuntimeError, match=r"Dovecot did not start.*Address already in use"):
                server.start()
        finally:
            for holder in holders:
                holder.close()
