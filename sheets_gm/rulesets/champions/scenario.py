"""Champions scenarios: the given state, each round's two windows and pinned dice, and how to compare
``expect``.

The shapes are Champions' section of ``docs/scenarios.md``; the runner has already read
``name``, ``settings`` and the top-level keys, and checks ``expect.log_contains`` itself. One entry
of ``turns`` is one round: window 1 (``moves``, ``loot``) then window 2 (``equip``, ``battle``),
both with the entry's ``dice``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.vocab import VocabularyError, parse_choice
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.board import SIZES, board, size_for
from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.enums import CLASS_INDEX, ChampClass, Phase
from sheets_gm.rulesets.champions.items import LootTable, LootTableError, items_from_entries, loot_table_from_text
from sheets_gm.rulesets.champions.orders import Orders, PlayerOrders
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.settings import ChampionsSettings
from sheets_gm.rulesets.champions.state import FULL_HEALTH, MAX_HEALTH, NO_EQUIPMENT, ChampionsState, Player
from sheets_gm.rulesets.parts.fields import ScenarioError

TOP_KEYS = ("name", "ruleset", "settings", "items", "given", "turns", "expect")
GIVEN_KEYS = ("round", "size", "players", "pools")
PLAYER_KEYS = ("name", "at", "champions", "equipment", "bag")
TURN_KEYS = ("moves", "loot", "equip", "battle", "dice")
BATTLE_KEYS = ("field", "sets")
EXPECT_KEYS = ("players", "size", "pools", "refused", "winner", "log_contains")
EXPECT_PLAYER_KEYS = ("at", "champions", "bag", "equipment", "out")


def shipped_table() -> LootTable:
    """The loot table of ``templates/champions/loot.yaml``."""
    from sheets_gm.rulesets.registry import default_board_text

    return loot_table_from_text(default_board_text("champions"), "templates/champions/loot.yaml")


class ChampionsScenarioCodec:
    """Champions' scenario files: a loot table, players with champions and items, pools, rounds of orders."""

    keys = TOP_KEYS

    def load(self, doc: kit.LinedDict, fields: kit.Fields, settings: Any) -> kit.Scenario[ChampionsState, Orders]:
        """The file read into a scenario: each round its move window, then its fight window."""
        f = fields
        if "items" in doc:
            raw = f.sequence(doc["items"], doc.line_of("items"), "items")
            try:
                table = LootTable(items_from_entries(raw, f.where, doc.line_of("items")),
                                  shipped_table().tier_weights)
            except LootTableError as exc:
                raise ScenarioError(str(exc)) from None
        else:
            table = shipped_table()
        rules = ChampionsRules(table, settings if isinstance(settings, ChampionsSettings) else ChampionsSettings())
        given = f.mapping(doc.get("given"), doc.line_of("given"), "given", GIVEN_KEYS)
        state = _given(rules, given, f)
        names = {p.name for p in state.players}
        rounds = [_round(f, names, entry, doc.line_of("turns"), i)
                  for i, entry in enumerate(f.sequence(doc.get("turns"), doc.line_of("turns"), "turns"))]
        expect = f.mapping(doc.get("expect"), doc.line_of("expect"), "expect", EXPECT_KEYS)
        return kit.Scenario(ChampionsRuleset(rules), state, rounds,
                            lambda final, verdicts: _compare(f, expect, final, verdicts), skip_after_the_end=True)


def _class(f: kit.Fields, word: Any, line: int) -> ChampClass:
    try:
        return parse_choice(ChampClass, word, "champion")
    except VocabularyError as exc:
        raise f.fail(line, str(exc)) from None


def _item_names(f: kit.Fields, table: LootTable, value: Any, line: int, what: str) -> tuple[str, ...]:
    names = tuple(f.text(v, line, what) for v in f.sequence(value, line, what))
    for name in names:
        if table.get(name) is None:
            raise f.fail(line, f"{what}: {name!r} is not an item of the loot table; the items: "
                               f"{', '.join(sorted(table.items))}")
    return names


