"""Resolving a window: a deployment, or the acting player's rows with the opponent's standing reactions.

An actions window runs, in order: surrenders; the acting player's start of turn (once: command
tokens recovered, +1 crystal per mine one of her units stands on); each of her rows, which is
checked (a refused row changes nothing and spends no token), then offered to the opponent's
standing reactions (the first that matches fires, spends her token, reveals her unit, records
the ability for the GM and stops the rows: they wait for the next sync), then resolved; and,
when her rows are all resolved and her turn ends, fatigue +1. A game that ends stops
everything after it. ``check`` and ``resolve`` both run this on a copy of the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.hexgrid import Hex
from sheets_gm.engine.ruleset import Resolution, Verdict
from sheets_gm.rulesets.winordie.enums import (
    AbilityType,
    ActionKind,
    Ending,
    Enhancement,
    EventKind,
    Mode,
    Phase,
    ResolveMode,
    Side,
    Terrain,
    Trigger,
)
from sheets_gm.rulesets.winordie.movement import Route, plan_move
from sheets_gm.rulesets.winordie.orders import Action, Placement, Reaction, WodOrders, action_row
from sheets_gm.rulesets.winordie.rules import (
    WodRules,
    check_defeat,
    finish_game,
    identity,
    kill,
    public_name,
    reveal,
)
from sheets_gm.rulesets.winordie.state import Pending, Unit, WodState

COUNCIL = "War Council"


@dataclass(slots=True)
class TurnResult:
    """What resolving a window did: the new state, the log, a verdict per row, how many rows of the
    acting player were used up (resolved or refused) before a reaction stopped them, which reaction
    (``Bo's Bo-3 (Parry)``), and the rows refused or stopped (by row subject, each with why: while her
    turn stays open they stay on her sheet for the next sync)."""

    state: WodState
    events: list[Event] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    done: int = 0
    stopped_by: str = ""
    unused: dict[str, str] = field(default_factory=dict)

    @property
    def stopped(self) -> bool:
        """Whether a reaction stopped the acting player's rows."""
        return bool(self.stopped_by)


def resolve_turn(rules: WodRules, state: WodState, orders: WodOrders, dice: TurnDice) -> Resolution[WodState]:
    """The open window resolved (``play_window``): the acting player's rows refused or stopped by a reaction are
    ``unused`` (they wait on her sheet while her turn stays open), with a verdict per row, reaction and
    placement."""
    result = play_window(rules, state, orders, dice)
    return Resolution(result.state, result.events, {state.acting: result.unused} if result.unused else {},
                      result.verdicts)


