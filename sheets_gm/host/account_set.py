"""The host's Google accounts, a change-log watcher each (``accounts.AccountWatcher``), named by the Google account
behind each sign-in, whatever number of sign-in files name it.

A service account is named by its key's e-mail. A GM's own sign-in file (``doctor`` saves one in each match's
folder by default) tells nothing of its account, so the watcher first made for it (named by the file) asks Drive's
``about`` who it is, once, on the account's own thread; the host then moves the file's matches to the watcher of
that account (:meth:`Accounts.identified`), made on the first such answer, which asks Drive's change log once an
interval for every match of every file of the GM, with any one of those files that works. What Drive named is kept
by the file's identity and modification time: a file replaced (by another GM's sign-in, say) is asked about again,
and its matches move to the account it now names. Drive not answering ``about`` leaves the file watched as an
account of its own (as before this was known), said, and asked again later.

Each account's page token is kept by the account's name (``drive_tokens``); a token kept by a sign-in file's name
(a host of before) is taken by that file's account when Drive names it, and dropped once the account keeps its own.
"""

from __future__ import annotations

import functools
import os
import threading
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from sheets_gm.host.access_kept import Access, still_valid
from sheets_gm.host.accounts import AccountWatcher, account_of
from sheets_gm.host.drive_tokens import Named
from sheets_gm.match.config import ConfigError, MatchConfig, Spreadsheets, load_config
from sheets_gm.running.google_sign_in import google_client, service_account_client
from sheets_gm.sheets.backend import SheetAccessError

if TYPE_CHECKING:
    import gspread

#: The GMs' sign-in files are looked at this often for one replaced since Drive named its account.
CHECK_SIGN_INS = timedelta(minutes=1)

#: A file as last seen: its device, inode, size and modification time (None: it cannot be read).
Stamp = tuple[int, int, int, int] | None


