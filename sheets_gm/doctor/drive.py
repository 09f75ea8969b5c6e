"""Doctor's ``drive`` checks of a Google match: whether this machine's clock agrees with Google's, which drive
holds the match's spreadsheets (My Drive or a shared drive), and whether Drive's lists, the ones the poll gate asks
each minute, show every spreadsheet, so that a player's save is read at the next poll rather than at the 6-hour
full read. Only reads: one Drive answer's date, one ``files.get`` per spreadsheet and one ``files.list``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from sheets_gm.doctor.checkup import Checkup
from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sync.sheets import MatchSheets

if TYPE_CHECKING:
    from sheets_gm.sheets.google.drive import DriveChangeLog

#: A machine clock further than this from Google's is warned of: deadlines are judged by it.
CLOCK_TOLERANCE = timedelta(seconds=5)
#: How to set a machine's clock right.
CLOCK_FIX = ("turn on the machine's time synchronisation (on most Linux systems: sudo timedatectl set-ntp true; "
             "elsewhere the system's NTP or 'set time automatically' setting)")


def machine_now() -> datetime:
    """This machine's clock (what the sync dates deadlines by)."""
    return datetime.now(UTC)


def check_drive(config: MatchConfig, sheets: MatchSheets, report: Checkup,
                clock: Callable[[], datetime] | None = None) -> None:
    """The ``clock`` and ``drive`` lines of a Google match (nothing for local workbooks); ``clock`` is this
    machine's (default :func:`machine_now`)."""
    if config.backend is not BackendKind.GOOGLE:
        return
    from sheets_gm.poll_gate.drive import UNSEEN, UNSEEN_FIX
    from sheets_gm.sheets.google.backend import GoogleSheetBackend
    from sheets_gm.sheets.google.drive import DriveChangeLog, DriveFileUnseen

    backends = [getattr(b, "inner", b) for b in sheets.write_order()]  # doctor's read-only wrapper
    google = [b for b in backends if isinstance(b, GoogleSheetBackend)]
    if not google:
        return
    log = DriveChangeLog(google[0].client)
    report.guarded("clock", lambda: _check_clock(log, report, clock or machine_now))
    drives: dict[str, list[str]] = {}
    modified: list[str] = []
    unseen: list[GoogleSheetBackend] = []
    for backend in google:
        try:
            file = log.version(backend.key)
        except DriveFileUnseen:
            unseen.append(backend)
            continue
        except SheetError as exc:
            report.fail("drive", f"{backend.name}: {exc}", "check that the spreadsheet is shared with the account "
                                                           "and that Google answers (run doctor again)")
            return
        drives.setdefault(file.drive_id, []).append(backend.name)
        modified.append(file.modified_at)
    if unseen:
        report.warn("drive", UNSEEN.format(which=", ".join(b.name for b in unseen),
                                           them="it" if len(unseen) == 1 else "them"), UNSEEN_FIX)
        google = [b for b in google if b not in unseen]
        if not google:
            return
    where = "; ".join(f"{len(names)} in My Drive" if not drive else f"{len(names)} in the shared drive {drive}"
                      for drive, names in sorted(drives.items()))  # My Drive ("") first
    _check_listed(log, report, {b.key: b.name for b in google}, min(modified), where)


def _check_clock(log: DriveChangeLog, report: Checkup, clock: Callable[[], datetime]) -> None:
    """Whether this machine's clock is within :data:`CLOCK_TOLERANCE` of the date of a Google answer."""
    before = clock()
    try:
        google = log.google_time()
    except SheetError as exc:
        report.warn("clock", f"could not compare this machine's clock with Google's: {exc}", "run doctor again")
        return
    after = clock()
    mine = before + (after - before) / 2
    # Google's Date is to the second: allow that second on top of the tolerance.
    skew = (mine - google).total_seconds()
    off = abs(skew) - 1
    if off > CLOCK_TOLERANCE.total_seconds():
        way = "ahead of" if skew > 0 else "behind"
        report.warn("clock", f"this machine's clock is {abs(skew):.0f} s {way} Google's (the date of Drive's "
                             "answer): deadlines and reminders are judged by this clock, so a window would close "
                             "that much early or late (the Drive gate does not depend on it)", CLOCK_FIX)
    else:
        report.ok("clock", f"this machine's clock agrees with Google's (within {CLOCK_TOLERANCE.seconds} s)")


def _check_listed(log: DriveChangeLog, report: Checkup, names: dict[str, str], oldest: str, where: str) -> None:
    """Whether Drive's file index (asked as the gate asks it) lists every spreadsheet modified since the oldest
    one's last modification: the lists the gate reads see the match's edits."""
    try:
        since = datetime.fromisoformat(oldest.replace("Z", "+00:00")) - timedelta(seconds=1)
    except ValueError:
        report.warn("drive", f"the spreadsheets are {where}; Drive gave no modification time to check its lists "
                             "with", "run doctor again")
        return
    try:
        files = log.modified_since(since)
    except SheetError as exc:
        report.warn("drive", f"the spreadsheets are {where}; could not check Drive's lists: {exc}",
                    "run doctor again")
        return
    missing = [name for key, name in names.items() if key not in files.modified]
    if missing and files.complete:
        report.fail("drive", f"the spreadsheets are {where}, but Drive's lists leave out {', '.join(missing)}: the "
                             "sync would not see edits there until its 6-hour full read",
                    "share them with the account sheets-gm signs in with (a shared drive: add the account as a "
                    "member of the drive), then run doctor again")
    elif missing:
        report.warn("drive", f"the spreadsheets are {where}; the account's Drive holds more recently modified "
                             "files than one page of Drive's list, so doctor could not check that the sync sees "
                             "their edits", "nothing to do unless players' saves wait for the 6-hour read")
    else:
        report.ok("drive", f"the spreadsheets are {where}; Drive's lists show each of them, so the sync sees their "
                           "edits at the next poll")
