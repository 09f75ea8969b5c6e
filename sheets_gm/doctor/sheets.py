"""The doctor's checks that read the match: each spreadsheet reachable, the layout, the record, the deadline.

Everything here only reads, and through :class:`ReadOnlyBackend`, so a slip can never write:
doctor may run while a sync is running, or while players are typing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from sheets_gm.doctor.checkup import Checkup
from sheets_gm.doctor.drive import check_drive
from sheets_gm.doctor.mailbox import check_strategies_tab
from sheets_gm.doctor.sharing import check_sharing
from sheets_gm.doctor.teams import check_teams
from sheets_gm.engine.settings import SettingError
from sheets_gm.engine.words import counted, label_verb
from sheets_gm.match.config import BackendKind, MatchConfig, settings_drift
from sheets_gm.rulesets.registry import get_ruleset, sheet_spec
from sheets_gm.running.bot_drift import bot_drift, bots_fix, configured_bots
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.backend import (
    GoogleUnreachableError,
    LayoutDriftError,
    RangeWrite,
    SheetAccessError,
    SheetBackend,
    SheetError,
    SheetUnavailableError,
)
from sheets_gm.sheets.layout import Grid, ReadGuard, WorkbookLayout
from sheets_gm.sheets.local.disk import cut_saves
from sheets_gm.sheets.local.office_locks import office_lock_files
from sheets_gm.sheets.looks import TabSeen, seen_tabs
from sheets_gm.sheets.retry import RetryPolicy
from sheets_gm.sheets.spec import SEAT_ROWS
from sheets_gm.sync.bot_seats import NO_BOT
from sheets_gm.sync.deadline import deadline_moment, describe_deadline
from sheets_gm.sync.history import HistoryError
from sheets_gm.sync.judge_part import closing_deadline, judge_line, judging
from sheets_gm.sync.life.board_check import board_edits
from sheets_gm.sync.life.deadline_change import change_sentence, schedule_change
from sheets_gm.sync.life.log_check import below_log_words
from sheets_gm.sync.life.seed_check import seed_fix, seed_problem
from sheets_gm.sync.life.settle import settle_cut_command
from sheets_gm.sync.match_record import MatchRecord, MatchRecordError, engine_read_range, parse_match_record
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.old_layout import OldLayoutError, refuse_old_layout
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import MatchRead, read_match
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.sync.swaps import SwappedWorkbooksError, describe_misplaced, find_misplaced
from sheets_gm.upkeep.engine_move import EngineMoveError, stray_engine

#: What to do when this machine cannot connect to Google.
UNREACHABLE_FIX = ("check that this machine reaches the Internet (a proxy: HTTPS_PROXY), then run doctor again; "
                   "nothing was checked on Google")

_SWAP_FIX = ("run `sheets-gm repair -c {}`: it puts local workbooks back in their places, tabs and typed rows and all "
             "(on Google it names the keys to swap back in the config)")

class ReadOnlyBackend:
    """A spreadsheet that can be read but never written: every write raises."""

    def __init__(self, inner: SheetBackend) -> None:
        self.inner = inner
        self.changes = 0  # never written

    @property
    def name(self) -> str:
        """The wrapped spreadsheet's name."""
        return self.inner.name

    def read(self, ranges: Sequence[str], *, struck: Collection[str] = ()) -> list[Grid]:
        """Read through to the wrapped spreadsheet."""
        return self.inner.read(ranges, struck=struck)

    def write(self, writes: Sequence[RangeWrite], *, read_back: Sequence[str] = (),
              guard: Sequence[ReadGuard] = ()) -> list[Grid]:
        """Refused: doctor never writes."""
        raise AssertionError("doctor must not write to a spreadsheet")

    def apply_layout(self, layout: WorkbookLayout, writes: Sequence[RangeWrite] = ()) -> None:
        """Refused: doctor never writes."""
        raise AssertionError("doctor must not change a spreadsheet's layout")

    def export_xlsx(self) -> bytes:
        """Refused: doctor has no use for it."""
        raise AssertionError("doctor does not export")

    def tab_names(self) -> list[str]:
        """Read through to the wrapped spreadsheet."""
        return self.inner.tab_names()

    def read_seen(self) -> list[TabSeen]:
        """Read through to the wrapped spreadsheet (its values alone where it tells no formats)."""
        return seen_tabs(self.inner)


