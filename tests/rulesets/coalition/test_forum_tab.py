"""Each side's Forum tab: a whole forum post pasted in (a line per row, or all of it in one cell), each line answered
in place, the post resolved, repaired and moved from the orders tab of a match made before the tab."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import load_workbook

from sheets_gm.match.config import MatchConfig
from sheets_gm.rulesets.coalition.sheet.adapter import CoalitionSheet
from sheets_gm.rulesets.coalition.sheet.read import read_side_rows
from sheets_gm.rulesets.coalition.state import ArmyOrder
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite, SheetError
from sheets_gm.sheets.layout import Grid, cells
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.rulesets.coalition.helpers import army, board, local_match, state

pytestmark = pytest.mark.xdist_group("coalition-forum-tab")  # one worker runs these: it makes _seed_match's once a run

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
CLS = get_ruleset("coalition")

FRANK = "Frank, the Intergalactic Space Toad"
#: The rulebook's own order lines (4.1.1 Engage, 4.1.3 Intercept), posted as a side's Movement post, with a title
#: and a line for the other side's army (Jeff the Owl is Phyrexia's).
SEED_POST = [
    "Coalition movement, turn 1",
    "",
    f"{FRANK}: 3A > 2B - engage Jeff the Owl",
    "The Frogettes: 2C – intercept Newt with a Blowfish",
    "",
    "Jeff the Owl: 2B - none",
]


def _line(subject: str, text: str) -> TypedRow:
    return TypedRow("post", subject, 5, "1", {"line": text}, "")


def test_each_line_of_the_forum_tab_is_read_as_its_armys_order_and_a_title_is_passed_over() -> None:
    s = state(army("Frank", "coalition", "3A"), army("Ann", "coalition", "5C"), army("Jeff", "phyrexia", "2B"))
    post = [_line("coalition line 1", "Our moves"), _line("coalition line 2", "Frank: 3A > 3B"),
            _line("coalition line 3", "Jeff: 2B - none")]
    read = read_side_rows(board(), s, [], post, "coalition")
    assert read.orders == {"Frank": ArmyOrder(line="Frank: 3A > 3B")}
    assert read.read_as == {"coalition line 2": ["Frank"]}
    assert "passed over" in read.notes["coalition line 1"][0]
    assert "an army of phyrexia, not of coalition: it goes nowhere" in read.problems["coalition line 3"][0]


def test_a_whole_post_pasted_in_one_cell_of_the_forum_tab_is_read_all_of_it() -> None:
    names = [f"Army {n:02d}" for n in range(40)]
    s = state(*(army(n, "coalition", f"{1 + n_ % 20}{'ABCDEFGHI'[n_ // 20]}") for n_, n in enumerate(names)))
    text = "\n".join(["Turn 1 orders", *(f"{n}: {a.at} - none" for n, a in zip(names, s.armies, strict=True))])
    read = read_side_rows(board(), s, [], [_line("coalition line 1", text)], "coalition")
    assert set(read.orders) == set(names) and read.read_as["coalition line 1"] == names
    assert "coalition line 1" not in read.problems


def test_a_line_beginning_with_an_armys_name_is_its_order_and_an_unknown_name_gets_the_nearest() -> None:
    """Issue 53, item 2: a dash typed for the colon was passed over as chatter and the army held; a misspelt name got
    no suggestion. A line that begins with an army's exact name is its order, answered; an unknown name is refused
    with the nearest names; a title or a greeting is still passed over."""
    s = state(army("Tolarian Fleet", "coalition", "3A"), army("Urza's Vanguard", "coalition", "5C"),
              army("Jeff", "phyrexia", "2B"))
    texts = ["Our moves, turn 3", "Tolarian Fleet - Dominaria; 3A > 3B", "Urzas Vanguard: Dominaria; 5C > 5D",
             "Hello all - good luck", "Tolarian Flet – Dominaria; 3A > 3B", "Tolarian Fleet 3A > 3B",
             "Tolarian Fleets are the best", "Tolarian Fleet"]
    read = read_side_rows(board(), s, [], [_line(f"coalition line {n}", t) for n, t in enumerate(texts, 1)],
                          "coalition")
    assert read.orders == {"Tolarian Fleet": ArmyOrder(line="Tolarian Fleet: Dominaria; 3A > 3B")}
    assert read.read_as == {"coalition line 2": ["Tolarian Fleet"]}
    assert "names no army ('Urzas Vanguard'; did you mean Urza's Vanguard?)" in read.problems["coalition line 3"][0]
    assert "names no army ('Tolarian Flet'; did you mean Tolarian Fleet?)" in read.problems["coalition line 5"][0]
    assert "begins with Tolarian Fleet's name but no colon follows it" in read.problems["coalition line 6"][0]
    assert "begins with Tolarian Fleet's name" in read.problems["coalition line 8"][0]  # the name alone
    assert {f"coalition line {n}" for n in (1, 4, 7)} <= set(read.notes)  # a title, a greeting: passed over
    assert not {f"coalition line {n}" for n in (1, 4, 7)} & set(read.problems)


def test_a_title_or_greeting_with_a_colon_is_passed_over_and_a_near_miss_keeps_its_refusal() -> None:
    """Issue 64, item 7: "Hi all, here are our moves:" and "Turn 3 orders:" were refused as naming no army and held
    the side's Ready. A line near no army's name and with no order's shape (a square, a plane, a '>') is a title;
    one near an army's name, or shaped as an order, is still refused, with "did you mean" where a name is near."""
    s = state(army("Tolarian Fleet", "coalition", "3A"), army("Urza's Vanguard", "coalition", "5C"))
    texts = ["Hi all, here are our moves:", "Turn 3 orders:", "Tolarian Fleet: Dominaria; 3A > 3B",
             "Urzas Vanguard: Dominaria; 5C > 5D", "Our plan: hold 5C", "Benalish Host - 10F"]
    read = read_side_rows(board(), s, [], [_line(f"coalition line {n}", t) for n, t in enumerate(texts, 1)],
                          "coalition")
    assert read.orders == {"Tolarian Fleet": ArmyOrder(line="Tolarian Fleet: Dominaria; 3A > 3B")}
    assert {"coalition line 1", "coalition line 2"} <= set(read.notes)
    assert set(read.problems) == {"coalition line 4", "coalition line 5", "coalition line 6"}
    assert "did you mean Urza's Vanguard?" in read.problems["coalition line 4"][0]
    assert "names no army ('Our plan')" in read.problems["coalition line 5"][0]


