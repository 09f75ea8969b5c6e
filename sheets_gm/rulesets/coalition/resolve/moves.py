"""Movement adjudication at the orders deadline, in the rulings' order: raids, intercepts, all other
moves at once, mercenaries; then the battles are announced with their weather.

Every army ends with one result code (``ResultCode``). The work is linear in the number of
armies: orders are indexed by square (who ends where, whose route passes where) and a
failed move only re-examines the moves into the square it stays on.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import (
    PLAYER_SIDES,
    BattleType,
    EventKind,
    OrderWord,
    Phase,
    ResultCode,
    Side,
    StructureKind,
)
from sheets_gm.rulesets.coalition.forum import announcement, dice_event
from sheets_gm.rulesets.coalition.orders import ArmyIndex, Move, Refusal, forum_line, read_order
from sheets_gm.rulesets.coalition.placement import place_around
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import (
    SLOT_CAPACITY,
    TOP_RANKS,
    Army,
    ArmyOrder,
    Battle,
    CoalitionOrders,
    CoalitionState,
    MoveReport,
)


@dataclass(slots=True)
class ReadOrders:
    """Every side's orders read: the checked moves by army, and the refusals by army with their seat."""

    moves: dict[str, Move] = field(default_factory=dict)
    refused: dict[str, tuple[str, Refusal]] = field(default_factory=dict)
    typed: dict[str, ArmyOrder] = field(default_factory=dict)  # the order as written, by army


def read_orders(board: Board, settings: CoalitionSettings, state: CoalitionState,
                orders: CoalitionOrders) -> ReadOrders:
    """Each player side's orders checked (orders of other seats are not read here)."""
    out = ReadOrders()
    index = ArmyIndex(state)
    for seat in (s.value for s in PLAYER_SIDES):
        for army_name, order in sorted(orders.orders.get(seat, {}).items()):
            read = read_order(board, settings, state, index, seat, army_name, order)
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
class _Turn:
    """The working data of one adjudication."""

    board: Board
    settings: CoalitionSettings
    dice: TurnDice
    armies: dict[str, Army]
    at: dict[str, str]  # where each army is now
    code: dict[str, ResultCode]
    note: dict[str, str]
    battles: dict[str, Battle]  # by place: the open ones and this turn's
    new_battles: list[str] = field(default_factory=list)  # places of this turn's battles, in creation order
    events: list[Event] = field(default_factory=list)

    def battle(self, kind: BattleType, place: str, armies: list[str], bumps: tuple[tuple[str, str], ...] = (),
               leading: int = 1) -> None:
        self.battles[place] = Battle(kind, place, tuple(armies), joint_bump=bumps, leading=leading)
        self.new_battles.append(place)


