"""Resolving the two windows of a round.

Window 1 (move and loot): simultaneous moves, then looting on each tile in a drawn order, one
action each, round after round. Window 2 (equip and fight): equipment, then the battles of each
shared tile (pairs drawn), then deaths, eliminations and the winner; if the match goes on, the
next round opens, after the grid shrinks when few enough players are left."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.board import board, shrink_axis, size_for, tiles
from sheets_gm.rulesets.champions.check import EquipFight, check_orders, default_action
from sheets_gm.rulesets.champions.combat import BattleResult, Fighter, fight
from sheets_gm.rulesets.champions.enums import (
    CLASS_INDEX,
    CLASSES,
    ChampClass,
    EventKind,
    ItemType,
    LootChoice,
    Phase,
)
from sheets_gm.rulesets.champions.items import Item
from sheets_gm.rulesets.champions.orders import SET_LENGTH, Action, Orders
from sheets_gm.rulesets.champions.pools import deal_pools
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.state import BattleReport, ChampionsState, Player, champion_name


def window_turn(state: ChampionsState) -> int:
    """The turn the open window's dice are keyed by: 2r − 1 for round r's first window, 2r for its second."""
    return 2 * state.round - (1 if state.phase is Phase.MOVE else 0)


def resolve_turn(rules: ChampionsRules, state: ChampionsState, orders: Orders,
                   dice: kit.TurnDice) -> kit.Resolution[ChampionsState]:
    """The open window resolved; the input state is not changed."""
    if state.finished:
        return kit.Resolution(state.with_players(state.players), [])
    if state.phase is Phase.MOVE:
        return _move_and_loot(rules, state, orders, dice)
    return _equip_and_fight(rules, state, orders, dice)


# -- window 1 ----------------------------------------------------------------------------------
def _move_and_loot(rules: ChampionsRules, state: ChampionsState, orders: Orders,
                   dice: kit.TurnDice) -> kit.Resolution[ChampionsState]:
    checked = check_orders(rules, state, orders)
    turn = window_turn(state)
    events: list[kit.Event] = []
    players = list(state.players)
    for i, p in enumerate(players):
        accepted = checked.moves.get(p.name)
        if p.out or accepted is None or accepted.move is None:
            continue
        players[i] = _moved(p, accepted.move)
        events.append(kit.Event(turn, EventKind.MOVED, f"{p.name} moves from {p.at} to {accepted.move}.",
                                {"player": p.name, "from": p.at, "to": accepted.move}))
    pools = {tile: list(items) for tile, items in state.pools.items()}
    bags = {p.name: list(p.bag) for p in players}
    by_tile: dict[Coord, list[str]] = {}
    for p in players:
        if not p.out and p.at is not None and checked.moves.get(p.name) and checked.moves[p.name].loot:
            by_tile.setdefault(p.at, []).append(p.name)
    for tile in sorted(by_tile, key=lambda c: (c.row, c.col)):
        looters = sorted(by_tile[tile])
        order = dice.draw(f"lootorder/{tile.label}", looters) if len(looters) > 1 else looters
        pool = pools.setdefault(tile.label, [])
        wants = {name: checked.moves[name].numbered() for name in order}
        for n in range(max(len(w) for w in wants.values())):
            for name in order:
                if n < len(wants[name]):
                    shown, choice = wants[name][n]
                    events.append(_loot(rules, dice, turn, name, (n + 1, shown), choice, pool, bags[name], tile,
                                        drawn_note(dice, f"lootorder/{tile.label}", order)
                                        if len(looters) > 1 else ""))
    players = [p if p.out else _with_bag(p, bags[p.name]) for p in players]
    new = state.with_players(players, phase=Phase.FIGHT,
                             pools={t: tuple(items) for t, items in pools.items()})
    # the check's verdicts are what the round did with each move and looting action: its rows say so once cleared
    return kit.Resolution(new, events, verdicts=list(checked.verdicts))


def _moved(p: Player, tile: Coord) -> Player:
    return Player(p.name, tile, p.health, p.equipment, p.bag, p.out_round)


def _with_bag(p: Player, bag: list[str]) -> Player:
    return p if tuple(bag) == p.bag else Player(p.name, p.at, p.health, p.equipment, tuple(bag), p.out_round)


def _loot(rules: ChampionsRules, dice: kit.TurnDice, turn: int, name: str, nth: tuple[int, int], choice: LootChoice,
          pool: list[str], bag: list[str], tile: Coord, order: str = "") -> kit.Event:
    """Her looting action ``nth``: (its place among her accepted ones, which keys its die; the number her feedback
    gives it, which the Log says). ``order`` is the draw of the tile's looting order, when several loot there."""
    table = rules.table
    key, n = nth
    if choice is LootChoice.ANY:
        candidates = sorted(set(pool))
    else:
        wanted = ItemType(choice.value)
        candidates = sorted({i for i in pool if (item := table.get(i)) is not None and item.type is wanted})
    if not candidates:
        return kit.Event(turn, EventKind.LOOT_EMPTY,
                         f"{name}'s looting action {n} ({choice.value}) finds nothing: no such item is left on {tile}.",
                         {"player": name, "n": n, "choice": choice.value, "tile": tile}, audience=frozenset({name}))
    taken = dice.pick(f"loot/{name}/{key}", candidates)
    pool.remove(taken)
    bag.append(taken)
    item = table.get(taken)
    shown = item.describe() if item else taken
    # the pool's other items stay hidden: the draw is named by its message alone
    notes = " ".join(f"[{note}]" for note in (f"drawn by {dice.message(f'loot/{name}/{key}')}", order) if note)
    return kit.Event(
        turn, EventKind.LOOTED,
        f"{name}'s looting action {n} ({choice.value}) takes {shown} on {tile}.{' ' + notes if notes else ''}",
        {"player": name, "n": n, "item": taken, "tile": tile}, audience=frozenset({name}))


