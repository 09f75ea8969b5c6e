"""Brace ("Before an enemy attack on me: I counter-attack first", issue 78, item 1): the GM's ``--counter-first``
and the stand-in GM roll the target's counter-attack before the stopped attack, with the counter's keyed dice, and
no counter-attack after it; and every card of the shipped abilities table is applied by the stand-in GM, by a GM
tool, or said in the guide to be outside the tools."""

from __future__ import annotations

import csv
import re
from typing import Any

from sheets_gm.engine.events import Event
from sheets_gm.rulesets.winordie.enums import EventKind, GmKind, Phase
from sheets_gm.rulesets.winordie.gm import events_from_options
from sheets_gm.rulesets.winordie.resolve.actions import attack
from sheets_gm.rulesets.winordie.rules import public_name
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.stand_in import APPLIED
from sheets_gm.rulesets.winordie.state import ActionChange, Pending, Unit, WodState
from tests.paths import ROOT
from tests.rulesets.winordie.helpers import deployed, rules

SEATS = ("Ann", "Bo")
BRACE = "Before an enemy attack on me: I counter-attack first."


def _melee(r: Any) -> tuple[WodState, Unit, Unit]:
    """A deployed match in its first turn, the acting player's first unit next to the opponent's first unit, both
    whole: (state, attacker, target)."""
    state = deployed(r).copy()
    state.phase, state.turn = Phase.ACTIONS, max(state.turn, 1)
    attacker = next(u for u in state.units if u.owner == state.acting and u.at is not None)
    target = next(u for u in state.units if u.owner != state.acting and u.at is not None)
    taken = {u.at for u in state.units}
    assert attacker.at is not None
    target.at = next(h for h in r.rules.board.neighbours(attacker.at)
                     if h not in taken and not r.rules.board.terrain[h].obstacle)
    return state, attacker, target


def _fought(r: Any, change: ActionChange | None) -> tuple[WodState, list[Event], str]:
    state, attacker, target = _melee(r)
    events: list[Event] = []
    said = attack(r.rules, state, attacker, target, r.dice(b"brace", state), events, change)
    return state, [e for e in events if e.kind in (EventKind.ATTACK, EventKind.COUNTER)], said


def test_a_counter_first_rolls_the_counters_keyed_dice_before_the_attack_and_none_after() -> None:
    r = rules()
    _plain_state, plain, _said = _fought(r, None)
    _state, first, said = _fought(r, ActionChange(counter_first=True, reason="Brace", against="x"))
    assert [e.kind for e in plain] == [EventKind.ATTACK, EventKind.COUNTER]
    assert next(e.kind for e in first) is EventKind.COUNTER
    assert [e.kind for e in first].count(EventKind.COUNTER) == 1  # it replaces the counter after the attack
    assert "counter-attacks first" in first[0].text, first[0].text
    # the counter's own keyed dice, the same whether it comes first or after: one die can be checked by hand
    assert (first[0].data["key"], first[0].data["rolls"]) == (plain[1].data["key"], plain[1].data["rolls"])
    assert "first" in said, said


def _braced(r: Any) -> tuple[WodState, Unit, Unit]:
    """``_melee``'s match with the target's Brace on the GM's list, stopping the attacker's attack on it."""
    state, attacker, target = _melee(r)
    state.pending.append(Pending(state.next_pending, state.turn, target.owner, target.id, "Brace", BRACE,
                                 f"{public_name(state, attacker)} attack {public_name(state, target)}"))
    state.next_pending += 1
    return state, attacker, target


def test_the_gms_counter_first_is_recorded_on_the_stopped_attack_and_logged() -> None:
    r = rules()
    state, attacker, target = _braced(r)
    (event,) = events_from_options(SEATS, {"counter-first": [attacker.id]}, "Brace of the Halberdier")
    applied = r.apply_gm_event(state, event)
    change = applied.state.changes[attacker.id]
    assert change.counter_first and change.against == public_name(state, target)
    assert "counter-attack first" in applied.events[0].text, applied.events[0].text
    assert ActionChange.from_json(change.to_json()) == change


def test_the_stand_in_gm_applies_a_brace_as_the_counter_first() -> None:
    r = rules(WodSettings(stand_in_gm=True))
    state, attacker, _target = _braced(r)
    events = r.stand_in_gm_events(state)
    named = attacker.token if attacker.hidden and attacker.token else attacker.id  # as the public Log must
    assert [(e.kind, e.target) for e in events] == [(GmKind.COUNTER_FIRST, named),
                                                   (GmKind.DONE, str(state.pending[0].id))], events


