"""Coalition scenarios: the planes, the given state, turns of orders (and the judge's results) with
pinned dice and draws, and what must be true afterwards (``docs/scenarios.md``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.words import possessive
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board, PlaceError, board_from_planes, load_board
from sheets_gm.rulesets.coalition.engine import CoalitionRuleset
from sheets_gm.rulesets.coalition.enums import BattleType, Phase, ResultCode, Side
from sheets_gm.rulesets.coalition.setup import army_from_fields
from sheets_gm.rulesets.coalition.state import (
    TOP_RANKS,
    Army,
    ArmyOrder,
    Battle,
    BattleResult,
    CoalitionOrders,
    CoalitionState,
)
from sheets_gm.rulesets.registry import default_board_text

TOP_KEYS = ("name", "ruleset", "settings", "planes", "given", "turns", "expect")
GIVEN_KEYS = ("turn", "vp", "armies", "battles", "counters", "mercenary_turns", "destroyed")
ARMY_KEYS = ("name", "side", "rank", "factions", "primary", "at", "units", "guards", "player", "legend", "creatures")
TURN_KEYS = ("orders", "dice", "results", "after")
ORDER_KEYS = ("start", "to", "via", "order", "target", "units", "bump")
RESULT_KEYS = ("winner", "losses", "vp", "siege", "kill", "kill_bonus", "escape_bonus", "failed_kill", "stratless")
EXPECT_KEYS = ("armies", "results", "battles", "open_battles", "vp", "counters", "destroyed", "dominates", "winner",
               "log_contains", "mercenary_turns", "control")
EXPECT_ARMY_KEYS = ("at", "units", "dead", "in_battle")
BATTLE_KEYS = ("type", "at", "armies", "weather")
_PLACE_KEYS = ("weather", "partial", "jointcap", "stay", "standin", "standin-kill")
_PLACE_DRAWS = ("bump", "portal", "joint")


@dataclass(slots=True)
class _TurnPlays:
    """One entry of ``turns``: the sides' orders and, when the file gives them, the judge's results.

    A turn that starts with the previous turn's battles still open first gives them an empty result (the
    judge typed none: they stay open, as the results window closing without an answer leaves them)."""

    orders: CoalitionOrders
    dice: dict[str, Any]
    results: dict[str, BattleResult] | None
    after: dict[str, Any]
    label: str
    line: int
    fields: kit.Fields
    orders_done: bool = False
    results_done: bool = False

    def next_play(self, state: CoalitionState, _last: object, played: int) -> kit.Play[CoalitionOrders] | None:
        """The next window: open battles' empty results, the orders, then the judge's results if given."""
        if played == 0:
            self.orders_done = self.results_done = False
        if not self.orders_done:
            if state.phase is Phase.RESULTS:
                return kit.Play(CoalitionOrders())
            if state.phase is Phase.OVER:
                raise self.fields.fail(self.line, f"{self.label}: the round is already over ({state.winner})")
            self.orders_done = True
            return kit.Play(self.orders, self.dice)
        if self.results is not None and not self.results_done and state.phase is Phase.RESULTS:
            self.results_done = True
            return kit.Play(CoalitionOrders(results=self.results), self.after, refusal_is_error=True)
        return None


class CoalitionScenarioCodec:
    """The Coalition's scenario files."""

    keys = TOP_KEYS

    def load(self, doc: kit.LinedDict, fields: kit.Fields,
             settings: Any) -> kit.Scenario[CoalitionState, CoalitionOrders]:
        """The file read into a scenario: each turn its orders and, where given, the judge's results."""
        board = _board(doc, fields)
        given = fields.mapping(doc.get("given"), doc.line_of("given"), "given", GIVEN_KEYS)
        state = _given(board, given, fields)
        turns = [_turn(board, state, entry, fields, doc.line_of("turns"), i)
                 for i, entry in enumerate(fields.sequence(doc.get("turns"), doc.line_of("turns"), "turns"))]
        expect = fields.mapping(doc.get("expect"), doc.line_of("expect"), "expect", EXPECT_KEYS)
        return kit.Scenario(CoalitionRuleset(board, settings), state,
                            [kit.Entry(t.line, t.label, t.next_play) for t in turns],
                            lambda final, _verdicts: _compare(board, final, expect, fields))