def read_only(sheets: MatchSheets) -> MatchSheets:
    """The same match with every spreadsheet read-only (a spreadsheet holding several roles stays one)."""
    wrapped: dict[int, ReadOnlyBackend] = {}

    def wrap(backend: SheetBackend) -> SheetBackend:
        return wrapped.setdefault(id(backend), ReadOnlyBackend(backend))

    return MatchSheets(sheets.seats, wrap(sheets.board), wrap(sheets.engine), tuple(wrap(o) for o in sheets.orders),
                       None if sheets.judge is None else wrap(sheets.judge), sheets.config_name,
                       sheets.journal)  # read, never written: a command cut short is named, not settled


def spreadsheet_roles(config: MatchConfig) -> dict[str, list[str]]:
    """Each distinct spreadsheet (file or key) named in ``[sheets]`` and the roles it holds."""
    roles: dict[str, list[str]] = {}
    roles.setdefault(config.board, []).append("board")
    roles.setdefault(config.engine, []).append("engine")
    for seat, where in zip(config.seats, config.orders, strict=True):
        roles.setdefault(where, []).append(f"orders {seat}")
    if config.judge:
        roles.setdefault(config.judge, []).append("judge")
    return roles


def check_match(config: MatchConfig, report: Checkup, *, now: datetime, retry: RetryPolicy) -> bool:
    """Reach every spreadsheet, then read the match as a poll reads it: record, layout, config vs match,
    house rules, deadline. Returns whether the configured match was found (its engine record read, its seats
    the config's)."""
    if config.backend is BackendKind.LOCAL and not _local_files_ok(config, report):
        return False
    try:
        sheets = read_only(open_match_sheets(config, retry=retry))
    except GoogleUnreachableError as exc:
        report.fail("google", str(exc), UNREACHABLE_FIX)
        return False
    except SheetError as exc:
        report.fail("spreadsheets", str(exc), f"correct [sheets] in {config.path}")
        return False
    if not _reachable(config, sheets, report):
        return False
    record = _engine_record(config, sheets, report)
    if record is None:
        return False
    if not _same_seats(config, record, report):
        return False  # a config for another match than the one there: it is judged as a config to create
    _check_layout(config, sheets, report, now)
    report.guarded("sharing", lambda: check_sharing(config, sheets, report))
    report.guarded("drive", lambda: check_drive(config, sheets, report))
    return True


