"""Requests answered in-process at requests' transport adapter, for the fake Google: while an :class:`Interception`
runs, every request any ``requests`` session sends is answered by a function of its ``PreparedRequest`` (a status,
headers and a body, or an exception to raise as the transport would), and nothing reaches the network.

It takes the place ``responses`` had, at the same layer (``HTTPAdapter.send``, what ``responses`` patches): the
product's calls still go through gspread, google-auth's ``AuthorizedSession`` and requests' ``Session`` (the request
prepared, the proxies and settings merged, the auth and the hooks run, the response's cookies, redirects and
encoding handled), and the answer is built by the adapter's own ``build_response``. What ``responses`` did beside,
and the fake never needed, is left out: matching the URL against registered patterns, recording every call
(``responses.calls``, kept until the mock stopped), parsing the query for that record, and a urllib3 response over
the body that requests then streamed back out of it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.client import responses as reasons
from typing import Any, cast

import requests
from requests.adapters import HTTPAdapter

#: What answers a request: its status, headers and body, or an exception the transport raises instead (a connection
#: reset, a name that does not resolve).
Answer = Callable[[requests.PreparedRequest], "tuple[int, Mapping[str, str], bytes] | Exception"]


@dataclass(frozen=True)
class _Raw:
    """What ``HTTPAdapter.build_response`` reads of a urllib3 response: the status, the headers and the reason (its
    body is given to the response whole, already read)."""

    status: int
    headers: Mapping[str, str]
    reason: str | None


class Interception:
    """Every request sent through ``requests`` answered by ``answer`` between :meth:`start` and :meth:`stop`
    (started twice at once, the later one answers until it stops, as nested patches do)."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self._send: Any = None  # the adapter's send while this interception runs, put back by stop()

    def start(self) -> None:
        """Answer every request from now on."""
        self._send = HTTPAdapter.__dict__["send"]
        answered = self._answered

        def send(adapter: HTTPAdapter, request: requests.PreparedRequest, stream: bool = False,
                 timeout: Any = None, verify: Any = True, cert: Any = None,
                 proxies: Any = None) -> requests.Response:
            return answered(adapter, request)

        HTTPAdapter.send = send  # type: ignore[method-assign,assignment]

    def stop(self) -> None:
        """Let requests through to the network again (or to the interception started before this one)."""
        if self._send is not None:
            HTTPAdapter.send = self._send  # type: ignore[method-assign]
            self._send = None

    def _answered(self, adapter: HTTPAdapter, request: requests.PreparedRequest) -> requests.Response:
        """The response to ``request``, built by ``adapter`` as it builds a real one."""
        got = self.answer(request)
        if isinstance(got, Exception):
            raise got
        status, headers, content = got
        response = adapter.build_response(request, cast(Any, _Raw(status, headers, reasons.get(status))))
        response._content = content  # read whole, as a response with stream=False is once sent
        response._content_consumed = True  # type: ignore[attr-defined]
        return response