# -- window 2 ----------------------------------------------------------------------------------
def _equip_and_fight(rules: ChampionsRules, state: ChampionsState, orders: Orders,
                     dice: kit.TurnDice) -> kit.Resolution[ChampionsState]:
    checked = check_orders(rules, state, orders)
    turn = window_turn(state)
    events: list[kit.Event] = []
    players = {p.name: p for p in state.players}
    for name, part in checked.fights.items():
        if part.equip:
            players[name] = _equipped(players[name], part, turn, events)
    health = {name: list(p.health) for name, p in players.items()}
    battles_fought: Counter[tuple[str, ChampClass]] = Counter()
    reports: list[BattleReport] = []
    for tile in tiles(state.size):
        here = sorted(p.name for p in players.values() if not p.out and p.at == tile)
        if len(here) < 2:
            continue
        order = dice.draw(f"pair/{tile.label}", here)
        pairing = drawn_note(dice, f"pair/{tile.label}", order)
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
        if len(order) % 2:
            pairs.append((order[-1], order[0]))
        fielded = _fielding(players, checked.fights, pairs)
        for index, (a, b) in enumerate(pairs):
            # health changes when a battle ends: a champion fielded again starts where its last battle left it
            sides = tuple(tuple(c for c in fielded[(who, index)] if health[who][CLASS_INDEX[c]] > 0)
                          for who in (a, b))
            if not sides[0] or not sides[1]:
                idle = a if not sides[0] else b
                events.append(kit.Event(
                    turn, EventKind.NO_BATTLE,
                    f"{idle} has no champion left to field against {b if idle == a else a} on {tile}: "
                    "no battle.", {"tile": tile, "players": [a, b]}, audience=frozenset({a, b})))
                continue
            fighters = [Fighter(who, cls, side, health[who][CLASS_INDEX[cls]],
                                _items(rules, players[who], cls), _set_of(checked.fights.get(who), cls),
                                battle=_next_battle(battles_fought, who, cls))
                        for side, who in enumerate((a, b)) for cls in sides[side]]
            result = fight(rules, dice, fighters)
            report = _report(tile, a, b, sides, result, pairing)
            reports.append(report)
            events.append(kit.Event(turn, EventKind.BATTLE, report.text,
                                    {"tile": tile, "players": [a, b],
                                     "fielded": {a: [c.value for c in sides[0]], b: [c.value for c in sides[1]]},
                                     "deaths": [f"{p}.{c.value}" for p, c in result.deaths]},
                                    audience=frozenset({a, b})))
            for (who, cls), hp in result.health.items():
                health[who][CLASS_INDEX[cls]] = hp
            for who, cls in result.deaths:
                events.append(kit.Event(turn, EventKind.CHAMPION_DIED, f"{champion_name(who, cls)} dies on {tile}.",
                                        {"player": who, "class": cls.value, "tile": tile}, audience=frozenset({a, b})))
    after: list[Player] = []
    went_out: list[str] = []
    for p in state.players:
        now = players[p.name]
        now_health = tuple(health[p.name])
        if not now.out and not any(value > 0 for value in now_health):
            went_out.append(p.name)
            events.append(kit.Event(turn, EventKind.PLAYER_OUT, f"{p.name} is out: all four champions are dead.",
                                    {"player": p.name, "round": state.round}))
            now = Player(p.name, None, now_health, now.equipment, now.bag, state.round)
        elif now_health != now.health:
            now = Player(now.name, now.at, now_health, now.equipment, now.bag, now.out_round)
        after.append(now)
    new = state.with_players(after, reports=tuple(reports))
    return _next_round(rules, new, went_out, dice, turn, events)