def test_an_army_named_twice_in_the_post_holds_and_both_lines_say_why() -> None:
    s = state(army("Frank", "coalition", "3A"))
    read = read_side_rows(board(), s, [], [_line("coalition line 1", "Frank: 3A > 3B"),
                                           _line("coalition line 2", "Frank: 3A > 4A")], "coalition")
    assert read.orders == {}
    assert all("Frank has 2 lines in the post" in read.problems[f"coalition line {n}"][0] for n in (1, 2))


def test_the_armys_own_row_wins_over_its_line_in_the_forum_tab_and_both_say_so() -> None:
    s = state(army("Frank", "coalition", "3A"))
    row = TypedRow("armies", "Frank", 5, "1", {"to": "4A"}, "")
    read = read_side_rows(board(), s, [row], [_line("coalition line 1", "Frank: 3A > 3B")], "coalition")
    assert read.orders == {"Frank": ArmyOrder(to="4A")}
    assert "an army's row wins over a pasted post" in read.problems["coalition line 1"][0]
    assert "this row's order wins over the post" in read.notes["Frank"][0] and "Frank" not in read.problems


def _seed_match(tmp_path: Path) -> tuple[MatchConfig, MatchSheets]:
    """A match of the rulebook's armies (4.1's examples) on local workbooks, created."""
    return local_match(tmp_path, [[FRANK, "coalition", 3, "Dominaria 3A", "2000/1000/600/600", "white blue", "white"],
                                  ["The Frogettes", "coalition", 2, "Dominaria 2C", "2000/1000/600/600", "white",
                                   "white"],
                                  ["Jeff the Owl", "phyrexia", 2, "Dominaria 2B", "2000/1000/600/600", "", ""],
                                  ["Newt with a Blowfish", "phyrexia", 1, "Dominaria 6A", "2000/1000/600/600", "",
                                   ""]], b"forum tab", NOW)


def _paste(sheets: MatchSheets, lines: list[str]) -> None:
    """``lines`` pasted from the first Post line cell of the Coalition's Forum tab down, a line per row."""
    table = read_match(sheets, CLS).seats["coalition"].tab.table("post")
    assert table.tab == "Forum coalition"
    sheets.of("coalition").write([RangeWrite(table.at(table.cell(0, "line")), [[line] for line in lines])])


