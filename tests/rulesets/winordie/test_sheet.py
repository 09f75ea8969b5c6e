"""The Win or Die sheet: typed rows read as orders (and every unreadable cell named), bot orders typed
and read back, the hex board, the status line and each player's private panel; and, through the real
sync, that nothing typed or previewed shows a player the other's hidden units."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from sheets_gm.engine.ruleset import GM, Window
from sheets_gm.rulesets.registry import bots_of, sheet_spec
from sheets_gm.rulesets.winordie.engine import WodRuleset
from sheets_gm.rulesets.winordie.enums import ActionKind, Enhancement, GmKind, Phase, ResolveMode, Side, Trigger
from sheets_gm.rulesets.winordie.gm import Adjustment, events_from_options
from sheets_gm.rulesets.winordie.movement import reachable
from sheets_gm.rulesets.winordie.orders import Action, Reaction, WodOrders, orders_to_json
from sheets_gm.rulesets.winordie.resolve.actions import damage_left
from sheets_gm.rulesets.winordie.rules import public_name
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.sheet.adapter import WodSheet
from sheets_gm.rulesets.winordie.sheet.draw import CARD_ROWS, CARDS_TAB, PENDING_LINES
from sheets_gm.rulesets.winordie.state import Pending, Unit, WodState
from sheets_gm.sheets.adapter import SeatInput
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError, adjust_match
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.rows.fate_words import idle_feedback, ready_sentence
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import MemoryBackend
from tests.rulesets.winordie.helpers import SEED, deployed, rules, step

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)


def _sheet(r: WodRuleset) -> WodSheet:
    return WodSheet(r)


def _rows(table: str, typed: Mapping[str, Mapping[str, CellValue]], window: Window) -> list[TypedRow]:
    return [TypedRow(table, subject, n, window.key, dict(values), "")
            for n, (subject, values) in enumerate(typed.items(), start=1)]


def _read(r: WodRuleset, state: WodState, player: str, /,
          **tables: Mapping[str, Mapping[str, CellValue]]) -> SeatInput[WodOrders]:
    window = r.window(state)
    assert window is not None
    return _sheet(r).read_orders(state, window, player, {t: _rows(t, v, window) for t, v in tables.items()})


def _started(r: WodRuleset) -> WodState:
    """A deployed match, the first player's turn open."""
    return deployed(r)


def _first(state: WodState, owner: str, card: str) -> Unit:
    """``owner``'s first unit of ``card``."""
    return next(u for u in state.units if u.owner == owner and u.card == card)


def _beside(r: WodRuleset, state: WodState, unit: Unit, near: Unit) -> WodState:
    """``state`` with ``unit`` moved (a GM's move) to a free hex next to ``near``, whose action then is "next to" it
    (a Drum of Dread fires only there)."""
    assert near.at is not None
    free = next(h for h in r.rules.board.neighbours(near.at)
                if state.unit_at(h) is None and not r.rules.board.terrain[h].obstacle)
    return r.apply_gm_event(state, Adjustment(GmKind.MOVE, unit.id, free.label, "set the test up")).state


def _names(text: str, ids: set[str]) -> set[str]:
    return {i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)}


# -- deployment ----------------------------------------------------------------------------
def test_a_deployment_reads_a_hex_per_unit_and_names_each_bad_cell() -> None:
    r = rules()
    state = r.new_match(r.sample_roster(), SEED)
    seat = state.acting
    units = [u.id for u in state.units if u.owner == seat]
    hexes = [h.label for h in r.rules.board.deploy_hexes(state.legions[seat].slot)]
    good = _read(r, state, seat, units={u: {"deploy": h} for u, h in zip(units, hexes, strict=False)},
                 seat={seat: {"ready": True}})
    assert good.ready and not good.problems
    assert [p.unit for p in good.orders.deploy[seat]] == units
    assert good.consumed == {seat, *units}

    far = next(h.label for h in r.rules.board.cells() if h.label not in hexes)
    bad = _read(r, state, seat, units={units[0]: {"deploy": "Z99"}, units[1]: {"deploy": far},
                                      units[2]: {"deploy": hexes[0]}, units[3]: {"deploy": hexes[0]}},
                seat={seat: {"ready": True}})
    assert not bad.ready
    assert "Deploy on 'Z99' is not a hex of the map: write one of " + hexes[0] in bad.problems[units[0]][0]
    assert bad.problems[units[1]][0].startswith(f"Deploy on {far}: {far} is ")
    assert f"; write a plain in or next to your baseline, one of {hexes[0]}" in bad.problems[units[1]][0]
    assert f"{units[2]}'s row names that hex already" in bad.problems[units[3]][0]
    assert "every unit is deployed at once" in bad.problems[seat][0] and units[4] in bad.problems[seat][0]
    assert units[0] not in bad.consumed  # left in the sheet to be mended


# -- actions -------------------------------------------------------------------------------
def test_action_rows_read_in_order_with_go_holding_the_turn_open() -> None:
    r = rules()
    state = _started(r)
    seat = state.acting
    mine = [u for u in state.units if u.owner == seat]
    enemy = next(u for u in state.units if u.owner != seat)
    assert enemy.hidden and enemy.at is not None
    got = _read(r, state, seat, actions={
        "Row 1": {"unit": mine[0].id.upper(), "action": "Move", "target": "e4"},
        "Row 2": {"unit": mine[1].id, "action": "attack", "target": enemy.token},
        "Row 3": {"unit": mine[2].id, "action": "attack", "target": enemy.at.label, "side": "left"},
    }, seat={seat: {"go": True}})
    assert not got.problems and got.go and not got.ready
    assert got.orders.hold == (seat,)
    assert got.orders.actions[seat] == (Action(ActionKind.MOVE, mine[0].id, "e4"),
                                        Action(ActionKind.ATTACK, mine[1].id, enemy.token),
                                        Action(ActionKind.ATTACK, mine[2].id, enemy.at.label))
    assert got.consumed == {seat, "Row 1", "Row 2", "Row 3"}
    ready = _read(r, state, seat, actions={"Row 1": {"unit": mine[0].id, "action": "move", "target": "E4"}},
                  seat={seat: {"ready": True, "go": True}})
    assert ready.ready and ready.orders.hold == ()
    batch = rules(WodSettings(resolve=ResolveMode.BATCH))
    late = _read(batch, _started(batch), seat, seat={seat: {"go": True}})
    assert late.orders.hold == ()  # with resolve = batch, Go holds nothing open: only Ready resolves


