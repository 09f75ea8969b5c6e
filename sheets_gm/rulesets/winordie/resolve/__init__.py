"""Resolving a window: a deployment, or the acting player's rows with the opponent's standing reactions.

An actions window runs, in order: surrenders; the acting player's start of turn (once: command
tokens recovered, +1 crystal per mine one of her units stands on); each of her rows, which is
checked (a refused row changes nothing and spends no token), then offered to the opponent's
standing reactions (the first that matches fires, spends her token, reveals her unit, records
the ability for the GM and stops the rows: they wait for the next sync), then resolved; and,
when her rows are all resolved and her turn ends, fatigue +1. A game that ends stops
everything after it. ``check`` and ``resolve`` both run this on a copy of the state.

One module per part: ``deploy``, a turn's start and end (``upkeep``), whether a row is ``legal``, the ``actions``
themselves, the opponent's ``reactions``; ``result`` is what a window did.
"""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.ending import check_defeat, finish_game
from sheets_gm.rulesets.winordie.enums import (
    Ending,
    EventKind,
    Phase,
)
from sheets_gm.rulesets.winordie.orders import Action, WodOrders, action_row, numbered
from sheets_gm.rulesets.winordie.resolve.actions import bound_change, cancel_action, execute
from sheets_gm.rulesets.winordie.resolve.deploy import deploy
from sheets_gm.rulesets.winordie.resolve.legal import Refusal, check_action
from sheets_gm.rulesets.winordie.resolve.reactions import (
    GM_APPLIES,
    STAND_IN_APPLIES,
    fallen_reactions,
    fire_reaction,
    standing_reactions,
    weigh_passive,
)
from sheets_gm.rulesets.winordie.resolve.result import TurnResult
from sheets_gm.rulesets.winordie.resolve.upkeep import again, end_of_turn, start_of_turn
from sheets_gm.rulesets.winordie.rules import WodRules
from sheets_gm.rulesets.winordie.stand_in import STAND_IN_GOES_ON, settles
from sheets_gm.rulesets.winordie.state import WodState


def resolve_turn(rules: WodRules, state: WodState, orders: WodOrders, dice: kit.TurnDice) -> kit.Resolution[WodState]:
    """The open window resolved (``play_window``): the acting player's rows refused or stopped by a reaction are
    ``unused`` (they wait on her sheet while her turn stays open), with a verdict per row, reaction and
    placement."""
    result = play_window(rules, state, orders, dice)
    # rows of a game that ended here are not kept: the next game (of a best of three) starts with empty rows
    same_game = result.state.game == state.game and result.state.phase is not Phase.OVER
    kept = result.unused if same_game else {}
    return kit.Resolution(result.state, result.events, {state.acting: kept} if kept else {}, result.verdicts)