def _forum(sheets: MatchSheets) -> dict[str, tuple[str, str]]:
    """The Coalition's Forum tab as read: each line's text and answer, by subject."""
    seat = read_match(sheets, CLS).seats["coalition"]
    return {r.subject: (r.text("line"), r.feedback) for r in seat.rows if r.table == "post"}


def test_the_rulebooks_post_pasted_in_the_forum_tab_is_answered_line_by_line_and_resolved(tmp_path: Path) -> None:
    config, sheets = _seed_match(tmp_path)
    _paste(sheets, SEED_POST)
    sync_once(config, sheets, now=NOW)
    lines = _forum(sheets)
    assert "passed over" in lines["coalition line 1"][1]
    assert lines["coalition line 3"][1].startswith(f"✔ read as {FRANK}'s order: "), lines["coalition line 3"]
    assert lines["coalition line 4"][1].startswith("✔ read as The Frogettes' order: "), lines["coalition line 4"]
    assert lines["coalition line 6"][1].startswith("✘ ") and "goes nowhere" in lines["coalition line 6"][1]
    armies = {r.subject: r.feedback for r in read_match(sheets, CLS).seats["coalition"].rows if r.table == "armies"}
    assert lines["coalition line 3"][1].removeprefix(f"✔ read as {FRANK}'s order: ") in armies[FRANK]
    assert "ordered by the pasted post's line in coalition line 3" in armies[FRANK]  # told in both places
    report = sync_once(config, sheets, now=NOW, force=True)
    assert report.resolved
    after = read_match(sheets, CLS)
    battles = {(b.at, frozenset(b.armies)) for b in after.record.state.battles}
    assert ("Dominaria 2B", frozenset({FRANK, "Jeff the Owl"})) in battles
    lines = _forum(sheets)
    assert lines["coalition line 3"][0] == "" and lines["coalition line 4"][0] == ""  # carried out: cleared
    # refused: a post is one turn's, so the line is set aside with why, never read in a later turn
    assert lines["coalition line 6"][0] == ""
    assert lines["coalition line 6"][1].startswith("✘ Not carried out in turn 1 · orders, and set aside to your "
                                                   "Archive: ") and "goes nowhere" in lines["coalition line 6"][1]
    (archive,) = sheets.of("coalition").read(["'Archive coalition'!A1:B40"])
    said = "\n".join(str(c) for line in archive for c in line if c)
    assert "Turn 1 · orders was closed by the GM (resolve --force) and resolved with what you typed:" in said, said
    assert f"coalition line 3 — Post line: {FRANK}: 3A > 2B" in said, said  # the header without its hint
    assert "coalition line 6 — Post line: Jeff the Owl: 2B - none — not carried out (" in said, said
    assert "goes nowhere" in said, said
    assert "set aside, no longer in your rows (a line is read for the window it was typed in" in said, said


def test_a_line_carried_out_says_whose_order_it_was_beside_the_empty_rows_words(tmp_path: Path) -> None:
    """Issue 93, item 9: a line carried out said "✔ Carried out in turn 1 · orders (the Log says what it did). ·
    Empty.", read as the Log saying "Empty". It names the army whose order it was, and an empty line's words say
    what the line is for."""
    config, sheets = _seed_match(tmp_path)
    _paste(sheets, SEED_POST)
    sync_once(config, sheets, now=NOW)
    assert sync_once(config, sheets, now=NOW, force=True).resolved  # the orders
    assert sync_once(config, sheets, now=NOW, force=True).resolved  # the judge's results: turn 2's orders open
    lines = _forum(sheets)
    assert lines["coalition line 3"] == ("", f"✔ Carried out in turn 1 · orders: read as {FRANK}'s order; the Log "
                                             "says what it did. · Free for a line of your side's post.")
    assert lines["coalition line 9"] == ("", "Free for a line of your side's post.")


