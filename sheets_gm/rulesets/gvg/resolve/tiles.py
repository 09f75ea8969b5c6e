"""The action phase: every tile where something can happen, resolved in reading order."""

from __future__ import annotations

from operator import itemgetter

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.enums import Skill
from sheets_gm.rulesets.gvg.resolve.fights import open_battle, structure_battle
from sheets_gm.rulesets.gvg.resolve.neutral import boss_fight, jungle
from sheets_gm.rulesets.gvg.resolve.pickups import pickups
from sheets_gm.rulesets.gvg.resolve.upkeep import revives
from sheets_gm.rulesets.gvg.resolve.work import _ACTIVE, _BUFF, _BULWARK, _FISH, Turn
from sheets_gm.rulesets.gvg.state import Player, Structure

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_CITY_PROTECTION = Skill.CITY_PROTECTION

_READING_ORDER = itemgetter(1, 0)  # a Coord's (row, col): row by row, left to right


def action_phase(work: Turn) -> None:
    """Every tile with players on it resolved in reading order, after the healers' buff reach and the destroyed
    bulwarks are counted; then the revives."""
    st = work.state
    present = _players_by_tile(work)
    for structure in st.structures.values():
        if structure.kind is _BULWARK and structure.hp <= 0:  # ``destroyed`` without the property's call
            work.destroyed_bulwarks[structure.team] += 1
    busy = [tile for tile, people in present.items() if not _nothing_happens(work, tile, people)]
    busy.sort(key=_READING_ORDER)
    for tile in busy:
        resolve_tile(work, tile, present[tile])
    revives(work)


def _players_by_tile(work: Turn) -> dict[Coord, list[Player]]:
    """The active players on each tile, in roster order; the buffing healers' reach noted in ``work.buff_reach``."""
    mode = work.s.movement
    present: dict[Coord, list[Player]] = {}
    acting = work.checked.acting  # the accepted actions but a plain act: a buff is a healer's
    buffing = _BUFF in acting.values()
    for p in work.state.players:
        if p.status is _ACTIVE:
            at = p.at
            here = present.get(at)
            if here is None:
                present[at] = [p]
            else:
                here.append(p)
            if buffing and acting.get(p.name) is _BUFF and work.can_act(p):
                work.buff_reach[p.team].append(work.board.reach_of(at, mode))
    return present


def _nothing_happens(work: Turn, tile: Coord, people: list[Player]) -> bool:
    """Whether ``people`` on ``tile`` are one team alone with nothing to attack, take or pick up there: most tiles of
    a turn (a lone player on the way), which ``action_phase`` leaves out."""
    st = work.state
    structure = st.structures.get(tile)
    team = people[0].team
    return ((structure is None or structure.team == team or structure.destroyed)
            and tile not in st.jungle and (st.boss is None or st.boss.at != tile)
            and (people[0].name not in work.pickers if len(people) == 1  # the common case, without a generator
                 else all(p.team == team and p.name not in work.pickers for p in people)))


def resolve_tile(work: Turn, tile: Coord, people: list[Player]) -> None:
    """One tile's action phase, where something can happen: a fight over its structure or an open battle, the
    jungle, the boss, then the pickups."""
    structure = work.state.structures.get(tile)
    team = people[0].team
    winner: int | None = None
    contested = False
    for p in people:  # a loop, not a set of the teams: a comprehension is a call on Python 3.11
        if p.team != team:
            contested = True
            break
    if structure is not None and not structure.destroyed:
        reason = structure_closed(work, structure)
        if reason is None:
            structure_battle(work, structure, people)
            pickups(work, tile, people)  # a tree may lie on a standing structure's tile
            return
        if contested:
            where = f"at {work.team(structure.team)}'s {structure.kind.value} ({reason})"
            winner = open_battle(work, tile, people, where)
    elif contested:
        winner = open_battle(work, tile, people, "")
    if tile in work.state.jungle:
        jungle(work, tile, people, contested, winner)
    if work.state.boss is not None and work.state.boss.at == tile:
        boss_fight(work, tile, people)
    pickups(work, tile, people)


def structure_closed(work: Turn, structure: Structure) -> str | None:
    """Why a standing structure cannot be attacked this turn, or None if it can."""
    x = structure.team
    if _CITY_PROTECTION in work.active[x]:
        return f"{work.team(x)}'s City Protection"
    if (structure.kind is _FISH and work.board.bulwarks[x]
            and work.destroyed_bulwarks[x] == 0):
        return "the fish is locked until one of its team's bulwarks falls"
    return None
