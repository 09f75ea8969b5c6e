"""Fights between the teams: a structure attacked and defended, an open battle on a tile, and what every fight shares
(a fighter's roll and bonuses: healer buffs, carriers, tanks; a knock-down)."""

from __future__ import annotations

from collections.abc import Container, Sequence

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.words import counted
from sheets_gm.rulesets.gvg.combat import Contribution, Side, decide
from sheets_gm.rulesets.gvg.enums import EventKind, Outcome, Skill, StructureKind
from sheets_gm.rulesets.gvg.resolve.work import _ATTACKERS_WIN, _BULWARK, _DPS, _FISH, _NO_ROLL, _TANK, Turn
from sheets_gm.rulesets.gvg.rules import carried_tree
from sheets_gm.rulesets.gvg.state import Player, Structure

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_BATTLE = EventKind.BATTLE
_BULWARK_DAMAGE = Skill.BULWARK_DAMAGE
_DEFENDERS_WIN = Outcome.DEFENDERS_WIN
_FISH_DAMAGE = Skill.FISH_DAMAGE
_HEALING_REDUCTION = Skill.HEALING_REDUCTION
_KNOCKED_DOWN = EventKind.KNOCKED_DOWN
_STALEMATE = Outcome.STALEMATE
_STRUCTURE_DAMAGED = EventKind.STRUCTURE_DAMAGED
_STRUCTURE_DESTROYED = EventKind.STRUCTURE_DESTROYED
_TREE_DROPPED = EventKind.TREE_DROPPED
# a member's ``value`` is a Python property on Python 3.11: read once per member
_KIND_NAMES = {kind: kind.value for kind in StructureKind}
_OUTCOME_VALUES = {outcome: outcome.value for outcome in Outcome}
_NOBODY: frozenset[int] = frozenset()
_BOTH = frozenset({0, 1})


def structure_battle(work: Turn, structure: Structure, people: list[Player]) -> None:
    """Attackers against a standing structure and its defenders: the structure's own defence roll, skills and bonuses,
    then a win knocks the defenders down and damages or destroys it."""
    s, x = work.s, structure.team
    tile = structure.at
    attackers: list[Player] = []
    defenders: list[Player] = []
    for p in people:
        (defenders if p.team == x else attackers).append(p)
    if not any_rolls(work, attackers):
        return
    y, teams, dice = 1 - x, work.state.teams, work.dice
    name, where = _KIND_NAMES[structure.kind], work.structure_words(structure)  # "bulwark", "red's bulwark on E4"
    carriers = carrier_teams_on(work, people)
    attack = Side(y, f"{teams[y]} attacking")
    join_fight(work, (attack, attack), attackers, True, carriers)  # every fighter here joins the attack
    skill = _BULWARK_DAMAGE if structure.kind is _BULWARK else _FISH_DAMAGE
    if skill in work.active[y]:
        attack.flat.append((skill.display, s.skill_damage_bonus))
    carrier_bonus(work, attack, carriers)
    defence = Side(x, f"{teams[x]}'s {name}")
    key = f"defense/{tile.label}"
    defence.flat.append((f"{name} die {dice.message(key)}", dice.d6(key)))
    if structure.kind is _FISH:
        _fish_tier(work, defence)
    join_fight(work, (defence, defence), defenders, False, _BOTH)
    carrier_bonus(work, defence, carriers)
    # An attack with a carrier (and none among the defenders) wins ties; otherwise defenders do,
    # and an empty structure falls on a tie.
    carrier_attack = y in carriers and x not in carriers
    tie = _DEFENDERS_WIN if defenders and not carrier_attack else _ATTACKERS_WIN
    outcome = decide(attack, defence, tie)
    kind = "PvP" if defenders else "PvE"
    verdict = "the attack succeeds" if outcome is _ATTACKERS_WIN else f"the {name} holds"
    work.log(_BATTLE,
             lambda: f"Battle for {where} ({kind}): {attack.describe()}; {defence.describe()}. "
                     f"{attack.total} vs {defence.total}: {verdict}.",
             tile=tile.label, kind=name, structure=structure.key, pvp=bool(defenders),
             sides=[attack, defence], outcome=_OUTCOME_VALUES[outcome],
             winner=teams[y if outcome is _ATTACKERS_WIN else x])
    if outcome is _ATTACKERS_WIN:
        structure = work.state.structures[tile] = structure.copy()  # the turn's input state holds the other
        structure.hp -= 1
        work.log(_STRUCTURE_DAMAGED,
                 f"{teams[x]}'s {name} on {tile.label} loses 1 HP ({structure.hp} left).",
                 structure=structure.key, hp=structure.hp)
        if structure.destroyed:
            work.log(_STRUCTURE_DESTROYED,
                     f"{teams[x]}'s {name} on {tile.label} is destroyed.",
                     structure=structure.key)
            for p in defenders:
                knock(work, p, tile, f"{where} fell")
        elif x in carriers:
            # The carrier's side lost the battle: the carrier falls even though the structure stands.
            for p in defenders:
                if carried_tree(work.state, p.name) is not None:
                    knock(work, p, tile, "the tree's defence lost")
    else:
        for p in attackers:
            knock(work, p, tile, f"{where} held")


