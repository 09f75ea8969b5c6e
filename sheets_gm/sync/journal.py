"""The write-ahead journal: one record per resolution, kept on the GM's computer before its first write.

A resolution writes each seat's spreadsheet first (the rows it read are cleared, and their copy goes to the seat's
hidden Copies tab, the pending row, in the same call), then the judge's, the board's, and the engine's last: the
commit. Before the first of those writes it keeps its record (``ResolutionRecord``: all the resolution depends on)
in the GM's private ``.sheets-gm`` folder beside the poll state and the kept reads (0600, the folder 0700: it holds
what players typed and the engine does not have yet). A resolution cut before the commit is completed by the next
poll from that record, never from the sheets again: the orders, the GM events and the dice are the cut
resolution's, whatever was typed since (which stays, for the window after). The record is dropped once the
engine's write went through, and ignored whenever the engine's record shows its resolution committed (or taken
back). ``repair``, laying a Copies tab out again, writes the record's pending row back into it.

It costs no call to any spreadsheet: the API bars (one read and one write per spreadsheet for a resolution) hold.
A record that cannot be written stops the resolution before its first write (``JournalUnwritableError``). A match
that keeps none (``MatchSheets.journal`` None: a demo, a test) completes a cut resolution from the seats' pending
rows, which hold the rows it carried out.

Every other command that writes a match (an undo, an adjustment, a seat handed to a bot) is one transaction too,
through the same file: its journal (``ChangeJournal``) is every range it writes, in every spreadsheet, kept before
the first write and dropped once the engine's write (the commit) went through. Each seat's file it draws carries the
generation it moves the match to (``MatchRecord.stamp``), so the next command of any kind (``read_match``) sees a
change cut short (the engine still at the generation before it, a seat's file or more at the one after) and
completes it (``complete_change``): each spreadsheet not written yet gets its writes, the engine last, the files
already written (a player may have typed in them since) are left as they are; then it says so
(``MatchRead.completed``). A change's journal that cannot be written stops the change before its first write: without
it a cut change could be neither completed nor told apart from an engine put back from an older copy
(``sync/history.py``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.sheets.backend import OpenedElsewhere, RangeWrite, SavedMeanwhileError, SheetBackend, SheetError
from sheets_gm.sheets.layout import CellValue, Grid, ReadGuard
from sheets_gm.sheets.private_files import write_private
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.sheets import WriteBatch

#: Bumped when the file's meaning changes; a journal of another version is ignored.
JOURNAL_VERSION = 1


class JournalUnwritableError(SheetError):
    """A resolution's record or a change's journal that cannot be kept: refused before its first write."""


def journal_path(config_path: Path) -> Path:
    """The journal of the match configured by ``config_path`` (beside its poll state and kept reads)."""
    return config_path.parent / ".sheets-gm" / f"{config_path.stem}.journal.json"


@dataclass(frozen=True)
class ChangeJournal:
    """A change under way (an undo, an adjustment, a seat handed to a bot, or a resolution), ``what`` in the GM's
    words: the match's generation ``before`` it and ``after`` it, and every range it writes, by spreadsheet name
    (``writes``: the spreadsheet, the range, its values and its notes), in the order they are written; ``guards``:
    the cells it read that its writes must find unchanged (a resolution's: a player's save since is never written
    over), by spreadsheet name."""

    seed_hash: str
    what: str
    before: int
    after: int
    writes: tuple[tuple[str, RangeWrite], ...]
    guards: tuple[tuple[str, ReadGuard], ...] = ()
    resolution: bool = False  # a resolution's (``ResolutionRecord``): completed by the poll when a guard stops it

    def under_way(self, record: MatchRecord) -> bool:
        """Whether ``record`` (the engine as read) is still at the generation before this change: it was cut."""
        return self.seed_hash == record.seed_hash and self.before == record.generation


def batch_change(batch: WriteBatch, order: list[SheetBackend], seed_hash: str, what: str, before: int,
                 after: int) -> ChangeJournal:
    """``batch`` (to run in ``order``) as the journal of the change ``what`` from generation ``before`` to
    ``after``."""
    writes = tuple((backend.name, w) for b in order for backend, w in batch.writes if backend is b)
    guards = tuple((backend.name, g) for b in order for backend, g in batch.guards if backend is b)
    return ChangeJournal(seed_hash, what, before, after, writes, guards)


@dataclass(frozen=True)
class ResolutionRecord:
    """Resolution ``resolution`` of window ``window`` (at the match's ``deal``: its count of undos), under way: all it
    depends on, kept before its first write.

    ``rows``: every seat's rows as the resolution read them for the window (standing tables included, each a
    ``TypedRow``'s JSON, in the order read), from which its orders are read; ``kept``: what each seat's rows said as it
    read them (the rows the resolution before kept, with their notes: ``SeatRead.kept``); ``gm_events``: the GM
    events it applies after resolving (the stand-in GM's), as JSON; ``dice``: the key of the dice it rolls;
    ``orders``: the orders it resolves (read from ``rows``); ``pending``: each seat's pending row as the resolution
    writes it (window key, rows read as JSON, the Archive's line count), which ``repair`` writes back into a Copies
    tab deleted meanwhile; ``change``: every range it writes, the generations it moves the match between and what
    it read of the seats' cells (``guards``): what the next poll writes to complete it (``complete_change``);
    ``forced``: the GM closed the window (a record kept before there was such a field reads as not forced)."""

    seed_hash: str  # the match's: a record left by another match in the same folder is not this one's
    resolution: int
    deal: int
    window: str
    pending: Mapping[str, tuple[CellValue, ...]]
    rows: Mapping[str, tuple[Mapping[str, Any], ...]]
    kept: Mapping[str, tuple[Mapping[str, Any], ...]]
    gm_events: tuple[Mapping[str, Any], ...]
    dice: Mapping[str, Any]
    orders: Any  # the orders it resolves, merged, as the game's orders codec writes them
    change: ChangeJournal | None = None  # set by ``journaled_run`` from the batch it runs
    forced: bool = False  # the GM closed the window (resolve --force): its completion's Archive says so too

    def under_way(self, record: MatchRecord) -> bool:
        """Whether this is the resolution ``record`` has not committed yet (the one a cut left)."""
        return (self.seed_hash == record.seed_hash and self.resolution == record.resolved + 1
                and self.deal == record.deal and self.window == record.window_key()
                and (record.window_key() == "" or self.dice == dice_key(record.dice())))

    def seat_rows(self, seat: str) -> tuple[TypedRow, ...]:
        """The rows the resolution read from ``seat``'s tables, as it read them."""
        return tuple(TypedRow.from_json(r) for r in self.rows.get(seat, ()))


def recorded_rows(rows: Iterable[TypedRow]) -> tuple[Mapping[str, Any], ...]:
    """``rows`` as a resolution record (and the history) keeps them: each row's JSON as the Archive keeps it, in the
    order read (an ordered table's order)."""
    return tuple(r.to_json() for r in rows)


def dice_key(dice: TurnDice) -> dict[str, Any]:
    """What tells one resolution's dice from another's: their turn and deal (a resolution record keeps it)."""
    return {"turn": dice.turn, "deal": dice.deal}


def _change_body(journal: ChangeJournal) -> dict[str, Any]:
    return {"seed_hash": journal.seed_hash, "what": journal.what, "before": journal.before, "after": journal.after,
            "writes": [[name, w.range, w.values, w.notes] for name, w in journal.writes],
            "guards": [[name, g.range, g.grid] for name, g in journal.guards]}


def _encode_resolution(journal: ResolutionRecord) -> str:
    return json.dumps({"version": JOURNAL_VERSION, "kind": "resolution",
                       **(_change_body(journal.change) if journal.change is not None else {}),
                       "seed_hash": journal.seed_hash,
                       "resolution": journal.resolution, "deal": journal.deal, "window": journal.window,
                       "pending": {seat: list(row) for seat, row in journal.pending.items()},
                       "rows": {seat: list(rows) for seat, rows in journal.rows.items()},
                       "kept": {seat: list(kept) for seat, kept in journal.kept.items()},
                       "gm_events": list(journal.gm_events), "dice": dict(journal.dice), "orders": journal.orders,
                       **({"forced": True} if journal.forced else {})},
                      separators=(",", ":"), ensure_ascii=False)


def write_journal(path: Path | None, journal: ResolutionRecord) -> None:
    """Keep the resolution record ``journal`` at ``path`` before the resolution's first write (nothing when the
    match keeps none: ``path`` None); JournalUnwritableError, nothing written, when it cannot be kept: a resolution
    cut without its record could be completed only from the sheets, which may have changed since."""
    if path is not None:
        _keep(path, _encode_resolution(journal), f"the record of resolution {journal.resolution} (window "
              f"{journal.window}), which lets the next sync complete it as it ran if it is cut short,", "sync again")


def _keep(path: Path, body: str, what: str, again: str) -> None:
    """Write the journal ``body`` at ``path``, or refuse (JournalUnwritableError) naming ``what`` the journal is
    and what to do ``again``."""
    try:
        write_private(path, body)
    except OSError as exc:
        raise JournalUnwritableError(
            f"{what} cannot be kept at {path} ({exc.strerror or exc}): nothing was written. Free the disk, or make "
            f"the folder the GM's own and writable, then {again}") from None


def drop_journal(path: Path | None) -> None:
    """Remove the journal at ``path`` (the engine committed its resolution); nothing when there is none."""
    if path is not None:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def _mappings(found: object) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(found, list) or not all(isinstance(item, dict) for item in found):
        raise TypeError("not a list of records")
    return tuple(found)


def load_journal(path: Path | None) -> ResolutionRecord | None:
    """The resolution record kept at ``path`` (None when there is none, or it cannot be read, or is of another
    version or kind)."""
    change = load_change(path)
    if path is None or change is None or not change.resolution:
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        pending = {str(seat): tuple(row) for seat, row in raw["pending"].items() if isinstance(row, list)}
        rows = {str(seat): _mappings(found) for seat, found in raw["rows"].items()}
        kept = {str(seat): _mappings(found) for seat, found in raw["kept"].items()}
        if not isinstance(raw["dice"], dict):
            raise TypeError("dice: not a record")
        return ResolutionRecord(str(raw["seed_hash"]), int(raw["resolution"]), int(raw["deal"]), str(raw["window"]),
                                pending, rows, kept, _mappings(raw["gm_events"]), raw["dice"], raw["orders"], change,
                                raw.get("forced") is True)
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
        return None


def journal_under_way(path: Path | None, record: MatchRecord) -> ResolutionRecord | None:
    """The resolution record at ``path`` when it is of the resolution ``record`` has not committed (None
    otherwise)."""
    journal = load_journal(path)
    return journal if journal is not None and journal.under_way(record) else None


def journaled_run(batch: WriteBatch, order: list[SheetBackend], path: Path | None, journal: ResolutionRecord) -> int:
    """Run a resolution's ``batch`` (one call per spreadsheet, in ``order``: the engine last), its record ``journal``,
    with every range the batch writes, kept at ``path`` first and dropped once the engine's write went through;
    returns the number of calls."""
    if journal.change is not None:
        c = journal.change
        journal = replace(journal, change=replace(batch_change(batch, order, c.seed_hash, c.what, c.before, c.after),
                                                  resolution=True))
    write_journal(path, journal)
    calls = batch.run(order)
    drop_journal(path)
    return calls


def _encode(journal: ChangeJournal) -> str:
    return json.dumps({"version": JOURNAL_VERSION, "kind": "change", **_change_body(journal)},
                      separators=(",", ":"), ensure_ascii=False)


def _grid(found: object) -> Grid:
    if not isinstance(found, list) or not all(isinstance(row, list) for row in found):
        raise TypeError("not a grid")
    return [list(row) for row in found]


def load_change(path: Path | None) -> ChangeJournal | None:
    """The change journal kept at ``path``, a resolution's record as one (None when there is none, or one that
    cannot be read: a resolution's kept by an earlier version, which holds no writes)."""
    if path is None:
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if raw.get("version") != JOURNAL_VERSION or raw.get("kind") not in ("change", "resolution"):
            return None
        writes = tuple((str(name), RangeWrite(str(a1), _grid(values), None if notes is None else _grid(notes)))
                       for name, a1, values, notes in raw["writes"])
        guards = tuple((str(name), ReadGuard(str(a1), _grid(grid))) for name, a1, grid in raw.get("guards", []))
        return ChangeJournal(str(raw["seed_hash"]), str(raw["what"]), int(raw["before"]), int(raw["after"]), writes,
                             guards, raw["kind"] == "resolution")
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
        return None


def change_under_way(path: Path | None, record: MatchRecord) -> ChangeJournal | None:
    """The change journal at ``path`` when ``record`` shows its change cut before the commit (None otherwise)."""
    journal = load_change(path)
    return journal if journal is not None and journal.under_way(record) else None


def journaled_change(batch: WriteBatch, order: list[SheetBackend], path: Path | None, what: str,
                     before: MatchRecord, after: MatchRecord) -> int:
    """Run a change's ``batch`` (one call per spreadsheet, in ``order``: the engine last) as one transaction: its
    journal kept at ``path`` first (JournalUnwritableError, nothing written, when it cannot be), dropped once the
    engine's write went through. ``before`` and ``after``: the record it changes and the one it writes. Returns the
    number of calls."""
    for backend in order:  # a workbook open in an office program: refused before the journal, nothing written
        if isinstance(backend, OpenedElsewhere) and any(b is backend for b, _w in batch.writes):
            backend.refuse_if_open()
    if path is not None:
        journal = batch_change(batch, order, before.seed_hash, what, before.generation, after.generation)
        _keep(path, _encode(journal), f"the journal that lets the next command complete {what} if it is cut short",
              "run the command again")
    try:
        calls = batch.run(order)
    except SavedMeanwhileError as exc:  # a player saved since the command read: nothing written over her save
        first = next((b for b in order if any(x is b for x, _w in batch.writes)), None)
        if first is not None and first.name == exc.spreadsheet:  # nothing written yet: no change is under way
            drop_journal(path)
        raise
    drop_journal(path)
    return calls


def complete_change(order: list[SheetBackend], path: Path | None, journal: ChangeJournal,
                    written: set[str]) -> list[str]:
    """Complete the cut change ``journal``: each spreadsheet of ``order`` not in ``written`` (the files already drawn
    for the change) gets its writes, the engine last, each guarded by what the change read of it (SavedMeanwhileError
    when a player saved there since: nothing written over it, the journal kept); the journal is dropped once they
    went through. Returns the names of the spreadsheets written now."""
    done: list[str] = []
    for backend in order:
        if backend.name in written:
            continue
        mine = [w for name, w in journal.writes if name == backend.name]
        guard = [g for name, g in journal.guards if name == backend.name]
        if mine:
            if guard:
                backend.write(mine, guard=guard)
            else:
                backend.write(mine)
            done.append(backend.name)
    drop_journal(path)
    return done


def completed_sentence(journal: ChangeJournal, written: list[str], done: list[str]) -> str:
    """What the GM is told of a cut change completed: ``the undo of turn 2 was cut short before its last write (red
    written, blue, board and engine not): it is now complete, as if it had run whole``."""
    before = (f"{', '.join(written)} written, {', '.join(done)} not" if written
              else "before its first write went through")
    return (f"{journal.what} was cut short before its last write ({before}): it is now complete, as if it had run "
            "whole")


def start_init(path: Path | None, match_id: str) -> None:
    """Keep, before ``init`` writes anything, that it creates the match ``match_id`` (``MatchRecord.match_id``): a
    later ``init`` of the same config finds that match's files, cut short, as its own to lay out again, not another
    match's (``init_under_way``). Nothing when the match keeps no journal; a file that cannot be written costs only
    that."""
    if path is not None:
        with contextlib.suppress(OSError):
            write_private(path, json.dumps({"version": JOURNAL_VERSION, "kind": "init", "match": match_id}))


def init_under_way(path: Path | None) -> str:
    """The id of the match an ``init`` of this config was creating when it was cut ('' when none was)."""
    if path is None:
        return ""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return str(raw["match"]) if raw.get("kind") == "init" and raw.get("version") == JOURNAL_VERSION else ""
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
        return ""