def test_every_unreadable_action_cell_is_named_with_what_is_accepted() -> None:
    r = rules()
    state = _started(r)
    seat = state.acting
    unit = next(u for u in state.units if u.owner == seat)
    cases: dict[str, tuple[dict[str, CellValue], str]] = {
        "no action": ({"unit": unit.id, "target": "C3"},
                      "Action is empty: choose move, attack, call, ability or council"),
        "bad action": ({"unit": unit.id, "action": "fly", "target": "C3"}, "Action 'fly' is not an action"),
        "no unit": ({"action": "move", "target": "C3"}, f"Unit is empty: write one of {unit.id}"),
        "enemy unit": ({"unit": "Zed-1", "action": "move", "target": "C3"},
                       "Unit 'Zed-1' is not one of your units on the board: write one of"),
        "no hex": ({"unit": unit.id, "action": "move", "target": "Q77"},
                   "Target 'Q77' is not a hex of the map: write the destination hex, like C4"),
        "no target": ({"unit": unit.id, "action": "attack"}, "Target is empty: write the target's hex (C4)"),
        "no ability": ({"unit": unit.id, "action": "ability", "target": "Dance"},
                       f"Target 'Dance': {unit.id} ({unit.card}) has no such ability; write one it can activate:"),
        "no card": ({"unit": unit.id, "action": "call", "target": "Dragon", "side": "left"},
                    "Target 'Dragon' is not a card in your barrack: write one of"),
        "no side": ({"unit": unit.id, "action": "call", "target": state.legions[seat].barrack[0]},
                    "Side is empty: choose left or right of the caller"),
        "bad enhancement": ({"unit": unit.id, "action": "call", "target": state.legions[seat].barrack[0],
                             "side": "right", "enhancements": "wings"}, "Enhancements: unknown enhancement 'wings'"),
        "no tactic": ({"action": "council", "target": "Nap"}, "Target 'Nap' is not a tactic: write one of"),
    }
    for name, (cells, message) in cases.items():
        got = _read(r, state, seat, actions={"Row 1": cells, "Row 2": {"unit": unit.id, "action": "move",
                                                                         "target": "C3"}},
                    seat={seat: {"ready": True}})
        assert message in " ".join(got.problems.get("Row 1", [])), (name, got.problems)
        assert "waiting: Row 1 above cannot be read yet" in got.problems["Row 2"][0], name
        assert not got.ready and seat not in got.orders.actions, name  # Ready waits until every row reads
        assert got.consumed == {seat}, name


def test_an_empty_row_is_skipped_not_a_stop() -> None:
    r = rules()
    state = _started(r)
    seat = state.acting
    unit = next(u for u in state.units if u.owner == seat)
    got = _read(r, state, seat, actions={"Row 1": {"unit": unit.id, "action": "move", "target": "C3"}, "Row 2": {},
                                         "Row 3": {"unit": unit.id, "action": "move", "target": "C4"}})
    assert [a.target for a in got.orders.actions[seat]] == ["C3", "C4"] and not got.problems


def test_an_attack_target_answers_alike_for_a_hidden_enemy_id_and_a_made_up_one() -> None:
    r = rules()
    state = _started(r)
    seat = state.acting
    unit = next(u for u in state.units if u.owner == seat)
    hidden = next(u for u in state.units if u.owner != seat and u.hidden)

    def problem(target: str) -> str:
        got = _read(r, state, seat, actions={"Row 1": {"unit": unit.id, "action": "attack", "target": target}})
        return got.problems["Row 1"][0].replace(target, "X")

    assert problem(hidden.id) == problem("Nobody-9")
    assert "names no hex, exposed unit or face-down token" in problem(hidden.id)


def test_a_unit_of_the_other_player_in_an_action_or_reaction_row_says_whose_it_is_and_a_hidden_id_does_not() -> None:
    """Issue 20, finding 5: the other player's unit typed under Unit was "not one of your units on the board"; it now
    says whose it is, by the name the board shows (its token while face down). A face-down unit's real id answers
    as a made-up name does: the row must not tell its player which hidden units exist."""
    r = rules()
    state = _started(r)
    seat = state.acting
    other = next(p for p in state.legions if p != seat)
    hidden = next(u for u in state.units if u.owner == other and u.hidden and u.token)
    shown = next(u for u in state.units if u.owner == other and u.at is not None and u is not hidden)
    shown.hidden = False
    mine = next(u for u in state.units if u.owner == seat and u.at is not None)

    def action(unit: str) -> str:
        got = _read(r, state, seat, actions={"Row 1": {"unit": unit, "action": "move", "target": "C3"}})
        return got.problems["Row 1"][0]

    def reaction(unit: str) -> str:
        got = _read(r, state, other, reactions={"Reaction 1": {"unit": unit, "ability": "x", "when": "attacked"}})
        return got.problems["Reaction 1"][0]

    assert action(hidden.token).startswith(f"Unit {hidden.token!r} is {other}'s, not yours: write one of")
    assert action(shown.id).startswith(f"Unit {shown.id!r} is {other}'s, not yours")
    assert action(hidden.id).replace(hidden.id, "X") == action("Nobody-9").replace("Nobody-9", "X")
    assert "not one of your units on the board" in action(hidden.id)
    mine.hidden = False
    assert reaction(mine.id).startswith(f"Unit {mine.id!r} is {seat}'s, not yours")


def test_a_call_then_orders_for_the_called_unit_in_the_same_list() -> None:
    r = rules()
    state = _started(r)
    seat = state.acting
    unit = next(u for u in state.units if u.owner == seat)
    card = state.legions[seat].barrack[0]
    got = _read(r, state, seat, actions={
        "Row 1": {"unit": unit.id, "action": "call", "target": card, "side": "right", "new_id": "Scout",
                  "enhancements": "health, movement", "aim": "ignored for a call"},
        "Row 2": {"unit": "scout", "action": "move", "target": "C3"}})
    assert not got.problems
    call, move = got.orders.actions[seat]
    assert (call.side, call.id, [e.value for e in call.enhancements], call.aim) == (Side.RIGHT, "Scout",
                                                                                      ["health", "movement"], "")
    assert move.unit == "Scout"


@pytest.mark.parametrize(("new_id", "said"), [
    ("{other} token 1", "the name of a face-down token"), ("{other}-C1", "the id sheets-gm gives"),
    ("{other}-9", "the id sheets-gm gives"), ("C3", "the name of a hex"),
    ("Scout\nof the east", "U+000A LINE FEED"), ("Sc\u200bout", "U+200B ZERO WIDTH SPACE"),
    ("Scout " + "x" * 300, "characters long"),
])
def test_a_called_unit_s_new_id_that_could_pass_for_another_unit_is_refused_by_name(new_id: str, said: str) -> None:
    """A called unit's New id is the name everyone reads in the log and types as a target, and a target names a unit
    by its id first: an id that is an enemy token's name ('Bo token 1'), another legion's own ids or calls to come,
    a hex, a line break, an invisible character or a pasted paragraph is refused in its row, with what is accepted;
    an id of her own choosing is read as before."""
    r = rules()
    state = _started(r)
    seat = state.acting
    other = next(s for s in state.legions if s != seat)
    unit = next(u for u in state.units if u.owner == seat)
    card = state.legions[seat].barrack[0]
    call = {"unit": unit.id, "action": "call", "target": card, "side": "right"}
    got = _read(r, state, seat, actions={"Row 1": {**call, "new_id": new_id.format(other=other)}})
    assert said in " ".join(got.problems.get("Row 1", [])), got.problems
    assert seat not in got.orders.actions
    fine = _read(r, state, seat, actions={"Row 1": {**call, "new_id": "Scout of the east"}})
    assert not fine.problems and fine.orders.actions[seat][0].id == "Scout of the east"


