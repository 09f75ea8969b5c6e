"""GvG scenarios: the given state, each turn's GM events and orders, and how to compare ``expect``.

The shapes are GvG's section of ``docs/scenarios.md``; the runner has already read
``name``, ``settings`` and the top-level keys, and checks ``expect.log_contains`` itself."""

from __future__ import annotations

from typing import Any

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.board import GvgMap, MapError
from sheets_gm.rulesets.gvg.engine import GvgRuleset
from sheets_gm.rulesets.gvg.enums import Action, Role, Skill, Status, StructureKind
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterError, check_team_names, fresh_structures, fresh_trees
from sheets_gm.rulesets.gvg.state import Adjustment, ArcheryDuel, Boss, GmEvent, GvgState, Player, Tree

TOP_KEYS = ("name", "ruleset", "settings", "teams", "map", "given", "turns", "expect")
GIVEN_KEYS = ("turn", "coins", "players", "structures", "knocked_down", "tree", "boss", "jungle",
              "ballista", "cooldowns")
EXPECT_KEYS = ("players", "structures", "coins", "winner", "log_contains", "tree", "boss", "jungle",
               "ballista", "cooldowns", "turn")


class GvgScenarioCodec:
    """GvG's scenario files: two teams, a map of tokens, players, structures, trees and skills."""

    keys = TOP_KEYS

    def load(self, doc: kit.LinedDict, fields: kit.Fields, settings: Any) -> kit.Scenario[GvgState, TurnOrders]:
        """The file read into a scenario: each turn its GM events, then its orders."""
        return load_gvg(doc, fields, settings)


def load_gvg(doc: kit.LinedDict, f: kit.Fields, settings: GvgSettings) -> kit.Scenario[GvgState, TurnOrders]:
    """Build a GvG scenario from a parsed file whose common keys the runner has checked."""
    teams_raw = f.sequence(doc.get("teams"), doc.line_of("teams"), "teams")
    if len(teams_raw) != 2:
        raise f.fail(doc.line_of("teams"), "teams must name 2 teams, e.g. [red, blue]")
    try:
        teams = check_team_names([f.text(t, doc.line_of("teams"), "team") for t in teams_raw])
    except RosterError as exc:
        raise f.fail(doc.line_of("teams"), str(exc)) from None
    if "map" not in doc:
        raise f.fail(doc.line, "the scenario needs a map")
    try:
        board = GvgMap.from_text(str(doc["map"]), where=f"{f.where}:{doc.line_of('map')}: map")
    except MapError as exc:
        raise f.fail(doc.line_of("map"), str(exc)) from None
    rules = GvgRules(board, settings)
    given = f.mapping(doc.get("given"), doc.line_of("given"), "given", GIVEN_KEYS)
    state = _given_state(rules, teams, given, f)
    turns = [_turn(rules, state, entry, f, i, doc.line_of("turns")) for i, entry in
             enumerate(f.sequence(doc.get("turns"), doc.line_of("turns"), "turns"))]
    expect = f.mapping(doc.get("expect"), doc.line_of("expect"), "expect", EXPECT_KEYS)
    return kit.Scenario(GvgRuleset(rules), state, turns, lambda final, _verdicts: compare_gvg(f, expect, final),
                        skip_after_the_end=True)


def _team(f: kit.Fields, teams: tuple[str, str], value: Any, line: int) -> int:
    text = f.text(value, line, "team")
    if text not in teams:
        raise f.fail(line, f"unknown team {text!r}; the teams are {teams[0]} and {teams[1]}")
    return teams.index(text)


