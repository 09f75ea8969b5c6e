"""An attack and the counter-attack: the swings in turn, each strike's hit and damage, a kill and its advancement."""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.engine.vocab import plural
from sheets_gm.rulesets.wesnoth.combat import best_attack, damage, hit_score
from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.orders import UnitOrder
from sheets_gm.rulesets.wesnoth.resolve.upkeep import check_end
from sheets_gm.rulesets.wesnoth.resolve.work import TRUE_WORDS, TurnWork
from sheets_gm.rulesets.wesnoth.state import Unit
from sheets_gm.rulesets.wesnoth.tables import Attack


def attack(work: TurnWork, unit: Unit, row: UnitOrder, stopped: str = "") -> None:
    """Check the target and weapon of a row's attack, then fight the exchange. ``stopped``: why the move
    before it ended early, if it did (the attack is then made from the stop, if the target is next to it)."""
    rules = work.rules
    target = work.units.get(row.attack)
    if target is None:
        work.verdict(unit, unit.id, "attack", False, f"skipped: there is no unit {row.attack!r} (dead, or "
                                                     "never there)")
        return
    if not work.enemies(unit.owner, target.owner):
        work.verdict(unit, unit.id, "attack", False, f"{target.id} is a friendly unit; attack an enemy")
        return
    if target.at not in rules.board.grid.neighbours(unit.at):
        if stopped:
            work.verdict(unit, unit.id, "attack", False, f"not made: the move stopped early on {unit.at.label} "
                                                         f"({stopped}), and {target.id} on {target.at.label} is "
                                                         f"not next to it")
        else:
            work.verdict(unit, unit.id, "attack", False, f"{target.id} on {target.at.label} is not next to "
                                                         f"{unit.id} on {unit.at.label}; attack an adjacent enemy")
        return
    utype = rules.utype(unit)
    if row.weapon:
        weapon = utype.attack_named(row.weapon)
        if weapon is None:
            work.verdict(unit, unit.id, "weapon", False, f"{unit.type} has no attack {row.weapon!r}; its "
                                                         f"attacks are {', '.join(utype.attack_names())}")
            return
    else:
        found = best_attack(rules, unit, target, work.tod)
        if found is None:
            work.verdict(unit, unit.id, "attack", False, f"{unit.type} has no attack")
            return
        weapon = found
    if unit.id not in work.acted:
        work.acted.append(unit.id)
    if work.dice.blind:  # a check: the fight is not fought, so it hurts and kills nobody and pays nothing
        work.verdict(unit, unit.id, "attack", True, f"will attack {target.id} with {weapon.name}: the dice are "
                                                    "rolled as the turn resolves")
        if row.advance.strip():
            advance_unit(work, unit, row.advance)
        return
    work.verdict(unit, unit.id, "attack", True, f"attacks {target.id} with {weapon.name}")
    exchange(work, unit, weapon, target, row.reroll_below, row.advance)


def swings(work: TurnWork, key: str, count: int, score: int) -> tuple[int, list[str]]:
    """Roll ``count`` keyed swings needing ``score``: the hits and each die as the log shows it."""
    rolls = []
    hits = 0
    for n in range(1, count + 1):
        value = work.dice.d6(f"{key}/{n}")
        hits += value >= score
        rolls.append(f"{work.dice.message(f'{key}/{n}')}={value} {'hit' if value >= score else 'miss'}")
    return hits, rolls


def strike(work: TurnWork, striker: Unit, weapon: Attack, target: Unit, key: str,
           reroll_below: int = 0) -> tuple[int, int]:
    """One side's swings and their damage (a reroll for the attacker); the wounds and whether it killed."""
    rules = work.rules
    score = hit_score(rules, weapon, target)
    hits, rolls = swings(work, key, weapon.swings, score)
    text = [f"{striker.id} ({striker.type}) strikes {target.id} ({target.type}) with {weapon.label}, hitting on "
            f"{score}+: {', '.join(rolls)}"]
    if reroll_below and hits < reroll_below:
        _, owner = work.player(striker.owner)
        cost = rules.settings.reroll_cost
        if owner.gold >= cost:
            work.gold(owner.name, -cost)
            hits, rerolls = swings(work, f"re{key}", weapon.swings, score)
            text.append(f"{owner.name} pays {cost} gold to reroll: {', '.join(rerolls)}")
        else:
            text.append(f"no reroll: {owner.name} has {owner.gold} gold, a reroll costs {cost}")
    wounds = damage(rules, striker, weapon, target, hits, work.tod)
    after = target.wounds + wounds
    hp = rules.utype(target).hitpoints
    if hits:
        bonus = rules.time_bonus(striker, work.tod)
        percent = rules.utype(target).resistance.get(weapon.damage_type, 100)
        base = f"{hits} × {weapon.damage}" + (f" {'+' if bonus > 0 else '−'} {abs(bonus)} ({work.tod})"
                                              if bonus else "")
        if percent != 100:  # brackets: the time of day counts before the resistance
            base = (f"({base})" if bonus else base) + f" × {percent}% {weapon.damage_type}"
        text.append(f"{hits} hit{'s' if hits > 1 else ''}: {base} = {plural(wounds, 'wound')}, "
                    + (f"{target.id} is killed (0/{hp} HP)" if after >= hp
                       else f"{target.id} has {plural(after, 'wound')}, {hp - after}/{hp} HP"))
    else:
        text.append("no hit")
    work.units[target.id] = target.with_wounds(after)
    work.event(EventKind.ATTACK, "; ".join(text), striker=striker.id, target=target.id, weapon=weapon.name,
               hits=hits, wounds=wounds, dice={k: v for k, v in work.dice.rolled.items() if k.startswith(
                   (f"{key}/", f"re{key}/"))})
    return wounds, after >= hp


