"""Standing reactions: which ones a row triggers, and a reaction that fires and stops the rows after it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sheets_gm.engine.words import counted
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.card_trigger import card_allows, card_trigger, narrowed
from sheets_gm.rulesets.winordie.enums import (
    AbilityType,
    ActionKind,
    EventKind,
    PassiveCue,
    Trigger,
)
from sheets_gm.rulesets.winordie.orders import Action, Reaction, reaction_row
from sheets_gm.rulesets.winordie.resolve.legal import target_unit
from sheets_gm.rulesets.winordie.rules import (
    WodRules,
    public_name,
    reveal,
)
from sheets_gm.rulesets.winordie.state import Pending, WodState


# -- standing reactions --------------------------------------------------------------------
def standing_reactions(rules: WodRules, state: WodState, seat: str, reactions: tuple[Reaction, ...],
              verdicts: list[kit.Verdict]) -> list[Reaction]:
    """The reacting player's standing reactions that can fire, a verdict for each (of its reaction row)."""
    out = []
    for place, r in enumerate(reactions, start=1):
        n = r.row or place
        unit = state.unit(r.unit)
        problem = None
        if unit is None or unit.owner != seat:
            problem = f"you have no living unit {r.unit!r}"
        else:
            ability = state.card_of(unit).ability(r.ability)
            reactions_of = [a.name for a in state.card_of(unit).abilities if a.type is AbilityType.REACTION]
            if ability is None or ability.type is not AbilityType.REACTION:
                problem = (f"{unit.id} ({unit.card}) has no reaction ability {r.ability!r}; its reactions: "
                           f"{', '.join(reactions_of) or 'none'}")
            elif r.within < 0:
                problem = "within is a number of hexes, 0 or more"
            elif (note := narrowed(card_trigger(ability.text), r)).startswith("it can never fire"):
                problem = note
        if problem:
            verdicts.append(kit.Verdict(seat, reaction_row(n), "reaction", False, f"Reaction {n}: {problem}", r.unit))
            continue
        out.append(replace(r, row=n))
        later = _cannot_fire_now(rules, state, seat, r)
        note = narrowed(card_trigger(ability.text), r) if ability is not None else ""
        fired = (f"fired in {state.acting}'s turn: {r.unit} used {ability.name} (the Log says what it did); it "
                 if ability is not None and unit is not None and ability.name in unit.used else "")
        verdicts.append(kit.Verdict(seat, reaction_row(n), "reaction", True,
                                    f"Reaction {n}: {fired}stands ({note or r.trigger_words()}){later}."))
    return out


def _cannot_fire_now(rules: WodRules, state: WodState, seat: str, r: Reaction) -> str:
    """Why a standing reaction cannot fire in this window ('' when it can): no command token left, its unit at
    the most tokens, or its ability used this turn; it stands for later all the same."""
    unit = state.unit(r.unit)
    if unit is None:
        return ""
    if state.legions[seat].tokens < 1:
        return f", but {seat} has 0 command tokens: it can fire again once {seat}'s own turn recovers them"
    if unit.tokens >= rules.settings.unit_tokens:
        return (f", but {unit.id} already carries {unit.tokens} command tokens, the most: it can fire again once "
                f"{seat}'s own turn recovers them")
    ability = state.card_of(unit).ability(r.ability)
    if ability is not None and ability.name in unit.used:  # it fired this turn (``standing_reactions`` says so)
        return " and can fire again next turn"
    return ""


def fallen_reactions(state: WodState, seat: str, standing: Sequence[Reaction], verdicts: list[kit.Verdict]) -> None:
    """The verdict of each of ``seat``'s standing reactions whose unit fell in the window: it fires no more (the one
    it had spoke of the unit's command tokens and when it could fire again, and the match's last window kept it for
    good)."""
    for r in standing:
        if state.unit(r.unit) is not None:
            continue
        subject = reaction_row(r.row)
        verdicts[:] = [v for v in verdicts if (v.seat, v.subject) != (seat, subject)]
        verdicts.append(kit.Verdict(seat, subject, "reaction", True,  # the row was good: its unit fell
                                    f"Reaction {r.row}: stood until {r.unit} fell in {state.acting}'s turn: its "
                                    f"{r.ability} fires no more; clear the row", r.unit))


#: What a fired reaction's row says of its effect, until the stand-in GM of a practice match settles it
#: (``STAND_IN_APPLIES``, said instead by the resolution that stopped the row).
GM_APPLIES = "the GM applies its effect"
STAND_IN_APPLIES = "the stand-in GM applies its effect after this resolution"


