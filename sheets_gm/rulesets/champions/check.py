"""Reading a window's orders: a verdict per part (naming the row and what would be accepted), and the
accepted parts, typed, for the resolution. A refused part changes nothing: a refused move stays, a
refused equip leaves that champion as it was, a refused field or set falls back to the default."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.vocab import VocabularyError, parse_choice
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.board import board
from sheets_gm.rulesets.champions.enums import CLASSES, ActionKind, ChampClass, LootChoice, Phase
from sheets_gm.rulesets.champions.equipment import equip_problem
from sheets_gm.rulesets.champions.orders import SET_LENGTH, Action, Orders, PlayerOrders, parse_class
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.state import ChampionsState, Player, champion_id

STAY_WORDS = ("", "stay", "-")


@dataclass(frozen=True, slots=True)
class MoveLoot:
    """A player's accepted window-1 orders: where she goes (None: stays) and what she loots."""

    move: Coord | None = None
    loot: tuple[LootChoice, ...] = ()
    # each accepted looting action's number as her feedback says it (its place among the words she typed), which
    # the Log repeats: a refused action before it leaves a gap
    numbers: tuple[int, ...] = ()

    def numbered(self) -> list[tuple[int, LootChoice]]:
        """Her accepted looting actions with the numbers her feedback gives them."""
        numbers = self.numbers or tuple(range(1, len(self.loot) + 1))
        return list(zip(numbers, self.loot, strict=True))


@dataclass(slots=True)
class EquipFight:
    """A player's accepted window-2 orders: new equipment per champion, her pairs (None: the default), her sets."""

    equip: dict[ChampClass, tuple[str, ...]] = field(default_factory=dict)
    groups: tuple[tuple[ChampClass, ...], ...] | None = None  # the champions to field, per battle
    sets: dict[ChampClass, tuple[Action, ...]] = field(default_factory=dict)


@dataclass(slots=True)
class Checked:
    """Every verdict of a window, and the accepted orders by player."""

    verdicts: list[kit.Verdict] = field(default_factory=list)
    moves: dict[str, MoveLoot] = field(default_factory=dict)
    fights: dict[str, EquipFight] = field(default_factory=dict)


def default_action(cls: ChampClass) -> Action:
    """A champion's default action: Heal (the lower-health pair member) for a Healer, else the default attack."""
    return Action(ActionKind.HEAL) if cls is ChampClass.HEALER else Action.parse("attack")


def check_orders(rules: ChampionsRules, state: ChampionsState, orders: Orders) -> Checked:
    """The verdicts and accepted orders of the open window (nothing for a finished match)."""
    out = Checked()
    if state.finished:
        return out
    for name, part in orders.players.items():
        player = state.player(name)
        if player is None:
            known = ", ".join(p.name for p in state.alive())
            out.verdicts.append(kit.Verdict(
                name, name, "orders", False,
                f"there is no player {name!r} in this match; the players still in: {known}"))
            continue
        if part.is_empty():
            continue
        if player.out:
            out.verdicts.append(kit.Verdict(name, name, "orders", False,
                                            f"{name} is out (all four champions are dead) and gives no orders"))
            continue
        if state.phase is Phase.MOVE:
            _wrong_window(out, name, part, ("equip", "field", "sets"), state)
            out.moves[name] = _move_loot(rules, state, player, part, out.verdicts)
        else:
            _wrong_window(out, name, part, ("move", "loot"), state)
            out.fights[name] = _equip_fight(rules, state, player, part, out.verdicts)
    return out


def _wrong_window(out: Checked, name: str, part: PlayerOrders, parts: tuple[str, ...], state: ChampionsState) -> None:
    for what in parts:
        if getattr(part, what):
            out.verdicts.append(kit.Verdict(name, name, what, False,
                                            f"{what} is not an order of the {state.phase.display} window of round "
                                            f"{state.round}; it was not used"))


