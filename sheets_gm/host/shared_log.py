"""A hosted Google match's change log inside its poll's process, answered from what its account's watcher handed
over with the poll (``accounts.Handover``) instead of Drive: see ``accounts``'s module notes. Apart from the
watchers, which the host runs: this is the poll's side, with Drive's client."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sheets_gm.host.accounts import Handover, Listed
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.google.drive import DriveChangeLog, DriveChanges, DriveFiles

if TYPE_CHECKING:
    import gspread
    import requests


class SharedChangeLog(DriveChangeLog):
    """A match's change log as its account's watcher answered it (see the module notes), from what was handed
    over with the poll (:class:`Handover`): no request to Drive but the version of a file (``version``, asked
    around our own writes, as under cron)."""

    def __init__(self, client: gspread.Client, handover: Handover) -> None:
        super().__init__(client)
        self.handover = handover
        self._taken = False

    def _take(self) -> tuple[dict[str, Listed], bool]:
        """The changes handed over, once (a poll asks once; a second question has nothing new)."""
        self._asks_nothing()
        if self._taken:
            return {}, True
        self._taken = True
        return self.handover.changes, self.handover.complete

    def _asks_nothing(self) -> None:
        """While the account's Drive does not answer (``Handover.drive_down``), every question fails at once: the
        gate reads every spreadsheet from Sheets, and no request waits for Drive's timeout."""
        if self.handover.drive_down:
            raise SheetError(f"Drive is not asked: it does not answer this account ({self.handover.drive_down})")

    def _request(self, url: str, params: dict[str, Any]) -> requests.Response:
        """Drive's own requests (a file's version, around our writes), none while it does not answer."""
        self._asks_nothing()
        return super()._request(url, params)

    def start_token(self) -> str:
        """The watcher's token: every change after it reaches this match through the watcher."""
        self._take()  # a poll that asks for a start token reads every spreadsheet
        return self.handover.token

    def since(self, token: str) -> DriveChanges:
        """The changes to the match's spreadsheets since its last poll (``token`` is the one that poll kept: the
        watcher's own, or cron's from before the host, which the match's first poll asked Drive about)."""
        listed, complete = self._take()
        return DriveChanges({k: e.time for k, e in listed.items()}, self.handover.token, complete,
                            {k: e.modified_by for k, e in listed.items()},
                            {k: e.modified_at for k, e in listed.items() if e.modified_at},
                            frozenset(k for k, e in listed.items() if e.by_me),
                            {k: e.version for k, e in listed.items() if e.version is not None})

    def modified_since(self, moment: datetime) -> DriveFiles:
        """The files the watcher's change log and file index listed since the match's last poll: the watcher asks
        the index itself, once for the account, every ``SAFETY_NET`` (``moment`` is covered: the match's earlier
        polls handed over everything before)."""
        changes = self.since(self.handover.token)
        return DriveFiles(dict(changes.changed), changes.complete, changes.by_me, dict(changes.versions))
