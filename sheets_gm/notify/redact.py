"""The one net every word of the notices passes before it is kept or shown: secrets taken out.

A webhook's URL is its password, and a server's error reply may quote it, whole or in part (Discord's
``Unknown Webhook at /api/webhooks/4242/TOK3N…``, a proxy's error page, a query's ``?token=…``). So every text the
outbox keeps (a letter's error, a note, the ledger) and every line a command prints goes through ``redact``:

- the shapes a webhook's secret takes in any text, whoever's it is: Discord's ``/api/webhooks/ID/TOKEN``, Slack's
  ``/services/T…/B…/…`` (and its workflow and trigger hooks), a ``/hooks/ID`` (Mattermost, Rocket.Chat), and a
  query's ``token=``, ``key=``, ``sig=`` and their kin;
- and each configured secret (``secrets``: its value and where it is kept), whole or in the pieces a message may
  quote alone (``url_pieces``), named by where it is kept.

Only the standard library: the outbox, which cron's idle poll loads before anything else, uses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: What stands for a secret taken out by its shape.
HIDDEN = "<hidden>"

_SHAPES = (
    re.compile(r"(/api(?:/v\d+)?/webhooks/\d+/)[^\s/?#'\"<>]+"),  # Discord (and its /slack, /github suffixes after)
    re.compile(r"(/(?:services|workflows|triggers)/)[A-Za-z0-9_\-]+(?:/[A-Za-z0-9_\-]+)*"),  # Slack's hooks
    re.compile(r"(/hooks/)[A-Za-z0-9_\-]{6,}"),  # Mattermost's, Rocket.Chat's (/hooks/ID/TOKEN)
    re.compile(r"([?&;](?:token|access_token|key|api_key|secret|sig|signature|password|auth)=)[^&;\s'\"<>]+",
               re.IGNORECASE),
)


def url_pieces(url: str) -> set[str]:
    """The pieces of a secret URL a message may quote alone: each piece of a paste (cut by a space or a line
    break), the path, and each part of the path that is no plain lower-case word ("webhooks"). A password is only
    ever taken out whole, so that no common word of a message is taken for one.

    >>> sorted(url_pieces("https://h.example/api/webhooks/1/SECRET TOKENabc"))
    ['/api/webhooks/1/SECRET', 'SECRET', 'TOKENabc', 'https://h.example/api/webhooks/1/SECRET']
    """
    parts = url.split()
    pieces = {p for p in parts if len(p) >= 6}
    host_end = parts[0].find("/", parts[0].find("://") + 3) if parts and "://" in parts[0] else -1
    if host_end > 0:
        path = parts[0][host_end:]
        pieces.add(path)
        pieces |= {seg for seg in path.split("/") if len(seg) >= 6 and not (seg.isalpha() and seg.islower())}
    return pieces


def redact(text: str, secrets: Iterable[tuple[str, str, bool]] = ()) -> str:
    """``text`` with every secret out: each of ``secrets`` (its value, the words that stand for it, and whether it
    is a URL, taken out in its pieces too), then every secret's shape (see the module notes).

    >>> redact("404 Unknown Webhook at /api/webhooks/4242/TOK3Nabc… (see ?token=abc&x=1)")
    '404 Unknown Webhook at /api/webhooks/4242/<hidden> (see ?token=<hidden>&x=1)'
    >>> redact("login pw-1234567 refused", [("pw-1234567", "<the mail password>", False)])
    'login <the mail password> refused'
    """
    for value, instead, is_url in secrets:
        for piece in sorted({value, *(url_pieces(value) if is_url else ())}, key=len, reverse=True):
            text = text.replace(piece, instead)
    for shape in _SHAPES:
        text = shape.sub(lambda m: m[1] + HIDDEN, text)
    return text