# -- window 1 --------------------------------------------------------------------------------
def _move_loot(rules: ChampionsRules, state: ChampionsState, player: Player, part: PlayerOrders,
               verdicts: list[kit.Verdict]) -> MoveLoot:
    name = player.name
    move = _move(state, player, part.move, verdicts)
    loot: list[LootChoice] = []
    numbers: list[int] = []
    limit = rules.settings.loot_actions
    for n, word in enumerate(part.loot, start=1):
        what = f"loot {n}"
        try:
            choice = parse_choice(LootChoice, word, f"looting action {n}")
        except VocabularyError as exc:
            verdicts.append(kit.Verdict(name, name, what, False, f"{exc}; this action was not used"))
            continue
        if len(loot) >= limit:
            verdicts.append(kit.Verdict(name, name, what, False,
                                        f"looting action {n} ({choice.value}) is one too many: {limit} looting "
                                        f"actions a round; it was not used"))
            continue
        loot.append(choice)
        numbers.append(n)
        verdicts.append(kit.Verdict(name, name, what, True, f"looting action {n}: {choice.value}"))
    return MoveLoot(move, tuple(loot), tuple(numbers))


def _move(state: ChampionsState, player: Player, text: str, verdicts: list[kit.Verdict]) -> Coord | None:
    name = player.name
    if text.strip().lower() in STAY_WORDS:
        if text.strip():
            verdicts.append(kit.Verdict(name, name, "move", True, f"stays on {player.at}"))
        return None
    grid = board(state.size)
    here = player.at
    assert here is not None
    nearby = ", ".join(grid.label(t) for t in grid.neighbours(here))
    accepted = f"move to a tile next to {here} ({nearby}) or stay"
    try:
        tile = grid.parse(text)
    except kit.CoordError as exc:
        verdicts.append(kit.Verdict(name, name, "move", False, f"{exc}; {accepted}. {name} stays on {here}"))
        return None
    steps = grid.distance(here, tile)
    if steps > 1:
        verdicts.append(kit.Verdict(name, name, "move", False,
                                    f"{tile} is {steps} tiles from {here}; {accepted}. {name} stays on {here} "
                                    "and loots there"))
        return None
    if steps == 0:
        verdicts.append(kit.Verdict(name, name, "move", True, f"stays on {here}"))
        return None
    verdicts.append(kit.Verdict(name, name, "move", True, f"moves from {here} to {tile}"))
    return tile


# -- window 2 --------------------------------------------------------------------------------
def _class(text: str) -> ChampClass:
    return parse_class(text)


def _champion_rows(name: str, rows: tuple[tuple[str, tuple[str, ...]], ...], part: str, what: str,
                   verdicts: list[kit.Verdict]) -> Iterator[tuple[ChampClass, str, tuple[str, ...]]]:
    """Each row's champion, its subject (``Ann.rogue``) and its words; a row naming no champion, or one
    named before, gets its refusal here and is skipped."""
    seen: set[ChampClass] = set()
    for word, values in rows:
        try:
            cls = _class(word)
        except VocabularyError as exc:
            verdicts.append(kit.Verdict(name, name, part, False, f"{exc}; this row was not used"))
            continue
        subject = champion_id(name, cls)
        if cls in seen:
            verdicts.append(kit.Verdict(name, subject, part, False,
                                        f"the {cls.display}'s {what} is given twice; the first row counts"))
            continue
        seen.add(cls)
        yield cls, subject, values


def _equip_fight(rules: ChampionsRules, state: ChampionsState, player: Player, part: PlayerOrders,
                 verdicts: list[kit.Verdict]) -> EquipFight:
    out = EquipFight()
    out.equip = _equip(rules, player, part.equip, verdicts)
    out.groups = _field(state, player, part.field, verdicts)
    out.sets = _sets(player, part.sets, verdicts)
    return out


