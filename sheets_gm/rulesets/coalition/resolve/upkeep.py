"""The end of a turn, after the judge's results: structure counters, healing, destruction,
terrain-feature control and domination, mercenaries disbanding, and the three ways to win.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace

from sheets_gm.engine.words import counted, possessive
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import HOME_PLANES, Board
from sheets_gm.rulesets.coalition.enums import PLAYER_SIDES, EventKind, Phase, Side, StructureKind
from sheets_gm.rulesets.coalition.orders import can_heal_in
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.setup import slots_of
from sheets_gm.rulesets.coalition.state import SLOT_CAPACITY, TOP_RANKS, Army, CoalitionState

#: How a round can end.
ENDINGS = ("structures", "kills", "vp", "turn_limit")
_COUNTED = (StructureKind.BASE, StructureKind.STRONGHOLD, StructureKind.FEATURE)


def heal_turns(settings: CoalitionSettings, army: Army, colour: object, asked: bool) -> int:
    """Turns the army must count in the structure before it heals there."""
    if army.side is Side.PHYREXIA:
        return settings.phyrexia_heal_turns
    if asked and colour is army.primary:
        return settings.primary_heal_turns
    return settings.coalition_heal_turns


def end_turn(board: Board, settings: CoalitionSettings,
             state: CoalitionState) -> tuple[CoalitionState, list[kit.Event]]:
    """The end-of-turn steps, in order, and the next turn's orders window (or the end of the round)."""
    turn = state.turn
    events: list[kit.Event] = []
    notes: list[str] = []
    fought = set(state.fought) | state.in_battle()
    destroyed = list(state.destroyed)
    vp = dict(state.vp)
    counters: dict[str, int] = {}
    armies: dict[str, Army] = {a.name: a for a in state.armies}
    changed: list[str] = []
    for a in state.armies:
        struct = board.structure_at.get(a.at)
        if struct is None or struct.name in destroyed or struct.kind not in _COUNTED or a.side is Side.MERCENARY:
            continue
        if a.name in fought or state.turn_start.get(a.name, a.at) != a.at:
            counters[a.name] = 0
            continue
        counters[a.name] = count = state.counters.get(a.name, 0) + 1
        events.append(kit.Event(turn, EventKind.COUNTER, f"{a.name} counts turn {count} in {struct.name}",
                                {"army": a.name, "structure": struct.name, "count": count}))
        if can_heal_in(a, struct.kind, struct.colour) and a.name in state.changes and count >= settings.change_turns:
            new_creatures = state.changes[a.name]
            armies[a.name] = replace(a, creatures=new_creatures, units=slots_of(a.rank, new_creatures))
            changed.append(a.name)
            notes.append(f"{a.name} changes its army in {struct.name}")
            events.append(kit.Event(turn, EventKind.CHANGED, notes[-1], {"army": a.name, "structure": struct.name}))
        elif can_heal_in(a, struct.kind, struct.colour):
            need = heal_turns(settings, a, struct.colour, a.name in state.heal_requests)
            if count >= need and a.units != SLOT_CAPACITY:
                armies[a.name] = replace(a, units=SLOT_CAPACITY)
                notes.append(f"{a.name} heals to full in {struct.name}")
                events.append(kit.Event(turn, EventKind.HEALED, notes[-1], {"army": a.name, "structure": struct.name}))
        owner = struct.owner()
        hostile = owner is not None and owner is not a.side
        if hostile and count >= settings.destroy_turns and struct.name not in destroyed:
            destroyed.append(struct.name)
            vp[a.side.value] += settings.destroy_vp
            worth = counted(settings.destroy_vp, "victory point")
            notes.append(f"{a.name} destroys {struct.name}: {a.side.display} +{worth}")
            events.append(kit.Event(turn, EventKind.DESTROYED, notes[-1], {"army": a.name, "structure": struct.name,
                                                                           "side": a.side.value}))
    for name in [n for n, a in armies.items() if board.structure_at.get(a.at) and
                 board.structure_at[a.at].name in destroyed]:
        counters.pop(name, None)
    control, dominates = _control(board, settings, fought, armies)
    notes += _control_changes(state.control, control)
    notes += [f"{name} counts turn {count} in {board.structure_at[armies[name].at].name}"
              for name, count in sorted(counters.items()) if count and name in armies]
    _score_domination(settings, turn, dominates, vp, notes, events)
    mercenary_turns = _disband_mercenaries(board, settings, state, armies, destroyed, notes, events)
    new = state.with_(armies=tuple(armies[a.name] for a in state.armies if a.name in armies), counters=counters,
                      destroyed=tuple(destroyed), vp=vp, control=control, dominates=dominates,
                      mercenary_turns=mercenary_turns, notes=tuple(notes), turn_start={}, fought=(),
                      heal_requests=(), changes={n: c for n, c in state.changes.items()
                                                 if n not in changed and n in armies})
    won = victory(board, settings, new)
    if won is not None:
        winner, ending = won
        text = "the round ends in a draw" if winner == "draw" else f"{Side(winner).display} wins the round"
        events.append(kit.Event(turn, EventKind.VICTORY, f"{text} ({ending})", {"winner": winner, "ending": ending}))
        return new.with_(phase=Phase.OVER, winner=winner, ending=ending,
                         notes=(*new.notes, f"{text} ({ending})")), events
    return new.with_(phase=Phase.ORDERS, turn=turn + 1), events


