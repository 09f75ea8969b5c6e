"""Notices by e-mail: one SMTP connection per sending, encrypted from before the login (STARTTLS or TLS).

A letter is delivered address by address: the server's answer to each RCPT decides. An address it accepts is
never sent that letter again; one it refuses for good (5xx) is dropped from the letter and named to the GM; one
it refuses for now (4xx) is tried again later, alone. So one bad address in a team's roster never makes the
others' letters repeat.

The password is read from its environment variable or file when the connection is made, never kept. Each
message's ``Message-ID`` is made from its notice's key, in the sender's domain, so that a message sent again
after a crash between the server's acceptance and the outbox's record is the same message to the reader's mail
program. Each says it is automatic (``Auto-Submitted``: no out-of-office reply to the GM) and from a list (the
match): ``message_of``.
"""

from __future__ import annotations

import hashlib
import smtplib
import ssl
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import format_datetime, parseaddr
from types import TracebackType
from urllib.parse import quote

from sheets_gm.match.config_tables import SecretError
from sheets_gm.match.notify_settings import EmailSettings, Security
from sheets_gm.notify.channel import SendError
from sheets_gm.notify.outbox import Letter


@dataclass(frozen=True)
class MailHeads:
    """What makes a notice behave as mail from a list: the GM's addresses replies go to (``reply_to``), and the
    match's title and name for ``List-Id`` (the name: its key's start, the seed's hash)."""

    reply_to: tuple[str, ...] = ()
    title: str = ""


#: How a message's headers are written: each on one line, never folded (a line may hold 998 characters): a folded
#: subject came back with a double space or a leading one from a reader that reads the fold's line break as a space
#: ("open again:  the GM took a turn back"), and from Python's own parser (" [GvG match] Turn 3 is open again: …").
ONE_LINE_HEADERS = default_policy.clone(max_line_length=998)


def _domain(sender: str) -> str:
    address = parseaddr(sender)[1]
    return address.rsplit("@", 1)[1].lower() if "@" in address else "sheets-gm.invalid"


def letter_id(key: str) -> str:
    """The left part of the ``Message-ID`` of the letter keyed ``key`` (the same letter, the same id)."""
    return hashlib.sha256(key.encode()).hexdigest()[:40]


def message_of(letter: Letter, sender: str, now: datetime | None = None,
               heads: MailHeads = MailHeads(), to: str | None = None) -> EmailMessage:
    """The e-mail of ``letter`` to one of its addresses, ``to`` (its first by default): from ``sender``, plain text,
    to her alone, so that no player learns another's address; its ``Message-ID`` from its key and, for a letter to
    several, the address, in the sender's domain (the same letter sent again to her is the same message to her mail
    program), ``Date`` the sending moment with its
    zone, ``Auto-Submitted: auto-generated`` (no out-of-office reply comes back), ``Reply-To`` the GM, and the
    match as a list: ``List-Id``, and ``List-Unsubscribe`` a mail to the GM asking to be muted (the GM mutes an
    address with ``sheets-gm notices --mute``; nothing is muted without her)."""
    domain = _domain(sender)
    match = letter.key.split("/", 1)[0] or "match"
    message = EmailMessage()
    message["From"] = sender
    address = to if to is not None else (letter.to[0] if letter.to else "")
    ident = letter.key if len(letter.to) <= 1 else f"{letter.key}\n{address.casefold()}"
    message["To"] = address
    message["Subject"] = letter.subject
    message["Date"] = format_datetime((now or datetime.now(UTC)).astimezone(UTC))
    message["Message-ID"] = f"<{letter_id(ident)}@{domain}>"
    if letter.in_reply_to:  # an answer to a mail (a receipt): its reader's program threads it, a reply is known
        message["In-Reply-To"] = message["References"] = letter.in_reply_to
    message["Auto-Submitted"] = "auto-generated"
    message["X-Auto-Response-Suppress"] = "All"  # Exchange's out-of-office replies
    gm = heads.reply_to or (parseaddr(sender)[1],)
    if heads.reply_to:
        message["Reply-To"] = ", ".join(heads.reply_to)
    list_name = "".join(c for c in (heads.title or "sheets-gm match") if c.isprintable() and c not in '"<>\\')
    message["List-Id"] = f'"{list_name}" <{match}.{domain}>'
    message["List-Unsubscribe"] = f"<mailto:{gm[0]}?subject=" + quote(f"Mute my notices of {list_name}") + ">"
    message.set_content(letter.body)  # the body's lines encoded as the default policy does (78 characters)
    message.policy = ONE_LINE_HEADERS
    return message


@dataclass(frozen=True)
class Delivery:
    """What the server did with one letter: the addresses it ``accepted``, those it refused for good
    (``refused``: address → its words) and those it refused for now (``later``: address → its words); ``stopped``,
    the failure that cut the sending short after some addresses had it (the others were not tried)."""

    accepted: tuple[str, ...] = ()
    refused: dict[str, str] = field(default_factory=dict)
    later: dict[str, str] = field(default_factory=dict)
    stopped: SendError | None = None


def _answer(code: int, reply: bytes | str) -> str:
    text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)
    return f"{code} {text}".strip()