# -- reactions and the other seat ----------------------------------------------------------
def test_the_turn_waits_for_the_acting_player_only_and_the_reactions_are_read() -> None:
    r = rules()
    state = _started(r)
    seat = state.other(state.acting)
    reactor = next(u for u in state.units if u.owner == seat
                   and any(a.type.value == "reaction" for a in state.card_of(u).abilities))
    ability = next(a.name for a in state.card_of(reactor).abilities if a.type.value == "reaction")
    plain = next(u for u in state.units if u.owner == seat
                 and not any(a.type.value == "reaction" for a in state.card_of(u).abilities))
    got = _read(r, state, seat, reactions={
        "Reaction 1": {"unit": reactor.id, "ability": ability.lower()},
        "Reaction 2": {"unit": reactor.id, "ability": ability, "when": "near", "within": 2.0},
        "Reaction 3": {"unit": plain.id, "ability": "Parry", "when": "soon", "within": "far"},
    }, actions={"Row 1": {"unit": reactor.id, "action": "move", "target": "C3"}})
    window = r.window(state)
    assert window is not None and window.awaited == (state.acting,) and not got.go
    assert got.orders.reactions[seat] == (Reaction(reactor.id, ability.lower()),
                                          Reaction(reactor.id, ability, Trigger.NEAR, 2))
    bad = " ".join(got.problems["Reaction 3"])
    assert f"{plain.id} ({plain.card}) has no such reaction; its reactions: none" in bad
    assert "When 'soon': choose attacked, near or any" in bad
    assert "Within 'far' is not a number of hexes" in bad
    assert "Row 1" in got.held and "Row 1" not in got.problems  # kept as typed for her own turn, not an error
    assert not got.orders.actions


@pytest.mark.parametrize("within", [float("nan"), float("inf"), -1, 2.5, True, "two"])
def test_a_within_that_is_no_whole_number_of_hexes_is_named(within: CellValue) -> None:
    r = rules()
    state = _started(r)
    seat = state.other(state.acting)
    unit = next(u for u in state.units if u.owner == seat)
    got = _read(r, state, seat, reactions={"Reaction 1": {"unit": unit.id, "ability": "x", "within": within}})
    assert any(p.startswith("Within ") and "is not a number of hexes" in p for p in got.problems["Reaction 1"])


def test_a_standing_reaction_of_a_fallen_unit_is_left_out_without_a_problem() -> None:
    r = rules()
    state = _started(r).copy()
    seat = state.other(state.acting)
    fallen = next(u for u in state.units if u.owner == seat)
    state.units.remove(fallen)
    state.dead.append(fallen)
    got = _read(r, state, seat, reactions={"Reaction 1": {"unit": fallen.id, "ability": "Parry"},
                                           "Reaction 2": {"unit": "Nobody-1", "ability": "Parry"}})
    assert "Reaction 1" not in got.problems and not got.orders.reactions
    assert "Unit 'Nobody-1' is not one of your units on the board" in got.problems["Reaction 2"][0]


def test_surrender_is_read_in_the_battle_and_refused_while_deploying() -> None:
    r = rules()
    state = _started(r)
    seat = state.other(state.acting)
    got = _read(r, state, seat, seat={seat: {"surrender": "Surrender"}})
    assert got.orders.surrender == (seat,) and got.go
    early = r.new_match(r.sample_roster(), SEED)
    refused = _read(r, early, early.acting, seat={early.acting: {"surrender": "surrender"}})
    assert refused.orders.surrender == ()
    assert "not while deploying" in refused.problems[early.acting][0]


# -- typing orders -------------------------------------------------------------------------
def _normal(orders: WodOrders) -> dict[str, Any]:
    return {k: {s: v for s, v in part.items() if v} if isinstance(part, dict) else part
            for k, part in orders_to_json(orders).items()}


@pytest.mark.parametrize("bot", ["advance", "cautious", "random"])
def test_bot_orders_typed_into_the_sheet_read_back_as_the_same_orders(bot: str) -> None:
    r = rules()
    sheet = _sheet(r)
    state = r.new_match(r.sample_roster(), SEED)
    windows = 0
    while (window := r.window(state)) is not None and windows < 60:
        dice = r.dice(SEED, state)
        for seat in window.seats:
            orders = bots_of(r)[bot].make(f"{bot}/{seat}").orders(state, seat, dice)
            typed = sheet.typed_cells(state, window, seat, orders)
            seat_cells = {seat: {**typed.get("seat", {}).get(seat, {}), "ready": seat not in orders.hold}}
            tables = {t: _rows(t, rows, window) for t, rows in {**typed, "seat": seat_cells}.items()}
            read = sheet.read_orders(state, window, seat, tables)
            assert not read.problems, (window.label, read.problems)
            assert _normal(read.orders) == _normal(r.merge_orders({seat: orders})), window.label
        state, _events, _orders = step(r, state, bot)
        windows += 1
    assert windows > 5


# -- what is drawn -------------------------------------------------------------------------
def test_the_board_shows_tokens_exposed_units_terrain_and_what_waits_for_the_gm() -> None:
    r = rules()
    state = _started(r)
    sheet = _sheet(r)
    empty = sheet.board(state)
    text = "\n".join(str(v) for row in empty.values for v in row)
    hidden = {u.id for u in state.units if u.hidden}
    assert hidden and not _names(text, hidden)
    assert all(u.token in text for u in state.units)
    assert "A1 ⌂ base 1" in text and "◆ mine" in text and "♣ forest" in text
    assert "Waiting for the GM: nothing" in text and "Fallen: none yet" in text
    shown = _with_pending(state, 2)
    unit = next(u for u in shown.units if not u.hidden)
    drawn = sheet.board(shown)
    assert drawn.height == empty.height and drawn.width == empty.width  # values rewrite the same cells
    cells = [str(v) for row in drawn.values for v in row]
    assert any(c.startswith((f"▼ {unit.id} {unit.card}", f"▲ {unit.id} {unit.card}")) for c in cells)
    assert any(f"2/{shown.health(unit)} damage ●●" in c for c in cells)
    assert f"Waiting for the GM: #1 Fire Volley ({unit.id}), #2 Fire Volley ({unit.id})" in cells
    # a match over waits for nobody: the last board of a demo still listed three Parry effects, units long dead
    over = shown.copy()
    over.winner, over.phase = over.seats[0], Phase.OVER
    cells = [str(v) for row in sheet.board(over).values for v in row]
    assert "Waiting for the GM: nothing: the match is over" in cells


def test_a_face_down_tokens_damage_an_exposed_units_enhancements_and_each_hex_outlined_are_drawn() -> None:
    r = rules()
    state = _started(r).copy()
    token = next(u for u in state.units if u.hidden)
    token.damage = 1
    exposed = next(u for u in state.units if u is not token)
    exposed.hidden = False
    exposed.enhancements = (Enhancement.TOUGHNESS, Enhancement.MOVEMENT)
    drawn = _sheet(r).board(state)
    cells = [str(v) for row in drawn.values for v in row]
    assert any(f"{token.token}\nface down · 1 damage" in c for c in cells)
    assert not _names("\n".join(cells), {u.id for u in state.units if u.hidden})
    line = next(c for c in cells if f"{exposed.id} {exposed.card}" in c)
    assert line.splitlines()[2] == "+ " + ", ".join(e.display for e in exposed.enhancements)
    hexes = [f for f in drawn.fills if f.border]
    assert len(hexes) == len(list(r.rules.board.cells()))


def test_a_blow_past_a_units_health_says_so_rather_than_damage_over_health() -> None:
    assert damage_left(7, 5) == "all 5 health lost" and damage_left(2, 5) == "2/5 damage"