def _equipped(p: Player, part: EquipFight, turn: int, events: list[kit.Event]) -> Player:
    bag = Counter(p.bag)
    equipment = list(p.equipment)
    for cls in part.equip:
        bag.update(p.items_of(cls))
    for cls, items in part.equip.items():
        bag.subtract(items)
        equipment[CLASS_INDEX[cls]] = items
        events.append(kit.Event(turn, EventKind.EQUIPPED,
                                f"{champion_name(p.name, cls)} now carries {', '.join(items) or 'nothing'}.",
                                {"player": p.name, "class": cls.value, "items": list(items)},
                                audience=frozenset({p.name})))
    # the bag keeps its order: what stayed, then what came back, in equipment order
    left = []
    remaining = Counter(bag)
    for name in [*p.bag, *(i for cls in CLASSES if cls in part.equip for i in p.items_of(cls))]:
        if remaining[name] > 0:
            left.append(name)
            remaining[name] -= 1
    return Player(p.name, p.at, p.health, tuple(equipment), tuple(left), p.out_round)


def _next_battle(fought: Counter[tuple[str, ChampClass]], who: str, cls: ChampClass) -> int:
    """Count one more battle for a champion this round; its number (2 for a champion fielded a second time)."""
    fought[(who, cls)] += 1
    return fought[(who, cls)]


def _items(rules: ChampionsRules, p: Player, cls: ChampClass) -> tuple[Item, ...]:
    return tuple(item for name in p.items_of(cls) if (item := rules.table.get(name)) is not None)


def _set_of(part: EquipFight | None, cls: ChampClass) -> tuple[Action, ...]:
    if part is not None and cls in part.sets:
        return part.sets[cls]
    return (default_action(cls),) * SET_LENGTH


def by_health(p: Player) -> list[ChampClass]:
    """Her living champions, the healthiest first (ties in class order)."""
    return sorted(p.living(), key=lambda c: (-p.hp(c), CLASS_INDEX[c]))


def _fielding(players: dict[str, Player], fights: dict[str, EquipFight],
              pairs: list[tuple[str, str]]) -> dict[tuple[str, int], tuple[ChampClass, ...]]:
    """The champions each player fields in each battle of a tile (by player and battle index)."""
    battles: dict[str, list[int]] = {}
    for index, pair in enumerate(pairs):
        for who in pair:
            battles.setdefault(who, []).append(index)
    out: dict[tuple[str, int], tuple[ChampClass, ...]] = {}
    for who, indices in battles.items():
        chosen = fights[who].groups if who in fights and fights[who].groups else None
        living = by_health(players[who])
        count = len(indices)
        if count > len(living):  # fewer living champions than battles: the same ones fight in each
            groups = [chosen[0] if chosen else tuple(living[:2])] * count
        elif chosen:
            groups = list(chosen[:count])
            while len(groups) < count:
                used = {c for g in groups for c in g}
                groups.append(tuple([c for c in living if c not in used][:2]))
        elif count == 1:
            groups = [tuple(living[:2])]
        else:  # two battles, nothing named: the living champions by health, dealt alternately
            groups = [tuple(living[0::2][:2]), tuple(living[1::2][:2])]
        for k, index in enumerate(indices):
            out[(who, index)] = groups[k]
    return out


def _report(tile: Coord, a: str, b: str, sides: tuple[tuple[ChampClass, ...], ...],
            result: BattleResult, pairing: str) -> BattleReport:
    def side(name: str, classes: tuple[ChampClass, ...]) -> str:
        return f"{name} ({' + '.join(c.display for c in classes)})"

    header = f"Battle on {tile}: {side(a, sides[0])} vs {side(b, sides[1])} [paired by {pairing}]"
    return BattleReport(tile.label, (a, b), "\n".join([header, *result.lines]))


