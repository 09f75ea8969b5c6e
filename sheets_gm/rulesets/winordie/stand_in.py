"""The stand-in GM: the effects on the GM's list that the cards make mechanical, as the GM's own adjustments.

A practice match has no GM but the learner (the ``stand_in_gm`` setting: ``init winordie --practice`` turns it on).
After each poll the sync asks ``stand_in_events`` and applies what it returns as a GM's ``adjust`` (logged, with a
reason that says it is the stand-in's, kept for ``verify``). What a card leaves to judgement stays on the list for
a person, and the status line counts it.

What it applies, by the ability's name (the shipped abilities table's wording):

- **Charge**, **Frenzy** (a passive weighed before its unit's attack): that attack rolls 1 more die; a Charge only
  when its unit's moves took it as many hexes this turn as its text asks ("after moving 2 or more hexes"), else
  it is settled with no die;
- **Parry** (before an enemy attack on the reactor): that attack deals 1 less damage;
- **Brace** (before an enemy attack on the reactor): the reactor counter-attacks first, with the counter's keyed
  dice, and not after the attack (``--counter-first``);
- **Drum of Dread** (before an enemy action next to it): the acting legion loses 1 morale;
- **Heaven's Mandate**: its player gains 2 crystals and 2 morale;
- **Fire Volley**: 1 damage to the enemy unit its Aim names (by id, token or hex, alone or as the guide writes it:
  ``Bo token 4 on E3``), when that unit is within 3 hexes of the archer in line of sight.

Every other effect (a move to choose, a next attack, a unit to raise…) is left for a person, as is a Fire Volley
whose Aim names no enemy in reach.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sheets_gm.engine.words import counted
from sheets_gm.rulesets.winordie.card_trigger import card_trigger
from sheets_gm.rulesets.winordie.enums import GmKind, Phase
from sheets_gm.rulesets.winordie.gm import Adjustment, GmEventError, apply_gm_event, reason_problem
from sheets_gm.rulesets.winordie.rules import WodRules, public_name
from sheets_gm.rulesets.winordie.state import Pending, Unit, WodState

FIRE_VOLLEY_RANGE = 3
#: The abilities the stand-in GM applies (``_effects``); the guide's table of cards says how every other is applied.
APPLIED = frozenset({"Charge", "Frenzy", "Parry", "Brace", "Drum of Dread", "Heaven's Mandate", "Fire Volley"})
#: What a row a reaction or passive stopped says when the stand-in GM settles the stop (``settles``).
STAND_IN_GOES_ON = "the stand-in GM applied its effect, and the row goes on at the next sync (your Go or Ready " \
    "stays ticked: nothing to tick again)"


def _reason(state: WodState, p: Pending) -> str:
    source = state.unit(p.source) or next((u for u in state.dead if u.id == p.source), None)
    named = public_name(state, source) if source is not None else p.source
    return f"stand-in GM: {p.name} of {named} (#{p.id})"


def _named(unit: Unit) -> str:
    """A unit as an adjustment names it: its id, or its token while it is face down (as the public Log must)."""
    return unit.token if unit.hidden and unit.token else unit.id


def _stopped(state: WodState, p: Pending) -> Unit | None:
    """The acting player's unit whose row ``p`` stopped (its list entry names the row as its reader read it)."""
    for unit in state.units:
        if unit.owner != state.acting:
            continue
        for name in {unit.id, public_name(state, unit), unit.token} - {""}:
            if p.target.startswith(f"{name} "):
                return unit
    return None


def _aimed(rules: WodRules, state: WodState, p: Pending) -> Unit | None:
    """The enemy unit a Fire Volley's Aim names, in reach and in line of sight: the Aim as the guide writes it
    (``Bo token 4 on E3``) or as short as one name (``Bo-3``, ``Bo token 4``, ``E3``). Every enemy named by its
    id (once face up), its token or its hex counts, and every hex named must be the unit's: an Aim that names two
    units, or a token and a hex that disagree, is left for a person."""
    archer = state.unit(p.source)
    aim = p.target.strip().lower()
    if archer is None or archer.at is None or not aim:
        return None
    named = {unit.id: unit for unit in state.units
             if unit.owner != archer.owner and unit.at is not None and _names(unit, aim)}
    hexes = {word.upper() for word in re.findall(r"[a-z]+\d+", aim) if rules.board.is_hex(word.upper())}
    if len(named) != 1:
        return None
    (unit,) = named.values()
    assert unit.at is not None
    if hexes - {unit.at.label.upper()}:
        return None  # "Bo token 4 on E3" with token 4 elsewhere: which one she meant is a person's call
    if rules.board.distance(archer.at, unit.at) <= FIRE_VOLLEY_RANGE and rules.board.clear_line(archer.at, unit.at):
        return unit
    return None


def _names(unit: Unit, aim: str) -> bool:
    """Whether the lowercased ``aim`` names ``unit`` as a whole word or phrase: its hex, its token, or its id once
    face up (a face-down unit's id is the opponent's secret, as the check of the Aim says)."""
    assert unit.at is not None
    names = {unit.at.label.lower(), unit.token.lower(), *([] if unit.hidden else [unit.id.lower()])} - {""}
    return any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", aim) for name in names)


