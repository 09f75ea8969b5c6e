"""Wesnoth scenarios: the given state, each turn's rows and pinned dice, and how to compare ``expect``.

The shapes are the wesnoth section of ``docs/scenarios.md``; the runner has already read
``name``, ``settings`` and the top-level keys, and checks ``expect.log_contains`` itself. Under
``resolve: step`` each row resolves on its own (as each Go box would) and the turn ends after
the last; under ``batch`` the rows and the end of the turn resolve together."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.board import MapError, WesnothBoard
from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset
from sheets_gm.rulesets.wesnoth.orders import RecruitEntry, TurnOrders, UnitOrder
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.settings import ResolveMode, WesnothSettings
from sheets_gm.rulesets.wesnoth.setup import Entry, RosterError, check_entries, leader_id
from sheets_gm.rulesets.wesnoth.state import TIMES_OF_DAY, Player, Unit, WesnothState
from sheets_gm.rulesets.wesnoth.tables import TableError, tables_at

TOP_KEYS = ("name", "ruleset", "settings", "players", "map", "given", "turns", "expect")
GIVEN_KEYS = ("round", "time_of_day", "acting", "gold", "units", "villages")
UNIT_KEYS = ("id", "type", "owner", "at", "wounds", "leader", "advance")
ORDER_KEYS = ("unit", "move", "via", "attack", "weapon", "reroll_below", "advance", "rest", "conquest", "recruit")
EXPECT_KEYS = ("units", "gold", "villages", "time_of_day", "refused", "winner", "log_contains", "round", "acting")


class WesnothScenarioCodec:
    """The Wesnoth scenario files."""

    keys = TOP_KEYS

    def load(self, doc: kit.LinedDict, fields: kit.Fields, settings: Any) -> kit.Scenario[WesnothState, TurnOrders]:
        """The file read into a scenario: each turn its player's rows, in steps or as one batch."""
        rules, state = _load(doc, fields, settings)
        turns = [_turn(fields, rules, entry, doc.line_of("turns"), i)
                 for i, entry in enumerate(fields.sequence(doc.get("turns"), doc.line_of("turns"), "turns"))]
        expect = fields.mapping(doc.get("expect"), doc.line_of("expect"), "expect", EXPECT_KEYS)
        return kit.Scenario(WesnothRuleset(rules, str(doc.get("map", ""))), state, turns,
                            lambda final, verdicts: _compare(fields, rules, final, expect, verdicts))