def _with_pending(state: WodState, count: int) -> WodState:
    """A copy with a unit of the player waiting for her turn exposed, damaged, with two tokens on it, and
    ``count`` of its Fire Volleys waiting for the GM."""
    shown = state.copy()
    unit = next(u for u in shown.units if u.owner != shown.acting)  # tokens stay on it through her turn
    unit.hidden, unit.damage, unit.tokens = False, 2, 2
    shown.pending = [Pending(n, 3, unit.owner, unit.id, "Fire Volley", "Deal 1 damage.", "B4")
                     for n in range(1, count + 1)]
    return shown


def test_the_gm_s_tab_lists_the_effects_to_apply_and_every_unit() -> None:
    r = rules()
    state = _with_pending(_started(r), PENDING_LINES + 3)
    panel = _sheet(r).panel(state, GM)
    unit = next(u for u in state.units if not u.hidden)
    assert panel[0][0].startswith(  # type: ignore[union-attr]
        f"Effects to apply ({PENDING_LINES + 3}): sheets-gm adjust -c MATCH.toml --damage")  # the sync names the config
    assert panel[2] == [1, unit.id, "Deal 1 damage.", "Fire Volley", "B4", unit.owner, 3]
    assert panel[1 + PENDING_LINES] == ["… and 4 more"]
    listed = {row[0] for row in panel[PENDING_LINES + 4:]}
    assert listed == {u.id for u in state.units}  # hidden ones too: the GM sees everything
    assert any(row[2:3] == [f"{u.card} · face down: {u.token}"] for row in panel for u in state.units if u.hidden)


def test_the_status_line_carries_both_morale_and_fatigue_tracks() -> None:
    r = rules()
    state = _started(r)
    line = _sheet(r).status(state, r.window(state), None)
    for seat in state.seats:
        legion = state.legions[seat]
        assert f"{seat}: morale {legion.morale} · fatigue {legion.fatigue}/8" in line
    assert line.startswith(f"Turn 1: {state.acting}'s turn.")
    acting = next(part for part in line.split(" | ") if f"{state.acting}: morale" in part)
    assert acting.endswith("5 command tokens")  # her first turn's tokens, as she plays from them


def test_a_panel_shows_her_units_hidden_or_not_and_nothing_of_the_other_s() -> None:
    r = rules()
    state = _started(r)
    for seat in state.seats:
        panel = _sheet(r).panel(state, seat)
        text = "\n".join(str(v) for row in panel for v in row)
        mine = [u for u in state.units if u.owner == seat]
        assert all(u.id in text and f"face down: {u.token}" in text for u in mine)
        theirs = {u.id for u in state.units if u.owner != seat}
        assert not _names(text, theirs)
        assert panel[0][:2] == ["Your legion", f"morale {state.legions[seat].morale}"]
        assert str(panel[0][2]).startswith("fatigue 0/8 · ") and "command tokens · council: none" in str(panel[0][2])
        assert any(row and row[0] == "Barrack" for row in panel)
        barrack = panel[[row[:1] for row in panel].index(["Barrack"]) + 1:]
        costs = [row[1] for row in barrack[:barrack.index([])] if len(row) > 1]
        # a cost in words, not a bare number drawn right-aligned against the Stats beside it
        assert costs and all(re.fullmatch(r"\d+ crystals?", str(c)) for c in costs), costs


# -- through the sync ----------------------------------------------------------------------
def _cells(backend: MemoryBackend) -> str:
    return "\n".join(str(v) for tab in backend.tabs.values() for v in tab.values() if v not in (None, ""))


@dataclass
class _SheetMatch:
    """A sample match in memory spreadsheets (board, engine, one per player), both deployments played by bots."""

    rules: WodRuleset
    sheets: MatchSheets
    board: MemoryBackend
    seats: dict[str, MemoryBackend]
    tabs: MatchTabs
    state: WodState

    def type(self, seat: str, table: str, index: int, cells: Mapping[str, CellValue]) -> None:
        """Type ``cells`` (by column key) into row ``index`` of one of ``seat``'s tables."""
        placed = self.tabs.orders(seat).table(table)
        for key, value in cells.items():
            self.seats[seat].type(f"Orders {seat}", placed.cell(index, key), value)

    def value(self, seat: str, table: str, index: int, key: str) -> CellValue:
        """What a cell of one of ``seat``'s tables holds."""
        return self.seats[seat].value(f"Orders {seat}", self.tabs.orders(seat).table(table).cell(index, key))


def _deployed_in_sheets(r: WodRuleset) -> _SheetMatch:
    roster = r.sample_roster()
    board, engine = MemoryBackend("board"), MemoryBackend("engine")
    seats = {s: MemoryBackend(s) for s in roster.seats}
    sheets = MatchSheets(roster.seats, board, engine, tuple(seats[s] for s in roster.seats))
    create_match(sheets, r, roster, seed=SEED)
    bots = {s: bots_of(r)["advance"].make(f"sheets/{s}") for s in roster.seats}
    for _ in range(2):  # both deployments, typed into the sheets
        type_bot_orders(sheets, type(r), bots)
        state = poll(sheets, type(r), now=NOW).state
    assert isinstance(state, WodState)
    return _SheetMatch(r, sheets, board, seats, MatchTabs(_sheet(r).spec, roster.seats, False), state)


def test_feedback_before_a_row_resolves_never_shows_a_hidden_target_or_the_dice() -> None:
    r = rules()
    match = _deployed_in_sheets(r)
    state = match.state
    seat = state.acting
    unit = next(u for u in state.units if u.owner == seat)
    enemy = next(u for u in state.units if u.owner != seat)
    assert enemy.hidden and enemy.at is not None
    beside = next(h for h in r.rules.board.neighbours(enemy.at)
                  if state.unit_at(h) is None and not r.rules.board.terrain[h].obstacle)
    adjust_match(match.sheets, type(r), [Adjustment(GmKind.MOVE, unit.id, beside.label, "set the test up")])
    match.type(seat, "actions", 0, {"unit": unit.id, "action": "attack", "target": enemy.token})
    report = poll(match.sheets, type(r), now=NOW)  # not ready: an idle poll writes feedback only
    assert not report.resolved and report.feedback_written
    assert not _names(_cells(match.seats[seat]), {u.id for u in state.units if u.owner != seat})
    seat_feedback = str(match.value(seat, "seat", 0, "feedback"))
    assert "damage" not in seat_feedback and "Tick Ready" in seat_feedback
    assert match.value(seat, "actions", 0, "feedback") == f"Kept for turn 1 · {seat}."


def test_a_gm_reason_naming_a_face_down_unit_by_its_id_is_refused_before_the_public_log_reads_it() -> None:
    """The GM names a face-down unit by its id in the option (--damage Bo-6=1), and naturally in the reason too. The
    reason goes to the public Log and the other player's View word for word: one naming a face-down unit's id (or a
    hex's unit by id) is refused, nothing written, saying how to name it; the token's name is accepted."""
    r = rules()
    match = _deployed_in_sheets(r)
    state = match.state
    enemy = next(u for u in state.units if u.owner != state.acting and u.hidden)
    before = match.state
    with pytest.raises(BetweenWindowsError, match=f"names {enemy.id}, a face-down unit.*{enemy.token}"):
        adjust_match(match.sheets, type(r), [Adjustment(GmKind.DAMAGE, enemy.id, "1",
                                                        f"Fire Volley on {enemy.id.lower()} from the hill")])
    assert read_match(match.sheets, type(r)).record.state == before
    report = adjust_match(match.sheets, type(r), [Adjustment(GmKind.DAMAGE, enemy.id, "1",
                                                             f"Fire Volley on {enemy.token}")])
    assert not any(enemy.id in e.text for e in report.events)