def _equip(rules: ChampionsRules, player: Player, rows: tuple[tuple[str, tuple[str, ...]], ...],
           verdicts: list[kit.Verdict]) -> dict[ChampClass, tuple[str, ...]]:
    """Whole equipment per champion, the order applied as a whole: items come from the bag, from any
    champion re-equipped in the same order, or from a champion not named in it, which gives the item up
    (so moving a sword from the Mage to the Gladiator takes one row); names are read whatever their case.
    A dead champion may only give items up."""
    name = player.name
    wanted: dict[ChampClass, tuple[str, ...]] = {}
    typed_for: set[ChampClass] = set()
    for cls, subject, typed in _champion_rows(name, rows, "equip", "equipment", verdicts):
        typed_for.add(cls)
        missing = [i for i in typed if rules.table.find(i) is None]
        if missing:
            verdicts.append(kit.Verdict(name, subject, "equip", False, _unknown_items(rules, player, cls, missing)))
            continue
        known = [item for i in typed if (item := rules.table.find(i)) is not None]
        items = tuple(item.name for item in known)
        if player.hp(cls) <= 0 and Counter(items) - Counter(player.items_of(cls)):
            verdicts.append(kit.Verdict(name, subject, "equip", False, _dead(player, cls)))
            continue
        problem = equip_problem(cls, known)
        if problem is not None:
            verdicts.append(kit.Verdict(name, subject, "equip", False,
                                        f"{problem}. The {cls.display} keeps {_listing(player.items_of(cls))}"))
            continue
        wanted[cls] = items
    given = _settle_equipment(player, wanted, typed_for, verdicts)
    for cls, items in wanted.items():
        if cls in given:
            gifts = "; ".join(f"gives {item} to the {to.display}" for item, to in given[cls])
            message = f"the {cls.display} {gifts}, and carries {_listing(items)}"
        else:
            message = f"the {cls.display} carries {_listing(items)}"
        verdicts.append(kit.Verdict(name, champion_id(name, cls), "equip", True, message))
    return wanted


def _settle_equipment(player: Player, wanted: dict[ChampClass, tuple[str, ...]], typed_for: set[ChampClass],
                      verdicts: list[kit.Verdict]) -> dict[ChampClass, list[tuple[str, ChampClass]]]:
    """Check that every item ``wanted`` asks for is free: in the bag, on a champion re-equipped now, or taken
    from a champion whose row was not typed (it joins ``wanted`` without the item). A champion short of an
    item is refused and keeps what it has, so its items are not free for the others: repeat until no more is
    refused. A champion re-equipped keeps its own items first. Returns, per giving champion, what it gives and
    to whom."""
    given: dict[ChampClass, list[tuple[str, ChampClass]]] = {}
    while True:
        free = Counter(player.bag)
        needs: dict[ChampClass, Counter[str]] = {}
        for cls in wanted:
            free.update(player.items_of(cls))
        for cls in wanted:  # what a champion re-equipped keeps of its own is its first
            kept = Counter(wanted[cls]) & Counter(player.items_of(cls))
            free.subtract(kept)
            needs[cls] = Counter(wanted[cls]) - kept
        short: ChampClass | None = None
        for cls in CLASSES:
            if cls not in wanted:
                continue
            need = needs[cls]
            lacking = [i for i in need if need[i] > free[i]]
            donor = next((d for d in CLASSES if d not in wanted and d not in typed_for
                          and lacking and lacking[0] in player.items_of(d)), None)
            if donor is not None:
                rest = list(player.items_of(donor))
                rest.remove(lacking[0])
                wanted[donor] = tuple(rest)
                given.setdefault(donor, []).append((lacking[0], cls))
                break
            if lacking:
                short = cls
                verdicts.append(kit.Verdict(player.name, champion_id(player.name, cls), "equip", False,
                                            _not_in_bag(player, cls, lacking[0], wanted)))
                break
            free.subtract(need)
        else:
            return given
        if short is not None:
            del wanted[short]


def _listing(items: tuple[str, ...] | list[str]) -> str:
    return ", ".join(items) if items else "nothing"


def _dead(player: Player, cls: ChampClass) -> str:
    return (f"{player.name}'s {cls.display} is dead: it cannot be equipped, only stripped (equip it with none, "
            f"or with fewer of its items, and give them to a living champion in the same order). The "
            f"{cls.display} keeps {_listing(player.items_of(cls))}")


