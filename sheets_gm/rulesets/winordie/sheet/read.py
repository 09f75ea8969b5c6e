"""Reading a Win or Die player's typed rows as orders, and typing orders as rows (its exact inverse).

The orders tab has four tables (``templates/winordie/layout.yaml``): her units (the hex each
is deployed on, in a deployment window), her actions (one a row, ``Row 1`` down, read in
order), her standing reactions (a standing table: they stay from turn to turn, read in her
opponent's turns, never consumed) and her seat row (Go, Ready, Surrender).

A cell is checked only against what the player may know: her own units and cards, the map,
the public board (exposed units' ids, face-down tokens' names) and the tactics. So a reply
never tells her whether a guessed id is a hidden enemy unit. Whether an action is legal
(range, sight, tokens…) is the engine's to say when the row resolves.

Actions are read from ``Row 1`` down, empty rows skipped (the sync reads an ordered table's
typed rows moved up over the empty ones, so the engine's row numbers are the rows' places in
that list), to the first row that cannot be read: that row and the rows below wait, with a
sentence saying why. Ready ends the turn only when every typed row reads. Actions typed in the
opponent's turn are held: kept as typed, and read when her own turn opens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TypeVar

from sheets_gm.engine.name_rule import NAME_RULE, name_problem
from sheets_gm.engine.vocab import VocabularyError, choices, parse_choice
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.cards import CardTableError, parse_enhancements
from sheets_gm.rulesets.winordie.enums import AbilityType, ActionKind, Enhancement, Phase, Side, Trigger
from sheets_gm.rulesets.winordie.orders import Action, Placement, Reaction, WodOrders, action_row, reaction_row
from sheets_gm.rulesets.winordie.rules import WodRules
from sheets_gm.rulesets.winordie.state import WodState

UNITS, ACTIONS, REACTIONS, SEAT = "units", "actions", "reactions", "seat"
SURRENDER = "surrender"
#: The longest New id a called unit may be given: it is a unit id, read in the log and typed as a target.
ID_MAX = 40
Cells = dict[str, dict[str, dict[str, kit.CellValue]]]
E = TypeVar("E", bound=Enum)


def _row_number(subject: str) -> int:
    """The number of an action or reaction row's subject (0 for anything else)."""
    tail = subject.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdecimal() else 0


def _choice(enum: type[E], text: str) -> E | None:
    """The member of ``enum`` typed as ``text``, or None (empty or not one of its values)."""
    if not text:
        return None
    try:
        return parse_choice(enum, text, "value")
    except VocabularyError:
        return None


def _listing(names: Sequence[str]) -> str:
    return ", ".join(names) if names else "none"


@dataclass
class _Reading:
    """What one seat's rows say so far."""

    problems: dict[str, list[str]] = field(default_factory=dict)
    consumed: set[str] = field(default_factory=set)

    def problem(self, subject: str, text: str) -> None:
        self.problems.setdefault(subject, []).append(text)