def _given_state(rules: GvgRules, teams: tuple[str, str], given: kit.LinedDict, f: kit.Fields) -> GvgState:
    board = rules.board
    last = board.grid.last.label
    turn = f.integer(given.get("turn", 1), given.line_of("turn"), "given.turn", 1)
    players: list[Player] = []
    for entry in f.sequence(given.get("players"), given.line_of("players"), "given.players"):
        p = f.mapping(entry, given.line_of("players"), "a player", ("name", "team", "role", "at"))
        name = f.text(p.get("name"), p.line, "player name")
        if any(q.name == name for q in players):
            raise f.fail(p.line, f"player {name!r} is listed twice")
        team = _team(f, teams, p.get("team"), p.line_of("team"))
        role = f.choice(Role, p.get("role"), p.line_of("role"), "role")
        at = f.coord(p.get("at"), p.line_of("at"), f"{name}'s tile", board.contains, last)
        if not board.enterable(team, at):
            raise f.fail(p.line_of("at"), f"{name} cannot stand on {at.label} ({board.describe(at)})")
        players.append(Player(name, team, role, at))
    names = {p.name: p for p in players}
    for entry in f.sequence(given.get("knocked_down"), given.line_of("knocked_down"), "knocked_down"):
        who = f.text(entry, given.line_of("knocked_down"), "knocked_down name")
        if who not in names:
            raise f.fail(given.line_of("knocked_down"), f"knocked_down names unknown player {who!r}")
        names[who].status = Status.KNOCKED_DOWN
        names[who].down_turn = turn - 1
    coins = [0, 0]
    cmap = f.mapping(given.get("coins"), given.line_of("coins"), "coins")
    for key, value in cmap.items():
        coins[_team(f, teams, key, cmap.line_of(key))] = f.integer(value, cmap.line_of(key), "coins", 0)
    structures = fresh_structures(board, rules.settings)
    smap = f.mapping(given.get("structures"), given.line_of("structures"), "structures")
    for key, value in smap.items():
        line = smap.line_of(key)
        structure = structures.get(_structure_tile(f, structures, key, line, last))
        assert structure is not None
        spec = f.mapping(value, line, key, ("hp",))
        structure.hp = f.integer(spec.get("hp"), line, f"{key} hp", 0, structure.max_hp)
    trees = fresh_trees(board)
    _apply_trees(f, teams, trees, names, given, board)
    boss = None
    if given.get("boss") is not None:
        bmap = f.mapping(given["boss"], given.line_of("boss"), "boss", ("at", "hp"))
        boss = Boss(f.coord(bmap.get("at"), bmap.line_of("at"), "boss", board.contains, last),
                    f.integer(bmap.get("hp"), bmap.line_of("hp"), "boss hp", 1))
    jungle = set(board.coin_tiles)
    if given.get("jungle") is not None:
        jungle = set()
        for t in f.sequence(given["jungle"], given.line_of("jungle"), "jungle"):
            tile = f.coord(t, given.line_of("jungle"), "jungle tile", board.contains, last)
            if tile not in board.coin_tiles:
                raise f.fail(given.line_of("jungle"), f"{tile.label} is not a coin tile of the map")
            jungle.add(tile)
    ballista = [0, 0]
    bal = f.mapping(given.get("ballista"), given.line_of("ballista"), "ballista")
    for key, value in bal.items():
        ballista[_team(f, teams, key, bal.line_of(key))] = f.integer(value, bal.line_of(key), "charges", 0)
    cooldowns: list[dict[Skill, int]] = [{}, {}]
    cds = f.mapping(given.get("cooldowns"), given.line_of("cooldowns"), "cooldowns")
    for key, value in cds.items():
        team = _team(f, teams, key, cds.line_of(key))
        per = f.mapping(value, cds.line_of(key), "cooldowns of a team")
        for skill_name, last_turn in per.items():
            skill = f.choice(Skill, skill_name, per.line_of(skill_name), "skill")
            cooldowns[team][skill] = f.integer(last_turn, per.line_of(skill_name), "activation turn", 0)
    return GvgState(turn=turn, teams=teams, players=players, coins=coins, structures=structures,
                    trees=trees, boss=boss, jungle=jungle, ballista=ballista, cooldowns=cooldowns)


def _structure_tile(f: kit.Fields, structures: dict[Coord, Any], key: str, line: int, last: str) -> Coord:
    kind_text, sep, tile_text = key.partition("@")
    if not sep:
        raise f.fail(line, f"{key!r}: name a structure as kind@tile, e.g. bulwark@D2")
    kind = f.choice(StructureKind, kind_text, line, "structure kind")
    tile = f.coord(tile_text, line, key)
    found = structures.get(tile)
    if found is None or found.kind is not kind:
        raise f.fail(line, f"there is no {kind.value} on {tile.label} in the map")
    return tile


