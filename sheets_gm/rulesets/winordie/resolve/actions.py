"""Carrying out an action: a move, an attack and its strikes, a call to the battlefield, an ability."""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.ending import check_defeat
from sheets_gm.rulesets.winordie.enums import (
    AbilityType,
    ActionKind,
    Enhancement,
    EventKind,
)
from sheets_gm.rulesets.winordie.movement import Route
from sheets_gm.rulesets.winordie.orders import Action
from sheets_gm.rulesets.winordie.resolve.legal import Checked, Refusal, check_action, target_unit
from sheets_gm.rulesets.winordie.resolve.reactions import pend
from sheets_gm.rulesets.winordie.rules import (
    WodRules,
    kill,
    public_name,
    reveal,
)
from sheets_gm.rulesets.winordie.state import ActionChange, Unit, WodState

COUNCIL = "War Council"  # the source a War Council's tactic is named by while it waits for the GM


# -- resolving a row -----------------------------------------------------------------------
def spend(state: WodState, unit: Unit | None) -> None:
    """A row carried out: the acting player's command token placed on its unit (none for a War Council)."""
    state.legions[state.acting].tokens -= 1
    if unit is not None:
        unit.tokens += 1
        unit.actions += 1


def cancel_action(state: WodState, action: Action, change: ActionChange, events: list[kit.Event]) -> None:
    """An action the GM cancelled after a reaction stopped it: made (its command token is spent, as the action
    the reaction answered was taken) but without effect."""
    unit = state.unit(action.unit)
    spend(state, unit)
    name = public_name(state, unit) if unit is not None else action.unit  # a face-down unit by its token
    events.append(kit.Event(state.turn, EventKind.GM_ADJUSTMENT, f"{name}'s {action.kind.value} is cancelled: "
                            f"{change.reason}.", {"unit": name, "field": "cancel", "reason": change.reason}))


def bound_change(rules: WodRules, state: WodState, action: Action, change: ActionChange | None,
                 events: list[kit.Event]) -> ActionChange | None:
    """``change`` as it applies to ``action`` resuming: damage the GM took off an attack on one target (a Parry:
    "that attack deals 1 less damage"), or that target's counter-attack first (a Brace), lapses when the row now
    attacks another, with a line in the Log."""
    if change is None or not (change.less or change.counter_first) or not change.against:
        return change
    was = target_unit(rules, state, change.against)
    now = target_unit(rules, state, action.target)
    same = was is now if was is not None or now is not None else \
        change.against.strip().lower() == action.target.strip().lower()
    if same:
        return change
    unit = state.unit(action.unit)
    name = public_name(state, unit) if unit is not None else action.unit
    lapsed = " and the ".join([*([f"{change.less} less damage"] if change.less else []),
                               *(["counter-attack first"] if change.counter_first else [])])
    events.append(kit.Event(state.turn, EventKind.GM_ADJUSTMENT,
                            f"The {lapsed} the GM gave {name}'s attack on {change.against} lapses: "
                            f"the row now attacks {action.target}.",
                            {"unit": name, "field": "soften" if change.less else "counter-first", "value": 0,
                             "reason": "its target changed"}))
    return replace(change, less=0, counter_first=False)


def execute(rules: WodRules, state: WodState, action: Action, checked: Checked, dice: kit.TurnDice,
            events: list[kit.Event], change: ActionChange | None = None) -> str:
    """Resolve an accepted row (an attack with the GM's ``change``, if any); the feedback sentence."""
    seat = state.acting
    if action.kind is ActionKind.COUNCIL:
        assert isinstance(checked, str)
        legion = state.legions[seat]
        spend(state, None)
        legion.crystals -= rules.settings.council_cost
        legion.council.append(checked)
        legion.council_turn = state.turn
        pend(state, seat, COUNCIL, checked, state.tactics[checked], "", events)
        events.append(kit.Event(state.turn, EventKind.COUNCIL,
                                f"{seat} convenes the War Council: {checked} is active for the rest of the game.",
                                {"player": seat, "tactic": checked}))
        return f"the War Council activates {checked}."
    unit = state.unit(action.unit)
    assert unit is not None and unit.at is not None
    spend(state, unit)
    if action.kind is ActionKind.MOVE:
        assert isinstance(checked, Route)
        return _move(state, unit, checked, events)
    if action.kind is ActionKind.ATTACK:
        assert isinstance(checked, Unit)
        return attack(rules, state, unit, checked, dice, events, change)
    if action.kind is ActionKind.CALL:
        assert isinstance(checked, tuple)
        return _call(rules, state, unit, action, checked[0], checked[1], events)
    return _ability(state, unit, action, events)