def read_seat(rules: WodRules, state: WodState, window: kit.Window, seat: str,
              rows: Mapping[str, Sequence[kit.TypedRow]]) -> kit.SeatInput[WodOrders]:
    """``seat``'s part of the orders of ``window`` from its rows typed for it (see the module notes)."""
    reading = _Reading()
    seat_rows = [r for r in rows.get(SEAT, []) if r.subject == seat]
    go = any(r.ticked("go") for r in seat_rows)
    ticked_ready = any(r.ticked("ready") for r in seat_rows)
    surrender = _surrender(state, seat, seat_rows, reading)
    reading.consumed.add(seat)
    if window.phase == Phase.DEPLOY.value:
        placements = _placements(rules, state, seat, rows.get(UNITS, []), reading, ticked_ready)
        orders = WodOrders(deploy={seat: placements} if placements else {}, surrender=surrender)
        return kit.SeatInput(orders, reading.problems, frozenset(reading.consumed),
                             ready=ticked_ready and not reading.problems)
    acting = window.seats[0]
    if seat != acting:
        # Her actions typed in her opponent's turn are for her own next turn: kept as typed, read when it opens.
        ahead = frozenset(row.subject for row in rows.get(ACTIONS, []) if row.typed)
        reactions = _reactions(state, seat, rows.get(REACTIONS, []), reading)
        orders = WodOrders(reactions={seat: reactions} if reactions else {}, surrender=surrender)
        # The turn does not wait for her (the window awaits the acting player only): her Ready changes nothing.
        return kit.SeatInput(orders, reading.problems, frozenset(reading.consumed), ready=ticked_ready,
                             go=bool(surrender), held=ahead)
    # Her own standing reactions stay in their (standing) table for the opponent's next turn, unread now; each says
    # so (or why it cannot be read), and a refusal there holds back neither her Ready nor her turn.
    actions = _actions(rules, state, seat, rows.get(ACTIONS, []), reading)
    hold = (seat,) if go and not ticked_ready and window.stepwise else ()  # batch mode: Go means nothing
    orders = WodOrders(actions={seat: actions} if actions else {}, hold=hold, surrender=surrender)
    standing, notes = _own_reactions(state, seat, rows.get(REACTIONS, []))
    return kit.SeatInput(orders, {**standing, **reading.problems}, frozenset(reading.consumed),
                         ready=ticked_ready and not reading.problems, go=go or bool(surrender), notes=notes)


def _own_reactions(state: WodState, seat: str,
                   rows: Sequence[kit.TypedRow]) -> tuple[dict[str, list[str]], dict[str, tuple[str, ...]]]:
    """Her standing reactions as her own turn answers them, unread in it: the cells that cannot be read (to mend
    before the opponent's turn, where they are read), and what each readable one waits for."""
    reading = _Reading()
    other = state.other(seat)
    notes: dict[str, tuple[str, ...]] = {}
    for row in (r for r in rows if r.typed):
        for r in _reactions(state, seat, [row], reading):
            notes[row.subject] = (f"Stands for {other}'s turn ({r.trigger_words()}): a standing reaction waits for "
                                  "your opponent's turn and is not used in your own; it stays from turn to turn "
                                  "until you change it.",)
        if row.subject in notes or row.subject in reading.problems:
            continue
        if any(u.id.lower() == row.text("unit").lower() and u.at is None for u in state.units if u.owner == seat):
            notes[row.subject] = (f"Stands for {other}'s turns once {row.text('unit')} is deployed: a standing "
                                  "reaction is read in your opponent's turns, from turn to turn until you change it.",)
        else:  # its unit has fallen
            notes[row.subject] = (f"{row.text('unit')} has fallen: this reaction can no longer fire (clear the row).",)
    problems = {s: [*said[:-1], f"{said[-1]} (mend it before {other}'s turn, where it is read)"]
                for s, said in reading.problems.items() if said}
    return problems, notes


def _surrender(state: WodState, seat: str, seat_rows: Sequence[kit.TypedRow], reading: _Reading) -> tuple[str, ...]:
    for row in seat_rows:
        text = row.text(SURRENDER)
        if not text:
            continue
        if text.lower() != SURRENDER:
            reading.problem(seat, f"Surrender {text!r}: choose surrender, or leave it empty")
        elif state.phase is not Phase.ACTIONS:
            reading.problem(seat, "Surrender: a game is surrendered once its battle has begun, not while deploying")
        else:
            return (seat,)
    return ()