def test_a_renamed_forum_tab_is_laid_out_again_with_its_lines_and_a_deleted_one_drawn_again(tmp_path: Path) -> None:
    config, sheets = _seed_match(tmp_path)
    _paste(sheets, SEED_POST[:3])
    path = Path(sheets.of("coalition").name)
    book = load_workbook(path)
    book["Forum coalition"].title = "my post"
    book.save(path)
    sheets = open_match_sheets(config)
    report = repair_match(sheets, CLS)
    assert any("'Forum coalition' was missing" in n and "'my post'" in n for n in report.notes), report.notes
    assert _forum(sheets)["coalition line 3"][0] == f"{FRANK}: 3A > 2B - engage Jeff the Owl"
    book = load_workbook(path)
    del book["Forum coalition"]
    del book["my post"]
    book.save(path)
    sheets = open_match_sheets(config)
    report = repair_match(sheets, CLS)
    assert any("'Forum coalition' was missing" in n and "nothing typed" in n for n in report.notes), report.notes
    sync_once(config, sheets, now=NOW)  # the match reads again
    assert _forum(sheets)["coalition line 1"] == ("", _forum(sheets)["coalition line 1"][1])


def test_repair_moves_the_post_table_of_an_orders_tab_made_before_the_forum_tab(tmp_path: Path) -> None:
    """A match made before the Forum tab kept the post table in the orders tab, above the Ready row: repair lays
    the Forum tab out and writes the typed lines there, and the orders tab's Ready row back where it belongs."""
    config, sheets = _seed_match(tmp_path)
    read = read_match(sheets, CLS)
    tab = read.seats["coalition"].tab
    side = tab.table("side")
    path = Path(sheets.of("coalition").name)
    book = load_workbook(path)
    del book["Forum coalition"]
    orders = book["Orders coalition"]
    title = ("Or paste your side's whole forum post here: click the first Post line cell, paste (a line per row; "
             "each army's line is its order)")
    old: list[list[str | None]] = [[title],
           ["Line", "For", "Post line (Army: Plane; 3A > 3B - engage Target)", *[None] * 8, "Feedback"],
           ["coalition line 1", "1", "Our moves"],
           ["coalition line 2", "1", f"{FRANK}: 3A > 2B - engage Jeff the Owl"],
           ["coalition line 3", "1", None], []]
    orders.insert_rows(side.title_row, len(old))
    for r, line in enumerate(old):
        for c, value in enumerate(line):
            orders.cell(side.title_row + r, c + 1, value)
    book.save(path)
    sheets = open_match_sheets(config)
    with pytest.raises(SheetError, match="repair"):  # the poll reads nothing of a layout it does not know
        sync_once(config, sheets, now=NOW)
    report = repair_match(sheets, CLS)
    assert any("now has tab 'Forum coalition' of its own" in n for n in report.notes), report.notes
    lines = _forum(sheets)
    assert lines["coalition line 2"][0] == f"{FRANK}: 3A > 2B - engage Jeff the Owl"
    sync_once(config, sheets, now=NOW)
    seat = read_match(sheets, CLS).seats["coalition"]
    assert not seat.strays, [(s.row, s.feedback) for s in seat.strays]
    assert _forum(sheets)["coalition line 2"][1].startswith(f"✔ read as {FRANK}'s order")


def test_a_forum_tab_saved_from_a_copy_older_than_the_resolution_is_not_read_again(tmp_path: Path) -> None:
    """The side's office program held its file with the post pasted; the orders resolved; the file is then saved
    over the sync's write. The lines already carried out are not read again (the Archive says why), and the
    Forum tab is drawn again as the open window draws it."""
    config, sheets = _seed_match(tmp_path)
    _paste(sheets, SEED_POST[:4])
    path = Path(sheets.of("coalition").name)
    held = path.read_bytes()
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    path.write_bytes(held)  # saved over the sync's write
    sheets = open_match_sheets(config)
    report = sync_once(config, sheets, now=NOW)
    assert report.older_copies == ["coalition"] and not report.resolved
    lines = _forum(sheets)
    assert all(text == "" for text, _said in lines.values()), lines
    (archive,) = sheets.of("coalition").read(["'Archive coalition'!A1:B60"])
    said = " ".join(str(c) for line in archive for c in line if c)
    assert "already carried out" in said and f"{FRANK}: 3A > 2B - engage Jeff the Owl" in said


