"""Typed cells a ruleset's reading cannot judge, answered in the row's feedback instead of passed over in silence:
a Ready (or Go) cell holding something that is neither a tick nor an untick (a date, a word, a number a
spreadsheet turned a typed ``1/2`` into). The box is not counted as ticked, and the feedback says so and what
would be. (A cell longer than the sync reads is refused by name as the rows are read: ``tables.too_long``.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sheets_gm.sheets.spec import ColumnKind, InputTable
from sheets_gm.sheets.tables import TypedRow, text_of, ticked
from sheets_gm.sync.rows.fate_words import not_a_tick_words

#: What a tick cell may hold and still say "not ticked".
UNTICKED = frozenset({"", "false", "no", "n", "0", "-", "☐"})
_SHOWN = 30  # characters of a cell echoed back


def _shown(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…")


def cell_notes(row: TypedRow, table: InputTable) -> list[str]:
    """What the player should know of the cells of ``row`` that its ruleset reads without a word."""
    notes: list[str] = []
    for column in table.columns:
        value = row.values.get(column.key)
        if column.kind in (ColumnKind.READY, ColumnKind.TICK) and not isinstance(value, bool) and value is not None:
            text = text_of(value)
            if not ticked(value) and text.casefold() not in UNTICKED:
                notes.append(not_a_tick_words(column.header, _shown(text), column.kind is ColumnKind.READY))
    return notes


def with_cell_notes(problems: Mapping[str, Sequence[str]], rows: Mapping[str, Sequence[TypedRow]],
                    tables: Mapping[str, InputTable]) -> dict[str, list[str]]:
    """``problems`` (by row subject) with the ``cell_notes`` of every row of ``rows`` (by table) added."""
    out = {subject: list(found) for subject, found in problems.items()}
    for name, table_rows in rows.items():
        for row in table_rows:
            for note in cell_notes(row, tables[name]):
                if note not in out.setdefault(row.subject, []):
                    out[row.subject].append(note)
    return {subject: found for subject, found in out.items() if found}
