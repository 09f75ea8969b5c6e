"""One sync poll of a GvG match: answer every player, and resolve the turn when it is due.

Reads: one call per spreadsheet. An idle poll writes only feedback that changed (usually
nothing). A resolution writes one batch per spreadsheet: teams (archive + clear), board,
then the engine tab last, which is the commit (see docs/sync.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sheets_gm.engine.core.dice import TurnDice
from sheets_gm.rulesets.gvg.checks import CheckedOrders, check_orders
from sheets_gm.rulesets.gvg.enums import Status
from sheets_gm.rulesets.gvg.resolve import Resolution, resolve_turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.sheet.inputs import parse_ready
from sheets_gm.rulesets.gvg.sheet.positions import CaptainColumns, GvgPositions, TeamSheet
from sheets_gm.rulesets.gvg.sheet.render import board_grid, log_rows, move_roll, players_rows, status_line
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate, default_template
from sheets_gm.rulesets.gvg.state import GvgState, orders_to_json
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import CellValue, Grid, a1
from sheets_gm.sync.deadline import deadline_moment, describe_deadline
from sheets_gm.sync.record import EngineRecord, PendingGmEvents
from sheets_gm.sync.sheets import MatchSheets, WriteBatch
from sheets_gm.sync.snapshot import PlayerRow, Snapshot, TeamInput, read_snapshot

DeadlineRule = Callable[[datetime], str]


@dataclass
class PollReport:
    """What a poll did, for the command line and the tests."""

    turn: int
    resolved: bool = False
    reason: str = ""
    write_calls: int = 0
    feedback_written: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)
    waiting_for: list[str] = field(default_factory=list)
    ready: list[bool] = field(default_factory=list)
    finished: bool = False
    result: str = ""
    state: GvgState | None = None  # the match's state after this poll
    deadline: str = ""  # when the current turn's orders close ('' for no deadline)
    max_turns: int = 0
    force_refused: str = ""  # why a force for another turn was not applied ('' when none was refused)
    settings: GvgSettings | None = None  # the house rules the match was created with and keeps


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _deadline_passed(deadline: str, now: datetime) -> bool:
    moment = deadline_moment(deadline)
    return moment is not None and now >= moment


def idle_feedback(state: GvgState, name: str, roll: CellValue) -> str:
    """A player's feedback while no order is typed (also what a resolution leaves behind)."""
    if state.finished:
        return "The match is over."
    if state.player(name).status is Status.KNOCKED_DOWN:
        return f"💤 Knocked down: you skip turn {state.turn}."
    how = "you carry the tree" if roll == "carrier" else f"your roll is {roll}"
    return f"Waiting for your order for turn {state.turn} ({how})."


def player_feedback(team: TeamInput, checked: CheckedOrders, name: str, roll: CellValue, state: GvgState) -> str:
    """The feedback sentence of one player's row for the current turn."""
    if state.finished or state.player(name).status is Status.KNOCKED_DOWN:
        return idle_feedback(state, name, roll)
    if name not in team.raw(state.turn)["players"]:
        return idle_feedback(state, name, roll)
    parts = [f"✘ {p}" for p in team.problems.get(name, [])]
    for check in checked.for_subject(name):
        parts.append(("✔ " if check.accepted else "✘ ") + check.message)
    if not any(c.part in ("move", "teleport") for c in checked.for_subject(name)) and not team.problems.get(name):
        parts.append(f"✔ you stay on {state.player(name).at.label}")
    return " · ".join(parts)


def captain_feedback(team: TeamInput | None, checked: CheckedOrders | None, state: GvgState, team_name: str,
                     ready: bool) -> str:
    """The feedback sentence of a captain's row (``team`` None: nothing typed yet)."""
    if state.finished:
        return "The match is over."
    parts: list[str] = []
    if team is not None and checked is not None:
        parts += [f"✘ {p}" for p in team.problems.get("captain", [])]
        parts += [("✔ " if c.accepted else "✘ ") + c.message for c in checked.for_subject(team_name)]
    parts.append(f"Ready for turn {state.turn}." if ready else
                 f"Tick Ready when {team_name}'s orders for turn {state.turn} are in.")
    return " · ".join(parts)