def test_text_typed_under_a_full_forum_table_is_answered_as_past_it_never_read_as_a_line(tmp_path: Path) -> None:
    """A side of 21 armies: its Forum table has a drawn line in every row (2 a army and 20 more, past the 60 it is
    laid out with), and column A just under it was taken for one more of its rows, then emptied (issue 38)."""
    armies = [[f"Army {n:02d}", "coalition", 1, f"Dominaria {1 + n % 9}{'ABC'[n // 9]}", "2000/1000/600/600", "white",
               "white"] for n in range(21)]
    config, sheets = local_match(tmp_path, [*armies, ["Jeff the Owl", "phyrexia", 2, "Dominaria 12B",
                                                      "2000/1000/600/600", "", ""]], b"forum tab", NOW)
    table = read_match(sheets, CLS).seats["coalition"].tab.table("post")
    assert table.rows == 62
    _paste(sheets, [f"Line {n}" for n in range(table.rows)])  # every line of the table typed
    under = f"'{table.tab}'!A{table.last_row + 1}:D{table.last_row + 1}"
    sheets.of("coalition").write([RangeWrite(under, [["Army 03: Dominaria; 4A > 4B"]])])
    report = sync_once(config, sheets, now=NOW)
    row = f"Row {table.last_row + 1}"
    assert (f"coalition · row {table.last_row + 1}", f"{row} is under the last table, which ends at row "
            f"{table.last_row}: nothing typed in it is read; write orders in the rows of the tables.") in \
        report.rejected, report.rejected
    (line,) = sheets.of("coalition").read([under])[0:1]
    assert line[0][0] == "Army 03: Dominaria; 4A > 4B" and str(line[0][3]).startswith(f"✘ {row} is under"), line
    assert read_match(sheets, CLS).seats["coalition"].tab.table("post").rows == 62  # not one more line
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    (line,) = sheets.of("coalition").read([under])[0:1]
    assert line[0][0] == "Army 03: Dominaria; 4A > 4B", line  # never wiped


def _old_layout(sheets: MatchSheets, named: int) -> None:
    """The Coalition's Forum tab as an earlier version drew it: only its first ``named`` rows named (two a army and
    20 more), the rows under them, to the table's end, left blank."""
    table = read_match(sheets, CLS).seats["coalition"].tab.table("post")
    blank: Grid = [[""] * table.width for _ in range(named, table.rows)]
    where = cells(0, table.first_row + named, table.width - 1, table.last_row)
    sheets.of("coalition").write([RangeWrite(table.at(where), blank)])


def _type_line(sheets: MatchSheets, index: int, text: str) -> None:
    """``text`` typed in the Post line cell of the Forum table's row ``index`` (0-based)."""
    table = read_match(sheets, CLS).seats["coalition"].tab.table("post")
    sheets.of("coalition").write([RangeWrite(table.at(table.cell(index, "line")), [[text]])])


def _row(sheets: MatchSheets, index: int) -> list[object]:
    """The Forum table's row ``index`` (0-based) as the side sees it: Line, For, Post line, Feedback."""
    table = read_match(sheets, CLS).seats["coalition"].tab.table("post")
    row = table.first_row + index
    (grid,) = sheets.of("coalition").read([table.at(cells(0, row, table.width - 1, row))])
    return [*grid[0], *[""] * (table.width - len(grid[0]))] if grid else [""] * table.width


ENGAGE = f"{FRANK}: 3A > 2B - engage Jeff the Owl"


def test_every_row_of_the_forum_table_is_a_line_and_one_pasted_past_the_sides_own_lines_is_read(
        tmp_path: Path) -> None:
    """A side of two armies has 24 lines of its own (two a army and 20 more), and its Forum table the 60 rows it is
    laid out with at least: each of the 60 is a line, so a long post pasted down the tab is read to its last row
    (issue 38: the rows past the 24th had no Line and answered that nothing typed in them is read)."""
    config, sheets = _seed_match(tmp_path)
    table = read_match(sheets, CLS).seats["coalition"].tab.table("post")
    assert table.rows == 60
    names = [_row(sheets, i)[0] for i in (0, 23, 24, 59)]
    assert names == ["coalition line 1", "coalition line 24", "coalition line 25", "coalition line 60"]
    _type_line(sheets, 24, ENGAGE)
    _type_line(sheets, 59, "Newt with a Blowfish: 6A - none")
    sync_once(config, sheets, now=NOW)
    lines = _forum(sheets)
    assert lines["coalition line 25"] == (ENGAGE, lines["coalition line 25"][1])
    assert lines["coalition line 25"][1].startswith(f"✔ read as {FRANK}'s order: "), lines["coalition line 25"]
    assert "goes nowhere" in lines["coalition line 60"][1]  # the other side's army: read, and refused by name
    assert not read_match(sheets, CLS).seats["coalition"].strays
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    after = read_match(sheets, CLS)
    assert ("Dominaria 2B", frozenset({FRANK, "Jeff the Owl"})) in \
        {(b.at, frozenset(b.armies)) for b in after.record.state.battles}
    assert _forum(sheets)["coalition line 25"][0] == ""  # carried out: cleared, and in the Archive
    (archive,) = sheets.of("coalition").read(["'Archive coalition'!A1:B40"])
    assert f"coalition line 25 — Post line: {ENGAGE}" in "\n".join(str(c) for line in archive for c in line if c)
    assert [_row(sheets, i)[0] for i in (24, 59)] == ["coalition line 25", "coalition line 60"]  # drawn again


