"""Creating a match's spreadsheets in a Drive folder (``init --create``), through Drive v3 alone.

The folder is looked up first (it must be a folder the account may add files to); each spreadsheet is created
in it with two private properties (``appProperties``: the match's id and the spreadsheet's role), by which a
later run finds the ones an earlier run made, however far that run got. A service account owns nothing in a
My Drive (Google gives it no storage): in a My Drive folder it is refused before anything is made."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import gspread
from google.auth import exceptions as auth_exceptions
from gspread.exceptions import APIError
from gspread.urls import DRIVE_FILES_API_V3_URL

from sheets_gm.sheets.backend import SheetAccessError, SheetError
from sheets_gm.sheets.google.errors import USE_INSTEAD, Refused, api_error
from sheets_gm.sheets.google.signin import DEFAULT_TIMEOUT, account_email
from sheets_gm.sheets.retry import DEFAULT_RETRY, RetryPolicy

T = TypeVar("T")

FOLDER_MIME = "application/vnd.google-apps.folder"
SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
#: The private properties set on each spreadsheet created: which match, and which of its spreadsheets.
MATCH_PROPERTY = "sheetsGmMatch"
ROLE_PROPERTY = "sheetsGmRole"

_ID = r"[A-Za-z0-9_-]{10,}"
_FOLDER_URLS = (re.compile(rf"/folders/({_ID})"), re.compile(rf"[?&]id=({_ID})"))
_OTHER_URLS = {"spreadsheets": "a spreadsheet", "document": "a document", "presentation": "a presentation",
               "forms": "a form", "file": "a file"}


class DriveCreateError(SheetAccessError):
    """Drive refused to give the folder or to create a spreadsheet in it; the message says what to do."""


def folder_id(text: str) -> str:
    """The id of the Drive folder ``text`` names: a folder's URL as Drive's address bar shows it
    (``https://drive.google.com/drive/folders/<id>``, ``…/drive/u/0/folders/<id>?usp=sharing``,
    ``https://drive.google.com/open?id=<id>``) or the bare id. DriveCreateError for anything else, naming it.

    >>> folder_id("https://drive.google.com/drive/u/1/folders/1AbCdEfGhIjKlMnOp?usp=sharing")
    '1AbCdEfGhIjKlMnOp'
    >>> folder_id("1AbCdEfGhIjKlMnOp")
    '1AbCdEfGhIjKlMnOp'
    """
    value = text.strip()
    if re.fullmatch(_ID, value):
        return value
    if "://" in value or value.startswith(("drive.google.com", "docs.google.com")):
        for kind, what in _OTHER_URLS.items():
            if f"/{kind}/d/" in value:
                raise DriveCreateError(f"{text!r} is the address of {what}, not of a folder: open the folder in "
                                       "Google Drive and copy the address bar (…/drive/folders/…)")
        for pattern in _FOLDER_URLS:
            found = pattern.search(value)
            if found:
                return found.group(1)
    raise DriveCreateError(f"{text!r} is neither a Drive folder's URL (https://drive.google.com/drive/folders/…) "
                           "nor a folder id (the letters and digits after /folders/ in that URL)")


@dataclass(frozen=True, slots=True)
class DriveFolder:
    """A Drive folder spreadsheets can be created in: its id, its name, and the shared drive that holds it
    (``drive_id``; ``""`` for a folder of a My Drive)."""

    id: str
    name: str
    drive_id: str = ""

    @property
    def where(self) -> str:
        """The folder in words, for messages."""
        return f"folder {self.name!r}" + (" (a shared drive)" if self.drive_id else " (My Drive)")


@dataclass(frozen=True, slots=True)
class MadeSpreadsheet:
    """A spreadsheet this tool created for a match: its key, its name, the role it was made for."""

    key: str
    name: str
    role: str


class DriveCreator:
    """Drive's folders and file creation for the account of ``client`` (a gspread client with Drive's full
    scope: ``SHARE_SCOPES``). Every call goes through ``retry`` (default ``DEFAULT_RETRY``)."""

    def __init__(self, client: gspread.Client, retry: RetryPolicy | None = None) -> None:
        self._http = client.http_client
        if self._http.timeout is None:
            self._http.set_timeout(DEFAULT_TIMEOUT)
        self.retry = retry or DEFAULT_RETRY
        self.service_account = account_email(client)  # None when the GM signed in with her own account

    @property
    def account(self) -> str:
        """Who creates, in words."""
        return f"the service account {self.service_account}" if self.service_account else "your Google account"

    def folder(self, folder: str) -> DriveFolder:
        """The folder of id ``folder``, checked: it exists, the account sees it, it is a folder, not in the
        trash, and the account may add files to it; a service account's folder is in a shared drive (it can own
        nothing in a My Drive). DriveCreateError naming what is wrong and what to do otherwise."""
        meta = self._call(f"look-up of the Drive folder {folder}", lambda: self._http.request(
            "get", f"{DRIVE_FILES_API_V3_URL}/{folder}",
            params={"supportsAllDrives": "true",
                    "fields": "id,name,mimeType,driveId,trashed,capabilities(canAddChildren)"}).json(), folder)
        name = str(meta.get("name", folder))
        if meta.get("mimeType") != FOLDER_MIME:
            raise DriveCreateError(f"{folder} is not a folder but {name!r} ({meta.get('mimeType', 'a file')}): "
                                   "give the URL of the Drive folder the spreadsheets should go in")
        if meta.get("trashed"):
            raise DriveCreateError(f"the folder {name!r} is in the trash: restore it, or give another folder")
        if (meta.get("capabilities") or {}).get("canAddChildren") is False:
            raise DriveCreateError(f"{self.account} may not add files to the folder {name!r}: share it with "
                                   f"{self.service_account or 'your account'} as Editor (Content manager in a "
                                   "shared drive), or give another folder")
        found = DriveFolder(str(meta.get("id", folder)), name, str(meta.get("driveId", "")))
        if self.service_account and not found.drive_id:
            raise DriveCreateError(f"the folder {name!r} is in a My Drive, and a service account cannot own files "
                                   f"there (Google gives it no storage); nothing was created. {USE_INSTEAD}")
        return found

    def made_for(self, match: str, folder: DriveFolder) -> list[MadeSpreadsheet]:
        """The spreadsheets (not in the trash) created for the match ``match`` by this tool, wherever in the
        folder's drive they now are, oldest first (one ``files.list``)."""
        return self._call("search for the spreadsheets an earlier run created",
                          lambda: self._search(match, folder), folder.id)

    def _search(self, match: str, folder: DriveFolder) -> list[MadeSpreadsheet]:
        """One ``files.list`` of the match's spreadsheets, not retried."""
        query = (f"appProperties has {{ key='{MATCH_PROPERTY}' and value='{match}' }} and trashed = false "
                 f"and mimeType = '{SPREADSHEET_MIME}'")
        params: dict[str, str | int | bool | float | list[str] | None] = {
            "q": query, "pageSize": "1000", "orderBy": "createdTime", "fields": "files(id,name,appProperties)"}
        if folder.drive_id:
            params |= {"corpora": "drive", "driveId": folder.drive_id, "includeItemsFromAllDrives": "true",
                       "supportsAllDrives": "true"}
        payload = self._http.request("get", DRIVE_FILES_API_V3_URL, params=params).json()
        made: list[MadeSpreadsheet] = []
        for file in payload.get("files", []) if isinstance(payload, dict) else []:
            role = (file.get("appProperties") or {}).get(ROLE_PROPERTY) if isinstance(file, dict) else None
            if isinstance(role, str) and file.get("id"):
                made.append(MadeSpreadsheet(str(file["id"]), str(file.get("name", "")), role))
        return made

    def still_there(self, key: str) -> bool:
        """Whether the spreadsheet ``key`` is still reachable and out of the trash (one ``files.get``)."""
        try:
            meta = self._call(f"look-up of spreadsheet {key}", lambda: self._http.request(
                "get", f"{DRIVE_FILES_API_V3_URL}/{key}",
                params={"supportsAllDrives": "true", "fields": "id,trashed"}).json(), key)
        except DriveCreateError:
            return False
        return not meta.get("trashed")

    def create(self, name: str, folder: DriveFolder, match: str, role: str) -> MadeSpreadsheet:
        """A new empty spreadsheet called ``name`` in ``folder``, marked as the match's spreadsheet for
        ``role`` (one ``files.create``). Creating is not idempotent: after a failure Google may or may not have
        applied (a connection reset after the file was made), so each new attempt first searches for the role's
        spreadsheet and takes it if the failed attempt made it."""
        body = {"name": name, "mimeType": SPREADSHEET_MIME, "parents": [folder.id],
                "appProperties": {MATCH_PROPERTY: match, ROLE_PROPERTY: role}}
        attempts = 0

        def once() -> Any:
            nonlocal attempts
            attempts += 1
            if attempts > 1:
                earlier = [m for m in self._search(match, folder) if m.role == role]
                if earlier:
                    return {"id": earlier[0].key, "name": earlier[0].name}
            return self._http.request("post", DRIVE_FILES_API_V3_URL,
                                      params={"supportsAllDrives": "true", "fields": "id,name"}, json=body).json()

        payload = self._call(f"creation of {name!r}", once, folder.id)
        key = payload.get("id")
        if not isinstance(key, str) or not key:
            raise SheetError(f"Drive created {name!r} but gave no id for it")
        return MadeSpreadsheet(key, str(payload.get("name", name)), role)

    def _call(self, what: str, fn: Callable[[], T], file: str) -> T:
        try:
            payload = self.retry.call(what, fn)
        except APIError as e:
            raise self._refusal(what, e, file) from e
        except auth_exceptions.GoogleAuthError as e:
            raise SheetAccessError(f"Google sign-in failed for the {what}: {e}.") from e
        if not isinstance(payload, dict | list):
            raise SheetError(f"Drive answered the {what} with something that is not a JSON object")
        return payload

    def _refusal(self, what: str, err: APIError, file: str) -> SheetError:
        """Google's refusal of a request on the folder (or a file in it) ``file``, through the backend's one
        mapper (``errors.api_error``): only a file out of reach is named for a folder, with its own fix."""
        return api_error(what, err, Refused("", self.service_account, self._unreachable(file), DriveCreateError))

    def _unreachable(self, file: str) -> Callable[[str, int, str], str]:
        share = f"{self.service_account or 'your account'} as Editor"

        def said(what: str, status: int, detail: str) -> str:
            if status == 404:
                return (f"Drive has no folder or file {file} that {self.account} can see ({what}): check the URL, "
                        f"and share the folder with {share}")
            return (f"Drive refused the {what} to {self.account} ({detail}): share the folder with {share} "
                    "(Content manager in a shared drive)")

        return said
