"""Win or Die scenarios: the given state, each turn's rows, reactions and dice, and how to compare ``expect``.

The shapes are the winordie section of ``docs/scenarios.md``; the runner has already
read ``name``, ``settings`` and the top-level keys, and checks ``expect.log_contains`` itself.
A turn entry is one whole turn of its player: her start of turn (the given state is the one
before it), her actions in order, and her end of turn. A standing reaction that stops the
rows leaves its effect to the GM (none in a scenario): the remaining rows then resolve, as
they would at the next sync. A scenario plays one game: when it ends (in advanced mode too),
play stops there, the match's next game is not begun, and ``expect`` is checked on the state at
that moment; ``winner`` is the winner of that game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.board import MapError, WodMap
from sheets_gm.rulesets.winordie.cards import (
    Card,
    CardTableError,
    Recruit,
    build_ability,
    build_card,
    parse_enhancements,
    shipped_tables,
)
from sheets_gm.rulesets.winordie.engine import WodRuleset
from sheets_gm.rulesets.winordie.enums import ActionKind, Phase, Side, Trigger
from sheets_gm.rulesets.winordie.orders import Action, Reaction, WodOrders, action_row
from sheets_gm.rulesets.winordie.rules import WodRules
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.state import Legion, Unit, WodState, reading_order

TOP_KEYS = ("name", "ruleset", "settings", "players", "cards", "map", "given", "turns", "expect")
CARD_KEYS = ("name", "region", "faction", "type", "cost", "speed", "power", "counter", "health", "hit",
             "counter_hit", "range", "flying", "limit", "abilities", "set")
GIVEN_KEYS = ("turn", "acting", "morale", "fatigue", "crystals", "tokens", "barrack", "units")
UNIT_KEYS = ("id", "card", "owner", "at", "damage", "hidden", "enhancements")
TURN_KEYS = ("player", "actions", "reactions", "dice")
ACTION_KEYS = ("unit", "move", "attack", "call", "side", "id", "enhancements", "ability", "target", "council")
EXPECT_KEYS = ("units", "morale", "fatigue", "tokens", "crystals", "refused", "winner", "log_contains")
KINDS = ("move", "attack", "call", "ability", "council")


class WodScenarioCodec:
    """Win or Die's scenario files: two players, a hex map, cards, units, actions and reactions."""

    keys = TOP_KEYS

    def load(self, doc: kit.LinedDict, fields: kit.Fields, settings: Any) -> kit.Scenario[WodState, WodOrders]:
        """The file read into a scenario: each turn its player's rows and her opponent's standing reactions."""
        f = fields
        players = _players(f, doc)
        rules = _rules(f, doc, settings)
        given = f.mapping(doc.get("given"), doc.line_of("given"), "given", GIVEN_KEYS)
        state = _given(f, rules, players, given)
        turns = [_turn(f, rules, state, entry, i, doc.line_of("turns"))
                 for i, entry in enumerate(f.sequence(doc.get("turns"), doc.line_of("turns"), "turns"), start=1)]
        expect = f.mapping(doc.get("expect"), doc.line_of("expect"), "expect", EXPECT_KEYS)
        game = state.game
        return kit.Scenario(WodRuleset(rules), state, turns,
                            lambda final, verdicts: _compare(f, expect, final, verdicts, game),
                            game_over=lambda now: now.phase is not Phase.ACTIONS or now.game != game)


def _players(f: kit.Fields, doc: kit.LinedDict) -> tuple[str, str]:
    raw = f.sequence(doc.get("players"), doc.line_of("players"), "players")
    names = [f.text(p, doc.line_of("players"), "player") for p in raw]
    if len(names) != 2 or names[0] == names[1]:
        raise f.fail(doc.line_of("players"), "players names the two players, the first player first: [Ann, Bo]")
    return names[0], names[1]


def _rules(f: kit.Fields, doc: kit.LinedDict, settings: WodSettings) -> WodRules:
    if "map" not in doc:
        raise f.fail(doc.line, "the scenario needs a map")
    try:
        board = WodMap.from_text(str(doc["map"]), where="map")
    except MapError as exc:
        raise f.fail(doc.line_of("map"), str(exc)) from None
    cards: list[Card] = []
    for entry in f.sequence(doc.get("cards"), doc.line_of("cards"), "cards"):
        c = f.mapping(entry, doc.line_of("cards"), "a card", CARD_KEYS)
        try:
            listed = f.sequence(c.get("abilities"), c.line_of("abilities"), "abilities")
            keys = ("type", "name", "text", "before")
            abilities = tuple(build_ability(f.mapping(a, c.line_of("abilities"), "an ability", keys), "ability")
                              for a in listed)
            cards.append(build_card(c, "card", abilities))
        except CardTableError as exc:
            raise f.fail(c.line, str(exc)) from None
    return WodRules(board, settings, shipped_tables().with_cards(cards), one_game=True)


def _per_player(f: kit.Fields, given: kit.LinedDict, key: str, players: tuple[str, str],
                low: int | None = 0) -> dict[str, int]:
    m = f.mapping(given.get(key), given.line_of(key), f"given.{key}", players)
    return {p: f.integer(v, m.line_of(p), f"{key} of {p}", low) for p, v in m.items()}