def _load(doc: kit.LinedDict, f: kit.Fields, settings: WesnothSettings) -> tuple[WesnothRules, WesnothState]:
    if "map" not in doc:
        raise f.fail(doc.line, "the scenario needs a map (a row of hex tokens per line)")
    try:
        board = WesnothBoard.from_text(str(doc["map"]), where=f"map (line {doc.line_of('map')})")
    except MapError as exc:
        raise f.fail(doc.line_of("map"), str(exc)) from None
    try:
        rules = WesnothRules(board, settings, tables_at(settings.units))
    except TableError as exc:
        raise f.fail(doc.line, f"setting 'units': {exc}") from None
    entries = []
    for item in f.sequence(doc.get("players"), doc.line_of("players"), "players"):
        p = f.mapping(item, doc.line_of("players"), "a player", ("name", "team", "faction", "leader"))
        entries.append(Entry(f.text(p.get("name"), p.line, "player name"), str(p.get("team", "")),
                             f.text(p.get("faction"), p.line_of("faction"), "faction"), str(p.get("leader") or "")))
    try:
        checked = check_entries(rules, entries)
    except RosterError as exc:
        raise f.fail(doc.line_of("players"), str(exc)) from None
    given = f.mapping(doc.get("given"), doc.line_of("given"), "given", GIVEN_KEYS)
    names = [e.name for e in entries]
    gold = {e.name: settings.start_gold for e in entries}
    gmap = f.mapping(given.get("gold"), given.line_of("gold"), "given.gold")
    for key, value in gmap.items():
        gold[_player(f, names, key, gmap.line_of(key))] = f.integer(value, gmap.line_of(key), f"{key}'s gold", 0)
    players = tuple(Player(e.name, team, faction, slot, gold[e.name])
                    for slot, (e, team, faction, _) in enumerate(checked, 1))
    units: list[Unit] = []
    for item in f.sequence(given.get("units"), given.line_of("units"), "given.units"):
        u = f.mapping(item, given.line_of("units"), "a unit", UNIT_KEYS)
        uid = f.text(u.get("id"), u.line, "unit id")
        if any(x.id == uid for x in units):
            raise f.fail(u.line, f"unit id {uid!r} is used twice")
        type_name = f.text(u.get("type"), u.line_of("type"), "unit type")
        utype = rules.tables.unit(type_name)
        if utype is None:
            raise f.fail(u.line_of("type"), f"unknown unit type {type_name!r}; use a name of templates/wesnoth/"
                                            "units.csv (Wesnoth's, like Spearman or Dark Adept)")
        owner = _player(f, names, u.get("owner"), u.line_of("owner"))
        at = _hex(f, board, u.get("at"), u.line_of("at"), f"{uid}'s hex")
        if any(x.at == at for x in units):
            raise f.fail(u.line_of("at"), f"{at.label} already holds a unit")
        if utype.move_cost(board.terrain(at)) is None:
            raise f.fail(u.line_of("at"), f"a {utype.name} cannot stand on {at.label} ({board.terrain(at).value})")
        wounds = f.integer(u.get("wounds", 0), u.line_of("wounds"), "wounds", 0, utype.hitpoints - 1)
        advance = u.get("advance", "")
        units.append(Unit(uid, utype.name, owner, at, wounds, bool(u.get("leader", False)),
                          "true" if advance is True else str(advance or "")))
    for (e, _, _, leader_type), player in zip(checked, players, strict=True):
        if not any(u.leader and u.owner == e.name for u in units):
            keep = board.keeps[player.slot]
            if any(u.at == keep for u in units):
                raise f.fail(given.line_of("units"), f"{e.name}'s leader stands on her keep {keep.label}, which "
                                                     "given.units fills: place the leader (leader: true) elsewhere")
            units.append(Unit(leader_id(e.name), leader_type, e.name, keep, leader=True))
    villages: list[tuple[Hex, str]] = []
    vmap = f.mapping(given.get("villages"), given.line_of("villages"), "given.villages")
    for key, value in vmap.items():
        h = _hex(f, board, key, vmap.line_of(key), "village")
        if h not in board.villages:
            raise f.fail(vmap.line_of(key), f"{h.label} is not a village of the map")
        if value is not None:
            villages.append((h, _player(f, names, value, vmap.line_of(key))))
    round_number = f.integer(given.get("round", 1), given.line_of("round"), "given.round", 1)
    tod = ""
    if given.get("time_of_day") is not None:
        tod = str(given["time_of_day"]).strip().lower()
        if tod not in TIMES_OF_DAY:
            raise f.fail(given.line_of("time_of_day"), f"time_of_day {tod!r}; use {', '.join(TIMES_OF_DAY)}")
    acting = names.index(_player(f, names, given.get("acting", names[0]), given.line_of("acting")))
    state = WesnothState(round=round_number, turn=(round_number - 1) * len(names) + acting + 1, acting=acting,
                         players=players, units=tuple(units),
                         villages=tuple(sorted(villages, key=lambda kv: (kv[0].row, kv[0].col))), tod_override=tod)
    return rules, state


def _player(f: kit.Fields, names: list[str], value: Any, line: int) -> str:
    text = f.text(value, line, "player")
    if text not in names:
        raise f.fail(line, f"unknown player {text!r}; the players are {', '.join(names)}")
    return text


def _hex(f: kit.Fields, board: WesnothBoard, value: Any, line: int, what: str) -> Hex:
    try:
        return board.grid.parse(str(value))
    except kit.CoordError as exc:
        raise f.fail(line, f"{what}: {exc}") from None