def play_window(rules: WodRules, state: WodState, orders: WodOrders, dice: TurnDice) -> TurnResult:
    """Resolve the open window's orders on a copy of ``state`` (see the module notes), saying how far the acting
    player's rows went before a reaction stopped them."""
    result = TurnResult(state.copy())
    new = result.state
    if new.phase is Phase.OVER:
        return result
    if new.phase is Phase.DEPLOY:
        _deploy(rules, new, orders, result)
        return result
    for seat in (new.acting, new.other(new.acting)):
        if seat in orders.surrender and new.phase is Phase.ACTIONS:
            result.events.append(Event(new.turn, EventKind.SURRENDER, f"{seat} surrenders.", {"player": seat}))
            finish_game(rules, new, new.other(seat), Ending.SURRENDER, result.events)
            return result
    if not new.started:
        start_of_turn(rules, new, result.events)
    reactor = new.other(new.acting)
    standing = _standing(rules, new, reactor, orders.reactions.get(reactor, ()), result.verdicts)
    game = new.game
    for seat, rows in orders.actions.items():
        if seat != new.acting and rows:
            result.verdicts += [Verdict(seat, a.unit or seat, a.kind.value, False,
                                        f"Row {n}: it is {new.acting}'s turn; your rows resolve in your own turn")
                                for n, a in enumerate(rows, start=1)]
    for row, action in enumerate(orders.actions.get(new.acting, ()), start=1):
        subject = action.unit or new.acting
        if new.phase is not Phase.ACTIONS or new.game != game:
            result.verdicts.append(Verdict(new.acting, subject, action.kind.value, True,
                                           f"Row {row}: not resolved: the game is over."))
            continue
        if result.stopped:
            result.verdicts.append(Verdict(new.acting, subject, action.kind.value, True,
                                           f"Row {row}: waiting for the reaction above; it resolves at the next "
                                           "sync."))
            result.unused[action_row(row)] = f"{result.stopped_by} reacted before a row above{_again(rules)}"
            continue
        checked = _check(rules, new, action)
        if isinstance(checked, _Refusal):
            result.done = row
            result.verdicts.append(Verdict(new.acting, subject, action.kind.value, False, f"Row {row} "
                                           f"({action.describe()}): {checked}"))
            result.events.append(Event(new.turn, EventKind.REFUSED, f"Row {row} refused: {checked}",
                                       {"row": row}, audience=frozenset({new.acting})))
            result.unused[action_row(row)] = f"refused: {checked}"  # kept to mend if her turn stays open (a Go)
            continue
        fired = _fire_reaction(rules, new, action, standing, result.events)
        if fired:
            result.stopped_by = fired
            result.unused[action_row(row)] = f"{fired} reacted before this row{_again(rules)}"
            result.verdicts.append(Verdict(new.acting, subject, action.kind.value, True,
                                           f"Row {row}: waiting: {fired} reacts first; the GM applies the "
                                           "reaction's effect and this row resolves at the next sync."))
            continue
        result.done = row
        message = _execute(rules, new, action, checked, dice, result.events)
        result.verdicts.append(Verdict(new.acting, subject, action.kind.value, True, f"Row {row}: {message}"))
        check_defeat(rules, new, result.events)
    if new.acting not in orders.hold and not result.stopped and new.phase is Phase.ACTIONS and new.game == game:
        end_of_turn(rules, new, result.events)
    return result


def _again(rules: WodRules) -> str:
    """What a row a reaction stopped waits for, and what its player does next."""
    boxes = "Go or Ready" if rules.settings.resolve is ResolveMode.STEP else "Ready"
    return f"; once the GM has applied it, tick {boxes} again"


# -- the turn's frame ----------------------------------------------------------------------
def start_of_turn(rules: WodRules, state: WodState, events: list[Event]) -> None:
    """The acting player's start of turn: command tokens recovered (from her units too), mine income."""
    s = rules.settings
    seat = state.acting
    legion = state.legions[seat]
    legion.tokens = s.first_turn_tokens if state.turn == 1 else s.tokens
    for u in state.units:
        u.actions = 0
        u.moves = 0
        u.used.clear()
        if u.owner == seat:
            u.tokens = 0
    mines = sorted((u.at for u in state.units if u.owner == seat and u.at is not None
                    and rules.board.terrain[u.at] is Terrain.MINE), key=lambda h: (h.row, h.col))
    state.started = True
    events.append(Event(state.turn, EventKind.TURN_STARTED,
                        f"{seat}'s turn begins: she recovers her command tokens ({legion.tokens}).",
                        {"player": seat, "tokens": legion.tokens}))
    if mines and s.mine_income:
        gain = s.mine_income * len(mines)
        legion.crystals += gain
        events.append(Event(state.turn, EventKind.MINE_INCOME,
                            f"{seat} gains {gain} crystal{'s' if gain != 1 else ''} from the mine"
                            f"{'s' if len(mines) != 1 else ''} on {', '.join(h.label for h in mines)} "
                            f"({legion.crystals} now).",
                            {"player": seat, "gain": gain, "mines": [h.label for h in mines]}))


def end_of_turn(rules: WodRules, state: WodState, events: list[Event]) -> None:
    """Fatigue +1 for the acting player, the defeat check, and the turn passes."""
    seat = state.acting
    legion = state.legions[seat]
    legion.fatigue += 1
    events.append(Event(state.turn, EventKind.TURN_ENDED,
                        f"{seat} ends her turn; her fatigue rises to {legion.fatigue} (morale {legion.morale}).",
                        {"player": seat, "fatigue": legion.fatigue, "morale": legion.morale}))
    if check_defeat(rules, state, events):
        return
    state.turn += 1
    state.started = False