def _given(f: kit.Fields, rules: WodRules, players: tuple[str, str], given: kit.LinedDict) -> WodState:
    board = rules.board
    last = Hex(board.grid.width - 1, board.grid.height - 1).label
    turn = f.integer(given.get("turn", 1), given.line_of("turn"), "given.turn", 1, 99)
    acting = players[0] if turn % 2 == 1 else players[1]
    if "acting" in given and f.text(given["acting"], given.line_of("acting"), "acting") != acting:
        raise f.fail(given.line_of("acting"), f"turn {turn} is {acting}'s (odd turns are the first player's, "
                                              f"{players[0]}); write acting: {acting} or change the turn")
    units: list[Unit] = []
    cards: dict[str, Card] = {}
    for entry in f.sequence(given.get("units"), given.line_of("units"), "given.units"):
        u = f.mapping(entry, given.line_of("units"), "a unit", UNIT_KEYS)
        uid = f.text(u.get("id"), u.line_of("id"), "unit id")
        if any(x.id == uid for x in units):
            raise f.fail(u.line, f"unit {uid!r} is listed twice")
        card = rules.tables.card(f.text(u.get("card"), u.line_of("card"), "card"))
        if card is None:
            raise f.fail(u.line_of("card"), f"there is no card {u.get('card')!r}; add it under cards: or use one "
                                            f"of the cards table")
        owner = f.text(u.get("owner"), u.line_of("owner"), "owner")
        if owner not in players:
            raise f.fail(u.line_of("owner"), f"unknown player {owner!r}; the players are {players[0]} and {players[1]}")
        at = f.coord(u.get("at"), u.line_of("at"), f"{uid}'s hex", board.contains, last)
        if board.terrain[at].obstacle or any(x.at == at for x in units):
            raise f.fail(u.line_of("at"), f"{uid} cannot stand on {at.label} (a mountain, or another unit's hex)")
        hidden = u.get("hidden", True)
        if not isinstance(hidden, bool):
            raise f.fail(u.line_of("hidden"), "hidden is true or false")
        try:
            enhancements = parse_enhancements(u.get("enhancements"), f"{uid}")
        except CardTableError as exc:
            raise f.fail(u.line_of("enhancements"), str(exc)) from None
        cards[card.name] = card
        units.append(Unit(uid, card.name, owner, at, f.integer(u.get("damage", 0), u.line_of("damage"), "damage", 0),
                          hidden, enhancements))
    for p in players:
        hidden_units = sorted((x for x in units if x.owner == p and x.hidden), key=reading_order)
        for n, unit in enumerate(hidden_units, start=1):
            unit.token = f"{p} token {n}"
    barrack: dict[str, list[str]] = {p: [] for p in players}
    bmap = f.mapping(given.get("barrack"), given.line_of("barrack"), "given.barrack", players)
    for p, names in bmap.items():
        for name in f.sequence(names, bmap.line_of(p), f"barrack of {p}"):
            card = rules.tables.card(f.text(name, bmap.line_of(p), "card"))
            if card is None:
                raise f.fail(bmap.line_of(p), f"there is no card {name!r} for {p}'s barrack")
            cards[card.name] = card
            barrack[p].append(card.name)
    legions = {p: Legion(p, i, barrack=list(barrack[p])) for i, p in enumerate(players)}
    state = WodState(seats=players, legions=legions, units=units, cards=cards, tactics=dict(rules.tables.tactics),
                     turn=turn, phase=Phase.ACTIONS, first=players[0],
                     recruits={p: tuple(Recruit(u.id, u.card, u.enhancements) for u in units if u.owner == p)
                               for p in players})
    morale = _per_player(f, given, "morale", players, None)
    fatigue = _per_player(f, given, "fatigue", players)
    crystals = _per_player(f, given, "crystals", players)
    tokens = _per_player(f, given, "tokens", players)
    for p in players:
        legion = legions[p]
        legion.morale = morale.get(p, sum(state.morale_of(u) for u in units if u.owner == p))
        legion.fatigue = fatigue.get(p, 0)
        legion.crystals = crystals.get(p, 0)
        legion.tokens = tokens.get(p, rules.settings.tokens)
    state.start_crystals = {p: legions[p].crystals for p in players}
    state.start_barrack = {p: tuple(barrack[p]) for p in players}
    return state