class MailSession:
    """An open, encrypted, logged-in connection to the mail server of ``[notify.email]``: ``with MailSession(
    settings) as mail: mail.send(letter)``. Every failure is a ``SendError`` naming what to check."""

    def __init__(self, settings: EmailSettings, heads: MailHeads = MailHeads()) -> None:
        self.settings = settings
        self.heads = heads
        self.smtp: smtplib.SMTP | None = None

    @property
    def server(self) -> str:
        """The server as the GM named it: ``smtp.example.org:587``."""
        return f"{self.settings.host}:{self.settings.port}"

    def __enter__(self) -> MailSession:
        s = self.settings
        password = ""
        if s.password is not None:
            try:
                password = s.password.read("the mail password")
            except SecretError as exc:
                raise SendError(str(exc), down=True) from None
        context = ssl.create_default_context(cafile=str(s.ca_file) if s.ca_file else None)
        try:
            if s.security is Security.TLS:
                self.smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
            else:
                self.smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
                self._hello()
                if not self.smtp.has_extn("starttls"):
                    raise SendError(f"the mail server {self.server} offers no STARTTLS, and nothing is sent "
                                    "unencrypted: set security = \"tls\" if it speaks TLS from the start (port 465)",
                                    down=True)
                self.smtp.starttls(context=context)
                self._hello()
            if s.user:
                self.smtp.login(s.user, password)
        except SendError:
            self._close()
            raise
        except smtplib.SMTPResponseException as exc:
            self._close()
            if exc.smtp_code < 500 or not isinstance(exc, smtplib.SMTPAuthenticationError):
                raise reply_error(self.server, exc.smtp_code, exc.smtp_error, "the connection") from None
            raise SendError(f"the mail server {self.server} refused the login of {s.user!r} ({exc.smtp_code}): "
                            f"check the password in {s.password.describe() if s.password else 'password_env'}",
                            down=True) from None
        except ssl.SSLError as exc:
            self._close()
            raise SendError(f"no secure connection to {self.server} ({exc.reason or exc}): check host, port and "
                            "security (starttls on 587, tls on 465), or ca_file for a private certificate",
                            down=True) from None
        except (OSError, smtplib.SMTPException) as exc:
            self._close()
            raise SendError(f"cannot reach the mail server {self.server} ({_why(exc)})", down=True) from None
        return self

    def _hello(self) -> None:
        """EHLO, its reply code read: a server that answers 421 is busy (try later), not one without STARTTLS."""
        assert self.smtp is not None
        code, said = self.smtp.ehlo()
        if code != 250:
            raise reply_error(self.server, code, said, "EHLO")

    def send(self, letter: Letter, now: datetime | None = None, most: int | None = None) -> Delivery:
        """Send ``letter`` to its addresses still pending (``Letter.pending``; the first ``most`` of them when given),
        a message to each, and say what became of each; SendError when the first message was not taken (``down``
        when the connection failed; ``permanent`` when the server refused the message for good). A failure after
        some addresses had it ends the sending: the delivery says so (``stopped``)."""
        assert self.smtp is not None, "send inside the with block"
        pending = letter.pending
        if not pending:
            raise SendError(f"no e-mail address for {letter.recipient} in the roster: add one (the roster's email "
                            "column)", down=False)
        accepted: list[str] = []
        answers: dict[str, tuple[int, str]] = {}
        for address in pending[:most]:
            try:
                refused = self.smtp.send_message(message_of(letter, self.settings.sender, now, self.heads, address),
                                                 to_addrs=[address])
            except smtplib.SMTPRecipientsRefused as exc:
                refused = exc.recipients
            except (OSError, smtplib.SMTPException) as exc:
                error = self._failure(exc)
                if not accepted and not answers:
                    raise error from None
                return _delivery(accepted, answers, stopped=error)
            if refused:
                answers.update({a: (code, _answer(code, reply)) for a, (code, reply) in refused.items()})
            else:
                accepted.append(address)
        return _delivery(accepted, answers)

    def _failure(self, exc: BaseException) -> SendError:
        """A message not taken, in words: 421 closes the connection; another 4xx, try again later; 5xx, this message
        is refused for good; anything else, the connection failed."""
        if isinstance(exc, smtplib.SMTPResponseException):
            said = _answer(exc.smtp_code, exc.smtp_error)
            return SendError(f"the mail server {self.server} answered {said}", down=exc.smtp_code == 421,
                             permanent=exc.smtp_code >= 500)
        return SendError(f"the connection to {self.server} failed while sending ({_why(exc)})", down=True)

    def _close(self) -> None:
        if self.smtp is None:
            return
        try:
            self.smtp.quit()
        except (OSError, smtplib.SMTPException):
            self.smtp.close()
        self.smtp = None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._close()


def _delivery(accepted: list[str], answers: dict[str, tuple[int, str]], stopped: SendError | None = None) -> Delivery:
    return Delivery(tuple(accepted), {a: said for a, (code, said) in answers.items() if code >= 500},
                    {a: said for a, (code, said) in answers.items() if code < 500}, stopped)


def reply_error(server: str, code: int, said: bytes | str, step: str) -> SendError:
    """A server's reply that stops the connection, by its code: 4xx (421 "try later") is a server busy for now, the
    letters waiting for a later try; 5xx a refusal to name; the channel fails either way.

    >>> str(reply_error("smtp.example.org:587", 421, b"4.7.0 try again later", "EHLO"))[:81]
    'the mail server smtp.example.org:587 is busy (it answered EHLO with 421 4.7.0 try'
    """
    answer = _answer(code, said)
    if 400 <= code < 500:
        return SendError(f"the mail server {server} is busy (it answered {step} with {answer}): the notices wait and "
                         "are tried again later; nothing to change in the config", down=True)
    return SendError(f"the mail server {server} refused {step} ({answer}): check host, port and security with "
                     "your provider's settings", down=True)


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError) or "timed out" in str(exc):  # smtplib reports a read's timeout as a hang-up
        return "no answer in time"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__

