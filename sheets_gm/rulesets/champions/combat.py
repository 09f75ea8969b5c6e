"""One 2v2 battle: four rounds of actions computed at once, damage and healing summed, health changed
at the end; the strength triangle, the Healer passive, affinities, Heal, Support and Evade.

Dice keys (per champion ``<player>.<class>`` and battle round r): ``base/<champ>/<r>/<i>``,
``item/<champ>/<r>/<slot>``, ``defence/<target>/<r>/<attacker>``, ``heal/<champ>/<r>``,
``support/<champ>/<r>``. A champion fielded in a second battle of the round (its player has fewer living
champions than battles) rolls there as ``<player>.<class>.b2``. Each action's report ends on a ``Dice:`` step
naming every die it used by its whole message (``TurnDice.message``) and the face it showed, so that anyone can
check it by hand once the seed is revealed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.combat_report import (
    AttackRolls,
    Bonus,
    DieRoll,
    HealRolls,
    attack_lines,
    heal_lines,
    is_critical,
)
from sheets_gm.rulesets.champions.enums import (
    CLASS_INDEX,
    HAND_TYPES,
    ActionKind,
    ChampClass,
    CriticalRule,
    EvadeRule,
    HealTarget,
    ItemType,
    SupportRule,
)
from sheets_gm.rulesets.champions.equipment import AFFINITY
from sheets_gm.rulesets.champions.items import Dice, Item
from sheets_gm.rulesets.champions.orders import SET_LENGTH, Action
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.state import MAX_HEALTH, champion_id, champion_name

#: Base attack dice per class: (count, sides).
BASE_DICE: dict[ChampClass, tuple[int, int]] = {
    ChampClass.GLADIATOR: (2, 10), ChampClass.ROGUE: (3, 8), ChampClass.MAGE: (4, 5), ChampClass.HEALER: (1, 10),
}

_G, _R, _M, _H = ChampClass.GLADIATOR, ChampClass.ROGUE, ChampClass.MAGE, ChampClass.HEALER
#: Who is strong against whom without a Healer passive: the triangle, and all three against Healers.
STRONG: dict[ChampClass, frozenset[ChampClass]] = {
    _G: frozenset({_M, _H}), _M: frozenset({_R, _H}), _R: frozenset({_G, _H}), _H: frozenset(),
}


@dataclass(slots=True)
class Fighter:
    """A fielded champion during a battle."""

    player: str
    cls: ChampClass
    side: int  # 0 or 1
    start: int  # health at the start of the battle
    items: tuple[Item, ...]  # its equipment, in order
    actions: tuple[Action, ...]
    damage: int = 0
    healing: int = 0
    battle: int = 1  # its battle of the round: 2 for a champion fielded a second time
    id: str = ""  # ``Ann.gladiator`` (``Ann.gladiator.b2`` in its second battle), for dice keys
    name: str = ""  # ``Ann's Gladiator``, for the report

    def __post_init__(self) -> None:
        self.id = champion_id(self.player, self.cls) + (f".b{self.battle}" if self.battle > 1 else "")
        self.name = champion_name(self.player, self.cls)

    @property
    def end(self) -> int:
        """Health when the battle ends: start − damage + healing, capped, 0 if dead."""
        return max(0, min(MAX_HEALTH[self.cls], self.start - self.damage + self.healing))

    def slotted(self, types: frozenset[ItemType] | tuple[ItemType, ...]) -> list[tuple[int, Item]]:
        """Its items of ``types`` with their slot (1-based among physical, magical and support, in order)."""
        out = []
        slot = 0
        for item in self.items:
            if item.type in HAND_TYPES:
                slot += 1
                if item.type in types:
                    out.append((slot, item))
        return out


@dataclass(slots=True)
class BattleResult:
    """A fought battle: each fielded champion's health at its end, the report lines, the deaths."""

    health: dict[tuple[str, ChampClass], int] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    deaths: list[tuple[str, ChampClass]] = field(default_factory=list)


