"""Opening a configured match's spreadsheets: one backend per distinct workbook file or spreadsheet."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.sheets.backend import SheetAccessError, SheetBackend
from sheets_gm.sheets.private_files import private_folder
from sheets_gm.sync.journal import journal_path
from sheets_gm.sync.sheets import MatchSheets

if TYPE_CHECKING:
    import gspread

    from sheets_gm.sheets.retry import RetryPolicy


#: What a command does with Google, which says the OAuth scopes it asks for (``sheets.google.signin``): ``play``
#: (read and write cells, read Drive's change log and sharing list), ``share`` (init: share the spreadsheets),
#: ``export``.
Access = Literal["play", "share", "export"]


def google_client(config: MatchConfig, access: Access = "play") -> gspread.Client:
    """A signed-in gspread client: the service account if configured (its tokens asked for the scopes of
    ``access`` alone), else the GM's OAuth sign-in (asked once, for what init needs)."""
    from sheets_gm.sheets.google.signin import (
        EXPORT_SCOPES,
        PLAY_SCOPES,
        SHARE_SCOPES,
        open_oauth,
        open_service_account,
    )

    if config.service_account is not None:
        scopes = {"play": PLAY_SCOPES, "share": SHARE_SCOPES, "export": EXPORT_SCOPES}[access]
        return open_service_account(config.service_account, scopes)
    if config.oauth_client is None:
        raise SheetAccessError(f"{config.path}: [google] names no service_account or oauth_client file")
    if config.oauth_token.parent == config.state_dir:
        private_folder(config.state_dir)  # where the sign-in is saved (open_oauth makes the file itself 0600)
    return open_oauth(config.oauth_client, config.oauth_token)


def open_match_sheets(config: MatchConfig, *, retry: RetryPolicy | None = None,
                      access: Access = "play") -> MatchSheets:
    """The board, engine and orders backends of ``config``; the same file or key opens one backend.

    The Google stack (gspread, google-auth, requests, tenacity) is imported only for a Google
    match: a local sync from cron starts without it. ``retry``: default ``DEFAULT_RETRY``; ``access``: what the
    command does with Google (``google_client``)."""
    opened: dict[str, SheetBackend] = {}
    make: Callable[[str, str], SheetBackend]
    if config.backend is BackendKind.LOCAL:
        from sheets_gm.sheets.local.backend import LocalWorkbookBackend

        def make(where: str, role: str) -> SheetBackend:
            return LocalWorkbookBackend(config.local_path(where))
    else:
        from sheets_gm.sheets.google.backend import GoogleSheetBackend
        from sheets_gm.sheets.retry import DEFAULT_RETRY

        client = google_client(config, access)
        policy = retry or DEFAULT_RETRY

        def make(where: str, role: str) -> SheetBackend:
            return GoogleSheetBackend(client, where, policy, title=f"{config.title} · {role}",
                                      co_editors=config.gm_emails, sheet_ids=config.sheet_ids_path)

    def backend(where: str, role: str) -> SheetBackend:
        if where not in opened:
            opened[where] = make(where, role)
        return opened[where]

    board = backend(config.board, "board")
    engine = backend(config.engine, "engine")
    orders = tuple(backend(where, f"orders {seat}") for seat, where in zip(config.seats, config.orders, strict=True))
    judge = backend(config.judge, "judge") if config.judge else None
    return MatchSheets(config.seats, board, engine, orders, judge, shlex.quote(config.path.name),
                       journal_path(config.path))


def sweep_cut_saves(sheets: MatchSheets) -> list[str]:
    """Remove the temporary files that saves of the match's local workbooks cut short (a kill, a power cut) left
    beside them, each a whole or partial copy of its workbook made readable by the GM's account alone; a sentence
    per workbook for the GM (none on Google, where a save is one request)."""
    from sheets_gm.engine.words import counted
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    out = []
    for backend in sheets.write_order():
        if not isinstance(backend, LocalWorkbookBackend):
            continue
        removed = backend.sweep_cut_saves()
        if removed:
            out.append(f"removed {counted(len(removed), 'temporary file')} that a save of {backend.path} cut short "
                       f"left beside it ({', '.join(p.name for p in removed)}): that save never finished, and the "
                       "workbook is as it was before it")
    return out
