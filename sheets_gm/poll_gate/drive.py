"""The gate of a Google match (:class:`DriveGate`, a ``Gate`` of ``poll_gate.run``): ask Drive once which of the
match's spreadsheets changed, and read only those.

Sheets allows a user 60 read requests a minute; Drive's quota is thousands of times larger. So a
poll first asks Drive one question and reads with Sheets only what it must:

- **Each minute**, Drive's change log (one ``changes.list`` from the page token the last poll saved).
  A spreadsheet is read when the log lists a change to it dated after its last read (less
  :data:`CLOCK_MARGIN`), but for our own write: each write answers with the spreadsheet as it then
  stands, kept as its last read, and the log's entry for it (our account named as the file's last
  modifier, dated no later than that answer) is passed over. The other spreadsheets are answered
  from their last read (``poll_gate.kept_reads``): a player's save costs the read of her own spreadsheet, not
  of the whole match, and our answer to it no read at all.
- **Every** :data:`SAFETY_NET`, instead of the change log, Drive's file index (one ``files.list`` of
  the files modified since the oldest of those reads): a second, independent look at the same
  question, against an entry the change log is late with or lost.
- **A spreadsheet Drive does not show** the signed-in account (its ``files.get`` answers 404 while Sheets opens it:
  one the GM made by hand, polled with her own sign-in, whose ``drive.file`` scope reaches only what sheets-gm
  made) is read about once a minute (:data:`UNSEEN_READ_EVERY`), cron's poll and ``serve`` alike: no change of
  it would ever be listed. The others keep the gate.
- **Every spreadsheet** is read when the open window's deadline is due, at least every
  :data:`FULL_READ` whatever Drive says (the last resort, should Drive ever not record an edit), when
  the config changed, and whenever there is no state (a second machine carrying the match on), no
  kept read of a spreadsheet, or Drive does not answer: a fault there costs a full read, never a
  player's input.

A poll that would write a spreadsheet it answered from a kept read, or resolve, reads every
spreadsheet first (``poll_gate.kept_reads``), so a resolution still reads each once and writes each once.

Why the change log rather than ``files.list ... modifiedTime > T`` every minute: the change log lists
every edit once it is indexed, however late, after the saved token. The file index is asked against
our own read times (a spreadsheet modified after we last read it), which an edit listed late with an
earlier time cannot slip past either; its answer covers every file of the account, so it is the rarer
question.

What a poll reads whatever Drive says, and the moments above, are decided from the record alone in
``poll_gate.drive_due`` (``serve``'s host decides there whether a match needs a poll, without this module's client).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from sheets_gm.poll_gate.drive_due import CLOCK_MARGIN, file_index_due, moment_of, reads_anyway, usable_state
from sheets_gm.poll_gate.kept_reads import KeptSheets, kept_path, load_kept, save_kept
from sheets_gm.poll_gate.state import PollState, Said, forget_state, iso, save_state, state_path, tell_once
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.drive import DriveChangeLog, DriveFileUnseen
from sheets_gm.sheets.marks import FileMark
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.sheets import MatchSheets


@dataclass(frozen=True, slots=True)
class DriveCheck:
    """What the Drive gate decided: read (``reason`` says why) or not. ``fresh``: the spreadsheets to read, by key
    (None: every one); ``token``: Drive's page token to keep; ``checked_at``: when Drive's file index was last
    asked (now, if this poll asked it); ``versions``: Drive's version of each spreadsheet to read, as Drive
    listed it before the read (what the read covers)."""

    read: bool
    reason: str
    token: str
    state: PollState | None = None
    fresh: frozenset[str] | None = None
    checked_at: str = ""
    versions: dict[str, int] = field(default_factory=dict)
    unseen: frozenset[str] = frozenset()  # the spreadsheets Drive does not show these credentials (read every poll)


def match_keys(sheets: MatchSheets) -> set[str]:
    """The keys of the match's Google spreadsheets."""
    return {b.key for b in sheets.write_order() if isinstance(b, GoogleSheetBackend)}


def drive_log(sheets: MatchSheets) -> DriveChangeLog | None:
    """The change log of the account the match's spreadsheets are opened with (None: not a Google match)."""
    backend = sheets.engine
    return DriveChangeLog(backend.client) if isinstance(backend, GoogleSheetBackend) else None


def _start_token(log: DriveChangeLog) -> str:
    try:
        return log.start_token()
    except SheetError:
        return ""  # the next poll has no token either: it reads everything and asks again