def _check_layout(config: MatchConfig, sheets: MatchSheets, report: Checkup, now: datetime) -> None:
    """Read the match as a poll reads it: the layout, the drawn tabs, the house rules, the deadline."""
    try:
        settle_cut_command(sheets, get_ruleset(config.ruleset), dry_run=True)  # a repair or init cut short
        read = read_match(sheets, get_ruleset(config.ruleset), complete=False)
    except HistoryError as exc:  # a file of another match, an engine older than its files, a command cut short
        report.fail("history", str(exc), f"as it says; `sheets-gm sync -c {config.path}` tells the same, and "
                                         "resolves nothing until it is put right")
        return
    except LayoutDriftError as exc:
        fix = ("put the cell back as it was (Edit > Undo, or the version history), or "
               f"run `sheets-gm repair -c {config.path}`: it rebuilds the layout and keeps the match and every "
               "typed row")
        for cell in exc.breaks or (str(exc),):  # each cell out of place, a line each, as repair mends them all
            report.fail("layout", f"the layout has changed: {cell}" if exc.breaks else cell, fix)
        return
    except OldLayoutError as exc:
        report.fail("match", str(exc.for_config(config.path)), f"run `sheets-gm repair -c {config.path}`: it moves "
                                                              "the match, its history and what was typed")
        return
    except SwappedWorkbooksError:
        tabs = MatchTabs(sheet_spec(config.ruleset), sheets.seats, get_ruleset(config.ruleset).traits.judge)
        report.fail("workbooks", f"workbooks were swapped: {describe_misplaced(find_misplaced(sheets, tabs))}",
                    _SWAP_FIX.format(config.path))
        return
    except (MatchRecordError, SheetError) as exc:
        report.fail("layout", str(exc), f"run `sheets-gm repair -c {config.path}`: it lays every tab out again "
                                        "and keeps the match and every typed row")
        return
    found = find_misplaced(sheets, read.tabs)
    if found:
        report.fail("workbooks", f"workbooks were swapped: {describe_misplaced(found)}", _SWAP_FIX.format(config.path))
        return
    if not _drawn_tabs_ok(config, sheets, read, report):
        return
    record = read.record
    window = record.ruleset.window(record.state)
    stands = f"{label_verb(window.label, 'is', 'are')} open (window {window.key})" if window else "the match is over"
    report.ok("layout", f"every header cell is in place; {stands}")
    _same_settings(config, record.ruleset.settings, report)
    _same_bots(config, record.bots, report)
    _table_rows(config, read, report)
    _older_copies(config, read, report)
    report.guarded("log", lambda: _below_log(config, sheets, read, report))
    report.guarded("board", lambda: _whole_board(config, sheets, read, report))
    report.guarded("teams", lambda: check_teams(config, sheets, report))
    report.guarded("strategies", lambda: check_strategies_tab(config, sheets, read.tabs, report))
    _deadline(config, record, report, now, lambda: _waits(config, sheets, now))


def _waits(config: MatchConfig, sheets: MatchSheets, now: datetime) -> str:
    """Why the open window, its deadline passed, waits unresolved (the poll's ``WindowReport.stuck``: a resolution
    would change nothing), as a dry poll judges it ('' when the next sync resolves it, or cannot tell: the checks
    before say why)."""
    try:
        return poll(sheets, get_ruleset(config.ruleset), now=now, dry_run=True, schedule=config.schedule.rule()).stuck
    except (SheetError, HistoryError, MatchRecordError):
        return ""


def _older_copies(config: MatchConfig, read: MatchRead, report: Checkup) -> None:
    """A warning naming each seat whose file was saved over the sync's write from an older copy (``older_copy``)."""
    older = [f"{seat} (drawn for resolution {s.older_copy}, the match is at {read.record.resolved})"
             for seat, s in read.seats.items() if s.older_copy is not None]
    if older:
        report.warn("older copies", "saved from a copy older than the sync's last write: " + "; ".join(older),
                    f"run `sheets-gm sync -c {config.path}`: it draws those tabs and Views again, gives their "
                    "archive back, reads what the player typed in the old copy for the open window and does not read "
                    "again what a resolution already carried out (her Archive says so); ask players to close the file "
                    "before the sync writes it")
        return
    report.ok("older copies", "every seat's file holds the sync's last write")


def _below_log(config: MatchConfig, sheets: MatchSheets, read: MatchRead, report: Checkup) -> None:
    """A failed check naming each line typed in the Log below the match's last one (or in a Log where the match
    logged nothing): players read it as the match's, and no poll reads that far (one more read, doctor's own)."""
    log_rows = read.record.log_rows
    if read.cut_under_way:
        report.ok("log", "a resolution cut short is under way: the next sync completes it, and the lines it wrote "
                         f"below the match's {counted(log_rows, 'line')} of the Log are its own")
        return
    (grid,) = sheets.board.read([read.tabs.log_to_end(log_rows)])
    typed = below_log_words(grid, log_rows, read.tabs.spec.tabs.log, start=log_rows)
    if typed:
        report.fail("log", "; ".join(typed), "delete those lines: players read the Log as what the match logged "
                                              f"(`sheets-gm verify -c {config.path}` checks every line of it)")
        return
    report.ok("log", f"nothing is typed below the match's {counted(log_rows, 'line')} of the Log")


