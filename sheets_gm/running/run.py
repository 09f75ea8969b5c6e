"""A configured match of a ruleset on the generic sync: the rules its config describes, a poll of it under the match
lock, and a GM's change between polls (the poll gate's record kept as a poll's after it on Google, else
forgotten). Starting one is ``init.start``.

Every game whose record has a sheet part runs here; ``require_sheets`` refuses one without.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sheets_gm.engine.settings import SettingError, parse_settings
from sheets_gm.match.config import BackendKind, ConfigError, MatchConfig, live_values, match_files
from sheets_gm.match.match_roster import editor_emails, repair_roster
from sheets_gm.match.seat_roster import SeatRosterError
from sheets_gm.match.team_check import row_emails
from sheets_gm.poll_gate.state import forget_state, state_path
from sheets_gm.rulesets.registry import (
    AnyRuleset,
    default_board_text,
    get_game,
    get_ruleset,
)
from sheets_gm.running.page import publish_page
from sheets_gm.running.poll_words import said_of
from sheets_gm.sheets.backend import SheetAccessError, SheetBackend, SheetError
from sheets_gm.sync.command_journal import (
    command_path,
    load_command,
)
from sheets_gm.sync.journal import load_change
from sheets_gm.sync.life.grow import LayoutOwners
from sheets_gm.sync.life.settle import settle_cut_command
from sheets_gm.sync.lock import match_lock
from sheets_gm.sync.old_layout import OldLayoutError
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets


def require_sheets(ruleset: str, where: str) -> None:
    """ConfigError when the game ``ruleset`` has no sheet part in its record, so cannot run through spreadsheets."""
    game = get_game(ruleset)
    if game.sheet is not None:
        return
    name = game.name
    raise ConfigError(f"{where}: the {game.traits.title} game has no sheets (its record names no sheet adapter): "
                      f"its rules run in `sheets-gm scenario tests/scenarios/{name}/` and "
                      f"`sheets-gm simulate {name}`, not in a match")


def sync_once(config: MatchConfig, sheets: MatchSheets, *, now: datetime, force: bool = False,
                     dry_run: bool = False, window: str | None = None, step: int | None = None,
                     lock_wait: float = 30.0, lock: bool = True) -> WindowReport:
    """One poll of the match under the match lock (``window``: force only that window, at its step ``step``, see
    ``poll``); the lock is waited for up to ``lock_wait`` seconds (``serve`` waits for none: it skips a match another
    command holds).
    ``lock`` False: the caller holds the lock already, as the gated poll does from before its gate decides."""
    match_files(config)  # a watch holds its spreadsheets open: a link made since is refused at its next poll
    with match_lock(config.lock_path, wait_seconds=lock_wait) if lock else contextlib.nullcontext():
        report = _poll(config, sheets, now, force=force, window=window, step=step, dry_run=dry_run)
        if not dry_run:
            report.page = publish_page(config, report.facts)
        return report


def _poll(config: MatchConfig, sheets: MatchSheets, now: datetime, *, force: bool = False, window: str | None = None,
          step: int | None = None, dry_run: bool = False) -> WindowReport:
    """``sync_once``'s poll itself, the lock held and the match page left to the caller."""
    try:
        return poll(sheets, get_ruleset(config.ruleset), now=now, force=force, window_key=window, step=step,
                    dry_run=dry_run, owners=lambda: layout_owners(config, sheets), live=_live(config),
                    schedule=config.schedule.rule())
    except OldLayoutError as exc:
        raise exc.for_config(config.path) from None


def complete_cut_change(config: MatchConfig, sheets: MatchSheets) -> str:
    """Complete a GM's change cut short (its journal kept, the engine not written: ``sync/journal.py``), and settle
    a repair, an export or an init --overwrite cut short (``sync/life/settle.py``), before a gated poll's gate
    decides: the gate's kept reads and rehearsal know nothing of it, and an export changes no file the gate
    watches. The gate's record is forgotten once it is complete (the poll after reads every spreadsheet). Returns
    what the GM is told ('' when there was none to complete, or the match cannot be read: the poll says why)."""
    settled = ""
    if load_command(command_path(sheets.journal)) is not None:  # a repair, export or init --overwrite cut short
        try:
            settled = settle_cut_command(sheets, get_ruleset(config.ruleset))
        except SheetError:
            return ""  # the poll says why
        forget_state(state_path(config.path))
    change = load_change(sheets.journal)
    if change is None:
        return settled
    if change.resolution:  # the poll completes it (and tells the table): it reads every spreadsheet for it
        forget_state(state_path(config.path))
        return settled
    try:
        completed = "; ".join(c for c in (settled, read_match(sheets, get_ruleset(config.ruleset)).completed) if c)
    except SheetError:
        return settled
    if completed:
        forget_state(state_path(config.path))
    return completed


