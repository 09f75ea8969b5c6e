"""Notices to a chat channel: a JSON POST to its webhook, Discord's ``{"content": …}`` or Slack's ``{"text": …}``.

The webhook's URL is its password (whoever has it may post), so it is read from its environment variable or
file when a letter is sent, and no message ever shows it: a URL that would not even parse (a paste with a space
or a line break) is refused naming the setting, never its value. A server that asks to wait (HTTP 429) is
believed: its ``Retry-After`` (seconds or a date, or Discord's ``retry_after`` in the body) sets when the letters
may be tried again.

A Discord post of a resolution carries files on the same webhook, as a multipart upload (``payload_json`` and
``files[0]``, ``files[1]``…): the whole report as text and the turn's map as a PNG (kept beside the letter in the
outbox, so that every try posts the same picture). Slack's incoming webhooks take no file: there the post's link
to the match page stands for the map.

What a chat post says is text the GM's webhook posts, and part of it was typed by players (names, free text):
every notice is escaped for the platform it goes to before the one mark of ours (the subject in bold) is put
around it, so a player's ``<!channel>``, ``@everyone`` or disguised link shows as the characters typed
(``escape_chat``), and a Discord post pings nobody (``allowed_mentions``).

How each answer is taken: 2xx posted; 429 (rate limit), 401/403/404 (a wrong or deleted URL), 5xx, a refused
connection: the channel fails for this poll and the letter waits, still first, so the channel's order holds;
another 4xx (400: the webhook will never take this post): refused for good, dropped and named; no answer after
the post was sent (a timeout, a dropped connection, a gateway's 502/504): the webhook may have taken it, so it is
in doubt (``SendError.doubt``) and posted again once at most.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime

from sheets_gm.match.config_tables import SecretError
from sheets_gm.match.notify_settings import ChatSettings, ChatStyle
from sheets_gm.notify.channel import SendError
from sheets_gm.notify.outbox import Letter
from sheets_gm.notify.redact import redact
from sheets_gm.sync.deadline import deadline_moment, describe_deadline

#: A bare link, left as typed by ``escape_chat`` (the chat shows it as the address it is: no disguise).
_LINK = re.compile(r"https?://[^\s<>\[\]()]+")
#: Slack's mrkdwn marks (bold, italic, strike, code), which it cannot escape: each is set between zero-width
#: spaces, so that no word of a player's is struck through, set as code or in bold.
_SLACK_MARKS = re.compile(r"([*_~`])")
#: Discord's markdown marks, escaped anywhere in a line.
_DISCORD_MARKS = re.compile(r"([\\*_~`|<>\[\]])")
#: Discord's marks that mean something at the start of a line only (a heading, a list, a quote).
_DISCORD_LINE_START = re.compile(r"^(\s*)([#>+-]|\d+\.)", re.MULTILINE)


def escape_chat(style: ChatStyle, text: str) -> str:
    """``text`` as the platform shows it literally: Slack's ``&``, ``<`` and ``>`` as entities (its only
    markup that links and pings) and its marks ``* _ ~ ` `` between zero-width spaces; Discord's markdown marks
    behind a backslash and ``@everyone``/``@here`` broken by an invisible space, links left whole.

    >>> escape_chat(ChatStyle.SLACK, "<!channel> & <https://evil.example|board>")
    '&lt;!channel&gt; &amp; &lt;https://evil.example|board&gt;'
    >>> escape_chat(ChatStyle.DISCORD, "**Bo** [board](https://evil.example)")
    '\\\\*\\\\*Bo\\\\*\\\\* \\\\[board\\\\](https://evil.example)'
    """
    slack = style is ChatStyle.SLACK
    plain = _slack_plain if slack else _discord_plain
    out: list[str] = []
    at = 0
    for link in _LINK.finditer(text):  # a bare link left whole (Slack's entity for & aside)
        out += [plain(text[at:link.start()]), link.group().replace("&", "&amp;") if slack else link.group()]
        at = link.end()
    out.append(plain(text[at:]))
    if slack:
        return "".join(out)
    return _DISCORD_LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}", "".join(out))


def _slack_plain(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _SLACK_MARKS.sub("\u200b\\1\u200b", text)


def _discord_plain(text: str) -> str:
    return re.sub(r"@(everyone|here)", "@\u200b\\1", _DISCORD_MARKS.sub(r"\\\1", text))


def bold(style: ChatStyle, text: str) -> str:
    """``text`` (escaped already) in bold: Discord's ``**…**``, Slack's mrkdwn ``*…*``."""
    return f"**{text}**" if style is ChatStyle.DISCORD else f"*{text}*"


def payload(style: ChatStyle, text: str) -> bytes:
    """The JSON body a webhook of ``style`` takes for ``text`` (escaped already); a Discord post parses no
    mention at all, whatever its text says."""
    body: dict[str, object] = ({"content": text, "allowed_mentions": {"parse": []}} if style is ChatStyle.DISCORD
                               else {"text": text})
    return json.dumps(body, ensure_ascii=False).encode()


@dataclass(frozen=True)
class ChatFile:
    """A file posted with a Discord message: its name, its content type and its bytes."""

    name: str
    content_type: str
    data: bytes


def with_files(payload_json: bytes, files: Sequence[ChatFile]) -> tuple[bytes, str]:
    """A Discord post with files attached: the multipart body (``payload_json``, then ``files[0]``,
    ``files[1]``…) and its content type. The boundary is drawn from the bytes it separates and checked absent from
    them (a PNG is any bytes)."""
    digest = hashlib.sha256(payload_json)
    for file in files:
        digest.update(file.data)
    boundary = "sheets-gm-" + digest.hexdigest()[:24]
    while any(boundary.encode() in chunk for chunk in (payload_json, *(f.data for f in files))):
        boundary += "-"
    parts = [f"--{boundary}\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n"
             "Content-Type: application/json\r\n\r\n".encode(), payload_json, b"\r\n"]
    for number, file in enumerate(files):
        safe = "".join(c if c.isalnum() or c in "@~.-_" else "-" for c in file.name)
        parts += [f"--{boundary}\r\nContent-Disposition: form-data; name=\"files[{number}]\"; filename=\"{safe}\""
                  f"\r\nContent-Type: {file.content_type}\r\n\r\n".encode(), file.data, b"\r\n"]
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def files_of(letter: Letter, picture: bytes | None) -> list[ChatFile]:
    """The files a Discord post of ``letter`` carries: its text attachment (the whole report), then its
    ``picture`` (the turn's map), each if it has one."""
    files = [ChatFile(letter.attachment_name or "report.txt", "text/plain; charset=utf-8",
                      letter.attachment.encode())] if letter.attachment else []
    if picture:
        files.append(ChatFile(letter.picture or "map.png", "image/png", picture))
    return files


def chat_parts(subject: str, body: str, style: ChatStyle, limit: int, deadline: str = "") -> list[str]:
    """A notice as the chat messages it takes: escaped for ``style`` (``escape_chat``), its subject in bold, then
    its body, its ``deadline`` in each reader's own time (``chat_time``), in parts of at most ``limit`` characters
    (each part a letter of its own, so that a part once taken is never posted again)."""
    text = escape_chat(style, body)
    text = f"{bold(style, escape_chat(style, subject))}\n{text}" if subject else text
    told = chat_time(style, deadline)
    if told is not None:
        text = text.replace(*told)
    return split_message(text, limit)


def chat_time(style: ChatStyle, deadline: str) -> tuple[str, str] | None:
    """The deadline as the notices write it (escaped for ``style``) and the platform's mark that shows it in each
    reader's own time zone: Discord's ``<t:UNIX:F>``, Slack's ``<!date^UNIX^…|the words as written>``; None for
    no deadline.

    >>> chat_time(ChatStyle.DISCORD, "2026-11-22T20:00+01:00[Europe/Paris]")
    ('Sun 22 Nov, 20:00 (Europe/Paris)', '<t:1795374000:F>')
    >>> chat_time(ChatStyle.SLACK, "2026-11-22T20:00+01:00[Europe/Paris]")[1]
    '<!date^1795374000^{date_short_pretty} {time}|Sun 22 Nov, 20:00 (Europe/Paris)>'
    """
    moment = deadline_moment(deadline)
    if moment is None:
        return None
    written = escape_chat(style, describe_deadline(deadline))
    unix = int(moment.timestamp())
    if style is ChatStyle.DISCORD:
        return written, f"<t:{unix}:F>"
    return written, f"<!date^{unix}^{{date_short_pretty}} {{time}}|{written}>"


def split_message(text: str, limit: int) -> list[str]:
    """``text`` in parts of at most ``limit`` characters, cut between lines where it can, and a line longer than a
    message between its words (``cut_line``): never inside a word, unless one word alone is longer than a message.

    >>> split_message("one\\ntwo\\nthree", 8)
    ['one\\ntwo', 'three']
    >>> split_message("a long line of words", 9)
    ['a long', 'line of', 'words']
    """
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # a line longer than a message: cut it between words
            if current:
                parts.append(current)
                current = ""
            head, line = cut_line(line, limit)
            parts.append(head)
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            parts.append(current)
            current = line
        else:
            current = joined
    if current or not parts:
        parts.append(current)
    return parts


def cut_line(line: str, limit: int) -> tuple[str, str]:
    """``line`` cut in two where its first part is at most ``limit`` characters: at its last space that fits (the
    space dropped), or, for one word longer than ``limit``, inside it (before a Discord escape's backslash, never
    between it and the mark it escapes).

    >>> cut_line("Phyr 002 (commander), Coal 003", 12)
    ('Phyr 002', '(commander), Coal 003')
    >>> cut_line("abcdef", 4)
    ('abcd', 'ef')
    """
    space = line.rfind(" ", 0, limit + 1)
    if space > 0:
        return line[:space].rstrip(" "), line[space + 1:].lstrip(" ")
    cut = limit - 1 if line[limit - 1] == "\\" and limit > 1 else limit
    return line[:cut], line[cut:]


class ChatHook:
    """The webhook of ``[notify.chat]``, its URL read once: ``ChatHook(settings).post(letter, now)``."""

    def __init__(self, settings: ChatSettings) -> None:
        self.settings = settings
        where = settings.url.describe()
        try:
            self.url = settings.url.read("the webhook's URL")
        except SecretError as exc:
            raise SendError(str(exc), down=True) from None
        if any(c.isspace() or ord(c) < 32 for c in self.url):
            raise SendError(f"the webhook's URL in {where} holds a space or a line break (a paste cut in two?): "
                            "write it on one line", down=True)
        try:
            parts = urllib.parse.urlsplit(self.url)
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("https", "http") or not parts.netloc:
            raise SendError(f"the webhook's URL in {where} is not an http(s) address", down=True)

    def post(self, letter: Letter, now: datetime, picture: bytes | None = None) -> None:
        """Post ``letter`` (its body is the message: ``chat_parts``), on Discord with its attachment and
        ``picture`` as files; SendError when the webhook does not take it (never naming its URL; see the module
        notes for how each answer is taken)."""
        try:
            self._post(letter, now, picture)
        except SendError:
            raise
        except Exception as exc:  # whatever it is, its words may hold the URL: named by its kind
            raise SendError(f"the {self.settings.style.value} webhook could not be posted to ({type(exc).__name__}; "
                            f"check the URL in {self.settings.url.describe()})", down=True) from None

    def _post(self, letter: Letter, now: datetime, picture: bytes | None) -> None:
        s = self.settings
        data, content_type = payload(s.style, letter.body), "application/json"
        files = files_of(letter, picture) if s.style is ChatStyle.DISCORD else []
        if files:
            data, content_type = with_files(data, files)
        request = urllib.request.Request(self.url, data=data, method="POST",
                                         headers={"Content-Type": content_type, "User-Agent": "sheets-gm"})
        try:
            # Once it answered 2xx the post was taken, whatever becomes of the rest of its answer
            with urllib.request.urlopen(request, timeout=s.timeout) as answer, \
                    contextlib.suppress(OSError, http.client.HTTPException):
                answer.read()
        except urllib.error.HTTPError as exc:
            try:
                body = exc.read()[:2000]
            except (OSError, http.client.HTTPException):
                body = b""
            if exc.code == 429:
                wait = retry_after(exc.headers.get("Retry-After"), body, now)
                raise SendError(f"the {s.style.value} webhook asks to wait (429 Too Many Requests)"
                                + (f" until {wait:%H:%M:%S} UTC" if wait else ""), down=True,
                                retry_at=wait) from None
            detail = redact(body.decode("utf-8", "replace").strip(),
                            [(self.url, f"<the webhook's URL from {s.url.describe()}>", True)])[:200]
            refused = f"the {s.style.value} webhook answered {exc.code} {exc.reason}" + (f": {detail}" if detail
                                                                                           else "")
            if exc.code in (401, 403, 404):
                raise SendError(f"{refused}; check the URL in {s.url.describe()}", down=True) from None
            if exc.code in (502, 504):
                raise SendError(f"{refused} (a gateway's answer: the post may have reached the channel)", down=True,
                                doubt=True) from None
            raise SendError(refused, down=exc.code >= 500, permanent=exc.code < 500) from None
        except urllib.error.URLError as exc:  # the post never left: nothing can have reached the channel
            raise SendError(f"cannot reach the {s.style.value} webhook ({_why(exc.reason)})", down=True) from None
        except (OSError, http.client.HTTPException) as exc:  # sent, but no answer: it may have been taken
            raise SendError(f"the {s.style.value} webhook gave no answer to the post ({_why(exc)}): it may have "
                            "reached the channel", down=True, doubt=True) from None


def _why(reason: object) -> str:
    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
        return "no answer in time"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, http.client.RemoteDisconnected | ConnectionResetError):
        return "the connection was closed"
    return getattr(reason, "strerror", None) or type(reason).__name__


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
