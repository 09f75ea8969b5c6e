"""Issue 54: how each game's public tabs print (checked in the .xlsx a practice match lays out): the board fit to
as many pages across as keep it at 8 pt (issue 64) with its legend inside its column, a Wesnoth map and a
Coalition plane over a few pages across with their own coordinates repeated on each (never the spreadsheet's
letters), the tables' header rows repeated."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.rulesets.registry import create_ruleset, ruleset_names, sheet_of
from sheets_gm.sheets.adapter import LEGEND_CHARS
from sheets_gm.sheets.local.boxes import parse_cells
from tests.sheets.practice import practice_copy


def _board(tmp_path: Path, game: str) -> openpyxl.Workbook:
    return openpyxl.load_workbook(practice_copy(tmp_path, game))


def _legend_fits(ws: object) -> None:
    """No text of the column right of the drawing spills past it (a page ends there)."""
    texts = [str(c.value) for row in ws.iter_rows() for c in row  # type: ignore[attr-defined]
             if isinstance(c.value, str) and "\n" not in c.value and c.column > 3]
    long = [t for t in texts if len(t) > LEGEND_CHARS + 3]
    assert not [t for t in long if t.startswith(("How to read", "Tiles:", "Players:"))], long


def test_gvg_prints_its_board_two_pages_wide_legend_and_all(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The board and its legend over two pages across and three down, landscape, at 7.8 pt (one page printed it at 4.3
    pt: issue 64, item 10; three across and as many down as it took, eight pages at 10 pt, issue 78 item 5; three
    across and two down at 8.2 pt, column O alone beside the legend on the third: issue 93, item 8), each page naming
    its rows with the row numbers."""
    wb = _board(tmp_path, "gvg")
    capsys.readouterr()
    board = wb["Board"]
    assert board.sheet_properties.pageSetUpPr.fitToPage and board.page_setup.fitToWidth == 2
    assert board.print_title_cols is None
    assert board.page_setup.fitToHeight == 3 and board.page_setup.orientation == "landscape"
    assert board.print_options.headings  # its tiles are named by the spreadsheet's cells: "tile G9 is cell G9"
    [col] = {c.column for row in board.iter_rows() for c in row if str(c.value).startswith("How to read the board")}
    legend = [str(board.cell(r, col).value) for r in range(4, board.max_row + 1) if board.cell(r, col).value]
    assert len(legend) > 8 and all(len(t) <= LEGEND_CHARS for t in legend), legend  # cut over rows, not spilled
    assert col == board.max_column and board.column_dimensions[board.cell(1, col).column_letter].width > 60
    log = wb["Log"]
    assert log.print_title_rows == "$1:$1" and log.page_setup.fitToWidth == 1


def test_a_wesnoth_map_prints_across_pages_at_a_readable_size(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    board = _board(tmp_path, "wesnoth")["Board"]
    capsys.readouterr()
    assert board.page_setup.fitToWidth == 2 and board.page_setup.orientation == "landscape"  # 3 before its key
    assert board.print_title_rows == "$1:$2" and not board.print_options.headings  # each hex names itself
    _legend_fits(board)


def test_a_coalition_plane_prints_over_pages_across_with_its_own_coordinates(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A plane over as many pages across as keep it at 8 pt or more (ten squares a page printed it at 7.3 pt: issue
    64, item 10), its column numbers and row letters repeated on each."""
    wb = _board(tmp_path, "coalition")
    capsys.readouterr()
    plane = wb["Dominaria"]
    assert plane.cell(1, 2).value == "1" and plane.cell(2, 1).value == "A"  # square 1A is labelled so, not cell B2
    assert not plane.print_options.headings
    assert plane.print_title_rows == "$1:$1" and plane.print_title_cols == "$A:$A"
    assert plane.sheet_properties.pageSetUpPr.fitToPage and plane.page_setup.fitToWidth == 4
    assert plane.page_setup.fitToHeight == 2 and plane.page_setup.orientation == "landscape"  # the fewest down too


@pytest.mark.parametrize("game", ruleset_names())
def test_a_legend_the_drawing_wraps_keeps_each_entry_whole_in_its_row(game: str) -> None:
    """A legend row in a wrapping cell holds a whole entry of the legend: cut over rows for a column that does not
    wrap, an entry beside wrapping cells left its last words in the next square's row, far below its start (a
    Coalition plane's 'Terrain: … have a tab' / '   each; the forum posts …', seen printed). Checked to fail with
    the plane's ``legend_wraps`` put back to False."""
    rules = create_ruleset(game)
    state = rules.new_match(rules.sample_roster(), b"legend")
    for drawing in sheet_of(rules).drawings(state):
        col = drawing.width + 1  # 0-based: the column right of the drawing and its gap (board_info_range)
        wrapped = set()
        for fill in drawing.fills:
            box = parse_cells(fill.range)
            if fill.wrap and box.min_col <= col + 1 <= (box.max_col or col + 1):
                wrapped |= set(range(box.min_row, (box.max_row or box.min_row + 100) + 1))
        entries = {str(row[0]) for row in drawing.legend if row}
        for i, row in enumerate(drawing.legend_rows):
            if 4 + i in wrapped:  # the legend's first row is 4: under the title, the status line and a blank
                assert str(row[0]) in entries, (game, drawing.tab, row)


def test_a_wrapping_fill_down_a_long_column_styles_the_column_and_each_cell_written_there_later() -> None:
    """Issue 64: a Log's sentences wrap (a long one ran on over empty cells, which LibreOffice prints, shrinking the
    page), laid as the column's own style rather than 20,000 styled empty cells (a board loaded 20 times slower);
    a cell a write makes there later takes the column's style, and its row grows to its text (``row_fit``)."""
    from sheets_gm.sheets.layout import Fill, TabLayout, WorkbookLayout
    from sheets_gm.sheets.local.cells import write_box
    from sheets_gm.sheets.local.layout import apply_layout
    from sheets_gm.sheets.row_fit import fit_rows

    wb = openpyxl.Workbook()
    log = TabLayout(name="Log", rows=20_000, cols=3, values={"A1": [["Turn", "Kind", "What happened"]]},
                    fills=(Fill("C2:C20000", "#FFFFFF", wrap=True),), column_widths={2: 700})
    apply_layout(wb, WorkbookLayout(title="t", tabs=(log,)))
    ws = wb["Log"]
    assert len(ws._cells) < 10 and ws.column_dimensions["C"].alignment.wrap_text
    write_box(ws, parse_cells("A5"), [[1, "dice", "d6 " * 400]], "Log!A5")
    assert ws["C5"].alignment.wrap_text and not ws["A5"].alignment.wrap_text
    fit_rows(ws, [5], set())
    assert ws.row_dimensions[5].height > 15
    small = TabLayout(name="Log", rows=50, cols=3, fills=(Fill("C2:C50", "#FFFFFF", wrap=True),))
    apply_layout(wb, WorkbookLayout(title="t", tabs=(small,)))
    assert wb["Log"]["C50"].alignment.wrap_text  # a short column: each cell styled, as before