def _apply_trees(f: kit.Fields, teams: tuple[str, str], trees: list[Tree | None], names: dict[str, Player],
                 given: kit.LinedDict, board: GvgMap) -> None:
    tmap = f.mapping(given.get("tree"), given.line_of("tree"), "tree")
    for key, value in tmap.items():
        line = tmap.line_of(key)
        team = _team(f, teams, key, line)
        spec = f.mapping(value, line, f"tree of {key}", ("at", "carrier"))
        carrier = spec.get("carrier")
        if carrier is not None and carrier not in names:
            raise f.fail(line, f"tree carrier {carrier!r} is not a player")
        if "at" in spec:
            at = f.coord(spec["at"], spec.line_of("at"), "tree", board.contains, board.grid.last.label)
        elif carrier is not None:
            at = names[carrier].at
        else:
            raise f.fail(line, "a tree needs at: or carrier:")
        if carrier is not None and names[carrier].at != at:
            raise f.fail(line, f"the tree is on {at.label} but its carrier {carrier} is on {names[carrier].at.label}")
        trees[team] = Tree(team, at, carrier)


def _turn(rules: GvgRules, state: GvgState, entry: Any, f: kit.Fields, index: int,
          turns_line: int) -> kit.Entry[GvgState, TurnOrders]:
    board = rules.board
    last = board.grid.last.label
    t = f.mapping(entry, turns_line, f"turn {index + 1}", ("orders", "captains", "dice", "gm"))
    names = {p.name for p in state.players}
    orders: dict[str, PlayerOrder] = {}
    omap = f.mapping(t.get("orders"), t.line_of("orders"), "orders")
    for who, value in omap.items():
        line = omap.line_of(who)
        if who not in names:
            raise f.fail(line, f"order for unknown player {who!r}")
        o = f.mapping(value, line, f"{who}'s order", ("move", "action", "teleport"))
        move = tele = None
        if o.get("move"):
            move = f.coord(o["move"], o.line_of("move"), f"{who}'s move", board.contains, last)
        if o.get("teleport"):
            tele = f.coord(o["teleport"], o.line_of("teleport"), f"{who}'s teleport", board.contains, last)
        action = f.choice(Action, o.get("action", "act"), o.line_of("action"), "action")
        orders[who] = PlayerOrder(move=move, action=action, teleport=tele)
    skills: list[tuple[Skill, ...]] = [(), ()]
    cmap = f.mapping(t.get("captains"), t.line_of("captains"), "captains")
    for team_name, value in cmap.items():
        team = _team(f, state.teams, team_name, cmap.line_of(team_name))
        c = f.mapping(value, cmap.line_of(team_name), "a captain's order", ("skills",))
        skills[team] = tuple(f.choice(Skill, s, c.line_of("skills"), "skill")
                             for s in f.sequence(c.get("skills"), c.line_of("skills"), "skills"))
    pins: dict[str, int] = {}
    dmap = f.mapping(t.get("dice"), t.line_of("dice"), "dice")
    for key, value in dmap.items():
        pins[key] = f.integer(value, dmap.line_of(key), f"pinned die {key}", 1, 6)
    gm: list[GmEvent] = [_gm_event(f, state, rules, e, t.line_of("gm"))
                         for e in f.sequence(t.get("gm"), t.line_of("gm"), "gm")]
    return kit.Entry.of(t.line, f"turn {index + 1}",
                        [kit.Play(TurnOrders(players=orders, skills=(skills[0], skills[1])), pins)], gm)


def _gm_event(f: kit.Fields, state: GvgState, rules: GvgRules, entry: Any, line: int) -> GmEvent:
    e = f.mapping(entry, line, "a GM event", ("duel", "adjust"))
    if "duel" in e:
        d = f.mapping(e["duel"], e.line_of("duel"), "duel", ("winner", "score"))
        winner = _team(f, state.teams, d.get("winner"), d.line_of("winner"))
        score = str(d.get("score", "3-0")).replace(" ", "")
        won, _, lost = score.partition("-")
        if not (won.isdecimal() and lost.isdecimal()):
            raise f.fail(d.line_of("score"), f"score {score!r}: write winner-loser, e.g. 3-1")
        return ArcheryDuel(winner, int(won), int(lost))
    if "adjust" not in e:
        raise f.fail(e.line, "a GM event is {duel: ...} or {adjust: ...}")
    a = f.mapping(e["adjust"], e.line_of("adjust"), "adjust", ("reason", "coins", "hp", "position"))
    reason = f.text(a.get("reason"), a.line_of("reason"), "reason")
    coins = hp = position = None
    if "coins" in a:
        team_name, value = f.single(a["coins"], a.line_of("coins"), "coins", "{red: 3}")
        coins = (_team(f, state.teams, team_name, a.line_of("coins")), f.integer(value, a.line_of("coins"), "coins"))
    if "hp" in a:
        key, value = f.single(a["hp"], a.line_of("hp"), "hp", "{bulwark@D2: 1}")
        tile = f.coord(key.partition("@")[2], a.line_of("hp"), key)
        hp = (tile, f.integer(value, a.line_of("hp"), "hp"))
    if "position" in a:
        who, tile_text = f.single(a["position"], a.line_of("position"), "position", "{Ann: C3}")
        position = (who, f.coord(tile_text, a.line_of("position"), who, rules.board.contains))
    return Adjustment(reason=reason, coins=coins, hp=hp, position=position)


