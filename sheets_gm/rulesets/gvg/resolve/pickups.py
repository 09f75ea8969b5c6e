"""Trees picked up: who takes which tree, and whether it is there to take."""

from __future__ import annotations

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.enums import EventKind, StructureKind
from sheets_gm.rulesets.gvg.resolve.work import Turn
from sheets_gm.rulesets.gvg.rules import carried_tree
from sheets_gm.rulesets.gvg.settings import OwnTreePickup
from sheets_gm.rulesets.gvg.state import Player

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_FISH = StructureKind.FISH
_PICKUP_FAILED = EventKind.PICKUP_FAILED
_TREE_PICKED_UP = EventKind.TREE_PICKED_UP
_TREE_RETURNED = EventKind.TREE_RETURNED


def pickups(work: Turn, tile: Coord, people: list[Player]) -> None:
    """Trees lying on a tile picked up by the players there who chose to, in reading order."""
    chosen = work.pickers  # the players whose accepted action is a pickup: most turns, nobody
    if not chosen:
        return
    st = work.state
    pickers = [p for p in people
               if p.name in chosen and p.name not in work.knocked and work.can_act(p)
               and carried_tree(st, p.name) is None]
    if not pickers:
        return
    lying = [t for t in st.trees if t is not None and t.carrier is None and t.at == tile
             and tree_available(work, t.team, tile)]
    for tree in lying:
        fish = work.board.fish[tree.team]
        for p in pickers:
            if p.team != tree.team:
                tree.carrier = p.name
                pickers.remove(p)
                work.log(_TREE_PICKED_UP,
                         f"{p.name} picks up {work.team(tree.team)}'s tree on {tile.label}.",
                         player=p.name, tree=work.team(tree.team), at=tile.label)
                break
            if work.s.own_tree_pickup is OwnTreePickup.RETURN and fish is not None:
                pickers.remove(p)
                if tree.at != fish:
                    tree.at = fish
                    work.log(_TREE_RETURNED,
                             f"{p.name} returns {work.team(tree.team)}'s own tree to its fish on {fish.label}.",
                             player=p.name, tree=work.team(tree.team), at=fish.label)
                break
    for p in pickers:
        if not any(t is not None and t.carrier == p.name for t in st.trees):
            work.log(_PICKUP_FAILED, f"{p.name} finds no tree to pick up on {tile.label}.",
                     player=p.name, at=tile.label)


def tree_available(work: Turn, owner: int, tile: Coord) -> bool:
    """A tree on its fish tile can be taken only once that fish is destroyed."""
    fish = work.state.structures.get(tile)
    return not (fish is not None and fish.kind is _FISH and fish.team == owner
                and not fish.destroyed)