def test_every_card_of_the_abilities_table_says_how_it_is_applied() -> None:
    """The guide's table of cards names every ability of templates/winordie/abilities.csv: applied by the stand-in
    GM exactly for those it applies, else by a GM tool named (``adjust --…``), else said to be outside the tools."""
    with (ROOT / "templates" / "winordie" / "abilities.csv").open(encoding="utf-8") as f:
        abilities = {row["name"] for row in csv.DictReader(f)}
    guide = (ROOT / "docs" / "winordie-guide.md").read_text(encoding="utf-8")
    rows = {m.group(2).strip(): m.group(3) for m in re.finditer(r"^\| ([^|]+) \| \*\*([^*]+)\*\* \| (.+) \|$", guide,
                                                               re.MULTILINE)}
    assert abilities <= set(rows), abilities - set(rows)
    for name in abilities:
        how = rows[name]
        assert ("stand-in GM" in how) == (name in APPLIED), (name, how)
        assert "stand-in GM" in how or "`--" in how or "outside the tools" in how, (name, how)
    assert "Brace" in APPLIED and "--counter-first" in rows["Brace"]


def _raider_braced(r: Any) -> tuple[WodState, Unit, Unit]:
    """``_melee``'s match with the attacker a Frenzy raider and the target a Brace halberdier."""
    from dataclasses import replace

    from sheets_gm.rulesets.winordie.cards import Ability
    from sheets_gm.rulesets.winordie.enums import AbilityType, PassiveCue

    state, attacker, target = _melee(r)
    frenzy = Ability(AbilityType.PASSIVE, "Frenzy", "While damaged I roll 1 more die when I attack.",
                     PassiveCue.DAMAGED_ATTACK)
    raider, halberdier = state.card_of(attacker), state.card_of(target)
    state.cards[raider.name] = replace(raider, abilities=(frenzy,))
    state.cards[halberdier.name] = replace(halberdier, abilities=(Ability(AbilityType.REACTION, "Brace", BRACE),))
    attacker.damage = target.damage = 0
    return state, attacker, target


def test_frenzy_is_ruled_with_brace_at_once_and_weighed_for_the_damage_the_counter_first_dealt() -> None:
    """Issue 93, item 3: Brace's counter-attack first damaged an undamaged Tusk Raider, and its Frenzy ("while damaged
    I roll 1 more die") was not weighed again: 4 dice instead of 5; the two took two GM rounds. Both are put before
    the (stand-in) GM at the one stop, and the die counts as the raider rolls, damaged by the counter or not."""
    from sheets_gm.engine.dice import TurnDice
    from sheets_gm.rulesets.winordie.enums import ActionKind, Trigger
    from sheets_gm.rulesets.winordie.orders import Action, Reaction, WodOrders

    r = rules(WodSettings(stand_in_gm=True))
    for counter_die in (6, 1):  # the counter first hits (the raider is damaged as it rolls), or misses
        state, attacker, target = _raider_braced(r)
        assert target.at is not None
        orders = WodOrders(actions={attacker.owner: (Action(ActionKind.ATTACK, attacker.id, target.at.label),)},
                           reactions={target.owner: (Reaction(target.id, "Brace", Trigger.ATTACKED),)})
        stopped = r.resolve(state, orders, r.dice(b"frenzy", state)).state
        assert sorted(p.name for p in stopped.pending) == ["Brace", "Frenzy"]  # one stop, one ruling
        for event in r.stand_in_gm_events(stopped):
            stopped = r.apply_gm_event(stopped, event).state
        assert not stopped.pending
        k = 1
        pinned = {f"counter/{target.id}/{attacker.id}/{k}/{i}": counter_die for i in range(1, 9)}
        pinned.update({f"attack/{attacker.id}/{k}/{i}": 1 for i in range(1, 12)})
        done = r.resolve(stopped, orders, TurnDice(b"x", stopped.dice_turn(), pinned))
        (rolled,) = [e for e in done.events if e.kind is EventKind.ATTACK]
        damaged = counter_die >= state.card_of(target).counter_hit
        assert ("+ 1 by the GM (stand-in GM: Frenzy" in rolled.text) is damaged, (counter_die, rolled.text)


def test_a_row_under_one_a_passive_stopped_says_the_passive_stopped_it_not_that_it_reacted() -> None:
    """Issue 93, item 9: the row under an attack Frenzy stopped said "Ann-1's Frenzy reacted before a row above"; a
    passive does not react."""
    from sheets_gm.rulesets.winordie.enums import ActionKind
    from sheets_gm.rulesets.winordie.orders import Action, WodOrders

    r = rules()
    state, attacker, target = _raider_braced(r)
    attacker.damage = 1  # Frenzy weighs
    assert target.at is not None
    row = Action(ActionKind.ATTACK, attacker.id, target.at.label)
    done = r.resolve(state, WodOrders(actions={attacker.owner: (row, row)}), r.dice(b"frenzy", state))
    said = done.unused[attacker.owner]["Row 2"]
    assert said.startswith(f"{attacker.id}'s Frenzy (a passive) stopped a row above"), said