def test_standing_reactions_stay_typed_from_turn_to_turn_and_fire_in_a_later_one() -> None:
    r = rules()
    match = _deployed_in_sheets(r)
    state = match.state
    acting, reactor = state.acting, state.other(state.acting)
    unit = _first(state, reactor, "War Drummer")  # "before an enemy action next to me"
    ability = next(a.name for a in state.card_of(unit).abilities if a.type.value == "reaction")
    match.type(reactor, "reactions", 0, {"unit": unit.id, "ability": ability, "when": "any"})

    def end_turn(seat: str) -> None:
        match.type(seat, "seat", 0, {"ready": True})
        assert poll(match.sheets, type(r), now=NOW).resolved

    end_turn(acting)  # turn 1: nothing done, the reaction had nothing to fire before
    end_turn(reactor)  # turn 2: hers
    assert match.value(reactor, "reactions", 0, "unit") == unit.id  # still standing
    mover = next(u for u in state.units if u.owner == acting)
    assert mover.at is not None
    beside = next(h for h in r.rules.board.neighbours(mover.at)
                  if state.unit_at(h) is None and not r.rules.board.terrain[h].obstacle)
    adjust_match(match.sheets, type(r), [Adjustment(GmKind.MOVE, unit.id, beside.label, "set the test up")])
    to = min(reachable(r.rules.board, r.settings, state, mover), key=lambda h: (h.row, h.col))
    match.type(acting, "actions", 0, {"unit": mover.id, "action": "move", "target": to.label})
    end_turn(acting)  # turn 3: her reaction fires before the first row
    log = _cells(match.board)
    assert f"{reactor} reacts before {acting}'s move: {unit.id} ({unit.card}) uses {ability}" in log
    assert match.value(reactor, "reactions", 0, "unit") == unit.id


def test_a_token_revealed_by_a_row_is_named_again_by_later_rows_and_after_the_go() -> None:
    """Issue 14: naming a face-down token that an earlier row of the turn revealed is what a player does."""
    r = rules()
    match = _deployed_in_sheets(r)
    state = match.state
    seat = state.acting
    attacker = _first(state, seat, "Shieldbearer")
    enemy = _first(state, state.other(seat), "Tusk Warlord")  # 8 health: lives on
    assert enemy.hidden and enemy.at is not None
    beside = next(h for h in r.rules.board.neighbours(enemy.at)
                  if state.unit_at(h) is None and not r.rules.board.terrain[h].obstacle)
    adjust_match(match.sheets, type(r), [Adjustment(GmKind.MOVE, attacker.id, beside.label, "set the test up")])
    attack = {"unit": attacker.id, "action": "attack", "target": enemy.token}
    match.type(seat, "actions", 0, attack)
    match.type(seat, "actions", 1, {**attack, "target": enemy.token.upper()})
    match.type(seat, "seat", 0, {"go": True})
    report = poll(match.sheets, type(r), now=NOW)
    assert report.resolved and not report.rejected
    assert "refused" not in _cells(match.seats[seat])
    assert _cells(match.board).count(f"{attacker.id} attacks {enemy.id}") == 2
    # After the Go the token is face up, and still its name: another unit of hers attacks it by that name.
    second = _first(state, seat, "Sol Commander")
    free = next(h for h in r.rules.board.neighbours(enemy.at) if h != beside and state.unit_at(h) is None
                and not r.rules.board.terrain[h].obstacle)
    adjust_match(match.sheets, type(r), [Adjustment(GmKind.MOVE, second.id, free.label, "set the test up")])
    match.type(seat, "actions", 0, {**attack, "unit": second.id})
    match.type(seat, "seat", 0, {"ready": True})
    assert poll(match.sheets, type(r), now=NOW, dry_run=True).rejected == []
    report = poll(match.sheets, type(r), now=NOW)
    assert report.resolved and not report.rejected
    assert f"{second.id} attacks {enemy.id}" in _cells(match.board)


@dataclass
class _Interrupted:
    """Three action rows typed and Go ticked; the opponent's War Drummer stands ready to react to an attack."""

    match: _SheetMatch
    acting: str
    reactor: str
    drummer: Any
    ability: str
    attacker: Any
    archer: Any
    step_to: Any
    other_to: Any
    rows: list[dict[str, str]]


def _interrupted(r: WodRuleset) -> _Interrupted:
    """Row 1 moves an archer, Row 2 attacks the drummer by its token (its reaction fires first), Row 3 moves."""
    match = _deployed_in_sheets(r)
    state = match.state
    acting, reactor = state.acting, state.other(state.acting)
    drummer = _first(state, reactor, "War Drummer")
    ability = next(a.name for a in state.card_of(drummer).abilities if a.type.value == "reaction")
    attacker = _first(state, acting, "Shieldbearer")
    archer = _first(state, acting, "Sun Archer")
    assert drummer.at is not None and archer.at is not None
    beside = next(h for h in r.rules.board.neighbours(drummer.at)
                  if state.unit_at(h) is None and not r.rules.board.terrain[h].obstacle)
    adjust_match(match.sheets, type(r), [Adjustment(GmKind.MOVE, attacker.id, beside.label, "set the test up")])
    match.type(reactor, "reactions", 0, {"unit": drummer.id, "ability": ability, "when": "attacked"})
    step_to = min(reachable(r.rules.board, r.settings, state, archer), key=lambda h: (h.row, h.col))
    other, other_to = next((u, h) for u in state.units if u.owner == acting and u not in (archer, attacker)
                           for h in sorted(reachable(r.rules.board, r.settings, state, u), key=lambda h: (h.row, h.col))
                           if r.rules.board.distance(h, step_to) > 1)
    rows = [{"unit": archer.id, "action": "move", "target": step_to.label},
            {"unit": attacker.id, "action": "attack", "target": drummer.token},
            {"unit": other.id, "action": "move", "target": other_to.label}]
    for n, cells in enumerate(rows):
        match.type(acting, "actions", n, cells)
    match.type(acting, "seat", 0, {"go": True})
    return _Interrupted(match, acting, reactor, drummer, ability, attacker, archer, step_to, other_to, rows)


def test_rows_a_reaction_stops_stay_on_her_sheet_moved_up_saying_why_and_resolve_at_the_next_go() -> None:
    """Issue 14: the rows from the one a reaction interrupted were cleared unresolved; she had to type them again."""
    r = rules()
    it = _interrupted(r)
    match, acting, reactor, drummer, ability, attacker = (it.match, it.acting, it.reactor, it.drummer, it.ability,
                                                          it.attacker)
    archer, step_to, other_to, rows = it.archer, it.step_to, it.other_to, it.rows
    assert poll(match.sheets, type(r), now=NOW).resolved
    log = _cells(match.board)
    assert f"{reactor} reacts before {acting}'s attack: {drummer.id} ({drummer.card}) uses {ability}" in log
    assert f"moves from {archer.at.label} to {step_to.label}" in log and f"attacks {drummer.id}" not in log
    typed = [{k: match.value(acting, "actions", n, k) for k in ("unit", "action", "target")} for n in range(3)]
    assert typed == [rows[1], rows[2], {"unit": "", "action": "", "target": ""}]  # Row 1 used, the rest moved up
    who = f"{reactor}'s {drummer.id} ({ability}) reacted before"
    again = "once the GM has applied it, tick Go or Ready again."
    assert match.value(acting, "actions", 0, "feedback") == f"Not resolved, kept for turn 1 · {acting}: {who} this " \
                                                             f"row; {again}"
    assert match.value(acting, "actions", 1, "feedback") == f"Not resolved, kept for turn 1 · {acting}: {who} a row " \
                                                             f"above; {again}"
    assert match.value(acting, "seat", 0, "go") is False
    idle = poll(match.sheets, type(r), now=NOW)  # read again as they stand: nothing waits, the reason stays
    assert not idle.resolved and idle.rejected == [] and f"{who} this row" in str(match.value(acting, "actions", 0,
                                                                                              "feedback"))
    adjust_match(match.sheets, type(r), [Adjustment(GmKind.DONE, "1", "", "the drum is heard")])
    assert f"{who} this row" in str(match.value(acting, "actions", 0, "feedback"))
    match.type(acting, "seat", 0, {"go": True})
    assert poll(match.sheets, type(r), now=NOW).resolved
    log = _cells(match.board)
    assert f"{attacker.id} attacks {drummer.id}" in log and f"to {other_to.label}" in log
    assert all(match.value(acting, "actions", n, "unit") == "" for n in range(3))


