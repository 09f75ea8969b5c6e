"""Signing in to Google: a service account's key file or the GM's own account (OAuth), and the scopes each use asks.

The clients use gspread's plain HTTPClient (never BackOffHTTPClient: retries are ours, ``retry.py``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import gspread
from gspread.http_client import HTTPClient

from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.private_files import make_private

#: Per-request timeout (connect, read) in seconds, set on clients that have none: gspread's
#: default is no timeout at all, and a hung socket would outlive any retry deadline.
DEFAULT_TIMEOUT = (10.0, 60.0)

# The OAuth scopes sheets-gm asks for (docs/sync.md, "Google scopes"): the least each use needs, by the scopes
# Google's discovery documents give each method and by what each scope reaches.
SPREADSHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets"
DRIVE_SCOPE = "https://www.googleapis.com/auth/drive"
DRIVE_FILE_SCOPE = "https://www.googleapis.com/auth/drive.file"
DRIVE_READONLY_SCOPE = "https://www.googleapis.com/auth/drive.readonly"
DRIVE_METADATA_READONLY_SCOPE = "https://www.googleapis.com/auth/drive.metadata.readonly"
#: Playing a match (sync, status, resolve, undo, adjust, repair, doctor): cells, layouts, protections (Sheets), and
#: Drive's change log, file index and sharing list, read only (the Drive gate, doctor's sharing check).
PLAY_SCOPES = (SPREADSHEETS_SCOPE, DRIVE_METADATA_READONLY_SCOPE)
#: Creating a match that is shared (init): Drive's permissions.create on spreadsheets sheets-gm did not create
#: takes the whole ``drive`` scope (``drive.file`` reaches only files the app created).
SHARE_SCOPES = (SPREADSHEETS_SCOPE, DRIVE_SCOPE)
#: Exporting a match: Drive's files.export, read only.
EXPORT_SCOPES = (SPREADSHEETS_SCOPE, DRIVE_READONLY_SCOPE)
#: The GM's own account (OAuth), signed in for every command that plays the match, cron's polls first: every
#: spreadsheet's cells (Sheets), and Drive only on the files sheets-gm made (``drive.file``: their change log,
#: versions, sharing list and export). Its refresh token, kept for cron, can neither read nor delete the rest of
#: the GM's Drive.
SIGN_IN_SCOPES = (SPREADSHEETS_SCOPE, DRIVE_FILE_SCOPE)
#: The GM's own account, signed in apart (a token of its own, never loaded by a poll) for the steps that reach Drive
#: files sheets-gm did not make: init's look-up of the Drive folder and creation in it, and its sharing of
#: spreadsheets the GM made by hand; export of those.
DRIVE_SIGN_IN_SCOPES = SHARE_SCOPES


def saved_scopes(token_path: str | Path) -> frozenset[str] | None:
    """The scopes a saved OAuth sign-in was granted (its ``scopes``), None when the file says none or cannot be
    read (a damaged file is named when it is used)."""
    try:
        data = json.loads(Path(token_path).expanduser().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    scopes = data.get("scopes") if isinstance(data, dict) else None
    if isinstance(scopes, str):
        scopes = scopes.split()
    return frozenset(str(s) for s in scopes) if isinstance(scopes, list) else None


def _read_json(path: Path, what: str, how_to_get_one: str) -> dict[str, Any]:
    if not path.exists():
        raise SheetAccessError(f"The {what} {path} does not exist. {how_to_get_one}")
    if not path.is_file():
        raise SheetAccessError(f"The {what} {path} is not a file. {how_to_get_one}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise SheetAccessError(f"The {what} {path} cannot be read: {e.strerror or e}.") from e
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SheetAccessError(f"The {what} {path} is not a JSON file ({e}). {how_to_get_one}") from e
    if not isinstance(data, dict):
        raise SheetAccessError(f"The {what} {path} does not hold a JSON object. {how_to_get_one}")
    return data


_SA_HOWTO = (
    "Create one in the Google Cloud console (IAM & Admin > Service accounts > your account > "
    "Keys > Add key > JSON) and save the downloaded file there."
)
_OAUTH_HOWTO = (
    "Create an OAuth client ID of type 'Desktop app' in the Google Cloud console "
    "(APIs & Services > Credentials) and save its downloaded JSON there."
)


def open_service_account(path: str | Path, scopes: Sequence[str] = PLAY_SCOPES) -> gspread.Client:
    """A gspread client signed in as the service account whose JSON key file is ``path``, its tokens asked for
    ``scopes`` alone (``PLAY_SCOPES``, ``SHARE_SCOPES`` or ``EXPORT_SCOPES``).

    The client uses gspread's plain HTTPClient (never BackOffHTTPClient: retries are ours).
    A missing, unreadable or malformed key file raises SheetAccessError naming the path and
    what is wrong.
    """
    p = Path(path).expanduser()
    info = _read_json(p, "service-account key file", _SA_HOWTO)
    kind = info.get("type")
    if kind != "service_account":
        hint = " (that is an OAuth client file: use it with the OAuth sign-in)" if "installed" in info else ""
        raise SheetAccessError(
            f'The file {p} is not a service-account key: its "type" is {kind!r}, expected "service_account"{hint}.'
        )
    missing = [k for k in ("client_email", "private_key", "token_uri") if not info.get(k)]
    if missing:
        raise SheetAccessError(f"The service-account key file {p} lacks {', '.join(missing)}. {_SA_HOWTO}")
    try:
        return gspread.service_account(filename=p, http_client=HTTPClient, scopes=list(scopes))
    except (ValueError, TypeError, KeyError) as e:
        raise SheetAccessError(f"The service-account key file {p} is damaged: {e}. {_SA_HOWTO}") from e


def open_oauth(
    credentials_path: str | Path,
    token_path: str | Path,
    *,
    scopes: Sequence[str] = SIGN_IN_SCOPES,
    flow: gspread.auth.FlowCallable | None = None,
) -> gspread.Client:
    """A gspread client signed in as the GM's own Google account.

    ``credentials_path`` is the OAuth client file (Desktop app) from the Google Cloud
    console; ``token_path`` is where the sign-in is kept between runs. When no saved
    sign-in exists, ``flow`` (default: a browser on a local port) asks the GM to sign in, for ``scopes``
    (``SIGN_IN_SCOPES`` for playing, ``DRIVE_SIGN_IN_SCOPES`` for the steps that need Drive itself, each kept in a
    file of its own). A saved sign-in keeps the scopes it was granted.
    """
    creds = Path(credentials_path).expanduser()
    token = Path(token_path).expanduser()
    if not token.exists():
        client_config = _read_json(creds, "OAuth client file", _OAUTH_HOWTO)
        if not ({"installed", "web"} & client_config.keys()):
            raise SheetAccessError(
                f'The OAuth client file {creds} has neither "installed" nor "web" in it: it is not an OAuth '
                f"client ID file. {_OAUTH_HOWTO}"
            )
    kwargs: dict[str, Any] = {"flow": flow} if flow is not None else {}
    try:
        client = gspread.oauth(
            credentials_filename=creds,
            authorized_user_filename=token,
            http_client=HTTPClient,
            scopes=list(scopes),
            **kwargs,
        )
    except (ValueError, KeyError, TypeError) as e:
        raise SheetAccessError(
            f"The saved Google sign-in {token} is damaged ({e}): delete it and sign in again."
        ) from e
    except OSError as e:
        raise SheetAccessError(f"Cannot use the OAuth files {creds} / {token}: {e}.") from e
    make_private(token)  # the saved sign-in holds a refresh token: whoever reads it acts as the GM
    return client


def account_email(client: gspread.Client) -> str | None:
    """The service account's e-mail address (``client_email``), or None for a user sign-in."""
    auth = getattr(client.http_client, "auth", None)
    email = getattr(auth, "service_account_email", None)
    return email if isinstance(email, str) and "@" in email else None


def _credentials(client: gspread.Client) -> Any:
    return getattr(client.http_client, "auth", None)


def access_held(client: gspread.Client) -> tuple[str, datetime] | None:
    """The access token ``client`` holds and its expiry (naive UTC, as Google's library keeps it), while the
    library counts it valid (None before its first request, or once it is near its end)."""
    creds = _credentials(client)
    token, expiry = getattr(creds, "token", None), getattr(creds, "expiry", None)
    if not isinstance(token, str) or not isinstance(expiry, datetime) or not getattr(creds, "valid", False):
        return None
    return token, expiry


def lend_access(client: gspread.Client, access: tuple[str, datetime] | None) -> bool:
    """Give ``client`` (signed in, no request made yet) the access token ``access`` of the same account, while
    it is valid, so that its first request refreshes none; Google's library still refreshes it when it ends, or
    when Google refuses it (401). False when nothing was lent (no token, or one at its end)."""
    creds = _credentials(client)
    if access is None or creds is None or not hasattr(creds, "expiry"):
        return False
    before = creds.token, creds.expiry
    creds.token, creds.expiry = access
    if not creds.valid:
        creds.token, creds.expiry = before
        return False
    return True