def _score_domination(settings: CoalitionSettings, turn: int, dominates: Mapping[str, str], vp: dict[str, int],
                      notes: list[str], events: list[kit.Event]) -> None:
    """Each plane a side dominates earns it the plane's victory points (into ``vp``), with its note and event."""
    for plane, side in sorted(dominates.items()):
        gain = _domination_vp(settings, plane, Side(side))
        if gain:
            vp[side] += gain
            notes.append(f"{Side(side).display} dominates {plane}: +{counted(gain, 'victory point')}")
            events.append(kit.Event(turn, EventKind.DOMINATION, notes[-1], {"plane": plane, "side": side, "vp": gain}))


def _disband_mercenaries(board: Board, settings: CoalitionSettings, state: CoalitionState, armies: dict[str, Army],
                         destroyed: list[str], notes: list[str], events: list[kit.Event]) -> dict[str, int]:
    """Mercenaries whose structure another side holds count a failed turn; past the limit they disband (taken out
    of ``armies``). The failed turns each remaining one has counted."""
    mercenary_turns: dict[str, int] = {}
    for name in sorted(n for n, a in armies.items() if a.side is Side.MERCENARY):
        struct = board.by_name.get((armies[name].guards or "").lower())
        if struct is None or struct.name in destroyed:
            continue
        held = any(a.at == struct.at and a.side is not Side.MERCENARY for a in armies.values())
        if not held:
            continue
        failed = state.mercenary_turns.get(name, 0) + 1
        if failed >= settings.mercenary_turns:
            del armies[name]
            notes.append(f"Mercenary {name} failed to retake {struct.name} for {failed} turns and disbands")
            events.append(kit.Event(state.turn, EventKind.DISBANDED, notes[-1],
                                    {"army": name, "structure": struct.name}))
        else:
            mercenary_turns[name] = failed
    return mercenary_turns


def _domination_vp(settings: CoalitionSettings, plane: str, side: Side) -> int:
    if HOME_PLANES.get(side) == plane:
        return settings.home_domination_vp
    if plane in HOME_PLANES.values():
        return settings.enemy_domination_vp
    return settings.mirrodin_domination_vp


def _owned_by(side: str) -> str:
    """A side owning something: ``the Coalition's`` (a common noun), ``Phyrexia's`` (a name)."""
    display = Side(side).display
    return f"the {display}'s" if Side(side) is Side.COALITION else possessive(display)


