"""Reading one army's order: the forum line parsed, every condition the rulebook states checked.

A player writes an order either in the fields of an orders row (start, route, end, order,
target) or as the forum's line in one cell:

    Frank, the Toad: Dominaria; 3A > 3B > 3C - engage Jeff the Owl

``parse_forum_line`` turns the line into those fields (naming the part that failed), and
``read_order`` checks them against the state: a ``Move`` the adjudicator can use, or a
``Refusal`` whose sentence names the army and says what would be accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sheets_gm.engine.vocab import choices
from sheets_gm.engine.words import counted, some_of
from sheets_gm.rulesets.coalition.board import Board, PlaceError
from sheets_gm.rulesets.coalition.enums import STAYING_WORDS, TARGETED_WORDS, OrderWord, Side, StructureKind
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import Army, ArmyOrder, CoalitionState, Units

FORUM_FORM = "Army Name: Plane; Start > Next > End - order Target"
_DASH = re.compile(r"\s*[-–—]\s*")
_UNITS = re.compile(r"\s*\(?\s*(\d+)\s*/\s*(\d+)\s*/\s*(\d+)\s*/\s*(\d+)\s*\)?\s*$")
_BUMP = re.compile(r"[;,]?\s*bump\s*:?\s*(?:>\s*)?(\S+)\s*$", re.IGNORECASE)


class OrderLineError(ValueError):
    """A forum line that does not parse: the message names the part."""


@dataclass(frozen=True, slots=True)
class Move:
    """A checked order: where the army starts and ends, by which route, doing what to whom."""

    army: str
    side: Side
    word: OrderWord
    start: str
    end: str  # the start for an order that does not move
    route: tuple[str, ...] | None  # places entered, end included; None: drawn among the shortest
    target: str | None = None
    units: Units | None = None
    bump: str | None = None
    note: str = ""  # how the order was read when it was written loosely (a plane named wrong), for its feedback

    @property
    def moves(self) -> bool:
        """Whether the order moves the army."""
        return self.end != self.start


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an order is refused, in a sentence naming the army and what would be accepted."""

    army: str
    message: str
    # The army is the other side's: the refusal is the writing side's alone, and the army's own orders and its
    # line in the public Movement Results are untouched by it.
    foreign: bool = False


def parse_forum_line(text: str) -> tuple[str, ArmyOrder]:
    """The army name and the order fields of a forum line; OrderLineError naming the part that failed.

    >>> name, order = parse_forum_line("Frank, the Toad: Dominaria; 3A > 3B > 3C - engage Jeff the Owl")
    >>> name, order.start, order.via, order.to, order.word, order.target
    ('Frank, the Toad', 'Dominaria 3A', ('Dominaria 3B',), 'Dominaria 3C', 'engage', 'Jeff the Owl')
    >>> parse_forum_line("Jeff: 3C – intercept")[1].word
    'intercept'
    """
    raw = str(text).strip()
    name, colon, rest = raw.replace("→", ">").partition(":")
    if not colon or not name.strip():
        raise OrderLineError(f"{raw!r}: the army name is missing; write {FORUM_FORM}")
    dash = _DASH.search(rest)
    head, tail = (rest[:dash.start()], rest[dash.end():]) if dash else (rest, "")
    plane = ""
    if ";" in head:
        plane, _, head = head.partition(";")
        plane = plane.strip()
        if " " in plane:
            raise OrderLineError(f"{raw!r}: the plane {plane!r} is one word (Dominaria, Mirrodin or Phyrexia), "
                                 f"then a semicolon; write {FORUM_FORM}")
    squares = [s.strip() for s in head.split(">")]
    if not squares or any(not s for s in squares):
        raise OrderLineError(f"{raw!r}: the route {head.strip()!r} has an empty square; write squares such as 3A "
                             "separated by >, the start first")
    last_word = squares[-1].split(" ")[0].lower()
    if len(squares) > 1 and last_word in {w.value for w in OrderWord} and " " in squares[-1]:
        route = " > ".join(squares[:-1])
        raise OrderLineError(f"{raw!r}: {last_word!r} is the order, written after a dash, not after > or →; write "
                             f"{route} - {squares[-1]}")
    if plane:
        squares = [f"{plane} {s}" for s in squares]
    word, target, bump = "", "", ""
    units: tuple[int, ...] = ()
    if tail.strip():
        bump_match = _BUMP.search(tail)
        if bump_match and re.search(r"\bbump\b", tail, re.IGNORECASE):
            bump = bump_match.group(1)
            tail = tail[:bump_match.start()]
        word, _, target = tail.strip().partition(" ")
        word = word.strip().lower()
        try:
            OrderWord(word)
        except ValueError:
            raise OrderLineError(f"{raw!r}: the order {word!r} after the dash is not one of "
                                 f"{choices(OrderWord)}") from None
        unit_match = _UNITS.search(target)
        if unit_match:
            units = tuple(int(g) for g in unit_match.groups())
            target = target[:unit_match.start()]
        target = target.strip()
    order = ArmyOrder(start=squares[0], via=tuple(squares[1:-1]), to=squares[-1] if len(squares) > 1 else "",
                      word=word, target=target, units=units, bump=bump)
    return name.strip(), order


