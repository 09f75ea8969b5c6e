"""Whether the history holds what the table typed: each resolution's orders read again from the rows it read.

Every resolution keeps in its history row the rows it read from each seat (``read``: her rows for the window,
standing tables included), the rows it archived (``archived``) and the orders it resolved (``orders``). ``verify -c``
reads every seat's rows again as the resolution read them (``sync/rows/seat_orders.py``) and names the first
window, and the seat, whose history does not match: a row archived that the resolution did not read as it stands,
or orders that are not what the rows read give (a resolution completed with fewer orders than its table typed).
A history row written before the rows read were kept (no ``read``) is not checked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.match_record import MatchRecord, joined_cells
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.rows.seat_orders import by_table, seat_orders
from sheets_gm.sync.rows.seat_read import cells_text


def _archived_rows(entry: Mapping[str, Any], seat: str) -> list[Mapping[str, Any]]:
    """The rows the history row ``entry`` archived of ``seat``'s (none when it keeps none readable)."""
    archived = entry.get("archived")
    cell = archived.get(seat) if isinstance(archived, Mapping) else None
    try:
        found = json.loads(joined_cells([cell], 0)) if isinstance(cell, str) else None
    except ValueError:
        return []
    rows = found.get("rows") if isinstance(found, dict) else None
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


def _not_read(archived: Sequence[Mapping[str, Any]], read: Sequence[TypedRow]) -> list[str]:
    """The subjects of ``archived`` rows that are not among the rows ``read``, with the same cells."""
    seen = {(r.table, r.subject): cells_text(dict(r.values)) for r in read}
    return [str(a.get("subject")) for a in archived
            if seen.get((str(a.get("table")), str(a.get("subject")))) != cells_text(a.get("values"))]


def orders_read(record: MatchRecord, tabs: MatchTabs, adapter: AnySheetAdapter, state: Any, window: Window,
            rows: Mapping[str, Sequence[TypedRow]]) -> Any:
    """The orders ``rows`` (by seat) give in ``window`` read as a resolution reads them, merged, as the history
    keeps them (JSON)."""
    ruleset = record.ruleset
    inputs = {}
    for seat in window.seats:
        mine = seat in tabs.input_seats()
        inputs[seat] = seat_orders(adapter, state, window, seat, tabs.orders(seat) if mine else None,
                                   by_table(tabs.orders(seat), window, rows.get(seat, ())) if mine else {}).orders
    return json.loads(json.dumps(ruleset.orders_codec.to_json(ruleset.merge_orders(inputs))))


def _entry_mismatch(record: MatchRecord, tabs: MatchTabs, adapter: AnySheetAdapter,
                    entry: Mapping[str, Any]) -> str | None:
    """What history row ``entry`` holds that its table did not type, named by window and seat (None: nothing)."""
    read = entry.get("read")
    state = record.ruleset.state_codec.from_json(entry["state_before"])
    window = record.ruleset.window(state)
    if not isinstance(read, Mapping) or window is None:
        return None
    where = f"the history of resolution {entry.get('resolution')} (window {window.key}, {window.label})"
    rows = {str(seat): [TypedRow.from_json(r) for r in found if isinstance(r, dict)]
            for seat, found in read.items() if isinstance(found, list)}
    for seat, seat_rows in rows.items():
        lost = _not_read(_archived_rows(entry, seat), seat_rows)
        if lost:
            return (f"{where} archived {seat}'s rows {', '.join(lost)} as the resolution did not read them: the "
                    "history was edited, or does not hold what the table typed")
    recorded = entry.get("orders")
    if orders_read(record, tabs, adapter, state, window, rows) == recorded:
        return None
    # whose orders are missing: the seats without whose rows the recorded orders are read
    seats = [s for s in window.seats if orders_read(record, tabs, adapter, state, window, {**rows, s: []}) == recorded]
    return (f"{where} records orders other than those {', '.join(seats or window.seats)} typed (the rows it read "
            "give other orders): a resolution completed with orders not read from the table, or the history was "
            "edited")


def typed_mismatch(record: MatchRecord, tabs: MatchTabs, adapter: AnySheetAdapter,
                   entries: Sequence[Mapping[str, Any]]) -> str | None:
    """The first history row (of ``entries``, the match's) that does not hold what the table typed, named by its
    window and seat (None when each does)."""
    for entry in entries:
        found = _entry_mismatch(record, tabs, adapter, entry)
        if found is not None:
            return found
    return None