# -- deployment ----------------------------------------------------------------------------
def _deploy(rules: WodRules, state: WodState, orders: WodOrders, result: TurnResult) -> None:
    """The deploying player's placements: all legal, or nothing changes."""
    seat = state.acting
    placements = orders.deploy.get(seat, ())
    if not placements:
        return
    legion = state.legions[seat]
    allowed = set(rules.board.deploy_hexes(legion.slot))
    waiting = {u.id: u for u in state.units if u.owner == seat and u.at is None}
    taken: dict[Hex, str] = {u.at: u.id for u in state.units if u.at is not None}
    chosen: dict[str, Hex] = {}
    refused = False
    for row, p in enumerate(placements, start=1):
        problem = _placement_problem(rules, state, seat, p, waiting, chosen, taken, allowed)
        if problem:
            refused = True
            result.verdicts.append(Verdict(seat, p.unit, "deploy", False, f"Row {row} ({p.unit} on {p.at}): {problem}"))
            continue
        unit = state.unit(p.unit)
        assert unit is not None
        at = rules.board.parse(p.at)
        chosen[unit.id] = at
        taken[at] = unit.id
        result.verdicts.append(Verdict(seat, unit.id, "deploy", True, f"Row {row}: {unit.id} deploys on {at.label}."))
    for uid in waiting:
        if uid not in chosen and not any(v.subject == uid for v in result.verdicts):
            refused = True
            result.verdicts.append(Verdict(seat, uid, "deploy", False,
                                           f"{uid} is not placed: place every unit of the legion on a plain in or "
                                           f"next to your baseline"))
    if refused:
        return
    mine = sorted(chosen.items(), key=lambda item: (item[1].row, item[1].col))
    for n, (uid, at) in enumerate(mine, start=1):
        unit = state.unit(uid)
        assert unit is not None
        unit.at = at
        unit.hidden = True
        unit.token = f"{seat} token {n}"
    result.events.append(Event(state.turn, EventKind.DEPLOYED,
                               f"{seat} deploys {len(mine)} face-down tokens on "
                               f"{', '.join(at.label for _, at in mine)}.",
                               {"player": seat, "hexes": [at.label for _, at in mine]}))
    result.events.append(Event(state.turn, EventKind.DEPLOYED,
                               "Your tokens: " + "; ".join(identity(u) for u in state.units if u.owner == seat) + ".",
                               {"player": seat}, audience=frozenset({seat})))
    if seat == state.second:  # each player gets her command tokens; the first player's first turn has fewer
        state.phase = Phase.ACTIONS
        state.turn = 1
        state.started = False
        for legion in state.legions.values():
            legion.tokens = rules.settings.tokens


def _placement_problem(rules: WodRules, state: WodState, seat: str, p: Placement, waiting: dict[str, Unit],
                       chosen: dict[str, Hex], taken: dict[Hex, str], allowed: set[Hex]) -> str | None:
    unit = state.unit(p.unit)
    if unit is None or unit.owner != seat:
        return f"you have no unit {p.unit!r}; your units are {', '.join(waiting) or 'all deployed'}"
    if unit.id not in waiting or unit.id in chosen:
        return f"{unit.id} is placed already"
    if not rules.board.is_hex(p.at):
        return f"{p.at!r} is not a hex of the map (a column letter and a row number, like C3)"
    at = rules.board.parse(p.at)
    if at not in allowed:
        return (f"{at.label} is {rules.board.describe(at)}; deploy on a plain in or next to your baseline "
                f"({', '.join(h.label for h in sorted(allowed, key=lambda h: (h.row, h.col)))})")
    if at in taken:
        return f"{at.label} is taken"
    return None


# -- standing reactions --------------------------------------------------------------------
def _standing(rules: WodRules, state: WodState, seat: str, reactions: tuple[Reaction, ...],
              verdicts: list[Verdict]) -> list[Reaction]:
    """The reacting player's standing reactions that can fire, a verdict for each."""
    out = []
    for n, r in enumerate(reactions, start=1):
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
        if problem:
            verdicts.append(Verdict(seat, r.unit, "reaction", False, f"Reaction {n}: {problem}"))
            continue
        out.append(r)
        verdicts.append(Verdict(seat, r.unit, "reaction", True, f"Reaction {n}: stands ({_when(r)})."))
    return out