def file_stamp(path: Path) -> Stamp:
    """What tells a file replaced or rewritten: its device, inode, size and modification time."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def account_name(permission_id: str, email: str) -> str:
    """A GM's Google account as the host names it, from Drive's ``about``: its e-mail and its id (which stays)."""
    return f"OAuth account {email} ({permission_id})" if email else f"OAuth account {permission_id}"


def _client_of(config: MatchConfig | Spreadsheets) -> gspread.Client:
    """A signed-in client of the sign-in ``config`` names: a service account's from its key file; the GM's own
    sign-in's from her config read in full (the OAuth client's file, the folder its sign-in is kept in) when only
    its spreadsheets were read. A sign-in file gone is refused (a service opens no browser)."""
    if config.service_account is not None:
        return service_account_client(config.service_account)
    if not config.oauth_token.exists():
        raise SheetAccessError(f"the GM's sign-in {config.oauth_token} is gone: run sheets-gm doctor -c "
                               f"{config.path} once in a terminal to sign in again")
    if isinstance(config, Spreadsheets):
        try:
            config = load_config(config.path)
        except ConfigError as exc:
            raise SheetAccessError(str(exc)) from None
    return google_client(config)


class Accounts:
    """The host's Google accounts: a watcher each (signed in at its first question), made when the host finds the
    first match of the account (see the module notes). Used from the host's thread and the workers': behind a
    lock."""

    def __init__(self, kept: dict[str, str] | None = None, named: Named | None = None,
                 access: dict[str, Access] | None = None) -> None:
        self._watchers: dict[str, AccountWatcher] = {}
        self._serving: dict[str, str] = {}  # a sign-in's name (``account_of``) -> the watcher that serves it
        self._named: dict[str, tuple[Stamp, str]] = dict(named or {})  # a GM's sign-in -> its file as Drive named
        # it, and the account (``named``: as the host's last run kept them)
        self._asked: dict[str, Stamp] = {}  # a GM's sign-in being asked about -> its file as it was then
        self._configs: dict[str, MatchConfig | Spreadsheets] = {}  # a GM's sign-in -> a config that names it
        self._lock = threading.RLock()
        self._kept = dict(kept or {})  # each account's page token, as the host's last run kept it
        self._access = dict(access or {})  # each account's access token within its hour, as the last run kept it
        self._checked_at: datetime | None = None
        self._new: list[AccountWatcher] = []  # the watchers made since the host last took them (``take_new``)

    def watcher_for(self, config: MatchConfig | Spreadsheets, now: datetime) -> AccountWatcher:
        """The watcher of the account the match ``config`` is opened with (made now if new; it signs in at its
        first question, on its own thread: from a match's :class:`Spreadsheets` alone, its config is read in full
        then, once for the account). A GM's sign-in file Drive has not named (or replaced since) has a watcher of
        its own until Drive does; its matches move then."""
        sign_in = account_of(config)
        with self._lock:
            name = sign_in if config.service_account is not None else self._name_of(sign_in, config)
            watcher = self._watchers.get(name)
            if watcher is None:
                identify = name == sign_in and config.service_account is None
                watcher = self._watchers[name] = AccountWatcher(name, now, self._kept_for(name, sign_in),
                                                                identify=identify)
                watcher.access = self._access.get(name)
                self._new.append(watcher)
                if identify:
                    self._asked[sign_in] = file_stamp(config.oauth_token)
            watcher.add_sign_in(sign_in, functools.partial(_client_of, config))
            self._move(sign_in, watcher)
            return watcher

    def _name_of(self, sign_in: str, config: MatchConfig | Spreadsheets) -> str:
        """The account a GM's sign-in file is of, as Drive named it for the file as it is now (else the file's own
        name, until Drive names it)."""
        self._configs[sign_in] = config
        named = self._named.get(sign_in)
        if named is not None and named[0] == file_stamp(config.oauth_token):
            return named[1]
        self._named.pop(sign_in, None)
        return sign_in

    def _move(self, sign_in: str, watcher: AccountWatcher) -> None:
        """The matches of ``sign_in`` are served by ``watcher`` from now on (taken from the one that served them)."""
        before = self._watchers.get(self._serving.get(sign_in, ""))
        self._serving[sign_in] = watcher.name
        if before is not None and before is not watcher:
            before.drop_sign_in(sign_in)
            watcher.adopt(before.take_sign_in(sign_in))
            if not before.matches and before.name == sign_in:
                del self._watchers[before.name]

    def identified(self, watcher: AccountWatcher, now: datetime) -> None:
        """Drive named the account of the GM's sign-in file ``watcher`` was made for (``watcher.identity``): the
        file's matches move to that account's watcher (made now if new: from a token kept under the account's name,
        else under the file's, a host of before), and the file's watcher is let go."""
        assert watcher.identity is not None
        name = account_name(*watcher.identity)
        with self._lock:
            sign_in, config = watcher.name, self._configs.get(watcher.name)
            if config is None:
                return
            self._named[sign_in] = self._asked.pop(sign_in, None), name
            target = self._watchers.get(name)
            if target is None:
                target = self._watchers[name] = AccountWatcher(name, now, self._kept_for(name, sign_in))
                target.access = self._access.get(name)
                self._new.append(target)
            target.add_sign_in(sign_in, functools.partial(_client_of, config))
            self._move(sign_in, target)
            self._watchers.pop(sign_in, None)

    def _kept_for(self, name: str, sign_in: str) -> str:
        """The token kept for the account ``name``: under its name, else under the name of its sign-in file
        ``sign_in`` (kept so by a host of before, which named a GM's account by its file)."""
        return self._kept.get(name) or self._kept.get(sign_in, "")

    def sign_ins_named(self) -> Named:
        """What Drive named each GM's sign-in file, for the next start (``drive_tokens.write_sign_ins``)."""
        with self._lock:
            return {sign_in: (stamp, name) for sign_in, (stamp, name) in self._named.items() if stamp is not None}

    def check_sign_ins(self, now: datetime) -> None:
        """Every ``CHECK_SIGN_INS``: a GM's sign-in file replaced or rewritten since Drive named its account is
        asked about again (its matches watched by a watcher of the file's own meanwhile); one gone stays where it
        is (its matches' polls say it is gone)."""
        if self._checked_at is not None and now - self._checked_at < CHECK_SIGN_INS:
            return
        self._checked_at = now
        with self._lock:
            named = list(self._named.items())
        for sign_in, (stamp, _) in named:
            config = self._configs.get(sign_in)
            now_stamp = None if config is None else file_stamp(config.oauth_token)
            if config is not None and now_stamp is not None and now_stamp != stamp:
                self.watcher_for(config, now)

    def kept_tokens(self) -> dict[str, str]:
        """Each account's page token to keep for the next start (``AccountWatcher.kept_token``; an account no
        watcher asked yet keeps the one it had; a sign-in file's token, kept by a host of before, is dropped once
        the account Drive named for it keeps its own)."""
        with self._lock:
            watchers = list(self._watchers.values())
            serving = dict(self._serving)
        for watcher in watchers:
            token = watcher.kept_token()
            if token:
                self._kept[watcher.name] = token
        for sign_in, name in serving.items():
            if name != sign_in and name in self._kept:
                self._kept.pop(sign_in, None)
        return dict(self._kept)

    def kept_access(self) -> dict[str, Access]:
        """Each account's access token to keep for the next start while it is valid (``access_kept``): its
        watcher's, or the one the last run kept for an account no watcher asked yet."""
        with self._lock:
            watchers = list(self._watchers.values())
        for watcher in watchers:
            access = watcher.access_now()
            if access is not None:
                self._access[watcher.name] = access
        self._access = {name: access for name, access in self._access.items() if still_valid(access)}
        return dict(self._access)

    def named(self, name: str) -> AccountWatcher | None:
        """The watcher named ``name``, or serving the sign-in ``name`` (None when the host found no match of it)."""
        with self._lock:
            return self._watchers.get(name) or self._watchers.get(self._serving.get(name, ""))

    def all(self) -> list[AccountWatcher]:
        """Every watcher (in no order: the host never sorts 10,000 sign-in files a pass)."""
        with self._lock:
            return list(self._watchers.values())

    def take_new(self) -> list[AccountWatcher]:
        """The watchers made since the last call (the host plans each one's first question)."""
        with self._lock:
            new, self._new = self._new, []
            return new

    def serves(self, watcher: AccountWatcher) -> bool:
        """Whether ``watcher`` is still one of the host's (not let go, nor replaced by another of its name)."""
        with self._lock:
            return self._watchers.get(watcher.name) is watcher

    def forget_unclaimed(self) -> None:
        """The first search ended: each watcher lets go of the changes no match claimed."""
        for watcher in self.all():
            watcher.forget_unclaimed()

    def drop_idle(self) -> None:
        """Forget the watchers that serve no match any more."""
        with self._lock:
            for name in [n for n, w in self._watchers.items() if not w.matches]:
                del self._watchers[name]
