"""Reading a Wesnoth player's typed rows as her turn's orders, and typing orders as rows (its exact inverse).

Her orders tab (``templates/wesnoth/layout.yaml``) has four tables: a row per unit (its action,
destination and waypoints, target, weapon, reroll threshold, advancement, Order and Go), her
leader's recruits (a type a row, with an optional castle hex and name), her standing choices
(what each unit becomes if it kills an attacker in a counter-attack; they stay typed from turn
to turn) and her seat row (End turn).

Rows resolve in the order of their Order numbers, the rows without one after them, top to bottom.
Under ``resolve: step`` a poll that finds Go ticked on rows that read resolves those rows and keeps
the turn hers; End turn (or the deadline) resolves every row still typed and passes the turn. Under
``resolve: batch`` the units table has no Go column (``sheet.batch_spec``): every row waits for End turn
or the deadline.

A cell is checked for what it says (a hex of the map, a unit on the board, an attack of the unit's
type, a unit type of the match's tables…) and each one that cannot be read is a sentence naming its
column and what would be accepted. Whether the row is legal on the board as the rows before it
leave it (reach, zones of control, gold, castle room) is the engine's to say when it resolves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from sheets_gm.engine.name_rule import NAME_RULE, name_problem
from sheets_gm.engine.vocab import VocabularyError, choices, parse_choice
from sheets_gm.engine.words import counted
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.orders import RecruitEntry, TurnOrders, UnitOrder, recruit_row
from sheets_gm.rulesets.wesnoth.resolve.work import TRUE_WORDS
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import Unit, WesnothState

#: The input tables, by name (``layout.yaml``), and the row kinds the adapter lists.
UNITS, RECRUIT, STANDING, SEAT = "units", "recruit", "standing", "seat"
RECRUIT_ROWS, STANDING_ROWS = "recruits", "standing"
NO_WORDS = ("no", "n", "false", "0", "-")
#: A standing row's subject is its unit's id and this: the sync clears rows by subject, and a unit's
#: order row is cleared when it resolves while its standing choice stays.
STANDING_SUFFIX = ", defending"
Cells = dict[str, dict[str, dict[str, kit.CellValue]]]
_ORDER_KEYS = ("order", "action", "to", "via", "target", "weapon", "reroll", "advance", "go")
_SPLIT = re.compile(r"[\s,;]+")
_ROW_NAME = re.compile(r"^recruit\s*\d+$", re.IGNORECASE)
#: The longest name a recruit may be given: it is a unit id, drawn on the board's hex and typed as a target.
NAME_MAX = 40


class Action(StrEnum):
    """What a unit's row does: the Action column's vocabulary."""

    MOVE = "move"
    ATTACK = "attack"
    REST = "rest"
    RECRUIT = "recruit"
    CONQUEST = "conquest"


def standing_row(uid: str) -> str:
    """The subject of a unit's standing-choice row: ``Ann-R1, defending``."""
    return f"{uid}{STANDING_SUFFIX}"


def _listing(names: Sequence[str], limit: int = 12) -> str:
    if not names:
        return "none"
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


@dataclass
class _Reading:
    """What one seat's rows say so far."""

    problems: dict[str, list[str]] = field(default_factory=dict)

    def problem(self, subject: str, text: str) -> None:
        self.problems.setdefault(subject, []).append(text)


@dataclass(frozen=True, slots=True)
class _Row:
    """A unit row that reads: its order, where it stands in the list, and its Go box."""

    order: UnitOrder
    key: tuple[float, int]
    go: bool
    subjects: tuple[str, ...]  # the rows it uses: the unit's, and a recruit's entries


