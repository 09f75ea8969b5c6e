"""The Google Sheets backend: gspread 6 and google-auth, every call retried by ``retry.py``.

Quota matters: a poll is ONE ``values.batchGet`` (no ``open_by_key`` and no metadata read:
gspread's ``Spreadsheet`` always fetches metadata when constructed, so this module calls
gspread's HTTP client directly), a resolution ONE ``values.batchUpdate`` (RAW), a layout one
``spreadsheets.get`` plus one ``spreadsheets.batchUpdate``. A resolution that writes cell notes (hover
text: the values API cannot) is ONE ``spreadsheets.batchUpdate`` of ``updateCells`` instead; those
address a tab by its numeric id, which the backend learns from the layout call or, once, from a
``spreadsheets.get`` of the tabs' ids, and keeps in the ``sheet_ids`` file between processes. A write
that must answer with ranges as they stand after it (``read_back``) takes that route too, the
batchUpdate asked to include the updated spreadsheet's cells for those ranges: still one write
request and no read; so does a write guarded by what the poll read (``guard``) that clears a typed cell: the
cell is cleared by a ``findReplace`` of the very text read, so a player's save in between stays. Drive's
change log (:class:`DriveChangeLog`) says which files changed since a page token, and who modified each last.

Credentials: :func:`open_service_account` (a key file; share each spreadsheet with the
account's ``client_email``) or :func:`open_oauth` (the GM's own Google account).
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, TypeVar

import gspread
import requests
from google.auth import exceptions as auth_exceptions
from gspread.exceptions import APIError
from gspread.http_client import BackOffHTTPClient, HTTPClient
from gspread.urls import DRIVE_FILES_API_V3_URL, SPREADSHEET_BATCH_UPDATE_URL
from gspread.utils import ExportFormat

from sheets_gm.sheets.backend import RangeWrite, SheetAccessError, SheetError, SheetUnavailableError
from sheets_gm.sheets.guard import Clear, clear_if_unchanged
from sheets_gm.sheets.layout import (
    BORDER_COLOUR,
    CellValue,
    ConditionalFill,
    Grid,
    Protection,
    ReadGuard,
    TabLayout,
    WorkbookLayout,
    quote_tab,
    split_a1,
    trim_grid,
)
from sheets_gm.sheets.private_files import make_private, write_private
from sheets_gm.sheets.retry import DEFAULT_RETRY, RetryPolicy, describe, http_status

T = TypeVar("T")

#: Per-request timeout (connect, read) in seconds, set on clients that have none: gspread's
#: default is no timeout at all, and a hung socket would outlive any retry deadline.
DEFAULT_TIMEOUT = (10.0, 60.0)

#: Google's limit on the characters of one cell; longer text is cut to it.
MAX_CELL_CHARS = 50_000

#: Drive's refusal of ``writersCanShare`` on a file of a shared drive (its drive's settings say who may share).
SHARED_DRIVE_NO_LOCK = "teamDrivesSharingRestrictionNotAllowed"

#: Roles a spreadsheet can be shared with.
SHARE_ROLES = ("reader", "commenter", "writer")

# The OAuth scopes sheets-gm asks for (docs/sync.md, "Google scopes"): the least each use needs, by the scopes
# Google's discovery documents give each method. ``drive.file`` would reach only files sheets-gm created; the
# match's spreadsheets are the GM's own, created in Drive, so Drive calls need the scopes below.
SPREADSHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets"
DRIVE_SCOPE = "https://www.googleapis.com/auth/drive"
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
#: What the GM's own account is asked once, at its sign-in (a consent covers every later command, so it is what
#: init needs); a service account asks each command's own scopes, as it needs no consent.
SIGN_IN_SCOPES = SHARE_SCOPES

_READ_PARAMS = {
    "valueRenderOption": "FORMULA",  # a formula comes back as its text, never evaluated
    "majorDimension": "ROWS",
    "dateTimeRenderOption": "FORMATTED_STRING",  # a date a player typed reads as the text they see
}
#: Number format types ``dateTimeRenderOption=FORMATTED_STRING`` renders as the text shown.
_DATE_TYPES = frozenset({"DATE", "TIME", "DATE_TIME"})
#: What the answer to a write with a snapshot keeps of the updated spreadsheet (see ``snapshot_body``).
_SNAPSHOT_FIELDS = (
    "updatedSpreadsheet.sheets(properties.title,data(startRow,startColumn,"
    "rowData.values(userEnteredValue,formattedValue,effectiveFormat.numberFormat.type)))"
)
_METADATA_FIELDS = (
    "properties.title,"
    "sheets(properties(sheetId,title,index,hidden,gridProperties),"
    "protectedRanges(protectedRangeId,description,range),conditionalFormats(ranges))"
)
_CELLS_RE = re.compile(r"^\$?([A-Za-z]{0,3})\$?(\d*)(?::\$?([A-Za-z]{0,3})\$?(\d*))?$")
_COLOUR_RE = re.compile(r"^#?([0-9A-Fa-f]{6})$")


# --------------------------------------------------------------------------- credentials


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
    flow: gspread.auth.FlowCallable | None = None,
) -> gspread.Client:
    """A gspread client signed in as the GM's own Google account.

    ``credentials_path`` is the OAuth client file (Desktop app) from the Google Cloud
    console; ``token_path`` is where the sign-in is kept between runs. When no saved
    sign-in exists, ``flow`` (default: a browser on a local port) asks the GM to sign in.
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
            scopes=list(SIGN_IN_SCOPES),
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


# --------------------------------------------------------------------------- A1 and values


def column_index(letters: str) -> int:
    """The 0-based index of a column: ``A`` is 0, ``Z`` 25, ``AA`` 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def grid_range(sheet_id: int, cells: str) -> dict[str, int]:
    """A Sheets API GridRange for the cell part of an A1 range (``B3``, ``B3:D9``, ``B:D``,
    ``3:5``, ``A2:E``; empty is the whole sheet). Indexes are 0-based and half open."""
    out: dict[str, int] = {"sheetId": sheet_id}
    cells = cells.strip()
    if not cells:
        return out
    m = _CELLS_RE.match(cells)
    if m is None or not (m.group(1) or m.group(2)):
        raise ValueError(f"not an A1 range: {cells!r}")
    c1, r1, c2, r2 = m.groups()
    if c1:
        out["startColumnIndex"] = column_index(c1)
    if r1:
        if int(r1) < 1:
            raise ValueError(f"not an A1 range: {cells!r}")
        out["startRowIndex"] = int(r1) - 1
    if c2 is None and r2 is None:  # a single cell, column or row
        if c1:
            out["endColumnIndex"] = out["startColumnIndex"] + 1
        if r1:
            out["endRowIndex"] = int(r1)
        return out
    if c2:
        out["endColumnIndex"] = column_index(c2) + 1
    if r2:
        out["endRowIndex"] = int(r2)
    if out.get("startColumnIndex", 0) >= out.get("endColumnIndex", 1 << 30) or out.get(
        "startRowIndex", 0
    ) >= out.get("endRowIndex", 1 << 30):
        raise ValueError(f"A1 range ends before it starts: {cells!r}")
    return out


def _raw(value: CellValue) -> CellValue:
    """A value as sent RAW: None stays JSON null (Google leaves that cell unchanged), "" clears,
    text longer than Google's per-cell limit is cut to it."""
    if isinstance(value, float) and not math.isfinite(value):
        raise SheetError(f"cannot write {value!r} to a spreadsheet cell")
    if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
        return value[:MAX_CELL_CHARS]
    return value


