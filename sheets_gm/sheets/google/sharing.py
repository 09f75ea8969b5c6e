"""Who can open a spreadsheet and whether its editors may share it on: Drive's permissions and ``writersCanShare``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from gspread.exceptions import APIError
from gspread.http_client import HTTPClient
from gspread.urls import DRIVE_FILES_API_V3_URL

from sheets_gm.sheets.backend import OwnerOnlyError, SharingLock, SheetError
from sheets_gm.sheets.retry import describe

T = TypeVar("T")

#: Drive's refusal of ``writersCanShare`` on a file of a shared drive (its drive's settings say who may share).
SHARED_DRIVE_NO_LOCK = "teamDrivesSharingRestrictionNotAllowed"
#: Drive's refusal, in a My Drive, of what only the file's owner may do, to one of its editors: change its sharing
#: settings (``writersCanShare``), or share it at all once its owner has turned editors' sharing off.
OWNER_ONLY = "insufficientFilePermissions"

#: Roles a spreadsheet can be shared with.
SHARE_ROLES = ("reader", "commenter", "writer")


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


def _reasons(e: APIError) -> set[str]:
    """The ``reason`` of each error detail Drive gave with a refusal."""
    details = e.error.get("errors", []) if isinstance(e.error, dict) else []
    return {str(d.get("reason", "")) for d in details if isinstance(d, dict)}


def _share_params(notify: bool, message: str | None) -> dict[str, str]:
    """The query of one permissions.create: all drives, the e-mail or not, its message."""
    params = {"supportsAllDrives": "true", "sendNotificationEmail": "true" if notify else "false"}
    if notify and message:
        params["emailMessage"] = message
    return params


class Caller(Protocol):
    """How a request is made: retried, its failure told in the GM's words (``GoogleSheetBackend._call``)."""

    def __call__(self, what: str, fn: Callable[[], T]) -> T:
        """The answer of ``fn``, the request named ``what`` in a refusal."""
        ...


def share_spreadsheet(call: Caller, http: HTTPClient, key: str, emails: Sequence[str], role: str = "writer", *,
                      notify: bool = True, message: str | None = None) -> list[str]:
    """Give each address ``role`` (reader, commenter, writer) on the spreadsheet ``key`` through Drive's
    permissions.create, one call per address. ``notify`` sends Google's e-mail.

    Google refuses a quiet share with an address that has no Google account (it can only be invited by e-mail):
    such an address is shared again with the e-mail. Returns the addresses that got an e-mail although ``notify``
    was off."""
    if role not in SHARE_ROLES:
        raise ValueError(f"role must be one of {', '.join(SHARE_ROLES)}, not {role!r}")
    seen: list[str] = []
    for raw in emails:
        email = raw.strip()
        if "@" not in email:
            raise ValueError(f"not an e-mail address: {raw!r}")
        if email.lower() not in (s.lower() for s in seen):
            seen.append(email)
    url = f"{DRIVE_FILES_API_V3_URL}/{key}/permissions"

    def post(what: str, params: dict[str, str], body: dict[str, Any]) -> None:
        def request() -> None:
            try:
                http.request("post", url, params=dict(params), json=body)
            except APIError as e:
                if OWNER_ONLY in _reasons(e):
                    raise OwnerOnlyError(f"Google refused the {what}: its owner has turned off editors' sharing, "
                                         f"and these credentials are an editor ({describe(e)})") from e
                raise

        call(what, request)

    invited: list[str] = []
    for email in seen:
        body = {"type": "user", "role": role, "emailAddress": email}
        try:
            post(f"sharing with {email}", _share_params(notify, message), body)
        except SheetError as exc:
            if notify or "notify people" not in str(exc).lower():
                raise
            post(f"sharing with {email} (by e-mail)", _share_params(True, message), body)
            invited.append(email)
    return invited


def restrict_sharing(call: Caller, http: HTTPClient, key: str) -> SharingLock:
    """Only the owner (and its GMs, through the owner) may share the spreadsheet ``key`` on: Drive's files.update
    with ``writersCanShare = false`` (the Share dialog's "Editors can change permissions and share", unticked), so
    that no member of a team can share the team's orders with the enemy. One call.

    Drive lets only a My Drive file's owner change that setting: an editor (a service account the GM shared her
    own spreadsheet with) is refused (403 ``insufficientFilePermissions``): ``OWNER_ONLY``. A spreadsheet of a
    shared drive cannot be locked so by anyone (403 ``teamDrivesSharingRestrictionNotAllowed``):
    ``SHARED_DRIVE``."""
    url = f"{DRIVE_FILES_API_V3_URL}/{key}"

    def lock() -> SharingLock:
        try:
            http.request("patch", url, params={"supportsAllDrives": "true", "fields": "writersCanShare"},
                         json={"writersCanShare": False})
        except APIError as e:
            reasons = _reasons(e)
            if SHARED_DRIVE_NO_LOCK in reasons:
                return SharingLock.SHARED_DRIVE
            if OWNER_ONLY in reasons:
                return SharingLock.OWNER_ONLY
            raise
        return SharingLock.LOCKED

    return call("sharing settings", lock)


def read_sharing(call: Caller, http: HTTPClient, key: str) -> Sharing:
    """Who can open the spreadsheet ``key`` and whether its editors may share it on: Drive's files.get
    (``writersCanShare``) and permissions.list (one page of 100: a match's spreadsheet has far fewer)."""
    url = f"{DRIVE_FILES_API_V3_URL}/{key}"
    meta = call("sharing settings", lambda: http.request(
        "get", url, params={"supportsAllDrives": "true", "fields": "writersCanShare"}).json())
    listed = call("sharing list", lambda: http.request(
        "get", f"{url}/permissions", params={"supportsAllDrives": "true", "pageSize": "100",
                                             "fields": "permissions(type,role,emailAddress,domain)"}).json())
    people = tuple(_grantee(p) for p in (listed.get("permissions", []) if isinstance(listed, dict) else [])
                   if isinstance(p, dict))
    can = meta.get("writersCanShare") if isinstance(meta, dict) else None
    return Sharing(can if isinstance(can, bool) else None, people)