def _given(rules: ChampionsRules, given: kit.LinedDict, f: kit.Fields) -> ChampionsState:
    entries = f.sequence(given.get("players"), given.line_of("players"), "given.players")
    if not entries:
        raise f.fail(given.line_of("players"), "given.players lists the players, e.g. - {name: Ann, at: B2}")
    rnd = f.integer(given.get("round", 1), given.line_of("round"), "given.round", 1)
    size = f.integer(given.get("size", size_for(len(entries))), given.line_of("size"), "given.size", 2, 4)
    if size not in SIZES:
        raise f.fail(given.line_of("size"), f"given.size is {size}; use 4, 3 or 2")
    grid = board(size)
    last = grid.label(Coord(size - 1, size - 1))
    players: list[Player] = []
    for entry in entries:
        p = f.mapping(entry, given.line_of("players"), "a player", PLAYER_KEYS)
        name = f.text(p.get("name"), p.line, "player name")
        if any(q.name == name for q in players):
            raise f.fail(p.line, f"player {name!r} is listed twice")
        at = f.coord(p.get("at"), p.line_of("at"), f"{name}'s tile", grid.contains, last)
        health = list(FULL_HEALTH)
        champs = f.mapping(p.get("champions"), p.line_of("champions"), f"{name}'s champions")
        for word, hp in champs.items():
            cls = _class(f, word, champs.line_of(word))
            health[CLASS_INDEX[cls]] = f.integer(hp, champs.line_of(word), f"{name}'s {cls.value} health", 0,
                                                 MAX_HEALTH[cls])
        equipment = list(NO_EQUIPMENT)
        eq = f.mapping(p.get("equipment"), p.line_of("equipment"), f"{name}'s equipment")
        for word, items in eq.items():
            cls = _class(f, word, eq.line_of(word))
            equipment[CLASS_INDEX[cls]] = _item_names(f, rules.table, items, eq.line_of(word),
                                                      f"{name}'s {cls.value} equipment")
        bag = _item_names(f, rules.table, p.get("bag"), p.line_of("bag"), f"{name}'s bag")
        out = not any(h > 0 for h in health)
        # a player given with four dead champions went out before this round (round 1 at the earliest: 0 is "in")
        players.append(Player(name, None if out else at, tuple(health), tuple(equipment), bag,
                              max(1, rnd - 1) if out else 0))
    pools: dict[str, tuple[str, ...]] = {t.label: () for t in grid.cells()}
    pmap = f.mapping(given.get("pools"), given.line_of("pools"), "given.pools")
    for key, items in pmap.items():
        tile = f.coord(key, pmap.line_of(key), "pool tile", grid.contains, last)
        pools[tile.label] = _item_names(f, rules.table, items, pmap.line_of(key), f"the pool of {tile}")
    return ChampionsState(rnd, Phase.MOVE, size, tuple(players), pools)


def _words(f: kit.Fields, value: Any, line: int, what: str) -> tuple[str, ...]:
    return tuple(str(v).strip() for v in f.sequence(value, line, what))


def _round(f: kit.Fields, names: set[str], entry: Any, turns_line: int,
           index: int) -> kit.Entry[ChampionsState, Orders]:
    t = f.mapping(entry, turns_line, f"turn {index + 1}", TURN_KEYS)
    moves: dict[str, str] = {}
    loot: dict[str, tuple[str, ...]] = {}
    equip: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
    field: dict[str, tuple[tuple[str, ...], ...]] = {}
    sets: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}

    def who(m: kit.LinedDict, key: str) -> str:
        if key not in names:
            raise f.fail(m.line_of(key), f"order for unknown player {key!r}; the players: {', '.join(sorted(names))}")
        return key

    mmap = f.mapping(t.get("moves"), t.line_of("moves"), "moves")
    for key, value in mmap.items():
        moves[who(mmap, key)] = f.text(value, mmap.line_of(key), f"{key}'s move")
    lmap = f.mapping(t.get("loot"), t.line_of("loot"), "loot")
    for key, value in lmap.items():
        loot[who(lmap, key)] = _words(f, value, lmap.line_of(key), f"{key}'s looting actions")
    emap = f.mapping(t.get("equip"), t.line_of("equip"), "equip")
    for key, value in emap.items():
        rows = f.mapping(value, emap.line_of(key), f"{key}'s equipment")
        equip[who(emap, key)] = tuple((str(c), _words(f, items, rows.line_of(c), f"{key}'s {c} equipment"))
                                      for c, items in rows.items())
    bmap = f.mapping(t.get("battle"), t.line_of("battle"), "battle")
    for key, value in bmap.items():
        b = f.mapping(value, bmap.line_of(key), f"{key}'s battle orders", BATTLE_KEYS)
        name = who(bmap, key)
        groups = f.sequence(b.get("field"), b.line_of("field"), f"{key}'s field")
        if groups and all(isinstance(g, list) for g in groups):
            field[name] = tuple(_words(f, g, b.line_of("field"), f"{key}'s field") for g in groups)
        elif groups:
            field[name] = (_words(f, groups, b.line_of("field"), f"{key}'s field"),)
        smap = f.mapping(b.get("sets"), b.line_of("sets"), f"{key}'s sets")
        sets[name] = tuple((str(c), _words(f, actions, smap.line_of(c), f"{key}'s {c} set"))
                           for c, actions in smap.items())
    pins: dict[str, int | list[str]] = {}
    dmap = f.mapping(t.get("dice"), t.line_of("dice"), "dice")
    for key, value in dmap.items():
        if isinstance(value, list):
            pins[key] = [f.text(v, dmap.line_of(key), f"pinned draw {key}") for v in value]
        else:
            pins[key] = f.integer(value, dmap.line_of(key), f"pinned die {key}", 1, 100)
    move = Orders({n: PlayerOrders(move=moves.get(n, ""), loot=loot.get(n, ()))
                   for n in sorted(names) if n in moves or n in loot})
    fight = Orders({n: PlayerOrders(equip=equip.get(n, ()), field=field.get(n, ()), sets=sets.get(n, ()))
                    for n in sorted(names) if n in equip or n in field or n in sets})
    plays = (kit.Play(move, pins), kit.Play(fight, pins))

    def next_play(state: ChampionsState, _last: object, played: int) -> kit.Play[Orders] | None:
        return None if state.finished or played == len(plays) else plays[played]

    return kit.Entry(t.line_of("dice"), f"turn {index + 1}", next_play)