def forum_line(army: str, order: ArmyOrder, board: Board, start: str) -> str:
    """The order written back as the forum's line (for the Movement Results post), from the army's ``start``."""
    plane = start.split(" ")[0]
    def sq(text: str) -> str:
        try:
            return board.short(board.parse(text, plane))
        except PlaceError:
            return text
    squares = [order.start or start, *order.via, *([order.to] if order.to else [])]
    route = " > ".join(sq(s) for s in squares if s)
    word = order.word or "none"
    tail = "" if word == "none" else f" - {word}{' ' + order.target if order.target else ''}"
    return f"{army}: {plane}; {route}{tail}"


def normalised_line(board: Board, move: Move) -> str:
    """An accepted order as the forum writes it, however it was typed (``raider d : dominaria ; 15g>16g -RAID
    weak4`` is ``Raider D: Dominaria; 15G > 16G - raid Weak4``): what the Movement Results post quotes."""
    plane = move.start.split(" ")[0]
    squares = [move.start, *(move.route if move.route is not None else ([move.end] if move.moves else []))]
    route = " > ".join(board.short(s) for s in squares)
    word = "" if move.word is OrderWord.NONE else f" - {move.word.value}"
    target = f" {move.target}" if move.target and move.word is not OrderWord.NONE else ""
    units = f" {'/'.join(map(str, move.units))}" if move.units and move.word is OrderWord.TRANSFER else ""
    return f"{move.army}: {plane}; {route}{word}{units}{target}"


class ArmyIndex:
    """One state's armies and battles looked up by name and square (built once per window: reading
    every order stays linear in the number of armies)."""

    __slots__ = ("_by_side", "battles", "by_lower", "by_name", "fighting")

    def __init__(self, state: CoalitionState) -> None:
        self.by_name = {a.name: a for a in state.armies}
        self.by_lower = {a.name.strip().lower(): a for a in state.armies}
        self.battles = {b.at: b for b in state.battles}
        self.fighting = {n for b in state.battles for n in b.armies}
        self._by_side: dict[str, list[Army]] | None = None

    def find(self, name: str) -> Army | None:
        """The army called ``name``, exactly or ignoring case and surrounding spaces."""
        return self.by_name.get(name) or self.by_lower.get(name.strip().lower())

    def of_side(self, seat: str) -> list[Army]:
        """The armies of a side (for a refusal's list of what would be accepted)."""
        if self._by_side is None:
            self._by_side = {}
            for a in self.by_name.values():
                self._by_side.setdefault(a.side.value, []).append(a)
        return self._by_side.get(seat, [])


def _names(armies: list[Army], limit: int = 6) -> str:
    return some_of(sorted(a.name for a in armies), limit) if armies else "(none)"


