"""The fake Google (``google_api.GoogleApiFake``) served over HTTP on 127.0.0.1, for a real ``sheets-gm serve``
process (its fork server and every poll's process too) pointed at it: the Sheets and Drive APIs as the client calls
them and the OAuth token endpoint, each request answered by the same fake the test or the benchmark holds (its
spreadsheets, Drive's change log, its counts and faults). Requests are served each on a thread of its own; the fake
answers them one at a time (behind the server's lock), but what a caller holds a request for before it is answered
(``hold``: an account's Drive made late, or hung) is waited outside that lock, so it delays that account alone.

The process is pointed at it by its environment alone (:meth:`GoogleOverHttp.environment`): ``PYTHONPATH`` puts
``over_http/sitecustomize.py`` first, which sends every request to a Google host to this server (its host kept in
the path); nothing of the project changes, and nothing reaches the network."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from requests.structures import CaseInsensitiveDict

from tests.fakes.google_api import GoogleApiFake

#: The folder whose ``sitecustomize`` points a process at the server.
REDIRECT = Path(__file__).resolve().parent / "over_http"


@dataclass
class Relayed:
    """A request as the fake's dispatch reads it (``requests.PreparedRequest``'s fields it uses)."""

    method: str
    url: str
    body: bytes
    headers: CaseInsensitiveDict[str] = field(default_factory=CaseInsensitiveDict)


#: What the server does with a request before the fake answers it: called with the account the request's token
#: stands for and the request, on the request's own thread and outside the server's lock (it may wait, for an
#: account made slow, without delaying any other); True answers it, False closes its connection unanswered (a hung
#: server, once the client has given up).
Hold = Callable[[str, Relayed], bool]


def no_hold(caller: str, request: Relayed) -> bool:
    """Every request answered at once."""
    return True


class _Server(ThreadingHTTPServer):
    """The HTTP server, a thread a connection, with the listen backlog of a server that takes bursts: a host's
    thousands of new connections at a first start (a sign-in file's each) wait to be accepted, as Google's servers
    take them, instead of being reset past the standard library's 5 (the fake refuses no more than before: a reset
    was the server's socket, never the fake's answer)."""

    request_queue_size = 1024
    daemon_threads = True


class GoogleOverHttp:
    """The fake served at ``http://127.0.0.1:PORT`` (a port of the system's choosing) until :meth:`stop`: each
    request on a thread of its own, held first as ``hold`` says (outside the lock), then answered by the fake one at
    a time (``lock``: the caller's own calls to the fake hold it too)."""

    def __init__(self, fake: GoogleApiFake, hold: Hold = no_hold) -> None:
        self.fake = fake
        self.hold = hold
        self.lock = threading.Lock()
        self.served = 0
        relay = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _relay(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                host, _, rest = self.path.lstrip("/").partition("/")
                headers = CaseInsensitiveDict(self.headers.items())
                request = Relayed(self.command, f"https://{host}/{rest}", body, headers)
                reply = relay.answer(request)
                if reply is None:  # held until the client gave up: closed unanswered
                    self.close_connection = True
                    return
                status, answered, content = reply
                self.send_response(status)
                for name, value in answered.items():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # a client stopped meanwhile
                    self.end_headers()
                    self.wfile.write(content)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _relay

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet: the fake keeps its own log."""

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, name="fake-google-http", daemon=True)

    @property
    def address(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def answer(self, request: Relayed) -> tuple[int, dict[str, str], bytes] | None:
        """The fake's answer to ``request`` (an error it raises, as Google's 500; a fault it injects, as it says),
        once ``hold`` lets it through (None: it never is)."""
        with self.lock:
            caller = self.fake._caller(request.headers.get("Authorization", ""))
        if not self.hold(caller, request):  # outside the lock: a held account holds up no other
            return None
        with self.lock:
            self.served += 1
            try:
                answered = self.fake._dispatch(request)  # type: ignore[arg-type]
            except Exception as exc:  # a request the fake refuses: said to the client, kept in its violations
                return 500, {"Content-Type": "text/plain"}, f"{type(exc).__name__}: {exc}".encode()
        if isinstance(answered, Exception):  # a connection fault the fake injects: the client sees a reset
            return 503, {"Content-Type": "text/plain"}, str(answered).encode()
        return answered

    def start(self) -> GoogleOverHttp:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def environment(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """The environment of a process pointed at this server (``base``: the one it would have; this one's)."""
        env = dict(os.environ if base is None else base)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REDIRECT), env.get("PYTHONPATH", "")]))
        env["SHEETS_GM_FAKE_GOOGLE"] = self.address
        return env


@contextmanager
def served_over_http(fake: GoogleApiFake, hold: Hold = no_hold) -> Iterator[GoogleOverHttp]:
    """``fake`` served over HTTP while the block runs (``hold``: see :data:`Hold`)."""
    server = GoogleOverHttp(fake, hold).start()
    try:
        yield server
    finally:
        server.stop()
