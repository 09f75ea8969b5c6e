"""The match pages over HTTP for ``sheets-gm serve --web ADDRESS``: a WSGI application served by ``waitress`` (the
Pylons project's server, kept up for a decade) in a thread of its own, read-only. ``/`` lists the matches it serves,
``/NAME/`` is a match's page folder. Only GET and HEAD are answered (any other method: 405); a path that leaves a
match's folder (``..``, an encoded slash, a symbolic link that points out, a hidden file) is refused with 404, as is
anything that is not a regular file; every answer says what it is (``nosniff``) and runs no script but the folder's
own (a Content-Security-Policy), carries an ``ETag`` (a request that names it is answered 304, without the file),
and is gzipped for a client that accepts it (made once per file version). ``/favicon.ico`` is answered empty (204).

Why waitress: it reads every request in one event loop and hands a worker thread only a request read whole, so a
slow client holds a socket, never a thread: 70 connections sending a header line every 5 s left every real request
of the standard library's server unanswered. At most ``CONNECTIONS`` connections are held (past them, new ones wait
in the system's queue until one closes); a connection whose request is not read whole ``HEADER_SECONDS`` after it
opened, or silent for ``IDLE_SECONDS`` between requests, is closed."""

from __future__ import annotations

import gzip
import hashlib
import logging
import math
import mimetypes
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from waitress.server import TcpWSGIServer

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


#: Connections held at once (each a socket of the event loop, not a thread); past them, new ones wait to be accepted.
CONNECTIONS = 256
#: Seconds a connection may take to send its request whole (a header a line every few seconds is closed then).
HEADER_SECONDS = 10.0
#: Seconds a connection may stay silent between its requests before it is closed.
IDLE_SECONDS = 15.0
#: Threads answering the requests read whole (reading a file and sending it: a few milliseconds each).
THREADS = 4
#: The kinds worth compressing (the pictures are compressed already).
COMPRESSED = frozenset({".html", ".js", ".css", ".svg", ".json"})

StartResponse = Callable[[str, list[tuple[str, str]]], Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


@dataclass(frozen=True, slots=True)
class _Body:
    """A file as it is sent: its bytes, gzipped (b'' when not worth it), its ETag and its type."""

    data: bytes
    zipped: bytes
    tag: str
    kind: str


@lru_cache(maxsize=512)
def _body(path: str, size: int, mtime: int, suffix: str) -> _Body:
    """The file at ``path`` as it is sent, made once per version of it (its size and time of change)."""
    with open(path, "rb") as file:
        data = file.read()
    return _made(data, suffix)


def _made(data: bytes, suffix: str) -> _Body:
    zipped = gzip.compress(data, 6, mtime=0) if suffix in COMPRESSED and len(data) > 256 else b""
    kind = TYPES.get(suffix, mimetypes.guess_type(f"x{suffix}")[0] or "application/octet-stream")
    return _Body(data, zipped, f'"{hashlib.sha256(data).hexdigest()[:24]}"', kind)


def page_app(pages: Pages) -> WsgiApp:
    """The WSGI application of ``pages`` (asked afresh at every request: matches come and go)."""
    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "GET")
        if method not in ("GET", "HEAD"):
            start_response("405 Method Not Allowed", [("Allow", "GET, HEAD"), ("Content-Length", "0")])
            return []
        raw = environ.get("REQUEST_URI") or quote(environ.get("PATH_INFO", "/"))
        found = _find(pages, urlsplit(raw).path)
        if isinstance(found, str):
            start_response("301 Moved Permanently", [("Location", found), ("Content-Length", "0")])
            return []
        if found is None:
            return _answer(start_response, "404 Not Found", _made(b"Not found.\n", ".txt"), environ)
        if found is _NO_ICON:
            start_response("204 No Content", [("Cache-Control", "max-age=86400")])
            return []
        if found.tag in environ.get("HTTP_IF_NONE_MATCH", ""):
            start_response("304 Not Modified", [("ETag", found.tag), *_SAFE])
            return []
        return _answer(start_response, "200 OK", found, environ, body=method == "GET")
    return app


