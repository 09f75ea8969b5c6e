"""The GM's logged adjustments: how abilities' and tactics' effects are applied, since card texts are free.

``sheets-gm adjust`` offers, for a Win or Die match: ``--damage UNIT=N``, ``--heal UNIT=N``,
``--move UNIT=HEX``, ``--reveal UNIT``, ``--morale PLAYER=N`` (or ``+N`` / ``-N``),
``--fatigue PLAYER=…``, ``--crystals PLAYER=…``, ``--done N`` (a pending effect settled), and, for
the action a standing reaction stopped, ``--cancel UNIT``, ``--dice UNIT=-N``, ``--soften UNIT=N`` and
``--counter-first UNIT`` (applied when its row resolves), each with a reason written to the log. Damage that kills, and
morale or fatigue that cross, end the game as in play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.ending import check_defeat, finish_game
from sheets_gm.rulesets.winordie.enums import ActionKind, Ending, EventKind, GmKind, PassiveCue, Phase
from sheets_gm.rulesets.winordie.rules import WodRules, face_down_named, kill, public_name, reveal
from sheets_gm.rulesets.winordie.state import ActionChange, Pending, Unit, WodState


class GmEventError(ValueError):
    """A GM adjustment that does not fit the state (unknown unit, hex taken, negative crystals…)."""


@dataclass(frozen=True, slots=True)
class Adjustment:
    """One GM adjustment: ``kind`` on ``target`` (a unit, a player or a pending effect's number) with
    ``value`` (an amount, or a hex for a move); ``relative`` amounts are added, others set."""

    kind: GmKind
    target: str
    value: str = ""
    reason: str = ""
    relative: bool = False

    def to_json(self) -> dict[str, Any]:
        """The adjustment as JSON-ready data."""
        return {"kind": self.kind.value, "target": self.target, "value": self.value, "reason": self.reason,
                "relative": self.relative}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Adjustment:
        """Rebuild an adjustment saved by ``to_json`` (KeyError or ValueError if malformed)."""
        return cls(GmKind(data["kind"]), str(data["target"]), str(data.get("value", "")), str(data.get("reason", "")),
                   bool(data.get("relative", False)))


OPTIONS = (
    kit.GmOption("damage", "UNIT=N",
                 "deal N damage to a unit (an ability's or tactic's effect); it dies at its health"),
    kit.GmOption("heal", "UNIT=N", "heal N damage of a unit"),
    kit.GmOption("move", "UNIT=HEX", "move a unit to a free hex"),
    kit.GmOption("reveal", "UNIT", "turn a face-down unit face up (its id or its token's name)"),
    kit.GmOption("morale", "PLAYER=N", "set a legion's morale, or change it with +N / -N"),
    kit.GmOption("fatigue", "PLAYER=N", "set a legion's fatigue, or change it with +N / -N"),
    kit.GmOption("crystals", "PLAYER=N", "set a player's crystals, or change them with +N / -N"),
    kit.GmOption("cancel", "UNIT",
                 "the action of UNIT a reaction stopped does nothing when its row resolves (a Parry)"),
    kit.GmOption("dice", "UNIT=N", "the attack of UNIT a reaction or its passive stopped rolls N more dice, or fewer "
                              "with -N (a Brace; a Frenzy: +1)"),
    kit.GmOption("soften", "UNIT=N", "the attack of UNIT a reaction stopped deals N less damage"),
    kit.GmOption("counter-first", "UNIT", "the attack of UNIT a reaction stopped meets its target's counter-attack "
                                      "first, rolled with the counter's keyed dice, and none after it (a Brace)"),
    # Last: a --done given with a --cancel settles the reaction once the change it asks for is recorded.
    kit.GmOption("done", "N", "mark the pending effect number N as applied (it leaves the GM's list)"),
)


def events_from_options(seats: Sequence[str], values: Mapping[str, Sequence[str]], reason: str) -> list[Adjustment]:
    """Adjustments from ``adjust``'s options, in the order of ``OPTIONS``; ValueError naming the option."""
    out: list[Adjustment] = []
    if not any(values.get(o.flag) for o in OPTIONS):
        raise ValueError("nothing to change: give " + ", ".join(f"--{o.flag} {o.metavar}" for o in OPTIONS))
    if not reason.strip():
        raise ValueError('--reason is required, e.g. --reason "Fire Volley of A3 hits B2"; it is written to the log')
    for option in OPTIONS:
        kind = GmKind(option.flag)
        for text in values.get(option.flag, ()):
            if kind in (GmKind.REVEAL, GmKind.DONE, GmKind.CANCEL, GmKind.COUNTER_FIRST):
                if not text.strip():
                    raise ValueError(f"--{option.flag}: write {option.metavar}")
                if kind is GmKind.DONE and not text.strip().isdecimal():
                    raise ValueError(f"--done {text!r}: give the number of a pending effect, like 3")
                out.append(Adjustment(kind, text.strip(), reason=reason))
                continue
            key, sep, value = text.partition("=")
            if not sep or not key.strip() or not value.strip():
                example = {GmKind.DAMAGE: "A3=2", GmKind.HEAL: "A3=2", GmKind.MOVE: "A3=C4", GmKind.DICE: "A3=-2",
                           GmKind.SOFTEN: "A3=1"}.get(kind, f"{seats[0]}=+1")
                raise ValueError(f"--{option.flag} {text!r}: write {option.metavar}, like {example}")
            value = value.strip()
            relative = value[0] in "+-"
            if kind is not GmKind.MOVE:
                number = value[1:] if relative else value
                if not number.isdecimal():
                    raise ValueError(f"--{option.flag} {text!r}: {value!r} is not a whole number")
                if kind in (GmKind.MORALE, GmKind.FATIGUE, GmKind.CRYSTALS) and key.strip() not in seats:
                    raise ValueError(f"--{option.flag}: there is no player {key.strip()!r}; the players are "
                                     f"{' and '.join(seats)}")
                if kind in (GmKind.DAMAGE, GmKind.HEAL, GmKind.SOFTEN) and relative:
                    raise ValueError(f"--{option.flag} {text!r}: give the amount without a sign")
            out.append(Adjustment(kind, key.strip(), value, reason, relative))
    return out


def reason_problem(state: WodState, adj: Adjustment) -> str:
    """Why the GM's reason may not go to the public Log ('' when it may): it names a face-down unit by its id (as
    the option may), which would tell the other player which unit that token is."""
    unit = face_down_named(state, adj.reason)
    if unit is not None:
        return (f"the reason {adj.reason!r} names {unit.id}, a face-down unit: the Log every player reads "
                f"writes it word for word, so name it as the board shows it, {unit.token!r} (and not by its "
                "card)")
    return ""


def apply_gm_event(rules: WodRules, state: WodState, adj: Adjustment) -> tuple[WodState, list[kit.Event]]:
    """The adjustment applied to a copy of ``state``, with its logged event; GmEventError if it does not fit."""
    if not adj.reason.strip():
        raise GmEventError("an adjustment needs a reason; it is written to the log")
    new = state.copy()
    events: list[kit.Event] = []
    turn = new.turn
    why = f": {adj.reason}"
    if adj.kind is GmKind.DONE:
        found = next((p for p in new.pending if str(p.id) == adj.target), None)
        if found is None:
            raise GmEventError(f"there is no pending effect {adj.target}; pending: "
                               f"{', '.join(str(p.id) for p in new.pending) or 'none'}")
        new.pending.remove(found)
        source = new.unit(found.source)
        named = public_name(new, source) if source is not None else found.source
        # "settles": the entry leaves the list, whatever was applied for it (perhaps nothing: a Charge with no die)
        events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT, f"GM settles {found.name} of {named}{why}.",
                                {"field": "done", "pending": found.id, "reason": adj.reason}))
        return new, events
    if adj.kind in (GmKind.MORALE, GmKind.FATIGUE, GmKind.CRYSTALS):
        legion = new.legions.get(adj.target)
        if legion is None:
            raise GmEventError(f"there is no player {adj.target!r}; the players are {' and '.join(new.seats)}")
        field = adj.kind.value
        before = getattr(legion, field)
        after = before + int(adj.value) if adj.relative else int(adj.value)
        if after < 0 and adj.kind is not GmKind.MORALE:
            raise GmEventError(f"{adj.target}'s {field} would be {after}; it cannot go below 0")
        setattr(legion, field, after)
        events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT,
                                f"GM sets {adj.target}'s {field} from {before} to {after}{why}.",
                                {"field": field, "player": adj.target, "before": before, "after": after,
                                 "reason": adj.reason}))
        check_defeat(rules, new, events)
        return new, events
    if adj.kind in (GmKind.CANCEL, GmKind.DICE, GmKind.SOFTEN, GmKind.COUNTER_FIRST):
        return new, _change_stopped_action(new, adj)
    unit = _named_unit(new, adj.target)
    if unit is None or unit.at is None:
        raise GmEventError(f"there is no unit {adj.target!r} on the board; name it by its id or its token's name")
    if new.phase is not Phase.ACTIONS:
        raise GmEventError("units are adjusted during play, not while deploying or after the match")
    name = public_name(new, unit)
    if adj.kind is GmKind.REVEAL:
        if not unit.hidden:
            raise GmEventError(f"{unit.id} is exposed already")
        reveal(new, unit, events, f"the GM{why}")
        return new, events
    if adj.kind is GmKind.MOVE:
        if not rules.board.is_hex(adj.value):
            raise GmEventError(f"{adj.value!r} is not a hex of the map")
        to = rules.board.parse(adj.value)
        if rules.board.terrain[to].obstacle or (new.unit_at(to) not in (None, unit)):
            raise GmEventError(f"{to.label} is {'a mountain' if rules.board.terrain[to].obstacle else 'occupied'}")
        before_hex = unit.at
        unit.at = to
        events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT,
                                f"GM moves {name} from {before_hex.label} to {to.label}{why}.",
                                {"field": "move", "unit": name, "before": before_hex.label, "after": to.label,
                                 "reason": adj.reason}))
        return new, events
    amount = int(adj.value)
    if adj.kind is GmKind.HEAL:
        healed = min(amount, unit.damage)
        unit.damage -= healed
        events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT, f"GM heals {name} by {healed}{why}.",
                                {"field": "heal", "unit": name, "amount": healed, "reason": adj.reason}))
        return new, events
    unit.damage += amount
    events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT, f"GM deals {amount} damage to {name}{why}.",
                            {"field": "damage", "unit": name, "amount": amount, "reason": adj.reason}))
    if unit.damage >= new.health(unit):
        kill(new, unit, events, adj.reason)
        check_defeat(rules, new, events)
    return new, events


