"""The fake Google (``google_api.GoogleApiFake``) served over HTTP on 127.0.0.1, for a real ``sheets-gm serve``
process (its fork server and every poll's process too) pointed at it: the Sheets and Drive APIs as the client calls
them and the OAuth token endpoint, each request answered by the same fake the test or the benchmark holds (its
spreadsheets, Drive's change log, its counts and faults), one at a time.

The process is pointed at it by its environment alone (:meth:`GoogleOverHttp.environment`): ``PYTHONPATH`` puts
``over_http/sitecustomize.py`` first, which sends every request to a Google host to this server (its host kept in
the path); nothing of the project changes, and nothing reaches the network."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
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


class GoogleOverHttp:
    """The fake served at ``http://127.0.0.1:PORT`` (a port of the system's choosing) until :meth:`stop`; the
    requests are answered one at a time (``lock``: the caller's own calls to the fake hold it too)."""

    def __init__(self, fake: GoogleApiFake) -> None:
        self.fake = fake
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
                status, answered, content = relay.answer(request)
                self.send_response(status)
                for name, value in answered.items():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _relay

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet: the fake keeps its own log."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name="fake-google-http", daemon=True)

    @property
    def address(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def answer(self, request: Relayed) -> tuple[int, dict[str, str], bytes]:
        """The fake's answer to ``request`` (an error it raises, as Google's 500; a fault it injects, as it says)."""
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
def served_over_http(fake: GoogleApiFake) -> Iterator[GoogleOverHttp]:
    """``fake`` served over HTTP while the block runs."""
    server = GoogleOverHttp(fake).start()
    try:
        yield server
    finally:
        server.stop()