def _show(value: Any) -> str:
    return "null" if value is None else str(value)


def compare_gvg(f: kit.Fields, e: kit.LinedDict, state: GvgState) -> list[str]:
    """Every difference between ``expect`` and the final state, as ``path: expected X, got Y``."""
    out: list[str] = []
    teams = state.teams

    def check(path: str, want: Any, got: Any) -> None:
        if want != got:
            out.append(f"{path}: expected {_show(want)}, got {_show(got)}")

    names = {p.name: p for p in state.players}
    pmap = f.mapping(e.get("players"), e.line_of("players"), "expect.players")
    for who, spec in pmap.items():
        if who not in names:
            raise f.fail(pmap.line_of(who), f"expect names unknown player {who!r}")
        s = f.mapping(spec, pmap.line_of(who), f"expect.players.{who}", ("at", "status"))
        if "at" in s:
            check(f"players.{who}.at", str(s["at"]).strip().upper(), names[who].at.label)
        if "status" in s:
            check(f"players.{who}.status", f.choice(Status, s["status"], s.line_of("status"), "status").value,
                  names[who].status.value)
    smap = f.mapping(e.get("structures"), e.line_of("structures"), "expect.structures")
    for key, spec in smap.items():
        tile = _structure_tile(f, state.structures, key, smap.line_of(key), "")
        hp = f.mapping(spec, smap.line_of(key), key, ("hp",)).get("hp")
        check(f"structures.{key}.hp", hp, state.structures[tile].hp)
    cmap = f.mapping(e.get("coins"), e.line_of("coins"), "expect.coins")
    for key, value in cmap.items():
        check(f"coins.{key}", value, state.coins[_team(f, teams, key, cmap.line_of(key))])
    if "winner" in e:
        got = None if not state.finished else ("draw" if state.winner is None else teams[state.winner])
        check("winner", e["winner"], got)
    if "turn" in e:
        check("turn", e["turn"], state.turn)
    tmap = f.mapping(e.get("tree"), e.line_of("tree"), "expect.tree")
    for key, spec in tmap.items():
        tree = state.trees[_team(f, teams, key, tmap.line_of(key))]
        s = f.mapping(spec, tmap.line_of(key), f"expect.tree.{key}", ("at", "carrier"))
        if "at" in s:
            check(f"tree.{key}.at", str(s["at"]).upper(), tree.at.label if tree else None)
        if "carrier" in s:
            check(f"tree.{key}.carrier", s["carrier"], tree.carrier if tree else None)
    if "boss" in e:
        want_boss = e["boss"]
        got_boss = None if state.boss is None else {"at": state.boss.at.label, "hp": state.boss.hp}
        if want_boss is None:
            check("boss", None, got_boss)
        else:
            b = f.mapping(want_boss, e.line_of("boss"), "expect.boss", ("at", "hp"))
            for k in b:
                check(f"boss.{k}", str(b[k]).upper() if k == "at" else b[k], None if got_boss is None else got_boss[k])
    if "jungle" in e:
        want = sorted(str(t).upper() for t in f.sequence(e["jungle"], e.line_of("jungle"), "expect.jungle"))
        check("jungle", want, sorted(c.label for c in state.jungle))
    bmap = f.mapping(e.get("ballista"), e.line_of("ballista"), "expect.ballista")
    for key, value in bmap.items():
        check(f"ballista.{key}", value, state.ballista[_team(f, teams, key, bmap.line_of(key))])
    cd = f.mapping(e.get("cooldowns"), e.line_of("cooldowns"), "expect.cooldowns")
    for key, per in cd.items():
        team = _team(f, teams, key, cd.line_of(key))
        for skill_name, value in f.mapping(per, cd.line_of(key), "cooldowns").items():
            skill = f.choice(Skill, skill_name, cd.line_of(key), "skill")
            check(f"cooldowns.{key}.{skill_name}", value, state.cooldowns[team].get(skill))
    return out