def read_order(board: Board, settings: CoalitionSettings, state: CoalitionState, index: ArmyIndex, seat: str,
               army_name: str, order: ArmyOrder) -> Move | Refusal:
    """The order of ``army_name`` written by ``seat`` checked against ``state`` (``index``: its armies by
    name): a Move, or why not."""
    found = _own_army(index, seat, army_name, order)
    if isinstance(found, Refusal):
        return found
    army, order = found
    name = army.name
    try:
        word = OrderWord(order.word.strip().lower() or "none")
    except ValueError:
        return Refusal(name, f"{name}: the order {order.word!r} is not one of {choices(OrderWord)}")
    plane = army.at.split(" ")[0]
    order, note = _on_own_plane(board, army, order)
    try:
        start = board.parse(order.start, plane) if order.start.strip() else army.at
        via = tuple(board.parse(s, plane) for s in order.via if str(s).strip())
        end = board.parse(order.to, plane) if order.to.strip() else start
    except PlaceError as exc:
        return Refusal(name, f"{name}: {exc}")
    if start != army.at:
        here = army.at if not start.startswith(plane + " ") else board.short(army.at)  # the plane when it differs
        return Refusal(name, f"{name} is at {here}, not {_where(board, start, plane)}: "
                             "the start square is where the army stands")
    moves = end != start or bool(via)
    if name in index.fighting and (moves or word is not OrderWord.NONE):
        battle = next(b for b in index.battles.values() if name in b.armies)
        return Refusal(name, f"{name} is in the battle at {_where(board, battle.at, plane)}: an army in battle "
                             "takes no order until it ends")
    if word in STAYING_WORDS and moves:
        return Refusal(name, f"{name}: {word.value} does not move; give the start square only "
                             f"({army.at.split(' ')[1]}), no route or end")
    route, why = _route(board, settings, index, name, plane, start, via, end) if moves else (None, "")
    if why:
        return Refusal(name, why)
    target_army, why = _target(index, name, word, order)
    why = why or _word_conditions(board, settings, state, army, word, start, end, target_army, order,
                                  index.fighting) or ""
    if why:
        return Refusal(name, why)
    bump, why = _bump(board, name, word, plane, end, order)
    if why:
        return Refusal(name, why)
    units = tuple(order.units) if word is OrderWord.TRANSFER else None
    return Move(name, army.side, word, start, end, route if moves else (),
                target_army.name if target_army else None,
                (units[0], units[1], units[2], units[3]) if units else None, bump, note)


def _own_army(index: ArmyIndex, seat: str, army_name: str, order: ArmyOrder) -> tuple[Army, ArmyOrder] | Refusal:
    """The army an order is for, one of ``seat``'s own, and the order with its forum line (if any) read into
    its fields; or why not."""
    given = order
    if order.line.strip():
        try:
            line_name, order = parse_forum_line(order.line)
        except OrderLineError as exc:
            return Refusal(army_name, str(exc))
        if army_name and line_name.lower() != army_name.strip().lower():
            return Refusal(army_name, f"the line names {line_name!r}, not {army_name!r}: one army per row")
        army_name = army_name or line_name
        order = ArmyOrder(order.start, order.via, order.to, order.word, order.target, order.units,
                          order.bump or given.bump)
    army = index.find(army_name)
    if army is None:
        return Refusal(army_name, f"there is no army {army_name!r}; {seat}'s armies are "
                                  f"{_names(index.of_side(seat))}")
    name = army.name
    if army.side is Side.MERCENARY:
        return Refusal(name, f"{name} is a mercenary army: the engine moves it, nobody orders it")
    if army.side.value != seat:
        return Refusal(name, f"{name} is an army of {army.side.display}, the other side: {seat} orders its own "
                             f"armies ({_names(index.of_side(seat))}). This line is not read, and the Movement "
                             "Results do not print it", foreign=True)
    return army, order