def _not_in_bag(player: Player, cls: ChampClass, item: str,
                wanted: dict[ChampClass, tuple[str, ...]] | None = None) -> str:
    """Why ``cls`` cannot have ``item``: where the item is, if on a champion, and what to write instead."""
    holders = [c for c in CLASSES if c is not cls and item in player.items_of(c)]
    keeps = f"The {cls.display} keeps {_listing(player.items_of(cls))}"
    if holders and wanted is not None and holders[0] in wanted:
        holder = holders[0]
        return (f"{item} is on the {holder.display}, whose row in this order keeps it ("
                f"{_listing(wanted[holder])}): take it off the {holder.display}'s row, or clear that row, to move "
                f"it. {keeps}")
    claims = [c for c in CLASSES if c is not cls and item in (wanted or {}).get(c, ())]
    if claims and (item in player.bag or holders):
        have = Counter(player.bag)[item] + sum(player.items_of(c).count(item) for c in CLASSES)
        rows = " and ".join(f"the {c.display}'s row" for c in claims)
        return (f"{item} is already asked for by {rows} in this order, and {player.name} has {have} (the bag "
                f"holds {_listing(player.bag)}): give it to one champion only. {keeps}")
    return (f"{item} is not in {player.name}'s bag nor on one of {player.name}'s champions; the bag holds "
            f"{_listing(player.bag)}. {keeps}")


def _unknown_items(rules: ChampionsRules, player: Player, cls: ChampClass, texts: Sequence[str]) -> str:
    """Why the cells ``texts`` name no item, each of them (several items typed in one cell, or a name not in the
    loot table), then what the bag holds and what the champion keeps."""
    why: list[str] = []
    for text in texts:
        parts = [p.strip() for p in re.split(r"[,;/+&]| and ", text) if p.strip()]
        if len(parts) > 1 and all(rules.table.find(p) is not None for p in parts):
            why.append(f"{text!r} names {len(parts)} items in one cell: write one item per cell ({parts[0]} in this "
                       f"one, {parts[1]} in the next)")
        else:
            why.append(f"there is no item {text!r} in the loot table (names are read whatever their case)")
    keeps = _listing(player.items_of(cls))
    return f"{'; '.join(why)}; the bag holds {_listing(player.bag)}. The {cls.display} keeps {keeps}"


def _field(state: ChampionsState, player: Player, pairs: tuple[tuple[str, ...], ...],
           verdicts: list[kit.Verdict]) -> tuple[tuple[ChampClass, ...], ...] | None:
    if not pairs:
        return None
    name = player.name
    living = player.living()
    accepted = (f"name one or two living champions for one battle, or two such groups for two battles; "
                f"{name}'s living champions: {', '.join(c.display for c in living)}")

    def refuse(why: str) -> None:
        verdicts.append(kit.Verdict(name, name, "field", False, f"{why}; {accepted}. The default pairs fight"))

    if len(pairs) > 2:
        refuse(f"{len(pairs)} groups given: a player fights at most two battles a round")
        return None
    chosen: list[tuple[ChampClass, ...]] = []
    seen: set[ChampClass] = set()
    for pair in pairs:
        if not 1 <= len(pair) <= 2:
            refuse(f"a group of {len(pair)}: each battle takes one or two champions a side")
            return None
        group: list[ChampClass] = []
        for word in pair:
            try:
                cls = _class(word)
            except VocabularyError as exc:
                refuse(str(exc))
                return None
            if cls in seen:
                refuse(f"the {cls.display} is named twice: each champion fights at most once a round")
                return None
            if player.hp(cls) <= 0:
                refuse(f"{name}'s {cls.display} is dead")
                return None
            seen.add(cls)
            group.append(cls)
        chosen.append(tuple(group))
    text = " and ".join(" + ".join(c.display for c in g) for g in chosen)
    mates = [p for p in state.on_tile(player.at) if p.name != name] if player.at else []
    note = "" if mates else f" (nobody shares {player.at}: no battle this round)"
    verdicts.append(kit.Verdict(name, name, "field", True, f"fields {text}{note}"))
    return tuple(chosen)


