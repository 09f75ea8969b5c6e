"""Whether an action row can be carried out now (its unit, target, range, call or ability), and why not."""

from __future__ import annotations

import re

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets.winordie.enums import (
    AbilityType,
    ActionKind,
    Mode,
    Side,
)
from sheets_gm.rulesets.winordie.movement import Route, plan_move
from sheets_gm.rulesets.winordie.orders import Action
from sheets_gm.rulesets.winordie.rules import (
    WodRules,
    face_down_named,
)
from sheets_gm.rulesets.winordie.state import Unit, WodState

Checked = Route | Unit | str | tuple[Hex, str] | None


# -- checking a row ------------------------------------------------------------------------
class Refusal(str):
    """A refused row's reason (accepted rows give what they need instead: a route, a target, a tactic…)."""


def target_unit(rules: WodRules, state: WodState, text: str) -> Unit | None:
    """The unit a row names: by id, by its face-down token's name (still its name once revealed, so a row
    may name again a token an earlier row of the turn revealed), or by its hex."""
    found = state.unit(text)
    if found is not None and found.at is not None:
        return found
    wanted = text.strip().lower()
    for u in state.units:
        if u.token and u.at is not None and u.token.lower() == wanted:
            return u
    if rules.board.is_hex(text):
        return state.unit_at(rules.board.parse(text))
    return None


def check_action(rules: WodRules, state: WodState, action: Action) -> Checked:
    """What the row needs to resolve (a route, a target, a hex…), or a ``Refusal`` saying why it is refused."""
    seat = state.acting
    legion = state.legions[seat]
    s = rules.settings
    if legion.tokens < 1:
        return Refusal("no command token left this turn; end your turn or wait for the next")
    if action.kind is ActionKind.COUNCIL:
        return _check_council(rules, state, action)
    unit = state.unit(action.unit)
    if unit is None or unit.owner != seat or unit.at is None:
        mine = ", ".join(u.id for u in state.units if u.owner == seat and u.at is not None)
        return Refusal(f"you have no unit {action.unit!r} on the board; yours are {mine or 'none'}")
    if unit.tokens >= s.unit_tokens:
        return Refusal(f"{unit.id} already has {unit.tokens} command tokens; at most {s.unit_tokens} per unit "
                        "per turn")
    card = state.card_of(unit)
    if action.kind is ActionKind.MOVE:
        if not rules.board.is_hex(action.target):
            return Refusal(f"{action.target!r} is not a hex of the map; write the destination like C3")
        route = plan_move(rules.board, s, state, unit, rules.board.parse(action.target))
        return Refusal(route) if isinstance(route, str) else route
    if action.kind is ActionKind.ATTACK:
        target = target_unit(rules, state, action.target)
        if target is None and rules.board.is_hex(action.target):
            return Refusal(f"no unit stands on {rules.board.parse(action.target).label}; attack a hex with an "
                            "enemy unit on it")
        if target is None:
            return Refusal(f"no unit answers to {action.target!r}; name a target by its hex (C3), an exposed "
                            "unit's id or a face-down token's name (Bo token 2)")
        if target.owner == seat:
            return Refusal(f"{action.target} is your own unit; attack an enemy unit")
        assert target.at is not None
        problem = rules.board.targeting_problem(unit.at, target.at, card.range)
        return Refusal(problem) if problem else target
    if action.kind is ActionKind.CALL:
        return _check_call(rules, state, unit, action)
    return _check_ability(rules, state, unit, action)


def _check_call(rules: WodRules, state: WodState, unit: Unit, action: Action) -> Checked:
    s = rules.settings
    legion = state.legions[state.acting]
    if not s.calls:
        return Refusal("calls for allies are off in this match (setting calls)")
    assert unit.at is not None
    if rules.board.bases.get(unit.at) != legion.slot:
        return Refusal(f"{unit.id} is on {unit.at.label}, not on your baseline; only a unit on it calls for allies")
    card = next((c for c in legion.barrack if c.lower() == action.target.strip().lower()), None)
    if card is None:
        return Refusal(f"{action.target!r} is not in your barrack; it holds "
                        f"{', '.join(sorted(set(legion.barrack))) or 'nothing'}")
    if action.side is None:
        return Refusal("say where the called unit goes: side left or right of the caller")
    step = -1 if action.side is Side.LEFT else 1
    at = Hex(unit.at.col + step, unit.at.row)
    if not rules.board.contains(at) or rules.board.terrain[at].obstacle or state.unit_at(at) is not None:
        why = "off the map" if not rules.board.contains(at) else (
            "a mountain" if rules.board.terrain[at].obstacle else "occupied")
        return Refusal(f"the hex {action.side.value} of {unit.id} is {why}; call to the other side")
    if action.enhancements and s.mode is not Mode.ADVANCED:
        return Refusal("enhancements are for the advanced mode")
    if len(set(action.enhancements)) != len(action.enhancements):
        return Refusal("the same enhancement twice; each at most once per unit")
    for e in set(action.enhancements):
        have = sum(u.enhancements.count(e) for u in state.units + state.dead if u.owner == state.acting)
        if have + 1 > s.enhancement_limit:
            return Refusal(f"your legion has {have} {e.display} enhancements; at most {s.enhancement_limit}")
    cost = state.cards[card].cost + s.enhancement_cost * len(action.enhancements)
    if cost > legion.crystals:
        return Refusal(f"{card} costs {cost} crystals with its enhancements; you have {legion.crystals}")
    new_id = action.id or f"{state.acting}-C{legion.calls + 1}"
    if any(u.id.lower() == new_id.lower() for u in state.units + state.dead):
        return Refusal(f"the id {new_id!r} is taken; name the called unit otherwise")
    return (at, new_id)