def _when(r: Reaction) -> str:
    if r.when is Trigger.ATTACKED:
        return f"before an enemy attack on {r.unit}"
    if r.when is Trigger.NEAR:
        return f"before an enemy action by a unit within {r.within} of {r.unit}"
    return "before any enemy action"


def _fire_reaction(rules: WodRules, state: WodState, action: Action, standing: list[Reaction],
                   events: list[Event]) -> str:
    """Fire the first standing reaction that matches ``action`` and can be paid; its description, or ""."""
    seat = state.other(state.acting)
    legion = state.legions[seat]
    if legion.tokens < 1:
        return ""
    actor = state.unit(action.unit) if action.unit else None
    target = _target_unit(rules, state, action.target) if action.kind is ActionKind.ATTACK else None
    for r in standing:
        unit = state.unit(r.unit)
        if unit is None or unit.at is None or unit.owner != seat:
            continue
        ability = state.card_of(unit).ability(r.ability)
        if ability is None or ability.name in unit.used or unit.tokens >= rules.settings.unit_tokens:
            continue
        if r.when is Trigger.ATTACKED and target is not unit:
            continue
        if r.when is Trigger.NEAR and (actor is None or actor.at is None
                                       or rules.board.distance(actor.at, unit.at) > r.within):
            continue
        legion.tokens -= 1
        unit.tokens += 1
        unit.used.add(ability.name)
        reveal(state, unit, events, f"it reacts with {ability.name}")
        _pend(state, seat, unit.id, ability.name, ability.text, _public_row(state, action), events)
        events.append(Event(state.turn, EventKind.REACTION,
                            f"{seat} reacts before {state.acting}'s {action.kind.value}: {unit.id} ({unit.card}) "
                            f"uses {ability.name}; the GM applies it before the action goes on.",
                            {"player": seat, "unit": unit.id, "ability": ability.name}))
        return f"{seat}'s {unit.id} ({ability.name})"
    return ""


def _public_row(state: WodState, action: Action) -> str:
    """The row in words as the opponent may read it: a hidden acting unit is named by its token."""
    actor = state.unit(action.unit) if action.unit else None
    if actor is None or not actor.hidden:
        return action.describe()
    return f"{public_name(state, actor)} {action.kind.value} {action.target}".strip()


def _pend(state: WodState, seat: str, source: str, name: str, text: str, target: str, events: list[Event]) -> None:
    """Record an effect for the GM to apply."""
    state.pending.append(Pending(state.next_pending, state.turn, seat, source, name, text, target))
    state.next_pending += 1


# -- checking a row ------------------------------------------------------------------------
class _Refusal(str):
    """A refused row's reason (accepted rows give what they need instead: a route, a target, a tactic…)."""


Checked = Route | Unit | str | tuple[Hex, str] | None


def _target_unit(rules: WodRules, state: WodState, text: str) -> Unit | None:
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


def _check(rules: WodRules, state: WodState, action: Action) -> Checked:
    """What the row needs to resolve (a route, a target, a hex…), or a ``_Refusal`` saying why it is refused."""
    seat = state.acting
    legion = state.legions[seat]
    s = rules.settings
    if legion.tokens < 1:
        return _Refusal("no command token left this turn; end your turn or wait for the next")
    if action.kind is ActionKind.COUNCIL:
        return _check_council(rules, state, action)
    unit = state.unit(action.unit)
    if unit is None or unit.owner != seat or unit.at is None:
        mine = ", ".join(u.id for u in state.units if u.owner == seat and u.at is not None)
        return _Refusal(f"you have no unit {action.unit!r} on the board; yours are {mine or 'none'}")
    if unit.tokens >= s.unit_tokens:
        return _Refusal(f"{unit.id} already has {unit.tokens} command tokens; at most {s.unit_tokens} per unit "
                        "per turn")
    card = state.card_of(unit)
    if action.kind is ActionKind.MOVE:
        if not rules.board.is_hex(action.target):
            return _Refusal(f"{action.target!r} is not a hex of the map; write the destination like C3")
        route = plan_move(rules.board, s, state, unit, rules.board.parse(action.target))
        return _Refusal(route) if isinstance(route, str) else route
    if action.kind is ActionKind.ATTACK:
        target = _target_unit(rules, state, action.target)
        if target is None and rules.board.is_hex(action.target):
            return _Refusal(f"no unit stands on {rules.board.parse(action.target).label}; attack a hex with an "
                            "enemy unit on it")
        if target is None:
            return _Refusal(f"no unit answers to {action.target!r}; name a target by its hex (C3), an exposed "
                            "unit's id or a face-down token's name (Bo token 2)")
        if target.owner == seat:
            return _Refusal(f"{action.target} is your own unit; attack an enemy unit")
        assert target.at is not None
        problem = rules.board.targeting_problem(unit.at, target.at, card.range)
        return _Refusal(problem) if problem else target
    if action.kind is ActionKind.CALL:
        return _check_call(rules, state, unit, action)
    return _check_ability(state, unit, action)


