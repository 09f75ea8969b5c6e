"""Local servers the notice tests send to: a real SMTP server (aiosmtpd) speaking STARTTLS or implicit TLS with
a login, and a webhook (the standard library's HTTP server in a thread) with faults to order: an answer code
with a Retry-After, a hang past the client's timeout, a closed port. Nothing leaves this machine.

The TLS certificate (``test-cert.pem``, for localhost and 127.0.0.1, a hundred years) was made once with
``openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -subj /CN=localhost -addext
subjectAltName=DNS:localhost,IP:127.0.0.1``; the client trusts it through ``ca_file``.
"""

from __future__ import annotations

import email
import email.policy
import json
import socket
import ssl
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

HERE = Path(__file__).parent
CERT = HERE / "test-cert.pem"
KEY = HERE / "test-key.pem"
USER = "gm@notices.example"
PASSWORD = "correct horse battery staple"


def free_port() -> int:
    """A TCP port nothing listens on now (bound once, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_context() -> ssl.SSLContext:
    """The servers' TLS context, with the test certificate."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(CERT, KEY)
    return context


@dataclass
class Mailbox:
    """What the SMTP server received: each message with its envelope's recipients; ``refuse`` makes it refuse
    the RCPT of those addresses for good (550), ``busy`` for now (450); ``busy_hellos`` answers the next EHLOs
    with 421."""

    messages: list[tuple[list[str], EmailMessage]] = field(default_factory=list)
    raw: list[bytes] = field(default_factory=list)  # each message as it came, headers folded as sent
    refuse: set[str] = field(default_factory=set)
    busy: set[str] = field(default_factory=set)
    logins: list[str] = field(default_factory=list)
    busy_hellos: int = 0  # the next EHLOs answered "421 try later" (a server busy for now)

    async def handle_EHLO(self, server: SMTP, session: Session, envelope: Envelope, hostname: str,
                          responses: list[str]) -> list[str]:
        if self.busy_hellos:
            self.busy_hellos -= 1
            return ["421 4.3.2 Service not available, try again later"]
        session.host_name = hostname
        return responses

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if address in self.refuse:
            return "550 5.1.1 no such mailbox here"
        if address in self.busy:
            return "450 4.2.1 mailbox busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.content if isinstance(envelope.content, bytes) else str(envelope.content).encode()
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append((list(envelope.rcpt_tos), parsed))
        self.raw.append(raw)
        return "250 Message accepted"

    def to(self, address: str) -> list[EmailMessage]:
        """The messages whose envelope named ``address``."""
        return [m for rcpts, m in self.messages if address in rcpts]

    def authenticate(self, server: SMTP, session: Session, envelope: Envelope, mechanism: str,
                     auth_data: Any) -> AuthResult:
        ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == USER and \
            auth_data.password.decode() == PASSWORD
        if ok:
            self.logins.append(USER)
        return AuthResult(success=ok, handled=False)


class _WholeTlsController(Controller):
    """A controller whose servers offer the login on a connection that is TLS from the start, without aiosmtpd's
    warning (meant for a plain connection)."""

    def factory(self) -> SMTP:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Requiring AUTH while not requiring TLS", UserWarning)
            server: SMTP = super().factory()  # type: ignore[no-untyped-call]  # aiosmtpd leaves it untyped
            return server


@contextmanager
def smtp_server(implicit_tls: bool = False, port: int = 0, box: Mailbox | None = None
                ) -> Iterator[tuple[Mailbox, int]]:
    """A running SMTP server on 127.0.0.1 that requires a login over TLS: STARTTLS on a plain port, or TLS from
    the first byte (``implicit_tls``), on ``port`` (a free one by default), into ``box`` (a new one by default).
    Yields its mailbox and port."""
    box = box if box is not None else Mailbox()
    port = port or free_port()
    options: dict[str, Any] = {"authenticator": box.authenticate, "auth_required": True}
    if implicit_tls:
        # The whole connection is TLS, which aiosmtpd's check for a login over TLS does not see (it looks for
        # STARTTLS): its login is offered without that check.
        controller: Controller = _WholeTlsController(box, hostname="127.0.0.1", port=port, ssl_context=server_context(),
                                server_hostname="localhost", auth_require_tls=False, **options)
    else:
        controller = Controller(box, hostname="127.0.0.1", port=port, tls_context=server_context(),
                                require_starttls=True, **options)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@dataclass
class Fault:
    """What the webhook answers instead of taking a post: a status (with headers and a body), or a hang of
    ``hang`` seconds (longer than the client waits); ``take``: the post is taken (recorded) before the fault, as a
    server that posts and then answers too late, or not at all."""

    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    hang: float = 0.0
    take: bool = False


@dataclass
class Hook:
    """The webhook's record: each JSON body it took, and the faults to answer the next posts with."""

    port: int
    posts: list[dict[str, Any]] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        """The webhook's URL."""
        return f"http://127.0.0.1:{self.port}/hooks/secret-token-123"

    def texts(self) -> list[str]:
        """What each post said (Discord's content or Slack's text)."""
        return [str(p.get("content", p.get("text", ""))) for p in self.posts]


def _post_of(content_type: str, body: bytes) -> dict[str, Any]:
    """A post's JSON; a multipart post (Discord's with a file) as its ``payload_json`` with ``files``: each file's
    name and text."""
    if not content_type.startswith("multipart/"):
        return dict(json.loads(body))
    parsed = email.message_from_bytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body,
                                      policy=email.policy.default)
    post: dict[str, Any] = {"files": {}}
    for part in parsed.iter_parts():
        if part.get_param("name", header="content-disposition") == "payload_json":
            post.update(json.loads(part.get_content()))
        else:
            post["files"][part.get_filename()] = part.get_content()
    return post


@contextmanager
def webhook_server() -> Iterator[Hook]:
    """A webhook on 127.0.0.1 in a thread, taking JSON posts (answer 204) unless a fault is queued."""
    hook = Hook(0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            fault = hook.faults.pop(0) if hook.faults else None
            if fault is not None and fault.take:
                hook.posts.append(_post_of(self.headers.get("Content-Type", ""), body))
            if fault is not None and fault.hang:
                hook.release.wait(fault.hang)  # the client gives up first; the test releases the thread
                return
            if fault is not None and fault.status:
                self.send_response(fault.status)
                for name, value in fault.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(fault.body)))
                self.end_headers()
                self.wfile.write(fault.body)
                return
            hook.posts.append(_post_of(self.headers.get("Content-Type", ""), body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    hook.port = int(server.server_address[1])
    # its loop looks for a shutdown every 20 ms, not every 0.5 s: a test waits that long for its server to stop
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield hook
    finally:
        hook.release.set()
        server.shutdown()
        server.server_close()
