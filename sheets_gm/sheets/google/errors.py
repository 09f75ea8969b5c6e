"""Google's refusals told in words the GM can act on: share the spreadsheet, enable an API, sign in again."""

from __future__ import annotations

from gspread.exceptions import APIError

from sheets_gm.sheets.backend import SheetAccessError, SheetError
from sheets_gm.sheets.retry import describe, http_status


def api_error(what: str, err: APIError, *, name: str, key: str, title: str | None, account: str | None) -> SheetError:
    """The error to raise for Google's refusal ``err`` of the request ``what`` on the spreadsheet ``name`` (its
    ``key`` and ``title``), signed in as ``account`` (None: the GM's own account): SheetAccessError for what the GM
    must fix (credentials, sharing, a disabled API, a protected range), else SheetError."""
    status = http_status(err) or err.code
    detail = describe(err)
    message = str(err.error.get("message", "")) if isinstance(err.error, dict) else ""
    lowered = message.lower()
    if status == 401:
        return SheetAccessError(
            f"Google rejected the credentials for the {what} of {name} ({detail}). Check the key "
            "file, or delete the saved sign-in and sign in again."
        )
    if status == 403 and ("exportsizelimitexceeded" in lowered or "too large to be exported" in lowered):
        return SheetError(f"{name} is too large for Google to export ({detail}).")
    if status in (403, 404):
        if "service_disabled" in lowered or "has not been used in project" in lowered or "is disabled" in lowered:
            return SheetAccessError(
                f"The Google API needed for the {what} of {name} is not enabled in the Cloud project of "
                f"these credentials: enable the Google Sheets API and the Google Drive API ({detail})."
            )
        if "protected" in lowered:
            who = account or "your Google account"
            return SheetAccessError(
                f"The {what} of {name} touches a protected range ({detail}): add {who} to the "
                "protection's editors."
            )
        if account:
            fix = f"Share the spreadsheet with {account} (as Editor)"
        else:
            fix = "Check the key and that the spreadsheet is shared with the Google account you signed in with"
        which = name if title is None else f"{name} (key {key})"
        return SheetAccessError(
            f"Cannot open {which} for the {what} ({detail}): it does not exist or is not shared with "
            f"these credentials. {fix}."
        )
    if status == 400:
        return SheetError(f"Google refused the {what} of {name}: {message or detail}.")
    return SheetError(f"The {what} of {name} failed: {detail}.")
