"""Retrying Google calls: transient failures are retried with backoff until a total deadline.

Retried: HTTP 408, 429 (whatever the body: JSON or an HTML error page), every 5xx, Drive's
403 ``rateLimitExceeded``/``userRateLimitExceeded``, connection errors (refused, reset),
timeouts and transport errors while refreshing a token. Everything else (400, 401, 403, 404)
fails at once: retrying cannot fix it.

The wait before attempt ``n + 1`` is "full jitter" exponential backoff: a uniform draw in
``[0, min(max_backoff, initial * 2**(n-1))]``, never less than the server's ``Retry-After``
(seconds). No attempt starts after the deadline; when the next wait would cross it (or the
server asks for a wait longer than what is left) the policy gives up with a
:class:`~sheets_gm.sheets.backend.SheetUnavailableError` saying what failed, how many
attempts were made over how long, and the last status.

The clock, the sleep and the random source are injectable so tests never sleep::

    >>> now = [0.0]
    >>> policy = RetryPolicy(deadline=10, time=lambda: now[0], sleep=lambda s: None)
    >>> policy.call("nothing", lambda: 42)
    42
"""

from __future__ import annotations

import random
import re
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import requests
import tenacity
from google.auth import exceptions as auth_exceptions

from sheets_gm.sheets.backend import GoogleUnreachableError, SheetUnavailableError, http_status

T = TypeVar("T")

#: HTTP statuses worth another attempt (besides every 5xx).
RETRY_STATUSES = frozenset({408, 429})
#: Drive answers some quota errors with 403 and one of these reasons.
RATE_LIMIT_REASONS = frozenset({"rateLimitExceeded", "userRateLimitExceeded"})
#: Drive's 403 reasons under its ``usageLimits`` domain that no wait mends: a service account has no storage to own
#: a file in a My Drive, an account whose storage is full.
LASTING_REASONS = frozenset({"storageQuotaExceeded", "quotaExceeded"})


def _error_json(exc: BaseException) -> dict[str, Any]:
    response = getattr(exc, "response", None)
    if not isinstance(response, requests.Response):
        return {}
    try:
        payload = response.json()
    except ValueError:
        return {}
    error = payload.get("error") if isinstance(payload, dict) else None
    return error if isinstance(error, dict) else {}


def _is_rate_limit_403(exc: BaseException) -> bool:
    error = _error_json(exc)
    details = error.get("errors")
    if isinstance(details, list) and any(isinstance(d, dict) and d.get("reason") in LASTING_REASONS for d in details):
        return False
    if error.get("status") == "RESOURCE_EXHAUSTED":
        return True
    if isinstance(details, list):
        for d in details:
            if isinstance(d, dict) and (d.get("reason") in RATE_LIMIT_REASONS or d.get("domain") == "usageLimits"):
                return True
    return False


def is_transient(exc: BaseException) -> bool:
    """Whether another attempt may succeed where ``exc`` failed."""
    status = http_status(exc)
    if status is not None:
        return status in RETRY_STATUSES or status >= 500 or (status == 403 and _is_rate_limit_403(exc))
    if isinstance(exc, requests.ConnectionError | requests.Timeout | requests.exceptions.ChunkedEncodingError):
        return True
    if isinstance(exc, ConnectionError | TimeoutError):  # a raw socket error that escaped requests
        return True
    if isinstance(exc, auth_exceptions.TransportError):
        return True
    if isinstance(exc, auth_exceptions.GoogleAuthError):
        return bool(getattr(exc, "retryable", False))
    return False


def retry_after(exc: BaseException) -> float | None:
    """The server's ``Retry-After`` in seconds, if the failed response carries one."""
    response = getattr(exc, "response", None)
    if not isinstance(response, requests.Response):
        return None
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None  # an HTTP date: rare from Google; fall back to our own backoff
    return seconds if seconds >= 0 else None


def describe(exc: BaseException) -> str:
    """A one-line account of a failure, for messages."""
    status = http_status(exc)
    if status is not None:
        error = _error_json(exc)
        if error:
            parts = [str(error[k]) for k in ("status", "message") if error.get(k)]
            return f"HTTP {status}" + (f" {': '.join(parts)}" if parts else "")
        response = getattr(exc, "response", None)
        ctype = response.headers.get("Content-Type", "") if isinstance(response, requests.Response) else ""
        return f"HTTP {status}" + (" (an HTML error page)" if "html" in ctype.lower() else "")
    if isinstance(exc, requests.ConnectionError | ConnectionError):
        return f"connection error ({exc})"
    if isinstance(exc, requests.Timeout | TimeoutError):
        return f"timeout ({exc})"
    return f"{type(exc).__name__}: {exc}"


#: What a connection failure's words say happened, in the order looked for, and how it is told.
_UNREACHABLE_WORDS = (
    (("NameResolutionError", "Failed to resolve", "Name or service not known", "name resolution"),
     "the name does not resolve"),
    (("ProxyError", "proxy"), "the proxy refused or dropped the connection"),
    (("Connection refused",), "the connection was refused"),
    (("timed out", "Timeout"), "the connection timed out"),
    (("Network is unreachable", "No route to host"), "the network is unreachable"),
)