def _after_read(state: PollState, listed: dict[str, int | None], keys: set[str]) -> set[str]:
    """The spreadsheets of ``keys`` that Drive lists (``listed``: key -> Drive's version of the file as listed)
    at a version later than the one their kept read covers (``state.versions``): an edit since, whoever made
    it (the GM typing on her own account as well as a player). Ours is passed over without a clock: the version
    taken right after our write is the kept read's. A spreadsheet whose kept read has no known version (read in
    full, not listed since) or listed with none is read."""
    out = set()
    for key, version in listed.items():
        known = state.versions.get(key)
        if key in keys and (version is None or known is None or version > known):
            out.add(key)
    return out


def versions_before(log: DriveChangeLog, keys: set[str]) -> tuple[dict[str, int], set[str]]:
    """Drive's version of each of ``keys`` now (one ``files.get`` each), before the poll reads them: everything up
    to it is in the read. A version Drive does not give is left out (that spreadsheet's next listed change is
    read); the keys of files Drive does not show at all come second (each is read at every poll)."""
    versions: dict[str, int] = {}
    unseen: set[str] = set()
    for key in sorted(keys):
        try:
            versions[key] = log.version(key).version
        except DriveFileUnseen:
            unseen.add(key)
        except SheetError:
            continue
    return versions, unseen


def check_drive(config_path: Path, config_mark: FileMark | None, sheets: MatchSheets,
                log: DriveChangeLog, now: datetime) -> DriveCheck:
    """Whether this poll of the Google match reads, and which spreadsheets (see the module notes); for the
    spreadsheets it reads, Drive's version of each before the read (as the gate's list gave it, else asked)."""
    gate = _check(config_path, config_mark, sheets, log, now)
    if not gate.read:
        return gate
    reading = match_keys(sheets) if gate.fresh is None else set(gate.fresh)
    unknown = reading - set(gate.versions) - gate.unseen
    if not unknown:
        return gate
    versions, unseen = versions_before(log, unknown)
    return replace(gate, versions={**gate.versions, **versions}, unseen=gate.unseen | unseen)


def _check(config_path: Path, config_mark: FileMark | None, sheets: MatchSheets,
           log: DriveChangeLog, now: datetime) -> DriveCheck:
    state, why = usable_state(config_path, config_known=config_mark is not None)
    if state is None:
        return DriveCheck(True, why, _start_token(log))
    keys = match_keys(sheets)
    reads = [moment_of(state.read_at.get(k, "")) for k in keys]
    anyway = reads_anyway(state, keys, now)
    if anyway.every:
        return DriveCheck(True, anyway.reason, state.drive_token, state, checked_at=state.checked_at)
    token, checked_at = state.drive_token, state.checked_at
    if file_index_due(state, now):
        oldest = min(r for r in reads if r is not None)
        try:
            files = log.modified_since(oldest - CLOCK_MARGIN)
        except SheetError:
            return DriveCheck(True, "Drive did not answer", token, state, checked_at=checked_at)
        if not files.complete:
            return DriveCheck(True, "more files than one page of Drive's list", token, state, checked_at=checked_at)
        listed = {key: files.versions.get(key) for key in files.modified}
        changed, checked_at = _after_read(state, listed, keys), iso(now)
        source = "Drive's file index"
    else:
        try:
            changes = log.since(token)
        except SheetError:
            return DriveCheck(True, "Drive did not answer", token, state, checked_at=checked_at)
        if not changes.complete:
            return DriveCheck(True, "more changes than one page of Drive's log", token, state, checked_at=checked_at)
        listed = {key: changes.versions.get(key) for key in changes.changed}
        changed, token = _after_read(state, listed, keys), changes.token
        source = "Drive's change log"
    fresh = changed | anyway.keys
    reason = (f"{len(changed)} of {len(keys)} spreadsheets changed ({source})" if changed else
              anyway.reason or "no spreadsheet changed")
    # Drive listed these versions before this poll reads: its reads cover them.
    versions = {key: v for key, v in listed.items() if key in fresh and v is not None}
    return DriveCheck(bool(fresh), reason, token, state, frozenset(fresh), checked_at, versions,
                      frozenset(state.unseen) & keys)


def after_idle(config_path: Path, gate: DriveCheck) -> None:
    """An idle poll: keep the state, from Drive's new page token (and file-index check) on."""
    if gate.state is not None:
        state = copy.copy(gate.state)  # a plain class (the idle path imports no dataclasses): copied, then changed
        state.drive_token, state.checked_at = gate.token, gate.checked_at
        save_state(state_path(config_path), state)