def _board(doc: kit.LinedDict, f: kit.Fields) -> Board:
    if "planes" in doc:
        import yaml
        text = yaml.safe_dump({"planes": _plain(doc["planes"])}, sort_keys=False, allow_unicode=True)
        return board_from_planes(doc["planes"], doc.line_of("planes"), f, text)
    return load_board(default_board_text("coalition"), "templates/coalition/map.yaml")


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _place(board: Board, f: kit.Fields, value: Any, line: int, what: str) -> str:
    single = next(iter(board.planes)) if len(board.planes) == 1 else None
    try:
        return board.parse(str(value), single)
    except PlaceError as exc:
        raise f.fail(line, f"{what}: {exc}") from None


def _given(board: Board, given: kit.LinedDict, f: kit.Fields) -> CoalitionState:
    turn = f.integer(given.get("turn", 1), given.line_of("turn"), "given.turn", 1)
    armies: list[Army] = []
    for entry in f.sequence(given.get("armies"), given.line_of("armies"), "given.armies"):
        a = f.mapping(entry, given.line_of("armies"), "an army", ARMY_KEYS)
        name = f.text(a.get("name"), a.line, "army name")
        if any(x.name == name for x in armies):
            raise f.fail(a.line, f"army {name!r} is listed twice")
        values = {k: v for k, v in a.items() if k not in ("name", "side")}
        values["at"] = _place(board, f, a.get("at"), a.line_of("at"), f"{possessive(name)} square")
        if "units" in values:
            units = f.sequence(values["units"], a.line_of("units"), f"{possessive(name)} units")
            values["units"] = "/".join(str(f.integer(u, a.line_of("units"), f"{name}'s units", 0)) for u in units)
        try:
            armies.append(army_from_fields(board, name, str(a.get("side", "")), values))
        except ValueError as exc:
            raise f.fail(a.line, f"army {name}: {exc}") from None
    names = {a.name for a in armies}
    battles = []
    for entry in f.sequence(given.get("battles"), given.line_of("battles"), "given.battles"):
        b = f.mapping(entry, given.line_of("battles"), "a battle", BATTLE_KEYS)
        kind = f.choice(BattleType, b.get("type"), b.line_of("type"), "battle type")
        at = _place(board, f, b.get("at"), b.line_of("at"), "battle square")
        members = [f.text(n, b.line_of("armies"), "army") for n in f.sequence(b.get("armies"), b.line_of("armies"),
                                                                             "battle armies")]
        unknown = [n for n in members if n not in names]
        if unknown or len(members) < 2:
            raise f.fail(b.line_of("armies"), f"a battle names two armies or more of given.armies; "
                                              f"{unknown or members}")
        battles.append(Battle(kind, at, tuple(members), str(b.get("weather", "") or "")))
    vp_doc = f.mapping(given.get("vp"), given.line_of("vp"), "given.vp", ("coalition", "phyrexia"))
    vp = {s: f.integer(vp_doc.get(s, 0), vp_doc.line_of(s), f"vp of {s}", 0) for s in ("coalition", "phyrexia")}
    counters = _named_counts(f, given, "counters", names)
    mercs = _named_counts(f, given, "mercenary_turns", names)
    destroyed = [f.text(s, given.line_of("destroyed"), "structure") for s in
                 f.sequence(given.get("destroyed"), given.line_of("destroyed"), "given.destroyed")]
    for s in destroyed:
        if s.lower() not in board.by_name:
            raise f.fail(given.line_of("destroyed"), f"destroyed: no structure {s!r} on the map")
    top = tuple(sorted({a.side.value for a in armies if a.rank in TOP_RANKS and a.side is not Side.MERCENARY}))
    return CoalitionState(turn, Phase.ORDERS, tuple(armies), tuple(battles), vp=vp, counters=counters,
                          mercenary_turns=mercs, destroyed=tuple(board.by_name[s.lower()].name for s in destroyed),
                          top_ranks_at_start=top)


def _named_counts(f: kit.Fields, doc: kit.LinedDict, key: str, names: set[str]) -> dict[str, int]:
    m = f.mapping(doc.get(key), doc.line_of(key), key)
    for name in m:
        if name not in names:
            raise f.fail(m.line_of(name), f"{key}: {name!r} is not an army of given.armies")
    return {name: f.integer(v, m.line_of(name), f"{key} of {name}", 0) for name, v in m.items()}


