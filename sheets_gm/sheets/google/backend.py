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
cell is cleared by a ``findReplace`` of the very text read, so a player's save in between stays.

The rest of the package: ``signin`` (credentials: a service account's key file, shared with each spreadsheet, or
the GM's own account), ``cells`` (A1 to GridRange, RAW values, ``updateCells``), ``snapshot`` (reads as rendered),
``layout_requests``, ``sharing``, ``errors`` (Google's refusals in the GM's words), ``drive`` (Drive's change log and
versions, which the poll gate asks) and ``drive_create`` (``init --create``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import gspread
from google.auth import exceptions as auth_exceptions
from gspread.exceptions import APIError
from gspread.http_client import BackOffHTTPClient
from gspread.urls import SPREADSHEET_BATCH_UPDATE_URL
from gspread.utils import ExportFormat

from sheets_gm.sheets.backend import RangeWrite, SharingLock, SheetAccessError, SheetError, SheetUnavailableError
from sheets_gm.sheets.google.cells import cell_value, grid_range, note_requests, raw_value, value_requests
from sheets_gm.sheets.google.errors import api_error, spreadsheet_refused
from sheets_gm.sheets.google.layout_requests import (
    LAYOUT_METADATA_FIELDS,
    BuiltTabs,
    built_tabs,
    ids_after,
    layout_requests,
)
from sheets_gm.sheets.google.seen import SEEN_FIELDS, seen_sheets
from sheets_gm.sheets.google.sharing import Sharing, read_sharing, restrict_sharing, share_spreadsheet
from sheets_gm.sheets.google.signin import DEFAULT_TIMEOUT, account_email
from sheets_gm.sheets.google.snapshot import (
    READ_PARAMS,
    STRUCK_FIELDS,
    snapshot_body,
    snapshot_grids,
    spreadsheet_grids,
)
from sheets_gm.sheets.guard import Clear, clear_if_unchanged
from sheets_gm.sheets.layout import Grid, ReadGuard, WorkbookLayout, quote_tab, split_a1
from sheets_gm.sheets.looks import TabSeen
from sheets_gm.sheets.private_files import write_private
from sheets_gm.sheets.retry import DEFAULT_RETRY, RetryPolicy

T = TypeVar("T")


#: Why the GM's own sign-in is refused a week after she signed in, and the way out (docs/google-setup.md, step 6).
LAPSED_SIGN_IN = (" An app left in \"Testing\" on Google's consent screen loses its sign-ins after 7 days: publish it "
                  "(Google Auth Platform > Audience > Publish app; docs/google-setup.md, step 6), then sign in again.")


class WriteWatch(Protocol):
    """Who watches one spreadsheet's reads and writes while a GM's command runs (``poll_gate.command_record``): each
    write also reads back the ranges it names, in the same request, and is told what they held after it."""

    def also_read_back(self) -> Sequence[str]:
        """The ranges each write also answers with ('': none)."""

    def read(self, ranges: Sequence[str]) -> None:
        """The spreadsheet was read: ``ranges``."""

    def written(self, grids: list[Grid] | None) -> None:
        """A write was made: what :meth:`also_read_back` held after it (None: no answer, or a layout)."""


class GoogleSheetBackend:
    """One Google spreadsheet behind the SheetBackend interface.

    ``client`` is a gspread Client (see ``signin``: :func:`~sheets_gm.sheets.google.signin.open_service_account`,
    :func:`~sheets_gm.sheets.google.signin.open_oauth`);
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
        self._struck: set[str] = set()  # the ranges read with their strikethrough (``read``'s ``struck``)
        self.changes = 0  # the writes and layouts sent (``SheetBackend.changes``)
        self.watch: WriteWatch | None = None  # a GM's command watching its writes (``poll_gate.command_record``)
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

    def read(self, ranges: Sequence[str], *, struck: Collection[str] = ()) -> list[Grid]:
        """Every range in ONE values.batchGet (formulas as text, dates as shown); with ``struck`` ranges, ONE
        spreadsheets.get of every range instead, cut by a field mask to the values and what strikes a text through
        (``snapshot.STRUCK_FIELDS``): one read request still."""
        if not ranges:
            return []
        wanted = list(ranges)
        self._struck.update(struck)
        if set(struck) & set(wanted):
            return self._read_struck(wanted)
        payload = self._call(
            "read",
            lambda: self._http.values_batch_get(self.key, list(wanted), params=dict(READ_PARAMS)),
        )
        value_ranges = payload.get("valueRanges", []) if isinstance(payload, dict) else []
        if len(value_ranges) != len(wanted):
            raise SheetError(
                f"Google returned {len(value_ranges)} ranges for the {len(wanted)} asked from {self.name}."
            )
        if self.watch is not None:
            self.watch.read(wanted)
        return [[[cell_value(v) for v in row] for row in vr.get("values", [])] for vr in value_ranges]

    def _read_struck(self, wanted: list[str]) -> list[Grid]:
        """Every range of ``wanted`` from ONE spreadsheets.get, as ``read`` gives it, struck text included."""
        params: dict[str, str | int | bool | float | list[str] | None] = {"ranges": wanted, "fields": STRUCK_FIELDS}
        payload = self._call("read", lambda: self._http.fetch_sheet_metadata(self.key, params=params))
        grids = spreadsheet_grids(payload, wanted)
        if grids is None:
            raise SheetError(f"Google did not return the {len(wanted)} ranges asked from {self.name}.")
        if self.watch is not None:
            self.watch.read(wanted)
        return grids

    def write(self, writes: Sequence[RangeWrite], *, read_back: Sequence[str] = (),
              guard: Sequence[ReadGuard] = ()) -> list[Grid]:
        """Every range in ONE values.batchUpdate, RAW. ``None`` leaves a cell unchanged and
        ``""`` clears it (as the Sheets API does); text is cut at :data:`~sheets_gm.sheets.google.cells.MAX_CELL_CHARS`.

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
        self.changes += 1  # counted as it is sent: an answer lost on the way may hide a write that landed
        watched = tuple(self.watch.also_read_back()) if self.watch is not None else ()
        if watched:
            grids = self._write_cells(writes, (*watched, *read_back), clears)
            if self.watch is not None:
                self.watch.written(grids[:len(watched)])
            return grids[len(watched):]
        if self.watch is not None:
            self.watch.written(None)
        if read_back or clears or any(w.notes is not None for w in writes):
            return self._write_cells(writes, read_back, clears)
        body = {
            "valueInputOption": "RAW",
            "includeValuesInResponse": False,
            "data": [
                {"range": w.range, "majorDimension": "ROWS",
                 "values": [[raw_value(v) for v in row] for row in w.values]}
                for w in writes
            ],
        }
        self._call("write", lambda: self._http.values_batch_update(self.key, body))
        return []

    def apply_layout(self, layout: WorkbookLayout, writes: Sequence[RangeWrite] = ()) -> None:
        """Tabs, sizes, frozen rows, fixed values, fills, conditional fills, dropdowns, checkboxes, column
        widths and protections: one spreadsheets.get (to know the existing tabs) and one
        spreadsheets.batchUpdate. Re-applying replaces this layout's protections (matched by
        description) and its tabs' conditional formats rather than stacking them; tabs not in the
        layout are left alone. Then ``writes``, as ``write`` sends them."""
        built = built_tabs(layout, self.account, self.co_editors)  # a template error fails here, before any call
        self.changes += 1
        if self.watch is not None:
            self.watch.written(None)
        self._call("layout update", lambda: self._apply_layout_once(layout, built))
        if writes:
            self.write(writes)

    def _write_cells(self, writes: Sequence[RangeWrite], read_back: Sequence[str],
                     clears: Sequence[Clear] = ()) -> list[Grid]:
        """Values and notes as ``updateCells`` requests of one spreadsheets.batchUpdate, whose answer holds the
        ``read_back`` ranges after the write (``snapshot_body``, ``snapshot_grids``). Tab ids kept from
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
        body, params = snapshot_body(self._cell_write_requests(writes, clears, refresh=refresh), read_back,
                                     struck=any(r in self._struck for r in read_back))
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
            requests += value_requests(sid, row0, col0, w.values)
            if w.notes is not None:
                requests += note_requests(sid, row0, col0, w.notes)
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

    def read_seen(self) -> list[TabSeen]:
        """Every tab as a reader sees it (``sheets/looks.py``): ONE spreadsheets.get whose field mask
        (:data:`~sheets_gm.sheets.google.seen.SEEN_FIELDS`) asks every tab's grid, cut to the values and what can
        hide them."""
        meta = self._call("read of the tabs as shown", lambda: self._http.fetch_sheet_metadata(
            self.key, params={"fields": SEEN_FIELDS}))
        return seen_sheets(meta)

    def export_xlsx(self) -> bytes:
        """The spreadsheet as .xlsx through Drive's files.export (one call)."""
        content = self._call("export", lambda: self._http.export(self.key, ExportFormat.EXCEL))
        return bytes(content)

    def share(self, emails: Sequence[str], role: str = "writer", *, notify: bool = True,
              message: str | None = None) -> list[str]:
        """Give each address ``role`` on the spreadsheet, one Drive permissions.create each (see
        :func:`~sheets_gm.sheets.google.sharing.share_spreadsheet`); the addresses that got an e-mail although
        ``notify`` was off."""
        return share_spreadsheet(self._call, self._http, self.key, emails, role, notify=notify, message=message)

    def restrict_sharing(self) -> SharingLock:
        """Only the owner may share the spreadsheet on (see :func:`~sheets_gm.sheets.google.sharing.restrict_sharing`):
        whether it is locked now, is in a shared drive (which Drive lets nobody lock so), or has an owner who alone
        may lock it."""
        return restrict_sharing(self._call, self._http, self.key)

    def owner_lock(self) -> tuple[str, bool | None]:
        """The e-mail address of the spreadsheet's owner, as Drive's sharing list gives it ("" when it names none:
        a shared drive's file, or a list these credentials may not read), and whether its editors may share it on
        (None when Drive does not say)."""
        try:
            state = self.sharing()
        except SheetError:
            return "", None
        return next((p.email for p in state.people if p.role == "owner" and p.email), ""), state.writers_can_share

    def sharing(self) -> Sharing:
        """Who can open the spreadsheet and whether its editors may share it on (two Drive calls)."""
        return read_sharing(self._call, self._http, self.key)

    # -- internals -------------------------------------------------------------

    def _call(self, what: str, fn: Callable[[], T]) -> T:
        try:
            return self.retry.call(f"{what} of {self.name}", fn)
        except APIError as e:
            raise api_error(what, e, spreadsheet_refused(self.name, self.key, self.title, self.account)) from e
        except auth_exceptions.RefreshError as e:
            lapsed = "" if self.account is not None or "invalid_grant" not in str(e) else LAPSED_SIGN_IN
            raise SheetAccessError(
                f"Google refused to sign in for the {what} of {self.name}: {e}. For a service account, "
                "check that its key file is current (keys can be deleted or disabled); for your own "
                f"account, delete the saved sign-in (token file) and sign in again.{lapsed}"
            ) from e
        except auth_exceptions.GoogleAuthError as e:
            raise SheetAccessError(f"Google sign-in failed for the {what} of {self.name}: {e}.") from e

    def _apply_layout_once(self, layout: WorkbookLayout, built: BuiltTabs) -> None:
        meta = self._http.fetch_sheet_metadata(
            self.key, params={"includeGridData": "false", "fields": LAYOUT_METADATA_FIELDS}
        )
        if isinstance(meta, dict) and self.title is None:
            self.title = meta.get("properties", {}).get("title") or None
        metadata = meta if isinstance(meta, dict) else {}
        requests = layout_requests(layout, metadata, self.account, self.co_editors, built)
        leftover = self._new_spreadsheets_empty_tab(metadata, layout)
        if leftover is not None:
            # A new spreadsheet's own first tab ("Sheet1", "Feuille 1"…), untouched: players would see an
            # empty tab. Deleted last, once ours exist (a spreadsheet keeps at least one tab).
            requests.append({"deleteSheet": {"sheetId": leftover}})
        if requests:
            self._http.batch_update(self.key, {"requests": requests})
        self._remember_ids(ids_after(metadata, requests))

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
        payload = self._http.values_batch_get(self.key, [quote_tab(title)], params=dict(READ_PARAMS))
        ranges = payload.get("valueRanges", []) if isinstance(payload, dict) else []
        if any(vr.get("values") for vr in ranges):
            return None  # somebody typed in it: not ours to delete
        return int(props.get("sheetId", 0))