def read_and_poll(run: Callable[[MatchSheets], WindowReport], sheets: MatchSheets, gate: DriveCheck,
                  config_path: Path, clock: Callable[[], datetime],
                  log: DriveChangeLog | None = None) -> tuple[WindowReport, KeptSheets]:
    """Run the poll ``run`` on the spreadsheets the gate names read live and the others from their kept reads:
    rehearsed first, then for real once every spreadsheet it writes was read live in it (see ``poll_gate.kept_reads``).
    ``clock`` dates the answers of our writes; Drive's version of each spreadsheet is asked right after our write
    to it, through the gate's change log ``log`` (default: the one of the account the spreadsheets are opened
    with, ``drive_log``; ``serve``'s, which asks nothing while the account's Drive does not answer), so that the
    next poll passes our write over."""
    log = log or drive_log(sheets)
    kept = KeptSheets(sheets, {} if gate.fresh is None else load_kept(kept_path(config_path)), gate.fresh, clock,
                      None if log is None else version_after_write(log))
    if gate.fresh is not None:
        kept.rehearse(True)
        report = run(kept.sheets)
        if not kept.wrote():
            kept.rehearse(False)
            return report, kept
        if kept.wrote_from_kept():
            kept.go_live()
    kept.rehearse(False)
    return run(kept.sheets), kept


def reads_line(gate: DriveCheck, kept: KeptSheets) -> str:
    """What a poll that read says of it: why, and how many spreadsheets it read (the others as last read).

    A line for the GM, who pays Google's read quota: ``(Drive: 1 of 4 spreadsheets changed (Drive's change
    log); read 1 of 4 spreadsheets, the others as last read.)``."""
    read, total = len(kept.read_live()), len(kept.wrapped)
    what = ("read its one spreadsheet" if total == 1 else f"read all {total} spreadsheets") if read == total else (
        f"read {read} of {total} spreadsheets, the others as last read")
    return f"(Drive: {gate.reason}; {what}.)"


#: What Drive not showing the GM's own sign-in for playing some spreadsheets (made by hand: ``drive.file`` reaches
#: only what sheets-gm made) means, as doctor's ``drive`` check says it (``which``: the spreadsheets; ``them``: 'it' or
#: 'them'), and what to do of it (``UNSEEN_FIX``).
UNSEEN = ("Drive does not show these credentials {which} (your own sign-in for playing reaches in Drive only the "
          "spreadsheets sheets-gm made): cron's polls and serve's alike read {them} in full about once a minute "
          "whatever Drive says, a Sheets read each; a save there is answered within that minute")
UNSEEN_FIX = ("to let polls read only what changed, make the match's spreadsheets with init --create, or play with a "
              "service account (service_account under [google]) the spreadsheets are shared with")


def unseen_once(count: int, total: int) -> str:
    """Doctor's ``UNSEEN`` and its fix as one sentence, which ``init``, the first poll that finds them and
    ``resolve`` say once for the match (``tell_once``): ``count`` of its ``total`` spreadsheets unseen."""
    which = f"{count} of the match's {total} spreadsheets" if total > 1 else "the match's spreadsheet"
    return (f"{UNSEEN.format(which=which, them='them' if count > 1 else 'it')}; {UNSEEN_FIX} (docs/google-setup.md, "
            "\"A spreadsheet you made yourself\").")


def unseen_news(config_path: Path, gate: DriveCheck, total: int) -> str:
    """``unseen_once`` when this poll found spreadsheets Drive does not show the signed-in account and the GM was not
    told yet (``tell_once``: by init or an earlier poll), '' otherwise: the polls after it read them as ever."""
    if not gate.unseen or not tell_once(config_path, "unseen"):
        return ""
    return unseen_once(len(gate.unseen), total)


def version_after_write(log: DriveChangeLog) -> Callable[[str], int | None]:
    """What a poll asks right after each write of a spreadsheet: Drive's version of the file (one ``files.get``),
    where our own change ends; None when Drive names someone else as its last modifier (a player typed just
    after our write: the next poll reads it back) or does not answer."""
    def ask(key: str) -> int | None:
        try:
            drive = log.version(key)
        except SheetError:
            return None
        return drive.version if drive.by_me else None
    return ask


