"""Notices to a chat channel: a JSON POST to its webhook, Discord's ``{"content": …}`` or Slack's ``{"text": …}``.

The webhook's URL is its password (whoever has it may post), so it is read from its environment variable or
file when a letter is sent, and no message ever shows it. A server that asks to wait (HTTP 429) is believed:
its ``Retry-After`` (seconds or a date, or Discord's ``retry_after`` in the body) sets when the letters may
be tried again.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime

from sheets_gm.match.notify.channel import SendError
from sheets_gm.match.notify.outbox import Letter
from sheets_gm.match.notify.settings import ChatSettings, ChatStyle, SecretError


def payload(style: ChatStyle, text: str) -> bytes:
    """The JSON body a webhook of ``style`` takes for ``text``."""
    key = "content" if style is ChatStyle.DISCORD else "text"
    return json.dumps({key: text}, ensure_ascii=False).encode()


def chat_parts(subject: str, body: str, limit: int) -> list[str]:
    """A notice as the chat messages it takes: its subject in bold, then its body, in parts of at most
    ``limit`` characters (each part a letter of its own, so that a part once taken is never posted again)."""
    return split_message(f"**{subject}**\n{body}" if subject else body, limit)


def split_message(text: str, limit: int) -> list[str]:
    """``text`` in parts of at most ``limit`` characters, cut between lines where it can.

    >>> split_message("one\\ntwo\\nthree", 8)
    ['one\\ntwo', 'three']
    """
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # a line longer than a message: cut it
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            parts.append(current)
            current = line
        else:
            current = joined
    if current or not parts:
        parts.append(current)
    return parts


class ChatHook:
    """The webhook of ``[notify.chat]``, its URL read once: ``ChatHook(settings).post(letter, now)``."""

    def __init__(self, settings: ChatSettings) -> None:
        self.settings = settings
        try:
            self.url = settings.url.read("the webhook's URL")
        except SecretError as exc:
            raise SendError(str(exc), down=True) from None
        if not self.url.startswith(("https://", "http://")):
            raise SendError(f"the webhook's URL in {settings.url.describe()} is not an http(s) address", down=True)

    def post(self, letter: Letter, now: datetime) -> None:
        """Post ``letter`` (its body is the message: ``chat_parts``); SendError when the webhook does not take it
        (never naming its URL)."""
        s = self.settings
        request = urllib.request.Request(self.url, data=payload(s.style, letter.body), method="POST",
                                         headers={"Content-Type": "application/json", "User-Agent": "sheets-gm"})
        try:
            with urllib.request.urlopen(request, timeout=s.timeout) as answer:
                answer.read()
        except urllib.error.HTTPError as exc:
            body = exc.read()[:2000]
            if exc.code == 429:
                wait = retry_after(exc.headers.get("Retry-After"), body, now)
                raise SendError(f"the {s.style.value} webhook asks to wait (429 Too Many Requests)"
                                + (f" until {wait:%H:%M:%S} UTC" if wait else ""), down=True,
                                retry_at=wait) from None
            detail = body.decode("utf-8", "replace").strip()[:200]
            refused = f"the {s.style.value} webhook answered {exc.code} {exc.reason}" + (f": {detail}" if detail
                                                                                           else "")
            if exc.code in (401, 403, 404):
                raise SendError(f"{refused}; check the URL in {s.url.describe()}", down=True) from None
            raise SendError(refused, down=exc.code >= 500) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            why = ("no answer in time" if isinstance(reason, TimeoutError) or "timed out" in str(reason) else
                   "connection refused" if isinstance(reason, ConnectionRefusedError) else
                   getattr(reason, "strerror", None) or str(reason))
            raise SendError(f"cannot reach the {s.style.value} webhook ({why})", down=True) from None


def retry_after(header: str | None, body: bytes, now: datetime) -> datetime | None:
    """When a 429 says to come back: its Retry-After header (seconds, or an HTTP date), else Discord's
    ``retry_after`` (seconds) in the JSON body; None when it says nothing readable.

    >>> from datetime import UTC
    >>> now = datetime(2026, 11, 22, 12, tzinfo=UTC)
    >>> retry_after("30", b"", now), retry_after(None, b'{"retry_after": 1.5}', now)
    (datetime.datetime(2026, 11, 22, 12, 0, 30, tzinfo=datetime.timezone.utc), \
datetime.datetime(2026, 11, 22, 12, 0, 1, 500000, tzinfo=datetime.timezone.utc))
    """
    if header:
        try:
            return now + timedelta(seconds=max(0.0, float(header)))
        except ValueError:
            pass
        try:
            return max(now, parsedate_to_datetime(header))
        except (TypeError, ValueError):
            pass
    try:
        seconds = json.loads(body.decode("utf-8")).get("retry_after")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return None
    return now + timedelta(seconds=float(seconds)) if isinstance(seconds, int | float) and seconds >= 0 else None