def _fish_tier(work: Turn, defence: Side) -> None:
    """A fish's defence grows with its team's fallen bulwarks."""
    down = work.destroyed_bulwarks[defence.team]
    tier = work.s.fish_tier(down)
    if tier:
        defence.flat.append((f"fish tier, {counted(down, 'bulwark')} down", tier))


def open_battle(work: Turn, tile: Coord, people: list[Player], where: str) -> int | None:
    """Fight between the two teams on a tile; returns the winning team, None on a stalemate."""
    if not any_rolls(work, people):
        return None
    carriers = carrier_teams_on(work, people)
    sides = [Side(team, work.team(team)) for team in (0, 1)]
    join_fight(work, sides, people, True, carriers)  # in the tile's order: the dice are rolled in it
    for side in sides:
        carrier_bonus(work, side, carriers)
    # No carrier, or one on each side: a tie favours nobody; else it goes to the carrier's side.
    one_carrier = _ATTACKERS_WIN if 0 in carriers else _DEFENDERS_WIN
    tie = _STALEMATE if len(carriers) != 1 else one_carrier
    outcome = decide(sides[0], sides[1], tie)
    winner = {_ATTACKERS_WIN: 0, _DEFENDERS_WIN: 1}.get(outcome)
    place = f"{tile.label} {where}".strip()
    result = "stalemate, nobody falls" if winner is None else f"{work.team(winner)} wins"
    work.log(_BATTLE,
             lambda: f"Battle on {place}: {sides[0].describe()}; {sides[1].describe()}. "
                     f"{sides[0].total} vs {sides[1].total}: {result}.",
             tile=tile.label, kind="open", pvp=True, sides=sides,
             outcome=_OUTCOME_VALUES[outcome], winner=None if winner is None else work.team(winner))
    if winner is not None:
        for p in people:
            if p.team != winner:
                knock(work, p, tile, f"lost the battle on {tile.label}")
    return winner


def any_rolls(work: Turn, people: list[Player]) -> bool:
    """Whether any of ``people`` rolls in the action phase (``Turn.rolls`` of each, without a call a player)."""
    teleports, orders = work.checked.teleports, work.orders
    for p in people:
        if p.name not in teleports:
            order = orders.get(p.name)
            if order is None or order.action not in _NO_ROLL:
                return True
    return False


def join_fight(work: Turn, sides: Sequence[Side], fighters: list[Player], dps: bool, tanks: Container[int]) -> None:
    """What each of ``fighters`` brings to the side of her team (``sides[p.team]``), in order: a d6 and its bonuses
    (DPS's with ``dps``, a tank's when her team is in ``tanks``, then one per friendly buffing healer in reach,
    cancelled by the enemy's Healing Reduction), or no roll when she buffs, revives or teleported. One call a fight:
    a turn's fights add a few players each."""
    s, dice, orders, teleports = work.s, work.dice, work.orders, work.checked.teleports
    for p in fighters:
        name, team = p.name, p.team
        out = sides[team].contributions
        order = orders.get(name)
        if name in teleports or (order is not None and order.action in _NO_ROLL):  # ``Turn.rolls``
            out.append(Contribution(p, None, None))
            continue
        role = p.role
        if role is _DPS:
            bonuses = [("DPS", s.dps_bonus)] if dps else []
        else:
            bonuses = [("Tank", s.tank_bonus)] if role is _TANK and team in tanks else []
        at, count = p.at, 0
        for reach in work.buff_reach[team]:  # a loop, not ``sum`` of a generator: most fights have a buffing healer
            if at in reach:
                count += 1
        if count:
            if _HEALING_REDUCTION in work.active[1 - team]:
                bonuses.append(("buff cancelled by Healing Reduction", 0))
            else:
                bonuses += [("healer buff", s.buff_bonus)] * count
        key = "combat/" + name
        out.append(Contribution(p, dice.d6(key), dice.message(key), bonuses))


def carrier_teams_on(work: Turn, people: list[Player]) -> frozenset[int]:
    """The teams with a carrier among ``people`` (both, when two carriers share the tile)."""
    carriers: list[str] = []
    for tree in work.state.trees:  # a loop: most fights have no carrier, and a comprehension is a call on Python 3.11
        if tree is not None and tree.carrier is not None:
            carriers.append(tree.carrier)
    return frozenset([p.team for p in people if p.name in carriers]) if carriers else _NOBODY


def knock(work: Turn, p: Player, tile: Coord, why: str) -> None:
    """Knock ``p`` down on ``tile`` (once a turn), dropping any tree she carries there, and log why."""
    if p.name in work.knocked:
        return
    work.knocked.add(p.name)
    work.log(_KNOCKED_DOWN, f"{p.name} is knocked down on {tile.label} ({why}).",
             player=p.name, at=tile.label)
    tree = carried_tree(work.state, p.name)
    if tree is not None:
        tree.carrier = None
        tree.at = p.at
        work.log(_TREE_DROPPED, f"{p.name} drops {work.team(tree.team)}'s tree on {tile.label}.",
                 player=p.name, tree=work.team(tree.team), at=tile.label)


def carrier_bonus(work: Turn, side: Side, carrier_teams: frozenset[int]) -> None:
    """A carrier's team fights with the carrier bonus."""
    if side.team in carrier_teams:
        side.flat.append(("tree", work.s.tree_bonus))