# -- deployment ----------------------------------------------------------------------------
def _placements(rules: WodRules, state: WodState, seat: str, rows: Sequence[kit.TypedRow], reading: _Reading,
                ready: bool) -> tuple[Placement, ...]:
    """A hex per undeployed unit: on the map, a plain in or next to her baseline, each hex once (all of
    them by the time she is ready)."""
    board = rules.board
    allowed = board.deploy_hexes(state.legions[seat].slot)
    allowed_text = _listing([h.label for h in allowed])
    waiting = [u.id for u in state.units if u.owner == seat and u.at is None]
    chosen: dict[str, str] = {}  # hex label → unit
    out: list[Placement] = []
    for row in rows:
        text = row.text("deploy")
        if not text:
            continue
        if row.subject not in waiting:
            reading.problem(row.subject, f"Deploy on {text!r}: {row.subject} is not waiting to be deployed")
            continue
        if not board.is_hex(text):
            reading.problem(row.subject, f"Deploy on {text!r} is not a hex of the map: write one of {allowed_text}")
            continue
        at = board.parse(text)
        refusal = board.deploy_refusal(at, state.legions[seat].slot)
        if refusal is not None:
            reading.problem(row.subject, f"Deploy on {at.label}: {refusal}; write a plain in or next to your "
                                         f"baseline, one of {allowed_text}")
            continue
        if at.label in chosen:
            reading.problem(row.subject, f"Deploy on {at.label}: {chosen[at.label]}'s row names that hex already; "
                                         "one unit a hex")
            continue
        chosen[at.label] = row.subject
        out.append(Placement(row.subject, text))
        reading.consumed.add(row.subject)
    missing = [uid for uid in waiting if uid not in {p.unit for p in out}
               and uid not in reading.problems]
    if missing and (out or ready):
        reading.problem(seat, f"every unit is deployed at once: write a hex for {_listing(missing)} too")
    return tuple(out)


# -- actions -------------------------------------------------------------------------------
def _actions(rules: WodRules, state: WodState, seat: str, rows: Sequence[kit.TypedRow],
             reading: _Reading) -> tuple[Action, ...]:
    """The typed rows from Row 1 down to the first unreadable one. A row below it waits for it, and says so after
    what is wrong with the row itself, if anything (issue 64: "waiting: Row 1 above cannot be read yet" alone hid
    a row's own fault until Row 1 was mended)."""
    out: list[Action] = []
    stop = ""
    called: dict[str, str] = {}  # ids of units called by earlier rows → their card
    calls_unread = False  # a row above that is not read may call the unit a row below names
    for row in sorted(rows, key=lambda r: _row_number(r.subject)):
        if not row.typed:  # the sync moves the rows below an emptied row up (``ordered`` table): nothing stops here
            continue
        if stop:
            for text in _own_faults(rules, state, seat, row, called, calls_unread):
                reading.problem(row.subject, text)
            reading.problem(row.subject, f"waiting: {stop}")
            calls_unread = calls_unread or _choice(ActionKind, row.text("action")) in (None, ActionKind.CALL)
            continue
        action = _action(rules, state, seat, row, called, reading)
        if action is None:
            stop = f"{row.subject} above cannot be read yet"
            calls_unread = _choice(ActionKind, row.text("action")) in (None, ActionKind.CALL)
            continue
        number = _row_number(row.subject)
        out.append(action if number == len(out) + 1 else replace(action, row=number))
        reading.consumed.add(row.subject)
    return tuple(out)


def _own_faults(rules: WodRules, state: WodState, seat: str, row: kit.TypedRow, called: Mapping[str, str],
                calls_unread: bool) -> list[str]:
    """What is wrong with a row below an unreadable one, of its own: its faults as ``_action`` finds them, but for
    its Unit where a row above that is not read may call the unit it names (``calls_unread``)."""
    scratch = _Reading()
    _action(rules, state, seat, row, dict(called), scratch)
    return [f for f in scratch.problems.get(row.subject, []) if not (calls_unread and f.startswith("Unit "))]


def _not_yours(state: WodState, seat: str, unit_text: str) -> str:
    """Why a Unit cell names none of the player's units on the board: empty, the other player's unit (by the name
    the board shows: its id once revealed, its token while hidden), or no unit there."""
    if not unit_text:
        return "Unit is empty"
    wanted = unit_text.lower()
    owner = next((u.owner for u in state.units if u.owner != seat and u.at is not None
                  and ((not u.hidden and u.id.lower() == wanted) or (u.token and u.token.lower() == wanted))), "")
    if owner:
        return f"Unit {unit_text!r} is {owner}'s, not yours"
    return f"Unit {unit_text!r} is not one of your units on the board"


