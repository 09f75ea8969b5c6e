"""A ruleset's sheet layout as data (``layout.yaml``): what it accepts, and what it says when it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.sheets.layout import cells
from sheets_gm.sheets.spec import ColumnKind, SheetSpecError, load_sheet_spec
from sheets_gm.sheets.tables import InputTab, ticked
from tests.sync.race_game import TEMPLATE

GOOD = (TEMPLATE / "layout.yaml").read_text(encoding="utf-8")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "layout.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_test_games_layout_reads_with_defaults_for_what_it_leaves_out(tmp_path: Path) -> None:
    spec = load_sheet_spec(write(tmp_path, GOOD))
    assert spec.tabs.orders == "Orders {seat}" and spec.headers.engine.startswith("sheets-gm engine")
    runners = spec.inputs[0]
    assert [c.kind for c in runners.columns][:3] == [ColumnKind.SUBJECT, ColumnKind.WINDOW, ColumnKind.SHOWN]
    assert runners.column("pace").values == ("run", "walk")


@pytest.mark.parametrize(("change", "message"), [
    ("kind: choice, values: [run, walk]", "kind: text, values: [run, walk]"),
    ("{key: pace, header: Pace", "{key: Pace!, header: Pace"),
    ("min_rows: 3", "min_rows: 0"),
    ("rows: seat\n", "rows: seat\n    min_rows: 2\n"),
    ("rows: seat\n", "rows: seat\n    numbered: true\n"),
    ("      - {key: feedback, header: Feedback, kind: feedback}\n  - name: seat",
     "  - name: seat"),
    ("title: Your turn", "title: Your turn\n    colour: red"),
])
def test_a_malformed_layout_is_refused_naming_the_file_and_the_field(tmp_path: Path, change: str,
                                                                     message: str) -> None:
    assert change in GOOD
    path = write(tmp_path, GOOD.replace(change, message, 1))
    with pytest.raises(SheetSpecError) as caught:
        load_sheet_spec(path)
    assert str(path) in str(caught.value) and "inputs" in str(caught.value)


def test_a_layout_without_a_seat_table_is_refused(tmp_path: Path) -> None:
    text = GOOD[: GOOD.index("  - name: seat")]
    with pytest.raises(SheetSpecError, match="give a seat table"):
        load_sheet_spec(write(tmp_path, text))


def test_a_missing_or_unreadable_file_is_a_message(tmp_path: Path) -> None:
    with pytest.raises(SheetSpecError, match=r"none\.yaml: cannot read the file"):
        load_sheet_spec(tmp_path / "none.yaml")
    with pytest.raises(SheetSpecError, match="line"):
        load_sheet_spec(write(tmp_path, "inputs: [\n"))


def test_tables_stack_on_the_tab_with_a_title_and_header_each(tmp_path: Path) -> None:
    spec = load_sheet_spec(write(tmp_path, GOOD))
    tab = InputTab.place("Orders Ann", "title", spec.inputs)
    runners, notes, seat = tab.tables
    assert (runners.title_row, runners.header_row, runners.first_row, runners.last_row) == (3, 4, 5, 7)
    assert (notes.title_row, notes.first_row, seat.title_row, seat.header_row, seat.first_row) == (9, 11, 15, 16, 17)
    assert seat.cell(0, "feedback") == "E17" and notes.cell(0, "feedback") == "E11"  # feedback lines up in E
    assert tab.read_range() == "'Orders Ann'!A1:E"  # open-ended: the tables grow with the match
    layout = tab.layout(spec.colours, ("ann@example.org",))
    assert [d.range for d in layout.dropdowns] == ["D5:D7"]
    assert [c.range for c in layout.checkboxes] == ["C17:C17"]
    open_cells = [p.range for p in layout.protections if p.player_input]
    assert open_cells == ["D5:D7", "C11:C13", "C17:C17"]
    assert all(p.editors == ("ann@example.org",) for p in layout.protections if p.player_input)
    # A table narrower than the tab leaves cells between its columns and the feedback: nobody types there.
    unused = {p.range for p in layout.protections if p.description.endswith("no column here")}
    assert unused == {"D11:D13", "D17:D17"} and not any(p.player_input for p in layout.protections
                                                        if p.range in unused)


def test_the_status_line_runs_on_to_the_right_rather_than_wrapping_in_column_a(tmp_path: Path) -> None:
    spec = load_sheet_spec(write(tmp_path, GOOD))
    layout = InputTab.place("Orders Ann", "title", spec.inputs).layout(spec.colours, ())
    status = [f for f in layout.fills if f.range == "A2:E2"]
    assert status and not any(f.wrap for f in status)  # wrapped in a narrow column A, a long status was cut off


def test_every_cell_of_a_table_wraps_so_a_long_answer_is_read_whole(tmp_path: Path) -> None:
    """The feedback, the shown cells and the typed cells wrap from their top (Google then grows the row to its
    text, and the local backend sets the row's height): a long answer is never drawn over the rows under it."""
    spec = load_sheet_spec(write(tmp_path, GOOD))
    tab = InputTab.place("Orders Ann", "title", spec.inputs)
    layout = tab.layout(spec.colours, ())
    wrapped = {f.range for f in layout.fills if f.wrap}
    for t in tab.tables:
        for i, c in t.columns():
            assert cells(i, t.first_row, i, t.last_row) in wrapped, (t.spec.name, c.key)


@pytest.mark.parametrize(("value", "expected"), [(True, True), (False, False), ("TRUE", True), ("x", True),
                                                 ("", False), (None, False), ("no", False)])
def test_a_tick_box_reads_as_ticked_when_a_sheet_without_boxes_says_yes(value: object, expected: bool) -> None:
    assert ticked(value) is expected  # type: ignore[arg-type]


def test_a_bad_value_is_named_with_its_line(tmp_path: Path) -> None:
    text = GOOD.replace("min_rows: 3", "min_rows: 0")
    line = text.splitlines().index("    min_rows: 0") + 1
    with pytest.raises(SheetSpecError, match=rf"line {line}: inputs\.0\.min_rows: Input should be greater"):
        load_sheet_spec(write(tmp_path, text))


def test_the_judges_view_takes_its_own_widths_and_a_bad_one_is_named(tmp_path: Path) -> None:
    """Issue 64: a seat's View keeps narrow the columns only the judge's panel fills (Coalition's sides printed
    three pages across of empty battle columns); the judge's and the GM's take ``judge_view_widths``."""
    spec = load_sheet_spec(write(tmp_path, "view_widths: {3: 20}\njudge_view_widths: {3: 330}\n" + GOOD))
    assert spec.view_columns(judging=False) == {3: 20} and spec.view_columns(judging=True) == {3: 330}
    assert load_sheet_spec(write(tmp_path, "view_widths: {3: 20}\n" + GOOD)).view_columns(judging=True) == {3: 20}
    with pytest.raises(SheetSpecError, match=r"judge_view_widths: column 8 at 330 px"):
        load_sheet_spec(write(tmp_path, "judge_view_widths: {8: 330}\n" + GOOD))
