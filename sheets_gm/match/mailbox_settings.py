"""The ``[mailbox]`` table of a match config: the judge's mailbox (IMAP), read at every poll.

Example::

    [mailbox]                      # the judge's mailbox (IMAP), read at every poll
    host = "imap.example.org"
    port = 993                     # the default for tls; 143 for starttls and none
    security = "tls"               # "tls", "starttls", or "none" (accepted for 127.0.0.1, ::1 and localhost only)
    user = "judge@example.org"
    password_env = "SHEETS_GM_MAILBOX_PASSWORD"   # or password_file = "~/.config/sheets-gm/mailbox-password"
    folder = "INBOX"               # the default
    # ca_file = "judge-ca.pem"     # certificates to trust, for a server no public authority signed
    # timeout = 10                 # seconds the server is waited for (the default)
    # receipts_per_day = 20        # receipts one address gets a day at most (0: none); the rest is read, unanswered
    # answer_strangers = true      # a non-player's address: one short answer a day (all of them: receipts_per_day)

The password is never in the file, as for ``[notify.email]`` (``config_tables.SecretSource``). Every bad option
gets a line of its own naming what is wrong and what is accepted (``parse_mailbox``); a config with any keeps its
match running with its mailbox unread, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path

from sheets_gm.engine.plain import Plain
from sheets_gm.match import config_tables as tables
from sheets_gm.match.config_tables import DEFAULT_TIMEOUT, Problems, SecretSource
from sheets_gm.match.env_file import env_files_of


class MailboxSecurity(StrEnum):
    """How the connection to the mailbox is encrypted."""

    TLS = "tls"  # TLS from the first byte (port 993)
    STARTTLS = "starttls"  # a plain connection made secret by STARTTLS (port 143)
    NONE = "none"  # no encryption: only to a server on this very computer (a password never crosses a network bare)


#: The hosts a mailbox with ``security = "none"`` may be on: this computer alone.
LOOPBACK = ("127.0.0.1", "::1", "localhost")
#: The keys ``[mailbox]`` accepts.
KEYS = ("host", "port", "security", "user", "password_env", "password_file", "folder", "ca_file", "timeout",
        "receipts_per_day", "answer_strangers")
#: The receipts one address gets a day by default: a player's busy day, never a loop's.
RECEIPTS_PER_DAY = 20


class MailboxSettings(Plain):
    """A valid ``[mailbox]``: the IMAP server, its encryption, the login, the folder read. A plain record
    (``engine.plain``): the idle poll reads it, and loads no ``dataclasses``."""

    __slots__ = ("answer_strangers", "ca_file", "folder", "host", "password", "port", "receipts_per_day",
                 "security", "timeout", "user")

    def __init__(self, host: str, port: int, security: MailboxSecurity, user: str, password: SecretSource,
                 folder: str = "INBOX", ca_file: Path | None = None, timeout: float = DEFAULT_TIMEOUT,
                 receipts_per_day: int = RECEIPTS_PER_DAY, answer_strangers: bool = True) -> None:
        self.host, self.port, self.security, self.user = host, port, security, user
        self.password, self.folder, self.ca_file, self.timeout = password, folder, ca_file, timeout
        self.receipts_per_day, self.answer_strangers = receipts_per_day, answer_strangers

    def describe(self) -> str:
        """The mailbox for people: ``judge@example.org at imap.example.org:993 (tls), folder INBOX``."""
        return f"{self.user} at {self.host}:{self.port} ({self.security.value}), folder {self.folder}"

    def secret_env(self) -> list[str]:
        """The environment variable its password is read from, if any (cron's line must bring it)."""
        return [self.password.env] if self.password.env else []


def parse_mailbox(raw: object, *, where: str, folder: Path) -> tuple[MailboxSettings | None, list[str]]:
    """The ``[mailbox]`` table ``raw`` read, and a line per bad option (then the settings are None). An empty or
    missing table is no mailbox and no problem. ``where`` names the config file, ``folder`` is where relative paths
    start."""
    if raw in (None, {}):
        return None, []
    problems = Problems(where)
    table = "mailbox"
    if not isinstance(raw, Mapping):
        return None, [f"{where} mailbox: it is a table ([mailbox]), not {raw!r}"]
    problems.unknown(table, raw, KEYS, "password", ("password", "pass", "imap_password"))
    host = tables.read_text(table, raw, "host", problems, "the mail server's name, e.g. \"imap.example.org\"")
    security = _security(raw, host, problems)
    port = tables.read_port(table, raw, 993 if security is MailboxSecurity.TLS else 143, problems,
                     "993 for tls, 143 for starttls")
    user = tables.read_text(table, raw, "user", problems, "the mailbox's login, e.g. \"judge@example.org\"")
    password = tables.read_secret(table, raw, "password", folder, problems, required=True)
    name = raw.get("folder", "INBOX")
    if not isinstance(name, str) or not name.strip():
        problems.add(table, "folder", f"{name!r} is not a folder's name; write the folder to read, e.g. \"INBOX\" "
                                      "(the default) or \"INBOX/Judge\"")
    ca = tables.read_ca_file(table, raw, folder, problems)
    timeout = tables.read_timeout(table, raw, problems)
    per_day = raw.get("receipts_per_day", RECEIPTS_PER_DAY)
    if isinstance(per_day, bool) or not isinstance(per_day, int) or not 0 <= per_day <= 1000:
        problems.add(table, "receipts_per_day", f"{per_day!r} is not a whole number from 0 to 1000: the receipts one "
                                                f"address gets a day at most (the default is {RECEIPTS_PER_DAY})")
    strangers = raw.get("answer_strangers", True)
    if not isinstance(strangers, bool):
        problems.add(table, "answer_strangers", f"{strangers!r} is not true or false: true (the default) gives an "
                                                "address that is no player's one short answer a day, false none")
    if problems.lines or password is None:
        return None, problems.lines
    password = password.with_env_files(env_files_of(Path(where)))
    return MailboxSettings(host, port, security, user, password, str(name).strip(), ca, timeout, int(per_day),
                           bool(strangers)), []


def _security(raw: Mapping[str, object], host: str, problems: Problems) -> MailboxSecurity:
    """``security``: tls (the default), starttls, or none for a server on this computer alone."""
    value = raw.get("security", "tls")
    try:
        security = MailboxSecurity(str(value).strip().lower())
    except ValueError:
        problems.add("mailbox", "security", f"{value!r} is not accepted; write \"tls\" (port 993), \"starttls\" (port "
                                            "143), or \"none\" for a server on this computer (127.0.0.1) alone")
        return MailboxSecurity.TLS
    if security is MailboxSecurity.NONE and host and host.lower() not in LOOPBACK:
        problems.add("mailbox", "security", f"\"none\" is accepted only for a server on this computer "
                                            f"({', '.join(LOOPBACK)}), not {host!r}: the password and the players' "
                                            "mail would cross the network unencrypted; write \"tls\" or \"starttls\"")
    return security
