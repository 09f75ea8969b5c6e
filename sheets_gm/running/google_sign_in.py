"""Signing in to a configured match's Google account: its service account, or the GM's own OAuth sign-in, asked
for the scopes of what the command does. Apart from opening the spreadsheets (``connect``): ``serve``'s host signs
its accounts' watchers in without importing a poll's path."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from sheets_gm.match.config import MatchConfig
from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.private_files import private_folder

if TYPE_CHECKING:
    import gspread


#: What a command does with Google, which says the OAuth scopes it asks for (``sheets.google.signin``): ``play``
#: (read and write cells, read Drive's change log and sharing list), ``share`` (init: share the spreadsheets),
#: ``export``.
Access = Literal["play", "share", "export"]


def service_account_client(key_file: Path, access: Access = "play") -> gspread.Client:
    """A client signed in as the service account of ``key_file``, its tokens asked for the scopes of ``access``
    alone (what ``google_client`` opens for a config that names one)."""
    from sheets_gm.sheets.google.signin import EXPORT_SCOPES, PLAY_SCOPES, SHARE_SCOPES, open_service_account

    scopes = {"play": PLAY_SCOPES, "share": SHARE_SCOPES, "export": EXPORT_SCOPES}[access]
    return open_service_account(key_file, scopes)


def google_client(config: MatchConfig, access: Access = "play") -> gspread.Client:
    """A signed-in gspread client: the service account if configured (its tokens asked for the scopes of
    ``access`` alone), else the GM's OAuth sign-in: for playing (``SIGN_IN_SCOPES``: every spreadsheet's cells,
    Drive on sheets-gm's own files alone), kept in ``oauth_token``, the one cron's polls load; for ``share`` and
    ``export``, which reach Drive files sheets-gm did not make, a sign-in of its own (``DRIVE_SIGN_IN_SCOPES``)
    kept beside it (``oauth_drive_token``), which no poll loads."""
    from sheets_gm.sheets.google.signin import DRIVE_SIGN_IN_SCOPES, SIGN_IN_SCOPES, open_oauth

    if config.service_account is not None:
        return service_account_client(config.service_account, access)
    if config.oauth_client is None:
        raise SheetAccessError(f"{config.path}: [google] names no service_account or oauth_client file")
    if config.oauth_token.parent == config.state_dir:
        private_folder(config.state_dir)  # where the sign-in is saved (open_oauth makes the file itself 0600)
    if access == "play":
        return open_oauth(config.oauth_client, config.oauth_token, scopes=SIGN_IN_SCOPES)
    return open_oauth(config.oauth_client, config.oauth_drive_token, scopes=DRIVE_SIGN_IN_SCOPES)