def strong(attacker: Fighter, target: Fighter, healers: Sequence[Fighter]) -> bool:
    """Whether ``attacker`` is strong against ``target``: the triangle, all three against Healers, and the
    Healer passive with exactly one Healer fielded (her partner strong against every other class, the
    opposing side without strengths); two Healers cancel it."""
    if len(healers) == 1:
        healer = healers[0]
        if attacker.side != healer.side:
            return False
        if attacker is not healer:
            return target.cls is not _H or _H in STRONG[attacker.cls]
    return target.cls in STRONG[attacker.cls]


class _Battle:
    """The working of one battle."""

    def __init__(self, rules: ChampionsRules, dice: kit.TurnDice, fighters: list[Fighter]) -> None:
        self.settings = rules.settings
        self.dice = dice
        self.fighters = fighters
        self.healers = [f for f in fighters if f.cls is _H]
        self.lines: list[str] = []
        self.used: dict[str, list[str]] = {}  # the dice each champion's action of this round used, as printed

    def roll(self, owner: Fighter, key: str, sides: int) -> int:
        """Roll ``key`` for ``owner``'s action of this round, noting its whole message for the action's Dice step."""
        value = self.dice.roll(key, sides)
        self.used.setdefault(owner.id, []).append(f"d{sides} {self.dice.message(key)} = {value}")
        return value

    def dice_line(self, f: Fighter) -> list[str]:
        """The ``Dice:`` step of ``f``'s action: each die it used, ``d<sides> <message> = <face>`` (none: no step)."""
        used = self.used.pop(f.id, [])
        return [f"  Dice: {', '.join(used)}"] if used else []

    def partner(self, f: Fighter) -> Fighter | None:
        return next((o for o in self.fighters if o.side == f.side and o is not f), None)

    def target(self, f: Fighter, action: Action) -> Fighter | None:
        foes = {o.cls: o for o in self.fighters if o.side != f.side}
        return next((foes[c] for c in action.prefs if c in foes), None)

    def roll_items(self, f: Fighter, r: int, types: frozenset[ItemType] | tuple[ItemType, ...],
                   owner: Fighter | None = None) -> list[DieRoll]:
        """``f``'s items of ``types`` rolled, for ``owner``'s action (``f``'s own unless said: a Support's)."""
        return [DieRoll(item.dice, self.roll(owner or f, f"item/{f.id}/{r}/{slot}", item.dice.sides))
                for slot, item in f.slotted(types)]

    def support_for(self, r: int, actions: Mapping[str, Action]) -> dict[str, Bonus]:
        """What each supporter adds to its partner's attack or heal this round, by the partner's id."""
        out: dict[str, Bonus] = {}
        if self.settings.support is SupportRule.NONE:
            return out
        for s in self.fighters:
            if actions[s.id].kind is not ActionKind.SUPPORT:
                continue
            mate = self.partner(s)
            if mate is None or actions[mate.id].kind not in (ActionKind.ATTACK, ActionKind.HEAL):
                continue
            rolls = self.roll_items(s, r, (ItemType.SUPPORT,), mate)
            if rolls:
                pct = 100 + self.settings.affinity_pct if ItemType.SUPPORT in AFFINITY[s.cls] else 100
                bonus = Bonus("Support", tuple(rolls), pct)
            else:
                die = Dice(self.settings.support_die)
                bonus = Bonus("Support", (DieRoll(die, self.roll(mate, f"support/{s.id}/{r}", die.sides)),))
            out[mate.id] = bonus
        return out

    def heal_target(self, f: Fighter, action: Action) -> Fighter:
        mate = self.partner(f)
        if mate is None or action.target is HealTarget.SELF:
            return f
        if action.target is HealTarget.PARTNER:
            return mate
        # the default: the lower-health pair member at the start of the battle (ties: class order)
        return min((f, mate), key=lambda x: (x.start, CLASS_INDEX[x.cls]))

    def round(self, r: int) -> None:
        actions = {f.id: f.actions[r - 1] for f in self.fighters}
        self.lines.append(f"Round {r}")
        self.used = {}
        support = self.support_for(r, actions)
        evading = {f.id for f in self.fighters if actions[f.id].kind is ActionKind.EVADE}
        for f in self.fighters:
            action = actions[f.id]
            if action.kind is ActionKind.ATTACK:
                self.attack(f, action, r, support.get(f.id), evading)
            elif action.kind is ActionKind.HEAL:
                self.heal(f, action, r, support.get(f.id))
            elif action.kind is ActionKind.SUPPORT:
                mate = self.partner(f)
                if mate is not None and mate.id in support:
                    self.lines.append(f"{f.name} supports {mate.name}.")
                else:
                    self.lines.append(f"{f.name} supports, but no partner attacks or heals this round.")
            else:
                self.lines.append(f"{f.name} evades.")

    def attack(self, f: Fighter, action: Action, r: int, support: Bonus | None, evading: set[str]) -> None:
        target = self.target(f, action)
        if target is None:
            self.lines.append(f"{f.name} has no one to attack.")
            self.lines += self.dice_line(f)  # a Support rolled for it all the same
            return
        count, sides = BASE_DICE[f.cls]
        base = tuple(self.roll(f, f"base/{f.id}/{r}/{i}", sides) for i in range(1, count + 1))
        items = self.roll_items(f, r, (ItemType.PHYSICAL, ItemType.MAGICAL))
        armour = next((i for i in target.items if i.type is ItemType.DEFENSIVE), None)
        defence = None if armour is None else DieRoll(
            armour.dice, self.roll(f, f"defence/{target.id}/{r}/{f.id}", armour.dice.sides))
        s = self.settings
        pct = 100
        if strong(f, target, self.healers):
            pct += s.strength_pct
        if strong(target, f, self.healers):
            pct -= s.weakness_pct
        attack_items = f.slotted((ItemType.PHYSICAL, ItemType.MAGICAL))
        if any(item.type in AFFINITY[f.cls] for _, item in attack_items):
            pct += s.affinity_pct
        evade = s.evade if target.id in evading and s.evade is not EvadeRule.NONE else None
        rolls = AttackRolls(base, sides, tuple(items), support, defence, pct,
                            is_critical(base, sides, s.critical is CriticalRule.ALL_DICE), evade)
        lines, damage = attack_lines(rolls)
        self.lines.append(f"{f.name} attacks {target.name}:")
        self.lines += [f"  {line}" for line in lines]
        self.lines.append(f"  → {damage} damage to {target.name}")
        self.lines += self.dice_line(f)
        target.damage += damage

    def heal(self, f: Fighter, action: Action, r: int, support: Bonus | None) -> None:
        target = self.heal_target(f, action)
        sides = self.settings.heal_die
        roll = self.roll(f, f"heal/{f.id}/{r}", sides)
        rolls = self.roll_items(f, r, (ItemType.MAGICAL, ItemType.SUPPORT))
        pct = 100 + self.settings.affinity_pct  # both of the Healer's item types are her affinities
        items = Bonus("Item", tuple(rolls), pct) if rolls else None
        lines, amount = heal_lines(HealRolls(roll, sides, items, support))
        self.lines.append(f"{f.name} heals {'herself' if target is f else target.name}:")
        self.lines += [f"  {line}" for line in lines]
        self.lines.append(f"  → {amount} healing for {target.name}")
        self.lines += self.dice_line(f)
        target.healing += amount


def fight(rules: ChampionsRules, dice: kit.TurnDice, fighters: list[Fighter]) -> BattleResult:
    """Fight a battle between the fighters of side 0 and side 1 (each fielded champion with its set)."""
    battle = _Battle(rules, dice, fighters)
    for f in fighters:
        if len(f.actions) != SET_LENGTH:
            raise ValueError(f"{f.name}'s set has {len(f.actions)} actions, not {SET_LENGTH}")
    for r in range(1, SET_LENGTH + 1):
        battle.round(r)
    result = BattleResult()
    result.lines = battle.lines
    result.lines.append("Health")
    for f in fighters:
        end = f.end
        result.health[(f.player, f.cls)] = end
        heal = f" + {f.healing}" if f.healing else ""
        raw = f.start - f.damage + f.healing
        shown = str(end) if raw == end else f"{raw} → {end}"
        note = " (capped)" if raw > end else " (dead)" if end <= 0 else ""
        result.lines.append(f"  {f.name}: {f.start} − {f.damage}{heal} = {shown}{note}")
        if end <= 0:
            result.deaths.append((f.player, f.cls))
    return result
