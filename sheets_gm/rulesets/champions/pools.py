"""Dealing a tile's loot pool: ``pool_size`` items drawn from the loot table with its tile class's tier weights.

Keys: each item ``n`` (1-based) rolls its tier on a die of as many faces as the weights add up to
(``pool/<tile>/<n>/tier``, tiers with no item in the table left out) and draws its item among that
tier's (``pool/<tile>/<n>``). A pin of ``pool/<tile>`` lists the pool's item names outright."""

from __future__ import annotations

from sheets_gm.engine.dice import PinnedDieError
from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.board import tile_class, tiles
from sheets_gm.rulesets.champions.enums import Tier
from sheets_gm.rulesets.champions.rules import ChampionsRules


def deal_pool(rules: ChampionsRules, dice: kit.TurnDice, size: int, tile: Coord) -> tuple[str, ...]:
    """The items dealt to ``tile`` of a ``size``×``size`` grid."""
    key = f"pool/{tile.label}"
    pinned = dice.pins.get(key)
    table = rules.table
    if pinned is not None:
        if not isinstance(pinned, list):
            raise PinnedDieError(f"pinned draw {key!r} is {pinned}; pin a pool as a list of item names")
        for name in pinned:
            if table.get(name) is None:
                raise PinnedDieError(f"pinned draw {key!r}: {name!r} is not an item of the loot table")
        dice.drawn[key] = list(pinned)
        return tuple(pinned)
    weights = rules.table.tier_weights[tile_class(size, tile)]
    tiers = [(tier, w) for tier, w in weights.items() if w > 0 and table.names_of_tier(tier)]
    if not tiers:  # no tier with a weight has items: deal from any tier that has some
        tiers = [(tier, 1) for tier in Tier if table.names_of_tier(tier)]
    total = sum(w for _, w in tiers)
    pool: list[str] = []
    for n in range(1, rules.settings.pool_size + 1):
        roll = dice.roll(f"{key}/{n}/tier", total) if total > 1 else 1
        tier = tiers[-1][0]
        for candidate, weight in tiers:
            if roll <= weight:
                tier = candidate
                break
            roll -= weight
        pool.append(dice.pick(f"{key}/{n}", table.names_of_tier(tier)))
    return tuple(pool)


def deal_pools(rules: ChampionsRules, dice: kit.TurnDice, size: int) -> dict[str, tuple[str, ...]]:
    """A fresh pool on every tile of the grid, in reading order."""
    return {t.label: deal_pool(rules, dice, size, t) for t in tiles(size)}
