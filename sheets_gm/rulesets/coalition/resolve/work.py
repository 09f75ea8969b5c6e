"""The working data of one orders window's adjudication, and the orders read: what every phase of the movement
shares."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from sheets_gm.engine.words import possessive
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import (
    PLAYER_SIDES,
    BattleType,
    EventKind,
    OrderWord,
    ResultCode,
    Side,
    StructureKind,
)
from sheets_gm.rulesets.coalition.orders import ArmyIndex, Move, Refusal, read_order
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import (
    Army,
    ArmyOrder,
    Battle,
    CoalitionOrders,
    CoalitionState,
)

#: Orders that end on the square itself even when it is a portal: they stay, or act on the army there.
_STAYING_ON_PORTAL = frozenset({OrderWord.GARRISON, OrderWord.ENGAGE, OrderWord.SUPPORT, OrderWord.REPLACE,
                                OrderWord.RAID})


@dataclass(slots=True)
class ReadOrders:
    """Every side's orders read: the checked moves by army, and the refusals by army with their seat."""

    moves: dict[str, Move] = field(default_factory=dict)
    refused: dict[str, tuple[str, Refusal]] = field(default_factory=dict)
    typed: dict[str, ArmyOrder] = field(default_factory=dict)  # the order as written, by army
    # Lines a side wrote for the other side's armies, with the side that wrote them: answered to that side
    # alone, never the army's own order nor a line of the public post.
    foreign: list[tuple[str, Refusal]] = field(default_factory=list)


def read_orders(board: Board, settings: CoalitionSettings, state: CoalitionState,
                orders: CoalitionOrders) -> ReadOrders:
    """Each player side's orders checked (orders of other seats are not read here)."""
    out = ReadOrders()
    index = ArmyIndex(state)
    for seat in (s.value for s in PLAYER_SIDES):
        for army_name, order in sorted(orders.orders.get(seat, {}).items()):
            read = read_order(board, settings, state, index, seat, army_name, order)
            if isinstance(read, Refusal) and read.foreign:
                out.foreign.append((seat, read))
                continue
            name = read.army
            if name in out.moves or name in out.refused:
                read = Refusal(name, f"{name} has another order this turn; an army gets one order")
            if isinstance(read, Refusal):
                out.refused.setdefault(name, (seat, read))
            else:
                out.moves[name] = read
            out.typed.setdefault(name, order)
    return out


@dataclass(slots=True)
class MoveWork:
    """The working data of one adjudication."""

    board: Board
    settings: CoalitionSettings
    dice: kit.TurnDice
    armies: dict[str, Army]
    at: dict[str, str]  # where each army is now
    code: dict[str, ResultCode]
    note: dict[str, str]
    battles: dict[str, Battle]  # by place: the open ones and this turn's
    new_battles: list[str] = field(default_factory=list)  # places of this turn's battles, in creation order
    events: list[kit.Event] = field(default_factory=list)

    def battle(self, kind: BattleType, place: str, armies: list[str], bumps: tuple[tuple[str, str], ...] = (),
               leading: int = 1) -> None:
        """Open a battle of ``kind`` on ``place`` this turn, its leading armies first."""
        self.battles[place] = Battle(kind, place, tuple(armies), joint_bump=bumps, leading=leading)
        self.new_battles.append(place)


def route_text(board: Board, route: tuple[str, ...]) -> str:
    """A route as the forum writes it: the squares' short names, space-separated."""
    return " ".join(board.short(p) for p in route)


def with_route(t: MoveWork, move: Move, turn: int) -> Move:
    """The move with its route: the one written, or one drawn among the shortest (``route/<army>``)."""
    if move.route:
        return move
    routes = t.board.routes(move.start, move.end)
    key = f"route/{move.army}"
    if len(routes) == 1 and key not in t.dice.pins:
        chosen = routes[0]
    else:
        texts = [route_text(t.board, r) for r in routes]
        picked = t.dice.pick(key, texts)
        chosen = routes[texts.index(picked)]
        t.events.append(kit.Event(turn, EventKind.ROUTE, f"{possessive(move.army)} route drawn: {picked}",
                                  {"army": move.army, "key": key, "route": picked}))
    return Move(move.army, move.side, move.word, move.start, move.end, chosen, move.target, move.units, move.bump)


def passes_portal(board: Board, move: Move) -> bool:
    """Whether a move ends on a portal and goes through it (not to garrison it or act on an army there)."""
    struct = board.structure_at.get(move.end)
    return struct is not None and struct.kind is StructureKind.PORTAL and struct.to is not None \
        and move.word not in _STAYING_ON_PORTAL


def occupants_by_square(t: MoveWork, exclude: set[str]) -> dict[str, list[tuple[str, Side]]]:
    """Who stands where now, with their sides, leaving out the armies in ``exclude``."""
    out: dict[str, list[tuple[str, Side]]] = defaultdict(list)
    for name, place in t.at.items():
        if name not in exclude:
            out[place].append((name, t.armies[name].side))
    return out


def entered_first(t: MoveWork, going: Mapping[str, Move], place: str, first: str, other: str) -> str:
    """Why ``first`` entered ``place`` and ``other`` stopped short: the fewer steps, or a draw between armies as
    far from it (``partial/<place>``, see :func:`closest_army`)."""
    mine, theirs = len(going[first].route or ()), len(going[other].route or ())
    square = t.board.short(place)
    if mine == theirs:
        return (f"{first} and {other} were both {mine} step{'s' if mine != 1 else ''} from {square}: {first} was "
                f"drawn to enter (partial/{place})")
    return f"{first} is closer to {square} ({mine} step{'s' if mine != 1 else ''} against {theirs})"


def closest_army(t: MoveWork, going: Mapping[str, Move], place: str, group: list[str]) -> str:
    """The army of ``group`` with the fewest steps to ``place``; equal: drawn (``partial/<place>``)."""
    if len(group) == 1:
        return group[0]
    fewest = min(len(going[n].route or ()) for n in group)
    near = sorted(n for n in group if len(going[n].route or ()) == fewest)
    key = f"partial/{place}"
    return near[0] if len(near) == 1 and key not in t.dice.pins else t.dice.pick(key, near)