@pytest.mark.parametrize("resolve", [False, True], ids=["poll", "poll that resolves"])
def test_a_line_typed_in_a_row_an_older_version_left_without_a_name_is_read_and_its_name_drawn_in(
        tmp_path: Path, resolve: bool) -> None:
    """A match laid out by an earlier version named only the side's own 24 lines of its 60-row Forum table: a line
    typed in one of the rows under them is read as the line its place names, on the first poll (one that resolves
    carries it out), and the poll draws that name in."""
    config, sheets = _seed_match(tmp_path)
    _old_layout(sheets, 24)
    assert _row(sheets, 30) == ["", "", "", ""]
    _type_line(sheets, 30, ENGAGE)
    report = sync_once(config, sheets, now=NOW, force=resolve)
    assert report.resolved is resolve
    assert not [r for r in report.rejected if "no Line" in r[1]], report.rejected
    if not resolve:
        assert _row(sheets, 30)[:3] == ["coalition line 31", "1", ENGAGE]
        assert str(_row(sheets, 30)[3]).startswith(f"✔ read as {FRANK}'s order: "), _row(sheets, 30)
        assert sync_once(config, sheets, now=NOW, force=True).resolved
    after = read_match(sheets, CLS)
    assert ("Dominaria 2B", frozenset({FRANK, "Jeff the Owl"})) in \
        {(b.at, frozenset(b.armies)) for b in after.record.state.battles}
    assert [_row(sheets, i)[0] for i in (24, 30, 59)] == ["coalition line 25", "coalition line 31",
                                                           "coalition line 60"]  # every row named once redrawn
    (archive,) = sheets.of("coalition").read(["'Archive coalition'!A1:B40"])
    assert f"coalition line 31 — Post line: {ENGAGE}" in "\n".join(str(c) for line in archive for c in line if c)


def test_repair_of_a_forum_tab_an_older_version_left_rows_without_a_name_keeps_the_line_typed_there(
        tmp_path: Path) -> None:
    """``repair`` lays an old Forum tab out with every row named and keeps a line typed in a row that had no name,
    in that row, which the next poll reads."""
    config, sheets = _seed_match(tmp_path)
    _old_layout(sheets, 24)
    _type_line(sheets, 40, ENGAGE)
    repair_match(sheets, CLS)
    assert _row(sheets, 40)[:3] == ["coalition line 41", "1", ENGAGE]
    assert _row(sheets, 59)[0] == "coalition line 60"
    sync_once(config, sheets, now=NOW)
    assert _forum(sheets)["coalition line 41"][1].startswith(f"✔ read as {FRANK}'s order: ")
    assert not read_match(sheets, CLS).seats["coalition"].strays


def test_a_forum_table_larger_than_the_side_needs_now_names_every_row_it_has() -> None:
    """A side that lost armies keeps the Forum table it was laid out with (tables never shrink): each of its rows
    stays a line, while the armies table names only the armies left, the rows under them blank."""
    sheet = CoalitionSheet(board())
    s = state(army("Frank", "coalition", "3A"), army("Ann", "coalition", "5C"), army("Jeff", "phyrexia", "2B"))
    tab = MatchTabs(sheet.spec, ("coalition", "phyrexia"), True, {"coalition": {"post": 75}}).orders("coalition")
    assert len(sheet.rows(s, "coalition", tab.table("post").spec)) == 24  # what the side needs now
    lines = sheet.laid_out_rows(s, "coalition", tab.table("post"))
    assert lines == [f"coalition line {n}" for n in range(1, 76)]
    assert sheet.laid_out_rows(s, "coalition", tab.table("armies")) == ["Ann", "Frank"]