def _move(state: WodState, unit: Unit, route: Route, events: list[kit.Event]) -> str:
    start = unit.at
    assert start is not None
    name = public_name(state, unit)
    unit.at = route.end
    unit.moves += 1
    unit.stepped += len(route.hexes)
    stop = f", stopped by {route.stopped_by}" if route.stopped_by else ""
    # the owner, public as the token is, puts the move in her own View's log (it names her units by id)
    events.append(kit.Event(state.turn, EventKind.MOVED, f"{name} moves from {start.label} to {route.end.label}{stop}.",
                            {"unit": name, "from": start.label, "to": route.end.label, "stopped": route.stopped_by,
                             "player": unit.owner}))
    return f"{unit.id} moves to {route.end.label}{stop}."


def attack(rules: WodRules, state: WodState, unit: Unit, target: Unit, dice: kit.TurnDice, events: list[kit.Event],
           change: ActionChange | None = None) -> str:
    """An attack (both revealed; power + adjacent allies dice, changed as the GM said after a reaction) and, if
    the target survives a melee attack, its counter-attack; the feedback sentence. With a check's blind dice only
    the sentence that it will attack: the feedback before the turn resolves tells no roll."""
    assert unit.at is not None and target.at is not None
    k = unit.actions
    reveal(state, unit, events, "it attacks")
    reveal(state, target, events, "it is attacked")
    melee = rules.board.distance(unit.at, target.at) == 1
    if dice.blind:  # a check: the fight is not fought, so it hurts and kills nobody (the rows after it see so)
        return (f"{unit.id} will attack {target.id}{'' if melee else ' from range'}: the dice are rolled as the turn "
                "resolves.")
    extra, less = (change.dice, change.less) if change is not None else (0, 0)
    first = _counter_first(state, unit, target, change, melee, events)
    taken = 0
    if first:
        taken = _counter(rules, state, unit, target, dice, k, events, "counter-attacks first")
        if unit.damage >= state.health(unit):
            kill(state, unit, events, f"killed by {target.id}'s counter-attack first")
            return f"{unit.id} dies to {target.id}'s counter-attack first ({taken}), before it attacks."
    if change is not None and change.damaged_dice and unit.damage > 0:  # weighed as it rolls: damaged now
        extra += change.damaged_dice
    dealt = _strike(rules, state, unit, target, state.power(unit), state.card_of(unit).hit, dice,
                    f"attack/{unit.id}/{k}", EventKind.ATTACK, "attacks", events, (less, _softened_by(state, target)),
                    (extra, change.reason if change is not None else ""))
    if target.damage >= state.health(target):
        kill(state, target, events, f"killed by {unit.id}")
        return f"{unit.id} deals {dealt} damage to {target.id}, which dies."
    if first:
        return f"{target.id} counter-attacks first ({taken}); {unit.id} deals {dealt} damage to {target.id} after."
    if not melee:
        return f"{unit.id} deals {dealt} damage to {target.id} from range."
    taken = _counter(rules, state, unit, target, dice, k, events, "counter-attacks")
    if unit.damage >= state.health(unit):
        kill(state, unit, events, f"killed by {target.id}'s counter-attack")
        return f"{unit.id} deals {dealt} damage to {target.id} and dies to its counter-attack ({taken})."
    return f"{unit.id} deals {dealt} damage to {target.id} and takes {taken} in the counter-attack."


