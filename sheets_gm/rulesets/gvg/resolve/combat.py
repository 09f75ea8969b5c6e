"""What every fight shares: a fighter's roll and bonuses (healer buffs, carriers, tanks) and a knock-down."""

from __future__ import annotations

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.battle import Contribution, Side
from sheets_gm.rulesets.gvg.enums import EventKind, Skill
from sheets_gm.rulesets.gvg.resolve.turn import _TANK, Turn
from sheets_gm.rulesets.gvg.rules import carried_tree
from sheets_gm.rulesets.gvg.state import Player


def buffs(work: Turn, p: Player) -> list[tuple[str, int]]:
    """The healer buffs ``p`` fights with: one per friendly buffing healer in reach, cancelled by the enemy's Healing
    Reduction."""
    reaches = work.buff_reach[p.team]
    if not reaches:
        return []
    count = sum(1 for reach in reaches if p.at in reach)
    if not count:
        return []
    if Skill.HEALING_REDUCTION in work.active[1 - p.team]:
        return [("buff cancelled by Healing Reduction", 0)]
    return [("healer buff", work.s.buff_bonus)] * count


def contribution(work: Turn, p: Player, bonuses: list[tuple[str, int]]) -> Contribution:
    """What ``p`` brings to a fight: a d6 and its bonuses (the buffs added), or no roll when she buffs, revives or
    teleported."""
    if not work.rolls(p):
        return Contribution(p, None, None)
    key = f"combat/{p.name}"
    return Contribution(p, work.dice.d6(key), key, bonuses + buffs(work, p))


def carrier_teams_on(work: Turn, people: list[Player]) -> frozenset[int]:
    """The teams with a carrier among ``people`` (both, when two carriers share the tile)."""
    return frozenset(p.team for p in people if carried_tree(work.state, p.name) is not None)


def knock(work: Turn, p: Player, tile: Coord, why: str) -> None:
    """Knock ``p`` down on ``tile`` (once a turn), dropping any tree she carries there, and log why."""
    if p.name in work.knocked:
        return
    work.knocked.add(p.name)
    work.log(EventKind.KNOCKED_DOWN, f"{p.name} is knocked down on {tile.label} ({why}).",
             player=p.name, at=tile.label)
    tree = carried_tree(work.state, p.name)
    if tree is not None:
        tree.carrier = None
        tree.at = p.at
        work.log(EventKind.TREE_DROPPED, f"{p.name} drops {work.team(tree.team)}'s tree on {tile.label}.",
                 player=p.name, tree=work.team(tree.team), at=tile.label)


def carrier_bonus(work: Turn, side: Side, carrier_teams: frozenset[int]) -> None:
    """A carrier's team fights with the carrier bonus."""
    if side.team in carrier_teams:
        side.flat.append(("tree", work.s.tree_bonus))


def tank_bonus(work: Turn, p: Player, defending: bool) -> list[tuple[str, int]]:
    """A tank's bonus when defending (none when attacking)."""
    return [("Tank", work.s.tank_bonus)] if defending and p.role is _TANK else []