def read_seat(rules: WesnothRules, state: WesnothState, window: kit.Window, seat: str,
              rows: Mapping[str, Sequence[kit.TypedRow]]) -> kit.SeatInput[TurnOrders]:
    """``seat``'s orders for ``window`` from its rows typed for it (see the module notes)."""
    reading = _Reading()
    ready = any(r.ticked("ready") for r in rows.get(SEAT, []) if r.subject == seat)
    if state.finished or seat not in window.seats:  # her opponent's turn (a window read ahead for her is hers)
        return kit.SeatInput(TurnOrders(seat), {}, frozenset({seat}), ready=ready)
    mine = {u.id: u for u in state.units if u.owner == seat}
    leader = next((u for u in mine.values() if u.leader), None)
    typed_recruits = sorted((r for r in rows.get(RECRUIT, []) if r.typed), key=lambda r: r.row)
    held: dict[str, str] = {}
    if leader is not None and leader.id in state.acted and typed_recruits:
        # Recruiting is the leader's whole action, spent this turn: these recruits wait for her next turn.
        held = dict.fromkeys((r.subject for r in typed_recruits),
                             f"{leader.id} has already acted this turn, and recruiting is the leader's whole action")
        typed_recruits = []
    entries = _recruits(rules, state, seat, leader, typed_recruits, reading)
    unit_rows = sorted((r for r in rows.get(UNITS, []) if r.typed), key=lambda r: r.row)
    if leader is not None and typed_recruits and all(r.subject != leader.id for r in unit_rows):
        # The recruits ask for the leader's recruit: its row need not be typed (End turn resolves it where it stands).
        unit_rows.append(kit.TypedRow(UNITS, leader.id, 0, window.key, {}, ""))
    read: list[_Row] = []
    leader_recruits = False
    for row in unit_rows:
        found = _unit_row(rules, state, seat, mine, row, entries, reading)
        if found is None:
            continue
        if found.order.recruit:
            leader_recruits = True
        read.append(found)
    if entries and leader is not None and not leader_recruits:
        why = (f"Not recruited while {leader.id}'s row cannot be read: the leader recruits these in its action; "
               "mend its row" if reading.problems.get(leader.id) else
               f"{leader.id}'s row does not recruit: choose recruit in its Action to recruit these (recruiting is the "
               "leader's whole action)")
        for r in typed_recruits:
            reading.problem(r.subject, why)
    read.sort(key=lambda r: r.key)
    choices_ = _standing(rules, mine, rows.get(STANDING, []), reading)
    go_rows = [r for r in read if r.go]
    step = window.stepwise and not ready and bool(go_rows)
    chosen = go_rows if step else read
    orders = TurnOrders(seat, tuple(r.order for r in chosen), not step, choices_)
    consumed = {seat, *(s for r in chosen for s in r.subjects)}
    if not step:  # the turn ends: every typed row goes to the archive, read or not
        consumed |= {r.subject for r in unit_rows} | {r.subject for r in typed_recruits}
    blocking = [s for s in reading.problems if not s.endswith(STANDING_SUFFIX)]
    if ready and blocking:
        reading.problem(seat, f"End turn waits for {_listing(blocking)}: mend or empty the cells marked ✘ (or the "
                              "deadline resolves the rows that read)")
    return kit.SeatInput(orders, reading.problems, frozenset(consumed), ready=ready and not blocking, go=step,
                         held=frozenset(held), held_why=held)


