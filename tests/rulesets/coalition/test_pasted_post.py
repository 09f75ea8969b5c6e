"""A whole forum post pasted in one army's forum line cell: each army named gets its line, with its own feedback."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sheets_gm.match.config import MatchConfig
from sheets_gm.rulesets.coalition.check import check_orders
from sheets_gm.rulesets.coalition.sheet.read import read_side_rows
from sheets_gm.rulesets.coalition.state import ArmyOrder, CoalitionOrders
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import a1
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.read import MatchRead, read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.rulesets.coalition.helpers import SETTINGS, army, board, state, war_of_three_a_side

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)

POST = """Coalition orders, turn 3

Frank: Dominaria; 3A > 3B
Ann: Dominaria; 5C > 5D > 5E
Nobody: Dominaria; 1A > 1B
"""


def _row(subject: str, values: dict[str, object]) -> TypedRow:
    return TypedRow("armies", subject, 3, "3", values, "")  # type: ignore[arg-type]


def test_a_pasted_post_gives_each_army_its_line_and_names_what_it_cannot_place() -> None:
    s = state(army("Frank", "coalition", "3A"), army("Ann", "coalition", "5C"), army("Bo", "coalition", "7C"))
    read = read_side_rows(board(), s, [_row("Frank", {"line": POST}), _row("Ann", {}), _row("Bo", {})])
    assert read.orders == {"Frank": ArmyOrder(line="Frank: Dominaria; 3A > 3B"),
                           "Ann": ArmyOrder(line="Ann: Dominaria; 5C > 5D > 5E")}
    said = " ".join(read.problems["Frank"])
    assert "'Coalition orders, turn 3' has no army name before a colon" in said
    assert "names no army ('Nobody')" in said
    verdicts = {v.subject: v for v in check_orders(board(), SETTINGS, s, CoalitionOrders(orders={"coalition":
                                                                                               read.orders}))}
    assert verdicts["Frank"].accepted and verdicts["Ann"].accepted and "5C > 5D > 5E" in verdicts["Ann"].message


def test_an_army_in_the_post_with_its_own_row_filled_too_keeps_its_rows_order_and_both_say_so() -> None:
    s = state(army("Frank", "coalition", "3A"), army("Ann", "coalition", "5C"))
    read = read_side_rows(board(), s, [_row("Frank", {"line": "Frank: 3A > 3B\nAnn: 5C > 5D"}),
                                       _row("Ann", {"to": "4C"})])
    assert read.orders == {"Frank": ArmyOrder(line="Frank: 3A > 3B"), "Ann": ArmyOrder(to="4C")}
    assert "row wins over a pasted post" in read.problems["Frank"][0]  # the row the post was pasted in
    assert "this row's order wins over the post" in read.notes["Ann"][0]  # the army's own row, no refusal
    assert "Ann" not in read.problems


def _three_a_side(tmp_path: Path, seed: bytes) -> tuple[MatchConfig, MatchSheets, MatchRead]:
    """A match of three armies a side on local workbooks, created (once a test run for each seed, each caller a
    copy: ``tests/made.py``) and read."""
    config = war_of_three_a_side(tmp_path, seed, NOW)
    sheets = open_match_sheets(config)
    return config, sheets, read_match(sheets, get_ruleset("coalition"))


def test_a_post_pasted_in_the_sheet_gives_each_named_army_its_feedback(tmp_path: Path) -> None:
    config, sheets, read = _three_a_side(tmp_path, b"post")
    cls = get_ruleset("coalition")
    tab = read.seats["coalition"].tab
    armies = tab.table("armies")
    rows = [r for r in read.seats["coalition"].rows if r.table == "armies"]
    at = {a.name: a.at for a in read.record.state.armies}
    first, second = rows[0].subject, rows[1].subject
    post = f"Our orders\n{first}: {at[first]}\n{second}: {at[second]} - none\n"
    sheets.of("coalition").write([RangeWrite(a1(tab.name, armies.cell(0, "line")), [[post]])])
    sync_once(config, sheets, now=NOW)
    after = {r.subject: r.feedback for r in read_match(sheets, cls).seats["coalition"].rows if r.table == "armies"}
    assert f"{second} holds at" in after[second], after[second]
    assert f"{first} holds at" in after[first] and "'Our orders' has no army name" in after[first], after[first]
    report = sync_once(config, sheets, now=NOW, dry_run=True)
    assert second not in report.untyped.get("coalition", []) and first not in report.untyped.get("coalition", [])
    assert report.untyped["coalition"] == [r.subject for r in rows[2:]]  # the armies no line names


def test_a_whole_post_pasted_in_the_forum_post_table_orders_each_army_it_names(tmp_path: Path) -> None:
    config, sheets, read = _three_a_side(tmp_path, b"post")
    cls = get_ruleset("coalition")
    tab = read.seats["coalition"].tab
    table = tab.table("post")
    at = {a.name: a.at for a in read.record.state.armies}
    names = [r.subject for r in read.seats["coalition"].rows if r.table == "armies"]
    post = ["Coalition orders, turn 1", "", *(f"{n}: {at[n]} - none" for n in names), "Nobody: Dominaria; 1A > 1B"]
    sheets.of("coalition").write([RangeWrite(table.at(table.cell(0, "line")), [[line] for line in post])])
    sync_once(config, sheets, now=NOW)
    seat = read_match(sheets, cls).seats["coalition"]
    armies = {r.subject: r.feedback for r in seat.rows if r.table == "armies"}
    assert all(f"{n} holds at" in armies[n] for n in names), armies
    lines = {r.subject: r.feedback for r in seat.rows if r.table == "post"}
    nobody = f"coalition line {len(post)}"
    assert "names no army ('Nobody')" in lines[nobody] and lines[nobody].startswith("✘")
    assert not any(f.startswith("✘") for s, f in lines.items() if s != nobody), lines
    report = sync_once(config, sheets, now=NOW, dry_run=True)
    assert "coalition" not in report.untyped
