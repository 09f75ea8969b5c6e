"""systemd's watchdog, spoken over ``$NOTIFY_SOCKET`` with the standard library (the ``sd_notify`` protocol: one
datagram of ``KEY=value`` lines to a Unix socket; a name starting with ``@`` is in the abstract namespace).

The host says ``READY=1`` once it runs, ``WATCHDOG=1`` after every pass of its loop (``scheduler.Host.step``:
a pass is bounded, the search of the folders a slice a pass, so the ping says the loop itself moves on)
and ``STOPPING=1`` when it stops. With ``WatchdogSec=`` in the unit, systemd kills and restarts a host whose loop
stopped passing: a hang outside any poll (which its own deadline stops) no longer goes unseen. Without
``$NOTIFY_SOCKET`` (not under systemd) every call does nothing.
"""

from __future__ import annotations

import os
import socket
import time

#: A pass that says WATCHDOG=1 says it at most this often (the loop passes every second at most; systemd asks
#: for a ping within WatchdogSec, a minute in the shipped unit).
PING_EVERY = 5.0


class Watchdog:
    """The host's line to systemd (see the module notes); ``address``: ``$NOTIFY_SOCKET`` (None: read it)."""

    def __init__(self, address: str | None = None) -> None:
        self.address = os.environ.get("NOTIFY_SOCKET", "") if address is None else address
        self._pinged_at: float | None = None

    def notify(self, message: str) -> bool:
        """Send ``message`` (``READY=1``…); False when there is no socket or it does not take it."""
        if not self.address:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(target)
                sock.sendall(message.encode("utf-8"))
        except OSError:
            return False
        return True

    def ping(self, now: float | None = None) -> bool:
        """``WATCHDOG=1``, at most every :data:`PING_EVERY` seconds (``now``: a monotonic clock's reading)."""
        moment = time.monotonic() if now is None else now
        if self._pinged_at is not None and moment - self._pinged_at < PING_EVERY:
            return False
        self._pinged_at = moment
        return self.notify("WATCHDOG=1")