def after_google_poll(config_path: Path, config_mark: FileMark | None, gate: DriveCheck, report: WindowReport,
                      read_at: datetime, summary: str, warning: str, kept: KeptSheets,
                      read_back: Sequence[str] = ()) -> None:
    """A poll that read succeeded: keep what it read (for what it wrote, what the write answered with), when each
    spreadsheet was read, Drive's token from before the read, and which writes need no reading back (not those
    of ``read_back``, keys of spreadsheets the next poll reads whatever Drive says: where a bot typed), and
    Drive's version of each spreadsheet that its kept read covers (for a write, asked right after it)."""
    if config_mark is None or not gate.token:
        return
    after_write = kept.versions_after_write()
    written_versions = {key: v for key, v in after_write.items() if v is not None}
    unversioned = [key for key, v in after_write.items() if v is None]
    live = kept.read_live()
    old = gate.state
    reads = {**(old.read_at if old is not None and gate.fresh is not None else {}), **{k: iso(read_at) for k in live}}
    everything = kept.all_read_live()  # as good as a look at Drive's file index
    full = iso(read_at) if everything else (old.full_read_at if old is not None else "")
    if live:
        save_kept(kept_path(config_path), kept.to_keep())
    save_state(state_path(config_path), PollState(
        config=config_mark, deadline=report.deadline, finished=report.finished, summary=summary, warning=warning,
        full_read_at=full, drive_token=gate.token, read_at=reads,
        written=list(dict.fromkeys([*kept.to_read_back(), *read_back, *unversioned])),
        versions={**(old.versions if old is not None and gate.fresh is not None else {}),
                  **{key: v for key, v in gate.versions.items() if key in live}, **written_versions},
        checked_at=iso(read_at) if everything else gate.checked_at, unseen=sorted(gate.unseen)))


class DriveGate:
    """The gate of one poll of a Google match (the ``Gate`` of ``poll_gate.run``): Drive decides whether it reads and
    which spreadsheets (:func:`check_drive`); the poll runs on those read live and the others as last read
    (:func:`read_and_poll`); what it read is kept for the next one (:func:`after_google_poll`)."""

    def __init__(self, config_path: Path, config_mark: FileMark | None, sheets: MatchSheets, log: DriveChangeLog,
                 read_at: datetime, clock: Callable[[], datetime]) -> None:
        self.config_path = config_path
        self.config_mark = config_mark  # the config file as it was before it was loaded
        self.sheets = sheets
        self.log = log
        self.read_at = read_at
        self.clock = clock  # dates the answers of our writes
        self.check: DriveCheck | None = None
        self.kept: KeptSheets | None = None

    def _checked(self) -> DriveCheck:
        if self.check is None:
            self.check = check_drive(self.config_path, self.config_mark, self.sheets, self.log, self.read_at)
        return self.check

    def idle_state(self) -> PollState | None:
        """The last full poll's state when Drive says nothing need be read, else None."""
        check = self._checked()
        return check.state if not check.read else None

    def keep_idle(self) -> None:
        """Keep the state, from Drive's new page token (and file-index check) on."""
        after_idle(self.config_path, self._checked())

    def forget(self) -> None:
        """Forget the state: a poll that fails half-way leaves none."""
        forget_state(state_path(self.config_path))

    def poll(self, run: Callable[[MatchSheets], WindowReport]) -> WindowReport:
        """The poll on the spreadsheets Drive names read afresh, the others as last read; its report says so."""
        check = self._checked()
        report, self.kept = read_and_poll(run, self.sheets, check, self.config_path, self.clock, self.log)
        report.drive = reads_line(check, self.kept)
        report.told_once = unseen_news(self.config_path, check, len(self.kept.wrapped))
        return report

    def keep(self, report: WindowReport, said: Said) -> None:
        """Keep what the poll read, and Drive's versions, for the next poll's gate."""
        if self.kept is None:
            return
        # A bot typed in the window this poll opened: the next poll reads its spreadsheet (its Ready may be all
        # the window waits for), though the write was ours. So does a file drawn again over an older copy: this
        # poll resolved nothing, the next one resolves what is due.
        sheets = self.sheets
        again = [b.key for b in (sheets.of(s) if s in sheets.seats else sheets.judge_sheet()
                                 for s in [*report.bots_typed, *report.older_copies])
                 if isinstance(b, GoogleSheetBackend)]
        after_google_poll(self.config_path, self.config_mark, self._checked(), report, self.read_at, said.summary,
                          said.warning, self.kept, read_back=again)