# -- a unit's row --------------------------------------------------------------------------------
def _unit_row(rules: WesnothRules, state: WesnothState, seat: str, mine: Mapping[str, Unit], row: kit.TypedRow,
              entries: tuple[RecruitEntry, ...] | None, reading: _Reading) -> _Row | None:
    """One unit row as an order, or None with its problems noted."""
    subject = row.subject
    before = len(reading.problems.get(subject, []))
    unit = mine.get(subject)
    if unit is None:
        reading.problem(subject, f"{subject} is not one of your units now: your units are {_listing(list(mine))}")
        return None
    order = _whole(row, "order", "Order", "a whole number from 1: the rows resolve in that order (empty: after the "
                   "numbered rows, top to bottom)", reading, low=1)
    action = _action(rules, unit, row, entries, reading)
    to = _hex(rules, row.text("to"), "Destination", subject, reading)
    via: list[str] = []
    for part in (p for p in _SPLIT.split(row.text("via")) if p):
        h = _hex(rules, part, "Waypoints", subject, reading)
        if h:
            via.append(h)
    target = _target(state, seat, row.text("target"), subject, reading)
    weapon = row.text("weapon")
    utype = rules.utype(unit)
    if weapon and utype.attack_named(weapon) is None:
        reading.problem(subject, f"Weapon {weapon!r}: {unit.type} has no such attack; write one of "
                                 f"{_listing(utype.attack_names())}, or leave it empty for the best one")
    reroll = _whole(row, "reroll", "Reroll below", f"a number of hits: the whole attack is rerolled for "
                    f"{rules.settings.reroll_cost} gold if it scores fewer (empty: never)", reading, low=0)
    advance = _advance(rules, unit, row.text("advance"), "Advance", subject, reading)
    extra = [header for key, header in (("to", "Destination"), ("via", "Waypoints"), ("target", "Target"),
                                        ("weapon", "Weapon"), ("reroll", "Reroll below"), ("advance", "Advance"))
             if row.text(key)]
    if action is Action.MOVE and not row.text("to"):
        reading.problem(subject, "Destination is empty: write the hex to move to (or choose attack to attack from "
                                 f"{unit.at.label})")
    if action is Action.ATTACK:
        moving = [h for h in ("Destination", "Waypoints") if h in extra]
        if moving:
            reading.problem(subject, f"{' and '.join(moving)}: attack strikes from where the unit stands; choose move "
                                     "to move first and attack from the destination")
        if not row.text("target"):
            reading.problem(subject, "Target is empty: write the id of the enemy unit to attack")
    if action in (Action.REST, Action.RECRUIT, Action.CONQUEST) and extra:
        reading.problem(subject, f"{action.value} takes no {', '.join(extra)}: clear "
                                 f"{'it' if len(extra) == 1 else 'them'}, or choose move or attack")
    if action is Action.MOVE and not row.text("target"):
        lone = [h for h in ("Weapon", "Reroll below", "Advance") if h in extra]
        if lone:
            reading.problem(subject, f"{', '.join(lone)}: for an attack after the move; write a Target too, or "
                                     f"clear {'it' if len(lone) == 1 else 'them'}")
    if len(reading.problems.get(subject, [])) > before or action is None:
        return None
    if action is Action.REST:
        made = UnitOrder(unit.id, rest=True)
    elif action is Action.CONQUEST:
        made = UnitOrder(unit.id, conquest=True)
    elif action is Action.RECRUIT:
        made = UnitOrder(unit.id, recruit=entries or ())
    else:
        made = UnitOrder(unit.id, move=to if action is Action.MOVE else "", via=tuple(via), attack=target,
                         weapon=weapon, reroll_below=reroll or 0, advance=advance)
    subjects = (subject, *(recruit_row(n) for n in range(1, len(made.recruit) + 1))) if made.recruit else (subject,)
    return _Row(made, (order if order is not None else float("inf"), row.row if row.row else 10**6),
                row.ticked("go"), subjects)


def _action(rules: WesnothRules, unit: Unit, row: kit.TypedRow, entries: tuple[RecruitEntry, ...] | None,
            reading: _Reading) -> Action | None:
    """The row's action: typed, or the one its other cells ask for (a destination: move; a target: attack;
    the leader's row with recruits typed below: recruit)."""
    text = row.text("action")
    if text:
        try:
            action = parse_choice(Action, text, "action")
        except VocabularyError:
            reading.problem(unit.id, f"Action {text!r} is not an action: choose {choices(Action)}")
            return None
    elif row.text("to"):
        action = Action.MOVE
    elif row.text("target"):
        action = Action.ATTACK
    elif unit.leader and entries is not None:
        action = Action.RECRUIT
    else:
        reading.problem(unit.id, f"Action is empty: choose {choices(Action)}")
        return None
    if action is Action.RECRUIT:
        if not unit.leader:
            reading.problem(unit.id, "Action recruit: only your leader recruits")
            return None
        if entries is None:
            reading.problem(unit.id, "Action recruit: write the types to recruit in the recruit table (a type a row)")
            return None
        if not entries:
            reading.problem(unit.id, "Action recruit: a recruit row below cannot be read; mend or empty it (the "
                                     "leader recruits every row in its one action)")
            return None
    return action


def _whole(row: kit.TypedRow, key: str, column: str, accepted: str, reading: _Reading, low: int) -> int | None:
    try:
        value = kit.whole_number(row.values.get(key), column, accepted)
    except kit.CellError as exc:
        reading.problem(row.subject, str(exc))
        return None
    if value is not None and value < low:
        reading.problem(row.subject, f"{column} {value}: {accepted}")
        return None
    return value


def _hex(rules: WesnothRules, text: str, column: str, subject: str, reading: _Reading) -> str:
    """A typed hex as its label ('' for an empty cell, or one that is no hex of the map: noted)."""
    if not text:
        return ""
    try:
        return rules.board.grid.parse(text).label
    except kit.CoordError as exc:
        reading.problem(subject, f"{column}: {exc}")
        return ""


