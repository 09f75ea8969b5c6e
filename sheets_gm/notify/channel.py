"""What a channel says when it cannot take a letter: a ``SendError``, with whether the whole channel is down."""

from __future__ import annotations

from datetime import datetime


class SendError(Exception):
    """A letter its channel did not take, and why, in words for the GM.

    ``down``: the channel itself failed (no server, no login, a rate limit), so the letters after this one are
    not tried in this poll either; otherwise only this letter was refused (an address the server refuses).
    ``retry_at``: not before then (a server's Retry-After). ``permanent``: the server refused this letter for
    good (an HTTP 400, an SMTP 5xx to the message): trying it again would be refused again, so it is dropped and
    named. ``doubt``: the letter was sent but never answered, so the server may have taken it: it is posted
    again once at most."""

    def __init__(self, message: str, *, down: bool, retry_at: datetime | None = None, permanent: bool = False,
                 doubt: bool = False) -> None:
        super().__init__(message)
        self.down = down
        self.retry_at = retry_at
        self.permanent = permanent
        self.doubt = doubt
