"""The Google fake remembers requests' proxy look-up (asked before every request) for each host and environment:
a proxy the environment names is still honoured, as it is for a GM behind one (``HTTPS_PROXY``)."""

from __future__ import annotations

import pytest
import requests

from tests.fakes.google_api import GoogleApiFake

URLS = ("https://sheets.googleapis.com/v4/spreadsheets/x", "https://www.googleapis.com/drive/v3/changes",
        "http://127.0.0.1:8080/")


def test_the_proxy_look_up_answers_as_requests_own_whatever_the_environment_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "ALL_PROXY",
                 "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    environments = [{}, {"HTTPS_PROXY": "http://proxy.example:3128"},
                    {"HTTPS_PROXY": "http://proxy.example:3128", "NO_PROXY": "sheets.googleapis.com,127.0.0.1"},
                    {"https_proxy": "http://other.example:8080"}, {}]
    with GoogleApiFake():
        for environment in environments:
            with monkeypatch.context() as env:
                for name, value in environment.items():
                    env.setenv(name, value)
                for url in URLS:
                    for _ in range(2):  # the second answer is the remembered one
                        assert requests.sessions.get_environ_proxies(url) == requests.utils.get_environ_proxies(url)
                        assert requests.sessions.get_environ_proxies(url, no_proxy="www.googleapis.com") == \
                            requests.utils.get_environ_proxies(url, no_proxy="www.googleapis.com")
    assert requests.sessions.get_environ_proxies is requests.utils.get_environ_proxies  # put back on stop
