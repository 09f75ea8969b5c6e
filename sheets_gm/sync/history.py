"""A match knows its history: each seat's file is checked against the engine's record before anything is read from it.

Every change the match commits that draws every seat's file again (a resolution, an undo, an adjustment, a seat handed
to a bot, a repair) moves the record's ``generation`` on and chains its ``history`` hash (``MatchRecord.moved_on``),
and every seat's file it draws carries the match's id and that generation in its pending row (``FileStamp``, on the
hidden Copies tab: read by every poll in the same call as the rest of the file, so it costs no request). A file
whose stamp disagrees with the engine is refused by name, nothing read or written:

- of another match (another id): two configs naming one file, or a file copied from another match;
- drawn for a later generation than the engine holds: the engine was put back from an older copy, or a command was
  cut short before its last write (the engine's, the commit) and its journal is gone. The one file allowed a step
  ahead is one a cut resolution wrote (its pending row names that resolution): the next poll completes it;
- drawn for the engine's generation with another history: the engine (or the file) was put back from a copy and the
  match moved on from there.

A file drawn for an earlier generation is a copy saved over the sync's writes (``sync/older_copy.py``); a file
written before the stamps were kept carries none and is not checked.
"""

from __future__ import annotations

from collections.abc import Mapping

from sheets_gm.engine.dice import seed_hash
from sheets_gm.sheets.adapter import CONFIG_STAND_IN
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sync.match_record import FileStamp, MatchRecord
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.rows.seat_read import SeatRead
from sheets_gm.sync.sheets import MatchSheets, seat_backend


class HistoryError(SheetError):
    """A file of the match that disagrees with the engine's history: nothing was read from it or written."""


def _resolution(seat_read: SeatRead) -> str:
    """`` (resolution 4)``: the resolution a file's pending row names ('' when it names none)."""
    cells = seat_read.pending_cells
    text = str(cells[1]) if len(cells) > 1 and cells[1] is not None else ""
    found = text.partition('"resolution":')[2].split(",", 1)[0]
    return f" (resolution {found})" if found.isdecimal() else ""


def _engine(sheets: MatchSheets, record: MatchRecord) -> str:
    """The engine as the GM knows it: ``engine.xlsx (generation 4 of the match, 2 windows resolved)``."""
    return f"{sheets.engine.name} (generation {record.generation} of the match, {record.resolved} resolved)"


def check_history(sheets: MatchSheets, tabs: MatchTabs, record: MatchRecord, seats: Mapping[str, SeatRead],
                  board: FileStamp | None = None) -> None:
    """HistoryError naming the first file whose stamp disagrees with ``record`` (see the module): the board's
    (``board``: its stamp, None when it has none), then each seat's."""
    repair = f"sheets-gm repair -c {CONFIG_STAND_IN}"
    if seed_hash(record.seed) != record.seed_hash:  # the match id comes from the hash: the seed's check says why
        return
    if board is not None:
        _check_board(sheets, record, board, cut=any(s.pending is not None for s in seats.values()), repair=repair)
    for seat, seat_read in seats.items():
        stamp: FileStamp | None = seat_read.stamp
        if stamp is None:
            continue
        where = f"{seat}'s file ({seat_backend(sheets, tabs, seat).name})"
        if stamp.match != record.match_id:
            raise HistoryError(
                f"{where} belongs to another match (match id {stamp.match}; this match's engine, "
                f"{sheets.engine.name}, is match {record.match_id}): two configs name the same file, or it was copied "
                f"from another match. Nothing was read or written. Point the config's [sheets] at {seat}'s own file; "
                f"if it is this match's own file and only its hidden Copies tab was edited, {repair} stamps it again")
        if stamp.generation > record.generation:
            if seat_read.pending is not None and stamp.generation == record.generation + 1:
                continue  # the resolution a cut left: the poll completes it
            raise HistoryError(
                f"the engine is older than the files it wrote: {_engine(sheets, record)}, but {where} was drawn for "
                f"generation {stamp.generation}{_resolution(seat_read)}. The engine was put back from an older copy, "
                "or a command was cut short before its last write and its journal (in the config's .sheets-gm "
                "folder) is gone. Nothing was resolved or written. Put back the engine's newest copy (a backup, or "
                f"the file as the last sync left it) and sync again; to carry the match on from the engine as it is "
                f"instead, run {repair}: it draws every file again for the engine's state, keeping what was typed")
        if stamp.generation == record.generation and stamp.history != record.history:
            raise HistoryError(
                f"{where} was drawn for generation {stamp.generation} of another history than the engine's "
                f"({_engine(sheets, record)}): the engine, or the file, was put back from a copy and the match moved "
                "on from there. Nothing was resolved or written. Put back the files as the last sync left them; to "
                f"carry the match on from the engine as it is instead, run {repair}: it draws every file again for "
                "the engine's state, keeping what was typed")


def _check_board(sheets: MatchSheets, record: MatchRecord, stamp: FileStamp, *, cut: bool, repair: str) -> None:
    """HistoryError when the board's stamp disagrees with ``record``: another match's board (two configs naming one
    board), a board drawn for a later generation (the engine put back; a cut resolution, ``cut``, excepted), or for an
    earlier one (the board put back from an older copy: its Log lacks the lines written since)."""
    where = f"the board ({sheets.board.name})"
    if stamp.match != record.match_id:
        raise HistoryError(
            f"{where} is the board of another match (match id {stamp.match}; this match's engine, "
            f"{sheets.engine.name}, is match {record.match_id}): two configs name the same board, and each match's "
            "players would read the other's. Nothing was read or written. Give this match's config a board of its own "
            f"under [sheets] (then run {repair}, which draws it there)")
    if stamp.generation > record.generation and not (cut and stamp.generation == record.generation + 1):
        raise HistoryError(
            f"the engine is older than the files it wrote: {_engine(sheets, record)}, but {where} was drawn for "
            f"generation {stamp.generation}. The engine was put back from an older copy, or a command was cut short "
            "before its last write and its journal (in the config's .sheets-gm folder) is gone. Nothing was resolved "
            "or written. Put back the engine's newest copy (a backup, or the file as the last sync left it) and sync "
            f"again; to carry the match on from the engine as it is instead, run {repair}: it draws every file again "
            "for the engine's state, keeping what was typed")
    if stamp.generation < record.generation or (stamp.generation == record.generation
                                                and stamp.history != record.history):
        raise HistoryError(
            f"{where} was drawn for generation {stamp.generation} of the match, and the engine holds generation "
            f"{record.generation}: the board's spreadsheet was put back from an older copy, and its Log lacks what "
            "was logged since. Nothing was resolved or written. Put back the board's newest copy, or run "
            f"{repair}: it draws the board again and writes back every Log line the engine's history counts")
