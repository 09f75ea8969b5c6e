"""A mailbox that cannot be read, said in words a GM can act on: what failed, and what to change. Shared by the
IMAP session (``client``) and the idle poll's one STATUS (``status``), so each failure reads the same whichever
met it. Standard library only (the idle poll loads it)."""

from __future__ import annotations

import contextlib
import imaplib
import ssl
from collections.abc import Callable, Iterator, Sequence

from sheets_gm.match.config_tables import SecretError
from sheets_gm.match.mailbox_settings import MailboxSecurity, MailboxSettings


class MailboxError(Exception):
    """The mailbox could not be read; the message says what failed and what to change. ``kind``: ``secret``,
    ``connect``, ``tls``, ``login``, ``folder`` or ``server``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def where(settings: MailboxSettings) -> str:
    """The server, as a message names it."""
    return f"the mailbox server {settings.host}:{settings.port} ([mailbox] in the match config)"


def said(exc: BaseException | object) -> str:
    """An error's words (or a server's answer), bytes decoded, on one line."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = exc.args[0] if isinstance(exc, BaseException) and exc.args else exc
    if isinstance(text, list | tuple) and text:
        text = text[0]
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = str(text)
    if text.startswith(("b'", 'b"')) and text[-1:] == text[1]:  # a login error: the server's bytes, as their repr
        text = text[2:-1]
    return " ".join(text.split()) or type(exc).__name__


def tls_context(settings: MailboxSettings) -> ssl.SSLContext:
    """The TLS context: the system's authorities, or the ``ca_file``'s."""
    return ssl.create_default_context(cafile=str(settings.ca_file) if settings.ca_file else None)


def password(settings: MailboxSettings) -> str:
    """The mailbox's password, read from where ``[mailbox]`` names it; MailboxError (``secret``) when it cannot be."""
    try:
        return settings.password.read("the mailbox password ([mailbox])")
    except SecretError as exc:
        raise MailboxError("secret", str(exc)) from None


def unreachable(settings: MailboxSettings, exc: BaseException) -> MailboxError:
    """The server could not be reached."""
    return MailboxError("connect", f"{where(settings)} cannot be reached ({said(exc)}): check host and port, and that "
                                   "the server is up")


def untrusted(settings: MailboxSettings, exc: BaseException) -> MailboxError:
    """The server's certificate is not trusted."""
    return MailboxError("tls", f"{where(settings)}: its certificate is not trusted ({said(exc)}): check host; for a "
                               "server whose certificate no public authority signed, name the PEM file of its "
                               "authority in [mailbox] ca_file")


def tls_failed(settings: MailboxSettings, exc: BaseException, *, starttls: bool) -> MailboxError:
    """TLS (from the first byte, or by STARTTLS) failed otherwise."""
    if starttls:
        return MailboxError("tls", f"{where(settings)}: STARTTLS failed ({said(exc)}): for port 993 write "
                                   "security = \"tls\"")
    return MailboxError("tls", f"{where(settings)}: TLS failed ({said(exc)}): security = \"tls\" needs a port that "
                               "speaks TLS from the first byte (993); for port 143 write \"starttls\"")


def refused_login(settings: MailboxSettings, exc: BaseException) -> MailboxError:
    """The server refused the login."""
    return MailboxError("login", f"{where(settings)} refused the login of {settings.user} ({said(exc)}): check user "
                                 f"in [mailbox] and the password in {settings.password.describe()}")


def stopped(settings: MailboxSettings, exc: BaseException | object) -> MailboxError:
    """The server stopped answering, or answered what was not expected."""
    return MailboxError("server", f"{where(settings)} stopped answering ({said(exc)}); the mail is read at the next "
                                  "poll")


def no_folder(settings: MailboxSettings, answer: BaseException | object, names: Sequence[str]) -> MailboxError:
    """The folder could not be opened: the folders there are named, when the server said."""
    there = f"; the folders of {settings.user} are {', '.join(sorted(names))}" if names else ""
    return MailboxError("folder", f"{where(settings)}: the folder {settings.folder!r} cannot be opened "
                                  f"({said(answer)}): write one of the mailbox's folders in [mailbox] folder{there}")


@contextlib.contextmanager
def connecting(settings: MailboxSettings, *, starttls: bool = False) -> Iterator[None]:
    """Opening the connection (``starttls``: making it secret by STARTTLS), each failure raised as the
    MailboxError that says it: a certificate not trusted, TLS failing, the server not reached. Both clients' errors
    are ``imaplib``'s (``imapclient``'s derive from them)."""
    try:
        yield
    except ssl.SSLCertVerificationError as exc:
        raise untrusted(settings, exc) from None
    except ssl.SSLError as exc:
        raise tls_failed(settings, exc, starttls=starttls) from None
    except (OSError, imaplib.IMAP4.error) as exc:
        raise (tls_failed(settings, exc, starttls=True) if starttls else unreachable(settings, exc)) from None


def starttls_if_asked(settings: MailboxSettings, starttls: Callable[[ssl.SSLContext], object],
                      close: Callable[[], None]) -> None:
    """Make a plain connection secret by STARTTLS when ``security`` says so (``starttls``: the client's own call);
    on a failure, the connection closed (``close``) and the MailboxError that says it raised."""
    if settings.security is not MailboxSecurity.STARTTLS:
        return
    try:
        with connecting(settings, starttls=True):
            starttls(tls_context(settings))
    except MailboxError:
        close()
        raise