def _extended_value(value: str | int | float | bool) -> dict[str, Any]:
    raw = _raw(value)
    if raw == "":
        return {}
    if isinstance(raw, bool):
        return {"boolValue": raw}
    if isinstance(raw, int | float):
        return {"numberValue": raw}
    return {"stringValue": raw}  # never formulaValue: text stays text


def _cell(value: Any) -> CellValue:
    if isinstance(value, str | bool | int | float):
        return value
    return None if value is None else str(value)


def snapshot_body(requests: list[dict[str, Any]], read_back: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The body and query of a spreadsheets.batchUpdate making ``requests`` and, when ``read_back`` names
    ranges, answering with them as they stand after the update (``updatedSpreadsheet``), cut by a field mask
    to what :func:`snapshot_grids` needs: each tab's title and, per cell, its user-entered value, and the
    formatted value and number format type that tell a date from a number."""
    if not read_back:
        return {"requests": requests}, {}
    return {
        "requests": requests,
        "includeSpreadsheetInResponse": True,
        "responseRanges": list(read_back),
        "responseIncludeGridData": True,  # (Google goes by the field mask when one is given)
    }, {"fields": _SNAPSHOT_FIELDS}


def snapshot_grids(payload: Any, ranges: Sequence[str]) -> list[Grid] | None:
    """Each of ``ranges`` as :meth:`GoogleSheetBackend.read` gives it, from the ``updatedSpreadsheet`` of a
    spreadsheets.batchUpdate answer asked with :func:`snapshot_body`; None unless the answer holds, for each
    tab, one grid per range asked there, in the order asked, each starting where its range starts."""
    updated = payload.get("updatedSpreadsheet", {}) if isinstance(payload, dict) else {}
    found: dict[str, list[Any]] = {}
    for sheet in updated.get("sheets", []) if isinstance(updated, dict) else []:
        title = str(sheet.get("properties", {}).get("title", "")).casefold()
        found.setdefault(title, []).extend(sheet.get("data", []))
    used: dict[str, int] = {}
    out: list[Grid] = []
    for full in ranges:
        tab, cells = split_a1(full)
        at = used[tab.casefold()] = used.get(tab.casefold(), 0) + 1
        grids = found.get(tab.casefold(), [])
        try:
            box = grid_range(0, cells)
        except ValueError:
            return None
        if at > len(grids) or not isinstance(grids[at - 1], dict):
            return None
        data = grids[at - 1]  # Google leaves a zero start out
        if (data.get("startRow", 0), data.get("startColumn", 0)) != (box.get("startRowIndex", 0),
                                                                     box.get("startColumnIndex", 0)):
            return None
        out.append(trim_grid([[_snapshot_cell(cell) for cell in row.get("values", [])]
                              for row in data.get("rowData", [])]))
    if any(len(grids) != used.get(title, 0) for title, grids in found.items()):
        return None
    return out


def _snapshot_cell(cell: Any) -> CellValue:
    """One CellData as ``values.batchGet`` renders it with :data:`_READ_PARAMS`: a formula as its text, a number
    formatted as a date or time as the text shown, an error as shown, anything else as its value."""
    if not isinstance(cell, dict):
        return None
    entered = cell.get("userEnteredValue") or {}
    if "formulaValue" in entered:
        return str(entered["formulaValue"])
    if "stringValue" in entered:
        return str(entered["stringValue"])
    if "boolValue" in entered:
        return bool(entered["boolValue"])
    shown = cell.get("formattedValue")
    if "numberValue" in entered:
        kind = cell.get("effectiveFormat", {}).get("numberFormat", {}).get("type")
        return str(shown) if kind in _DATE_TYPES and shown is not None else _cell(entered["numberValue"])
    if "errorValue" in entered:
        return None if shown is None else str(shown)
    return None


def _colour(hex_colour: str) -> dict[str, float]:
    m = _COLOUR_RE.match(hex_colour.strip())
    if m is None:
        raise SheetError(f"not a #RRGGBB colour: {hex_colour!r}")
    rgb = int(m.group(1), 16)
    return {"red": (rgb >> 16 & 255) / 255, "green": (rgb >> 8 & 255) / 255, "blue": (rgb & 255) / 255}


def _stable_sheet_id(title: str, taken: set[int]) -> int:
    sid = zlib.crc32(title.encode("utf-8")) & 0x7FFFFFFF
    while sid == 0 or sid in taken:
        sid = (sid + 1) & 0x7FFFFFFF
    return sid


# --------------------------------------------------------------------------- backend


class GoogleSheetBackend:
    """One Google spreadsheet behind the SheetBackend interface.

    ``client`` is a gspread Client (see :func:`open_service_account`, :func:`open_oauth`);
    ``spreadsheet_key`` the key in the spreadsheet's URL (a whole URL is accepted too).
    Every call goes through ``retry``; errors become SheetAccessError (not shared, bad
    credentials), SheetUnavailableError (Google kept failing) or SheetError.
    """

    def __init__(
        self,
        client: gspread.Client,
        spreadsheet_key: str,
        retry: RetryPolicy = DEFAULT_RETRY,
        *,
        title: str | None = None,
        account: str | None = None,
        co_editors: Sequence[str] = (),
        sheet_ids: Path | None = None,
    ) -> None:
        key = spreadsheet_key.strip()
        if "/" in key:
            try:
                key = gspread.utils.extract_id_from_url(key)
            except gspread.exceptions.NoValidUrlKeyFound as e:
                raise SheetAccessError(f"No spreadsheet key in the URL {spreadsheet_key!r}.") from e
        if not key:
            raise SheetAccessError("The spreadsheet key is empty.")
        self.key = key
        self.client = client
        self.retry = retry
        self.title = title
        self.account = account if account is not None else account_email(client)
        # The GMs (``gm_emails``): editors of every protected range, so a co-GM can fix any cell.
        self.co_editors = tuple(co_editors)
        # Tab ids by folded title, needed only to write notes; ``sheet_ids`` keeps them for the next process.
        self._ids_file = sheet_ids
        self._ids: dict[str, int] | None = None
        self._http = client.http_client
        if isinstance(self._http, BackOffHTTPClient):
            raise TypeError(
                "give GoogleSheetBackend a gspread client with the plain HTTPClient: BackOffHTTPClient "
                "retries on its own and, in gspread 6.2.1, never gives up"
            )
        if self._http.timeout is None:
            self._http.set_timeout(DEFAULT_TIMEOUT)

    @property
    def name(self) -> str:
        """The title if known, else ``spreadsheet <key>``."""
        return f"spreadsheet {self.title!r}" if self.title else f"spreadsheet {self.key}"

    # -- the calls -------------------------------------------------------------

    def read(self, ranges: Sequence[str]) -> list[Grid]:
        """Every range in ONE values.batchGet (formulas as text, dates as shown)."""
        if not ranges:
            return []
        wanted = list(ranges)
        payload = self._call(
            "read",
            lambda: self._http.values_batch_get(self.key, list(wanted), params=dict(_READ_PARAMS)),
        )
        value_ranges = payload.get("valueRanges", []) if isinstance(payload, dict) else []
        if len(value_ranges) != len(wanted):
            raise SheetError(
                f"Google returned {len(value_ranges)} ranges for the {len(wanted)} asked from {self.name}."
            )
        return [[[_cell(v) for v in row] for row in vr.get("values", [])] for vr in value_ranges]

    def write(self, writes: Sequence[RangeWrite], *, read_back: Sequence[str] = (),
              guard: Sequence[ReadGuard] = ()) -> list[Grid]:
        """Every range in ONE values.batchUpdate, RAW. ``None`` leaves a cell unchanged and
        ``""`` clears it (as the Sheets API does); text is cut at :data:`MAX_CELL_CHARS`.

        With notes or ``read_back`` ranges, the write is ONE spreadsheets.batchUpdate of ``updateCells``
        requests instead (see :meth:`_write_cells`), which Google counts as one write request and no read:
        its answer holds the ``read_back`` ranges as they stand after the write, returned as :meth:`read`
        would return them. With nothing to write, the ``read_back`` ranges are read (one values.batchGet).

        ``guard`` (what the poll read): Google cannot check a cell before it writes, so the write leaves out every
        guarded cell it would not change, and clears a cell that held text only if it still holds that text (a
        ``findReplace`` of the whole cell, in the same batchUpdate): a player's save in between stays
        (``sheets/guard.py``)."""
        clears: list[Clear] = []
        if guard:
            writes, clears = clear_if_unchanged(writes, guard)
        if not writes and not clears:
            return self.read(read_back)
        if read_back or clears or any(w.notes is not None for w in writes):
            return self._write_cells(writes, read_back, clears)
        body = {
            "valueInputOption": "RAW",
            "includeValuesInResponse": False,
            "data": [
                {"range": w.range, "majorDimension": "ROWS", "values": [[_raw(v) for v in row] for row in w.values]}
                for w in writes
            ],
        }
        self._call("write", lambda: self._http.values_batch_update(self.key, body))
        return []

    def apply_layout(self, layout: WorkbookLayout) -> None:
        """Tabs, sizes, frozen rows, fixed values, fills, conditional fills, dropdowns, checkboxes, column
        widths and protections: one spreadsheets.get (to know the existing tabs) and one
        spreadsheets.batchUpdate. Re-applying replaces this layout's protections (matched by
        description) and its tabs' conditional formats rather than stacking them; tabs not in the
        layout are left alone."""
        layout_requests(layout, {}, self.account, self.co_editors)  # a template error fails here, before any call
        self._call("layout update", lambda: self._apply_layout_once(layout))

    def _write_cells(self, writes: Sequence[RangeWrite], read_back: Sequence[str],
                     clears: Sequence[Clear] = ()) -> list[Grid]:
        """Values and notes as ``updateCells`` requests of one spreadsheets.batchUpdate, whose answer holds the
        ``read_back`` ranges after the write (:func:`snapshot_body`, :func:`snapshot_grids`). Tab ids kept from
        an earlier process may be stale (a tab deleted and laid out again): Google then refuses the write, and
        it is made once more with the ids asked afresh."""
        fresh = self._ids is None and not self._load_ids()
        asked = list(dict.fromkeys(read_back))
        try:
            payload = self._batch_update_cells(writes, asked, clears, refresh=fresh)
        except (SheetAccessError, SheetUnavailableError):
            raise
        except SheetError:
            if fresh:
                raise
            payload = self._batch_update_cells(writes, asked, clears, refresh=True)
        if not read_back:
            return []
        grids = snapshot_grids(payload, asked)
        if grids is None:
            # The answer does not hold one grid per range where it was asked: the write landed, so the
            # ranges are read instead (one read request) rather than failing a write that was made.
            return self.read(read_back)
        by_range = dict(zip(asked, grids, strict=True))
        return [by_range[r] for r in read_back]

    def _batch_update_cells(self, writes: Sequence[RangeWrite], read_back: Sequence[str], clears: Sequence[Clear],
                            *, refresh: bool) -> Any:
        """One spreadsheets.batchUpdate writing ``writes`` and ``clears``, answering with ``read_back`` if any: its
        answer."""
        body, params = snapshot_body(self._cell_write_requests(writes, clears, refresh=refresh), read_back)
        url = SPREADSHEET_BATCH_UPDATE_URL % self.key
        return self._call("write", lambda: self._http.request("post", url, params=params, json=body).json())

    def _cell_write_requests(self, writes: Sequence[RangeWrite], clears: Sequence[Clear] = (), *,
                             refresh: bool) -> list[dict[str, Any]]:
        tabs = [split_a1(r)[0].casefold() for r in [*(w.range for w in writes), *(c.cell for c in clears)]]
        if refresh or self._ids is None or any(tab not in self._ids for tab in tabs):
            self._remember_ids(self._call("read of the tab ids", self._fetch_ids))
        ids = self._ids or {}
        requests: list[dict[str, Any]] = []
        for clear in clears:  # each cleared only if it still holds what was read: a player's newer text stays
            tab, cells = split_a1(clear.cell)
            sid = ids.get(tab.casefold())
            if sid is None:
                raise SheetError(f"{self.name} has no tab named {tab!r} (range {clear.cell!r}).")
            requests.append({"findReplace": {"find": clear.text, "replacement": "", "matchCase": True,
                                             "matchEntireCell": True, "searchByRegex": False,
                                             "includeFormulas": False, "range": grid_range(sid, cells)}})
        for w in writes:
            tab, cells = split_a1(w.range)
            sid = ids.get(tab.casefold())
            if sid is None:
                raise SheetError(f"{self.name} has no tab named {tab!r} (range {w.range!r}).")
            box = grid_range(sid, cells)
            row0, col0 = box.get("startRowIndex", 0), box.get("startColumnIndex", 0)
            requests += _value_requests(sid, row0, col0, w.values)
            if w.notes is not None:
                requests += _note_requests(sid, row0, col0, w.notes)
        return requests

    def _fetch_ids(self) -> dict[str, int]:
        meta = self._http.fetch_sheet_metadata(self.key, params={"fields": "sheets.properties(sheetId,title)"})
        sheets = meta.get("sheets", []) if isinstance(meta, dict) else []
        return {str(s["properties"]["title"]).casefold(): int(s["properties"].get("sheetId", 0))
                for s in sheets if "title" in s.get("properties", {})}

    def _load_ids(self) -> bool:
        """Take the tab ids an earlier process kept, if any (a missing or unreadable file: ask Google)."""
        if self._ids_file is None:
            return False
        try:
            kept = json.loads(self._ids_file.read_text(encoding="utf-8")).get(self.key)
        except (OSError, ValueError, AttributeError):
            return False
        if not isinstance(kept, dict) or not all(isinstance(v, int) for v in kept.values()):
            return False
        self._ids = {str(k): v for k, v in kept.items()}
        return True

    def _remember_ids(self, ids: dict[str, int]) -> None:
        """Keep ``ids`` for this process and, in the ``sheet_ids`` file, for the next (a failure only costs a
        ``spreadsheets.get`` then)."""
        self._ids = ids
        if self._ids_file is None:
            return
        try:
            kept = json.loads(self._ids_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kept = {}
        if not isinstance(kept, dict):
            kept = {}
        kept[self.key] = ids
        with contextlib.suppress(OSError):
            write_private(self._ids_file, json.dumps(kept, sort_keys=True))

    def tab_names(self) -> list[str]:
        """The tabs' names, in order: one spreadsheets.get of the metadata."""
        meta = self._call("tab list", lambda: self._http.fetch_sheet_metadata(
            self.key, params={"includeGridData": "false", "fields": "sheets(properties(title,index))"}))
        sheets = meta.get("sheets", []) if isinstance(meta, dict) else []
        ordered = sorted(sheets, key=lambda s: int(s.get("properties", {}).get("index", 0)))
        return [str(s.get("properties", {}).get("title", "")) for s in ordered]

    def export_xlsx(self) -> bytes:
        """The spreadsheet as .xlsx through Drive's files.export (one call)."""
        content = self._call("export", lambda: self._http.export(self.key, ExportFormat.EXCEL))
        return bytes(content)

    def share(
        self,
        emails: Sequence[str],
        role: str = "writer",
        *,
        notify: bool = True,
        message: str | None = None,
    ) -> list[str]:
        """Give each address ``role`` (reader, commenter, writer) on the spreadsheet through
        Drive's permissions.create, one call per address. ``notify`` sends Google's e-mail.

        Google refuses a quiet share with an address that has no Google account (it can only
        be invited by e-mail): such an address is shared again with the e-mail. Returns the
        addresses that got an e-mail although ``notify`` was off."""
        if role not in SHARE_ROLES:
            raise ValueError(f"role must be one of {', '.join(SHARE_ROLES)}, not {role!r}")
        seen: list[str] = []
        for raw in emails:
            email = raw.strip()
            if "@" not in email:
                raise ValueError(f"not an e-mail address: {raw!r}")
            if email.lower() not in (s.lower() for s in seen):
                seen.append(email)
        url = f"{DRIVE_FILES_API_V3_URL}/{self.key}/permissions"
        invited: list[str] = []
        for email in seen:
            body = {"type": "user", "role": role, "emailAddress": email}
            try:
                self._post(f"sharing with {email}", url, _share_params(notify, message), body)
            except SheetError as exc:
                if notify or "notify people" not in str(exc).lower():
                    raise
                self._post(f"sharing with {email} (by e-mail)", url, _share_params(True, message), body)
                invited.append(email)
        return invited

    def restrict_sharing(self) -> bool:
        """Only the owner (and its GMs, through the owner) may share the spreadsheet on: Drive's files.update with
        ``writersCanShare = false`` (the Share dialog's "Editors can change permissions and share", unticked), so
        that no member of a team can share the team's orders with the enemy. One call. False for a spreadsheet of a
        shared drive, which Drive lets nobody lock so (403 ``teamDrivesSharingRestrictionNotAllowed``)."""
        url = f"{DRIVE_FILES_API_V3_URL}/{self.key}"

        def lock() -> bool:
            try:
                self._http.request("patch", url, params={"supportsAllDrives": "true", "fields": "writersCanShare"},
                                   json={"writersCanShare": False})
            except APIError as e:
                details = e.error.get("errors", []) if isinstance(e.error, dict) else []
                if any(isinstance(d, dict) and d.get("reason") == SHARED_DRIVE_NO_LOCK for d in details):
                    return False
                raise
            return True

        return self._call("sharing settings", lock)

    def sharing(self) -> Sharing:
        """Who can open the spreadsheet and whether its editors may share it on: Drive's files.get
        (``writersCanShare``) and permissions.list (one page of 100: a match's spreadsheet has far fewer)."""
        url = f"{DRIVE_FILES_API_V3_URL}/{self.key}"
        meta = self._call("sharing settings", lambda: self._http.request(
            "get", url, params={"supportsAllDrives": "true", "fields": "writersCanShare"}).json())
        listed = self._call("sharing list", lambda: self._http.request(
            "get", f"{url}/permissions", params={"supportsAllDrives": "true", "pageSize": "100",
                                                 "fields": "permissions(type,role,emailAddress,domain)"}).json())
        people = tuple(_grantee(p) for p in (listed.get("permissions", []) if isinstance(listed, dict) else [])
                       if isinstance(p, dict))
        can = meta.get("writersCanShare") if isinstance(meta, dict) else None
        return Sharing(can if isinstance(can, bool) else None, people)

    # -- internals -------------------------------------------------------------

    def _post(self, what: str, url: str, params: dict[str, str], body: dict[str, Any]) -> None:
        self._call(what, lambda: self._http.request("post", url, params=dict(params), json=body))

    def _call(self, what: str, fn: Callable[[], T]) -> T:
        try:
            return self.retry.call(f"{what} of {self.name}", fn)
        except APIError as e:
            raise self._api_error(what, e) from e
        except auth_exceptions.RefreshError as e:
            raise SheetAccessError(
                f"Google refused to sign in for the {what} of {self.name}: {e}. For a service account, "
                "check that its key file is current (keys can be deleted or disabled); for your own "
                "account, delete the saved sign-in (token file) and sign in again."
            ) from e
        except auth_exceptions.GoogleAuthError as e:
            raise SheetAccessError(f"Google sign-in failed for the {what} of {self.name}: {e}.") from e

    def _api_error(self, what: str, err: APIError) -> SheetError:
        status = http_status(err) or err.code
        detail = describe(err)
        message = str(err.error.get("message", "")) if isinstance(err.error, dict) else ""
        lowered = message.lower()
        if status == 401:
            return SheetAccessError(
                f"Google rejected the credentials for the {what} of {self.name} ({detail}). Check the key "
                "file, or delete the saved sign-in and sign in again."
            )
        if status == 403 and ("exportsizelimitexceeded" in lowered or "too large to be exported" in lowered):
            return SheetError(f"{self.name} is too large for Google to export ({detail}).")
        if status in (403, 404):
            if "service_disabled" in lowered or "has not been used in project" in lowered or "is disabled" in lowered:
                return SheetAccessError(
                    f"The Google API needed for the {what} of {self.name} is not enabled in the Cloud project of "
                    f"these credentials: enable the Google Sheets API and the Google Drive API ({detail})."
                )
            if "protected" in lowered:
                who = self.account or "your Google account"
                return SheetAccessError(
                    f"The {what} of {self.name} touches a protected range ({detail}): add {who} to the "
                    "protection's editors."
                )
            if self.account:
                fix = f"Share the spreadsheet with {self.account} (as Editor)"
            else:
                fix = "Check the key and that the spreadsheet is shared with the Google account you signed in with"
            which = self.name if self.title is None else f"{self.name} (key {self.key})"
            return SheetAccessError(
                f"Cannot open {which} for the {what} ({detail}): it does not exist or is not shared with "
                f"these credentials. {fix}."
            )
        if status == 400:
            return SheetError(f"Google refused the {what} of {self.name}: {message or detail}.")
        return SheetError(f"The {what} of {self.name} failed: {detail}.")

    def _apply_layout_once(self, layout: WorkbookLayout) -> None:
        meta = self._http.fetch_sheet_metadata(
            self.key, params={"includeGridData": "false", "fields": _METADATA_FIELDS}
        )
        if isinstance(meta, dict) and self.title is None:
            self.title = meta.get("properties", {}).get("title") or None
        metadata = meta if isinstance(meta, dict) else {}
        requests = layout_requests(layout, metadata, self.account, self.co_editors)
        leftover = self._new_spreadsheets_empty_tab(metadata, layout)
        if leftover is not None:
            # A new spreadsheet's own first tab ("Sheet1", "Feuille 1"…), untouched: players would see an
            # empty tab. Deleted last, once ours exist (a spreadsheet keeps at least one tab).
            requests.append({"deleteSheet": {"sheetId": leftover}})
        if requests:
            self._http.batch_update(self.key, {"requests": requests})
        self._remember_ids(_ids_after(metadata, requests))

    def _new_spreadsheets_empty_tab(self, metadata: dict[str, Any], layout: WorkbookLayout) -> int | None:
        """The sheet id of the only tab of a spreadsheet that holds none of the layout's tabs, if it is
        empty (whatever its name: Google names it in the owner's language); None otherwise."""
        sheets = metadata.get("sheets", [])
        if len(sheets) != 1 or all(tab.hidden for tab in layout.tabs):
            return None  # (a spreadsheet must keep a visible tab: the engine's own is hidden)
        props = sheets[0].get("properties", {})
        title = str(props.get("title", ""))
        if title.casefold() in {tab.name.casefold() for tab in layout.tabs} or sheets[0].get("protectedRanges"):
            return None
        payload = self._http.values_batch_get(self.key, [quote_tab(title)], params=dict(_READ_PARAMS))
        ranges = payload.get("valueRanges", []) if isinstance(payload, dict) else []
        if any(vr.get("values") for vr in ranges):
            return None  # somebody typed in it: not ours to delete
        return int(props.get("sheetId", 0))


