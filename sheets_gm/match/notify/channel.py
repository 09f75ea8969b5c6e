"""What a channel says when it cannot take a letter: a ``SendError``, with whether the whole channel is down."""

from __future__ import annotations

from datetime import datetime


class SendError(Exception):
    """A letter its channel did not take, and why, in words for the GM.

    ``down``: the channel itself failed (no server, no login, a rate limit), so the letters after this one are
    not tried in this poll either; otherwise only this letter was refused (an address the server refuses).
    ``retry_at``: not before then (a server's Retry-After)."""

    def __init__(self, message: str, *, down: bool, retry_at: datetime | None = None) -> None:
        super().__init__(message)
        self.down = down
        self.retry_at = retry_at