def test_a_bot_typing_its_list_after_a_reaction_replaces_the_rows_kept() -> None:
    r = rules()
    it = _interrupted(r)
    assert poll(it.match.sheets, type(r), now=NOW).resolved

    class OneMove:
        """Decides one move, fewer rows than the two kept."""

        def orders(self, state: WodState, seat: str, dice: Any) -> WodOrders:
            return WodOrders(actions={seat: (Action(ActionKind.MOVE, it.archer.id, it.archer.at.label),)})

    type_bot_orders(it.match.sheets, type(r), {it.acting: OneMove()}, ready=False)
    assert [it.match.value(it.acting, "actions", n, k) for n in range(2) for k in ("unit", "target")] == [
        it.archer.id, it.archer.at.label, "", ""]


def test_a_row_refused_at_a_go_stays_on_her_sheet_saying_why() -> None:
    """The rules promise a refused row's feedback says why; a Go cleared it, the reason only in her log."""
    match = _deployed_in_sheets(rules())
    r, state = match.rules, match.state
    seat = state.acting
    mover = _first(state, seat, "Sun Archer")
    to = min(reachable(r.rules.board, r.settings, state, mover), key=lambda h: (h.row, h.col))
    match.type(seat, "actions", 0, {"unit": mover.id, "action": "move", "target": "I8"})  # beyond its speed
    match.type(seat, "actions", 1, {"unit": mover.id, "action": "move", "target": to.label})
    match.type(seat, "seat", 0, {"go": True})
    assert poll(match.sheets, type(r), now=NOW).resolved
    assert [match.value(seat, "actions", n, "target") for n in range(2)] == ["I8", ""]  # moved up; the move done
    said = str(match.value(seat, "actions", 0, "feedback"))
    assert said.startswith(f"✘ Not resolved, kept for turn 1 · {seat}: refused: I8 is ") and "speed is 2" in said


@pytest.mark.parametrize("resolve", list(ResolveMode))
def test_the_rows_a_reaction_stops_are_named_unused_with_what_to_tick(resolve: ResolveMode) -> None:
    r = rules(WodSettings(resolve=resolve))
    state = _started(r)
    acting, reactor = state.acting, state.other(state.acting)
    drummer = _first(state, reactor, "War Drummer")
    mover = _first(state, acting, "Sun Archer")
    state = _beside(r, state, drummer, mover)
    to = min(reachable(r.rules.board, r.settings, state, mover), key=lambda h: (h.row, h.col))
    orders = WodOrders(actions={acting: (Action(ActionKind.MOVE, mover.id, to.label),) * 2},
                       reactions={reactor: (Reaction(drummer.id, "Drum of Dread", Trigger.ANY),)})
    resolution = r.resolve(state, orders, r.dice(SEED, state))
    boxes = "Go or Ready" if resolve is ResolveMode.STEP else "Ready"
    assert resolution.unused == {acting: {
        "Row 1": f"{reactor}'s {drummer.id} (Drum of Dread) reacted before this row; once the GM has applied it, "
                 f"tick {boxes} again",
        "Row 2": f"{reactor}'s {drummer.id} (Drum of Dread) reacted before a row above; once the GM has applied it, "
                 f"tick {boxes} again"}}
    assert r.window(resolution.state) == r.window(state)  # her turn stays open


def test_an_attack_on_an_empty_hex_says_no_unit_stands_there() -> None:
    r = rules()
    state = _started(r)
    seat = state.acting
    unit = _first(state, seat, "Sun Archer")
    empty = next(h for h in r.rules.board.cells() if state.unit_at(h) is None)
    orders = WodOrders(actions={seat: (Action(ActionKind.ATTACK, unit.id, empty.label.lower()),)})
    verdict = r.check(state, orders, r.dice(SEED, state))[0]
    assert not verdict.accepted and verdict.message.endswith(
        f"no unit stands on {empty.label}; attack a hex with an enemy unit on it")


def test_a_hidden_enemy_unit_typed_as_a_row_of_your_units_is_answered_as_a_made_up_one() -> None:
    """A row naming a unit of the other player says whose it is (issue 20, finding 5), unless that unit is face down:
    then its real id answers exactly as a name that exists nowhere, so the row cannot probe the hidden units."""
    r = rules()
    match = _deployed_in_sheets(r)
    state = match.state
    seat = state.acting
    free = len([u for u in state.units if u.owner == seat])
    hidden = next(u for u in state.units if u.owner != seat and u.hidden)
    for index, name in enumerate((hidden.id, "Nobody-9")):
        match.type(seat, "units", free + index, {"deploy": "C3"})
        match.seats[seat].type(f"Orders {seat}", match.tabs.orders(seat).table("units").cell(free + index, "unit"),
                               name)
    report = poll(match.sheets, type(r), now=NOW)
    said = [str(match.value(seat, "units", free + i, "feedback")) for i in (0, 1)]
    assert said[0].replace(hidden.id, "X") == said[1].replace("Nobody-9", "X")
    assert said[1].startswith("✘ This table has no row for Nobody-9 now (its rows are ")
    assert not any(f"{hidden.id} is {hidden.owner}'s" in why for _, why in report.rejected)


def test_an_adjustment_that_ends_the_match_says_so() -> None:
    """A GM adjustment that ends the match reports how it ended (adjust prints it), not an open window."""
    r = rules()
    match = _deployed_in_sheets(r)
    loser = match.state.acting
    quiet = adjust_match(match.sheets, type(r), [Adjustment(GmKind.CRYSTALS, loser, "1", "test")])
    assert quiet.over == ""
    report = adjust_match(match.sheets, type(r), [Adjustment(GmKind.MORALE, loser, "0", "test")])
    assert "glorious victory" in report.over