def poll(sheets: MatchSheets, *, now: datetime, force: bool = False, template: SheetTemplate | None = None,
         next_deadline: DeadlineRule | None = None, dry_run: bool = False, turn: int | None = None) -> PollReport:
    """Read the match once, answer every row, resolve the turn if due, write back.

    ``force`` resolves the open turn even if it is not due; with ``turn``, only if the open
    turn is that one (a GM forcing the turn she saw must not force the next one, which
    another sync may have opened meanwhile: ``force_refused`` then says so).
    With ``dry_run`` nothing is written and nothing resolved: the report says what a poll
    would do (``reason`` is why the turn is due, '' when it is not)."""
    tpl = template or default_template()
    snap = read_snapshot(sheets, tpl)
    record = snap.record
    state = record.state
    report = PollReport(turn=state.turn, finished=state.finished, state=state, deadline=record.deadline,
                        max_turns=record.settings.max_turns, settings=record.settings)
    if force and turn is not None and turn != state.turn:
        force = False
        report.force_refused = (f"turn {turn} is not the open turn: turn {state.turn} is"
                                + (" (the match is over)" if state.finished else "")
                                + "; nothing was forced")
    if state.finished:
        report.result = status_line(tpl, state, record.settings.max_turns, "")
        return report
    rules = record.rules()
    dice = TurnDice(record.seed, state.turn)
    orders = snap.orders()
    checked = check_orders(rules, state, orders, dice)
    report.rejected = [(f"captain of {t.sheet.team}" if name == "captain" else name, problem)
                       for t in snap.teams for name, problems in t.problems.items() for problem in problems]
    report.rejected += [(c.subject, c.message) for c in checked.rejected]
    report.ready = snap.ready()
    report.waiting_for = [p.name for t in snap.teams for p in t.players
                          if p.name not in t.raw(state.turn)["players"]
                          and state.player(p.name).status is Status.ACTIVE]
    pending = any(t.pending is not None for t in snap.teams)
    if pending:
        report.reason = "completing a resolution that was interrupted"
    elif force:
        report.reason = "forced by the GM"
    elif all(report.ready):
        report.reason = "every captain is ready"
    elif _deadline_passed(record.deadline, now):
        report.reason = f"the deadline {describe_deadline(record.deadline)} has passed"
    if dry_run:
        return report
    batch = WriteBatch()
    if not report.reason:
        _feedback_writes(sheets, snap, checked, dice, batch, report)
        report.write_calls = batch.run(sheets.write_order())
        return report
    resolution = resolve_turn(rules, state, orders, dice)
    deadline = next_deadline(now) if next_deadline else ""
    new_record = replace(record, state=resolution.state, log_rows=record.log_rows + len(resolution.events),
                         deadline=deadline, gm_events=PendingGmEvents())
    _resolution_writes(sheets, snap, tpl, rules, orders_to_json(orders), resolution, new_record, batch)
    report.write_calls = batch.run(sheets.write_order())
    report.resolved = True
    report.state = resolution.state
    report.finished = resolution.state.finished
    report.result = status_line(tpl, resolution.state, record.settings.max_turns, deadline)
    return report


def _feedback_writes(sheets: MatchSheets, snap: Snapshot, checked: CheckedOrders, dice: TurnDice,
                     batch: WriteBatch, report: PollReport) -> None:
    """Feedback cells whose text changed, and stale orders archived and cleared."""
    state = snap.record.state
    for i, team in enumerate(snap.teams):
        backend = sheets.orders[i]
        sheet = team.sheet
        stale = team.stale(state.turn)
        for p in team.players:
            roll = move_roll(state, dice, state.player(p.name))
            if p in stale:
                text = (f"✘ This order was written for turn {p.for_turn}; turn {state.turn} is being played: "
                        "write it again.")
            else:
                text = player_feedback(team, checked, p.name, roll, state)
            if text != p.feedback:
                batch.put(backend, a1(sheet.orders_tab, sheet.feedback_cell(p.row)), [[text]])
                report.feedback_written += 1
        text = captain_feedback(team, checked, state, sheet.team, report.ready[i])
        if text != team.captain.feedback:
            cols = snap.positions.captain
            batch.put(backend, cols.cell(sheet, cols.feedback), [[text]])
            report.feedback_written += 1
        if stale:
            _archive_stale(batch, backend, sheet, state.turn, stale)
            for p in stale:
                batch.put(backend, sheet.order_cells(p.row), [["", "", ""]])


def _archive_stale(batch: WriteBatch, backend: SheetBackend, sheet: TeamSheet, turn: int,
                   stale: list[PlayerRow]) -> None:
    """Orders written for another turn go to column C of this turn's archive row (same call as the clear)."""
    kept = {p.name: {"for_turn": p.for_turn, "cells": p.cells} for p in stale}
    batch.put(backend, sheet.set_aside_cell(turn), [[_json({"turn": turn, "stale": kept})]])


