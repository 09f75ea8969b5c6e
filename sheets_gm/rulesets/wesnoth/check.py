"""Checking a Wesnoth player's rows: the verdicts resolving them in order gives, on a copy of the state.

Each row is checked on the board as the rows before it leave it (a unit moved away frees a hex, a
recruit spends gold), so the check is the resolution itself, keeping only its verdicts. It runs on blind dice
(``TurnDice.blinded``): the feedback written before the turn resolves tells no roll. A fight is announced, not
fought (nobody is hurt or killed, and the rows after it are judged as if it changed nothing), a rest says what
each roll would heal, and an advancement on a kill is judged when the fight is fought.
"""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.orders import TurnOrders
from sheets_gm.rulesets.wesnoth.resolve import resolve_turn
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import WesnothState

#: A move, recruit or advancement the check accepts is one that will be made: said so before anything happened (the
#: resolution says what did).
_WILL = (("moved to ", "will move to "), ("stopped on ", "will stop on "), ("recruited ", "will recruit "),
         ("advanced to ", "will advance to "))
_SAID_BEFORE = frozenset({"move", "recruit", "advance"})


def will_happen(message: str) -> str:
    """A move's, recruit's or advancement's verdict said before it is made.

    >>> will_happen("moved to P19 (4 moves)")
    'will move to P19 (4 moves)'
    >>> will_happen("recruited Ann-R1 (Thief) on B2 for 3 gold")
    'will recruit Ann-R1 (Thief) on B2 for 3 gold'
    >>> will_happen("Thief costs 4 gold; Ann has 3")
    'Thief costs 4 gold; Ann has 3'
    """
    for done, will in _WILL:
        if message.startswith(done):
            return will + message[len(done):]
    return message


#: The parts whose refusal a fight before them may undo: a kill frees a hex and its zone of control (a move, an attack
#: from the hex reached, a conquest) and pays gold (a recruit). No fight makes a unit, gives it back its action or
#: changes what a row's own unit is (an advancement, a weapon): those refusals stand.
_A_FIGHT_MAY_CHANGE = frozenset({"move", "attack", "recruit", "conquest"})


def after_the_fights(message: str) -> str:
    """A refusal of a row after a fight, said as one the fight may change (a kill frees a hex, pays gold, removes a
    target): the blind check judges it on the board as it stands before the fight, the resolution as it is then.

    >>> after_the_fights("P19 is occupied by Bo-R3")
    'judged when the fights above are fought (as the board stands before them: P19 is occupied by Bo-R3)'
    """
    return f"judged when the fights above are fought (as the board stands before them: {message})"


def check_orders(rules: WesnothRules, state: WesnothState, orders: TurnOrders, dice: kit.TurnDice) -> list[kit.Verdict]:
    """A verdict per part of every row (``state`` unchanged), on blind dice: a move accepted said as one that will be
    made, and a refusal after a fight as one that waits for it where the fight can change it (the row is not held
    back: its fate is the dice's); a refusal no fight above can change (an impassable hex, a target out of reach
    whoever dies) stays a refusal."""
    blind = dice.blinded()
    out: list[kit.Verdict] = []
    fighters: set[str] = set()  # every unit of the fights above the row
    for v in resolve_turn(rules, state, orders, blind).verdicts:
        if v.part in _SAID_BEFORE and v.accepted:
            v = replace(v, message=will_happen(v.message))
        elif fighters and not v.accepted and v.part in _A_FIGHT_MAY_CHANGE \
                and _a_fight_may_change(rules, state, orders, blind, v, frozenset(fighters)):
            v = replace(v, accepted=True, message=after_the_fights(v.message))
        if v.part == "attack" and v.accepted:
            fighters |= _fighters(state, orders, v.subject)
        out.append(v)
    return out


def _fighters(state: WesnothState, orders: TurnOrders, attacker: str) -> set[str]:
    """The units of the fight ``attacker``'s row announces: the attacker and its target (named by id or by hex)."""
    target = next((r.attack for r in orders.rows if r.unit == attacker and r.attack), "")
    defender = state.unit(target) or next((u for u in state.units if u.at.label.lower() == target.lower()), None)
    return {attacker, *([defender.id] if defender is not None else [])}


def _a_fight_may_change(rules: WesnothRules, state: WesnothState, orders: TurnOrders, dice: kit.TurnDice,
                        refused: kit.Verdict, fighters: frozenset[str]) -> bool:
    """Whether a fight above may change ``refused``: a recruit's gold (a kill pays), or any refusal that is not the
    same on the board with every unit of those fights gone (the most a fight can change: a kill frees a hex, its
    zone of control, a village)."""
    if refused.part == "recruit":
        return True
    gone = state.evolve(units=tuple(u for u in state.units if u.id not in fighters))
    again = next((v for v in resolve_turn(rules, gone, orders, dice).verdicts
                  if (v.seat, v.subject, v.part) == (refused.seat, refused.subject, refused.part)), None)
    return again is None or again.accepted or again.message != refused.message