# -- the end of a round ----------------------------------------------------------------------
def last_standing_wins(state: ChampionsState, turn: int, events: list[kit.Event]) -> kit.Resolution[ChampionsState]:
    """The match won by its one player still in (after a round, or a GM's adjustment that put the
    second-last out): ``events`` with the winner's, and the finished state."""
    winner = state.alive()[0].name
    events.append(kit.Event(turn, EventKind.WINNER, f"{winner} is the last player standing and wins.",
                            {"winners": [winner]}))
    return kit.Resolution(state.with_players(state.players, finished=True, winners=(winner,)), events)


def _next_round(rules: ChampionsRules, state: ChampionsState, went_out: list[str], dice: kit.TurnDice, turn: int,
                events: list[kit.Event]) -> kit.Resolution[ChampionsState]:
    alive = state.alive()
    winners: tuple[str, ...] = ()
    if len(alive) == 1:
        return last_standing_wins(state, turn, events)
    if not alive:
        winners = tuple(went_out)
        text = f"The last players fall together; {' and '.join(winners)} share the win."
    elif state.round >= rules.settings.max_rounds:
        best = max(p.total_health() for p in alive)
        winners = tuple(p.name for p in alive if p.total_health() == best)
        events.append(kit.Event(turn, EventKind.ROUND_LIMIT,
                                f"Round {state.round} was the last: the most total champion health wins.",
                                {"round": state.round, "health": {p.name: p.total_health() for p in alive}}))
        text = (f"{winners[0]} wins with {best} total champion health." if len(winners) == 1 else
                f"{' and '.join(winners)} share the win with {best} total champion health each.")
    if winners:
        events.append(kit.Event(turn, EventKind.WINNER, text, {"winners": list(winners)}))
        return kit.Resolution(state.with_players(state.players, finished=True, winners=winners), events)
    size = state.size
    players = list(state.players)
    target = size_for(len(alive))
    pools = state.pools
    if target < size:
        while size > target:
            players = [_shrunk(p, size, size - 1, dice) for p in players]
            size -= 1
        # the rules shrink the map at the start of the next round: its lines go under that round's move window
        # (the dice stay keyed by this window, which rolls them)
        opens = turn + 1
        events.append(kit.Event(opens, EventKind.SHRUNK,
                                f"{len(alive)} players are left: the map shrinks to {size}×{size}. "
                                + " ".join(f"{p.name} is on {p.at}{_shrink_dice(dice, p.name)}." for p in players
                                           if not p.out),
                                {"size": size, "positions": {p.name: p.at for p in players if not p.out}}))
        pools = deal_pools(rules, dice, size)
        events.append(kit.Event(opens, EventKind.POOLS_DEALT,
                                f"Every tile of the {size}×{size} map gets a fresh loot pool.", {"size": size}))
    new = state.with_players(players, round=state.round + 1, phase=Phase.MOVE, size=size, pools=pools)
    return kit.Resolution(new, events)


def drawn_note(dice: kit.TurnDice, key: str, order: Sequence[str]) -> str:
    """A draw as the Log prints it: its whole message (``TurnDice.message``) and the order it gave, ``5/pair/B2:
    Bo, Ann, Cy`` (candidates ordered by HMAC-SHA256(seed, ``<message>/<candidate>``), smallest first)."""
    return f"{dice.message(key)}: {', '.join(order)}"


def _shrink_dice(dice: kit.TurnDice, name: str) -> str:
    """`` (d6 7/shrink/Ann/col = 4)``: the shrink dice rolled for her, each by its whole message ('' for none)."""
    rolled = [f"d6 {dice.message(key)} = {dice.rolled[key]}" for key in (f"shrink/{name}/col", f"shrink/{name}/row")
              if key in dice.rolled]
    return f" ({'; '.join(rolled)})" if rolled else ""


def _shrunk(p: Player, old: int, new: int, dice: kit.TurnDice) -> Player:
    if p.out or p.at is None:
        return p
    col, row = p.at.col + 1, p.at.row + 1
    if (old, new) == (3, 2):
        col_roll = dice.roll(f"shrink/{p.name}/col", 6) if col == 2 else 1
        row_roll = dice.roll(f"shrink/{p.name}/row", 6) if row == 2 else 1
    else:
        col_roll = row_roll = 1
    tile = Coord(shrink_axis(old, new, col, col_roll) - 1, shrink_axis(old, new, row, row_roll) - 1)
    assert board(new).contains(tile)
    return Player(p.name, tile, p.health, p.equipment, p.bag, p.out_round)