def _show(value: Any) -> str:
    return "null" if value is None else str(value)


def _multiset(values: Any) -> list[str]:
    return sorted(str(v) for v in values)


def _compare(f: kit.Fields, e: kit.LinedDict, state: ChampionsState, verdicts: Sequence[kit.Verdict]) -> list[str]:
    """Every difference between ``expect`` and the final state, as ``path: expected X, got Y``."""
    out: list[str] = []
    refused = {v.seat for v in verdicts if not v.accepted}

    def check(path: str, want: Any, got: Any) -> None:
        if want != got:
            out.append(f"{path}: expected {_show(want)}, got {_show(got)}")

    pmap = f.mapping(e.get("players"), e.line_of("players"), "expect.players")
    for name, spec in pmap.items():
        p = state.player(name)
        if p is None:
            raise f.fail(pmap.line_of(name), f"expect names unknown player {name!r}")
        s = f.mapping(spec, pmap.line_of(name), f"expect.players.{name}", EXPECT_PLAYER_KEYS)
        if "at" in s:
            check(f"players.{name}.at", None if s["at"] is None else str(s["at"]).strip().upper(),
                  p.at.label if p.at else None)
        if "out" in s:
            check(f"players.{name}.out", bool(s["out"]), p.out)
        champs = f.mapping(s.get("champions"), s.line_of("champions"), f"expect.players.{name}.champions")
        for word, hp in champs.items():
            cls = _class(f, word, champs.line_of(word))
            check(f"players.{name}.champions.{cls.value}", hp, p.hp(cls))
        if "bag" in s:
            check(f"players.{name}.bag", _multiset(f.sequence(s["bag"], s.line_of("bag"), "bag")), _multiset(p.bag))
        eq = f.mapping(s.get("equipment"), s.line_of("equipment"), f"expect.players.{name}.equipment")
        for word, items in eq.items():
            cls = _class(f, word, eq.line_of(word))
            check(f"players.{name}.equipment.{cls.value}", _multiset(f.sequence(items, eq.line_of(word), "items")),
                  _multiset(p.items_of(cls)))
    if "size" in e:
        check("size", e["size"], state.size)
    pools = f.mapping(e.get("pools"), e.line_of("pools"), "expect.pools")
    for key, items in pools.items():
        tile = f.coord(key, pools.line_of(key), "pool tile")
        check(f"pools.{tile}", _multiset(f.sequence(items, pools.line_of(key), "items")),
              _multiset(state.pools.get(tile.label, ())))
    if "refused" in e:
        check("refused", _multiset(f.sequence(e["refused"], e.line_of("refused"), "refused")), sorted(refused))
    if "winner" in e:
        want: Any = e["winner"]
        got: Any = None
        if state.finished:
            got = state.winners[0] if len(state.winners) == 1 else sorted(state.winners)
        if isinstance(want, list):
            want = sorted(str(w) for w in want)
            if len(want) == 1:
                want = want[0]
        check("winner", want, got)
    return out



