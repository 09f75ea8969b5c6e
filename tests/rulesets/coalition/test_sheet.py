"""The Coalition's sheet: typed rows read as orders and results (good and bad cells), typed cells as
their exact inverse for the bots' orders and the stand-in judge's results, a tab per plane and the
Turn report tab with the forum's posts, the View panels, and a refused cell answered in its row by the real sync."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import GM, JUDGE, Roster, Window
from sheets_gm.rulesets.coalition.bots import side_orders, stand_in_results
from sheets_gm.rulesets.coalition.engine import CoalitionRuleset
from sheets_gm.rulesets.coalition.enums import BattleType, Colour, Phase, Side, Terrain
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.sheet.adapter import CoalitionSheet
from sheets_gm.rulesets.coalition.sheet.report import report_rows, stacked
from sheets_gm.rulesets.coalition.state import (
    ArmyOrder,
    Battle,
    BattleResult,
    CoalitionOrders,
    CoalitionState,
    Creature,
)
from sheets_gm.rulesets.registry import TEMPLATES, bots_of, default_board_text, get_ruleset, sheet_of
from sheets_gm.sheets.adapter import BoardDrawing, SeatInput
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import CellValue, a1
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import MemoryBackend
from tests.rulesets.coalition.helpers import MAP, SETTINGS, army, board, dice, state

SHEET = CoalitionSheet(board())
ORDERS = Window("3", "turn 3 · orders", "orders", ("coalition", "phyrexia"), 3)
RESULTS = Window("3/results", "turn 3 · battle results", "results", (JUDGE,), 3)


def rows(table: str, window: Window, by_subject: Mapping[str, Mapping[str, CellValue]]) -> list[TypedRow]:
    """Rows as a poll reads them, typed for ``window``."""
    return [TypedRow(table, subject, 5 + i, window.key, dict(values), "")
            for i, (subject, values) in enumerate(by_subject.items())]


def full_game() -> CoalitionRuleset:
    """The Coalition on its default map of three planes."""
    return CoalitionRuleset.create(CoalitionSettings(), default_board_text("coalition"))


def side_state() -> CoalitionState:
    return state(army("Ann", "coalition", "2C", rank=2), army("Bo", "phyrexia", "4C", rank=3),
                 army("Cy", "coalition", "7F"), army("Di", "coalition", "5C", rank=2))


def read_side(by_subject: Mapping[str, Mapping[str, CellValue]],
              s: CoalitionState | None = None) -> SeatInput[CoalitionOrders]:
    return SHEET.read_orders(s or side_state(), ORDERS, "coalition", {
        "armies": rows("armies", ORDERS, by_subject),
        "side": rows("side", ORDERS, {"coalition": {"ready": True}})})


# -- a side's rows -------------------------------------------------------------------------
def test_an_order_in_the_columns_and_one_as_the_forum_line() -> None:
    read = read_side({"Ann": {"route": "3C", "to": "4C", "order": "Engage", "target": "Bo"},
                      "Cy": {"line": "Cy: Dominaria; 7F > 7E"}, "Di": {}})
    assert read.orders.orders == {"coalition": {
        "Ann": ArmyOrder(via=("3C",), to="4C", word="engage", target="Bo"),
        "Cy": ArmyOrder(line="Cy: Dominaria; 7F > 7E")}}
    assert read.ready and not read.problems


def test_a_route_written_whole_is_read_as_start_way_and_end() -> None:
    whole = read_side({"Ann": {"route": "2C > 3C > 4C", "order": "engage", "target": "Bo"}}).orders
    assert whole.orders["coalition"]["Ann"] == ArmyOrder(start="2C", via=("3C",), to="4C", word="engage",
                                                         target="Bo")
    twice = read_side({"Ann": {"route": "3C > 4C", "to": "4C"}}).orders
    assert twice.orders["coalition"]["Ann"] == ArmyOrder(via=("3C",), to="4C")


def test_unreadable_cells_name_the_column_and_what_is_accepted_and_give_no_order() -> None:
    read = read_side({"Ann": {"to": "4C", "order": "attack", "target": "Bo"},
                      "Cy": {"to": "7E", "line": "Cy: 7F > 7E"},
                      "Di": {"order": "transfer", "target": "Ann", "units": "100/0"}})
    assert read.orders.orders == {}
    assert read.problems["Ann"] == ("Order 'attack' is not an order: write one of engage, replace, intercept, raid, "
                                    "support, transfer, garrison, heal or none; Ann holds until it is mended",)
    assert "both filled" in read.problems["Cy"][0] and "clear End square, or the forum line" in read.problems["Cy"][0]
    assert "Transfer units '100/0': four whole numbers, slot 1 to slot 4, like 100/0/0/0" in read.problems["Di"][0]
    assert "empty step" in read_side({"Ann": {"route": "3C >> 4C", "to": "5C"}}).problems["Ann"][0]
    assert "are for a transfer" in read_side({"Ann": {"to": "3C", "units": "1/0/0/0"}}).problems["Ann"][0]


def test_the_engine_says_what_a_readable_order_will_do_or_why_not() -> None:
    rules = CoalitionRuleset.create(SETTINGS, MAP)
    s = side_state()
    read = read_side({"Ann": {"route": "3C", "to": "4C", "order": "engage", "target": "Bo"},
                      "Cy": {"route": "7E > 6D", "to": "6C"}}, s)
    verdicts = {v.subject: v for v in rules.check(s, read.orders, dice())}
    assert verdicts["Ann"].accepted and "engages Bo" in verdicts["Ann"].message
    assert not verdicts["Cy"].accepted and "diagonal" in verdicts["Cy"].message


def test_a_bots_orders_typed_are_read_back_as_the_same_orders() -> None:
    rules = full_game()
    s = rules.new_match(rules.sample_roster(), b"typed")
    sheet = sheet_of(rules)
    for turn in range(3):
        for side in (Side.COALITION, Side.PHYREXIA):
            orders = CoalitionOrders({side.value: side_orders(rules.board, rules.settings, s, side,
                                                              random.Random(turn), 1.0)})
            window = rules.window(s)
            assert window is not None
            cells = sheet.typed_cells(s, window, side.value, orders)
            assert set(cells) == {"armies"} and set(cells["armies"]) <= set(
                sheet.rows(s, side.value, sheet.spec.inputs[0]))
            read = sheet.read_orders(s, window, side.value, {"armies": rows("armies", window, cells["armies"])})
            assert read.orders == orders and not read.problems
        s = rules.resolve(s, CoalitionOrders({side.value: side_orders(
            rules.board, rules.settings, s, side, random.Random(turn), 1.0) for side in Side
            if side is not Side.MERCENARY}), rules.dice(b"typed", s)).state
        if s.phase is Phase.RESULTS:
            s = rules.resolve(s, CoalitionOrders(results=stand_in_results(rules.settings, s,
                                                                            rules.dice(b"typed", s))),
                              rules.dice(b"typed", s)).state


def test_an_order_with_every_field_round_trips() -> None:
    s = side_state()
    order = ArmyOrder(start="2C", via=("3C",), to="4C", word="transfer", target="Bo", units=(1, 2, 3, 4),
                      bump="5C")
    cells = SHEET.typed_cells(s, ORDERS, "coalition", CoalitionOrders({"coalition": {"Ann": order}}))
    assert cells == {"armies": {"Ann": {"route": "2C > 3C", "to": "4C", "order": "transfer", "target": "Bo",
                                        "units": "1/2/3/4", "bump": "5C"}}}
    assert read_side(cells["armies"], s).orders.orders["coalition"]["Ann"] == order


# -- the judge's rows ----------------------------------------------------------------------
def battle_state() -> CoalitionState:
    battles = (Battle(BattleType.ATTACKS, "Dominaria 3C", ("Ann", "Bo"), "Fog"),
               Battle(BattleType.VS, "Dominaria 6E", ("Cy", "Di"), "Clear"))
    return state(army("Ann", "coalition", "3C", rank=2), army("Bo", "phyrexia", "3C", rank=3),
                 army("Cy", "coalition", "6E"), army("Di", "phyrexia", "6E"), battles=battles,
                 phase=Phase.RESULTS).with_(announced=battles)


def read_judge(results: Mapping[str, Mapping[str, CellValue]], losses: Mapping[str, Mapping[str, CellValue]],
               s: CoalitionState | None = None) -> SeatInput[CoalitionOrders]:
    return SHEET.read_orders(s or battle_state(), RESULTS, JUDGE, {
        "results": rows("results", RESULTS, results), "losses": rows("losses", RESULTS, losses),
        "judge": rows("judge", RESULTS, {JUDGE: {"ready": True}})})


def test_the_judges_rows_are_a_row_per_battle_and_a_row_per_army_in_one() -> None:
    s = battle_state()
    by_table = {t.name: SHEET.rows(s, JUDGE, t) for t in SHEET.spec.tables(judge=True)}
    assert by_table == {"results": ["Dominaria 3C", "Dominaria 6E"], "losses": ["Ann", "Bo", "Cy", "Di"],
                        "judge": [JUDGE]}
    results = SHEET.spec.tables(judge=True)[0]
    assert SHEET.shown(s, JUDGE, results, "Dominaria 3C", dice()) == {"fight": "Ann attacks Bo · plains · Fog"}


def test_a_result_with_its_losses_kill_and_vp() -> None:
    read = read_judge({"Dominaria 3C": {"winner": "Ann", "vp": 7, "kill": "roll", "kill_bonus": "10"},
                       "Dominaria 6E": {"siege": True}},
                      {"Ann": {"slot1": 100, "slot4": ""}, "Bo": {"slot1": 900, "slot2": 0, "failed_kill": True},
                       "Cy": {}, "Di": {}})
    assert not read.problems and read.ready
    assert read.orders.results == {
        "Dominaria 3C": BattleResult("Ann", {"Ann": (100, 0, 0, 0), "Bo": (900, 0, 0, 0)}, vp=7, kill="roll",
                                     kill_bonus=10, failed_kill=("Bo",)),
        "Dominaria 6E": BattleResult(siege=True)}


def test_unreadable_result_cells_are_named_and_keep_the_battle_unread() -> None:
    read = read_judge({"Dominaria 3C": {"winner": "Ann", "vp": "lots"}, "Dominaria 6E": {"winner": "Cy",
                                                                                          "kill": "maimed"}},
                      {"Cy": {"slot2": "ten"}})
    assert read.orders.results == {}
    assert read.problems["Dominaria 3C"] == ("VP 'lots' is not a whole number: leave it empty for the setting, or "
                                             "write 0 or more; this battle's result is not read until then",)
    assert read.problems["Dominaria 6E"][0].startswith("Kill 'maimed' is not one of killed, escaped, squad_lost")
    assert read.problems["Cy"] == ("Lost in slot 2 'ten' is not a whole number: write the units lost in that slot, "
                                   "0 or more (empty is 0)",)
    held = read_judge({"Dominaria 6E": {"winner": "Cy"}}, {"Cy": {"slot2": "ten"}, "Di": {"slot1": 5}})
    assert held.orders.results == {}  # a bad loss row holds its whole battle
    assert held.problems["Dominaria 6E"] == ("Cy's losses cannot be read yet (see its row)",)


def test_an_accepted_result_says_in_its_row_what_will_be_applied() -> None:
    rules = CoalitionRuleset.create(SETTINGS, MAP)
    s = battle_state()
    read = read_judge({"Dominaria 3C": {"winner": "Ann", "kill": "roll"}, "Dominaria 6E": {"siege": True}},
                      {"Ann": {"slot1": 100}, "Bo": {"slot1": 900, "slot2": 10, "failed_kill": True}}, s)
    verdicts = {v.subject: v.message for v in rules.check(s, read.orders, dice())}
    assert verdicts["Dominaria 3C"] == ("Dominaria 3C: Ann (coalition) wins, +5 VP · Ann loses 100/0/0/0; Bo loses "
                                        "900/10/0/0 · kill by Ann on Bo: roll · Bo tried a kill and loses its squad")
    assert verdicts["Dominaria 6E"] == "Dominaria 6E: the battle goes on as a siege · no losses entered"


def test_losses_over_the_slot_or_without_a_winner_are_the_engines_to_refuse() -> None:
    rules = CoalitionRuleset.create(SETTINGS, MAP)
    s = battle_state()
    read = read_judge({"Dominaria 3C": {"winner": "Ann"}}, {"Bo": {"slot1": 9000}, "Cy": {"slot1": 5}}, s)
    verdicts = {v.subject: v for v in rules.check(s, read.orders, dice())}
    assert "Bo loses 9000 in slot 1; it has 5000 there" in verdicts["Dominaria 3C"].message
    assert not verdicts["Dominaria 6E"].accepted and "name the winner" in verdicts["Dominaria 6E"].message


def test_the_stand_in_judges_results_typed_are_read_back_as_the_same() -> None:
    s = battle_state()
    results = stand_in_results(SETTINGS, s, dice())
    results["Dominaria 6E"] = BattleResult(siege=True, vp=0, stratless="", stand_in=True)
    cells = SHEET.typed_cells(s, RESULTS, JUDGE, CoalitionOrders(results=results))
    read = read_judge(cells["results"], cells["losses"], s)
    assert read.orders.results == results and not read.problems


# -- the board and the panels --------------------------------------------------------------
def test_each_plane_has_its_tab_with_its_squares_armies_and_battles() -> None:
    rules = full_game()
    sheet = sheet_of(rules)
    s = rules.new_match(rules.sample_roster(), b"board")
    drawings = sheet.drawings(s)
    assert [d.tab for d in drawings] == ["Dominaria", "Phyrexia", "Mirrodin", ""]  # "": the board tab, Turn report
    assert sheet.spec.tabs.board == "Turn report" and sheet.spec.tabs.retired == ("Board",)
    dominaria, phyrexia, mirrodin = drawings[:3]
    values = dominaria.values
    assert values[0][:4] == ["Dominaria", "1", "2", "3"] and values[1][0] == "A" and values[9][0] == "I"
    assert mirrodin.values[0][0] == "Mirrodin (wraps east–west)" and phyrexia.values[0][0] == "Phyrexia"
    height = rules.board.planes["Dominaria"].height
    assert len(values) == 2 + height  # the plane and its terrain key row: no posts under it
    assert values[-1][:7] == ["Terrain", *(t.value for t in Terrain)]
    wrath = values[3][4]  # Dominaria 4C: the Coalition's white base, Urza's Vanguard on it
    assert wrath == "⌂ Wrath (white)\n◆ Urza's Vanguard (6 · 10000)"
    portal = next(str(c) for r in values for c in r if str(c).startswith("◎"))
    assert " → Phyrexia " in portal or " → Mirrodin " in portal  # where it leads, now that it is another tab
    fills = {f.range: f.colour for f in dominaria.fills}
    assert fills["A1:Y1"] == "#EFEFEF"  # the plane's name row
    colours = sheet.spec.colours.extra
    assert any(r.startswith("B2:") for r in fills) and colours[Terrain.SWAMP.value] in fills.values()
    assert dominaria.row_heights[1] == dominaria.row_heights[9] > dominaria.row_heights[0]  # squares, name row
    assert "Turn report" in str(dominaria.legend[2][0])
    battle = s.with_(battles=(Battle(BattleType.ATTACKS, "Dominaria 4C", ("Urza's Vanguard",)),))
    assert str(sheet.drawings(battle)[0].values[3][4]).startswith("⚔ battle (attacks)\n⌂ Wrath")


def test_an_armys_square_has_its_makeup_as_a_note_that_follows_it_through_the_sync() -> None:
    from sheets_gm.sync.autoplay import type_bot_orders
    from sheets_gm.sync.read import read_match

    rules = full_game()
    roster = rules.sample_roster()
    board_book = MemoryBackend("board")
    sheets = MatchSheets(roster.seats, board_book, MemoryBackend("engine"),
                         tuple(MemoryBackend(s) for s in roster.seats), MemoryBackend("judge"))
    create_match(sheets, rules, roster, seed=b"notes")
    cls = get_ruleset("coalition")

    def noted() -> dict[str, str]:  # square -> note, over every plane's tab
        out = {}
        for plane in rules.board.planes.values():
            for (r, c), text in board_book.notes.get(plane.name, {}).items():
                out[f"{plane.name} {c}{chr(ord('A') + r - 1)}"] = text
        return out

    start = read_match(sheets, cls).record.state
    notes = noted()
    assert set(notes) == {a.at for a in start.armies}  # every army's square, and no other
    vanguard = next(a for a in start.armies if a.name == "Urza's Vanguard")
    assert notes[vanguard.at].startswith(f"{vanguard.at} · ")
    slots = "/".join(map(str, vanguard.units))
    assert f"Urza's Vanguard: Coalition, General (6)\n  units {slots}" in notes[vanguard.at]
    assert "legend Urza" in notes[vanguard.at] and "colour bonus" in notes[vanguard.at]
    assert all(f"  {c.count} {c.name} (" in notes[vanguard.at] for c in vanguard.creatures)
    bots = {seat: bots_of(rules)[next(iter(bots_of(rules)))].make(seat) for seat in roster.seats}
    type_bot_orders(sheets, cls, bots)
    poll(sheets, cls, now=dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC))
    moved = read_match(sheets, cls).record.state
    assert {a.at for a in moved.armies} != {a.at for a in start.armies}
    assert set(noted()) == {a.at for a in moved.armies}  # left squares lose their note
    assert board_book.calls.count("write") == 2  # init's write and the resolution's: notes ride in them


def _column(drawing: BoardDrawing, col: int) -> list[str]:
    return [str(r[col]) for r in drawing.values[1:] if str(r[col])]


def test_the_turn_report_has_a_column_per_post_and_keeps_its_size() -> None:
    rules = full_game()
    sheet = sheet_of(rules)
    s = rules.new_match(rules.sample_roster(), b"posts")
    first = sheet.drawings(s)[-1]
    assert str(first.values[0][0]).startswith("Movement Results: select the lines under this cell")
    assert _column(first, 0) == ["Nothing yet: the first posts come at the turn 1 orders deadline."]
    orders = CoalitionOrders({side.value: side_orders(rules.board, rules.settings, s, side, random.Random(1), 1.0)
                              for side in (Side.COALITION, Side.PHYREXIA)})
    after = rules.resolve(s, orders, rules.dice(b"posts", s)).state
    assert after.phase is Phase.RESULTS  # battles were announced: the judge's window is open
    drawn = sheet.drawings(after)[-1]
    assert (drawn.width, drawn.height) == (first.width, first.height) == (3, 1 + report_rows(rules.board))
    moves, results, announced = (_column(drawn, c) for c in range(3))
    assert moves[0] == "Movement Results, turn 1" and any(re.search(r" \[[a-z]+( -> .*)?\]", m) for m in moves)
    assert results == ["Battle Results, turn 1", "They come when the judge's results are in."]
    assert announced[0] == "Battle Announcements, turn 1" and len(announced) > 1
    judged = rules.resolve(after, CoalitionOrders(results=stand_in_results(rules.settings, after, rules.dice(
        b"posts", after))), rules.dice(b"posts", after)).state
    done = sheet.drawings(judged)[-1]
    moves, results, _ = (_column(done, c) for c in range(3))
    assert done.height == first.height and moves[0] == "Movement Results, turn 1"
    assert results[0] == "Battle Results, turn 1" and results[-1].startswith("Victory points: Coalition")
    assert any(" wins" in line or " win" in line for line in results)


def test_a_post_longer_than_its_column_is_cut_with_a_line_saying_so() -> None:
    parts = [[f"line {i}" for i in range(100)], [f"line {i}" for i in range(55)]]
    assert stacked(parts, 200) == [*parts[0], "", *parts[1]]
    cut = stacked(parts, 150)
    assert len(cut) == 150 and cut[-1] == "… 7 more lines: the Log tab has every event of the turn."


def test_a_sides_panel_lists_its_own_armies_and_the_judges_the_battles() -> None:
    s = battle_state().with_(changes={})
    mine = SHEET.panel(s, "coalition")
    names = [str(r[0]) for r in mine if r]
    assert "Ann" in names and "Cy" in names and "Bo" not in names and "Di" not in names
    judge = SHEET.panel(s, JUDGE)
    cells = [str(c) for r in judge for c in r]
    assert judge[0] == ["Battles to judge, turn 3"] and "Ann attacks Bo · plains · Fog" in cells
    assert "Bo: Dominaria 3C · Thane (3) · units 5000/2500/1500/1000 (10000)" in cells
    assert "Ann attacks Bo, Dominaria 3C, plains (Fog)" in cells  # the announcement, ready to paste
    assert SHEET.panel(s, GM)[:len(judge)] == judge and SHEET.panel(s, "nobody") == []


def test_the_status_line() -> None:
    assert SHEET.status(side_state(), ORDERS, None) == ("Turn 3 · orders: both sides write orders · Coalition 0 VP, "
                                                        "Phyrexia 0 VP")
    assert "2 battles to judge" in SHEET.status(battle_state(), RESULTS, None)


# -- through the real sync -----------------------------------------------------------------
def test_a_bad_cell_is_answered_in_its_row_and_a_good_one_by_the_engine() -> None:
    rules = full_game()
    roster = rules.sample_roster()
    board_, engine, judge = MemoryBackend("board"), MemoryBackend("engine"), MemoryBackend("judge")
    sides = {seat: MemoryBackend(seat) for seat in roster.seats}
    sheets = MatchSheets(roster.seats, board_, engine, tuple(sides.values()), judge)
    create_match(sheets, rules, roster, seed=b"sync")
    tab = MatchTabs(sheet_of(rules).spec, roster.seats, True).orders("coalition")
    table = tab.table("armies")
    subjects = sheet_of(rules).rows(rules.new_match(roster, b"sync"), "coalition", table.spec)
    first, second = subjects[0], subjects[1]
    backend = sides["coalition"]
    backend.write([RangeWrite(a1(tab.name, table.cell(0, "order")), [["attack"]]),
                   RangeWrite(a1(tab.name, table.cell(1, "to")), [["Dominaria 99Z"]])])
    report = poll(sheets, get_ruleset("coalition"), now=dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC))
    assert not report.resolved
    feedback = str(backend.read([a1(tab.name, table.cell(0, "feedback"))])[0][0][0])
    assert feedback.startswith("✘ Order 'attack' is not an order") and first in feedback
    other = str(backend.read([a1(tab.name, table.cell(1, "feedback"))])[0][0][0])
    assert other.startswith("✘ ") and second in other and "99Z" in other


def test_the_starter_config_creates_a_match_of_the_sample_armies(tmp_path: Path) -> None:
    from sheets_gm.init.start import init_match
    from sheets_gm.match.config import load_config

    config_path = tmp_path / "match.toml"
    config_path.write_text((TEMPLATES / "coalition" / "match.toml").read_text(encoding="utf-8"), encoding="utf-8")
    config = load_config(config_path)
    assert config.seats == ("coalition", "phyrexia") and config.judge is not None
    init_match(config, now=dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC), seed=b"starter")
    assert {p.name for p in tmp_path.rglob("*.xlsx")} == {"board.xlsx", "engine.xlsx", "judge.xlsx",
                                                         "orders-coalition.xlsx", "orders-phyrexia.xlsx"}
    start = full_game().new_match(Roster(("coalition", "phyrexia")), b"s")
    assert {a.side for a in start.armies} == {Side.COALITION, Side.PHYREXIA, Side.MERCENARY}


def _judging(seed: bytes) -> tuple[MatchSheets, MemoryBackend, CoalitionState]:
    """A war on the default map played by bots to its first battle results window (the judge's tab in its own
    spreadsheet)."""
    from sheets_gm.sync.autoplay import type_bot_orders
    from sheets_gm.sync.read import read_match

    rules = full_game()
    roster = rules.sample_roster()
    judge = MemoryBackend("judge")
    sheets = MatchSheets(roster.seats, MemoryBackend("board"), MemoryBackend("engine"),
                         tuple(MemoryBackend(s) for s in roster.seats), judge)
    create_match(sheets, rules, roster, seed=seed)
    cls = get_ruleset("coalition")
    kind = next(iter(bots_of(rules)))
    bots = {s: bots_of(rules)[kind].make(s) for s in roster.seats}
    for _ in range(6):
        s = read_match(sheets, cls).record.state
        if s.phase is Phase.RESULTS:
            return sheets, judge, s
        type_bot_orders(sheets, cls, bots)
        poll(sheets, cls, now=dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC))
    raise AssertionError("no battle in six turns")


def test_the_judges_rows_for_no_battle_an_army_in_none_and_one_army_twice_say_why_and_are_not_read() -> None:
    """Issue 20, finding 5: a result for a battle that does not exist, a losses row for an army in no battle, and
    two losses rows for one army were answered "written for a window that is not open", "Waiting for your orders"
    or "Kept", and the second losses row silently won. Each now says why, and neither of the two rows is read."""
    sheets, judge, s = _judging(b"strays")
    tab = MatchTabs(SHEET.spec, sheets.seats, True).orders(JUDGE)
    results, losses = tab.table("results"), tab.table("losses")
    battles = SHEET.rows(s, JUDGE, results.spec)
    fighters = SHEET.rows(s, JUDGE, losses.spec)
    idle = next(a.name for a in s.armies if a.name not in fighters)

    def put(table: Any, index: int, **values: CellValue) -> None:
        for key, value in values.items():
            judge.type(tab.name, table.cell(index, key), value)

    window = "1/results"
    put(results, len(battles), battle="Dominaria 5C", window=window, winner=fighters[0])
    put(results, len(battles) + 1, battle="Dominaria 6C", winner=fighters[0])  # no stamp: was "not open"
    put(losses, len(fighters), army=idle, window=window, slot1=5)
    put(losses, 0, slot1=3)
    put(losses, len(fighters) + 1, army=fighters[0], window=window, slot1=7)
    report = poll(sheets, get_ruleset("coalition"), now=dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC))

    def said(table: Any, index: int) -> str:
        return str(judge.value(tab.name, table.cell(index, "feedback")))

    where = ", ".join(battles)
    for index, square in ((len(battles), "Dominaria 5C"), (len(battles) + 1, "Dominaria 6C")):
        assert said(results, index) == (f"✘ There is no battle to judge at {square} this turn (the battles are at "
                                         f"{where}): nothing in this row is read; write in the row of the battle "
                                         "square you mean.")
    assert said(losses, len(fighters)).startswith(f"✘ {idle} fights in no battle this turn")
    first, second = losses.first_row, losses.first_row + len(fighters) + 1
    twice = (f"✘ {fighters[0]} has 2 typed rows in this table (rows {first} and {second}): none is read until one is "
             "left; clear the others.")
    assert said(losses, 0) == twice and said(losses, len(fighters) + 1) == twice
    assert not any(f"{fighters[0]}'s losses" in why for _, why in report.rejected)
    assert {who for who, _ in report.rejected} >= {f"judge · Dominaria 5C (row {results.first_row + len(battles)})",
                                                   f"judge · {idle} (row {losses.first_row + len(fighters)})",
                                                   f"judge · {fighters[0]} (row {first})",
                                                   f"judge · {fighters[0]} (row {second})"}


def _war(battles: int) -> CoalitionState:
    """``battles`` battles of two armies each on the test plane."""
    squares = [f"{c}{r}" for r in "ABCDEF" for c in range(1, 9)]
    armies = [army(f"C{n}", "coalition", squares[n], rank=2) for n in range(battles)]
    armies += [army(f"P{n}", "phyrexia", squares[n]) for n in range(battles)]
    fights = tuple(Battle(BattleType.ATTACKS, f"Dominaria {squares[n]}", (f"C{n}", f"P{n}"), "Fog")
                   for n in range(battles))
    return state(*armies, battles=fights, phase=Phase.RESULTS)


def test_the_judges_panel_shows_every_battle_or_names_those_left_out_and_where_they_are() -> None:
    twenty = SHEET.panel(_war(20), JUDGE)  # detailed, it would run past the 40 rows: a row per battle instead
    assert len(twenty) <= 40 and all(any(r and r[0] == f"Dominaria {sq}" for r in twenty)
                                     for sq in [f"{c}{r}" for r in "ABC" for c in range(1, 9)][:20])
    assert ["The Battle Announcements post to paste is in the Turn report tab."] in twenty
    forty = SHEET.panel(_war(40), JUDGE)
    last = str(forty[-1][0])
    assert len(forty) == 40 and last.startswith("… 3 more battles (Dominaria 6E, Dominaria 7E, Dominaria 8E)")
    assert "Judge tab" in last and not any("Board" in str(c) for r in forty for c in r)


def test_a_sides_panel_past_its_rows_sends_to_the_sides_orders_tab() -> None:
    s = state(*(army(f"A{n:02d}", "coalition", "2C") for n in range(70)))
    rows = SHEET.panel(s, "coalition")
    assert len(rows) == 40 and str(rows[-1][0]).startswith("… 35 more rows: every army has its row in the Orders "
                                                            "coalition tab")


def test_a_planes_legend_ends_above_its_last_row_so_it_prints_without_empty_rows() -> None:
    rules = full_game()
    sheet = sheet_of(rules)
    s = rules.new_match(rules.sample_roster(), b"print")
    for drawing in sheet.drawings(s)[:-1]:
        written = [r for r in drawing.legend if r and r[0]]
        assert 3 + len(written) <= drawing.height  # title, status, a blank row, then the legend's cells
        assert all(str(line[0]).count("\n") <= 3 for line in written)  # each fits a square's height


def test_the_judges_panel_at_war_size_keeps_each_armys_legend_and_creatures() -> None:
    s = _war(40)
    s = s.with_(armies=tuple(replace(a, legend=f"Legend of {a.name}",
                                     creatures=(Creature("Pikemen", (Colour.WHITE,), 6, 5000),))
                             for a in s.armies))
    rows = SHEET.panel(s, JUDGE)
    first = next(r for r in rows if r and r[0] == "Dominaria 1A")
    assert first[2] == "C0 attacks P0 · plains · Fog"
    assert [str(c).split(":")[0] for c in first[3:]] == ["C0 (coalition)", "P0 (phyrexia)"]
    assert "legend Legend of C0" in str(first[3]) and "5000 Pikemen (white, size 6)" in str(first[3])
    assert "legend Legend of P0" in str(first[4])
    assert "with its legend and creatures" in str(rows[-1][0])
    fighters = next(t for t in SHEET.spec.inputs if t.name == "losses")
    shown = SHEET.shown(s, JUDGE, fighters, "P3", TurnDice(b"x", 3))
    assert "legend Legend of P3" in str(shown["battle"]) and "Pikemen" in str(shown["battle"])


def test_a_crowded_square_shows_every_army_or_says_how_many_more() -> None:
    """Issue 54: a crowded square cut off its last army. Walked over crowds of 1 to 12 armies under a base and a
    battle: the cell's text fits the square's lines at its width, every army is named in it or counted in
    its last line (the square's note names them all), and it names as many as fit (checked to fail with the
    old three-line '+N more armies (rest the pointer on the square)', which named none of three)."""
    from sheets_gm.rulesets.coalition.enums import StructureKind
    from sheets_gm.rulesets.coalition.sheet.draw import SQUARE_LINES, SQUARE_WIDTH, square_text
    from sheets_gm.rulesets.coalition.sheet.squares import ArmyMark, SquareView
    from sheets_gm.sheets.printed_sizes import lines_needed

    symbols = {"battle": "!", "base": "⌂", "coalition": "◆", "phyrexia": "▲"}
    for crowd in range(1, 13):
        marks = tuple(ArmyMark(f"{'Urza' if i % 2 else 'Keld'}'s Vanguard {i}", Side.COALITION if i % 2 else
                               Side.PHYREXIA, "Captain", 10000) for i in range(crowd))
        view = SquareView("3C", Terrain.FOREST, "Wrath", StructureKind.BASE, Colour.WHITE, False, "", marks,
                          BattleType.ATTACKS)
        text = square_text(view, symbols, {})
        assert lines_needed(text, SQUARE_WIDTH) <= SQUARE_LINES, (crowd, text)
        named = sum(1 for m in marks if f"{m.name} (" in text)
        more = re.search(r"\+(\d+) more \(see note\)", text)
        assert named + (int(more.group(1)) if more else 0) == crowd, (crowd, text)
        if crowd <= 2:
            assert text.count("\n") == 2 + crowd - 1  # one army a line while they fit
        # as many as the square has room for: one more army named, a line each or side by side, would not fit
        # (a battle, a base and three armies showed none, '+3 more', its tail taking three lines; seen printed)
        if more:
            shown = [f"{symbols['coalition' if m.side is Side.COALITION else 'phyrexia']} {m.name} (Captain · 10000)"
                     for m in marks[:named + 1]]
            tail = f"+{crowd - named - 1} more (see note)" if named + 1 < crowd else ""
            for listed in (shown, ["  ".join(shown)]):
                longer = "\n".join(["! battle (attacks)", "⌂ Wrath (white)", *listed, *([tail] if tail else [])])
                assert lines_needed(longer, SQUARE_WIDTH) > SQUARE_LINES, (crowd, text, longer)


def test_an_army_locked_in_battle_is_not_chased_for_orders_and_its_row_says_why() -> None:
    """Issue 54: status listed armies in an open battle under "Nothing typed yet"; they take no order. And an
    empty Champions equipment row keeps the equipment: an answer, not an order awaited."""
    s = battle_state().with_(phase=Phase.ORDERS)
    armies = next(t for t in SHEET.spec.inputs if t.rows == "armies")
    reason = SHEET.idle_row_reason(s, "coalition", armies, "Ann")
    assert reason == "Ann is in the battle at Dominaria 3C: an army in battle takes no order until it ends"
    free = state(army("Ann", "coalition", "3C", rank=2))
    assert SHEET.idle_row_reason(free, "coalition", armies, "Ann") == ""
    assert SHEET.idle_row_reason(battle_state(), "coalition", armies, "Ann") == ""  # the results window: no orders
    from sheets_gm.rulesets.registry import sheet_spec

    assert next(t for t in sheet_spec("champions").inputs if t.name == "equip").optional


def test_a_square_is_as_tall_as_the_lines_it_shows_as_libreoffice_draws_them() -> None:
    """Issue 54: a full square's sixth line (its last army, or '+N more') printed cut in half: 96 pixels for six
    lines at 16, where LibreOffice draws a line in 18 (the board tiles' line, ``DRAWN_LINE_PIXELS``)."""
    from sheets_gm.rulesets.coalition.sheet.draw import SQUARE_HEIGHT, SQUARE_LINES
    from sheets_gm.sheets.printed_sizes import DRAWN_LINE_PIXELS

    drawing = SHEET.drawings(battle_state())[0]
    squares = {h for r, h in drawing.row_heights.items() if r >= 1}
    assert squares == {SQUARE_HEIGHT} and SQUARE_HEIGHT >= SQUARE_LINES * DRAWN_LINE_PIXELS