def _whole_board(config: MatchConfig, sheets: MatchSheets, read: MatchRead, report: Checkup) -> None:
    """A failed check naming every edit of the public board the sync did not make (``board_check``): a tab it does
    not lay out, a cell outside what it draws, the Settings not the match's, a hidden row or column, a line that
    cannot be read (one more read, doctor's own: Google's one spreadsheets.get)."""
    edits = board_edits(sheets, read)
    if edits:
        report.fail("board", "; ".join(edits), "as each says: players read the board as the match's own "
                                               f"(`sheets-gm verify -c {config.path}` names them too)")
        return
    report.ok("board", f"{sheets.board.name} holds the match's tabs alone, nothing outside what the sync draws, "
                       "the match's settings, and no hidden row, column or line")


def _table_rows(config: MatchConfig, read: MatchRead, report: Checkup) -> None:
    """Every army, unit, battle has its row: a warning naming each table laid out with fewer rows than the match
    gives it (a match laid out before tables were sized from the match)."""
    short = read.tabs.short(read.adapter, read.record.state)
    if short:
        report.warn("table rows", "; ".join(short), f"run `sheets-gm repair -c {config.path}`: it lays the tabs out "
                                                    "with a row for each and keeps every typed row")
        return
    sizes = [f"{placed.tab} {placed.rows} {placed.spec.name}"
             for seat in read.tabs.input_seats() for placed in read.tabs.orders(seat).tables
             if placed.spec.rows != SEAT_ROWS]
    report.ok("table rows", "a row for everything the match has (" + ", ".join(sizes) + "); a table that needs "
                            "more grows at the resolution that needs them")


def _engine_record(config: MatchConfig, sheets: MatchSheets, report: Checkup) -> MatchRecord | None:
    """The engine tab's record, or a failed check saying that no match was created yet (or that the engine tab
    was edited)."""
    tab = sheet_spec(config.ruleset).tabs.engine
    init = f"create the match with `sheets-gm init {config.ruleset} -c {config.path}`"
    try:
        stray = stray_engine(config, sheets)
    except EngineMoveError as exc:
        report.fail("match", str(exc), f"correct engine under [sheets] in {config.path}")
        return None
    if stray is not None:
        report.fail("match", f"the match's engine is in {stray.name}, not in {sheets.engine.name} where the config "
                             "now puts it", f"run `sheets-gm repair -c {config.path}`: it moves the engine's tabs "
                                            f"into {sheets.engine.name} (or point engine back at {stray.name})")
        return None
    if tab not in sheets.engine.tab_names():
        report.fail("match", f"no match in {sheets.engine.name} yet: it has no engine tab {tab!r}", init)
        return None
    try:
        (grid,) = sheets.engine.read([engine_read_range(tab)])
    except SheetError as exc:
        report.fail("match", f"no match in {sheets.engine.name}: its engine tab {tab!r} cannot be read ({exc})", init)
        return None
    if not grid:
        report.fail("match", f"no match in {sheets.engine.name} yet: its engine tab {tab!r} is empty", init)
        return None
    try:
        refuse_old_layout(get_ruleset(config.ruleset), grid, config.path)
    except OldLayoutError as exc:
        report.fail("match", str(exc), f"run `sheets-gm repair -c {config.path}`: it moves the match, its history "
                                       "and what was typed")
        return None
    where = f"{sheets.engine.name} tab {tab!r}"
    try:
        record = parse_match_record(grid[1:], where)
    except MatchRecordError as exc:
        report.fail("match", f"the engine tab cannot be read: {exc}", f"if no match was created there yet, {init}; "
                             "if the engine tab was edited, restore it from the version history or a backup")
        return None
    problem = seed_problem(record, where)
    if problem:
        report.fail("seed", f"{problem}; the sync resolves nothing until it does", seed_fix(where))
    else:
        later = f"; each of the {len(record.reseeds)} drawn since at an undo of the match's end gives the hash " \
            "its undo logged" if record.reseeds else ""
        report.ok("seed", f"the seed gives the hash published when the match was created ({record.seed_hash[:12]}…)"
                          f"{later}")
    return record