def _turn(board: Board, state: CoalitionState, entry: Any, f: kit.Fields, line: int, index: int) -> _TurnPlays:
    t = f.mapping(entry, line, "a turn", TURN_KEYS)
    orders: dict[str, dict[str, ArmyOrder]] = {}
    o_doc = f.mapping(t.get("orders"), t.line_of("orders"), "orders")
    for name, value in o_doc.items():
        oline = o_doc.line_of(name)
        army = state.army(name)
        if army is None:
            raise f.fail(oline, f"order for {name!r}, which is not an army of given.armies")
        if army.side is Side.MERCENARY:
            raise f.fail(oline, f"{name} is a mercenary: the engine moves it")
        if isinstance(value, str):
            order = ArmyOrder(line=value)
        else:
            o = f.mapping(value, oline, f"{possessive(name)} order", ORDER_KEYS)
            via = tuple(str(v) for v in f.sequence(o.get("via"), o.line_of("via"), "via"))
            units = tuple(f.integer(u, o.line_of("units"), "units", 0)
                          for u in f.sequence(o.get("units"), o.line_of("units"), "units"))
            order = ArmyOrder(str(o.get("start", "") or ""), via, str(o.get("to", "") or ""),
                              str(o.get("order", "") or ""), str(o.get("target", "") or ""), units,
                              str(o.get("bump", "") or ""))
        orders.setdefault(army.side.value, {})[name] = order
    results: dict[str, BattleResult] | None = None
    if "results" in t:
        results = {}
        r_doc = f.mapping(t.get("results"), t.line_of("results"), "results")
        for where, value in r_doc.items():
            rline = r_doc.line_of(where)
            r = f.mapping(value, rline, f"the result at {where}", RESULT_KEYS)
            losses_doc = f.mapping(r.get("losses"), r.line_of("losses"), "losses")
            losses = {}
            for army_name, lost in losses_doc.items():
                values = f.sequence(lost, losses_doc.line_of(army_name), f"{possessive(army_name)} losses")
                losses[army_name] = tuple(f.integer(v, losses_doc.line_of(army_name), "a loss", 0) for v in values)
            results[_place(board, f, where, rline, "result square")] = BattleResult(
                winner=str(r.get("winner", "") or ""), losses=losses,
                vp=f.integer(r["vp"], r.line_of("vp"), "vp", 0) if "vp" in r else None,
                siege=bool(r.get("siege", False)), kill=str(r.get("kill", "") or ""),
                kill_bonus=f.integer(r.get("kill_bonus", 0), r.line_of("kill_bonus"), "kill_bonus"),
                escape_bonus=f.integer(r.get("escape_bonus", 0), r.line_of("escape_bonus"), "escape_bonus"),
                failed_kill=tuple(str(n) for n in f.sequence(r.get("failed_kill"), r.line_of("failed_kill"),
                                                             "failed_kill")),
                stratless=str(r.get("stratless", "") or ""))
    return _TurnPlays(CoalitionOrders(orders), _pins(board, f, t, "dice"), results, _pins(board, f, t, "after"),
                      f"turn {index + 1}", line, f)


def _pins(board: Board, f: kit.Fields, t: kit.LinedDict, key: str) -> dict[str, Any]:
    """Pinned dice and draws, with squares written as the engine keys them (``Dominaria 3C``)."""
    doc = f.mapping(t.get(key), t.line_of(key), key)
    out: dict[str, Any] = {}
    for name, value in doc.items():
        line = doc.line_of(name)
        kind, _, rest = name.partition("/")
        if kind in _PLACE_KEYS and rest:
            name = f"{kind}/{_place(board, f, rest, line, name)}"
        if isinstance(value, list):
            if kind == "route":
                routes = []
                for route in value:
                    if not isinstance(route, list):
                        raise f.fail(line, f"{name}: a route is a list of squares, like [3B, 3C]")
                    routes.append(" ".join(board.short(_place_on_any(board, f, s, line, name)) for s in route))
                value = routes
            elif kind in _PLACE_DRAWS:
                value = [_place(board, f, v, line, name) for v in value]
            else:
                value = [str(v) for v in value]
        elif isinstance(value, bool) or not isinstance(value, int):
            raise f.fail(line, f"pinned {name!r} is {value!r}: a die is a whole number, a draw a list")
        out[name] = value
    return out


def _place_on_any(board: Board, f: kit.Fields, value: Any, line: int, what: str) -> str:
    text = str(value)
    if " " in text.strip():
        return _place(board, f, text, line, what)
    for plane in board.planes:
        try:
            return board.parse(text, plane)
        except PlaceError:
            continue
    raise f.fail(line, f"{what}: {text!r} is not a square")


def _battle_view(b: Battle, keys: list[str]) -> tuple[Any, ...]:
    full = {"type": b.type.value, "at": b.at, "armies": frozenset(b.armies), "weather": b.weather}
    return tuple(full[k] for k in keys)


