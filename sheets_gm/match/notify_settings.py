"""The ``[notify]`` table of a match config: which notices go out, when, and through which channels.

Example::

    [notify]
    send = ["opened", "reminder", "resolved", "post", "over"]   # the default: every kind
    reminder = "2h"                 # how long before a deadline a seat not ready is reminded ("off": never)
    timezones = { Ann = "America/New_York", "kim@example.org" = "Asia/Tokyo" }   # a seat's, or a player's (by
                                    # her roster address) deadline in her own zone ([deadlines] timezone else)

    [notify.email]                  # a message per seat, to its members' roster addresses
    host = "smtp.example.org"
    security = "starttls"           # or "tls" (implicit TLS, port 465)
    port = 587                      # the default for starttls; 465 for tls
    user = "gm@example.org"
    password_env = "SHEETS_GM_SMTP_PASSWORD"    # or password_file = "~/.config/sheets-gm/smtp-password"
    sender = "Friday match <gm@example.org>"

    [notify.chat]                   # a webhook every player's channel receives
    style = "discord"               # or "slack"
    url_env = "SHEETS_GM_WEBHOOK"   # or url_file = "~/.config/sheets-gm/webhook-url"

Secrets are never in the file: a config is copied, shared and kept in exports, so the mail password and the
webhook's URL (which is its own password: whoever has it may post) are named by an environment variable or
a file. Every bad option gets a line of its own naming what is wrong and what is accepted
(``parse_notify``); a config with any keeps its match running with notices off, and says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from enum import StrEnum
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sheets_gm.match.config_tables import (
    DEFAULT_TIMEOUT,
    Problems,
    SecretSource,
    read_ca_file,
    read_port,
    read_secret,
    read_text,
    read_timeout,
)
from sheets_gm.match.env_file import env_files_of


class NoticeKind(StrEnum):
    """Why a notice is sent (the kinds a GM may choose in ``[notify] send``)."""

    OPENED = "opened"
    REMINDER = "reminder"
    RESOLVED = "resolved"
    POST = "post"
    OVER = "over"
    TEST = "test"


#: The kinds a GM may choose in ``send`` (the test notice is doctor's alone).
SENDABLE = tuple(k for k in NoticeKind if k is not NoticeKind.TEST)


class Security(StrEnum):
    """How the mail connection is encrypted."""

    STARTTLS = "starttls"  # plain connection made secret by STARTTLS (port 587)
    TLS = "tls"  # TLS from the first byte (port 465)


class ChatStyle(StrEnum):
    """Which JSON a webhook takes."""

    DISCORD = "discord"  # {"content": ...}, at most 2,000 characters a message
    SLACK = "slack"  # {"text": ...} (Slack, Mattermost, Rocket.Chat, Teams' Slack-compatible hooks)


#: The longest message each chat style takes (a longer notice goes as several posts).
CHAT_LIMITS = {ChatStyle.DISCORD: 2000, ChatStyle.SLACK: 3500}


#: Recipients a day a mail account takes by default: a consumer provider's cap is about 500 (a letter to 10
#: addresses counts 10); a GM with a server of her own raises it.
DEFAULT_DAILY_LIMIT = 450


@dataclass(frozen=True, slots=True)
class EmailSettings:
    """``[notify.email]``: the SMTP server, its encryption, the login and the sender."""

    host: str
    port: int
    security: Security
    sender: str
    user: str = ""
    password: SecretSource | None = None
    ca_file: Path | None = None
    timeout: float = DEFAULT_TIMEOUT
    daily_limit: int = DEFAULT_DAILY_LIMIT  # recipients a day through this account, every match of the host together


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """``[notify.chat]``: the webhook's JSON style, where its URL is kept, how long to wait for it."""

    style: ChatStyle
    url: SecretSource
    timeout: float = DEFAULT_TIMEOUT

    @property
    def limit(self) -> int:
        """The longest message the style takes."""
        return CHAT_LIMITS[self.style]