def play_window(rules: WodRules, state: WodState, orders: WodOrders, dice: kit.TurnDice) -> TurnResult:
    """Resolve the open window's orders on a copy of ``state`` (see the module notes), saying how far the acting
    player's rows went before a reaction stopped them."""
    result = TurnResult(state.copy())
    new = result.state
    if new.phase is Phase.OVER:
        return result
    if new.phase is Phase.DEPLOY:
        deploy(rules, new, orders, result)
        return result
    for seat in (new.acting, new.other(new.acting)):
        if seat in orders.surrender and new.phase is Phase.ACTIONS:
            result.events.append(kit.Event(new.turn, EventKind.SURRENDER, f"{seat} surrenders.", {"player": seat}))
            finish_game(rules, new, new.other(seat), Ending.SURRENDER, result.events)
            return result
    if not new.started:
        start_of_turn(rules, new, result.events)
    reactor = new.other(new.acting)
    standing = standing_reactions(rules, new, reactor, orders.reactions.get(reactor, ()), result.verdicts)
    game = new.game
    for seat, rows in orders.actions.items():
        if seat != new.acting and rows:
            result.verdicts += [kit.Verdict(seat, action_row(n), a.kind.value, False,
                                            f"Row {n}: it is {new.acting}'s turn; your rows resolve in your own turn",
                                            a.unit or seat)
                                for n, a in numbered(rows)]
    for row, action in numbered(orders.actions.get(new.acting, ())):
        if new.phase is not Phase.ACTIONS or new.game != game:
            result.verdicts.append(_row_verdict(new.acting, row, action, True,
                                           f"Row {row}: not resolved: the game is over."))
            continue
        if result.stopped:
            result.verdicts.append(_row_verdict(new.acting, row, action, True,
                                           f"Row {row}: waiting for the reaction above; it resolves at the next "
                                           "sync."))
            result.unused[action_row(row)] = f"{result.stopped_by} {result.stopped_verb} a row above" + (
                "; it goes on at the next sync" if result.goes_on else again(rules))
            continue
        checked = check_action(rules, new, action)
        if isinstance(checked, Refusal):
            result.done = row
            result.verdicts.append(_row_verdict(new.acting, row, action, False, f"Row {row} "
                                           f"({action.describe()}): {checked}"))
            result.events.append(kit.Event(new.turn, EventKind.REFUSED, f"Row {row} refused: {checked}",
                                           {"row": row}, audience=frozenset({new.acting})))
            result.unused[action_row(row)] = f"refused: {checked}"  # kept to mend if her turn stays open (a Go)
            continue
        # a reaction of the opponent and a passive of the acting unit put the row before the GM, both at once: one
        # attack's card effects are ruled together (a Frenzy weighed with the Brace whose counter may damage it)
        first = new.next_pending
        fired = fire_reaction(rules, new, action, standing, result.events, result.verdicts)
        passive = weigh_passive(new, action, result.events, reacted=bool(fired))
        if fired or passive:
            result.stopped_by = " and ".join(s for s in (fired, passive) if s)
            result.stopped_verb = "reacted before" if fired else "(a passive) stopped"  # a passive does not react
            _stopped(rules, new, result, row, action, fired, passive, first)
            continue
        result.done = row
        change = bound_change(rules, new, action, new.changes.pop(action.unit, None) if action.unit else None,
                              result.events)
        if change is not None and change.cancel:
            result.verdicts.append(_row_verdict(new.acting, row, action, True,
                                           f"Row {row}: cancelled by the GM ({change.reason}): it does nothing."))
            cancel_action(new, action, change, result.events)
            continue
        message = execute(rules, new, action, checked, dice, result.events, change)
        result.verdicts.append(_row_verdict(new.acting, row, action, True, f"Row {row}: {message}"))
        check_defeat(rules, new, result.events)
    fallen_reactions(new, reactor, standing, result.verdicts)
    if new.acting not in orders.hold and not result.stopped and new.phase is Phase.ACTIONS and new.game == game:
        end_of_turn(rules, new, result.events)
    return result


def _stopped(rules: WodRules, state: WodState, result: TurnResult, row: int, action: Action, fired: str,
             passive: str, first: int) -> None:
    """Row ``row`` stopped by the reaction ``fired`` or the passive ``passive`` (the GM's list entries from number
    ``first``): it waits, saying why and what comes next. Where the stand-in GM of a practice match settles every
    entry of the stop after this resolution (``stand_in.settles``), the row says so and goes on at the next sync: her
    Ready stays ticked (the seat row is kept), nothing for her to tick again."""
    by_stand_in = settles(rules, state, first)
    if fired and passive:
        kept = f"{fired} reacted before this row, and {passive} may change it"
        said = f"{fired} reacts first and {passive} may change this attack; the GM rules both at once"
    elif fired:
        kept, said = f"{fired} reacted before this row", f"{fired} reacts first; the GM applies the reaction's effect"
    else:
        kept = f"{passive} may change this attack: the GM weighs it first"
        said = f"{passive} may change this attack; the GM applies it (or not)"
    if by_stand_in:
        # the reaction's own row said the GM applies its effect: the stand-in GM does, after this resolution
        result.verdicts[:] = [replace(v, message=v.message.replace(GM_APPLIES, STAND_IN_APPLIES))
                              if v.part == "reaction" and v.seat != state.acting else v for v in result.verdicts]
        kept = f"{fired or passive} stopped this row: {STAND_IN_GOES_ON}"
        said = f"{fired or passive} stopped it; the stand-in GM applies the effect after this resolution"
        result.unused[state.acting] = f"{fired or passive} stopped a row: {STAND_IN_GOES_ON}"
        result.goes_on = True
    result.unused[action_row(row)] = kept + ("" if by_stand_in else again(rules))
    result.verdicts.append(_row_verdict(state.acting, row, action, True,
                                        f"Row {row}: waiting: {said} and this row resolves at the next sync."))


def _row_verdict(seat: str, row: int, action: Action, accepted: bool, message: str) -> kit.Verdict:
    """The answer to the action typed in row ``row``: named after the row (its answer shows there), about its unit."""
    return kit.Verdict(seat, action_row(row), action.kind.value, accepted, message, action.unit or seat)
