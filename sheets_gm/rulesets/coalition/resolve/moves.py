"""Movement adjudication at the orders deadline, in the rulings' order: raids, intercepts, all other
moves at once, mercenaries; then the battles are announced with their weather.

Every army ends with one result code (``ResultCode``). The work is linear in the number of
armies: orders are indexed by square (who ends where, whose route passes where) and a
failed move only re-examines the moves into the square it stays on.
"""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import (
    EventKind,
    OrderWord,
    Phase,
    ResultCode,
)
from sheets_gm.rulesets.coalition.forum import dice_event, end_words
from sheets_gm.rulesets.coalition.orders import Move
from sheets_gm.rulesets.coalition.resolve.announce import announce_battles, move_reports
from sheets_gm.rulesets.coalition.resolve.intercepts import resolve_intercepts, resolve_mutual_engages
from sheets_gm.rulesets.coalition.resolve.other_moves import resolve_other_moves
from sheets_gm.rulesets.coalition.resolve.raids import resolve_raids
from sheets_gm.rulesets.coalition.resolve.reinforcements import resolve_mercenaries, resolve_transfers
from sheets_gm.rulesets.coalition.resolve.work import MoveWork, read_orders, with_route
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import (
    CoalitionOrders,
    CoalitionState,
)


def resolve_orders(board: Board, settings: CoalitionSettings, state: CoalitionState, orders: CoalitionOrders,
               dice: kit.TurnDice) -> tuple[CoalitionState, list[kit.Event]]:
    """The orders window resolved: movement, battles announced; the state waits for the judge's results
    (or, with no battle open, has already run the end of the turn in ``endturn``)."""
    read = read_orders(board, settings, state, orders)
    armies = state.by_name()
    t = MoveWork(board, settings, dice, armies, {n: a.at for n, a in armies.items()},
              {n: ResultCode.HELD for n in armies}, {}, {b.at: b for b in state.battles})
    turn = state.turn
    for name, (_seat, refusal) in read.refused.items():
        t.code[name] = ResultCode.VOID
        t.note[name] = refusal.message
    movers: dict[str, Move] = {}
    for name, move in read.moves.items():
        if move.moves:
            movers[name] = with_route(t, move, turn)
    resolve_raids(t, movers, turn)
    ordered = {n: m.target for n, m in read.moves.items() if m.word is OrderWord.INTERCEPT}
    resolve_intercepts(t, movers, ordered, turn)
    resolve_mutual_engages(t, movers)
    resolve_other_moves(t, movers, turn)
    resolve_transfers(t, read.moves, turn)
    resolve_mercenaries(t, state, turn)
    announced = announce_battles(t, state, turn)
    fought = sorted({n for b in t.battles.values() for n in b.armies})
    new_armies = tuple(a if t.at[a.name] == a.at and t.armies[a.name] is a else
                       replace(a, at=t.at[a.name], units=t.armies[a.name].units) for a in state.armies)
    reports = move_reports(t, state, read)
    for r in reports:
        if r.code is ResultCode.VOID:
            t.events.append(kit.Event(turn, EventKind.ORDER, f"{r.army}: order refused ({r.note})",
                                      {"army": r.army, "code": r.code.value}, audience=frozenset({r.side.value})))
        elif r.order or r.code is not ResultCode.HELD:
            text = f"{r.army}: {r.code.value}" + end_words(r) + (f" ({r.note})" if r.note else "")
            t.events.append(kit.Event(turn, EventKind.ORDER, text, {"army": r.army, "code": r.code.value,
                                                                 "start": r.start, "end": r.end}))
    logged = dice_event(turn, dice)
    if logged is not None:
        t.events.append(logged)
    heal = tuple(sorted(n for n, m in read.moves.items() if m.word is OrderWord.HEAL))
    new = state.with_(
        armies=new_armies, battles=tuple(sorted(t.battles.values(), key=lambda b: board.order[b.at])),
        announced=announced, movement=reports, turn_start={a.name: a.at for a in state.armies},
        fought=tuple(fought), heal_requests=heal, phase=Phase.RESULTS, outcomes=())
    if not any(b.announced for b in new.battles):
        from sheets_gm.rulesets.coalition.resolve.upkeep import end_turn  # the end of turn runs now: no judge window
        new, more = end_turn(board, settings, new)
        t.events.extend(more)
    return new, t.events
