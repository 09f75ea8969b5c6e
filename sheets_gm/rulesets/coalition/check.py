"""The verdict of every order and every judge's result, before the deadline: what it will do, or why not."""

from __future__ import annotations

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import BattleType, OrderWord, Phase
from sheets_gm.rulesets.coalition.orders import ArmyIndex, Move
from sheets_gm.rulesets.coalition.resolve.judging import CheckedResult, check_result
from sheets_gm.rulesets.coalition.resolve.work import read_orders
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import CoalitionOrders, CoalitionState


def describe(board: Board, move: Move, state: CoalitionState | None = None) -> str:
    """What an accepted order will do, in a sentence for the row's feedback cell (then how it was read, when it
    was written loosely); ``state`` says where a transfer's receiving army stands."""
    said = _doing(board, move, state)
    return f"{said} · {move.note}" if move.note else said


def _doing(board: Board, move: Move, state: CoalitionState | None) -> str:
    if move.word is OrderWord.TRANSFER and not move.moves:
        receiver = state.army(move.target or "") if state is not None else None
        there = f" on {board.short(receiver.at)}" if receiver is not None else ""
        return (f"{move.army} holds at {board.short(move.start)} and transfers "
                f"{'/'.join(map(str, move.units or ()))} to {move.target}{there}")
    if not move.moves:
        doing = {OrderWord.INTERCEPT: f"holds and intercepts {move.target or 'the first enemy passing'}",
                 OrderWord.HEAL: "holds and asks to heal",
                 OrderWord.GARRISON: "holds its portal as a garrison"}.get(move.word, "holds")
        return f"{move.army} {doing} at {board.short(move.start)}"
    route = " > ".join(board.short(p) for p in move.route) if move.route else \
        f"{board.short(move.end)} (route drawn among the shortest)"
    word = "" if move.word is OrderWord.NONE else f" and {move.word.value}s" + (f" {move.target}" if move.target
                                                                                  else "")
    word = word.replace("garrisons", "garrisons the portal").replace("supports", "supports")
    bump = f"; if it wins, it leaves to {board.short(move.bump)} (its joint engage bump)" if move.bump else ""
    return f"{move.army} moves {board.short(move.start)} > {route}{word}{bump}"


def describe_result(settings: CoalitionSettings, checked: CheckedResult) -> str:
    """What an accepted result will apply, in a sentence for the battle row's feedback: the winner, the
    losses, the points, the kill and who tried one."""
    b, r = checked.battle, checked.result
    if checked.winner is None:
        parts = [f"{b.at}: the battle goes on as a siege"]
    else:
        side = checked.winner.value
        who = f"{r.winner} ({side})" if r.winner in b.armies else side
        vp = settings.battle_win_vp if r.vp is None else r.vp
        parts = [f"{b.at}: {who} wins, +{vp} VP"]
        if r.stratless:
            parts.append(f"{r.stratless} stratless")
    lost = [f"{name} loses {'/'.join(map(str, units))}" for name, units in r.losses.items() if any(units)]
    parts.append("; ".join(lost) if lost else "no losses entered")
    if r.kill and checked.killer and checked.victim:
        parts.append(f"kill by {checked.killer} on {checked.victim}: {r.kill}")
    if r.failed_kill:
        parts.append("; ".join(f"{n} tried a kill and loses its squad" for n in r.failed_kill))
    raider = b.armies[0]
    if b.type is BattleType.RAID and checked.killer == raider and not r.kill:
        parts.append(f"warning: {raider} wins its raid but no Kill is entered; a raider attempts a kill (choose "
                     "killed, escaped, squad_lost or roll, or leave it if the raider truly made none)")
    return " · ".join(parts)


def check_orders(board: Board, settings: CoalitionSettings, state: CoalitionState,
                 orders: CoalitionOrders) -> list[kit.Verdict]:
    """A verdict per army order (orders window) or per battle result (results window)."""
    verdicts: list[kit.Verdict] = []
    if state.phase is Phase.ORDERS:
        read = read_orders(board, settings, state, orders)
        for name, move in read.moves.items():
            verdicts.append(kit.Verdict(move.side.value, name, "order", True, describe(board, move, state)))
        for name, (seat, refusal) in read.refused.items():
            verdicts.append(kit.Verdict(seat, name, "order", False, refusal.message))
        for seat, refusal in read.foreign:
            verdicts.append(kit.Verdict(seat, refusal.army, "order", False, refusal.message))
        for seat in orders.orders:
            if seat not in ("coalition", "phyrexia") and orders.orders[seat]:
                verdicts.append(kit.Verdict(seat, seat, "order", False,
                                            f"{seat} writes no movement orders; the sides coalition and phyrexia do"))
        if orders.results:
            verdicts.append(kit.Verdict(
                kit.JUDGE, kit.JUDGE, "result", False,
                f"results are entered in the results window, after the turn {state.turn} deadline"))
    elif state.phase is Phase.RESULTS:
        index = ArmyIndex(state)
        for where, result in orders.results.items():
            checked = check_result(board, settings, state, where, result, index)
            if isinstance(checked, CheckedResult):
                verdicts.append(kit.Verdict(kit.JUDGE, where, "result", True, describe_result(settings, checked)))
            else:
                verdicts.append(kit.Verdict(kit.JUDGE, where, "result", False, checked))
        if any(orders.orders.values()):
            verdicts.append(kit.Verdict(kit.JUDGE, kit.JUDGE, "order", False,
                                        f"turn {state.turn}'s orders deadline has passed: orders are not read now"))
    return verdicts