def _check_ability(rules: WodRules, state: WodState, unit: Unit, action: Action) -> Checked:
    card = state.card_of(unit)
    ability = card.ability(action.target)
    usable = [a.name for a in card.abilities if a.type in (AbilityType.ACTION, AbilityType.ULTIMATE)]
    if ability is None:
        return Refusal(f"{unit.id} ({card.name}) has no ability {action.target!r}; it can activate "
                        f"{', '.join(usable) or 'none'}")
    if ability.type is AbilityType.PASSIVE:
        return Refusal(f"{ability.name} is passive: it applies whenever {unit.id} is exposed, nothing to activate")
    if ability.type is AbilityType.REACTION:
        return Refusal(f"{ability.name} is a reaction: write it as a standing reaction for the opponent's turn")
    if ability.type is AbilityType.ULTIMATE and ability.name in unit.ultimates:
        return Refusal(f"{unit.id} has used its ultimate {ability.name} this game (once per game)")
    if ability.type is AbilityType.ACTION and ability.name in unit.used:
        return Refusal(f"{unit.id} has used {ability.name} this turn (once per turn)")
    named = face_down_named(state, action.aim, but=unit)
    if named is not None and named.owner != unit.owner:  # she guessed an id: her answer must not place it
        return Refusal(f"the Aim names {named.id} by its id, and the Log both players read prints the Aim word "
                       f"for word: name {named.owner}'s units as the board shows them (a token and its hex), never "
                       "by an id or card the board does not show")
    if named is not None:
        where = f" on {named.at.label}" if named.at is not None else ""
        return Refusal(f"the Aim names {named.id}, a face-down unit, and the Log both players read prints the Aim "
                       f"word for word: name a unit as the board shows it ({named.token!r}{where}), never by its "
                       "id or card")
    return _out_of_reach(rules, state, unit, ability.name, ability.text, action.aim)


_REACH = re.compile(r"\bwithin (\d+) hex", re.IGNORECASE)
_HEX_WORD = re.compile(r"(?<![\w-])([A-Za-z]{1,2}\d{1,2})(?![\w-])")


def _out_of_reach(rules: WodRules, state: WodState, unit: Unit, name: str, text: str, aim: str) -> Refusal | None:
    """Why an ability whose card says "within N hexes" cannot be aimed where its Aim says (every hex it names, or
    the unit it names, farther than N from the unit): refused before it spends a token or reveals anyone; None when
    the card names no reach, the Aim names no place, or one place it names is within reach."""
    reach = _REACH.search(text)
    if reach is None or unit.at is None:
        return None
    places = [rules.board.parse(w) for w in _HEX_WORD.findall(aim) if rules.board.is_hex(w)]
    aimed = target_unit(rules, state, aim.strip()) if aim.strip() else None
    if not places and aimed is not None and aimed.at is not None:
        places = [aimed.at]
    most = int(reach.group(1))
    if not places or any(rules.board.distance(unit.at, h) <= most for h in places):
        return None
    far = places[0]
    return Refusal(f"{far.label} is {rules.board.distance(unit.at, far)} hexes from {unit.id} on {unit.at.label}: "
                   f"{name} reaches {most} (its card: within {most} hexes); aim it within reach")


def _check_council(rules: WodRules, state: WodState, action: Action) -> Checked:
    s = rules.settings
    legion = state.legions[state.acting]
    if s.mode is not Mode.ADVANCED:
        return Refusal("the War Council is for the advanced mode (setting mode=advanced)")
    if legion.council_turn == state.turn:
        return Refusal("the War Council has met this turn already (once per turn)")
    tactic = next((t for t in state.tactics if t.lower() == action.target.strip().lower()), None)
    if tactic is None:
        return Refusal(f"there is no tactic {action.target!r}; the tactics are {', '.join(state.tactics) or 'none'}")
    if tactic in legion.council:
        return Refusal(f"{tactic} is active already; choose another tactic")
    if legion.crystals < s.council_cost:
        return Refusal(f"the War Council costs {s.council_cost} crystals; you have {legion.crystals}")
    return tactic