def exchange(work: TurnWork, attacker: Unit, weapon: Attack, defender: Unit, reroll_below: int, advance: str) -> None:
    """The attack, then the counter of the same kind if the defender lives."""
    _, killed = strike(work, attacker, weapon, defender, f"swing/{attacker.id}", reroll_below)
    if killed:
        kill(work, work.units[attacker.id], work.units[defender.id], advance)
        return
    counter = best_attack(work.rules, defender, attacker, work.tod, weapon.kind.value)
    if counter is None:
        work.event(EventKind.ATTACK, f"{defender.id} ({defender.type}) has no {weapon.kind.value} attack: no "
                   "counter", striker=defender.id, target=attacker.id, hits=0, wounds=0)
        return
    _, killed = strike(work, work.units[defender.id], counter, work.units[attacker.id],
                            f"counter/{defender.id}/{attacker.id}")
    if killed:
        kill(work, work.units[defender.id], work.units[attacker.id], work.units[defender.id].advance)


def kill(work: TurnWork, killer: Unit, dead: Unit, advance: str) -> None:
    """Remove the dead unit, pay the kill gold, advance the killer if asked, and see if the game is over."""
    level = work.rules.utype(dead).level
    gold = work.rules.settings.kill_gold * level
    del work.units[dead.id]
    total = work.gold(killer.owner, gold)
    work.event(EventKind.KILLED, f"{dead.id} ({dead.type}, {dead.owner}) dies; {killer.owner} gains {gold} gold "
               f"({total} gold)", unit=dead.id, owner=dead.owner, killer=killer.id, player=killer.owner,
               gold=gold, leader=dead.leader)
    if advance.strip():
        advance_unit(work, killer, advance)
    check_end(work)


def advance_unit(work: TurnWork, unit: Unit, choice: str) -> None:
    """Advance a unit that dealt a final blow to the class chosen, if its player can pay (in a check, before the
    fight, only whether the unit can advance to it)."""
    utype = work.rules.utype(unit)
    if not utype.advances_to:
        work.verdict(unit, unit.id, "advance", False, f"{unit.type} has no advancement")
        return
    if choice.strip().lower() in TRUE_WORDS:
        target = utype.advances_to[0]
    else:
        target = next((a for a in utype.advances_to if a.lower() == choice.strip().lower()), "")
        if not target:
            work.verdict(unit, unit.id, "advance", False, f"{unit.type} advances to "
                         f"{' or '.join(utype.advances_to)}, not {choice!r}")
            return
    cost = work.rules.advance_cost(utype.level)
    if work.dice.blind:  # a check, before the fight: whether it kills, and the gold then, are not known yet
        work.verdict(unit, unit.id, "advance", True, f"will advance to {target} for {cost} gold if it kills: "
                                                     "judged when the fight is fought")
        return
    _, owner = work.player(unit.owner)
    if owner.gold < cost:
        work.verdict(unit, unit.id, "advance", False, f"advancing a level-{utype.level} unit costs {cost} gold; "
                                                     f"{owner.name} has {owner.gold}")
        return
    total = work.gold(owner.name, -cost)
    work.units[unit.id] = replace(unit, type=target, wounds=0)
    work.verdict(unit, unit.id, "advance", True, f"advanced to {target} for {cost} gold")
    work.event(EventKind.ADVANCED, f"{unit.id} advances from {unit.type} to {target} for {cost} gold "
               f"({total} gold left)", unit=unit.id, type=target, cost=cost)
