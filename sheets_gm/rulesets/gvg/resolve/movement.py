"""The movement phase: every accepted move at once, then a carrier who reached home wins the match."""

from __future__ import annotations

from functools import partial

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.words import counted
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.enums import EventKind
from sheets_gm.rulesets.gvg.resolve.upkeep import finish
from sheets_gm.rulesets.gvg.resolve.work import _ACTIVE, _MOVED, Turn
from sheets_gm.rulesets.gvg.rules import Reach

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_TELEPORTED = EventKind.TELEPORTED
_TREE_RETURNED = EventKind.TREE_RETURNED


def movement_phase(work: Turn) -> None:
    """Every accepted move at once: a ballista teleport spends a charge, a move goes to its destination, a carried
    tree goes along."""
    st = work.state
    reaches, orders, dice = work.checked.reaches, work.orders, work.dice
    events, turn = work.events, work.turn
    for p in st.players:
        name = p.name
        order = orders.get(name)
        if order is None or p.status is not _ACTIVE:
            continue
        to, at = order.move, p.at
        if order.teleport is not None:
            st.ballista[p.team] -= 1
            work.log(_TELEPORTED,
                     f"{p.name} rides the ballista from {p.at.label} to {order.teleport.label} "
                     f"({counted(st.ballista[p.team], 'charge')} left).",
                     player=p.name, start=p.at.label, to=order.teleport.label)
            p.at = order.teleport
        elif to is not None and to != at:
            reach = reaches.get(name)
            # ``work.log``'s event made here: a turn logs a move for most players
            events.append(kit.Event(turn, _MOVED, partial(_moved_text, name, at, to, reach, dice),
                                    {"player": name, "start": at, "to": to, "reach": reach}))
            p.at = to
    for tree in st.trees:
        if tree is not None and tree.carrier is not None:
            tree.at = st.player(tree.carrier).at


def carrier_home(work: Turn) -> bool:
    """A carrier that ends movement on its own base wins at once."""
    st = work.state
    home: list[int] = []
    for tree in st.trees:
        if tree is None or tree.carrier is None:
            continue
        carrier = st.player(tree.carrier)
        if work.board.base_owner(carrier.at) == carrier.team:
            home.append(carrier.team)
            work.log(_TREE_RETURNED,
                     f"{carrier.name} carries {work.team(tree.team)}'s tree into "
                     f"{work.team(carrier.team)}'s base on {carrier.at.label}.",
                     player=carrier.name, tree=work.team(tree.team), at=carrier.at.label)
    if not home:
        return False
    finish(work, home[0] if len(set(home)) == 1 else None, "captured the enemy tree")
    return True


def _moved_text(name: str, start: Coord, to: Coord, reach: Reach | None, dice: kit.TurnDice) -> str:
    """The sentence of a move, with the die (its whole message, ``TurnDice.message``), every bonus by name and the
    total that allowed it; the log renders it when read (``partial`` keeps each move's values; a die's message never
    changes)."""
    why = "" if reach is None else f" ({reach.in_the_log(dice.message(f'move/{name}'))})"
    return f"{name} moves from {start.label} to {to.label}{why}."