#: What every answer with a body says: what it is, that it runs no script but the folder's own, to be asked again.
_SAFE = (("Content-Security-Policy", POLICY), ("X-Content-Type-Options", "nosniff"),
         ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-cache"))


def _answer(start_response: StartResponse, status: str, sent: _Body, environ: dict[str, Any], *,
            body: bool = True) -> list[bytes]:
    """``sent`` with its headers: gzipped when the client accepts it and that is worth it."""
    zipped = bool(sent.zipped) and "gzip" in environ.get("HTTP_ACCEPT_ENCODING", "")
    data = sent.zipped if zipped else sent.data
    headers = [("Content-Type", sent.kind), ("Content-Length", str(len(data))), ("ETag", sent.tag),
               ("Vary", "Accept-Encoding"), *(("Content-Encoding", "gzip"),) * zipped, *_SAFE]
    start_response(status, headers)
    return [data] if body else []


def _find(pages: Pages, path: str) -> _Body | str | None:
    """What ``path`` names: the file to send, the address to go to instead, or None."""
    if path == "/favicon.ico":
        return _NO_ICON
    listed = pages()
    if path in ("", "/", "/index.html"):
        html = environment().get_template("index.html.j2").render(pages=sorted(listed.items()))
        return _made(html.encode(), ".html")
    name, slash, rest = path.lstrip("/").partition("/")
    page = listed.get(unquote(name))
    if page is None:
        return None
    if not slash:
        return f"/{name}/"
    found = resolve_file(page.folder, rest or "/")
    if found is None:
        return None
    try:
        status = found.stat()
        return _body(str(found), status.st_size, status.st_mtime_ns, found.suffix)
    except OSError:
        return None


#: The site's icon: none (every page names an empty one; a client that asks anyway gets an empty answer).
_NO_ICON = _Body(b"", b"", '"no-icon"', "image/x-icon")


class _PageServer(TcpWSGIServer):
    """Waitress's server, closing besides its idle connections those whose request is not read whole
    ``header_seconds`` after they opened (a client sending its header a line at a time)."""

    header_seconds = HEADER_SECONDS

    def maintenance(self, now: int) -> None:  # (a float, as waitress gives it: its stubs say int)
        """Mark for closing the idle connections (waitress's own rule) and the ones too slow to send a request."""
        super().maintenance(now)
        channels: dict[int, Any] = self.active_channels  # type: ignore[assignment]  # (its stubs: one channel)
        for channel in channels.values():
            if not channel.requests and channel.request is not None and \
                    now - channel.creation_time > self.header_seconds:
                channel.will_close = True


@dataclass
class PageServer:
    """The pages' server running in its thread: where it listens, and how to stop it."""

    server: Any  # (``_PageServer``: its stubs name neither its address nor its connections)
    thread: threading.Thread

    @property
    def server_address(self) -> tuple[str, int]:
        """The host and port it listens on."""
        return str(self.server.effective_host), int(self.server.effective_port)

    def shutdown(self) -> None:
        """Stop serving: every connection closed, the loop and the worker threads ended."""
        self.server.task_dispatcher.shutdown(timeout=5)
        for channel in list(self.server._map.values()):
            channel.close()
        self.thread.join(timeout=5)

    def server_close(self) -> None:
        """Nothing more to free (``shutdown`` closed the socket); kept for the callers of a standard server."""


def start_page_server(address: tuple[str, int], pages: Pages, *, connections: int = CONNECTIONS,
                      idle: float = IDLE_SECONDS, header: float = HEADER_SECONDS) -> PageServer:
    """Serve ``pages`` (asked afresh at every request: matches come and go) at ``address`` from a daemon thread:
    at most ``connections`` held at once, each closed after ``idle`` seconds of silence between requests or when its
    request is not read whole ``header`` seconds after it opened; the caller stops it with ``shutdown()``."""
    server = _PageServer(page_app(pages), host=address[0], port=address[1], threads=THREADS,
                         connection_limit=connections, channel_timeout=max(1, math.ceil(idle)), ident="sheets-gm",
                         cleanup_interval=1, asyncore_use_poll=True,
                         max_request_body_size=1024, max_request_header_size=16384, expose_tracebacks=False)
    server.header_seconds = header
    for name in ("waitress", "waitress.queue"):  # quiet: the host's own lines say what it does
        logging.getLogger(name).setLevel(logging.ERROR)
    thread = threading.Thread(target=server.run, name="sheets-gm-web", daemon=True)
    thread.start()
    return PageServer(server, thread)