class GmChange:
    """A GM's command that writes the match ``config`` configures, as ``gm_change`` watches it: the spreadsheets it
    writes, handed in before its first write (:meth:`watch`), or opened by the command itself once it runs. On
    Google, each write there also answers with what the last poll kept of it (``poll_gate.command_record``)."""

    def __init__(self, config: MatchConfig, sheets: MatchSheets | None) -> None:
        self.config = config
        self.sheets: MatchSheets | None = None
        self.before: dict[int, int] = {}
        self.watches: dict[str, Any] = {}  # ``CommandWatch`` by key (Google's client loads for a Google match only)
        if sheets is not None:
            self._begin(sheets, _changes(sheets))

    def watch(self, sheets: MatchSheets) -> None:
        """The match's spreadsheets, opened by the command after the change began (every write to them counts)."""
        self._begin(sheets, {})

    def _begin(self, sheets: MatchSheets, before: dict[int, int]) -> None:
        self.sheets, self.before = sheets, before
        if self.config.backend is BackendKind.GOOGLE:
            from sheets_gm.poll_gate.command_record import watch_writes
            from sheets_gm.poll_gate.drive import drive_log

            log = drive_log(sheets)
            self.watches = {} if log is None else watch_writes(self.config.path, sheets, log)

    def written(self) -> list[SheetBackend] | None:
        """The spreadsheets written since the change began (None: unknown, no spreadsheets were handed in)."""
        if self.sheets is None:
            return None
        return [b for b in self.sheets.write_order() if b.changes != self.before.get(id(b), 0)]

    def end(self, *, completed: bool) -> None:
        """The command is over: its spreadsheets watched no more; when it wrote, the gate's record kept as a poll
        would (``completed``, on Google) or forgotten (see ``gm_change``)."""
        if self.watches and self.sheets is not None:
            from sheets_gm.poll_gate.command_record import unwatch

            unwatch(self.sheets)
        written = self.written()
        if written == []:
            return
        if not completed or written is None or self.sheets is None or self.config.backend is not BackendKind.GOOGLE:
            forget_state(state_path(self.config.path))
            return
        _record_change(self.config, self.sheets, written, self.watches)


@contextmanager
def gm_change(config: MatchConfig, sheets: MatchSheets | None = None, *, lock: bool = True) -> Iterator[GmChange]:
    """The match lock (unless ``lock`` is False: the caller takes it itself), for a GM command that writes the
    match (adjust, undo, repair, resolve, the judge's mail filed). When it has written the match (any of
    ``sheets``' spreadsheets, or of those it hands to :meth:`GmChange.watch`; with neither, whatever it did), even
    if it stopped half-way, the poll gate's record of the last poll no longer describes the match. A Google match
    that the command completed keeps it as a poll would (``poll_gate.command_record``: each spreadsheet it wrote
    as its last write answered, with Drive's version right after, or read again; the poll rehearsed on them), so
    the next idle poll reads nothing; else the record is forgotten, and the next poll reads every spreadsheet. A
    command refused before its first write (an undo of another window, a force of a window not open, an
    adjustment the rules refuse) changes no byte: the record stays."""
    with match_lock(config.lock_path) if lock else contextlib.nullcontext():
        change = GmChange(config, sheets)
        try:
            yield change
        except BaseException:
            change.end(completed=False)
            raise
        change.end(completed=True)


def _record_change(config: MatchConfig, sheets: MatchSheets, written: list[SheetBackend],
                   watches: dict[str, Any]) -> None:
    """After a GM's command wrote ``written`` of the Google match's ``sheets``, keep the poll's record as a poll
    would (see ``gm_change``; ``watches``: what its writes answered with). The record is only a shortcut: a
    spreadsheet that cannot be read now costs the next poll a full read, never the command its result."""
    from sheets_gm.poll_gate.command_record import record_command
    from sheets_gm.poll_gate.drive import drive_log
    from sheets_gm.sheets.google.backend import GoogleSheetBackend

    log = drive_log(sheets)
    if log is None:
        forget_state(state_path(config.path))
        return
    keys = [b.key for b in written if isinstance(b, GoogleSheetBackend)]
    try:
        record_command(config.path, sheets, keys, log, clock=lambda: datetime.now(UTC),
                       rehearse=lambda s: _poll(config, s, datetime.now(UTC)),
                       said=lambda report: said_of(config, report), watches=watches)
    except (SheetError, ConfigError, OSError):
        forget_state(state_path(config.path))


def _changes(sheets: MatchSheets | None) -> dict[int, int]:
    """The writes sent to each of the match's spreadsheets so far (``SheetBackend.changes``), by backend."""
    return {} if sheets is None else {id(backend): backend.changes for backend in sheets.write_order()}


def _live(config: MatchConfig) -> dict[str, Any]:
    """The config's live settings (``config.live_values``); none when ``[settings]`` does not read (the sync's
    warning says why, and the match keeps what it holds)."""
    try:
        return live_values(config)
    except SettingError:
        return {}


def configured_ruleset(config: MatchConfig) -> AnyRuleset:
    """The rules the config describes: its house rules on its board (or the ruleset's default board)."""
    cls = get_ruleset(config.ruleset)
    settings = parse_settings(cls.traits.settings_type, config.settings, where=f"{config.path} [settings]",
                              folder=config.folder)
    if config.map is None:
        board = default_board_text(config.ruleset)
    else:
        try:
            board = config.map.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SheetAccessError(f"{config.path}: map: no file at {config.map}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise SheetAccessError(f"{config.path}: map: {config.map} cannot be read as text ({exc})") from None
    try:
        return cls.create(settings, board)
    except SettingError as exc:  # a file a setting names (e.g. a unit table) that does not read
        raise SettingError(f"{config.path} [settings]: {exc}") from None
    except ValueError as exc:
        where = config.map if config.map is not None else f"the default {config.ruleset} board"
        raise SeatRosterError(f"{config.path}: map: {where}: {exc}") from None


def layout_owners(config: MatchConfig, sheets: MatchSheets) -> LayoutOwners:
    """What a tab laid out again keeps of init's layout: the typed cells' editors (the roster's e-mails, the
    judge's) and the spreadsheets' title; read when a resolution grows a table."""
    roster = repair_roster(config, sheets)
    return LayoutOwners(editor_emails(config, roster), row_emails(roster), config.title)
