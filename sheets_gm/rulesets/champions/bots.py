"""Bots: legal, sensible orders for one player.

The scripted bots move toward better loot (the tile class's tier weights times the items left),
shunning tiles a rival stands on or next to; loot the item types they lack; field the pair that
is strongest against what their tile-mates have left; and pick sets that exploit strengths: a
champion strong against a likely foe attacks every round (the classes it is strong against
first), one a likely foe is strong against evades, the others attack and evade in turn, and a
Healer heals a hurt pair member between evades. They differ in how they equip, which
``simulate`` compares:

- ``affinity``: every item on the champion that multiplies it (physical on the Gladiator and the
  Rogue, magical on the Mage and the Healer, support on the Rogue and the Healer), armour to the
  champion with the most health that may wear it;
- ``stack``: the best items on the two healthiest champions, whatever their affinities;
- ``random``: random legal orders in both windows;
- ``seek`` (practice's bot): as ``affinity``, but drawn to a rival's tile (and next to it) where the others
  shun it, so that the person practising meets a fight most rounds rather than one in fifteen.

Bots read the loot pools' contents, which players only learn by looting; they never read another
player's bag, equipment or orders."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.board import board, tile_class
from sheets_gm.rulesets.champions.combat import STRONG
from sheets_gm.rulesets.champions.enums import (
    CLASS_INDEX,
    CLASSES,
    HAND_TYPES,
    ChampClass,
    ItemType,
    LootChoice,
    Phase,
    Tier,
)
from sheets_gm.rulesets.champions.equipment import AFFINITY, DEFENSIVE_LIMIT, HAND_LIMIT, WEARABLE
from sheets_gm.rulesets.champions.items import Item
from sheets_gm.rulesets.champions.orders import DEFAULT_PREFS, SET_LENGTH, Orders, PlayerOrders
from sheets_gm.rulesets.champions.resolve import by_health
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.state import MAX_HEALTH, ChampionsState, Player

_TIER_VALUE = {Tier.COMMON: 1.0, Tier.UNCOMMON: 2.0, Tier.RARE: 3.5, Tier.LEGENDARY: 6.0}
#: How much a bot shuns a tile a rival stands on (or may move to), against a loot value of about 2 an item.
_CAUTION = 10.0
#: How many items of each type a player wants to hold before looting anything else.
_WANT = {ItemType.PHYSICAL: 3, ItemType.MAGICAL: 3, ItemType.DEFENSIVE: 4, ItemType.SUPPORT: 1}


@dataclass(frozen=True, slots=True)
class ChampionsBot:
    """One player's bot; ``strategy`` is how it equips: ``affinity``, ``stack`` or ``random``; ``seek`` equips as
    ``affinity`` and seeks its rivals' tiles."""

    rules: ChampionsRules
    seed: str
    strategy: str = "affinity"

    def orders(self, state: ChampionsState, seat: str, dice: kit.TurnDice) -> Orders:
        """Her orders for the open window (none once she is out)."""
        me = state.player(seat)
        if me is None or me.out or state.finished:
            return Orders()
        rng = random.Random(f"{self.seed}/{state.round}/{state.phase.value}")
        move = state.phase is Phase.MOVE
        return Orders({seat: self._move_loot(state, me, rng) if move else self._equip_fight(state, me, rng)})

    # -- window 1 ------------------------------------------------------------------------------
    def _move_loot(self, state: ChampionsState, me: Player, rng: random.Random) -> PlayerOrders:
        assert me.at is not None
        grid = board(state.size)
        options = [me.at, *grid.neighbours(me.at)]
        count = self.rules.settings.loot_actions
        if self.strategy == "random":
            to = rng.choice(options)
            words = [rng.choice(list(LootChoice)).value for _ in range(rng.randint(0, count))]
            return PlayerOrders(move="stay" if to == me.at else to.label, loot=tuple(words))
        rivals = [p.at for p in state.alive() if p.name != me.name and p.at is not None]
        weak = sum(me.health) < 0.5 * sum(MAX_HEALTH.values())
        caution = _CAUTION * (1.5 if weak else 1.0)

        def loot_value(tile: Coord) -> float:
            pool = state.pools.get(tile.label, ())
            weights = self.rules.table.tier_weights[tile_class(state.size, tile)]
            quality = sum(_TIER_VALUE[t] * w for t, w in weights.items()) / max(1, sum(weights.values()))
            return quality * min(len(pool), 6)

        if self.strategy == "seek":  # a fight is what it comes for: where a rival is likely to end her move
            return self._seek(state, me, options, rivals, loot_value, rng)

        def score(tile: Coord) -> float:
            # a rival on the tile fights her for sure; one next to it may move in
            danger = sum(1.0 if r == tile else 0.8 if grid.distance(r, tile) == 1 else 0.0 for r in rivals)
            return loot_value(tile) - caution * danger + rng.random()

        to = max(options, key=score)
        pool = state.pools.get(to.label, ())
        return PlayerOrders(move="stay" if to == me.at else to.label, loot=tuple(self._loot_words(me, pool, count)))

    def _seek(self, state: ChampionsState, me: Player, options: list[Coord], rivals: list[Coord],
              loot_value: Callable[[Coord], float], rng: random.Random) -> PlayerOrders:
        """``seek``'s move: to where a rival most likely ends her move (her tile, where she may stay to loot, before
        the tile of best loot she can reach, where she may go), the loot breaking ties; it loots as ``affinity``."""
        grid = board(state.size)
        likely: dict[Coord, float] = {}
        for at in rivals:
            reach = [at, *grid.neighbours(at)]
            best = max(reach, key=loot_value)
            likely[at] = likely.get(at, 0.0) + 1.5  # staying to loot is the likelier: her tile first
            likely[best] = likely.get(best, 0.0) + 1.0
        to = max(options, key=lambda t: (likely.get(t, 0.0), loot_value(t) + rng.random()))
        pool = state.pools.get(to.label, ())
        count = self.rules.settings.loot_actions
        return PlayerOrders(move="stay" if to == me.at else to.label, loot=tuple(self._loot_words(me, pool, count)))

    def _loot_words(self, me: Player, pool: Sequence[str], count: int) -> list[str]:
        table = self.rules.table
        held = {t: 0 for t in ItemType}
        for name in [*me.bag, *(i for items in me.equipment for i in items)]:
            item = table.get(name)
            if item is not None:
                held[item.type] += 1
        present = {t: 0 for t in ItemType}
        for name in pool:
            item = table.get(name)
            if item is not None:
                present[item.type] += 1
        words: list[str] = []
        for _ in range(count):
            lacking = [t for t in ItemType if held[t] < _WANT[t] and present[t] > 0]
            if lacking:
                kind = max(lacking, key=lambda t: (_WANT[t] - held[t], -list(ItemType).index(t)))
                held[kind] += 1
                present[kind] -= 1
                words.append(kind.value)
            else:
                words.append(LootChoice.ANY.value)
        return words

    # -- window 2 ------------------------------------------------------------------------------
    def _equip_fight(self, state: ChampionsState, me: Player, rng: random.Random) -> PlayerOrders:
        plan = self._equipment(me, rng)
        equip = tuple((c.value, plan[c]) for c in CLASSES if plan[c] != me.items_of(c))
        mates = [p for p in state.alive() if p.name != me.name and p.at == me.at]
        if not mates or not me.living():
            return PlayerOrders(equip=equip)
        if self.strategy == "random":
            living = me.living()
            pair = rng.sample(living, min(len(living), rng.randint(1, 2)))
            sets = tuple((c.value, tuple(self._random_action(c, rng) for _ in range(SET_LENGTH))) for c in pair)
            return PlayerOrders(equip=equip, field=(tuple(c.value for c in pair),), sets=sets)
        foes = [c for p in mates for c in by_health(p)[:2]]
        pair = self._pair(me, foes)
        sets = tuple((c.value, self._set(me, c, pair, foes)) for c in pair)
        return PlayerOrders(equip=equip, field=(tuple(c.value for c in pair),), sets=sets)

    def _equipment(self, me: Player, rng: random.Random) -> dict[ChampClass, tuple[str, ...]]:
        """Her whole equipment, planned afresh from everything she holds."""
        table = self.rules.table
        names = [*me.bag, *(i for items in me.equipment for i in items)]
        items = [item for n in names if (item := table.get(n)) is not None]
        living = by_health(me)
        hands: dict[ChampClass, list[Item]] = {c: [] for c in CLASSES}
        armour: dict[ChampClass, list[Item]] = {c: [] for c in CLASSES}
        if self.strategy == "random":
            rng.shuffle(items)
        else:
            items.sort(key=lambda i: (-self.rules.table.value(i.name), i.name))
        for item in items:
            if item.type is ItemType.DEFENSIVE:
                wearers = [c for c in living if item.weight in WEARABLE[c] and len(armour[c]) < DEFENSIVE_LIMIT]
                if self.strategy == "random":
                    rng.shuffle(wearers)
                if wearers:
                    armour[wearers[0]].append(item)
                continue
            holders = [c for c in living if len(hands[c]) < HAND_LIMIT]
            if not holders:
                continue
            if self.strategy == "random":
                choice = rng.choice(holders)
            elif self.strategy == "stack":
                top = [c for c in holders if c in living[:2]]
                choice = top[0] if top else holders[0]
            else:
                choice = max(holders, key=lambda c: (_fit(c, item), -CLASS_INDEX[c]))
                if _fit(choice, item) <= 0:
                    continue  # an item no one wants (support on the Gladiator) stays in the bag
            hands[choice].append(item)
        return {c: tuple(i.name for i in [*hands[c], *armour[c]]) for c in CLASSES}

    def _pair(self, me: Player, foes: list[ChampClass]) -> list[ChampClass]:
        living = me.living()
        if len(living) <= 2:
            return by_health(me)

        def value(c: ChampClass) -> float:
            edge = sum(1 for f in foes if f in STRONG[c]) - sum(1 for f in foes if c in STRONG[f])
            return me.hp(c) / MAX_HEALTH[c] * 100 + 15 * edge + (10 if c is ChampClass.GLADIATOR else 0)

        return sorted(sorted(living, key=lambda c: (-value(c), CLASS_INDEX[c]))[:2], key=CLASS_INDEX.__getitem__)

    def _set(self, me: Player, c: ChampClass, pair: list[ChampClass], foes: list[ChampClass]) -> tuple[str, ...]:
        """Attack where it is strong, dodge where it is weak: a champion strong against a likely foe attacks
        every round; one a likely foe is strong against evades; the others attack and evade in turn. A Healer
        heals a hurt pair member first."""
        prefs = sorted(DEFAULT_PREFS, key=lambda t: (0 if t in STRONG[c] else 2 if c in STRONG[t] else 1,
                                                    DEFAULT_PREFS.index(t)))
        attack = "attack " + " ".join(t.value for t in prefs)
        if c is ChampClass.HEALER:
            partner = next((x for x in pair if x is not c), None)
            hurt = [x for x in (c, partner) if x is not None and me.hp(x) < 0.7 * MAX_HEALTH[x]]
            if hurt:
                return ("heal", "evade", "heal", "evade")
        if any(f in STRONG[c] for f in foes):
            return (attack,) * SET_LENGTH
        if any(c in STRONG[f] for f in foes):
            return ("evade",) * SET_LENGTH
        return ("evade", attack, "evade", attack)

    @staticmethod
    def _random_action(c: ChampClass, rng: random.Random) -> str:
        kinds = ["attack", "evade"] + (["support"] if c is not ChampClass.GLADIATOR else [])
        if c is ChampClass.HEALER:
            kinds.append(rng.choice(["heal", "heal self", "heal partner"]))
        kind = rng.choice(kinds)
        if kind == "attack":
            return "attack " + " ".join(t.value for t in rng.sample(CLASSES, 4))
        return kind


def _fit(c: ChampClass, item: Item) -> float:
    """How well ``item`` suits ``c``: its affinity first; what ``c`` never uses (support on the Gladiator) 0."""
    if item.type in AFFINITY[c]:
        return 2.0
    if item.type is ItemType.SUPPORT:
        return 0.0 if c is ChampClass.GLADIATOR else 0.5
    if c is ChampClass.HEALER and item.type is ItemType.PHYSICAL:
        return 0.5
    return 1.0 if item.type in HAND_TYPES else 0.0
