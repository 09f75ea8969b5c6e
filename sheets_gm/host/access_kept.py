"""Each Google account's access token, kept by the host across its restarts (``serve-access.json`` beside the
status file, readable by its owner alone) with its expiry: a host started again within the token's hour asks its
accounts' first questions, and hands its polls (``accounts.Handover``), a token Google already gave, instead of a
refresh each. The token is never logged nor put in the status; Google's library refreshes it when it ends or when
Google refuses it (401)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from sheets_gm.host.drive_tokens import read_object
from sheets_gm.sheets.private_files import write_private

#: The file's name, beside the status file.
ACCESS_NAME = "serve-access.json"

#: An account's access token and its expiry (naive UTC, as Google's library keeps it).
Access = tuple[str, datetime]


def access_path(status_file: Path) -> Path:
    """Where the host whose status file is ``status_file`` keeps its accounts' access tokens."""
    return status_file.with_name(ACCESS_NAME)


def still_valid(access: Access | None, now: datetime | None = None) -> bool:
    """Whether ``access`` ends after ``now`` (UTC; the machine's clock by default: Google's tokens end by it)."""
    moment = (now or datetime.now(UTC)).replace(tzinfo=None)
    return access is not None and access[1] > moment


def read_access(path: Path, now: datetime | None = None) -> dict[str, Access]:
    """The access tokens kept at ``path`` (account -> token and expiry) that have not expired by ``now``
    (``still_valid``). A missing or damaged file keeps none: each account refreshes its token once, as at a first
    start."""
    kept: dict[str, Access] = {}
    for account, entry in read_object(path).items():
        if not isinstance(entry, dict):
            continue
        try:
            token, expiry = entry["token"], datetime.fromisoformat(entry["expiry"])
        except (TypeError, KeyError, ValueError):
            continue
        if isinstance(account, str) and isinstance(token, str) and token and expiry.tzinfo is None \
                and still_valid((token, expiry), now):
            kept[account] = token, expiry
    return kept


def write_access(path: Path, access: dict[str, Access]) -> None:
    """Keep ``access`` at ``path`` (atomically, readable by its owner alone). OSError when it cannot be written."""
    text = json.dumps({account: {"token": token, "expiry": expiry.isoformat()}
                       for account, (token, expiry) in access.items()}, sort_keys=True)
    write_private(path, text)
