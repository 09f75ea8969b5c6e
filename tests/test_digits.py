"""Digits typed in a cell are read as ``int()`` reads them, so a cell of odd digits gets a message, never a crash.

``str.isdigit()`` is true of superscripts and other digits ``int()`` refuses (``'¹'``, ``'²'``, ``'①'``): a check
with it followed by ``int()`` raises on a player's cell where a message naming the column was owed (Win or Die's
``Within`` read ``'¹'`` and the poll crashed, found by the any-cells property). ``str.isdecimal()`` is true of exactly
the digits ``int()`` takes, in every script, so the package checks with it alone.
"""

from __future__ import annotations

import ast

import pytest

from sheets_gm.sheets.tables import CellError, whole_number
from tests.paths import ROOT
from tests.test_layers import PACKAGE

ODD_DIGITS = ("¹", "²³", "①", "3²", "⁴2")


def isdigit_calls() -> list[str]:
    """Each ``….isdigit()`` in the package and in the new game's starter (``sheets_gm/commands/starter/``: every
    game made from it starts with its readers), as 'path:line'."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")  # a file that never spells the name calls no .isdigit: not parsed
        found += [f"{path.relative_to(ROOT)}:{line}" for line in _isdigit_lines(ast.parse(text))] \
            if "isdigit" in text else []
    for path in sorted((ROOT / "sheets_gm" / "commands" / "starter").rglob("*.tmpl")):
        found += [f"{path.relative_to(ROOT)}:{n}" for n, line in enumerate(path.read_text().splitlines(), 1)
                  if ".isdigit(" in line]
    return found


def _isdigit_lines(tree: ast.Module) -> tuple[int, ...]:
    return tuple(node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "isdigit")


def test_no_reader_checks_digits_with_isdigit() -> None:
    assert isdigit_calls() == [], "use str.isdecimal(): int() refuses some digits isdigit() accepts"


@pytest.mark.parametrize("typed", ODD_DIGITS)
def test_odd_digits_in_a_number_cell_are_a_message_naming_the_column(typed: str) -> None:
    with pytest.raises(CellError, match=r"VP .* is not a whole number: 0 or more"):
        whole_number(typed, "VP", "0 or more")


def test_decimal_digits_of_any_script_are_read_as_int_reads_them() -> None:
    assert whole_number("٣٤", "VP", "0 or more") == 34