def _same_seats(config: MatchConfig, record: MatchRecord, report: Checkup) -> bool:
    """The config names the match's ruleset and seats, in its order (False, with the fix, when it does not)."""
    held = record.seats
    word = record.ruleset.traits.seat_kind.value
    if record.name != config.ruleset or tuple(config.seats) != tuple(held):
        listed = ", ".join(f'"{s}"' for s in held)
        report.fail("config vs match", f"the config names a {config.ruleset} match of {word}s "
                                       f"{', '.join(config.seats)}, but the match was created as {record.name} with "
                                       f"{', '.join(held)}: the sync cannot find their orders",
                    f'write {word}s = [{listed}] and ruleset = "{record.name}" in {config.path} ({word}s are fixed '
                    "when the match is created)")
        return False
    report.ok("config vs match", f"the {word}s are {', '.join(held)}, as in the match")
    return True


def _deadline(config: MatchConfig, record: MatchRecord, report: Checkup, now: datetime,
              waits: Callable[[], str]) -> None:
    """The open window's deadline: warn when it passed and nobody resolved the window, or when it waits because a
    resolution would change nothing (``waits``: why, '' when it does not); say so when the config's ``[deadlines]``
    are not yet the ones the match applied (the next sync gives the window their deadline)."""
    window = record.ruleset.window(record.state)
    if window is None:
        report.ok("deadline", "the match is over: nothing is due")
        return
    change = schedule_change(record, config.schedule.rule(), now)
    if change is not None and change.event is not None:
        report.ok("deadline", change_sentence(change, done=False))
        return
    # the judge's window, its players' deadline passed: her own (none: she marks it done; ``sync.judge_part``)
    closing = closing_deadline(window, record.deadline, now)
    if judging(window, record.deadline, now) and not closing:
        report.ok("deadline", judge_line(window, record.deadline, now, ready=False))
        return
    case, sentence = deadline_sentence(window.label, closing, now)
    if case == "unreadable":
        report.warn("deadline", sentence, "the next resolution writes a new one; to fix it now, correct the engine "
                                          "tab's deadline cell")
    elif case == "passed" and (why := waits()):
        report.warn("deadline", why, "type the rows it waits for (a deployment's tokens), or resolve it as it stands "
                                     f"with `sheets-gm resolve -c {config.path} --force --window {window.key}`, or "
                                     "change the match with `sheets-gm adjust` or `sheets-gm undo`")
    elif case == "passed":
        report.warn("deadline", sentence, f"run `sheets-gm sync -c {config.path}`, and check that cron (or "
                                          "`sync --watch`) is running")
    else:
        report.ok("deadline", sentence)


def deadline_sentence(label: str, deadline: str, now: datetime) -> tuple[str, str]:
    """What doctor says of the deadline of the open window called ``label`` (the engine tab's cell, '' for none) at
    ``now``: the case (``none``, ``unreadable``, ``passed`` or ``ahead``) and the sentence, which names the window
    in its label's own words and with the verb it takes (``label_verb``, as the notices and ``status`` do).

    >>> when = datetime.fromisoformat("2026-11-22T12:00+00:00")
    >>> deadline_sentence("turn 1 · battle results", "2026-11-22T20:00+00:00", when)
    ('ahead', 'turn 1 · battle results close at Sun 22 Nov, 20:00 (UTC)')
    >>> deadline_sentence("turn 3", "2026-11-22T20:00+00:00", when)[1]
    'turn 3 closes at Sun 22 Nov, 20:00 (UTC)'
    """
    if not deadline:
        return "none", f"no deadline for {label}: the window resolves when every seat is ready or when you force it"
    moment = deadline_moment(deadline)
    if moment is None:
        return "unreadable", f"the deadline of {label}, {deadline!r}, is not a date and time"
    if moment <= now:
        hours = (now - moment).total_seconds() / 3600
        return "passed", (f"the deadline of {label}, {describe_deadline(deadline)}, passed {hours:.1f} h ago and the "
                          "window is not resolved: no sync has run since")
    return "ahead", f"{label_verb(label, 'closes', 'close')} at {describe_deadline(deadline)}"