def _target(state: WesnothState, seat: str, text: str, subject: str, reading: _Reading) -> str:
    """The id of the unit a row attacks ('' if empty or not an enemy's unit on the board: noted)."""
    if not text:
        return ""
    found = state.unit(text) or next((u for u in state.units if u.id.lower() == text.lower()), None)
    enemies = [u.id for u in state.units if u.owner != seat]
    if found is None:
        reading.problem(subject, f"Target {text!r} is not a unit on the board: write the id the Board shows for the "
                                 f"enemy unit to attack ({_listing(enemies)})")
        return ""
    if found.owner == seat:
        reading.problem(subject, f"Target {found.id} is your own unit: attack an enemy unit ({_listing(enemies)})")
        return ""
    return found.id


def _advance(rules: WesnothRules, unit: Unit, text: str, column: str, subject: str, reading: _Reading) -> str:
    """``true``, a class the unit advances to, or '' (empty or no), from a typed advancement choice."""
    word = text.strip().lower()
    if not word or word in NO_WORDS:
        return ""
    targets = rules.utype(unit).advances_to
    if not targets:
        reading.problem(subject, f"{column} {text!r}: {unit.type} has no advancement; leave it empty")
        return ""
    if word in TRUE_WORDS:
        return "true"
    found = next((t for t in targets if t.lower() == " ".join(word.split())), "")
    if not found:
        reading.problem(subject, f"{column} {text!r}: {unit.type} advances to {' or '.join(targets)}; write yes "
                                 "(the first), one of them, or leave it empty")
    return found


# -- the leader's recruits -----------------------------------------------------------------------
def _recruits(rules: WesnothRules, state: WesnothState, seat: str, leader: Unit | None,
              rows: Sequence[kit.TypedRow], reading: _Reading) -> tuple[RecruitEntry, ...] | None:
    """The typed recruit rows as entries (None when none is typed; none at all while one of them cannot be read:
    the recruits are the leader's one action, which must not be spent on part of them)."""
    if not rows:
        return None
    if leader is None:
        for row in rows:
            reading.problem(row.subject, "your leader has died: a player without a leader cannot recruit")
        return ()
    player = state.player(seat)
    faction = rules.tables.factions.get(player.faction) if player else None
    own = list(faction.recruits) if faction else []
    out: list[RecruitEntry] = []
    for row in rows:
        before = len(reading.problems.get(row.subject, []))
        type_text = row.text("type")
        utype = rules.tables.unit(type_text) if type_text else None
        if not type_text:
            reading.problem(row.subject, f"Type is empty: write a unit type to recruit ({_listing(own)}, or another "
                                         "faction's level-0 or -1 recruit as a mercenary; the Units tab lists them)")
        elif utype is None:
            reading.problem(row.subject, f"Type {type_text!r} is not a unit type of this match: "
                                         f"{player.faction if player else 'your faction'} recruits {_listing(own)}; a "
                                         "mercenary is another faction's level-0 or -1 recruit (the Units tab lists "
                                         "them)")
        at = _hex(rules, row.text("hex"), "Hex", row.subject, reading)
        name = row.text("name")
        if name and (state.unit(name) is not None or state.player(name) is not None):
            reading.problem(row.subject, f"Name {name!r} is taken: give another, or leave it empty for "
                                         f"{seat}-R<n>")
        elif name and (_ROW_NAME.match(name) or name.endswith(STANDING_SUFFIX)):
            reading.problem(row.subject, f"Name {name!r} is the name of a row of this tab: give another, or leave "
                                         f"it empty for {seat}-R<n>")
        elif name and (why := _name_refused(name, [p.name for p in state.players])):
            reading.problem(row.subject, f"Name {_shown(name)}: {why}; give another, or leave it empty for "
                                         f"{seat}-R<n>")
        if len(reading.problems.get(row.subject, [])) == before and utype is not None:
            out.append(RecruitEntry(utype.name, at, name))
    if len(out) == len(rows):
        return tuple(out)
    unread = [r.subject for r in rows if reading.problems.get(r.subject)]
    for row in rows:  # the readable ones wait too, and say so: none is recruited until every one reads
        if not reading.problems.get(row.subject):
            reading.problem(row.subject, f"Not recruited while {_listing(unread)} cannot be read: the leader recruits "
                                         "every row in its one action; mend or empty "
                                         + ("it" if len(unread) == 1 else "them"))
    return ()


