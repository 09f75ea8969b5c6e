"""One hosted match's poll, as a worker of the host runs it: the same one-match poll as cron's.

The config is read afresh (a GM's edit applies at the next poll, as under cron), then one look at the match
(``host.look.look_at``: cron's one path from a config to its poll, ``host.polls.poll_config``), run with its
account's client for a Google match, the change log its account's watcher handed over (``accounts.Handover``) and
no wait for the match lock: a match another command holds (``sync``, ``resolve``, ``undo``…) is skipped and tried
at the next interval. A local match that its last poll (cron's, or the host's before a restart) left idle is not
read: the host's first look costs what cron's idle poll does.
Whatever goes wrong comes back as an :class:`Outcome`, never raised: one match never stops the host.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sheets_gm.host.access_kept import Access
from sheets_gm.host.accounts import Handover, account_of, config_keys, require_signed_in
from sheets_gm.host.look import look_at
from sheets_gm.host.outcome import Done, Outcome
from sheets_gm.match.config import BackendKind, ConfigError, MatchConfig, load_config
from sheets_gm.poll_gate.state import unwritten
from sheets_gm.sheets.backend import SheetError, SheetUnavailableError
from sheets_gm.sheets.marks import file_mark
from sheets_gm.sync.lock import SyncBusyError

if TYPE_CHECKING:
    import gspread

    from sheets_gm.sheets.google.drive import DriveChangeLog

Clock = Callable[[], datetime]


#: The signed-in client of each account this process polled a match of (a host run in threads keeps them; a
#: poll's own process starts with none and signs in once).
_CLIENTS: dict[str, gspread.Client] = {}


def _client(config: MatchConfig, account: str, access: Access | None) -> gspread.Client:
    from sheets_gm.running.google_sign_in import google_client
    from sheets_gm.sheets.google.signin import access_held, lend_access

    require_signed_in(config)
    client = _CLIENTS.get(account)
    if client is None:
        client = _CLIENTS[account] = google_client(config)
    if access_held(client) is None:
        lend_access(client, access)  # the account's token the host holds: the poll refreshes none
    return client


def _shared_log(client: gspread.Client, handover: Handover) -> DriveChangeLog:
    # Google's client comes with it (0.25 CPU s): imported by a Google match's poll alone, or by the polls' server
    # of a host that serves Google matches (``commands.serve.poll_preload``), never by a local-only host's
    from sheets_gm.host.shared_log import SharedChangeLog

    return SharedChangeLog(client, handover)


def visit(path: Path, handover: Handover | None, clock: Clock, *, letters_only: bool = False,
          access: Access | None = None) -> Outcome:
    """Poll the match configured by ``path`` once (see the module notes); a Google match's change log is answered
    from ``handover`` (its account's watcher's: None, Drive is asked), and its requests signed with ``access`` (the
    account's access token the host holds, while valid: None, the poll refreshes its own); with ``letters_only``,
    send only the letters waiting for a retry (an idle local match, as cron's idle poll does). Plain data in and
    out: it may run in a process of its own (``processes``)."""
    config: MatchConfig | None = None
    unwritten()  # a record an earlier poll of this process could not write is that poll's
    try:
        mark = file_mark(path)
        config = load_config(path)
        google = config.backend is BackendKind.GOOGLE
        account = account_of(config) if google else ""
        client = _client(config, account, access) if google else None
        keys = config_keys(config) if google else frozenset()
        shared = (_shared_log(client, handover)
                  if client is not None and handover is not None and handover.account == account else None)
        look = look_at(config, mark, clock, letters_only=letters_only, client=client, drive_log=shared)  # cron's
    except SyncBusyError:
        return Outcome(Done.HELD, "another command holds the match (its lock): skipped, tried again at the next "
                       "interval", config=config)
    except SheetUnavailableError as exc:
        return Outcome(Done.UNAVAILABLE, f"Google is unavailable: {exc}", config=config)
    except (ConfigError, SheetError, ValueError) as exc:
        return Outcome(Done.FAILED, str(exc), config=config)
    except Exception as exc:  # a rules or program error: reported, retried later; the other matches go on
        return Outcome(Done.FAILED, f"{type(exc).__name__}: {exc}", config=config, trace=traceback.format_exc())
    lost = unwritten()
    warning = " ".join(filter(None, [look.warning, f"The poll's record could not be written ({', '.join(lost)}): "
                                     "the next poll reads the match again in full; free some space on its disk."
                                     if lost else ""]))
    return Outcome(Done(look.seen.value), look.line, warning, look.notices, config, account, keys, look.deadline,
                   look.finished)