def _drawn_tabs_ok(config: MatchConfig, sheets: MatchSheets, read: MatchRead, report: Checkup) -> bool:
    """Every public tab the adapter draws is in the board spreadsheet (a poll reads only the first's title), and
    so are the Log and the Settings (a deadline change writes there); no tab of an earlier layout is left; False
    when one is missing."""
    drawn = [name for name, _ in read.tabs.drawn(read.adapter.drawings(read.record.state))]
    present = sheets.board.tab_names()
    missing = [name for name in drawn if name not in present]
    repair = f"run `sheets-gm repair -c {config.path}`: it lays the tabs out again and keeps the match"
    if missing:
        report.fail("layout", f"{sheets.board.name} has no tab {', '.join(map(repr, missing))} (the drawn tabs are "
                              f"{', '.join(drawn)}): the next resolution cannot draw it", repair)
        return False
    tabs = read.tabs.spec.tabs
    gone = [name for name in (tabs.log, tabs.settings) if name not in present]
    if gone:  # deleted by hand: the sync never reads the house rules back, so only doctor can tell
        report.fail("layout", f"{sheets.board.name} has no tab {', '.join(map(repr, gone))} (the Log lists every "
                              "event, the Settings the house rules and deadlines the players read)", repair)
        return False
    old = [name for name in read.tabs.spec.tabs.retired if name in present]
    if old:
        report.warn("layout", f"{sheets.board.name} still has tab {', '.join(map(repr, old))} of an earlier layout, "
                              "no longer drawn", repair)
    return True


def _local_files_ok(config: MatchConfig, report: Checkup) -> bool:
    """Each workbook: an existing .xlsx file (False if not), not open in LibreOffice or Excel."""
    fine = True
    for where, roles in spreadsheet_roles(config).items():
        path = config.local_path(where)
        name = f"workbook ({', '.join(roles)})"
        if path.suffix.lower() != ".xlsx":
            report.fail(name, f"{path} is not an .xlsx workbook",
                        "open it in LibreOffice or Excel, save it as Excel 2007-365 (.xlsx), and name that file "
                        f"in [sheets] of {config.path}")
            fine = False
        elif not path.is_file():
            fix = (f"create the match with `sheets-gm init {config.ruleset} -c {config.path}`, or correct the file "
                   f"name in [sheets] of {config.path}")
            if roles == ["engine"] and config.local_path(config.board).is_file():
                fix = (f"if the match's engine is still in {config.board}, run `sheets-gm repair -c {config.path}`: it "
                       f"creates {where} and moves the engine there; else {fix}")
            report.fail(name, f"{path} does not exist" if not path.exists() else f"{path} is not a file", fix)
            fine = False
        elif leftovers := cut_saves(path):
            report.warn(name, f"a save of {path} was cut short and left {', '.join(p.name for p in leftovers)} "
                              "beside it (the workbook is as it was before that save)",
                        "the next sync (or any command that opens the match) removes it")
        if path.suffix.lower() == ".xlsx" and path.is_file() and (locks := office_lock_files(path)):
            # Reading is still safe, so the checks after this one go on.
            program = "LibreOffice" if locks[0].name.startswith(".~lock.") else "Excel"
            report.fail(name, f"{path} is open in {program} (lock file {locks[0].name}): the sync will not "
                              "write it, or it would lose the edits made there",
                        f"save and close it in {program}; if it is open nowhere, delete {locks[0]}")
    return fine


