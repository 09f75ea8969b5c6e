"""GM events between turns (archery duels, corrections), applied to a match in its sheets and logged.

Each event is kept in the engine tab's pending GM events until the next resolution moves
them into that turn's history entry, so a replay applies them again (see docs/sync.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.engine.core.events import Event
from sheets_gm.rulesets.gvg.gm import apply_gm_event
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate, default_template
from sheets_gm.rulesets.gvg.state import GmEvent, GvgState
from sheets_gm.sync.between import GmOpError, check_between_turns, write_between_turns
from sheets_gm.sync.sheets import MatchSheets, WriteBatch
from sheets_gm.sync.snapshot import read_snapshot


@dataclass(frozen=True, slots=True)
class AdjustReport:
    """What an adjustment did: the log lines written, the new state, the write calls made."""

    events: list[Event]
    state: GvgState
    write_calls: int


def adjust_match(sheets: MatchSheets, gm_events: Sequence[GmEvent],
                 template: SheetTemplate | None = None) -> AdjustReport:
    """Apply GM events to the match, in order, all or none; log them and write the match.

    Raises GmEventError (a bad event: nothing written) or GmOpError (the match cannot change now)."""
    if not gm_events:
        raise GmOpError("nothing to change: give coins, HP, a position or an archery duel")
    tpl = template or default_template()
    snap = read_snapshot(sheets, tpl)
    check_between_turns(snap)
    record = snap.record
    if record.state.finished:
        raise GmOpError(f"the match is over (turn {record.turn}); undo its last turn first to change it")
    rules = record.rules()
    state = record.state
    log: list[Event] = []
    for event in gm_events:
        state, events = apply_gm_event(rules, state, event)
        log += events
    pending = record.gm_events.then(record.state, gm_events)
    new, calls = write_between_turns(sheets, snap, state, pending, log, WriteBatch(), new_turn=False)
    return AdjustReport(log, new.state, calls)