def _army_cell(sheets: MatchSheets, army_name: str, key: str, text: str) -> None:
    """``text`` typed in ``army_name``'s row of the Coalition's orders tab, in column ``key``."""
    seat = read_match(sheets, CLS).seats["coalition"]
    row = next(r for r in seat.rows if r.table == "armies" and r.subject == army_name)
    table = seat.tab.table("armies")
    sheets.of("coalition").write([RangeWrite(table.at(table.cell(row.row - table.first_row, key)), [[text]])])


def test_a_post_line_not_carried_out_in_its_turn_is_set_aside_never_carried_out_in_a_later_one(
        tmp_path: Path) -> None:
    """Issue 53, item 1: the line whose army's own row won (and the line the engine refused) were left in the Forum
    tab and became the army's order in the next turn, printed in its Movement Results. A post is one turn's: once
    the turn resolves, each line is carried out or set aside with why, and a later turn never reads it."""
    config, sheets = _seed_match(tmp_path)
    _paste(sheets, [f"{FRANK}: 3A > 3B", "The Frogettes: 2C > 99Z"])
    _army_cell(sheets, FRANK, "order", "intercept")  # the army's own row wins over its line
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    lines = _forum(sheets)
    for n, why in ((1, f"{FRANK}'s line is not read"), (2, "'99Z' is off Dominaria")):
        text, said = lines[f"coalition line {n}"]
        assert text == "" and said.startswith("✘ Not carried out in turn 1 · orders, and set aside to your Archive")
        assert why in said and "a line is read for the window it was typed in" in said, said
    (archive,) = sheets.of("coalition").read(["'Archive coalition'!A1:B40"])
    said = " ".join(str(c) for line in archive for c in line if c)
    assert f"{FRANK}: 3A > 3B — not carried out ({FRANK}'s line is not read" in said, said
    before = read_match(sheets, CLS).record.state
    assert sync_once(config, sheets, now=NOW, force=True).resolved  # turn 2, nothing typed
    after = read_match(sheets, CLS).record.state
    assert after.turn == before.turn + 1
    assert [a.at for a in after.armies] == [a.at for a in before.armies]  # nobody moved
    assert not [m for m in after.movement if m.order], after.movement  # no order carried out, none printed


def test_chatter_struck_out_lines_and_withdrawn_orders_are_read_so_and_none_is_refused() -> None:
    """Issue 78, item 4: prose naming a plane was refused as an order, ``~~Army: …~~ withdrawn`` as naming no army
    ``~~Army`` (the army's earlier line still carried out), and ``Army: withdrawn`` made a second line for the army,
    both refused. Prose is chatter, a struck-out line is no order, ``withdrawn`` makes the army hold; none of them is
    a refusal (none holds the side's Ready)."""
    s = state(army("Frank", "coalition", "3A"), army("Ann", "coalition", "5C"), army("Bo", "coalition", "6C"),
              army("Cy", "coalition", "7C"), army("Jeff", "phyrexia", "2B"))
    texts = ["lol good luck Phyrexia, you'll need it", "Frank: 3A > 3B", "~~Frank: 3A > 3B~~ withdrawn",
             "Ann: 5C > 5D", "Ann: withdrawn", "~~Bo: 6C > 6D~~", "Cy: 7C > ~~7D~~ 8C", "[s]Cy: 7C > 7D[/s]"]
    read = read_side_rows(board(), s, [], [_line(f"coalition line {n}", t) for n, t in enumerate(texts, 1)],
                          "coalition")
    assert read.problems == {}, read.problems
    assert read.orders == {"Cy": ArmyOrder(line="Cy: 7C > 8C")}  # the struck-out square taken out of the line
    assert "passed over" in read.notes["coalition line 1"][0]
    assert read.notes["coalition line 3"] == ["Frank's order is withdrawn: Frank holds this turn"]
    assert read.notes["coalition line 2"] == ["this line is not read: Frank's order is withdrawn (coalition line 3), "
                                              "so it holds"]
    assert read.notes["coalition line 5"] == ["Ann's order is withdrawn: Ann holds this turn"]
    assert "Ann's order is withdrawn (coalition line 5)" in read.notes["coalition line 4"][0]
    assert "is struck out, so it is no order" in read.notes["coalition line 6"][0]
    assert "is struck out, so it is no order" in read.notes["coalition line 8"][0]
    assert "its order is withdrawn by the pasted post (coalition line 3): it holds" in read.notes["Frank"]


