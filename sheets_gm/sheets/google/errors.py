"""Google's refusals told in words the GM can act on: share the spreadsheet or the folder, enable an API, sign in
again.

One mapper (``api_error``) serves every request: the Sheets and Drive calls on a match's spreadsheets
(``backend.py``) and Drive's folder look-up and file creation of ``init --create`` (``drive_create.py``). What
differs between them is only what the request was about, and so how a file not found or not shared is named and
mended: a ``Refused`` says that (``spreadsheet_refused``, or ``drive_create``'s own).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gspread.exceptions import APIError

from sheets_gm.sheets.backend import SheetAccessError, SheetError, http_status
from sheets_gm.sheets.retry import describe

#: What Google says when a service account would own a file in a My Drive (it is given no storage).
NO_STORAGE_REASON = "storageQuotaExceeded"
#: The way out of that refusal.
USE_INSTEAD = ("Share a folder of a shared drive with the service account (as Content manager) and give its URL, "
               "or sign in with your own account (oauth_client under [google]) and use a folder of your My Drive")


@dataclass(frozen=True, slots=True)
class Refused:
    """What a refused request was about, in the words its messages need: ``name`` (the file, '' when the
    request's own words name it), the service ``account`` signed in (None: the GM's own), ``unreachable`` (the
    message for a file that does not exist or is not shared with the account, from the request's words, the HTTP
    status and Google's) and ``access``, the error class of a refusal the GM mends by sharing or enabling something."""

    name: str
    account: str | None
    unreachable: Callable[[str, int, str], str]
    access: type[SheetAccessError] = SheetAccessError


def spreadsheet_refused(name: str, key: str, title: str | None, account: str | None) -> Refused:
    """A request on the spreadsheet ``name`` (its ``key`` and ``title``) of a match."""
    fix = (f"Share the spreadsheet with {account} (as Editor)" if account else
           "Check the key and that the spreadsheet is shared with the Google account you signed in with")
    which = name if title is None else f"{name} (key {key})"

    def unreachable(what: str, status: int, detail: str) -> str:
        return (f"Cannot open {which} for the {what} ({detail}): it does not exist or is not shared with these "
                f"credentials. {fix}.")

    return Refused(name, account, unreachable)


def api_error(what: str, err: APIError, about: Refused) -> SheetError:
    """The error to raise for Google's refusal ``err`` of the request ``what`` (``about`` says on what):
    ``about.access`` (a SheetAccessError) for what the GM must fix (sharing, a disabled API, a protected range, a
    service account in a My Drive), SheetAccessError for credentials Google rejected, else SheetError."""
    status = http_status(err) or err.code
    detail = describe(err)
    error = err.error if isinstance(err.error, dict) else {}
    message = str(error.get("message", ""))
    lowered = message.lower()
    reasons = {str(d.get("reason", "")) for d in error.get("errors", []) if isinstance(d, dict)}
    of = f" of {about.name}" if about.name else ""
    if status == 401:  # never ``about.access``: no sharing mends it, and a caller may take that for "not there"
        return SheetAccessError(f"Google rejected the credentials for the {what}{of} ({detail}). Check the key "
                                "file, or delete the saved sign-in and sign in again.")
    if NO_STORAGE_REASON in reasons:
        if about.account:
            return about.access(f"Google refused the {what}{of}: a service account cannot own files in a My Drive "
                                f"({detail}). {USE_INSTEAD}")
        return about.access(f"Google refused the {what}{of}: the Drive storage of your Google account is full "
                            f"({detail}); free some of it (or buy more), or use a folder of a shared drive")
    if status == 403 and ("exportsizelimitexceeded" in lowered or "too large to be exported" in lowered):
        return SheetError(f"{about.name or 'The file'} is too large for Google to export ({detail}).")
    if status in (403, 404):
        if "service_disabled" in lowered or "has not been used in project" in lowered or "is disabled" in lowered:
            return about.access(f"The Google API needed for the {what}{of} is not enabled in the Cloud project of "
                                "these credentials: enable the Google Sheets API and the Google Drive API "
                                f"({detail}).")
        if "protected" in lowered:
            return about.access(f"The {what}{of} touches a protected range ({detail}): add "
                                f"{about.account or 'your Google account'} to the protection's editors.")
        return about.access(about.unreachable(what, status, detail))
    if status == 400:
        return SheetError(f"Google refused the {what}{of}: {message or detail}.")
    return SheetError(f"The {what}{of} failed: {detail}.")