def charge_needs(p: Pending) -> int:
    """The hexes a passive's unit must have moved this turn for its die, as its text says ("After moving 2 or more
    hexes this turn my next attack rolls 1 more die": 2); 0 for a text that names none (Frenzy).

    >>> charge_needs(Pending(1, 3, "Ann", "Ann-7", "Charge", "After moving 2 or more hexes this turn my next "
    ...                      "attack rolls 1 more die.", "Ann-7 attack Bo-1"))
    2
    """
    found = re.search(r"moving (\d+) or more hex", p.text, re.IGNORECASE)
    return int(found.group(1)) if found else 0


def _unmet(state: WodState, p: Pending) -> str:
    """Why passive ``p`` gives no die (its unit moved fewer hexes this turn than its text asks), or ''."""
    unit = state.unit(p.source)
    need = charge_needs(p)
    if unit is None or unit.stepped >= need:
        return ""
    return f"{_named(unit)} moved {counted(unit.stepped, 'hex', 'hexes')} this turn, not {need} or more: no die"


def _trigger_held(rules: WodRules, state: WodState, p: Pending) -> bool:
    """Whether the distance its card's text asks ("next to me", "within 2 hexes of me") held between the unit whose
    effect ``p`` is and the acting unit whose row it stopped (a text that asks none: held). The engine fires a
    reaction only so; a GM's list entry may come from elsewhere, and the stand-in applies no effect it cannot check."""
    card = card_trigger(p.text)
    if card is None or card.within is None:
        return True
    source, actor = state.unit(p.source), _stopped(state, p)
    if source is None or source.at is None or actor is None or actor.at is None:
        return False
    return rules.board.distance(source.at, actor.at) <= card.within


def _effects(rules: WodRules, state: WodState, p: Pending, why: str) -> list[Adjustment] | None:
    """The adjustments that apply ``p``'s effect, or None when it needs a person's judgement."""
    if p.name not in APPLIED or not _trigger_held(rules, state, p):
        return None
    if p.name in ("Charge", "Frenzy"):
        unit = state.unit(p.source)
        if unit is None:
            return None
        if _unmet(state, p):  # "After moving 2 or more hexes this turn": not met, settled with no die
            return []
        return [Adjustment(GmKind.DICE, _named(unit), "+1", why, True)]
    if p.name in ("Parry", "Brace"):
        attacker = _stopped(state, p)
        if attacker is None:
            return None
        return [Adjustment(GmKind.SOFTEN, _named(attacker), "1", why) if p.name == "Parry" else
                Adjustment(GmKind.COUNTER_FIRST, _named(attacker), reason=why)]
    if p.name == "Drum of Dread":
        return [Adjustment(GmKind.MORALE, state.acting, "-1", why, True)]
    if p.name == "Heaven's Mandate":
        return [Adjustment(GmKind.CRYSTALS, p.player, "+2", why, True),
                Adjustment(GmKind.MORALE, p.player, "+2", why, True)]
    if p.name == "Fire Volley":
        target = _aimed(rules, state, p)
        return None if target is None else [Adjustment(GmKind.DAMAGE, _named(target), "1", why)]
    return None


def stand_in_events(rules: WodRules, state: WodState,
                    problem: Callable[[WodState, Adjustment], str] | None = None) -> list[Adjustment]:
    """The stand-in GM's adjustments for the effects on the list now, in the list's order, each followed by its
    ``--done``: only those that apply as they stand (tried on a copy; one refused, or whose reason ``problem``
    would keep from the public Log, is left for a person)."""
    out: list[Adjustment] = []
    now = state
    for p in list(state.pending):
        if now.phase is Phase.OVER:
            break
        why = _reason(now, p)
        effects = _effects(rules, now, p, why)
        if effects is None:
            continue
        unmet = "" if effects else _unmet(now, p)
        events = [*effects, Adjustment(GmKind.DONE, str(p.id), reason=f"{why}: {unmet}" if unmet else why)]
        trial = now
        try:
            for adj in events:
                if problem is not None and problem(trial, adj):
                    raise GmEventError(problem(trial, adj))
                trial = apply_gm_event(rules, trial, adj)[0]
        except ValueError:
            continue
        out += events
        now = trial
    return out


def settles(rules: WodRules, state: WodState, first: int) -> bool:
    """Whether the stand-in GM (a practice match's ``stand_in_gm``) settles, after this resolution, every entry of the
    GM's list from number ``first`` (a stop just made: a reaction fired, a passive weighed), so that the row it
    stopped goes on at the next sync with nothing for the player to tick again."""
    if not rules.settings.stand_in_gm:
        return False
    stop = {str(p.id) for p in state.pending if p.id >= first}
    done = {e.target for e in stand_in_events(rules, state, reason_problem) if e.kind is GmKind.DONE}
    return bool(stop) and stop <= done