def _named_unit(state: WodState, name: str) -> Unit | None:
    """The unit the GM names by its id or, as the board shows a face-down unit, by its token's name."""
    return state.unit(name) or next((u for u in state.units if u.token and u.token.lower() == name.strip().lower()),
                                    None)


def _stopping(state: WodState) -> list[Pending]:
    """The effects on the GM's list that stopped a row of the acting player this turn: the other player's
    reactions fired before it, and the acting unit's own passives weighed before its attack (Charge, Frenzy:
    ``reactions.weigh_passive``, on the acting player's side of the list)."""
    reactor = state.other(state.acting)
    out = []
    for p in state.pending:
        if p.turn != state.turn:
            continue
        if p.player == reactor:
            out.append(p)
        elif p.player == state.acting and (source := state.unit(p.source)) is not None:
            ability = state.card_of(source).ability(p.name)
            if ability is not None and ability.before is not None:
                out.append(p)
    return out


def _stopped_row(state: WodState, unit: Unit) -> tuple[Pending, str, str] | None:
    """The reaction or passive that stopped a row of ``unit`` this turn (still on the GM's list), that row's
    action ('attack', 'move'…) and what it was aimed at: the pending effect whose row, as its list names it, is one
    of ``unit``'s (named by its id, or by its token while it was face down)."""
    names = {unit.id, public_name(state, unit), unit.token} - {""}
    for p in _stopping(state):
        for name in names:
            if p.target.startswith(f"{name} "):
                action, _, target = p.target[len(name):].strip().partition(" ")
                return p, action, target.strip()
    return None