def _action(rules: WodRules, state: WodState, seat: str, row: kit.TypedRow, called: dict[str, str],
            reading: _Reading) -> Action | None:
    """One action row, or None with its problems noted."""
    problems: list[str] = []
    kind_text = row.text("action")
    kind = _choice(ActionKind, kind_text)
    if kind is None:
        problems.append(f"Action {kind_text!r} is not an action: choose {choices(ActionKind)}" if kind_text else
                        f"Action is empty: choose {choices(ActionKind)}")
    unit = ""
    if kind is not ActionKind.COUNCIL:
        unit_text = row.text("unit")
        mine = {u.id.lower(): u.id for u in state.units if u.owner == seat and u.at is not None}
        unit = mine.get(unit_text.lower(), "") or next((c for c in called if c.lower() == unit_text.lower()), "")
        if not unit:
            problems.append(_unit_refused(state, seat, unit_text, mine.values(), "an action row is read in your turns"))
    target = row.text("target")
    side: Side | None = None
    enhancements: tuple[Enhancement, ...] = ()
    if kind is not None:
        problems += _target_problems(rules, state, seat, kind, unit if unit not in called else "", target)
    if kind is ActionKind.CALL:
        side_text = row.text("side")
        side = _choice(Side, side_text)
        if side is None:
            problems.append(f"Side {side_text!r} is not a side: choose left or right of the caller" if side_text else
                            "Side is empty: choose left or right of the caller, where the called unit joins")
        try:
            enhancements = parse_enhancements(row.text("enhancements"), "Enhancements")
        except CardTableError as exc:
            problems.append(str(exc))
        if (typed := row.text("new_id")) and (why := _id_refused(rules, state, typed)):
            shown = repr(typed) if len(typed) <= ID_MAX else f"{typed[:ID_MAX]!r}… ({len(typed)} characters)"
            problems.append(f"New id {shown}: {why}; give another, or leave it empty for {seat}-C<n>")
    for text in problems:
        reading.problem(row.subject, text)
    if problems or kind is None:
        return None
    new_id = row.text("new_id") if kind is ActionKind.CALL else ""
    if kind is ActionKind.CALL:
        called[new_id or f"{seat}-C{state.legions[seat].calls + len(called) + 1}"] = target
    aim = row.text("aim") if kind is ActionKind.ABILITY else ""
    return Action(kind, unit, target, side, new_id, enhancements, aim)


def _target_problems(rules: WodRules, state: WodState, seat: str, kind: ActionKind, unit: str,
                     target: str) -> list[str]:
    """What is wrong with a row's Target for its kind of action (``unit``: her acting unit on the board, if known)."""
    if not target:
        return [f"Target is empty: {_TARGET_HELP[kind]}"]
    if kind is ActionKind.MOVE and not rules.board.is_hex(target):
        return [f"Target {target!r} is not a hex of the map: {_TARGET_HELP[kind]}"]
    if kind is ActionKind.ATTACK and not _public_target(rules, state, target):
        return [f"Target {target!r} names no hex, exposed unit or face-down token: {_TARGET_HELP[kind]}"]
    if kind is ActionKind.ABILITY and unit:
        owner = state.unit(unit)
        assert owner is not None
        card = state.card_of(owner)
        if card.ability(target) is None:
            usable = [a.name for a in card.abilities if a.type in (AbilityType.ACTION, AbilityType.ULTIMATE)]
            return [f"Target {target!r}: {unit} ({card.name}) has no such ability; write one it can activate: "
                    f"{_listing(usable)}"]
    if kind is ActionKind.COUNCIL and not any(t.lower() == target.lower() for t in state.tactics):
        return [f"Target {target!r} is not a tactic: write one of {_listing(sorted(state.tactics))}"]
    barrack = state.legions[seat].barrack
    if kind is ActionKind.CALL and not any(c.lower() == target.lower() for c in barrack):
        return [f"Target {target!r} is not a card in your barrack: write one of {_listing(sorted(set(barrack)))}"]
    return []


