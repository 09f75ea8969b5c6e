"""The match pages over HTTP for ``sheets-gm serve --web ADDRESS``: the standard library's server in a thread of its
own, read-only. ``/`` lists the matches it serves, ``/NAME/`` is a match's page folder. Only GET and HEAD are
answered (any other method: 405); a path that leaves a match's folder (``..``, an encoded slash, a symbolic link
that points out, a hidden file) is refused with 404, as is anything that is not a regular file; every answer says
what it is (``nosniff``) and runs no script but the folder's own (a Content-Security-Policy). At most
``CONNECTIONS`` connections are served at once, each closed after ``IDLE_SECONDS`` of silence."""

from __future__ import annotations

import mimetypes
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sheets_gm.web.site import environment

#: What a served page may load and run: its folder's own script, style and pictures, nothing else.
POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
         ".json": "application/json"}


@dataclass(frozen=True, slots=True)
class HostedPage:
    """A match whose page is served: its title and its page folder."""

    title: str
    folder: Path


Pages = Callable[[], Mapping[str, HostedPage]]


class AddressError(ValueError):
    """An address ``--web`` cannot listen on."""


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT`` or ``PORT`` (this machine alone: 127.0.0.1) as a host and a port.

    >>> parse_address("8080"), parse_address(":8080"), parse_address("0.0.0.0:80")
    (('127.0.0.1', 8080), ('127.0.0.1', 8080), ('0.0.0.0', 80))
    """
    host, _, port = text.strip().rpartition(":")
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise AddressError(f"--web {text!r}: give a port (8080), or a host and a port (127.0.0.1:8080; 0.0.0.0:8080 "
                           "to be reached from other machines)")
    return host.strip("[]") or "127.0.0.1", number


def resolve_file(folder: Path, path: str) -> Path | None:
    """The regular file ``path`` (a URL path under the folder, still %-encoded) names in ``folder``; None when it
    names none, or leaves the folder (``..``, an encoded slash or backslash, a hidden name, a link pointing out)."""
    parts = path.split("/")
    names = [unquote(p) for p in parts if p]
    if any(n in (".", "..") or n.startswith(".") or "/" in n or "\\" in n or "\0" in n for n in names):
        return None
    root = folder.resolve()
    target = root.joinpath(*names) if names else root
    if path.endswith("/") or not names:
        target = target / "index.html"
    try:
        real = target.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    return real if real.is_relative_to(root) and real.is_file() else None


class _Handler(BaseHTTPRequestHandler):
    """One request: GET and HEAD answered from the pages ``pages`` names, every other method refused."""

    server_version = "sheets-gm"
    sys_version = ""
    pages: Pages

    def do_GET(self) -> None:
        """Answer with the file the path names (the index of matches at ``/``)."""
        self._answer(body=True)

    def do_HEAD(self) -> None:
        """Answer as GET would, without the body."""
        self._answer(body=False)

    def _refuse_method(self) -> None:
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse_method

    def _answer(self, *, body: bool) -> None:
        path = urlsplit(self.path).path
        found = self._find(path)
        if found is None:
            self._send(HTTPStatus.NOT_FOUND, b"Not found.\n", "text/plain; charset=utf-8", body)
        elif isinstance(found, str):
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", found)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            kind = TYPES.get(found[1], mimetypes.guess_type(f"x{found[1]}")[0] or "application/octet-stream")
            self._send(HTTPStatus.OK, found[0], kind, body)

    def _find(self, path: str) -> tuple[bytes, str] | str | None:
        """The bytes and suffix of what ``path`` names, the address to go to instead, or None."""
        pages = self.pages()
        if path in ("", "/", "/index.html"):
            html = environment().get_template("index.html.j2").render(pages=sorted(pages.items()))
            return html.encode(), ".html"
        name, slash, rest = path.lstrip("/").partition("/")
        page = pages.get(unquote(name))
        if page is None:
            return None
        if not slash:
            return f"/{name}/"
        found = resolve_file(page.folder, rest or "/")
        if found is None:
            return None
        try:
            return found.read_bytes(), found.suffix
        except OSError:
            return None

    def _send(self, status: HTTPStatus, data: bytes, kind: str, body: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", POLICY)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the host's own lines say what it does."""


#: Connections served at once (a thread each); one more is closed at once, unanswered.
CONNECTIONS = 64
#: Seconds a connection may stay silent (before its request, or between its bytes) before it is closed.
IDLE_SECONDS = 15.0


class _BoundedServer(ThreadingHTTPServer):
    """A threading server that serves at most ``limit`` connections at once (a thread each, each closed after
    ``IDLE_SECONDS`` of silence): a crowd of idle sockets holds no more threads than that."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], limit: int) -> None:
        super().__init__(address, handler)
        self.slots = threading.BoundedSemaphore(limit)

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection in a thread of its own if a slot is free, else close it at once."""
        if not self.slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        """Serve the connection, then free its slot."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


def start_page_server(address: tuple[str, int], pages: Pages, *, connections: int = CONNECTIONS,
                      idle: float = IDLE_SECONDS) -> ThreadingHTTPServer:
    """Serve ``pages`` (asked afresh at every request: matches come and go) at ``address`` from a daemon thread,
    at most ``connections`` at once, each closed after ``idle`` seconds of silence; the caller stops it with
    ``shutdown()`` then ``server_close()``."""
    handler = type("PageHandler", (_Handler,), {"pages": staticmethod(pages), "timeout": idle})
    server = _BoundedServer(address, handler, connections)
    threading.Thread(target=server.serve_forever, name="sheets-gm-web", daemon=True).start()
    return server
