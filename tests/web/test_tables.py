"""The public board's tables as the page writes them: a first row of one cell is the table's caption, a later one a
plain line across it (the Coalition report's movement lines are no captions), the first row of several cells its
header; a long table (Wesnoth's unit types) folded under its title; a table without a tab of its own named."""

from __future__ import annotations

from sheets_gm.web.scene import Table
from sheets_gm.web.site import FOLDED_ROWS, shown_table


def test_a_one_cell_row_is_a_caption_first_and_a_line_after() -> None:
    table = Table("", (("Movement Results", "", ""), ("Army", "From", "To"), ("Host", "7C", "10C"),
                       ("Urza's Vanguard: Dominaria; 7C > 10C", "", "")))
    shown = shown_table(table, "Turn report")
    assert shown["title"] == "Turn report" and shown["width"] == 3 and not shown["folded"]
    assert [kind for kind, _ in shown["rows"]] == ["caption", "head", "cells", "line"]


def test_a_long_table_is_folded() -> None:
    rows = (("Type", "HP", "Moves"), *((f"Unit {n}", "30", "5") for n in range(FOLDED_ROWS)))
    assert shown_table(Table("Units", rows), "x")["folded"]
    assert not shown_table(Table("Units", rows[:FOLDED_ROWS]), "x")["folded"]


def test_every_cell_is_escaped_and_keeps_its_own_cell() -> None:
    """A table's cells are escaped at once, joined by control characters (one between cells, one between rows): a cell
    holding either, or markup, stays one cell of its own row, shown as typed; a table without them is written as
    each cell escaped alone writes it."""
    for odd in ("\x00", "\x01"):
        rows = (("Name", "Aim", "Note"), ("<b>Ann</b>", 'a "x" & \'y\'', f"c{odd}</td><td>d"), ("Bo", "", "<script>"))
        html = str(shown_table(Table("Players", rows), "x")["html"])
        assert html.count("<tr>") == 3 and html.count("<td>") == 6 and html.count("<th>") == 3, odd
        assert "<b>" not in html and "<script>" not in html and "</td><td>d" not in html
        assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "&amp;" in html and "&lt;script&gt;" in html
        assert f"c{odd}&lt;/td&gt;&lt;td&gt;d" in html
        plain = tuple(tuple(cell.replace(odd, "") for cell in row) for row in rows)
        assert str(shown_table(Table("Players", ((odd,), *plain)), "x")["html"]).split("\n")[1:] == \
            str(shown_table(Table("Players", (("",), *plain)), "x")["html"]).split("\n")[1:]

