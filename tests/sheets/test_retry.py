"""The retry policy on its own: what is transient, how long it waits, when it gives up."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import pytest
import requests
from google.auth import exceptions as auth_exceptions
from gspread.exceptions import APIError

from sheets_gm.sheets.backend import GoogleUnreachableError, SheetUnavailableError
from sheets_gm.sheets.retry import RetryPolicy, describe, is_transient, retry_after, unreachable_reason
from tests.fakes.clock import FakeClock


def _response(
    status: int, body: str | dict[str, object] = "", headers: dict[str, str] | None = None
) -> requests.Response:
    r = requests.Response()
    r.status_code = status
    if isinstance(body, dict):
        r._content = json.dumps(body).encode()
        r.headers["Content-Type"] = "application/json; charset=UTF-8"
    else:
        r._content = body.encode()
        r.headers["Content-Type"] = "text/html; charset=UTF-8"
    r.headers.update(headers or {})
    return r


def _api_error(code: int, headers: dict[str, str] | None = None, **error: object) -> APIError:
    return APIError(_response(code, {"error": {"code": code, "message": "m", **error}}, headers))


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_transient_statuses(status: int) -> None:
    assert is_transient(_api_error(status))


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409])
def test_permanent_statuses(status: int) -> None:
    assert not is_transient(_api_error(status))


def test_an_html_429_is_transient_though_gspread_reads_its_code_as_minus_one() -> None:
    err = APIError(_response(429, "<html><title>429 Too Many Requests</title></html>"))
    assert err.code == -1  # gspread/exceptions.py: the body is not JSON
    assert is_transient(err)
    assert describe(err) == "HTTP 429 (an HTML error page)"


def test_drive_rate_limit_403_is_transient() -> None:
    err = _api_error(403, errors=[{"domain": "usageLimits", "reason": "userRateLimitExceeded"}])
    assert is_transient(err)
    assert not is_transient(_api_error(403, status="PERMISSION_DENIED"))


@pytest.mark.parametrize(
    "exc",
    [
        requests.ConnectionError(ConnectionResetError(104, "Connection reset by peer")),
        requests.exceptions.ConnectTimeout("connect"),
        requests.exceptions.ReadTimeout("read"),
        requests.exceptions.ChunkedEncodingError("cut"),
        ConnectionResetError(104, "reset"),
        auth_exceptions.TransportError("dns"),  # type: ignore[no-untyped-call]
    ],
)
def test_network_errors_are_transient(exc: BaseException) -> None:
    assert is_transient(exc)


@pytest.mark.parametrize(
    "exc",
    [ValueError("x"), KeyError("k"), auth_exceptions.RefreshError("invalid_grant")],  # type: ignore[no-untyped-call]
)
def test_other_errors_are_not(exc: BaseException) -> None:
    assert not is_transient(exc)


def test_retry_after_header() -> None:
    assert retry_after(_api_error(503, {"Retry-After": "12"})) == 12
    assert retry_after(_api_error(503, {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})) is None
    assert retry_after(_api_error(503)) is None
    assert retry_after(ValueError()) is None


def _policy(
    clock: FakeClock,
    deadline: float = 60,
    initial: float = 1,
    max_backoff: float = 32,
    max_attempts: int | None = None,
) -> RetryPolicy:
    """A policy on the fake clock whose jitter always draws the ceiling."""
    return RetryPolicy(
        deadline=deadline,
        initial=initial,
        max_backoff=max_backoff,
        max_attempts=max_attempts,
        time=clock.time,
        sleep=clock.sleep,
        random=lambda: 1.0,
    )


def _failing(errors: list[BaseException], result: str = "ok") -> tuple[list[int], Callable[[], str]]:
    calls: list[int] = []

    def fn() -> str:
        calls.append(1)
        if errors:
            raise errors.pop(0)
        return result

    return calls, fn


def test_exponential_backoff_is_capped() -> None:
    clock = FakeClock()
    calls, fn = _failing([_api_error(500) for _ in range(8)])
    assert _policy(clock, deadline=1000, initial=1, max_backoff=10).call("op", fn) == "ok"
    assert clock.sleeps == [1, 2, 4, 8, 10, 10, 10, 10]
    assert len(calls) == 9


def test_full_jitter_draws_below_the_ceiling() -> None:
    clock = FakeClock()
    draws = iter([0.0, 0.25, 0.5])
    policy = RetryPolicy(time=clock.time, sleep=clock.sleep, random=lambda: next(draws), initial=2)
    _calls, fn = _failing([_api_error(503) for _ in range(3)])
    policy.call("op", fn)
    assert clock.sleeps == [0.0, 1.0, 4.0]


def test_a_permanent_error_propagates_at_once() -> None:
    clock = FakeClock()
    err = _api_error(404)
    calls, fn = _failing([err])
    with pytest.raises(APIError) as info:
        _policy(clock).call("op", fn)
    assert info.value is err and len(calls) == 1 and clock.sleeps == []


def test_the_deadline_bounds_the_whole_call() -> None:
    clock = FakeClock()
    start = clock.now
    calls, fn = _failing([_api_error(503) for _ in range(1000)])
    with pytest.raises(SheetUnavailableError) as info:
        _policy(clock, deadline=30, max_backoff=8).call("read of spreadsheet X", fn)
    assert clock.now - start == pytest.approx(30)  # the last wait is cut to end on the deadline
    message = str(info.value)
    assert f"Google read of spreadsheet X failed {len(calls)} times over 30.0 s" in message
    assert "HTTP 503 UNAVAILABLE" not in message  # the fake body has no status name here
    assert "HTTP 503" in message and "try again in a few minutes" in message
    assert isinstance(info.value.__cause__, APIError)


def test_slow_attempts_count_against_the_deadline() -> None:
    clock = FakeClock()

    def fn() -> str:
        clock.advance(25)  # each attempt hangs 25 s before failing
        raise requests.ConnectionError("reset")

    # attempts end at 25, 51 (after a 1 s wait) and 78 s (after 2 s): no fourth one starts
    with pytest.raises(SheetUnavailableError, match=r"failed 3 times over 78\.0 s"):
        _policy(clock, deadline=60).call("write", fn)


def test_max_attempts() -> None:
    clock = FakeClock()
    calls, fn = _failing([requests.ConnectionError("x") for _ in range(10)])
    cut_off = r"cannot reach Google from this machine \(connection error \(x\)\): check the network or proxy"
    with pytest.raises(SheetUnavailableError, match=cut_off + r" \(the op failed 3 times"):
        _policy(clock, max_attempts=3).call("op", fn)
    assert len(calls) == 3


def test_retry_after_sets_a_floor_on_the_wait() -> None:
    clock = FakeClock()
    _calls, fn = _failing([_api_error(429, {"Retry-After": "20"})])
    _policy(clock, initial=1).call("op", fn)
    assert clock.sleeps == [20]


def test_a_retry_after_beyond_the_deadline_gives_up_without_sleeping() -> None:
    clock = FakeClock()
    calls, fn = _failing([_api_error(429, {"Retry-After": "90"})])
    with pytest.raises(SheetUnavailableError, match="asked to wait 90 s, past the deadline"):
        _policy(clock, deadline=60).call("op", fn)
    assert len(calls) == 1 and clock.sleeps == []


@pytest.mark.parametrize(("error", "told"), [
    (requests.ConnectionError("HTTPSConnectionPool(host='sheets.googleapis.com', port=443): Max retries exceeded "
                              "(Caused by NameResolutionError(\"Failed to resolve 'sheets.googleapis.com' ([Errno -3] "
                              "Temporary failure in name resolution)\"))"),
     "sheets.googleapis.com: the name does not resolve"),
    (requests.exceptions.ProxyError("HTTPSConnectionPool(host='oauth2.googleapis.com', port=443): Max retries "
                                    "exceeded (Caused by ProxyError('Unable to connect to proxy'))"),
     "oauth2.googleapis.com: the proxy refused or dropped the connection"),
    (requests.exceptions.ConnectTimeout("HTTPSConnectionPool(host='www.googleapis.com', port=443): connect timed out"),
     "www.googleapis.com: the connection timed out"),
])
def test_a_machine_cut_off_is_never_told_it_is_over_quota(error: BaseException, told: str) -> None:
    """Issue 94: doctor blamed quota for a name that did not resolve."""
    clock = FakeClock()
    _calls, fn = _failing([error] * 100)
    with pytest.raises(GoogleUnreachableError) as info:
        _policy(clock, deadline=60).call("read of spreadsheet X", fn)
    message = str(info.value)
    assert message.startswith(f"cannot reach Google from this machine ({told}): check the network or proxy")
    assert "quota" not in message


def test_an_answer_of_googles_is_not_unreachable() -> None:
    assert unreachable_reason(_api_error(503)) is None and unreachable_reason(ValueError("x")) is None


def test_the_unreachable_deadline_is_kept_for_connection_failures_alone() -> None:
    clock = FakeClock()
    _calls, fn = _failing([requests.ConnectionError("Failed to resolve 'sheets.googleapis.com'")] * 100)
    policy = replace(_policy(clock, deadline=60), unreachable_deadline=4)
    with pytest.raises(GoogleUnreachableError):
        policy.call("op", fn)
    assert clock.now - 1000.0 <= 4
    clock = FakeClock()
    _calls, fn = _failing([_api_error(503) for _ in range(3)])
    assert replace(_policy(clock, deadline=60), unreachable_deadline=4).call("op", fn) == "ok"
    assert clock.slept == 7  # 1 + 2 + 4: an answer of Google's keeps the whole deadline