# -- standing choices ----------------------------------------------------------------------------
def _standing(rules: WesnothRules, mine: Mapping[str, Unit], rows: Sequence[kit.TypedRow],
              reading: _Reading) -> tuple[tuple[str, str], ...]:
    """The standing choices that differ from what the units hold (an emptied row clears a choice)."""
    typed = {r.subject: r for r in rows}
    out: list[tuple[str, str]] = []
    for uid, unit in mine.items():
        subject = standing_row(uid)
        row = typed.get(subject)
        text = row.text("advance") if row is not None else ""
        before = len(reading.problems.get(subject, []))
        choice = _advance(rules, unit, text, "If it kills", subject, reading)
        if len(reading.problems.get(subject, [])) == before and choice != unit.advance:
            out.append((uid, choice))
    return tuple(out)


# -- typing orders -------------------------------------------------------------------------------
def typed_cells(window: kit.Window, seat: str, orders: TurnOrders, recruit_rows: int) -> Cells:
    """What ``seat`` would type for ``orders``, read back by ``read_seat`` as the same orders: a unit's row per
    order row, numbered in their order (with Go ticked for a step that keeps the turn, in a stepwise window), the
    leader's recruits a row each, and the standing choices the orders change."""
    if seat != window.seats[0]:
        return {}
    out: Cells = {}
    go = window.stepwise and not orders.end_turn
    for n, row in enumerate(orders.rows, start=1):
        out.setdefault(UNITS, {})[row.unit] = _row_cells(row, n, go if window.stepwise else None)
        if row.recruit:
            if len(row.recruit) > recruit_rows:
                raise ValueError(f"{row.unit} recruits {len(row.recruit)} units; the recruit table has "
                                 f"{counted(recruit_rows, 'row')}")
            out[RECRUIT] = {recruit_row(i): {"type": e.type, "hex": e.at, "name": e.id}
                            for i, e in enumerate(row.recruit, start=1)}
    for uid, choice in orders.advance_choices:
        out.setdefault(STANDING, {})[standing_row(uid)] = {"advance": _advance_text(choice)}
    return out


def _advance_text(choice: str) -> str:
    return "yes" if choice == "true" else choice


def _row_cells(row: UnitOrder, n: int, go: bool | None) -> dict[str, kit.CellValue]:
    """The row's cells; ``go`` None: a batch window, whose table has no Go column."""
    if row.rest:
        action = Action.REST.value
    elif row.recruit:
        action = Action.RECRUIT.value
    elif row.conquest:
        action = Action.CONQUEST.value
    elif row.move:
        action = Action.MOVE.value
    elif row.attack:
        action = Action.ATTACK.value
    else:
        action = ""
    cells: dict[str, kit.CellValue] = dict.fromkeys(_ORDER_KEYS, "")
    cells.update({"order": n, "action": action, "to": row.move, "via": " ".join(row.via), "target": row.attack,
                  "weapon": row.weapon, "reroll": row.reroll_below or "", "advance": _advance_text(row.advance)})
    if go is None:
        del cells["go"]
    else:
        cells["go"] = go
    return cells


def _name_refused(name: str, players: Sequence[str]) -> str:
    """Why a recruit may not be called ``name`` ('' when it may): it holds a character that would let it pass for
    another name, it is longer than a unit id may be, or it is the name sheets-gm gives one of ``players``' recruits
    left unnamed (``Bo-R3``: that recruit would find its id taken, and a player could take another's)."""
    if problem := name_problem(name):
        return f"{problem} ({NAME_RULE})"
    if len(name) > NAME_MAX:
        return f"it is {len(name)} characters long; a unit's name is at most {NAME_MAX}"
    if any(re.fullmatch(rf"{re.escape(p)}-(R\d+|L)", name, re.IGNORECASE) for p in players):
        return "that is the name sheets-gm gives a recruit left unnamed (<player>-R<n>) or a leader (<player>-L)"
    return ""


def _shown(name: str) -> str:
    """``name`` as an answer quotes it: a pasted paragraph cut to its first words, said so."""
    return repr(name) if len(name) <= NAME_MAX else f"{name[:NAME_MAX]!r}… ({len(name)} characters)"