def _check_call(rules: WodRules, state: WodState, unit: Unit, action: Action) -> Checked:
    s = rules.settings
    legion = state.legions[state.acting]
    if not s.calls:
        return _Refusal("calls for allies are off in this match (setting calls)")
    assert unit.at is not None
    if rules.board.bases.get(unit.at) != legion.slot:
        return _Refusal(f"{unit.id} is on {unit.at.label}, not on your baseline; only a unit on it calls for allies")
    card = next((c for c in legion.barrack if c.lower() == action.target.strip().lower()), None)
    if card is None:
        return _Refusal(f"{action.target!r} is not in your barrack; it holds "
                        f"{', '.join(sorted(set(legion.barrack))) or 'nothing'}")
    if action.side is None:
        return _Refusal("say where the called unit goes: side left or right of the caller")
    step = -1 if action.side is Side.LEFT else 1
    at = Hex(unit.at.col + step, unit.at.row)
    if not rules.board.contains(at) or rules.board.terrain[at].obstacle or state.unit_at(at) is not None:
        why = "off the map" if not rules.board.contains(at) else (
            "a mountain" if rules.board.terrain[at].obstacle else "occupied")
        return _Refusal(f"the hex {action.side.value} of {unit.id} is {why}; call to the other side")
    if action.enhancements and s.mode is not Mode.ADVANCED:
        return _Refusal("enhancements are for the advanced mode")
    if len(set(action.enhancements)) != len(action.enhancements):
        return _Refusal("the same enhancement twice; each at most once per unit")
    for e in set(action.enhancements):
        have = sum(u.enhancements.count(e) for u in state.units + state.dead if u.owner == state.acting)
        if have + 1 > s.enhancement_limit:
            return _Refusal(f"your legion has {have} {e.display} enhancements; at most {s.enhancement_limit}")
    cost = state.cards[card].cost + s.enhancement_cost * len(action.enhancements)
    if cost > legion.crystals:
        return _Refusal(f"{card} costs {cost} crystals with its enhancements; you have {legion.crystals}")
    new_id = action.id or f"{state.acting}-C{legion.calls + 1}"
    if any(u.id.lower() == new_id.lower() for u in state.units + state.dead):
        return _Refusal(f"the id {new_id!r} is taken; name the called unit otherwise")
    return (at, new_id)


def _check_ability(state: WodState, unit: Unit, action: Action) -> Checked:
    card = state.card_of(unit)
    ability = card.ability(action.target)
    usable = [a.name for a in card.abilities if a.type in (AbilityType.ACTION, AbilityType.ULTIMATE)]
    if ability is None:
        return _Refusal(f"{unit.id} ({card.name}) has no ability {action.target!r}; it can activate "
                        f"{', '.join(usable) or 'none'}")
    if ability.type is AbilityType.PASSIVE:
        return _Refusal(f"{ability.name} is passive: it applies whenever {unit.id} is exposed, nothing to activate")
    if ability.type is AbilityType.REACTION:
        return _Refusal(f"{ability.name} is a reaction: write it as a standing reaction for the opponent's turn")
    if ability.type is AbilityType.ULTIMATE and ability.name in unit.ultimates:
        return _Refusal(f"{unit.id} has used its ultimate {ability.name} this game (once per game)")
    if ability.type is AbilityType.ACTION and ability.name in unit.used:
        return _Refusal(f"{unit.id} has used {ability.name} this turn (once per turn)")
    return None


