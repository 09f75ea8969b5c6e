"""Undoing the last resolved turn: the state before it restored, its orders back in their cells, logged.

The engine's history row of the turn holds the state it was resolved from and the GM events
recorded before it; each team's archive row holds the cells it consumed. Nothing is deleted:
the log gets an "undo" row after the others, and orders typed since are set aside in the
archive (column C) before their cells are overwritten, in the same write.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.core.events import Event
from sheets_gm.rulesets.gvg.enums import EventKind
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate, default_template
from sheets_gm.rulesets.gvg.state import GvgState
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sync.between import GmOpError, check_between_turns, write_between_turns
from sheets_gm.sync.record import PendingGmEvents
from sheets_gm.sync.sheets import MatchSheets, ReadBatch, WriteBatch
from sheets_gm.sync.snapshot import Snapshot, TeamInput, read_snapshot


@dataclass(frozen=True, slots=True)
class UndoReport:
    """What an undo did: the turn to be played again, orders put back, GM events dropped, the calls made."""

    turn: int
    orders_restored: int
    set_aside: int
    dropped_gm_events: int
    state: GvgState
    write_calls: int


def undo_turn(sheets: MatchSheets, reason: str, template: SheetTemplate | None = None) -> UndoReport:
    """Take back the last resolved turn (a finished match reopens); raise GmOpError if there is none."""
    if not reason.strip():
        raise GmOpError("an undo needs a reason; it is written to the log")
    tpl = template or default_template()
    snap = read_snapshot(sheets, tpl)
    check_between_turns(snap)
    record = snap.record
    turn = record.last_resolved
    if turn < 1:
        raise GmOpError("nothing to undo: no turn of this match has been resolved yet")
    pos = snap.positions
    reads = ReadBatch()
    reads.ask(sheets.engine, pos.engine_history_range(turn))
    for i, sheet in enumerate(pos.teams):
        reads.ask(sheets.orders[i], sheet.history_range(turn))
        reads.ask(sheets.orders[i], sheet.set_aside_cell(record.turn))
    reads.run(sheets.write_order())

    entry = _json_cell(reads.get(sheets.engine, pos.engine_history_range(turn)), turn,
                       f"tab {tpl.tabs.engine!r} (history row of turn {turn})")
    try:
        state = GvgState.from_json(entry["state_before"])
        gm_events = PendingGmEvents.from_json(entry.get("gm_events"))
    except (KeyError, ValueError, TypeError) as exc:
        raise GmOpError(f"the engine's history of turn {turn} cannot be read ({exc}); nothing was written") from None

    batch = WriteBatch()
    restored = set_aside = 0
    for i, team in enumerate(snap.teams):
        backend = sheets.orders[i]
        archived = _json_cell(reads.get(backend, team.sheet.history_range(turn)), turn,
                              f"tab {team.sheet.archive_tab!r} row {team.sheet.history_row(turn)}")
        displaced = _restore_cells(batch, backend, snap, team, archived)
        restored += len(archived.get("players", {}))
        set_aside += len(displaced)
        if displaced:
            cell = team.sheet.set_aside_cell(record.turn)
            batch.put(backend, cell, [[_merged_set_aside(reads.get(backend, cell), record.turn, displaced)]])
        # The pending area names the undone turn: cleared, or the next sync would resolve it from there.
        batch.put(backend, team.sheet.pending_cells(), [["", ""]])

    dropped = len(record.gm_events.events)
    text = f"GM undoes turn {turn}: {reason.strip()}. The match is back to before turn {turn}; its orders are back"
    if dropped:
        text += f"; {dropped} GM event(s) recorded after it are dropped"
    undo = Event(turn, EventKind.UNDO, text + ".", {"turn": turn, "reason": reason.strip(), "dropped": dropped})
    new, calls = write_between_turns(sheets, snap, state, gm_events, [undo], batch, new_turn=True)
    return UndoReport(turn, restored, set_aside, dropped, new.state, calls)


def _json_cell(grid: Grid, turn: int, where: str) -> dict[str, Any]:
    """The JSON in column B of a history row (column A holds its turn), checked to be that turn's."""
    row = grid[0] if grid else []
    try:
        data = json.loads(str(row[1])) if len(row) > 1 else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or data.get("turn") != turn:
        raise GmOpError(f"{where} does not hold turn {turn}'s record; undo needs it (restore it from an export) "
                        "— nothing was written")
    return data


def _cells(values: list[CellValue]) -> list[CellValue]:
    """Cells as written back: an empty cell is ''."""
    return ["" if v is None else v for v in values]


def _restore_cells(batch: WriteBatch, backend: SheetBackend, snap: Snapshot, team: TeamInput,
                   archived: dict[str, Any]) -> dict[str, Any]:
    """Put the consumed cells back into a team's rows; returns what they held instead (to set aside)."""
    sheet = team.sheet
    displaced: dict[str, Any] = {}
    players: dict[str, list[CellValue]] = archived.get("players", {})
    for p in team.players:
        cells = _cells(players.get(p.name, ["", "", ""]))
        if p.typed and _cells(p.cells) != cells:
            displaced[p.name] = {"for_turn": p.for_turn, "cells": p.cells}
        batch.put(backend, sheet.order_cells(p.row), [cells])
    cols = snap.positions.captain
    skills = (_cells(archived.get("captain", {}).get("skills", [])) + [""] * len(cols.skills))[: len(cols.skills)]
    typed = _cells(team.captain.skills)
    if any(typed) and typed != skills:
        displaced["captain"] = {"for_turn": team.captain.for_turn, "skills": team.captain.skills}
    batch.put(backend, cols.skills_range(sheet), [skills])
    return displaced


def _merged_set_aside(grid: Grid, turn: int, displaced: dict[str, Any]) -> str:
    """The set-aside cell with ``displaced`` added to what it already held for ``turn``."""
    kept: dict[str, Any] = {}
    found = grid[0][0] if grid and grid[0] else None
    try:
        old = json.loads(str(found)) if found not in (None, "") else None
    except json.JSONDecodeError:
        old = None
    if isinstance(old, dict) and old.get("turn") == turn and isinstance(old.get("stale"), dict):
        kept = dict(old["stale"])
    kept.update(displaced)
    return json.dumps({"turn": turn, "stale": kept}, separators=(",", ":"), ensure_ascii=False)