def _turn(f: kit.Fields, rules: WodRules, state: WodState, entry: Any, index: int,
          line: int) -> kit.Entry[WodState, WodOrders]:
    t = f.mapping(entry, line, f"turn {index}", TURN_KEYS)
    expected = state.first if (state.turn + index - 1) % 2 == 1 else state.second
    player = f.text(t.get("player", expected), t.line_of("player"), "player")
    if player not in state.seats:
        raise f.fail(t.line_of("player"), f"unknown player {player!r}; the players are {' and '.join(state.seats)}")
    actions = tuple(_action(f, a, t.line_of("actions"))
                    for a in f.sequence(t.get("actions"), t.line_of("actions"), "actions"))
    reactions: dict[str, tuple[Reaction, ...]] = {}
    rmap = f.mapping(t.get("reactions"), t.line_of("reactions"), "reactions", state.seats)
    for who, listed in rmap.items():
        out = []
        for r in f.sequence(listed, rmap.line_of(who), f"reactions of {who}"):
            rr = f.mapping(r, rmap.line_of(who), "a reaction", ("unit", "ability", "when", "within"))
            out.append(Reaction(f.text(rr.get("unit"), rr.line_of("unit"), "unit"),
                                f.text(rr.get("ability"), rr.line_of("ability"), "ability"),
                                f.choice(Trigger, rr.get("when", "attacked"), rr.line_of("when"), "when"),
                                f.integer(rr.get("within", 1), rr.line_of("within"), "within", 0, 99)))
        reactions[who] = tuple(out)
    pins: dict[str, int] = {}
    dmap = f.mapping(t.get("dice"), t.line_of("dice"), "dice")
    for key, value in dmap.items():
        pins[key] = f.integer(value, dmap.line_of(key), f"pinned die {key}", 1, 6)

    def next_play(now: WodState, last: kit.Resolution[WodState] | None, played: int) -> kit.Play[WodOrders] | None:
        if last is None:
            rows = actions
        else:  # a reaction stopped the rows: those it left wait, as on her sheet, for the next sync
            waiting = last.unused.get(player, {})
            if not waiting or now.acting != player or now.phase is not Phase.ACTIONS or played > len(actions):
                return None
            rows = tuple(row for n, row in enumerate(actions, start=1) if action_row(n) in waiting)
        return kit.Play(WodOrders({player: rows}, (), reactions), pins)

    return kit.Entry(t.line, f"turn {index}", next_play, seat=player)


def _action(f: kit.Fields, entry: Any, line: int) -> Action:
    a = f.mapping(entry, line, "an action", ACTION_KEYS)
    kinds = [k for k in KINDS if k in a]
    if len(kinds) != 1:
        raise f.fail(a.line, "an action has exactly one of move, attack, call, ability or council; e.g. "
                             "{unit: A1, attack: B7}")
    kind = ActionKind(kinds[0])
    target = f.text(a[kinds[0]], a.line_of(kinds[0]), kinds[0])
    if kind is not ActionKind.COUNCIL and "unit" not in a:
        raise f.fail(a.line, f"a {kind.value} action names its unit: {{unit: A1, {kind.value}: …}}")
    unit = f.text(a.get("unit"), a.line_of("unit"), "unit") if "unit" in a else ""
    side = f.choice(Side, a["side"], a.line_of("side"), "side") if "side" in a else None
    try:
        enhancements = parse_enhancements(a.get("enhancements"), "enhancements")
    except CardTableError as exc:
        raise f.fail(a.line_of("enhancements"), str(exc)) from None
    new_id = f.text(a["id"], a.line_of("id"), "id") if "id" in a else ""
    aim = f.text(a["target"], a.line_of("target"), "target") if "target" in a else ""
    return Action(kind, unit, target, side, new_id, enhancements, aim)


def _show(value: Any) -> str:
    return "null" if value is None else str(value)


def _compare(f: kit.Fields, e: kit.LinedDict, state: WodState, verdicts: Sequence[kit.Verdict], game: int) -> list[str]:
    out: list[str] = []
    refused = {v.about or v.subject for v in verdicts if not v.accepted}  # units, as the format counts them

    def check(path: str, want: Any, got: Any) -> None:
        if want != got:
            out.append(f"{path}: expected {_show(want)}, got {_show(got)}")

    umap = f.mapping(e.get("units"), e.line_of("units"), "expect.units")
    for uid, spec in umap.items():
        s = f.mapping(spec, umap.line_of(uid), f"expect.units.{uid}", ("damage", "hidden", "dead", "at"))
        alive = state.unit(uid)
        dead = next((u for u in state.dead if u.id.lower() == uid.lower()), None)
        unit = alive or dead
        if unit is None:
            raise f.fail(umap.line_of(uid), f"expect names unknown unit {uid!r}")
        if "dead" in s:
            check(f"units.{uid}.dead", bool(s["dead"]), alive is None)
        if "damage" in s:
            check(f"units.{uid}.damage", s["damage"], unit.damage)
        if "hidden" in s:
            check(f"units.{uid}.hidden", s["hidden"], unit.hidden)
        if "at" in s:
            check(f"units.{uid}.at", str(s["at"]).strip().upper(), unit.at.label if unit.at else None)
    for key in ("morale", "fatigue", "tokens", "crystals"):
        m = f.mapping(e.get(key), e.line_of(key), f"expect.{key}", state.seats)
        for p, value in m.items():
            check(f"{key}.{p}", value, getattr(state.legions[p], key))
    if "refused" in e:
        want = sorted(str(x) for x in f.sequence(e["refused"], e.line_of("refused"), "refused"))
        check("refused", want, sorted(refused))
    if "winner" in e:
        got = state.games[game - 1][0] if len(state.games) >= game else None
        check("winner", e["winner"], got)
    return out