# --------------------------------------------------------------------------- layout → requests


def layout_requests(
    layout: WorkbookLayout, metadata: dict[str, Any], account: str | None = None, co_editors: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """The spreadsheets.batchUpdate requests that bring a spreadsheet described by
    ``metadata`` (a spreadsheets.get answer) to ``layout``. ``account`` is kept an editor of
    every protection (so the engine can still write its ranges)."""
    sheets = metadata.get("sheets", [])
    existing: dict[str, dict[str, Any]] = {}
    protected: dict[int, list[dict[str, Any]]] = {}
    conditional: dict[int, int] = {}  # each tab's count of conditional format rules
    taken: set[int] = set()
    for s in sheets:
        known = s.get("properties", {})
        sid = int(known.get("sheetId", 0))
        taken.add(sid)
        existing[str(known.get("title", "")).casefold()] = known  # Google's tab names ignore case
        protected[sid] = list(s.get("protectedRanges", []))
        conditional[sid] = len(s.get("conditionalFormats", []))

    reqs: list[dict[str, Any]] = []
    title = str(metadata.get("properties", {}).get("title", ""))
    if layout.title and not title.startswith(layout.title):  # "Friday GvG · orders red" (init --create) is kept
        reqs.append({"updateSpreadsheetProperties": {"properties": {"title": layout.title}, "fields": "title"}})

    ids: dict[str, int] = {}
    for index, tab in enumerate(layout.tabs):
        if tab.frozen_rows >= tab.rows:
            raise SheetError(f"tab {tab.name!r}: {tab.frozen_rows} frozen rows leave none to scroll in {tab.rows}")
        grid = {"rowCount": tab.rows, "columnCount": tab.cols, "frozenRowCount": tab.frozen_rows}
        props: dict[str, Any] = {"index": index, "hidden": tab.hidden, "gridProperties": grid}
        found = existing.get(tab.name.casefold())
        if found is not None:
            sid = int(found.get("sheetId", 0))
            props["sheetId"] = sid
            fields = "index,hidden,gridProperties.rowCount,gridProperties.columnCount,gridProperties.frozenRowCount"
            if found.get("title") != tab.name:
                props["title"] = tab.name
                fields += ",title"
            reqs.append({"updateSheetProperties": {"properties": props, "fields": fields}})
        else:
            sid = _stable_sheet_id(tab.name, taken)
            taken.add(sid)
            props.update(sheetId=sid, title=tab.name)
            reqs.append({"addSheet": {"properties": props}})
        ids[tab.name] = sid

    for tab in layout.tabs:
        sid = ids[tab.name]
        mine = {p.description for p in tab.protections}
        for pr in protected.get(sid, []):
            if pr.get("description") in mine and "protectedRangeId" in pr:
                reqs.append({"deleteProtectedRange": {"protectedRangeId": pr["protectedRangeId"]}})
        # The layout owns its tabs' conditional formats: the old ones go, last first (indexes shift down).
        reqs.extend({"deleteConditionalFormatRule": {"sheetId": sid, "index": i}}
                    for i in reversed(range(conditional.get(sid, 0))))
        reqs.extend(_tab_requests(tab, sid, [*([account] if account else []), *co_editors]))
    names = {tab.name.casefold() for tab in layout.tabs}
    for name in layout.retired:  # last: the layout's own tabs exist by then (a spreadsheet keeps one tab)
        gone = existing.get(name.casefold())
        if gone is not None and name.casefold() not in names:
            reqs.append({"deleteSheet": {"sheetId": int(gone.get("sheetId", 0))}})
    return reqs


def _tab_requests(tab: TabLayout, sid: int, keepers: Sequence[str]) -> list[dict[str, Any]]:
    """The requests of one tab; ``keepers`` (the account and the GMs) edit every protected range."""
    def rng(cells: str) -> dict[str, int]:
        try:
            return grid_range(sid, cells)
        except ValueError as e:
            raise SheetError(f"tab {tab.name!r}: {e}") from e

    reqs: list[dict[str, Any]] = []
    for anchor, rows in tab.values.items():
        corner = rng(anchor)
        reqs.extend(_value_requests(sid, corner.get("startRowIndex", 0), corner.get("startColumnIndex", 0), rows))
    for fill in tab.fills:
        cell_format: dict[str, Any] = {
            "backgroundColorStyle": {"rgbColor": _colour(fill.colour)},
            "textFormat": {"bold": fill.bold},
        }
        fields = "userEnteredFormat.backgroundColorStyle,userEnteredFormat.textFormat.bold"
        if fill.wrap:
            cell_format.update(wrapStrategy="WRAP", verticalAlignment="TOP")
            fields += ",userEnteredFormat.wrapStrategy,userEnteredFormat.verticalAlignment"
        reqs.append({"repeatCell": {"range": rng(fill.range), "cell": {"userEnteredFormat": cell_format},
                                    "fields": fields}})
        if fill.border:
            line = {"style": "SOLID", "colorStyle": {"rgbColor": _colour(BORDER_COLOUR)}}
            reqs.append({"updateBorders": {"range": rng(fill.range), "top": line, "bottom": line, "left": line,
                                           "right": line}})
    for index, conditional in enumerate(tab.conditional_fills):
        reqs.append({"addConditionalFormatRule": {"index": index, "rule": _conditional_rule(tab, conditional, rng)}})
    for dd in tab.dropdowns:
        condition = ({"type": "ONE_OF_RANGE", "values": [{"userEnteredValue": f"={dd.source}"}]} if dd.source else
                     {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": v} for v in dd.values]})
        reqs.append(
            {
                "setDataValidation": {
                    "range": rng(dd.range),
                    # a list read from cells only helps: anything typed is kept (a warning mark at most)
                    "rule": {"condition": condition, "strict": not dd.source, "showCustomUi": True},
                }
            }
        )
    for cb in tab.checkboxes:
        reqs.append(
            {"setDataValidation": {"range": rng(cb.range), "rule": {"condition": {"type": "BOOLEAN"}, "strict": True}}}
        )
    for dimension, sizes in (("COLUMNS", tab.column_widths), ("ROWS", tab.row_heights)):
        for start, end, pixels in _runs(sizes):
            reqs.append(
                {
                    "updateDimensionProperties": {
                        "range": {"sheetId": sid, "dimension": dimension, "startIndex": start, "endIndex": end},
                        "properties": {"pixelSize": pixels},
                        "fields": "pixelSize",
                    }
                }
            )
    for start, end, _hidden in _runs(dict.fromkeys(tab.hidden_columns, 1)):
        reqs.append(
            {
                "updateDimensionProperties": {
                    "range": {"sheetId": sid, "dimension": "COLUMNS", "startIndex": start, "endIndex": end},
                    "properties": {"hiddenByUser": True},
                    "fields": "hiddenByUser",
                }
            }
        )
    for prot in tab.protections:
        if prot.player_input and not prot.editors:
            continue  # nobody named: the cells stay open to the spreadsheet's editors (the team), not the GM alone
        reqs.append({"addProtectedRange": {"protectedRange": _protected_range(prot, rng, keepers)}})
    return reqs


def _conditional_rule(tab: TabLayout, conditional: ConditionalFill,
                      rng: Callable[[str], dict[str, int]]) -> dict[str, Any]:
    """A ConditionalFormatRule: the cells of the range whose text starts with the prefix get the colour."""
    try:
        colour = _colour(conditional.colour)
    except SheetError as e:
        raise SheetError(f"tab {tab.name!r}: conditional fill {conditional.range!r}: {e}") from e
    cell_format: dict[str, Any] = {"backgroundColorStyle": {"rgbColor": colour}}
    if conditional.bold:
        cell_format["textFormat"] = {"bold": True}
    return {
        "ranges": [rng(conditional.range)],
        "booleanRule": {
            "condition": {"type": "TEXT_STARTS_WITH", "values": [{"userEnteredValue": conditional.prefix}]},
            "format": cell_format,
        },
    }


def _runs(sizes: dict[int, int]) -> list[tuple[int, int, int]]:
    """Consecutive indices of equal size as (start, end exclusive, pixels): one request per run."""
    runs: list[tuple[int, int, int]] = []
    for index, pixels in sorted(sizes.items()):
        if runs and runs[-1][1] == index and runs[-1][2] == pixels:
            runs[-1] = (runs[-1][0], index + 1, pixels)
        else:
            runs.append((index, index + 1, pixels))
    return runs


def _value_requests(sid: int, row0: int, col0: int, rows: Grid) -> list[dict[str, Any]]:
    """updateCells requests writing ``rows`` RAW from (row0, col0): one for the whole block, or
    one per run of cells when some are None (None leaves a cell unchanged, "" clears it)."""

    def cell(v: str | int | float | bool) -> dict[str, Any]:
        ev = _extended_value(v)
        return {"userEnteredValue": ev} if ev else {}

    return _cell_requests(sid, row0, col0, rows, "userEnteredValue", cell)


def _note_requests(sid: int, row0: int, col0: int, notes: Grid) -> list[dict[str, Any]]:
    """updateCells requests setting the notes of ``notes`` from (row0, col0) ("" removes a note, None leaves it)."""

    def cell(v: str | int | float | bool) -> dict[str, Any]:
        text = str(_raw(v))
        return {"note": text} if text else {}

    return _cell_requests(sid, row0, col0, notes, "note", cell)


def _ids_after(metadata: dict[str, Any], requests: Sequence[dict[str, Any]]) -> dict[str, int]:
    """The tab ids by folded title once ``requests`` (a layout's) have run on a spreadsheet described by
    ``metadata``: the tabs it had, renamed, added or deleted by the requests."""
    ids = {str(s["properties"].get("title", "")).casefold(): int(s["properties"].get("sheetId", 0))
           for s in metadata.get("sheets", []) if "properties" in s}
    for request in requests:
        if "addSheet" in request:
            props = request["addSheet"]["properties"]
            ids[str(props["title"]).casefold()] = int(props["sheetId"])
        elif "title" in request.get("updateSheetProperties", {}).get("properties", {}):
            props = request["updateSheetProperties"]["properties"]
            ids = {t: i for t, i in ids.items() if i != props["sheetId"]}
            ids[str(props["title"]).casefold()] = int(props["sheetId"])
        elif "deleteSheet" in request:
            ids = {t: i for t, i in ids.items() if i != request["deleteSheet"]["sheetId"]}
    return ids


def _cell_requests(sid: int, row0: int, col0: int, rows: Grid, field: str,
                   cell: Callable[[str | int | float | bool], dict[str, Any]]) -> list[dict[str, Any]]:
    """updateCells requests writing ``field`` of each cell of ``rows`` from (row0, col0), ``cell`` making its
    CellData: one request for the whole block, or one per run of cells when some are None (left unchanged)."""

    def request(r: int, c: int, block: list[list[dict[str, Any]]]) -> dict[str, Any]:
        return {
            "updateCells": {
                "start": {"sheetId": sid, "rowIndex": r, "columnIndex": c},
                "rows": [{"values": cells} for cells in block],
                "fields": field,
            }
        }

    if all(v is not None for row in rows for v in row):
        return [request(row0, col0, [[cell(v) for v in row if v is not None] for row in rows])]
    out = []
    for i, row in enumerate(rows):
        j = 0
        while j < len(row):
            if row[j] is None:
                j += 1
                continue
            k = j
            run: list[dict[str, Any]] = []
            while k < len(row) and (v := row[k]) is not None:
                run.append(cell(v))
                k += 1
            out.append(request(row0 + i, col0 + j, [run]))
            j = k
    return out


def _protected_range(
    prot: Protection, rng: Callable[[str], dict[str, int]], keepers: Sequence[str]
) -> dict[str, Any]:
    editors = _unique([*prot.editors, *keepers])
    return {
        "range": rng(prot.range or ""),
        "description": prot.description,
        "warningOnly": False,
        "editors": {"users": editors},
    }


@dataclass(frozen=True, slots=True)
class Grantee:
    """One Drive permission of a spreadsheet: who (an e-mail address, ``anyone with the link``, ``anyone at
    example.org``) and the role (owner, writer, commenter, reader)."""

    who: str
    role: str
    email: str = ""  # the address when the permission is a person's or a group's


@dataclass(frozen=True, slots=True)
class Sharing:
    """Who can open a spreadsheet, and whether its editors may share it on (None when Drive does not say: a file
    of a shared drive)."""

    writers_can_share: bool | None
    people: tuple[Grantee, ...]


def _grantee(permission: dict[str, Any]) -> Grantee:
    kind, role = str(permission.get("type", "")), str(permission.get("role", ""))
    email = str(permission.get("emailAddress", ""))
    if kind == "anyone":
        return Grantee("anyone with the link", role)
    if kind == "domain":
        return Grantee(f"anyone at {permission.get('domain', '?')}", role)
    return Grantee(email or kind, role, email)


def _share_params(notify: bool, message: str | None) -> dict[str, str]:
    """The query of one permissions.create: all drives, the e-mail or not, its message."""
    params = {"supportsAllDrives": "true", "sendNotificationEmail": "true" if notify else "false"}
    if notify and message:
        params["emailMessage"] = message
    return params


def _unique(items: Iterable[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        if item.lower() not in (o.lower() for o in out):
            out.append(item)
    return out


# --------------------------------------------------------------------------- Drive's change log

#: Drive v3's change log (``changes.list``, ``changes.getStartPageToken``).
DRIVE_CHANGES_URL = "https://www.googleapis.com/drive/v3/changes"
#: The most changes Drive gives in one page of ``changes.list``.
DRIVE_PAGE_SIZE = 1000
#: What ``changes.list`` answers of each change: the file, when, and who last modified the file and when.
_CHANGES_FIELDS = ("nextPageToken,newStartPageToken,"
                   "changes(fileId,time,file(modifiedTime,version,driveId,lastModifyingUser(emailAddress,me)))")
#: Asked of every Drive list and file: the files of shared drives too (Drive leaves them out unless told).
_ALL_DRIVES = {"supportsAllDrives": "true"}


@dataclass(frozen=True, slots=True)
class DriveChanges:
    """What Drive's change log says since a page token: the files changed (id -> the time of the latest change,
    RFC 3339), the token to ask from next time, and whether this one page held every change since the token.

    For each changed file, as Drive describes the file when listing it: ``modified_by``, the e-mail address of
    the last account to modify it (``""`` when Drive does not show it: a change by no signed-in user, or an
    address its owner keeps hidden), ``modified_at``, its last modification time (RFC 3339), and ``by_me``,
    the files whose last modifier is the account asking (us)."""

    changed: dict[str, str]
    token: str
    complete: bool
    modified_by: dict[str, str] = field(default_factory=dict)
    modified_at: dict[str, str] = field(default_factory=dict)
    by_me: frozenset[str] = frozenset()
    versions: dict[str, int] = field(default_factory=dict)  # Drive's version of each file as the log lists it


@dataclass(frozen=True, slots=True)
class DriveVersion:
    """A file's Drive ``version`` (a number Drive raises at every change of the file, whoever makes it), whether
    its last modifier is the account asking (``by_me``) and which drive holds it (``drive_id``: "" for My
    Drive, else the shared drive's id)."""

    version: int
    by_me: bool
    drive_id: str = ""
    modified_at: str = ""  # its last modification time (RFC 3339)


def _version(file: dict[str, Any]) -> int | None:
    """Drive's ``version`` of a File resource (an int64, which JSON carries as a string); None when absent."""
    try:
        return int(file["version"])
    except (KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class DriveFiles:
    """What Drive's file index says: the files modified after a moment (id -> modifiedTime, RFC 3339), whether
    one page held them all, and ``by_me``, the files whose last modifier is the account asking (us)."""

    modified: dict[str, str]
    complete: bool
    by_me: frozenset[str] = frozenset()
    versions: dict[str, int] = field(default_factory=dict)  # Drive's version of each file listed


class DriveChangeLog:
    """The change log of the Drive of ``client``'s account: which files changed since a saved page token; and,
    for the poll gate's safety net, which files Drive's file index dates after a moment.

    One request a question, never retried: the poll gate that asks reads every spreadsheet when
    Drive does not answer, so a fault here costs a full read, never an answer to a player."""

    def __init__(self, client: gspread.Client) -> None:
        self._http = client.http_client
        if self._http.timeout is None:
            self._http.set_timeout(DEFAULT_TIMEOUT)

    def start_token(self) -> str:
        """The page token of the log as it is now (changes made from now on come after it)."""
        payload = self._get(f"{DRIVE_CHANGES_URL}/startPageToken", dict(_ALL_DRIVES))
        token = payload.get("startPageToken")
        if not isinstance(token, str) or not token:
            raise SheetError("Drive gave no start page token for its change log.")
        return token

    def since(self, token: str) -> DriveChanges:
        """The files changed since ``token``: one ``changes.list`` of up to :data:`DRIVE_PAGE_SIZE` changes."""
        payload = self._get(DRIVE_CHANGES_URL, {
            "pageToken": token, "pageSize": DRIVE_PAGE_SIZE, "includeRemoved": "false", "spaces": "drive",
            "includeItemsFromAllDrives": "true", **_ALL_DRIVES, "fields": _CHANGES_FIELDS})
        changed: dict[str, str] = {}
        latest: dict[str, dict[str, Any]] = {}  # the file as the latest change of each lists it
        for change in payload.get("changes", []):
            file_id, time = str(change.get("fileId", "")), str(change.get("time", ""))
            if file_id and time > changed.get(file_id, ""):  # RFC 3339 in UTC sorts as text
                changed[file_id] = time
                file = change.get("file")
                latest[file_id] = file if isinstance(file, dict) else {}
        users = {file_id: file.get("lastModifyingUser") or {} for file_id, file in latest.items()}
        modified_by = {file_id: str(user.get("emailAddress", "")) for file_id, user in users.items()}
        modified_at = {file_id: str(file["modifiedTime"]) for file_id, file in latest.items() if "modifiedTime" in file}
        by_me = frozenset(file_id for file_id, user in users.items() if user.get("me") is True)
        versions = {file_id: v for file_id, file in latest.items() if (v := _version(file)) is not None}
        following = payload.get("nextPageToken")
        if isinstance(following, str) and following:
            return DriveChanges(changed, following, False, modified_by, modified_at, by_me, versions)
        new = payload.get("newStartPageToken")
        if not isinstance(new, str) or not new:
            raise SheetError("Drive's change log gave no page token to ask from next time.")
        return DriveChanges(changed, new, True, modified_by, modified_at, by_me, versions)

    def modified_since(self, moment: datetime) -> DriveFiles:
        """The files Drive's file index dates after ``moment`` (one ``files.list`` of up to
        :data:`DRIVE_PAGE_SIZE` files): a second look, independent of the change log, at what changed.

        Drive's query language cannot name files by id, so the question is every file of the account modified
        since ``moment``; the caller keeps its own."""
        when = moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")
        payload = self._get(DRIVE_FILES_API_V3_URL, {
            "q": f"modifiedTime > '{when}' and trashed = false", "pageSize": DRIVE_PAGE_SIZE, "spaces": "drive",
            "corpora": "allDrives", "includeItemsFromAllDrives": "true", **_ALL_DRIVES,
            "fields": "nextPageToken,files(id,modifiedTime,version,lastModifyingUser(me))"})
        listed = [f for f in payload.get("files", []) if isinstance(f, dict) and f.get("id")]
        files = {str(f["id"]): str(f.get("modifiedTime", "")) for f in listed}
        mine = frozenset(str(f["id"]) for f in listed if (f.get("lastModifyingUser") or {}).get("me") is True)
        versions = {str(f["id"]): v for f in listed if (v := _version(f)) is not None}
        following = payload.get("nextPageToken")
        return DriveFiles(files, not (isinstance(following, str) and following), mine, versions)

    def version(self, key: str) -> DriveVersion:
        """The file ``key`` as Drive has it now: its ``version``, whether we modified it last, and its drive (one
        ``files.get``, no Sheets read). Asked right after our write, its version is where our own change ends:
        any later version is someone's edit, whoever made it."""
        payload = self._get(f"{DRIVE_FILES_API_V3_URL}/{key}", {
            **_ALL_DRIVES, "fields": "version,driveId,modifiedTime,lastModifyingUser(me)"})
        version = _version(payload)
        if version is None:
            raise SheetError(f"Drive gave no version of the file {key}.")
        user = payload.get("lastModifyingUser") or {}
        return DriveVersion(version, isinstance(user, dict) and user.get("me") is True,
                            str(payload.get("driveId") or ""), str(payload.get("modifiedTime") or ""))

    def google_time(self) -> datetime:
        """Google's clock: the ``Date`` of one Drive answer (the change log's start token), to the second."""
        response = self._request(f"{DRIVE_CHANGES_URL}/startPageToken", dict(_ALL_DRIVES))
        try:
            return parsedate_to_datetime(response.headers["Date"]).astimezone(UTC)
        except (KeyError, TypeError, ValueError) as e:
            raise SheetError("Drive's answer gave no date to compare this machine's clock with.") from e

    def _request(self, url: str, params: dict[str, Any]) -> requests.Response:
        try:
            return self._http.request("get", url, params=params)
        except APIError as e:
            raise SheetError(f"Drive did not answer: {describe(e)}.") from e
        except (auth_exceptions.GoogleAuthError, requests.RequestException) as e:
            raise SheetError(f"Drive did not answer: {e}.") from e

    def _get(self, url: str, params: dict[str, Any]) -> dict[str, Any]:
        response = self._request(url, params)
        try:
            payload = response.json()
        except ValueError as e:
            raise SheetError(f"Drive did not answer: {e}.") from e
        if not isinstance(payload, dict):
            raise SheetError("Drive answered something that is not a JSON object.")
        return payload
