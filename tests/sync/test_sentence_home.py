"""Every sentence a player reads about her row is built in one place (issue 38, "The design"): ``sync/rows/fates.py``
and its vocabulary ``sync/rows/fate_words.py``. The modules that write rows (``strays``, ``writes``, ``older_copy``,
``drawn_cells``, ``typed_cells``, ``archive_move``, ``between``, the poll) pick a sentence and build none: no text
literal elsewhere in ``sync/`` starts as a row's fate does."""

from __future__ import annotations

import ast
from pathlib import Path

import sheets_gm.sync
from sheets_gm.sync.rows.fate_words import (
    blank_row_sentence,
    duplicate_sentence,
    no_row_sentence,
    not_yours_sentence,
    past_table_sentence,
)

SYNC = Path(sheets_gm.sync.__file__).parent
HOMES = {"fates.py", "fate_words.py"}
#: How a sentence about a row starts: a refusal, a kept row, an empty row, the Archive's entries, an older copy.
OPENINGS = ("✘", "⚠", "Kept", "Waiting for", "Set aside", "Not read again", "Unticked", "Not resolved", "Put back",
            "Not carried out", "Nothing to write now", "Not open now", "Not yet:", "Moved here", "Row {")


def _literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Each text literal of ``tree`` (an f-string's first piece, with ``{`` for a value), docstrings left out."""
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(str(v.value) if isinstance(v, ast.Constant) else "{" for v in node.values)
            out.append((node.lineno, text))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            out.append((node.lineno, node.value))
    return out


def test_no_module_of_the_sync_but_the_fates_builds_a_sentence_about_a_row() -> None:
    found = []
    for path in sorted(SYNC.rglob("*.py")):
        if path.name in HOMES:
            continue
        for line, text in _literals(ast.parse(path.read_text(encoding="utf-8"))):
            if text.lstrip().startswith(OPENINGS):
                found.append(f"{path.relative_to(SYNC)}:{line}: {text[:60]!r}")
    assert not found, ("sentences about a row built outside sync/rows/fates.py and sync/rows/fate_words.py:\n"
                       + "\n".join(found))


def test_the_stray_rows_sentences_read_as_they_did() -> None:
    assert not_yours_sentence("Ann", "Bo", "own file (orders-Bo.xlsx, tab Orders Bo)", "Bo-R1") == (
        "✘ Bo-R1 is Bo's: Bo's orders go in Bo's own file (orders-Bo.xlsx, tab Orders Bo); nothing in this row is "
        "read.")
    assert not_yours_sentence("Ann", "Bo", "own tab, Orders Bo") == (
        "✘ Bo's orders go in Bo's own tab, Orders Bo, not in Ann's: nothing in this row is read.")
    assert no_row_sentence("", "Zed", ["Ann-R1", "Ann-R2"], "Unit") == (
        "✘ This table has no row for Zed now (its rows are Ann-R1, Ann-R2): nothing in this row is read; write in the "
        "row of the unit you mean.")
    assert no_row_sentence("", "Zed", [], "Unit").startswith("✘ This table has no row for Zed now (it has no rows now)")
    assert duplicate_sentence("Ann-R1", [5, 7]) == (
        "✘ Ann-R1 has 2 typed rows in this table (rows 5 and 7): none is read until one is left; clear the others.")
    assert past_table_sentence([("G", "Ring")], "F", ["Champion", "Item 1"]).startswith(
        "✘ Column G ('Ring') is past this table, which ends at column F: its columns are Champion, Item 1.")
    assert blank_row_sentence(6, False) == (
        "✘ Row 6 is between two tables: nothing typed in it is read; write orders in the rows of the tables.")
    assert blank_row_sentence(9, True, name="Ann-R1", own_row=4, held="note") == (
        "✘ Row 9 is under the last table: nothing typed in it is read; write Ann-R1's orders in its own row (row 4)."
        " · You typed in this cell: note")
    assert blank_row_sentence(9, True, last_row=7).startswith("✘ Row 9 is under the last table, which ends at row 7: "
                                                             "nothing typed in it is read")