def _route(board: Board, settings: CoalitionSettings, index: ArmyIndex, name: str, plane: str, start: str,
           via: tuple[str, ...], end: str) -> tuple[tuple[str, ...] | None, str]:
    """A moving army's route (its waypoints and end; None for a straight move to ``end``), or why the move
    is refused: another plane, a step that is not one orthogonal step, too many steps, an end on a battle."""
    if board.plane_of(end) is not board.plane_of(start) or any(board.plane_of(v) is not board.plane_of(start)
                                                               for v in via):
        return None, (f"{name}: {_where(board, end, plane)} is on another plane; cross to it through a "
                      "portal (end the move on the portal square)")
    route: tuple[str, ...] | None = None
    if via:
        route = (*via, end)
        here = start
        for step in route:
            gap = board.distance(here, step)
            if gap != 1:
                what = "a diagonal step" if _diagonal(board, here, step) else (
                    "not a step (the same square)" if gap == 0 else f"a gap of {gap} squares")
                return None, (f"{name}: {board.short(here)} > {board.short(step)} is {what}; a route "
                              "goes one orthogonal step at a time (no diagonals), ending on the end square")
            here = step
        steps = len(route)
    else:
        steps = board.distance(start, end) or 0
    if steps > settings.max_steps:
        return None, (f"{name}: {board.short(start)} to {board.short(end)} is {steps} steps; an army "
                      f"moves at most {settings.max_steps}")
    if end in index.battles:
        return None, (f"{name}: {_where(board, end, plane)} holds a battle; no army may end its move "
                      "there (choose another square)")
    return route, ""


def _target(index: ArmyIndex, name: str, word: OrderWord, order: ArmyOrder) -> tuple[Army | None, str]:
    """The army an order targets (None when it names none), or why the target is refused."""
    if order.target.strip():
        if word not in TARGETED_WORDS and word is not OrderWord.INTERCEPT:
            return None, (f"{name}: {word.value} takes no target army; engage, replace, raid, support, "
                          "transfer and intercept do")
        target_army = index.find(order.target)
        if target_army is None:
            return None, f"{name}: there is no army {order.target.strip()!r} to {word.value}"
        return target_army, ""
    if word in TARGETED_WORDS:
        return None, f"{name}: {word.value} needs the target army's name after the order word"
    return None, ""


def _bump(board: Board, name: str, word: OrderWord, plane: str, end: str, order: ArmyOrder) -> tuple[str | None, str]:
    """A joint engage's bump square (None when the order names none), or why it is refused."""
    if not order.bump.strip():
        return None, ""
    try:
        bump = board.parse(order.bump, plane)
    except PlaceError as exc:
        return None, f"{name}: joint engage bump: {exc}"
    if word is not OrderWord.ENGAGE or bump not in board.ring(end, 1):
        return None, (f"{name}: a joint engage bump names a square next to the engaged square "
                      f"{board.short(end)}, for an army that engages")
    return bump, ""


def _on_own_plane(board: Board, army: Army, order: ArmyOrder) -> tuple[ArmyOrder, str]:
    """``order`` with its squares read on the army's own plane when it names another plane but starts on the square
    where the army stands (the plane in a line only helps find the army: the square says which), and a note saying
    so; else ``order`` unchanged and no note."""
    plane = army.at.split(" ")[0]
    named, _, square = order.start.strip().rpartition(" ")
    other = board.plane_named(named) if named else None
    if other is None or other.name == plane:
        return order, ""
    try:
        if board.parse(square, plane) != army.at:
            return order, ""
    except PlaceError:
        return order, ""

    def own(text: str) -> str:
        head, _, tail = text.strip().rpartition(" ")
        return tail if head and board.plane_named(head) is other else text
    note = (f"{army.name} is on {plane}, not {other.name}: read as {plane} {board.short(army.at)} (the plane only "
            "helps find the army; the start square says which)")
    return ArmyOrder(own(order.start), tuple(own(v) for v in order.via), own(order.to), order.word, order.target,
                     order.units, own(order.bump), order.line), note


def _where(board: Board, place: str, plane: str) -> str:
    return board.short(place) if place.startswith(plane + " ") else place


def _diagonal(board: Board, a: str, b: str) -> bool:
    sa, sb = board.square_of(a), board.square_of(b)
    return board.plane_of(a) is board.plane_of(b) and abs(sa.col - sb.col) == 1 and abs(sa.row - sb.row) == 1


def can_heal_in(army: Army, kind: StructureKind, colour: object) -> bool:
    """Whether the army may heal in a structure of that kind (and a base's colour)."""
    if army.side is Side.PHYREXIA:
        return kind is StructureKind.STRONGHOLD
    if army.side is Side.COALITION:
        return kind is StructureKind.BASE and colour in army.factions
    return False