_TARGET_HELP = {
    ActionKind.MOVE: "write the destination hex, like C4",
    ActionKind.ATTACK: "write the target's hex (C4), an exposed unit's id or a face-down token's name (Bo token 2)",
    ActionKind.CALL: "write the card to call from your barrack",
    ActionKind.ABILITY: "write the name of the unit's action or ultimate ability",
    ActionKind.COUNCIL: "write the tactic the War Council activates",
}


def _public_target(rules: WodRules, state: WodState, text: str) -> bool:
    """Whether ``text`` names something anyone may name: a hex, an exposed unit's id, a face-down token (its
    name stays the unit's once revealed: the reveal is public)."""
    wanted = text.lower()
    return rules.board.is_hex(text) or any(
        u.at is not None and ((not u.hidden and u.id.lower() == wanted) or u.token.lower() == wanted)
        for u in state.units)


# -- reactions -----------------------------------------------------------------------------
def _unit_refused(state: WodState, seat: str, unit_text: str, on_board: Iterable[str], read_in: str) -> str:
    """Why ``unit_text`` names no unit of hers on the board (``on_board``: the ids she may write), with what to
    write: her units, or, before any is deployed, that a row of this table (``read_in``: when it is read) waits."""
    ids = sorted(on_board)
    return f"{_not_yours(state, seat, unit_text)}: " + (
        f"write one of {_listing(ids)}" if ids else
        f"none of your units is on the board yet (deploy them first: {read_in})")


def _reactions(state: WodState, seat: str, rows: Sequence[kit.TypedRow], reading: _Reading) -> tuple[Reaction, ...]:
    """The readable reaction rows, in order; an unreadable one is left out (and left in the sheet), and so is
    the reaction of a unit of hers that has fallen since she wrote it (nothing to mend: it just cannot fire), or that
    is not deployed yet (checked against its card, read once it is on the board)."""
    out: list[Reaction] = []
    mine = {u.id.lower(): u for u in state.units if u.owner == seat and u.at is not None}
    to_deploy = {u.id.lower(): u for u in state.units if u.owner == seat and u.at is None}
    fallen = {u.id.lower() for u in state.dead if u.owner == seat}
    for row in sorted(rows, key=lambda r: _row_number(r.subject)):
        if not row.typed or row.text("unit").lower() in fallen:
            continue
        before = len(reading.problems.get(row.subject, []))
        unit_text = row.text("unit")
        unit = mine.get(unit_text.lower())
        waiting = unit is None and unit_text.lower() in to_deploy  # read once deployed: nothing to mend
        if unit is None and not waiting:
            reading.problem(row.subject, _unit_refused(state, seat, unit_text, (u.id for u in mine.values()),
                                                       "a reaction is read in your opponent's turns"))
        unit = to_deploy[unit_text.lower()] if waiting else unit
        ability = row.text("ability")
        if unit is not None:
            card = state.card_of(unit)
            found = card.ability(ability) if ability else None
            if found is None or found.type is not AbilityType.REACTION:
                own = [a.name for a in card.abilities if a.type is AbilityType.REACTION]
                reading.problem(row.subject, f"Ability {ability!r}: {unit.id} ({card.name}) has no such reaction; its "
                                             f"reactions: {_listing(own)}")
        when_text = row.text("when")
        when = _choice(Trigger, when_text) if when_text else Trigger.ATTACKED
        if when is None:
            reading.problem(row.subject, f"When {when_text!r}: choose {choices(Trigger)} (empty is attacked)")
        within = _within(row.values.get("within"))
        if within is None:
            reading.problem(row.subject, f"Within {row.text('within')!r} is not a number of hexes: write 0 or more "
                                         "(empty is 1)")
        if len(reading.problems.get(row.subject, [])) > before or unit is None or when is None or within is None \
                or waiting:
            continue
        number = _row_number(row.subject)
        out.append(Reaction(unit.id, ability, when, within, number if number != len(out) + 1 else 0))
    return tuple(out)


