"""A real ``sheets-gm serve`` process on a Google match, pointed at the fake Google served over HTTP on 127.0.0.1
(``tests.fakes.google_http``): it signs in at the fake's token endpoint, asks Drive and Sheets as it would Google,
and answers a player's save; its requests are the fake's to count. The server answers each request on a thread of
its own: an account it is told to hold up (late, or hung) delays that account's requests alone. Nothing sleeps but
the waits for the subprocess (a twentieth of a second at a time, bounded), as ``test_serve_command``."""

from __future__ import annotations

import base64
import http.client
import json
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

import pytest

from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from tests.fakes.google_api import CHANGES, START_TOKEN, TOKEN, GoogleApiFake
from tests.fakes.google_http import GoogleOverHttp, Relayed, served_over_http
from tests.host.test_serve_command import LIMIT, wait_for
from tests.host.test_serve_google import MATCHES, create, keys
from tests.matchfiles import state_of, type_orders


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    from tests.fakes.google_api import signed_in_fake

    spreadsheets = {key: f"{match} · {role}" for match in MATCHES for role, key in keys(match).items()}
    with signed_in_fake(monkeypatch, spreadsheets) as f:
        yield f


@pytest.mark.soak  # a serve process started and a Google poll waited for: a minute on a loaded machine
def test_a_real_serve_answers_a_google_save_through_the_fake_over_http(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = tmp_path / "league"
    config = create(league, "one", capsys)
    sheets = open_match_sheets(load_config(config))
    log = tmp_path / "serve.log"
    with served_over_http(fake) as server, log.open("wb") as out:
        fake.reset_counters()
        proc = subprocess.Popen([sys.executable, "-m", "sheets_gm.cli", "serve", str(league), "--interval", "2",
                                 "--workers", "1"], stdout=out, stderr=subprocess.STDOUT, env=server.environment())
        try:
            wait_for(lambda: "Found 1 match" in log.read_text(encoding="utf-8"), "the match found")
            wait_for(lambda: fake.calls(CHANGES) > 0, "Drive's change log asked by the host", 20)
            with server.lock:  # a player types (in this process, on the same fake)
                type_orders(sheets, ready=True)
            wait_for(lambda: "Turn 1 resolved" in log.read_text(encoding="utf-8"), "the save answered", 2 * LIMIT)
            with server.lock:
                assert state_of(sheets).turn == 2
            assert fake.calls(TOKEN) >= 1 and server.served > 0  # signed in at the fake, asked it over HTTP
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=2 * LIMIT) == 0, log.read_text(encoding="utf-8")
    assert not fake.violations, fake.violations


LATE, OTHER = "late@bench.iam.gserviceaccount.com", "other@bench.iam.gserviceaccount.com"
#: How long a request of an account not held may take before the test says it was held up (it is answered in
#: milliseconds; only a server that held it behind the held account's request reaches this).
ANSWERED_WITHIN = 5.0


def _asked(server: GoogleOverHttp, method: str, path: str, body: str = "", headers: dict[str, str] | None = None,
           timeout: float = ANSWERED_WITHIN) -> tuple[int, bytes]:
    """A request over HTTP to the fake, as a process pointed at it sends it (``path``: Google's host, then its
    path), by the standard library: this process's own ``requests`` are the fake's in process."""
    host, port = server.server.server_address[:2]
    connection = http.client.HTTPConnection(str(host), int(port), timeout=timeout)
    try:
        connection.request(method, path, body=body.encode(), headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def _token(server: GoogleOverHttp, account: str) -> str:
    """An access token of the service account ``account``, asked of the fake's token endpoint over HTTP (the fake
    reads a JWT grant's issuer without its signature)."""
    claims = base64.urlsafe_b64encode(json.dumps({"iss": account, "scope": "https://www.googleapis.com/auth/drive"})
                                      .encode()).decode().rstrip("=")
    form = urlencode({"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": f"e30.{claims}.s"})
    status, content = _asked(server, "POST", "/oauth2.googleapis.com/token", form,
                             {"Content-Type": "application/x-www-form-urlencoded"}, LIMIT)
    assert status == 200, content
    return str(json.loads(content)["access_token"])


def _start_token(server: GoogleOverHttp, token: str) -> int:
    """Drive's start page token asked over HTTP with ``token``, as Drive's client asks it: the answer's status."""
    return _asked(server, "GET", "/www.googleapis.com/drive/v3/changes/startPageToken",
                  headers={"Authorization": f"Bearer {token}"})[0]


def test_the_fake_over_http_holds_up_only_the_account_it_is_told_to(fake: GoogleApiFake) -> None:
    # One account's Drive held (late, or hung) while another's requests come: served on threads of their own,
    # the hold waited outside the fake's lock, the other's are answered meanwhile. Put the hold back inside the
    # lock (in GoogleOverHttp.answer) and the other account's request waits out ANSWERED_WITHIN and fails.
    held, release = threading.Event(), threading.Event()
    hung = {"answer": True}

    def hold(caller: str, request: Relayed) -> bool:
        if caller == LATE and "/drive/v3/" in request.url:
            held.set()
            assert release.wait(timeout=2 * LIMIT), "the test never let the held request go"
            return hung["answer"]
        return True

    with served_over_http(fake, hold) as server, ThreadPoolExecutor(2) as pool:
        late, other = _token(server, LATE), _token(server, OTHER)
        waiting = pool.submit(_start_token, server, late)
        assert held.wait(timeout=LIMIT)
        for _ in range(3):  # the other account's requests are answered while the late one's is held
            assert _start_token(server, other) == 200
        assert not waiting.done()
        release.set()
        assert waiting.result(timeout=LIMIT) == 200  # late, then answered
        release.clear()
        held.clear()
        hung["answer"] = False  # now hung: held, then closed unanswered
        waiting = pool.submit(_start_token, server, late)
        assert held.wait(timeout=LIMIT)
        assert _start_token(server, other) == 200
        release.set()
        with pytest.raises(http.client.RemoteDisconnected):
            waiting.result(timeout=LIMIT)
    # answered in turn as each came out of its hold: the late one after the others; the hung one never
    assert [call.caller for call in fake.log if call.endpoint == START_TOKEN] == [OTHER, OTHER, OTHER, LATE, OTHER]


def test_the_fake_knows_each_refresh_tokens_gm(fake: GoogleApiFake) -> None:
    # Many GMs' own sign-ins on one fake (the benchmark's --oauth): each refresh token's access tokens are its
    # GM's, one not named the fake's one user's.
    fake.users.update({"refresh-ann": "ann@example.com", "refresh-ben": "ben@example.com"})
    with served_over_http(fake) as server:
        for refresh in ("refresh-ann", "refresh-ben", "refresh-unknown"):
            form = urlencode({"grant_type": "refresh_token", "refresh_token": refresh, "client_id": "cid",
                              "client_secret": "secret"})
            status, content = _asked(server, "POST", "/oauth2.googleapis.com/token", form,
                                     {"Content-Type": "application/x-www-form-urlencoded"}, LIMIT)
            assert status == 200, content
            assert _start_token(server, json.loads(content)["access_token"]) == 200
    assert [call.caller for call in fake.log if call.endpoint == START_TOKEN] == [
        "ann@example.com", "ben@example.com", fake.user_email]
