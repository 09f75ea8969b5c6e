"""Opening a configured match's spreadsheets: one backend per distinct workbook file or spreadsheet."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from sheets_gm.match.config import BackendKind, MatchConfig, match_files, spreadsheet_id
from sheets_gm.running.google_sign_in import Access, google_client
from sheets_gm.sheets.backend import SheetBackend, SheetError
from sheets_gm.sync.journal import journal_path
from sheets_gm.sync.sheets import MatchSheets

if TYPE_CHECKING:
    import gspread

    from sheets_gm.sheets.retry import RetryPolicy


def open_match_sheets(config: MatchConfig, *, retry: RetryPolicy | None = None,
                      access: Access = "play", client: gspread.Client | None = None) -> MatchSheets:
    """The board, engine and orders backends of ``config``; the same file or key opens one backend, and two roles
    named by two paths that are one file are refused first (``config.match_files``), whatever the command.

    The Google stack (gspread, google-auth, requests, tenacity) is imported only for a Google
    match: a local sync from cron starts without it. ``retry``: default ``DEFAULT_RETRY``; ``access``: what the
    command does with Google (``google_client``); ``client``: one already signed in to the match's account
    (``serve`` keeps one per account), else one is signed in now."""
    files = match_files(config)  # every path resolved: two roles on one file refused, nothing opened
    shared = _SHARED.get()
    if shared is not None and config.path in shared:
        return shared[config.path]
    opened: dict[str, SheetBackend] = {}
    make: Callable[[str, str], SheetBackend]
    if config.backend is BackendKind.LOCAL:
        from sheets_gm.sheets.local.backend import LocalWorkbookBackend

        def make(where: str, role: str) -> SheetBackend:
            return LocalWorkbookBackend(config.local_path(where))
    else:
        from sheets_gm.sheets.google.backend import GoogleSheetBackend
        from sheets_gm.sheets.retry import DEFAULT_RETRY

        client = client or google_client(config, access)
        policy = retry or DEFAULT_RETRY

        def make(where: str, role: str) -> SheetBackend:
            return GoogleSheetBackend(client, where, policy, title=f"{config.title} · {role}",
                                      co_editors=config.gm_emails, sheet_ids=config.sheet_ids_path)

    def backend(where: str, role: str) -> SheetBackend:
        # one file named two ways (``./board.xlsx``, a spreadsheet's key and its URL) opens one backend
        key = str(files[where]) if where in files else spreadsheet_id(where)
        if key not in opened:
            opened[key] = make(where, role)
        return opened[key]

    board = backend(config.board, "board")
    engine = backend(config.engine, "engine")
    orders = tuple(backend(where, f"orders {seat}") for seat, where in zip(config.seats, config.orders, strict=True))
    judge = backend(config.judge, "judge") if config.judge else None
    sheets = MatchSheets(config.seats, board, engine, orders, judge, shlex.quote(config.path.name),
                         journal_path(config.path))
    if shared is not None:
        shared[config.path] = sheets
    return sheets


#: The match sheets opened within ``sharing_sheets``, by config path: the same backends (and their workbooks as last
#: read) for every opening of one match there.
_SHARED: ContextVar[dict[Path, MatchSheets] | None] = ContextVar("shared_sheets", default=None)


@contextmanager
def sharing_sheets() -> Iterator[None]:
    """Within it, ``open_match_sheets`` opens each match once and hands every later caller the same backends: a poll
    with its judge's mail (``running.mailroom``) reads each workbook once where both would read it."""
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def tidy_local_workbooks(sheets: MatchSheets, *, writes: bool = True) -> list[str]:
    """What a command that opens a local match puts right in its workbooks before it reads them, a sentence each for
    the GM (nothing on Google, where a save is one request and a spreadsheet links to no file of this computer):

    - the temporary files that saves cut short (a kill, a power cut) left beside a workbook, each a whole or partial
      copy of it readable by the GM's account alone, are removed;
    - links from a workbook to other files (an external workbook reference such as ``file:///etc/passwd``, a
      cell's hyperlink to a file) are removed and the workbook saved; a command that only reads (``writes`` False:
      ``status``, ``verify``, ``export``) names them and leaves them to the next sync."""
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
        try:
            links = backend.outside_links()
        except SheetError:
            continue  # missing or unreadable: the command's own read says so, in its words
        them = "it" if len(links) == 1 else "them"
        done = f"the next sync removes {them} (the cells keep their text)"
        if links and writes:
            try:
                links = backend.drop_outside_links()
                done = f"removed {them} (the cells keep their text)"
            except SheetError as exc:
                done = f"not removed now ({exc}); the next sync removes {them}"
        if links:
            what = counted(len(links), "link")
            out.append(f"{backend.path} held {what} to other files ({', '.join(links)}): a match's workbook refers to "
                       f"no file outside it, which an office program would open or refresh; {done}")
    return out
