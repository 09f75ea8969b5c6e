"""The messages a player or GM reads: a plane named wrong read from the square, the order's typo named, the
columns by their headers, a mercenary as a mercenary, a verify mismatch by the army's name."""

from __future__ import annotations

import pytest

from sheets_gm.engine.diff import first_difference
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.rulesets.coalition.board import load_board
from sheets_gm.rulesets.coalition.check import check_orders, describe
from sheets_gm.rulesets.coalition.enums import BattleType, Phase, ResultCode, Side
from sheets_gm.rulesets.coalition.forum import movement_results
from sheets_gm.rulesets.coalition.orders import ArmyIndex, Move, OrderLineError, Refusal, parse_forum_line, read_order
from sheets_gm.rulesets.coalition.resolve.moves import resolve_orders
from sheets_gm.rulesets.coalition.sheet.panels import panel
from sheets_gm.rulesets.coalition.sheet.read import read_army_row
from sheets_gm.rulesets.coalition.state import ArmyOrder, Battle, CoalitionOrders, CoalitionState, MoveReport
from sheets_gm.sheets.tables import CellError, TypedRow
from tests.rulesets.coalition.helpers import SETTINGS, army, board, dice, state

TWO_PLANES = """planes:
  Dominaria:
    size: 12x6
    terrain: plains
  Mirrodin:
    size: 12x6
    terrain: plains
"""


def test_a_plane_named_wrong_is_read_from_the_start_square_and_said() -> None:
    two = load_board(TWO_PLANES, "two planes")
    raider = army("Raider A", "coalition", "10C")
    s = state(raider)
    read = read_order(two, SETTINGS, s, ArmyIndex(s), "coalition", "Raider A",
                      ArmyOrder(line="Raider A: Mirrodin; 10C > 10D"))
    assert isinstance(read, Move), read
    assert (read.start, read.end) == ("Dominaria 10C", "Dominaria 10D")
    said = describe(two, read)
    assert "Raider A is on Dominaria, not Mirrodin" in said and "10C" in said


def test_a_plane_named_wrong_with_another_start_square_is_still_refused() -> None:
    two = load_board(TWO_PLANES, "two planes")
    s = state(army("Raider A", "coalition", "10C"))
    read = read_order(two, SETTINGS, s, ArmyIndex(s), "coalition", "Raider A",
                      ArmyOrder(line="Raider A: Mirrodin; 9C > 9D"))
    assert isinstance(read, Refusal)
    assert "is at Dominaria 10C, not Mirrodin 9C" in read.message


@pytest.mark.parametrize("arrow", [">", "→"])
def test_an_order_after_an_arrow_names_the_typo(arrow: str) -> None:
    with pytest.raises(OrderLineError) as err:
        parse_forum_line(f"Raider: Dominaria; 15G > 16G {arrow} raid weak4")
    text = str(err.value)
    assert "'raid' is the order, written after a dash" in text and "15G > 16G - raid weak4" in text
    assert "no plane" not in text


def test_an_arrow_is_read_as_a_route_step() -> None:
    _, order = parse_forum_line("Frank: Dominaria; 3A → 3B → 3C - engage Jeff")
    assert (order.start, order.via, order.to) == ("Dominaria 3A", ("Dominaria 3B",), "Dominaria 3C")


def test_both_forms_filled_names_the_columns_by_their_headers() -> None:
    s = state(army("Frank", "coalition", "3A"))
    row = TypedRow("orders", "Frank", 3, "turn 3", {"to": "3B", "order": "engage", "line": "Frank: 3A > 3B"}, "")
    with pytest.raises(CellError) as err:
        read_army_row(board(), s, row)
    assert "clear End square, Order, or the forum line" in str(err.value)


def test_a_mercenary_reads_as_a_mercenary() -> None:
    merc = army("Hired Blades", "mercenary", "5C", rank=2)
    foe = army("Frank", "coalition", "5D")
    s = CoalitionState(turn=3, phase=Phase.RESULTS, armies=(merc, foe),
                       battles=(Battle(BattleType.ATTACKS, "Dominaria 5C", ("Frank", "Hired Blades"),
                                       weather="Clear"),),
                       movement=(MoveReport("Hired Blades", Side.MERCENARY, "Dominaria 5B", "Dominaria 5C",
                                            ResultCode.MOVED, ""),))
    shown = "\n".join(str(c) for row in panel(s, board(), JUDGE) for c in row)
    assert "Hired Blades: Dominaria 5C · mercenary, rank 2" in shown
    assert "Lieutenant Commander" not in shown
    post = movement_results(s)
    assert "Hired Blades: a mercenary, moved by the engine" in post and "(no order)" not in post


def test_verify_names_a_move_report_by_its_army() -> None:
    said = first_difference({"movement": [{"army": "Frank", "end": "3B"}, {"army": "Jeff", "end": "3C"}]},
                            {"movement": [{"army": "Frank", "end": "3B"}, {"army": "Jeff", "end": "3D"}]})
    assert said == "movement[Jeff].end: recorded '3C', recomputed '3D'"


def test_a_partial_moves_reason_names_a_drawn_tie_or_the_steps() -> None:
    s = state(army("Ann", "coalition", "2C", rank=2), army("Cy", "coalition", "4C", rank=2),
              army("Di", "coalition", "3A", rank=2))
    tie = CoalitionOrders({"coalition": {"Ann": ArmyOrder(to="3C"), "Cy": ArmyOrder(to="3C")}})
    after, _ = resolve_orders(board(), SETTINGS, s, tie, dice({"partial/Dominaria 3C": ["Cy"]}))
    ann = next(m for m in after.movement if m.army == "Ann")
    assert ann.code is ResultCode.PARTIAL
    assert ann.note == "Cy and Ann were both 1 step from 3C: Cy was drawn to enter (partial/Dominaria 3C)"
    closer = CoalitionOrders({"coalition": {"Ann": ArmyOrder(to="3C"), "Di": ArmyOrder(to="3C")}})
    after, _ = resolve_orders(board(), SETTINGS, s, closer, dice())
    di = next(m for m in after.movement if m.army == "Di")
    assert di.note == "Ann is closer to 3C (1 step against 2)"


def test_a_transfer_names_the_receiving_armys_square() -> None:
    s = state(army("Ann", "coalition", "2C", rank=2), army("Cy", "coalition", "3C", rank=2))
    [verdict] = check_orders(board(), SETTINGS, s, CoalitionOrders({"coalition": {"Ann": ArmyOrder(
        word="transfer", target="Cy", units=(100, 0, 0, 0))}}))
    assert verdict.accepted and verdict.message == "Ann holds at 2C and transfers 100/0/0/0 to Cy on 3C"
