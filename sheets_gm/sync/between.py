"""Changing a match between two turns (GM events, undo): everything the new state shows, the engine last.

Like a resolution, one write call per spreadsheet in the order teams, board, engine: the
engine tab (state, turn, log length, pending GM events) is the commit. A crash before it
leaves the match as it was; the orders tabs and the board are drawn from the engine's state,
so the next adjust, undo or resolution draws them again (or the GM runs the command again).
"""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.engine.core.dice import TurnDice
from sheets_gm.engine.core.events import Event
from sheets_gm.rulesets.gvg.sheet.render import log_rows, status_line
from sheets_gm.rulesets.gvg.state import GvgState
from sheets_gm.sync.poll import board_writes, team_rolls_writes, team_turn_writes
from sheets_gm.sync.record import EngineRecord, PendingGmEvents
from sheets_gm.sync.sheets import MatchSheets, WriteBatch
from sheets_gm.sync.snapshot import Snapshot


class GmOpError(ValueError):
    """A GM operation that cannot be done now: nothing to undo, the match over, a resolution interrupted."""


def check_between_turns(snap: Snapshot) -> None:
    """Refuse to change a match whose last resolution was interrupted: its orders are consumed but not saved."""
    interrupted = [t.sheet.team for t in snap.teams if t.pending is not None]
    if interrupted:
        raise GmOpError(
            f"the resolution of turn {snap.record.turn} was interrupted ({' and '.join(interrupted)}'s orders are "
            "archived but the turn is not saved); run `sheets-gm sync` to complete it first — nothing was written"
        )


def write_between_turns(sheets: MatchSheets, snap: Snapshot, state: GvgState, gm_events: PendingGmEvents,
                        events: list[Event], batch: WriteBatch, *, new_turn: bool) -> tuple[EngineRecord, int]:
    """Write the match now at ``state``: orders tabs, board, ``events`` appended to the log, engine last.

    ``batch`` may already hold the caller's own cells. With ``new_turn`` each team's turn starts
    afresh (feedback and the captain's Ready box reset); otherwise only rolls and the status line
    change. Returns the new engine record and the write calls made (one per spreadsheet)."""
    old = snap.record
    record = replace(old, state=state, log_rows=old.log_rows + len(events), gm_events=gm_events)
    pos = snap.positions
    dice = TurnDice(record.seed, state.turn)
    status = status_line(pos.template, state, record.settings.max_turns, record.deadline)
    for i, team in enumerate(pos.teams):
        if new_turn:
            team_turn_writes(batch, sheets.orders[i], team, pos.captain, state, dice, status)
        else:
            team_rolls_writes(batch, sheets.orders[i], team, state, dice, status)
    board_writes(batch, sheets.board, pos, record.rules(), state, dice, status)
    if events:
        batch.put(sheets.board, pos.log_range(old.log_rows, len(events)), log_rows(events))
    batch.put(sheets.engine, pos.engine_value_range(), record.values())
    return record, batch.run(sheets.write_order())
