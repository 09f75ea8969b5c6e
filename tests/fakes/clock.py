"""A fake monotonic clock whose ``sleep`` advances time instantly: retries in tests never wait."""

from __future__ import annotations


class FakeClock:
    """``time()`` reads the fake time; ``sleep(s)`` records ``s`` and moves time on by it."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def time(self) -> float:
        """The current fake time in seconds."""
        return self.now

    def sleep(self, seconds: float) -> None:
        """Record the wait and advance the clock; never blocks."""
        assert seconds >= 0, f"negative sleep {seconds}"
        self.sleeps.append(float(seconds))
        self.now += float(seconds)

    def advance(self, seconds: float) -> None:
        """Let time pass without a recorded sleep (a slow request, a cron gap)."""
        self.now += seconds

    @property
    def slept(self) -> float:
        """Total seconds slept so far."""
        return sum(self.sleeps)