def fire_reaction(rules: WodRules, state: WodState, action: Action, standing: list[Reaction],
                   events: list[kit.Event], verdicts: list[kit.Verdict]) -> str:
    """Fire the first standing reaction that matches ``action`` and can be paid; its description, or "". Its row's
    verdict says that it fired (it stood)."""
    seat = state.other(state.acting)
    legion = state.legions[seat]
    if legion.tokens < 1:
        return ""
    actor = state.unit(action.unit) if action.unit else None
    target = target_unit(rules, state, action.target) if action.kind is ActionKind.ATTACK else None
    for r in standing:
        unit = state.unit(r.unit)
        if unit is None or unit.at is None or unit.owner != seat:
            continue
        ability = state.card_of(unit).ability(r.ability)
        if ability is None or ability.name in unit.used or unit.tokens >= rules.settings.unit_tokens:
            continue
        if r.when is Trigger.ATTACKED and target is not unit:
            continue
        distance = None if actor is None or actor.at is None else rules.board.distance(actor.at, unit.at)
        if r.when is Trigger.NEAR and (distance is None or distance > r.within):
            continue
        if not card_allows(card_trigger(ability.text), action.kind, target is unit, distance):
            continue  # the row asks more than its card lets it: it stands, and its verdict said where it fires
        legion.tokens -= 1
        unit.tokens += 1
        unit.used.add(ability.name)
        reveal(state, unit, events, f"it reacts with {ability.name}")
        pend(state, seat, unit.id, ability.name, ability.text, public_row(state, action), events)
        events.append(kit.Event(state.turn, EventKind.REACTION,
                                f"{seat} reacts before {state.acting}'s {action.kind.value}: {unit.id} ({unit.card}) "
                                f"uses {ability.name}; the GM applies it before the action goes on.",
                                {"player": seat, "unit": unit.id, "ability": ability.name}))
        subject = reaction_row(r.row)
        verdicts[:] = [v for v in verdicts if (v.seat, v.subject) != (seat, subject)]
        verdicts.append(kit.Verdict(seat, subject, "reaction", True,
                                    f"Reaction {r.row}: fired before {state.acting}'s {action.kind.value}: "
                                    f"{unit.id} used {ability.name} ({GM_APPLIES}); it stands, "
                                    "and can fire again next turn."))
        return f"{seat}'s {unit.id} ({ability.name})"
    return ""


def weigh_passive(state: WodState, action: Action, events: list[kit.Event], reacted: bool = False) -> str:
    """Put before the GM a passive ability of the acting unit that ``action`` may trigger (its card's ``before``:
    Frenzy before each attack while damaged, Charge before its next attack after a move; ``weighed_key``), as a
    reaction is: the action waits while the GM applies the effect (``adjust --dice UNIT=1``, or nothing) and
    resolves at the next sync. Where a reaction fired before the attack (``reacted``: a Brace's counter-attack
    first may damage the attacker), Frenzy is weighed with it, for the damage the unit has when it rolls: the GM
    rules both at once and a die given to an undamaged unit counts only if it is damaged then. Its description,
    or "" when none applies."""
    if action.kind is not ActionKind.ATTACK or not action.unit:
        return ""
    unit = state.unit(action.unit)
    if unit is None or unit.owner != state.acting or unit.at is None:
        return ""
    for ability in state.card_of(unit).abilities:
        cue = ability.before
        if cue is None:
            continue
        weighed = weighed_key(ability.name, cue, unit.actions)
        if weighed in unit.used:
            continue
        if (cue is PassiveCue.DAMAGED_ATTACK and unit.damage < 1 and not reacted) or (
                cue is PassiveCue.MOVED_ATTACK and unit.moves < 1):
            continue
        unit.used.add(weighed)  # weighed once for this attack (Charge: once a turn): the row goes on at the next sync
        reveal(state, unit, events, "it attacks")  # as the attack does: the GM's list names it
        why = {PassiveCue.DAMAGED_ATTACK: f"it attacks while damaged: {unit.damage} damage taken" if unit.damage
               else "it is damaged when it rolls only if the reaction's counter-attack first damages it; a die "
                    "given now counts only then",
               PassiveCue.MOVED_ATTACK: f"it attacks after moving {counted(unit.stepped, 'hex', 'hexes')} this turn"
               }.get(cue, "it attacks")
        pend(state, state.acting, unit.id, ability.name, ability.text, public_row(state, action), events)
        events.append(kit.Event(state.turn, EventKind.PASSIVE,
                                f"{unit.id} ({unit.card})'s passive {ability.name} may change its attack ({why}): "
                                f"{ability.text} The GM applies it before the attack goes on.",
                                {"player": state.acting, "unit": unit.id, "ability": ability.name}))
        return f"{unit.id}'s {ability.name}"
    return ""


def weighed_key(name: str, cue: PassiveCue, actions: int) -> str:
    """What marks passive ``name`` weighed, in its unit's ``used``, before the unit's next action (it has taken
    ``actions`` this turn). Frenzy ("while damaged I roll 1 more die when I attack") and a plain ``attack`` cue
    change every attack, so each attack is weighed once: the mark names the attack. Charge ("my next attack")
    changes one, so it is weighed once a turn: the mark is its name.

    >>> weighed_key("Frenzy", PassiveCue.DAMAGED_ATTACK, 2), weighed_key("Charge", PassiveCue.MOVED_ATTACK, 2)
    ('Frenzy (attack 3)', 'Charge')
    """
    return name if cue is PassiveCue.MOVED_ATTACK else f"{name} (attack {actions + 1})"


def public_row(state: WodState, action: Action) -> str:
    """The row in words as the opponent may read it: a hidden acting unit is named by its token."""
    actor = state.unit(action.unit) if action.unit else None
    if actor is None or not actor.hidden:
        return action.describe()
    return f"{public_name(state, actor)} {action.kind.value} {action.target}".strip()


def pend(state: WodState, seat: str, source: str, name: str, text: str, target: str, events: list[kit.Event]) -> None:
    """Record an effect for the GM to apply."""
    state.pending.append(Pending(state.next_pending, state.turn, seat, source, name, text, target))
    state.next_pending += 1