def resolve_orders(board: Board, settings: CoalitionSettings, state: CoalitionState, orders: CoalitionOrders,
               dice: TurnDice) -> tuple[CoalitionState, list[Event]]:
    """The orders window resolved: movement, battles announced; the state waits for the judge's results
    (or, with no battle open, has already run the end of the turn in ``endturn``)."""
    read = read_orders(board, settings, state, orders)
    armies = state.by_name()
    t = _Turn(board, settings, dice, armies, {n: a.at for n, a in armies.items()},
              {n: ResultCode.HELD for n in armies}, {}, {b.at: b for b in state.battles})
    turn = state.turn
    for name, (_seat, refusal) in read.refused.items():
        t.code[name] = ResultCode.VOID
        t.note[name] = refusal.message
    movers: dict[str, Move] = {}
    for name, move in read.moves.items():
        if move.moves:
            movers[name] = _with_route(t, move, turn)
    _raids(t, movers, turn)
    ordered = {n: m.target for n, m in read.moves.items() if m.word is OrderWord.INTERCEPT}
    _intercepts(t, movers, ordered, turn)
    _mutual_engages(t, movers)
    _moves(t, movers, turn)
    _transfers(t, read.moves, turn)
    _mercenaries(t, state, turn)
    announced = _announce(t, state, turn)
    fought = sorted({n for b in t.battles.values() for n in b.armies})
    new_armies = tuple(a if t.at[a.name] == a.at and t.armies[a.name] is a else
                       replace(a, at=t.at[a.name], units=t.armies[a.name].units) for a in state.armies)
    reports = _reports(t, state, read)
    for r in reports:
        if r.code is ResultCode.VOID:
            t.events.append(Event(turn, EventKind.ORDER, f"{r.army}: order refused ({r.note})",
                                  {"army": r.army, "code": r.code.value}, audience=frozenset({r.side.value})))
        elif r.order or r.code is not ResultCode.HELD:
            text = f"{r.army}: {r.code.value}" + (f" at {r.end}" if r.end != r.start else "") + \
                (f" ({r.note})" if r.note else "")
            t.events.append(Event(turn, EventKind.ORDER, text, {"army": r.army, "code": r.code.value,
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
        from sheets_gm.rulesets.coalition.resolve.end_turn import end_turn  # the end of turn runs now: no judge window
        new, more = end_turn(board, settings, new)
        t.events.extend(more)
    return new, t.events


def _route_text(board: Board, route: tuple[str, ...]) -> str:
    return " ".join(board.short(p) for p in route)


def _with_route(t: _Turn, move: Move, turn: int) -> Move:
    """The move with its route: the one written, or one drawn among the shortest (``route/<army>``)."""
    if move.route:
        return move
    routes = t.board.routes(move.start, move.end)
    key = f"route/{move.army}"
    if len(routes) == 1 and key not in t.dice.pins:
        chosen = routes[0]
    else:
        texts = [_route_text(t.board, r) for r in routes]
        picked = t.dice.pick(key, texts)
        chosen = routes[texts.index(picked)]
        t.events.append(Event(turn, EventKind.ROUTE, f"{move.army}'s route drawn: {picked}",
                              {"army": move.army, "key": key, "route": picked}))
    return Move(move.army, move.side, move.word, move.start, move.end, chosen, move.target, move.units, move.bump)


#: Orders that end on the square itself even when it is a portal: they stay, or act on the army there.
_STAYING_ON_PORTAL = frozenset({OrderWord.GARRISON, OrderWord.ENGAGE, OrderWord.SUPPORT, OrderWord.REPLACE,
                                OrderWord.RAID})


def passes_portal(board: Board, move: Move) -> bool:
    """Whether a move ends on a portal and goes through it (not to garrison it or act on an army there)."""
    struct = board.structure_at.get(move.end)
    return struct is not None and struct.kind is StructureKind.PORTAL and struct.to is not None \
        and move.word not in _STAYING_ON_PORTAL


def _raids(t: _Turn, movers: dict[str, Move], turn: int) -> None:
    """Raids first: at most ``max_raids_per_side`` per side (drawn), never intercepted; the raided army's move
    is void."""
    working: list[Move] = []
    for side in PLAYER_SIDES:
        raids = sorted(n for n, m in movers.items() if m.word is OrderWord.RAID and m.side is side)
        cap = t.settings.max_raids_per_side
        key = f"raid/{side.value}"
        order = t.dice.draw(key, raids) if len(raids) > cap or key in t.dice.pins else raids
        working += [movers[n] for n in order[:cap]]
        for name in order[cap:]:
            t.code[name] = ResultCode.BOUNCED
            t.note[name] = f"raid not drawn: at most {cap} raids of a side work each turn"
            del movers[name]
    raided: set[str] = set()
    for raid in working:
        movers.pop(raid.army, None)
        if raid.army in raided:
            continue
        target = raid.target or ""
        if target in raided or t.at[target] in t.battles:
            t.code[raid.army] = ResultCode.BOUNCED
            t.note[raid.army] = f"{target} is already in a battle"
            continue
        place = t.at[target]
        t.at[raid.army] = place
        t.code[raid.army] = ResultCode.MOVED
        t.code[target] = ResultCode.RAIDED
        t.note[target] = f"raided by {raid.army}"
        raided |= {raid.army, target}
        movers.pop(target, None)
        t.battle(BattleType.RAID, place, [raid.army, target])
        t.events.append(Event(turn, EventKind.RAID, f"{raid.army} raids {target} at {place}",
                              {"raider": raid.army, "target": target, "at": place}))


def _intercepts(t: _Turn, movers: dict[str, Move], ordered: Mapping[str, str | None], turn: int) -> None:
    """Intercepts: an army holding with intercept (or a garrison on a portal) stops the first enemy whose
    route enters its square (the named one if it does; else drawn, ``intercept/<army>``)."""
    engaged = {m.target for m in movers.values() if m.word is OrderWord.ENGAGE}
    through: dict[str, list[str]] = defaultdict(list)  # place -> movers whose route passes it (end excluded)
    portal_passers: dict[str, list[str]] = defaultdict(list)  # portal place -> movers passing that portal
    for name, m in movers.items():
        for p in (m.route or ())[:-1]:
            through[p].append(name)
        if passes_portal(t.board, m):
            portal_passers[m.end].append(name)
            portal_passers[t.board.structure_at[m.end].to or ""].append(name)
    fighting = {n for b in t.battles.values() for n in b.armies}
    interceptors: list[tuple[str, str | None, bool]] = []  # (army, named target, garrison)
    for name in sorted(t.armies):
        army = t.armies[name]
        if name in movers or name in fighting or name in engaged or army.side is Side.MERCENARY:
            continue
        struct = t.board.structure_at.get(t.at[name])
        garrison = struct is not None and struct.kind is StructureKind.PORTAL
        if garrison or name in ordered:
            interceptors.append((name, ordered.get(name), garrison))
    caught: set[str] = set()
    for name, named, garrison in interceptors:
        side = t.armies[name].side
        place = t.at[name]
        pool = set(through.get(place, ())) if name in ordered else set()
        if garrison:
            pool |= set(portal_passers.get(place, ()))
        candidates = sorted(n for n in pool if n in movers and n not in caught and t.armies[n].side is not side)
        if not candidates:
            continue
        key = f"intercept/{name}"
        if named in candidates:
            victim = named
        elif len(candidates) == 1 and key not in t.dice.pins:
            victim = candidates[0]
        else:
            victim = t.dice.pick(key, candidates)
        caught.add(victim)
        del movers[victim]
        t.at[victim] = place
        t.code[victim] = ResultCode.INTERCEPTED
        t.note[victim] = f"intercepted by {name} at {t.board.short(place)}"
        t.battle(BattleType.INTERCEPTS, place, [name, victim])
        t.events.append(Event(turn, EventKind.INTERCEPT, f"{name} intercepts {victim} at {place}",
                              {"army": name, "target": victim, "at": place, "garrison": garrison}))


def _mutual_engages(t: _Turn, movers: dict[str, Move]) -> None:
    """Two armies engaging each other: the battle is in the square of the one drawn (``meet/<a>/<b>``),
    which holds; the other moves in."""
    for name in sorted(movers):
        m = movers.get(name)
        if m is None or m.word is not OrderWord.ENGAGE or m.target is None:
            continue
        other = movers.get(m.target)
        if other is None or other.word is not OrderWord.ENGAGE or other.target != name:
            continue
        a, b = sorted((name, m.target))
        stays = t.dice.pick(f"meet/{a}/{b}", [a, b])
        del movers[stays]
        t.code[stays] = ResultCode.HELD
        t.note[stays] = "mutual engage: the battle is in its square"


def _moves(t: _Turn, movers: dict[str, Move], turn: int) -> None:
    """All other moves at once: who is stopped by an army that stays, joint engagements, partial moves,
    vs battles, portals."""
    board = t.board
    moving = set(movers)
    occupants: dict[str, list[str]] = defaultdict(list)  # who stands where before the moves
    for name, place in t.at.items():
        occupants[place].append(name)
    into: dict[str, list[str]] = defaultdict(list)
    for name, m in movers.items():
        into[m.end].append(name)
    bounced: set[str] = set()
    # an intercept forms no joint engagement: a supporter of an army that intercepts moves partially
    interceptors = {t.battles[p].armies[0] for p in t.new_battles if t.battles[p].type is BattleType.INTERCEPTS}
    partial: set[str] = {n for n, m in movers.items() if m.word is OrderWord.SUPPORT and m.target in interceptors}

    def blocked(m: Move) -> str | None:
        if m.army in partial:
            return None
        if m.end in t.battles:
            return f"{board.short(m.end)} holds a battle"
        if passes_portal(board, m):
            struct = board.structure_at[m.end]
            if m.end in t.battles or (struct.to or "") in t.battles:
                return "the portal is closed by its garrison's battle"
            return None
        stayers = [o for o in occupants.get(m.end, ()) if o != m.army and (o not in moving or o in bounced)]
        if not stayers:
            return None
        if m.target in stayers and m.word in (OrderWord.ENGAGE, OrderWord.SUPPORT):
            return None
        o = stayers[0]
        if t.armies[o].side is m.side:
            return f"{o} stays in {board.short(m.end)}"
        return f"{o} holds {board.short(m.end)} (no engage)"

    def settle(work: list[str]) -> None:
        """Bounce every move blocked by an army that stays; a bounce re-examines the moves into its square."""
        while work:
            name = work.pop()
            if name in bounced:
                continue
            why = blocked(movers[name])
            if why is not None:
                bounced.add(name)
                t.note[name] = why
                work.extend(into.get(movers[name].start, ()))

    settle(sorted(movers))
    # a supporter does not move when the ally it supports moves
    again: list[str] = []
    for name, m in movers.items():
        if m.word is OrderWord.SUPPORT and name not in bounced and m.target in moving and m.target not in bounced:
            bounced.add(name)
            t.note[name] = f"{m.target} moves away"
            again.extend(into.get(m.start, ()))
    settle(again)
    for name in bounced:
        t.code[name] = ResultCode.BOUNCED
    going = {n: m for n, m in movers.items() if n not in bounced}
    for name in partial:
        t.note[name] = f"{going[name].target} intercepts: an intercept makes no joint engagement"
    passers = sorted(n for n, m in going.items() if passes_portal(board, m) and n not in partial)
    arrivals: dict[str, list[str]] = defaultdict(list)
    for name, m in going.items():
        if name not in passers and name not in partial:
            arrivals[m.end].append(name)
    for name in going:
        t.at[name] = going[name].end  # provisional; partial moves are placed at the end
    # joint engagements: the candidates of each side, then one drawn per side
    plans: dict[str, tuple[str | None, list[str], list[str]]] = {}  # place -> (holder, engagers, supporters)
    joint_candidates: dict[Side, list[str]] = defaultdict(list)
    for place in sorted(arrivals, key=board.order.__getitem__):
        names = sorted(arrivals[place])
        holders = [o for o in occupants.get(place, ()) if o not in going]
        holder = holders[0] if holders else None
        if holder is None:
            plans[place] = (None, [], [])
            continue
        engagers = [n for n in names if going[n].word is OrderWord.ENGAGE]
        supporters = [n for n in names if going[n].word is OrderWord.SUPPORT]
        plans[place] = (holder, engagers, supporters)
        struct = board.structure_at.get(place)
        in_structure = struct is not None
        if len(engagers) >= 2 and not in_structure and not any(t.armies[n].rank in TOP_RANKS for n in engagers):
            joint_candidates[t.armies[engagers[0]].side].append(place)
        if engagers and supporters and not in_structure:
            joint_candidates[t.armies[holder].side].append(place)
    granted: dict[Side, str] = {}
    for side, places in joint_candidates.items():
        key = f"joint/{side.value}"
        granted[side] = places[0] if len(places) == 1 and key not in t.dice.pins else t.dice.pick(key, places)
    for place, (holder, engagers, supporters) in plans.items():
        names = sorted(arrivals[place])
        if holder is None:
            by_side: dict[Side, list[str]] = defaultdict(list)
            for n in names:
                by_side[t.armies[n].side].append(n)
            entering: list[str] = []
            for group in by_side.values():
                first = _closest(t, going, place, group)
                entering.append(first)
                for n in group:
                    if n != first:
                        partial.add(n)
                        t.note[n] = f"{first} is closer to {board.short(place)}"
            if len(entering) >= 2:
                t.battle(BattleType.VS, place, sorted(entering))
            continue
        if not engagers:
            for n in supporters:
                partial.add(n)
                t.note[n] = f"{holder} is not attacked"
            continue
        attack_side = t.armies[engagers[0]].side
        defend_side = t.armies[holder].side
        attackers = engagers
        if len(engagers) >= 2 and granted.get(attack_side) != place:
            first = _closest(t, going, place, engagers)
            for n in engagers:
                if n != first:
                    partial.add(n)
                    t.note[n] = _no_joint_note(t, place, engagers, attack_side, granted)
            attackers = [first]
        defenders = [holder]
        if supporters:
            if granted.get(defend_side) == place:
                defenders += supporters
            else:
                for n in supporters:
                    partial.add(n)
                    t.note[n] = "the side's joint engagement this turn is elsewhere" if defend_side in granted \
                        else "no joint engagement in a structure"
        cap = t.settings.joint_max_armies
        if len(attackers) + len(defenders) > cap:
            # the defender and its supporters are in first (leaving one place for an attacker); the attackers
            # kept are drawn among the attackers to fill the places left
            left_out = defenders[cap - 1:]
            defenders = defenders[:cap - 1]
            room = cap - len(defenders)
            kept = t.dice.draw(f"jointcap/{place}", sorted(attackers))[:room] if len(attackers) > room \
                else attackers
            for n in [*left_out, *(n for n in attackers if n not in kept)]:
                partial.add(n)
                t.note[n] = f"at most {cap} armies in a joint engagement"
            attackers = [n for n in attackers if n in kept]
        bumps = tuple((n, going[n].bump or "") for n in attackers if going[n].bump)
        t.battle(BattleType.ATTACKS, place, attackers + defenders, bumps, leading=len(attackers))
    for name in going:
        t.code[name] = ResultCode.MOVED
    # partial moves, after all other moves: the last free square of the army's own route, else its start
    taken = {p for n, p in t.at.items() if n not in partial}
    for name in sorted(partial):
        m = going[name]
        spot = m.start
        for p in reversed((m.route or ())[:-1]):
            struct = board.structure_at.get(p)
            if p not in taken and p not in t.battles and not (struct and struct.kind is StructureKind.PORTAL):
                spot = p
                break
        t.at[name] = spot
        taken.add(spot)
        t.code[name] = ResultCode.PARTIAL
    # portals: placed around the linked portal as a bumped army is
    occupied = _occupants(t, exclude=set(passers))
    for name in passers:
        struct = board.structure_at[going[name].end]
        spot, enemy = place_around(board, t.dice, f"portal/{name}", t.armies[name].side, struct.to or "",
                                   occupied, set(t.battles))
        t.at[name] = spot
        occupied[spot].append((name, t.armies[name].side))
        text = f"{name} passes the portal {struct.name} to {spot}"
        if enemy is not None:
            t.battles[spot] = Battle(BattleType.INTERCEPTS, spot, (enemy, name), announced=False)
            text += f", onto {enemy}: an intercepts battle next turn"
        t.events.append(Event(turn, EventKind.PORTAL, text, {"army": name, "portal": struct.name, "at": spot}))


def _occupants(t: _Turn, exclude: set[str]) -> dict[str, list[tuple[str, Side]]]:
    out: dict[str, list[tuple[str, Side]]] = defaultdict(list)
    for name, place in t.at.items():
        if name not in exclude:
            out[place].append((name, t.armies[name].side))
    return out


def _no_joint_note(t: _Turn, place: str, engagers: list[str], side: Side, granted: Mapping[Side, str]) -> str:
    if t.board.structure_at.get(place) is not None:
        return "no joint engagement in a structure"
    if any(t.armies[n].rank in TOP_RANKS for n in engagers):
        return "armies of the top three ranks cannot make a joint engagement"
    return "the side's joint engagement this turn is elsewhere" if side in granted else "no joint engagement"


def _closest(t: _Turn, going: Mapping[str, Move], place: str, group: list[str]) -> str:
    """The army of ``group`` with the fewest steps to ``place``; equal: drawn (``partial/<place>``)."""
    if len(group) == 1:
        return group[0]
    fewest = min(len(going[n].route or ()) for n in group)
    near = sorted(n for n in group if len(going[n].route or ()) == fewest)
    key = f"partial/{place}"
    return near[0] if len(near) == 1 and key not in t.dice.pins else t.dice.pick(key, near)


def _transfers(t: _Turn, moves: Mapping[str, Move], turn: int) -> None:
    """Transfers at the end of movement: both armies held and are out of battle; no slot overfilled."""
    fighting = {n for b in t.battles.values() for n in b.armies}
    for name in sorted(moves):
        m = moves[name]
        if m.word is not OrderWord.TRANSFER or m.target is None or m.units is None:
            continue
        partner = m.target
        if t.code.get(partner) not in (ResultCode.HELD, ResultCode.BOUNCED) or t.at[partner] != t.armies[partner].at:
            t.code[name], t.note[name] = ResultCode.BOUNCED, f"{partner} moved"
            continue
        if name in fighting or partner in fighting:
            t.code[name], t.note[name] = ResultCode.BOUNCED, "a battle stopped the transfer"
            continue
        giver, taker = t.armies[name], t.armies[partner]
        after = tuple(b + s for b, s in zip(taker.units, m.units, strict=True))
        over = [i + 1 for i, (v, cap) in enumerate(zip(after, SLOT_CAPACITY, strict=True)) if v > cap]
        if over or any(s > g for s, g in zip(m.units, giver.units, strict=True)):
            t.code[name] = ResultCode.BOUNCED
            t.note[name] = f"slot {over[0]} of {partner} would hold more than {SLOT_CAPACITY[over[0] - 1]}" if over \
                else "not enough units left to send"
            continue
        left = tuple(g - s for g, s in zip(giver.units, m.units, strict=True))
        t.armies[name] = replace(giver, units=(left[0], left[1], left[2], left[3]))
        t.armies[partner] = replace(taker, units=(after[0], after[1], after[2], after[3]))
        t.events.append(Event(turn, EventKind.TRANSFER, f"{name} transfers {'/'.join(map(str, m.units))} to {partner}",
                              {"army": name, "to": partner, "units": list(m.units)}))


def _mercenaries(t: _Turn, state: CoalitionState, turn: int) -> None:
    """Mercenaries move after the players: one whose structure a player's army holds engages it if it can reach."""
    board = t.board
    fighting = {n for b in t.battles.values() for n in b.armies}
    holders: dict[str, str] = {}
    for name, place in t.at.items():
        if t.armies[name].side is not Side.MERCENARY and name not in fighting:
            holders.setdefault(place, name)
    for name in sorted(n for n, a in t.armies.items() if a.side is Side.MERCENARY):
        army = t.armies[name]
        struct = board.by_name.get((army.guards or "").lower())
        if name in fighting or struct is None or struct.name in state.destroyed:
            continue
        holder = holders.get(struct.at)
        if holder is None or struct.at in t.battles:
            continue
        steps = board.distance(t.at[name], struct.at)
        if steps is None or steps > t.settings.max_steps:
            continue
        t.at[name] = struct.at
        t.code[name] = ResultCode.MOVED
        t.battle(BattleType.ATTACKS, struct.at, [name, holder])
        t.events.append(Event(turn, EventKind.MERCENARY, f"Mercenary {name} engages {holder} at {struct.name}",
                              {"army": name, "target": holder, "at": struct.at}))


def _announce(t: _Turn, state: CoalitionState, turn: int) -> tuple[Battle, ...]:
    """Weather for every battle to announce: this turn's, continuing sieges, and those a bump made last turn."""
    table = t.settings.weather_table
    out: list[Battle] = []
    fresh = set(t.new_battles)
    for place in sorted(t.battles, key=t.board.order.__getitem__):
        b = t.battles[place]
        if place not in fresh and b.type is not BattleType.SIEGE and b.announced:
            continue
        if place not in fresh and not b.announced and not any(x.at == place for x in state.battles):
            continue  # made this turn by a portal placement: announced next turn
        weather = table[t.dice.roll(f"weather/{place}", len(table)) - 1] if len(table) > 1 else (table[0] if table
                                                                                                 else "")
        b = Battle(b.type, b.at, b.armies, weather, True, b.joint_bump, b.leading)
        t.battles[place] = b
        out.append(b)
        t.events.append(Event(turn, EventKind.BATTLE, announcement(b, t.board),
                              {"type": b.type.value, "at": place, "armies": list(b.armies), "weather": weather}))
    return tuple(out)


def _reports(t: _Turn, state: CoalitionState, read: ReadOrders) -> tuple[MoveReport, ...]:
    """A Movement Results line per army that had an order or was moved by another's."""
    out = []
    for army in state.armies:
        name = army.name
        typed = read.typed.get(name)
        move = read.moves.get(name)
        order = ""
        if typed is not None:
            order = typed.line.strip() or forum_line(name, typed, t.board, army.at)
        code = t.code[name]
        if move is not None and not move.moves and code is ResultCode.MOVED:
            code = ResultCode.HELD
        out.append(MoveReport(name, army.side, army.at, t.at[name], code, order, t.note.get(name, "")))
    return tuple(out)
