"""Loaded by every Python process started with this folder on ``PYTHONPATH`` (Python's ``site`` imports a
``sitecustomize`` module at start-up): a process of the project run against the fake Google served over HTTP on
127.0.0.1 (``tests.fakes.google_http``) — ``sheets-gm serve``, its fork server and every poll's process.

With ``SHEETS_GM_FAKE_GOOGLE`` set (the fake's address, ``http://127.0.0.1:PORT``), each request ``requests``
sends to a Google host (Sheets, Drive, the OAuth token endpoint, IAM's) goes to the fake instead, its host kept as
the first part of the path: nothing else of the process changes, and nothing reaches the network. Without it this
module does nothing."""

from __future__ import annotations

import os
import re

_FAKE = os.environ.get("SHEETS_GM_FAKE_GOOGLE", "")
_GOOGLE = re.compile(r"^https://([a-z0-9.-]*(?:googleapis\.com|google\.com))(/.*)?$")

if _FAKE:
    import requests.adapters

    _send = requests.adapters.HTTPAdapter.send

    def _to_fake(self, request, *args, **kwargs):  # type: ignore[no-untyped-def]
        found = _GOOGLE.match(request.url or "")
        if found is not None:
            request.url = f"{_FAKE}/{found.group(1)}{found.group(2) or '/'}"
        return _send(self, request, *args, **kwargs)

    requests.adapters.HTTPAdapter.send = _to_fake  # type: ignore[method-assign]