def unreachable_reason(exc: BaseException | None) -> str | None:
    """How Google could not be reached at all, in a few words naming the host (``sheets.googleapis.com: the name
    does not resolve``), when ``exc`` (or what it was raised from) is a failure to connect, not an answer of
    Google's; None otherwise."""
    seen: list[BaseException] = []
    while exc is not None and exc not in seen and len(seen) < 8:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    if not seen or any(http_status(e) is not None for e in seen):
        return None
    if not any(isinstance(e, requests.ConnectionError | requests.Timeout | auth_exceptions.TransportError
                          | ConnectionError | TimeoutError) for e in seen):
        return None
    text = " ".join(str(e) for e in seen)
    host = re.search(r"host='([^']+)'|Failed to resolve '([^']+)'", text)
    named = f"{next(g for g in host.groups() if g)}: " if host else ""
    what = next((told for words, told in _UNREACHABLE_WORDS if any(w.lower() in text.lower() for w in words)), None)
    return named + what if what is not None else describe(seen[0])


@dataclass(frozen=True)
class RetryPolicy:
    """How long and how often to retry a Google call.

    ``deadline`` bounds the whole call (every attempt and every wait) in seconds;
    ``initial`` and ``max_backoff`` shape the exponential backoff; ``max_attempts``
    optionally caps the attempts too; ``unreachable_deadline``, when set, is the shorter deadline of a call whose
    every failure so far was a failure to connect (``doctor`` asks it: a machine cut off from Google is said
    within seconds). ``time`` is a monotonic clock in seconds,
    ``sleep`` waits, ``random`` draws uniformly from [0, 1): inject all three in tests.
    """

    deadline: float = 60.0
    initial: float = 1.0
    max_backoff: float = 32.0
    max_attempts: int | None = None
    unreachable_deadline: float | None = None
    time: Callable[[], float] = field(default=_time.monotonic, repr=False)
    sleep: Callable[[float], None] = field(default=_time.sleep, repr=False)
    random: Callable[[], float] = field(default=random.random, repr=False)

    def backoff(self, attempt: int) -> float:
        """The jittered wait after failed attempt number ``attempt`` (1-based), before
        Retry-After and the deadline are considered."""
        ceiling = min(self.max_backoff, self.initial * 2.0 ** (attempt - 1))
        return self.random() * ceiling

    def call(self, what: str, fn: Callable[[], T]) -> T:
        """Run ``fn`` until it succeeds, fails for good, or the deadline passes.

        ``what`` names the operation in the error (``"read of spreadsheet 1AbC"``).
        A non-transient exception propagates unchanged at once; exhausting the
        deadline raises SheetUnavailableError chained to the last failure.
        """
        start = self.time()
        waits: dict[int, float | None] = {}  # attempt number -> wait, None = give up

        def planned_wait(rs: tenacity.RetryCallState) -> float | None:
            n = rs.attempt_number
            if n not in waits:
                exc = rs.outcome.exception() if rs.outcome is not None else None
                deadline = self.deadline
                if self.unreachable_deadline is not None and unreachable_reason(exc) is not None:
                    deadline = min(deadline, self.unreachable_deadline)
                left = deadline - (self.time() - start)
                asked = retry_after(exc) if exc is not None else None
                if left <= 0 or (self.max_attempts is not None and n >= self.max_attempts):
                    waits[n] = None
                elif asked is not None:
                    waits[n] = None if asked > left else max(asked, min(self.backoff(n), left))
                else:
                    waits[n] = min(self.backoff(n), left)
            return waits[n]

        def stop(rs: tenacity.RetryCallState) -> bool:
            return planned_wait(rs) is None

        def wait(rs: tenacity.RetryCallState) -> float:
            return planned_wait(rs) or 0.0

        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception(is_transient),
            stop=stop,
            wait=wait,
            sleep=self.sleep,
            reraise=False,
        )
        try:
            return retrying(fn)
        except tenacity.RetryError as err:
            last = err.last_attempt.exception()
            attempts = err.last_attempt.attempt_number
            elapsed = self.time() - start
            detail = describe(last) if last is not None else "no result"
            cut_off = unreachable_reason(last)
            if cut_off is not None:
                raise GoogleUnreachableError(
                    f"cannot reach Google from this machine ({cut_off}): check the network or proxy "
                    f"(the {what} failed {attempts} time{'s' if attempts != 1 else ''} over {elapsed:.1f} s)"
                ) from last
            asked = retry_after(last) if last is not None else None
            why = (
                f" (the server asked to wait {asked:g} s, past the deadline)"
                if asked is not None and asked > self.deadline - elapsed
                else ""
            )
            raise SheetUnavailableError(
                f"Google {what} failed {attempts} time{'s' if attempts != 1 else ''} over {elapsed:.1f} s "
                f"(retry deadline {self.deadline:g} s){why}; last error: {detail}. "
                "Google may be over quota or unreachable: try again in a few minutes."
            ) from last


#: The policy used when a backend is given none.
DEFAULT_RETRY = RetryPolicy()