def _control_changes(before: Mapping[str, str], after: Mapping[str, str]) -> list[str]:
    """The Battle Results' lines on terrain features that changed hands this turn, in name order.

    >>> before, after = {"Fen": "coalition", "Hill": "phyrexia"}, {"Hill": "coalition", "Lake": "phyrexia"}
    >>> for line in _control_changes(before, after):
    ...     print(line)
    Fen is no longer controlled (it was the Coalition's)
    Hill: now the Coalition's (it was Phyrexia's)
    Lake: now Phyrexia's
    """
    out = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if old == new:
            continue
        was = _owned_by(old) if old else ""
        if new is None:
            out.append(f"{name} is no longer controlled (it was {was})")
        else:
            out.append(f"{name}: now {_owned_by(new)}" + (f" (it was {was})" if old else ""))
    return out


def _control(board: Board, settings: CoalitionSettings, engaged: set[str],
             armies: dict[str, Army]) -> tuple[dict[str, str], dict[str, str]]:
    """Who controls each terrain feature, and which side dominates each plane (more than half its features).
    ``engaged``: the armies in a battle this turn (or still in one), which control no feature from afar."""
    by_plane: dict[str, list[Army]] = defaultdict(list)
    at: dict[str, set[Side]] = defaultdict(set)
    for a in armies.values():
        if a.side is Side.MERCENARY:
            continue
        at[a.at].add(a.side)
        if a.name not in engaged:
            by_plane[a.at.split(" ")[0]].append(a)
    control: dict[str, str] = {}
    dominates: dict[str, str] = {}
    for plane in board.planes:
        features = board.features(plane)
        held: dict[Side, int] = defaultdict(int)
        for f in features:
            side = _controller(board, settings, f.at, at.get(f.at, set()), by_plane.get(plane, []))
            if side is not None:
                control[f.name] = side.value
                held[side] += 1
        for side in PLAYER_SIDES:
            if features and held[side] * 2 > len(features):
                dominates[plane] = side.value
    return control, dominates


def _controller(board: Board, settings: CoalitionSettings, place: str, occupying: set[Side],
                nearby: list[Army]) -> Side | None:
    if occupying:
        return next(iter(occupying)) if len(occupying) == 1 else None
    best: dict[Side, int] = {}
    for a in nearby:
        d = board.distance(a.at, place)
        if d is not None and d <= settings.feature_range and d < best.get(a.side, d + 1):
            best[a.side] = d
    if not best:
        return None
    closest = min(best.values())
    sides = [s for s, d in best.items() if d == closest]
    return sides[0] if len(sides) == 1 else None


def victory(board: Board, settings: CoalitionSettings, state: CoalitionState) -> tuple[str, str] | None:
    """The round's winner (a side or ``draw``) and how, or None while it goes on."""
    alive_top = {a.side.value for a in state.armies if a.rank in TOP_RANKS}
    decisive: dict[str, str] = {}  # side -> how
    for player in PLAYER_SIDES:
        side = player
        enemy_kind = StructureKind.STRONGHOLD if side is Side.COALITION else StructureKind.BASE
        enemy_structures = [s for s in board.structures if s.kind is enemy_kind]
        if enemy_structures and all(s.name in state.destroyed for s in enemy_structures):
            decisive[side.value] = "structures"
        other = Side.PHYREXIA if side is Side.COALITION else Side.COALITION
        if other.value in state.top_ranks_at_start and other.value not in alive_top:
            decisive.setdefault(side.value, "kills")
    if len(decisive) == 1:
        return next(iter(decisive.items()))
    c, p = state.vp.get("coalition", 0), state.vp.get("phyrexia", 0)
    if len(decisive) == 2:
        return ("draw" if c == p else "coalition" if c > p else "phyrexia"), "structures"
    if max(c, p) >= settings.victory_vp:
        return ("draw" if c == p else "coalition" if c > p else "phyrexia"), "vp"
    if state.turn >= settings.max_turns:
        return ("draw" if c == p else "coalition" if c > p else "phyrexia"), "turn_limit"
    return None