def _check_council(rules: WodRules, state: WodState, action: Action) -> Checked:
    s = rules.settings
    legion = state.legions[state.acting]
    if s.mode is not Mode.ADVANCED:
        return _Refusal("the War Council is for the advanced mode (setting mode=advanced)")
    if legion.council_turn == state.turn:
        return _Refusal("the War Council has met this turn already (once per turn)")
    tactic = next((t for t in state.tactics if t.lower() == action.target.strip().lower()), None)
    if tactic is None:
        return _Refusal(f"there is no tactic {action.target!r}; the tactics are {', '.join(state.tactics) or 'none'}")
    if tactic in legion.council:
        return _Refusal(f"{tactic} is active already; choose another tactic")
    if legion.crystals < s.council_cost:
        return _Refusal(f"the War Council costs {s.council_cost} crystals; you have {legion.crystals}")
    return tactic


# -- resolving a row -----------------------------------------------------------------------
def _spend(state: WodState, unit: Unit | None) -> None:
    state.legions[state.acting].tokens -= 1
    if unit is not None:
        unit.tokens += 1
        unit.actions += 1


def _execute(rules: WodRules, state: WodState, action: Action, checked: Checked, dice: TurnDice,
             events: list[Event]) -> str:
    """Resolve an accepted row; the feedback sentence."""
    seat = state.acting
    if action.kind is ActionKind.COUNCIL:
        assert isinstance(checked, str)
        legion = state.legions[seat]
        _spend(state, None)
        legion.crystals -= rules.settings.council_cost
        legion.council.append(checked)
        legion.council_turn = state.turn
        _pend(state, seat, COUNCIL, checked, state.tactics[checked], "", events)
        events.append(Event(state.turn, EventKind.COUNCIL,
                            f"{seat} convenes the War Council: {checked} is active for the rest of the game.",
                            {"player": seat, "tactic": checked}))
        return f"the War Council activates {checked}."
    unit = state.unit(action.unit)
    assert unit is not None and unit.at is not None
    _spend(state, unit)
    if action.kind is ActionKind.MOVE:
        assert isinstance(checked, Route)
        return _move(state, unit, checked, events)
    if action.kind is ActionKind.ATTACK:
        assert isinstance(checked, Unit)
        return attack(rules, state, unit, checked, dice, events)
    if action.kind is ActionKind.CALL:
        assert isinstance(checked, tuple)
        return _call(rules, state, unit, action, checked[0], checked[1], events)
    return _ability(state, unit, action, events)


def _move(state: WodState, unit: Unit, route: Route, events: list[Event]) -> str:
    start = unit.at
    assert start is not None
    name = public_name(state, unit)
    unit.at = route.end
    unit.moves += 1
    stop = f", stopped by {route.stopped_by}" if route.stopped_by else ""
    events.append(Event(state.turn, EventKind.MOVED, f"{name} moves from {start.label} to {route.end.label}{stop}.",
                        {"unit": name, "from": start.label, "to": route.end.label, "stopped": route.stopped_by}))
    return f"{unit.id} moves to {route.end.label}{stop}."


def attack(rules: WodRules, state: WodState, unit: Unit, target: Unit, dice: TurnDice, events: list[Event]) -> str:
    """An attack (both revealed; power + adjacent allies dice) and, if the target survives a melee
    attack, its counter-attack; the feedback sentence."""
    assert unit.at is not None and target.at is not None
    k = unit.actions
    reveal(state, unit, events, "it attacks")
    reveal(state, target, events, "it is attacked")
    melee = rules.board.distance(unit.at, target.at) == 1
    dealt = _strike(rules, state, unit, target, state.power(unit), state.card_of(unit).hit, dice,
                    f"attack/{unit.id}/{k}", EventKind.ATTACK, "attacks", events)
    if target.damage >= state.health(target):
        kill(state, target, events, f"killed by {unit.id}")
        return f"{unit.id} deals {dealt} damage to {target.id}, which dies."
    if not melee:
        return f"{unit.id} deals {dealt} damage to {target.id} from range."
    taken = _strike(rules, state, target, unit, state.counter_power(target), state.card_of(target).counter_hit,
                    dice, f"counter/{target.id}/{unit.id}/{k}", EventKind.COUNTER, "counter-attacks", events)
    if unit.damage >= state.health(unit):
        kill(state, unit, events, f"killed by {target.id}'s counter-attack")
        return f"{unit.id} deals {dealt} damage to {target.id} and dies to its counter-attack ({taken})."
    return f"{unit.id} deals {dealt} damage to {target.id} and takes {taken} in the counter-attack."