def test_the_player_waiting_for_her_turn_is_not_asked_for_orders_and_a_ticked_ready_says_what_it_waits_for() -> None:
    spec = sheet_spec("winordie")
    window = Window("4", "turn 4 · Ann", "actions", ("Ann", "Bo"), 4, waits_for=("Ann",))
    actions = next(t for t in spec.inputs if t.name == "actions")
    reactions = next(t for t in spec.inputs if t.standing)
    # issue 93, item 9: it said "turn 4 · Ann waits for Ann"
    assert idle_feedback(window, "Bo", actions, "") == "Not yet: it is turn 4 · Ann; Bo writes here for Bo's own turn."
    assert idle_feedback(window, "Bo", reactions, "").startswith("Nothing set: a reaction written here stays")
    assert idle_feedback(window, "Ann", reactions, "") == idle_feedback(window, "Bo", reactions, "")  # her turn too
    ready_table = next(t for t in spec.inputs if t.of_kind(ColumnKind.READY))
    assert ready_sentence(window, "Ann", ready_table, False, ticked=True) == (
        "Ready is ticked, but Ann counts as ready only once every row marked ✘ is mended or cleared (for turn 4 · "
        "Ann).")
    assert ready_sentence(window, "Ann", ready_table, False).startswith("Tick Ready when")


def test_a_standing_reaction_that_cannot_fire_now_says_why_in_its_row() -> None:
    r = rules()
    state = _started(r).copy()
    seat = state.other(state.acting)
    reactor = next(u for u in state.units if u.owner == seat
                   and any(a.type.value == "reaction" for a in state.card_of(u).abilities))
    ability = next(a.name for a in state.card_of(reactor).abilities if a.type.value == "reaction")
    state.legions[seat].tokens = 0
    orders = WodOrders({state.acting: ()}, (), {seat: (Reaction(reactor.id, ability),)})
    said = [v for v in r.check(state, orders, r.dice(SEED, state)) if v.part == "reaction"]
    assert said and said[0].accepted
    assert f"but {seat} has 0 command tokens: it can fire again once {seat}'s own turn recovers them" \
        in said[0].message


def _stopped_attack(r: WodRuleset) -> tuple[WodState, WodOrders, Unit, Unit]:
    """A state where the acting player's attack row is stopped by the drummer's standing reaction."""
    state = _started(r)
    acting, reactor = state.acting, state.other(state.acting)
    drummer = _first(state, reactor, "War Drummer")
    attacker = next(u for u in state.units if u.owner == acting and state.card_of(u).range == 1)
    target = next(u for u in state.units if u.owner == reactor and u is not drummer)
    assert target.at is not None
    beside = next(h for h in r.rules.board.neighbours(target.at)
                  if state.unit_at(h) is None and not r.rules.board.terrain[h].obstacle)
    state = r.apply_gm_event(state, Adjustment(GmKind.MOVE, attacker.id, beside.label, "set the test up")).state
    state = _beside(r, state, drummer, state.unit(attacker.id) or attacker)
    attacker = state.unit(attacker.id) or attacker
    target = state.unit(target.id) or target
    assert target.at is not None
    orders = WodOrders(actions={acting: (Action(ActionKind.ATTACK, attacker.id, target.at.label),)},
                       reactions={reactor: (Reaction(drummer.id, "Drum of Dread", Trigger.ANY),)})
    stopped = r.resolve(state, orders, r.dice(SEED, state))
    assert stopped.unused, "the reaction stops the attack"
    return stopped.state, orders, attacker, target


def test_the_gm_cancels_the_action_a_reaction_stopped_and_its_row_does_nothing() -> None:
    r = rules()
    state, orders, attacker, target = _stopped_attack(r)
    tokens = state.legions[state.acting].tokens
    parried = r.apply_gm_event(state, Adjustment(GmKind.CANCEL, attacker.id, reason="Parry")).state
    done = r.resolve(parried, orders, r.dice(SEED, parried))
    after = done.state.unit(target.id)
    assert after is not None and after.damage == target.damage
    assert any(v.message.endswith("cancelled by the GM (Parry): it does nothing.") for v in done.verdicts)
    name = public_name(parried, attacker)  # its token while it is face down
    assert any(e.text == f"{name}'s attack is cancelled: Parry." for e in done.events)
    assert done.state.legions[state.acting].tokens == tokens - 1 and not done.state.changes


def test_the_gm_takes_dice_and_damage_off_a_stopped_attack_and_only_the_acting_players_unit() -> None:
    r = rules()
    state, orders, attacker, target = _stopped_attack(r)
    braced = r.apply_gm_event(state, Adjustment(GmKind.DICE, attacker.id, "-99", "Brace", relative=True)).state
    done = r.resolve(braced, orders, r.dice(SEED, braced))
    after = done.state.unit(target.id)
    assert after is not None and after.damage == target.damage  # no dice, no damage
    assert any("roll nothing" in e.text for e in done.events)
    assert any("− 99 by the GM (Brace)" in e.text for e in done.events)  # issue 64: the sum names the GM's dice
    frenzied = r.apply_gm_event(state, Adjustment(GmKind.DICE, attacker.id, "+1", "Frenzy", relative=True)).state
    done = r.resolve(frenzied, orders, r.dice(SEED, frenzied))
    assert any(" + 1 by the GM (Frenzy)" in e.text and e.text.startswith(f"{attacker.id} attacks")
               for e in done.events), [e.text for e in done.events]
    softened = r.apply_gm_event(state, Adjustment(GmKind.SOFTEN, attacker.id, "99", "Shield")).state
    done = r.resolve(softened, orders, r.dice(SEED, softened))
    assert any("(99 less, by the GM)" in e.text for e in done.events)
    with pytest.raises(ValueError, match="only the acting player's action a reaction stopped can be changed"):
        r.apply_gm_event(state, Adjustment(GmKind.CANCEL, target.id, reason="Parry"))
    events = events_from_options(state.seats, {"cancel": [attacker.id], "dice": [f"{attacker.id}=-1"]}, "Parry")
    assert [(e.kind, e.value) for e in events] == [(GmKind.CANCEL, ""), (GmKind.DICE, "-1")]


def test_the_gm_s_events_on_a_stopped_action_name_a_face_down_unit_by_its_token() -> None:
    """adjust --cancel UNIT --done N on a hidden attacker: the public Log reads its token, never its id or card."""
    r = rules()
    state, orders, attacker, _ = _stopped_attack(r)
    hidden = state.unit(attacker.id)
    assert hidden is not None and hidden.hidden and hidden.token  # the drummer stopped a face-down attacker
    reaction = state.pending[-1]
    assert reaction.target.startswith(f"{hidden.token} attack ")
    events = events_from_options(state.seats, {"cancel": [attacker.id], "dice": [f"{attacker.id}=-1"],
                                               "soften": [f"{attacker.id}=1"], "done": [str(reaction.id)]}, "Parry")
    assert events[-1].kind is GmKind.DONE  # settled once the changes it asks for are recorded
    said: list[str] = []
    for event in events:
        applied = r.apply_gm_event(state, event)
        state, said = applied.state, said + [e.text for e in applied.events if e.audience is None]
    assert len(said) == 4 and all(attacker.id not in text and hidden.card not in text for text in said), said
    assert f"GM cancels the action of {hidden.token} the reaction stopped: Parry." in said
    done = r.resolve(state, orders, r.dice(SEED, state))
    public = " ".join(e.text for e in done.events if e.audience is None)
    assert f"{hidden.token}'s attack is cancelled: Parry." in public and attacker.id not in public


def test_the_gm_names_a_face_down_stopped_attacker_by_the_token_the_board_shows() -> None:
    """adjust --cancel "Bo token 4": the GM reads the board, where a face-down unit is its token."""
    r = rules()
    state, _orders, attacker, _ = _stopped_attack(r)
    hidden = state.unit(attacker.id)
    assert hidden is not None and hidden.hidden and hidden.token
    applied = r.apply_gm_event(state, Adjustment(GmKind.CANCEL, hidden.token.upper(), reason="Parry"))
    assert applied.state.changes[attacker.id].cancel
    assert [e.text for e in applied.events] == [f"GM cancels the action of {hidden.token} the reaction stopped: Parry."]