def _reachable(config: MatchConfig, sheets: MatchSheets, report: Checkup) -> bool:
    """One small read of each distinct spreadsheet: it exists, is shared, and Google answers."""
    backends = {"board": sheets.board, "engine": sheets.engine,
                **{f"orders {seat}": sheets.orders[i] for i, seat in enumerate(config.seats)},
                **({"judge": sheets.judge} if sheets.judge is not None else {})}
    fine = True
    for where, roles in spreadsheet_roles(config).items():
        backend = backends[roles[0]]
        name = ("workbook" if config.backend is BackendKind.LOCAL else "spreadsheet") + f" ({', '.join(roles)})"
        try:
            backend.read(["A1"])
        except GoogleUnreachableError as exc:  # the first connection failure stops the checks on Google
            report.fail("google", str(exc), UNREACHABLE_FIX)
            return False
        except SheetUnavailableError as exc:
            report.fail(name, str(exc), "Google kept failing: try again in a few minutes "
                                        "(https://www.google.com/appsstatus shows outages)")
            fine = False
        except SheetAccessError as exc:
            report.fail(name, str(exc), _access_fix(config, backend, where))
            fine = False
        except SheetError as exc:
            report.fail(name, str(exc), f"check {where!r} in [sheets] of {config.path}")
            fine = False
        else:
            shown = config.local_path(where) if config.backend is BackendKind.LOCAL else f"key {where}"
            report.ok(name, f"{shown} can be read")
    return fine


def _access_fix(config: MatchConfig, backend: SheetBackend, where: str) -> str:
    if config.backend is BackendKind.LOCAL:
        return "restore the file from a backup, or open it in LibreOffice or Excel and save it again as .xlsx"
    inner = backend.inner if isinstance(backend, ReadOnlyBackend) else backend
    account: Any = getattr(inner, "account", None)
    who = account if isinstance(account, str) else "the Google account you signed in with"
    return (f"open the spreadsheet, click Share and add {who} as Editor; if it still fails, check the key "
            f"{where!r} in [sheets] of {config.path}")


def _same_bots(config: MatchConfig, held: Mapping[str, str], report: Checkup) -> None:
    """Warn when ``[bots]`` (or the roster file's bot column) no longer says who the match's bots play (``held``:
    the record's, changed only by ``adjust --bot``), with the command that applies the edit."""
    said, changes = bot_drift(config, held)
    if said:
        report.warn("bots vs match", "; ".join(said) + ": [bots] is read when the match is created, so the edit is "
                    "not applied", bots_fix(config, changes))
    else:
        same = {n: k for n, k in configured_bots(config).items() if k != NO_BOT} == dict(held)
        report.ok("bots vs match", ("the config's bots are the match's" if same else
                                    "the match's bots are the GM's adjust --bot since [bots] was read") +
                  (f" ({bots_phrase_of(held)})" if held else " (none)"))


def bots_phrase_of(held: Mapping[str, str]) -> str:
    """``Bo: skirmisher, red4: objective``."""
    return ", ".join(f"{name}: {kind}" for name, kind in held.items())


def _same_settings(config: MatchConfig, held: Any, report: Checkup) -> None:
    """Warn when ``[settings]`` no longer says what the match was created with (``held``: the match keeps
    its own)."""
    try:
        changed = settings_drift(config, held)
    except SettingError:
        return  # already a failed "house rules" check
    if changed:
        report.warn("house rules vs match", "; ".join(changed) + ": house rules are fixed when the match is "
                    "created, so the match keeps its own", f"make [settings] in {config.path} say what the match "
                    "uses (the Settings tab shows them), or create a new match to play with the new rules")
    else:
        report.ok("house rules vs match", "the config's house rules are the match's")