@dataclass(frozen=True, slots=True)
class NotifySettings:
    """A valid ``[notify]`` table: the kinds to send, the reminder's lead, seats' time zones and the channels."""

    kinds: frozenset[NoticeKind]
    lead: timedelta | None  # None: no reminder
    zones: Mapping[str, str]
    email: EmailSettings | None = None
    chat: ChatSettings | None = None
    reply_to: tuple[str, ...] = ()  # the GM's addresses (the config's gm_emails): replies and unsubscribes go there
    title: str = ""  # the match's title, the name of its mailing list

    @property
    def sent_kinds(self) -> frozenset[NoticeKind]:
        """The kinds that go out: those chosen, less the reminder when its lead is "off"."""
        return self.kinds if self.lead is not None else self.kinds - {NoticeKind.REMINDER}

    def secret_env(self) -> list[str]:
        """The environment variables its secrets are read from (cron's line must bring them: ``match.env_file``)."""
        sources = [self.email.password if self.email else None, self.chat.url if self.chat else None]
        return [s.env for s in sources if s is not None and s.env]

    def channels(self) -> list[str]:
        """The channels set, for people: ``e-mail (smtp.example.org)``, ``chat (discord)``."""
        found = [f"e-mail ({self.email.host}:{self.email.port}, {self.email.security.value})"] if self.email else []
        return found + ([f"chat ({self.chat.style.value} webhook, URL from {self.chat.url.describe()})"]
                        if self.chat else [])


_TOP = ("send", "reminder", "timezones", "email", "chat")
_EMAIL = ("host", "port", "security", "sender", "user", "password_env", "password_file", "ca_file", "timeout",
          "daily_limit")
_CHAT = ("style", "url_env", "url_file", "timeout")
_DURATION = re.compile(r"^\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?\s*$", re.IGNORECASE)
_ADDRESS = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")


def parse_lead(value: Any) -> timedelta | None:
    """A reminder's lead: ``"2h"``, ``"90m"``, ``"1h30m"``, a number of minutes, or ``"off"`` / 0 (None: no reminder).
    ValueError for anything else.

    >>> parse_lead("1h30m"), parse_lead(45), parse_lead("off")
    (datetime.timedelta(seconds=5400), datetime.timedelta(seconds=2700), None)
    """
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int | float):
        if value < 0:
            raise ValueError(value)
        return timedelta(minutes=value) if value else None
    text = str(value).strip().lower()
    if text in ("off", "none", "no", "0"):
        return None
    found = _DURATION.match(text)
    if not text or found is None or not (found[1] or found[2]):
        raise ValueError(value)
    lead = timedelta(hours=int(found[1] or 0), minutes=int(found[2] or 0))
    return lead or None


def parse_notify(raw: Any, *, where: str, folder: Path, seats: Sequence[str]) -> tuple[NotifySettings | None,
                                                                                     list[str]]:
    """The ``[notify]`` table ``raw`` read, and a line per bad option (then the settings are None). An empty or
    missing table is no notices and no problem. ``where`` names the config file, ``folder`` is where relative
    paths start, ``seats`` the match's seats (``timezones`` may name no other)."""
    if raw in (None, {}):
        return None, []
    problems = Problems(where)
    if not isinstance(raw, Mapping):
        return None, [f"{where} notify: it is a table ([notify]), not {raw!r}"]
    problems.unknown("notify", raw, _TOP)
    kinds = _kinds(raw.get("send"), problems)
    lead: timedelta | None = timedelta(hours=2)
    if "reminder" in raw:
        try:
            lead = parse_lead(raw["reminder"])
        except ValueError:
            problems.add("notify", "reminder", f"{raw['reminder']!r} is not a lead time; write hours and minutes "
                                               "such as \"2h\", \"90m\" or \"1h30m\" (a number is minutes), or \"off\"")
    zones = _zones(raw.get("timezones", {}), seats, problems)
    email = _email(raw["email"], folder, problems) if "email" in raw else None
    chat = _chat(raw["chat"], folder, problems) if "chat" in raw else None
    if "email" not in raw and "chat" not in raw:
        problems.add("notify", "email/chat", "no channel to send through: add a [notify.email] table (SMTP) or a "
                                             "[notify.chat] table (a Discord or Slack webhook), or remove [notify]")
    if problems.lines:
        return None, problems.lines
    files = env_files_of(Path(where))  # a variable the process lacks: the match's file, then the host's
    if email is not None and email.password is not None:
        email = replace(email, password=email.password.with_env_files(files))
    if chat is not None:
        chat = replace(chat, url=chat.url.with_env_files(files))
    return NotifySettings(kinds, lead, zones, email, chat), []


def _kinds(value: Any, problems: Problems) -> frozenset[NoticeKind]:
    accepted = ", ".join(f'"{k.value}"' for k in SENDABLE)
    if value is None:
        return frozenset(SENDABLE)
    if not isinstance(value, list) or not value:
        problems.add("notify", "send", f"{value!r} is not a list of kinds; write a list of some of {accepted}")
        return frozenset()
    kinds = set()
    for item in value:
        try:
            kind = NoticeKind(str(item).strip().lower())
        except ValueError:
            kind = None
        if kind is None or kind is NoticeKind.TEST:
            problems.add("notify", "send", f"{item!r} is not a kind of notice; the kinds are {accepted}")
        else:
            kinds.add(kind)
    return frozenset(kinds)