def _damaged_passive_waits(state: WodState, unit: Unit) -> bool:
    """Whether ``unit``, undamaged, has a passive that counts its damage (Frenzy) waiting on the GM's list with a
    reaction: the GM's dice for it count only if the unit is damaged when it rolls."""
    if unit.damage > 0:
        return False
    damaged = {a.name for a in state.card_of(unit).abilities if a.before is PassiveCue.DAMAGED_ATTACK}
    return any(p.source == unit.id and p.name in damaged for p in state.pending)


def _change_stopped_action(state: WodState, adj: Adjustment) -> list[kit.Event]:
    """Record on ``state`` what the GM changes of the action a standing reaction stopped (it waits on the acting
    player's sheet): cancelled, more or fewer dice, less damage; it applies when the row resolves. Refused unless
    a reaction fired this turn before a row of that unit (and, for dice and damage, before an attack). The Log
    names a face-down unit by its token."""
    unit = _named_unit(state, adj.target)
    if state.phase is not Phase.ACTIONS:
        when = ("the deployment is still open: no action has been played" if state.phase is Phase.DEPLOY
                else "the game is over: no action waits")
        raise GmEventError(f"{when}, so --{adj.kind.value} has nothing to change; to change a unit, use --damage, "
                           "--heal or --move")
    if unit is None or unit.owner != state.acting:
        mine = ", ".join(u.id for u in state.units if u.owner == state.acting) or "none"
        raise GmEventError(f"{adj.target!r} is not a unit of {state.acting}, whose turn it is: only the acting "
                           f"player's action a reaction stopped can be changed (her units: {mine})")
    found = _stopped_row(state, unit)
    if found is None:
        waiting = [f"{p.source}'s {p.name} before {p.target!r}" for p in _stopping(state)]
        raise GmEventError(f"no reaction or passive has stopped an action of {unit.id} this turn, so "
                           f"--{adj.kind.value} has nothing to change (" +
                           ("the reactions and passives waiting on the GM's list stopped " + "; ".join(waiting)
                            if waiting else "no reaction or passive waits on the GM's list") +
                           "); to change what a row already did, use --damage, --heal or --move")
    stopped, action, aimed = found
    if adj.kind is not GmKind.CANCEL and action != ActionKind.ATTACK.value:
        raise GmEventError(f"the row a reaction stopped is {stopped.target!r}, not an attack: --{adj.kind.value} "
                           "changes an attack's dice or damage; --cancel cancels any action")
    name = public_name(state, unit)
    old = state.changes.get(unit.id, ActionChange())
    if adj.kind is GmKind.CANCEL:
        change = replace(old, cancel=True, reason=adj.reason)
        said = f"GM cancels the action of {name} the reaction stopped: {adj.reason}."
    elif adj.kind is GmKind.DICE and _damaged_passive_waits(state, unit):
        change = replace(old, damaged_dice=old.damaged_dice + int(adj.value), reason=adj.reason)
        said = (f"GM changes the dice of {name}'s stopped attack by {int(adj.value):+d} if it is damaged when it "
                f"rolls (a counter-attack first may damage it): {adj.reason}.")
    elif adj.kind is GmKind.DICE:
        change = replace(old, dice=old.dice + int(adj.value), reason=adj.reason)
        said = f"GM changes the dice of {name}'s stopped attack by {int(adj.value):+d}: {adj.reason}."
    elif adj.kind is GmKind.COUNTER_FIRST:
        change = replace(old, counter_first=True, reason=adj.reason, against=aimed)
        said = (f"GM has {aimed} counter-attack first when {name}'s stopped attack on it resumes, and not after "
                f"it: {adj.reason}.")
    else:
        change = replace(old, less=old.less + int(adj.value), reason=adj.reason, against=aimed)
        said = f"GM takes {int(adj.value)} damage off {name}'s stopped attack on {aimed}: {adj.reason}."
    state.changes[unit.id] = change
    return [kit.Event(state.turn, EventKind.GM_ADJUSTMENT, said,
                      {"field": adj.kind.value, "unit": name, "value": adj.value, "reason": adj.reason})]


def concede(rules: WodRules, state: WodState, seat: str, reason: str) -> tuple[WodState, list[kit.Event]]:
    """``seat`` concedes, as her Surrender cell does: she loses the game (best of three: the next one is set up,
    her loss counted); the input state is not changed."""
    if state.phase is Phase.OVER:
        raise GmEventError("the match is over already; nobody can concede")
    if seat not in state.legions:
        raise GmEventError(f"there is no player {seat!r}; the players are {' and '.join(state.seats)}")
    new = state.copy()
    events = [kit.Event(new.turn, EventKind.SURRENDER, f"{seat} surrenders (the GM records it: {reason}).",
                        {"player": seat, "reason": reason})]
    finish_game(rules, new, new.other(seat), Ending.SURRENDER, events)
    return new, events
