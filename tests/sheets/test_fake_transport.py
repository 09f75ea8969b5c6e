"""The fake Google's interception at requests' transport adapter: every request answered as a real transport
answers it (the adapter's own response, the body read whole, a streamed read too, a transport error raised), and the
adapter's own ``send`` put back when the fake stops, nested fakes in order."""

from __future__ import annotations

import pytest
import requests
from requests.adapters import HTTPAdapter

from tests.fakes.google_api import FaultKind, GoogleApiFake, fake_credentials
from tests.fakes.transport import Interception

KEY = "1TransportKey_sheetsgm_test_0000000000000000"
URL = f"https://sheets.googleapis.com/v4/spreadsheets/{KEY}/values:batchGet"


def session() -> requests.Session:
    from google.auth.transport.requests import AuthorizedSession

    return AuthorizedSession(fake_credentials())  # type: ignore[no-untyped-call]


def test_an_answer_is_the_adapters_own_response_whole_and_streamed() -> None:
    with GoogleApiFake() as fake:
        fake.create_spreadsheet(KEY, tabs={"Board": (5, 5)})
        fake.set_values(KEY, "Board!A1", [["hello"]])
        answer = session().get(URL, params={"ranges": "Board!A1"})
        streamed = session().get(URL, params={"ranges": "Board!A1"}, stream=True)
        assert b"".join(streamed.iter_content(3)) == answer.content
    assert answer.status_code == 200 and answer.reason == "OK"
    assert answer.json()["valueRanges"][0]["values"] == [["hello"]]
    assert answer.encoding == "UTF-8" and answer.headers["content-type"].startswith("application/json")
    assert answer.url == URL + "?ranges=Board%21A1" and isinstance(answer.connection, HTTPAdapter)


def test_a_transport_fault_is_raised_and_an_error_answered() -> None:
    with GoogleApiFake() as fake:
        fake.create_spreadsheet(KEY, tabs={"Board": (5, 5)})
        fake.inject(FaultKind.CONNECTION_RESET)
        with pytest.raises(requests.ConnectionError):
            session().get(URL, params={"ranges": "Board!A1"})
        fake.set_shared(KEY, False)
        refused = session().get(URL, params={"ranges": "Board!A1"})
    assert refused.status_code == 403 and refused.reason == "Forbidden"


def test_the_adapters_send_is_put_back_nested_fakes_in_order() -> None:
    own = HTTPAdapter.__dict__["send"]
    outer = GoogleApiFake()
    outer.start()
    inner = Interception(lambda request: (200, {}, b"inner"))
    inner.start()
    assert session().get("https://example.com/").content == b"inner"
    inner.stop()
    with pytest.raises(AssertionError, match="not a Google endpoint"):
        session().get("https://example.com/")
    outer.stop()
    assert HTTPAdapter.__dict__["send"] is own