def _softened_by(state: WodState, target: Unit) -> str:
    """The reactions of ``target`` fired this turn whose card takes damage off the attack (a Parry: "that attack
    deals 1 less damage"), as the Log names the damage the GM took off: ``Ann-2's Parry`` ('' when none did)."""
    names = [a.name for a in state.card_of(target).abilities
             if a.type is AbilityType.REACTION and a.name in target.used and "less damage" in a.text]
    return f"{target.id}'s {' and '.join(names)}" if names else ""


def _counter_first(state: WodState, unit: Unit, target: Unit, change: ActionChange | None, melee: bool,
                   events: list[kit.Event]) -> bool:
    """Whether ``target`` counter-attacks before ``unit``'s attack (the GM's ``--counter-first``, a Brace). A
    counter-attack is made in melee only (a **reading**: the card says "I counter-attack first"): from range the
    GM's counter first lapses, and the Log says so."""
    if change is None or not change.counter_first or melee:
        return change is not None and change.counter_first
    events.append(kit.Event(state.turn, EventKind.GM_ADJUSTMENT,
                            f"{public_name(state, target)}'s counter-attack first lapses: {public_name(state, unit)} "
                            "attacks from range, and a counter-attack is made in melee only.",
                            {"unit": public_name(state, unit), "field": "counter-first", "value": 0,
                             "reason": "a ranged attack"}))
    return False


def _counter(rules: WodRules, state: WodState, unit: Unit, target: Unit, dice: kit.TurnDice, k: int,
             events: list[kit.Event], verb: str) -> int:
    """``target``'s counter-attack on ``unit`` (its ``k``-th action's), rolled with the counter's keyed dice
    whether it comes after the attack or first (a Brace): the damage it deals."""
    return _strike(rules, state, target, unit, state.counter_power(target), state.card_of(target).counter_hit,
                   dice, f"counter/{target.id}/{unit.id}/{k}", EventKind.COUNTER, verb, events)


def _strike(rules: WodRules, state: WodState, striker: Unit, victim: Unit, power: int, hit: int, dice: kit.TurnDice,
            key: str, kind: EventKind, verb: str, events: list[kit.Event], soften: tuple[int, str] = (0, ""),
            gm: tuple[int, str] = (0, "")) -> int:
    """Roll ``power`` (with ``gm``'s dice more or fewer, as the GM said after a reaction or a passive, and why) +
    adjacent allies dice against ``hit`` (3 from highland onto lower ground); the damage (``soften``'s damage taken
    off it, as the GM said, and the reaction it answers: a Parry). The Log names each part of the dice sum, the GM's
    die with its reason (a Frenzy, a Charge), and the reaction the GM took damage off for."""
    assert striker.at is not None and victim.at is not None
    board = rules.board
    near = set(board.neighbours(striker.at))
    allies = sum(1 for u in state.units if u.owner == striker.owner and u is not striker and u.at in near)
    if board.highland(striker.at) and not board.highland(victim.at):
        hit = min(hit, rules.settings.highland_hit)
    gm_dice, gm_why = gm
    rolls = [dice.d6(f"{key}/{i}") for i in range(1, max(0, power + gm_dice) + allies + 1)]
    hits = sum(1 for r in rolls if r >= hit)
    tough = 1 if victim.has(Enhancement.TOUGHNESS) else 0
    less, softened_by = soften
    damage = max(0, hits - tough - less)
    victim.damage += damage
    extra = (f" {'+' if gm_dice > 0 else '−'} {abs(gm_dice)} by the GM{f' ({gm_why})' if gm_why else ''}"
             if gm_dice else "") + (f" + {allies} adjacent all{'y' if allies == 1 else 'ies'}" if allies else "")
    by = f": {softened_by}, applied by the GM" if softened_by else ", by the GM"
    tough_note = (" (Tough 1: one less)" if tough and hits else "") + (f" ({less} less{by})" if less else "")
    events.append(kit.Event(state.turn, kind,
                            f"{striker.id} {verb} {victim.id}: {power}{extra} {'die' if len(rolls) == 1 else 'dice'} "
                            f"needing {hit}+ roll{'s' if len(rolls) == 1 else ''} "
                            f"{rolled_keys(dice, key, rolls) or 'nothing'}: {hits} hit{'s' if hits != 1 else ''}, "
                            f"{damage} damage{tough_note} ({damage_left(victim.damage, state.health(victim))}).",
                            {"unit": striker.id, "target": victim.id, "dice": len(rolls), "hit": hit, "rolls": rolls,
                             "hits": hits, "damage": damage, "key": key}))
    return damage


