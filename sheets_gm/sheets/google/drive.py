"""Drive's change log, file index and file versions: what changed since the last poll, and who changed it.

One request a question, never retried (see :class:`DriveChangeLog`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import gspread
import requests
from google.auth import exceptions as auth_exceptions
from gspread.exceptions import APIError
from gspread.urls import DRIVE_FILES_API_V3_URL

from sheets_gm.sheets.backend import SheetError, http_status
from sheets_gm.sheets.google.signin import DEFAULT_TIMEOUT
from sheets_gm.sheets.retry import describe

#: Drive v3's change log (``changes.list``, ``changes.getStartPageToken``).
DRIVE_CHANGES_URL = "https://www.googleapis.com/drive/v3/changes"
#: The most changes Drive gives in one page of ``changes.list``.
DRIVE_PAGE_SIZE = 1000
#: What ``changes.list`` answers of each change: the file, when, and who last modified the file and when.
_CHANGES_FIELDS = ("nextPageToken,newStartPageToken,"
                   "changes(fileId,time,file(modifiedTime,version,driveId,lastModifyingUser(emailAddress,me)))")
#: Asked of every Drive list and file: the files of shared drives too (Drive leaves them out unless told).
_ALL_DRIVES = {"supportsAllDrives": "true"}


class DriveFileUnseen(SheetError):
    """Drive shows the signed-in account no such file (404), though it may open it in Sheets: a spreadsheet the GM
    made by hand, asked with her own sign-in's ``drive.file`` scope, which reaches the files sheets-gm made alone.
    Drive's change log and file index leave it out as well."""


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
        try:
            payload = self._get(f"{DRIVE_FILES_API_V3_URL}/{key}", {
                **_ALL_DRIVES, "fields": "version,driveId,modifiedTime,lastModifyingUser(me)"})
        except SheetError as e:
            if isinstance(e.__cause__, APIError) and http_status(e.__cause__) == 404:
                raise DriveFileUnseen(f"Drive shows these credentials no file {key}.") from e
            raise
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