def test_a_post_of_chatter_struck_and_withdrawn_lines_holds_no_ready_and_the_armies_hold(tmp_path: Path) -> None:
    """The same lines through a poll: each answered without a ✘, nothing refused, and at the resolution the
    withdrawn army holds while the other's order is carried out."""
    config, sheets = _seed_match(tmp_path)
    _paste(sheets, ["lol good luck Phyrexia, you'll need it", f"{FRANK}: 3A > 3B",
                    f"~~{FRANK}: 3A > 3B~~ withdrawn", "The Frogettes: 2C > 3C", "~~The Frogettes: 2C > 2D~~"])
    report = sync_once(config, sheets, now=NOW)
    assert not report.rejected, report.rejected
    lines = _forum(sheets)
    assert not any(said.startswith("✘") for _text, said in lines.values()), lines
    assert "withdrawn" in lines["coalition line 3"][1], lines
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    armies = {a.name: a.at for a in read_match(sheets, CLS).record.state.armies}
    assert armies[FRANK] == "Dominaria 3A" and armies["The Frogettes"] == "Dominaria 3C", armies


def test_quoted_lines_ignore_my_last_a_new_order_after_a_struck_one_and_a_struck_order_with_a_note() -> None:
    """Issue 93, item 4 (rulings, "Forum posts as they are pasted"): a quoted line (``> …``, ``[quote=…]…[/quote]``)
    was refused with a "did you mean" naming the enemy's army and held Ready; ``ignore my last`` was passed over
    while the line it took back was carried out; a withdrawn line then a new order for the same army left it
    holding; ``Army: ~~…~~ oops`` was refused. Quotes hold nothing, ``ignore my last`` takes the line back, the later
    line stands, and a struck-out order with a note is no order; nothing here is refused."""
    s = state(army("Frank", "coalition", "3A"), army("Ann", "coalition", "5C"), army("Bo", "coalition", "6C"),
              army("Cy", "coalition", "7C"), army("Jeff", "phyrexia", "2B"))
    texts = ["> Jeff: Phyrexia; 2B > 2C", "[quote=Jeff]Jeff: Phyrexia; 2B > 2C", "Jeff: Phyrexia; 2C > 2D[/quote]",
             "Frank: Dominaria; 3A > 3B", "ignore my last",
             "~~Ann: Dominaria; 5C > 5D~~ withdrawn", "Ann: Dominaria; 5C > 6C",
             "Bo: ~~Dominaria; 6C > 6D~~ oops",
             "Cy: Dominaria; 7C > 7D", "Disregard my last: Cy"]
    read = read_side_rows(board(), s, [], [_line(f"coalition line {n}", t) for n, t in enumerate(texts, 1)],
                          "coalition")
    assert read.problems == {}, read.problems
    assert read.orders == {"Ann": ArmyOrder(line="Ann: Dominaria; 5C > 6C")}, read.orders
    for n in (1, 2, 3):
        assert "is quoted, someone else's words" in read.notes[f"coalition line {n}"][0], read.notes
    assert read.notes["coalition line 4"] == ["not read: taken back by 'ignore my last' (coalition line 5): Frank "
                                              "holds unless another line orders it"]
    assert read.notes["coalition line 9"][0].startswith("not read: taken back by 'Disregard my last: Cy'")
    assert "is struck out, so it is no order" in read.notes["coalition line 8"][0]
    assert "a later line for Ann stands" in read.notes["coalition line 6"][0], read.notes


def test_an_army_named_in_s_owns_its_line_as_english_does() -> None:
    """Issue 93, item 9: "Zhalfirin Lancers's line is not read"."""
    from sheets_gm.rulesets.coalition.sheet.read import _row_wins

    assert _row_wins("Zhalfirin Lancers", "coalition line 2")[0].startswith(
        "Zhalfirin Lancers' line is not read: Zhalfirin Lancers' own row")