def _zones(value: Any, seats: Sequence[str], problems: Problems) -> dict[str, str]:
    if not isinstance(value, Mapping):
        problems.add("notify", "timezones", f"{value!r} is not a table; write {{ Ann = \"America/New_York\" }}, a "
                                            "seat and its IANA time zone each")
        return {}
    by_fold = {s.casefold(): s for s in seats}
    zones = {}
    for seat, zone in value.items():
        # A player's own zone is named by her roster e-mail address (a team may be spread over continents)
        name = str(seat).strip().casefold() if _ADDRESS.match(str(seat).strip()) else by_fold.get(str(seat).casefold())
        if name is None:
            problems.add("notify", "timezones", f"{seat!r} is neither a seat nor an e-mail address; the seats are "
                                                f"{', '.join(seats)} (a player's own zone: her roster address)")
            continue
        try:
            ZoneInfo(str(zone))
        except (ZoneInfoNotFoundError, ValueError):
            problems.add("notify", "timezones", f"{seat}: {zone!r} is not a time zone; use an IANA name such as "
                                                "\"Europe/Paris\" or \"America/New_York\"")
            continue
        zones[name] = str(zone)
    return zones


def _email(value: Any, folder: Path, problems: Problems) -> EmailSettings | None:
    table = "notify.email"
    raw = problems.table(table, value, _EMAIL, "password", ("password", "pass", "smtp_password"))
    if raw is None:
        return None
    host = read_text(table, raw, "host", problems, "the mail server's name, e.g. \"smtp.example.org\"")
    try:
        security = Security(str(raw.get("security", "starttls")).strip().lower())
    except ValueError:
        problems.add(table, "security", f"{raw['security']!r} is not accepted; write \"starttls\" (port 587) or "
                                        "\"tls\" (implicit TLS, port 465): mail is never sent unencrypted")
        security = Security.STARTTLS
    port = read_port(table, raw, 465 if security is Security.TLS else 587, problems, "587 for starttls, 465 for tls")
    sender = read_text(table, raw, "sender", problems, "the address notices come from, e.g. \"GM <gm@example.org>\"")
    if sender and not _ADDRESS.match(re.sub(r"^.*<([^>]*)>\s*$", r"\1", sender)):
        problems.add(table, "sender", f"{sender!r} is not an e-mail address; write \"gm@example.org\" or "
                                      "\"Name <gm@example.org>\"")
    user = raw.get("user", "")
    if not isinstance(user, str):
        problems.add(table, "user", f"{user!r} is not a login name; write the account's name as text")
        user = ""
    password = read_secret(table, raw, "password", folder, problems, required=bool(user))
    if password is not None and not user:
        problems.add(table, "user", "missing: a password is given, so name the account it logs in (user)")
    ca = read_ca_file(table, raw, folder, problems)
    timeout = read_timeout(table, raw, problems)
    limit = raw.get("daily_limit", DEFAULT_DAILY_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1_000_000:
        problems.add(table, "daily_limit", f"{limit!r} is not a number of recipients a day from 1 to 1000000 (the "
                                           f"default is {DEFAULT_DAILY_LIMIT}, under a consumer provider's cap of "
                                           "about 500)")
        limit = DEFAULT_DAILY_LIMIT
    if not host or not sender:
        return None
    return EmailSettings(host, port, security, sender, user.strip(), password, ca, timeout, limit)


def _chat(value: Any, folder: Path, problems: Problems) -> ChatSettings | None:
    table = "notify.chat"
    raw = problems.table(table, value, _CHAT, "url", ("url", "webhook", "webhook_url"))
    if raw is None:
        return None
    accepted = ", ".join(f'"{s.value}"' for s in ChatStyle)
    try:
        style = ChatStyle(str(raw.get("style", "")).strip().lower())
    except ValueError:
        problems.add(table, "style", (f"{raw['style']!r} is not a webhook style" if "style" in raw else "missing") +
                     f"; write one of {accepted} (Slack's also serves Mattermost and Rocket.Chat)")
        style = ChatStyle.DISCORD
    url = read_secret(table, raw, "url", folder, problems, required=True)
    timeout = read_timeout(table, raw, problems)
    return None if url is None else ChatSettings(style, url, timeout)