def _within(value: kit.CellValue) -> int | None:
    """A typed number of hexes (empty is 1), or None if it is not a whole number from 0."""
    if value is None or value == "":
        return 1
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float):  # a sheet may give 2.0 for 2; NaN and infinity are no number of hexes
        return int(value) if value.is_integer() and value >= 0 else None
    text = str(value).strip()
    if text.endswith(".0"):
        text = text[:-2]
    return int(text) if text.isdecimal() else None


# -- typing orders -------------------------------------------------------------------------
def typed_cells(window: kit.Window, seat: str, orders: WodOrders) -> Cells:
    """What ``seat`` would type for ``orders`` (read back by ``read_seat`` as the same orders). In her turn her list
    of actions replaces the rows typed (rows a reaction stopped are still there), and a list of standing reactions
    replaces the one typed: both are list tables, whose rows below the list the core empties
    (``sync.autoplay.typed_values``)."""
    out: Cells = {}
    if window.phase == Phase.DEPLOY.value:
        placements = orders.deploy.get(seat, ())
        if placements:
            out[UNITS] = {p.unit: {"deploy": p.at} for p in placements}
    if window.phase == Phase.ACTIONS.value and seat == window.seats[0]:
        out[ACTIONS] = {action_row(n): _action_cells(a) for n, a in enumerate(orders.actions.get(seat, ()), start=1)}
    if seat in orders.reactions:
        out[REACTIONS] = {reaction_row(n): _reaction_cells(r) for n, r in enumerate(orders.reactions[seat], start=1)}
    seat_cells: dict[str, kit.CellValue] = {}
    if seat in orders.hold:
        seat_cells["go"] = True
    if seat in orders.surrender:
        seat_cells[SURRENDER] = SURRENDER
    if seat_cells:
        out[SEAT] = {seat: seat_cells}
    return out


def _action_cells(a: Action) -> dict[str, kit.CellValue]:
    cells: dict[str, kit.CellValue] = {"unit": a.unit, "action": a.kind.value, "target": a.target}
    if a.side is not None:
        cells["side"] = a.side.value
    if a.id:
        cells["new_id"] = a.id
    if a.enhancements:
        cells["enhancements"] = ", ".join(e.value for e in a.enhancements)
    if a.aim:
        cells["aim"] = a.aim
    return cells


def _reaction_cells(r: Reaction) -> dict[str, kit.CellValue]:
    cells: dict[str, kit.CellValue] = {"unit": r.unit, "ability": r.ability, "when": r.when.value}
    if r.within != 1:
        cells["within"] = r.within
    return cells


def _id_refused(rules: WodRules, state: WodState, new_id: str) -> str:
    """Why a called unit may not be called ``new_id`` ('' when it may): a target names a unit by its id first, so an
    id that is a face-down token's name, an id sheets-gm gives (a legion's ``Bo-3``, a call's ``Bo-C2``, any
    legion's) or a hex would let one unit pass for another; nor may it hold an invisible character or be a paragraph."""
    if problem := name_problem(new_id):
        return f"{problem} ({NAME_RULE})"
    if len(new_id) > ID_MAX:
        return f"it is {len(new_id)} characters long; a unit's id is at most {ID_MAX}"
    for seat in state.legions:
        if re.fullmatch(rf"{re.escape(seat)}\s+token\s+\d+", new_id, re.IGNORECASE):
            return "that is the name of a face-down token (<player> token <n>)"
        if re.fullmatch(rf"{re.escape(seat)}-C?\d+", new_id, re.IGNORECASE):
            return "that is the id sheets-gm gives a unit of a legion (<player>-<n>) or a call (<player>-C<n>)"
    if rules.board.is_hex(new_id):
        return "that is the name of a hex, which a target may name"
    return ""