def team_rolls_writes(batch: WriteBatch, backend: SheetBackend, sheet: TeamSheet, state: GvgState, dice: TurnDice,
                      status: str) -> None:
    """A team's orders tab as ``state`` shows it: each row's turn and roll, and the status line."""
    rows: Grid = [[state.turn, move_roll(state, dice, state.player(name))] for name in sheet.players]
    batch.put(backend, sheet.turn_and_roll_cells(), rows)
    batch.put(backend, sheet.status_cell(), [[status]])


def team_turn_writes(batch: WriteBatch, backend: SheetBackend, sheet: TeamSheet, captain_cols: CaptainColumns,
                     state: GvgState, dice: TurnDice, status: str, *, keep_ready: bool = False) -> None:
    """Start a team's turn in its orders tab: each row's turn, roll and feedback; the captain's row
    (Ready unticked, unless ``keep_ready``: the captain ticked it for this very turn already)."""
    team_rolls_writes(batch, backend, sheet, state, dice, status)
    feedback: Grid = [[idle_feedback(state, name, move_roll(state, dice, state.player(name)))]
                      for name in sheet.players]
    first, last = sheet.feedback_cell(sheet.first_row), sheet.feedback_cell(sheet.last_player_row)
    batch.put(backend, a1(sheet.orders_tab, f"{first}:{last}"), feedback)
    cols = captain_cols
    batch.put(backend, sheet.captain_turn_cell(), [[state.turn]])
    if not keep_ready:
        batch.put(backend, cols.cell(sheet, cols.ready), [[False]])
    batch.put(backend, cols.cell(sheet, cols.feedback),
              [[captain_feedback(None, None, state, sheet.team, False)]])


def board_writes(batch: WriteBatch, board: SheetBackend, pos: GvgPositions, rules: GvgRules, state: GvgState,
                 dice: TurnDice, status: str) -> None:
    """The board spreadsheet as ``state`` shows it: title and status line, the map, the players tab."""
    tpl = pos.template
    batch.put(board, pos.board_status_range(), [[tpl.headers.board], [status]])
    batch.put(board, pos.board_range(), board_grid(tpl, rules, state))
    batch.put(board, pos.players_range(len(state.players)), players_rows(state, dice))


def _resolution_writes(sheets: MatchSheets, snap: Snapshot, tpl: SheetTemplate, rules: GvgRules,
                       orders_json: dict[str, Any], res: Resolution, record: EngineRecord, batch: WriteBatch) -> None:
    old = snap.record
    turn = old.turn
    new = res.state
    next_dice = TurnDice(record.seed, new.turn)
    pos = snap.positions
    status = status_line(tpl, new, record.settings.max_turns, record.deadline)
    for i, team in enumerate(snap.teams):
        backend = sheets.orders[i]
        sheet = team.sheet
        raw = team.raw(turn)
        archived = _json(raw)
        batch.put(backend, sheet.pending_cells(), [[turn, archived]])
        history_row = sheet.history_range(turn)
        batch.put(backend, history_row, [[turn, archived]])
        recovering = team.pending is not None
        # Completing an interrupted resolution: the rows already say the next turn, and what players
        # typed since is for that turn. It is theirs: kept, never archived as stale nor cleared.
        typed_since = {p.name for p in team.players if recovering and p.typed and p.for_turn == new.turn}
        stale = [p for p in team.stale(turn) if p.name not in typed_since]
        if stale:
            _archive_stale(batch, backend, sheet, turn, stale)
        # Clear what was consumed (and stale rows); then every row moves to the next turn.
        for p in team.players:
            consumed = p.typed and p.for_turn in (turn, None) and not recovering
            if consumed or p in stale:
                batch.put(backend, sheet.order_cells(p.row), [["", "", ""]])
        if not recovering:
            cols = pos.captain
            batch.put(backend, cols.skills_range(sheet), [[""] * len(cols.skills)])
        # The interrupted write unticked Ready for the next turn: a tick found now was given since.
        keep_ready = recovering and team.captain.for_turn == new.turn and parse_ready(team.captain.ready)
        team_turn_writes(batch, backend, sheet, pos.captain, new, next_dice, status, keep_ready=keep_ready)
    board_writes(batch, sheets.board, pos, rules, new, next_dice, status)
    if res.events:
        batch.put(sheets.board, pos.log_range(old.log_rows, len(res.events)), log_rows(res.events))
    history = {"turn": turn, "orders": orders_json, "state_before": old.state.to_json(),
               "log_from": old.log_rows, "events": len(res.events), "gm_events": old.gm_events.to_json()}
    batch.put(sheets.engine, pos.engine_history_range(turn), [[turn, _json(history)]])
    batch.put(sheets.engine, pos.engine_value_range(), record.values())