def _turn(f: kit.Fields, rules: WesnothRules, entry: Any, line: int,
          index: int) -> kit.Entry[WesnothState, TurnOrders]:
    t = f.mapping(entry, line, f"turn {index + 1}", ("player", "orders", "dice"))
    player = str(t.get("player") or "")
    rows = []
    for item in f.sequence(t.get("orders"), t.line_of("orders"), "orders"):
        o = f.mapping(item, t.line_of("orders"), "an order", ORDER_KEYS)
        uid = f.text(o.get("unit"), o.line, "order unit")
        for key in ("move", "attack", "weapon"):
            if key in o and (o[key] is None or isinstance(o[key], list | dict | bool)):
                raise f.fail(o.line_of(key), f"{key} is one word, like C3 or spear")
        if "move" in o:
            _hex(f, rules.board, o["move"], o.line_of("move"), f"{uid}'s move")
        via = [str(_hex(f, rules.board, v, o.line_of("via"), f"{uid}'s waypoint").label)
               for v in f.sequence(o.get("via"), o.line_of("via"), "via")]
        recruits = []
        for r in f.sequence(o.get("recruit"), o.line_of("recruit"), "recruit"):
            if isinstance(r, str):
                recruits.append(RecruitEntry(r))
                continue
            rm = f.mapping(r, o.line_of("recruit"), "a recruit", ("type", "at", "id"))
            if "at" in rm:
                _hex(f, rules.board, rm["at"], rm.line_of("at"), "recruit hex")
            recruits.append(RecruitEntry(f.text(rm.get("type"), rm.line, "recruit type"), str(rm.get("at", "")),
                                         str(rm.get("id", ""))))
        advance = o.get("advance", "")
        rows.append(UnitOrder(
            unit=uid, move=str(o.get("move", "")), via=tuple(via), attack=str(o.get("attack", "")),
            weapon=str(o.get("weapon", "")),
            reroll_below=f.integer(o.get("reroll_below", 0), o.line_of("reroll_below"), "reroll_below", 0),
            advance="true" if advance is True else ("" if advance is False else str(advance or "")),
            rest=bool(o.get("rest", False)), conquest=bool(o.get("conquest", False)), recruit=tuple(recruits)))
    pins: dict[str, int | list[str]] = {}
    dmap = f.mapping(t.get("dice"), t.line_of("dice"), "dice")
    for key, value in dmap.items():
        pins[key] = f.integer(value, dmap.line_of(key), f"pinned die {key}", 1, 6)
    step_mode = rules.settings.resolve is ResolveMode.STEP

    def next_play(state: WesnothState, _last: object, played: int) -> kit.Play[TurnOrders] | None:
        acting = state.acting_player.name
        steps = ([TurnOrders(acting, (row,), False) for row in rows] + [TurnOrders(acting)] if step_mode
                 else [TurnOrders(acting, tuple(rows))])
        return kit.Play(steps[played], pins) if played < len(steps) else None

    return kit.Entry(t.line, f"turn {index + 1}", next_play, seat=player or None)


def _show(value: Any) -> str:
    return "null" if value is None else str(value)


def _compare(f: kit.Fields, rules: WesnothRules, state: WesnothState, e: kit.LinedDict,
             verdicts: Sequence[kit.Verdict]) -> list[str]:
    out: list[str] = []
    refused = {v.subject for v in verdicts if not v.accepted}

    def check(path: str, want: Any, got: Any) -> None:
        if want != got:
            out.append(f"{path}: expected {_show(want)}, got {_show(got)}")

    umap = f.mapping(e.get("units"), e.line_of("units"), "expect.units")
    for uid, spec in umap.items():
        s = f.mapping(spec, umap.line_of(uid), f"expect.units.{uid}", ("at", "wounds", "type", "dead", "owner"))
        unit = state.unit(uid)
        if "dead" in s:
            check(f"units.{uid}.dead", bool(s["dead"]), unit is None)
        if unit is None:
            if not s.get("dead"):
                out.append(f"units.{uid}: expected a living unit, got none (dead or never there)")
            continue
        if "at" in s:
            check(f"units.{uid}.at", str(s["at"]).strip().upper(), unit.at.label)
        if "wounds" in s:
            check(f"units.{uid}.wounds", s["wounds"], unit.wounds)
        if "type" in s:
            check(f"units.{uid}.type", s["type"], unit.type)
        if "owner" in s:
            check(f"units.{uid}.owner", s["owner"], unit.owner)
    gmap = f.mapping(e.get("gold"), e.line_of("gold"), "expect.gold")
    for name, value in gmap.items():
        player = state.player(name)
        if player is None:
            raise f.fail(gmap.line_of(name), f"unknown player {name!r}")
        check(f"gold.{name}", value, player.gold)
    vmap = f.mapping(e.get("villages"), e.line_of("villages"), "expect.villages")
    for key, value in vmap.items():
        h = _hex(f, rules.board, key, vmap.line_of(key), "village")
        check(f"villages.{h.label}", value, state.village_owner(h))
    if "time_of_day" in e:
        check("time_of_day", str(e["time_of_day"]).lower(), state.time_of_day)
    if "round" in e:
        check("round", e["round"], state.round)
    if "acting" in e:
        check("acting", e["acting"], None if state.finished else state.acting_player.name)
    if "refused" in e:
        want = sorted({str(x) for x in f.sequence(e["refused"], e.line_of("refused"), "expect.refused")})
        check("refused", want, sorted(refused))
    if "winner" in e:
        got: Any = None if not state.finished else ("draw" if state.winner is None else state.winner)
        check("winner", e["winner"], got)
    return out

