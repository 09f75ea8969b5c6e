"""What each seat may see: the public board, a player's own sheet, and the texts only she may read.

Positions and who is out are public. A player sees her own champions, bag and equipment, the
reports of the battles she fought, and, for the players on her tile, their living champions
and their health; nothing of the others (rulings: "What each player sees")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from random import Random
from typing import Any

from sheets_gm.rulesets.champions.board import tile_class
from sheets_gm.rulesets.champions.enums import CLASSES
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.state import FULL_HEALTH, NO_EQUIPMENT, ChampionsState, Player


def public_view(state: ChampionsState) -> dict[str, Any]:
    """The public board: the grid at its size, who stands where, who is out, the winners."""
    return {
        "round": state.round, "phase": state.phase.value, "size": state.size,
        "positions": {p.name: p.at.label for p in state.players if p.at is not None and not p.out},
        "out": {p.name: p.out_round for p in state.players if p.out},
        "finished": state.finished, "winners": list(state.winners),
    }


def health_line(p: Player) -> str:
    """``Ann's living champions: Gladiator 100, Rogue 85``: what her tile-mates read of her."""
    living = ", ".join(f"{c.display} {p.hp(c)}" for c in p.living())
    return f"{p.name}'s living champions: {living or 'none'}"


def bag_line(p: Player) -> str:
    """``Ann's bag: 2× Iron Sword, Chainmail``: each kind of item once, in the order she got it, with a count
    where she holds more than one.

    >>> bag_line(Player("Ann", None, bag=("Iron Sword", "Chainmail", "Iron Sword")))
    "Ann's bag: 2× Iron Sword, Chainmail"
    """
    return f"{p.name}'s bag: {', '.join(counted(p.bag)) or 'empty'}"


def counted(names: Iterable[str]) -> list[str]:
    """Each name once, in the order first met, ``2× `` before one met more than once."""
    counts = Counter(names)
    return [f"{n}× {name}" if n > 1 else name for name, n in counts.items()]


def equipment_lines(p: Player) -> list[str]:
    """``Ann's Gladiator carries Iron Sword, Plate Armour``, one per champion."""
    return [f"{p.name}'s {c.display} carries {', '.join(p.items_of(c)) or 'nothing'}" for c in CLASSES]


def tile_mates(state: ChampionsState, p: Player) -> list[Player]:
    """The other players still in on her tile."""
    if p.at is None or p.out:
        return []
    return [q for q in state.on_tile(p.at) if q.name != p.name]


def player_view(rules: ChampionsRules, state: ChampionsState, seat: str) -> dict[str, Any]:
    """What ``seat`` may see: the public board and her private sheet."""
    view = public_view(state)
    p = state.player(seat)
    if p is None:
        return view
    table = rules.table
    view["me"] = {
        "name": p.name, "at": p.at.label if p.at else None,
        "tile_class": tile_class(state.size, p.at).value if p.at else None,
        "champions": {c.value: {"health": p.hp(c), "items": [_item(table, i) for i in p.items_of(c)]}
                      for c in CLASSES},
        "bag": [_item(table, i) for i in p.bag],
        "lines": [health_line(p), bag_line(p), *equipment_lines(p)],
        "pool_left": len(state.pools.get(p.at.label, ())) if p.at else 0,
    }
    view["tile_mates"] = [{"name": q.name, "living": {c.value: q.hp(c) for c in q.living()},
                           "line": health_line(q)} for q in tile_mates(state, p)]
    view["reports"] = [r.text for r in state.reports if seat in r.players]
    return view


def _item(table: Any, name: str) -> str:
    item = table.get(name)
    return item.describe() if item is not None else name


def secrets_of(state: ChampionsState, seat: str) -> list[str]:
    """What no other seat may read: her bag and equipment, always; her champions' health while no one
    shares her tile."""
    p = state.player(seat)
    if p is None:
        return []
    out = [bag_line(p), *equipment_lines(p)]
    if not p.out and not tile_mates(state, p):
        out.append(health_line(p))
    return out


def view_of(rules: ChampionsRules, state: ChampionsState, seat: str | None) -> dict[str, Any]:
    """The public board (``None``), or a player's own sheet: hers, her tile-mates' living champions."""
    return public_view(state) if seat is None else player_view(rules, state, seat)


#: What a bot playing a seat takes an item it has not seen for: no item of the loot table has this name.
UNSEEN_ITEM = "?"


def seat_state(rules: ChampionsRules, state: ChampionsState, seat: str) -> ChampionsState:
    """The match as ``seat`` knows it, for a bot that plays her: her own player whole; another player's position
    and whether she is out, her champions' health only while she shares the seat's tile (else full health, as
    anyone would assume), never her bag or equipment; the pools' items unseen (her own tile's as many as lie
    there, another tile's as many as a tile is dealt); only the reports of the seat's own battles."""
    me = state.player(seat)
    mates = {q.name for q in tile_mates(state, me)} if me is not None else set()
    players = []
    for p in state.players:
        if p.name == seat:
            players.append(p)
            continue
        health = p.health if p.name in mates or p.out else FULL_HEALTH
        players.append(replace(p, health=health, equipment=NO_EQUIPMENT, bag=()))
    here = me.at.label if me is not None and me.at is not None else None
    pools = {tile: (UNSEEN_ITEM,) * (len(items) if tile == here else rules.settings.pool_size)
             for tile, items in state.pools.items()}
    reports = tuple(r for r in state.reports if seat in r.players)
    return state.with_players(players, pools=pools, reports=reports)


def unseen_twin(state: ChampionsState, seat: str, rng: Random) -> ChampionsState:
    """A match ``seat`` cannot tell from ``state``: the other players' bags and equipment shuffled among them, the
    health of those off her tile (and still in) shuffled among those, each pool's items in another order (she
    sees only how many lie on her tile), and the reports of battles she did not fight in another order."""
    me = state.player(seat)
    mates = {q.name for q in tile_mates(state, me)} if me is not None else set()
    others = [i for i, p in enumerate(state.players) if p.name != seat]
    kits = [(state.players[i].equipment, state.players[i].bag) for i in others]
    rng.shuffle(kits)
    unseen = [i for i in others if state.players[i].name not in mates and not state.players[i].out]
    healths = [state.players[i].health for i in unseen]
    rng.shuffle(healths)
    players = list(state.players)
    for i, (equipment, bag) in zip(others, kits, strict=True):
        players[i] = replace(players[i], equipment=equipment, bag=bag)
    for i, health in zip(unseen, healths, strict=True):
        players[i] = replace(players[i], health=health)
    pools = {tile: tuple(rng.sample(items, len(items))) for tile, items in state.pools.items()}
    theirs = [n for n, r in enumerate(state.reports) if seat not in r.players]
    moved = [state.reports[n] for n in theirs]
    rng.shuffle(moved)
    reports = list(state.reports)
    for n, report in zip(theirs, moved, strict=True):
        reports[n] = report
    return state.with_players(players, pools=pools, reports=tuple(reports))