def test_a_change_to_a_stopped_action_is_refused_when_no_reaction_stopped_it() -> None:
    r = rules()
    state = _started(r)
    unit = next(u for u in state.units if u.owner == state.acting)
    for kind, value in ((GmKind.DICE, "-1"), (GmKind.SOFTEN, "1"), (GmKind.CANCEL, "")):
        with pytest.raises(ValueError, match=f"no reaction or passive has stopped an action of {unit.id} this turn, so "
                                             f"--{kind.value} has nothing to change"):
            r.apply_gm_event(state, Adjustment(kind, unit.id, value, "Brace", relative=kind is GmKind.DICE))
    stopped, _, attacker, _ = _stopped_attack(r)
    other = next(u for u in stopped.units if u.owner == stopped.acting and u.id != attacker.id)
    with pytest.raises(ValueError, match=f"no reaction or passive has stopped an action of {other.id} this turn.*"
                                         "the reactions and passives waiting on the GM's list stopped"):
        r.apply_gm_event(stopped, Adjustment(GmKind.DICE, other.id, "-1", "Brace", relative=True))


def test_the_cards_tab_lists_every_card_seen_and_no_hidden_one_at_a_fixed_size() -> None:
    r = rules()
    state = _started(r).copy()
    for u in state.units:
        u.hidden = True
    shown = state.units[0]
    sheet = _sheet(r)
    empty = next(d for d in sheet.drawings(state) if d.tab == CARDS_TAB)
    assert all(v == "" for row in empty.values[1:] for v in row)
    shown.hidden = False
    drawn = next(d for d in sheet.drawings(state) if d.tab == CARDS_TAB)
    assert drawn.height == empty.height == CARD_ROWS + 1
    names = {str(row[0]) for row in drawn.values[1:] if row[0]}
    assert names == {shown.card}
    card = state.card_of(shown)
    abilities = [str(row[4]) for row in drawn.values[1:] if row[4]]
    assert abilities == [f"{a.name} ({a.type.value})" for a in card.abilities] or (not card.abilities and abilities ==
                                                                                   ["(no ability)"])


def test_a_standing_reaction_s_verdicts_name_its_row_fired_or_not_able_to_fire() -> None:
    """The engine's word on a standing reaction is of its reaction row (``Reaction 3``: the sheet shows it there),
    whether it fired or could not fire (no command token left)."""
    r = rules()
    state = _started(r)
    acting, reactor = state.acting, state.other(state.acting)
    drummer = _first(state, reactor, "War Drummer")
    mover = next(u for u in state.units if u.owner == acting and u.at is not None)
    state = _beside(r, state, drummer, mover)
    mover = state.unit(mover.id) or mover
    assert mover.at is not None
    step_to = next(h for h in r.rules.board.neighbours(mover.at)
                   if state.unit_at(h) is None and not r.rules.board.terrain[h].obstacle)
    orders = WodOrders(actions={acting: (Action(ActionKind.MOVE, mover.id, step_to.label),)},
                       reactions={reactor: (Reaction(drummer.id, "Drum of Dread", Trigger.ANY, row=3),)})
    fired = [v for v in r.resolve(state, orders, r.dice(SEED, state)).verdicts if v.seat == reactor]
    assert [(v.subject, v.accepted) for v in fired] == [("Reaction 3", True)]
    assert fired[0].message == (f"Reaction 3: fired before {acting}'s move: {drummer.id} used Drum of Dread (the GM "
                                "applies its effect); it stands, and can fire again next turn.")
    poor = state.copy()
    poor.legions[reactor].tokens = 0
    idle = [v for v in r.resolve(poor, orders, r.dice(SEED, poor)).verdicts if v.seat == reactor]
    assert [(v.subject, v.accepted) for v in idle] == [("Reaction 3", True)]
    assert idle[0].message == (f"Reaction 3: stands (it fires only before an enemy action by a unit next to "
                               f"{drummer.id}, as its card says), but {reactor} has 0 command tokens: it can fire "
                               f"again once {reactor}'s own turn recovers them.")
    assert Reaction.from_json(Reaction(drummer.id, "Drum of Dread", row=3).to_json()).row == 3


def test_a_refused_row_under_an_empty_one_is_named_by_its_own_number_and_answered_in_its_own_row() -> None:
    """Row 1 refused, Row 2 left empty, Row 3 refused: sync's rejected list says Row 1 and Row 3 (the numbers she
    sees, never a unit id first), and each row's verdict is in that row's own Feedback cell."""
    r = rules()
    match = _deployed_in_sheets(r)
    state = match.state
    seat = state.acting
    mine = [u for u in state.units if u.owner == seat]
    match.type(seat, "actions", 0, {"unit": mine[0].id, "action": "move", "target": "A1"})  # too far or taken
    match.type(seat, "actions", 2, {"unit": mine[1].id, "action": "attack", "target": "A1"})  # no one there
    match.type(seat, "seat", 0, {"go": True})
    report = poll(match.sheets, type(r), now=NOW)
    assert report.resolved
    rows = [who for who, _why in report.rejected]
    assert rows == [f"{seat} · Row 1 ({mine[0].id} move A1)", f"{seat} · Row 3 ({mine[1].id} attack A1)"], rows
    said = dict(report.rejected)
    # Both rows are kept to mend; they move up under each other, each with its own verdict in its feedback.
    first, second = (str(match.value(seat, "actions", i, "feedback")) for i in (0, 1))
    assert match.value(seat, "actions", 0, "unit") == mine[0].id and said[rows[0]] in first
    assert match.value(seat, "actions", 1, "unit") == mine[1].id and said[rows[1]] in second


def test_a_surrender_resolves_with_its_own_reason_not_a_go() -> None:
    """Issue 64: a turn closed by a Surrender said it resolved because "a Go box is ticked"; it names the cell."""
    match = _deployed_in_sheets(rules())
    r, state = match.rules, match.state
    seat = state.acting
    match.type(seat, "seat", 0, {"surrender": "surrender"})
    report = poll(match.sheets, type(r), now=NOW)
    assert report.resolved and report.reason == f"{seat}'s Surrender cell is set", report.reason


def test_an_action_row_typed_while_deploying_says_no_unit_is_on_the_board_yet() -> None:
    """Issue 64, item 4: an action row typed during the deployment (kept for the first turn, and read as that turn
    will read it) said "write one of none"; it says that none of her units is on the board yet."""
    from dataclasses import replace as evolve

    from sheets_gm.rulesets.winordie.sheet.read import read_seat

    r = rules()
    state = r.new_match(r.sample_roster(), SEED)
    seat = state.acting
    unit = next(u.id for u in state.units if u.owner == seat)
    window = r.window(state)
    assert window is not None
    first_turn = evolve(window, phase=Phase.ACTIONS.value, seats=(seat,))
    read = read_seat(r.rules, state, first_turn, seat,
                     {"actions": _rows("actions", {"Row 1": {"unit": unit, "action": "move", "target": "C3"}},
                                       first_turn)})
    said = " ".join(p for ps in read.problems.values() for p in ps)
    assert "write one of none" not in said and "none of your units is on the board yet" in said, said