def _strike(rules: WodRules, state: WodState, striker: Unit, victim: Unit, power: int, hit: int, dice: TurnDice,
            key: str, kind: EventKind, verb: str, events: list[Event]) -> int:
    """Roll ``power`` + adjacent allies dice against ``hit`` (3 from highland onto lower ground); the damage."""
    assert striker.at is not None and victim.at is not None
    board = rules.board
    near = set(board.neighbours(striker.at))
    allies = sum(1 for u in state.units if u.owner == striker.owner and u is not striker and u.at in near)
    if board.highland(striker.at) and not board.highland(victim.at):
        hit = min(hit, rules.settings.highland_hit)
    rolls = [dice.d6(f"{key}/{i}") for i in range(1, power + allies + 1)]
    hits = sum(1 for r in rolls if r >= hit)
    tough = 1 if victim.has(Enhancement.TOUGHNESS) else 0
    damage = max(0, hits - tough)
    victim.damage += damage
    extra = f" + {allies} adjacent all{'y' if allies == 1 else 'ies'}" if allies else ""
    tough_note = " (Tough 1: one less)" if tough and hits else ""
    events.append(Event(state.turn, kind,
                        f"{striker.id} {verb} {victim.id}: {power}{extra} dice needing {hit}+ roll "
                        f"{', '.join(map(str, rolls)) or 'nothing'}: {hits} hit{'s' if hits != 1 else ''}, "
                        f"{damage} damage{tough_note} ({victim.damage}/{state.health(victim)}).",
                        {"unit": striker.id, "target": victim.id, "dice": len(rolls), "hit": hit, "rolls": rolls,
                         "hits": hits, "damage": damage, "key": key}))
    return damage


def _call(rules: WodRules, state: WodState, caller: Unit, action: Action, at: Hex, new_id: str,
          events: list[Event]) -> str:
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
    events.append(Event(state.turn, EventKind.CALLED,
                        f"{public_name(state, caller)} calls for allies: {new_id} ({card_name}) joins on {at.label} "
                        f"for {cost} crystals; {state.acting}'s morale rises to {legion.morale}.",
                        {"player": state.acting, "unit": new_id, "card": card_name, "at": at.label, "cost": cost,
                         "morale": legion.morale}))
    if legion.morale > s.morale_cap:
        kill(state, unit, events, f"morale above {s.morale_cap}")
        return f"{new_id} ({card_name}) is called but dies at once: morale would exceed {s.morale_cap}."
    return f"{new_id} ({card_name}) joins on {at.label}."


def _ability(state: WodState, unit: Unit, action: Action, events: list[Event]) -> str:
    ability = state.card_of(unit).ability(action.target)
    assert ability is not None
    reveal(state, unit, events, f"it uses {ability.name}")
    if ability.type is AbilityType.ULTIMATE:
        unit.ultimates.add(ability.name)
    else:
        unit.used.add(ability.name)
    _pend(state, state.acting, unit.id, ability.name, ability.text, action.aim, events)
    aim = f" on {action.aim}" if action.aim else ""
    events.append(Event(state.turn, EventKind.ABILITY,
                        f"{unit.id} ({unit.card}) uses {ability.name}{aim}; the GM applies its effect.",
                        {"unit": unit.id, "ability": ability.name, "type": ability.type.value, "aim": action.aim}))
    return f"{unit.id} uses {ability.name}; the GM applies its effect."


def try_action(rules: WodRules, state: WodState, action: Action, dice: TurnDice, events: list[Event]) -> str | None:
    """Check and resolve one row on ``state`` in place, without reactions (bots plan with it); the
    refusal, or None once resolved."""
    checked = _check(rules, state, action)
    if isinstance(checked, _Refusal):
        return str(checked)
    _execute(rules, state, action, checked, dice, events)
    check_defeat(rules, state, events)
    return None