def _word_conditions(board: Board, settings: CoalitionSettings, state: CoalitionState, army: Army,
                     word: OrderWord, start: str, end: str, target: Army | None, order: ArmyOrder,
                     in_battle: set[str]) -> str | None:
    """What an order word needs that the order does not have, or None."""
    name = army.name
    plane = army.at.split(" ")[0]
    if target is not None and target.name == name:
        return f"{name}: an army cannot {word.value} itself"
    enemy = target is not None and target.side is not army.side
    if word in (OrderWord.ENGAGE, OrderWord.RAID, OrderWord.INTERCEPT) and target is not None and not enemy:
        return f"{name}: {target.name} is an ally; {word.value} names an enemy army"
    if word in (OrderWord.REPLACE, OrderWord.SUPPORT, OrderWord.TRANSFER) and target is not None and enemy:
        return f"{name}: {target.name} is an enemy; {word.value} names an allied army"
    if word in (OrderWord.ENGAGE, OrderWord.RAID, OrderWord.REPLACE, OrderWord.SUPPORT) and target is not None:
        if end == start:
            return f"{name}: {word.value} moves to the target's square; give the end square {board.short(target.at)}"
        if target.at != end:
            return (f"{name}: {target.name} is at {_where(board, target.at, plane)}, not "
                    f"{_where(board, end, plane)}: {word.value} names the army in the end square")
    if word is OrderWord.RAID:
        if army.rank > 2:
            return f"{name}: only armies of the bottom two ranks (1 and 2) raid; this one has rank {army.rank}"
        if army.highest < settings.raid_min_squad:
            return (f"{name}: a raider needs {counted(settings.raid_min_squad, 'unit')} in its highest slot; it has "
                    f"{army.highest}")
        if target is not None and target.total >= settings.raid_target_max:
            return (f"{name}: {target.name} has {counted(target.total, 'unit')}; a raid needs a target under "
                    f"{settings.raid_target_max}")
        if end in board.structure_at and board.structure_at[end].name not in state.destroyed:
            return (f"{name}: {board.short(end)} is a structure ({board.structure_at[end].name}); no raid into a "
                    "structure")
    if word is OrderWord.TRANSFER and target is not None:
        if board.distance(army.at, target.at) != 1:
            return f"{name}: {target.name} is not next to it (orthogonally); a transfer is between neighbours"
        if target.rank != army.rank:
            return f"{name}: {target.name} has rank {target.rank}, this army {army.rank}; a transfer is between equals"
        for who in (army, target):
            if who.at in board.structure_at:
                return f"{name}: {who.name} stands in a structure; no transfer there"
        if target.name in in_battle:
            return f"{name}: {target.name} is in battle; a transfer needs both armies out of battle"
        if len(order.units) != 4 or not all(isinstance(u, int) and not isinstance(u, bool) and u >= 0
                                            for u in order.units):
            return f"{name}: a transfer names the units sent per slot, four whole numbers like 100/0/0/0"
        for slot, (sent, have) in enumerate(zip(order.units, army.units, strict=True), start=1):
            if sent > have:
                return f"{name}: slot {slot} sends {counted(sent, 'unit')}; it has {have}"
    if word is OrderWord.GARRISON:
        struct = board.structure_at.get(end)
        if struct is None or struct.kind is not StructureKind.PORTAL:
            return f"{name}: garrison ends on a portal square (the army stays there instead of passing through)"
    if word is OrderWord.HEAL:
        struct = board.structure_at.get(army.at)
        if struct is None or struct.name in state.destroyed or not can_heal_in(army, struct.kind, struct.colour):
            return f"{name}: heal is asked in a structure where the army can heal (a base of its factions)"
        if army.side is Side.COALITION and struct.colour is not army.primary:
            return (f"{name}: asking to heal shortens healing only in the base of the primary faction "
                    f"({army.primary.value if army.primary else 'none'}); here it heals after "
                    f"{settings.coalition_heal_turns} turns without asking")
    return None
