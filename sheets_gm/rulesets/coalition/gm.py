"""The GM's corrections in a Coalition match: ``sheets-gm adjust``'s options, the events they make, how they apply."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from sheets_gm.engine.words import possessive
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board, PlaceError
from sheets_gm.rulesets.coalition.enums import EventKind, Phase, Side, StructureKind
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.setup import army_problems, parse_creatures, slots_of
from sheets_gm.rulesets.coalition.state import SLOT_CAPACITY, Adjustment, CoalitionState

ORDER_SEATS = (Side.COALITION.value, Side.PHYREXIA.value)

#: The options of ``adjust`` in a Coalition match.
OPTIONS = (
            kit.GmOption("vp", "SIDE=N", "set a side's victory points"),
            kit.GmOption("position", "ARMY=PLACE", "move an army (a place such as 'Dominaria 3A')"),
            kit.GmOption("units", "ARMY=N1/N2/N3/N4", "set an army's units per slot"),
            kit.GmOption("change", "ARMY=CREATURES", "the judge's army change, applied once the army has counted "
                                                 "change_turns where it heals: '5000 Elves (green 2/2); ...'"),
        )
# A side's concession is every game's ``adjust --concede`` (``engine.gm_events``), ended here by ``concede``.


def events_from_options(seats: Sequence[str], values: Mapping[str, Sequence[str]], reason: str) -> list[Adjustment]:
    """Victory points, positions, units and army changes, each with ``reason``."""
    if not any(values.get(k) for k in ("vp", "position", "units", "change")):
        raise ValueError("nothing to change: give --vp SIDE=N, --position ARMY=PLACE, --units ARMY=N1/N2/N3/N4, "
                         "--change ARMY=CREATURES or --concede SIDE")
    if not reason.strip():
        raise ValueError('--reason is required, e.g. --reason "judge ruling on the raid"; it is written to the log')
    events: list[Adjustment] = []
    for value in values.get("vp", ()):
        side, points = kit.split_option("--vp", value, "SIDE=N", "coalition=120")
        if side.lower() not in ORDER_SEATS or not points.lstrip("-").isdecimal():
            raise ValueError(f"--vp {value!r}: the side is coalition or phyrexia, the points a whole number")
        events.append(Adjustment(reason, vp=(side.lower(), int(points))))
    for value in values.get("position", ()):
        army, place = kit.split_option("--position", value, "ARMY=PLACE", "Frank=Dominaria 3A")
        events.append(Adjustment(reason, position=(army, place)))
    for value in values.get("units", ()):
        army, units = kit.split_option("--units", value, "ARMY=N1/N2/N3/N4", "Frank=5000/2500/1500/1000")
        parts = units.split("/")
        if len(parts) != 4 or not all(p.strip().isdecimal() for p in parts):
            raise ValueError(f"--units {value!r}: four whole numbers separated by /, like 5000/2500/1500/1000")
        n = [int(p) for p in parts]
        events.append(Adjustment(reason, units=(army, (n[0], n[1], n[2], n[3]))))
    for value in values.get("change", ()):
        events.append(Adjustment(reason, change=kit.split_option("--change", value, "ARMY=CREATURES",
                                                                 "Frank=5000 Elves (green 1/1)")))
    return events


def apply_gm_event(board: Board, settings: CoalitionSettings, state: CoalitionState,
                     event: Adjustment) -> kit.Resolution[CoalitionState]:
    """The correction applied, logged with its reason; ValueError naming what does not fit."""
    new = state
    texts = []
    if event.vp is not None:
        if event.vp[1] < 0:
            raise ValueError(f"--vp {event.vp[0]}={event.vp[1]}: victory points are 0 or more")
        new = new.with_(vp={**new.vp, event.vp[0]: event.vp[1]})
        texts.append(f"{event.vp[0]} victory points set to {event.vp[1]}")
    for change in (event.position, event.units):
        if change is None:
            continue
        army = new.army(change[0])
        if army is None:
            raise ValueError(f"there is no army {change[0]!r}")
        if change is event.position:
            try:
                place = board.parse(str(change[1]))
            except PlaceError as exc:
                raise ValueError(f"--position {change[0]}: {exc}") from None
            updated = replace(army, at=place)
            texts.append(f"{army.name} moved to {place}")
        else:
            units = event.units[1] if event.units else army.units
            if any(not 0 <= u <= cap for u, cap in zip(units, SLOT_CAPACITY, strict=True)):
                raise ValueError(f"--units {army.name}: slots hold 0 to 5000, 2500, 1500 and 1000")
            updated = replace(army, units=units)
            texts.append(f"{possessive(army.name)} units set to {'/'.join(map(str, units))}")
        new = new.with_(armies=tuple(updated if a.name == army.name else a for a in new.armies))
    if event.change is not None:
        new, said = _change(board, settings, new, *event.change)
        texts.append(said)
    events: list[kit.Event] = []
    if event.concede is not None:  # a match recorded before every game's --concede: its adjustment concedes
        ended = concede(new, event.concede)
        new, events = ended.state, ended.events
        texts.append(f"{Side(event.concede).display} concedes")
    text = f"GM adjustment ({event.reason}): " + "; ".join(texts)
    return kit.Resolution(new, [kit.Event(state.turn, EventKind.ADJUSTED, text, event.to_json()), *events])


def concede(state: CoalitionState, side: str, reason: str = "") -> kit.Resolution[CoalitionState]:
    """``side`` concedes: the round ends now, the other side the winner. With ``reason`` (``adjust --concede``),
    the GM's line says who concedes and why before the victory; without, the caller's line does."""
    if side not in ORDER_SEATS:
        raise ValueError(f"--concede {side!r}: the side that concedes, coalition or phyrexia")
    if state.phase is Phase.OVER:
        raise ValueError(f"--concede: the round is already over ({state.winner})")
    winner = Side.PHYREXIA if side == Side.COALITION.value else Side.COALITION
    said = f"{winner.display} wins the round (concession)"
    new = state.with_(phase=Phase.OVER, winner=winner.value, ending="concession", notes=(*state.notes, said))
    events = [kit.Event(state.turn, EventKind.VICTORY, said, {"winner": winner.value, "ending": "concession"})]
    if reason:
        events.insert(0, kit.Event(state.turn, EventKind.ADJUSTED, f"GM adjustment ({reason}): {Side(side).display} "
                                                              "concedes", {"reason": reason, "concession": side}))
    return kit.Resolution(new, events)


def _change(board: Board, settings: CoalitionSettings, state: CoalitionState, name: str,
            creatures_text: str) -> tuple[CoalitionState, str]:
    """An army change recorded: checked against the army table and the destroyed bases' colours."""
    army = state.army(name)
    if army is None:
        raise ValueError(f"--change: there is no army {name!r}")
    creatures = tuple(parse_creatures(creatures_text))
    if not creatures:
        raise ValueError(f"--change {name}: list the new creatures, like 5000 Elves (green 2/2); 2500 ...")
    lost = frozenset(s.colour for s in board.structures
                     if s.kind is StructureKind.BASE and s.name in state.destroyed and s.colour is not None)
    problems = army_problems(replace(army, creatures=creatures, units=slots_of(army.rank, creatures)), lost)
    if problems:
        raise ValueError(f"--change {name}: " + "; ".join(problems))
    return (state.with_(changes={**state.changes, army.name: creatures}),
            f"{possessive(army.name)} army change recorded (after {settings.change_turns} turns where it heals)")
