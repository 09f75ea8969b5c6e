"""Which Log lines of a window an undo took back each seat's View listed, kept by the undo for ``repair``.

The replay recomputes every resolution the history keeps, but not one an undo took back: its lines stay in the Log
and in the Views (they "no longer hold"), and when a View tab is lost ``repair`` can only take them from the Log.
Which of them a seat's View listed is the sync's rule (``writes.view_events``: by each event's data and whom the
game says it concerns), not a question of whose name a sentence holds ("Cat is knocked down on C7 (red's bulwark
on C7 held)" names red but is not red's line). So the undo, which still has the history entry of the resolution it
takes back, resolves it once more (the same state, orders and dice: the same events), and keeps in the record's
pending GM events, for each seat, the rows of that resolution's Log lines its View listed. ``repair`` then puts
back exactly those (``taken_back_rows``); a record kept before this was written falls back on the names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from sheets_gm.engine.events import visible_to
from sheets_gm.engine.ruleset import GM
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sync.life.replay import entry_dice
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.writes import log_lines, view_events

#: Their key in the record's pending GM events: ``[{"log_from": N, "rows": N, "listed": {seat: [[a, b], ...]}}]``,
#: each run of rows (``a`` to ``b``, counted from ``log_from``) lines that seat's View listed.
UNDONE = "undone"


def _runs(rows: Iterable[int]) -> list[list[int]]:
    """``rows`` (ascending) as runs ``[first, last]``.

    >>> _runs([0, 1, 2, 5, 7, 8])
    [[0, 2], [5, 5], [7, 8]]
    """
    runs: list[list[int]] = []
    for r in rows:
        if runs and runs[-1][1] == r - 1:
            runs[-1][1] = r
        else:
            runs.append([r, r])
    return runs


def undone_listing(record: MatchRecord, adapter: AnySheetAdapter, tabs: MatchTabs, entry: Mapping[str, Any],
                   state: Any) -> dict[str, Any] | None:
    """For the resolution the history ``entry`` records (resolved from ``state``), the Log rows its public lines
    took and, by seat, those of them its View listed (as ``UNDONE`` keeps them); None when the entry cannot say
    (a history written before it kept where its lines began, or orders that cannot be read)."""
    log_from = entry.get("log_from")
    if not isinstance(log_from, int):
        return None
    ruleset = record.ruleset
    try:
        orders = ruleset.orders_codec.from_json(entry["orders"])
        resolved = ruleset.resolve(state, orders, entry_dice(ruleset, record.seeds, state, entry))
    except (KeyError, ValueError, TypeError):
        return None
    rows_of: dict[int, range] = {}  # by event's id: the rows its Log line took
    row = 0
    for event in visible_to(resolved.events, None):
        taken = len(log_lines([event], adapter))
        rows_of[id(event)] = range(row, row + taken)
        row += taken
    listed = {seat: _runs(r for e in view_events(adapter, tabs, seat, resolved.events, resolved.state, state)
                          for r in rows_of.get(id(e), ()))
              for seat in tabs.view_seats() if seat != GM}
    return {"log_from": log_from, "rows": row, "listed": listed}


def with_undone(record: MatchRecord, listing: Mapping[str, Any] | None) -> MatchRecord:
    """``record`` keeping ``listing`` (``undone_listing``) among its pending GM events; the same record for None."""
    if listing is None:
        return record
    pending = record.gm_events or {"state_before": record.ruleset.state_codec.to_json(record.state), "events": []}
    return replace(record, gm_events={**pending, UNDONE: [*pending.get(UNDONE, []), dict(listing)]})


def taken_back_rows(pendings: Iterable[Mapping[str, Any] | None], seat: str) -> dict[int, bool]:
    """Each Log row (index from the Log's first) of a window an undo took back, as the undos kept them in
    ``pendings`` (history entries' and the record's GM events): whether ``seat``'s View listed its line."""
    out: dict[int, bool] = {}
    for pending in pendings:
        for item in (pending or {}).get(UNDONE, []):
            try:
                first, count = int(item["log_from"]), int(item["rows"])
                shown = {first + r for a, b in item["listed"].get(seat, []) for r in range(int(a), int(b) + 1)}
            except (KeyError, TypeError, ValueError, AttributeError):
                continue  # a kept listing edited by hand: those rows are judged by the names, as before
            out.update((r, r in shown) for r in range(first, first + count))
    return out
