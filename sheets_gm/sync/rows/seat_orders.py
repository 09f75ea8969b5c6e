"""A seat's orders read from her rows for a window: the one reading a resolution makes of them, which its record and
the history keep the rows of, and which ``verify`` makes again from the history (``sync/life/typed_check.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.adapter import AnySheetAdapter, SeatInput
from sheets_gm.sheets.tables import InputTab, TypedRow, too_long


def whole_cells(tab: InputTab, rows: Mapping[str, Sequence[TypedRow]]) -> tuple[dict[str, list[TypedRow]],
                                                                                 dict[str, list[str]]]:
    """``rows`` (by table of ``tab``) without those holding a cell longer than a cell is read (``tables.too_long``),
    and why each of those is refused, by subject: a long cell is refused by name, never cut."""
    refused: dict[str, list[str]] = {}
    for table, typed in rows.items():
        headers = {c.key: c.header for c in tab.table(table).spec.columns}
        for row in typed:
            why = too_long(row, headers)
            if why:
                refused[row.subject] = why
    return {t: [r for r in typed if r.subject not in refused] for t, typed in rows.items()}, refused


def seat_orders(adapter: AnySheetAdapter, state: Any, window: Window, seat: str, tab: InputTab | None,
                rows: Mapping[str, Sequence[TypedRow]]) -> SeatInput[Any]:
    """What ``seat``'s ``rows`` (by table of her input tab ``tab``; None: she has none) give as her orders for
    ``window`` in ``state``, the rows whose cells are too long to read refused by name."""
    if tab is None:
        return adapter.read_orders(state, window, seat, {})
    whole, refused = whole_cells(tab, rows)
    found = adapter.read_orders(state, window, seat, whole)
    return replace(found, problems={**found.problems, **refused}) if refused else found


def by_table(tab: InputTab, window: Window, rows: Iterable[TypedRow]) -> dict[str, list[TypedRow]]:
    """``rows`` by the table of ``tab`` they were read from, every table open in ``window``'s phase (empty where
    none was read)."""
    listed = list(rows)
    return {p.spec.name: [r for r in listed if r.table == p.spec.name] for p in tab.tables
            if p.spec.open_in(window.phase)}