def _compare(board: Board, state: CoalitionState, expect: kit.LinedDict, f: kit.Fields) -> list[str]:
    diffs: list[str] = []
    armies = state.by_name()
    a_doc = f.mapping(expect.get("armies"), expect.line_of("armies"), "expect.armies")
    fighting = state.in_battle()
    for name, value in a_doc.items():
        e = f.mapping(value, a_doc.line_of(name), f"expect.armies.{name}", EXPECT_ARMY_KEYS)
        army = armies.get(name)
        if "dead" in e and bool(e["dead"]) != (army is None):
            diffs.append(f"armies.{name}.dead: expected {bool(e['dead'])}, got {army is None}")
        if army is None:
            if set(e) - {"dead"}:
                diffs.append(f"armies.{name}: expected an army, got none (dead or disbanded)")
            continue
        if "at" in e:
            want = _place(board, f, e["at"], e.line_of("at"), f"{possessive(name)} square")
            if want != army.at:
                diffs.append(f"armies.{name}.at: expected {want}, got {army.at}")
        if "units" in e:
            listed = f.sequence(e["units"], e.line_of("units"), "units")
            want_units = [f.integer(u, e.line_of("units"), "units", 0) for u in listed]
            if want_units != list(army.units):
                diffs.append(f"armies.{name}.units: expected {want_units}, got {list(army.units)}")
        if "in_battle" in e and bool(e["in_battle"]) != (name in fighting):
            diffs.append(f"armies.{name}.in_battle: expected {bool(e['in_battle'])}, got {name in fighting}")
    r_doc = f.mapping(expect.get("results"), expect.line_of("results"), "expect.results")
    codes = {m.army: m.code.value for m in state.movement}
    for name, value in r_doc.items():
        want = f.choice(ResultCode, value, r_doc.line_of(name), "result code").value
        if codes.get(name, "held") != want:
            diffs.append(f"results.{name}: expected {want}, got {codes.get(name, '(no army)')}")
    for key, battles in (("battles", state.announced), ("open_battles", state.battles)):
        if key not in expect:
            continue
        wanted = f.sequence(expect[key], expect.line_of(key), key)
        entries = [f.mapping(w, expect.line_of(key), f"a battle of {key}", BATTLE_KEYS) for w in wanted]
        missing = []
        for e in entries:
            keys = list(e)
            wanted_view = tuple(frozenset(e[k]) if k == "armies" else
                         _place(board, f, e[k], e.line_of(k), "battle square") if k == "at" else str(e[k])
                         for k in keys)
            if not any(_battle_view(b, keys) == wanted_view for b in battles):
                missing.append(dict(e))
        if missing or len(entries) != len(battles):
            got = [f"{b.type.value} at {b.at}: {', '.join(b.armies)} ({b.weather})" for b in battles]
            diffs.append(f"{key}: expected {[dict(e) for e in entries]}, got {got or 'none'}")
    if "vp" in expect:
        v = f.mapping(expect["vp"], expect.line_of("vp"), "expect.vp", ("coalition", "phyrexia"))
        for side, want_vp in v.items():
            if state.vp.get(side) != want_vp:
                diffs.append(f"vp.{side}: expected {want_vp}, got {state.vp.get(side)}")
    for key, actual in (("counters", state.counters), ("mercenary_turns", state.mercenary_turns)):
        c = f.mapping(expect.get(key), expect.line_of(key), f"expect.{key}")
        for name, want_n in c.items():
            if actual.get(name, 0) != want_n:
                diffs.append(f"{key}.{name}: expected {want_n}, got {actual.get(name, 0)}")
    if "destroyed" in expect:
        want_set = {str(s) for s in f.sequence(expect["destroyed"], expect.line_of("destroyed"), "destroyed")}
        if want_set != set(state.destroyed):
            diffs.append(f"destroyed: expected {sorted(want_set)}, got {sorted(state.destroyed)}")
    for key, owners in (("dominates", state.dominates), ("control", state.control)):
        d = f.mapping(expect.get(key), expect.line_of(key), f"expect.{key}")
        for name, want_side in d.items():
            if owners.get(name) != want_side:
                diffs.append(f"{key}.{name}: expected {want_side}, got {owners.get(name)}")
    if "winner" in expect and expect["winner"] != state.winner:
        diffs.append(f"winner: expected {expect['winner']}, got {state.winner}")
    return diffs