def damage_left(damage: int, health: int) -> str:
    """A unit's damage against its health, as the log says it: ``3/5 damage``, or that the blow kills.

    >>> damage_left(3, 5), damage_left(7, 5)
    ('3/5 damage', 'all 5 health lost')
    """
    return f"{damage}/{health} damage" if damage < health else f"all {health} health lost"


def _call(rules: WodRules, state: WodState, caller: Unit, action: Action, at: Hex, new_id: str,
          events: list[kit.Event]) -> str:
    s = rules.settings
    legion = state.legions[state.acting]
    card_name = next(c for c in legion.barrack if c.lower() == action.target.strip().lower())
    card = state.cards[card_name]
    cost = card.cost + s.enhancement_cost * len(action.enhancements)
    legion.crystals -= cost
    legion.barrack.remove(card_name)
    legion.calls += 1
    unit = Unit(new_id, card_name, state.acting, at, hidden=False, enhancements=action.enhancements)
    state.units.append(unit)
    gain = state.morale_of(unit)
    legion.morale += gain
    events.append(kit.Event(
        state.turn, EventKind.CALLED,
        f"{public_name(state, caller)} calls for allies: {new_id} ({card_name}) joins on {at.label} "
        f"for {cost} crystals; {state.acting}'s morale rises to {legion.morale}.",
        {"player": state.acting, "unit": new_id, "card": card_name, "at": at.label, "cost": cost,
         "morale": legion.morale}))
    if legion.morale > s.morale_cap:
        kill(state, unit, events, f"morale above {s.morale_cap}")
        return f"{new_id} ({card_name}) is called but dies at once: morale would exceed {s.morale_cap}."
    return f"{new_id} ({card_name}) joins on {at.label}."


def _ability(state: WodState, unit: Unit, action: Action, events: list[kit.Event]) -> str:
    ability = state.card_of(unit).ability(action.target)
    assert ability is not None
    reveal(state, unit, events, f"it uses {ability.name}")
    if ability.type is AbilityType.ULTIMATE:
        unit.ultimates.add(ability.name)
    else:
        unit.used.add(ability.name)
    pend(state, state.acting, unit.id, ability.name, ability.text, action.aim, events)
    aim = f" on {action.aim}" if action.aim else ""
    events.append(kit.Event(state.turn, EventKind.ABILITY,
                            f"{unit.id} ({unit.card}) uses {ability.name}{aim}; the GM applies its effect.",
                            {"unit": unit.id, "ability": ability.name, "type": ability.type.value, "aim": action.aim}))
    return f"{unit.id} uses {ability.name}; the GM applies its effect."


def try_action(rules: WodRules, state: WodState, action: Action, dice: kit.TurnDice,
               events: list[kit.Event]) -> str | None:
    """Check and resolve one row on ``state`` in place, without reactions (bots plan with it); the
    refusal, or None once resolved."""
    checked = check_action(rules, state, action)
    if isinstance(checked, Refusal):
        return str(checked)
    execute(rules, state, action, checked, dice, events)
    check_defeat(rules, state, events)
    return None


def rolled_keys(dice: kit.TurnDice, key: str, rolls: list[int]) -> str:
    """An attack's dice as the Log prints them: each value with its die's whole message (``TurnDice.message``), so
    that anyone can check it by hand once the seed is revealed: ``3 [12/attack/Ann-3/1], 5 [12/attack/Ann-3/2]``."""
    return ", ".join(f"{value} [{dice.message(f'{key}/{i}')}]" for i, value in enumerate(rolls, start=1))