def _sets(player: Player, rows: tuple[tuple[str, tuple[str, ...]], ...],
          verdicts: list[kit.Verdict]) -> dict[ChampClass, tuple[Action, ...]]:
    name = player.name
    sets: dict[ChampClass, tuple[Action, ...]] = {}
    for cls, subject, actions in _champion_rows(name, rows, "set", "set", verdicts):
        default = default_action(cls)
        if player.hp(cls) <= 0:
            verdicts.append(kit.Verdict(name, subject, "set", False,
                                        f"{name}'s {cls.display} is dead and fights no more; give sets for "
                                        f"{', '.join(c.display for c in player.living()) or 'no one'}"))
            continue
        if len(actions) > SET_LENGTH:
            verdicts.append(kit.Verdict(
                name, subject, "set", False,
                f"a set is {SET_LENGTH} actions, one per battle round; the {cls.display}'s set "
                f"lists {len(actions)}. The default set is used: {SET_LENGTH} × {default.text}"))
            continue
        chosen: list[Action] = []
        problems: list[str] = []  # actions not read: the row is refused (her Ready waits for the mend)
        replaced: list[str] = []  # actions her champion may not take: replaced by the default, as the rules say
        missing: list[int] = []
        for n, text in enumerate((*actions, *[""] * (SET_LENGTH - len(actions))), start=1):
            if not text.strip():  # not typed (yet): the default stands in for it
                missing.append(n)
                chosen.append(default)
                continue
            try:
                action = Action.parse(text)
            except VocabularyError as exc:
                problems.append(f"action {n}: {exc}")
                chosen.append(default)
                continue
            if action.kind is ActionKind.HEAL and cls is not ChampClass.HEALER:
                replaced.append(f"action {n} ({text}): only the Healer heals; a {cls.display} may {_may(cls)}")
                chosen.append(default)
                continue
            if action.kind is ActionKind.SUPPORT and cls is ChampClass.GLADIATOR:
                replaced.append(f"action {n} ({text}): the Gladiator cannot support; it may {_may(cls)}")
                chosen.append(default)
                continue
            chosen.append(action)
        sets[cls] = tuple(chosen)
        verdicts += _set_verdicts(name, subject, cls, chosen, default, problems, replaced, missing)
    return sets


def _set_verdicts(name: str, subject: str, cls: ChampClass, chosen: list[Action], default: Action,
                  problems: list[str], replaced: list[str], missing: list[int]) -> list[kit.Verdict]:
    """The answer to a champion's set row: what it will do, with the default in place of each action not read
    (refused, and carried out in part: ✘ for what was not read, ✔ for what is fought) or that the champion may not
    take (replaced by the default, as the rules say: carried out, one answer that says so, holding no Ready)."""
    shown = f"the {cls.display} will {_in_runs([a.text for a in chosen])}"
    gaps = f"; {_actions(missing)} not typed: the default too" if missing else ""
    if problems:
        return [kit.Verdict(name, subject, "set", False,
                            f"{'; '.join(problems + replaced)}. Replaced by {default.text}, the default{gaps}"),
                kit.Verdict(name, subject, "set", True, shown)]
    if replaced:
        return [kit.Verdict(name, subject, "set", True, f"{shown}: {'; '.join(replaced)}, so {default.text}, the "
                                                         f"default, is fought instead{gaps}")]
    note = f" ({_actions(missing)} not typed: the default, {default.text})" if missing else ""
    return [kit.Verdict(name, subject, "set", True, f"{shown}{note}")]


def _in_runs(texts: list[str]) -> str:
    """Actions in order, a run of the same one written once with its count, so that a set reads on one line.

    >>> _in_runs(["evade", "attack", "attack", "attack"]), _in_runs(["heal", "evade", "heal", "evade"])
    ('evade; attack ×3', 'heal; evade; heal; evade')
    """
    runs = [(text, len(list(run))) for text, run in groupby(texts)]
    return "; ".join(f"{text} ×{n}" if n > 1 else text for text, n in runs)


def _actions(numbers: list[int]) -> str:
    """``Action 2`` or ``Actions 2, 3 and 4``.

    >>> _actions([2]), _actions([2, 3, 4])
    ('Action 2', 'Actions 2, 3 and 4')
    """
    if len(numbers) == 1:
        return f"Action {numbers[0]}"
    return "Actions " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


def _may(cls: ChampClass) -> str:
    kinds = [ActionKind.ATTACK]
    if cls is ChampClass.HEALER:
        kinds.append(ActionKind.HEAL)
    if cls is not ChampClass.GLADIATOR:
        kinds.append(ActionKind.SUPPORT)
    kinds.append(ActionKind.EVADE)
    return ", ".join(k.value for k in kinds[:-1]) + " or " + kinds[-1].value

