"""``repair``'s steps before it lays the match out again (``sync/life/repair.py``), inside its one transaction.

Its copies of the local workbooks come first: they are copies beside the match, no write to it, so a repair cut
while it copies leaves the match as it was (and a folder of copies, pruned like any other). Then, before its first
write, the command journal (``sync/command_journal.py``) keeps that the repair is under way, in its first phase,
``prepare``, whose steps each complete when run again:

- the engine file the config names is created where it is missing (skipped once it exists);
- swapped workbooks are put back: every move is kept in the journal before the first, and ``finish_swaps`` makes
  those not made yet;
- the engine is moved out of a file players open: copy first, delete after, the seed hashes compared
  (``engine_move``): run again, it copies what was not copied and deletes what was;
- the roster is read (no write).

Then the journal becomes the repair's own (the editors' e-mails, the title), which the next command of any kind
runs again whole. A repair cut in ``prepare`` is completed by the next command's opening of the match
(``complete_prepare``, under the match lock): these steps run again, then the rest as for a repair cut later; the
GM is told which moves were completed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheets_gm.engine.ruleset import Roster
from sheets_gm.match.config import MatchConfig
from sheets_gm.match.match_roster import editor_emails, repair_roster
from sheets_gm.match.team_check import row_emails
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.backend import OpenedElsewhere
from sheets_gm.sync.command_journal import (
    begin_command,
    command_path,
    end_command,
    load_command,
    note_command,
    roll_back_init,
    settle_export,
)
from sheets_gm.sync.journal import journal_path
from sheets_gm.sync.lock import match_lock
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.sync.swaps import SwappedWorkbooksError
from sheets_gm.upkeep.engine_move import EngineMoveError, create_engine_file, move_engine
from sheets_gm.upkeep.swap_back import finish_swaps, put_back_swapped

PREPARE = "prepare"


@dataclass(frozen=True)
class Prepared:
    """The match's files in place for the repair: its spreadsheets, what was moved, and the roster it lays out."""

    sheets: MatchSheets
    roster: Roster
    swapped: list[str] = field(default_factory=list)  # a line for each workbook put back
    moved: str = ""  # the engine's move out of a file players open, in the GM's words
    settled: str = ""  # an export or an init --overwrite cut short, settled first


def prepare_repair(config: MatchConfig) -> Prepared:
    """Put the match's files in place for the repair, its journal kept before the first write (see the module);
    a ``prepare`` cut short is completed first. Refused before any write (swapped spreadsheets on Google, two
    engines, a workbook open in an office program), it leaves no journal."""
    journal = command_path(journal_path(config.path))
    left, settled = load_command(journal), ""
    if left is not None and left["kind"] == "repair" and left.get("phase") == PREPARE:
        if isinstance(left.get("swaps"), list):
            finish_swaps(journal, left["swaps"], parking=left.get("swapping") == "parking")
    else:
        for backend in open_match_sheets(config).write_order():  # refused before the journal
            if isinstance(backend, OpenedElsewhere):
                backend.refuse_if_open()
        settled = ("" if left is None else settle_export(journal, left) if left["kind"] == "export"
                   else roll_back_init(journal, left) if left["kind"] == "init" else "")
        begin_command(journal, "repair", "the repair", phase=PREPARE)
    created = create_engine_file(config)
    try:
        sheets, swapped = put_back_swapped(config, open_match_sheets(config), journal)
        move = move_engine(config, sheets)
    except (SwappedWorkbooksError, EngineMoveError):
        if not created:  # refused before its first write: nothing for the next command to complete
            end_command(journal)
        raise
    moved = "" if move is None else (f"Moved the engine out of {move.source} into {move.target} (tabs "
                                     f"{', '.join(move.tabs)}): the seed is no longer in a file players open. Keep "
                                     f"{move.target} to yourself")
    if moved:
        note_command(journal, moved=moved)
    if left is not None and left.get("phase") == PREPARE:  # what the cut repair moved is said now
        swapped = [str(line) for line in left.get("swapped", [])] + swapped
        moved = moved or str(left.get("moved") or "")
    return Prepared(sheets, repair_roster(config, sheets), swapped, moved, settled)


def complete_prepare(config: MatchConfig, *, lock_wait: float = 30.0) -> None:
    """Under the match lock (waited for ``lock_wait`` seconds): a repair cut in ``prepare`` has its steps
    completed, and its journal becomes the repair's own, naming what they moved, so that the command's settle
    (``life/settle.py``) runs the rest again whole and tells the GM. Nothing when no repair was cut there."""
    journal = command_path(journal_path(config.path))
    left = load_command(journal)
    if left is None or left["kind"] != "repair" or left.get("phase") != PREPARE:
        return
    with match_lock(config.lock_path, wait_seconds=lock_wait):
        left = load_command(journal)
        if left is None or left.get("phase") != PREPARE:  # completed meanwhile
            return
        prepared = prepare_repair(config)
        done = [f"swapped back: {line}" for line in prepared.swapped]
        done += [prepared.moved[0].lower() + prepared.moved[1:]] if prepared.moved else []
        note_command(journal, phase="", emails=editor_emails(config, prepared.roster),
                     member_emails=row_emails(prepared.roster), title=config.title, done=done)
